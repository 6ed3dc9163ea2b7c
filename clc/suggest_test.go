package clc

import (
	"strings"
	"testing"
)

// Unknown type names, identifiers, functions and conversion names close to
// a known one get a "did you mean" suggestion; the error keeps its
// position.
func TestDidYouMean(t *testing.T) {
	tests := []struct{ src, pos, want string }{
		// A misspelt type name in a declaration.
		{"flaot g = 1.0f;", "t:1:1:", `unknown type "flaot" (did you mean "float"?)`},
		{"flaot4 v;", "t:1:1:", `unknown type "flaot4" (did you mean "float4"?)`},
		{"uchr c = 1;", "t:1:1:", `unknown type "uchr" (did you mean "uchar"?)`},
		{"in x = 1;", "t:1:1:", `unknown type "in" (did you mean "int"?)`},
		{"bflaot16 b;", "t:1:1:", `unknown type "bflaot16" (did you mean "bfloat16"?)`},
		{"int a;\nconst flaot x = 1;", "t:2:7:", `unknown type "flaot" (did you mean "float"?)`},
		{"int f(flaot x) { return 1; }", "t:1:7:", `expected a parameter type, found "flaot" (did you mean "float"?)`},
		{"flaot f(int x) { return x; }", "t:1:1:", `unknown type "flaot" (did you mean "float"?)`},
		// Variables and functions in scope.
		{"float abc = 1; float y = abd;", "t:1:26:", `unknown identifier "abd" (did you mean "abc"?)`},
		{"int foo(int x) { return x; }\nint y = fooo(2);", "t:2:9:", `call to undeclared function "fooo" (did you mean "foo"?)`},
		{"int f(int count) { return cont; }", "t:1:27:", `unknown identifier "cont" (did you mean "count"?)`},
		{"int i = selct(1, 2, 3);", "t:1:9:", `call to undeclared function "selct" (did you mean "select"?)`},
		// Conversion names: the prefix, the type and the modifiers fixed
		// separately.
		{"float f = 1; int i = conver_int(f);", "t:1:22:", `call to undeclared function "conver_int" (did you mean "convert_int"?)`},
		{"int i = covert_int4_sta(1);", "t:1:9:", `(did you mean "convert_int4_sat"?)`},
		{"int i = convertint(1.0f);", "t:1:9:", `(did you mean "convert_int"?)`},
		{"int i = sa_int(1.0f);", "t:1:9:", `(did you mean "as_int"?)`},
		{"int i = convert_flaot(1);", "t:1:9:", `convert_flaot: unknown type "flaot" (did you mean "convert_float"?)`},
		{"int i = convert_int_sta(1.0f);", "t:1:9:", `(did you mean "convert_int_sat"?)`},
		{"int i = as_flaot(1);", "t:1:9:", `as_flaot: unknown type "flaot" (did you mean "as_float"?)`},
	}
	for _, tc := range tests {
		_, err := runVars(tc.src, false)
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) || !strings.HasPrefix(msg, tc.pos) {
			t.Errorf("%q:\n got %s\nwant %s ... %s", tc.src, msg, tc.pos, tc.want)
		}
	}

	// Far-off names get no suggestion; nor do the old messages where
	// nothing is close.
	far := []struct{ src, want string }{
		{"xyzzy g = 1;", `expected ; after the expression, found "g"`},
		{"int i = frobnicate(1);", `call to undeclared function "frobnicate"`},
		{"float f = 1; int i = f + zz;", `unknown identifier "zz"`},
		{"int i = convert_qqqqq(1);", `convert_qqqqq: unknown type "qqqqq"`},
		{"int i = conv_int(1);", `call to undeclared function "conv_int"`},
		{"int x = 1; int z = y;", `unknown identifier "y"`},
		// Equally near rte, rtz, rtp and rtn, which the message lists.
		{"int i = convert_uchar_sat_rtx(1.0f);", `unknown modifier "_rtx"`},
		// The width is what is wrong, and the message says so.
		{"float5 z;", `vector width must be 2, 3, 4, 8 or 16`},
		{"int i = convert_float5(1);", `vector width must be 2, 3, 4, 8 or 16`},
		// A name made by a macro.
		{"int foo_rte(int x) { return x; }\n#define F(m) foo_ ## m\nint y = F(rtz)(1);", `call to undeclared function "foo_rtz"`},
	}
	for _, tc := range far {
		_, err := runVars(tc.src, false)
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "did you mean") {
			t.Errorf("%q: got %s, want %s and no suggestion", tc.src, msg, tc.want)
		}
	}

	// Correct programs are untouched.
	for _, src := range []string{
		"float g = 1.0f; int i = convert_int_sat_rte(g); uint u = as_uint(g);",
		"int in = 1; int x = in;",
		"const x = 3; int y = x;",
		"int foo(int x) { return x; }\nint y = foo(2);",
	} {
		if _, err := runVars(src, false); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
