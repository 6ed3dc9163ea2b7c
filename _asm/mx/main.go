// Command mx generates the AVX-512 kernels of package mx (the OCP MX block
// formats) with avo: go generate in package mx.
//
//   - mxq{E4M3,E5M2,E2M3,E3M2,E2M1}Bytes{RTE,RTZ,RTP,RTN} and
//     mxqE2M1Nib{RTE,...}: quantization of whole blocks of 32 float32 (the
//     Go fast path of quant.go's block32, 16 lanes wide): the block maximum,
//     the shared exponent X under the rule given in qparams, the scale byte,
//     and the element codes, one per byte or (Nib) FP4 two per byte, the
//     first in the low nibble;
//   - mxdE4M3, mxdE5M2, mxdFP4, mxdFP4Nib: dequantization of whole blocks to
//     float32 (the float32 path of Dequantize).
//
// Every kernel stops at the first block it leaves to the Go code and returns
// the blocks done: a block whose amax is NaN or infinite, or whose X is so
// small that float32 subnormal inputs matter (quantize); a NaN scale or one
// that takes an element out of float32's normal range (dequantize). The
// tests of package mx compare them with the Go code bit for bit.
//
// The kernels name their registers (physical, not allocated by avo): the
// register plan of each is in its comments. None reads or writes MXCSR: the
// rounding modes are the instructions' embedded ones, and Go runs with DAZ
// and FTZ off.
package main

import (
	"flag"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

var modes = []string{"RTE", "RTZ", "RTP", "RTN"}

// The layout of qparams (mx/simd_amd64.go), 4 bytes a field.
const (
	qEminBits = 4 * iota
	qK0
	qK1
	qMaxCode
	qSignMask
	qRuleT
	qOff
	qXsub
	qRuleAdd
	qEmax
	qScaleMin
)

// elemFmt is what a quantization kernel bakes in of an element format: its
// name, mantissa bits and width.
type elemFmt struct {
	name        string
	mant, width int
}

var elemFmts = []elemFmt{{"E4M3", 3, 8}, {"E5M2", 2, 8}, {"E2M3", 3, 6}, {"E3M2", 2, 6}, {"E2M1", 1, 4}}

var zr = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
	Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}

// The tables of the quantization kernels (see main).
var nibPerm, bytePairPerm, nibMul, expOne Mem

// text starts the kernel name with signature sig.
func text(name, sig, doc string) {
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc)
}

func m(base Register, disp int) Mem { return Mem{Base: base, Disp: disp} }

// qSig is a quantization kernel's signature: p points at its qparams
// (mx/simd_amd64.go), 32-bit fields read at the offsets above.
const qSig = "func(dst, scales *byte, src *uint32, n int, p *uint32) (done, clamped, flushed int)"

// quantKernel writes one quantization kernel for element format ef: out is
// "Bytes" (one code per byte) or "Nib" (FP4, two per byte, the first in the
// low nibble). Its main loop takes 16 blocks at a time: their maxima,
// shared exponents and scales once for the 16 in the lanes of one register
// (batch16), then their codes two blocks at a time by the pair loop's code
// (pairCodes), each pair's X << 23 broadcast from the stack. A batch
// holding a block that the Go code must take, and the last n % 16 blocks,
// go through the pair loop, which shares the horizontal maximum's shuffles
// of two blocks, and a single block (the last one, or one of a pair that
// the Go code must take) through the one-block loop; both stop at the
// block for the Go code.
//
// The statistics are counted on masks (POPCNT), in R13 (clamped) and R14
// (flushed, plus 32 for every block done: the flush count of a block is
// its zero codes minus its zero inputs, 32 minus the non-zero lanes of the
// masks K1 and K2). The pair code clamps and counts its codes as words
// (once per 32 elements); the one-block loop as dwords. R9 and R11 are the
// scales and the blocks done; in the 16-block loop RBX points at the pair's
// X << 23 on the stack and ECX counts the pairs.
//
// Registers (batch16 has its own plan, before the codes): Z0..Z3 the
// blocks' halves x, Z4..Z7 their magnitudes a,
// Z10/Z11 the blocks' X << 23, Z8 Z9 Z12..Z15 temporaries, Z16 a half's
// codes kept, Z22/Z23 the blocks' packed codes, and constants in Z17..Z19,
// Z21, Z24..Z29, Z31 (Z25 MAX's code in every word, Z19 in every dword).
func quantKernel(ef elemFmt, out, mode string) {
	name := "mxq" + ef.name + out + mode
	s := ef.width - 1 // the sign bit of a code
	what := "one code a byte"
	if out == "Nib" {
		what = "two codes a byte, the first in the low nibble"
	}
	text(name, qSig, fmt.Sprintf("%s quantizes the first of n MX blocks of 32 float32 at src to %s elements (%s, %s) and their scales, under the rule in the qparams at p; it stops at a block the Go code must take and returns the blocks done and the clamped and flushed elements.", name, ef.name, what, mode))
	Load(Param("dst"), RDI)
	Load(Param("scales"), R9)
	Load(Param("src"), RSI)
	Load(Param("n"), RDX)
	Load(Param("p"), R10)
	XORQ(R11, R11)
	MOVL(U32(0x7fffffff), EAX)
	VPBROADCASTD(EAX, Z31)
	MOVL(U32(0x7f800000), EAX)
	VPBROADCASTD(EAX, Z29)
	VPBROADCASTD(m(R10, qEminBits), Z28)
	VPBROADCASTD(m(R10, qK0), Z27)
	VPBROADCASTD(m(R10, qK1), Z26)
	VPBROADCASTW(m(R10, qMaxCode), Z25)
	VPBROADCASTD(m(R10, qMaxCode), Z19)
	MOVL(U32(0x00800000), EAX)
	VPBROADCASTD(EAX, Z24)
	// Z17: a code's sign bit in both words of a dword; Z18: the pair
	// loop's permutation; Z21: the sign bit (one-block Bytes) or the
	// one-block loop's permutation (Nib).
	MOVL(U32(uint32(1<<s|1<<(s+16))), EAX)
	VPBROADCASTD(EAX, Z17)
	if out == "Nib" {
		VMOVDQU32(nibPerm, Z21)
	} else {
		VPBROADCASTD(m(R10, qSignMask), Z21)
	}
	VMOVDQU32(bytePairPerm, Z18)
	XORQ(R13, R13)
	XORQ(R14, R14)

	lim, xsl := AllocLocal(8), AllocLocal(64)

	// The 16-block loop (see batch16), while 16 blocks remain.
	Label("batch")
	MOVQ(RDX, RAX)
	SUBQ(R11, RAX)
	CMPQ(RAX, U8(16))
	JB(LabelRef("tail"))
	batch16(xsl, "bad")
	LEAQ(xsl, RBX)
	MOVL(U32(8), ECX)
	Label("bpair")
	pairLoad()
	VPBROADCASTD(m(RBX, 0), Z10)
	VPBROADCASTD(m(RBX, 4), Z11)
	pairCodes(ef, out, mode)
	ADDQ(U32(256), RSI)
	ADDQ(U8(8), RBX)
	DECL(ECX)
	JNZ(LabelRef("bpair"))
	ADDQ(U8(16), R9)
	ADDQ(U8(16), R11)
	JMP(LabelRef("batch"))
	// A batch holding a block that the 16-block loop leaves to the others
	// goes through the pair and one-block loops up to its end; the last n
	// % 16 blocks too.
	Label("bad")
	LEAQ(m(R11, 16), RAX)
	MOVQ(RAX, lim)
	JMP(LabelRef("pair"))
	Label("tail")
	MOVQ(RDX, lim)

	Label("pair")
	LEAQ(m(R11, 1), RAX)
	CMPQ(RAX, lim)
	JAE(LabelRef("one"))
	pairLoad()
	// Both maxima: the halves of each block, then the two blocks' 256-bit
	// halves side by side, then folded within 256 bits: lanes 0..7 hold
	// block A's amax, lanes 8..15 block B's.
	VPMAXUD(Z4, Z5, Z8)
	VPMAXUD(Z6, Z7, Z9)
	VSHUFI64X2(U8(0x44), Z9, Z8, Z12)
	VSHUFI64X2(U8(0xee), Z9, Z8, Z13)
	VPMAXUD(Z13, Z12, Z12)
	VSHUFI64X2(U8(0xb1), Z12, Z12, Z13)
	VPMAXUD(Z13, Z12, Z12)
	VPSHUFD(U8(0x4e), Z12, Z13)
	VPMAXUD(Z13, Z12, Z12)
	VPSHUFD(U8(0xb1), Z12, Z13)
	VPMAXUD(Z13, Z12, Z12)
	VMOVD(X12, EAX)
	VEXTRACTI32X4(U8(2), Z12, X13)
	VMOVD(X13, ECX)
	// The scales (R12: 0 for a zero block, making the scale 0x00; else
	// -1). When block B goes to the Go code, the one-block loop writes
	// A's scale again.
	sharedX(EAX, EBX, "one", "A")
	LEAL(m(RBX, 127), EAX)
	ANDL(R12L, EAX)
	MOVB(AL, m(R9, 0))
	sharedX(ECX, R8L, "one", "B")
	LEAL(m(R8, 127), EAX)
	ANDL(R12L, EAX)
	MOVB(AL, m(R9, 1))
	SHLL(U8(23), EBX)
	VPBROADCASTD(EBX, Z10)
	SHLL(U8(23), R8L)
	VPBROADCASTD(R8L, Z11)
	pairCodes(ef, out, mode)
	ADDQ(U32(256), RSI)
	ADDQ(U8(2), R9)
	ADDQ(U8(2), R11)
	JMP(LabelRef("pair"))

	Label("one")
	CMPQ(R11, lim)
	JAE(LabelRef("next"))
	VMOVDQU32(m(RSI, 0), Z0)
	VMOVDQU32(m(RSI, 64), Z1)
	VPANDD(Z31, Z0, Z4)
	VPANDD(Z31, Z1, Z5)
	// amax, folded in halves down to one lane.
	VPMAXUD(Z4, Z5, Z8)
	VEXTRACTI64X4(U8(1), Z8, Y9)
	VPMAXUD(Y9, Y8, Y8)
	VEXTRACTI128(U8(1), Y8, X9)
	VPMAXUD(X9, X8, X8)
	VPSHUFD(U8(0x4e), X8, X9)
	VPMAXUD(X9, X8, X8)
	VPSHUFD(U8(0xb1), X8, X9)
	VPMAXUD(X9, X8, X8)
	VMOVD(X8, EAX)
	sharedX(EAX, EBX, "done", "C")
	LEAL(m(RBX, 127), EAX)
	ANDL(R12L, EAX)
	MOVB(AL, m(R9, 0))
	SHLL(U8(23), EBX)
	VPBROADCASTD(EBX, Z10)
	for h := range 2 {
		x := zr[h]
		nz := K1
		if h == 1 {
			nz = K2
		}
		tr := elemHalf(ef, mode, x, zr[4+h], Z10, nz)
		countDwords(tr, nz)
		switch {
		case out == "Bytes":
			VPSRLD(U8(uint8(32-ef.width)), x, Z8)
			VPTERNLOGD(U8(0xf8), Z21, Z8, tr)
			VPMOVDB(tr, m(RDI, 16*h))
		case h == 0:
			VMOVDQA32(tr, Z16)
		default:
			// As the pair loop, for one block: then the dwords back in
			// element order and their low bytes stored.
			VPACKUSDW(tr, Z16, Z22)
			VPACKSSDW(Z1, Z0, Z8)
			VPSRLW(U8(12), Z8, Z8)
			VPTERNLOGD(U8(0xf8), Z17, Z8, Z22)
			VPSRLD(U8(12), Z22, Z8)
			VPORD(Z8, Z22, Z22)
			VPERMD(Z22, Z21, Z22)
			VPMOVDB(Z22, m(RDI, 0))
		}
	}
	ADDQ(U32(128), RSI)
	if out == "Bytes" {
		ADDQ(U8(32), RDI)
	} else {
		ADDQ(U8(16), RDI)
	}
	INCQ(R9)
	INCQ(R11)
	JMP(LabelRef("pair"))

	Label("next")
	CMPQ(R11, RDX)
	JB(LabelRef("batch"))

	Label("done")
	Store(R11, Return("done"))
	Store(R13, Return("clamped"))
	MOVQ(R11, RAX)
	SHLQ(U8(5), RAX)
	SUBQ(RAX, R14)
	Store(R14, Return("flushed"))
	VZEROUPPER()
	RET()
}

// pairLoad loads the pair of blocks at RSI (Z0..Z3) and their magnitudes
// (Z4..Z7), and prefetches.
func pairLoad() {
	for _, d := range []int{prefetch, prefetch + 64, prefetch + 128, prefetch + 192} {
		PREFETCHT0(m(RSI, d))
	}
	for i := range 4 {
		VMOVDQU32(m(RSI, 64*i), zr[i])
		VPANDD(Z31, zr[i], zr[4+i])
	}
}

// pairCodes writes the codes of the pair of blocks loaded by pairLoad,
// whose X << 23 are in Z10 and Z11, at RDI, counts them, and advances RDI.
func pairCodes(ef elemFmt, out, mode string) {
	s := ef.width - 1
	for h := range 4 {
		xs, w := Z10, Z22
		if h >= 2 {
			xs, w = Z11, Z23
		}
		nz := K1
		if h%2 == 1 {
			nz = K2
		}
		tr := elemHalf(ef, mode, zr[h], zr[4+h], xs, nz)
		if h%2 == 0 {
			VMOVDQA32(tr, Z16)
		} else {
			// Codes of the block's two halves as words: each 128-bit lane
			// four of the first half, then four of the second.
			VPACKUSDW(tr, Z16, w)
			countWords(w)
		}
	}
	// The signs from a signed pack of x (bit 15 of each word), moved to the
	// code's sign bit.
	for blk, w := range []VecPhysical{Z22, Z23} {
		VPACKSSDW(zr[2*blk+1], zr[2*blk], Z8)
		VPSRLW(U8(uint8(15-s)), Z8, Z8)
		VPTERNLOGD(U8(0xf8), Z17, Z8, w)
	}
	// 64 codes to bytes; the dwords (four codes each) back in element
	// order.
	VPACKUSWB(Z23, Z22, Z22)
	VPERMD(Z22, Z18, Z22)
	if out == "Bytes" {
		VMOVDQU32(Z22, m(RDI, 0))
		ADDQ(U8(64), RDI)
	} else {
		// FP4: each pair of bytes b0, b1 into the word b0 + 16*b1 (the
		// first in the low nibble); the words' low bytes stored.
		VPMADDUBSW(nibMul, Z22, Z22)
		VPMOVWB(Z22, m(RDI, 0))
		ADDQ(U8(32), RDI)
	}
}

// prefetch is how far ahead of the block pair the pair loop prefetches its
// input, in bytes.
const prefetch = 4096

// batch16 does the scale work of the 16 blocks at RSI at once: their
// maxima reduced into the lanes of one register (block b in lane b), the
// shared exponents X under the rule (sharedX's, lane by lane), the 16 scale
// bytes at R9 and each block's X << 23 in the 16 dwords at xs. A batch
// holding a block that sharedX would leave to the Go code (a NaN or
// infinite maximum, or X below xsub) jumps to bad having stored nothing.
//
// Registers: Z0..Z3 leaves and shuffles, Z4 Z5 and Z6..Z9 the tree's
// inner nodes, Z10 Z11 Z12 its last levels (Z12 the maxima), Z13 Z14 the
// scales; K1 the non-zero blocks, K2 K3 the bad ones.
func batch16(xs Mem, bad string) {
	// leaf puts block b's maximum over the 16 lanes into register r,
	// with the temporary t.
	leaf := func(b int, r, t VecPhysical) {
		VPANDD(m(RSI, 128*b), Z31, r)
		VPANDD(m(RSI, 128*b+64), Z31, t)
		VPMAXUD(t, r, r)
	}
	// step folds u and v into dst by the two shuffles into Z1 and Z3.
	step := func(u, v, dst VecPhysical, shuf func(u, v, a, b VecPhysical)) {
		shuf(u, v, Z1, Z3)
		VPMAXUD(Z3, Z1, dst)
	}
	// The tree of _asm/ggml's reduce16: the blocks enter in the order
	// 4(v%4) + v/4, which the shuffles transpose back (halves of 256
	// bits, then 128, quadwords, dwords).
	var w [4]VecPhysical
	for g := range w {
		var mm [2]VecPhysical
		for p := range mm {
			v0, v1 := 4*g+2*p, 4*g+2*p+1
			leaf(4*(v0%4)+v0/4, Z0, Z1)
			leaf(4*(v1%4)+v1/4, Z2, Z3)
			mm[p] = zr[4+p]
			step(Z0, Z2, mm[p], func(u, v, a, b VecPhysical) {
				VSHUFI64X2(U8(0x44), v, u, a)
				VSHUFI64X2(U8(0xee), v, u, b)
			})
		}
		w[g] = zr[6+g]
		step(mm[0], mm[1], w[g], func(u, v, a, b VecPhysical) {
			VSHUFI64X2(U8(0x88), v, u, a)
			VSHUFI64X2(U8(0xdd), v, u, b)
		})
	}
	for p, x := range []VecPhysical{Z10, Z11} {
		step(w[2*p], w[2*p+1], x, func(u, v, a, b VecPhysical) {
			VPUNPCKLQDQ(v, u, a)
			VPUNPCKHQDQ(v, u, b)
		})
	}
	step(Z10, Z11, Z12, func(u, v, a, b VecPhysical) {
		VSHUFPS(U8(0x88), v, u, a)
		VSHUFPS(U8(0xdd), v, u, b)
	})
	// The scale X + 127 = ((amax + ruleAdd) >> 23) - emax: the carry out
	// of the fraction is sharedX's comparison with the rule's threshold.
	VPTESTMD(Z12, Z12, K1)
	VPCMPUD(U8(5), Z29, Z12, K2)
	VPADDD_BCST(m(R10, qRuleAdd), Z12, Z13)
	VPSRLD(U8(23), Z13, Z13)
	VPSUBD_BCST(m(R10, qEmax), Z13, Z13)
	VPCMPD_BCST(U8(1), m(R10, qScaleMin), Z13, K1, K3)
	KORW(K2, K3, K3)
	KORTESTW(K3, K3)
	JNZ(LabelRef(bad))
	// A zero block: the scale 0x00 and X = 0, as sharedX.
	VMOVDQA32_Z(Z13, K1, Z14)
	VPMOVDB(Z14, m(R9, 0))
	VPSLLD(U8(23), Z13, Z13)
	VPSUBD_BCST_Z(expOne, Z13, K1, Z13)
	VMOVDQU32(Z13, xs)
}

// sharedX computes the shared exponent X into register x from the block
// maximum's pattern in amax (which it clobbers), or jumps to bail for a
// block the Go code must take: a NaN or infinite maximum, or X below xsub
// (float32 subnormal inputs may matter, or X clamps). A zero block gets X =
// 0 (its elements are zeros whatever X is) and the flag register R12 0,
// which makes the caller write the scale 0x00; else the flag is -1 and the
// scale is X + 127. tag makes the labels unique.
func sharedX(amax, x GPPhysical, bail, tag string) {
	flag := R12L
	CMPL(amax, U32(0x7f800000))
	JAE(LabelRef(bail))
	XORL(x, x)
	XORL(flag, flag)
	TESTL(amax, amax)
	JZ(LabelRef("zero" + tag))
	// X = exponent - 127 - emax, plus one when the fraction exceeds the
	// rule's threshold.
	MOVL(amax, x)
	SHRL(U8(23), x)
	ANDL(U32(0x7fffff), amax)
	CMPL(m(R10, qRuleT), amax)
	ADCL(U8(0), x)
	SUBL(m(R10, qOff), x)
	CMPL(x, m(R10, qXsub))
	JLT(LabelRef(bail))
	MOVL(I32(-1), flag)
	Label("zero" + tag)
}

// elemHalf writes the code of 16 elements x (magnitudes a) of a block whose
// X << 23 is in xs, without the sign, clamped to MAX and counted, and
// returns the register that holds it.
//
// The code is not clamped: the caller clamps and counts it (countWords,
// countDwords). nz receives the mask of the non-zero magnitudes.
func elemHalf(ef elemFmt, mode string, x, a, xs VecPhysical, nz OpmaskPhysical) VecPhysical {
	ta, te, tc, tk, tr := Z9, Z12, Z13, Z14, Z15
	// The scaled magnitude: the pattern minus X << 23, at least 2^-126 as
	// a signed integer, and 0 for zero. Where the exponent stays positive
	// that is x / 2^X exactly; where it does not (X > 0) the difference is
	// below 2^-126 or negative, and 2^-126 stands for the tiny value
	// (fromFloat32). A subnormal x with X < 0 gives the pattern of a value
	// in [2^(-X-127), 2^(-X-126)) where the true one is below 2^(-X-126):
	// for X >= xsub both lie below half the element's smallest subnormal,
	// 2^(qmin-1) = 2^(-xsub-126), so they round alike.
	VPTESTMD(a, a, nz)
	VPSUBD(xs, a, ta)
	VPMAXSD_Z(Z24, ta, nz, ta)
	// Round it: add 1.5 * 2^23 quanta in the mode, then the code. (No clamp
	// to the grid point above MAX is needed, as elemInfo's fromFloat32 has:
	// a block the kernel takes has X >= xsub, so X is not clamped and every
	// magnitude is below 2^(emax+1); the codes of MAX's binade and the next
	// one are consecutive, and everything above MAX is clamped below.)
	VPANDD(Z29, ta, te)
	VPMAXUD(Z28, te, te)
	VPADDD(Z27, te, tc)
	VPADDD(Z26, te, tk)
	VPSRLD(U8(uint8(23-ef.mant)), te, te)
	VPSUBD(te, tk, tk)
	switch mode {
	case "RTE":
		VADDPS_RN_SAE(tc, ta, tr)
	case "RTZ":
		VADDPS_RZ_SAE(tc, ta, tr)
	case "RTP":
		VPMOVD2M(x, K3)
		KNOTW(K3, K4)
		VADDPS_RZ_SAE(tc, ta, tr)
		VADDPS_RU_SAE(tc, ta, K4, tr)
	case "RTN":
		VPMOVD2M(x, K3)
		VADDPS_RZ_SAE(tc, ta, tr)
		VADDPS_RU_SAE(tc, ta, K3, tr)
	}
	VPSUBD(tk, tr, tr)
	return tr
}

// countWords clamps the 32 codes (words) of a block in w to MAX, counting
// those above it, and counts its zero codes and its non-zero inputs (K1,
// K2; see quantKernel).
func countWords(w VecPhysical) {
	VPCMPUW(U8(6), Z25, w, K5)
	VPMINUW(Z25, w, w)
	VPTESTNMW(w, w, K6)
	KUNPCKWD(K1, K2, K7)
	KMOVD(K5, EAX)
	POPCNTL(EAX, EAX)
	ADDQ(RAX, R13)
	KMOVD(K6, EAX)
	POPCNTL(EAX, EAX)
	ADDQ(RAX, R14)
	KMOVD(K7, EAX)
	POPCNTL(EAX, EAX)
	ADDQ(RAX, R14)
}

// countDwords clamps the 16 codes (dwords) of a half block in tr to MAX,
// counting those above it, and counts its flushes (zero codes of the
// non-zero inputs nz) plus 16: the one-block loop's share of the 32 a
// block adds to R14.
func countDwords(tr VecPhysical, nz OpmaskPhysical) {
	VPCMPUD(U8(6), Z19, tr, K5)
	VPMINUD(Z19, tr, tr)
	VPTESTNMD(tr, tr, nz, K6)
	KMOVW(K5, EAX)
	POPCNTL(EAX, EAX)
	ADDQ(RAX, R13)
	KMOVW(K6, EAX)
	POPCNTL(EAX, EAX)
	ADDQ(U8(16), RAX)
	ADDQ(RAX, R14)
}

const deqSig = "func(dst *uint32, elems, scales *byte, n int, tab *uint32) int"

// deqHead starts a dequantization kernel and loads its arguments.
func deqHead(name, doc string) {
	text(name, deqSig, doc)
	Load(Param("dst"), RDI)
	Load(Param("elems"), RSI)
	Load(Param("scales"), R9)
	Load(Param("n"), RDX)
	Load(Param("tab"), R10)
	XORQ(R11, R11)
}

// deqScale puts the float32 2^(X+bias) for the block's scale into Z6;
// a block whose X lies outside [lo, hi] (the NaN scale included) ends the
// kernel, for the Go code.
func deqScale(lo, hi, bias int) {
	MOVBLZX(m(R9, 0), EAX)
	SUBL(U8(127), EAX)
	CMPL(EAX, I32(int32(lo)))
	JLT(LabelRef("done"))
	CMPL(EAX, I32(int32(hi)))
	JGT(LabelRef("done"))
	ADDL(U32(uint32(127+bias)), EAX)
	SHLL(U8(23), EAX)
	VPBROADCASTD(EAX, Z6)
}

func deqTail(elemBytes int) {
	ADDQ(U32(128), RDI)
	ADDQ(U8(uint8(elemBytes)), RSI)
	INCQ(R9)
	INCQ(R11)
	CMPQ(R11, RDX)
	JB(LabelRef("loop"))
	Label("done")
	Store(R11, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// deqFP8 decodes E4M3 or E5M2 codes through binary16 (VCVTPH2PS): an E5M2
// code is the top byte of a binary16 pattern; an E4M3 code's magnitude
// shifted left by 7, with its sign on top, is a binary16 pattern of value
// 2^-8 times the code's (subnormals included), and its NaN S.1111.111 is
// put back afterwards (0x7ff00000 with the sign, as minifloat decodes it).
func deqFP8(e4m3 bool) {
	name, fm, lo, hi, bias := "mxdE5M2", "MXFP8 E5M2", -110, 112, 0
	if e4m3 {
		name, fm, lo, hi, bias = "mxdE4M3", "MXFP8 E4M3", -117, 119, 8
	}
	deqHead(name, fmt.Sprintf("%s decodes the first of n %s blocks (32 codes at elems, a scale byte at scales) to float32 patterns at dst; it stops at a block the Go code must take and returns the blocks done.", name, fm))
	if e4m3 {
		MOVL(U32(0x7f), EAX)
		VPBROADCASTD(EAX, Z30)
		MOVL(U32(0x80), EAX)
		VPBROADCASTD(EAX, Z29)
		MOVL(U32(0x80000000), EAX)
		VPBROADCASTD(EAX, Z28)
		MOVL(U32(0x7ff00000), EAX)
		VPBROADCASTD(EAX, Z27)
	}
	TESTQ(RDX, RDX)
	JZ(LabelRef("done"))
	Label("loop")
	deqScale(lo, hi, bias)
	for h := range 2 {
		z, w, r, s := zr[8+4*h], zr[9+4*h], zr[10+4*h], zr[11+4*h]
		y := w.AsY()
		VPMOVZXBD(m(RSI, 16*h), z)
		if e4m3 {
			VPANDD(Z30, z, w)
			VPCMPEQD(Z30, w, K1)
			VPSLLD(U8(7), w, w)
			VPANDD(Z29, z, s)
			VPSLLD(U8(8), s, s)
			VPORD(s, w, w)
		} else {
			VPSLLD(U8(8), z, w)
		}
		VPMOVDW(w, y)
		VCVTPH2PS(y, r)
		VMULPS(Z6, r, r)
		if e4m3 {
			VPSLLD(U8(24), z, s)
			VPTERNLOGD(U8(0xea), Z27, Z28, s)
			VMOVDQA32(s, K1, r)
		}
		VMOVDQU32(r, m(RDI, 64*h))
	}
	deqTail(32)
}

// deqFP4 decodes E2M1 codes through a 16-entry table (VPERMD) scaled by
// 2^X once per block: packed two per byte with the first in the low
// nibble, or one per byte (bits above 4 ignored).
func deqFP4(packed bool) {
	name, inc, what := "mxdFP4", 32, "one code a byte"
	if packed {
		name, inc, what = "mxdFP4Nib", 16, "two codes a byte, the first in the low nibble"
	}
	deqHead(name, fmt.Sprintf("%s decodes the first of n MXFP4 blocks (%s at elems, a scale byte at scales) to float32 patterns at dst through E2M1's 16 patterns at tab; it stops at a block the Go code must take and returns the blocks done.", name, what))
	VMOVDQU32(m(R10, 0), Z31)
	MOVL(U32(0x0f0f0f0f), EAX)
	VPBROADCASTD(EAX, Z30)
	TESTQ(RDX, RDX)
	JZ(LabelRef("done"))
	Label("loop")
	deqScale(-125, 125, 0)
	VMULPS(Z6, Z31, Z7)
	if packed {
		VMOVDQU(m(RSI, 0), X0)
		VPSRLW(U8(4), X0, X1)
		VPANDD(X30, X0, X0)
		VPANDD(X30, X1, X1)
		VPUNPCKLBW(X1, X0, X2)
		VPUNPCKHBW(X1, X0, X3)
		VPMOVZXBD(X2, Z8)
		VPMOVZXBD(X3, Z9)
	} else {
		VPMOVZXBD(m(RSI, 0), Z8)
		VPMOVZXBD(m(RSI, 16), Z9)
		VPANDD(Z30, Z8, Z8)
		VPANDD(Z30, Z9, Z9)
	}
	VPERMD(Z7, Z8, Z10)
	VPERMD(Z7, Z9, Z11)
	VMOVDQU32(Z10, m(RDI, 0))
	VMOVDQU32(Z11, m(RDI, 64))
	deqTail(inc)
}

func main() {
	flag.Parse()
	ConstraintExpr("gc,!purego")
	// nibPerm puts the dwords of the FP4 kernels' word pairs back in
	// element order: pair j (elements 2j, 2j+1) is dword 4*(j/2)+j%2 for
	// j < 8 and 4*((j-8)/2)+2+j%2 after.
	nibPerm = GLOBL("nibPerm", RODATA|NOPTR)
	for j := range 16 {
		d := 4*(j/2) + j%2
		if j >= 8 {
			d = 4*((j-8)/2) + 2 + j%2
		}
		DATA(4*j, U32(uint32(d)))
	}
	// bytePairPerm puts the dwords of two blocks' bytes (after two word
	// packs and a byte pack, lane k holds four codes of each half of
	// block A, then of block B) in element order.
	bytePairPerm = GLOBL("bytePairPerm", RODATA|NOPTR)
	for o, d := range []int{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15} {
		DATA(4*o, U32(uint32(d)))
	}
	// nibMul: the byte multipliers 1, 16, 1, 16, ... of VPMADDUBSW.
	// expOne: 127 << 23, the scale's bias in X << 23.
	expOne = GLOBL("expOne", RODATA|NOPTR)
	DATA(0, U32(127<<23))
	nibMul = GLOBL("nibMul", RODATA|NOPTR)
	for o := range 16 {
		DATA(4*o, U32(0x10011001))
	}
	for _, ef := range elemFmts {
		for _, out := range []string{"Bytes", "Nib"} {
			if out == "Nib" && ef.width != 4 {
				continue
			}
			for _, md := range modes {
				quantKernel(ef, out, md)
			}
		}
	}
	deqFP8(true)
	deqFP8(false)
	deqFP4(false)
	deqFP4(true)
	elemKernels()
	Generate()
}
