package clc

import (
	"errors"
	"strings"
	"testing"

	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// runVars runs src and returns its top-level variables as run prints them.
func runVars(src string, bits bool) (string, error) {
	in := Interp{MaxSteps: 1e6}
	err := in.Run("t", src)
	var lines []string
	for _, v := range in.Vars() {
		lines = append(lines, v.Name+" = "+value.Format(v.Value, bits))
	}
	return strings.Join(lines, "\n"), err
}

func TestInterp(t *testing.T) {
	tests := []struct{ src, want string }{
		// Declarations, several per line, uninitialized ones at 0.
		{"int a, b = 2, c = b + 1; float4 f;", "a = (int)0\nb = (int)2\nc = (int)3\nf = (float4)(0, 0, 0, 0)"},
		{"const int k = 5; int x = k * 2;", "k = (int)5\nx = (int)10"},
		{"unsigned char u = 300; signed short s = -1; unsigned long int l = -1; bool b = 2.5f;",
			"u = (uchar)44\ns = (short)-1\nl = (ulong)18446744073709551615\nb = (bool)true"},
		{"half h = 1.5h + 1; double d = 0.1 + 0.2; float f = 0.1;", "h = (half)2.5\nd = (double)0.30000000000000004\nf = (float)0.1"},
		{"int4 v = 7; float2 w = 1;", "v = (int4)(7, 7, 7, 7)\nw = (float2)(1, 1)"},
		// Assignment and compound assignment.
		{"int x = 10; x += 5; x -= 1; x *= 3; x /= 4; x %= 7; x <<= 3; x >>= 1; x &= 12; x |= 1; x ^= 3;", "x = (int)14"},
		{"char c = 100; c += 100;", "c = (char)-56"},
		{"int i = 7; i *= 2.5;", "i = (int)17"},
		{"float4 f = (float4)(1, 2, 3, 4); f *= 2; f += (float4)(0.5f);", "f = (float4)(2.5, 4.5, 6.5, 8.5)"},
		{"int a, b, c; a = b = c = 4;", "a = (int)4\nb = (int)4\nc = (int)4"},
		{"int x = 1; int y = (x = 5) + 1;", "x = (int)5\ny = (int)6"},
		// ++ and --.
		{"int i = 5; int a = i++; int b = ++i; int c = i--; int d = --i;", "i = (int)5\na = (int)5\nb = (int)7\nc = (int)7\nd = (int)5"},
		{"uchar u = 255; u++; char4 v = (char4)(127); v++; short s = -32768; s--;", "u = (uchar)0\nv = (char4)(-128, -128, -128, -128)\ns = (short)32767"},
		// A scalar of lower or equal rank widens, unsigned onto signed only
		// when it is narrower (Clang's integer type order).
		{"uchar4 a = (uchar4)(1) + (char)-1; ulong2 b = (ulong2)(1) * 3L; long2 c = (long2)(1) - 3u; short2 d = (short2)(1) + (uchar)2;",
			"a = (uchar4)(0, 0, 0, 0)\nb = (ulong2)(3, 3)\nc = (long2)(-2, -2)\nd = (short2)(3, 3)"},
		// Comparisons, logical operators, !.
		{"int a = 1 < 2, b = 2 <= 1, c = 3 == 3u, d = -1 < 0u; int4 v = (int4)(1, 2, 3, 4) > 2;",
			"a = (int)1\nb = (int)0\nc = (int)1\nd = (int)0\nv = (int4)(0, 0, -1, -1)"},
		{"float n = NAN; int a = n == n, b = n != n, c = n < 1, d = !(n >= 1); int2 v = (float2)(NAN, 1.0f) == (float2)(NAN, 1.0f);",
			"n = (float)nan\na = (int)0\nb = (int)1\nc = (int)0\nd = (int)1\nv = (int2)(0, -1)"},
		{"short2 s = (half2)(1.0h, 2.0h) < (half2)(2.0h); long2 l = (double2)(1.0) != 1.0; char4 c = (uchar4)(1, 0, 2, 0) == (uchar)0;",
			"s = (short2)(-1, 0)\nl = (long2)(0, 0)\nc = (char4)(0, -1, 0, -1)"},
		{"int calls = 0; int f(void) { calls++; return 1; }\nint a = 0 && f(); int b = 1 || f(); int c = 1 && f(); int d = 0 || 2.5f;",
			"calls = (int)1\na = (int)0\nb = (int)1\nc = (int)1\nd = (int)1"},
		{"int4 a = (int4)(1, 0, 1, 0) && (int4)(1, 1, 0, 0); int4 o = (int4)(1, 0, 1, 0) || 0; int4 n = !(int4)(0, 1, 0, 2); int z = !0.0f;",
			"a = (int4)(-1, 0, 0, 0)\no = (int4)(-1, 0, -1, 0)\nn = (int4)(-1, 0, -1, 0)\nz = (int)1"},
		// ?: on scalars and vectors.
		{"int a = 2 > 1 ? 10 : 20; float b = 0 ? 1 : 2.5f; int4 v = (int4)(-1, 0, 5, 0x80000000) ? (int4)(1) : (int4)(2); float4 w = (int4)(-1, 0, -1, 0) ? 1.0f : 2.0f;",
			"a = (int)10\nb = (float)2.5\nv = (int4)(1, 2, 2, 1)\nw = (float4)(1, 2, 1, 2)"},
		{"int calls = 0; int f(int x) { calls++; return x; }\nint a = 1 ? f(1) : f(2);", "calls = (int)1\na = (int)1"},
		// Shifts use the count modulo the width; >> is arithmetic on signed types.
		{"int a = 1 << 33, b = -8 >> 1; uint c = 0x80000000u >> 31; char4 d = (char4)(1) << (char4)(1, 2, 9, -1); long e = 1L << 63;",
			"a = (int)2\nb = (int)-4\nc = (uint)1\nd = (char4)(2, 4, 2, -128)\ne = (long)-9223372036854775808"},
		// Casts.
		{"int a = (int)-2.9f, b = (int)2.9; uint c = (uint)-1; float d = (float)16777217; int4 v = (int4)2.5f;",
			"a = (int)-2\nb = (int)2\nc = (uint)4294967295\nd = (float)16777216\nv = (int4)(2, 2, 2, 2)"},
		// Vector literals and swizzles.
		{"float2 p = (float2)(1, 2); float4 f = (float4)(p, 3.0f, 4); float8 g = (float8)(f.wzyx, f);",
			"p = (float2)(1, 2)\nf = (float4)(1, 2, 3, 4)\ng = (float8)(4, 3, 2, 1, 1, 2, 3, 4)"},
		{"float4 f = (float4)(1, 2, 3, 4); float a = f.x + f.s3; float2 b = f.lo, c = f.hi, d = f.even, e = f.odd; float3 g = f.rgb; float4 h = f.s3210; float2 i = f.hi.lo + 0;",
			"f = (float4)(1, 2, 3, 4)\na = (float)5\nb = (float2)(1, 2)\nc = (float2)(3, 4)\nd = (float2)(1, 3)\ne = (float2)(2, 4)\ng = (float3)(1, 2, 3)\nh = (float4)(4, 3, 2, 1)\ni = (float2)(3, 3)"},
		{"int8 v = (int8)(0, 1, 2, 3, 4, 5, 6, 7); int4 lo = v.lo, hi = v.hi, ev = v.even, od = v.odd; int16 w = (int16)(v, v); int2 x = w.sfA;",
			"v = (int8)(0, 1, 2, 3, 4, 5, 6, 7)\nlo = (int4)(0, 1, 2, 3)\nhi = (int4)(4, 5, 6, 7)\nev = (int4)(0, 2, 4, 6)\nod = (int4)(1, 3, 5, 7)\nw = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7)\nx = (int2)(7, 2)"},
		{"float3 f = (float3)(1, 2, 3); float2 lo = f.lo, hi = f.hi, ev = f.even, od = f.odd;",
			"f = (float3)(1, 2, 3)\nlo = (float2)(1, 2)\nhi = (float2)(3, 0)\nev = (float2)(1, 3)\nod = (float2)(2, 0)"},
		{"float4 f = 0; f.x = 1; f.wz = (float2)(4, 3); f.s1 = 2; f.hi.y += 10; f.even = f.odd;",
			"f = (float4)(2, 2, 14, 14)"},
		{"int4 v = (int4)(1, 2, 3, 4); v.xy = v.yx; v.zw++;", "v = (int4)(2, 1, 4, 5)"},
		{"float4 s = (float4)(1, 2, 3, 4).wzyx; float t = (float2)(5, 6).y; float8 v = (float8)(1, 2, 3, 4, 5, 6, 7, 8); v.hi += 1; float8 w = (float8)(v.hi, v.lo);",
			"s = (float4)(4, 3, 2, 1)\nt = (float)6\nv = (float8)(1, 2, 3, 4, 6, 7, 8, 9)\nw = (float8)(6, 7, 8, 9, 1, 2, 3, 4)"},
		// convert_ and as_.
		{"float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f); uchar4 c = convert_uchar4_sat_rte(f); uint u = as_uint(1.0f); char4 b = as_char4(0x04030201);",
			"f = (float4)(-5, 254.5, 254.6, 1.2e+09)\nc = (uchar4)(0, 254, 255, 255)\nu = (uint)1065353216\nb = (char4)(1, 2, 3, 4)"},
		// Functions, recursion, parameters as local variables.
		{"int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\nint f10 = fact(10);", "f10 = (int)3628800"},
		{"float4 scale(float4 v, float k) { v *= k; return v; }\nfloat4 a = (float4)(1, 2, 3, 4); float4 b = scale(a, 2);",
			"a = (float4)(1, 2, 3, 4)\nb = (float4)(2, 4, 6, 8)"},
		{"int twice(int);\nint y = twice(21);\nint twice(int x) { return 2 * x; }", "y = (int)42"},
		{"int g = 1; void bump(int by) { g += by; return; }\nbump(2); bump(3);", "g = (int)6"},
		{"float half_of(int x) { return x / 2; }\nfloat h = half_of(5);", "h = (float)2"},
		// Statements.
		{"int s = 0; for (int i = 0; i < 10; i++) { if (i == 3) continue; if (i == 6) break; s += i; }", "s = (int)12"},
		{"int n = 0, i = 10; while (i > 0) { i -= 3; n++; } do { n += 100; } while (0);", "n = (int)104\ni = (int)-2"},
		{"int x = 1; { int x = 2; x++; } if (x) { x = 5; } else x = 6;", "x = (int)5"},
		// A local's scope begins before its initializer (C99 6.2.1p7), so
		// there it is the new variable (0 in clconv), not the outer one.
		{"int x = 7, y; { int x = x + 1; y = x; } int z = 3; for (int i = 0; i < 2; i++) { int z = z + 10; y += z; }", "x = (int)7\ny = (int)21\nz = (int)3"},
		// At top level a name declared again sees the earlier variable.
		{"int x = 7; int x = x + 1;", "x = (int)7\nx = (int)8"},
		{"int i = 0; for (;;) { if (++i >= 4) break; }", "i = (int)4"},
		{"int a = 0; if (0) a = 1; else if (1) a = 2; else a = 3;", "a = (int)2"},
		{"int x = 3, y = (x++, x * 2);", "x = (int)4\ny = (int)8"},
		// Constants, sizeof, vec_step, built-ins.
		{"int c = 'A' + '\\n'; int m = CHAR_MIN; ulong s = sizeof(float3) + sizeof(1.0); int v = vec_step(float3) + vec_step(int);",
			"c = (int)75\nm = (int)-128\ns = (ulong)24\nv = (int)5"},
		{"int4 m = (int4)(-1, 0, -1, 0); int a = any(m), b = all(m), c = all((int4)(-1)); float4 s = select((float4)(1), (float4)(2), m); int t = select(1, 2, 0);",
			"m = (int4)(-1, 0, -1, 0)\na = (int)1\nb = (int)0\nc = (int)1\ns = (float4)(2, 1, 2, 1)\nt = (int)1"},
		// Redeclaration at top level makes a new variable; functions keep the old.
		{"int x = 1; int get(void) { return x; }\nint x = 2; int y = get();", "x = (int)1\nx = (int)2\ny = (int)1"},
		// Preprocessor in programs.
		{"#define SQ(v) ((v) * (v))\n#define N 3\n#if N > 2\nint big = SQ(N + 1);\n#else\nint big = 0;\n#endif", "big = (int)16"},
	}
	for _, tt := range tests {
		got, err := runVars(tt.src, false)
		if err != nil {
			t.Errorf("%s\n: %v", tt.src, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s\n got:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

func TestInterpErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"float4 f; ushort4 c = convert_uchar4_sat_rte(f);", "t:1:23: initializing c: implicit conversion from uchar4 to ushort4 is not allowed: OpenCL C has no implicit conversions between vector types (use convert_ushort4() to convert the elements, or declare c as uchar4)"},
		{"float4 f; float x = f;", "t:1:21: initializing x: implicit conversion from float4 to float is not allowed (a vector does not convert to a scalar; select one element, e.g. .s0)"},
		{"int4 i; float4 f; f = i;", "t:1:23: assigning to f: implicit conversion from int4 to float4 is not allowed: OpenCL C has no implicit conversions between vector types (use convert_float4() to convert the elements)"},
		{"float4 f; double4 g = as_double4(f);", "t:1:34: as_double4 needs an operand of 32 bytes, got float4 (16 bytes)"},
		{"float f = convert_float_sat(1);", "t:1:11: convert_float_sat: _sat is not allowed with a floating destination (float)"},
		{"int2 v = convert_int2((int4)(1));", "t:1:23: convert_int2 needs a 2-element operand, got int4"},
		{"int x = y;", `t:1:9: unknown identifier "y"`},
		{"int x = convert_int(1, 2);", "t:1:20: convert_int takes 1 argument, got 2"},
		{"int f(int a, int b) { return a; }\nint x = f(1);", "t:2:10: f takes 2 arguments, got 1"},
		{"int x = foo_rtz(1);", `t:1:9: call to undeclared function "foo_rtz"`},
		{"float4 f = (float4)(1) * 0.5;", "t:1:24: invalid operands to *: float4 and double: the scalar's type has a greater rank than the vector's element type, which OpenCL C forbids; make the scalar a float (a cast, or a constant with the right suffix)"},
		{"uchar4 u = 0; u = u + 1;", "t:1:21: invalid operands to +: uchar4 and int: the scalar's type has a greater rank than the vector's element type, which OpenCL C forbids; make the scalar a uchar (a cast, or a constant with the right suffix)"},
		{"short4 s = 1; s = s + (ushort)1;", "t:1:21: invalid operands to +: short4 and ushort: the scalar's type has a greater rank than the vector's element type, which OpenCL C forbids; make the scalar a short (a cast, or a constant with the right suffix)"},
		{"int4 i = 1; i *= 2u;", "t:1:15: invalid operands to *: int4 and uint: the scalar's type has a greater rank than the vector's element type, which OpenCL C forbids; make the scalar a int (a cast, or a constant with the right suffix)"},
		{"int4 i = (int4)(1) * 2.0f;", "t:1:20: invalid operands to *: int4 and float: the scalar's type has a greater rank than the vector's element type, which OpenCL C forbids; make the scalar a int (a cast, or a constant with the right suffix)"},
		{"int x = 1; { int x = 2; int x = 3; }", "t:1:29: redefinition of x (previous declaration at t:1:18)"},
		{"int f(int x) { int x = 1; return x; }", "t:1:20: redefinition of x (previous declaration at t:1:11)"},
		{"const int k = 1; k = 2;", "t:1:18: cannot assign to k: it is const"},
		{"const int k = 1; k++;", "t:1:18: cannot apply ++ to k: it is const"},
		// OpenCL C 1.2 6.3.c: no ++ or -- on the floating types (issue 19).
		{"float f = 1.5f; f++;", "t:1:18: operator ++ is not supported for float: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)"},
		{"float2 v = (float2)(1.0f, 2.0f); v--;", "t:1:35: operator -- is not supported for float2: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)"},
		{"double d = 1; double e = ++d;", "t:1:26: operator ++ is not supported for double: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)"},
		{"half4 h = 1; --h.xy;", "t:1:14: operator -- is not supported for half2: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)"},
		{"double f(double x) { x++; return x; }", "t:1:23: operator ++ is not supported for double: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)"},
		{"float4 f; f.xx = (float2)(1);", "t:1:11: cannot assign to f.xx: it repeats a component"},
		{"int x; 1 = x;", "t:1:10: cannot assign to 1: it is not a variable"},
		{"float4 f = (float4)(1); (f + f).x = 1;", "t:1:26: cannot assign to f + f: it is not a variable"},
		{"float2 f; float z = f.z;", "t:1:23: invalid component selection .z on float2: z is past the end of a 2-element vector"},
		{"float4 f; float2 z = f.xg;", "t:1:24: invalid component selection .xg on float4: component names from different sets cannot be mixed"},
		{"float8 f; float2 z = f.xy;", "t:1:24: invalid component selection .xy on float8: vectors of 8 and 16 elements are selected with .s0 ... .sF"},
		{"float4 f; float3 z = f.s04;", "t:1:24: invalid component selection .s04 on float4: element 4 is past the end of a 4-element vector"},
		{"float4 f; float5 z;", `t:1:11: unknown type "float5": vector width must be 2, 3, 4, 8 or 16`},
		{"float f; float g = f.x;", "t:1:22: cannot select .x from a scalar of type float: only vectors have components"},
		{"int4 v; if (v) {}", "t:1:13: the condition of if must be a scalar, not int4 (test the elements with any() or all())"},
		{"break;", "t:1:1: break outside a loop"},
		{"return 1;", "t:1:1: return outside a function"},
		{"void v;", "t:1:1: variable v declared void"},
		{"void f(void) { return 1; }", "t:1:23: void function f cannot return a value"},
		{"int f(void) { return; }", "t:1:15: function f must return a int value"},
		{"int f(int); float f(int x) { return x; }", "t:1:19: conflicting types for f: declared as int f(int) at t:1:5"},
		{"int f(void) { return 1; }\nint f(void) { return 2; }", "t:2:5: redefinition of f (previous definition at t:1:5)"},
		{"int f; int x = f(1);", "t:1:16: called object f is not a function (it is a int variable)"},
		{"int f(void) { return 1; }\nint g = f;", "t:2:9: f is a function; call it as f(...)"},
		{"int f(void);\nint x = f();", "t:2:9: function f is declared (at t:1:5) but never defined"},
		{"int convert_int = 1;", "t:1:5: convert_int is the name of a built-in function"},
		{"int x = \"str\";", "t:1:9: string literals are not supported"},
		{"int *p;", "t:1:5: pointers are not supported"},
		{"int a[4];", "t:1:6: arrays are not supported"},
		{"__global float x;", "t:1:1: address space qualifier __global is not supported (clconv has no pointers or memory)"},
		{"struct s;", "t:1:1: struct: structures are not supported"},
		{"int x = 1; switch (x) {}", "t:1:12: switch: switch statements are not supported"},
		{"float4 f = {1, 2, 3, 4};", "t:1:12: brace initializers are not supported; write a vector literal such as (float4)(...)"},
		{"int x = 1 / 0;", "t:1:11: integer division by zero"},
		{"int f(int n) { if (n) return 1; }\nint x = f(0);", "t:1:33: function f reached its end without returning a value"},
		{"int i = 0; while (1) i++;", "t:1:22: execution limit reached (an endless loop?); raise it with --max-steps"},
		{"int f(int n) { return f(n + 1); }\nint x = f(0);", "t:1:23: calls nested too deeply (1000 deep): endless recursion?"},
		{"float4 x = (int2)(1, 0) ? (float4)(1) : 2.0f;", "t:1:25: vector condition type int2 and result type float4 do not have the same number of elements"},
		{"float f = 1; int x = f ? 1 : 2;", "t:1:22: the condition of ?: cannot be a float: OpenCL C takes an integer scalar or vector there (OpenCL C 1.2 6.3.i); compare it with 0 (x != 0)"},
		{"int x = 0.5 ? 1 : 2;", "t:1:9: the condition of ?: cannot be a double: OpenCL C takes an integer scalar or vector there (OpenCL C 1.2 6.3.i); compare it with 0 (x != 0)"},
		{"float4 x = (float4)(1) ? 1.0f : 2.0f;", "t:1:12: a vector condition of ?: must have integer elements, not float4"},
		{"double4 x = (int4)(1) ? 1.0 : 2.0;", "t:1:23: vector condition type int4 and result type double4 do not have elements of the same size"},
		{"int x = 1 ? (int2)(1) : (int4)(1);", "t:1:11: incompatible operand types int2 and int4 in ?: (vector operands must have the same type)"},
		{"#define F(x) x + undefined_thing\nint y = F(1);", `t:2:9: unknown identifier "undefined_thing" (from the expansion of macro F)`},
		{"int x = __ROUNDING_MODE__;", `t:1:9: unknown identifier "__ROUNDING_MODE__": it is defined only after #pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable`},
		{"int x = select(1, 2.0f, 0);", "t:1:19: select: the first two arguments must have the same type, got int and float"},
		{"int x = any(1.0f);", "t:1:13: any needs a signed integer argument (char, short, int, long or a vector of them), got float"},
		{"int x = 1 +", "t:1:12: expected an expression, found end of input"},
		{"int x = 1", `t:1:10: expected ; after the declaration, found end of input`},
		{"int f(int x) {", "t:1:15: expected } to close the block opened at 1:14, found end of input"},
	}
	for _, tt := range tests {
		_, err := runVars(tt.src, false)
		if err == nil {
			t.Errorf("%s: no error, want %s", tt.src, tt.want)
			continue
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("%s: error %T is not an ErrorList", tt.src, err)
			continue
		}
		if got := list[0].Error(); got != tt.want {
			t.Errorf("%s\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestInterpManyErrors checks that the checker goes on after an error and
// reports each one, in source order.
func TestInterpManyErrors(t *testing.T) {
	src := "int a = x;\nint b = a + y;\nfloat4 f = (float4)(1) * 0.5;\nint c = a;"
	_, err := runVars(src, false)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("errors: %v", err)
	}
	for i, want := range []string{`t:1:9: unknown identifier "x"`, `t:2:13: unknown identifier "y"`, "t:3:24: invalid operands to *"} {
		if !strings.HasPrefix(list[i].Error(), want) {
			t.Errorf("error %d = %s, want %s...", i, list[i], want)
		}
	}
}

// TestSelectRoundingMode checks RULES.md's SELECT_ROUNDING_MODE semantics:
// the mode applies to floating arithmetic and to conversions to floating
// types without a suffix, float->integer stays rtz, a block restores the
// mode at its end, and a function uses the mode where its body is written.
func TestSelectRoundingMode(t *testing.T) {
	src := `#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
float third_rte = 1.0f / 3.0f;
float third_in_rtp_func(void);
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float third_rtz = 1.0f / 3.0f;
float conv_rtz = convert_float(16777217);
float cast_rtz = (float)16777217;
float implicit_rtz = 16777217;
float conv_suffix = convert_float_rte(16777219);
int to_int = (int)2.9f;
int to_int_conv = convert_int(-2.9f);
float compound = 1.0f;
compound /= 3.0f;
float inc = 16777216.0f;
double dsum = 1.0 + 0x1p-60;
half hsum = 1.0h + 0x1p-12h;
float written_here(float x) { return x / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtp
float third_rtp = 1.0f / 3.0f;
float block_rtn, after_block;
{
#pragma OPENCL SELECT_ROUNDING_MODE rtn
	block_rtn = -1.0f / 3.0f;
}
after_block = -1.0f / 3.0f;
float from_rtz_func = written_here(1.0f);
float third_in_rtp_func(void) { return 1.0f / 3.0f; }
#pragma OPENCL SELECT_ROUNDING_MODE rtn
float called_from_rtn = third_in_rtp_func();
double d_rtn = 1.0 + 0x1p-60;
`
	want := `third_rte = (float)0x3eaaaaab
third_rtz = (float)0x3eaaaaaa
conv_rtz = (float)0x4b800000
cast_rtz = (float)0x4b800000
implicit_rtz = (float)0x4b800000
conv_suffix = (float)0x4b800002
to_int = (int)0x00000002
to_int_conv = (int)0xfffffffe
compound = (float)0x3eaaaaaa
inc = (float)0x4b800000
dsum = (double)0x3ff0000000000000
hsum = (half)0x3c00
third_rtp = (float)0x3eaaaaab
block_rtn = (float)0xbeaaaaab
after_block = (float)0xbeaaaaaa
from_rtz_func = (float)0x3eaaaaaa
called_from_rtn = (float)0x3eaaaaab
d_rtn = (double)0x3ff0000000000000`
	got, err := runVars(src, true)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// rtp rounds a sum up where rte and rtz do not.
	got, err = runVars("#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n#pragma OPENCL SELECT_ROUNDING_MODE rtp\ndouble d = 1.0 + 0x1p-60; float f = 16777216.0f + 1.0f; half h = 1.0h + 0x1p-12h;", true)
	if want := "d = (double)0x3ff0000000000001\nf = (float)0x4b800001\nh = (half)0x3c01"; err != nil || got != want {
		t.Errorf("rtp sums:\n%s, %v\nwant\n%s", got, err, want)
	}
}

// TestRoundingModeMacro checks __ROUNDING_MODE__ and the XCAT form that maps
// foo(x) to foo_<mode>(x).
func TestRoundingModeMacro(t *testing.T) {
	src := `#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
#define CAT(a, b) a ## b
#define XCAT(a, b) CAT(a, b)
#define foo XCAT(foo_, __ROUNDING_MODE__)
int foo_rte(int x) { return x + 1; }
int foo_rtz(int x) { return x + 2; }
int foo_rtp(int x) { return x + 3; }
int foo_rtn(int x) { return x + 4; }
int e = foo(0);
#pragma OPENCL SELECT_ROUNDING_MODE rtz
int z = foo(0);
{
#pragma OPENCL SELECT_ROUNDING_MODE rtp
	z = foo(z);
}
#pragma OPENCL SELECT_ROUNDING_MODE rtn
int n = foo(0);`
	got, err := runVars(src, false)
	if want := "e = (int)1\nz = (int)5\nn = (int)4"; err != nil || got != want {
		t.Errorf("got:\n%s, %v\nwant:\n%s", got, err, want)
	}
	// Without a foo_rtz the call is an error that names it.
	_, err = runVars(strings.Replace(src, "int foo_rtz(int x) { return x + 2; }\n", "", 1), false)
	if err == nil || err.Error() != `t:10:9: call to undeclared function "foo_rtz" (from the expansion of macro foo)` {
		t.Errorf("without foo_rtz: %v", err)
	}
}

func TestPasteIdiomWarning(t *testing.T) {
	src := "#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n#define foo foo ## __ROUNDING_MODE__\nfloat a = foo(1.0f);"
	var warns []*Error
	in := Interp{Warn: func(e *Error) { warns = append(warns, e) }}
	err := in.Run("t", src)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("error %v", err)
	}
	if got := list[0].Error(); got != `t:3:11: call to undeclared function "foo__ROUNDING_MODE__" (from the expansion of macro foo)` {
		t.Errorf("error %s", got)
	}
	if !strings.Contains(list[0].Note, "#define foo XCAT(foo_, __ROUNDING_MODE__)") {
		t.Errorf("note %q", list[0].Note)
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Detail(), "#define XCAT(a, b) CAT(a, b)") || warns[0].Pos.Line != 2 {
		t.Errorf("warnings %v", warns)
	}
}

func TestInterpWarnings(t *testing.T) {
	var warns []string
	in := Interp{Warn: func(e *Error) { warns = append(warns, e.Error()) }}
	err := in.Run("t", "int x; int x = 1; int y = convert_int(3e10f); for (int i = 0; i < 3; i++) y = (int)NAN;")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"t:1:5: warning: x is declared without an initializer: clconv gives it 0 (in OpenCL C its value is indeterminate)",
		"t:1:12: warning: redeclaration of x (first declared at t:1:5): a C compiler rejects this; clconv starts a new variable, and both are shown",
		"t:1:27: warning: convert_int: the value is NaN or out of range for int; OpenCL leaves the result implementation-defined, clconv saturates (use _sat to make it portable)",
		"t:1:79: warning: cast to int: the value is NaN or out of range; the result is undefined in C, clconv saturates", // once, not per iteration
	}
	if strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(want, "\n"))
	}
}

// TestFloatIncDecNote checks the advice after the caret of the float ++/--
// error (issue 19).
func TestFloatIncDecNote(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"float2 v = (float2)(1.0f, 2.0f);\nv--;", "t:2:2: operator -- is not supported for float2: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)\nv--;\n ^\nnote: add or subtract 1 with an assignment: v -= 1.0f"},
		{"double4 d; ++(d.x);", "t:1:12: operator ++ is not supported for double: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)\ndouble4 d; ++(d.x);\n           ^\nnote: add or subtract 1 with an assignment: d.x += 1.0"},
	} {
		_, err := runVars(tt.src, false)
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got := list[0].Detail(); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestOverflowWarnings checks that signed integer overflow, which OpenCL C
// leaves undefined, is warned about once per place (issue 19: the
// differential harness relies on it to keep its programs free of undefined
// behaviour), and that unsigned wrapping and char promotions are not.
func TestOverflowWarnings(t *testing.T) {
	var warns []string
	in := Interp{Warn: func(e *Error) { warns = append(warns, e.Error()) }}
	src := "int a = INT_MAX; a = a + 1; long b = LONG_MIN; b = -b; int4 v = (int4)(1, INT_MIN, 3, INT_MIN); v = v / -1;\n" +
		"int c = INT_MIN % -1; char4 d = (char4)(127); d++; for (int i = 0; i < 3; i++) a *= 65536;\n" +
		"uint u = UINT_MAX; u++; char e = 127; e++; short s = SHRT_MAX * SHRT_MAX / 32768; int ok = 2147483647 - 1 + 1;"
	if err := in.Run("t", src); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"t:1:24: warning: signed integer overflow: int + int: the value is out of range; OpenCL C leaves the result undefined, clconv wraps",
		"t:1:52: warning: signed integer overflow: -long: the value is out of range; OpenCL C leaves the result undefined, clconv wraps",
		"t:1:103: warning: signed integer overflow: int4 / int4: elements 1, 3 are out of range; OpenCL C leaves the result undefined, clconv wraps",
		"t:2:17: warning: signed integer overflow: int % int: the value is out of range; OpenCL C leaves the result undefined, clconv wraps",
		"t:2:48: warning: signed integer overflow: char4 + char4: elements 0, 1, 2, 3 are out of range; OpenCL C leaves the result undefined, clconv wraps",
		"t:2:82: warning: signed integer overflow: int * int: the value is out of range; OpenCL C leaves the result undefined, clconv wraps", // once, not per iteration
	}
	if strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(want, "\n"))
	}
}

// TestSelfInitWarning checks the warning for a local read in its own
// initializer (the differential harness found that clconv read the outer
// variable there, as no C compiler does).
func TestSelfInitWarning(t *testing.T) {
	var warns []string
	in := Interp{Warn: func(e *Error) { warns = append(warns, e.Error()) }}
	if err := in.Run("t", "int x = 1; { int x = x + x; }"); err != nil {
		t.Fatal(err)
	}
	want := "t:1:22: warning: x is used in its own initializer, where OpenCL C leaves its value indeterminate (its scope begins before the initializer, C99 6.2.1); clconv gives it 0 there"
	if len(warns) != 1 || warns[0] != want {
		t.Errorf("warnings %q, want [%q]", warns, want)
	}
}

func TestExec(t *testing.T) {
	var in Interp
	show := func(res []Result) string {
		var s []string
		for _, r := range res {
			if r.Name != "" {
				s = append(s, r.Name+" = "+r.Value.String())
			} else {
				s = append(s, r.Value.String())
			}
		}
		return strings.Join(s, "; ")
	}
	steps := []struct{ src, want, err string }{
		{"int x = 3", "x = (int)3", ""},
		{"x += 2", "x = (int)5", ""},
		{"x * 2", "(int)10", ""},
		{"float4 v = (float4)(1, 2, 3, 4); v.xy = v.zw;", "v = (float4)(1, 2, 3, 4); v.xy = (float2)(3, 4)", ""},
		{"v", "(float4)(3, 4, 3, 4)", ""},
		{"int f(int a) { return a + x; }", "", ""},
		{"f(1)", "(int)6", ""},
		{"int f(int a) { return a - x; }", "", ""}, // the REPL lets a function be redefined
		{"f(1)", "(int)-4", ""},
		{"#define TWICE(a) (2 * (a))", "", ""},
		{"TWICE(x)", "(int)10", ""},
		{"#define BAD 1\nint y = nope;", "", `<repl>:13:9: unknown identifier "nope"`}, // fails as a whole
		{"BAD", "", `<repl>:14:1: unknown identifier "BAD"`},
		{"y", "", `<repl>:15:1: unknown identifier "y"`},
		{"x = 7; x = x / 0; x", "x = (int)7", "<repl>:16:14: integer division by zero"}, // runs up to the error
		{"x", "(int)7", ""},
		{"void g(void) {}\ng()", "", ""},
	}
	line := 1
	for _, s := range steps {
		res, err := in.Exec("<repl>", line, s.src)
		line += strings.Count(s.src, "\n") + 1
		if got := show(res); got != s.want {
			t.Errorf("%q: results %q, want %q", s.src, got, s.want)
		}
		if (err == nil) != (s.err == "") || err != nil && err.Error() != s.err {
			t.Errorf("%q: error %v, want %q", s.src, err, s.err)
		}
	}
	// Incomplete inputs.
	for _, src := range []string{"int f(int a) {", "1 +", "if (x)", "(1", "foo(", "/* comment", "#if 1", "#define F(x) x\nF(1,", "int x = "} {
		_, err := in.Exec("<repl>", 1, src)
		if !IsIncomplete(err) {
			t.Errorf("%q: %v is not incomplete", src, err)
		}
	}
	for _, src := range []string{"1 + )", "}", "int 1", "#endif"} {
		_, err := in.Exec("<repl>", 1, src)
		if err == nil || IsIncomplete(err) {
			t.Errorf("%q: %v should be a plain error", src, err)
		}
	}
}

func TestCancel(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	in := Interp{Cancel: stop}
	err := in.Run("t", "int i = 0; while (1) i++;")
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled run: %v", err)
	}
	in = Interp{MaxSteps: 100}
	err = in.Run("t", "int i = 0; for (int j = 0; j < 1000; j++) i++;")
	if err == nil || !strings.Contains(err.Error(), "execution limit") {
		t.Errorf("step limit: %v", err)
	}
}

func TestInterpMode(t *testing.T) {
	in := Interp{Mode: round.RTP}
	if err := in.Run("t", "float f = (float)16777217; float g = 1.0f / 3.0f;"); err != nil {
		t.Fatal(err)
	}
	v := in.Vars()
	if value.Format(v[0].Value, true) != "(float)0x4b800001" || value.Format(v[1].Value, true) != "(float)0x3eaaaaab" {
		t.Errorf("under rtp: %v", v)
	}
	if in.RoundingMode() != round.RTP {
		t.Errorf("RoundingMode = %v", in.RoundingMode())
	}
}

// TestExecSourceLines checks that a warning or error inside a function
// defined by an earlier REPL input quotes that input's line.
func TestExecSourceLines(t *testing.T) {
	var warns []string
	in := Interp{Warn: func(e *Error) { warns = append(warns, e.Detail()) }}
	if _, err := in.Exec("<repl>", 1, "int f(float x) {\n  return (int)x / (int)(x - 1.0f);\n}"); err != nil {
		t.Fatal(err)
	}
	_, err := in.Exec("<repl>", 4, "f(3e10f)")
	if err != nil || len(warns) != 2 || warns[0] != "<repl>:2:10: warning: cast to int: the value is NaN or out of range; the result is undefined in C, clconv saturates\n  return (int)x / (int)(x - 1.0f);\n         ^" {
		t.Errorf("warnings %q, error %v", warns, err)
	}
	_, err = in.Exec("<repl>", 5, "f(1.0f)")
	var list ErrorList
	if !errors.As(err, &list) || list[0].Detail() != "<repl>:2:17: integer division by zero\n  return (int)x / (int)(x - 1.0f);\n                ^" {
		t.Errorf("error %v", err)
	}
}
