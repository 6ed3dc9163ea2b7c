package digest_test

import (
	"fmt"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
)

// Representative names the conversion that stands for all those with the
// same result on every input.
func ExampleConversion_Representative() {
	for _, nc := range [][2]string{
		{"convert_int", "float"},            // no suffix: rtz to integers
		{"convert_float_rtn", "uint"},       // rtn is rtz for unsigned values
		{"convert_double_rtp", "float"},     // exact: no rounding at all
		{"convert_ushort_sat_rte", "uchar"}, // ushort holds every uchar
	} {
		c, _ := digest.Parse(nc[0], nc[1])
		r := c.Representative()
		fmt.Printf("%s %s -> %s %s\n", nc[0], nc[1], r.Op.Name(), r.Src)
	}
	fmt.Println(len(digest.All()), "conversions")
	// Output:
	// convert_int float -> convert_int_rtz float
	// convert_float_rtn uint -> convert_float_rtz uint
	// convert_double_rtp float -> convert_double float
	// convert_ushort_sat_rte uchar -> convert_ushort uchar
	// 1045 conversions
}
