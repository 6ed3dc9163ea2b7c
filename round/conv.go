package round

import (
	"math"

	"github.com/clconv/clconv/internal/permode"
)

// The conversions below pick, by mode, the branch-free one-mode forms in
// internal/permode, which convert's slice kernels call directly.

// byMode returns the entry of t for mode m; a mode out of range means RTE, as
// everywhere in clconv.
func byMode[F any](t *[4]F, m Mode) F {
	if m > RTN {
		m = RTE
	}
	return t[m]
}

var (
	f64ToF32 = [4]func(float64) float32{RTE: permode.F64ToF32RTE, RTZ: permode.F64ToF32RTZ, RTP: permode.F64ToF32RTP, RTN: permode.F64ToF32RTN}
	u64ToF64 = [4]func(uint64) float64{RTE: permode.U64ToF64RTE, RTZ: permode.U64ToF64RTZ, RTP: permode.U64ToF64RTP, RTN: permode.U64ToF64RTN}
	u64ToF32 = [4]func(uint64) float32{RTE: permode.U64ToF32RTE, RTZ: permode.U64ToF32RTZ, RTP: permode.U64ToF32RTP, RTN: permode.U64ToF32RTN}
	i64ToF64 = [4]func(int64) float64{RTE: permode.I64ToF64RTE, RTZ: permode.I64ToF64RTZ, RTP: permode.I64ToF64RTP, RTN: permode.I64ToF64RTN}
	i64ToF32 = [4]func(int64) float32{RTE: permode.I64ToF32RTE, RTZ: permode.I64ToF32RTZ, RTP: permode.I64ToF32RTP, RTN: permode.I64ToF32RTN}
)

// Float64ToFloat32 rounds x to binary32 in mode m. Overflow and underflow follow
// IEEE 754 (rtz never overflows to infinity; subnormals are kept). A NaN keeps
// its sign and the high payload bits that fit, with the quiet bit set.
func Float64ToFloat32(x float64, m Mode) float32 {
	return byMode(&f64ToF32, m)(x)
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
	return byMode(&u64ToF64, m)(a)
}

// Uint64ToFloat32 rounds a to binary32 in mode m.
func Uint64ToFloat32(a uint64, m Mode) float32 {
	return byMode(&u64ToF32, m)(a)
}

// Int64ToFloat64 rounds v to binary64 in mode m. Zero gives +0.
func Int64ToFloat64(v int64, m Mode) float64 {
	return byMode(&i64ToF64, m)(v)
}

// Int64ToFloat32 rounds v to binary32 in mode m. Zero gives +0.
func Int64ToFloat32(v int64, m Mode) float32 {
	return byMode(&i64ToF32, m)(v)
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
