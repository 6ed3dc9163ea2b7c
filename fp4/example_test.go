package fp4_test

import (
	"fmt"

	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/round"
)

// E2M1 has sixteen values. Ties go to the even pattern (2.5 to 2, 5 to 4),
// the directed modes to a neighbour, and everything beyond 6 to 6.
func Example() {
	for _, x := range []float32{0.25, 2.5, 5, 5.5, 1000} {
		fmt.Printf("%v:", x)
		for _, m := range round.Modes {
			fmt.Printf(" %s %v", m, fp4.E2M1FromFloat32(x, m))
		}
		fmt.Println()
	}
	// Output:
	// 0.25: rte 0 rtz 0 rtp 0.5 rtn 0
	// 2.5: rte 2 rtz 2 rtp 3 rtn 2
	// 5: rte 4 rtz 4 rtp 6 rtn 4
	// 5.5: rte 6 rtz 4 rtp 6 rtn 4
	// 1000: rte 6 rtz 6 rtp 6 rtn 6
}

// A code lives in the low 4 bits of a byte; Bits returns it.
func ExampleE2M1FromFloat64() {
	x := fp4.E2M1FromFloat64(-1.4, round.RTE)
	fmt.Printf("%v %#x %b\n", x, x.Bits(), x)
	// Output: -1.5 0xb -3p-1
}
