package half

import (
	"fmt"

	"github.com/clconv/clconv/internal/floatfmt"
)

// Format implements [fmt.Formatter]. The float verbs format h as fmt formats
// a float64 of the same value, honouring the flags + - space 0 #, width and
// precision:
//
//	%v, %g, %G  without a precision, the shortest decimal that reads back to
//	            h (0x2e66 prints as 0.1, not 0.0999755859375); with one, as
//	            for float64
//	%e %E %f %F exact value rounded to the precision, 6 by default
//	%x %X       hexadecimal mantissa and binary exponent, 0x1.8p+00
//	%b          binary16 integer mantissa and power of two, 1536p-10
//	            (as %b prints float32 with its 24-bit mantissa)
//
// Infinities and NaNs print as "+Inf", "-Inf" and "NaN", as fmt prints
// floats. %s and %q format [Half.String] ("inf", "-nan") as a string, %#v
// prints the bit pattern in Go syntax (0x3c00), and other verbs, %d
// included, are errors as for a float64: %!d(half.Half=1). Use h.Bits() to
// format the bit pattern as an integer.
func (h Half) Format(s fmt.State, verb rune) {
	v := floatfmt.Value{
		Type:     "half.Half",
		Bits:     uint16(h),
		Float:    h.Float64(),
		Finite:   h.IsFinite(),
		Neg:      h.Signbit(),
		Shortest: h.shortest,
		String:   h.String,
	}
	if v.Finite {
		exp := int(h>>10) & 0x1f
		v.Mant = uint64(h & 0x3ff)
		if exp == 0 {
			exp = 1 // subnormal
		} else {
			v.Mant |= 0x400
		}
		v.Exp = exp - 15 - 10
	}
	floatfmt.Format(s, verb, v)
}
