#!/usr/bin/env bash
# Measures clconv's interpreter on issue 30's loop (10,000,000 iterations, two
# conversions each; docs/LANGUAGE.md, "How programs run"): clconv run built from
# BASE (default c3bc9e3, the last commit before the compiler, whose interpreter
# walked the tree) against this tree's, then BenchmarkLoop's tree walker
# against compiled code in one process. The runs alternate, each pinned to one
# core; every time is printed (wall and CPU seconds), then the median of the
# pairs' CPU-time ratios. The outputs must be identical.
#   scripts/interp-speed.sh [BASE] [RUNS]     (default c3bc9e3, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-c3bc9e3} runs=${2:-5}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
mkdir "$w/base"
git archive "$base" | tar -x -C "$w/base"
(cd "$w/base" && go build -o "$w/old" ./cmd/clconv)
go build -o "$w/new" ./cmd/clconv
go test -c -o "$w/clc.test" ./clc
cat >"$w/loop.cl" <<'CL'
int acc = 0;
float f = 0.5f;
for (int i = 0; i < 10000000; i++) {
    acc += convert_int_sat_rte(f * (float)(i & 1023));
    f = convert_float_rtz(acc & 255) * 0.001f + 0.5f;
}
int result = acc;
CL
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 1); fi
# t CMD... runs CMD pinned and prints "WALL CPU" in seconds.
t() {
  local TIMEFORMAT='%R %U %S'
  { time "${pin[@]}" "$@" >"$w/out"; } 2>"$w/time"
  awk '{printf "%.3f %.3f", $1, $2 + $3}' "$w/time"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$w/r1"; : >"$w/r2"
for i in $(seq "$runs"); do
  read -r ow oc <<<"$(t "$w/old" run --bits "$w/loop.cl")"; cp "$w/out" "$w/old.out"
  read -r nw nc <<<"$(t "$w/new" run --bits "$w/loop.cl")"
  cmp -s "$w/old.out" "$w/out" || { echo "outputs differ:"; diff "$w/old.out" "$w/out"; exit 1; }
  awk "BEGIN{print $oc / $nc}" >>"$w/r1"
  echo "run $i: clconv run: $base $ow s wall, $oc s CPU; this tree $nw s wall, $nc s CPU ($(awk "BEGIN{printf \"%.0f\", $nc * 100}") ns per iteration); ratio $(awk "BEGIN{printf \"%.1f\", $oc / $nc}")"
  "${pin[@]}" "$w/clc.test" -test.run '^$' -test.bench '^BenchmarkLoop$' -test.benchtime 20x >"$w/bench"
  bt=$(awk '$1 ~ /tree/ {print $3}' "$w/bench") bc=$(awk '$1 ~ /compiled/ {print $3}' "$w/bench")
  awk "BEGIN{print $bt / $bc}" >>"$w/r2"
  echo "run $i: BenchmarkLoop (100,000 iterations): tree walker $bt ns/op, compiled $bc ns/op; ratio $(awk "BEGIN{printf \"%.1f\", $bt / $bc}")"
done
echo "median ratio, clconv run $base / this tree (CPU time): $(median <"$w/r1" | awk '{printf "%.1f", $1}')x"
echo "median ratio, BenchmarkLoop tree walker / compiled: $(median <"$w/r2" | awk '{printf "%.1f", $1}')x"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
