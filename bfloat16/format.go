package bfloat16

import (
	"fmt"

	"github.com/clconv/clconv/internal/floatfmt"
)

// Format implements [fmt.Formatter], as half.Half does: the float verbs
// format x as fmt formats a float64 of the same value, honouring flags,
// width and precision; %v, %g and %G without a precision give the shortest
// decimal that reads back to x (0x3dcd prints as 0.1, not 0.10009765625);
// %b gives the 8-bit integer significand and power of two (1.5 is 192p-7).
// Infinities and NaNs print as "+Inf", "-Inf" and "NaN", as fmt prints
// floats; %s and %q format [BFloat16.String] ("inf", "-nan"); %#v prints the
// bit pattern (0x3fc0); other verbs, %d included, are errors as for a
// float64: %!d(bfloat16.BFloat16=1).
func (x BFloat16) Format(s fmt.State, verb rune) {
	v := floatfmt.Value{
		Type:     "bfloat16.BFloat16",
		Bits:     uint16(x),
		Float:    x.Float64(),
		Finite:   x.IsFinite(),
		Neg:      x.Signbit(),
		Shortest: x.shortest,
		String:   x.String,
	}
	if v.Finite {
		exp := int(x>>7) & 0xff
		v.Mant = uint64(x & 0x7f)
		if exp == 0 {
			exp = 1 // subnormal
		} else {
			v.Mant |= 0x80
		}
		v.Exp = exp - 127 - 7
	}
	floatfmt.Format(s, verb, v)
}
