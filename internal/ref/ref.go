// Package ref is clconv's integer-only reference for OpenCL C's explicit
// scalar conversions (convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn]).
//
// It decodes every source into an exact value (sign, a significand
// normalised to the top of a uint64, the binary exponent of its leading bit)
// and rounds it with integer shifts and guard/sticky masks only: no
// floating-point arithmetic or conversion, no math/big. That makes it
// independent of the fast path (hardware round-to-nearest plus one-ulp
// corrections) and cheap enough to push all 2^32 inputs of a 32-bit source
// through. Its results are proven against the math/big oracle in
// internal/bigref by this package's tests.
//
// The hot path is kept free of interfaces, closures and per-call work that
// only depends on the types: everything a type contributes (masks, limits,
// field widths) is computed once into the kinds table, and Convert
// dispatches on (source class, destination class) before doing anything else.
package ref

import (
	"math/bits"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// kindInfo is everything a conversion needs to know about one scalar kind,
// precomputed from cltype so that no per-call work goes into it.
//
// Its shift counts are all below 64. The hot paths write them as count&63:
// Go defines shifts by 64 or more (as 0), so the compiler guards every
// variable shift unless it can see the count is smaller.
type kindInfo struct {
	mask   uint64 // all ones over the type's width
	ext    uint   // 64 - width: <<ext then arithmetic >>ext sign-extends
	signed bool   // a signed integer kind
	float  bool   // half, float or double

	// Integer kinds: the largest magnitude of each sign, indexed by the
	// sign bit: MAX, and the magnitude of MIN (0 for unsigned kinds).
	lim [2]uint64

	// Floating kinds (IEEE 754 binary formats).
	fracBits  uint   // width of the stored mantissa field (precision - 1)
	normShift uint   // 63 - fracBits: from a significand at bit 63 down to the field
	signShift uint   // width - 1: the position of the sign bit
	expAll    uint64 // the exponent field all ones (infinity and NaN), unshifted
	infBits   uint64 // +infinity's bit pattern
	bias      int
	emin      int // exponent of the smallest normal
	emax      int // exponent of the largest finite
}

// kinds is indexed by cltype.Kind; entries other than the eleven conversion
// kinds stay zero.
var kinds = func() (t [cltype.NumKinds]kindInfo) {
	for _, k := range cltype.Scalars {
		w := uint(k.Bits())
		ki := kindInfo{
			mask:      k.Mask(),
			ext:       64 - w,
			signed:    k.IsInteger() && k.IsSigned(),
			float:     k.IsFloat(),
			signShift: w - 1,
		}
		if k.IsInteger() {
			ki.lim = [2]uint64{k.MaxUint(), uint64(-k.MinInt())}
		} else {
			f := k.Format()
			ki.fracBits = uint(f.Prec - 1)
			ki.normShift = 63 - ki.fracBits
			ki.expAll = 1<<f.ExpBits() - 1
			ki.infBits = ki.expAll << ki.fracBits
			ki.bias = f.Bias
			ki.emin = f.Emin()
			ki.emax = f.Emax
		}
		t[k] = ki
	}
	return t
}()

// Convert converts one scalar of kind src, given as its bit pattern
// zero-extended to 64 bits, to kind dst in rounding mode m, saturating to an
// integer destination's range when sat is set (sat is ignored for floating
// destinations, where OpenCL C forbids it). It returns dst's bit pattern
// zero-extended to 64 bits. dst and src must be two of the eleven conversion
// kinds (cltype.Scalars); a mode other than the four behaves as RTE.
//
// implDefined reports a float->integer conversion without sat whose rounded
// value is NaN or out of range: OpenCL C leaves that result
// implementation-defined, and clconv returns what the saturating conversion
// would. Bits above src's width are ignored.
func Convert(dst, src cltype.Kind, b uint64, m round.Mode, sat bool) (out uint64, implDefined bool) {
	s, d := &kinds[src], &kinds[dst]
	b &= s.mask
	// A conversion to the same type is a no-op; for floats this keeps
	// signalling NaNs and payloads exactly (as_type semantics).
	if dst == src {
		return b, false
	}
	if s.float {
		if d.float {
			return floatToFloat(d, s, b, m), false
		}
		return floatToInt(d, s, b, m, sat)
	}
	// An integer source: its two's complement value, sign-extended to 64
	// bits for signed kinds (a ulong above 2^63 stays non-negative).
	x := b
	var sgn uint64
	if s.signed {
		x = uint64(int64(b<<(s.ext&63)) >> (s.ext & 63))
		sgn = x >> 63
	}
	mag := x
	if sgn != 0 {
		// For the most negative long this is 1<<63, which still fits.
		mag = -x
	}
	if d.float {
		if mag == 0 {
			// Integer 0 converts to +0.0 in every mode.
			return 0, false
		}
		lz := bits.LeadingZeros64(mag)
		return roundFloat(d, sgn, mag<<(lz&63), 63-lz, m), false
	}
	if !sat {
		// C99 6.3.1.3 as every implementation does it (and SPIR-V's
		// OpUConvert/OpSConvert): keep the low bits of the two's complement
		// value. The rounding mode has no effect on integer->integer.
		return x & d.mask, false
	}
	out, _ = clampInt(d, sgn, mag, false)
	return out, false
}

// clampInt returns dst's bits for the integer (-1)^sgn * mag clamped to
// [MIN, MAX] (huge marks a magnitude of 2^64 or more), and whether it had to
// clamp, i.e. the value is not one of dst's. The limit is looked up by the
// sign bit rather than chosen by a branch, which a random sign would
// mispredict half the time.
func clampInt(d *kindInfo, sgn, mag uint64, huge bool) (uint64, bool) {
	lim := d.lim[sgn&1]
	over := mag > lim
	if huge {
		over = true
	}
	if over {
		mag = lim
	}
	if sgn != 0 {
		mag = -mag
	}
	return mag & d.mask, over
}

// dir is how a rounding mode treats a magnitude once the sign is known
// (rtp rounds a positive value away from zero and a negative one toward
// it, rtn the other way round), written as its truth table: bit
// guard<<2 | sticky<<1 | lsb says whether to add one to the truncated
// magnitude, where guard is the first discarded bit (half a unit), sticky
// whether any discarded bit below it is set, and lsb the last kept bit.
type dir uint8

const (
	// Never round up.
	towardZero dir = 0
	// Round up when anything was discarded: idx 2..7.
	awayFromZero dir = 0b1111_1100
	// Round up above half way (guard and sticky: idx 6, 7), or exactly half
	// way with an odd last bit, which ties to even (idx 5).
	nearestEven dir = 0b1110_0000
)

// dirs is indexed by mode and then by the sign bit (1 for negative).
var dirs = [4][2]dir{
	round.RTE: {nearestEven, nearestEven},
	round.RTZ: {towardZero, towardZero},
	round.RTP: {awayFromZero, towardZero},
	round.RTN: {towardZero, awayFromZero},
}

// magDir returns the direction of mode m for a value with sign bit sgn.
func magDir(m round.Mode, sgn uint64) dir {
	if m > round.RTN {
		return nearestEven
	}
	return dirs[m][sgn&1]
}

// shiftRound returns x / 2^sh rounded to an integer in direction d, for any
// sh: Go defines a shift by 64 or more as giving 0, which makes the masks
// below right even when every bit is discarded (sh > 64: the guard is 0 and
// all of x is sticky) or none is (sh == 0: sh-1 wraps, so no guard).
// Whenever anything is discarded q < 2^63, so q+1 fits.
func shiftRound(x uint64, sh uint, d dir) uint64 {
	q := x >> sh
	half := uint64(1) << (sh - 1)
	below := ^(^uint64(0) << sh) &^ half
	var guard, sticky uint64
	if x&half != 0 {
		guard = 1
	}
	if x&below != 0 {
		sticky = 1
	}
	return q + uint64(d)>>(guard<<2|sticky<<1|q&1)&1
}

// decodeFloat takes a finite floating bit pattern apart into its exact
// value sig * 2^(e-63) (the sign aside), with sig's leading bit at bit 63
// (sig == 0 for a zero): e is the exponent of the leading bit.
func decodeFloat(s *kindInfo, b uint64) (sig uint64, e int) {
	field := int(b >> (s.fracBits & 63) & s.expAll)
	// Shifting the pattern left puts the mantissa field just below bit 63,
	// and the exponent field's lowest bit at bit 63 (the rest falls off).
	sig = b << (s.normShift & 63)
	if field != 0 {
		// A normal: bit 63 is the implicit leading bit.
		return sig | 1<<63, field - s.bias
	}
	// A subnormal (or zero) has no implicit bit and the exponent of the
	// smallest normal; bit 63 is 0 here. Normalise it.
	lz := bits.LeadingZeros64(sig)
	return sig << (lz & 63), s.emin - lz
}

// floatToInt rounds a floating source to an integer in mode m and then
// clamps (sat) or flags an out-of-range result (no sat).
func floatToInt(d, s *kindInfo, b uint64, m round.Mode, sat bool) (uint64, bool) {
	sgn := b >> (s.signShift & 63)
	if b>>(s.fracBits&63)&s.expAll == s.expAll {
		if b&(1<<(s.fracBits&63)-1) != 0 {
			// NaN: _sat gives 0; without _sat the result is
			// implementation-defined, and clconv gives the _sat result.
			return 0, !sat
		}
		// +-inf saturates to MAX/MIN.
		out, _ := clampInt(d, sgn, 0, true)
		return out, !sat
	}
	sig, e := decodeFloat(s, b)
	// The integer is sig shifted right by 63-e, rounded in the mode's
	// direction for this sign; for e < 0 that discards every bit. The
	// leading bit has weight 2^e, so from e == 64 up the value is 2^64 or
	// more and no integer type holds it (the shift result is then unused).
	mag := shiftRound(sig, uint(63-e), magDir(m, sgn))
	out, over := clampInt(d, sgn, mag, e > 63)
	// clconv's choice for the implementation-defined case: the _sat result.
	if sat {
		over = false
	}
	return out, over
}

// floatToFloat converts between two floating formats: exact when widening,
// correctly rounded in mode m when narrowing.
func floatToFloat(d, s *kindInfo, b uint64, m round.Mode) uint64 {
	sgn := b >> (s.signShift & 63)
	if b>>(s.fracBits&63)&s.expAll == s.expAll {
		frac := b & (1<<(s.fracBits&63) - 1)
		if frac == 0 {
			return sgn<<d.signShift | d.infBits
		}
		// NaN: keep the payload bits that fit, aligned at the top of the
		// mantissa field, and quiet it, as IEEE hardware does.
		if s.fracBits > d.fracBits {
			frac >>= s.fracBits - d.fracBits
		} else {
			frac <<= d.fracBits - s.fracBits
		}
		return sgn<<d.signShift | d.infBits | frac | 1<<(d.fracBits-1)
	}
	if b&^(1<<(s.signShift&63)) == 0 {
		// A zero keeps its sign.
		return sgn << (d.signShift & 63)
	}
	sig, e := decodeFloat(s, b)
	return roundFloat(d, sgn, sig, e, m)
}

// roundFloat rounds the non-zero value (-1)^sgn * sig * 2^(e-63), sig's
// leading bit at bit 63, to format d in mode m. It is the one routine behind
// int->float, float->narrower float and float->wider float.
func roundFloat(d *kindInfo, sgn, sig uint64, e int, m round.Mode) uint64 {
	dr := magDir(m, sgn)
	// A normal result keeps Prec bits of sig; below Emin the quantum is
	// fixed at the smallest subnormal's, one bit fewer per binade down
	// (gradual underflow: subnormal results, no flush to zero).
	biased := e + d.bias // the exponent field of a normal result
	under := max(1-biased, 0)
	biased += under
	r := shiftRound(sig, d.normShift+uint(under), dr)
	// r includes the implicit bit (r < 2^fracBits for a subnormal). Adding
	// it to field-1 in the exponent position builds the encoding in one step:
	// the implicit bit bumps the field back up, a subnormal keeps field 0,
	// a rounding carry to 2^Prec moves to the next binade (or from the
	// largest subnormal to the smallest normal), and a carry past Emax gives
	// the infinity bits, which is IEEE's overflow result for the modes that
	// round up (nearest and away from zero; toward zero never carries).
	// An underflow to zero keeps the sign.
	out := uint64(biased-1)<<(d.fracBits&63) + r
	// Overflow before rounding (the encoding above is then meaningless):
	// IEEE 754 gives infinity to nearest and away from zero, and the
	// largest finite magnitude toward zero. Selected, not branched to: for
	// wide sources about half of all inputs overflow, unpredictably.
	ovf := d.infBits
	if dr == towardZero {
		ovf--
	}
	if e > d.emax {
		out = ovf
	}
	return sgn<<(d.signShift&63) | out
}
