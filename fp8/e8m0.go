package fp8

import (
	"fmt"
	"math"
	"strconv"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// E8M0 is the bit pattern of an OCP MX E8M0 scale: 8 exponent bits, bias
// 127, no sign and no mantissa. Pattern b holds 2^(b-127) for b up to 0xFE
// (2^-127 .. 2^127) and 0xFF is its only NaN; there is no zero and no
// infinity. ml_dtypes calls it "float8_e8m0fnu", PTX "ue8m0".
//
// Conversions to E8M0 follow docs/FORMATS.md (R2, R3, R4, R8):
//
//   - A positive finite value is rounded once on its exact value. rtz
//     rounds down to a power of two (the MX specification's floor, PTX's
//     .rz), rtp up (PTX's .rp, cuBLAS's RCEIL scales), rtn as rtz; rte to
//     the nearer power of two, and a tie, 1.5 * 2^k, up to 2^(k+1): every
//     E8M0 value has the one-bit significand 1, so "ties to even" picks
//     neither neighbour by its significand; up is what rounding to even on
//     the binade's grid gives, what LLVM's APFloat does, and what ml_dtypes
//     0.6.0 and PyTorch 2.11 do.
//   - A positive value below 2^-127 gives 2^-127 in every mode (there is no
//     zero to round to).
//   - A value that rounds beyond 2^127 (rte from 1.5 * 2^127 up, rtp above
//     2^127) gives NaN, or 2^127 under _sat; rtz and rtn give 2^127.
//     +infinity gives NaN, or 2^127 under _sat.
//   - Zero, a negative value and -infinity give NaN, or 2^-127 under _sat
//     (as ml_dtypes' float8_e8m0fnu conversion does, and as OpenCL's _sat
//     clamps a negative value to an unsigned type's 0). NaN gives NaN.
//
// To reproduce the peers on float32 inputs (measured on all 2^32 inputs):
// ml_dtypes 0.6.0's astype(float8_e8m0fnu) is E8M0FromFloat32(x, round.RTE)
// except on the float32 subnormals strictly between 2^-127 and 1.5 * 2^-127,
// which it rounds by their raw bits to 2^-126 (clconv: 2^-127, the nearer);
// PyTorch 2.11's .to(torch.float8_e8m0fnu) is the same on |x|, ignoring the
// sign, and gives 0x00 (2^-127) for +0 and -0. See the package tests'
// table of these inputs.
//
// String and %v print the exact value when it has at most 17 significant
// digits (2^-24 .. 2^56: "0.25", "1024"), and otherwise as a C hex float,
// which is exact and short ("0x1p-127", "0x1p+127"); the NaN is "nan".
type E8M0 uint8

// Notable E8M0 values.
const (
	E8M0Min E8M0 = 0x00 // 2^-127, the smallest value
	E8M0One E8M0 = 0x7f // 1
	E8M0Max E8M0 = 0xfe // 2^127, the largest value
	E8M0NaN E8M0 = 0xff // the NaN
)

// E8M0FromBits returns the E8M0 with bit pattern b.
func E8M0FromBits(b uint8) E8M0 { return E8M0(b) }

// E8M0FromExp returns 2^k for k in -127 .. 127, and the NaN for any other k.
func E8M0FromExp(k int) E8M0 {
	if k < -127 || k > 127 {
		return E8M0NaN
	}
	return E8M0(k + 127)
}

// Bits returns the bit pattern of x.
func (x E8M0) Bits() uint8 { return uint8(x) }

// Exp returns k such that x is 2^k (-127 .. 127), and 128 for the NaN.
func (x E8M0) Exp() int { return int(x) - 127 }

// IsNaN reports whether x is the NaN, 0xFF.
func (x E8M0) IsNaN() bool { return x == E8M0NaN }

// IsInf reports false: E8M0 has no infinities.
func (x E8M0) IsInf() bool { return false }

// IsFinite reports whether x is not the NaN.
func (x E8M0) IsFinite() bool { return x != E8M0NaN }

// Signbit reports false: E8M0 has no sign.
func (x E8M0) Signbit() bool { return false }

// Float32 returns x as a float32, exactly (2^-127 is a binary32 subnormal);
// the NaN gives the quiet NaN 0x7fc00000.
func (x E8M0) Float32() float32 { return math.Float32frombits(e8m0To32(x)) }

// Float64 returns x as a float64, exactly (the NaN as in Float32).
func (x E8M0) Float64() float64 {
	if x == E8M0NaN {
		return math.Float64frombits(0x7ff8000000000000)
	}
	return math.Float64frombits(uint64(x.Exp()+1023) << 52)
}

// e8m0To32 returns x's binary32 pattern, built from its bits alone.
func e8m0To32(x E8M0) uint32 {
	switch x {
	case E8M0NaN:
		return 0x7fc00000
	case E8M0Min:
		return 0x00400000 // 2^-127: 2^22 units of 2^-149
	}
	return uint32(x) << 23
}

// E8M0FromFloat32 rounds x to E8M0 in mode m (see [E8M0] for the rules).
func E8M0FromFloat32(x float32, m round.Mode) E8M0 {
	return e8m0From32(math.Float32bits(x), m, false)
}

// E8M0FromFloat32Sat rounds x to E8M0 in mode m, clamping to 2^-127 ..
// 2^127: zero, negative values and -infinity give 2^-127, +infinity and
// every value that overflows 2^127; NaN stays NaN.
func E8M0FromFloat32Sat(x float32, m round.Mode) E8M0 {
	return e8m0From32(math.Float32bits(x), m, true)
}

// E8M0FromFloat64 rounds x to E8M0 in mode m, once.
func E8M0FromFloat64(x float64, m round.Mode) E8M0 {
	return e8m0From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, false)
}

// E8M0FromFloat64Sat is E8M0FromFloat64 with _sat.
func E8M0FromFloat64Sat(x float64, m round.Mode) E8M0 {
	return e8m0From32(minifloat.Float64ToOdd32(math.Float64bits(x)), m, true)
}

// E8M0FromInt64 rounds v to E8M0 in mode m; 0 and negative values give NaN.
func E8M0FromInt64(v int64, m round.Mode) E8M0 {
	return E8M0(minifloat.FromInt64(minifloat.E8M0, v, m, false))
}

// E8M0FromInt64Sat is E8M0FromInt64 with _sat: 0 and negative values give
// 2^-127.
func E8M0FromInt64Sat(v int64, m round.Mode) E8M0 {
	return E8M0(minifloat.FromInt64(minifloat.E8M0, v, m, true))
}

// E8M0FromUint64 rounds v to E8M0 in mode m; 0 gives NaN.
func E8M0FromUint64(v uint64, m round.Mode) E8M0 {
	return E8M0(minifloat.FromUint64(minifloat.E8M0, v, m, false))
}

// E8M0FromUint64Sat is E8M0FromUint64 with _sat: 0 gives 2^-127.
func E8M0FromUint64Sat(v uint64, m round.Mode) E8M0 {
	return E8M0(minifloat.FromUint64(minifloat.E8M0, v, m, true))
}

// e8m0From32 rounds the binary32 pattern b with integer operations only: a
// positive float's exponent field is already E8M0's pattern (the biases are
// equal), and its mantissa decides whether to add one.
func e8m0From32(b uint32, m round.Mode, sat bool) E8M0 {
	a := b & 0x7fffffff
	switch {
	case a > 0x7f800000:
		return E8M0NaN
	case b == 0x7f800000:
		if sat {
			return E8M0Max
		}
		return E8M0NaN
	case a == 0 || b != a: // zero, a negative value, -infinity
		if sat {
			return E8M0Min
		}
		return E8M0NaN
	}
	field, mant := a>>23, a&0x7fffff
	var up bool
	if field == 0 {
		// A binary32 subnormal, below 2^-126: 2^-127 is mant 0x400000 and
		// everything below it gives 2^-127 in every mode.
		switch m {
		case round.RTP:
			up = mant > 0x400000
		case round.RTZ, round.RTN:
		default: // rte: from 1.5 * 2^-127 up (a tie goes up)
			up = mant >= 0x600000
		}
		return E8M0(b2u(up))
	}
	// a lies in [2^(field-127), 2^(field-126)).
	switch m {
	case round.RTP:
		up = mant != 0
	case round.RTZ, round.RTN:
	default: // rte: from 1.5 * 2^k up (a tie goes up)
		up = mant >= 0x400000
	}
	code := field + uint32(b2u(up))
	if code > uint32(E8M0Max) {
		// Rounded up beyond 2^127 (IEEE 754 overflow in a mode that
		// rounds away from zero): NaN, or 2^127 under _sat.
		if sat {
			return E8M0Max
		}
		return E8M0NaN
	}
	return E8M0(code)
}

func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}

// String formats x's exact value: a decimal when it has at most 17
// significant digits ("0.25", "1", "72057594037927936"), otherwise a C hex
// float ("0x1p-127", "0x1p+57"); the NaN is "nan".
func (x E8M0) String() string {
	switch k := x.Exp(); {
	case x == E8M0NaN:
		return "nan"
	case k < -24 || k > 56:
		return strconv.FormatFloat(x.Float64(), 'x', -1, 64)
	}
	return exact(x.Float64())
}

// Format implements [fmt.Formatter] as [E4M3.Format] does: %v prints
// [E8M0.String]; the other float verbs format the float64 of the same value;
// %b prints 1p-127 .. 1p+127.
func (x E8M0) Format(s fmt.State, verb rune) {
	v := floatfmt.Value{Type: "fp8.E8M0", Bits: uint8(x), Float: x.Float64(), Finite: x.IsFinite(),
		Shortest: x.Float64, String: x.String, StringV: true}
	if v.Finite {
		v.Mant, v.Exp = 1, x.Exp()
	}
	floatfmt.Format(s, verb, v)
}
