// Package ref is clconv's integer-only reference for OpenCL C's explicit
// scalar conversions (convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn]).
//
// It decodes every source into an exact value (sign, integer significand,
// binary exponent) and rounds it with integer shifts and guard/sticky logic
// only: no floating-point arithmetic or conversion, no math/big. That makes it
// independent of the fast path (hardware round-to-nearest plus one-ulp
// corrections) and cheap enough to push all 2^32 inputs of a 32-bit source
// through. Its results are proven against the math/big oracle in
// internal/bigref by this package's tests.
package ref

import (
	"math/bits"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// class says what a decoded source is.
type class uint8

const (
	finite class = iota // neg, mant, exp hold the exact value (mant may be 0)
	inf
	nan
)

// value is an exact decoded source: (-1)^neg * mant * 2^exp when finite.
// For a NaN, mant holds the raw mantissa field (the payload, quiet bit included).
type value struct {
	cls  class
	neg  bool
	mant uint64
	exp  int
}

// Convert converts one scalar of kind src, given as its bit pattern
// zero-extended to 64 bits, to kind dst in rounding mode m, saturating to an
// integer destination's range when sat is set (sat is ignored for floating
// destinations, where OpenCL C forbids it). It returns dst's bit pattern
// zero-extended to 64 bits.
//
// implDefined reports a float->integer conversion without sat whose rounded
// value is NaN or out of range: OpenCL C leaves that result
// implementation-defined, and clconv returns what the saturating conversion
// would. Bits above src's width are ignored.
func Convert(dst, src cltype.Kind, bits uint64, m round.Mode, sat bool) (out uint64, implDefined bool) {
	bits &= src.Mask()
	// A conversion to the same type is a no-op; for floats this keeps
	// signalling NaNs and payloads exactly (as_type semantics).
	if dst == src {
		return bits, false
	}
	if src.IsInteger() && dst.IsInteger() {
		return intToInt(dst, src, bits, sat), false
	}
	v := decode(src, bits)
	if dst.IsFloat() {
		return toFloat(dst.Format(), v, src, m), false
	}
	return floatToInt(dst, v, m, sat)
}

// decode turns a source bit pattern into its exact value.
func decode(src cltype.Kind, b uint64) value {
	if src.IsInteger() {
		w := uint(src.Bits())
		if src.IsSigned() && b>>(w-1) != 0 {
			// Two's complement magnitude; for the most negative value of a
			// 64-bit type this is 1<<63, which still fits a uint64.
			return value{neg: true, mant: -(b | ^src.Mask())}
		}
		return value{mant: b}
	}
	f := src.Format()
	fracBits := uint(f.Prec - 1)
	frac := b & (1<<fracBits - 1)
	e := int(b>>fracBits) & (1<<f.ExpBits() - 1)
	neg := b>>(src.Bits()-1) != 0
	switch {
	case e == 1<<f.ExpBits()-1 && frac == 0:
		return value{cls: inf, neg: neg}
	case e == 1<<f.ExpBits()-1:
		return value{cls: nan, neg: neg, mant: frac}
	case e == 0:
		// Subnormals (and zeros) share the exponent of the smallest normal.
		return value{neg: neg, mant: frac, exp: f.Emin() - int(fracBits)}
	}
	return value{neg: neg, mant: frac | 1<<fracBits, exp: e - f.Bias - int(fracBits)}
}

// intToInt implements integer->integer conversion, where the rounding mode
// has no effect.
func intToInt(dst, src cltype.Kind, b uint64, sat bool) uint64 {
	v := decode(src, b)
	if !sat {
		// C99 6.3.1.3 as every implementation does it: keep the low bits of
		// the (sign-extended) two's complement value.
		x := v.mant
		if v.neg {
			x = -x
		}
		return x & dst.Mask()
	}
	return clampInt(dst, v.neg, v.mant, false)
}

// clampInt returns dst's bits for the integer (-1)^neg * mag, clamped to
// [MIN, MAX]; huge marks a magnitude too large for a uint64.
func clampInt(dst cltype.Kind, neg bool, mag uint64, huge bool) uint64 {
	if neg {
		// The most negative value has magnitude 1<<(w-1); 0 for unsigned types.
		lim := uint64(-dst.MinInt())
		if huge || mag > lim {
			mag = lim
		}
		return -mag & dst.Mask()
	}
	if huge || mag > dst.MaxUint() {
		return dst.MaxUint()
	}
	return mag
}

// inRange reports whether (-1)^neg * mag is a value of integer kind dst.
func inRange(dst cltype.Kind, neg bool, mag uint64, huge bool) bool {
	if huge {
		return false
	}
	if neg {
		return mag <= uint64(-dst.MinInt())
	}
	return mag <= dst.MaxUint()
}

// dir is how a mode treats a magnitude once the sign is known.
type dir uint8

const (
	nearestEven dir = iota
	towardZero
	awayFromZero
)

func magDir(m round.Mode, neg bool) dir {
	switch m {
	case round.RTZ:
		return towardZero
	case round.RTP:
		if neg {
			return towardZero
		}
		return awayFromZero
	case round.RTN:
		if neg {
			return awayFromZero
		}
		return towardZero
	}
	return nearestEven
}

// shiftRound returns mant / 2^sh rounded to an integer in direction d. sh >= 1
// may exceed 63: the discarded bits are the guard (the top one) and sticky
// (the rest) of the rounding decision, kept here as rem against halfway.
func shiftRound(mant uint64, sh uint, d dir) uint64 {
	var q, rem, halfway uint64
	var halfAbove bool // halfway does not fit: the remainder is surely below it
	switch {
	case sh < 64:
		q, rem, halfway = mant>>sh, mant&(1<<sh-1), 1<<(sh-1)
	case sh == 64:
		q, rem, halfway = 0, mant, 1<<63
	default:
		q, rem, halfAbove = 0, mant, true
	}
	if rem == 0 {
		return q
	}
	switch d {
	case awayFromZero:
		return q + 1
	case nearestEven:
		if halfAbove || rem < halfway {
			return q
		}
		if rem > halfway || q&1 != 0 {
			return q + 1
		}
	}
	return q
}

// floatToInt rounds a decoded floating value to an integer in mode m and
// then clamps (sat) or flags an out-of-range result (no sat).
func floatToInt(dst cltype.Kind, v value, m round.Mode, sat bool) (uint64, bool) {
	var out uint64
	ok := true
	switch v.cls {
	case nan:
		// _sat maps NaN to 0; without _sat the result is implementation-defined.
		out, ok = 0, false
	case inf:
		out, ok = clampInt(dst, v.neg, 0, true), false
	default:
		var mag uint64
		huge := false
		switch {
		case v.mant == 0:
		case v.exp >= 0:
			// Exact integer; it overflows 64 bits when mant's top bit lands
			// beyond bit 63.
			if v.exp >= 64 || bits.Len64(v.mant)+v.exp > 64 {
				huge = true
			} else {
				mag = v.mant << uint(v.exp)
			}
		default:
			mag = shiftRound(v.mant, uint(-v.exp), magDir(m, v.neg))
		}
		out = clampInt(dst, v.neg, mag, huge)
		ok = inRange(dst, v.neg, mag, huge)
	}
	// clconv's choice for the implementation-defined case: the _sat result.
	return out, !ok && !sat
}

// toFloat rounds a decoded value to binary format f in mode m. It is the one
// routine behind int->float, float->narrower float and float->wider float.
func toFloat(f cltype.Format, v value, src cltype.Kind, m round.Mode) uint64 {
	fracBits := uint(f.Prec - 1)
	expAll := uint64(1)<<f.ExpBits() - 1
	var sign uint64
	if v.neg {
		sign = 1 << (fracBits + uint(f.ExpBits()))
	}
	infBits := sign | expAll<<fracBits
	switch v.cls {
	case inf:
		return infBits
	case nan:
		// Keep the payload bits that fit, aligned at the top of the mantissa
		// field, and quiet the NaN, as IEEE hardware does.
		srcFrac := uint(src.Format().Prec - 1)
		pay := v.mant
		if srcFrac > fracBits {
			pay >>= srcFrac - fracBits
		} else {
			pay <<= fracBits - srcFrac
		}
		return infBits | pay | 1<<(fracBits-1)
	}
	if v.mant == 0 {
		// Integer 0 decodes with neg == false, so it becomes +0 in every mode;
		// a floating zero keeps its sign.
		return sign
	}
	d := magDir(m, v.neg)
	n := bits.Len64(v.mant)
	top := v.exp + n - 1 // exponent of the leading bit
	if top > f.Emax {
		return overflow(f, sign, d)
	}
	// The quantum of the result: one unit in the last place of a normal with
	// the same leading exponent, or the fixed subnormal quantum below Emin.
	q := max(top, f.Emin()) - int(fracBits)
	var sig uint64
	if sh := q - v.exp; sh <= 0 {
		sig = v.mant << uint(-sh) // exact: sig < 2^Prec
	} else {
		sig = shiftRound(v.mant, uint(sh), d)
	}
	if sig == 1<<f.Prec {
		// Rounding carried into a new binade.
		sig >>= 1
		q++
	}
	if sig>>fracBits == 0 {
		// Subnormal or zero (an underflow to zero keeps the source's sign);
		// a subnormal that rounded up to 2^fracBits lands in the normal branch.
		return sign | sig
	}
	e := q + int(fracBits)
	if e > f.Emax {
		return overflow(f, sign, d)
	}
	return sign | uint64(e+f.Bias)<<fracBits | sig&(1<<fracBits-1)
}

// overflow is IEEE 754's overflow result: to nearest and away from zero give
// infinity, toward zero gives the largest finite magnitude.
func overflow(f cltype.Format, sign uint64, d dir) uint64 {
	fracBits := uint(f.Prec - 1)
	infBits := sign | (uint64(1)<<f.ExpBits()-1)<<fracBits
	if d == towardZero {
		return infBits - 1
	}
	return infBits
}
