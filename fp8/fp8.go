// Package fp8 implements the two 8-bit floating-point formats of the OCP
// 8-bit Floating Point Specification (OFP8), E4M3 and E5M2, with exact
// conversions in OpenCL C's four rounding modes, with and without _sat.
//
// E4M3 (1 sign, 4 exponent, 3 mantissa bits, bias 7) has no infinities and
// one NaN per sign, S.1111.111, which puts its largest finite value at 448.
// E5M2 (1 sign, 5 exponent, 2 mantissa bits, bias 15) is IEEE-like, with
// infinities and NaNs, and a largest finite value of 57344. LLVM and
// ml_dtypes call E4M3 "float8_e4m3fn" (finite, NaN); SPIR-V calls the two
// Float8E4M3EXT and Float8E5M2EXT.
//
// Conversions to E4M3 and E5M2 round the exact source value once, correctly
// in the mode. A rounded value beyond MAX overflows: without _sat to
// infinity (E5M2) or NaN (E4M3), as the OFP8 specification's non-saturating
// mode and SPV_EXT_float8 say, except in a mode that rounds the value toward
// zero (rtz; rtp below -MAX; rtn above MAX), which gives +-MAX as IEEE 754
// does; with _sat (the Sat forms: OFP8's saturating mode, PTX's .satfinite)
// to +-MAX. Infinite sources give +-infinity (E5M2) or NaN (E4M3), or +-MAX
// with _sat. Rounding is decided on the exact value first: 464 lies half way
// between 448 and 480 and rounds to 448 (the even pattern) in rte, without
// overflowing. Subnormals and the sign of zero are kept. A NaN stays NaN with
// its sign (E5M2 also keeps the top payload bit and sets the quiet bit).
// docs/FORMATS.md gives every rule and the texts it follows.
//
// The conversions from float32 take their rounding from float32 hardware
// arithmetic, which Go defines to round to nearest even on every port, and
// correct the directed modes after an exact comparison, as package half
// does; float64 sources are first rounded to float32 by rounding to odd,
// which never changes the second rounding. Both are checked against the
// integer-only reference in internal/minifloat on every float32 (go test
// -long) and on 2^16 x 4 float32 patterns by default.
package fp8

import (
	"math"

	"github.com/clconv/clconv/round"
)

// format holds what the float32 fast path needs of E4M3 or E5M2.
type format struct {
	mant      uint    // mantissa bits
	shift     uint    // 23 - mant
	qmin      int     // exponent of the smallest subnormal: the smallest quantum
	limit     uint32  // binary32 bits of the first grid point above MAX
	rebias    uint32  // (127-bias)<<23: moves binary32's exponents onto the format's
	minNormal float32 // the smallest normal magnitude, 2^(1-bias)
	subScale  float32 // 2^-qmin: a subnormal's value in quanta
	max       uint8   // MAX's pattern
	over      uint8   // the pattern overflow gives without _sat: infinity or NaN
}

var (
	e4m3 = format{mant: 3, shift: 20, qmin: -9, limit: 0x43f00000 /* 480 */, rebias: 120 << 23, minNormal: 0x1p-6, subScale: 0x1p9, max: 0x7e, over: 0x7f}
	e5m2 = format{mant: 2, shift: 21, qmin: -16, limit: 0x47800000 /* 65536 */, rebias: 112 << 23, minNormal: 0x1p-14, subScale: 0x1p16, max: 0x7b, over: 0x7c}
)

// fromFinite32 rounds the magnitude of the finite binary32 pattern b and
// returns f's pattern, sign included.
//
// Adding and then subtracting c = 1.5*2^23*q, where q is the spacing of f's
// values at |x|'s magnitude, rounds |x| to a multiple of q with ties to even
// in one hardware rounding. That exact result's binary32 pattern, its
// exponent rebiased and shifted right by 23-mant, is f's pattern; a result
// below f's smallest normal is its number of quanta. The directed
// modes step that pattern by one when the nearest value lies on the wrong
// side of x. Magnitudes are first clamped to the grid point just above MAX:
// everything beyond it rounds as it does, beyond MAX in every mode.
func (f *format) fromFinite32(b uint32, m round.Mode, sat bool) uint8 {
	sign := uint8(b>>24) & 0x80
	ab := min(b&0x7fffffff, f.limit)
	a := math.Float32frombits(ab)
	qe := max(int(ab>>23)-127-int(f.mant), f.qmin)
	c := math.Float32frombits(uint32(qe+23+127)<<23 | 1<<22)
	r := (a + c) - c
	// r is a multiple of the quantum at its magnitude: a normal value's
	// pattern is its binary32 pattern with the exponent rebiased, and a
	// subnormal's (zero included) is its value in quanta, an integer below
	// 2^mant. (Multiplying r by 2^(bias-127) instead, so that the binary32
	// pattern of the product is the format's, makes binary32 subnormals,
	// which cost a microcode assist per element on Intel cores.)
	code := uint8((math.Float32bits(r) - f.rebias) >> f.shift)
	if r < f.minNormal {
		code = uint8(int32(r * f.subScale))
	}
	towardZero := false
	switch m {
	case round.RTZ:
		towardZero = true
		code -= b2u(r > a)
	case round.RTP:
		if sign == 0 {
			code += b2u(r < a)
		} else {
			towardZero = true
			code -= b2u(r > a)
		}
	case round.RTN:
		if sign == 0 {
			towardZero = true
			code -= b2u(r > a)
		} else {
			code += b2u(r < a)
		}
	}
	if code > f.max {
		// IEEE 754 overflow: +-MAX when the mode rounds toward zero,
		// and under _sat.
		if towardZero || sat {
			code = f.max
		} else {
			code = f.over
		}
	}
	return sign | code
}

func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}

// decodeTables lists the binary32 and binary64 patterns of the 256 patterns
// of a format with mant mantissa bits and bias bias, built from its
// definition: (-1)^S * 1.M * 2^(E-bias), or 0.M * 2^(1-bias) for E == 0;
// with infinities at the exponent field all ones when hasInf. A NaN keeps its
// sign and mantissa bits (E4M3's 111 included) at the top of the wider
// mantissa, and gets the quiet bit.
func decodeTables(mant uint, bias int, hasInf bool, isNaN func(uint8) bool) (t32 *[256]uint32, t64 *[256]uint64) {
	t32, t64 = new([256]uint32), new([256]uint64)
	expAll := 0xff >> (mant + 1)
	for i := range 256 {
		b := uint8(i)
		sign32 := uint32(b&0x80) << 24
		sign64 := uint64(b&0x80) << 56
		field := int(b>>mant) & expAll
		m := uint64(b) & (1<<mant - 1)
		switch {
		case isNaN(b):
			payload := m << (52 - mant)
			t64[i] = sign64 | 0x7ff8000000000000 | payload
			t32[i] = sign32 | 0x7fc00000 | uint32(payload>>29)
			continue
		case hasInf && field == expAll:
			t64[i] = sign64 | 0x7ff0000000000000
			t32[i] = sign32 | 0x7f800000
			continue
		}
		e := field - bias - int(mant)
		if field == 0 {
			e++ // subnormal: 0.M * 2^(1-bias)
		} else {
			m |= 1 << mant
		}
		v := math.Ldexp(float64(m), e) // exact: at most 4 significant bits
		t64[i] = sign64 | math.Float64bits(v)
		t32[i] = sign32 | math.Float32bits(float32(v))
	}
	return t32, t64
}
