package explain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// checkAll requires Predict to give convert.Bits's result for src bits b
// converted to every kind in every mode, with and without _sat.
func checkAll(t *testing.T, src cltype.Kind, b uint64, fails *int) {
	t.Helper()
	for _, d := range cltype.AllScalars {
		for _, m := range Modes {
			for _, sat := range []bool{false, true} {
				if sat && d.IsFloat() {
					continue
				}
				want, _ := convert.Bits(d, src, b, m, sat)
				dec := predict(src, b, d, m, sat)
				if got := dec.out; got != want {
					rule := dec.rule()
					*fails++
					if *fails <= 20 {
						t.Errorf("%s %s (%#x) -> %s %v sat=%v: rule %s (%q) predicts %#x, convert gives %#x",
							src, scalar(src, b), b, d, m, sat, rule.ID, rule.Text, got, want)
					}
				}
				if dec.id == "" || dec.cite == "" || dec.text == nil {
					t.Fatalf("%s %#x -> %s %v: empty rule %+v", src, b, d, m, dec)
				}
			}
		}
	}
}

// TestPredictEvery16 checks every 8- and 16-bit input of every 8- and
// 16-bit kind (every half, every short and ushort, every pattern of the small
// formats) to every kind, the small formats included, in every mode with and
// without _sat.
func TestPredictEvery16(t *testing.T) {
	fails := 0
	for _, src := range append([]cltype.Kind{cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Half}, cltype.SmallFloats...) {
		n := uint64(1) << Width(src)
		step := uint64(1)
		if testing.Short() && n > 256 {
			step = 7 // a sample under -short (-race): every 7th pattern
		}
		for b := uint64(0); b < n; b += step {
			checkAll(t, src, b, &fails)
		}
	}
	if fails > 0 {
		t.Fatalf("%d mismatches", fails)
	}
}

// edges returns bit patterns of kind k that sit on rounding boundaries.
func edges(k cltype.Kind) []uint64 {
	var out []uint64
	add := func(v ...uint64) {
		for _, x := range v {
			out = append(out, x&k.Mask(), (x-1)&k.Mask(), (x+1)&k.Mask())
		}
	}
	if k.IsInteger() {
		for s := 0; s < k.Bits(); s++ {
			add(1<<s, -(uint64(1) << s))
		}
		add(0, k.MaxUint(), uint64(k.MinInt()))
		return out
	}
	sign := uint64(1) << (k.Bits() - 1)
	inf, _ := infBits(k)
	fb := k.Format().Prec - 1
	for e := uint64(0); e <= inf>>fb; e++ {
		add(e<<fb, e<<fb|sign, e<<fb|1<<(fb-1), e<<fb|1<<(fb-1)|sign)
	}
	return out
}

// TestPredictRandom checks edge values and random bit patterns of the 32-
// and 64-bit kinds.
func TestPredictRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	fails := 0
	for _, src := range []cltype.Kind{cltype.Int, cltype.Uint, cltype.Long, cltype.Ulong, cltype.Float, cltype.Double} {
		for _, b := range edges(src) {
			checkAll(t, src, b, &fails)
		}
		for range n {
			b := r.Uint64() & src.Mask()
			switch r.IntN(4) {
			case 0: // a small magnitude, where integer destinations round
				if src.IsFloat() {
					b = math.Float64bits(r.NormFloat64() * 1000)
					if src == cltype.Float {
						b = uint64(math.Float32bits(float32(math.Float64frombits(b))))
					}
				} else {
					b >>= r.IntN(src.Bits())
				}
			case 1: // a value near a power of two, where float destinations tie
				b >>= r.IntN(8)
			}
			checkAll(t, src, b, &fails)
		}
	}
	if fails > 0 {
		t.Fatalf("%d mismatches", fails)
	}
}

// TestRulesCases checks the rules quoted for RULES.md's cases.
func TestRulesCases(t *testing.T) {
	f32 := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
	cases := []struct {
		src  cltype.Kind
		b    uint64
		dst  cltype.Kind
		m    round.Mode
		sat  bool
		want uint64
		id   string
		text string
	}{
		{cltype.Float, f32(65520), cltype.Half, round.RTE, false, 0x7c00, RuleOverflow, "65520 is exactly halfway between 65504 and 65536; ties to even gives 65536, which is beyond the largest finite half and overflows to inf"},
		{cltype.Float, f32(65520), cltype.Half, round.RTP, false, 0x7c00, RuleOverflow, "rtp takes the neighbour above, 65536"},
		{cltype.Float, f32(65520), cltype.Half, round.RTZ, false, 0x7bff, RuleMaxFinite, "largest finite half"},
		{cltype.Float, f32(65520), cltype.Half, round.RTN, false, 0x7bff, RuleMaxFinite, "rtn takes the neighbour below, 65504"},
		{cltype.Float, f32(65519), cltype.Half, round.RTE, false, 0x7bff, RuleMaxFinite, "nearer to 65504 than to 65536"},
		{cltype.Float, f32(2.5), cltype.Int, round.RTE, false, 2, RuleTieEven, "2.5 is exactly halfway between 2 and 3; ties to even gives 2"},
		{cltype.Float, f32(-2.5), cltype.Int, round.RTN, false, uint64(0xfffffffd), RuleTowardNeg, "-3"},
		{cltype.Float, f32(255.5), cltype.Uchar, round.RTE, true, 255, RuleClamp, "clamps to 255"},
		{cltype.Float, f32(1e10), cltype.Int, round.RTZ, false, 0x7fffffff, RuleImplSat, "clconv gives the _sat result"},
		{cltype.Float, f32(float32(math.NaN())), cltype.Int, round.RTZ, true, 0, RuleNaNZero, "NaN converts to 0"},
		{cltype.Int, 300, cltype.Uchar, round.RTZ, false, 44, RuleWrap, "low 8 bits"},
		{cltype.Int, 16777217, cltype.Float, round.RTZ, false, f32(16777216), RuleTowardZero, "16777216"},
		{cltype.Double, math.Float64bits(-1e-300), cltype.Float, round.RTE, false, 0x80000000, RuleNearest, "nearer to -0"},
	}
	for _, c := range cases {
		got, rule := Predict(c.src, c.b, c.dst, c.m, c.sat)
		lib, _ := convert.Bits(c.dst, c.src, c.b, c.m, c.sat)
		if got != c.want || lib != c.want || rule.ID != c.id || !strings.Contains(rule.Text, c.text) {
			t.Errorf("%s %#x -> %s %v sat=%v: got %#x (library %#x) rule %s %q; want %#x %s containing %q",
				c.src, c.b, c.dst, c.m, c.sat, got, lib, rule.ID, rule.Text, c.want, c.id, c.text)
		}
	}
}

func TestExactDecimal(t *testing.T) {
	for _, c := range []struct {
		neg  bool
		m    uint64
		e    int
		want string
	}{
		{false, 65520, 0, "65520"},
		{true, 5, -1, "-2.5"},
		{false, 1, -149, "1.40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125e-45"},
		{false, 1, 16, "65536"},
		{false, 1, 200, "1.606938044258990275541962092341162602522202993782792835301376e+60"},
		{false, 3, -4, "0.1875"},
		{false, 0, 0, "0"},
		{true, 0, 0, "-0"},
	} {
		if got := exactDecimal(c.neg, c.m, c.e); got != c.want {
			t.Errorf("exactDecimal(%v, %d, %d) = %s, want %s", c.neg, c.m, c.e, got, c.want)
		}
	}
}

func ExampleLaneOf() {
	l := LaneOf(0, cltype.Float, 0x477ff000, cltype.Half, round.RTE, false)
	fmt.Println(l.Source.Exact, l.Below.Bits, l.Below.Exact, l.Above.Bits, l.Above.Note)
	for _, r := range l.Results {
		fmt.Println(r.Mode, r.Bits, r.Exact, r.Rule.ID)
	}
	// Output:
	// 65520 0x7bff 65504 0x7c00 65536 were the exponent range unbounded, beyond the largest finite half
	// rte 0x7c00 inf overflow-inf
	// rtz 0x7bff 65504 max-finite
	// rtp 0x7c00 inf overflow-inf
	// rtn 0x7bff 65504 max-finite
}

// TestOwnResult requires the result an explanation marks as the
// expression's own to be the interpreter's result, lane by lane, and every
// result to agree with its rule's prediction.
func TestOwnResult(t *testing.T) {
	exprs := []string{
		"convert_half(65520.0f)", "convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))",
		"(int)-2.5f", "(float)16777217", "1 + 2.5f", "(float4)(1, 2, 3, 16777217)",
		"convert_int4((float4)(NAN, INFINITY, -INFINITY, 1e10f))", "convert_char(200)", "convert_uchar_sat(-1)",
		"convert_float_rtp((ulong)0xffffffffffffffff)", "convert_double_rtp((long)(1L<<53) + 1)",
		"convert_half_rtz((short)32767)", "convert_float(-1e-300)", "convert_int(convert_float(16777217))",
		"(char)1 + (char)2", "convert_long_sat(0x1p63f)", "convert_half(as_float(0x7f800001))", "(half)0", "convert_ushort3((float3)(-0.5f, 65535.5f, 3.5f))",
	}
	for _, mode := range Modes {
		for _, src := range exprs {
			rep, err := Expression("<t>", src, mode, 64)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if len(rep.Conversions) == 0 {
				t.Errorf("%s: no conversion explained", src)
			}
			for _, c := range rep.Conversions {
				var own []string
				for _, l := range c.Lanes {
					n := 0
					for _, r := range l.Results {
						if r.Own {
							own = append(own, r.Value)
							n++
						}
						if r.Rule.ID == "" || r.Rule.Text == "" {
							t.Errorf("%s: lane %d %s: empty rule", src, l.Index, r.Name)
						}
					}
					if n != 1 {
						t.Errorf("%s: lane %d has %d own results", src, l.Index, n)
					}
				}
				want := c.Result[strings.IndexByte(c.Result, ')')+1:]
				got := own[0]
				if len(own) > 1 {
					got = "(" + strings.Join(own, ", ") + ")"
				}
				if got != want {
					t.Errorf("%s in %v: %s: own results %s, the interpreter gave %s", src, mode, c.Function, got, c.Result)
				}
			}
		}
	}
}

// The small floating formats: the rules and neighbours of the cases
// docs/FORMATS.md and docs/EXPLAIN.md quote, each checked against the
// library.
func TestSmallRules(t *testing.T) {
	f32 := func(f float32) uint64 { return uint64(math.Float32bits(f)) }
	f64 := func(f float64) uint64 { return math.Float64bits(f) }
	cases := []struct {
		src  cltype.Kind
		b    uint64
		dst  cltype.Kind
		m    round.Mode
		sat  bool
		want uint64
		id   string
		text string
	}{
		{cltype.Float, f32(464), cltype.E4M3, round.RTE, false, 0x7e, RuleTieEven, "464 is exactly halfway between 448 and 480; ties to even gives 448, the largest finite e4m3: 464 lies beyond it but rounds to it, so it does not overflow"},
		{cltype.Float, f32(465), cltype.E4M3, round.RTE, false, 0x7f, RuleOverflowNaN, "e4m3 has no infinity, and rte overflows to its NaN, 0x7f"},
		{cltype.Float, f32(465), cltype.E4M3, round.RTE, true, 0x7e, RuleClamp, "_sat gives the largest finite value, 448"},
		{cltype.Float, f32(-1e9), cltype.E4M3, round.RTZ, false, 0xfe, RuleMaxFinite, "rtz rounds toward zero there, which gives the largest finite value, -448"},
		{cltype.Float, f32(float32(math.Inf(-1))), cltype.E4M3, round.RTZ, false, 0xff, RuleInfNaN, "e4m3 has no infinity: -inf gives its NaN, 0xff"},
		{cltype.Float, f32(61440), cltype.E5M2, round.RTE, false, 0x7c, RuleOverflow, "61440 is exactly halfway between 57344 and 65536; ties to even gives 65536, which is beyond the largest finite e5m2: rte overflows to inf"},
		{cltype.Float, f32(7), cltype.E2M1, round.RTE, false, 0x7, RuleMaxFinite, "e2m1 has neither infinity nor NaN, so overflow gives its largest value, 6, in every mode"},
		{cltype.Float, f32(2.5), cltype.E2M1, round.RTE, false, 0x4, RuleTieEven, "ties to even gives 2"},
		{cltype.Double, f64(math.NaN()), cltype.E3M2, round.RTZ, false, 0, RuleNaNZero, "e3m2 has no NaN: NaN converts to +0"},
		{cltype.Float, f32(float32(math.Inf(1))), cltype.E2M3, round.RTP, false, 0x1f, RuleMaxFinite, "inf gives its largest value, 7.5"},
		{cltype.Float, f32(6), cltype.E8M0, round.RTE, false, 0x82, RuleTieUp, "6 is exactly halfway between 4 and 8; e8m0's ties go up, to 8"},
		{cltype.Float, f32(5.9), cltype.E8M0, round.RTZ, false, 0x81, RuleTowardZero, "rtz takes the neighbour toward zero, 4"},
		{cltype.Float, 0, cltype.E8M0, round.RTE, false, 0xff, RuleNoValue, "0 has no e8m0 value"},
		{cltype.Char, 0xfe, cltype.E8M0, round.RTE, true, 0x00, RuleClamp, "_sat gives the smallest e8m0, 2^-127"},
		{cltype.Double, f64(1e-300), cltype.E8M0, round.RTZ, false, 0x00, RuleMinValue, "every mode gives 2^-127"},
		{cltype.Float, f32(3.4e38), cltype.E8M0, round.RTE, false, 0xff, RuleOverflowNaN, "e8m0 has no infinity"},
		{cltype.E4M3, 0x7f, cltype.Float, round.RTE, false, 0x7ff00000, RuleNaN, "quiet NaN of float"},
		{cltype.E8M0, 0x00, cltype.Float, round.RTE, false, 0x00400000, RuleExact, "representable"},
		{cltype.E5M2, 0xfc, cltype.E5M2, round.RTE, true, 0xfb, RuleClamp, "_sat takes an infinity to the largest finite value"},
		{cltype.Double, f64(0.1), cltype.BFloat16, round.RTZ, false, 0x3dcc, RuleTowardZero, "0.099609375"},
	}
	for _, c := range cases {
		got, rule := Predict(c.src, c.b, c.dst, c.m, c.sat)
		lib, _ := convert.Bits(c.dst, c.src, c.b, c.m, c.sat)
		if got != c.want || lib != c.want || rule.ID != c.id || !strings.Contains(rule.Text, c.text) {
			t.Errorf("%s %#x -> %s %v sat=%v: got %#x (library %#x) rule %s %q; want %#x %s containing %q",
				c.src, c.b, c.dst, c.m, c.sat, got, lib, rule.ID, rule.Text, c.want, c.id, c.text)
		}
	}
}

// 464 to e4m3, the case docs/EXPLAIN.md shows: its neighbours, 448 and 480
// (which e4m3 has no pattern for), and every mode with and without _sat.
func ExampleLaneOf_e4m3() {
	l := LaneOf(0, cltype.Float, uint64(math.Float32bits(464)), cltype.E4M3, round.RTE, false)
	fmt.Println(l.Below.Bits, l.Below.Exact, l.Below.Note)
	fmt.Printf("%q %s %s\n", l.Above.Bits, l.Above.Exact, l.Above.Note)
	for _, r := range l.Results {
		fmt.Println(r.Mode, r.Sat, r.Bits, r.Value, r.Rule.ID)
	}
	// Output:
	// 0x7e 448 the largest finite e4m3
	// "" 480 were the exponent range unbounded; e4m3 has no pattern for it, beyond its largest finite value
	// rte false 0x7e 448 tie-even
	// rte true 0x7e 448 tie-even
	// rtz false 0x7e 448 toward-zero
	// rtz true 0x7e 448 toward-zero
	// rtp false 0x7f nan overflow-nan
	// rtp true 0x7e 448 clamp
	// rtn false 0x7e 448 toward-neg
	// rtn true 0x7e 448 toward-neg
}

// Expressions with the small formats explain every conversion, vectors lane
// by lane, as for the other types.
func TestSmallExpressions(t *testing.T) {
	for _, src := range []string{"convert_int(convert_bfloat16(3.7f))", "convert_e4m3x2_sat((float2)(1.0f, 500.0f))", "as_uchar(convert_e5m2(1.0f))",
		"convert_e2m1x4((float4)(0.25f, 2.5f, 7.0f, NAN))", "convert_e8m0_sat_rtp(0.0f)", "convert_float(convert_e8m0(1e-40f))", "convert_e3m2(convert_e2m3(-7.5f))"} {
		rep, err := Expression("<arg>", src, round.RTE, 16)
		if err != nil || len(rep.Conversions) == 0 {
			t.Errorf("%s: %v", src, err)
			continue
		}
		for _, c := range rep.Conversions {
			for _, l := range c.Lanes {
				for _, r := range l.Results {
					if r.Rule.ID == "" || r.Rule.Text == "" || r.Rule.Cite == "" {
						t.Errorf("%s: %s lane %d: empty rule", src, r.Name, l.Index)
					}
				}
			}
		}
	}
}
