package fp8

import (
	"fmt"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/smallfast"
)

// Format implements [fmt.Formatter], as half.Half does, except for %v: the
// float verbs format x as fmt formats a float64 of the same value, honouring
// flags, width and precision; %v without a precision prints [E4M3.String],
// the exact value ("448", "nan"), padded and signed as a number; %g and %G
// without a precision give the shortest decimal that reads back to the
// float64, which for E4M3 is the exact value too; %b gives the 4-bit integer
// significand and power of two (1.5 is 12p-3); %s and %q format
// [E4M3.String]; %#v prints the bit pattern (0x38); other verbs are errors
// as for a float64: %!d(fp8.E4M3=1).
func (x E4M3) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp8.E4M3", uint8(x), 8, 3, 7, x.Float64(), x.IsFinite(), x.String))
}

// Format implements [fmt.Formatter] as [E4M3.Format] does; %b gives the
// 3-bit integer significand (1.5 is 6p-2), and %v prints infinities as
// [E5M2.String] does, "inf" and "-inf" (the other float verbs as fmt prints
// a float64's, "+Inf").
func (x E5M2) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp8.E5M2", uint8(x), 8, 2, 15, x.Float64(), x.IsFinite(), x.String))
}

// Format implements [fmt.Formatter] as [E4M3.Format] does (the NaN 0x80
// prints as "nan" with %v, as fmt prints a NaN with the float verbs).
func (x E4M3FNUZ) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp8.E4M3FNUZ", uint8(x), 8, 3, 8, x.Float64(), x.IsFinite(), x.String))
}

// Format implements [fmt.Formatter] as [E4M3.Format] does; %b gives the
// 3-bit integer significand.
func (x E5M2FNUZ) Format(s fmt.State, verb rune) {
	floatfmt.Format(s, verb, smallfast.FmtValue("fp8.E5M2FNUZ", uint8(x), 8, 2, 16, x.Float64(), x.IsFinite(), x.String))
}
