package fp8

import (
	"math"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast"
	"github.com/clconv/clconv/round"
)

// The FNUZ formats (issue 44): E4M3FNUZ and E5M2FNUZ, as ml_dtypes, PyTorch
// and ONNX define them ("finite, NaN, unsigned zero": arXiv:2206.02915) and
// AMD's MI300 computes in. Their bias is one more than E4M3's and E5M2's, so
// that the same pattern has half the value; the pattern of -0, 0x80, is
// their one NaN, and they have neither infinities nor a negative zero.
//
// Rounding is that of every other format (docs/FORMATS.md, R1): once, on
// the exact value, in the mode. A result of -0 (a negative zero, a negative
// value that rounds to zero) is +0. Overflow without _sat gives the NaN
// 0x80, as ml_dtypes, PyTorch and ONNX do, except in a mode that rounds the
// value toward zero (rtz; rtp below -MAX; rtn above MAX), which gives +-MAX
// as IEEE 754 does and as E4M3 does here; with _sat +-MAX. Infinities give
// the NaN, or +-MAX with _sat. Every NaN gives 0x80, which decodes to the
// positive quiet NaN (it has no sign).

// E4M3FNUZ is the bit pattern of an E4M3FNUZ value (float8_e4m3fnuz):
// S.EEEE.MMM, bias 8, largest finite 240, no infinities, no -0, NaN only
// 0x80.
//
// Go's == and < compare bit patterns. E4M3FNUZ implements [fmt.Formatter]
// as [E4M3] does: %v prints [E4M3FNUZ.String], the exact value, or "nan".
type E4M3FNUZ uint8

// E5M2FNUZ is the bit pattern of an E5M2FNUZ value (float8_e5m2fnuz):
// S.EEEEE.MM, bias 16, largest finite 57344, no infinities, no -0, NaN only
// 0x80.
//
// Go's == and < compare bit patterns. E5M2FNUZ implements [fmt.Formatter]
// as [E4M3] does.
type E5M2FNUZ uint8

// Notable E4M3FNUZ and E5M2FNUZ values.
const (
	E4M3FNUZMax     E4M3FNUZ = 0x7f // 240
	E4M3FNUZNaN     E4M3FNUZ = 0x80 // the one NaN, the pattern of -0
	E4M3FNUZMinNorm E4M3FNUZ = 0x08 // 2^-7
	E4M3FNUZMinSub  E4M3FNUZ = 0x01 // 2^-10
	E5M2FNUZMax     E5M2FNUZ = 0x7f // 57344
	E5M2FNUZNaN     E5M2FNUZ = 0x80 // the one NaN, the pattern of -0
	E5M2FNUZMinNorm E5M2FNUZ = 0x04 // 2^-15
	E5M2FNUZMinSub  E5M2FNUZ = 0x01 // 2^-17
)

// The float32 fast paths and decoding tables of the FNUZ formats.
var (
	e4m3fnuz                   = smallfast.New(minifloat.E4M3FNUZ)
	e5m2fnuz                   = smallfast.New(minifloat.E5M2FNUZ)
	e4m3fnuzTo32, e4m3fnuzTo64 = fnuzTables(3, 8)
	e5m2fnuzTo32, e5m2fnuzTo64 = fnuzTables(2, 16)
)

// fnuzTables decodes every pattern of an FNUZ format from its definition;
// the NaN 0x80 gives the positive quiet NaN, since it has no sign.
func fnuzTables(mant uint, bias int) (*[256]uint32, *[256]uint64) {
	t32, t64 := smallfast.Tables(8, mant, bias, false, func(b uint8) bool { return b == 0x80 })
	t32[0x80], t64[0x80] = 0x7fc00000, 0x7ff8000000000000
	return t32, t64
}

// fnuzFrom32 rounds the binary32 pattern b to an FNUZ format with fast path
// f: NaN, infinity without _sat and overflow without _sat give 0x80, and a
// result of zero is +0 whatever the sign.
func fnuzFrom32(f *smallfast.Format, b uint32, m round.Mode, sat bool) uint8 {
	sign := uint8(b>>24) & 0x80
	switch a := b & 0x7fffffff; {
	case a > 0x7f800000:
		return 0x80
	case a == 0x7f800000 && sat:
		return sign | f.Max()
	case a == 0x7f800000:
		return 0x80
	}
	switch c := f.Round(b, m, sat); c {
	case smallfast.Overflow:
		return 0x80
	case 0:
		return 0
	default:
		return sign | c
	}
}

// E4M3FNUZFromBits returns the E4M3FNUZ with bit pattern b.
func E4M3FNUZFromBits(b uint8) E4M3FNUZ { return E4M3FNUZ(b) }

// Bits returns the bit pattern of x.
func (x E4M3FNUZ) Bits() uint8 { return uint8(x) }

// IsNaN reports whether x is the NaN, 0x80.
func (x E4M3FNUZ) IsNaN() bool { return x == 0x80 }

// IsInf reports false: E4M3FNUZ has no infinities.
func (x E4M3FNUZ) IsInf() bool { return false }

// IsFinite reports whether x is not the NaN.
func (x E4M3FNUZ) IsFinite() bool { return x != 0x80 }

// Signbit reports whether the sign bit of x is set (for the NaN too, whose
// pattern it is).
func (x E4M3FNUZ) Signbit() bool { return x&0x80 != 0 }

// Float32 returns x as a float32, exactly; the NaN gives 0x7fc00000.
func (x E4M3FNUZ) Float32() float32 { return math.Float32frombits(e4m3fnuzTo32[x]) }

// Float64 returns x as a float64, exactly; the NaN gives 0x7ff8000000000000.
func (x E4M3FNUZ) Float64() float64 { return math.Float64frombits(e4m3fnuzTo64[x]) }

// E4M3FNUZFromFloat32 rounds x to E4M3FNUZ in mode m. Overflow, infinity
// and NaN give the NaN (+-MAX for a finite value in a mode that rounds it
// toward zero); -0 and negative values that round to zero give +0.
func E4M3FNUZFromFloat32(x float32, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(fnuzFrom32(e4m3fnuz, math.Float32bits(x), m, false))
}

// E4M3FNUZFromFloat32Sat rounds x to E4M3FNUZ in mode m, giving +-240 for
// infinities and every value that overflows; NaN stays NaN.
func E4M3FNUZFromFloat32Sat(x float32, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(fnuzFrom32(e4m3fnuz, math.Float32bits(x), m, true))
}

// E4M3FNUZFromFloat64 rounds x to E4M3FNUZ in mode m, once.
func E4M3FNUZFromFloat64(x float64, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(fnuzFrom32(e4m3fnuz, minifloat.Float64ToOdd32(math.Float64bits(x)), m, false))
}

// E4M3FNUZFromFloat64Sat is E4M3FNUZFromFloat64 with _sat.
func E4M3FNUZFromFloat64Sat(x float64, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(fnuzFrom32(e4m3fnuz, minifloat.Float64ToOdd32(math.Float64bits(x)), m, true))
}

// E4M3FNUZFromInt64 rounds v to E4M3FNUZ in mode m; 0 gives +0.
func E4M3FNUZFromInt64(v int64, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(minifloat.FromInt64(minifloat.E4M3FNUZ, v, m, false))
}

// E4M3FNUZFromInt64Sat is E4M3FNUZFromInt64 with _sat.
func E4M3FNUZFromInt64Sat(v int64, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(minifloat.FromInt64(minifloat.E4M3FNUZ, v, m, true))
}

// E4M3FNUZFromUint64 rounds v to E4M3FNUZ in mode m; 0 gives +0.
func E4M3FNUZFromUint64(v uint64, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(minifloat.FromUint64(minifloat.E4M3FNUZ, v, m, false))
}

// E4M3FNUZFromUint64Sat is E4M3FNUZFromUint64 with _sat.
func E4M3FNUZFromUint64Sat(v uint64, m round.Mode) E4M3FNUZ {
	return E4M3FNUZ(minifloat.FromUint64(minifloat.E4M3FNUZ, v, m, true))
}

// String formats x's exact value, which is short: "0.1015625", "240",
// "0.0009765625"; the NaN is "nan". There is no "-0".
func (x E4M3FNUZ) String() string {
	if x.IsNaN() {
		return "nan"
	}
	return exact(x.Float64())
}

// E5M2FNUZFromBits returns the E5M2FNUZ with bit pattern b.
func E5M2FNUZFromBits(b uint8) E5M2FNUZ { return E5M2FNUZ(b) }

// Bits returns the bit pattern of x.
func (x E5M2FNUZ) Bits() uint8 { return uint8(x) }

// IsNaN reports whether x is the NaN, 0x80.
func (x E5M2FNUZ) IsNaN() bool { return x == 0x80 }

// IsInf reports false: E5M2FNUZ has no infinities.
func (x E5M2FNUZ) IsInf() bool { return false }

// IsFinite reports whether x is not the NaN.
func (x E5M2FNUZ) IsFinite() bool { return x != 0x80 }

// Signbit reports whether the sign bit of x is set (for the NaN too, whose
// pattern it is).
func (x E5M2FNUZ) Signbit() bool { return x&0x80 != 0 }

// Float32 returns x as a float32, exactly; the NaN gives 0x7fc00000.
func (x E5M2FNUZ) Float32() float32 { return math.Float32frombits(e5m2fnuzTo32[x]) }

// Float64 returns x as a float64, exactly; the NaN gives 0x7ff8000000000000.
func (x E5M2FNUZ) Float64() float64 { return math.Float64frombits(e5m2fnuzTo64[x]) }

// E5M2FNUZFromFloat32 rounds x to E5M2FNUZ in mode m. Overflow, infinity
// and NaN give the NaN (+-MAX for a finite value in a mode that rounds it
// toward zero); -0 and negative values that round to zero give +0.
func E5M2FNUZFromFloat32(x float32, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(fnuzFrom32(e5m2fnuz, math.Float32bits(x), m, false))
}

// E5M2FNUZFromFloat32Sat rounds x to E5M2FNUZ in mode m, giving +-57344 for
// infinities and every value that overflows; NaN stays NaN.
func E5M2FNUZFromFloat32Sat(x float32, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(fnuzFrom32(e5m2fnuz, math.Float32bits(x), m, true))
}

// E5M2FNUZFromFloat64 rounds x to E5M2FNUZ in mode m, once.
func E5M2FNUZFromFloat64(x float64, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(fnuzFrom32(e5m2fnuz, minifloat.Float64ToOdd32(math.Float64bits(x)), m, false))
}

// E5M2FNUZFromFloat64Sat is E5M2FNUZFromFloat64 with _sat.
func E5M2FNUZFromFloat64Sat(x float64, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(fnuzFrom32(e5m2fnuz, minifloat.Float64ToOdd32(math.Float64bits(x)), m, true))
}

// E5M2FNUZFromInt64 rounds v to E5M2FNUZ in mode m; 0 gives +0.
func E5M2FNUZFromInt64(v int64, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(minifloat.FromInt64(minifloat.E5M2FNUZ, v, m, false))
}

// E5M2FNUZFromInt64Sat is E5M2FNUZFromInt64 with _sat.
func E5M2FNUZFromInt64Sat(v int64, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(minifloat.FromInt64(minifloat.E5M2FNUZ, v, m, true))
}

// E5M2FNUZFromUint64 rounds v to E5M2FNUZ in mode m; 0 gives +0.
func E5M2FNUZFromUint64(v uint64, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(minifloat.FromUint64(minifloat.E5M2FNUZ, v, m, false))
}

// E5M2FNUZFromUint64Sat is E5M2FNUZFromUint64 with _sat.
func E5M2FNUZFromUint64Sat(v uint64, m round.Mode) E5M2FNUZ {
	return E5M2FNUZ(minifloat.FromUint64(minifloat.E5M2FNUZ, v, m, true))
}

// String formats x's exact value: "57344", "7.62939453125e-06"; the NaN is
// "nan". There is no "-0".
func (x E5M2FNUZ) String() string {
	if x.IsNaN() {
		return "nan"
	}
	return exact(x.Float64())
}
