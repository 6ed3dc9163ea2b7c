package half

import (
	"math"

	"github.com/clconv/clconv/round"
)

// The binary32 entry points repeat FromFloat64's method in binary32
// arithmetic instead of widening first: widening (CVTSS2SD) writes only part
// of its register, which chains loop iterations together and makes slice
// conversion four times slower.

// FromFloat32 rounds x to binary16 in mode m.
func FromFloat32(x float32, m round.Mode) Half {
	switch m {
	case round.RTZ:
		return FromFloat32RTZ(x)
	case round.RTP:
		return FromFloat32RTP(x)
	case round.RTN:
		return FromFloat32RTN(x)
	}
	return FromFloat32RTE(x)
}

// FromFloat32RTE is FromFloat32 in mode RTE.
func FromFloat32RTE(x float32) Half {
	b := math.Float32bits(x)
	if b&^(1<<31) >= 0x7f800000 {
		return inf32(b)
	}
	_, _, h := nearest32(b)
	return Half(b>>16)&0x8000 | h
}

// FromFloat32RTZ is FromFloat32 in mode RTZ.
func FromFloat32RTZ(x float32) Half {
	b := math.Float32bits(x)
	if b&^(1<<31) >= 0x7f800000 {
		return inf32(b)
	}
	a, r, h := nearest32(b)
	return Half(b>>16)&0x8000 | h - b2h(r > a)
}

// FromFloat32RTP is FromFloat32 in mode RTP.
func FromFloat32RTP(x float32) Half {
	b := math.Float32bits(x)
	if b&^(1<<31) >= 0x7f800000 {
		return inf32(b)
	}
	a, r, h := nearest32(b)
	if b>>31 == 0 {
		return h + b2h(r < a)
	}
	return 0x8000 | h - b2h(r > a)
}

// FromFloat32RTN is FromFloat32 in mode RTN.
func FromFloat32RTN(x float32) Half {
	b := math.Float32bits(x)
	if b&^(1<<31) >= 0x7f800000 {
		return inf32(b)
	}
	a, r, h := nearest32(b)
	if b>>31 == 0 {
		return h - b2h(r > a)
	}
	return 0x8000 | h + b2h(r < a)
}

// nearest32 is nearest for a finite binary32 pattern: the magic constant is
// 1.5*2^23*q, and scaling by 2^-112 moves binary16's exponent range onto the
// bottom of binary32's.
func nearest32(b uint32) (a, r float32, h Half) {
	ab := min(b&^(1<<31), 0x477ff000) // 65520
	a = math.Float32frombits(ab)
	e := int(ab >> 23)
	qe := max(e-127-10, -24)
	c := math.Float32frombits(uint32(qe+23+127)<<23 | 1<<22)
	r = (a + c) - c
	return a, r, Half(math.Float32bits(r*0x1p-112) >> 13)
}

// inf32 converts a binary32 infinity or NaN pattern.
func inf32(b uint32) Half {
	sign := Half(b>>16) & 0x8000
	if b&0x7fffff == 0 {
		return sign | PosInf
	}
	return sign | 0x7e00 | Half(b>>13)&0x1ff
}
