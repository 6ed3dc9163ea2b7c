#!/usr/bin/env bash
# ports.sh: every package's -short tests on Go's other ports, under qemu-user and node.
#
#   scripts/ports.sh [PORT...]        (default: every port below)
#
# The packages are every package of the module that has tests (`go list`), less
# the command's own: cmd/clconv and its internal packages difftest, explain,
# opencl (the OpenCL host layer, cgo) and verify, whose tests build and start
# the command or drive OpenCL. cmd/clconv/internal/digest is in (its
# TestCrossPort is what the ports are for). A new package is in by default.
#
# Each port's test binaries are cross-compiled by one `go test -c -o DIR/`
# (`GOOS=... GOARCH=...`), then run with -test.short from the package's
# directory: under qemu-ARCH-static for the Linux ports, under node through
# $(go env GOROOT)/lib/wasm/go_js_wasm_exec for js/wasm, and 386 natively
# where the kernel runs i386 binaries, else under qemu-i386-static (when
# root, it also registers qemu-i386 for plain `GOARCH=386 go test` there:
# scripts/binfmt-386.sh). The runs go heaviest first, JOBS at a time. It
# prints one line per run and a package × port table, and exits 1 if any
# build or run failed.
#
# Environment: PKGS="convert round ..." picks the packages; SKIP="pkg ..."
# leaves some out of the default list (a package someone is still writing);
# TAGS=purego adds build tags; JOBS=N runs N binaries at once (default: the
# number of CPUs); KEEP=dir keeps the binaries and logs there; I386=qemu or
# native forces how 386 runs. Needs qemu-user-static and nodejs (Debian). The
# runs set CLCONV_SAMPLE=1, under which the heaviest sweeps check a sample of
# their inputs (internal/testvals.Sampled); they run in full natively.
# PORTS_GOGC sets the runs' GOGC (default 400).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
t0=$(date +%s)
ports=("$@")
[ ${#ports[@]} -gt 0 ] || ports=(386 arm arm64 riscv64 ppc64le s390x mips loong64 wasm)
mod=$(go list -m)
# The command's packages the ports leave out (see above).
excluded="cmd/clconv cmd/clconv/internal/difftest cmd/clconv/internal/explain cmd/clconv/internal/opencl cmd/clconv/internal/verify"
if [ -n "${PKGS:-}" ]; then
	pkgs=($PKGS)
else
	pkgs=()
	for p in $(go list -e -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./...); do
		p=${p#"$mod"/}
		case " $excluded ${SKIP:-} " in *" $p "*) continue ;; esac
		pkgs+=("$p")
	done
fi
work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/ports.XXXXXX")}
mkdir -p "$work"
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
wasmexec="$(go env GOROOT)/lib/wasm"

# 386: natively where the kernel runs i386 binaries (faster, and the real
# thing); else under qemu-i386-static, registered for plain `go test` too when
# we are root.
i386=${I386:-}
if [[ " ${ports[*]} " == *" 386 "* ]]; then
	if [ -z "$i386" ]; then
		i386=$("$root/scripts/binfmt-386.sh" --check || echo none)
		if [ "$i386" = none ] && [ "$(id -u)" = 0 ] && command -v qemu-i386-static >/dev/null; then
			"$root/scripts/binfmt-386.sh" || echo "ports: could not register qemu-i386 for i386 binaries"
		fi
	fi
	[ "$i386" = native ] || i386=qemu
	echo "== 386 runs $([ "$i386" = native ] && echo natively || echo under qemu-i386-static)"
fi

runner() { # port -> command prefix
	case $1 in
	# 386 under qemu: without Go's asynchronous preemption, whose signals
	# qemu 7.2's i386 signal frames crash ("morestack on gsignal").
	386) if [ "$i386" = native ]; then echo env; else echo "env GODEBUG=asyncpreemptoff=1 qemu-i386-static"; fi ;;
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
key() { echo "${1//\//_}"; } # pkg -> file name part

# Build: one go command per port (and per group of packages with distinct
# names, as `go test -c -o DIR/` names each binary after its package), which
# loads the module once and compiles and links in parallel. A package whose
# binary is missing afterwards is built again alone, for its own log.
# Vet once per build configuration instead of once per port inside every
# `go test -c` (which vets each package again for each GOARCH): a 32-bit
# port and js/wasm, which between them compile every file the ports add to
# amd64's (the !amd64 and purego files, the !unix and !linux ones). The test
# builds below then skip vet (-vet=off); CI's `go vet ./...` covers amd64.
if [ -z "${NOVET:-}" ]; then
	echo "== vet (${#pkgs[@]} packages) for 386 and js/wasm"
	for port in 386 wasm; do
		if ! env $(goenv "$port") go vet ${TAGS:+-tags "$TAGS"} "${pkgs[@]/#/./}" >"$work/vet.$port.log" 2>&1; then
			echo "vet $port: FAIL"
			sed "s/^/    /" "$work/vet.$port.log"
			vetfail=1
		fi
	done
fi
echo "== build (${#pkgs[@]} packages: ${pkgs[*]})"
groups=()
declare -A gof=()
for pkg in "${pkgs[@]}"; do
	n=${pkg##*/} g=0
	while [[ " ${groups[$g]:-} " == *" $n:"* ]]; do g=$((g + 1)); done
	groups[$g]="${groups[$g]:-} $n:$pkg"
	gof[$pkg]=$g
done
for port in "${ports[@]}"; do
	for g in "${!groups[@]}"; do
		dir="$work/$port/$g"
		mkdir -p "$dir"
		list=()
		for e in ${groups[$g]}; do list+=("./${e#*:}"); done
		env $(goenv "$port") go test -c -vet=off ${TAGS:+-tags "$TAGS"} -o "$dir/" "${list[@]}" >"$dir/build.log" 2>&1
	done
	for pkg in "${pkgs[@]}"; do
		bin="$work/$port/${gof[$pkg]}/${pkg##*/}.test"
		[ -x "$bin" ] && continue
		log="$work/$port.$(key "$pkg").build"
		if ! env $(goenv "$port") go test -c -vet=off ${TAGS:+-tags "$TAGS"} -o "$bin" "./$pkg" >"$log" 2>&1 || [ ! -x "$bin" ]; then
			echo "build $port $pkg: FAIL"
			sed "s/^/    /" "$log"
		fi
	done
done
tb=$(date +%s)
echo "== built in $((tb - t0)) s"

run1() { # port pkg bin
	local port=$1 pkg=$2 bin=$3 f="$1.$(key "$2")" start end rc
	local log="$work/$f.log" res="$work/$f.res"
	if [ ! -x "$bin" ]; then echo "$port $pkg BUILD-FAIL 0" >"$res"; cat "$res"; return; fi
	start=$(date +%s)
	# The wasm exec wrapper finds node and wasm_exec_node.js by PATH and GOROOT.
	# CLCONV_SAMPLE=1: the heaviest sweeps check a sample of their inputs
	# under emulation (testvals.Sampled; they run in full natively).
	local try note=""
	for try in 1 2; do
		# GOGC=400: under emulation the collector's work is as slow as the
		# tests' own; the tests allocate freely and use little memory (mx's
		# reference, the heaviest, peaks near 100 MB at the default 100).
		(cd "$root/$pkg" && PATH="$wasmexec:$PATH" CLCONV_SAMPLE=1 GOGC=${PORTS_GOGC:-400} timeout 900 $(runner "$port") "$bin" -test.short -test.timeout 14m) >"$log" 2>&1
		rc=$?
		# qemu-i386 now and then corrupts the Go runtime's state (docs/PORTS.md,
		# "Running 386"): a run that dies in the runtime, with no test failed,
		# runs once more, and the line says so.
		[ $rc != 0 ] && [ "$port" = 386 ] && [ "$i386" != native ] && [ $try = 1 ] &&
			grep -qE '^(fatal error|fatal|runtime): ' "$log" && ! grep -q -- '--- FAIL' "$log" || break
		cp "$log" "$log.crash1"
		note=" (qemu-i386 crashed the runtime; ran again)"
	done
	end=$(date +%s)
	if [ $rc = 0 ]; then echo "$port $pkg ok $((end - start))$note"; else echo "$port $pkg FAIL $((end - start))$note"; fi >"$res"
	cat "$res"
	# A runtime crash's cause is at its top (the goroutine dumps follow):
	# show that, then the log's end.
	[ $rc = 0 ] || { grep -m1 -A14 -E '^(fatal error|panic|unexpected fault address)' "$log"; echo ...; tail -n 30 "$log"; } | sed "s|^|    $port $pkg: |"
}
export -f run1 runner key
export work root wasmexec i386

# Heaviest first, so that the last runs to start are short ones: about the
# seconds of a run under qemu (docs/PORTS.md), 20 for a package not listed (a
# new one might be heavy: better early than last), and mips a third slower
# than the rest, loong64 and js/wasm half as fast.
weight() { # port pkg
	local w
	case $2 in
	cmd/clconv/internal/digest) w=40 ;; convert) w=30 ;; half) w=13 ;;
	fileconv | value | round | internal/minifloat) w=10 ;;
	fp8 | bfloat16 | internal/ref | internal/benchdata) w=6 ;; clc | clc/internal/syntax) w=3 ;;
	cltype | internal/byteorder | internal/digestspec | internal/floatfmt | internal/kernels | \
		internal/numfmt | internal/permode) w=1 ;;
	*) w=20 ;;
	esac
	case $1 in mips) w=$((w * 4 / 3)) ;; loong64 | wasm) w=$((w / 2)) ;; 386) [ "$i386" = native ] && w=$((w / 8)) ;; esac
	echo "$w"
}
echo "== run ($jobs at a time)"
for port in "${ports[@]}"; do
	for pkg in "${pkgs[@]}"; do
		echo "$(weight "$port" "$pkg") $port $pkg $work/$port/${gof[$pkg]}/${pkg##*/}.test"
	done
done | sort -k1,1nr -s | cut -d' ' -f2- |
	xargs -P "$jobs" -L 1 bash -c 'run1 "$0" "$1" "$2"'
tr=$(date +%s)

echo "== table (seconds; FAIL marks a failed run or build)"
printf '%-28s' package; for port in "${ports[@]}"; do printf ' %7s' "$port"; done; echo
fail=${vetfail:-0}
declare -A sum=()
for pkg in "${pkgs[@]}"; do
	printf '%-28s' "$pkg"
	for port in "${ports[@]}"; do
		read -r _ _ st secs _ <"$work/$port.$(key "$pkg").res" || st=missing
		if [ "$st" = ok ]; then printf ' %7s' "$secs"; sum[$port]=$((${sum[$port]:-0} + secs)); else printf ' %7s' FAIL; fail=1; fi
	done
	echo
done
printf '%-28s' "(sum)"; for port in "${ports[@]}"; do printf ' %7s' "${sum[$port]:-0}"; done; echo
echo "== ${#pkgs[@]} packages on ${#ports[@]} ports: built in $((tb - t0)) s, ran in $((tr - tb)) s, $((tr - t0)) s in all"
[ -n "${KEEP:-}" ] || rm -rf "$work"
exit $fail
