#!/usr/bin/env bash
# convert-bench.sh: throughput of `clconv convert` against `cp` of the same
# file, in the same run, on the same file system.
#
#   scripts/convert-bench.sh [SIZE_MIB [RUNS]]     (defaults: 1024 MiB, 5 runs)
#
# It builds clconv, writes a SIZE_MIB float32 .npy file of normally
# distributed values (mean 128, sd 80: mostly in uchar's range, a few percent
# clamped, almost all inexact), reads it once so that both contenders start
# from the page cache, then alternates, RUNS times:
#   cp IN cp.npy
#   clconv convert -q --to uchar --sat --round rte IN out.npy
# removing each output before the next run (so no run waits for the previous
# one's write-back). Neither syncs to disk. It prints each run (wall and CPU
# time: user + system, from /usr/bin/time when present), the medians,
# the throughput in input MiB/s and the ratio convert/cp, then medians of
# three runs each of --stats, --workers 1, a stdin->stdout pipe and of
# reading the input alone (dd to /dev/null), and the load average (other
# work on the machine skews every number; compare within one run).
#
# Environment: DIR=dir puts the files there (default: a new directory under
# ${TMPDIR:-/tmp}); KEEP=1 keeps them. Needs go, cp, awk, about 2.5x SIZE_MIB
# of free disk.
set -euo pipefail
size_mib=${1:-1024}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${DIR:-$(mktemp -d "${TMPDIR:-/tmp}/convert-bench.XXXXXX")}
mkdir -p "$work"
cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT

(cd "$root" && go build -o "$work/clconv" ./cmd/clconv)
mkdir -p "$work/gen"
cat >"$work/gen/main.go" <<'EOF'
// Writes a float32 .npy file of N MiB of normally distributed values.
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

func main() {
	mib, _ := strconv.Atoi(os.Args[2])
	n := int64(mib) << 20 / 4
	dict := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }", n)
	total := (10 + len(dict) + 1 + 63) &^ 63
	dict += strings.Repeat(" ", total-10-len(dict)-1) + "\n"
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("\x93NUMPY\x01\x00")
	binary.Write(w, binary.LittleEndian, uint16(len(dict)))
	w.WriteString(dict)
	r := rand.New(rand.NewPCG(1, 2))
	var b [4]byte
	for i := int64(0); i < n; i++ {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(float32(r.NormFloat64()*80+128)))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		panic(err)
	}
	if err := f.Close(); err != nil {
		panic(err)
	}
}
EOF
(cd "$work/gen" && GOFLAGS= GO111MODULE=off go build -o "$work/gen/gen" main.go)
in="$work/in.npy"
"$work/gen/gen" "$in" "$size_mib"
sync
cat "$in" >/dev/null
bytes=$(stat -c %s "$in")
clconv="$work/clconv"

# measure CMD...: runs CMD and prints its wall time and its CPU time (user +
# system, which other work on the machine disturbs far less), in seconds.
if [ -x /usr/bin/time ]; then
	measure() {
		/usr/bin/time -f '%e %U %S' -o "$work/time" "$@"
		awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$work/time"
	}
else
	measure() {
		local s e
		s=$(date +%s.%N)
		"$@"
		e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f -\n", e - s }'
	}
fi
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
mibs() { awk -v b="$bytes" -v t="$1" 'BEGIN { printf "%.0f", b / 1048576 / t }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "# $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, $(go version | cut -d' ' -f3)"
echo "# file system of $work: $(df -T "$work" | awk 'NR == 2 { print $2 }'); input $in: $bytes bytes"
printf '%-4s %9s %9s %12s %12s %7s\n' run cp_wall cp_cpu convert_wall convert_cpu ratio
cp_w=() cp_c=() cv_w=() cv_c=()
for i in $(seq "$runs"); do
	rm -f "$work/cp.npy" "$work/out.npy"
	read -r w1 c1 < <(measure cp "$in" "$work/cp.npy")
	rm -f "$work/cp.npy"
	read -r w2 c2 < <(measure "$clconv" convert -q --to uchar --sat --round rte "$in" "$work/out.npy")
	rm -f "$work/out.npy"
	cp_w+=("$w1") cp_c+=("$c1") cv_w+=("$w2") cv_c+=("$c2")
	printf '%-4s %9s %9s %12s %12s %7s\n' "$i" "$w1" "$c1" "$w2" "$c2" "$(ratio "$w2" "$w1")"
done
m_cp=$(printf '%s\n' "${cp_w[@]}" | median)
m_cv=$(printf '%s\n' "${cv_w[@]}" | median)
echo "median wall: cp ${m_cp}s ($(mibs "$m_cp") MiB/s), convert ${m_cv}s ($(mibs "$m_cv") MiB/s of input), ratio convert/cp $(ratio "$m_cv" "$m_cp")"
if [ "${cp_c[0]}" != - ]; then
	mc_cp=$(printf '%s\n' "${cp_c[@]}" | median)
	mc_cv=$(printf '%s\n' "${cv_c[@]}" | median)
	echo "median CPU:  cp ${mc_cp}s, convert ${mc_cv}s"
fi

variant() {
	local name=$1 w c ws=() cs=()
	shift
	for i in 1 2 3; do
		rm -f "$work/out.npy"
		read -r w c < <(measure "$@")
		rm -f "$work/out.npy"
		ws+=("$w") cs+=("$c")
	done
	w=$(printf '%s\n' "${ws[@]}" | median)
	c=$(printf '%s\n' "${cs[@]}" | median)
	echo "median of 3: $name: wall ${w}s ($(mibs "$w") MiB/s), CPU ${c}s"
}
export clconv in out="$work/out.npy"
variant "convert --stats" bash -c '"$clconv" convert -q --stats --to uchar --sat --round rte "$in" "$out" >/dev/null'
variant "convert --workers 1" "$clconv" convert -q --workers 1 --to uchar --sat --round rte "$in" "$work/out.npy"
variant "convert - - (stdin and stdout redirected to the files)" bash -c '"$clconv" convert -q --to uchar --sat --round rte - - <"$in" >"$out"'
variant "dd if=IN of=/dev/null bs=1M (reading alone)" dd if="$in" of=/dev/null bs=1M status=none
echo "# load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
