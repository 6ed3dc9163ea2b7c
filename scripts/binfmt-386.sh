#!/usr/bin/env bash
# binfmt-386.sh: let `GOARCH=386 go test ...` run on an amd64 Linux kernel built
# or booted without 32-bit emulation (CONFIG_IA32_EMULATION off, or
# ia32_emulation=0), by registering qemu-i386-static as the interpreter of
# i386 ELF binaries.
#
#   sudo scripts/binfmt-386.sh          register, unless i386 binaries run natively
#   sudo scripts/binfmt-386.sh --force  register even so (to try the emulated path)
#   sudo scripts/binfmt-386.sh --remove remove the registration
#   scripts/binfmt-386.sh --check       print how i386 binaries run here: native
#                                       (the kernel), emulated (a registered
#                                       emulator) or none ("exec format error")
#
# On a kernel that runs i386 binaries itself it registers nothing: a binfmt_misc
# entry would take precedence over the kernel's own loader and run every i386
# program under qemu. scripts/ports.sh calls it (when root) where 386 binaries
# do not run natively.
#
# The interpreter is a small wrapper that turns off Go's asynchronous preemption
# (qemu 7.2's i386 signal frames crash its signal handler: "morestack on
# gsignal"). Other signals crash it as well when they reach a thread blocked in
# a system call, among them a child process's SIGCHLD: the one test that starts
# a program (fileconv's NumPy round trip) skips itself under emulation
# (docs/PORTS.md). Registration lasts until reboot. Needs root, Go (for the
# check) and qemu-user-static.
set -euo pipefail
d=/proc/sys/fs/binfmt_misc

# check prints native, emulated or none: it runs a small 386 Go program that
# tells from its host memory map (addresses beyond 32 bits) whether an
# emulator runs it.
check() {
	local tmp rc out
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/binfmt-386.XXXXXX")
	cat >"$tmp/probe.go" <<'G'
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/maps", os.Getpid()))
	for _, line := range strings.Split(string(b), "\n") {
		if start, _, _ := strings.Cut(line, "-"); len(start) > 8 {
			fmt.Println("emulated")
			return
		}
	}
	fmt.Println("native")
}
G
	if ! (cd "$tmp" && GOFLAGS= GOOS=linux GOARCH=386 CGO_ENABLED=0 go build -o probe probe.go) >&2; then
		rm -rf "$tmp"
		echo "binfmt-386.sh: cannot build the 386 probe" >&2
		return 1
	fi
	out=$(GODEBUG=asyncpreemptoff=1 timeout 30 "$tmp/probe" 2>/dev/null) && rc=0 || rc=$?
	rm -rf "$tmp"
	case $rc:$out in
	0:native) echo native ;;
	0:*) echo emulated ;;
	*) echo none ;;
	esac
}

case ${1:-} in
--check)
	check
	exit
	;;
--remove)
	if [ -e "$d/clconv-i386" ]; then echo -1 >"$d/clconv-i386"; echo "removed clconv-i386"; fi
	exit 0
	;;
--force | "") ;;
*)
	echo "usage: binfmt-386.sh [--check | --force | --remove]" >&2
	exit 2
	;;
esac

how=$(check)
if [ "$how" = native ] && [ "${1:-}" != --force ]; then
	echo "i386 binaries run natively on this kernel: nothing to register"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "binfmt-386.sh: i386 binaries run $how here; registering qemu-i386 needs root" >&2
	exit 1
fi
qemu=$(command -v qemu-i386-static) || { echo "binfmt-386.sh: qemu-i386-static not found (Debian: apt-get install qemu-user-static)" >&2; exit 1; }
wrapper=/usr/local/bin/qemu-i386-go
mkdir -p "$(dirname "$wrapper")"
cat >"$wrapper" <<W
#!/bin/sh
GODEBUG="asyncpreemptoff=1\${GODEBUG:+,\$GODEBUG}" exec $qemu "\$@"
W
chmod +x "$wrapper"
[ -e "$d/register" ] || mount -t binfmt_misc binfmt_misc "$d"
[ ! -e "$d/clconv-i386" ] || echo -1 >"$d/clconv-i386"
printf '%s' ':clconv-i386:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00:\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$wrapper"':' >"$d/register"
echo "registered $wrapper for i386 ELF binaries (they ran $how before)"
