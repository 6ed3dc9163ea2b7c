package fp6

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast"
	"github.com/clconv/clconv/round"
)

// E3M2 is the bit pattern of an OCP MX FP6 E3M2 value in the low 6 bits of a
// byte (the two high bits are ignored): S.EEE.MM, bias 3, no infinities, no NaNs,
// largest finite value 28.
//
// Go's == and < compare the bytes.
type E3M2 uint8

// Notable E3M2 values.
const (
	E3M2Max     E3M2 = 0x1f // 28
	E3M2MinNorm E3M2 = 0x04 // 0.25
	E3M2MinSub  E3M2 = 0x01 // 0.0625
)

// E3M2FromBits returns the E3M2 with the low 6 bits of b as its pattern.
func E3M2FromBits(b uint8) E3M2 { return E3M2(b & 0x3f) }

// Bits returns the bit pattern of x, its low 6 bits.
func (x E3M2) Bits() uint8 { return uint8(x) & 0x3f }

// IsNaN reports false: E3M2 has no NaNs.
func (x E3M2) IsNaN() bool { return false }

// IsInf reports false: E3M2 has no infinities.
func (x E3M2) IsInf() bool { return false }

// IsFinite reports true: every pattern is a number.
func (x E3M2) IsFinite() bool { return true }

// Signbit reports whether the sign bit of x (bit 5) is set.
func (x E3M2) Signbit() bool { return x&0x20 != 0 }

// Float32 returns x as a float32, exactly.
func (x E3M2) Float32() float32 { return math.Float32frombits(e3m2To32[x]) }

// Float64 returns x as a float64, exactly.
func (x E3M2) Float64() float64 { return math.Float64frombits(e3m2To64[x]) }

// E3M2FromFloat32 rounds x to E3M2 in mode m. Overflow and infinities give
// +-28 in every mode; NaN gives +0.
func E3M2FromFloat32(x float32, m round.Mode) E3M2 { return e3m2From32(math.Float32bits(x), m, false) }

// E3M2FromFloat32Sat is E3M2FromFloat32 with _sat, which gives the same:
// E3M2 saturates in every mode.
func E3M2FromFloat32Sat(x float32, m round.Mode) E3M2 {
	return e3m2From32(math.Float32bits(x), m, true)
}

// E3M2FromFloat64 rounds x to E3M2 in mode m, once.
func E3M2FromFloat64(x float64, m round.Mode) E3M2 {
	return e3m2From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, false)
}

// E3M2FromFloat64Sat is E3M2FromFloat64 with _sat, which gives the same.
func E3M2FromFloat64Sat(x float64, m round.Mode) E3M2 {
	return e3m2From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, true)
}

// E3M2FromInt64 rounds v to E3M2 in mode m; 0 gives +0.
func E3M2FromInt64(v int64, m round.Mode) E3M2 {
	return E3M2(minifloat.FromInt64(minifloat.E3M2, v, m, false))
}

// E3M2FromInt64Sat is E3M2FromInt64 with _sat, which gives the same.
func E3M2FromInt64Sat(v int64, m round.Mode) E3M2 {
	return E3M2(minifloat.FromInt64(minifloat.E3M2, v, m, true))
}

// E3M2FromUint64 rounds v to E3M2 in mode m; 0 gives +0.
func E3M2FromUint64(v uint64, m round.Mode) E3M2 {
	return E3M2(minifloat.FromUint64(minifloat.E3M2, v, m, false))
}

// E3M2FromUint64Sat is E3M2FromUint64 with _sat, which gives the same.
func E3M2FromUint64Sat(v uint64, m round.Mode) E3M2 {
	return E3M2(minifloat.FromUint64(minifloat.E3M2, v, m, true))
}

func e3m2From32(b uint32, m round.Mode, sat bool) E3M2 {
	sign := uint8(b>>26) & 0x20
	switch a := b & 0x7fffffff; {
	case a > 0x7f800000:
		return 0 // NaN: +0
	case a == 0x7f800000:
		return E3M2(sign | uint8(E3M2Max))
	}
	return E3M2(sign | e3m2.Round(b, m, sat))
}

// String formats x's exact value, which is short: "28", "0.0625", "-0", "0.1875".
func (x E3M2) String() string { return exact(x.Float64()) }

// Format implements [fmt.Formatter] as fp8.E4M3 does: %v prints
// [E3M2.String], the exact value; the other float verbs format the float64
// of the same value, honouring flags, width and precision; %b gives the
// integer significand and power of two; %#v prints the bit pattern.
func (x E3M2) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp6.E3M2", uint8(x), 6, 2, 3, x.Float64(), true, x.String))
}

// e3m2To32 and e3m2To64 decode every byte from the format's definition.
var e3m2To32, e3m2To64 = smallfast.Tables(6, 2, 3, false, func(uint8) bool { return false })
