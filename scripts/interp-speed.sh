#!/usr/bin/env bash
# Measures clconv's interpreter on issue 30's loop (10,000,000 iterations, two
# conversions each; docs/LANGUAGE.md, "How programs run"): clconv run of a
# build of BASE (default c3bc9e3, the last commit before the compiler, whose
# interpreter walked the tree) against this tree's, alternating, each pinned to
# one core, then BenchmarkLoop's tree walker against compiled code in one
# process. Prints every time, the medians and their ratios; the outputs must
# be identical.
#   scripts/interp-speed.sh [BASE] [RUNS]     (default c3bc9e3, 5 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-c3bc9e3} runs=${2:-5}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
mkdir "$w/base"
git archive "$base" | tar -x -C "$w/base"
(cd "$w/base" && go build -o "$w/old" ./cmd/clconv)
go build -o "$w/new" ./cmd/clconv
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
t() { local s e; s=$(date +%s.%N); "${pin[@]}" "$@" >"$w/out"; e=$(date +%s.%N); awk "BEGIN{printf \"%.3f\", $e - $s}"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$w/old.t"; : >"$w/new.t"
for i in $(seq "$runs"); do
  o=$(t "$w/old" run --bits "$w/loop.cl"); cp "$w/out" "$w/old.out"
  n=$(t "$w/new" run --bits "$w/loop.cl"); cp "$w/out" "$w/new.out"
  cmp -s "$w/old.out" "$w/new.out" || { echo "outputs differ:"; diff "$w/old.out" "$w/new.out"; exit 1; }
  echo "$o" >>"$w/old.t"; echo "$n" >>"$w/new.t"
  echo "run $i: $base $o s, this tree $n s, ratio $(awk "BEGIN{printf \"%.1f\", $o / $n}")"
done
mo=$(median <"$w/old.t") mn=$(median <"$w/new.t")
echo "clconv run, median of $runs: $base $mo s, this tree $mn s: $(awk "BEGIN{printf \"%.1f\", $mo / $mn}")x ($(awk "BEGIN{printf \"%.0f\", $mn * 100}") ns per iteration)"
"${pin[@]}" go test ./clc -run '^$' -bench '^BenchmarkLoop$' -benchtime 10x -count "$runs" | tee "$w/bench" | grep '^BenchmarkLoop'
mt=$(awk '$1 ~ /tree/ {print $3}' "$w/bench" | median) mc=$(awk '$1 ~ /compiled/ {print $3}' "$w/bench" | median)
echo "BenchmarkLoop, median of $runs: tree walker $mt ns/op, compiled $mc ns/op: $(awk "BEGIN{printf \"%.1f\", $mt / $mc}")x"
