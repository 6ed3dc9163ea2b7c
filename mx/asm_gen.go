//go:build ignore

// asm_gen writes zmx_amd64.s, the AVX-512 kernels of package mx: go
// generate in mx (go run asm_gen.go). Each kernel is the Go fast path of
// quant.go (block32) or of Dequantize's float32 path written 16 lanes
// wide; the tests compare them with it on every tier.
package main

import (
	"fmt"
	"go/format"
	"os"
	"strings"
)

var b strings.Builder

func p(format string, args ...any) { fmt.Fprintf(&b, "\t"+format+"\n", args...) }
func label(l string)               { fmt.Fprintf(&b, "%s:\n", l) }

var modes = []string{"RTE", "RTZ", "RTP", "RTN"}

// The layout of qparams (quant_amd64.go), 4 bytes a field.
const (
	qEminBits = 4 * iota
	qK0
	qK1
	qMaxCode
	qSignMask
	qRuleT
	qOff
	qXsub
)

// elemFmt is what a quantization kernel bakes in of an element format: its
// name, mantissa bits and width.
type elemFmt struct {
	name        string
	mant, width int
}

var elemFmts = []elemFmt{{"E4M3", 3, 8}, {"E5M2", 2, 8}, {"E2M3", 3, 6}, {"E3M2", 2, 6}, {"E2M1", 1, 4}}

// quantKernel writes one quantization kernel for element format ef: out is
// "Bytes" (one code per byte) or "Nib" (FP4, two per byte, the first in the
// low nibble). Its main loop takes two blocks at a time, sharing the
// horizontal maximum's shuffles and narrowing 64 codes at once; a single
// block (the last one, or one of a pair that the Go code must take) goes
// through the one-block loop.
//
// Registers: Z0..Z3 the blocks' halves x, Z4..Z7 their magnitudes a,
// Z10/Z11 the blocks' X << 23, Z8 Z9 Z12..Z15 temporaries, Z16 a half's
// codes kept, Z22/Z23 the blocks' packed codes, Z19/Z20 the counts of
// clamped and flushed lanes, and constants in Z17, Z18, Z21, Z24..Z31.
func quantKernel(ef elemFmt, out, mode string) {
	name := "mxq" + ef.name + out + mode
	s := ef.width - 1 // the sign bit of a code
	fmt.Fprintf(&b, "// func %s(dst, scales *byte, src *uint32, n int, p *qparams) (done, clamped, flushed int)\n", name)
	fmt.Fprintf(&b, "TEXT ·%s(SB), NOSPLIT, $0-64\n", name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ scales+8(FP), R9")
	p("MOVQ src+16(FP), SI")
	p("MOVQ n+24(FP), DX")
	p("MOVQ p+32(FP), R10")
	p("XORQ R11, R11")
	p("MOVL $0x7fffffff, AX")
	p("VPBROADCASTD AX, Z31")
	p("MOVL $0x7f800000, AX")
	p("VPBROADCASTD AX, Z29")
	p("VPBROADCASTD %d(R10), Z28", qEminBits)
	p("VPBROADCASTD %d(R10), Z27", qK0)
	p("VPBROADCASTD %d(R10), Z26", qK1)
	p("VPBROADCASTD %d(R10), Z25", qMaxCode)
	p("MOVL $0x00800000, AX")
	p("VPBROADCASTD AX, Z24")
	// Z17: a code's sign bit in both words of a dword; Z18: the pair
	// loop's permutation; Z21: the sign bit (one-block Bytes) or the
	// one-block loop's permutation (Nib).
	p("MOVL $0x%08x, AX", 1<<s|1<<(s+16))
	p("VPBROADCASTD AX, Z17")
	if out == "Nib" {
		p("VMOVDQU32 nibPerm<>(SB), Z21")
	} else {
		p("VPBROADCASTD %d(R10), Z21", qSignMask)
	}
	p("VMOVDQU32 bytePairPerm<>(SB), Z18")
	p("VPTERNLOGD $0xff, Z30, Z30, Z30")
	p("VPXORD Z19, Z19, Z19")
	p("VPXORD Z20, Z20, Z20")

	label("pair")
	p("LEAQ 1(R11), AX")
	p("CMPQ AX, DX")
	p("JAE one")
	p("PREFETCHT0 1024(SI)")
	p("PREFETCHT0 1088(SI)")
	p("PREFETCHT0 1152(SI)")
	p("PREFETCHT0 1216(SI)")
	for i := range 4 {
		p("VMOVDQU32 %d(SI), Z%d", 64*i, i)
		p("VPANDD Z31, Z%d, Z%d", i, 4+i)
	}
	// Both maxima: the halves of each block, then the two blocks' 256-bit
	// halves side by side, then folded within 256 bits: lanes 0..7 hold
	// block A's amax, lanes 8..15 block B's.
	p("VPMAXUD Z4, Z5, Z8")
	p("VPMAXUD Z6, Z7, Z9")
	p("VSHUFI64X2 $0x44, Z9, Z8, Z12")
	p("VSHUFI64X2 $0xee, Z9, Z8, Z13")
	p("VPMAXUD Z13, Z12, Z12")
	p("VSHUFI64X2 $0xb1, Z12, Z12, Z13")
	p("VPMAXUD Z13, Z12, Z12")
	p("VPSHUFD $0x4e, Z12, Z13")
	p("VPMAXUD Z13, Z12, Z12")
	p("VPSHUFD $0xb1, Z12, Z13")
	p("VPMAXUD Z13, Z12, Z12")
	p("VMOVD X12, AX")
	p("VEXTRACTI32X4 $2, Z12, X13")
	p("VMOVD X13, CX")
	sharedX("AX", "BX", "one", "A")
	sharedX("CX", "R8", "one", "B")
	// Both blocks go: write their scales.
	p("LEAL 127(BX), AX")
	p("ANDL R12, AX") // R12 (R13): 0 for a zero block, making the scale 0x00; else -1
	p("MOVB AL, (R9)")
	p("LEAL 127(R8), AX")
	p("ANDL R13, AX")
	p("MOVB AL, 1(R9)")
	p("SHLL $23, BX")
	p("VPBROADCASTD BX, Z10")
	p("SHLL $23, R8")
	p("VPBROADCASTD R8, Z11")
	for h := range 4 {
		xs := "Z10"
		if h >= 2 {
			xs = "Z11"
		}
		tr := elemHalf(ef, mode, fmt.Sprintf("Z%d", h), fmt.Sprintf("Z%d", 4+h), xs)
		w := "Z22"
		if h >= 2 {
			w = "Z23"
		}
		if h%2 == 0 {
			p("VMOVDQA32 %s, Z16", tr)
		} else {
			// Codes of the block's two halves as words: each 128-bit lane
			// four of the first half, then four of the second.
			p("VPACKUSDW %s, Z16, %s", tr, w)
		}
	}
	// The signs from a signed pack of x (bit 15 of each word), moved to the
	// code's sign bit.
	for blk, w := range []string{"Z22", "Z23"} {
		p("VPACKSSDW Z%d, Z%d, Z8", 2*blk+1, 2*blk)
		p("VPSRLW $%d, Z8, Z8", 15-s)
		p("VPTERNLOGD $0xf8, Z17, Z8, %s", w)
	}
	// 64 codes to bytes; the dwords (four codes each) back in element
	// order.
	p("VPACKUSWB Z23, Z22, Z22")
	p("VPERMD Z22, Z18, Z22")
	if out == "Bytes" {
		p("VMOVDQU32 Z22, (DI)")
		p("ADDQ $64, DI")
	} else {
		// FP4: each pair of bytes b0, b1 into the word b0 + 16*b1 (the
		// first in the low nibble); the words' low bytes stored.
		p("VPMADDUBSW nibMul<>(SB), Z22, Z22")
		p("VPMOVWB Z22, (DI)")
		p("ADDQ $32, DI")
	}
	p("ADDQ $256, SI")
	p("ADDQ $2, R9")
	p("ADDQ $2, R11")
	p("JMP pair")

	label("one")
	p("CMPQ R11, DX")
	p("JAE done")
	p("VMOVDQU32 (SI), Z0")
	p("VMOVDQU32 64(SI), Z1")
	p("VPANDD Z31, Z0, Z4")
	p("VPANDD Z31, Z1, Z5")
	// amax, folded in halves down to one lane.
	p("VPMAXUD Z4, Z5, Z8")
	p("VEXTRACTI64X4 $1, Z8, Y9")
	p("VPMAXUD Y9, Y8, Y8")
	p("VEXTRACTI128 $1, Y8, X9")
	p("VPMAXUD X9, X8, X8")
	p("VPSHUFD $0x4e, X8, X9")
	p("VPMAXUD X9, X8, X8")
	p("VPSHUFD $0xb1, X8, X9")
	p("VPMAXUD X9, X8, X8")
	p("VMOVD X8, AX")
	sharedX("AX", "BX", "done", "C")
	p("LEAL 127(BX), AX")
	p("ANDL R12, AX")
	p("MOVB AL, (R9)")
	p("SHLL $23, BX")
	p("VPBROADCASTD BX, Z10")
	for h := range 2 {
		x := fmt.Sprintf("Z%d", h)
		tr := elemHalf(ef, mode, x, fmt.Sprintf("Z%d", 4+h), "Z10")
		if out == "Bytes" {
			p("VPSRLD $%d, %s, Z8", 32-ef.width, x)
			p("VPTERNLOGD $0xf8, Z21, Z8, %s", tr)
			p("VPMOVDB %s, %d(DI)", tr, 16*h)
		} else if h == 0 {
			p("VMOVDQA32 %s, Z16", tr)
		} else {
			// As the pair loop, for one block: then the dwords back in
			// element order and their low bytes stored.
			p("VPACKUSDW %s, Z16, Z22", tr)
			p("VPACKSSDW Z1, Z0, Z8")
			p("VPSRLW $12, Z8, Z8")
			p("VPTERNLOGD $0xf8, Z17, Z8, Z22")
			p("VPSRLD $12, Z22, Z8")
			p("VPORD Z8, Z22, Z22")
			p("VPERMD Z22, Z21, Z22")
			p("VPMOVDB Z22, (DI)")
		}
	}
	p("ADDQ $128, SI")
	if out == "Bytes" {
		p("ADDQ $32, DI")
	} else {
		p("ADDQ $16, DI")
	}
	p("INCQ R9")
	p("INCQ R11")
	p("JMP pair")

	label("done")
	p("MOVQ R11, done+40(FP)")
	for i, r := range []string{"19", "20"} {
		// Sum the 16 lanes (each at most 2^31 / 16 for n < 2^26 blocks).
		p("VEXTRACTI64X4 $1, Z%s, Y5", r)
		p("VPADDD Y5, Y%s, Y5", r)
		p("VEXTRACTI128 $1, Y5, X4")
		p("VPADDD X4, X5, X5")
		p("VPSHUFD $0x4e, X5, X4")
		p("VPADDD X4, X5, X5")
		p("VPSHUFD $0xb1, X5, X4")
		p("VPADDD X4, X5, X5")
		p("VMOVD X5, AX")
		if i == 0 {
			p("MOVQ AX, clamped+48(FP)")
		} else {
			p("MOVQ AX, flushed+56(FP)")
		}
	}
	p("VZEROUPPER")
	p("RET")
	b.WriteString("\n")
}

// sharedX computes the shared exponent X into register x from the block
// maximum's pattern in amax (which it clobbers), or jumps to bail for a
// block the Go code must take: a NaN or infinite maximum, or X below xsub
// (float32 subnormal inputs may matter, or X clamps). A zero block gets X =
// 0 (its elements are zeros whatever X is) and the flag register (R12 for
// x = BX, R13 for R8) 0, which makes the caller write the scale 0x00; else
// the flag is -1 and the scale is X + 127. tag makes the labels unique.
func sharedX(amax, x, bail, tag string) {
	flag := map[string]string{"BX": "R12", "R8": "R13"}[x]
	p("CMPL %s, $0x7f800000", amax)
	p("JAE %s", bail)
	p("XORL %s, %s", x, x)
	p("XORL %s, %s", flag, flag)
	p("TESTL %s, %s", amax, amax)
	p("JZ zero%s", tag)
	// X = exponent - 127 - emax, plus one when the fraction exceeds the
	// rule's threshold.
	p("MOVL %s, %s", amax, x)
	p("SHRL $23, %s", x)
	p("ANDL $0x7fffff, %s", amax)
	p("CMPL %d(R10), %s", qRuleT, amax)
	p("ADCL $0, %s", x)
	p("SUBL %d(R10), %s", qOff, x)
	p("CMPL %s, %d(R10)", x, qXsub)
	p("JLT %s", bail)
	p("MOVL $-1, %s", flag)
	label("zero" + tag)
}

// elemHalf writes the code of 16 elements x (magnitudes a) of a block whose
// X << 23 is in xs, without the sign, clamped to MAX and counted, and
// returns the register that holds it.
func elemHalf(ef elemFmt, mode, x, a, xs string) string {
	ta, te, tc, tk, tr := "Z9", "Z12", "Z13", "Z14", "Z15"
	// The scaled magnitude: the pattern minus X << 23, at least 2^-126 as
	// a signed integer, and 0 for zero. Where the exponent stays positive
	// that is x / 2^X exactly; where it does not (X > 0) the difference is
	// below 2^-126 or negative, and 2^-126 stands for the tiny value
	// (fromFloat32). A subnormal x with X < 0 gives the pattern of a value
	// in [2^(-X-127), 2^(-X-126)) where the true one is below 2^(-X-126):
	// for X >= xsub both lie below half the element's smallest subnormal,
	// 2^(qmin-1) = 2^(-xsub-126), so they round alike.
	p("VPTESTMD %s, %s, K2", a, a)
	p("VPSUBD %s, %s, %s", xs, a, ta)
	p("VPMAXSD.Z Z24, %s, K2, %s", ta, ta)
	// Round it: add 1.5 * 2^23 quanta in the mode, then the code. (No clamp
	// to the grid point above MAX is needed, as elemInfo's fromFloat32 has:
	// a block the kernel takes has X >= xsub, so X is not clamped and every
	// magnitude is below 2^(emax+1); the codes of MAX's binade and the next
	// one are consecutive, and everything above MAX is clamped below.)
	p("VPANDD Z29, %s, %s", ta, te)
	p("VPMAXUD Z28, %s, %s", te, te)
	p("VPADDD Z27, %s, %s", te, tc)
	p("VPADDD Z26, %s, %s", te, tk)
	p("VPSRLD $%d, %s, %s", 23-ef.mant, te, te)
	p("VPSUBD %s, %s, %s", te, tk, tk)
	switch mode {
	case "RTE":
		p("VADDPS.RN_SAE %s, %s, %s", tc, ta, tr)
	case "RTZ":
		p("VADDPS.RZ_SAE %s, %s, %s", tc, ta, tr)
	case "RTP":
		p("VPMOVD2M %s, K3", x)
		p("KNOTW K3, K4")
		p("VADDPS.RZ_SAE %s, %s, %s", tc, ta, tr)
		p("VADDPS.RU_SAE %s, %s, K4, %s", tc, ta, tr)
	case "RTN":
		p("VPMOVD2M %s, K3", x)
		p("VADDPS.RZ_SAE %s, %s, %s", tc, ta, tr)
		p("VADDPS.RU_SAE %s, %s, K3, %s", tc, ta, tr)
	}
	p("VPSUBD %s, %s, %s", tk, tr, tr)
	// Clamp to MAX, counting; count flushes. (The counts are lanes of Z19
	// and Z20: each masked subtraction of -1 adds one to the lanes
	// counted.)
	p("VPCMPUD $6, Z25, %s, K5", tr)
	p("VPMINUD Z25, %s, %s", tr, tr)
	p("VPSUBD Z30, Z19, K5, Z19")
	p("VPTESTNMD %s, %s, K2, K6", tr, tr)
	p("VPSUBD Z30, Z20, K6, Z20")
	return tr
}

// deqHead loads the arguments of a dequantization kernel.
func deqHead(name, sig string) {
	fmt.Fprintf(&b, "// func %s%s\n", name, sig)
	fmt.Fprintf(&b, "TEXT ·%s(SB), NOSPLIT, $0-48\n", name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ elems+8(FP), SI")
	p("MOVQ scales+16(FP), R9")
	p("MOVQ n+24(FP), DX")
	p("MOVQ tab+32(FP), R10")
	p("XORQ R11, R11")
}

// deqScale puts the float32 2^(X+bias) for the block's scale into Z6;
// a block whose X lies outside [lo, hi] (the NaN scale included) ends the
// kernel, for the Go code.
func deqScale(lo, hi, bias int) {
	p("MOVBLZX (R9), AX")
	p("SUBL $127, AX")
	p("CMPL AX, $%d", lo)
	p("JLT done")
	p("CMPL AX, $%d", hi)
	p("JGT done")
	p("ADDL $%d, AX", 127+bias)
	p("SHLL $23, AX")
	p("VPBROADCASTD AX, Z6")
}

func deqTail(elemBytes int) {
	p("ADDQ $128, DI")
	p("ADDQ $%d, SI", elemBytes)
	p("INCQ R9")
	p("INCQ R11")
	p("CMPQ R11, DX")
	p("JB loop")
	label("done")
	p("MOVQ R11, ret+40(FP)")
	p("VZEROUPPER")
	p("RET")
	b.WriteString("\n")
}

const deqSig = "(dst *uint32, elems, scales *byte, n int, tab *uint32) int"

// deqFP8 decodes E4M3 or E5M2 codes through binary16 (VCVTPH2PS): an E5M2
// code is the top byte of a binary16 pattern; an E4M3 code's magnitude
// shifted left by 7, with its sign on top, is a binary16 pattern of value
// 2^-8 times the code's (subnormals included), and its NaN S.1111.111 is
// put back afterwards (0x7ff00000 with the sign, as minifloat decodes it).
func deqFP8(e4m3 bool) {
	name, lo, hi, bias := "mxdE5M2", -110, 112, 0
	if e4m3 {
		name, lo, hi, bias = "mxdE4M3", -117, 119, 8
	}
	deqHead(name, deqSig)
	if e4m3 {
		p("MOVL $0x7f, AX")
		p("VPBROADCASTD AX, Z30")
		p("MOVL $0x80, AX")
		p("VPBROADCASTD AX, Z29")
		p("MOVL $0x80000000, AX")
		p("VPBROADCASTD AX, Z28")
		p("MOVL $0x7ff00000, AX")
		p("VPBROADCASTD AX, Z27")
	}
	p("TESTQ DX, DX")
	p("JZ done")
	label("loop")
	deqScale(lo, hi, bias)
	for h := range 2 {
		z, w, r, s := fmt.Sprintf("Z%d", 8+4*h), fmt.Sprintf("Z%d", 9+4*h), fmt.Sprintf("Z%d", 10+4*h), fmt.Sprintf("Z%d", 11+4*h)
		y := "Y" + w[1:]
		p("VPMOVZXBD %d(SI), %s", 16*h, z)
		if e4m3 {
			p("VPANDD Z30, %s, %s", z, w)
			p("VPCMPEQD Z30, %s, K1", w)
			p("VPSLLD $7, %s, %s", w, w)
			p("VPANDD Z29, %s, %s", z, s)
			p("VPSLLD $8, %s, %s", s, s)
			p("VPORD %s, %s, %s", s, w, w)
		} else {
			p("VPSLLD $8, %s, %s", z, w)
		}
		p("VPMOVDW %s, %s", w, y)
		p("VCVTPH2PS %s, %s", y, r)
		p("VMULPS Z6, %s, %s", r, r)
		if e4m3 {
			p("VPSLLD $24, %s, %s", z, s)
			p("VPTERNLOGD $0xea, Z27, Z28, %s", s)
			p("VMOVDQA32 %s, K1, %s", s, r)
		}
		p("VMOVDQU32 %s, %d(DI)", r, 64*h)
	}
	deqTail(32)
}

// deqFP4 decodes E2M1 codes through a 16-entry table (VPERMD) scaled by
// 2^X once per block: packed two per byte with the first in the low
// nibble, or one per byte (bits above 4 ignored).
func deqFP4(packed bool) {
	name, inc := "mxdFP4", 32
	if packed {
		name, inc = "mxdFP4Nib", 16
	}
	deqHead(name, deqSig)
	p("VMOVDQU32 (R10), Z31")
	p("MOVL $0x0f0f0f0f, AX")
	p("VPBROADCASTD AX, Z30")
	p("TESTQ DX, DX")
	p("JZ done")
	label("loop")
	deqScale(-125, 125, 0)
	p("VMULPS Z6, Z31, Z7")
	if packed {
		p("VMOVDQU (SI), X0")
		p("VPSRLW $4, X0, X1")
		p("VPANDD X30, X0, X0")
		p("VPANDD X30, X1, X1")
		p("VPUNPCKLBW X1, X0, X2")
		p("VPUNPCKHBW X1, X0, X3")
		p("VPMOVZXBD X2, Z8")
		p("VPMOVZXBD X3, Z9")
	} else {
		p("VPMOVZXBD (SI), Z8")
		p("VPMOVZXBD 16(SI), Z9")
		p("VPANDD Z30, Z8, Z8")
		p("VPANDD Z30, Z9, Z9")
	}
	p("VPERMD Z7, Z8, Z10")
	p("VPERMD Z7, Z9, Z11")
	p("VMOVDQU32 Z10, (DI)")
	p("VMOVDQU32 Z11, 64(DI)")
	deqTail(inc)
}

func main() {
	b.WriteString("// Code generated by go run asm_gen.go. DO NOT EDIT.\n\n//go:build gc && !purego\n\n#include \"textflag.h\"\n\n")
	// nibPerm puts the dwords of the FP4 kernels' word pairs back in
	// element order: pair j (elements 2j, 2j+1) is dword 4*(j/2)+j%2 for
	// j < 8 and 4*((j-8)/2)+2+j%2 after.
	for j := range 16 {
		d := 4*(j/2) + j%2
		if j >= 8 {
			d = 4*((j-8)/2) + 2 + j%2
		}
		fmt.Fprintf(&b, "DATA nibPerm<>+%d(SB)/4, $%d\n", 4*j, d)
	}
	b.WriteString("GLOBL nibPerm<>(SB), RODATA|NOPTR, $64\n\n")
	// bytePairPerm puts the dwords of two blocks' bytes (after two word
	// packs and a byte pack, lane k holds four codes of each half of
	// block A, then of block B) in element order.
	for o, d := range []int{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15} {
		fmt.Fprintf(&b, "DATA bytePairPerm<>+%d(SB)/4, $%d\n", 4*o, d)
	}
	b.WriteString("GLOBL bytePairPerm<>(SB), RODATA|NOPTR, $64\n\n")
	// nibMul: the byte multipliers 1, 16, 1, 16, ... of VPMADDUBSW.
	for o := range 16 {
		fmt.Fprintf(&b, "DATA nibMul<>+%d(SB)/4, $0x10011001\n", 4*o)
	}
	b.WriteString("GLOBL nibMul<>(SB), RODATA|NOPTR, $64\n\n")
	for _, ef := range elemFmts {
		for _, out := range []string{"Bytes", "Nib"} {
			if out == "Nib" && ef.width != 4 {
				continue
			}
			for _, m := range modes {
				quantKernel(ef, out, m)
			}
		}
	}
	deqFP8(true)
	deqFP8(false)
	deqFP4(false)
	deqFP4(true)
	write("zmx_amd64.s", b.String())
	src, err := format.Source([]byte(stubs()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	write("zmx_amd64.go", string(src))
}

// stubs returns the Go declarations of the kernels and their tables.
func stubs() string {
	var g strings.Builder
	g.WriteString("// Code generated by go run asm_gen.go. DO NOT EDIT.\n\n//go:build gc && !purego\n\npackage mx\n\n")
	sig := "(dst, scales *byte, src *uint32, n int, p *qparams) (done, clamped, flushed int)"
	var bytesTab, nibTab strings.Builder
	for _, ef := range elemFmts {
		fmt.Fprintf(&bytesTab, "\t{")
		for _, out := range []string{"Bytes", "Nib"} {
			if out == "Nib" && ef.width != 4 {
				continue
			}
			for i, m := range modes {
				name := "mxq" + ef.name + out + m
				fmt.Fprintf(&g, "//go:noescape\nfunc %s%s\n\n", name, sig)
				sep := ", "
				if i == 0 {
					sep = ""
				}
				if out == "Bytes" {
					fmt.Fprintf(&bytesTab, "%s%s", sep, name)
				} else {
					fmt.Fprintf(&nibTab, "%s%s", sep, name)
				}
			}
		}
		fmt.Fprintf(&bytesTab, "}, // %s\n", ef.name)
	}
	for _, k := range []string{"mxdE4M3", "mxdE5M2", "mxdFP4", "mxdFP4Nib"} {
		fmt.Fprintf(&g, "//go:noescape\nfunc %s%s\n\n", k, deqSig)
	}
	fmt.Fprintf(&g, "// qBytes holds the kernels writing one code per byte, by element format\n// and mode; qNib those writing FP4 two per byte, by mode.\nvar (\n\tqBytes = [numElems][4]qkernel{\n%s\t}\n\tqNib = [4]qkernel{%s}\n)\n", bytesTab.String(), nibTab.String())
	return g.String()
}

func write(name, text string) {
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
