package mx

import (
	"math"
	"math/bits"
)

// E8M0 codes.
const (
	e8m0Bias = 127
	e8m0NaN  = 0xFF
	xMin     = -127 // the smallest shared exponent E8M0 holds (code 0x00)
	xMax     = 127  // the largest (code 0xFE)
)

// Shared is the shared exponent of an MX block, as SharedExp derives it.
type Shared struct {
	// X is the exponent the rule gives before clamping; 0 when amax is
	// zero, NaN or infinite.
	X int
	// Code is the E8M0 scale: clamp(X, -127, 127) + 127; 0xFF (NaN) for a
	// NaN or infinite amax, 0x00 (2^-127) for a zero amax.
	Code uint8
	// Clamped reports that X lay outside [-127, 127].
	Clamped bool
}

// SharedExp returns the shared exponent that rule gives a block of the MX
// format f whose largest magnitude is amax (its sign is ignored), and its
// E8M0 code. amax is taken exactly: float64 holds every value of every
// source type. f must be one of the MX formats (for NVFP4, which has no
// shared exponent, it returns the NaN code); SharedExp panics with an *Error
// wrapping ErrUnknownFormat for a *Format that is not one of the package's,
// as Quantize refuses it, having no error to return.
//
// Beyond E8M0's range X is clamped: a float64 amax of 2^1000 gives X = 127
// and its elements clamp to ±max; a tiny amax gives X = -127 (2^-127, the
// smallest scale) and its elements may flush to zero. From float32 sources
// only the bottom clamp can occur (every rule gives X <= 126 for amax <=
// MaxFloat32). A zero amax gives the code 0x00: every element is then zero
// whatever the scale, and it is what torchao's to_mx writes under every
// rule (the exponent of 0 is taken as -127 and clamped).
func SharedExp(f *Format, rule ScaleRule, amax float64) Shared {
	if err := checkFormat("shared exponent", f); err != nil {
		panic(err)
	}
	if f.TensorScale {
		return Shared{Code: e8m0NaN}
	}
	a := math.Float64bits(amax) &^ (1 << 63)
	switch {
	case a >= 0x7ff0000000000000:
		return Shared{Code: e8m0NaN}
	case a == 0:
		return Shared{Code: 0}
	}
	x := sharedX(elemInfos[f.id], rule, a)
	c, clamped := clampX(x)
	return Shared{X: x, Code: uint8(c + e8m0Bias), Clamped: clamped}
}

// sharedX returns the unclamped shared exponent of the rule for the
// finite, non-zero binary64 magnitude pattern a: floor(log2(a)) - emax,
// plus one when the rule rounds up. An unknown rule is Floor.
func sharedX(e *elemInfo, rule ScaleRule, a uint64) int {
	exp := int(a >> 52)
	frac := a & (1<<52 - 1)
	if exp == 0 { // subnormal: normalize so that the leading one is bit 52
		sh := bits.LeadingZeros64(frac) - 11
		frac = frac << uint(sh) & (1<<52 - 1)
		exp = 1 - sh
	}
	x := exp - 1023 - e.emax
	switch rule {
	case RCEIL:
		// amax / max <= 2^k  <=>  amax <= max * 2^k: with both significands in
		// [1, 2), amax exceeds max * 2^floor exactly when its fraction exceeds
		// max's.
		if frac > e.maxFrac52 {
			x++
		}
	case Ceil:
		if frac != 0 {
			x++
		}
	case Even:
		if frac >= e.evenFrac52 {
			x++
		}
	}
	return x
}

// clampX clamps x to E8M0's exponent range.
func clampX(x int) (int, bool) {
	switch {
	case x < xMin:
		return xMin, true
	case x > xMax:
		return xMax, true
	}
	return x, false
}
