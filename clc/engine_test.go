package clc

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// The tree walker of exec.go is the reference the compiled code
// (compile.go) is held to. TestMain makes every Interp and Evaluator of the
// package's tests (examples, fuzz seeds and all) run each input a second
// time with the tree walker, and fails the run if the two disagree on
// anything a caller sees: results, errors with their positions, variables to
// the last bit, warnings and conversions, in order. TestEnginesAgree adds a
// corpus run under many step limits, where the two must stop at the same
// statement; cmd/clconv/internal/difftest's TestEnginesAgree adds random
// programs.

func TestMain(m *testing.M) {
	testHookExec = shadowExec
	testHookEval = shadowEval
	code := m.Run()
	shadows.Lock()
	for _, d := range shadows.bad {
		fmt.Fprintln(os.Stderr, d)
	}
	if len(shadows.bad) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: compiled code and the tree walker disagree on %d inputs\n", len(shadows.bad))
		code = 1
	}
	shadows.Unlock()
	os.Exit(code)
}

// shadows pairs each Interp of the tests with its tree-walking twin.
var shadows struct {
	sync.Mutex
	interps map[*Interp]twin
	bad     []string
}

// twin is the tree-walking twin of an Interp, with the Interp's
// preprocessor state after the last input: a test that assigns a new Interp
// over an old one gets a new twin.
type twin struct {
	tw *Interp
	pp *syntax.State
}

// outcome is what one run of an input shows a caller, as text.
type outcome struct {
	results, err, vars string
	warns, convs       []string
}

func (o *outcome) String() string {
	return fmt.Sprintf("results:\n%s\nerror: %s\nvars:\n%s\nwarnings:\n%s\nconversions:\n%s",
		o.results, o.err, o.vars, strings.Join(o.warns, "\n"), strings.Join(o.convs, "\n"))
}

func valueText(v value.Value) string {
	return fmt.Sprintf("%v %x", v.Type, v.Lanes)
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteString(err.Error())
	if list, ok := err.(ErrorList); ok {
		for _, e := range list {
			b.WriteString("\n" + e.Detail())
		}
	}
	return b.String()
}

func (o *outcome) watch(warn *func(*Error), conv *func(Conversion)) {
	if *warn != nil {
		user := *warn
		*warn = func(w *Error) {
			o.warns = append(o.warns, w.Detail())
			user(w)
		}
	}
	if *conv != nil {
		user := *conv
		*conv = func(c Conversion) {
			o.convs = append(o.convs, fmt.Sprintf("%v %v %v %v %s -> %s", c.Pos, c.Kind, c.Op, c.Mode, valueText(c.Src), valueText(c.Result)))
			user(c)
		}
	}
}

func (o *outcome) finish(in *Interp, res []Result, err error) {
	var b strings.Builder
	for _, r := range res {
		fmt.Fprintf(&b, "%s = %s\n", r.Name, valueText(r.Value))
	}
	o.results = b.String()
	o.err = errText(err)
	b.Reset()
	for _, v := range in.Vars() {
		fmt.Fprintf(&b, "%s %v %v = %s\n", v.Name, v.Type, v.Pos, valueText(v.Value))
	}
	o.vars = b.String()
}

func disagree(src string, got, want *outcome) {
	if got.String() == want.String() {
		return
	}
	if len(src) > 2000 {
		src = src[:2000] + "..."
	}
	shadows.Lock()
	shadows.bad = append(shadows.bad, fmt.Sprintf("engines disagree on\n%s\n--- compiled:\n%v\n--- tree walker:\n%v\n", src, got, want))
	shadows.Unlock()
}

// checkAgreed fails t with the disagreements recorded since the last call
// (the fuzz targets call it, so that fuzzing holds compiled code to the
// tree walker input by input; TestMain reports the rest at the end).
func checkAgreed(t *testing.T) {
	t.Helper()
	shadows.Lock()
	bad := shadows.bad
	shadows.bad = nil
	shadows.Unlock()
	if len(bad) > 0 {
		t.Fatal(strings.Join(bad, "\n"))
	}
}

// shadowExec runs an input compiled, then with the tree walker on the
// Interp's twin, and records a disagreement.
func shadowExec(in *Interp, file string, line int, src string, repl bool) ([]Result, error) {
	shadows.Lock()
	if shadows.interps == nil {
		shadows.interps = make(map[*Interp]twin)
	}
	tw := shadows.interps[in].tw
	if tw == nil || shadows.interps[in].pp != in.pp {
		tw = &Interp{Mode: in.Mode, engine: engineTree}
	}
	shadows.Unlock()
	defer func() {
		shadows.Lock()
		shadows.interps[in] = twin{tw, in.pp}
		shadows.Unlock()
	}()
	tw.MaxSteps, tw.Cancel = in.MaxSteps, in.Cancel
	var got, want outcome
	warn, conv := in.Warn, in.OnConversion
	got.watch(&in.Warn, &in.OnConversion)
	res, err := in.execInput(file, line, src, repl)
	in.Warn, in.OnConversion = warn, conv
	got.finish(in, res, err)

	tw.Warn, tw.OnConversion = nil, nil
	if warn != nil {
		tw.Warn = func(*Error) {}
	}
	if conv != nil {
		tw.OnConversion = func(Conversion) {}
	}
	want.watch(&tw.Warn, &tw.OnConversion)
	tres, terr := tw.execInput(file, line, src, repl)
	want.finish(tw, tres, terr)
	disagree(src, &got, &want)
	return res, err
}

// shadowEval is shadowExec for an Evaluator.
func shadowEval(ev *Evaluator, file, src string) (value.Value, error) {
	var got, want outcome
	warn, conv := ev.Warn, ev.OnConversion
	got.watch(&ev.Warn, &ev.OnConversion)
	v, err := ev.evalString(file, src)
	ev.Warn, ev.OnConversion = warn, conv
	got.results, got.err = valueText(v), errText(err)

	tw := &Evaluator{Mode: ev.Mode, engine: engineTree}
	if warn != nil {
		tw.Warn = func(*Error) {}
	}
	if conv != nil {
		tw.OnConversion = func(Conversion) {}
	}
	want.watch(&tw.Warn, &tw.OnConversion)
	tv, terr := tw.evalString(file, src)
	want.results, want.err = valueText(tv), errText(terr)
	disagree(src, &got, &want)
	return v, err
}

// engineCorpus returns the programs TestEnginesAgree runs: the examples
// (errors included), the fuzz targets' seeds and corpus, and programs that
// exercise what the others touch little.
func engineCorpus(t *testing.T) []string {
	var srcs []string
	for _, pat := range []string{"../examples/*.cl", "../examples/errors/*.cl", "testdata/fuzz/*.cl", "testdata/fuzz/errors/*.cl"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs = append(srcs, string(b))
		}
	}
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzRun/*")
	for _, f := range corpus {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, arg, _ := strings.Cut(string(b), "string(")
		if s, err := strconv.Unquote(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(arg), ")"))); err == nil {
			srcs = append(srcs, s)
		}
	}
	if len(srcs) < 20 {
		t.Fatalf("only %d programs found", len(srcs))
	}
	srcs = append(srcs, fuzzSeeds...)
	return append(srcs, engineExtra...)
}

// engineExtra are programs for the parts of the language the examples and
// seeds touch little: vectors in every operator, swizzle stores, warnings in
// loops, runtime errors in functions, every kind in arithmetic.
var engineExtra = []string{
	loopSrc(300),
	`int4 a = (int4)(1, -2, 3, 0x7fffffff); int4 b = a + 1; int4 c = a * (int4)(2, 3, 4, 5); int4 d = a / (int4)(1, 2, -1, 7); int4 e = a % 3;
int4 f = a << (int4)(1, 33, -1, 4); int4 g = a >> 1; int4 h = ~a & 0xff | 0x100 ^ a; int4 i = -a; int4 j = !a; int4 k = a < b; int4 l = a && (int4)(0, 1, 0, 1);
int4 m = a || 0; int4 n = a ? b : c; int o = any(a < 0), p = all(a > -5); int4 q = select(a, b, k); uint4 r = as_uint4(a); float4 s = convert_float4_rtp(a);`,
	`float4 v = (float4)(1.5f, -2.25f, NAN, INFINITY); float4 w = v * 3 - v / 7 + 0.1f; int4 c = v == v; int4 d = v != w; float4 e = -v;
short4 h = convert_short4_sat_rtn(w); char4 ch = convert_char4(v); double2 dd = convert_double2(v.lo) * 1e300; float2 ff = convert_float2_rtz(dd);
half4 hh = convert_half4_rte(v) + (half4)(1.0h); ushort4 uh = as_ushort4(hh); float3 f3 = v.xyz; float4 as4 = as_float4(f3); int8 i8 = as_int8((double4)(1.0));`,
	`float4 f = 0; f.x = 1; f.wz = (float2)(4, 3); f.s1 = 2; f.hi.y += 10; f.even = f.odd; f.lo.x += 1; int4 i = (int4)(1, 2, 3, 4); i.xy++; --i.w; i.hi.lo = 9;
int2 sw = i.wz; i.wz = sw.yx; int8 q = (int8)(0, 1, 2, 3, 4, 5, 6, 7); q.s7531 = q.s0246; q.hi.wzx = q.lo.xyz; q.even.yw = (int2)(9, 8); ulong16 u = (ulong16)(1); u.sF = 5; u.s0123 = (ulong4)(7); u.odd = u.even; int3 t3 = (int3)(1, 2, 3); t3.z = t3.x + t3.y;`,
	`int f(int x) { int s = 0; for (int i = 0; i < x; i++) { if (i % 3 == 0) continue; s += i * x; if (s > 100) break; } return s; }
int g(int n) { return n <= 0 ? 0 : n + g(n - 1); } int4 h(int4 v, int k) { v *= k; return v.wzyx; } void nothing(void) { }
int a = f(10), b = g(50), c = f(3) + g(3); int4 d = h((int4)(1, 2, 3, 4), 3); nothing(); int k = 0; do { k += 2; } while (k < 9); while (k > 0) k -= 3;`,
	`int x = 0x7fffffff; x++; x += 1; int y = -x; long l = LONG_MIN; l = -l; l = l * -1; l = l / -1; int z = INT_MIN % -1; char c = 127; c++;
int4 v = (int4)(INT_MAX); v = v + 1; int w = (int)3e10f; int u = convert_int(NAN); int4 q = convert_int4((float4)(1e20f)); uint t = (uint)-1.5f;`,
	`int d(int n) { return 10 / n; } int a = d(5); int b = d(0); int c = 1;`,
	`int4 z = (int4)(1, 2, 0, 4); int4 r = (int4)(8) / z; int after = 1;`,
	`int f(int); int y = f(1);`,
	`int r(int n) { return r(n + 1); } int x = r(0);`,
	`int noret(int n) { if (n) return 1; } int a = noret(1); int b = noret(0);`,
	`#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
float a = 1.0f / 3.0f; float b; double c; half h;
{
#pragma OPENCL SELECT_ROUNDING_MODE rtp
b = 1.0f / 3.0f; c = (double)1 / 3; h = (half)0.1f; float4 v = (float4)(1) / 3;
}
float f(float x) { return x / 3; }
#pragma OPENCL SELECT_ROUNDING_MODE rtn
float d = f(1.0f), e = 1.0f / 3.0f; float g = convert_float(16777217); float k = (float)0.1;`,
	`bfloat16x4 b = convert_bfloat16x4_sat_rtn((float4)(1e39f, 0.1f, -1, 2)); e4m3 e = b.y; float f = convert_float(e); e5m2x2 w = as_e5m2x2((short)0x7c7b);
e2m1x4 m = convert_e2m1x4((float4)(1.0f, 7.0f, -0.2f, NAN)); e8m0 s = convert_e8m0_sat_rtp(0.0f); float fs = convert_float(s); bool t = e; int ti = t + 1;`,
	`bool b = 2.5f; bool c = b + 1; int i = b; float f = b; bool d = NAN; bool e = -0.0f; int n = !b + !e; char ch = (char)b; bool g = (bool)(char)256;`,
	`uchar u = 200; uchar v = u + u; ushort s = 65535; s = s * s; uint ui = 0xffffffffu; ui = ui * ui + ui / 7u - (ui % 5u); ulong ul = 0xffffffffffffffffUL; ul >>= 63;
long ll = -7; ll >>= 1; ll = ll / 2 % 3; short sh = -1; sh <<= 15; sh >>= 3; char c2 = -128; c2 = c2 / -1;`,
	`int i = 0; int s = 0; for (;;) { i++; if (i > 1000) break; s += i; }`,
	// The specialised closures of compile_fast.go: int and uint in each
	// operator they cover, overflowing, stored in globals and locals; float
	// with NaN and infinite results, in RTE (and RTN, as this test runs
	// every program) and under a pragma.
	`int a = INT_MAX, b = INT_MIN, c = -7; uint u = 0xfffffff0u, v = 33u;
int s1 = a + 1, s2 = b - 1, s3 = a * 3, s4 = c * c - a + b, s5 = (a & c) | (b ^ c);
uint t1 = u + v, t2 = v - u, t3 = u * u, t4 = (u & v) | (u ^ 0xffu);
a += 2; b -= 3; c *= 65536 * 512; u += v; v -= u; u *= 3u;
float x = 1.0f / 3.0f, y = x * 3.0f - 1.0f, z = INFINITY - INFINITY, w = 0.0f / 0.0f, q = -x * z + w / 1e-30f, big = 3e38f * 10.0f + 1e-45f / 2.0f;
int f(int n, float g) { int k = n; float h = g; for (int i = 0; i < 20; i++) { k += i * 100000000; k -= n; k ^= i | 3; h = h * 1.1f + 0.3f; h /= 0.7f; h -= 1e-3f; } return k + (int)h; }
int r = f(5, 0.1f);
float inf = INFINITY, zero = 0.0f, sn = as_float(0x7f800001), qn = as_float(0xffc00123), pn = as_float(0x7fc00456);
float m0 = inf * zero, m1 = sn * x, m2 = x * qn, m3 = qn * pn, a0 = inf + -inf, a1 = pn + sn, a2 = x + qn, s0 = inf - inf, s1n = qn - pn, s2n = x - sn;
float d0 = zero / zero, d1 = inf / inf, d2 = sn / qn, d3 = x / pn, d4 = x / zero;
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float rz = x * 3.0f + y / 7.0f - 1e-8f; float nz = (z + 1.0f) * w; float nn = -w - big;`,
	`char c = -3; uchar uc = 250; short s = -30000; ushort us = 60000; int i = -1; uint u = 0xffffffffu; long l = LONG_MIN; ulong ul = 1UL << 63;
int n = 0; if (c < 1) n |= 1; if (uc > 3) n |= 2; if (s <= -30000) n |= 4; if (us >= 60001) n |= 8; if (i == -1) n |= 16; if (u != 0xffffffffu) n |= 32;
if (l < 0) n |= 64; if (ul > 5UL) n |= 128; if (us >= 60000) n |= 512; if (c > -3) n |= 1024; if (i < 0 && u > 0u) n |= 256; while (l < -5 && n < 1000) { l /= 2; n += 1000; } for (short k = -5; k <= 5; k += 3) n += k;`,
	`int4 v = (int4)(INT_MIN, 1, -1, 0); int4 n = -v; int4 w = (v, v + 1); int c = (v, 3); int4 s = 0 ? v : n; int4 t = 1 ? v : n; int4 p = ++v; int4 q = v--;
int a = any(-1), b = all(0), d = select(1, 2, 3), e = select(1, 2, 0); if (1) ; while (0) ; for (int k = 0; k < 2; k++) ;
{ int4 self = self + 1; int4 z = (int4)(2); z = z + self; }
int f(int n) { for (int i = 0; ; i++) { if (i > n) return i; } }
int g(int n) { do { if (n > 5) return n; n += 2; } while (1); }
int h(int n) { for (int i = 0; i < 10; i++) { if (i == n) return ++i; } return -1; }
int4 vp(int4 v) { for (v = 0; v.x < 3; v += 1) { } for (;; v += 1) { if (v.y > 5) break; } return v; }
int k(int n) { while (1) { { break; n++; } } return n; }
int r1 = f(3), r2 = g(1), r3 = h(4), r4 = h(20), r5 = k(7); int4 r6 = vp((int4)(9));`,
}

// TestEnginesAgree runs the corpus compiled and with the tree walker, as a
// file and as REPL input, in two rounding modes, and under step limits from
// 1 upward, and wants the same outcome: the step limit must stop both at
// the same statement with the same message.
func TestEnginesAgree(t *testing.T) {
	steps := []int64{1, 2, 3, 4, 5, 7, 10, 15, 25, 50, 100, 300, 1000, 20000}
	if testing.Short() {
		steps = []int64{1, 3, 7, 50, 20000}
	}
	n := 0
	for _, src := range engineCorpus(t) {
		for _, repl := range []bool{false, true} {
			for _, mode := range []round.Mode{round.RTE, round.RTN} {
				for _, max := range steps {
					var got, want outcome
					for _, e := range []engine{engineCompiled, engineTree} {
						o := &got
						if e == engineTree {
							o = &want
						}
						in := &Interp{Mode: mode, MaxSteps: max, engine: e, Warn: func(*Error) {}}
						if mode == round.RTE {
							// Without an observer, compiled code skips
							// the conversions of constants.
							in.OnConversion = func(Conversion) {}
						}
						o.watch(&in.Warn, &in.OnConversion)
						res, err := in.execInput("t.cl", 1, src, repl)
						o.finish(in, res, err)
					}
					if got.String() != want.String() {
						t.Fatalf("max steps %d, mode %v, repl %v:\n%s\n--- compiled:\n%v\n--- tree walker:\n%v", max, mode, repl, src, &got, &want)
					}
					if strings.Contains(got.err, "execution limit") {
						n++
					}
				}
			}
		}
	}
	if n == 0 {
		t.Error("no program reached a step limit")
	}
}

// TestCompileFallbacks builds the nodes the checker never makes (a cast of
// a vector, operators on bool or on mismatched operands, as_ between sizes)
// and wants compiled code to fail or compute as the tree walker does, so
// that the paths kept for them are tested.
func TestCompileFallbacks(t *testing.T) {
	i4 := cltype.Vec(cltype.Int, 4)
	b := cltype.Scalar(cltype.Bool)
	k := func(t cltype.Type, lanes ...uint64) expr { return &constExpr{typed{t}, value.New(t, lanes...)} }
	pos := syntax.Pos{File: "f", Line: 1, Col: 2}
	cases := []expr{
		&castExpr{typed: typed{i4}, x: k(i4, 1, 2, 3, 4), pos: pos, what: "cast to"},
		&arithExpr{typed{b}, value.Add, k(b, 1), k(b, 1), round.RTE, pos},
		&arithExpr{typed{cltype.Scalar(cltype.Int)}, value.Add, k(cltype.Scalar(cltype.Int), 1), k(cltype.Scalar(cltype.Long), 1), round.RTE, pos},
		&compareExpr{typed{cltype.Scalar(cltype.Int)}, syntax.LSS, k(b, 0), k(b, 1)},
		&compareExpr{typed{cltype.Scalar(cltype.Int)}, syntax.GEQ, k(cltype.Scalar(cltype.BFloat16), 0x3f80), k(cltype.Scalar(cltype.BFloat16), 0xbf80)},
		&unaryExpr{typed{b}, syntax.SUB, k(b, 1), pos},
		&unaryExpr{typed{cltype.Scalar(cltype.Float)}, syntax.TILDE, k(cltype.Scalar(cltype.Float), 1), pos},
		&asExpr{typed{cltype.Scalar(cltype.Int)}, k(cltype.Scalar(cltype.Short), 1), pos},
	}
	for i, e := range cases {
		want, werr := e.eval(&machine{steps: 100})
		var got value.Value
		gerr := protect(func() { got = compileExpr(e).valueFn()(&machine{steps: 100}) })
		if errText(gerr) != errText(werr) || valueText(got) != valueText(want) {
			t.Errorf("case %d: compiled %s, %v; tree walker %s, %v", i, valueText(got), gerr, valueText(want), werr)
		}
	}
}
