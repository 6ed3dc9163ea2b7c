package clc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/value"
)

// hangLimit is how long one input may take before the fuzz targets call it
// a hang. Inputs are at most 4 KiB and every stage is bounded (expansion
// budget, nesting depth, step limit), so real times are far below it; the
// margin is for loaded machines, where wall time says little.
const hangLimit = 10 * time.Second

// FuzzEval checks that the lexer, preprocessor, parser, checker and
// evaluator never panic on one expression, always answer a value or an
// *Error with a valid position, answer the same way twice, take bounded
// time, and compute with compiled code what the tree walker computes.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))",
		"convert_half_rtz((short)32767)",
		"as_float(0x3dcccccd)",
		"as_char4(0x04030201)",
		"as_double4((float4)(1.0f))",
		"convert_int2((int4)(1))",
		"(float4)((float2)(1.0f, 2.0f), 3.0f, 4.0f)",
		"convert_double_rtp((long)(1L<<53) + 1)",
		"-0x1.000002p-25f",
		"2049.0000000000000001h",
		"(unsigned long int)-1 / 0",
		"INT_MIN % -1",
		"as_int4(as_float3((int4)(1, 2, 3, 4)))",
		"1 /* c */ + // d\n 2",
		"(char16)(1) << (char16)(9)",
		"convert_ulong_sat_rtp(-INFINITY)",
		"(float4)(1, 2, 3, 4).wzyx.hi.s1",
		"1 ? (int2)(1) : (int2)(2)",
		"(int4)(1, 0, -1, 0) ? (float4)(1.0f) : 2.0f",
		"select((int2)(1), (int2)(2), (int2)(-1, 0)) == 1 && !0",
		"'a' + '\\n' + '\\x41' + '\\101'",
		"convert_e4m3x4_sat_rtz((float4)(1, 500, -1e9f, 0.3f))",
		"as_bfloat16x2(convert_float(convert_e5m2_rtp(0.1)))",
		"select(convert_bfloat16x2((float2)(1.0f)), (bfloat16x2)(2.0f), (short2)(-1, 0))",
		"convert_e2m1x4_rtz((float4)(0.25f, 7, -1e9f, NAN))", "as_uchar2(convert_e8m0x2_sat_rtp((float2)(0, 6)))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<12 {
			return
		}
		start := time.Now()
		var ev Evaluator
		ev.Warn = func(w *Error) {
			if !w.Warning || !w.Pos.IsValid() {
				t.Errorf("bad warning %#v", w)
			}
		}
		v, err := ev.EvalString("f", src)
		if d := time.Since(start); d > hangLimit {
			t.Errorf("%q took %v", src, d)
		}
		if err != nil {
			checkError(t, src, err)
			checkAgreed(t)
			return
		}
		checkValue(t, src, v)
		var again Evaluator
		w, err := again.EvalString("f", src)
		if err != nil || !w.Equal(v) {
			t.Fatalf("%q: %v, then %v, %v", src, v, w, err)
		}
		checkAgreed(t)
	})
}

// checkError checks that err is an *Error (or a list of them) at a valid
// position inside src, and that Detail does not fail.
func checkError(t *testing.T, src string, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%q: error %T is not an *Error: %v", src, err, err)
	}
	var list ErrorList
	if errors.As(err, &list) {
		for _, x := range list {
			checkOneError(t, src, x)
		}
		return
	}
	checkOneError(t, src, e)
}

func checkOneError(t *testing.T, src string, e *Error) {
	t.Helper()
	if !e.Pos.IsValid() || e.Pos.Offset > len(src) || e.Msg == "" || e.Warning {
		t.Fatalf("%q: bad error %#v", src, e)
	}
	_ = e.Detail()
}

// checkValue checks a value's shape: lanes within their element width and
// nothing past the storage.
func checkValue(t *testing.T, src string, v value.Value) {
	t.Helper()
	s := value.Format(v, false)
	if !strings.HasPrefix(s, "("+v.Type.String()+")") {
		t.Fatalf("%q: Format = %s for type %v", src, s, v.Type)
	}
	for i := range v.Type.Storage() {
		if v.Type.Kind.IsInteger() || v.Type.Kind.IsFloat() {
			if v.Lanes[i]&^v.Type.Kind.Mask() != 0 {
				t.Fatalf("%q = %v: lane %d = %#x is wider than %v", src, s, i, v.Lanes[i], v.Type.Kind)
			}
		}
	}
	for i := v.Type.Storage(); i < value.MaxLanes; i++ {
		if v.Lanes[i] != 0 {
			t.Fatalf("%q = %v: lane %d past the storage is %#x", src, s, i, v.Lanes[i])
		}
	}
}

// fuzzSeeds are snippets for FuzzRun's corpus, besides the examples.
var fuzzSeeds = []string{
	"int x = 1; x += 2; int y = x++ + ++x;",
	"#define F(a, ...) a + __VA_ARGS__\nint z = F(1, 2);",
	"#define S(x) #x\n#define C(a, b) a ## b\nint C(v, 1) = sizeof(S(abc));",
	"#if defined(X) || 1 > 0\nint a = 1;\n#elif 0\n#else\n#endif",
	"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n#pragma OPENCL SELECT_ROUNDING_MODE rtz\nfloat q = 1.0f / 3.0f;",
	"int f(int n) { return n <= 1 ? 1 : n * f(n - 1); }\nint r = f(10);",
	"int i = 0; for (;;) { if (++i > 5) break; } while (i) i--; do { i++; } while (i < 3);",
	"float4 v = (float4)(1, 2, 3, 4); v.xy = v.zw; v.hi = v.lo; v.s3 = -v.s0; float2 e = v.even, o = v.odd;",
	"int4 m = (float4)(1) < (float4)(2); int a = any(m), b = all(m);",
	"{ int t = 1; { int t = 2; } }",
	"int loop() { for (;;) {} }\nint x = loop();",
	"#define A(x) x x\n#define B(x) A(A(x))\nint a = 0 B(B(B(+1)));",
	"void g(void) { return; }\ng();",
	"int f(int);\nint y = f(1);",
	"bfloat16x4 b = convert_bfloat16x4_sat_rtn((float4)(1e39f, 0.1f, -1, 2)); e4m3 e = b.y; float f = convert_float(e); e5m2x2 w = as_e5m2x2((short)0x7c7b);",
	"e4m3 g(e4m3 p) { return p; }\ne4m3 q = g(convert_e4m3(3.0f)); int n = sizeof(e5m2x3);",
	"e3m2x2 m = convert_e3m2x2((half2)(0.09h, 100.0h)); e2m3 k = as_e2m3((uchar)0xff); float f = convert_float(k); e8m0 s = convert_e8m0_rtz(f);",
}

// FuzzRun checks the whole front end on programs: the preprocessor, the
// parser, the checker and the interpreter never panic or hang (the step
// limit and the expansion limits hold), every error is an *Error at a valid
// position, a program gives the same result twice, and compiled code gives
// what the tree walker gives (TestMain's hook, engine_test.go).
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("../examples/*.cl")
	more, _ := filepath.Glob("../examples/errors/*.cl")
	for _, name := range append(files, more...) {
		if b, err := os.ReadFile(name); err == nil && len(b) <= 1<<12 {
			f.Add(string(b))
		}
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<12 {
			return
		}
		run := func(repl bool) (string, error) {
			in := &Interp{MaxSteps: 20000}
			in.Warn = func(w *Error) {
				if !w.Warning || !w.Pos.IsValid() {
					t.Errorf("bad warning %#v", w)
				}
			}
			start := time.Now()
			var err error
			var out strings.Builder
			if repl {
				var res []Result
				res, err = in.Exec("f", 1, src)
				for _, r := range res {
					checkValue(t, src, r.Value)
					out.WriteString(r.Name + "=" + value.Format(r.Value, true) + "\n")
				}
			} else {
				err = in.Run("f", src)
			}
			if d := time.Since(start); d > hangLimit {
				t.Errorf("%q (repl %v) took %v", src, repl, d)
			}
			for _, v := range in.Vars() {
				checkValue(t, src, v.Value)
				out.WriteString(v.Name + ":" + value.Format(v.Value, true) + "\n")
			}
			if err != nil {
				checkError(t, src, err)
				out.WriteString("error: " + err.Error())
			}
			return out.String(), err
		}
		for _, repl := range []bool{false, true} {
			a, _ := run(repl)
			b, _ := run(repl)
			if a != b {
				t.Fatalf("%q (repl %v): two runs differ:\n%s\n---\n%s", src, repl, a, b)
			}
		}
		checkAgreed(t)
	})
}
