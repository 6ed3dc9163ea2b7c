#!/bin/sh
# run.sh: check package ggufconv against llama.cpp's llama_model_quantize.
#
#   scripts/ggufconv-oracle/run.sh [LIBDIR] > ggufconv/testdata/oracle.txt
#
# It builds oracle.c (which dlopens libllama.v0.5.0.so from LIBDIR, by
# default the x86-64 build of @node-llama-cpp/linux-x64 3.22.1 extracted
# with `npm pack`), has `go test -run TestOracleFiles ./ggufconv/` write
# the synthetic llama models of oracle_test.go and ConvertGGUF's output of
# each for every file type (FileType, LlamaLayout; with and without Pure),
# then quantizes each model with llama_model_quantize (the same ftype,
# pure, 2 threads) and compares the two files byte for byte. When they
# differ it lists the tensors whose type or bytes differ (gocheck). Not run
# by go test: it needs gcc and the library.
#
# With UPDATE_GOLDEN=1 it also writes ggufconv/testdata/llama-sha256.txt
# and llama-overrides-sha256.txt
# (the SHA-256 of every file llama_model_quantize wrote, which
# TestLlamaGoldens checks ConvertGGUF against without the library) and
# copies the tiny-f16 model and llama's Q4_K_M and Q8_0 files of it there.
set -eu
LIBDIR=${1:-/work/ggml-npm/package/bins/linux-x64}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -Wall -o "$tmp/oracle" "$root/scripts/ggufconv-oracle/oracle.c" -ldl
(cd "$root" && go build -o "$tmp/gocheck" ./scripts/ggufconv-oracle/gocheck)
(cd "$root" && GGUFCONV_ORACLE_DIR="$tmp/files" go test -count=1 -run TestOracleFiles ./ggufconv/ >/dev/null)
export LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

echo "# ggufconv vs llama_model_quantize ($LIBDIR)"
echo "# $(date -u +%Y-%m-%d) go: $(go version | cut -d' ' -f3)"
echo "# params: $("$tmp/oracle" "$LIBDIR" params)"
echo
same=0 differ=0 botherr=0 onlyone=0
# compare reports one case: $label, ours ($ours, or $ours.err when clconv
# refused), theirs ($theirs; lok=1 when llama wrote it, its log in $tmp/err).
compare() {
	if [ $lok = 0 ] && [ $gok = 0 ]; then
		botherr=$((botherr + 1))
		echo "$label: both refuse"
		echo "    llama: $(grep -v '^seconds' "$tmp/err" | grep -i 'failed\|error\|abort\|assert' | head -1)"
		echo "    go:    $(sed "s|$tmp/files/||" "$ours.err")"
	elif [ $lok = 0 ] || [ $gok = 0 ]; then
		onlyone=$((onlyone + 1))
		echo "$label: DISAGREE (llama ok=$lok, go ok=$gok)"
		grep -v '^seconds' "$tmp/err" | head -3 | sed 's/^/    llama: /'
		[ -f "$ours.err" ] && sed "s|$tmp/files/||; s/^/    go: /" "$ours.err"
	elif cmp -s "$ours" "$theirs"; then
		same=$((same + 1))
		echo "$label: identical ($(wc -c <"$ours") bytes, $("$tmp/gocheck" types "$ours"))"
	else
		differ=$((differ + 1))
		echo "$label: DIFFER"
		"$tmp/gocheck" diff "$ours" "$theirs" | sed 's/^/    /'
	fi
}
# ONLY_OVERRIDES=1 runs the overrides' cases alone (below).
for in in "$tmp"/files/*.gguf; do
	[ -z "${ONLY_OVERRIDES:-}" ] || break
	case "$in" in *.go.gguf) continue ;; esac
	name=$(basename "$in" .gguf)
	for ft in $("$tmp/gocheck" filetypes); do
		id=${ft#*=} ft=${ft%=*}
		for pure in 0 1; do
			sfx=; [ $pure = 1 ] && sfx=.pure
			ours="$tmp/files/$name.$ft$sfx.go.gguf"
			theirs="$tmp/files/$name.$ft$sfx.llama.gguf"
			label="$name $ft$sfx"
			[ -f "$ours" ] || [ -f "$ours.err" ] || continue # not tried for this model
			if "$tmp/oracle" "$LIBDIR" quantize "$in" "$theirs" "$id" 2 $pure 2>"$tmp/err"; then lok=1; else lok=0; fi
			if [ -f "$ours" ]; then gok=1; else gok=0; fi
			[ $lok = 1 ] && echo "$name $ft$sfx $(sha256sum <"$theirs" | cut -d' ' -f1)" >>"$tmp/sha"
			compare
		done
	done
done
# llama-quantize's overrides (--output-tensor-type, --token-embedding-type,
# --leave-output-tensor, --tensor-type): oracle_test.go's oracleOverrides,
# each with the environment that gives llama_model_quantize the same
# choices (NAME.ov-CASE.env).
for ours in "$tmp"/files/*.ov-*.go.gguf "$tmp"/files/*.ov-*.go.gguf.err; do
	[ -e "$ours" ] || continue
	case "$ours" in *.err) [ -f "${ours%.err}" ] && continue; ours=${ours%.err} ;; esac
	base=${ours%.go.gguf}
	label=$(basename "$base")
	in="$tmp/files/${label%%.ov-*}.gguf"
	theirs="$base.llama.gguf"
	if (eval "export $(cat "$base.env")"; "$tmp/oracle" "$LIBDIR" quantize "$in" "$theirs" "$ORACLE_FTYPE" 2 "$ORACLE_PURE") 2>"$tmp/err"; then lok=1; else lok=0; fi
	if [ -f "$ours" ]; then gok=1; else gok=0; fi
	[ $lok = 1 ] && echo "${label%%.ov-*} ${label#*.} $(sha256sum <"$theirs" | cut -d' ' -f1)" >>"$tmp/ovsha"
	compare
done
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	td="$root/ggufconv/testdata"
	sort "$tmp/ovsha" >"$td/llama-overrides-sha256.txt"
fi
if [ "${UPDATE_GOLDEN:-}" = 1 ] && [ -z "${ONLY_OVERRIDES:-}" ]; then
	td="$root/ggufconv/testdata"
	sort "$tmp/sha" >"$td/llama-sha256.txt"
	cp "$tmp/files/tiny-f16.gguf" "$td/tiny-f16.gguf"
	cp "$tmp/files/tiny-f16.Q4_K_M.llama.gguf" "$td/tiny-f16.Q4_K_M.llama.gguf"
	cp "$tmp/files/tiny-f16.Q8_0.llama.gguf" "$td/tiny-f16.Q8_0.llama.gguf"
fi
echo
echo "identical $same, differ $differ, both refuse $botherr, disagree $onlyone"
