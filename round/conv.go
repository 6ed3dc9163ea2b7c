package round

import (
	"math"

	"github.com/clconv/clconv/internal/permode"
)

// The conversions below switch on the mode and call the branch-free one-mode
// forms in internal/permode, which convert's slice kernels call directly.

// Float64ToFloat32 rounds x to binary32 in mode m. Overflow and underflow follow
// IEEE 754 (rtz never overflows to infinity; subnormals are kept). A NaN keeps
// its sign and the high payload bits that fit, with the quiet bit set.
func Float64ToFloat32(x float64, m Mode) float32 {
	switch m {
	case RTZ:
		return permode.F64ToF32RTZ(x)
	case RTP:
		return permode.F64ToF32RTP(x)
	case RTN:
		return permode.F64ToF32RTN(x)
	}
	return permode.F64ToF32RTE(x)
}

// Integral rounds x to an integral value in mode m (NaN and infinities pass through).
func Integral(x float64, m Mode) float64 {
	switch m {
	case RTZ:
		return math.Trunc(x)
	case RTP:
		return math.Ceil(x)
	case RTN:
		return math.Floor(x)
	}
	return math.RoundToEven(x)
}

// Uint64ToFloat64 rounds a to binary64 in mode m.
func Uint64ToFloat64(a uint64, m Mode) float64 {
	switch m {
	case RTZ:
		return permode.U64ToF64RTZ(a)
	case RTP:
		return permode.U64ToF64RTP(a)
	case RTN:
		return permode.U64ToF64RTN(a)
	}
	return permode.U64ToF64RTE(a)
}

// Uint64ToFloat32 rounds a to binary32 in mode m.
func Uint64ToFloat32(a uint64, m Mode) float32 {
	switch m {
	case RTZ:
		return permode.U64ToF32RTZ(a)
	case RTP:
		return permode.U64ToF32RTP(a)
	case RTN:
		return permode.U64ToF32RTN(a)
	}
	return permode.U64ToF32RTE(a)
}

// Int64ToFloat64 rounds v to binary64 in mode m. Zero gives +0.
func Int64ToFloat64(v int64, m Mode) float64 {
	switch m {
	case RTZ:
		return permode.I64ToF64RTZ(v)
	case RTP:
		return permode.I64ToF64RTP(v)
	case RTN:
		return permode.I64ToF64RTN(v)
	}
	return permode.I64ToF64RTE(v)
}

// Int64ToFloat32 rounds v to binary32 in mode m. Zero gives +0.
func Int64ToFloat32(v int64, m Mode) float32 {
	switch m {
	case RTZ:
		return permode.I64ToF32RTZ(v)
	case RTP:
		return permode.I64ToF32RTP(v)
	case RTN:
		return permode.I64ToF32RTN(v)
	}
	return permode.I64ToF32RTE(v)
}

// Float32ToFloat64 widens x exactly. A NaN keeps its sign and payload (moved to
// the high payload bits) and gets the quiet bit, as IEEE hardware does.
func Float32ToFloat64(x float32) float64 {
	if x != x {
		b := math.Float32bits(x)
		return math.Float64frombits(uint64(b&0x80000000)<<32 | 0x7ff8000000000000 | uint64(b&0x3fffff)<<29)
	}
	return float64(x)
}
