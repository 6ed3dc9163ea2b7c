#!/usr/bin/env bash
# first-hour.sh: a new user's first hour with clconv, checked. It builds the
# command (or uses $CLCONV, a built binary), then in a temporary directory asks
# for its version and help, converts a small .npy file, evaluates and explains
# conversions, feeds the REPL, and inspects and converts a tiny safetensors
# file, checking each output and exit status (clconv --help, "Exit status").
# It needs no network (GOPROXY=off: the module cache must hold the
# dependencies, as after `go mod download`) and no Python: the input files are
# written with printf. Run it from anywhere:
#   scripts/first-hour.sh
# Prints ok or FAIL per check and 'N passed, N failed'; exits 1 if any failed.
set -u
cd "$(dirname "$0")/.."
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
# Each check is: if CONDITION; then ok DESCRIPTION; else bad DESCRIPTION; fi,
# after cl (below) has run clconv; bad adds what clconv printed.
bad() { no "$*: status $rc, stdout '$(printf '%s' "$out" | head -c 300)', stderr '$(printf '%s' "$err" | head -c 300)'"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${CLCONV:-}
if [ -z "$bin" ]; then
  bin=$tmp/clconv
  if ! GOPROXY=off go build -o "$bin" ./cmd/clconv; then
    echo "FAIL go build ./cmd/clconv"; echo "0 passed, 1 failed"; exit 1
  fi
fi
cd "$tmp"

# cl ARGS...: runs clconv, leaving stdout in $out, stderr in $err, status in $rc.
cl() { "$bin" "$@" >"$tmp/.out" 2>"$tmp/.err"; rc=$?; out=$(cat "$tmp/.out"); err=$(cat "$tmp/.err"); }
has() { printf '%s' "$1" | grep -qF -- "$2"; } # has TEXT STRING

# 1. The binary and its help.
cl --version
d="clconv --version prints 'clconv <version>'"; if [ "$rc" = 0 ] && case $out in "clconv "*) true ;; *) false ;; esac; then ok "$d"; else bad "$d"; fi
cl --help
for w in e2m1 mxfp4 nvfp4 safetensors bf16 float8_e4m3fn .npy "Exit status"; do
  d="clconv --help mentions $w"; if has "$out" "$w"; then ok "$d"; else bad "$d"; fi
done

# 2. A .npy file of four float32 values (1, 2.5, 300, -1), written by hand:
# magic, version 1.0, header length, the header dict padded with spaces to a
# multiple of 64 bytes in all (128), then the little-endian data.
dict="{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
hlen=$((128 - 10))
{ printf '\223NUMPY\001\000'; printf "\\$(printf %03o $hlen)\\000"; printf "%-$((hlen - 1))s\n" "$dict"
  printf '\000\000\200\077\000\000\040\100\000\000\226\103\000\000\200\277'; } >in.npy
descr() { head -c 128 "$1" | tr -d '\000' | grep -ao "'descr': '[^']*'" | cut -d"'" -f4; }
cl convert --to float16 in.npy half.npy
d="convert --to float16: status 0 and descr '<f2'"; if [ "$rc" = 0 ] && [ "$(descr half.npy)" = "<f2" ]; then ok "$d"; else bad "$d"; fi
cl convert --to uint8 --sat in.npy u8.npy
d="convert --to uint8 --sat: status 0 and descr '|u1'"; if [ "$rc" = 0 ] && [ "$(descr u8.npy)" = "|u1" ]; then ok "$d"; else bad "$d"; fi
cl inspect u8.npy
d="inspect u8.npy: 4 values, 0 .. 255 (-1 and 300 saturated)"; if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -Eq '^count: +4$' && printf '%s\n' "$out" | grep -Eq '^min: +0$' && printf '%s\n' "$out" | grep -Eq '^max: +255$'; then ok "$d"; else bad "$d"; fi
cl convert --to flaot16 in.npy typo.npy
d="convert --to flaot16: status 2 and suggests float16"; if [ "$rc" = 2 ] && has "$err" '"float16"'; then ok "$d"; else bad "$d"; fi
cl convert --to float16 in.npy half.npy
d="convert onto an existing OUT without --force: status 2"; if [ "$rc" = 2 ] && has "$err" "--force"; then ok "$d"; else bad "$d"; fi
cl convert --to float16 missing.npy out.npy
d="convert of a missing file: status 2"; if [ "$rc" = 2 ]; then ok "$d"; else bad "$d"; fi
head -c 70 in.npy >short.npy
cl convert --to float16 short.npy short16.npy
d="convert of a truncated .npy: status 1"; if [ "$rc" = 1 ] && has "$err" "truncated" && [ ! -e short16.npy ]; then ok "$d"; else bad "$d"; fi

# 3. Expressions, the REPL and explain.
cl eval 'convert_e4m3(448.0f)'
d="eval 'convert_e4m3(448.0f)' prints (e4m3)448"; if [ "$rc" = 0 ] && [ "$out" = "(e4m3)448" ]; then ok "$d"; else bad "$d"; fi
cl eval 'as_float(1)' 'convert_int(bad)'
d="eval with a bad expression: status 1, the good one answered"; if [ "$rc" = 1 ] && has "$out" "(float)" && has "$err" "bad"; then ok "$d"; else bad "$d"; fi
cl eval
d="eval with no expression: status 2"; if [ "$rc" = 2 ]; then ok "$d"; else bad "$d"; fi
cl nosuchcommand
d="an unknown command: status 2"; if [ "$rc" = 2 ]; then ok "$d"; else bad "$d"; fi
printf 'convert_int(1.5f)\nbad(\n' | "$bin" repl >repl.out 2>repl.err; rc=$?
d="repl on a pipe with a bad line: status 1, the good line answered"; if [ "$rc" = 1 ] && grep -qx '(int)1' repl.out; then ok "$d"; else bad "$d"; fi
printf 'float f = 2.5f;\nconvert_int_rte(f)\n' | "$bin" repl >repl.out 2>repl.err; rc=$?
d="repl on a pipe, all good: status 0"; if [ "$rc" = 0 ] && grep -qx '(int)2' repl.out; then ok "$d"; else bad "$d"; fi
cl explain 'convert_e4m3(464.0f)'
d="explain 'convert_e4m3(464.0f)': status 0 and a tie"; if [ "$rc" = 0 ] && has "$out" "tie"; then ok "$d"; else bad "$d"; fi
cl explain 'convert_int(bad)'
d="explain of a bad expression: status 1"; if [ "$rc" = 1 ] && has "$err" 'unknown identifier "bad"'; then ok "$d"; else bad "$d"; fi

# 4. A tiny safetensors file: an 8-byte little-endian header length, the JSON
# header padded with spaces to a multiple of 8, then the data (float32 1, 2.5,
# 300, -1 as a 2x2 tensor "w").
safetensors() { # safetensors FILE HEADER DATA-PRINTF
  local h=$2
  while [ $(( ${#h} % 8 )) != 0 ]; do h="$h "; done
  { printf "\\$(printf %03o $(( ${#h} % 256 )))\\$(printf %03o $(( ${#h} / 256 )))\\000\\000\\000\\000\\000\\000"
    printf '%s' "$h"; printf "$3"; } >"$1"
}
data='\000\000\200\077\000\000\040\100\000\000\226\103\000\000\200\277'
safetensors model.safetensors '{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}' "$data"
cl inspect model.safetensors
d="inspect model.safetensors lists tensor w, F32 (2, 2)"; if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -Eq '^w +F32 +\(2, 2\) +16$'; then ok "$d"; else bad "$d"; fi
cl convert --to bf16 model.safetensors model-bf16.safetensors
d="convert --to bf16 model.safetensors: status 0"; if [ "$rc" = 0 ] && [ -s model-bf16.safetensors ]; then ok "$d"; else bad "$d"; fi
cl inspect --stats model-bf16.safetensors
d="inspect --stats of the bf16 result: tensor w is BF16, min -1, max 300"; if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -Eq '^w +BF16 +\(2, 2\) +8 +-1 +300 +0 +0$'; then ok "$d"; else bad "$d"; fi
safetensors bad.safetensors '{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}}' '\000\000\200\077\000\000\040\100\000\000\226\103'
cl inspect bad.safetensors
d="inspect of a bad safetensors file: status 1 and an offset"; if [ "$rc" = 1 ] && has "$err" "offset"; then ok "$d"; else bad "$d"; fi
cl convert --to bf16 bad.safetensors bad-bf16.safetensors
d="convert of a bad safetensors file: status 1"; if [ "$rc" = 1 ] && has "$err" "offset" && [ ! -e bad-bf16.safetensors ]; then ok "$d"; else bad "$d"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
