package fp8

import (
	"math"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast"
	"github.com/clconv/clconv/round"
)

// E5M2 is the bit pattern of an OCP OFP8 E5M2 value: S.EEEEE.MM, bias 15,
// with IEEE 754's infinities (S.11111.00) and NaNs (S.11111.{01,10,11}, the
// top mantissa bit being the quiet bit).
//
// Go's == and < compare bit patterns. E5M2 implements [fmt.Formatter] as
// half.Half does, except that %v prints [E5M2.String]: the exact value, and
// infinities and NaNs spelled OpenCL's way ("inf", "-nan").
type E5M2 uint8

// Notable E5M2 values.
const (
	E5M2Max     E5M2 = 0x7b // 57344
	E5M2PosInf  E5M2 = 0x7c
	E5M2NegInf  E5M2 = 0xfc
	E5M2NaN     E5M2 = 0x7e // the quiet NaN with an empty payload
	E5M2MinNorm E5M2 = 0x04 // 2^-14
	E5M2MinSub  E5M2 = 0x01 // 2^-16
)

// E5M2FromBits returns the E5M2 with bit pattern b.
func E5M2FromBits(b uint8) E5M2 { return E5M2(b) }

// Bits returns the bit pattern of x.
func (x E5M2) Bits() uint8 { return uint8(x) }

// IsNaN reports whether x is a NaN.
func (x E5M2) IsNaN() bool { return x&0x7f > 0x7c }

// IsInf reports whether x is an infinity.
func (x E5M2) IsInf() bool { return x&0x7f == 0x7c }

// IsFinite reports whether x is neither an infinity nor a NaN.
func (x E5M2) IsFinite() bool { return x&0x7c != 0x7c }

// Signbit reports whether the sign bit of x is set.
func (x E5M2) Signbit() bool { return x&0x80 != 0 }

// Float32 returns x as a float32, exactly. A NaN keeps its sign and payload
// bit and gets the quiet bit, as IEEE hardware does.
func (x E5M2) Float32() float32 { return math.Float32frombits(e5m2To32[x]) }

// Float64 returns x as a float64, exactly (a NaN as in Float32).
func (x E5M2) Float64() float64 { return math.Float64frombits(e5m2To64[x]) }

// E5M2FromFloat32 rounds x to E5M2 in mode m. Overflow gives infinity (+-MAX
// in a mode that rounds toward zero); NaN keeps its sign and top payload bit
// and gets the quiet bit.
func E5M2FromFloat32(x float32, m round.Mode) E5M2 {
	return e5m2From32(math.Float32bits(x), m, false)
}

// E5M2FromFloat32Sat rounds x to E5M2 in mode m, giving +-57344 for
// infinities and every value that overflows; NaN stays NaN.
func E5M2FromFloat32Sat(x float32, m round.Mode) E5M2 {
	return e5m2From32(math.Float32bits(x), m, true)
}

// E5M2FromFloat64 rounds x to E5M2 in mode m, once.
func E5M2FromFloat64(x float64, m round.Mode) E5M2 {
	return e5m2From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, false)
}

// E5M2FromFloat64Sat is E5M2FromFloat64 with _sat.
func E5M2FromFloat64Sat(x float64, m round.Mode) E5M2 {
	return e5m2From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, true)
}

// E5M2FromInt64 rounds v to E5M2 in mode m; 0 gives +0.
func E5M2FromInt64(v int64, m round.Mode) E5M2 {
	return E5M2(minifloat.FromInt64(minifloat.E5M2, v, m, false))
}

// E5M2FromInt64Sat is E5M2FromInt64 with _sat.
func E5M2FromInt64Sat(v int64, m round.Mode) E5M2 {
	return E5M2(minifloat.FromInt64(minifloat.E5M2, v, m, true))
}

// E5M2FromUint64 rounds v to E5M2 in mode m; 0 gives +0.
func E5M2FromUint64(v uint64, m round.Mode) E5M2 {
	return E5M2(minifloat.FromUint64(minifloat.E5M2, v, m, false))
}

// E5M2FromUint64Sat is E5M2FromUint64 with _sat.
func E5M2FromUint64Sat(v uint64, m round.Mode) E5M2 {
	return E5M2(minifloat.FromUint64(minifloat.E5M2, v, m, true))
}

func e5m2From32(b uint32, m round.Mode, sat bool) E5M2 {
	sign := uint8(b>>24) & 0x80
	switch a := b & 0x7fffffff; {
	case a > 0x7f800000:
		// Quiet, with the payload's top bit.
		return E5M2(sign | 0x7e | uint8(a>>21)&1)
	case a == 0x7f800000 && sat:
		return E5M2(sign | 0x7b)
	case a == 0x7f800000:
		return E5M2(sign | 0x7c)
	}
	return E5M2(sign | e5m2.Round(b, m, sat))
}

// String formats x's exact value, which is short: "0.09375", "-0",
// "57344", "1.52587890625e-05"; and "inf", "-inf", "nan", "-nan".
func (x E5M2) String() string {
	switch {
	case x.IsNaN() && x.Signbit():
		return "-nan"
	case x.IsNaN():
		return "nan"
	case x == E5M2NegInf:
		return "-inf"
	case x == E5M2PosInf:
		return "inf"
	}
	return exact(x.Float64())
}

var e5m2To32, e5m2To64 = smallfast.Tables(8, 2, 15, true, func(b uint8) bool { return b&0x7f > 0x7c })
