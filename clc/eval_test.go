package clc

import (
	"errors"
	"strings"
	"testing"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

func evalOK(t *testing.T, src string) value.Value {
	t.Helper()
	var ev Evaluator
	v, err := ev.EvalString("t", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

// TestRulesCases checks every case in RULES.md's "Cases that separate
// correct implementations from almost-correct ones": both sides are OpenCL C
// expressions and must give the same type and bits.
func TestRulesCases(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"convert_int_rte(2.5f)", "2"},
		{"convert_int_rte(-2.5f)", "-2"},
		{"convert_int_rte(3.5f)", "4"},
		{"convert_int_rtn(-2.5f)", "-3"},
		// RULES.md writes convert_uchar_sat_rte here; the element counts must
		// match (TestErrors checks that form is rejected), so the vector form
		// is meant, as in seed 001.
		{"convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))", "(uchar4)(0, 254, 255, 255)"},
		{"convert_uchar_sat_rte(255.5f)", "(uchar)255"},
		{"convert_char_sat_rtn(-128.5f)", "(char)-128"},
		{"convert_uint_sat_rtp(-0.5f)", "(uint)0"},
		{"convert_int_sat(0x1p31f)", "INT_MAX"},
		{"convert_long_sat(0x1p63f)", "LONG_MAX"},
		{"convert_ulong_sat(0x1p64f)", "ULONG_MAX"},
		{"convert_float_rtz(16777217)", "16777216.0f"},
		{"convert_float_rtp(16777217)", "16777218.0f"},
		{"convert_float_rtz((long)0x7fffffffffffffff)", "0x1.fffffep62f"},
		{"convert_float_rte((long)0x7fffffffffffffff)", "0x1p63f"},
		{"convert_float_rtp((ulong)0xffffffffffffffff)", "0x1p64f"},
		{"convert_double_rtp((long)(1L<<53) + 1)", "0x1.0000000000001p53"},
		{"convert_float_rtz(DBL_MAX)", "FLT_MAX"},
		{"convert_float_rte(DBL_MAX)", "INFINITY"},
		{"convert_float_rte(0x1p-150)", "0.0f"},
		{"convert_float_rtp(0x1p-150)", "0x1p-149f"},
		{"convert_half_rte(65519.0f)", "as_half((ushort)0x7bff)"},
		{"convert_half_rte(65519.0f)", "65504.0h"},
		{"convert_half_rtp(65519.0f)", "as_half((ushort)0x7c00)"},
		{"convert_half_rte(65520.0f)", "as_half((ushort)0x7c00)"},
		{"convert_half_rtz(65520.0f)", "as_half((ushort)0x7bff)"},
		{"convert_half_rtz(-0x1.000002p-25f)", "as_half((ushort)0x8000)"},
		{"convert_half_rtn(-0x1.000002p-25f)", "as_half((ushort)0x8001)"},
		{"convert_half_rtz((short)32767)", "32752.0h"},
		{"convert_half_rtz((short)32767)", "as_half((ushort)0x77ff)"},
		{"convert_half_rte((short)32767)", "32768.0h"},
		{"as_float(0x3f800000)", "1.0f"},
		{"as_char4(0x04030201)", "(char4)(1, 2, 3, 4)"},
		// RULES.md's integer rules and seed 003's as_ examples.
		{"convert_uchar(300)", "(uchar)44"},
		{"convert_char(200)", "(char)-56"},
		{"as_uint(1.0f)", "0x3f800000u"},
		{"as_int4((float4)(1.0f, 2.0f, 3.0f, 4.0f))", "(int4)(0x3f800000, 0x40000000, 0x40400000, 0x40800000)"},
		{"as_float3((float4)(1.0f, 2.0f, 3.0f, 4.0f))", "(float3)(1.0f, 2.0f, 3.0f)"},
		{"as_short2(0x00020001)", "(short2)(1, 2)"},
		{"convert_float(0)", "0.0f"},
		{"convert_float_rtn(0)", "0.0f"},
		{"convert_float(-1e-300)", "-0.0f"},
		{"convert_int(NAN)", "0"},
		{"convert_int_sat(-INFINITY)", "INT_MIN"},
		{"convert_uchar4((float4)(1.5f))", "(uchar4)(1)"},
	}
	for _, tt := range tests {
		got, want := evalOK(t, tt.expr), evalOK(t, tt.want)
		if !got.Equal(want) {
			t.Errorf("%s = %s, want %s = %s", tt.expr, value.Format(got, true), tt.want, value.Format(want, true))
		}
	}
}

// TestContractCases checks the outputs that ../shared/tools/contract-check
// expects of clconv eval.
func TestContractCases(t *testing.T) {
	tests := []struct {
		expr string
		bits bool
		want string
	}{
		{"convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))", false, "(uchar4)(0, 254, 255, 255)"},
		{"convert_int_rte(2.5f)", false, "(int)2"},
		{"convert_int_rtn(-2.5f)", false, "(int)-3"},
		{"convert_uchar_sat_rte(255.5f)", false, "(uchar)255"},
		{"convert_char_sat_rtn(-128.5f)", false, "(char)-128"},
		{"convert_float_rtp(16777217)", true, "(float)0x4b800001"},
		{"convert_float_rtz((long)0x7fffffffffffffff)", true, "(float)0x5effffff"},
		{"convert_float_rtp((ulong)0xffffffffffffffff)", true, "(float)0x5f800000"},
		{"convert_half_rtz((short)32767)", true, "(half)0x77ff"},
		{"convert_half_rtp(65519.0f)", true, "(half)0x7c00"},
		{"as_float(0x3dcccccd)", false, "(float)0.1"},
		{"as_char4(0x04030201)", false, "(char4)(1, 2, 3, 4)"},
		{"as_uint(-0.0f)", true, "(uint)0x80000000"},
		{"convert_uchar(300)", false, "(uchar)44"},
		{"convert_char(200)", false, "(char)-56"},
		{"as_uint(1.0f)", true, "(uint)0x3f800000"},
	}
	for _, tt := range tests {
		if got := value.Format(evalOK(t, tt.expr), tt.bits); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.expr, got, tt.want)
		}
	}
}

// TestLanguage covers literals, promotions, the usual arithmetic conversions,
// casts, vector literals and the predefined macros.
func TestLanguage(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"42", "(int)42"},
		{"-2147483648", "(long)-2147483648"}, // unary minus on a long literal, as in C
		{"-0x80000000", "(uint)2147483648"},
		{"1.5", "(double)1.5"},
		{"-5.0f", "(float)-5"},
		{"- -1", "(int)1"},
		{"+(uchar)1", "(int)1"},
		{"-(uchar)1", "(int)-1"},
		{"-(uint)1", "(uint)4294967295"},
		{"~(char)0", "(int)-1"},
		{"~0ul", "(ulong)18446744073709551615"},
		{"((((1))))", "(int)1"},
		{"1 + 2 * 3", "(int)7"},
		{"(1 + 2) * 3", "(int)9"},
		{"10 - 4 - 3", "(int)3"},
		{"7 / 2", "(int)3"},
		{"-7 % 3", "(int)-1"},
		{"1 << 33", "(int)2"}, // the count modulo 32
		{"1L << 53", "(long)9007199254740992"},
		{"(char)1 << 9", "(int)512"}, // promoted first
		{"-8 >> 1", "(int)-4"},
		{"0xf0 | 0x0f ^ 0xff & 0x3c", "(int)243"},
		{"INT_MAX + 1", "(int)-2147483648"},
		{"(uint)1 + -2", "(uint)4294967295"},
		{"1 + 1L", "(long)2"},
		{"1u + 1L", "(long)2"},
		{"(ulong)1 + -1", "(ulong)0"},
		{"(char)100 + (char)100", "(int)200"},
		{"1 + 0.5f", "(float)1.5"},
		{"1.0f + 1.0", "(double)2"},
		{"1.5h + 1", "(half)2.5"},
		{"0.1f + 0.2f", "(float)0.3"},
		{"0.1 + 0.2", "(double)0.30000000000000004"},
		{"1.0f / 0.0f", "(float)inf"},
		{"-1.0f / 0.0f", "(float)-inf"},
		{"INFINITY - INFINITY", "(float)nan"},
		{"(int)-2.7f", "(int)-2"},
		{"(int)2.7", "(int)2"},
		{"(uint)-1.0f", "(uint)0"},
		{"(int)NAN", "(int)0"},
		{"(uchar)300", "(uchar)44"},
		{"(char)200", "(char)-56"},
		{"(float)16777217", "(float)16777216"},
		{"(half)65519.0f", "(half)65500"},
		{"(half)0.1", "(half)0.1"},
		{"(double)0.1f", "(double)0.10000000149011612"},
		{"(bool)0.5f", "(bool)true"},
		{"(bool)0", "(bool)false"},
		{"-(bool)1", "(int)-1"},
		{"(unsigned char)300", "(uchar)44"},
		{"(unsigned)-1", "(uint)4294967295"},
		{"(signed char)255", "(char)-1"},
		{"(unsigned long int)1", "(ulong)1"},
		{"(short int)65537", "(short)1"},
		{"(int4)2.5f", "(int4)(2, 2, 2, 2)"},
		{"(float2)1", "(float2)(1, 1)"},
		{"(float4)(1, 2, 3, 4)", "(float4)(1, 2, 3, 4)"},
		{"(float4)(1.0f)", "(float4)(1, 1, 1, 1)"},
		{"(float4)((float2)(1.0f, 2.0f), 3.0f, 4.0f)", "(float4)(1, 2, 3, 4)"},
		{"(float4)(1.0f, (float2)(2.0f, 3.0f), 4)", "(float4)(1, 2, 3, 4)"},
		{"(float8)((float4)(1.0f), (float4)(2.0f))", "(float8)(1, 1, 1, 1, 2, 2, 2, 2)"},
		{"(float4)((float3)(1.0f, 2.0f, 3.0f), 4.0f)", "(float4)(1, 2, 3, 4)"},
		{"(float4)((float4)(7.0f))", "(float4)(7, 7, 7, 7)"},
		{"(uchar4)(300)", "(uchar4)(44, 44, 44, 44)"},
		{"(short3)(1, 2, 3)", "(short3)(1, 2, 3)"},
		{"(char16)(1)", "(char16)(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)"},
		{"(int4)(1, 2, 3, 4) + 1", "(int4)(2, 3, 4, 5)"},
		{"2 * (float2)(1.5f, 2.0f)", "(float2)(3, 4)"},
		{"(uchar2)(250, 1) + (uchar)10", "(uchar2)(4, 11)"},
		{"(int2)(1, 2) << 33", "(int2)(2, 4)"},
		{"(int2)(1, 2) << (uint2)(1, 2)", "(int2)(2, 8)"},
		{"as_int4(as_float3((int4)(1, 2, 3, 4)))", "(int4)(1, 2, 3, 4)"},
		{"CHAR_MAX", "(int)127"},
		{"CHAR_MIN", "(int)-128"},
		{"INT_MIN", "(int)-2147483648"},
		{"LONG_MIN", "(long)-9223372036854775808"},
		{"UINT_MAX", "(uint)4294967295"},
		{"FLT_MAX", "(float)3.4028235e+38"},
		{"FLT_MIN", "(float)1.1754944e-38"},
		{"HALF_MAX", "(half)65500"},
		{"DBL_EPSILON", "(double)2.220446049250313e-16"},
		{"HUGE_VAL", "(double)inf"},
		{"-NAN", "(float)-nan"},
		{"FLT_MANT_DIG + DBL_MIN_EXP", "(int)-997"},
		{"convert_int /* a comment */ (1.5f) // and another", "(int)1"},
		{"1 +\n 2", "(int)3"},
		{"convert_float4((int4)(1, 2, 3, 4))", "(float4)(1, 2, 3, 4)"},
		{"convert_char3_sat((int3)(1000, -1000, 5))", "(char3)(127, -128, 5)"},
		{"convert_double16((float16)(0.1f))", "(double16)(0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612, 0.10000000149011612)"},
		{"convert_int(convert_int(5))", "(int)5"},
		{"convert_half(1)", "(half)1"},
		{"convert_int(1.5h)", "(int)1"},
	}
	for _, tt := range tests {
		if got := evalOK(t, tt.expr).String(); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.expr, got, tt.want)
		}
	}
}

func TestCurrentMode(t *testing.T) {
	for _, tt := range []struct {
		expr string
		mode round.Mode
		want string
	}{
		{"convert_float(16777217)", round.RTP, "(float)0x4b800001"},
		{"convert_float_rte(16777217)", round.RTP, "(float)0x4b800000"},
		{"(float)16777217", round.RTP, "(float)0x4b800001"},
		{"(float4)(16777217)", round.RTZ, "(float4)(0x4b800000, 0x4b800000, 0x4b800000, 0x4b800000)"},
		{"convert_int(2.9f)", round.RTP, "(int)0x00000002"}, // float -> int stays rtz
		{"(int)-2.9f", round.RTN, "(int)0xfffffffe"},
	} {
		ev := Evaluator{Mode: tt.mode}
		v, err := ev.EvalString("t", tt.expr)
		if err != nil || value.Format(v, true) != tt.want {
			t.Errorf("%s under %v = %s, %v; want %s", tt.expr, tt.mode, value.Format(v, true), err, tt.want)
		}
	}
}

// TestErrors checks each error's message and position.
func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"convert_float_sat(1)", "t:1:1: convert_float_sat: _sat is not allowed with a floating destination (float)"},
		{"as_double4((float4)(1.0f))", "t:1:12: as_double4 needs an operand of 32 bytes, got float4 (16 bytes)"},
		{"convert_int2((int4)(1))", "t:1:14: convert_int2 needs a 2-element operand, got int4"},
		{"convert_uchar_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))", "t:1:23: convert_uchar_sat_rte needs a scalar operand, got float4"},
		{"convert_int_rte_sat(1.0f)", "t:1:1: convert_int_rte_sat: _sat must come before the rounding suffix"},
		{"convert_int_rtx(1.0f)", `t:1:1: convert_int_rtx: unknown modifier "_rtx" (want _sat, _rte, _rtz, _rtp or _rtn)`},
		{"convert_bool(1)", "t:1:1: convert_bool: bool takes no part in convert_"},
		{"convert_float5(1)", `t:1:1: convert_float5: unknown type "float5": vector width must be 2, 3, 4, 8 or 16`},
		{"as_bool(1)", "t:1:1: as_bool: bool takes no part in as_"},
		{"as_int3(1)", "t:1:9: as_int3 needs an operand of 16 bytes, got int (4 bytes)"},
		{"convert_int((bool)1)", "t:1:13: convert_int: bool takes no part in convert_"},
		{"x", `t:1:1: unknown identifier "x"`},
		{"1 + foo(2)", `t:1:5: call to undeclared function "foo"`},
		{"convert_int", "t:1:1: convert_int is a function; call it as convert_int(x)"},
		{"convert_int(1, 2)", "t:1:12: convert_int takes 1 argument, got 2"},
		{"convert_int()", "t:1:12: convert_int takes 1 argument, got 0"},
		{"(float4)(1.0f, 2.0f, 3.0f)", "t:1:1: too few elements in the float4 literal: 3, want 4 (or one scalar to broadcast)"},
		{"(float2)(1.0f, 2.0f, 3.0f)", "t:1:1: too many elements in the float2 literal: more than 2"},
		{"(float4)((int2)(1), 1.0f, 2.0f)", "t:1:10: element of type int2 in a float4 literal: vector elements must have element type float (use convert_float2)"},
		{"(float4)((int4)(1))", "t:1:10: element of type int4 in a float4 literal: vector elements must have element type float (use convert_float4)"},
		{"(float4)(int4)(1)", "t:1:1: cannot cast int4 to float4: OpenCL C has no casts between vector types; use convert_float4() or as_float4()"},
		{"(float)(int4)(1)", "t:1:1: cannot cast vector type int4 to scalar type float"},
		{"(int4)(1) + (float4)(1)", "t:1:11: invalid operands to +: int4 and float4 (vector operands must have the same type; convert one with convert_int4)"},
		{"(int2)(1) + (int4)(1)", "t:1:11: invalid operands to +: int2 and int4 (vector operands must have the same type; convert one with convert_int2)"},
		{"1 << (int2)(1)", "t:1:3: the right operand of << must be a scalar when the left one is (int << int2)"},
		{"1.0f % 2", "t:1:6: invalid operands to %: float and int (it needs integers)"},
		{"1.5 << 1", "t:1:5: invalid operands to <<: double and int (it needs integers)"},
		{"~1.0f", "t:1:1: operator ~ needs an integer operand, got float"},
		{"1 / 0", "t:1:3: integer division by zero"},
		{"(1 + 2) % (3 - 3)", "t:1:9: integer division by zero"},
		{"++1", "t:1:1: operator ++ needs a variable"},
		{"1 +", "t:1:4: expected an expression, found end of input"},
		{"", "t:1:1: expected an expression, found end of input"},
		{"(1", "t:1:3: expected ) to close the parenthesis, found end of input"},
		{"convert_int(1", "t:1:14: expected ) to close the argument list, found end of input"},
		{"(float4)(1, 2", "t:1:14: expected ) to close the vector literal, found end of input"},
		{"(float4", "t:1:8: expected ) after the type name, found end of input"},
		{"1 2", `t:1:3: unexpected "2" after the expression`},
		{"(1)(2)", "t:1:4: called object is not a function"},
		{"1f", `t:1:1: invalid suffix "f" on integer constant "1f"`},
		{"08", `t:1:1: invalid digit "8" in octal constant "08"`},
		{"1 + 0x1.8", `t:1:5: invalid floating constant "0x1.8": a hexadecimal floating constant needs a binary exponent (p)`},
		{"1.0l", `t:1:1: invalid floating constant "1.0l": long double is not an OpenCL C type`},
		{"convert_int(1) $", "t:1:16: unexpected character '$'"},
		{"1 /* x", "t:1:3: unterminated /* comment"},
		{"float4", `t:1:1: unexpected type name "float4" in an expression (a cast is written (float4)x)`},
		{"(long long)1", `t:1:2: invalid type name "long long"`},
		{"(bool2)(1)", `t:1:2: unknown type "bool2": there are no bool vectors`},
		{"float5(1)", `t:1:1: unknown type "float5": vector width must be 2, 3, 4, 8 or 16`},
		{"1 +\n  x", `t:2:3: unknown identifier "x"`},
		{"convert_int2(INT_MAX)", "t:1:14: convert_int2 needs a 2-element operand, got int"},
		{"\xff", "t:1:1: invalid byte 0xff in source"},
	}
	for _, tt := range tests {
		var ev Evaluator
		v, err := ev.EvalString("t", tt.src)
		if err == nil {
			t.Errorf("%q = %v, want error %q", tt.src, v, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, err, tt.want)
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: error %T is not an *Error", tt.src, err)
		}
	}
}

func TestNestingLimit(t *testing.T) {
	deep := strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000)
	var ev Evaluator
	_, err := ev.EvalString("t", deep)
	if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("5000 parentheses: %v", err)
	}
	deep = strings.Repeat("-", 5000) + "1"
	if _, err = ev.EvalString("t", deep); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("5000 minus signs: %v", err)
	}
	ok := strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200)
	if _, err = ev.EvalString("t", ok); err != nil {
		t.Errorf("200 parentheses: %v", err)
	}
	long := "1" + strings.Repeat(" + 1", syntax.MaxChain) // a long flat chain is fine
	if v, err := ev.EvalString("t", long); err != nil || v.Int64(0) != syntax.MaxChain+1 {
		t.Errorf("a %d-term sum = %v, %v", syntax.MaxChain+1, v, err)
	}
}

func TestErrorDetail(t *testing.T) {
	var ev Evaluator
	_, err := ev.EvalString("<arg1>", "convert_int2((int4)(1))")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *Error", err)
	}
	want := "<arg1>:1:14: convert_int2 needs a 2-element operand, got int4\n" +
		"convert_int2((int4)(1))\n" +
		"             ^"
	if got := e.Detail(); got != want {
		t.Errorf("Detail:\n%s\nwant\n%s", got, want)
	}
	// Tabs are kept so the caret lines up; other lines of the source are not shown.
	_, err = ev.EvalString("f.cl", "1 +\n\t\tconvert_float_sat(1) // ok\n")
	errors.As(err, &e)
	want = "f.cl:2:3: convert_float_sat: _sat is not allowed with a floating destination (float)\n" +
		"\t\tconvert_float_sat(1) // ok\n" +
		"\t\t^"
	if got := e.Detail(); got != want {
		t.Errorf("Detail:\n%q\nwant\n%q", got, want)
	}
	// Errors from parsing carry their source line too.
	_, err = ev.EvalString("", "1 $")
	errors.As(err, &e)
	if got, want := e.Detail(), "1:3: unexpected character '$'\n1 $\n  ^"; got != want {
		t.Errorf("Detail:\n%q\nwant\n%q", got, want)
	}
}

func TestWarnings(t *testing.T) {
	var warnings []string
	ev := Evaluator{Warn: func(e *Error) { warnings = append(warnings, e.Detail()) }}
	for _, src := range []string{
		"convert_int(3e10f)",
		"convert_int4((float4)(1.0f, NAN, 2.0f, -1e20f))",
		"(int)1e20",
		"(uchar4)(-1.0f)",
		"convert_int_sat(3e10f)", // saturated on purpose: no warning
		"convert_uchar(300)",     // integer -> integer wraps, defined
	} {
		if _, err := ev.EvalString("w", src); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"w:1:1: warning: convert_int: the value is NaN or out of range for int; OpenCL leaves the result implementation-defined, clconv saturates (use _sat to make it portable)\nconvert_int(3e10f)\n^",
		"w:1:1: warning: convert_int4: elements 1, 3 are NaN or out of range for int; OpenCL leaves the result implementation-defined, clconv saturates (use _sat to make it portable)\nconvert_int4((float4)(1.0f, NAN, 2.0f, -1e20f))\n^",
		"w:1:1: warning: cast to int: the value is NaN or out of range; the result is undefined in C, clconv saturates\n(int)1e20\n^",
		"w:1:10: warning: cast to uchar: the value is NaN or out of range; the result is undefined in C, clconv saturates\n(uchar4)(-1.0f)\n         ^",
	}
	if strings.Join(warnings, "\n\n") != strings.Join(want, "\n\n") {
		t.Errorf("warnings:\n%s\n\nwant:\n%s", strings.Join(warnings, "\n\n"), strings.Join(want, "\n\n"))
	}
}

func TestDetailLongLine(t *testing.T) {
	src := "int x = " + strings.Repeat("1 + ", 100) + "y" + strings.Repeat(" + 1", 100) + ";"
	_, err := runVars(src, false)
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatal(err)
	}
	lines := strings.Split(list[0].Detail(), "\n")
	if len(lines) != 3 || len(lines[1]) > maxShownLine+6 || !strings.HasPrefix(lines[1], "...") || !strings.HasSuffix(lines[1], "...") {
		t.Fatalf("Detail:\n%s", list[0].Detail())
	}
	if caret := strings.Index(lines[2], "^"); caret < 0 || lines[1][caret] != 'y' {
		t.Errorf("caret at %d under %q", caret, lines[1])
	}
}

func TestClip(t *testing.T) {
	bad := strings.Repeat("\x93", 300)
	for _, col := range []int{0, 1, 150, 250, 299, 300} {
		e := &Error{Pos: Pos{Line: 1, Col: col + 1}, Msg: "m", Line: bad}
		d := e.Detail()
		lines := strings.Split(d, "\n")
		if len(lines) != 3 || !strings.HasSuffix(lines[2], "^") {
			t.Errorf("col %d: %q", col, d)
		}
	}
	if line, col := clip("short", 3); line != "short" || col != 3 {
		t.Errorf("clip(short, 3) = %q, %d", line, col)
	}
}
