#!/usr/bin/env bash
# mutate.sh: shows that the SIMD tests catch broken kernels. Each mutation
# breaks one line of the kernel generator (_asm): a rounding immediate, an
# embedded rounding mode, a clamp bound, a NaN mask, a sticky bit, a
# truncation, and in the AVX2 FP8 encoders (mini_avx2.go) a sticky bit, a
# bias, a limit and the zero kept. For each, the script regenerates the
# kernels in a scratch copy of the repository (git archive of REV, default
# HEAD), checks that the generated assembly changed, and runs the SIMD
# reference tests, which must fail. It prints one line per mutation and exits
# 1 if any survives.
#
#   scripts/mutate.sh            # every mutation
#   ONLY=clamp scripts/mutate.sh # the mutations whose name contains "clamp"
#
# About 30 s per mutation on two cores. Not part of CI (it regenerates the
# kernels each time); its output is quoted in docs/PERFORMANCE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
REV=${REV:-HEAD}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git archive "$REV" | tar -x -C "$work"

# name | file | text to replace (its first occurrence) | replacement | test regexp
mutations=(
	"rounding immediate: double->half VCVTPS2PH always to nearest|_asm/plan.go|VCVTPS2PH(U8(roundImm[m]), f, h)|VCVTPS2PH(U8(0), f, h)|TestSIMDReference"
	"embedded rounding: double->char..ushort rtp rounds to nearest|_asm/plan.go|\"RTP\": VCVTPD2DQ_RU_SAE,|\"RTP\": VCVTPD2DQ_RN_SAE,|TestSIMDReference"
	"clamp bound: integer saturation one above the destination's MAX|_asm/plan.go|rep(duhi, s.size)|rep(duhi+1, s.size)|TestSIMDReference"
	"clamp bound: float->8/16-bit clamps one below MIN|_asm/plan.go|bcst(bits(float64(dlo)), lanes, 64)|bcst(bits(float64(dlo-1)), lanes, 64)|TestSIMDReference"
	"NaN mask: float->int/long converts NaN too (always-true predicate)|_asm/plan.go|VCMPPS(U8(cmpORD), x, x, k)|VCMPPS(U8(0x0f), x, x, k)|TestSIMDReference"
	"NaN order: double->8/16-bit clamps NaN to MAX (min's operands swapped)|_asm/plan.go|VMINPD(x, hi, x)|VMINPD(hi, x, x)|TestSIMDReference"
	"sticky bit: double->half rounds to float toward zero without the odd bit|_asm/plan.go|VPORD(pk.one, f, k, f)|VMOVDQU(f, f)|TestSIMDReference"
	"extension: signed sources zero-extended|_asm/plan.go|return extSX[[2]int{s.size, size}]|return extZX[[2]int{s.size, size}]|TestSIMDReference"
	"half clamp: int->half clamps at 2^15 (any bound from 65520 to 2^24 is right)|_asm/plan.go|pk.hi = bcst(1<<24, elem, 64)|pk.hi = bcst(1<<15, elem, 64)|TestSIMDReference"
	"fp8 sticky bit: AVX2 float->E5M2 rte forgets inexactness (ties decided by bit 8 alone)|_asm/mini_avx2.go|VPOR(t, c, c)|VMOVDQU(t, c)|TestSIMDMiniFromFloat"
	"fp8 rounding bias: AVX2 float->E5M2 rtn adds 0x7f below bit 8, not 0xff|_asm/mini_avx2.go|VPANDN(km(0x00ff00ff), t, t)|VPANDN(km(0x007f007f), t, t)|TestSIMDMiniFromFloat"
	"fp8 limit: AVX2 float->E4M3 rtp/rtn bound the floor side without the 0x400 step|_asm/mini_avx2.go|VPMINSW(km(0x437f437f), y, y)|VPMINSW(km(0x3f7f3f7f), y, y)|TestSIMDMiniFromFloat"
	"fp8 zero: AVX2 float->E4M3 rtp/rtn raise 0 to 2^-118 too|_asm/mini_avx2.go|VPSIGND(ab, k, t)|VMOVDQU(k, t)|TestSIMDMiniFromFloat"
)

survived=0
for m in "${mutations[@]}"; do
	IFS='|' read -r name file old new tests <<<"$m"
	if [[ -n "${ONLY:-}" && "$name" != *"$ONLY"* ]]; then
		continue
	fi
	cp "$work/$file" "$work/$file.orig"
	cp "$work/convert/zsimd_amd64.s" "$work/zsimd.orig"
	OLD=$old NEW=$new perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$work/$file"
	if cmp -s "$work/$file" "$work/$file.orig"; then
		echo "ERROR   $name: the expression matched nothing"
		survived=1
		continue
	fi
	if ! (cd "$work/convert" && go generate ./... >/dev/null 2>&1); then
		echo "ERROR   $name: the generator failed"
		survived=1
	elif cmp -s "$work/convert/zsimd_amd64.s" "$work/zsimd.orig"; then
		echo "ERROR   $name: the assembly did not change"
		survived=1
	elif out=$(cd "$work" && go test -short -count=1 -run "$tests" ./convert 2>&1); then
		echo "SURVIVED $name"
		survived=1
	else
		first=$(grep -m1 -E '^\s+\S+\.go:[0-9]+: .*(got|want|differ)' <<<"$out" || grep -m1 -E '^\s+\S+\.go:[0-9]+: ' <<<"$out" || true)
		first=$(sed 's/^\s*//' <<<"$first" | cut -c1-150)
		echo "killed  $name"
		echo "        $first"
	fi
	mv "$work/$file.orig" "$work/$file"
	cp "$work/zsimd.orig" "$work/convert/zsimd_amd64.s"
	(cd "$work/convert" && go generate ./... >/dev/null 2>&1)
done
exit $survived
