#!/usr/bin/env bash
# binfmt-386.sh: let `GOARCH=386 go test ...` run on an amd64 Linux kernel built
# without 32-bit emulation (this project's machines: "32-bit emulation disabled"),
# by registering qemu-i386-static as the interpreter of i386 ELF binaries.
#
#   sudo scripts/binfmt-386.sh          (needs root, qemu-user-static)
#
# The interpreter is a small wrapper that turns off Go's asynchronous preemption
# (qemu 7.2's i386 signal frames crash its signal handler: "morestack on
# gsignal") and sets CLCONV_NO_EXEC (its emulation of waitid for a child crashes
# the runtime too; the tests then start no host programs). scripts/ports.sh
# does the same without binfmt. Registration lasts until reboot.
set -euo pipefail
wrapper=/usr/local/bin/qemu-i386-go
cat >"$wrapper" <<'W'
#!/bin/sh
GODEBUG="asyncpreemptoff=1${GODEBUG:+,$GODEBUG}" CLCONV_NO_EXEC=1 exec /usr/bin/qemu-i386-static "$@"
W
chmod +x "$wrapper"
d=/proc/sys/fs/binfmt_misc
[ -e "$d/register" ] || mount -t binfmt_misc binfmt_misc "$d"
[ ! -e "$d/clconv-i386" ] || echo -1 >"$d/clconv-i386"
printf '%s' ':clconv-i386:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00:\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$wrapper"':' >"$d/register"
echo "registered $wrapper for i386 ELF binaries"
