// Seed 000 (and 001, 002): int4 -> float4 in the default mode and with _rtp.
// The spec leaves i unset; it gets values that a float cannot hold exactly.
//
// The spec declares f twice, which a C compiler rejects; clconv runs it as
// written, as two variables, and prints both (run --warn notes it).
int4 i = (int4)(1, 16777217, -16777217, 2147483647);
// convert ints to floats using the default rounding mode.
float4 f = convert_float4( i );
// convert ints to floats. integer values that cannot
// be exactly represented as floats should round up to the
// next representable float.
float4 f = convert_float4_rtp( i );
