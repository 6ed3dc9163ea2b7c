#!/bin/sh
# run.sh: check package gguf against ggml's own GGUF code.
#
#   scripts/gguf-oracle/run.sh [path/to/libggml-base.so] > gguf/testdata/oracle.txt
#
# It builds oracle.c (which dlopens llama.cpp's libggml-base.so: by default
# the one of @node-llama-cpp/linux-x64 3.22.1, extracted with `npm pack`)
# and gocheck, has `go test -run TestOracleFiles ./gguf/` write the files
# (hostile/: every case of TestHostile; odd/: files that look wrong and are
# valid; ok/: files written by gguf.Writer with every value type, alignments
# 1, 32 and 64, version 2, every tensor type, nested arrays), then for each
# file compares what ggml's gguf_init_from_file reads with what gguf.Open
# reads (the same dump format, values as hex bytes), and rewrites every
# accepted file with gguf.WriteFile to check it is byte-identical, and with
# ggml (gguf_init_from_file, then as llama-quantize writes: gguf_set_kv,
# gguf_add_tensor, gguf_set_tensor_data, gguf_write_to_file) to
# check that ggml's writer makes the same bytes of it as gguf's. Last, it
# has ggml write a file (gguf_write_to_file) and checks it against
# gguf/testdata/ggml-written.gguf. Not run by go test: it needs gcc and the
# library.
set -eu
LIB=${1:-/work/ggml-npm/package/bins/linux-x64/libggml-base.so}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -Wall -o "$tmp/oracle" "$root/scripts/gguf-oracle/oracle.c" -ldl
(cd "$root" && go build -o "$tmp/gocheck" ./scripts/gguf-oracle/gocheck)
(cd "$root" && GGUF_ORACLE_DIR="$tmp/files" go test -count=1 -run TestOracleFiles ./gguf/ >/dev/null)

ggmlsame=0 ggmldiff=0 same=0 differ=0 rejboth=0 rejdiff=0 rewrites=0 rewritefail=0
echo "# gguf vs ggml ($LIB)"
echo "# $(date -u +%Y-%m-%d) go: $(go version | cut -d' ' -f3)"
echo

echo "## tensor types: ggml_type_name / ggml_blck_size / ggml_type_size vs gguf's table"
count=$("$tmp/oracle" "$LIB" dump "$tmp/files/hostile/type-99.gguf" 2>&1 | sed -n 's/.*should be in \[0, \([0-9]*\)).*/\1/p')
echo "GGML_TYPE_COUNT $count"
"$tmp/oracle" "$LIB" types "$count" >"$tmp/types.c"
"$tmp/gocheck" types >"$tmp/types.go"
if diff "$tmp/types.c" "$tmp/types.go" >"$tmp/types.diff"; then
	echo "types: $(wc -l <"$tmp/types.c") rows identical"
else
	echo "types: DIFFER"; cat "$tmp/types.diff"
fi
echo

compare() { # file label
	"$tmp/oracle" "$LIB" dump "$1" >"$tmp/c.txt" 2>"$tmp/c.err" || true
	"$tmp/gocheck" dump "$1" >"$tmp/g.txt" 2>&1 || true
	c=$(head -c 6 "$tmp/c.txt"); g=$(head -c 6 "$tmp/g.txt")
	if [ "$c" = REJECT ] && [ "$g" = REJECT ]; then
		rejboth=$((rejboth + 1))
		echo "$2: both reject"
		echo "    ggml: $(head -1 "$tmp/c.err" | sed 's/^gguf_init_from_[a-z_]*: //')"
		echo "    gguf: $(sed 's/^REJECT //; s|^[^:]*/files/||' "$tmp/g.txt")"
	elif [ "$c" = REJECT ] || [ "$g" = REJECT ]; then
		rejdiff=$((rejdiff + 1))
		echo "$2: DISAGREE (ggml: $(head -1 "$tmp/c.txt"), gguf: $(head -1 "$tmp/g.txt"))"
		echo "    ggml: $(head -1 "$tmp/c.err" | sed 's/^gguf_init_from_[a-z_]*: //')"
		echo "    gguf: $(sed 's/^REJECT //; s|^[^:]*/files/||' "$tmp/g.txt" | head -1)"
	elif cmp -s "$tmp/c.txt" "$tmp/g.txt"; then
		same=$((same + 1))
		echo "$2: both accept, dumps identical ($(grep -c '^kv "' "$tmp/c.txt") kv, $(grep -c '^tensor "' "$tmp/c.txt") tensors, data at $(sed -n 's/^data_offset //p' "$tmp/c.txt"))"
	else
		differ=$((differ + 1))
		echo "$2: both accept, dumps DIFFER"
		diff "$tmp/c.txt" "$tmp/g.txt" | sed 's/^/    /'
	fi
	if [ "$g" != REJECT ]; then
		if "$tmp/gocheck" rewrite "$1" "$tmp/re.gguf" && cmp -s "$1" "$tmp/re.gguf"; then
			rewrites=$((rewrites + 1))
			echo "    gguf rewrite: byte-identical"
		else
			rewritefail=$((rewritefail + 1))
			echo "    gguf rewrite: differs ($(cmp "$1" "$tmp/re.gguf" 2>&1 | head -1 | sed 's|^.*/files/||'))"
		fi
		if [ "$c" != REJECT ]; then
			if "$tmp/oracle" "$LIB" rewrite "$1" "$tmp/ggml-re.gguf" >/dev/null 2>&1 && cmp -s "$tmp/ggml-re.gguf" "$tmp/re.gguf"; then
				ggmlsame=$((ggmlsame + 1))
				echo "    ggml rewrite: identical to gguf's"
			else
				ggmldiff=$((ggmldiff + 1))
				echo "    ggml rewrite: differs from gguf's ($(cmp "$tmp/ggml-re.gguf" "$tmp/re.gguf" 2>&1 | head -1 | sed 's|^.*/tmp\.[^/]*/||'))"
			fi
		fi
	fi
}

echo "## files written by gguf.Writer"
for f in "$tmp"/files/ok/*.gguf; do compare "$f" "ok/$(basename "$f")"; done
echo
echo "## valid oddities (hand-made)"
for f in "$tmp"/files/odd/*.gguf; do compare "$f" "odd/$(basename "$f")"; done
echo
echo "## hostile files (TestHostile)"
for f in "$tmp"/files/hostile/*.gguf; do compare "$f" "hostile/$(basename "$f")"; done
echo

echo "## files written by ggml (gguf_write_to_file)"
"$tmp/oracle" "$LIB" write "$tmp/ggml.gguf"
if cmp -s "$tmp/ggml.gguf" "$root/gguf/testdata/ggml-written.gguf"; then
	echo "ggml write: identical to gguf/testdata/ggml-written.gguf ($(wc -c <"$tmp/ggml.gguf") bytes)"
else
	echo "ggml write: DIFFERS from gguf/testdata/ggml-written.gguf"
fi
compare "$tmp/ggml.gguf" "ggml-written.gguf"
"$tmp/oracle" "$LIB" write "$tmp/ggml-align64.gguf" 64
compare "$tmp/ggml-align64.gguf" "ggml-written-align64.gguf (general.alignment=64 set on gguf_init_empty)"
echo
echo "## summary"
echo "both accept, identical dumps: $same; both accept, dumps differ: $differ"
echo "both reject: $rejboth; one rejects: $rejdiff"
echo "gguf rewrites byte-identical: $rewrites; differing: $rewritefail"
echo "ggml rewrites identical to gguf's: $ggmlsame; differing: $ggmldiff"
cat <<'NOTE'

## the differences, explained
- one rejects (4): ok/nested.gguf (arrays of arrays: the specification allows
  them and gguf reads them; gguf.cpp refuses element type 9);
  hostile/data-past-end and second-tensor-past-end (gguf_init_from_file with
  no_alloc does not compare the data with the file's size; llama.cpp's loader
  does, "tensor data is not within the file bounds", and so does gguf);
  hostile/element-count-wraps (ne 2^32 x 2^32: ggml's int64 product wraps to
  0 and skips its overflow check; gguf counts exactly and refuses).
- gguf rewrite differs (7, all odd/): gguf writes what ggml writes, so a file
  that ggml's writer would not have made comes out normalized: a bool byte 2
  as 1, non-zero padding as zeros, the missing padding after the last tensor
  (or after the header of a file without tensors) added.
- ggml rewrite differs (7): the ggml rewrite is a fresh context, as
  llama-quantize makes one: it writes version 3 (v2 files), pads to 32 whatever
  general.alignment says (align1, align64, alignment-1: the ggml bug of
  TestGGMLWrittenAlign64), writes n_dims 1 for a tensor with none (no-dims),
  and copies names as C strings (empty-name-and-nul).
NOTE
