#!/usr/bin/env bash
# Times full 2^32-input digests (the figures README.md quotes): median of 3
# runs of each, wall and CPU seconds. Run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/clconv
go build -o "$bin" ./cmd/clconv
for c in "convert_int_sat_rte float" "convert_half_rtz float" "convert_float_rtp int" \
         "convert_int float" "convert_float double" "convert_double_rtn long" "convert_float_rtz ulong" \
         "convert_double_rtp ulong" "convert_half ulong" "convert_char_sat double"; do
  for r in 1 2 3; do
    /usr/bin/time -f "%e %U" "$bin" digest -q $c 2>&1 >/dev/null | tail -1
  done | sort -n | sed -n 2p | awk -v c="$c" '{printf "%-28s median wall %6.2f s  cpu %6.2f s\n", c, $1, $2}'
done
