package explain

import (
	"fmt"
	"math/bits"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/minifloat"
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
	RuleNaNZero    = "nan-zero"     // _sat: NaN converts to 0; NaN to e2m1, e2m3, e3m2 gives +0
	RuleWrap       = "wrap"         // integer -> integer without _sat: the low bits
	// The small floating formats (docs/FORMATS.md).
	RuleTieUp       = "tie-up"       // rte in e8m0: exactly halfway between 2^k and 2^(k+1), up
	RuleOverflowNaN = "overflow-nan" // beyond the largest finite value: NaN in e4m3, e8m0, e4m3fnuz and e5m2fnuz (no infinity)
	RuleInfNaN      = "inf-nan"      // infinity to e4m3, e8m0, e4m3fnuz or e5m2fnuz (no infinity): NaN
	RuleNoValue     = "no-value"     // zero, a negative value or -inf to e8m0 (no zero, no sign): NaN
	RuleMinValue    = "min-value"    // a positive value below e8m0's smallest, 2^-127: 2^-127 in every mode
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
	// The small formats' rules, R1..R12 of docs/FORMATS.md.
	citeSmallRound = "FORMATS.md, R1: one rounding of the exact value in IEEE 754's modes; overflow is decided after it"
	citeSmallTie   = "FORMATS.md, R2: ties in E8M0 go up (every E8M0 value has the significand 1; LLVM's APFloat, ml_dtypes and PyTorch do the same)"
	citeSmallOver  = "FORMATS.md, R3: overflow without _sat gives infinity, E4M3's, E8M0's and the FNUZ formats' NaN, or +-MAX in a mode that rounds toward zero and in the MX formats without infinity or NaN (OCP OFP8, SPV_EXT_float8, OCP MX)"
	citeSmallSat   = "FORMATS.md, R4: _sat gives +-MAX for every overflow and every infinity (OCP's saturating mode, PTX .satfinite, SPV_EXT_float8's SaturatedToLargestFloat8NormalConversionEXT)"
	citeSmallInf   = "FORMATS.md, R5: infinities to the small formats"
	citeSmallNaN   = "FORMATS.md, R6: NaN stays NaN (quiet, sign and high payload kept where the format can hold them); +0 in e2m1, e2m3 and e3m2, which have no NaN (clconv's choice: the MX specification leaves it to the implementation)"
	citeSmallZero  = "FORMATS.md, R7: a zero keeps its sign (but e4m3fnuz and e5m2fnuz have no -0: it gives +0), integer 0 gives +0; underflow is gradual"
	citeE8M0       = "FORMATS.md, R8: e8m0 has neither sign nor zero: zero, negative values and -inf give NaN (2^-127 under _sat); positive values below 2^-127 give 2^-127"
	citeSmallSame  = "FORMATS.md, R9: a format converted to itself keeps its bits; _sat takes infinities to +-MAX"
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
	// A floating kind: its row of internal/minifloat's table (half, float
	// and double are rows too), which takes a pattern apart by the
	// format's definition, apart from package convert.
	r := minifloat.OfKind(k)
	x.bits = b & r.Mask()
	v := r.Decode(x.bits)
	x.neg = v.Neg
	switch v.Class {
	case minifloat.ClassInf:
		x.cls = infinite
	case minifloat.ClassNaN:
		x.cls = nan
		x.m = v.Sig // the payload, left-aligned at bit 63 (bit 63: IEEE's quiet bit)
	case minifloat.ClassFinite:
		x.m, x.e = v.Sig, v.Exp
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

// neighbourWords quotes the neighbours of x (nonzero, finite, placed at pl
// in floating kind d) in value order, and the one that rounding up or down
// took; a neighbour past the largest finite value is quoted as the value it
// would have were the exponent range unbounded.
func neighbourWords(x num, d cltype.Kind, pl floatPlace, up bool) (below, above, got string) {
	loS, hiS := quoteBits(d, pl.lo), quoteBits(d, pl.lo+1)
	if pl.lo+1 > maxFinite(d) {
		hiS = unboundedNext(d)
	}
	below, above = signed(x.neg, loS), signed(x.neg, hiS)
	got = below
	if up {
		got = above
	}
	if x.neg {
		below, above = above, below
	}
	return below, above, got
}

// placedStep is stepText for x placed at pl in floating kind d.
func placedStep(id string, x num, d cltype.Kind, pl floatPlace, up bool) string {
	below, above, got := neighbourWords(x, d, pl, up)
	return stepText(id, quoteOf(x), below, above, got)
}

// stepText says the rounding step in words: below and above are the
// neighbours in value order, got the one taken.
func stepText(id string, v, below, above, got string) string {
	switch id {
	case RuleExact:
		return fmt.Sprintf("%s is representable: exact", v)
	case RuleTieEven:
		return fmt.Sprintf("%s is exactly halfway between %s and %s; ties to even gives %s", v, below, above, got)
	case RuleTieUp:
		return fmt.Sprintf("%s is exactly halfway between %s and %s; e8m0's ties go up, to %s (every e8m0 value has the significand 1, so ties to even picks neither; up is rounding to even on the binade's grid)", v, below, above, got)
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
	lo     uint64 // bits of the lower magnitude; hi is lo+1 (beyond the largest finite: inf, NaN or no pattern)
	b      bracket
	beyond bool // |v| >= 2^(emax+1): every mode overflows
	below  bool // below the smallest value of a format without zero (e8m0): no lower neighbour
}

// placeFloat finds where x (nonzero, finite) falls in kind d's format: on
// the grid of its row, whose values are the significands of MantBits+1 bits
// times powers of two from Emin to Emax (with subnormals below 2^Emin when
// the format has zero).
func placeFloat(x num, d cltype.Kind) floatPlace {
	r := minifloat.OfKind(d)
	p := r.MantBits + 1
	E := bits.Len64(x.m) - 1 + x.e // x in [2^E, 2^(E+1))
	if E > r.Emax() {
		return floatPlace{lo: maxFinite(d), beyond: true}
	}
	k := max(E, r.Emin()) - (p - 1) // the exponent of one unit in the last place
	q, b := quantize(x.m, x.e, k)
	var lo uint64
	switch {
	case q >= 1<<(p-1):
		lo = uint64(k+p-1+r.Bias)<<(p-1) | (q - 1<<(p-1))
	case !r.Zero:
		return floatPlace{below: true, b: b}
	default: // subnormal or zero
		lo = q
	}
	// Ties go to the even significand. With one significant bit (e8m0)
	// every significand is 1, odd, and a tie goes up: to 2 * 2^k, the even
	// multiple of the binade's unit (R2).
	b.loEven = p > 1 && lo&1 == 0
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
func maxFinite(d cltype.Kind) uint64 { return minifloat.OfKind(d).MaxBits() }

// infBits returns the bits of floating kind d's +inf, and false for a format
// without infinities.
func infBits(d cltype.Kind) (uint64, bool) { return minifloat.OfKind(d).InfBits() }

// signBit returns floating kind d's sign bit (0 for e8m0, which has none).
func signBit(d cltype.Kind) uint64 { return minifloat.OfKind(d).SignBit() }

// Width returns the number of bits of a pattern of kind k: its size in bits,
// except for e2m1 (4), e2m3 and e3m2 (6), which are stored one per byte.
func Width(k cltype.Kind) int {
	if r := minifloat.OfKind(k); r != nil {
		return r.Width()
	}
	return k.Bits()
}

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
	case src == dst && sat && x.cls == infinite && dst.IsSmallFloat():
		return satMax(x, dst, func() string { return "the same type, but _sat takes an infinity to the largest finite value" })
	case src == dst && dst.IsSmallFloat():
		return decision{x.bits, RuleExact, citeSmallSame, said("the same type: the conversion has no effect")}
	case src == dst:
		return decision{x.bits, RuleExact, citeSame, said("the same type: the conversion has no effect")}
	case dst.IsSmallFloat():
		return predictSmall(x, dst, m, sat)
	case dst.IsFloat():
		return predictFloat(x, dst, m)
	}
	return predictInt(x, dst, m, sat)
}

// nanOut returns the NaN that NaN x converts to in floating kind d, and
// false for a format without NaNs: an IEEE NaN keeps the sign and the high
// payload bits that fit, with the quiet bit set; e4m3's and e8m0's all-ones
// NaN keeps the sign where there is one.
func nanOut(x num, d cltype.Kind) (uint64, bool) {
	r := minifloat.OfKind(d)
	var sign uint64
	if x.neg {
		sign = r.SignBit()
	}
	switch r.NaN {
	case minifloat.NaNIEEE:
		mb := uint(r.MantBits)
		inf, _ := r.InfBits()
		return sign | inf | x.m>>(64-mb) | 1<<(mb-1), true
	case minifloat.NaNAllOnes:
		nan, _ := r.NaNBits()
		return sign | nan, true
	case minifloat.NaNNegZero:
		nan, _ := r.NaNBits() // FNUZ: 0x80, whatever the sign
		return nan, true
	}
	return 0, false
}

func predictFloat(x num, d cltype.Kind, m round.Mode) decision {
	var sign uint64
	if x.neg {
		sign = signBit(d)
	}
	dn := d.String()
	switch {
	case x.cls == nan:
		out, _ := nanOut(x, d)
		return decision{out, RuleNaN, citeNaN, func() string {
			return fmt.Sprintf("NaN converts to a quiet NaN of %s with the same sign and the high payload bits", dn)
		}}
	case x.cls == infinite:
		inf, _ := infBits(d)
		return decision{sign | inf, RuleInf, citeRound, said("infinity converts to infinity of the same sign")}
	case x.isZero():
		if x.kind.IsInteger() {
			return decision{0, RuleZero, citeZero, said("integer 0 converts to +0 in every mode")}
		}
		return decision{sign, RuleZero, citeZero, said("zero converts to zero of the same sign")}
	}
	inf, _ := infBits(d)
	pl := placeFloat(x, d)
	if pl.beyond {
		beyond := func() string {
			return fmt.Sprintf("%s is beyond the largest finite %s (%s)", quoteOf(x), dn, quoteBits(d, maxFinite(d)))
		}
		if overflowsToInf(m, x.neg) {
			return decision{sign | inf, RuleOverflow, citeOverflow, func() string {
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
		return placedStep(id, x, d, pl, up)
	}
	switch {
	case got == inf:
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
// exponent range unbounded: one unit in the last place above MAX (2^(emax+1)
// in IEEE's formats and the MX formats; 480 in e4m3, whose pattern after
// MAX is its NaN).
func unboundedNext(d cltype.Kind) string {
	r := minifloat.OfKind(d)
	mx := r.Decode(r.MaxBits())
	m, e := mx.Sig+1, mx.Exp
	for m&1 == 0 {
		m, e = m>>1, e+1
	}
	if s := exactDecimal(false, m, e); len(s) <= maxQuote {
		return s
	}
	if m == 1 {
		return fmt.Sprintf("2^%d", e)
	}
	return fmt.Sprintf("%d·2^%d", m, e)
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
