package clc

import (
	"strings"
	"testing"
)

// bfloat16, e4m3, e5m2 and the MX formats e2m1, e2m3, e3m2 and e8m0 are
// storage formats in the interpreter: declared,
// assigned, converted (convert_, as_, casts and implicit conversions, in the
// current mode), selected and passed to functions; every operator on them is
// an error that names the format.
func TestSmallFormats(t *testing.T) {
	tests := []struct{ src, want string }{
		{"bfloat16 x = convert_bfloat16(1.5f); bfloat16x2 v = convert_bfloat16x2((float2)(1, 2)); bfloat16 y = v.y;",
			"x = (bfloat16)0x3fc0\nv = (bfloat16x2)(0x3f80, 0x4000)\ny = (bfloat16)0x4000"},
		// The examples: a tie to the even value, _sat, directed modes.
		{"e4m3 a = convert_e4m3_rte(464.0f); e4m3 b = convert_e4m3(480.0f); e4m3 c = convert_e4m3_sat(1e9f); e4m3 d = convert_e4m3_rtz(1e9f);",
			"a = (e4m3)0x7e\nb = (e4m3)0x7f\nc = (e4m3)0x7e\nd = (e4m3)0x7e"},
		{"e5m2x4 w = convert_e5m2x4_sat_rtp((float4)(1e9f, 0.1f, -3, 0)); e5m2 m = convert_e5m2_rtz(-9223372036854775807L - 1);",
			"w = (e5m2x4)(0x7b, 0x2f, 0xc2, 0x00)\nm = (e5m2)0xfb"},
		// Without a suffix, the current mode.
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\nbfloat16 r; { \n#pragma OPENCL SELECT_ROUNDING_MODE rtp\n r = convert_bfloat16(0.1f); }\nbfloat16 n = convert_bfloat16(0.1f);",
			"r = (bfloat16)0x3dcd\nn = (bfloat16)0x3dcd"},
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\nbfloat16 r; { \n#pragma OPENCL SELECT_ROUNDING_MODE rtz\n r = convert_bfloat16(0.1f); }",
			"r = (bfloat16)0x3dcc"},
		// From them: exact, then the float rules.
		{"int i = convert_int_sat(convert_e5m2(1e6f)); float f = convert_float(convert_bfloat16(0.1f)); ushort u = as_ushort(convert_bfloat16_rtp(0.1));",
			"i = (int)0x7fffffff\nf = (float)0x3dcd0000\nu = (ushort)0x3dcd"},
		{"e4m3x2 p = as_e4m3x2((short)0x3c40); float g = p.y; e4m3 q = 3.0f; float h = (float)q;",
			"p = (e4m3x2)(0x40, 0x3c)\ng = (float)0x3fc00000\nq = (e4m3)0x44\nh = (float)0x40400000"},
		{"e4m3 f(e4m3 p) { return p; }\ne4m3 q = f(convert_e4m3(3.0f)); bfloat16x2 s = select(convert_bfloat16x2((float2)(1, 2)), (bfloat16x2)(5, 6), (short2)(0, -1)); int n = sizeof(bfloat16x3);",
			"q = (e4m3)0x44\ns = (bfloat16x2)(0x3f80, 0x40c0)\nn = (int)0x00000008"},
		// The MX formats: saturation in every mode, NaN to +0, e8m0's
		// powers of two, as_ between 1-byte kinds.
		{"e2m1 a = convert_e2m1_rtz(5.9f); e2m1x4 v = convert_e2m1x4((float4)(1.0f, 7.0f, -0.2f, NAN)); e2m3 b = convert_e2m3(-1e30f); e3m2 c = convert_e3m2_rtp(0.01);",
			"a = (e2m1)0x06\nv = (e2m1x4)(0x02, 0x07, 0x08, 0x00)\nb = (e2m3)0x3f\nc = (e3m2)0x01"},
		{"e8m0 s = convert_e8m0_sat_rtp(0.0f); e8m0 t = convert_e8m0(0.0f); e8m0 u = convert_e8m0_rtz(6.0f); e8m0 w = convert_e8m0(6.0f); uchar b = as_uchar(w); e8m0x2 p = as_e8m0x2((ushort)0x8081); float f = convert_float(p.x);",
			"s = (e8m0)0x00\nt = (e8m0)0xff\nu = (e8m0)0x81\nw = (e8m0)0x82\nb = (uchar)0x82\np = (e8m0x2)(0x81, 0x80)\nf = (float)0x40800000"},
		{"e2m3 x = as_e2m3(convert_e4m3(1.0f)); float f = convert_float(as_e2m1((uchar)0xf7)); int i = convert_int_sat_rte(convert_e3m2(-28.0f));",
			"x = (e2m3)0x38\nf = (float)0x40c00000\ni = (int)0xffffffe4"},
	}
	for _, tc := range tests {
		got, err := runVars(tc.src, true)
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
	errs := []struct{ src, want string }{
		{"e4m3 q = convert_e4m3(1.0f); e4m3 r = q + q;", "t:1:41: operator + is not defined on e4m3: e4m3 is a storage format"},
		{"bfloat16x4 q = convert_bfloat16x4((float4)1); int4 r = q == q;", "operator == is not defined on bfloat16x4"},
		{"e5m2 q; q++;", "operator ++ is not defined on e5m2"},
		{"e5m2 q; q += 1;", "operator + is not defined on e5m2"},
		{"e5m2 q; e5m2 r = -q;", "operator - is not defined on e5m2"},
		{"e5m2 q; int r = !q;", "operator ! is not defined on e5m2"},
		{"e5m2 q; if (q) {}", "the condition of if is not defined on e5m2"},
		{"e5m2 q; int r = q ? 1 : 2;", "the condition of ?: is not defined on e5m2"},
		{"e5m2 q; float s = 1 ? q : 2.0f;", "incompatible operand types e5m2 and float in ?:"},
		{"float f = convert_float(convert_e4m34(1.0f));", "a vector of e4m3 is written e4m3x4"},
		{"bfloat16x4 v = convert_bfloat16x4(1.0f);", "needs a 4-element operand"},
		{"float f = convert_float_sat(convert_e4m3(1.0f));", "_sat is not allowed with a floating destination"},
		{"e8m0 q; e8m0 r = q * q;", "operator * is not defined on e8m0"},
		{"e2m1x2 q; float2 r = q + 1.0f;", "operator + is not defined on e2m1x2"},
		{"float f = convert_float(convert_e2m14(1.0f));", "a vector of e2m1 is written e2m1x4"},
		{"short s = as_short(convert_e8m0(1.0f));", "as_short needs an operand of 2 bytes"},
	}
	for _, tc := range errs {
		_, err := runVars(tc.src, true)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}
