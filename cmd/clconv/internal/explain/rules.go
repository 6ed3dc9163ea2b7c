package explain

import (
	"fmt"
	"math/bits"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// This file decides, without package convert, what a conversion must give
// and why: the value's two neighbours in the destination, which one each
// mode takes, and what overflow, saturation and NaN do to it. Its results are
// never shown as results (those come from convert.Bits); the tests require
// that its prediction equals the library's for every mode on every 8- and
// 16-bit input and many others, so the explanation cannot drift from the
// conversion it explains.

// Rule IDs: the step that decided a result.
const (
	RuleExact      = "exact"       // the value is representable
	RuleNearest    = "nearest"     // rte: the nearer neighbour
	RuleTieEven    = "tie-even"    // rte: exactly halfway, the even neighbour
	RuleTowardZero = "toward-zero" // rtz: the neighbour toward zero
	RuleTowardPos  = "toward-pos"  // rtp: the neighbour above
	RuleTowardNeg  = "toward-neg"  // rtn: the neighbour below
	RuleMaxFinite  = "max-finite"  // a value beyond the largest finite value rounds to it
	RuleOverflow   = "overflow-inf"
	RuleNaN        = "nan"          // NaN to a floating type stays NaN
	RuleInf        = "inf"          // infinity to a floating type stays infinity
	RuleZero       = "zero"         // a zero keeps its sign; integer 0 is +0
	RuleClamp      = "clamp"        // _sat: out of range clamps to MIN or MAX
	RuleImplSat    = "impl-defined" // no _sat, float out of range or NaN: clconv saturates
	RuleNaNZero    = "nan-zero"     // _sat: NaN converts to 0
	RuleWrap       = "wrap"         // integer -> integer without _sat: the low bits
)

// Citations, by the rule they support. Seed 000 is the convert_T() reference
// page of the OpenCL C specification; RULES.md is docs/RULES.md.
const (
	citeRound    = "seed 000, Rounding Modes: conversions shall conform to IEEE-754 rounding rules; RULES.md, Rounding"
	citeOverflow = "seed 000, Rounding Modes: the rounding mode decides between the maximum finite value and infinity of the same sign, per IEEE-754 rules; RULES.md, Rounding (overflow)"
	citeToInt    = "RULES.md, Integer destinations: round by the mode, then clamp"
	citeClamp    = "seed 000, Out-of-Range Behavior and Saturated Conversions: values outside the range clamp to the nearest representable value; RULES.md, Integer destinations"
	citeNaNZero  = "seed 000, Out-of-Range Behavior and Saturated Conversions: NaN should be converted to 0; RULES.md, Integer destinations"
	citeImpl     = "seed 000, Out-of-Range Behavior and Notes: implementation-defined without _sat; RULES.md, Integer destinations: clconv gives the _sat result"
	citeWrap     = "seed 000: integer conversions follow C99 6.3.1.3; RULES.md, Integer destinations: the low bits of the two's complement value"
	citeNaN      = "RULES.md, Rounding: NaN stays NaN, sign kept, quiet bit set, the payload bits that fit"
	citeZero     = "RULES.md, Rounding: signed zeros kept; integer 0 converts to +0.0 in every mode"
	citeSame     = "seed 000: the operand and result type may be the same type, in which case the conversion has no effect; RULES.md, Types"
)

// Rule is the step that decided one result: an ID from the Rule constants, a
// sentence with the numbers of this conversion, and where the rule is
// written.
type Rule struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	Cite string `json:"cite"`
}

// class is what a source value is.
type class uint8

const (
	finite class = iota // zero included
	infinite
	nan
)

// num is a source value: ±m·2^e, infinity or NaN.
type num struct {
	kind cltype.Kind
	bits uint64
	cls  class
	neg  bool
	m    uint64
	e    int
}

func (x num) isZero() bool { return x.cls == finite && x.m == 0 }

// decode reads the value of bit pattern b of kind k.
func decode(k cltype.Kind, b uint64) num {
	b &= k.Mask()
	x := num{kind: k, bits: b}
	if k.IsInteger() {
		if k.IsSigned() && b>>(k.Bits()-1) != 0 {
			x.neg = true
			x.m = -(b | ^k.Mask()) // the magnitude, 2^63 included
		} else {
			x.m = b
		}
		return x
	}
	f := k.Format()
	fb := uint(f.Prec - 1)
	x.neg = b>>(k.Bits()-1) != 0
	exp := int(b>>fb) & (1<<f.ExpBits() - 1)
	frac := b & (1<<fb - 1)
	switch {
	case exp == 1<<f.ExpBits()-1 && frac == 0:
		x.cls = infinite
	case exp == 1<<f.ExpBits()-1:
		x.cls = nan
	case exp == 0:
		x.m, x.e = frac, f.Emin()-int(fb)
	default:
		x.m, x.e = frac|1<<fb, exp-f.Bias-int(fb)
	}
	return x
}

// bracket is where a nonzero finite value falls between two neighbours of
// magnitude lo and lo+1 units.
type bracket struct {
	exact  bool
	cmp    int  // the remainder against half a unit: -1, 0 (a tie), +1
	loEven bool // the lower magnitude has an even last bit
}

// up reports whether mode m takes the neighbour farther from zero.
func (b bracket) up(m round.Mode, neg bool) bool {
	if b.exact {
		return false
	}
	switch m {
	case round.RTE:
		return b.cmp > 0 || b.cmp == 0 && !b.loEven
	case round.RTP:
		return !neg
	case round.RTN:
		return neg
	}
	return false
}

// roundStep returns the ID of the rounding step alone: which neighbour m
// took and why.
func roundStep(b bracket, m round.Mode) string {
	switch {
	case b.exact:
		return RuleExact
	case m == round.RTE && b.cmp == 0:
		return RuleTieEven
	case m == round.RTE:
		return RuleNearest
	case m == round.RTZ:
		return RuleTowardZero
	case m == round.RTP:
		return RuleTowardPos
	}
	return RuleTowardNeg
}

// stepText says the rounding step in words: below and above are the
// neighbours in value order, got the one taken.
func stepText(id string, v, below, above, got string) string {
	switch id {
	case RuleExact:
		return fmt.Sprintf("%s is representable: exact", v)
	case RuleTieEven:
		return fmt.Sprintf("%s is exactly halfway between %s and %s; ties to even gives %s", v, below, above, got)
	case RuleNearest:
		other := below
		if got == below {
			other = above
		}
		return fmt.Sprintf("%s is nearer to %s than to %s", v, got, other)
	case RuleTowardZero:
		return fmt.Sprintf("rtz takes the neighbour toward zero, %s", got)
	case RuleTowardPos:
		return fmt.Sprintf("rtp takes the neighbour above, %s", got)
	}
	return fmt.Sprintf("rtn takes the neighbour below, %s", got)
}

// floatPlace is a nonzero finite value's place in a floating format: the
// magnitude of its lower neighbour as a bit pattern (beyond the largest
// finite one when the value's binade is above the format's) and the bracket.
type floatPlace struct {
	lo     uint64 // bits of the lower magnitude; hi is lo+1 (inf after the largest finite)
	b      bracket
	beyond bool // |v| >= 2^(emax+1): every mode overflows
}

// placeFloat finds where x (nonzero, finite) falls in kind d's format.
func placeFloat(x num, d cltype.Kind) floatPlace {
	f := d.Format()
	p := f.Prec
	E := bits.Len64(x.m) - 1 + x.e // x in [2^E, 2^(E+1))
	if E > f.Emax {
		return floatPlace{lo: maxFinite(d), beyond: true}
	}
	k := max(E, f.Emin()) - (p - 1) // the exponent of one unit in the last place
	q, b := quantize(x.m, x.e, k)
	var lo uint64
	if q < 1<<(p-1) { // subnormal or zero
		lo = q
	} else {
		lo = uint64(k+p-1+f.Bias)<<(p-1) | (q - 1<<(p-1))
	}
	b.loEven = lo&1 == 0
	return floatPlace{lo: lo, b: b}
}

// quantize returns floor(m·2^e / 2^k) and how the remainder compares with
// half a unit. The caller ensures the quotient fits in 64 bits.
func quantize(m uint64, e, k int) (uint64, bracket) {
	if e >= k {
		return m << uint(e-k), bracket{exact: true}
	}
	s := uint(k - e)
	if s > 64 {
		return 0, bracket{cmp: -1} // m < 2^64 <= half a unit
	}
	var q, rem uint64
	if s == 64 {
		rem = m
	} else {
		q, rem = m>>s, m&(1<<s-1)
	}
	half := uint64(1) << (s - 1)
	b := bracket{exact: rem == 0}
	switch {
	case rem < half:
		b.cmp = -1
	case rem > half:
		b.cmp = 1
	}
	return q, b
}

// maxFinite returns the bits of floating kind d's largest finite value.
func maxFinite(d cltype.Kind) uint64 { return infBits(d) - 1 }

// infBits returns the bits of floating kind d's +inf.
func infBits(d cltype.Kind) uint64 {
	f := d.Format()
	return uint64(1<<f.ExpBits()-1) << (f.Prec - 1)
}

func signBit(d cltype.Kind) uint64 { return 1 << (d.Bits() - 1) }

// decision is a predicted result, the rule's ID and citation, and the
// rule's sentence, built only when asked for (the tests predict millions of
// results and read no sentence).
type decision struct {
	out  uint64
	id   string
	cite string
	text func() string
}

func (d decision) rule() Rule { return Rule{ID: d.id, Text: d.text(), Cite: d.cite} }

func said(s string) func() string { return func() string { return s } }

// Predict returns the bits that converting the value of bit pattern b of
// kind src to kind dst in mode m, with or without _sat, must give, and the
// rule that decides them. It is computed apart from package convert; the
// tests hold the two equal.
func Predict(src cltype.Kind, b uint64, dst cltype.Kind, m round.Mode, sat bool) (uint64, Rule) {
	d := predict(src, b, dst, m, sat)
	return d.out, d.rule()
}

func predict(src cltype.Kind, b uint64, dst cltype.Kind, m round.Mode, sat bool) decision {
	x := decode(src, b)
	switch {
	case src == dst:
		return decision{x.bits, RuleExact, citeSame, said("the same type: the conversion has no effect")}
	case dst.IsFloat():
		return predictFloat(x, dst, m)
	}
	return predictInt(x, dst, m, sat)
}

func predictFloat(x num, d cltype.Kind, m round.Mode) decision {
	var sign uint64
	if x.neg {
		sign = signBit(d)
	}
	dn := d.String()
	switch {
	case x.cls == nan:
		sf, df := x.kind.Format().Prec-1, d.Format().Prec-1
		frac := x.bits & (1<<sf - 1)
		if sf > df {
			frac >>= sf - df
		} else {
			frac <<= df - sf
		}
		out := sign | infBits(d) | 1<<(df-1) | frac
		return decision{out, RuleNaN, citeNaN, func() string {
			return fmt.Sprintf("NaN converts to a quiet NaN of %s with the same sign and the high payload bits", dn)
		}}
	case x.cls == infinite:
		return decision{sign | infBits(d), RuleInf, citeRound, said("infinity converts to infinity of the same sign")}
	case x.isZero():
		if x.kind.IsInteger() {
			return decision{0, RuleZero, citeZero, said("integer 0 converts to +0 in every mode")}
		}
		return decision{sign, RuleZero, citeZero, said("zero converts to zero of the same sign")}
	}
	pl := placeFloat(x, d)
	if pl.beyond {
		beyond := func() string {
			return fmt.Sprintf("%s is beyond the largest finite %s (%s)", quoteOf(x), dn, quoteBits(d, maxFinite(d)))
		}
		if overflowsToInf(m, x.neg) {
			return decision{sign | infBits(d), RuleOverflow, citeOverflow, func() string {
				return fmt.Sprintf("%s: %s overflows to %sinf", beyond(), m, minus(x.neg))
			}}
		}
		return decision{sign | maxFinite(d), RuleMaxFinite, citeOverflow, func() string {
			return fmt.Sprintf("%s: %s gives the largest finite value, %s%s", beyond(), m, minus(x.neg), quoteBits(d, maxFinite(d)))
		}}
	}
	up := pl.b.up(m, x.neg)
	got := pl.lo
	if up {
		got++
	}
	id := roundStep(pl.b, m)
	text := func() string {
		// The neighbours in value order, as rules quote them.
		loS, hiS := quoteBits(d, pl.lo), quoteBits(d, pl.lo+1)
		if pl.lo+1 == infBits(d) {
			hiS = unboundedNext(d)
		}
		below, above := signed(x.neg, loS), signed(x.neg, hiS)
		gotS := below
		if up {
			gotS = above
		}
		if x.neg {
			below, above = above, below
		}
		return stepText(id, quoteOf(x), below, above, gotS)
	}
	switch {
	case got == infBits(d):
		return decision{sign | got, RuleOverflow, citeOverflow, func() string {
			return text() + fmt.Sprintf(", which is beyond the largest finite %s and overflows to %sinf (IEEE 754 rounding)", dn, minus(x.neg))
		}}
	case got == maxFinite(d) && pl.lo == maxFinite(d) && !pl.b.exact:
		// Between the largest finite value and 2^(emax+1): beyond the range.
		return decision{sign | got, RuleMaxFinite, citeOverflow, func() string {
			return text() + fmt.Sprintf(": the largest finite %s (%s lies beyond it)", dn, quoteOf(x))
		}}
	}
	return decision{sign | got, id, citeRound, text}
}

// overflowsToInf reports whether mode m takes a value beyond the largest
// finite one to infinity (IEEE 754 7.4): rte always, rtp for positive
// values, rtn for negative ones.
func overflowsToInf(m round.Mode, neg bool) bool {
	return m == round.RTE || m == round.RTP && !neg || m == round.RTN && neg
}

func minus(neg bool) string {
	if neg {
		return "-"
	}
	return ""
}

func signed(neg bool, s string) string {
	if neg && s != "0" {
		return "-" + s
	}
	if neg {
		return "-0"
	}
	return s
}

// unboundedNext names the value after the largest finite one were the
// exponent range unbounded: 2^(emax+1).
func unboundedNext(d cltype.Kind) string {
	if s := exactDecimal(false, 1, d.Format().Emax+1); len(s) <= maxQuote {
		return s
	}
	return fmt.Sprintf("2^%d", d.Format().Emax+1)
}

func predictInt(x num, d cltype.Kind, m round.Mode, sat bool) decision {
	dn := d.String()
	minV, maxV := d.MinInt(), d.MaxUint()
	clampTo := func(neg bool, why func() string) decision {
		out, bound := maxV, fmt.Sprint(maxV)
		if neg {
			out, bound = uint64(minV)&d.Mask(), fmt.Sprint(minV)
		}
		if sat {
			return decision{out, RuleClamp, citeClamp, func() string { return why() + ": _sat clamps to " + bound }}
		}
		return decision{out, RuleImplSat, citeImpl, func() string {
			return why() + ": out of range, implementation-defined without _sat; clconv gives the _sat result, " + bound
		}}
	}
	rangeS := func() string { return fmt.Sprintf("[%d, %d]", minV, maxV) }
	switch x.cls {
	case nan:
		if sat {
			return decision{0, RuleNaNZero, citeNaNZero, said("NaN converts to 0 under _sat")}
		}
		return decision{0, RuleImplSat, citeImpl, said("NaN: implementation-defined without _sat; clconv gives the _sat result, 0")}
	case infinite:
		return clampTo(x.neg, func() string { return fmt.Sprintf("%sinf is beyond every %s", minus(x.neg), dn) })
	}
	if x.kind.IsInteger() {
		if inRange(x.neg, x.m, d) {
			return decision{twos(x.neg, x.m, d), RuleExact, citeWrap, func() string {
				return fmt.Sprintf("%s is in the range of %s: exact", quoteOf(x), dn)
			}}
		}
		if sat {
			return clampTo(x.neg, func() string { return fmt.Sprintf("%s is outside %s", quoteOf(x), rangeS()) })
		}
		out := twos(x.neg, x.m, d)
		return decision{out, RuleWrap, citeWrap, func() string {
			return fmt.Sprintf("%s is outside %s: without _sat the low %d bits are kept, %s", quoteOf(x), rangeS(), d.Bits(), quoteBits(d, out))
		}}
	}
	// A floating value: round to an integer, then check the range.
	if x.isZero() {
		return decision{0, RuleExact, citeToInt, func() string { return quoteOf(x) + " converts to 0" }}
	}
	if bits.Len64(x.m)+x.e > 64 {
		return clampTo(x.neg, func() string { return fmt.Sprintf("%s is beyond every %s", quoteOf(x), dn) })
	}
	q, b := quantize(x.m, x.e, 0)
	b.loEven = q&1 == 0
	r := q
	if b.up(m, x.neg) {
		r++
	}
	id := roundStep(b, m)
	text := func() string {
		lo, hi := signedInt(x.neg, q), signedInt(x.neg, q+1)
		got := lo
		if r != q {
			got = hi
		}
		if x.neg {
			lo, hi = hi, lo
		}
		if id == RuleExact {
			return quoteOf(x) + " is an integer"
		}
		return stepText(id, quoteOf(x), lo, hi, got)
	}
	if !inRange(x.neg, r, d) {
		return clampTo(x.neg && r != 0, func() string { return text() + ", which is outside " + rangeS() })
	}
	return decision{twos(x.neg, r, d), id, citeToInt, text}
}

// signedInt formats the integer ±mag (no -0).
func signedInt(neg bool, mag uint64) string {
	if neg && mag != 0 {
		return "-" + fmt.Sprint(mag)
	}
	return fmt.Sprint(mag)
}

// inRange reports whether ±mag is a value of integer kind d.
func inRange(neg bool, mag uint64, d cltype.Kind) bool {
	if neg {
		return mag <= -uint64(d.MinInt()) // 2^63 for long
	}
	return mag <= d.MaxUint()
}

// twos returns the low bits of ±mag's two's complement in kind d.
func twos(neg bool, mag uint64, d cltype.Kind) uint64 {
	if neg {
		mag = -mag
	}
	return mag & d.Mask()
}

// maxQuote is the longest exact decimal a rule's sentence quotes; past it
// the sentence quotes the shortest decimal that identifies the value (the
// exact one is in the explanation's numbers).
const maxQuote = 24

func quoteOf(x num) string {
	if s := exactOf(x); len(s) <= maxQuote {
		return s
	}
	return scalar(x.kind, x.bits)
}

func quoteBits(k cltype.Kind, b uint64) string { return quoteOf(decode(k, b&k.Mask())) }
