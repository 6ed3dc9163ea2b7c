#!/usr/bin/env bash
# oracles.sh: check clconv's bfloat16, OCP FP8 (E4M3, E5M2) and MX (E2M3,
# E3M2, E2M1, E8M0) conversions against independent public implementations,
# and print each one's table of agreements and every group of disagreements
# with its explanation (docs/FORMATS.md, "Checked against").
#
#   scripts/oracles.sh [llvm] [rusthalf] [gopjrt]     (default: all three)
#
#   llvm      LLVM 22's APFloat (Debian's llvm-22-dev): every format, every
#             mode, without _sat (APFloat has none); about 20 s
#   rusthalf  the Rust half crate's bf16 (Debian's librust-half-dev, 1.6.0),
#             rte: all 2^32 float32 and 2 million doubles; about 2.5 min
#   gopjrt    github.com/gomlx/gopjrt/dtypes/bfloat16 (Go module proxy),
#             which truncates (rtz): all 2^32 float32; about 4 min
#
# The checks live in _oracle/, a Go module of their own, so that the main
# module depends on none of these implementations. Each exits non-zero when a
# disagreement has no explanation. Needs root for apt-get (or the packages
# installed), g++ and cargo. OUT=dir keeps the reports there (default: a new
# temporary directory, printed at the end).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/oracles.XXXXXX")}
build=$(mktemp -d "${TMPDIR:-/tmp}/oracles-build.XXXXXX")
trap 'rm -rf "$build"' EXIT
mkdir -p "$out"
which=${*:-llvm rusthalf gopjrt}

need() { # package...
	local missing=()
	for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
	if [ ${#missing[@]} -gt 0 ]; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
	fi
}

status=0
for o in $which; do
	case $o in
	llvm)
		need llvm-22-dev g++
		g++ -O2 -o "$build/apfloat" "$root/_oracle/llvm/server/apfloat.cpp" \
			$(/usr/lib/llvm-22/bin/llvm-config --cxxflags --ldflags --libs support)
		set -- "$build/apfloat"
		;;
	rusthalf)
		need librust-half-dev
		(cd "$root/_oracle/rusthalf/crate" && CARGO_TARGET_DIR="$build/cargo" cargo build -q --release)
		set -- "$build/cargo/release/halforacle"
		;;
	gopjrt) set -- ;;
	*)
		echo "unknown oracle $o" >&2
		exit 2
		;;
	esac
	echo "== $o"
	start=$(date +%s)
	if (cd "$root/_oracle" && go run "./$o" "$@") >"$out/$o.md"; then
		echo "all disagreements explained ($(( $(date +%s) - start )) s)"
	else
		echo "UNEXPLAINED disagreements or failure ($(( $(date +%s) - start )) s)"
		status=1
	fi
	grep -E '^(\| [a-z0-9]+ \| |total:)' "$out/$o.md" | grep -v '^| destination |' | awk -F'|' '
		/^total/ { print; next }
		{ a[$2 "<-" $3] += $5; d[$2 "<-" $3] += $6 }
		END { for (k in a) printf "  %-28s agree %12.0f  disagree %9.0f\n", k, a[k], d[k] }' | sort
done
echo "reports in $out"
exit $status
