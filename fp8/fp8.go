// Package fp8 implements the two 8-bit floating-point formats of the OCP
// 8-bit Floating Point Specification (OFP8), E4M3 and E5M2, their FNUZ
// variants E4M3FNUZ and E5M2FNUZ, and the OCP Microscaling (MX) scale format
// E8M0, with exact conversions in OpenCL C's
// four rounding modes, with and without _sat.
//
// E4M3 (1 sign, 4 exponent, 3 mantissa bits, bias 7) has no infinities and
// one NaN per sign, S.1111.111, which puts its largest finite value at 448.
// E5M2 (1 sign, 5 exponent, 2 mantissa bits, bias 15) is IEEE-like, with
// infinities and NaNs, and a largest finite value of 57344. LLVM and
// ml_dtypes call E4M3 "float8_e4m3fn" (finite, NaN); SPIR-V calls the two
// Float8E4M3EXT and Float8E5M2EXT.
//
// Conversions to E4M3 and E5M2 round the exact source value once, correctly
// in the mode. A rounded value beyond MAX overflows: without _sat to
// infinity (E5M2) or NaN (E4M3), as the OFP8 specification's non-saturating
// mode and SPV_EXT_float8 say, except in a mode that rounds the value toward
// zero (rtz; rtp below -MAX; rtn above MAX), which gives +-MAX as IEEE 754
// does; with _sat (the Sat forms: OFP8's saturating mode, PTX's .satfinite)
// to +-MAX. Infinite sources give +-infinity (E5M2) or NaN (E4M3), or +-MAX
// with _sat. Rounding is decided on the exact value first: 464 lies half way
// between 448 and 480 and rounds to 448 (the even pattern) in rte, without
// overflowing. Subnormals and the sign of zero are kept. A NaN stays NaN with
// its sign (E5M2 also keeps the top payload bit and sets the quiet bit).
// docs/FORMATS.md gives every rule and the texts it follows.
//
// E8M0 (8 exponent bits, bias 127, no sign, no mantissa) holds the powers of
// two 2^-127 .. 2^127 and one NaN, 0xFF; it has no zero and no infinity
// (ml_dtypes calls it "float8_e8m0fnu"). See [E8M0] for its rules.
//
// E4M3FNUZ and E5M2FNUZ (ml_dtypes' and PyTorch's float8_e4m3fnuz and
// float8_e5m2fnuz, AMD MI300's FP8) have a bias one larger (8 and 16), no
// infinities, no negative zero and one NaN, 0x80; their largest values are
// 240 and 57344. Overflow without _sat gives that NaN, as ml_dtypes and
// PyTorch do (+-MAX in a mode that rounds toward zero), and a result of -0
// is +0. See [E4M3FNUZ].
//
// The conversions from float32 take their rounding from float32 hardware
// arithmetic, which Go defines to round to nearest even on every port, and
// correct the directed modes after an exact comparison, as package half
// does; float64 sources are first rounded to float32 by rounding to odd,
// which never changes the second rounding. Both are checked against the
// integer-only reference in internal/minifloat on every float32 (go test
// -long) and on 2^16 x 4 float32 patterns by default.
//
// String and %v print the exact value ("448", "0.001953125", "57344"),
// which is always short, and spell infinities and NaNs "inf", "-inf", "nan"
// and "-nan", as OpenCL's printf does; E8M0's values with more than 17
// significant digits print as C hex floats ("0x1p-127").
package fp8

import "github.com/clconv/clconv/internal/floatfmt"

// The method sets of E4M3, E5M2, E4M3FNUZ and E5M2FNUZ are generated from
// the format table (internal/gen/small.go); E8M0 is written by hand.
//go:generate go run ../internal/gen -small fp8 -o zfp8.go

// exact formats a finite value exactly, as String does.
func exact(f float64) string { return string(floatfmt.AppendExact(nil, f)) }
