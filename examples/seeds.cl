// Every legal example of the seed documents in one file, in order:
//
//     go run ./cmd/clconv run examples/seeds.cl
//
// prints every variable they declare at top level with its final value.
// The examples reuse names (f, i, c, ...); each declaration at top level is a
// new variable, and all are printed (run --warn points the repeats out).
//
// This file is the concatenation of examples/*.cl; go test ./cmd/clconv
// -run TestSeedsFile -update rewrites it. Do not edit it by hand.

// ==== examples/000_convert_int.cl ====
// Seed 000 (and 001, 002): convert_int converts a float scalar f to an int
// scalar i, rounding toward zero (no suffix on an integer destination). The
// spec leaves f unset; it gets a value here.
float f = -2.75f;
int i = convert_int(f);

// ==== examples/000_convert_int4.cl ====
// Seed 000 (and 001, 002): convert_int4 converts a uchar4 vector u to an int4
// vector c. The spec leaves u unset; it gets values here so that the output
// shows something (an uninitialized variable would be 0).
uchar4 u = (uchar4)(0, 1, 128, 255);
int4 c = convert_int4(u);

// ==== examples/000_float4_to_int4.cl ====
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

// ==== examples/000_int4_to_float4.cl ====
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

// ==== examples/000_sat_short4.cl ====
// Seed 000 (and 001, 002): saturating conversions from short4. The spec leaves
// s unset; it gets values here that reach both ends of each range.
short4 s = (short4)(-300, -1, 100, 300);
// negative values clamped to 0
ushort4 u = convert_ushort4_sat( s );
// values > CHAR_MAX converted to CHAR_MAX
// values < CHAR_MIN converted to CHAR_MIN
char4 c = convert_char4_sat( s );

// ==== examples/001_cast_truncates.cl ====
// Seed 001: a cast from float to int rounds toward zero. The book leaves x
// unset; it gets a value here.
float x = -2.75f;
int   i = (int)x;

// ==== examples/001_float4_to_uchar4_sat_rte.cl ====
// Seed 001, Figure 4.2: a float4 converted with round-to-nearest and
// saturation. The book writes "ushort4 c = convert_uchar4_sat_rte(f);",
// which is an error (errors/001_ushort4_typo.cl); both meanings are here.
float4  f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);
uchar4  c = convert_uchar4_sat_rte(f);
ushort4 c16 = convert_ushort4_sat_rte(f);

// ==== examples/001_round_half_trick.cl ====
// Seed 001: why (int)(x + 0.5f) is not rounding to nearest. The book shows it
// with a C program (nextafterf and printf); here is the same computation in
// OpenCL C. b is 0.5f - 1 ulp: b + 0.5f is exactly halfway between
// 1 - 2^-24 and 1.0f, rounds (ties to even) to 1.0f, and so gives 1, not 0.
float a = 0.5f;
float b = as_float(as_uint(a) - 1); // a - 1 ulp
uint a_bits = as_uint(a);           // 0x3f000000
uint b_bits = as_uint(b);           // 0x3effffff
int ia = (int)(a + 0.5f);           // 1
int ib = (int)(b + 0.5f);           // 1: the surprise
int ib_rte = convert_int_rte(b);    // 0: what was meant
// For negative x the trick rounds the wrong way too.
float x = -2.7f;
int trick = (int)(x + 0.5f);        // -2
int right = convert_int_rte(x);     // -3

// ==== examples/003_as_float3.cl ====
// Seed 003: a 4-vector reinterpreted as a 3-vector keeps the first three
// elements' bits. The spec leaves f unset; it gets values here.
float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
// Legal. g.xyz will have same values as f.xyz. g.w is undefined
float3 g = as_float3(f);

// ==== examples/003_as_impl_defined.cl ====
// Seed 003: as_type between types with different element counts is
// implementation-defined. clconv reinterprets the little-endian memory image,
// as a union does on x86 and ARM. The spec leaves i unset; it gets values
// here.
int i = 0x00020001;
// Legal. Result is implementation-defined.
short2 j = as_short2(i);

int4 i = (int4)(0x00020001, 0x00040003, -1, 0x7fff8000);
// Legal. Result is implementation-defined.
short8 j = as_short8(i);

// ==== examples/003_as_select.cl ====
// Seed 003: a comparison gives -1 (all bits set) or 0 per element, so & with
// the bits of f keeps f where f < g and gives 0.0f elsewhere. The spec leaves
// f and g unset; they get values here.
float4 f = (float4)(1.0f, 5.0f, -3.0f, 8.0f), g = (float4)(2.0f, 4.0f, 0.0f, 8.0f);
int4 is_less = f < g;
// Legal. f[i] = f[i] < g[i] ? f[i] : 0.0f
f = as_float4(as_int4(f) & is_less);

// ==== examples/003_as_type.cl ====
// Seed 003: as_type reinterprets the bits (run --bits shows them).
float f = 1.0f;
uint u = as_uint(f); // Legal. Contains: 0x3f800000

float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
// Legal. Contains: (int4)
// (0x3f800000, 0x40000000, 0x40400000, 0x40800000)
int4 i = as_int4(f);

float one = as_float(0x3f800000);

// ==== examples/004_select_rounding_mode.cl ====
// Seed 004: #pragma OPENCL SELECT_ROUNDING_MODE. The example needs the
// extension enabled and b, c and foo defined; they are added here.
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable

float4 b = (float4)(1.1f, 0.1f, -1.1f, 3.0f);
float4 c = (float4)(1.3f, 3.0f, 1.3f, 0.7f);

// foo is written where the mode is rte (the default), so it computes in rte wherever it is
// called from ("callees do not inherit the rounding mode of the caller").
float4 foo(float4 x) { return x * 1.1f + 1.0f; }

float4 a_rte = b * c; // the default mode, for comparison

#pragma OPENCL SELECT_ROUNDING_MODE rtz
float4 a = b * c; // uses round to zero rounding mode.

#pragma OPENCL SELECT_ROUNDING_MODE rtp
float4 d = foo(a); // function foo uses rounding mode
                   // specified where source for foo() is implemented.
float4 d_here = a * 1.1f + 1.0f; // the same arithmetic written here rounds up

// A pragma inside a block lasts to the end of the block.
float4 e = 0.0f;
{
#pragma OPENCL SELECT_ROUNDING_MODE rtn
    e = b * c;
}
float4 after_block = b * c; // rtp again

#pragma OPENCL SELECT_ROUNDING_MODE rte // back to the default

// ==== examples/rounding_mode_macro.cl ====
// __ROUNDING_MODE__ names the mode in force, so that a macro can pick a
// function per mode. The SELECT_ROUNDING_MODE page suggests
// "#define foo foo ## __ROUNDING_MODE__", but ## does not expand its
// operands (see errors/004_paste_idiom.cl); this form works:
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define third XCAT(third_, __ROUNDING_MODE__)

float third_rte(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float third_rtz(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtp
float third_rtp(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtn
float third_rtn(float x) { return x / 3.0f; }

#pragma OPENCL SELECT_ROUNDING_MODE rte
float t_rte = third(1.0f); // third_rte(1.0f)
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float t_rtz = third(1.0f); // third_rtz(1.0f)
#pragma OPENCL SELECT_ROUNDING_MODE rtp
float t_rtp = third(1.0f); // third_rtp(1.0f)
#pragma OPENCL SELECT_ROUNDING_MODE rtn
float t_rtn = third(1.0f); // third_rtn(1.0f)
