package fp8_test

import (
	"fmt"

	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/round"
)

// Rounding is decided on the exact value first: 464 is half way between
// 448 (the largest E4M3) and 480, and rte picks 448, the even pattern.
// Beyond it, E4M3 overflows to NaN and E5M2 to infinity; _sat gives the
// largest finite value. %v prints the exact value.
func Example_overflow() {
	for _, x := range []float32{464, 465} {
		fmt.Printf("%v: e4m3 %v %v sat %v\n", x,
			fp8.E4M3FromFloat32(x, round.RTE), fp8.E4M3FromFloat32(x, round.RTZ), fp8.E4M3FromFloat32Sat(x, round.RTE))
	}
	fmt.Printf("1e6: e5m2 %v %v sat %v\n",
		fp8.E5M2FromFloat32(1e6, round.RTE), fp8.E5M2FromFloat32(1e6, round.RTZ), fp8.E5M2FromFloat32Sat(1e6, round.RTE))
	// Output:
	// 464: e4m3 448 448 sat 448
	// 465: e4m3 nan 448 sat 448
	// 1e6: e5m2 inf 57344 sat 57344
}

// A float32 in each mode; Bits gives the pattern.
func ExampleE5M2FromFloat32() {
	for _, m := range round.Modes {
		x := fp8.E5M2FromFloat32(0.3, m)
		fmt.Printf("%s: %#02x %v %g\n", m, x.Bits(), x, x.Float32())
	}
	// Output:
	// rte: 0x35 0.3125 0.3125
	// rtz: 0x34 0.25 0.25
	// rtp: 0x35 0.3125 0.3125
	// rtn: 0x34 0.25 0.25
}

// Infinities and NaNs: E4M3 has no infinity, so without _sat it gives NaN,
// with its sign.
func ExampleE4M3FromFloat64() {
	inf := 1 / zero
	fmt.Println(fp8.E4M3FromFloat64(-inf, round.RTE).String(), fp8.E4M3FromFloat64Sat(-inf, round.RTE))
	fmt.Println(fp8.E5M2FromFloat64(-inf, round.RTE), fp8.E5M2FromFloat64Sat(-inf, round.RTE))
	// Output:
	// -nan -448
	// -inf -57344
}

// E8M0 holds powers of two only. rtz is the MX specification's floor of a
// block's scale, rtp the ceiling; rte rounds a tie, 1.5 * 2^k, up. Zero and
// negative values have no E8M0 value: NaN, or the smallest, 2^-127, under
// _sat.
func ExampleE8M0FromFloat32() {
	for _, x := range []float32{6, 5.9, 0.75, 1e-40} {
		fmt.Printf("%v: rtz %v rte %v rtp %v\n", x,
			fp8.E8M0FromFloat32(x, round.RTZ), fp8.E8M0FromFloat32(x, round.RTE), fp8.E8M0FromFloat32(x, round.RTP))
	}
	fmt.Println(fp8.E8M0FromFloat32(0, round.RTE), fp8.E8M0FromFloat32Sat(0, round.RTE), fp8.E8M0FromFloat32Sat(-2, round.RTE).Exp())
	// Output:
	// 6: rtz 4 rte 8 rtp 8
	// 5.9: rtz 4 rte 4 rtp 8
	// 0.75: rtz 0.5 rte 1 rtp 1
	// 1e-40: rtz 0x1p-127 rte 0x1p-127 rtp 0x1p-127
	// nan 0x1p-127 -127
}

var zero float64
