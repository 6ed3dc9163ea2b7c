// Package fp4 implements the 4-bit floating-point element format of the OCP
// Microscaling (MX) Specification v1.0, E2M1 ("FP4"), with exact conversions
// in OpenCL C's four rounding modes, with and without _sat.
//
// E2M1 (1 sign, 2 exponent, 1 mantissa bit, bias 1) holds the sixteen values
// ±0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6. It has no infinities or NaNs: every
// pattern is a number. ml_dtypes calls it "float4_e2m1fn" and stores one per
// byte, the code in the low 4 bits, as this type does (the high 4 bits are
// ignored); NVIDIA's NVFP4 uses the same element format.
//
// Conversions round the exact source value once, correctly in the mode,
// keeping the subnormal 0.5 and the sign of zero (docs/FORMATS.md, R1,
// R3..R7):
//
//   - A value beyond 6, and an infinity, gives +-6 in every mode, with or
//     without _sat: the format has nothing else to give, and the MX
//     specification clamps a block's elements to the normal range. The Sat
//     forms exist for symmetry with the other formats and give the same.
//   - A NaN gives +0. The MX specification leaves the conversion of a NaN
//     to this format to the implementation; clconv gives 0 as OpenCL C's
//     float -> integer conversions do. (ml_dtypes 0.6.0 gives its
//     "quiet_NaN", -0 (0x8), for a positive NaN and +0 for a negative one.)
//
// convert.ToChecked reports a NaN, an infinity and an overflow as errors.
//
// The conversions from float32 take their rounding from float32 hardware
// arithmetic, as package fp8 does; float64 sources are first rounded to
// float32 by rounding to odd, which never changes the second rounding. Both
// are checked against the integer-only reference internal/minifloat on
// every float32 (go test -long) and on 2^16 x 4 float32 patterns by default.
package fp4

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast"
	"github.com/clconv/clconv/round"
)

// E2M1 is the bit pattern of an OCP MX FP4 E2M1 value in the low 4 bits of a
// byte (the high 4 bits are ignored): S.EE.M, bias 1, no infinities, no NaNs,
// largest finite value 6.
//
// Go's == and < compare the bytes.
type E2M1 uint8

// Notable E2M1 values.
const (
	E2M1Max     E2M1 = 0x7 // 6
	E2M1One     E2M1 = 0x2 // 1, the smallest normal value
	E2M1MinSub  E2M1 = 0x1 // 0.5
	E2M1NegZero E2M1 = 0x8 // -0
)

// E2M1FromBits returns the E2M1 with the low 4 bits of b as its pattern.
func E2M1FromBits(b uint8) E2M1 { return E2M1(b & 0xf) }

// Bits returns the bit pattern of x, its low 4 bits.
func (x E2M1) Bits() uint8 { return uint8(x) & 0xf }

// IsNaN reports false: E2M1 has no NaNs.
func (x E2M1) IsNaN() bool { return false }

// IsInf reports false: E2M1 has no infinities.
func (x E2M1) IsInf() bool { return false }

// IsFinite reports true: every pattern is a number.
func (x E2M1) IsFinite() bool { return true }

// Signbit reports whether the sign bit of x (bit 3) is set.
func (x E2M1) Signbit() bool { return x&0x8 != 0 }

// Float32 returns x as a float32, exactly.
func (x E2M1) Float32() float32 { return math.Float32frombits(e2m1To32[x]) }

// Float64 returns x as a float64, exactly.
func (x E2M1) Float64() float64 { return math.Float64frombits(e2m1To64[x]) }

// E2M1FromFloat32 rounds x to E2M1 in mode m. Overflow and infinities give
// +-6 in every mode; NaN gives +0.
func E2M1FromFloat32(x float32, m round.Mode) E2M1 { return e2m1From32(math.Float32bits(x), m, false) }

// E2M1FromFloat32Sat is E2M1FromFloat32 with _sat, which gives the same:
// E2M1 saturates in every mode.
func E2M1FromFloat32Sat(x float32, m round.Mode) E2M1 {
	return e2m1From32(math.Float32bits(x), m, true)
}

// E2M1FromFloat64 rounds x to E2M1 in mode m, once.
func E2M1FromFloat64(x float64, m round.Mode) E2M1 {
	return e2m1From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, false)
}

// E2M1FromFloat64Sat is E2M1FromFloat64 with _sat, which gives the same.
func E2M1FromFloat64Sat(x float64, m round.Mode) E2M1 {
	return e2m1From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, true)
}

// E2M1FromInt64 rounds v to E2M1 in mode m; 0 gives +0.
func E2M1FromInt64(v int64, m round.Mode) E2M1 {
	return E2M1(minifloat.FromInt64(minifloat.E2M1, v, m, false))
}

// E2M1FromInt64Sat is E2M1FromInt64 with _sat, which gives the same.
func E2M1FromInt64Sat(v int64, m round.Mode) E2M1 {
	return E2M1(minifloat.FromInt64(minifloat.E2M1, v, m, true))
}

// E2M1FromUint64 rounds v to E2M1 in mode m; 0 gives +0.
func E2M1FromUint64(v uint64, m round.Mode) E2M1 {
	return E2M1(minifloat.FromUint64(minifloat.E2M1, v, m, false))
}

// E2M1FromUint64Sat is E2M1FromUint64 with _sat, which gives the same.
func E2M1FromUint64Sat(v uint64, m round.Mode) E2M1 {
	return E2M1(minifloat.FromUint64(minifloat.E2M1, v, m, true))
}

var e2m1 = smallfast.New(minifloat.E2M1)

func e2m1From32(b uint32, m round.Mode, sat bool) E2M1 {
	sign := uint8(b>>28) & 0x8
	switch a := b & 0x7fffffff; {
	case a > 0x7f800000:
		return 0 // NaN: +0
	case a == 0x7f800000:
		return E2M1(sign | uint8(E2M1Max))
	}
	return E2M1(sign | e2m1.Round(b, m, sat))
}

// String formats x's exact value: "0.5", "-0", "1.5", "6".
func (x E2M1) String() string { return string(floatfmt.AppendExact(nil, x.Float64())) }

// Format implements [fmt.Formatter] as fp8.E4M3 does: %v prints
// [E2M1.String], the exact value; the other float verbs format the float64
// of the same value, honouring flags, width and precision; %b gives the
// 2-bit integer significand and power of two (1.5 is 3p-1); %#v prints the
// bit pattern.
func (x E2M1) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp4.E2M1", uint8(x), 4, 1, 1, x.Float64(), true, x.String))
}

// e2m1To32 and e2m1To64 decode every byte from the format's definition.
var e2m1To32, e2m1To64 = smallfast.Tables(4, 1, 1, false, func(uint8) bool { return false })
