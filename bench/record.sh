#!/bin/sh
# record.sh runs the measurements recorded in docs/PERFORMANCE.md and writes
# them to DIR (default: $TMPDIR/clconv-bench):
#
#   hot.txt, hot.benchstat   go test -bench 'Hot$|Small' -count 6, one core, and benchstat
#   parallel.txt             go test -bench HotParallel -count 6 (all cores)
#   bench.json, bench.png    clconv bench --json --png (median of 5; ratios to copy and pure Go)
#   bench-avx2.json          the same for the AVX2 tier
#   opencv.tsv               bench/opencv/run.sh: OpenCV convertTo on the same sizes
#
# benchstat comes from golang.org/x/perf (go install golang.org/x/perf/cmd/benchstat@latest);
# the OpenCV harness needs g++, pkg-config and libopencv-dev.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-${TMPDIR:-/tmp}/clconv-bench}
mkdir -p "$out"
cd "$root"
go build -o "$out/clconv" ./cmd/clconv
go test ./convert -run '^$' -bench 'Hot$|Small' -benchtime 0.1s -count 6 -cpu 1 >"$out/hot.txt"
go test ./convert -run '^$' -bench 'HotParallel' -benchtime 0.1s -count 6 >"$out/parallel.txt"
if command -v benchstat >/dev/null; then
	benchstat "$out/hot.txt" >"$out/hot.benchstat"
	benchstat "$out/parallel.txt" >"$out/parallel.benchstat"
fi
"$out/clconv" bench --json --png "$out/bench.png" >"$out/bench.json"
"$out/clconv" bench --tier avx2 --json >"$out/bench-avx2.json" || true
bench/opencv/run.sh >"$out/opencv.tsv" || echo "OpenCV harness failed (is libopencv-dev installed?)" >&2
echo "results in $out"
