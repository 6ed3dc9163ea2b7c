// Seed 000 (and 001, 002): float4 -> int4 with and without _sat and _rte.
// The spec leaves f unset; it gets a tie, a tie with an odd integer part, a
// value beyond INT_MAX and a NaN here.
//
// convert_int4(f) is implementation-defined for the last two lanes; clconv
// gives the saturated value there, the same as _sat (run --warn says so).
float4 f = (float4)(-2.5f, 3.5f, 3e9f, NAN);
// values implementation defined for
// f > INT_MAX, f < INT_MIN or NaN
int4 i = convert_int4( f );
// values > INT_MAX clamp to INT_MAX, values < INT_MIN clamp
// to INT_MIN. NaN should produce 0.
// The _rtz rounding mode is
// used to produce the integer values.
int4 i2 = convert_int4_sat( f );
// similar to convert_int4, except that
// floating-point values are rounded to the nearest
// integer instead of truncated
int4 i3 = convert_int4_rte( f );
// similar to convert_int4_sat, except that
// floating-point values are rounded to the
// nearest integer instead of truncated
int4 i4 = convert_int4_sat_rte( f );
