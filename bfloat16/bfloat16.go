// Package bfloat16 implements bfloat16 (1 sign, 8 exponent and 7 mantissa
// bits: binary32 with the low 16 mantissa bits cut off) with exact
// conversions in OpenCL C's four rounding modes, with and without _sat.
//
// Conversions to bfloat16 round the exact source value once, correctly in
// the mode. Overflow follows IEEE 754: infinity, except in a mode that rounds
// the value toward zero (rtz; rtp below -MAX; rtn above MAX), which gives
// +-MAX. The Sat forms give +-MAX for every overflow and for infinite
// sources, as PTX's .satfinite does. Subnormals and the sign of zero are
// kept. A NaN keeps its sign and the high payload bits that fit, and gets the
// quiet bit. Conversions from bfloat16 to float32 and float64 are exact.
// docs/FORMATS.md gives every rule and the texts it follows.
//
// The conversions from float32 and float64 are bit arithmetic; all are
// checked against the integer-only reference in internal/minifloat on every
// float32 (go test -long) and on 2^16 x 7 float32 patterns by default.
package bfloat16

import (
	"math"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/numfmt"
	"github.com/clconv/clconv/round"
)

// BFloat16 is the bit pattern of a bfloat16 value.
//
// As with half.Half, Go's == and < compare bit patterns, not numbers; compare
// x.Float32() for IEEE comparison. BFloat16 implements [fmt.Formatter] and
// formats as Go formats a float of the same value; %v and Println print the
// shortest decimal that reads back to the same BFloat16. [BFloat16.String]
// spells infinities and NaNs OpenCL's way ("inf", "-nan").
type BFloat16 uint16

// Notable values.
const (
	PosInf      BFloat16 = 0x7f80
	NegInf      BFloat16 = 0xff80
	QNaN        BFloat16 = 0x7fc0
	MaxBFloat16 BFloat16 = 0x7f7f // 0x1.fep127, about 3.3895314e38
	MinNorm     BFloat16 = 0x0080 // 2^-126
	MinSub      BFloat16 = 0x0001 // 2^-133
)

// FromBits returns the BFloat16 with bit pattern b.
func FromBits(b uint16) BFloat16 { return BFloat16(b) }

// Bits returns the bit pattern of x.
func (x BFloat16) Bits() uint16 { return uint16(x) }

// IsNaN reports whether x is a NaN.
func (x BFloat16) IsNaN() bool { return x&0x7fff > 0x7f80 }

// IsInf reports whether x is an infinity.
func (x BFloat16) IsInf() bool { return x&0x7fff == 0x7f80 }

// IsFinite reports whether x is neither an infinity nor a NaN.
func (x BFloat16) IsFinite() bool { return x&0x7f80 != 0x7f80 }

// Signbit reports whether the sign bit of x is set.
func (x BFloat16) Signbit() bool { return x&0x8000 != 0 }

// Float32 returns x as a float32, exactly. A NaN keeps its sign and payload
// and gets the quiet bit, as IEEE hardware does.
func (x BFloat16) Float32() float32 {
	b := uint32(x) << 16
	if x.IsNaN() {
		b |= 0x00400000
	}
	return math.Float32frombits(b)
}

// Float64 returns x as a float64, exactly (a NaN as in Float32).
func (x BFloat16) Float64() float64 {
	if x.IsNaN() {
		return math.Float64frombits(uint64(x&0x8000)<<48 | 0x7ff8000000000000 | uint64(x&0x7f)<<45)
	}
	// A conversion Go defines exactly for every non-NaN float32.
	return float64(x.Float32())
}

// FromFloat32 rounds x to bfloat16 in mode m.
func FromFloat32(x float32, m round.Mode) BFloat16 {
	return fromFloat32Bits(math.Float32bits(x), m)
}

// FromFloat32Sat rounds x to bfloat16 in mode m, giving +-MaxBFloat16 for
// infinities and for every value that overflows.
func FromFloat32Sat(x float32, m round.Mode) BFloat16 {
	return satFinite(fromFloat32Bits(math.Float32bits(x), m))
}

// FromFloat64 rounds x to bfloat16 in mode m, once: a float64 is first
// rounded to float32 by rounding to odd, which never changes the result of
// the second rounding (minifloat.Float64ToOdd32).
func FromFloat64(x float64, m round.Mode) BFloat16 {
	return fromFloat32Bits(minifloat.Float64ToOdd32(math.Float64bits(x)), m)
}

// FromFloat64Sat is FromFloat64 with the overflow rule of FromFloat32Sat.
func FromFloat64Sat(x float64, m round.Mode) BFloat16 {
	return satFinite(FromFloat64(x, m))
}

// FromInt64 rounds v to bfloat16 in mode m; 0 gives +0. No int64 overflows
// bfloat16, so there is no Sat form.
func FromInt64(v int64, m round.Mode) BFloat16 {
	return BFloat16(minifloat.FromInt64(minifloat.BFloat16, v, m, false))
}

// FromUint64 rounds v to bfloat16 in mode m; 0 gives +0.
func FromUint64(v uint64, m round.Mode) BFloat16 {
	return BFloat16(minifloat.FromUint64(minifloat.BFloat16, v, m, false))
}

// fromFloat32Bits rounds the binary32 pattern b. bfloat16 is binary32's top
// half, so rounding is adding a bias below bit 16 and truncating: 0x7fff
// plus the last kept bit rounds to nearest even, 0xffff rounds the magnitude
// up; a carry walks from the largest subnormal to the smallest normal and
// from the largest finite value to infinity, which is IEEE's overflow for the
// modes that round up, and infinities pass unchanged.
func fromFloat32Bits(b uint32, m round.Mode) BFloat16 {
	if b&0x7fffffff > 0x7f800000 {
		return BFloat16(b>>16) | 0x40 // NaN: quiet, payload's top bits kept
	}
	var bias uint32
	switch m {
	case round.RTZ:
	case round.RTP:
		bias = 0xffff &^ (b >> 31 * 0xffff) // up for a positive value
	case round.RTN:
		bias = b >> 31 * 0xffff // up in magnitude for a negative one
	default:
		bias = 0x7fff + b>>16&1
	}
	return BFloat16((b + bias) >> 16)
}

// satFinite replaces an infinity by the largest finite value of its sign.
func satFinite(x BFloat16) BFloat16 {
	if x.IsInf() {
		return x&0x8000 | MaxBFloat16
	}
	return x
}

// String formats x in the shortest decimal form that reads back to the same
// value: "0.1", "-0", "inf", "-inf", "nan", "-nan".
func (x BFloat16) String() string {
	switch {
	case x.IsNaN() && x.Signbit():
		return "-nan"
	case x.IsNaN():
		return "nan"
	case x == NegInf:
		return "-inf"
	case x == PosInf:
		return "inf"
	}
	return string(numfmt.AppendShortest(nil, x.shortest(), 64))
}

// shortest returns the float64 nearest the shortest decimal that rounds to
// nearest even back to the finite x.
func (x BFloat16) shortest() float64 {
	return floatfmt.Shortest(x.Float64(), x&0x7f == 0, func(v float64) bool { return FromFloat64(v, round.RTE) == x })
}
