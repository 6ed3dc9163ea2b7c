// Command ggml generates the AVX-512 kernels of package ggml (the tensor
// types of llama.cpp's ggml) with avo:
//
//   - dequantQ8_0AVX512, dequantQ4_0AVX512, dequantQ4_1AVX512: whole
//     blocks, one VMULPS per element of the float32 product ggml's
//     dequantize_row_* stores (code x scale, one rounding; then + m, a
//     second, for Q4_1), for blocks whose fp16 scales are finite; a
//     kernel stops at the first block whose scale is NaN or infinite and
//     returns the blocks done, and the Go code, which defines those, does
//     that block;
//   - dequantBF16AVX512: the 16-bit shift of ggml_bf16_to_fp32, 16 elements
//     at a time;
//   - dequantF16AVX512: VCVTPH2PS (exact for finite halves), 16 at a time,
//     stopping before a group of 16 holding a NaN or an infinity (the
//     hardware quiets a signalling NaN, which ggml's conversion keeps);
//   - quantQ8_0AVX512, quantQ4_0AVX512: quantize_row_q8_0_ref's and
//     quantize_row_q4_0_ref's bytes for blocks whose largest magnitude is
//     finite (see quantQ8_0, quantQ4_0).
//
// Neither reads nor writes MXCSR: Go runs in round-to-nearest, the rounding
// of ggml's float32 products; DAZ and FTZ are off, so subnormals are kept.
// Run it with go generate in package ggml.
package main

import (
	"flag"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// bcstD returns a new zmm register holding v in every 32-bit lane.
func bcstD(v uint32) reg.VecVirtual {
	r := GP32()
	MOVL(U32(v), r)
	z := ZMM()
	VPBROADCASTD(r, z)
	return z
}

// blockScale loads the fp16 scale at src+disp as a float32 in every lane
// of a new zmm register, or jumps to exit when it is NaN or infinite.
func blockScale(src reg.Register, disp int, exit string) reg.VecVirtual {
	h, t := GP32(), GP32()
	MOVWLZX(Mem{Base: src, Disp: disp}, h)
	MOVL(h, t)
	ANDL(U32(0x7c00), t)
	CMPL(t, U32(0x7c00))
	JE(LabelRef(exit))
	x := XMM()
	VMOVD(h, x)
	VCVTPH2PS(x, x)
	d := ZMM()
	VBROADCASTSS(x, d)
	return d
}

// dequantQ8_0: blocks of 34 bytes, an fp16 scale and 32 int8 codes.
func dequantQ8_0() {
	TEXT("dequantQ8_0AVX512", NOSPLIT, "func(dst *float32, src *byte, nb int) int")
	Doc("dequantQ8_0AVX512 dequantizes the first blocks of nb Q8_0 blocks at src to dst, stopping at a block whose scale is not finite; it returns the blocks done.")
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	i := GP64()
	XORQ(i, i)
	Label("q8loop")
	CMPQ(i, nb)
	JAE(LabelRef("q8done"))
	d := blockScale(src, 0, "q8done")
	for h := 0; h < 2; h++ {
		z := ZMM()
		VPMOVSXBD(Mem{Base: src, Disp: 2 + 16*h}, z)
		VCVTDQ2PS(z, z)
		VMULPS(d, z, z)
		VMOVUPS(z, Mem{Base: dst, Disp: 64 * h})
	}
	ADDQ(U8(34), src)
	ADDQ(U32(128), dst)
	INCQ(i)
	JMP(LabelRef("q8loop"))
	Label("q8done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// dequantQ4_0: blocks of 18 bytes, an fp16 scale and 16 bytes of codes,
// element j in the low nibble of byte j and element j+16 in its high one,
// each code k standing for k-8.
func dequantQ4_0() {
	TEXT("dequantQ4_0AVX512", NOSPLIT, "func(dst *float32, src *byte, nb int) int")
	Doc("dequantQ4_0AVX512 dequantizes the first blocks of nb Q4_0 blocks at src to dst, stopping at a block whose scale is not finite; it returns the blocks done.")
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	c15, c8 := bcstD(15), bcstD(8)
	i := GP64()
	XORQ(i, i)
	Label("q4loop")
	CMPQ(i, nb)
	JAE(LabelRef("q4done"))
	d := blockScale(src, 0, "q4done")
	lo, hi := ZMM(), ZMM()
	VPMOVZXBD(Mem{Base: src, Disp: 2}, lo)
	VPSRLD(U8(4), lo, hi)
	VPANDD(c15, lo, lo)
	for k, z := range []reg.VecVirtual{lo, hi} {
		VPSUBD(c8, z, z)
		VCVTDQ2PS(z, z)
		VMULPS(d, z, z)
		VMOVUPS(z, Mem{Base: dst, Disp: 64 * k})
	}
	ADDQ(U8(18), src)
	ADDQ(U32(128), dst)
	INCQ(i)
	JMP(LabelRef("q4loop"))
	Label("q4done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// dequantQ4_1: blocks of 20 bytes, fp16 d and m and 16 bytes of codes as
// Q4_0's; each element is float32(k * d) + m, two roundings as ggml's.
func dequantQ4_1() {
	TEXT("dequantQ4_1AVX512", NOSPLIT, "func(dst *float32, src *byte, nb int) int")
	Doc("dequantQ4_1AVX512 dequantizes the first blocks of nb Q4_1 blocks at src to dst, stopping at a block whose d or m is not finite; it returns the blocks done.")
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	c15 := bcstD(15)
	i := GP64()
	XORQ(i, i)
	Label("q41loop")
	CMPQ(i, nb)
	JAE(LabelRef("q41done"))
	d := blockScale(src, 0, "q41done")
	m := blockScale(src, 2, "q41done")
	lo, hi := ZMM(), ZMM()
	VPMOVZXBD(Mem{Base: src, Disp: 4}, lo)
	VPSRLD(U8(4), lo, hi)
	VPANDD(c15, lo, lo)
	for k, z := range []reg.VecVirtual{lo, hi} {
		VCVTDQ2PS(z, z)
		VMULPS(d, z, z)
		VADDPS(m, z, z)
		VMOVUPS(z, Mem{Base: dst, Disp: 64 * k})
	}
	ADDQ(U8(20), src)
	ADDQ(U32(128), dst)
	INCQ(i)
	JMP(LabelRef("q41loop"))
	Label("q41done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// dequantBF16: n elements, 16 at a time.
func dequantBF16() {
	TEXT("dequantBF16AVX512", NOSPLIT, "func(dst *float32, src *byte, n int) int")
	Doc("dequantBF16AVX512 widens n &^ 15 bfloat16 values at src to float32 at dst and returns that count.")
	dst, src, n := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("n"), GP64())
	ANDQ(I32(-16), n)
	i := GP64()
	XORQ(i, i)
	Label("bfloop")
	CMPQ(i, n)
	JAE(LabelRef("bfdone"))
	z := ZMM()
	VPMOVZXWD(Mem{Base: src, Index: i, Scale: 2}, z)
	VPSLLD(U8(16), z, z)
	VMOVUPS(z, Mem{Base: dst, Index: i, Scale: 4})
	ADDQ(U8(16), i)
	JMP(LabelRef("bfloop"))
	Label("bfdone")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// dequantF16: n elements, 16 at a time, up to a group holding a NaN or an
// infinity.
func dequantF16() {
	TEXT("dequantF16AVX512", NOSPLIT, "func(dst *float32, src *byte, n int) int")
	Doc("dequantF16AVX512 widens the halves at src to float32 at dst, 16 at a time, up to n &^ 15 or to the first group of 16 holding a NaN or an infinity; it returns the count done.")
	dst, src, n := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("n"), GP64())
	ANDQ(I32(-16), n)
	cexp := bcstD(0x7c00)
	i := GP64()
	XORQ(i, i)
	Label("f16loop")
	CMPQ(i, n)
	JAE(LabelRef("f16done"))
	h, w := YMM(), ZMM()
	VMOVDQU(Mem{Base: src, Index: i, Scale: 2}, h)
	VPMOVZXWD(h, w)
	VPANDD(cexp, w, w)
	k := K()
	VPCMPEQD(cexp, w, k)
	KORTESTW(k, k)
	JNZ(LabelRef("f16done"))
	z := ZMM()
	VCVTPH2PS(h, z)
	VMOVUPS(z, Mem{Base: dst, Index: i, Scale: 4})
	ADDQ(U8(16), i)
	JMP(LabelRef("f16loop"))
	Label("f16done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// quantQ8_0: 32 float32 a block, to an fp16 scale d = amax/127 and 32 int8
// codes roundf(x * id), id = 1/d (0 when d is 0), as quantize_row_q8_0_ref;
// it stops at a block whose largest magnitude is NaN or infinite. roundf
// (half away from zero) of p is trunc(p + copysign(0.5 - 2^-25, p)), the
// sum rounded to float32: equal for every float32 |p| < 2^31 (checked
// for all of them by ggml's TestRoundfTrick), and an infinite or NaN p
// truncates to the same indefinite integer either way.
func quantQ8_0() {
	TEXT("quantQ8_0AVX512", NOSPLIT, "func(dst *byte, src *float32, nb int) int")
	Doc("quantQ8_0AVX512 quantizes the first blocks of nb blocks of 32 float32 at src to Q8_0 at dst, stopping at a block whose largest magnitude is not finite; it returns the blocks done.")
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	cabs, chalf, csign := bcstD(0x7fffffff), bcstD(0x3effffff), bcstD(0x80000000) // 0.5 - 2^-25
	g := GP32()
	c127, one := XMM(), XMM()
	MOVL(U32(0x42fe0000), g) // 127.0
	VMOVD(g, c127)
	MOVL(U32(0x3f800000), g) // 1.0
	VMOVD(g, one)
	i := GP64()
	XORQ(i, i)
	Label("q8qloop")
	CMPQ(i, nb)
	JAE(LabelRef("q8qdone"))
	x := []reg.VecVirtual{ZMM(), ZMM()}
	VMOVUPS(Mem{Base: src}, x[0])
	VMOVUPS(Mem{Base: src, Disp: 64}, x[1])
	m, a := ZMM(), ZMM()
	VPANDD(cabs, x[0], m)
	VPANDD(cabs, x[1], a)
	VPMAXUD(a, m, m)
	x2 := hmax(m)
	VMOVD(x2, g)
	CMPL(g, U32(0x7f800000))
	JAE(LabelRef("q8qdone")) // NaN or infinity: the Go kernel
	d, id, h := XMM(), XMM(), XMM()
	VDIVSS(c127, x2, d) // amax / 127
	VCVTPS2PH(U8(0), d, h)
	hw := GP32()
	VMOVD(h, hw)
	MOVW(hw.As16(), Mem{Base: dst})
	VXORPS(id, id, id)
	VMOVD(d, g)
	TESTL(g, g)
	JZ(LabelRef("q8qzero"))
	VDIVSS(d, one, id) // 1 / d
	Label("q8qzero")
	zid := ZMM()
	VBROADCASTSS(id, zid)
	for k := 0; k < 2; k++ {
		p, sg := ZMM(), ZMM()
		VMULPS(zid, x[k], p)
		VPANDD(csign, p, sg)
		VPORD(chalf, sg, sg) // copysign(0.5 - 2^-25, p)
		VADDPS(sg, p, p)
		VCVTTPS2DQ(p, p)
		VPMOVDB(p, Mem{Base: dst, Disp: 2 + 16*k})
	}
	ADDQ(U32(128), src)
	ADDQ(U8(34), dst)
	INCQ(i)
	JMP(LabelRef("q8qloop"))
	Label("q8qdone")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// hmax reduces the unsigned 32-bit lanes of m to their maximum, returned in
// lane 0 of a new xmm register.
func hmax(m reg.VecVirtual) reg.VecVirtual {
	y := YMM()
	VEXTRACTI64X4(U8(1), m, y)
	VPMAXUD(y, m.AsY(), y)
	x, t := XMM(), XMM()
	VEXTRACTI128(U8(1), y, x)
	VPMAXUD(x, y.AsX(), x)
	VPSHUFD(U8(0x4e), x, t)
	VPMAXUD(t, x, x)
	VPSHUFD(U8(0xb1), x, t)
	VPMAXUD(t, x, x)
	return x
}

// quantQ4_0: 32 float32 a block, to an fp16 scale d = max / -8, max the
// element of largest magnitude (the first of equals; +0 when all are
// zeros), and 32 4-bit codes MIN(15, (int8_t)(x * id + 8.5f)), id = 1/d (0
// when d is 0), element j in the low nibble of byte j and element j+16 in
// its high one, as quantize_row_q4_0_ref; it stops at a block whose largest
// magnitude is NaN or infinite. The (int8_t) cast changes nothing the
// MIN and the byte store keep: x * id + 8.5 lies in [-3.5, 20.5] whenever it
// is finite (|x * id| <= 8 |x / max| (1 + e), e < 1/2 even where d is a
// one-bit subnormal), where the int32 and the int8 agree; an infinite or
// NaN one (id infinite for a subnormal max) truncates to INT32_MIN, whose
// low byte, 0, is the C cast's.
func quantQ4_0() {
	TEXT("quantQ4_0AVX512", NOSPLIT, "func(dst *byte, src *float32, nb int) int")
	Doc("quantQ4_0AVX512 quantizes the first blocks of nb blocks of 32 float32 at src to Q4_0 at dst, stopping at a block whose largest magnitude is not finite; it returns the blocks done.")
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	cabs, c85, c15 := bcstD(0x7fffffff), bcstD(0x41080000), bcstD(15) // 8.5
	g := GP32()
	cm8, one := XMM(), XMM()
	MOVL(U32(0xc1000000), g) // -8.0
	VMOVD(g, cm8)
	MOVL(U32(0x3f800000), g) // 1.0
	VMOVD(g, one)
	i := GP64()
	XORQ(i, i)
	Label("q4qloop")
	CMPQ(i, nb)
	JAE(LabelRef("q4qdone"))
	x := []reg.VecVirtual{ZMM(), ZMM()}
	a := []reg.VecVirtual{ZMM(), ZMM()}
	VMOVUPS(Mem{Base: src}, x[0])
	VMOVUPS(Mem{Base: src, Disp: 64}, x[1])
	VPANDD(cabs, x[0], a[0])
	VPANDD(cabs, x[1], a[1])
	m := ZMM()
	VPMAXUD(a[1], a[0], m)
	am := hmax(m)
	VMOVD(am, g)
	CMPL(g, U32(0x7f800000))
	JAE(LabelRef("q4qdone")) // NaN or infinity: the Go kernel
	mx := XMM()
	VXORPS(mx, mx, mx) // +0 when every element is a zero
	TESTL(g, g)
	JZ(LabelRef("q4qmax"))
	// The first element whose magnitude is amax.
	zam := ZMM()
	VPBROADCASTD(am, zam)
	k0, k1 := K(), K()
	VPCMPEQD(zam, a[0], k0)
	VPCMPEQD(zam, a[1], k1)
	r0, r1 := GP32(), GP32()
	KMOVW(k0, r0)
	KMOVW(k1, r1)
	SHLL(U8(16), r1)
	ORL(r1, r0)
	idx := GP32()
	TZCNTL(r0, idx)
	VMOVSS(Mem{Base: src, Index: idx.As64(), Scale: 4}, mx)
	Label("q4qmax")
	d, id, h := XMM(), XMM(), XMM()
	VDIVSS(cm8, mx, d) // max / -8
	VCVTPS2PH(U8(0), d, h)
	hw := GP32()
	VMOVD(h, hw)
	MOVW(hw.As16(), Mem{Base: dst})
	VXORPS(id, id, id)
	VMOVD(d, g)
	ANDL(U32(0x7fffffff), g)
	JZ(LabelRef("q4qzero"))
	VDIVSS(d, one, id) // 1 / d
	Label("q4qzero")
	zid := ZMM()
	VBROADCASTSS(id, zid)
	var q [2]reg.VecVirtual
	for k := 0; k < 2; k++ {
		p := ZMM()
		VMULPS(zid, x[k], p)
		VADDPS(c85, p, p)
		VCVTTPS2DQ(p, p)
		VPMINSD(c15, p, p) // MIN(15, (int8_t)...): see above
		q[k] = p
	}
	VPSLLD(U8(4), q[1], q[1])
	VPORD(q[1], q[0], q[0])
	VPMOVDB(q[0], Mem{Base: dst, Disp: 2})
	ADDQ(U32(128), src)
	ADDQ(U8(18), dst)
	INCQ(i)
	JMP(LabelRef("q4qloop"))
	Label("q4qdone")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

func main() {
	flag.Parse()
	ConstraintExpr("gc,!purego")
	dequantQ8_0()
	dequantQ4_0()
	dequantQ4_1()
	dequantBF16()
	dequantF16()
	quantQ8_0()
	quantQ4_0()
	Generate()
}
