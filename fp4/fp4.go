// Package fp4 implements the 4-bit floating-point element format of the OCP
// Microscaling (MX) Specification v1.0, E2M1 ("FP4"), with exact conversions
// in OpenCL C's four rounding modes, with and without _sat.
//
// E2M1 (1 sign, 2 exponent, 1 mantissa bit, bias 1) holds the sixteen values
// ±0, ±0.5, ±1, ±1.5, ±2, ±3, ±4, ±6. It has no infinities or NaNs: every
// pattern is a number. ml_dtypes calls it "float4_e2m1fn" and stores one per
// byte, the code in the low 4 bits, as this type does (the high 4 bits are
// ignored); NVIDIA's NVFP4 uses the same element format.
//
// Conversions round the exact source value once, correctly in the mode,
// keeping the subnormal 0.5 and the sign of zero (docs/FORMATS.md, R1,
// R3..R7):
//
//   - A value beyond 6, and an infinity, gives +-6 in every mode, with or
//     without _sat: the format has nothing else to give, and the MX
//     specification clamps a block's elements to the normal range. The Sat
//     forms exist for symmetry with the other formats and give the same.
//   - A NaN gives +0. The MX specification leaves the conversion of a NaN
//     to this format to the implementation; clconv gives 0 as OpenCL C's
//     float -> integer conversions do. (ml_dtypes 0.6.0 gives its
//     "quiet_NaN", -0 (0x8), for a positive NaN and +0 for a negative one.)
//
// convert.ToChecked reports a NaN, an infinity and an overflow as errors.
//
// The conversions from float32 take their rounding from float32 hardware
// arithmetic, as package fp8 does; float64 sources are first rounded to
// float32 by rounding to odd, which never changes the second rounding. Both
// are checked against the integer-only reference internal/minifloat on
// every float32 (go test -long) and on 2^16 x 4 float32 patterns by default.
package fp4

// The method set of E2M1 is generated from the format table
// (internal/gen/small.go).
//go:generate go run ../internal/gen -small fp4 -o zfp4.go
