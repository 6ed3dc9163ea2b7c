package half

import (
	"math"

	"github.com/clconv/clconv/round"
)

// FromFloat64 rounds x to binary16 in mode m.
//
// The nearest value comes from binary64 hardware arithmetic: adding and then
// subtracting 1.5*2^52*q, where q is the spacing of binary16 values at x's
// magnitude, rounds |x| to a multiple of q with ties to even. Scaling that
// exact result by 2^-1008 moves binary16's exponent range onto the bottom of
// binary64's, so its bit pattern shifted right by 42 is the binary16 pattern,
// subnormals and the overflow to infinity included. Directed modes then step
// the pattern by one unit when the nearest value lies on the wrong side of x.
func FromFloat64(x float64, m round.Mode) Half {
	b := math.Float64bits(x)
	ab := b &^ (1 << 63)
	if ab >= 0x7ff0000000000000 {
		return inf64(b)
	}
	// Beyond 65520 every mode gives the same result as at 65520 (infinity or
	// the largest finite value), so clamping keeps the arithmetic in range.
	ab = min(ab, 0x40effe0000000000) // 65520
	a := math.Float64frombits(ab)
	e := int(ab >> 52)
	qe := min(max(e-1023-10, -24), 15-10) // exponent of the spacing of binary16 values at a
	c := math.Float64frombits(uint64(qe+52+1023)<<52 | 1<<51)
	r := (a + c) - c
	h := Half(math.Float64bits(r*0x1p-1008) >> 42)
	sign := Half(b>>48) & 0x8000
	switch m {
	case round.RTZ:
		h -= b2h(r > a)
	case round.RTP:
		if sign == 0 {
			h += b2h(r < a)
		} else {
			h -= b2h(r > a)
		}
	case round.RTN:
		if sign == 0 {
			h -= b2h(r > a)
		} else {
			h += b2h(r < a)
		}
	}
	return sign | h
}

func b2h(b bool) Half {
	var h Half
	if b {
		h = 1
	}
	return h
}

// inf64 converts a binary64 infinity or NaN pattern.
func inf64(b uint64) Half {
	sign := Half(b>>48) & 0x8000
	if b&0xfffffffffffff == 0 {
		return sign | PosInf
	}
	return sign | 0x7e00 | Half(b>>42)&0x1ff
}

// FromFloat32 rounds x to binary16 in mode m.
func FromFloat32(x float32, m round.Mode) Half { return FromFloat64(float64(x), m) }
