package explain

import (
	"fmt"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// The rules of the small floating formats (bfloat16, e4m3, e5m2, e2m1, e2m3,
// e3m2, e8m0, e4m3fnuz, e5m2fnuz; docs/FORMATS.md), decided as rules.go decides IEEE's: the
// value's place on the format's grid (its row of internal/minifloat's table,
// which package convert's fast paths do not use), the mode's neighbour, and
// what overflow, _sat, infinities, NaNs and e8m0's missing zero and sign do.

// predictSmall predicts the conversion of x to the small format d.
func predictSmall(x num, d cltype.Kind, m round.Mode, sat bool) decision {
	r := minifloat.OfKind(d)
	dn := d.String()
	var sign uint64
	if x.neg {
		sign = r.SignBit()
	}
	switch {
	case x.cls == nan:
		if out, ok := nanOut(x, d); ok {
			return decision{out, RuleNaN, citeSmallNaN, func() string {
				if r.NaN == minifloat.NaNNegZero {
					return fmt.Sprintf("NaN converts to %s's one NaN, %s, whatever its sign", dn, hexBits(d, out))
				}
				if r.NaN == minifloat.NaNAllOnes {
					return fmt.Sprintf("NaN converts to %s's NaN, %s", dn, hexBits(d, out))
				}
				return fmt.Sprintf("NaN converts to a quiet NaN of %s with the same sign and the high payload bits", dn)
			}}
		}
		return decision{0, RuleNaNZero, citeSmallNaN, said(dn + " has no NaN: NaN converts to +0")}
	case d == cltype.E8M0 && (x.neg || x.isZero()):
		what := func() string {
			return fmt.Sprintf("%s has no e8m0 value (e8m0 has no zero and no sign)", quoteOf(x))
		}
		if sat {
			return decision{r.MinBits(), RuleClamp, citeE8M0, func() string {
				return what() + ": _sat gives the smallest e8m0, 2^-127"
			}}
		}
		nan, _ := r.NaNBits()
		return decision{nan, RuleNoValue, citeE8M0, func() string { return what() + ": it gives e8m0's NaN, 0xff" }}
	case x.cls == infinite:
		inf := fmt.Sprintf("%sinf", minus(x.neg))
		switch {
		case sat:
			return satMax(x, d, func() string { return inf })
		case r.Inf:
			b, _ := r.InfBits()
			return decision{sign | b, RuleInf, citeSmallInf, said("infinity converts to infinity of the same sign")}
		case r.NaN == minifloat.NaNAllOnes || r.NaN == minifloat.NaNNegZero:
			nan, _ := r.NaNBits()
			if r.NaN == minifloat.NaNAllOnes {
				nan |= sign
			}
			return decision{nan, RuleInfNaN, citeSmallInf, func() string {
				return fmt.Sprintf("%s has no infinity: %s gives its NaN, %s", dn, inf, hexBits(d, nan))
			}}
		}
		return decision{sign | r.MaxBits(), RuleMaxFinite, citeSmallInf, func() string {
			return fmt.Sprintf("%s has neither infinity nor NaN: %s gives its largest value, %s%s (OCP MX)", dn, inf, minus(x.neg), quoteBits(d, r.MaxBits()))
		}}
	case x.isZero():
		if x.kind.IsInteger() {
			return decision{0, RuleZero, citeSmallZero, said("integer 0 converts to +0 in every mode")}
		}
		if r.NaN == minifloat.NaNNegZero {
			return decision{0, RuleZero, citeSmallZero, said(fmt.Sprintf("zero converts to +0: %s has no -0 (0x80 is its NaN)", dn))}
		}
		return decision{sign, RuleZero, citeSmallZero, said("zero converts to zero of the same sign")}
	}
	pl := placeFloat(x, d)
	switch {
	case pl.below:
		return decision{r.MinBits(), RuleMinValue, citeE8M0, func() string {
			return fmt.Sprintf("%s is below the smallest e8m0, 2^-127; there is no zero to round to, so every mode gives 2^-127", quoteOf(x))
		}}
	case pl.beyond:
		return overflowSmall(x, d, m, sat, func() string {
			return fmt.Sprintf("%s is beyond the largest finite %s (%s)", quoteOf(x), dn, quoteBits(d, r.MaxBits()))
		})
	}
	up := pl.b.up(m, x.neg)
	got := pl.lo
	if up {
		got++
	}
	id := roundStep(pl.b, m)
	if id == RuleTieEven && r.MantBits == 0 {
		id = RuleTieUp
	}
	text := func() string { return placedStep(id, x, d, pl, up) }
	switch {
	case got > r.MaxBits():
		return overflowSmall(x, d, m, sat, func() string { return text() + ", which is beyond the largest finite " + dn })
	case got == r.MaxBits() && pl.lo == r.MaxBits() && !pl.b.exact:
		// Between the largest finite value and the next grid point,
		// rounded down to it: beyond the range, but no overflow. The
		// step that decided it names the rule (464 to e4m3 in rte is a
		// tie to even, to 448).
		return decision{sign | got, id, citeSmallRound, func() string {
			return text() + fmt.Sprintf(", the largest finite %s: %s lies beyond it but rounds to it, so it does not overflow", dn, quoteOf(x))
		}}
	}
	cite := citeSmallRound
	if id == RuleTieUp {
		cite = citeSmallTie
	}
	if got == 0 && r.NaN == minifloat.NaNNegZero {
		return decision{0, id, cite, func() string { return text() + fmt.Sprintf(", which is +0 in %s (no -0: 0x80 is its NaN)", dn) }}
	}
	return decision{sign | got, id, cite, text}
}

// overflowSmall decides a finite value whose rounding is beyond the largest
// finite value of small format d (why says so): +-MAX under _sat and in a
// mode that rounds it toward zero; otherwise infinity, e4m3's and e8m0's
// NaN, or +-MAX in the MX formats, which have neither.
func overflowSmall(x num, d cltype.Kind, m round.Mode, sat bool, why func() string) decision {
	r := minifloat.OfKind(d)
	dn := d.String()
	var sign uint64
	if x.neg {
		sign = r.SignBit()
	}
	mx := func() string { return minus(x.neg) + quoteBits(d, r.MaxBits()) }
	switch {
	case sat:
		return satMax(x, d, why)
	case !overflowsToInf(m, x.neg):
		return decision{sign | r.MaxBits(), RuleMaxFinite, citeSmallOver, func() string {
			return fmt.Sprintf("%s: %s rounds toward zero there, which gives the largest finite value, %s (IEEE 754 7.4)", why(), m, mx())
		}}
	case r.Inf:
		b, _ := r.InfBits()
		return decision{sign | b, RuleOverflow, citeSmallOver, func() string {
			return fmt.Sprintf("%s: %s overflows to %sinf", why(), m, minus(x.neg))
		}}
	case r.NaN == minifloat.NaNAllOnes || r.NaN == minifloat.NaNNegZero:
		nan, _ := r.NaNBits()
		if r.NaN == minifloat.NaNAllOnes {
			nan |= sign
		}
		return decision{nan, RuleOverflowNaN, citeSmallOver, func() string {
			return fmt.Sprintf("%s: %s has no infinity, and %s overflows to its NaN, %s (_sat gives %s)", why(), dn, m, hexBits(d, nan), mx())
		}}
	}
	return decision{sign | r.MaxBits(), RuleMaxFinite, citeSmallOver, func() string {
		return fmt.Sprintf("%s: %s has neither infinity nor NaN, so overflow gives its largest value, %s, in every mode (OCP MX)", why(), dn, mx())
	}}
}

// satMax is _sat's result for an infinity or an overflow to small format d:
// +-MAX (e8m0: 2^127).
func satMax(x num, d cltype.Kind, why func() string) decision {
	r := minifloat.OfKind(d)
	var sign uint64
	if x.neg {
		sign = r.SignBit()
	}
	return decision{sign | r.MaxBits(), RuleClamp, citeSmallSat, func() string {
		return fmt.Sprintf("%s: _sat gives the largest finite value, %s%s", why(), minus(x.neg), quoteBits(d, r.MaxBits()))
	}}
}

// smallNeighbours returns the values of small format d around x's value in
// value order (floatNeighbours for the small formats).
func smallNeighbours(x num, d cltype.Kind) (exact bool, below, above *Number) {
	r := minifloat.OfKind(d)
	dn := d.String()
	var sign uint64
	if x.neg {
		sign = r.SignBit()
	}
	// at is the pattern of magnitude bits mag with x's sign: +0 for a zero
	// of the FNUZ formats, whose -0 pattern is their NaN.
	at := func(mag uint64) uint64 {
		if mag == 0 && r.NaN == minifloat.NaNNegZero {
			return 0
		}
		return sign | mag
	}
	maxNote := "the largest finite " + dn
	minE8M0 := func() *Number {
		return noted(number(d, r.MinBits()), "the smallest e8m0: e8m0 has no zero and no negative values")
	}
	switch {
	case x.cls == nan:
		return false, nil, nil
	case d == cltype.E8M0 && (x.neg || x.isZero()):
		return false, nil, minE8M0()
	case x.cls == infinite && r.Inf:
		b, _ := r.InfBits()
		n := number(d, sign|b)
		return true, &n, &n
	case x.cls == infinite:
		// No infinity: the largest finite value is the nearest.
		mx := noted(number(d, sign|r.MaxBits()), maxNote)
		if x.neg {
			return false, nil, mx
		}
		return false, mx, nil
	case x.isZero():
		n := number(d, at(0))
		return true, &n, &n
	}
	pl := placeFloat(x, d)
	var lo, hi *Number
	switch {
	case pl.below:
		return false, nil, minE8M0()
	case pl.beyond:
		lo = noted(number(d, sign|r.MaxBits()), maxNote)
		hi = pastMax(d, x.neg)
	case pl.b.exact:
		n := number(d, at(pl.lo))
		return true, &n, &n
	default:
		lo = noted(number(d, at(pl.lo)), smallNote(d, pl.lo))
		if pl.lo+1 > r.MaxBits() {
			hi = pastMax(d, x.neg)
		} else {
			hi = noted(number(d, sign|(pl.lo+1)), smallNote(d, pl.lo+1))
		}
	}
	if x.neg {
		return false, hi, lo
	}
	return false, lo, hi
}

// pastMax is the grid point after small format d's largest finite value,
// which the format does not hold: its infinity where it has one (shown with
// the value it would have were the exponent range unbounded), otherwise a
// value without a bit pattern.
func pastMax(d cltype.Kind, neg bool) *Number {
	r := minifloat.OfKind(d)
	next := minus(neg) + unboundedNext(d)
	if b, ok := r.InfBits(); ok {
		var sign uint64
		if neg {
			sign = r.SignBit()
		}
		return noted(number(d, sign|b), fmt.Sprintf("%s were the exponent range unbounded, beyond the largest finite %s", next, d))
	}
	return &Number{Type: d.String(), Value: next, Exact: next,
		Note: fmt.Sprintf("were the exponent range unbounded; %s has no pattern for it, beyond its largest finite value", d)}
}

// smallNote says what is special about magnitude bits b of small format d.
func smallNote(d cltype.Kind, b uint64) string {
	r := minifloat.OfKind(d)
	switch {
	case b == 0 && r.Zero:
		return "zero"
	case b == 0:
		return "the smallest " + d.String()
	case b == r.MaxBits():
		return "the largest finite " + d.String()
	case r.Zero && b < 1<<r.MantBits:
		return "subnormal"
	}
	return ""
}
