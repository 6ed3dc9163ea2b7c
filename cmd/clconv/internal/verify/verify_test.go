package verify

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/testvals"
)

func mustParse(t *testing.T, name, src string) digest.Conversion {
	t.Helper()
	c, err := digest.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAll(t *testing.T) {
	all := All()
	if len(all) != 1045 {
		t.Fatalf("All() has %d conversions, want 11*95 = 1045", len(all))
	}
	seen := map[string]bool{}
	for _, c := range all {
		k := Key(c)
		if seen[k] {
			t.Errorf("%s twice", k)
		}
		seen[k] = true
		if _, err := digest.Parse(c.Op.Name(), c.Src.String()); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

func TestFilter(t *testing.T) {
	count := func(pattern string) int {
		f, err := ParseFilter(pattern)
		if err != nil {
			t.Fatalf("%q: %v", pattern, err)
		}
		n := 0
		for _, c := range All() {
			if f.Match(c) {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct {
		pattern string
		want    int
	}{
		{"", 1045},
		{"convert_int_sat_rte float", 1},
		{"convert_int*_sat* float", 5},        // the five rounding suffixes
		{"float", 95},                         // every conversion from float
		{"convert_half*", 55},                 // to half, from each of 11 sources
		{"convert_half*,convert_float*", 110}, // alternatives
		{"^convert_u?char_sat_rt[pn] (half|float)$", 8},
		{"_sat.* double$", 40}, // a regexp: every _sat conversion from double
		{"convert_int float", 1},
	} {
		if got := count(tt.pattern); got != tt.want {
			t.Errorf("pattern %q selects %d conversions, want %d", tt.pattern, got, tt.want)
		}
	}
	for _, bad := range []string{"convert_[int", "(unclosed"} {
		if _, err := ParseFilter(bad); err == nil {
			t.Errorf("ParseFilter(%q) succeeded", bad)
		}
	}
}

func TestPathOf(t *testing.T) {
	count := func(caps Caps) (n int, reasons map[string]int) {
		reasons = map[string]int{}
		for _, c := range All() {
			if p := PathOf(c, caps); p.Testable {
				n++
			} else {
				reasons[p.Reason]++
			}
		}
		return n, reasons
	}
	// PoCL and NVIDIA: fp64, no fp16: integer -> half (8 sources * 5 suffixes) is not testable.
	if n, _ := count(Caps{FP64: true}); n != 1045-40 {
		t.Errorf("fp64 without fp16: %d testable, want %d", n, 1045-40)
	}
	if n, _ := count(Caps{FP64: true, FP16: true}); n != 1045 {
		t.Errorf("fp64 and fp16: %d testable, want 1045", n)
	}
	// Without fp64: from double 95, to double 10*5, and integer -> half 40.
	if n, _ := count(Caps{}); n != 1045-95-50-40 {
		t.Errorf("neither: %d testable, want %d", n, 1045-95-50-40)
	}
	p := PathOf(mustParse(t, "convert_half_rtp", "float"), Caps{FP64: true})
	if !p.Testable || p.Via != "vstore_half_rtp(float)" {
		t.Errorf("convert_half_rtp float: %+v", p)
	}
	p = PathOf(mustParse(t, "convert_half", "half"), Caps{FP64: true})
	if !p.Testable || p.Via != "vload_half + vstore_half(float)" {
		t.Errorf("convert_half half: %+v", p)
	}
	p = PathOf(mustParse(t, "convert_int_sat", "half"), Caps{FP64: true})
	if !p.Testable || p.Via != "vload_half" {
		t.Errorf("convert_int_sat half: %+v", p)
	}
}

func TestSlices(t *testing.T) {
	for _, k := range cltype.Scalars {
		for _, quick := range []bool{false, true} {
			sl := Slices(k, quick)
			var total uint64
			var prev uint64
			for i, s := range sl {
				if i > 0 && s.Start < prev {
					t.Fatalf("%s quick=%v: slices overlap or are out of order at %d", k, quick, i)
				}
				prev = s.Start + s.Len
				total += s.Len
				if s.Len != sl[0].Len {
					t.Fatalf("%s: slices of different lengths", k)
				}
			}
			if prev > digestspec.N(k) {
				t.Errorf("%s quick=%v: slices end at %d > N = %d", k, quick, prev, digestspec.N(k))
			}
			want := digestspec.N(k)
			if quick {
				want = min(want, 1<<24)
			}
			if total != want {
				t.Errorf("%s quick=%v: %d inputs, want %d", k, quick, total, want)
			}
		}
	}
	// The quick slices of float cover the integer limits and the first NaNs.
	quick := Slices(cltype.Float, true)
	for _, b := range []uint64{0x4f000000, 0x4effffff, 0x477fe000, 0x7f800000, 0x7f800001, 0xff800001, 0x3f800000, 0x00000001, 0x80000000} {
		found := false
		for _, s := range quick {
			found = found || (b >= s.Start && b < s.Start+s.Len)
		}
		if !found {
			t.Errorf("quick float slices miss %#x", b)
		}
	}
}

// TestImplLimits checks that the kernel's integer test of the input bits
// selects exactly the inputs the library calls implementation-defined.
func TestImplLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range All() {
		if !hasImplDefined(c) {
			continue
		}
		hi, lo := implLimits(c)
		check := func(b uint64) {
			_, want := convert.Bits(c.Op.Dst.Kind, c.Src, b, c.Mode(), false)
			if got := isImplDefined(c, b, hi, lo); got != want {
				t.Fatalf("%s: input %#x: kernel test says %v, library %v (limits %#x %#x)", Key(c), b, got, want, hi, lo)
			}
		}
		if c.Src == cltype.Half {
			for b := uint64(0); b < 1<<16; b++ {
				check(b)
			}
			continue
		}
		_, mag, _ := floatLayout(c.Src)
		sign := mag + 1
		for _, b := range testvals.Edges(c.Src) {
			check(b)
		}
		for _, l := range []uint64{hi, lo | sign} {
			for d := uint64(0); d < 4; d++ {
				check(l + d)
				check(l - d)
			}
		}
		for range 2000 {
			check(testvals.Random(rng, c.Src))
		}
	}
}

// TestReference checks the host's slice sums against digest.Compute.
func TestReference(t *testing.T) {
	// Half a 16-bit source's inputs at a time (the path of quick slices).
	for _, tt := range []struct{ name, src string }{{"convert_char_rtp", "half"}, {"convert_uint", "short"}} {
		c := mustParse(t, tt.name, tt.src)
		want := digest.Compute(c, digest.Options{})
		sums, impl := reference(c, []Slice{{0, 1 << 15}, {1 << 15, 1 << 15}}, nil)
		if sums[0]+sums[1] != want.Chunks[0] || impl != want.Impl {
			t.Errorf("%s %s: halves %016x (impl %d), digest.Compute %016x (impl %d)", tt.name, tt.src, sums[0]+sums[1], impl, want.Chunks[0], want.Impl)
		}
	}
	if testing.Short() {
		return
	}
	for _, tt := range []struct{ name, src string }{
		{"convert_int_rte", "float"},   // implementation-defined inputs
		{"convert_half_rtp", "double"}, // 64-bit samples, NaN canonicalisation
		{"convert_uchar_sat", "long"},
	} {
		c := mustParse(t, tt.name, tt.src)
		const k = 0x7f // the chunk with float's infinity and NaNs
		want := digest.Compute(c, digest.Options{Chunks: []int{k}})
		base := uint64(k) * digestspec.ChunkSize
		halves := []Slice{{base, digestspec.ChunkSize / 2}, {base + digestspec.ChunkSize/2, digestspec.ChunkSize / 2}}
		sums, impl := reference(c, halves, nil)
		if sums[0]+sums[1] != want.Chunks[k] || impl != want.Impl {
			t.Errorf("%s %s chunk %d: halves sum to %016x (impl %d), digest.Compute %016x (impl %d)",
				tt.name, tt.src, k, sums[0]+sums[1], impl, want.Chunks[k], want.Impl)
		}
		whole, impl2 := reference(c, []Slice{{base, digestspec.ChunkSize}}, nil)
		if whole[0] != want.Chunks[k] || impl2 != want.Impl {
			t.Errorf("%s %s: whole chunk %016x, want %016x", tt.name, tt.src, whole[0], want.Chunks[k])
		}
	}
	// An 8-bit source: one slice, the whole digest.
	c := mustParse(t, "convert_float", "char")
	sums, _ := reference(c, Slices(cltype.Char, true), nil)
	if want := digest.Compute(c, digest.Options{}).Digest(); sums[0] != want {
		t.Errorf("convert_float char: %016x, want %016x", sums[0], want)
	}
}

func TestRule(t *testing.T) {
	for _, tt := range []struct {
		name, src     string
		in, exp, got  uint64
		wantSubstring string
	}{
		{"convert_int_sat", "float", 0x7fc00000, 0, 1, "NaN must convert to 0 under _sat"},
		{"convert_float", "double", 0x7ff8000000000001, 0x7fc00000, 0x3f800000, "NaN must convert to NaN"},
		{"convert_int_rte", "float", 0x40200000, 2, 3, "rte tie must go to even"}, // 2.5
		{"convert_int_rtn", "float", 0xc0200000, 0xfffffffd, 0xfffffffe, "rtn must round toward -inf"},
		{"convert_int", "float", 0x3fc00000, 1, 2, "rtz, the mode of float -> integer without a suffix must round toward zero"},
		{"convert_uchar_sat_rte", "float", 0x437f8000, 255, 0, "out of range must saturate to MAX"}, // 255.5
		{"convert_int_sat", "float", 0xff800000, 0x80000000, 0, "-inf must saturate to MIN"},
		{"convert_float_rtz", "double", 0x7fefffffffffffff, 0x7f7fffff, 0x7f800000, "overflow under rtz must give +max finite"},
		{"convert_float_rtp", "double", 0xffefffffffffffff, 0xff7fffff, 0xff800000, "overflow under rtp must give -max finite"},
		{"convert_float_rtp", "double", 0x3690000000000000, 1, 0, "subnormal results must be kept"}, // 0x1p-150
		{"convert_float", "double", 0x8000000000000001, 0x80000000, 0, "the sign of zero must be kept"},
		{"convert_float", "int", 0, 0, 0x80000000, "integer 0 must convert to +0.0"},
		{"convert_float_rtz", "int", 16777217, 0x4b800000, 0x4b800001, "the result must be correctly rounded toward zero (rtz)"},
		{"convert_double", "float", 0x3f800001, 0x3ff0000020000000, 0x3ff0000000000000, "float -> double is exact"},
		{"convert_uchar", "int", 300, 44, 255, "keep the low 8 bits"},
		{"convert_char_sat_rtp", "int", 200, 127, 0xc8, "_sat must clamp to [-128, 127] (rounding suffixes change nothing between integers)"},
		{"convert_half_rte", "float", 0x477fefff, 0x7bff, 0x7c00, "must round to +max finite"}, // 65519.996
	} {
		c := mustParse(t, tt.name, tt.src)
		if got := Rule(c, tt.in, tt.exp, tt.got); !strings.Contains(got, tt.wantSubstring) {
			t.Errorf("Rule(%s %s, %#x, %#x, %#x) = %q, want it to contain %q", tt.name, tt.src, tt.in, tt.exp, tt.got, got, tt.wantSubstring)
		}
	}
}

func TestFormatValue(t *testing.T) {
	for _, tt := range []struct {
		k    cltype.Kind
		b    uint64
		want string
	}{
		{cltype.Char, 0x80, "-128"},
		{cltype.Ulong, 0xffffffffffffffff, "18446744073709551615"},
		{cltype.Float, 0x4f000000, "2.1474836e+09 (0x1p+31)"},
		{cltype.Float, 0xffc00000, "-nan"},
		{cltype.Float, 0x80000000, "-0"},
		{cltype.Half, 0x7bff, "65500 (0x1.ffcp+15)"},
		{cltype.Double, 0x7ff0000000000000, "inf"},
	} {
		if got := FormatValue(tt.k, tt.b); got != tt.want {
			t.Errorf("FormatValue(%s, %#x) = %q, want %q", tt.k, tt.b, got, tt.want)
		}
	}
}

func TestParseFault(t *testing.T) {
	f, err := ParseFault("convert_int_sat float:nan")
	if err != nil || f.Key != "convert_int_sat float" || f.Kind != "nan" {
		t.Errorf("ParseFault = %+v, %v", f, err)
	}
	for _, bad := range []string{"convert_int_sat float", "convert_int_sat:nan", "convert_float_sat float:nan", "convert_int float:zero"} {
		if _, err := ParseFault(bad); err == nil {
			t.Errorf("ParseFault(%q) succeeded", bad)
		}
	}
}

// TestPairSource checks the generated kernels' shape for the paths that
// differ: vload_half/vstore_half without cl_khr_fp16, the implementation-
// defined test, the 64-bit samplers and the injected fault.
func TestPairSource(t *testing.T) {
	ops := func(src, dst cltype.Kind) []digest.Conversion { return pairOps(src, dst) }
	noFP16 := Caps{FP64: true}
	for _, tt := range []struct {
		convs []digest.Conversion
		caps  Caps
		fault *Fault
		want  []string
	}{
		{ops(cltype.Float, cltype.Half), noFP16, nil, []string{"vstore_half_rtp(x, 0, (half *)&hr);", "vstore_half(x, 0, (half *)&hr);", "vstore_half4_rtn(x, g,"}},
		{ops(cltype.Half, cltype.Int), noFP16, nil, []string{"float x = vload_half(0, (const half *)&hb);", "convert_int_sat_rte(x)", "float3 x = vload_half3(g, (__global const half *)in);", "vstore3(convert_int3_sat_rtz(x)"}},
		{ops(cltype.Half, cltype.Int), Caps{FP64: true, FP16: true}, nil, []string{"#pragma OPENCL EXTENSION cl_khr_fp16 : enable", "half x = as_half((ushort)ib);", "half8 x = vload8(g, (__global const half *)in);"}},
		{ops(cltype.Float, cltype.Int), noFP16, nil, []string{"0x7f800000UL", "? 0x4f000001UL : 0x4f000000UL", "return IMPL_DEF;"}},
		{ops(cltype.Double, cltype.Float), noFP16, nil, []string{"#pragma OPENCL EXTENSION cl_khr_fp64 : enable", "1019UL", "x = as_double(ib);", "CANON_NAN"}},
		{ops(cltype.Long, cltype.Uchar), noFP16, nil, []string{"r >> ((r >> 2) & 63UL)", "long x = as_long(ib);", "ulong o = convert_uchar_sat(x);"}},
		{ops(cltype.Float, cltype.Int), noFP16, &Fault{"convert_int_sat float", "nan"}, []string{"o = 1; /* injected fault */"}},
	} {
		src := programSource([][]digest.Conversion{tt.convs}, tt.caps, tt.fault, DefaultWidths)
		for _, w := range tt.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s -> %s source lacks %q:\n%s", tt.convs[0].Src, tt.convs[0].Op.Dst.Kind, w, src)
			}
		}
	}
	if src := programSource([][]digest.Conversion{ops(cltype.Float, cltype.Int)}, noFP16, nil, nil); strings.Contains(src, "vload") {
		t.Error("a program without widths has vector code")
	}
	// A program of several pairs: one function each, conversions numbered
	// on, one kernel calling them (and reducing).
	src := programSource([][]digest.Conversion{ops(cltype.Float, cltype.Int), ops(cltype.Float, cltype.Char)}, noFP16, nil, DefaultWidths)
	for _, w := range []string{"PAIRFN void pair_int(size_t g, uint mode,", "PAIRFN void pair_char(size_t g, uint mode,", "ulong conv19(",
		"{ ulong t = fmix(h ^ canon14(ib, conv14(ib))); s4 += t; n4 += t & isn; }", "if (mode == 2 || op == 4)\n\t\t\tout[(mode == 2 ? (size_t)4 * cnt : 0) + g] = conv14(ib);",
		"__kernel void pairs(uint pair, uint mode,", "\tif (mode == 4) {", "case 1:\n\t\tpair_char(g, mode, op, in, base, wps, per, cnt, out);",
		"#define PAIRFN __attribute__((noinline))"} {
		if !strings.Contains(src, w) {
			t.Errorf("float -> int, char program lacks %q:\n%s", w, src)
		}
	}
	if n := strings.Count(src, "__kernel"); n != 1 {
		t.Errorf("float -> int, char program has %d kernels, want 1", n)
	}
}

func TestVectorName(t *testing.T) {
	for in, want := range map[string]string{"convert_int_sat_rte": "convert_int4_sat_rte", "convert_float": "convert_float4"} {
		if got := vectorName(in, 4); got != want {
			t.Errorf("vectorName(%q, 4) = %q, want %q", in, got, want)
		}
	}
}

func TestAsTests(t *testing.T) {
	tests := asTests([]cltype.Kind{cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Int, cltype.Uint,
		cltype.Long, cltype.Ulong, cltype.Float, cltype.Double})
	var same, four, other int
	for i, tt := range tests {
		if tt.to.Size() != tt.from.Size() {
			t.Errorf("%v(%v): sizes differ", tt.to, tt.from)
		}
		if i > 0 && tt.offset < tests[i-1].offset+asElems*tests[i-1].to.Size() {
			t.Errorf("%v(%v): output overlaps the previous one", tt.to, tt.from)
		}
		if tt.offset%asStride != 0 {
			t.Errorf("%v(%v): offset %d not aligned", tt.to, tt.from, tt.offset)
		}
		switch tt.kind {
		case asSame:
			same++
		case asFourToThree:
			four++
		default:
			other++
		}
	}
	// Same count: (2 + 2 + 6 + 6) ordered pairs of different kinds of one size, 6 widths.
	if same != 16*6 || four != 4+4+9+9 {
		t.Errorf("%d same-count and %d 4->3 tests, want %d and %d", same, four, 16*6, 26)
	}
}

func TestRefCache(t *testing.T) {
	c := mustParse(t, "convert_uchar_sat_rtp", "half")
	r := digest.Compute(c, digest.Options{})
	got, err := ParseDigestLine(r.Line())
	if err != nil || got.Line() != r.Line() {
		t.Fatalf("ParseDigestLine(%q) = %v, %v", r.Line(), got, err)
	}
	for _, bad := range []string{"convert_uchar\thalf", strings.Replace(r.Line(), "65536", "65535", 1),
		strings.Replace(r.Line(), "\t0\t", "\tx\t", 1)} {
		if _, err := ParseDigestLine(bad); err == nil {
			t.Errorf("ParseDigestLine(%q) succeeded", bad)
		}
	}
	path := t.TempDir() + "/ref.tsv"
	rc, err := LoadRefCache(path)
	if err != nil || rc.Len() != 0 {
		t.Fatalf("missing file: %v, %d entries", err, rc.Len())
	}
	sums, _ := reference(c, Slices(c.Src, false), rc)
	if rc.Len() != 1 || sums[0] != r.Chunks[0] {
		t.Fatalf("the cache did not receive the digest")
	}
	if err := rc.Save(path); err != nil {
		t.Fatal(err)
	}
	rc2, err := LoadRefCache(path)
	if err != nil || rc2.get(c) == nil || rc2.get(c).Line() != r.Line() {
		t.Fatalf("reloaded cache: %v", err)
	}
	// A cached digest is used as is: a doctored one shows up in the sums.
	rc2.get(c).Chunks[0]++
	if sums, _ := reference(c, Slices(c.Src, false), rc2); sums[0] != r.Chunks[0]+1 {
		t.Error("reference ignored the cache")
	}
}

// TestNaNAlwaysClassified feeds a checker more failing NaN inputs than it
// works rules out for: every one is still named by its rule, while failing
// finite inputs past the limit are counted as unclassified.
func TestNaNAlwaysClassified(t *testing.T) {
	c, err := digest.Parse("convert_long_sat", "float")
	if err != nil {
		t.Fatal(err)
	}
	res := &ConvResult{}
	ch := newChecker(c, res, 3)
	n := maxClassified + 1000
	in, got := make([]uint64, n), make([]uint64, n)
	for i := range in {
		in[i] = 0x7f800001 + uint64(i) // NaNs
		got[i] = 0x8000000000000000    // NVIDIA's result
	}
	ch.compare("digest", in, got, 1)
	ch.compare("digest", []uint64{0x3f800000}, []uint64{7}, 1) // 1.0f -> 7: finite, past the limit
	if res.Failing != uint64(n+1) {
		t.Errorf("%d failing, want %d", res.Failing, n+1)
	}
	if res.Rules["NaN must convert to 0 under _sat"] != uint64(n) || res.Rules[ruleUnclassified] != 1 {
		t.Errorf("rules %v", res.Rules)
	}
}
