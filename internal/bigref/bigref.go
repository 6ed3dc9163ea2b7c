// Package bigref is an exact-arithmetic oracle for OpenCL C's explicit scalar
// conversions, built on math/big.
//
// It is written independently of internal/ref (no shared helpers) and the two
// are tested against each other. Every source becomes an exact big.Rat; a
// conversion to a floating type finds the two representable neighbours of
// that rational on the destination's grid and picks one by the rounding mode,
// deciding ties by an exact comparison with their midpoint; a conversion to
// an integer type does the same on the integer grid. Floating-point values
// are never computed with: bit patterns are taken apart and assembled with
// integer operations.
//
// It is slow (microseconds per call, with allocations): use it to check other
// implementations, not to convert data.
package bigref

import (
	"math/big"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// source is a decoded source value.
type source struct {
	x       *big.Rat // the exact value of a finite source
	neg     bool     // the sign bit; the only way to tell -0 from +0
	inf     bool
	nan     bool
	payload uint64 // a NaN's whole mantissa field
}

// layout is an IEEE binary format seen as bit fields.
type layout struct {
	prec     int // significand bits including the hidden one
	fracBits int // prec - 1: the stored mantissa field
	expBits  int
	bias     int
	emin     int // exponent of the smallest normal
	emax     int // exponent of the largest finite
}

func layoutOf(k cltype.Kind) layout {
	f := k.Format()
	return layout{
		prec:     f.Prec,
		fracBits: f.Prec - 1,
		expBits:  k.Bits() - f.Prec, // total width = sign + exponent + fraction
		bias:     f.Bias,
		emin:     f.Emin(),
		emax:     f.Emax,
	}
}

// Convert converts one scalar of kind src, given as its bit pattern
// zero-extended to 64 bits, to kind dst in rounding mode m, saturating to an
// integer destination's range when sat is set (ignored for floating
// destinations). It returns dst's bit pattern zero-extended to 64 bits, and
// whether the result is implementation-defined in OpenCL C (a float->integer
// conversion without sat whose rounded value is NaN or out of range; the
// bits are then the saturated result, clconv's choice).
//
// The semantics are those of internal/ref.Convert, computed another way.
func Convert(dst, src cltype.Kind, bits uint64, m round.Mode, sat bool) (uint64, bool) {
	bits &= mask(src.Bits())
	if dst == src {
		// A no-op: bits, NaN payloads and signalling NaNs included, unchanged.
		return bits, false
	}
	s := decode(src, bits)
	switch {
	case dst.IsFloat():
		return toFloat(dst, src, s, m), false
	case src.IsInteger():
		return intToInt(dst, s.x.Num(), sat), false
	}
	return floatToInt(dst, s, m, sat)
}

func mask(w int) uint64 {
	if w == 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// pow2 returns 2^k as an exact rational for any integer k.
func pow2(k int) *big.Rat {
	p := new(big.Int).Lsh(big.NewInt(1), uint(abs(k)))
	if k < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

func abs(k int) int {
	if k < 0 {
		return -k
	}
	return k
}

func decode(k cltype.Kind, b uint64) source {
	w := k.Bits()
	if k.IsInteger() {
		if k.IsSigned() {
			// Sign-extend the two's complement pattern.
			v := int64(b<<(64-w)) >> (64 - w)
			return source{x: new(big.Rat).SetInt64(v), neg: v < 0}
		}
		return source{x: new(big.Rat).SetUint64(b)}
	}
	l := layoutOf(k)
	neg := b>>(w-1)&1 == 1
	field := b & mask(l.fracBits)
	biased := int(b>>l.fracBits) & int(mask(l.expBits))
	if biased == int(mask(l.expBits)) {
		if field == 0 {
			return source{neg: neg, inf: true}
		}
		return source{neg: neg, nan: true, payload: field}
	}
	// IEEE 754 3.4: a normal is 1.field * 2^(biased-bias); a subnormal (biased
	// 0) is 0.field * 2^emin.
	frac := new(big.Rat).SetFrac(new(big.Int).SetUint64(field), new(big.Int).Lsh(big.NewInt(1), uint(l.fracBits)))
	e := biased - l.bias
	if biased == 0 {
		e = l.emin
	} else {
		frac.Add(frac, big.NewRat(1, 1))
	}
	x := frac.Mul(frac, pow2(e))
	if neg {
		x.Neg(x)
	}
	return source{x: x, neg: neg}
}

// intToInt converts an integer value to an integer type.
func intToInt(dst cltype.Kind, v *big.Int, sat bool) uint64 {
	if sat {
		return clamp(dst, v)
	}
	// Modular reduction to [0, 2^w) is what keeping the low bits of the two's
	// complement value means; big.Int.Mod is Euclidean, hence non-negative.
	r := new(big.Int).Mod(v, new(big.Int).Lsh(big.NewInt(1), uint(dst.Bits())))
	return r.Uint64()
}

// bounds returns the least and greatest values of integer type dst.
func bounds(dst cltype.Kind) (lo, hi *big.Int) {
	w := uint(dst.Bits())
	one := big.NewInt(1)
	if dst.IsSigned() {
		lo = new(big.Int).Neg(new(big.Int).Lsh(one, w-1))
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, w-1), one)
	} else {
		lo = new(big.Int)
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, w), one)
	}
	return lo, hi
}

// clamp returns dst's bit pattern of v clamped to dst's range.
func clamp(dst cltype.Kind, v *big.Int) uint64 {
	lo, hi := bounds(dst)
	c := v
	if v.Cmp(lo) < 0 {
		c = lo
	} else if v.Cmp(hi) > 0 {
		c = hi
	}
	if c.Sign() < 0 {
		return uint64(c.Int64()) & mask(dst.Bits())
	}
	return c.Uint64()
}

// neighbours returns the integers down <= r <= up with up-down <= 1 (equal
// when r is an integer).
func neighbours(r *big.Rat) (down, up *big.Int) {
	down, rem := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	// r.Denom() > 0, so Euclidean division is floor division.
	up = new(big.Int).Set(down)
	if rem.Sign() != 0 {
		up.Add(up, big.NewInt(1))
	}
	return down, up
}

// pick chooses between the grid points down*unit <= x <= up*unit by mode m.
// Ties under rte go to the even grid point, which for a floating destination
// is the one with the even significand.
func pick(x *big.Rat, down, up *big.Int, unit *big.Rat, m round.Mode) *big.Int {
	if down.Cmp(up) == 0 {
		return down
	}
	switch m {
	case round.RTP:
		return up
	case round.RTN:
		return down
	case round.RTZ:
		if x.Sign() > 0 {
			return down
		}
		return up
	}
	mid := new(big.Rat).SetInt(new(big.Int).Add(down, up))
	mid.Mul(mid, unit)
	mid.Mul(mid, big.NewRat(1, 2))
	switch x.Cmp(mid) {
	case -1:
		return down
	case 1:
		return up
	}
	if down.Bit(0) == 0 {
		return down
	}
	return up
}

// floatToInt rounds a floating source to an integer in mode m, then clamps.
func floatToInt(dst cltype.Kind, s source, m round.Mode, sat bool) (uint64, bool) {
	lo, hi := bounds(dst)
	var v *big.Int
	switch {
	case s.nan:
		// _sat: NaN -> 0. Without _sat, implementation-defined: the same.
		return 0, !sat
	case s.inf && s.neg:
		v = new(big.Int).Sub(lo, big.NewInt(1))
	case s.inf:
		v = new(big.Int).Add(hi, big.NewInt(1))
	default:
		down, up := neighbours(s.x)
		v = pick(s.x, down, up, big.NewRat(1, 1), m)
	}
	outside := v.Cmp(lo) < 0 || v.Cmp(hi) > 0
	return clamp(dst, v), outside && !sat
}

// toFloat converts any source to floating type dst in mode m.
func toFloat(dst, src cltype.Kind, s source, m round.Mode) uint64 {
	l := layoutOf(dst)
	var sign uint64
	if s.neg {
		sign = 1 << (dst.Bits() - 1)
	}
	expOnes := mask(l.expBits) << l.fracBits
	switch {
	case s.inf:
		return sign | expOnes
	case s.nan:
		return sign | expOnes | nanPayload(l, layoutOf(src), s.payload)
	case s.x.Sign() == 0:
		// +0 from integer 0 (neg is false), the source's own sign otherwise.
		return sign
	}
	x := s.x
	// e = floor(log2 |x|): the bit lengths of numerator and denominator put
	// |x| in (2^(k-1), 2^(k+1)); one exact comparison settles which half.
	a := new(big.Rat).Abs(x)
	e := a.Num().BitLen() - a.Denom().BitLen()
	if a.Cmp(pow2(e)) < 0 {
		e--
	}
	// The grid of representable values around x has spacing 2^q: that of the
	// binade of x, or the fixed subnormal spacing below the normal range. The
	// exponent is unbounded above, as IEEE 754 7.4 defines overflow by the
	// result rounded "as if the exponent range were unbounded".
	q := max(e, l.emin) - l.fracBits
	unit := pow2(q)
	down, up := neighbours(new(big.Rat).Quo(x, unit))
	c := pick(x, down, up, unit, m)
	r := new(big.Rat).Mul(new(big.Rat).SetInt(c), unit)

	maxFinite := new(big.Rat).Mul(
		new(big.Rat).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(l.prec)), big.NewInt(1))),
		pow2(l.emax-l.fracBits))
	if new(big.Rat).Abs(r).Cmp(maxFinite) > 0 {
		// Overflow (IEEE 754 7.4): infinity unless the mode rounds toward
		// zero for this sign, which gives the largest finite magnitude.
		towardZero := m == round.RTZ || (m == round.RTP && s.neg) || (m == round.RTN && !s.neg)
		if towardZero {
			return sign | (expOnes - 1)
		}
		return sign | expOnes
	}
	if c.Sign() == 0 {
		// Underflow to zero keeps the sign of the source.
		return sign
	}
	return sign | encode(l, new(big.Int).Abs(c), q)
}

// encode returns the unsigned bit pattern of the finite value mag * 2^q,
// which must be representable in l.
func encode(l layout, mag *big.Int, q int) uint64 {
	// Rounding up may have produced 2^prec units: the same value one binade up.
	for mag.BitLen() > l.prec {
		if mag.Bit(0) != 0 {
			panic("bigref: value not representable")
		}
		mag.Rsh(mag, 1)
		q++
	}
	if mag.BitLen() < l.prec {
		// Fewer than prec significant bits: only a subnormal, at the
		// subnormal spacing, has them.
		if q != l.emin-l.fracBits {
			panic("bigref: value not representable")
		}
		return mag.Uint64()
	}
	hidden := new(big.Int).Lsh(big.NewInt(1), uint(l.fracBits))
	field := new(big.Int).Sub(mag, hidden).Uint64()
	biased := uint64(q + l.fracBits + l.bias)
	return biased<<l.fracBits | field
}

// nanPayload converts a NaN's mantissa field from layout from to layout to:
// read as a binary fraction 0.field, it is truncated (or zero-extended) to
// the destination's width, so the payload's leading bits stay leading; then
// the quiet bit, the field's top bit, is set, as IEEE hardware does.
func nanPayload(to, from layout, field uint64) uint64 {
	f := new(big.Int).SetUint64(field)
	f.Lsh(f, uint(to.fracBits))
	f.Rsh(f, uint(from.fracBits))
	return f.Uint64() | 1<<(to.fracBits-1)
}
