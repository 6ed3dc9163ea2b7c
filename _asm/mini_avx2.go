package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The AVX2 bodies of float -> E4M3 and E5M2 (issue 30). A block is 32 floats
// in four ymm registers. AVX2 has no embedded rounding, and the kernels do
// not touch MXCSR, so a directed mode cost a correction step of six
// instructions after a round-to-nearest addition; with the clamps and the
// sign these loops ran 20 to 27 instructions per 8 floats (0.39-0.81x copy
// from memory on the GPU machine's Xeon, 0.33-0.66x on the project's EPYC).
// Most variants now go through VCVTPS2PH instead, whose immediate rounds in
// any of the four modes, and which handles the subnormal halves, overflow
// and NaNs in hardware at full speed:
//
//   - E5M2 is the top byte of a half (same exponent range, 8 fewer bits).
//     In a directed mode, rounding to half in the mode and then the half to
//     E5M2 in the same direction gives the direct result, since E5M2's grid
//     is part of half's: rtz keeps the top byte; rtp adds 0xff to the
//     positive non-NaN halves before (ceil of the magnitude), rtn to the
//     negative ones. rte rounds to odd first: the half rounded down and the
//     one rounded up are the same value when exact, else neighbours whose
//     patterns differ by one, and the one toward zero with its low bit set
//     where they differ is round-to-odd, which keeps rounding to nearest at
//     bit 8 correct (half keeps 8 more bits than E5M2, also among the
//     subnormals); then adds 0x7f plus the kept low bit to the non-NaN
//     halves. A NaN half is sign | 0x7e00 | the float's top payload bits,
//     whose top byte is E5M2.Float32's NaN code.
//   - E4M3 times 2^-8 maps E4M3's normal range onto half's and its
//     subnormals (quantum 2^-9) onto half's subnormals (2^-17, seven bits
//     above half's 2^-24), so that E4M3 is half's bits 14..7 of x*2^-8
//     everywhere: rtz and the directed modes go through VCVTPS2PH as above,
//     rounding at bit 7. The product is exact and never a subnormal float:
//     |x| below 2^-118 is raised to 2^-118 first (0 stays 0, VPSIGND, in
//     the modes that round away from zero), which rounds to the same E4M3
//     value in every mode. rte keeps the rounding addition of
//     floatToFP8Pair, which needs no correction in that mode.
//
// The sign of E4M3's rtz and rte codes comes from the source floats at the
// end, packed with signed saturation to bytes (2 x VPACKSSDW, VPACKSSWB) and
// ORed in: 6 instructions per 32 floats, where the per-lane shift, AND and OR
// took 12.

// fp8Imm is VCVTPS2PH's rounding immediate, by mode.
func fp8Imm(m string) uint8 { return roundImm[m] }

// halfWords converts four ymm of floats to halves with VCVTPS2PH in the
// rounding of imm and returns them as two ymm of 16 words each: the halves
// of floats 0..7 and 16..23, then of 8..15 and 24..31, the order in which
// VPACKUSWB or VPACKSSWB of the two (packHalfCodes) puts the bytes in element
// order, without a VPERMQ.
func halfWords(xs []reg.VecVirtual, imm uint8) [2]reg.VecVirtual {
	var c [4]reg.VecVirtual
	for j := range c {
		c[j] = XMM()
		VCVTPS2PH(U8(imm), xs[j], c[j])
	}
	var w [2]reg.VecVirtual
	for i := range w {
		w[i] = YMM()
		VINSERTI128(U8(1), c[i+2], c[i].AsY(), w[i])
	}
	return w
}

// packHalfCodes packs the two ymm of 16 word codes (each below 256) of
// halfWords' order into one ymm of 32 bytes in element order.
func packHalfCodes(c [2]reg.VecVirtual) reg.VecVirtual {
	o := YMM()
	VPACKUSWB(c[1], c[0], o)
	return o
}

// signBytes returns 0x80 in the bytes, in element order, of the negative
// floats of xs (the sign bit, -0 and NaNs included), 0 elsewhere: signed
// saturating packs keep the sign.
func signBytes(xs []reg.VecVirtual) reg.VecVirtual {
	a, b, s := YMM(), YMM(), YMM()
	VPACKSSDW(xs[1], xs[0], a)
	VPACKSSDW(xs[3], xs[2], b)
	VPACKSSWB(b, a, s)
	VPAND(km(0x80808080), s, s)
	VPERMD(s, mk.perm, s)
	return s
}

// loadFloats loads the block's four ymm of floats.
func loadFloats(in func(int) Mem) []reg.VecVirtual {
	xs := make([]reg.VecVirtual, 4)
	for j := range xs {
		xs[j] = YMM()
		VMOVUPS(in(32*j), xs[j])
	}
	return xs
}

// floatToFP8AVX2 returns the AVX2 body of float -> f, every mode.
func floatToFP8AVX2(f fp8, sat bool) func(string, func(int) Mem, func(int) Mem) {
	return func(m string, in, out func(int) Mem) {
		switch {
		case f.e5:
			floatToE5M2AVX2(m, sat, in, out)
		case m == "RTE":
			floatToE4M3RTEAVX2(f, sat, in, out)
		case m == "RTZ":
			floatToE4M3RTZAVX2(sat, in, out)
		default:
			floatToE4M3DirectedAVX2(m, sat, in, out)
		}
	}
}

// floatToE5M2AVX2: the top byte of the half, rounded as the comment above
// says. _sat then turns the infinities (byte & 0x7f == 0x7c), given or from
// overflow, into +-MAX (0x7b): NaN codes are 0x7e and 0x7f.
func floatToE5M2AVX2(m string, sat bool, in, out func(int) Mem) {
	xs := loadFloats(in)
	var w [2]reg.VecVirtual
	switch m {
	case "RTE":
		d, u := halfWords(xs, fp8Imm("RTN")), halfWords(xs, fp8Imm("RTP"))
		for i := range w {
			// z, the half toward zero (the smaller pattern of the two, for
			// either sign), and c = inexact | z's bit 8 (the two differ in
			// bit 0 when they differ at all): z + 0x7f + c rounds at bit 8
			// as round-to-odd then to nearest would (ties to even; above a
			// tie when inexact).
			z, c, t := YMM(), YMM(), YMM()
			VPMINUW(d[i], u[i], z)
			VPXOR(d[i], u[i], c)
			VPSRLW(U8(8), z, t)
			VPOR(t, c, c)
			VPAND(km(0x00010001), c, c)
			VPADDW(km(0x007f007f), c, c)
			nan := YMM()
			VPAND(km(0x7fff7fff), z, nan)
			VPCMPGTW(km(0x7c007c00), nan, nan) // |z| > inf
			VPANDN(c, nan, c)
			VPADDW(c, z, z)
			w[i] = z
		}
	case "RTZ":
		w = halfWords(xs, fp8Imm("RTZ"))
	case "RTP":
		w = halfWords(xs, fp8Imm("RTP"))
		for i := range w {
			t := YMM()
			VPMINUW(km(0x7c007c00), w[i], t)
			VPCMPEQW(w[i], t, t) // positive, not NaN: at most 0x7c00
			VPSRLW(U8(8), t, t)
			VPADDW(t, w[i], w[i])
		}
	case "RTN":
		w = halfWords(xs, fp8Imm("RTN"))
		for i := range w {
			t := YMM()
			VPCMPGTW(km(0xfc00fc00), w[i], t) // above -inf as int16: positive or NaN
			VPANDN(km(0x00ff00ff), t, t)
			VPADDW(t, w[i], w[i])
		}
	}
	var c [2]reg.VecVirtual
	for i := range c {
		c[i] = YMM()
		VPSRLW(U8(8), w[i], c[i])
	}
	o := packHalfCodes(c)
	if sat {
		t := YMM()
		VPAND(km(0x7f7f7f7f), o, t)
		VPCMPEQB(km(0x7c7c7c7c), t, t)
		VPADDB(t, o, o)
	}
	store(o, out(0))
}

// e4m3Scaled returns x * 2^-8 for the four ymm of xs, as magnitudes, or with
// x's sign if signed; |x| below 2^-118 is raised to 2^-118 first, and 0 too
// unless keepZero (rtz rounds both to 0).
func e4m3Scaled(xs []reg.VecVirtual, signed, keepZero bool) []reg.VecVirtual {
	var k reg.VecVirtual
	if keepZero {
		k = YMM()
		VMOVDQU(km(9<<23), k)
	}
	ys := make([]reg.VecVirtual, 4)
	for j, x := range xs {
		ab, y := YMM(), YMM()
		VPAND(km(0x7fffffff), x, ab)
		if keepZero {
			VPSIGND(ab, k, y) // 2^-118, or 0 for a zero
			VPMAXUD(y, ab, y)
		} else {
			VPMAXUD(km(9<<23), ab, y)
		}
		if signed {
			s := YMM()
			VPXOR(ab, x, s)
			VPOR(s, y, y)
		}
		VMULPS(km(f32bits(0x1p-8)), y, y)
		ys[j] = y
	}
	return ys
}

// floatToE4M3RTZAVX2: |x| * 2^-8 to half toward zero; the code is the half's
// bits 14..7, at most MAX's 0x7e for finite x, and 0x7f for NaN (and an
// infinity without _sat); the sign comes from x.
func floatToE4M3RTZAVX2(sat bool, in, out func(int) Mem) {
	xs := loadFloats(in)
	w := halfWords(e4m3Scaled(xs, false, false), fp8Imm("RTZ"))
	var c [2]reg.VecVirtual
	nanAbove := uint32(0x7bff7bff) // infinity and NaN
	if sat {
		nanAbove = 0x7c007c00 // NaN only
	}
	for i := range c {
		c[i] = YMM()
		nan := YMM()
		VPSRLW(U8(7), w[i], c[i])
		VPMINUW(km(0x007e007e), c[i], c[i])
		VPCMPGTW(km(nanAbove), w[i], nan)
		VPSUBW(nan, c[i], c[i]) // 0x7e + 1
	}
	o := packHalfCodes(c)
	VPOR(signBytes(xs), o, o)
	store(o, out(0))
}

// floatToE4M3DirectedAVX2 (rtp, rtn): x * 2^-8 to half in the mode, then
// the half h rounded again at bit 7, in the same direction: up (ceil of the
// magnitude) where the mode rounds away from zero, down (floor) where toward
// it. |x| below 2^-118 is raised to a value of that size with x's sign, zeros
// kept: the raised magnitude is ORed into x, whose exponent then is 9 to 15
// (4 instructions per 8 floats; subtracting the magnitude and ORing in the
// sign took 5). Per 16 halves:
//
//   - the magnitudes are clamped first, by limits that are grid points at
//     bit 7, so the rounding after them is unchanged: an unsigned minimum
//     clamps the negative halves and leaves the positive ones alone, a signed
//     one the other way round. The side that rounds away from zero is
//     clamped to the NaN code's ceiling (0x3f80 without _sat: overflow,
//     infinities and NaNs all give NaN) or to MAX's (0x3f00), the side that
//     rounds toward zero to MAX's floor (0x3f7f). Without _sat that side's
//     infinities and NaNs must stay above MAX: with 0x400 added first they,
//     and only they, are past 0x7fff (rtn: the positive side), which a signed
//     minimum passes, and 0x400 comes off again after it;
//   - the negative lanes then add 0x4000 (floor) or 0x407f (ceil), the
//     positive ones 0 or 0x7f: the negative ones are then 0xc000 + m as int16,
//     m the clamped magnitude, below 0, and an arithmetic shift by 7 gives
//     -128 + the code, for the positive ones the code;
//   - VPACKSSWB makes that 0x80 | code, and for the positive lanes the code,
//     at most 0x7f: a positive infinity or NaN half (0xf8..0xff after the
//     shift) saturates to the NaN code. Under _sat the NaN lanes (found
//     before the clamps) add 1 to MAX's code.
//
// rtp without _sat works on the halves with the sign flipped (rtp's halves
// are rtn's of -x, also for NaN), which only changes the constants, and
// flips the bytes' sign bits at the end. 8 instructions per 16 halves without
// _sat, 9 (rtn) or 10 (rtp) with (the sign, rounding bias, shifts and limits
// took 10 or 11), and no VPERMQ (halfWords' order).
func floatToE4M3DirectedAVX2(m string, sat bool, in, out func(int) Mem) {
	xs := loadFloats(in)
	k := YMM()
	VMOVDQU(km(9<<23), k)
	ys := make([]reg.VecVirtual, 4)
	for j, x := range xs {
		ab, t := YMM(), YMM()
		VPAND(km(0x7fffffff), x, ab)
		VPSIGND(ab, k, t) // 2^-118, or 0 for a zero
		VPMAXUD(t, ab, t) // |x|, or 2^-118 if |x| is smaller and not 0
		VPOR(x, t, t)     // x, or x with an exponent of 9 to 15
		VMULPS(km(f32bits(0x1p-8)), t, t)
		ys[j] = t
	}
	w := halfWords(ys, fp8Imm(m))
	rtp := m == "RTP"
	var q [2]reg.VecVirtual
	for i := range q {
		h := w[i]
		neg, b, y := YMM(), YMM(), YMM()
		var nan reg.VecVirtual
		if sat {
			nan = YMM()
			VPAND(km(0x7fff7fff), h, nan)
			VPCMPGTW(km(0x7c007c00), nan, nan) // NaN
			if rtp {
				VPMINSW(km(0x3f003f00), h, y) // positive: MAX's ceiling
				VPMINUW(km(0xbf7fbf7f), y, y) // negative: MAX's floor
			} else {
				VPMINUW(km(0xbf00bf00), h, y) // negative: MAX's ceiling
				VPMINSW(km(0x3f7f3f7f), y, y) // positive: MAX's floor
			}
		} else if rtp {
			VPMINSW(km(0x3f803f80), h, y) // positive: the NaN code's ceiling
		} else {
			VPMINUW(km(0xbf80bf80), h, y) // negative: the NaN code's ceiling
		}
		VPSRAW(U8(15), h, neg)
		switch {
		case sat && rtp:
			VPAND(km(0x3f813f81), neg, b)
			VPADDW(km(0x007f007f), b, b) // 0x4000, or 0x7f for positive lanes
		case sat:
			VPAND(km(0x407f407f), neg, b)
		case rtp:
			// rtn's constants for -h: its negative lanes are h's positive
			// ones, and 0x8000 more makes h -h.
			VPANDN(km(0x407f407f), neg, b)
			VPOR(km(0x84008400), b, b) // 0xc47f, or 0x8400 for negative lanes
		default:
			VPAND(km(0x407f407f), neg, b)
			VPOR(km(0x04000400), b, b) // 0x447f, or 0x400 for positive lanes
		}
		VPADDW(b, y, y)
		if !sat {
			VPMINSW(km(0x437f437f), y, y) // finite on the floor side: MAX's floor
			VPSUBW(km(0x04000400), y, y)
		}
		VPSRAW(U8(7), y, y)
		if sat {
			VPSUBW(nan, y, y)
		}
		q[i] = y
	}
	o := YMM()
	VPACKSSWB(q[1], q[0], o)
	if rtp && !sat {
		VPXOR(km(0x80808080), o, o)
	}
	store(o, out(0))
}

// floatToE4M3RTEAVX2: the rounding addition of floatToFP8Pair (see there)
// in round-to-nearest, which needs no correction step. |x| is clamped to
// the grid point above MAX (480, the NaN code; overflow to nearest is NaN),
// or under _sat to MAX, with NaN lanes then stepped from MAX's code to the
// NaN code. The codes are packed to bytes and the sign ORed in.
func floatToE4M3RTEAVX2(f fp8, sat bool, in, out func(int) Mem) {
	limit := f.limit
	if sat {
		limit = f.max
	}
	zk := f.cAdd() + f.eminBits()>>f.shift()
	xs := loadFloats(in)
	codes := make([]reg.VecVirtual, 4)
	for j, b := range xs {
		ab, y, u, cb, z, o, t := YMM(), YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
		VPAND(km(0x7fffffff), b, ab)
		VPMINUD(km(f32bits(limit)), ab, y)
		VPAND(km(0x7f800000), y, u)
		VPMAXUD(km(f.eminBits()), u, u)
		VPADDD(km(f.cAdd()), u, cb)
		VPADDD(km(zk), u, z)
		VPSRLD(U8(f.shift()), u, o)
		VPSUBD(o, z, z)
		VADDPS(cb, y, t)
		VPSUBD(z, t, t)
		if sat {
			nan := YMM()
			VPCMPGTD(km(0x7f800000), ab, nan)
			VPSUBD(nan, t, t)
		}
		codes[j] = t
	}
	a, b, o := YMM(), YMM(), YMM()
	VPACKUSDW(codes[1], codes[0], a)
	VPACKUSDW(codes[3], codes[2], b)
	VPACKUSWB(b, a, o)
	s01, s23, s := YMM(), YMM(), YMM()
	VPACKSSDW(xs[1], xs[0], s01)
	VPACKSSDW(xs[3], xs[2], s23)
	VPACKSSWB(s23, s01, s)
	VPAND(km(0x80808080), s, s)
	VPOR(s, o, o)
	VPERMD(o, mk.perm, o)
	store(o, out(0))
}
