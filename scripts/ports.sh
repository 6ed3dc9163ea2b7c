#!/usr/bin/env bash
# ports.sh: the packages' -short tests on Go's other ports, under qemu-user and node.
#
#   scripts/ports.sh [PORT...]        (default: every port below)
#
# Each port × package test binary is cross-compiled (`GOOS=... GOARCH=... go test -c`),
# then run with -test.short from the package's directory: under qemu-ARCH-static for
# the Linux ports, under node through
# $(go env GOROOT)/lib/wasm/go_js_wasm_exec for js/wasm. It prints one line per run
# and a port × package table, and exits 1 if any run failed.
#
# Environment: PKGS="convert round ..." picks the packages; TAGS=purego adds build
# tags; JOBS=N runs N binaries at once (default: the number of CPUs); KEEP=dir keeps
# the binaries and logs there. Needs qemu-user-static and nodejs (Debian). The runs
# set CLCONV_SAMPLE=1, under which the heaviest sweeps check a sample of their
# inputs (internal/testvals.Sampled); they run in full natively.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ports=("$@")
[ ${#ports[@]} -gt 0 ] || ports=(386 arm arm64 riscv64 ppc64le s390x mips loong64 wasm)
pkgs=(${PKGS:-convert round internal/permode half value clc clc/internal/syntax fileconv cmd/clconv/internal/digest internal/digestspec internal/byteorder bfloat16 fp8 internal/minifloat internal/floatfmt})
work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/ports.XXXXXX")}
mkdir -p "$work"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
wasmexec="$(go env GOROOT)/lib/wasm"

runner() { # port -> command prefix
	case $1 in
	# 386 under qemu too (kernels may lack 32-bit emulation), without Go's
	# asynchronous preemption: qemu 7.2's i386 signal frames crash its
	# signal handler ("morestack on gsignal"); its emulation of waitid for a
	# child process crashes the runtime too, so tests start no host programs.
	386) echo "env GODEBUG=asyncpreemptoff=1 CLCONV_NO_EXEC=1 qemu-i386-static" ;;
	arm) echo qemu-arm-static ;;
	arm64) echo qemu-aarch64-static ;;
	riscv64) echo qemu-riscv64-static ;;
	ppc64le) echo qemu-ppc64le-static ;;
	s390x) echo qemu-s390x-static ;;
	mips) echo qemu-mips-static ;;
	loong64) echo qemu-loongarch64-static ;;
	wasm) echo "$wasmexec/go_js_wasm_exec" ;;
	esac
}
goenv() { # port -> GOOS/GOARCH assignments
	case $1 in
	wasm) echo "GOOS=js GOARCH=wasm" ;;
	arm) echo "GOOS=linux GOARCH=arm GOARM=7" ;;
	mips) echo "GOOS=linux GOARCH=mips GOMIPS=hardfloat" ;;
	*) echo "GOOS=linux GOARCH=$1" ;;
	esac
}

# Build every binary first (the build cache shares work between ports).
echo "== build"
for port in "${ports[@]}"; do
	for pkg in "${pkgs[@]}"; do
		bin="$work/$port.${pkg//\//_}.test"
		if ! env $(goenv "$port") go test -c ${TAGS:+-tags "$TAGS"} -o "$bin" "./$pkg" >"$work/$port.${pkg//\//_}.build" 2>&1; then
			echo "build $port $pkg: FAIL"; cat "$work/$port.${pkg//\//_}.build"
		fi
	done
done

run1() { # port pkg
	local port=$1 pkg=$2 f="$1.${2//\//_}" start end
	local bin="$work/$f.test" log="$work/$f.log" res="$work/$f.res"
	if [ ! -x "$bin" ]; then echo "$port $pkg BUILD-FAIL 0" >"$res"; return; fi
	start=$(date +%s)
	# The wasm exec wrapper finds node and wasm_exec_node.js by PATH and GOROOT.
	# CLCONV_SAMPLE=1: the heaviest sweeps check a sample of their inputs
	# under emulation (testvals.Sampled; they run in full natively).
	(cd "$root/$pkg" && PATH="$wasmexec:$PATH" CLCONV_SAMPLE=1 timeout 900 $(runner "$port") "$bin" -test.short -test.timeout 14m) >"$log" 2>&1
	local rc=$?
	end=$(date +%s)
	if [ $rc = 0 ]; then echo "$port $pkg ok $((end - start))"; else echo "$port $pkg FAIL $((end - start))"; fi >"$res"
	cat "$res"
	[ $rc = 0 ] || tail -n 30 "$log" | sed "s/^/    $port $pkg: /"
}
export -f run1 runner
export work root wasmexec

echo "== run ($jobs at a time)"
for port in "${ports[@]}"; do for pkg in "${pkgs[@]}"; do echo "$port $pkg"; done; done |
	xargs -P "$jobs" -L 1 bash -c 'run1 "$0" "$1"'

echo "== table (seconds; FAIL marks a failed run)"
printf '%-8s' port; for pkg in "${pkgs[@]}"; do printf ' %10s' "${pkg##*/}"; done; echo
fail=0
for port in "${ports[@]}"; do
	printf '%-8s' "$port"
	for pkg in "${pkgs[@]}"; do
		read -r _ _ st secs <"$work/$port.${pkg//\//_}.res" || st=missing
		if [ "$st" = ok ]; then printf ' %10s' "$secs"; else printf ' %10s' "FAIL"; fail=1; fi
	done
	echo
done
[ -n "${KEEP:-}" ] || rm -rf "$work"
exit $fail
