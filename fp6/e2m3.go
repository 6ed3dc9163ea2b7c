package fp6

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast"
	"github.com/clconv/clconv/round"
)

// E2M3 is the bit pattern of an OCP MX FP6 E2M3 value in the low 6 bits of a
// byte (the two high bits are ignored): S.EE.MMM, bias 1, no infinities, no NaNs,
// largest finite value 7.5.
//
// Go's == and < compare the bytes.
type E2M3 uint8

// Notable E2M3 values.
const (
	E2M3Max     E2M3 = 0x1f // 7.5
	E2M3MinNorm E2M3 = 0x08 // 1
	E2M3MinSub  E2M3 = 0x01 // 0.125
)

// E2M3FromBits returns the E2M3 with the low 6 bits of b as its pattern.
func E2M3FromBits(b uint8) E2M3 { return E2M3(b & 0x3f) }

// Bits returns the bit pattern of x, its low 6 bits.
func (x E2M3) Bits() uint8 { return uint8(x) & 0x3f }

// IsNaN reports false: E2M3 has no NaNs.
func (x E2M3) IsNaN() bool { return false }

// IsInf reports false: E2M3 has no infinities.
func (x E2M3) IsInf() bool { return false }

// IsFinite reports true: every pattern is a number.
func (x E2M3) IsFinite() bool { return true }

// Signbit reports whether the sign bit of x (bit 5) is set.
func (x E2M3) Signbit() bool { return x&0x20 != 0 }

// Float32 returns x as a float32, exactly.
func (x E2M3) Float32() float32 { return math.Float32frombits(e2m3To32[x]) }

// Float64 returns x as a float64, exactly.
func (x E2M3) Float64() float64 { return math.Float64frombits(e2m3To64[x]) }

// E2M3FromFloat32 rounds x to E2M3 in mode m. Overflow and infinities give
// +-7.5 in every mode; NaN gives +0.
func E2M3FromFloat32(x float32, m round.Mode) E2M3 { return e2m3From32(math.Float32bits(x), m, false) }

// E2M3FromFloat32Sat is E2M3FromFloat32 with _sat, which gives the same:
// E2M3 saturates in every mode.
func E2M3FromFloat32Sat(x float32, m round.Mode) E2M3 {
	return e2m3From32(math.Float32bits(x), m, true)
}

// E2M3FromFloat64 rounds x to E2M3 in mode m, once.
func E2M3FromFloat64(x float64, m round.Mode) E2M3 {
	return e2m3From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, false)
}

// E2M3FromFloat64Sat is E2M3FromFloat64 with _sat, which gives the same.
func E2M3FromFloat64Sat(x float64, m round.Mode) E2M3 {
	return e2m3From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, true)
}

// E2M3FromInt64 rounds v to E2M3 in mode m; 0 gives +0.
func E2M3FromInt64(v int64, m round.Mode) E2M3 {
	return E2M3(minifloat.FromInt64(minifloat.E2M3, v, m, false))
}

// E2M3FromInt64Sat is E2M3FromInt64 with _sat, which gives the same.
func E2M3FromInt64Sat(v int64, m round.Mode) E2M3 {
	return E2M3(minifloat.FromInt64(minifloat.E2M3, v, m, true))
}

// E2M3FromUint64 rounds v to E2M3 in mode m; 0 gives +0.
func E2M3FromUint64(v uint64, m round.Mode) E2M3 {
	return E2M3(minifloat.FromUint64(minifloat.E2M3, v, m, false))
}

// E2M3FromUint64Sat is E2M3FromUint64 with _sat, which gives the same.
func E2M3FromUint64Sat(v uint64, m round.Mode) E2M3 {
	return E2M3(minifloat.FromUint64(minifloat.E2M3, v, m, true))
}

func e2m3From32(b uint32, m round.Mode, sat bool) E2M3 {
	sign := uint8(b>>26) & 0x20
	switch a := b & 0x7fffffff; {
	case a > 0x7f800000:
		return 0 // NaN: +0
	case a == 0x7f800000:
		return E2M3(sign | uint8(E2M3Max))
	}
	return E2M3(sign | e2m3.Round(b, m, sat))
}

// String formats x's exact value, which is short: "7.5", "0.125", "-0", "1.875".
func (x E2M3) String() string { return exact(x.Float64()) }

// Format implements [fmt.Formatter] as fp8.E4M3 does: %v prints
// [E2M3.String], the exact value; the other float verbs format the float64
// of the same value, honouring flags, width and precision; %b gives the
// integer significand and power of two; %#v prints the bit pattern.
func (x E2M3) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp6.E2M3", uint8(x), 6, 3, 1, x.Float64(), true, x.String))
}

// e2m3To32 and e2m3To64 decode every byte from the format's definition.
var e2m3To32, e2m3To64 = smallfast.Tables(6, 3, 1, false, func(uint8) bool { return false })
