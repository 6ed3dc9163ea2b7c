package bfloat16_test

import (
	"fmt"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/round"
)

// A float32 rounded to bfloat16 in each mode and widened back, exactly. %v
// prints the shortest decimal that reads back to the same bfloat16.
func Example_roundTrip() {
	x := float32(0.1)
	for _, m := range round.Modes {
		b := bfloat16.FromFloat32(x, m)
		fmt.Printf("%s: %#04x %v %.10f\n", m, b.Bits(), b, b.Float32())
	}
	// Output:
	// rte: 0x3dcd 0.1 0.1000976562
	// rtz: 0x3dcc 0.0996 0.0996093750
	// rtp: 0x3dcd 0.1 0.1000976562
	// rtn: 0x3dcc 0.0996 0.0996093750
}

// Overflow gives infinity, except toward zero; the Sat forms give the
// largest finite value instead, as convert_bfloat16_sat would.
func ExampleFromFloat32Sat() {
	big := float32(3.4e38)
	fmt.Println(bfloat16.FromFloat32(big, round.RTE), bfloat16.FromFloat32(big, round.RTZ))
	fmt.Println(bfloat16.FromFloat32Sat(big, round.RTE), bfloat16.FromFloat32Sat(-big, round.RTN))
	// Output:
	// +Inf 3.39e+38
	// 3.39e+38 -3.39e+38
}

// BFloat16 formats as Go formats floats; String keeps OpenCL's spelling.
func ExampleBFloat16_Format() {
	b := bfloat16.FromFloat64(1.5, round.RTE)
	fmt.Printf("%v %.3f %e %x %b %#v\n", b, b, b, b, b, b)
	fmt.Println(bfloat16.NegInf, bfloat16.NegInf.String(), bfloat16.QNaN.String())
	// Output:
	// 1.5 1.500 1.500000e+00 0x1.8p+00 192p-7 0x3fc0
	// -Inf -inf nan
}
