package fp6_test

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/round"
)

// The MX element formats saturate: a value beyond the largest, and an
// infinity, gives +-MAX in every mode; a NaN gives +0. Rounding is decided
// on the exact value: 7.25 lies half way between 7 and 7.5 in E2M3 and rte
// picks 7, the even pattern.
func Example() {
	for _, x := range []float32{7.25, 7.26, 100, float32(math.Inf(-1)), float32(math.NaN())} {
		fmt.Printf("%v: e2m3 %v, rtz %v; e3m2 %v\n", x,
			fp6.E2M3FromFloat32(x, round.RTE), fp6.E2M3FromFloat32(x, round.RTZ), fp6.E3M2FromFloat32(x, round.RTE))
	}
	// Output:
	// 7.25: e2m3 7, rtz 7; e3m2 7
	// 7.26: e2m3 7.5, rtz 7; e3m2 7
	// 100: e2m3 7.5, rtz 7.5; e3m2 28
	// -Inf: e2m3 -7.5, rtz -7.5; e3m2 -28
	// NaN: e2m3 0, rtz 0; e3m2 0
}

// Bits gives the 6-bit pattern; the exact value prints in full.
func ExampleE3M2FromFloat64() {
	for _, m := range round.Modes {
		x := fp6.E3M2FromFloat64(0.1, m)
		fmt.Printf("%s: %#02x %v\n", m, x.Bits(), x)
	}
	// Output:
	// rte: 0x02 0.125
	// rtz: 0x01 0.0625
	// rtp: 0x02 0.125
	// rtn: 0x01 0.0625
}
