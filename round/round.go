// Package round holds IEEE 754 rounding modes and the fast, exact rounding
// primitives that clconv's conversions are built from.
//
// Every primitive here takes its result from the hardware's round-to-nearest-even
// operation (which Go exposes on every platform) and, for the directed modes,
// corrects it by one unit in the last place after an exact comparison with the
// source value. The correction is exact because a correctly rounded nearest
// result is always one of the two representable neighbours of the exact value.
// The independent reference in internal/ref rounds with integer arithmetic
// instead, and tests compare the two.
package round

import "fmt"

// Mode is an IEEE 754 rounding direction, named as in OpenCL C.
type Mode uint8

// The four rounding modes. RTE is the default for floating results.
const (
	RTE Mode = iota // round to nearest, ties to even
	RTZ             // round toward zero
	RTP             // round toward +infinity
	RTN             // round toward -infinity
)

// Modes lists the four modes in order.
var Modes = []Mode{RTE, RTZ, RTP, RTN}

var modeNames = [...]string{"rte", "rtz", "rtp", "rtn"}

// String returns the OpenCL suffix name without underscore ("rte").
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode parses "rte", "rtz", "rtp" or "rtn".
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rounding mode %q (want rte, rtz, rtp or rtn)", s)
}
