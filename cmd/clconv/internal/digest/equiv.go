package digest

import (
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// Representative returns the conversion that stands for c's class: the
// conversions from c.Src that give the same canonical output as c on every
// input, and so have the same digest and chunk digests. A tool that needs
// the reference of many conversions (clconv verify) computes one per class.
//
// The classes follow from the rules, not from measurement:
//   - The rounding suffix is made explicit (none means rtz to integers, rte
//     to floating types).
//   - It is dropped where no input is ever rounded: integer to integer,
//     floating to a floating type at least as wide, and integer to a
//     floating type whose significand holds every source value (char and
//     uchar to half; up to ushort to float; up to uint to double).
//   - From an unsigned integer, rtn is rtz: every value is non-negative.
//   - Saturating to an unsigned integer, rtn is rtz: they differ only on
//     negative values, which both saturate to 0.
//   - _sat is dropped from integer to integer when the destination holds
//     every source value.
//
// TestRepresentativeClasses checks on every recorded digest that the
// members of a class agree and that different classes of one source and
// destination differ, and TestRepresentativeSampled compares members
// input by input on edge values and samples of every source.
func (c Conversion) Representative() Conversion {
	src, dst := c.Src, c.Op.Dst.Kind
	r := c
	r.Op.Dst = cltype.Scalar(dst)
	if exactConversion(src, dst) {
		r.Op.Round = convert.NoSuffix
	} else {
		m := c.Mode()
		if m == round.RTN && (src.IsInteger() && !src.IsSigned() || c.Op.Sat && !dst.IsSigned()) {
			m = round.RTZ
		}
		r.Op.Round = convert.SuffixOf(m)
	}
	if r.Op.Sat && src.IsInteger() && dst.IsInteger() && holds(dst, src) {
		r.Op.Sat = false
	}
	return r
}

// exactConversion reports whether every value of src is a value of dst, so
// no rounding mode ever applies.
func exactConversion(src, dst cltype.Kind) bool {
	switch {
	case src.IsInteger() && dst.IsInteger():
		return true
	case src.IsFloat() && dst.IsFloat():
		return src.Size() <= dst.Size()
	case src.IsInteger() && dst.IsFloat():
		valueBits := src.Bits()
		if src.IsSigned() {
			valueBits--
		}
		return valueBits <= dst.Format().Prec
	}
	return false // floating to integer: fractions are rounded
}

// holds reports whether integer kind dst holds every value of integer kind src.
func holds(dst, src cltype.Kind) bool {
	return dst.MinInt() <= src.MinInt() && dst.MaxUint() >= src.MaxUint()
}

// All returns every scalar conversion: each of the eleven source kinds with
// each convert_ function of the eleven destination kinds (_sat only for
// integer destinations, each rounding suffix and none), in the order source,
// destination, _sat, rounding. There are 11 * 95 = 1045.
func All() []Conversion {
	var out []Conversion
	for _, src := range cltype.Scalars {
		for _, dst := range cltype.Scalars {
			out = append(out, PairOps(src, dst)...)
		}
	}
	return out
}

// PairOps returns the conversions from src to dst, in the order of All.
func PairOps(src, dst cltype.Kind) []Conversion {
	var out []Conversion
	sats := []bool{false}
	if !dst.IsFloat() { // integers and the small formats
		sats = []bool{false, true}
	}
	for _, sat := range sats {
		for r := convert.NoSuffix; r <= convert.SuffixRTN; r++ {
			out = append(out, Conversion{Op: convert.Op{Dst: cltype.Scalar(dst), Sat: sat, Round: r}, Src: src})
		}
	}
	return out
}
