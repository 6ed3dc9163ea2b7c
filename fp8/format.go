package fp8

import (
	"fmt"

	"github.com/clconv/clconv/internal/floatfmt"
)

// Format implements [fmt.Formatter], as half.Half does: the float verbs
// format x as fmt formats a float64 of the same value, honouring flags,
// width and precision; %v, %g and %G without a precision give the shortest
// decimal that reads back to x; %b gives the 4-bit integer significand and
// power of two (1.5 is 12p-3). NaNs print as "NaN"; %s and %q format
// [E4M3.String]; %#v prints the bit pattern (0x38); other verbs are errors
// as for a float64: %!d(fp8.E4M3=1).
func (x E4M3) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, fmtValue("fp8.E4M3", uint8(x), x.Float64(), x.IsFinite(), 3, 7, x.shortest, x.String))
}

// Format implements [fmt.Formatter] as [E4M3.Format] does; %b gives the
// 3-bit integer significand (1.5 is 6p-2), and infinities print as "+Inf"
// and "-Inf".
func (x E5M2) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, fmtValue("fp8.E5M2", uint8(x), x.Float64(), x.IsFinite(), 2, 15, x.shortest, x.String))
}

func fmtValue(typ string, b uint8, f float64, finite bool, mant uint, bias int, shortest func() float64, str func() string) floatfmt.Value {
	v := floatfmt.Value{Type: typ, Bits: b, Float: f, Finite: finite, Neg: b&0x80 != 0, Shortest: shortest, String: str}
	if finite {
		field := int(b&0x7f) >> mant
		v.Mant = uint64(b) & (1<<mant - 1)
		if field == 0 {
			field = 1 // subnormal
		} else {
			v.Mant |= 1 << mant
		}
		v.Exp = field - bias - int(mant)
	}
	return v
}
