#!/usr/bin/env bash
# Near-quiet runs: the builds in BUILDS at once, one each on CPUs 3, 7, 11 (rotated every round).
# BUILDS may name one binary several times (clconv-NAME): each copy is its own run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
res=${OUT:-out}; W=$res/${TAG:-q}; mkdir -p "$W"
{ date -u; uptime; lscpu | grep -i 'model name\|mhz'; } > "$W/host.txt"
read -r -a bs <<< "${BUILDS:-final final final}"
cpus=(3 7 11)
for r in ${ROUNDS:-1 2}; do
  for k in "${!bs[@]}"; do
    c=${cpus[$(((k + r) % ${#bs[@]}))]}
    (cd "$here" && taskset -c $c ./clconv-${bs[$k]} bench --all --json --tier go --size l2 --repeat ${REPEAT:-7} > "$W/${bs[$k]}-$k-q$r.json" 2> "$W/${bs[$k]}-$k-q$r.err") &
  done
  wait
  for k in "${!bs[@]}"; do grep -h '"over_4x_below_median"\|"slowest_below_median"\|"median_gelem_per_s"' "$W/${bs[$k]}-$k-q$r.json" | tr -d ' \n'; echo " ${bs[$k]} $k $r"; done
done
tar czf "$res/${TAG:-q}.tgz" -C "$res" "${TAG:-q}" && rm -rf "$W"
