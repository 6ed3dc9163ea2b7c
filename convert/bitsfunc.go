package convert

import (
	"math"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/permode"
	"github.com/clconv/clconv/round"
)

func init() { kernels.BitsFunc = bitsFunc }

// bitsFunc returns Bits for one pair of kinds, mode and saturation, resolved
// once: the function of the pair is called without Bits' switches on the
// kinds. The pairs an interpreter's scalar code converts most (between int,
// uint, long, float and double) call their function directly; every other
// pair calls Bits. TestBitsFunc holds each to Bits.
func bitsFunc(dst, src cltype.Kind, m round.Mode, sat bool) func(uint64) (uint64, bool) {
	switch src {
	case cltype.Float:
		switch dst {
		case cltype.Int:
			return func(b uint64) (uint64, bool) {
				v, ok := checkFloatToInt(math.Float32frombits(uint32(b)), m)
				return uint64(uint32(v)), !ok && !sat
			}
		case cltype.Uint:
			return func(b uint64) (uint64, bool) {
				v, ok := checkFloatToUint(math.Float32frombits(uint32(b)), m)
				return uint64(v), !ok && !sat
			}
		case cltype.Long:
			return func(b uint64) (uint64, bool) {
				v, ok := checkFloatToLong(math.Float32frombits(uint32(b)), m)
				return uint64(v), !ok && !sat
			}
		case cltype.Double:
			return func(b uint64) (uint64, bool) {
				return math.Float64bits(floatToDouble(math.Float32frombits(uint32(b)), m, sat)), false
			}
		}
	case cltype.Double:
		switch dst {
		case cltype.Int:
			return func(b uint64) (uint64, bool) {
				v, ok := checkDoubleToInt(math.Float64frombits(b), m)
				return uint64(uint32(v)), !ok && !sat
			}
		case cltype.Long:
			return func(b uint64) (uint64, bool) {
				v, ok := checkDoubleToLong(math.Float64frombits(b), m)
				return uint64(v), !ok && !sat
			}
		case cltype.Float:
			return func(b uint64) (uint64, bool) {
				return uint64(math.Float32bits(doubleToFloat(math.Float64frombits(b), m, sat))), false
			}
		}
	case cltype.Int:
		switch dst {
		case cltype.Float:
			// intToFloat, with round.Float64ToFloat32's mode resolved.
			switch m {
			case round.RTZ:
				return func(b uint64) (uint64, bool) {
					return uint64(math.Float32bits(permode.F64ToF32RTZ(float64(int32(b))))), false
				}
			case round.RTP:
				return func(b uint64) (uint64, bool) {
					return uint64(math.Float32bits(permode.F64ToF32RTP(float64(int32(b))))), false
				}
			case round.RTN:
				return func(b uint64) (uint64, bool) {
					return uint64(math.Float32bits(permode.F64ToF32RTN(float64(int32(b))))), false
				}
			}
			return func(b uint64) (uint64, bool) {
				return uint64(math.Float32bits(permode.F64ToF32RTE(float64(int32(b))))), false
			}
		case cltype.Double:
			return func(b uint64) (uint64, bool) {
				return math.Float64bits(intToDouble(int32(b), m, sat)), false
			}
		}
	case cltype.Uint:
		if dst == cltype.Float {
			return func(b uint64) (uint64, bool) {
				return uint64(math.Float32bits(uintToFloat(uint32(b), m, sat))), false
			}
		}
	case cltype.Long:
		switch dst {
		case cltype.Float:
			return func(b uint64) (uint64, bool) {
				return uint64(math.Float32bits(longToFloat(int64(b), m, sat))), false
			}
		case cltype.Double:
			return func(b uint64) (uint64, bool) {
				return math.Float64bits(longToDouble(int64(b), m, sat)), false
			}
		}
	}
	return func(b uint64) (uint64, bool) { return convertBits(dst, src, b, m, sat) }
}
