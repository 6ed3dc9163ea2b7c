#!/bin/sh
# Rebuilds ggml/testdata/*.json.gz from llama.cpp's libggml-base.so, and with
# "speed" prints this package's and ggml's per-element times side by side.
#
#   scripts/ggml-oracle/make-goldens.sh [LIBDIR] [speed]
#
# LIBDIR holds libggml-base.so (default: the x86-64 build in the npm package
# @node-llama-cpp/linux-x64, unpacked by `npm pack @node-llama-cpp/linux-x64`
# into /work/ggml-npm). log2f_table.c regenerates ggml/log2f_table.go from
# the C library's log2f (about 10 s).
set -eu
cd "$(dirname "$0")/../.."
LIB=${1:-/work/ggml-npm/package/bins/linux-x64}
OUT=${TMPDIR:-/tmp}/ggml-oracle.$$
mkdir -p "$OUT"
trap 'rm -rf "$OUT"' EXIT
gcc -O2 -Wall -o "$OUT/oracle" scripts/ggml-oracle/oracle.c -L"$LIB" -lggml-base -Wl,-rpath,"$LIB"
gcc -O2 -Wall -o "$OUT/log2f_table" scripts/ggml-oracle/log2f_table.c -lm
"$OUT/log2f_table" > ggml/log2f_table.go
gofmt -l ggml/log2f_table.go
if [ "${2:-}" = speed ]; then
	go test ./ggml -count=1 -run TestSpeed -oracle="$OUT/oracle" -speed -v
	exit
fi
go test ./ggml -count=1 -run TestGoldens -oracle="$OUT/oracle" -update -v | grep -v '^=== RUN'
go test ./ggml -count=1 -short
