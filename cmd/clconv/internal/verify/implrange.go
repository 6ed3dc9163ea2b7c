package verify

import (
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
)

// hasImplDefined reports whether some inputs of c have an implementation-
// defined result: a floating source converted to an integer without _sat.
func hasImplDefined(c digest.Conversion) bool {
	return c.Src.IsFloat() && c.Op.Dst.Kind.IsInteger() && !c.Op.Sat
}

// floatLayout returns the sign bit, the magnitude mask and the bits of +inf
// of a floating kind.
func floatLayout(k cltype.Kind) (sign, mag, inf uint64) {
	f := k.Format()
	sign = 1 << (k.Bits() - 1)
	mag = sign - 1
	inf = (1<<f.ExpBits() - 1) << (f.Prec - 1)
	return sign, mag, inf
}

// implLimits returns, for a conversion with implementation-defined inputs,
// the smallest magnitude (as a bit pattern without sign) of a positive and
// of a negative input whose rounded value is out of range. With NaN, that is
// the whole implementation-defined set: an input x is implementation-defined
// exactly when it is NaN, or x >= 0 and |x| >= hi, or x < 0 and |x| >= lo.
//
// The device kernel tests the input's bit pattern against these limits with
// integer comparisons, so the classification does not depend on the device's
// floating-point comparisons (or their denormal handling). The limits come
// from the library's own classification (convert.Bits) by binary search over
// the magnitudes, which order like the values they encode: where an input
// stops being in range is the library's knowledge, not a second copy of it.
func implLimits(c digest.Conversion) (hi, lo uint64) {
	sign, _, inf := floatLayout(c.Src)
	m := c.Mode()
	search := func(s uint64) uint64 {
		// The smallest magnitude in [0, inf] that is implementation-defined;
		// infinity always is.
		a, b := uint64(0), inf
		for a < b {
			mid := a + (b-a)/2
			if _, impl := convert.Bits(c.Op.Dst.Kind, c.Src, s|mid, m, false); impl {
				b = mid
			} else {
				a = mid + 1
			}
		}
		return a
	}
	return search(0), search(sign)
}

// isImplDefined classifies one input like the device kernel does; tests
// compare it with convert.Bits over whole input spaces.
func isImplDefined(c digest.Conversion, bits, hi, lo uint64) bool {
	sign, mag, inf := floatLayout(c.Src)
	m := bits & mag
	if m > inf {
		return true
	}
	if bits&sign != 0 {
		return m >= lo
	}
	return m >= hi
}
