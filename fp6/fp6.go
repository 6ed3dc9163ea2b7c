// Package fp6 implements the two 6-bit floating-point element formats of the
// OCP Microscaling (MX) Specification v1.0, E2M3 and E3M2, with exact
// conversions in OpenCL C's four rounding modes, with and without _sat.
//
// E2M3 (1 sign, 2 exponent, 3 mantissa bits, bias 1) holds -7.5 .. 7.5 in
// steps of 0.125 below 2; E3M2 (1 sign, 3 exponent, 2 mantissa bits, bias 3)
// holds -28 .. 28, its smallest subnormal 0.0625. Neither has infinities or
// NaNs: every pattern is a number. ml_dtypes calls them "float6_e2m3fn" and
// "float6_e3m2fn" and stores one per byte, the code in the low 6 bits, as
// these types do (the two high bits are ignored).
//
// Conversions round the exact source value once, correctly in the mode,
// keeping subnormals and the sign of zero (docs/FORMATS.md, R1, R3..R7):
//
//   - A value beyond MAX, and an infinity, gives +-MAX in every mode, with
//     or without _sat: the formats have nothing else to give, and the MX
//     specification clamps a block's elements to the normal range. The Sat
//     forms exist for symmetry with the other formats and give the same.
//   - A NaN gives +0. The MX specification leaves the conversion of a NaN
//     to these formats to the implementation; clconv gives 0 as OpenCL C's
//     float -> integer conversions do. (ml_dtypes 0.6.0 gives its
//     "quiet_NaN", -0 (0x20), for a positive NaN and +0 for a negative one.)
//
// convert.ToChecked reports a NaN, an infinity and an overflow as errors.
//
// The conversions from float32 take their rounding from float32 hardware
// arithmetic, as package fp8 does; float64 sources are first rounded to
// float32 by rounding to odd, which never changes the second rounding. Both
// are checked against the integer-only reference internal/minifloat on
// every float32 (go test -long) and on 2^16 x 4 float32 patterns by default.
//
// String and %v print the exact value, which is always short ("7.5",
// "0.125", "-0", "0.0625").
package fp6

// The method sets of E2M3 and E3M2 are generated from the format table
// (internal/gen/small.go).
//go:generate go run ../internal/gen -small fp6 -o zfp6.go
