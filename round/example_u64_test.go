package round_test

import (
	"fmt"

	"github.com/clconv/clconv/round"
)

// 2^64-1 is not a float: rte and rtp round up to 2^64, rtz and rtn down.
func ExampleUint64ToFloat32() {
	for _, m := range []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN} {
		fmt.Printf("%v %g\n", m, round.Uint64ToFloat32(1<<64-1, m))
	}
	// Output:
	// rte 1.8446744e+19
	// rtz 1.8446743e+19
	// rtp 1.8446744e+19
	// rtn 1.8446743e+19
}
