// Command ggml generates the AVX-512 kernels of package ggml (the tensor
// types of llama.cpp's ggml) with avo:
//
//   - dequantQ8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q8_K and MXFP4 (…AVX512):
//     whole blocks, one VMULPS per element of the float32 product ggml's
//     dequantize_row_* stores (code x scale, one rounding; then + m, a
//     second, for Q4_1 and Q5_1), for blocks whose scales are finite; a
//     kernel stops at the first block whose scale is NaN or infinite and
//     returns the blocks done, and the Go code, which defines those, does
//     that block;
//   - dequantBF16AVX512: the 16-bit shift of ggml_bf16_to_fp32, 16 elements
//     at a time;
//   - dequantF16AVX512: VCVTPH2PS, 16 at a time (bit-equal to ggml's
//     conversion for every half, NaNs included);
//   - quantQ8_0AVX512, quantQ4_0AVX512, quantMXFP4AVX512 (quant.go):
//     quantize_row_q8_0_ref's, quantize_row_q4_0_ref's and
//     quantize_row_mxfp4_ref's bytes, 16 blocks at a time, for blocks whose
//     largest magnitude is finite (for MXFP4: and whose scale byte is
//     normal, see quantMXFP4).
//
// Neither reads nor writes MXCSR: Go runs in round-to-nearest, the rounding
// of ggml's float32 products; DAZ and FTZ are off, so subnormals are kept.
// Run it with go generate in package ggml.
package main

import (
	"flag"
	"math"

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

// loadZMM returns a new zmm register holding the 64 bytes of table m from
// byte off.
func loadZMM(m Mem, off int) reg.VecVirtual {
	r := GP64()
	LEAQ(m, r)
	z := ZMM()
	VMOVDQU32(Mem{Base: r, Disp: off}, z)
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

// blockKernel emits the kernel name: it runs body over the first of nb
// blocks, advancing src by srcStep and dst by dstStep bytes a block, and
// returns the blocks done; body may jump to exit to stop before the current
// block (one whose values the Go kernel defines). setup emits what comes
// before the loop (constants).
func blockKernel(name, sig, doc string, srcStep, dstStep int, setup func(), body func(dst, src reg.Register, exit string)) {
	TEXT(name, NOSPLIT, sig)
	Doc(doc)
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	if setup != nil {
		setup()
	}
	i := GP64()
	XORQ(i, i)
	Label(name + "loop")
	CMPQ(i, nb)
	JAE(LabelRef(name + "done"))
	body(dst, src, name+"done")
	ADDQ(U32(uint32(srcStep)), src)
	ADDQ(U32(uint32(dstStep)), dst)
	INCQ(i)
	JMP(LabelRef(name + "loop"))
	Label(name + "done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// times returns the float32 product of scale (lane 0 of an xmm register)
// and the integer in r, rounded once, in every lane of a new zmm register:
// ggml's d * (float)sc.
func times(scale reg.VecVirtual, r reg.GPVirtual) reg.VecVirtual {
	x := XMM()
	VXORPS(x, x, x)
	VCVTSI2SSL(r, x, x)
	VMULSS(scale.AsX(), x, x)
	z := ZMM()
	VBROADCASTSS(x, z)
	return z
}

// dequantQ8_0: blocks of 34 bytes, an fp16 scale and 32 int8 codes.
func dequantQ8_0() {
	blockKernel("dequantQ8_0AVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantQ8_0AVX512 dequantizes the first blocks of nb Q8_0 blocks at src to dst, stopping at a block whose scale is not finite; it returns the blocks done.",
		34, 128, nil, func(dst, src reg.Register, exit string) {
			d := blockScale(src, 0, exit)
			for h := 0; h < 2; h++ {
				z := ZMM()
				VPMOVSXBD(Mem{Base: src, Disp: 2 + 16*h}, z)
				VCVTDQ2PS(z, z)
				VMULPS(d, z, z)
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * h})
			}
		})
}

// dequantQ4_0: blocks of 18 bytes, an fp16 scale and 16 bytes of codes,
// element j in the low nibble of byte j and element j+16 in its high one,
// each code k standing for k-8.
func dequantQ4_0() { dequantNibbles("dequantQ4_0AVX512", "Q4_0", 18, 8, false, false) }
func dequantQ4_1() { dequantNibbles("dequantQ4_1AVX512", "Q4_1", 20, 0, true, false) }
func dequantQ5_0() { dequantNibbles("dequantQ5_0AVX512", "Q5_0", 22, 16, false, true) }
func dequantQ5_1() { dequantNibbles("dequantQ5_1AVX512", "Q5_1", 24, 0, true, true) }

// iota32 holds the 32-bit lanes 0..31, for the variable shifts of the fifth
// bits.
var iota32 Mem

// dequantNibbles: blocks of size bytes, an fp16 d (and for Q4_1 and Q5_1 an
// fp16 m), for Q5_x the 32 fifth bits qh (bit j for element j), then 16
// bytes of codes, element j in the low nibble of byte j and element j+16 in
// its high one. The code k stands for (k - bias) * d, or k * d + m (two
// roundings) when affine.
func dequantNibbles(name, typ string, size, bias int, affine, fifth bool) {
	var c15, cb, c1, io0, io16 reg.VecVirtual
	blockKernel(name, "func(dst *float32, src *byte, nb int) int",
		name+" dequantizes the first blocks of nb "+typ+" blocks at src to dst, stopping at a block whose scales are not finite; it returns the blocks done.",
		size, 128, func() {
			c15 = bcstD(15)
			if bias != 0 {
				cb = bcstD(uint32(bias))
			}
			if fifth {
				c1 = bcstD(1)
				io0, io16 = loadZMM(iota32, 0), loadZMM(iota32, 64)
			}
		}, func(dst, src reg.Register, exit string) {
			d := blockScale(src, 0, exit)
			var m reg.VecVirtual
			if affine {
				m = blockScale(src, 2, exit)
			}
			lo, hi := ZMM(), ZMM()
			VPMOVZXBD(Mem{Base: src, Disp: size - 16}, lo)
			VPSRLD(U8(4), lo, hi)
			VPANDD(c15, lo, lo)
			var qh reg.VecVirtual
			if fifth {
				qh = ZMM()
				VPBROADCASTD(Mem{Base: src, Disp: size - 20}, qh)
			}
			for k, z := range []reg.VecVirtual{lo, hi} {
				if fifth { // | (qh >> (j + 16k) & 1) << 4
					t := ZMM()
					VPSRLVD([]reg.VecVirtual{io0, io16}[k], qh, t)
					VPANDD(c1, t, t)
					VPSLLD(U8(4), t, t)
					VPORD(t, z, z)
				}
				if bias != 0 {
					VPSUBD(cb, z, z)
				}
				VCVTDQ2PS(z, z)
				VMULPS(d, z, z)
				if affine {
					VADDPS(m, z, z)
				}
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * k})
			}
		})
}

// dequantQ8_K: blocks of 292 bytes, a float32 d, 256 int8 codes and 16
// int16 sums (unused); each element d * code.
func dequantQ8_K() {
	blockKernel("dequantQ8_KAVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantQ8_KAVX512 dequantizes the first blocks of nb Q8_K blocks at src to dst, stopping at a block whose d is not finite; it returns the blocks done.",
		292, 1024, nil, func(dst, src reg.Register, exit string) {
			g := GP32()
			MOVL(Mem{Base: src}, g)
			ANDL(U32(0x7f800000), g)
			CMPL(g, U32(0x7f800000))
			JE(LabelRef(exit))
			d := ZMM()
			VBROADCASTSS(Mem{Base: src}, d)
			for h := 0; h < 16; h++ {
				z := ZMM()
				VPMOVSXBD(Mem{Base: src, Disp: 4 + 16*h}, z)
				VCVTDQ2PS(z, z)
				VMULPS(z, d, z)
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * h})
			}
		})
}

func dequantQ4_K() { dequantQ45K("dequantQ4_KAVX512", "Q4_K", 144, false) }
func dequantQ5_K() { dequantQ45K("dequantQ5_KAVX512", "Q5_K", 176, true) }

// dequantQ45K: super-blocks of size bytes: fp16 d and dmin, 12 bytes of
// 6-bit scales and mins (get_scale_min_k4), for Q5_K 32 bytes qh of fifth
// bits, then 128 bytes of codes; sub-block 2j+h (32 elements) takes the low
// (h 0) or high (h 1) nibbles of the 32 code bytes from 32j, and for Q5_K
// bit 2j+h of qh[l] as its fifth; each element is (d*s)*code - dmin*m,
// rounded at each step as ggml's.
func dequantQ45K(name, typ string, size int, fifth bool) {
	var c15, c1 reg.VecVirtual
	qs := size - 128
	blockKernel(name, "func(dst *float32, src *byte, nb int) int",
		name+" dequantizes the first blocks of nb "+typ+" super-blocks at src to dst, stopping at one whose d or dmin is not finite; it returns the super-blocks done.",
		size, 1024, func() { c15, c1 = bcstD(15), bcstD(1) }, func(dst, src reg.Register, exit string) {
			d := blockScale(src, 0, exit)
			mn := blockScale(src, 2, exit)
			sc := func(i int) reg.GPVirtual { // byte i of the scales
				r := GP32()
				MOVBLZX(Mem{Base: src, Disp: 4 + i}, r)
				return r
			}
			for sb := 0; sb < 8; sb++ {
				var sv, mv reg.GPVirtual
				if sb < 4 {
					sv, mv = sc(sb), sc(sb+4)
					ANDL(U32(63), sv)
					ANDL(U32(63), mv)
				} else {
					t := sc(sb + 4)
					sv, mv = GP32(), GP32()
					MOVL(t, sv)
					ANDL(U32(15), sv)
					u := sc(sb - 4)
					SHRL(U8(6), u)
					SHLL(U8(4), u)
					ORL(u, sv)
					MOVL(t, mv)
					SHRL(U8(4), mv)
					w := sc(sb)
					SHRL(U8(6), w)
					SHLL(U8(4), w)
					ORL(w, mv)
				}
				dl, ml := times(d, sv), times(mn, mv) // d * s, dmin * m
				j, h := sb/2, sb%2
				for half := 0; half < 2; half++ {
					z := ZMM()
					VPMOVZXBD(Mem{Base: src, Disp: qs + 32*j + 16*half}, z)
					if h == 1 {
						VPSRLD(U8(4), z, z)
					}
					VPANDD(c15, z, z)
					if fifth { // | (qh[l] >> (2j+h) & 1) << 4
						t := ZMM()
						VPMOVZXBD(Mem{Base: src, Disp: 16 + 16*half}, t)
						if sb > 0 {
							VPSRLD(U8(sb), t, t)
						}
						VPANDD(c1, t, t)
						VPSLLD(U8(4), t, t)
						VPORD(t, z, z)
					}
					VCVTDQ2PS(z, z)
					VMULPS(dl, z, z)
					VSUBPS(ml, z, z) // - dmin*m
					VMOVUPS(z, Mem{Base: dst, Disp: 4 * (64*j + 32*h + 16*half)})
				}
			}
		})
}

// dequantQ6_K: super-blocks of 210 bytes: ql[128] (low 4 bits), qh[64]
// (high 2 bits), 16 int8 scales, fp16 d; element 128n+32k+16h+l has the
// nibble k/2 of ql[64n+32(k%2)+16h+l] and the bits 2k of qh[32n+16h+l],
// minus 32, times d*scale[8n+2k+h] (rounded, then the product rounded).
func dequantQ6_K() {
	var c15, c3, c32 reg.VecVirtual
	blockKernel("dequantQ6_KAVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantQ6_KAVX512 dequantizes the first blocks of nb Q6_K super-blocks at src to dst, stopping at one whose d is not finite; it returns the super-blocks done.",
		210, 1024, func() { c15, c3, c32 = bcstD(15), bcstD(3), bcstD(32) }, func(dst, src reg.Register, exit string) {
			d := blockScale(src, 208, exit)
			for n := 0; n < 2; n++ {
				for k := 0; k < 4; k++ {
					for h := 0; h < 2; h++ {
						sv := GP32()
						MOVBLSX(Mem{Base: src, Disp: 192 + 8*n + 2*k + h}, sv)
						ds := times(d, sv) // d * scale
						z, t := ZMM(), ZMM()
						VPMOVZXBD(Mem{Base: src, Disp: 64*n + 32*(k%2) + 16*h}, z)
						if k >= 2 {
							VPSRLD(U8(4), z, z)
						}
						VPANDD(c15, z, z)
						VPMOVZXBD(Mem{Base: src, Disp: 128 + 32*n + 16*h}, t)
						if k > 0 {
							VPSRLD(U8(2*k), t, t)
						}
						VPANDD(c3, t, t)
						VPSLLD(U8(4), t, t)
						VPORD(t, z, z)
						VPSUBD(c32, z, z)
						VCVTDQ2PS(z, z)
						VMULPS(ds, z, z)
						VMOVUPS(z, Mem{Base: dst, Disp: 4 * (128*n + 32*k + 16*h)})
					}
				}
			}
		})
}

// dequantQ2_K: super-blocks of 84 bytes: 16 scale bytes (4-bit scale |
// 4-bit min << 4), 64 bytes of 2-bit codes, fp16 d and dmin; group g (16
// elements, half n = g/8, j = g/2%4, h = g%2) has the bits 2j of bytes
// 16+32n+16h.. +15, each element (d*scale)*code - dmin*min.
func dequantQ2_K() {
	var c3 reg.VecVirtual
	blockKernel("dequantQ2_KAVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantQ2_KAVX512 dequantizes the first blocks of nb Q2_K super-blocks at src to dst, stopping at one whose d or dmin is not finite; it returns the super-blocks done.",
		84, 1024, func() { c3 = bcstD(3) }, func(dst, src reg.Register, exit string) {
			d := blockScale(src, 80, exit)
			mn := blockScale(src, 82, exit)
			for g := 0; g < 16; g++ {
				n, j, h := g/8, g/2%4, g%2
				sv, mv := GP32(), GP32()
				MOVBLZX(Mem{Base: src, Disp: g}, sv)
				MOVL(sv, mv)
				ANDL(U32(15), sv)
				SHRL(U8(4), mv)
				dl, ml := times(d, sv), times(mn, mv) // d * scale, dmin * min
				z := ZMM()
				VPMOVZXBD(Mem{Base: src, Disp: 16 + 32*n + 16*h}, z)
				if j > 0 {
					VPSRLD(U8(2*j), z, z)
				}
				VPANDD(c3, z, z)
				VCVTDQ2PS(z, z)
				VMULPS(dl, z, z)
				VSUBPS(ml, z, z)
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * g})
			}
		})
}

// dequantQ3_K: super-blocks of 110 bytes: hmask[32], 64 bytes of 2-bit
// codes, 12 bytes of 16 6-bit scales (stored minus 32), fp16 d; group g
// (n = g/8, j = g/2%4, h = g%2) has the bits 2j of bytes 32+32n+16h.. +15,
// minus 4 where bit 4n+j of hmask[16h+l] is clear, times d*scale.
func dequantQ3_K() {
	var c3, c1, c4 reg.VecVirtual
	blockKernel("dequantQ3_KAVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantQ3_KAVX512 dequantizes the first blocks of nb Q3_K super-blocks at src to dst, stopping at one whose d is not finite; it returns the super-blocks done.",
		110, 1024, func() { c3, c1, c4 = bcstD(3), bcstD(1), bcstD(4) }, func(dst, src reg.Register, exit string) {
			d := blockScale(src, 108, exit)
			for g := 0; g < 16; g++ {
				n, j, h := g/8, g/2%4, g%2
				lo, hi := GP32(), GP32()
				if g < 8 {
					MOVBLZX(Mem{Base: src, Disp: 96 + g}, lo)
				} else {
					MOVBLZX(Mem{Base: src, Disp: 96 + g - 8}, lo)
					SHRL(U8(4), lo)
				}
				ANDL(U32(15), lo)
				MOVBLZX(Mem{Base: src, Disp: 96 + 8 + g%4}, hi)
				if g/4 > 0 {
					SHRL(U8(2*(g/4)), hi)
				}
				ANDL(U32(3), hi)
				SHLL(U8(4), hi)
				ORL(hi, lo)
				SUBL(U32(32), lo)
				dl := times(d, lo) // d * scale
				z, t := ZMM(), ZMM()
				VPMOVZXBD(Mem{Base: src, Disp: 32 + 32*n + 16*h}, z)
				if j > 0 {
					VPSRLD(U8(2*j), z, z)
				}
				VPANDD(c3, z, z)
				VPMOVZXBD(Mem{Base: src, Disp: 16 * h}, t)
				if b := 4*n + j; b > 0 {
					VPSRLD(U8(b), t, t)
				}
				VPANDD(c1, t, t)
				VPSLLD(U8(2), t, t)
				VPORD(t, z, z)
				VPSUBD(c4, z, z)
				VCVTDQ2PS(z, z)
				VMULPS(dl, z, z)
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * g})
			}
		})
}

// ue4m3Half holds GGML_UE4M3_TO_FP32(x)/2 as float32 bits for every byte x
// (ggml/cfloat.go's ue4m3Half; ggml's TestSIMDDequant checks all 256).
var ue4m3Half Mem

func ue4m3HalfBits(x uint8) uint32 {
	if x == 0 || x == 0x7f {
		return 0
	}
	e, m := uint32(x>>3)&0xf, uint32(x&7)
	if e == 0 {
		return math.Float32bits(float32(m) * 0x1p-10)
	}
	return (e-7+127-1)<<23 | m<<20
}

// dequantNVFP4: blocks of 36 bytes: 4 UE4M3 scale bytes, then 4 sub-blocks
// of 8 bytes of codes (element j of 16 in the low nibble of byte j, element
// j+8 in its high one); each element kvalues_mxfp4[code] * d, d the scale's
// half from the table.
func dequantNVFP4() {
	var c15, lut reg.VecVirtual
	var tbl reg.GPVirtual
	blockKernel("dequantNVFP4AVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantNVFP4AVX512 dequantizes the first blocks of nb NVFP4 blocks at src to dst; it returns nb.",
		36, 256, func() {
			c15 = bcstD(15)
			lut = loadZMM(kvaluesMXFP4, 0)
			tbl = GP64()
			LEAQ(ue4m3Half, tbl)
		}, func(dst, src reg.Register, exit string) {
			for sb := 0; sb < 4; sb++ {
				e := GP32()
				MOVBLZX(Mem{Base: src, Disp: sb}, e)
				d := ZMM()
				VBROADCASTSS(Mem{Base: tbl, Index: e.As64(), Scale: 4}, d)
				lo, hi, z := YMM(), YMM(), ZMM()
				VPMOVZXBD(Mem{Base: src, Disp: 4 + 8*sb}, lo)
				VPSRLD(U8(4), lo, hi)
				VPANDD(c15.AsY(), lo, lo)
				VINSERTI64X4(U8(1), hi, lo.AsZ(), z)
				VPERMPS(lut, z, z) // kvalues[code]
				VMULPS(d, z, z)
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * sb})
			}
		})
}

// kvaluesMXFP4 is ggml's kvalues_mxfp4 as float32 bits, for VPERMPS.
var kvaluesMXFP4 Mem

// dequantMXFP4: blocks of 17 bytes, an E8M0 byte e and 16 bytes of codes
// (as Q4_0's); each element kvalues_mxfp4[code] * d, d =
// GGML_E8M0_TO_FP32_HALF(e) = 2^(e-128) as float32 bits (e-1) << 23 for e >=
// 2 (the subnormal halves of e 0 and 1 are left to Go).
func dequantMXFP4() {
	var c15, lut reg.VecVirtual
	blockKernel("dequantMXFP4AVX512", "func(dst *float32, src *byte, nb int) int",
		"dequantMXFP4AVX512 dequantizes the first blocks of nb MXFP4 blocks at src to dst, stopping at a block whose scale byte is 0 or 1; it returns the blocks done.",
		17, 128, func() {
			c15 = bcstD(15)
			lut = loadZMM(kvaluesMXFP4, 0)
		}, func(dst, src reg.Register, exit string) {
			e := GP32()
			MOVBLZX(Mem{Base: src}, e)
			CMPL(e, U32(2))
			JB(LabelRef(exit))
			DECL(e)
			SHLL(U8(23), e)
			x := XMM()
			VMOVD(e, x)
			d := ZMM()
			VBROADCASTSS(x, d)
			lo, hi := ZMM(), ZMM()
			VPMOVZXBD(Mem{Base: src, Disp: 1}, lo)
			VPSRLD(U8(4), lo, hi)
			VPANDD(c15, lo, lo)
			for k, z := range []reg.VecVirtual{lo, hi} {
				VPERMPS(lut, z, z) // kvalues[code]
				VMULPS(d, z, z)
				VMOVUPS(z, Mem{Base: dst, Disp: 64 * k})
			}
		})
}

func dequantBF16() {
	for _, nt := range []bool{false, true} {
		widen("dequantBF16AVX512", "bfloat16", nt, func(src Mem, z reg.VecVirtual) {
			VPMOVZXWD(src, z)
			VPSLLD(U8(16), z, z) // ggml_bf16_to_fp32: the 16-bit shift
		})
	}
}

func dequantF16() {
	// ggml_fp16_to_fp32 is exact for numbers and quiets a NaN keeping its
	// payload (sign | 0x7fc00000 | m << 13), as VCVTPH2PS does: the same
	// bits for every half (TestSIMDDequant checks all 65536).
	for _, nt := range []bool{false, true} {
		widen("dequantF16AVX512", "half", nt, func(src Mem, z reg.VecVirtual) { VCVTPH2PS(src, z) })
	}
}

// widen emits kernel name: n &^ 15 16-bit values (of type what) at src
// widened to float32 at dst by conv, 16 at a time; it returns that count.
// With nt, kernel name+"NT" stores with VMOVNTPS (dst 64-byte aligned),
// then SFENCE: for outputs far larger than the caches, where the ordinary
// stores' reads for ownership would add half again to the bytes moved (a
// widening reads 2 bytes and writes 4 per value).
func widen(name, what string, nt bool, conv func(src Mem, z reg.VecVirtual)) {
	store := func(z, m Op) { VMOVUPS(z, m) }
	doc := name + " widens n &^ 15 " + what + " values at src to float32 at dst and returns that count."
	if nt {
		name += "NT"
		store = func(z, m Op) { VMOVNTPS(z, m) }
		doc = name + " widens n &^ 15 " + what + " values at src to float32 at dst, 64-byte aligned, with non-temporal stores, and returns that count."
	}
	TEXT(name, NOSPLIT, "func(dst *float32, src *byte, n int) int")
	Doc(doc)
	dst, src, n := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("n"), GP64())
	ANDQ(I32(-16), n)
	i := GP64()
	XORQ(i, i)
	Label(name + "loop")
	CMPQ(i, n)
	JAE(LabelRef(name + "done"))
	z := ZMM()
	conv(Mem{Base: src, Index: i, Scale: 2}, z)
	store(z, Mem{Base: dst, Index: i, Scale: 4})
	ADDQ(U8(16), i)
	JMP(LabelRef(name + "loop"))
	Label(name + "done")
	if nt {
		SFENCE()
	}
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// scalarF returns a new xmm register holding the float32 of bits b in lane 0.
func scalarF(b uint32) reg.VecVirtual {
	g := GP32()
	MOVL(U32(b), g)
	x := XMM()
	VMOVD(g, x)
	return x
}

// blockAbsMax loads the 32 float32 of a block at src (x), their magnitudes
// (a) and the largest as bits in lane 0 of am (and in g), and jumps to exit
// when that is a NaN or an infinity.
func blockAbsMax(src reg.Register, cabs reg.VecVirtual, exit string) (x, a [2]reg.VecVirtual, am reg.VecVirtual, g reg.GPVirtual) {
	for k := range x {
		x[k], a[k] = ZMM(), ZMM()
		VMOVUPS(Mem{Base: src, Disp: 64 * k}, x[k])
		VPANDD(cabs, x[k], a[k])
	}
	m := ZMM()
	VPMAXUD(a[1], a[0], m)
	am = hmax(m)
	g = GP32()
	VMOVD(am, g)
	CMPL(g, U32(0x7f800000))
	JAE(LabelRef(exit)) // NaN or infinity: the Go kernel
	return
}

// blockScaleOut computes d = num / div in float32 (lane 0), stores it as
// fp16 (round to nearest even) at dst, and returns id = 1/d (0 when d is a
// zero) in every lane of a new zmm register.
func blockScaleOut(num, div, one reg.VecVirtual, dst reg.Register, name string) reg.VecVirtual {
	d, id, h := XMM(), XMM(), XMM()
	VDIVSS(div, num, d)
	VCVTPS2PH(U8(0), d, h)
	hw, g := GP32(), GP32()
	VMOVD(h, hw)
	MOVW(hw.As16(), Mem{Base: dst})
	VXORPS(id, id, id)
	VMOVD(d, g)
	ANDL(U32(0x7fffffff), g)
	JZ(LabelRef(name + "zero"))
	VDIVSS(d, one, id) // 1 / d
	Label(name + "zero")
	zid := ZMM()
	VBROADCASTSS(id, zid)
	return zid
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

func main() {
	flag.Parse()
	ConstraintExpr("gc,!purego")
	iota32 = GLOBL("ggmlIota32", RODATA|NOPTR)
	for i := 0; i < 32; i++ {
		DATA(4*i, U32(uint32(i)))
	}
	ue4m3Half = GLOBL("ggmlUE4M3Half", RODATA|NOPTR)
	for i := 0; i < 256; i++ {
		DATA(4*i, U32(ue4m3HalfBits(uint8(i))))
	}
	kvaluesMXFP4 = GLOBL("ggmlKvaluesMXFP4", RODATA|NOPTR)
	for i, v := range []float32{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12} {
		DATA(4*i, U32(math.Float32bits(v)))
	}
	dequantQ8_0()
	dequantQ4_0()
	dequantQ4_1()
	dequantQ5_0()
	dequantQ5_1()
	dequantQ8_K()
	dequantMXFP4()
	dequantNVFP4()
	dequantQ2_K()
	dequantQ3_K()
	dequantQ4_K()
	dequantQ5_K()
	dequantQ6_K()
	dequantBF16()
	dequantF16()
	quantQ8_0()
	quantQ4_0()
	quantMXFP4()
	kquantKernels()
	Generate()
}
