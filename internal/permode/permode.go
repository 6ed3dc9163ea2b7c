// Package permode holds the one-mode forms of package round's conversions
// (round.Float64ToFloat32, round.Int64ToFloat64, ...): one branch-free
// function per conversion and rounding mode, F64ToF32RTZ for
// round.Float64ToFloat32 in mode RTZ and so on. Package round's moded
// functions call them, and convert's slice kernels call them directly, one
// loop per mode, so that no element pays for a switch on the mode.
package permode

import "math"

// The directed-mode primitives below start from the hardware's nearest result
// f and step its bit pattern by at most one unit. Stepping a bit pattern by one
// moves to the adjacent representable value on the same side of zero (carries
// run from the significand into the exponent, up to infinity), so for a
// sign-magnitude pattern "+1" is away from zero and "-1" toward zero. The steps
// are computed without branches because the direction of rounding of typical
// data is unpredictable.

func b2u32(b bool) uint32 {
	var u uint32
	if b {
		u = 1
	}
	return u
}

func b2u64(b bool) uint64 {
	var u uint64
	if b {
		u = 1
	}
	return u
}

// F64ToF32RTE is round.Float64ToFloat32 in mode RTE.
func F64ToF32RTE(x float64) float32 {
	if x != x {
		return nan64to32(x)
	}
	return float32(x)
}

func nan64to32(x float64) float32 {
	b := math.Float64bits(x)
	return math.Float32frombits(uint32(b>>32)&0x80000000 | 0x7fc00000 | uint32(b>>29)&0x3fffff)
}

// F64ToF32RTZ is round.Float64ToFloat32 in mode RTZ.
func F64ToF32RTZ(x float64) float32 {
	if x != x {
		return nan64to32(x)
	}
	f := float32(x)
	// |f| > |x|: the nearest value was away from zero; step toward zero.
	return math.Float32frombits(math.Float32bits(f) - b2u32(math.Abs(float64(f)) > math.Abs(x)))
}

// F64ToF32RTP is round.Float64ToFloat32 in mode RTP.
func F64ToF32RTP(x float64) float32 {
	if x != x {
		return nan64to32(x)
	}
	f := float32(x)
	fb := math.Float32bits(f)
	s := fb >> 31
	// f < x: step toward +inf, which is away from zero for positive f and
	// toward zero for negative f (f is never -0 here: x would be negative).
	step := b2u32(float64(f) < x)
	return math.Float32frombits(fb + step - 2*step*s)
}

// F64ToF32RTN is round.Float64ToFloat32 in mode RTN.
func F64ToF32RTN(x float64) float32 {
	if x != x {
		return nan64to32(x)
	}
	f := float32(x)
	fb := math.Float32bits(f)
	s := fb >> 31
	// f > x: step toward -inf; for f == +0 (x negative tiny) the hardware
	// gives -0, so the sign of f is the sign of x.
	step := b2u32(float64(f) > x)
	return math.Float32frombits(fb - step + 2*step*s)
}

// halveU64 maps a to a non-negative int64 that rounds like it: a itself
// below 2^63, otherwise a/2 with the lost bit ORed into bit 0 (a sticky bit:
// 63 bits still hold more than a float64's 53 plus a round bit, so every
// mode rounds x exactly as it rounds a/2). s is 1 when a was halved. Go's
// own uint64 -> float conversions branch on the top bit, which random data
// mispredicts; this has no branch.
func halveU64(a uint64) (x int64, s uint64) {
	s = a >> 63
	return int64(a>>s | a&s), s
}

// U64ToF64RTE is round.Uint64ToFloat64 in mode RTE.
func U64ToF64RTE(a uint64) float64 {
	x, s := halveU64(a)
	return math.Float64frombits(math.Float64bits(I64ToF64RTE(x)) + s<<52) // x2 when halved
}

// U64ToF64RTZ is round.Uint64ToFloat64 in mode RTZ (and RTN: a is not negative).
func U64ToF64RTZ(a uint64) float64 {
	x, s := halveU64(a)
	return math.Float64frombits(math.Float64bits(I64ToF64RTZ(x)) + s<<52)
}

// U64ToF64RTP is round.Uint64ToFloat64 in mode RTP.
func U64ToF64RTP(a uint64) float64 {
	x, s := halveU64(a)
	return math.Float64frombits(math.Float64bits(I64ToF64RTP(x)) + s<<52)
}

// U64ToF64RTN is round.Uint64ToFloat64 in mode RTN, which is RTZ for a non-negative value.
func U64ToF64RTN(a uint64) float64 { return U64ToF64RTZ(a) }

// U64ToF32RTE is round.Uint64ToFloat32 in mode RTE.
func U64ToF32RTE(a uint64) float32 { return u64ToF32RTE(a) }

// U64ToF32RTZ is round.Uint64ToFloat32 in mode RTZ (and RTN: a is not negative).
func U64ToF32RTZ(a uint64) float32 {
	x, s := halveU64(a)
	return math.Float32frombits(math.Float32bits(I64ToF32RTZ(x)) + uint32(s)<<23)
}

// U64ToF32RTP is round.Uint64ToFloat32 in mode RTP.
func U64ToF32RTP(a uint64) float32 {
	x, s := halveU64(a)
	return math.Float32frombits(math.Float32bits(I64ToF32RTP(x)) + uint32(s)<<23)
}

// U64ToF32RTN is round.Uint64ToFloat32 in mode RTN, which is RTZ for a non-negative value.
func U64ToF32RTN(a uint64) float32 { return U64ToF32RTZ(a) }

// The int64 conversions below, one per mode, are the branch-free forms of
// round.Int64ToFloat64 and round.Int64ToFloat32: the sign of random data and
// the direction of its rounding are unpredictable.

// cmpI64 compares an integral f (a rounding of v) with v exactly: int64(f) is
// exact except at f == 2^63, which exceeds every int64.
func cmpI64(f float64, v int64) (above, below uint64) {
	fi := int64(f)
	top := b2u64(f >= 0x1p63)
	above = top | b2u64(fi > v)
	below = (1 - top) & b2u64(fi < v)
	return above, below
}

// I64ToF64RTE is round.Int64ToFloat64 in mode RTE.
func I64ToF64RTE(v int64) float64 { return float64(v) }

// I64ToF64RTZ is round.Int64ToFloat64 in mode RTZ.
func I64ToF64RTZ(v int64) float64 {
	f := float64(v)
	above, below := cmpI64(f, v)
	s := uint64(v) >> 63
	// f and v have one sign (f is 0 only for v == 0): away from zero is
	// above for positive v and below for negative v.
	return math.Float64frombits(math.Float64bits(f) - ((1-s)*above | s*below))
}

// I64ToF64RTP is round.Int64ToFloat64 in mode RTP.
func I64ToF64RTP(v int64) float64 {
	f := float64(v)
	_, below := cmpI64(f, v)
	s := uint64(v) >> 63
	return math.Float64frombits(math.Float64bits(f) + below - 2*below*s)
}

// I64ToF64RTN is round.Int64ToFloat64 in mode RTN.
func I64ToF64RTN(v int64) float64 {
	f := float64(v)
	above, _ := cmpI64(f, v)
	s := uint64(v) >> 63
	return math.Float64frombits(math.Float64bits(f) - above + 2*above*s)
}

// I64ToF32RTE is round.Int64ToFloat32 in mode RTE.
//
// It does not use Go's float32(v): on 386, arm and mips Go lowers that to
// runtime.int64tofloat32, whose sticky bit lands on the rounding bit for
// 2^46 <= |v| < 2^48 and rounds half of those values wrongly
// (docs/PORTS.md). Instead |v| is rounded to odd first
// (u64ToF32RTE), which every port then converts exactly.
func I64ToF32RTE(v int64) float32 {
	// As u64ToF32RTE, in two's complement: v>>11 is the floor of v/2^11,
	// and ORing the sticky bit into it rounds to odd for either sign.
	big := b2u64(uint64(v+1<<37) >= 1<<38) // |v| >= 2^37 (v+2^37 wraps for v near MaxInt64: still big)
	sh := 11 * big
	w := v>>sh | int64(big&b2u64(v&0x7ff != 0))
	return float32(float64(w) * math.Float64frombits((1023+sh)<<52))
}

// u64ToF32RTE rounds u to the nearest binary32, ties to even, from
// operations whose results every Go port computes exactly: integer shifts, an
// int64 -> float64 conversion of a value below 2^53 (exact), a multiplication
// by a power of two (exact) and one float64 -> float32 rounding (IEEE 754's,
// in hardware or softfloat). Below 2^37, u is exact in float64 and rounds once.
// From 2^37 up, u is first rounded to odd at bit 11 (its bits above 11, with
// bit 11 ORed with a sticky bit from the 11 below): that keeps at most 53
// bits, and the odd grid is at least four times finer than binary32's spacing
// there (2^13 from 2^37 up), which is all rounding to odd needs to make the
// second rounding equal the direct one (Boldo and Melquiond, IEEE TC 2008).
func u64ToF32RTE(u uint64) float32 {
	big := b2u64(u >= 1<<37)
	sh := 11 * big
	w := u>>sh | big&b2u64(u&0x7ff != 0)
	return float32(float64(int64(w)) * math.Float64frombits((1023+sh)<<52))
}

// I64ToF32RTZ is round.Int64ToFloat32 in mode RTZ.
func I64ToF32RTZ(v int64) float32 {
	f := I64ToF32RTE(v)
	above, below := cmpI64(float64(f), v)
	s := uint32(uint64(v) >> 63)
	return math.Float32frombits(math.Float32bits(f) - ((1-s)*uint32(above) | s*uint32(below)))
}

// I64ToF32RTP is round.Int64ToFloat32 in mode RTP.
func I64ToF32RTP(v int64) float32 {
	f := I64ToF32RTE(v)
	_, below := cmpI64(float64(f), v)
	s := uint32(uint64(v) >> 63)
	b := uint32(below)
	return math.Float32frombits(math.Float32bits(f) + b - 2*b*s)
}

// I64ToF32RTN is round.Int64ToFloat32 in mode RTN.
func I64ToF32RTN(v int64) float32 {
	f := I64ToF32RTE(v)
	above, _ := cmpI64(float64(f), v)
	s := uint32(uint64(v) >> 63)
	a := uint32(above)
	return math.Float32frombits(math.Float32bits(f) - a + 2*a*s)
}
