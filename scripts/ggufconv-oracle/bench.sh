#!/bin/sh
# bench.sh: time ConvertGGUF against llama_model_quantize on a synthetic
# ~99M-parameter llama model in F16 (10 layers, n_embd 768, n_ff 3072,
# vocab 8192), for Q4_K_M and Q8_0, both with THREADS threads (default 2),
# median of 3 runs each, and check the outputs are identical. SHAPE=1b uses a
# model of Llama 3.2 1B's shape instead (1.24G parameters, 2.5 GB of F16).
#
#   [SHAPE=1b] scripts/ggufconv-oracle/bench.sh [LIBDIR] [THREADS]
set -eu
LIBDIR=${1:-/work/ggml-npm/package/bins/linux-x64}
THREADS=${2:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -Wall -o "$tmp/oracle" "$root/scripts/ggufconv-oracle/oracle.c" -ldl
(cd "$root" && go build -o "$tmp/gocheck" ./scripts/ggufconv-oracle/gocheck)
(cd "$root" && GGUFCONV_BENCH_SHAPE="${SHAPE:-}" GGUFCONV_BENCH_MODEL="$tmp/model.gguf" go test -timeout 30m -count=1 -run TestBenchModel ./ggufconv/ >/dev/null)
export LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
echo "# model: $(wc -c <"$tmp/model.gguf") bytes F16; $THREADS threads; $(nproc) cores; $(go version | cut -d' ' -f3)"
median() { sort -n | sed -n 2p; }
for ft in Q4_K_M=15 Q8_0=7; do
	id=${ft#*=} ft=${ft%=*}
	for i in 1 2 3; do
		"$tmp/oracle" "$LIBDIR" quantize "$tmp/model.gguf" "$tmp/llama.gguf" "$id" "$THREADS" 0 2>&1 | sed -n 's/^seconds //p'
	done | median >"$tmp/l"
	for i in 1 2 3; do
		"$tmp/gocheck" convert "$tmp/model.gguf" "$tmp/go.gguf" "$ft" "$THREADS" 2>&1 | sed -n 's/^seconds //p'
	done | median >"$tmp/g"
	if cmp -s "$tmp/llama.gguf" "$tmp/go.gguf"; then same=identical; else same=DIFFER; fi
	echo "$ft: llama_model_quantize $(cat "$tmp/l") s, ConvertGGUF $(cat "$tmp/g") s (median of 3); outputs $same ($(wc -c <"$tmp/go.gguf") bytes)"
done
