package mx

import (
	"math"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// The element formats, as indexes into elemInfos.
const (
	idE4M3 = iota
	idE5M2
	idE2M3
	idE3M2
	idE2M1
	numElems
)

// elemInfo is what the quantizer needs of an element format, derived from
// its row of minifloat's table.
type elemInfo struct {
	f       *minifloat.Format
	m       uint   // mantissa bits
	signBit uint32 // the sign bit's mask in a code
	maxCode uint32 // MAX's code
	over    uint32 // the code a non-saturating overflow gives (infinity, NaN; MAX for FP4/FP6)
	emax    int    // exponent of MAX's leading bit
	emin    int    // exponent of the smallest normal value
	qmin    int    // exponent of the smallest subnormal (the smallest quantum)

	// The float32 rounding of fromFloat32: limit is the binary32 pattern
	// of the first grid point above MAX (every larger magnitude rounds as
	// it does); eminBits the smallest normal's exponent field, shifted
	// into place; k0 and k1 the constants that turn the sum of a
	// magnitude and 1.5*2^23 quanta into a code.
	limit    uint32
	eminBits uint32
	k0, k1   uint32

	// The scale rules' thresholds on amax's 52-bit binary64 fraction:
	// RCEIL adds one to the floor exponent when the fraction exceeds
	// MAX's, Even when it reaches that of 2 - 2^-(m+1).
	maxFrac52  uint64
	evenFrac52 uint64

	// xsub: from this shared exponent up, every subnormal float32 input
	// scales to a magnitude below half the smallest subnormal element.
	xsub int

	// Decoding: every code's value as binary64 and binary32 patterns
	// (exact), and whether the value is finite and non-zero (the
	// patterns whose exponent a scale moves).
	dec64 [256]uint64
	dec32 [256]uint32
	live  [256]bool
	// f32lo and f32hi bound the shared exponents for which every finite
	// non-zero element times 2^X is a normal float32.
	f32lo, f32hi int

	// vals[c] is code c's magnitude for c = 0 .. maxCode, and
	// vals[maxCode+1] the first grid point above MAX, for the exact
	// quotient rounding of NVFP4 (roundQuot).
	vals []float64
}

// elemInfos holds the element formats by id (a variable initializer, so
// that it is ready before any init function reads it).
var elemInfos = func() (t [numElems]*elemInfo) {
	for id, f := range [numElems]*minifloat.Format{minifloat.E4M3, minifloat.E5M2, minifloat.E2M3, minifloat.E3M2, minifloat.E2M1} {
		t[id] = newElemInfo(f)
	}
	return t
}()

func newElemInfo(f *minifloat.Format) *elemInfo {
	e := &elemInfo{f: f, m: uint(f.MantBits)}
	e.signBit = uint32(f.SignBit())
	e.maxCode = uint32(f.MaxBits())
	e.over = e.maxCode
	if b, ok := f.InfBits(); ok {
		e.over = uint32(b)
	} else if b, ok := f.NaNBits(); ok {
		e.over = uint32(b)
	}
	e.emax, e.emin = f.Emax(), f.Emin()
	e.qmin = e.emin - f.MantBits
	mx := f.Decode(f.MaxBits()) // Sig * 2^Exp, Sig with MantBits+1 bits
	e.limit = math.Float32bits(float32(math.Ldexp(float64(mx.Sig+1), mx.Exp)))
	e.eminBits = uint32(e.emin+127) << 23
	e.k0 = (23-uint32(e.m))<<23 | 1<<22
	e.k1 = e.k0 + uint32(e.emin+127)<<e.m
	e.maxFrac52 = (mx.Sig << (52 - e.m)) & (1<<52 - 1)
	e.evenFrac52 = 1<<52 - 1<<(52-e.m-1)
	e.xsub = -125 - e.qmin
	for c := range 256 {
		e.dec64[c] = minifloat.ToFloat64Bits(f, uint64(c))
		e.dec32[c] = minifloat.ToFloat32Bits(f, uint64(c))
		v := f.Decode(uint64(c))
		e.live[c] = v.Class == minifloat.ClassFinite // Decode ignores bits above the width
	}
	// Finite non-zero magnitudes lie in [2^qmin, limit); times 2^X they stay
	// normal float32 values for qmin+X >= -126 and limit*2^X <= 2^128.
	e.f32lo = -126 - e.qmin
	e.f32hi = 128 - (e.emax + 1)
	for c := uint32(0); c <= e.maxCode; c++ {
		e.vals = append(e.vals, math.Float64frombits(e.dec64[c]))
	}
	e.vals = append(e.vals, float64(math.Float32frombits(e.limit)))
	return e
}

// fromFloat32 rounds the magnitude a, a binary32 pattern that is zero or a
// normal value (a magnitude below 2^-126 is passed as 0x00800000: every
// element format's rounding boundaries lie far above it, so all such
// magnitudes round alike), to the element format in mode m for a value of
// sign neg. It returns the magnitude's code, which is maxCode+1 when the
// rounded value lies beyond MAX (the caller clamps it).
//
// As package fp8 does: adding c = 1.5*2^23*q, where q is the spacing of the
// element values at a's magnitude, rounds a to a multiple of q in one
// hardware rounding (to nearest even); the sum's pattern minus c's, plus
// the binade's first code, is the code. The directed modes step it by one
// when the nearest value lies on the wrong side of a. No binary32 subnormal
// is made or read.
func (e *elemInfo) fromFloat32(a uint32, neg bool, m round.Mode) uint32 {
	a = min(a, e.limit)
	ex := max(a&0x7f800000, e.eminBits)
	fa := math.Float32frombits(a)
	fc := math.Float32frombits(ex + e.k0)
	r := fa + fc
	code := math.Float32bits(r) - (ex + e.k1) + ex>>(23-e.m)
	switch m {
	case round.RTZ:
		code -= b2u(r-fc > fa)
	case round.RTP:
		if neg {
			code -= b2u(r-fc > fa)
		} else {
			code += b2u(r-fc < fa)
		}
	case round.RTN:
		if neg {
			code += b2u(r-fc < fa)
		} else {
			code -= b2u(r-fc > fa)
		}
	}
	return code
}

// finish applies the sign and the overflow rule to a magnitude code from
// fromFloat32 and reports whether it overflowed.
func (e *elemInfo) finish(code uint32, neg bool, m round.Mode, sat bool) (uint8, bool) {
	over := code > e.maxCode
	if over {
		if sat || towardZero(m, neg) {
			code = e.maxCode
		} else {
			code = e.over
		}
	}
	if neg {
		code |= e.signBit
	}
	return uint8(code), over
}

// towardZero reports whether mode m rounds a value of sign neg toward zero
// (IEEE 754 then gives ±MAX on overflow).
func towardZero(m round.Mode, neg bool) bool {
	switch m {
	case round.RTZ:
		return true
	case round.RTP:
		return neg
	case round.RTN:
		return !neg
	}
	return false
}

func b2u(b bool) uint32 {
	var u uint32
	if b {
		u = 1
	}
	return u
}

// normMode returns m, or RTE for a mode out of range (as everywhere in
// clconv).
func normMode(m round.Mode) round.Mode {
	if m > round.RTN {
		return round.RTE
	}
	return m
}
