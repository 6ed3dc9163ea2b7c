package main

import (
	"math"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// AVX2 plans: the AVX2 kernels of the planned pairs and of the families of
// simd.go without AVX2 kernels (long and ulong to float and double). They
// follow plan.go's three steps with AVX2, FMA and F16C only (no AVX-512
// instruction, mask register or X16-X31): a unit is as many elements as fill
// one ymm register in the widest lanes the plan uses.
//
// Without embedded rounding, a step in the mode is VROUNDPS/PD with the mode
// in its immediate, VCVTPS2PH's immediate, or a round-to-nearest operation
// (MXCSR stays in Go's fixed mode) whose exact error decides a step of one
// unit in the last place. Without 64-bit conversions, integral doubles
// convert to 64-bit integers through their 32-bit halves and magic-number
// additions, and 64-bit integers to double through their halves converted
// exactly by magic numbers and one rounding addition.

func init() { avx2Plan = planAVX2 }

// ak are the registers an AVX2 plan's setup fills (the AVX-512 plans have
// their own, pk).
var ak struct {
	lo, hi, zero, magic, magicLo, magicHi, magicAll, flip, c2m32, c2p32, big, max, min, abs, frac, lsb, shuf, perm, sign reg.VecVirtual
}

// yq broadcasts the 64-bit pattern v to a new ymm register; yd the 32-bit v.
func yq(v uint64) reg.VecVirtual { return bcst(v, 8, 32) }
func yd(v uint64) reg.VecVirtual { return bcst(v, 4, 32) }

// yf broadcasts the binary64 x; ys the binary32 x.
func yf(x float64) reg.VecVirtual { return bcst(math.Float64bits(x), 8, 32) }
func ys(x float32) reg.VecVirtual { return bcst(f32(x), 4, 32) }

// yzero returns a new zeroed ymm register.
func yzero() reg.VecVirtual {
	z := YMM()
	VPXOR(z, z, z)
	return z
}

// xq2 returns a new register whose low 128 bits are the qwords lo, hi and
// whose upper bits are zero.
func xq2(lo, hi uint64) reg.VecVirtual {
	x := XMM()
	r := GP64()
	MOVQ(U64(lo), r)
	VMOVQ(r, x)
	if hi != 0 {
		r2 := GP64()
		MOVQ(U64(hi), r2)
		VPINSRQ(U8(1), r2, x, x)
	}
	return as(x, 32)
}

// ydw returns a new ymm register holding the dwords v.
func ydw(v ...uint32) reg.VecVirtual {
	q := func(i int) uint64 { return uint64(v[i]) | uint64(v[i+1])<<32 }
	lo, hi, y := xq2(q(0), q(2)), xq2(q(4), q(6)), YMM()
	VINSERTI128(U8(1), as(hi, 16), lo, y)
	return y
}

// Narrowing constants: VPSHUFB patterns that gather the low bytes of each
// lane into the low bytes of its 128-bit half (the same qword in both halves
// of each lane), and VPERMD indexes.
const (
	shufDW = 0x0d0c090805040100 // dwords to words
	shufDB = 0x0c0804000c080400 // dwords to bytes
	shufWB = 0x0e0c0a0806040200 // words to bytes
)

// narrowSetup broadcasts the constants of narrowA2 from lanes of from bytes
// to lanes of to bytes, n lanes.
func narrowSetup(from, to, n int) {
	switch {
	case from == 8:
		ak.perm = xq2(0x0000000200000000, 0x0000000600000004) // dwords 0, 2, 4, 6
		switch to {
		case 2:
			ak.shuf = yq(shufDW)
		case 1:
			ak.shuf = yq(shufDB)
		}
	case from == 4 && to == 2:
		ak.shuf = yq(shufDW)
	case from == 4 && to == 1:
		ak.shuf = yq(shufDB)
		if n == 8 {
			ak.perm = xq2(0x0000000400000000, 0) // dwords 0, 4
		}
	case from == 2 && to == 1:
		ak.shuf = yq(shufWB)
	}
}

// narrowA2 truncates the n lanes of from bytes in x (n*from bytes: 16 or 32)
// to lanes of to bytes, in element order, in the low n*to bytes of the
// register it returns.
func narrowA2(x reg.VecVirtual, from, to, n int) reg.VecVirtual {
	if from == 8 {
		t := YMM()
		VPERMD(x, ak.perm, t)
		if to == 4 {
			return as(t, 16)
		}
		o := XMM()
		VPSHUFB(as(ak.shuf, 16), as(t, 16), o)
		return o
	}
	if n*from == 16 {
		o := XMM()
		VPSHUFB(as(ak.shuf, 16), as(x, 16), o)
		return o
	}
	t, o := YMM(), YMM()
	VPSHUFB(ak.shuf, x, t)
	if from == 4 && to == 1 {
		VPERMD(t, ak.perm, o) // dwords 0 and 4
	} else {
		VPERMQ(U8(0x08), t, o) // qwords 0 and 2
	}
	return as(o, 16)
}

// loadA2 loads n bytes (4 to 32) from m into a new register.
func loadA2(m Mem, n int) reg.VecVirtual {
	x := vecOf(n)
	switch n {
	case 4:
		VMOVD(m, x)
	case 8:
		VMOVQ(m, x)
	default:
		VMOVDQU(m, x)
	}
	return x
}

// planAVX2 is avx2Plan.
func planAVX2(s, d kind) *plan {
	p := planAVX2Of(s, d)
	if p == nil {
		return nil
	}
	p.store = a2Store
	return p
}

// a2Store writes the four unit results of ub bytes each, combined into
// registers of 16 or 32 bytes: one store per 16 or 32 bytes instead of per
// unit (with four- and eight-byte stores, the stores waiting for the
// destination's lines to arrive from memory fill the store queue).
func a2Store(rs []reg.VecVirtual, ub int, out func(int) Mem) {
	switch ub {
	case 4, 8:
		unpck := VPUNPCKLDQ
		if ub == 8 {
			unpck = VPUNPCKLQDQ
		}
		ab, cd := XMM(), XMM()
		unpck(as(rs[1], 16), as(rs[0], 16), ab)
		unpck(as(rs[3], 16), as(rs[2], 16), cd)
		if ub == 4 {
			VPUNPCKLQDQ(cd, ab, ab)
			store(ab, out(0))
			return
		}
		o := YMM()
		VINSERTI128(U8(1), cd, as(ab, 32), o)
		store(o, out(0))
	case 16:
		for j := 0; j < 4; j += 2 {
			o := YMM()
			VINSERTI128(U8(1), as(rs[j+1], 16), as(rs[j], 32), o)
			store(o, out(16*j))
		}
	default:
		for j, r := range rs {
			store(as(r, 32), out(32*j))
		}
	}
}

// planAVX2Of is the AVX2 plan of s -> d, without its store.
func planAVX2Of(s, d kind) *plan {
	switch {
	case s == d:
		return nil
	case !isF(s) && !isF(d):
		return a2IntToInt(s, d)
	case isF(s) && !isF(d):
		return a2FloatToInt(s, d)
	case !isF(s) && s.size == 8 && d != kHalf:
		return a2LongToFloat(s, d)
	case !isF(s) && d == kDouble:
		return a2IntToDouble(s)
	case !isF(s) && d == kHalf:
		return a2IntToHalf(s)
	case d == kDouble:
		return a2ToDouble(s)
	case s == kDouble && d == kHalf:
		return a2DoubleToHalf()
	}
	return nil
}

// a2IntToInt: load the source lanes, clamp them to the destination's range
// in the source's width (sat only; 64-bit lanes by comparison and blend),
// then extend by the source's signedness or truncate (VPSHUFB in lanes, then
// VPERMQ or VPERMD across them).
func a2IntToInt(s, d kind) *plan {
	slo, _, suhi := irange(s)
	dlo, _, duhi := irange(d)
	needLo := dlo > slo
	needHi := duhi < suhi
	p := &plan{unit: 32 / max(s.size, d.size), doc: "AVX2 integer lanes"}
	sb := p.unit * s.size
	p.setup = func(v string) {
		if v == "Sat" {
			elem := 4
			if s.size == 8 {
				elem = 8
			}
			if needLo && !(s.size == 8 && dlo == 0) {
				ak.lo = bcst(rep(uint64(dlo), s.size), elem, 32)
			}
			if needHi {
				ak.hi = bcst(rep(duhi, s.size), elem, 32)
			}
			if s.size == 8 && (dlo == 0 && needLo || !s.signed && needHi && duhi != math.MaxInt64) {
				ak.zero = yzero()
			}
		}
		if d.size < s.size {
			narrowSetup(s.size, d.size, p.unit)
		}
	}
	p.conv = func(v string, m Mem) reg.VecVirtual {
		sat := v == "Sat" && (needLo || needHi)
		if !sat && d.size > s.size {
			o := YMM()
			ext(s, d.size)(m, o)
			return o
		}
		var x reg.VecVirtual
		switch {
		case sat && s.size < 8:
			w := max(sb, 16)
			var lo, hi reg.VecVirtual
			if needLo {
				lo = as(ak.lo, w)
			}
			if needHi {
				hi = as(ak.hi, w)
			}
			if sb >= 16 {
				x = vecOf(sb)
				switch {
				case needLo:
					maxS[s.size](m, lo, x)
				case s.signed:
					minS[s.size](m, hi, x)
				default:
					minU[s.size](m, hi, x)
				}
				if needLo && needHi {
					minS[s.size](hi, x, x) // a source below the range is signed
				}
			} else {
				x = loadA2(m, sb)
				if needLo {
					maxS[s.size](lo, x, x)
				}
				if needHi {
					if s.signed {
						minS[s.size](hi, x, x)
					} else {
						minU[s.size](hi, x, x)
					}
				}
			}
		case sat:
			x = YMM()
			VMOVDQU(m, x)
			if needLo {
				if dlo == 0 {
					VBLENDVPD(x, ak.zero, x, x) // negatives (sign set) to 0
				} else {
					lt := YMM()
					VPCMPGTQ(x, ak.lo, lt) // lo > x
					VBLENDVPD(lt, ak.lo, x, x)
				}
			}
			if needHi {
				switch {
				case s.signed:
					gt := YMM()
					VPCMPGTQ(ak.hi, x, gt) // x > hi
					VBLENDVPD(gt, ak.hi, x, x)
				case duhi == math.MaxInt64:
					VBLENDVPD(x, ak.hi, x, x) // x >= 2^63: the sign bit
				default:
					// x <= hi = 2^k - 1 exactly where x >> k is zero.
					t := YMM()
					VPSRLQ(U8(bits.Len64(duhi)), x, t)
					VPCMPEQQ(ak.zero, t, t)
					VBLENDVPD(t, x, ak.hi, x)
				}
			}
		default:
			x = loadA2(m, sb)
		}
		switch {
		case d.size > s.size:
			o := YMM()
			ext(s, d.size)(as(x, 16), o)
			return o
		case d.size < s.size:
			return narrowA2(x, s.size, d.size, p.unit)
		}
		return x
	}
	return p
}

// a2FloatToInt: widen half exactly to float (or take float or double),
// then
//
//   - 8- and 16-bit destinations: clamp to the range (exact before rounding:
//     the bounds are integers and rounding is monotonic), then convert in the
//     mode: VCVTPS2DQ (round to nearest, Go's MXCSR mode), VCVTTPS2DQ
//     (toward zero), or VROUNDPS/PD then VCVTTPS2DQ. Signed: VMINPS/VMAXPS
//     with the value first keep a NaN, which converts to 0x80000000, whose
//     low bits are 0. Unsigned: max(0, x) also takes NaN to 0, and +inf
//     converts to 0x80000000, which VPMINUD takes to MAX;
//   - int (from half): convert; the 0x80000000 of +inf becomes MAX, that of
//     NaN 0;
//   - uint (from half): max(0, x) (NaN -> 0), convert; the 0x80000000 of
//     +inf becomes all ones, which is MAX;
//   - long, ulong: round in the mode, widen to double exactly and convert the
//     integral double with toInt64.
func a2FloatToInt(s, d kind) *plan {
	f64 := s == kDouble
	if d.size == 4 && s != kHalf {
		return nil // float and double to int and uint are families of simd.go
	}
	p := &plan{unit: 8, doc: "AVX2: clamped, rounded in the mode and converted exactly"}
	if f64 || d.size == 8 {
		p.unit = 4
	}
	dlo, dhi, _ := irange(d)
	p.setup = func(string) {
		switch {
		case d.size <= 2:
			switch {
			case !d.signed:
				ak.zero = yzero()
				ak.hi = yd(uint64(dhi)) // for VPMINUD
			case f64:
				ak.lo, ak.hi = yf(float64(dlo)), yf(float64(dhi))
			default:
				ak.lo, ak.hi = ys(float32(dlo)), ys(float32(dhi))
			}
			narrowSetup(4, d.size, p.unit)
		case d.size == 4:
			if d.signed {
				ak.big = ys(0x1p31)
			} else {
				ak.zero = yzero()
			}
		case s == kHalf:
			ak.magic = yf(0x1.8p52)
			ak.big = yq(math.Float64bits(0x1p16))
			if d.signed {
				ak.max, ak.min = yq(math.MaxInt64), yq(1<<63)
				ak.lo = yq(math.Float64bits(math.Inf(-1)))
			} else {
				ak.zero = yzero()
			}
		default:
			toInt64Setup(d.signed)
		}
	}
	p.conv = func(m string, in Mem) reg.VecVirtual {
		imm := U8(roundImm[m] | 8)
		if d.size == 8 {
			x := YMM()
			switch s {
			case kHalf:
				h := XMM()
				VCVTPH2PS(in, h)
				VROUNDPS(imm, h, h)
				VCVTPS2PD(h, x)
				return halfToInt64(x, d.signed)
			case kFloat:
				h := XMM()
				VROUNDPS(imm, in, h)
				VCVTPS2PD(h, x)
			default:
				VROUNDPD(imm, in, x)
			}
			return toInt64(x, d.signed)
		}
		if d.size == 4 { // from half: |x| <= 65504, or x is infinite or NaN
			r, v, t := YMM(), YMM(), YMM()
			VCVTPH2PS(in, r)
			if m != "RTE" && m != "RTZ" {
				VROUNDPS(imm, r, r)
			}
			if !d.signed {
				VMAXPS(ak.zero, r, r) // NaN, negatives -> 0
			}
			cvtA2(m, r, v)
			if d.signed {
				VCMPPS(U8(cmpGE), ak.big, r, t) // +inf
				VPXOR(t, v, v)
				VCMPPS(U8(cmpORD), r, r, t)
				VPAND(t, v, v)
			} else {
				VPSRAD(U8(31), v, t) // all ones for +inf's 0x80000000
				VPOR(t, v, v)
			}
			return v
		}
		// 8- and 16-bit destinations.
		x := YMM()
		switch {
		case s == kHalf:
			VCVTPH2PS(in, x)
		case f64:
			VMOVUPD(in, x)
		default:
			VMOVUPS(in, x)
		}
		if m == "RTP" || m == "RTN" {
			if f64 {
				VROUNDPD(imm, x, x)
			} else {
				VROUNDPS(imm, x, x)
			}
		}
		minP, maxP := VMINPS, VMAXPS
		if f64 {
			minP, maxP = VMINPD, VMAXPD
		}
		if d.signed {
			minP(x, ak.hi, x) // NaN stays
			maxP(x, ak.lo, x)
		} else {
			maxP(ak.zero, x, x) // NaN -> 0
		}
		vb := p.unit * 4
		v := vecOf(vb)
		if f64 {
			cvtA2D(m, x, v)
		} else {
			cvtA2(m, x, v)
		}
		if !d.signed {
			// Above 2^31 (+inf included) the conversion gave 0x80000000.
			VPMINUD(as(ak.hi, vb), v, v)
		}
		return narrowA2(v, 4, d.size, p.unit)
	}
	return p
}

// cvtA2 converts the floats in x, integral unless m is RTE or RTZ, to
// int32 in v: rounding to nearest (MXCSR) or toward zero.
func cvtA2(m string, x, v reg.VecVirtual) {
	if m == "RTE" {
		VCVTPS2DQ(x, v)
	} else {
		VCVTTPS2DQ(x, v)
	}
}

// cvtA2D is cvtA2 for four doubles.
func cvtA2D(m string, x, v reg.VecVirtual) {
	if m == "RTE" {
		VCVTPD2DQY(x, v)
	} else {
		VCVTTPD2DQY(x, v)
	}
}

// toInt64Setup broadcasts the constants of toInt64.
func toInt64Setup(signed bool) {
	ak.magic = yf(0x1.8p52)
	ak.c2m32 = yf(0x1p-32)
	ak.c2p32 = yf(0x1p32)
	if signed {
		ak.lo = yf(-0x1p63)
		ak.big = yq(math.Float64bits(0x1p63) - 1)
		ak.max = yq(math.MaxInt64)
	} else {
		ak.zero = yzero()
		ak.big = yq(math.Float64bits(0x1p64) - 1)
	}
}

// toInt64 converts four integral doubles (or infinities or NaN) to int64
// (signed) or uint64, saturating, with NaN to 0. The value c, clamped below
// (to -2^63, or to 0 where max(0, NaN) is 0), splits exactly into
// hi = floor(c / 2^32) and lo = c - hi*2^32 in [0, 2^32); adding 1.5*2^52 to
// each puts its low 32 bits in the low 32 bits of the pattern. Values at or
// above 2^63 (2^64) become MAX: their patterns are above that of the bound
// less one as int64 (as are a positive NaN's, which the ordered mask then
// clears).
func toInt64(x reg.VecVirtual, signed bool) reg.VecVirtual {
	c, hi, hm, r, big := YMM(), YMM(), YMM(), YMM(), YMM()
	if signed {
		VMAXPD(x, ak.lo, c) // keeps NaN
	} else {
		VMAXPD(ak.zero, x, c) // NaN -> 0
	}
	VMULPD(ak.c2m32, c, hi)
	VROUNDPD(U8(1|8), hi, hi) // floor
	VADDPD(ak.magic, hi, hm)
	VFNMADD213PD(c, ak.c2p32, hi) // hi = c - 2^32*hi: lo
	VADDPD(ak.magic, hi, hi)
	VPSHUFD(U8(0xa0), hm, hm)     // hi's low dword to the high dword
	VPBLENDD(U8(0x55), hi, hm, r) // the low dwords from lo
	VPCMPGTQ(ak.big, c, big)
	if signed {
		VBLENDVPD(big, ak.max, r, r)
		VCMPPD(U8(cmpORD), c, c, big)
		VPAND(big, r, r)
	} else {
		VPOR(big, r, r)
	}
	return r
}

// halfToInt64 is toInt64 for the integral doubles of halves: finite ones
// are at most 65504 in magnitude, so adding 1.5*2^52 puts them, as int64,
// in the low bits of the pattern. +inf (and a positive NaN), whose pattern
// is above 2^16's, becomes MAX; -inf MIN; NaN 0. For ulong, max(0, x) first
// takes NaN and the negatives to 0.
func halfToInt64(x reg.VecVirtual, signed bool) reg.VecVirtual {
	c, t, big := x, YMM(), YMM()
	if !signed {
		c = YMM()
		VMAXPD(ak.zero, x, c)
	}
	VADDPD(ak.magic, c, t)
	VPSUBQ(ak.magic, t, t)
	VPCMPGTQ(ak.big, c, big)
	if !signed {
		VPOR(big, t, t)
		return t
	}
	VBLENDVPD(big, ak.max, t, t)
	VPCMPEQQ(ak.lo, c, big) // -inf
	VBLENDVPD(big, ak.min, t, t)
	VCMPPD(U8(cmpORD), c, c, big)
	VPAND(big, t, t)
	return t
}

// a2IntToDouble: char to uint to double are exact: extend to dwords, then
// VCVTDQ2PD (uint as u ^ 2^31, plus 2^31).
func a2IntToDouble(s kind) *plan {
	p := &plan{unit: 4, doc: "AVX2: extended to dwords, then exactly to double"}
	p.setup = func(string) {
		if s == kUint {
			ak.sign = yd(0x80000000)
			ak.big = yf(0x1p31)
		}
	}
	p.conv = func(_ string, m Mem) reg.VecVirtual {
		o := YMM()
		switch {
		case s == kInt:
			VCVTDQ2PD(m, o)
		case s == kUint:
			x := XMM()
			VPXOR(m, as(ak.sign, 16), x)
			VCVTDQ2PD(x, o)
			VADDPD(ak.big, o, o)
		default:
			x := XMM()
			ext(s, 4)(m, x)
			VCVTDQ2PD(x, o)
		}
		return o
	}
	return p
}

// a2IntToHalf: clamp int, uint, long and ulong to [-2^24, 2^24] (every value
// beyond 65520 rounds like 2^24 in every mode), convert exactly to float
// (long and ulong through their low dwords), then once to half in the mode
// with VCVTPS2PH.
func a2IntToHalf(s kind) *plan {
	p := &plan{unit: 8, doc: "AVX2: exactly to float, then once to half in the mode"}
	if s.size == 8 {
		p.unit = 4
	}
	p.setup = func(string) {
		switch s.size {
		case 4:
			if s.signed {
				ak.lo = yd(uint64(1<<32 - 1<<24))
			}
			ak.hi = yd(1 << 24)
		case 8:
			if s.signed {
				ak.lo = yq(uint64(1<<64 - 1<<24))
			} else {
				ak.zero = yzero()
			}
			ak.hi = yq(1 << 24)
			narrowSetup(8, 4, 4)
		}
	}
	p.conv = func(m string, in Mem) reg.VecVirtual {
		imm := U8(0)
		if m != "" {
			imm = U8(roundImm[m])
		}
		var f reg.VecVirtual
		switch s.size {
		case 1, 2:
			f = YMM()
			ext(s, 4)(in, f)
		case 4:
			f = YMM()
			if s.signed {
				VPMAXSD(in, ak.lo, f)
				VPMINSD(ak.hi, f, f)
			} else {
				VPMINUD(in, ak.hi, f)
			}
		default:
			x, t := YMM(), YMM()
			VMOVDQU(in, x)
			if s.signed {
				VPCMPGTQ(ak.hi, x, t) // x > 2^24
				VBLENDVPD(t, ak.hi, x, x)
				VPCMPGTQ(x, ak.lo, t) // -2^24 > x
				VBLENDVPD(t, ak.lo, x, x)
			} else {
				VPSRLQ(U8(24), x, t)
				VPCMPEQQ(ak.zero, t, t) // x < 2^24
				VBLENDVPD(t, x, ak.hi, x)
			}
			f = narrowA2(x, 8, 4, 4)
		}
		VCVTDQ2PS(f, f)
		h := XMM()
		VCVTPS2PH(imm, f, h)
		return h
	}
	return p
}

// a2ToDouble: half and float widen exactly to double (VCVTPH2PS, VCVTPS2PD;
// both quiet a signalling NaN and keep its payload).
func a2ToDouble(s kind) *plan {
	p := &plan{unit: 4, doc: "AVX2: exactly to double", setup: func(string) {}}
	p.conv = func(_ string, m Mem) reg.VecVirtual {
		o := YMM()
		if s == kHalf {
			f := XMM()
			VCVTPH2PS(m, f)
			VCVTPS2PD(f, o)
			return o
		}
		VCVTPS2PD(m, o)
		return o
	}
	return p
}

// a2DoubleToHalf: to float rounded to odd, then once to half in the mode
// with VCVTPS2PH. Rounded to odd: the round-to-nearest f, one unit toward
// zero where its widened value b is above x in magnitude (ordered: not for
// NaN), then the lowest bit set where b differs from x (for a NaN that bit is
// below the payload bits that half keeps). A double beyond float's range
// gives inf, then the largest float; a tiny one 0, then the smallest
// subnormal of its sign, both of which round to half like x.
func a2DoubleToHalf() *plan {
	p := &plan{unit: 4, doc: "AVX2: to float rounded to odd, then once to half in the mode"}
	p.setup = func(string) {
		ak.abs = yq(math.MaxInt64)
		ak.perm = ydw(0, 2, 4, 6, 1, 3, 5, 7)
		ak.lsb = yd(1)
	}
	p.conv = func(m string, in Mem) reg.VecVirtual {
		x, b, ax, ab, gt, eq := YMM(), YMM(), YMM(), YMM(), YMM(), YMM()
		f := XMM()
		VMOVUPD(in, x)
		VCVTPD2PSY(x, f)
		VCVTPS2PD(f, b)
		VANDPD(ak.abs, x, ax)
		VANDPD(ak.abs, b, ab)
		VCMPPD(U8(cmpGT), ax, ab, gt) // |b| > |x|
		VPCMPEQQ(x, b, eq)
		// Both masks to dwords: gt's low dwords and eq's high ones, then
		// dwords 0, 2, 4, 6 (gt) and 1, 3, 5, 7 (eq).
		VPBLENDD(U8(0xaa), eq, gt, gt)
		VPERMD(gt, ak.perm, gt)
		e32 := XMM()
		VEXTRACTI128(U8(1), gt, e32)
		VPADDD(as(gt, 16), f, f)         // one unit toward zero
		VPANDN(as(ak.lsb, 16), e32, e32) // 1 where b != x
		VPOR(e32, f, f)
		h := XMM()
		VCVTPS2PH(U8(roundImm[m]), f, h)
		return h
	}
	return p
}

// a2LongToFloat: long and ulong to double or float in the mode. x splits
// into a = hi*2^32 - 2^52 and b = 2^52 + lo, both exact (the halves placed in
// the mantissas of magic numbers); their round-to-nearest sum s has the exact
// error e = b - (s - a) (Fast2Sum: wherever s is inexact, |x| >= 2^53 and
// a's exponent is at least b's), whose sign compares b with z = s - a, both
// positive doubles, as int64 patterns.
//
//   - to double: s, stepped one unit where e says the mode rounds the other
//     way;
//   - to float in rtz, rtp and rtn: s stepped one unit toward x where that
//     crosses a float (rtz24(x) = rtz24(rtz53(x)), and above s the next
//     double up has the ceiling of x), then truncated to float's precision in
//     the pattern (after adding 2^29 - 1 where the mode rounds away from
//     zero), which VCVTPD2PS converts exactly;
//   - to float in rte: s rounded to odd (toward zero where e and s have
//     opposite signs, then the lowest bit set where e != 0), then VCVTPD2PS.
func a2LongToFloat(s, d kind) *plan {
	p := &plan{unit: 4, doc: "AVX2: halves exactly to double, one rounding addition, its exact error"}
	p.setup = func(m string) {
		ak.magicLo = yq(0x4330000000000000) // 2^52 in the high dwords
		ak.magicHi = yq(0x4530000000000000) // 2^84 in the high dwords
		if s.signed {
			ak.flip = yq(0x80000000)                   // hi's sign bit, for 2^63 more
			ak.magicAll = yf(0x1p84 + 0x1p63 + 0x1p52) // exact
		} else {
			ak.magicAll = yf(0x1p84 + 0x1p52)
		}
		if d == kFloat || m != "RTE" {
			ak.zero = yzero()
		}
		if d == kFloat && m != "RTE" {
			ak.frac = yq(1<<29 - 1) // the bits below float's precision
		}
	}
	p.conv = func(m string, in Mem) reg.VecVirtual {
		x, a, b, sum := YMM(), YMM(), YMM(), YMM()
		VMOVDQU(in, x)
		VPBLENDD(U8(0x55), x, ak.magicLo, b) // 2^52 + lo
		VPSHUFD(U8(0xf5), x, a)              // hi to the low dwords
		VPBLENDD(U8(0x55), a, ak.magicHi, a) // 2^84 + hi*2^32
		if s.signed {
			VPXOR(ak.flip, a, a)
		}
		VSUBPD(ak.magicAll, a, a) // hi*2^32 - 2^52
		VADDPD(b, a, sum)
		if d == kDouble && m == "RTE" {
			return sum
		}
		VSUBPD(a, sum, a) // z = s - a, exact
		pos, neg := YMM(), YMM()
		VPCMPGTQ(a, b, pos) // b > z: x > s
		VPCMPGTQ(b, a, neg) // z > b: x < s
		if d == kDouble {
			switch m {
			case "RTZ":
				VPADDQ(overMask(sum, pos, neg), sum, sum) // one unit toward zero
			case "RTP":
				stepDir(sum, pos, true) // where x > s
			default:
				stepDir(sum, neg, false) // where x < s
			}
			return sum
		}
		if m == "RTE" {
			VPADDQ(overMask(sum, pos, neg), sum, sum) // rtz53(x)
			VPOR(neg, pos, pos)
			VPSUBQ(pos, ak.zero, pos) // 1 where e != 0
			VPOR(pos, sum, sum)       // rto53(x)
			f := XMM()
			VCVTPD2PSY(sum, f)
			return f
		}
		var add reg.VecVirtual
		switch m {
		case "RTZ":
			add = overMask(sum, pos, neg)
		case "RTP": // x > 0: one up where x > s, then away from zero
			VPSUBQ(pos, ak.frac, a)
			VBLENDVPD(sum, pos, a, pos)
			add = pos
		default: // rtn, x < 0: one up in magnitude where x < s, then away
			VPSUBQ(neg, ak.frac, a)
			VBLENDVPD(sum, a, neg, neg)
			add = neg
		}
		VPADDQ(add, sum, sum)
		VPANDN(sum, ak.frac, sum) // truncated to float's precision
		f := XMM()
		VCVTPD2PSY(sum, f)
		return f
	}
	return p
}

// overMask returns the lane masks of s above x in magnitude, given the masks
// of x above s (pos) and below it (neg): pos where s < 0, neg where s > 0.
func overMask(s, pos, neg reg.VecVirtual) reg.VecVirtual {
	o := YMM()
	VBLENDVPD(s, pos, neg, o)
	return o
}

// stepDir steps the doubles s one unit where mk is all ones: toward +inf
// (+1 on a positive pattern, -1 on a negative one) if up, else toward -inf.
// s is never zero where it steps.
func stepDir(s, mk reg.VecVirtual, up bool) {
	inc, dec := YMM(), YMM()
	VPSUBQ(mk, s, inc) // +1 where mk
	VPADDQ(mk, s, dec) // -1 where mk
	if up {
		VBLENDVPD(s, dec, inc, s)
	} else {
		VBLENDVPD(s, inc, dec, s)
	}
}
