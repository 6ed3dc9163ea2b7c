#!/usr/bin/env bash
# Times full 2^32-input digests (the figures README.md and docs/PERFORMANCE.md
# quote): median of 3 runs of each, wall and CPU seconds, and checks that every
# run prints the same digest line.
#
#   scripts/digest-times.sh [OLD_BINARY]
#
# With OLD_BINARY (a clconv built from an earlier commit), each conversion is
# timed with both binaries in the same sitting, runs interleaved, and the two
# digest lines must be equal: before and after in one run. Run on a quiet
# machine; WORKERS=N passes --workers N.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-}
bin=$(mktemp -d)/clconv
go build -o "$bin" ./cmd/clconv
echo "# $(go version | cut -d' ' -f3) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
time1() { # binary conversion source -> "wall cpu line"
  local t out
  t=$(mktemp)
  out=$(/usr/bin/time -f "%e %U" -o "$t" "$1" digest -q ${WORKERS:+--workers $WORKERS} "$2" "$3")
  echo "$(cat "$t") $(echo "$out" | cut -f1-6 | tr '\t' ' ')"
  rm -f "$t"
}
for c in "convert_int_sat_rte float" "convert_half_rtz float" "convert_float_rtp int" \
         "convert_int float" "convert_float double" "convert_double_rtn long" "convert_float_rtz ulong" \
         "convert_double_rtp ulong" "convert_half ulong" "convert_char_sat double"; do
  rn=() ro=()
  for r in 1 2 3; do
    rn+=("$(time1 "$bin" $c)")
    [ -z "$old" ] || ro+=("$(time1 "$old" $c)")
  done
  med() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
  lines=$(printf '%s\n' "${rn[@]}" ${old:+"${ro[@]}"} | cut -d' ' -f3- | sort -u | wc -l)
  [ "$lines" = 1 ] || { echo "$c: the runs printed different digests"; printf '%s\n' "${rn[@]}" "${ro[@]}"; exit 1; }
  n=$(med "${rn[@]}")
  if [ -n "$old" ]; then
    o=$(med "${ro[@]}")
    # fields: conversion source | before: wall cpu line (6) | after: wall cpu line
    echo "$c $o $n" | awk '{printf "%-28s before wall %6.2f s cpu %6.2f s   after wall %6.2f s cpu %6.2f s   %5.1fx\n", $1" "$2, $3, $4, $11, $12, $3/$11}'
  else
    echo "$c $n" | awk '{printf "%-28s median wall %6.2f s  cpu %6.2f s\n", $1" "$2, $3, $4}'
  fi
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
