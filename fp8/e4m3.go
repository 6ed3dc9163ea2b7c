package fp8

import (
	"math"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast"
	"github.com/clconv/clconv/round"
)

// E4M3 is the bit pattern of an OCP OFP8 E4M3 value: S.EEEE.MMM, bias 7, no
// infinities, NaN S.1111.111.
//
// Go's == and < compare bit patterns. E4M3 implements [fmt.Formatter] as
// half.Half does, except that %v prints [E4M3.String]: the exact value, and
// "nan" and "-nan".
type E4M3 uint8

// Notable E4M3 values.
const (
	E4M3Max     E4M3 = 0x7e // 448
	E4M3NaN     E4M3 = 0x7f // the NaN (0xff is the negative one)
	E4M3MinNorm E4M3 = 0x08 // 2^-6
	E4M3MinSub  E4M3 = 0x01 // 2^-9
)

// E4M3FromBits returns the E4M3 with bit pattern b.
func E4M3FromBits(b uint8) E4M3 { return E4M3(b) }

// Bits returns the bit pattern of x.
func (x E4M3) Bits() uint8 { return uint8(x) }

// IsNaN reports whether x is a NaN (S.1111.111).
func (x E4M3) IsNaN() bool { return x&0x7f == 0x7f }

// IsInf reports false: E4M3 has no infinities.
func (x E4M3) IsInf() bool { return false }

// IsFinite reports whether x is not a NaN.
func (x E4M3) IsFinite() bool { return x&0x7f != 0x7f }

// Signbit reports whether the sign bit of x is set.
func (x E4M3) Signbit() bool { return x&0x80 != 0 }

// Float32 returns x as a float32, exactly; the NaN S.1111.111 gives the
// quiet NaN with the mantissa bits 111 on top, 0x7ff00000 with x's sign, as
// LLVM's APFloat converts it.
func (x E4M3) Float32() float32 { return math.Float32frombits(e4m3To32[x]) }

// Float64 returns x as a float64, exactly (the NaN as in Float32).
func (x E4M3) Float64() float64 { return math.Float64frombits(e4m3To64[x]) }

// E4M3FromFloat32 rounds x to E4M3 in mode m. Overflow gives NaN (+-MAX in
// a mode that rounds toward zero), infinity gives NaN, NaN keeps its sign.
func E4M3FromFloat32(x float32, m round.Mode) E4M3 {
	return e4m3From32(math.Float32bits(x), m, false)
}

// E4M3FromFloat32Sat rounds x to E4M3 in mode m, giving +-448 for
// infinities and every value that overflows; NaN stays NaN.
func E4M3FromFloat32Sat(x float32, m round.Mode) E4M3 {
	return e4m3From32(math.Float32bits(x), m, true)
}

// E4M3FromFloat64 rounds x to E4M3 in mode m, once.
func E4M3FromFloat64(x float64, m round.Mode) E4M3 {
	return e4m3From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, false)
}

// E4M3FromFloat64Sat is E4M3FromFloat64 with _sat.
func E4M3FromFloat64Sat(x float64, m round.Mode) E4M3 {
	return e4m3From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, true)
}

// E4M3FromInt64 rounds v to E4M3 in mode m; 0 gives +0.
func E4M3FromInt64(v int64, m round.Mode) E4M3 {
	return E4M3(minifloat.FromInt64(minifloat.E4M3, v, m, false))
}

// E4M3FromInt64Sat is E4M3FromInt64 with _sat.
func E4M3FromInt64Sat(v int64, m round.Mode) E4M3 {
	return E4M3(minifloat.FromInt64(minifloat.E4M3, v, m, true))
}

// E4M3FromUint64 rounds v to E4M3 in mode m; 0 gives +0.
func E4M3FromUint64(v uint64, m round.Mode) E4M3 {
	return E4M3(minifloat.FromUint64(minifloat.E4M3, v, m, false))
}

// E4M3FromUint64Sat is E4M3FromUint64 with _sat.
func E4M3FromUint64Sat(v uint64, m round.Mode) E4M3 {
	return E4M3(minifloat.FromUint64(minifloat.E4M3, v, m, true))
}

func e4m3From32(b uint32, m round.Mode, sat bool) E4M3 {
	sign := uint8(b>>24) & 0x80
	switch a := b & 0x7fffffff; {
	case a > 0x7f800000:
		return E4M3(sign | 0x7f)
	case a == 0x7f800000 && sat:
		return E4M3(sign | 0x7e)
	case a == 0x7f800000:
		return E4M3(sign | 0x7f)
	}
	return E4M3(sign | e4m3.Round(b, m, sat))
}

// String formats x's exact value, which is short: "0.1015625", "-0",
// "448", "0.001953125"; the NaNs are "nan" and "-nan".
func (x E4M3) String() string {
	switch {
	case x == E4M3NaN:
		return "nan"
	case x.IsNaN():
		return "-nan"
	}
	return exact(x.Float64())
}

// e4m3To32 and e4m3To64 decode every pattern, from the format's definition.
var e4m3To32, e4m3To64 = smallfast.Tables(8, 3, 7, false, func(b uint8) bool { return b&0x7f == 0x7f })
