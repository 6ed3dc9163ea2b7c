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
	switch m {
	case round.RTZ:
		return FromFloat64RTZ(x)
	case round.RTP:
		return FromFloat64RTP(x)
	case round.RTN:
		return FromFloat64RTN(x)
	}
	return FromFloat64RTE(x)
}

// FromFloat64RTE is FromFloat64 in mode RTE.
func FromFloat64RTE(x float64) Half {
	b := math.Float64bits(x)
	if b&^(1<<63) >= 0x7ff0000000000000 {
		return inf64(b)
	}
	_, _, h := nearest(b)
	return Half(b>>48)&0x8000 | h
}

// FromFloat64RTZ is FromFloat64 in mode RTZ.
func FromFloat64RTZ(x float64) Half {
	b := math.Float64bits(x)
	if b&^(1<<63) >= 0x7ff0000000000000 {
		return inf64(b)
	}
	a, r, h := nearest(b)
	return Half(b>>48)&0x8000 | h - b2h(r > a)
}

// FromFloat64RTP is FromFloat64 in mode RTP.
func FromFloat64RTP(x float64) Half {
	b := math.Float64bits(x)
	if b&^(1<<63) >= 0x7ff0000000000000 {
		return inf64(b)
	}
	a, r, h := nearest(b)
	if b>>63 == 0 {
		return h + b2h(r < a)
	}
	return 0x8000 | h - b2h(r > a)
}

// FromFloat64RTN is FromFloat64 in mode RTN.
func FromFloat64RTN(x float64) Half {
	b := math.Float64bits(x)
	if b&^(1<<63) >= 0x7ff0000000000000 {
		return inf64(b)
	}
	a, r, h := nearest(b)
	if b>>63 == 0 {
		return h - b2h(r > a)
	}
	return 0x8000 | h + b2h(r < a)
}

// nearest rounds the magnitude of the finite binary64 pattern b to binary16
// with ties to even. It returns the magnitude a it rounded (clamped to 65520:
// beyond it every mode gives the same result as at 65520, infinity or the
// largest finite value), the rounded value r (65536 for infinity) and r's bits.
func nearest(b uint64) (a, r float64, h Half) {
	ab := min(b&^(1<<63), 0x40effe0000000000) // 65520
	a = math.Float64frombits(ab)
	e := int(ab >> 52)
	qe := max(e-1023-10, -24) // exponent of the spacing of binary16 values at a
	c := math.Float64frombits(uint64(qe+52+1023)<<52 | 1<<51)
	r = (a + c) - c
	return a, r, Half(math.Float64bits(r*0x1p-1008) >> 42)
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
