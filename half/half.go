// Package half implements IEEE 754 binary16, OpenCL C's half type, with exact
// conversions in all four rounding modes. Subnormals and signed zero are kept;
// NaNs keep their sign and the high payload bits that fit, with the quiet bit set.
package half

import (
	"math"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/numfmt"
	"github.com/clconv/clconv/round"
)

// Half is the bit pattern of an IEEE 754 binary16 value.
//
// Go's == and < on Half compare bit patterns, not numbers: +0 != -0, a NaN
// equals any NaN with the same bits, and < puts every negative value after
// every positive one and orders negatives backwards. For numeric order use
// [Compare] or [Less] (the order of [cmp.Compare] on floats), and for IEEE
// comparison (NaN unequal to everything, -0 == +0) compare h.Float64().
//
// Half implements [fmt.Formatter] and formats as Go formats a float of the
// same value ("%.2f", "%e", "%x", ...); %v and Println print the shortest
// decimal that reads back to the same Half. [Half.String] spells infinities
// and NaNs OpenCL's way ("inf", "-nan") where fmt prints "+Inf" and "NaN".
type Half uint16

// Notable values.
const (
	PosInf  Half = 0x7c00
	NegInf  Half = 0xfc00
	QNaN    Half = 0x7e00
	MaxHalf Half = 0x7bff // 65504
	MinNorm Half = 0x0400 // 2^-14
	MinSub  Half = 0x0001 // 2^-24
)

// FromBits returns the Half with bit pattern b.
func FromBits(b uint16) Half { return Half(b) }

// Bits returns the bit pattern of h.
func (h Half) Bits() uint16 { return uint16(h) }

// IsNaN reports whether h is a NaN.
func (h Half) IsNaN() bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

// IsInf reports whether h is an infinity.
func (h Half) IsInf() bool { return h&0x7fff == 0x7c00 }

// IsFinite reports whether h is neither an infinity nor a NaN.
func (h Half) IsFinite() bool { return h&0x7c00 != 0x7c00 }

// Signbit reports whether the sign bit of h is set.
func (h Half) Signbit() bool { return h&0x8000 != 0 }

// Float64 returns h as a float64, exactly. A NaN keeps its sign and payload
// (moved to the high payload bits) and gets the quiet bit, as IEEE hardware does.
func (h Half) Float64() float64 {
	sign := uint64(h&0x8000) << 48
	exp := int(h>>10) & 0x1f
	mant := uint64(h & 0x3ff)
	switch {
	case exp == 0x1f:
		if mant != 0 {
			mant |= 0x200 // quiet
		}
		return math.Float64frombits(sign | 0x7ff0000000000000 | mant<<42)
	case exp == 0:
		// Subnormal or zero: mant * 2^-24 is exact in binary64.
		v := float64(mant) * 0x1p-24
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float64frombits(sign | uint64(exp-15+1023)<<52 | mant<<42)
}

// Float32 returns h as a float32, exactly (a NaN as in Float64).
func (h Half) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := int(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		if mant != 0 {
			mant |= 0x200 // quiet
		}
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		v := float32(mant) * 0x1p-24
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | uint32(exp-15+127)<<23 | mant<<13)
}

// String formats h in the shortest decimal form that reads back to the same
// value: "0.1", "-0", "inf", "-inf", "nan", "-nan". Of two shortest forms it
// gives the one nearer h. Unlike Printf's %v it spells infinities and NaNs
// OpenCL's way, keeping the NaN's sign.
func (h Half) String() string {
	if h.IsNaN() {
		if h.Signbit() {
			return "-nan"
		}
		return "nan"
	}
	if h.IsInf() {
		if h.Signbit() {
			return "-inf"
		}
		return "inf"
	}
	// The float64 nearest a decimal of at most 5 digits has those digits
	// as its shortest form (65504 prints as 65500, as NumPy prints it).
	return string(numfmt.AppendShortest(nil, h.shortest(), 64))
}

// shortest returns, for a finite h, the float64 nearest the shortest decimal
// that rounds to nearest even back to h; of two such decimals, the one nearer
// h (the even one on a tie).
func (h Half) shortest() float64 {
	return floatfmt.Shortest(h.Float64(), h&0x3ff == 0, func(v float64) bool { return FromFloat64(v, round.RTE) == h })
}
