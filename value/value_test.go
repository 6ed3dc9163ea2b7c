package value

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

func vec(k cltype.Kind, lanes ...uint64) Value {
	n := len(lanes)
	return New(cltype.Vec(k, n), lanes...)
}

func f32(xs ...float32) Value {
	lanes := make([]uint64, len(xs))
	for i, x := range xs {
		lanes[i] = uint64(math.Float32bits(x))
	}
	return vec(cltype.Float, lanes...)
}

func mustOp(t *testing.T, name string) convert.Op {
	t.Helper()
	op, err := convert.ParseName(name)
	if err != nil {
		t.Fatal(err)
	}
	return op
}

func TestConvert(t *testing.T) {
	tests := []struct {
		name string
		in   Value
		want string
		impl LaneMask
	}{
		{"convert_uchar4_sat_rte", f32(-5, 254.5, 254.6, 1.2e9), "(uchar4)(0, 254, 255, 255)", 0},
		{"convert_int_rte", f32(2.5), "(int)2", 0},
		{"convert_int_rte", f32(-2.5), "(int)-2", 0},
		{"convert_int_rte", f32(3.5), "(int)4", 0},
		{"convert_int_rtn", f32(-2.5), "(int)-3", 0},
		{"convert_uchar_sat_rte", f32(255.5), "(uchar)255", 0},
		{"convert_char_sat_rtn", f32(-128.5), "(char)-128", 0},
		{"convert_uint_sat_rtp", f32(-0.5), "(uint)0", 0},
		{"convert_int_sat", f32(0x1p31), "(int)2147483647", 0},
		{"convert_long_sat", f32(0x1p63), "(long)9223372036854775807", 0},
		{"convert_ulong_sat", f32(0x1p64), "(ulong)18446744073709551615", 0},
		{"convert_int2", f32(0x1p31, float32(math.NaN())), "(int2)(2147483647, 0)", 3},
		{"convert_int3", f32(1, -0x1p40, 3), "(int3)(1, -2147483648, 3)", 2},
		{"convert_uchar", FromInt64(cltype.Int, 300), "(uchar)44", 0},
		{"convert_char", FromInt64(cltype.Int, 200), "(char)-56", 0},
		{"convert_float_rtz", FromInt64(cltype.Int, 16777217), "(float)16777216", 0},
		{"convert_float_rtp", FromInt64(cltype.Int, 16777217), "(float)16777218", 0},
		{"convert_half_rtz", FromInt64(cltype.Short, 32767), "(half)32750", 0}, // 32752, printed shortest
		{"convert_half_rte", FromInt64(cltype.Short, 32767), "(half)32770", 0}, // 32768
		{"convert_half_rtp", f32(65519), "(half)inf", 0},
		{"convert_float", FromInt64(cltype.Int, 0), "(float)0", 0},
	}
	for _, tt := range tests {
		got, impl, err := ConvertImpl(tt.in, mustOp(t, tt.name), round.RTE)
		if err != nil {
			t.Errorf("%s(%v): %v", tt.name, tt.in, err)
			continue
		}
		if got.String() != tt.want || impl != tt.impl {
			t.Errorf("%s(%v) = %v, impl %b; want %s, impl %b", tt.name, tt.in, got, impl, tt.want, tt.impl)
		}
	}
}

func TestConvertUsesCurrentMode(t *testing.T) {
	x := FromInt64(cltype.Int, 16777217)
	for _, tt := range []struct {
		name string
		cur  round.Mode
		want uint64
	}{
		{"convert_float", round.RTE, 0x4b800000},
		{"convert_float", round.RTP, 0x4b800001},
		{"convert_float_rte", round.RTP, 0x4b800000}, // a suffix beats the current mode
	} {
		got, err := Convert(x, mustOp(t, tt.name), tt.cur)
		if err != nil || got.Lanes[0] != tt.want {
			t.Errorf("%s under %v = %v, %v; want %#x", tt.name, tt.cur, Format(got, true), err, tt.want)
		}
	}
	// Float -> integer without a suffix stays rtz whatever the current mode.
	got, _ := Convert(f32(2.7), mustOp(t, "convert_int"), round.RTP)
	if got.Int64(0) != 2 {
		t.Errorf("convert_int(2.7f) under rtp = %v, want 2", got)
	}
}

func TestConvertErrors(t *testing.T) {
	tests := []struct {
		op   convert.Op
		in   Value
		want string
	}{
		{mustOp(t, "convert_int2"), New(cltype.Vec(cltype.Int, 4)), "convert_int2 needs a 2-element operand, got int4"},
		{mustOp(t, "convert_int"), New(cltype.Vec(cltype.Int, 4)), "convert_int needs a scalar operand, got int4"},
		{mustOp(t, "convert_int4"), New(cltype.Scalar(cltype.Int)), "convert_int4 needs a 4-element operand, got int"},
		{convert.Op{Dst: cltype.Scalar(cltype.Float), Sat: true}, f32(1), "_sat is not allowed"},
		{mustOp(t, "convert_int"), New(cltype.Scalar(cltype.Bool), 1), "bool takes no part"},
	}
	for _, tt := range tests {
		_, err := Convert(tt.in, tt.op, round.RTE)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v(%v): error %v, want %q", tt.op, tt.in, err, tt.want)
		}
	}
}

func TestAs(t *testing.T) {
	f4 := f32(1, 2, 3, 4)
	tests := []struct {
		in   Value
		to   string
		want string // Format(v, true)
	}{
		{FromInt64(cltype.Int, 0x3f800000), "float", "(float)0x3f800000"},
		{FromInt64(cltype.Int, 0x04030201), "char4", "(char4)(0x01, 0x02, 0x03, 0x04)"},
		{f32(float32(math.Copysign(0, -1))), "uint", "(uint)0x80000000"},
		{f4, "int4", "(int4)(0x3f800000, 0x40000000, 0x40400000, 0x40800000)"},
		{f4, "float3", "(float3)(0x3f800000, 0x40000000, 0x40400000)"},
		{f4, "uint3", "(uint3)(0x3f800000, 0x40000000, 0x40400000)"},
		{FromInt64(cltype.Int, 0x04030201), "short2", "(short2)(0x0201, 0x0403)"},
		{vec(cltype.Int, 1, 2, 3, 4), "short8", "(short8)(0x0001, 0x0000, 0x0002, 0x0000, 0x0003, 0x0000, 0x0004, 0x0000)"},
		{vec(cltype.Uchar, 1, 2, 3, 4, 5, 6, 7, 8), "ulong", "(ulong)0x0807060504030201"},
		{vec(cltype.Int, 1, 2), "double", "(double)0x0000000200000001"},
		// A signalling NaN keeps its payload: as_ never canonicalises.
		{FromUint64(cltype.Uint, 0x7f800001), "float", "(float)0x7f800001"},
		{New(cltype.Scalar(cltype.Half), 0x7c01), "short", "(short)0x7c01"},
	}
	for _, tt := range tests {
		ty, err := cltype.ParseType(tt.to)
		if err != nil {
			t.Fatal(err)
		}
		got, err := As(tt.in, ty)
		if err != nil {
			t.Errorf("as_%s(%v): %v", tt.to, tt.in, err)
			continue
		}
		if s := Format(got, true); s != tt.want {
			t.Errorf("as_%s(%v) = %s, want %s", tt.to, tt.in, s, tt.want)
		}
	}
}

// TestAsThreeVectorStorage checks the fourth storage lane of 3-vectors: kept
// through 4 -> 3 -> 4 (and 3 -> other counts reinterprets it), zero when a
// 3-vector is made from anything but a 3- or 4-vector.
func TestAsThreeVectorStorage(t *testing.T) {
	i4 := vec(cltype.Int, 1, 2, 3, 4)
	f3, _ := As(i4, cltype.Vec(cltype.Float, 3))
	back, _ := As(f3, cltype.Vec(cltype.Int, 4))
	if !back.Equal(i4) {
		t.Errorf("as_int4(as_float3(int4)) = %v, want %v", back, i4)
	}
	l2, _ := As(f3, cltype.Vec(cltype.Long, 2))
	if want := "(long2)(0x0000000200000001, 0x0000000400000003)"; Format(l2, true) != want {
		t.Errorf("as_long2(float3 from int4) = %s, want %s", Format(l2, true), want)
	}
	// A fresh 3-vector has 0 there.
	fresh := vec(cltype.Int, 1, 2, 3)
	l2, _ = As(fresh, cltype.Vec(cltype.Long, 2))
	if want := "(long2)(0x0000000200000001, 0x0000000000000003)"; Format(l2, true) != want {
		t.Errorf("as_long2(int3) = %s, want %s", Format(l2, true), want)
	}
	// From a non-vector source of the same size, the padding lane is 0.
	s3, _ := As(vec(cltype.Int, 0x00020001, 0x00040003), cltype.Vec(cltype.Short, 3))
	if s3.Lanes[3] != 0 || Format(s3, false) != "(short3)(1, 2, 3)" {
		t.Errorf("as_short3(int2) = %v, lane 3 = %#x; want (short3)(1, 2, 3), 0", s3, s3.Lanes[3])
	}
	// Conversions make fresh values: the padding lane is 0 again.
	c, _ := Convert(f3, mustOp(t, "convert_int3"), round.RTE)
	if c.Lanes[3] != 0 {
		t.Errorf("convert_int3 kept the padding lane %#x", c.Lanes[3])
	}
}

func TestAsErrors(t *testing.T) {
	tests := []struct {
		in   Value
		to   cltype.Type
		want string
	}{
		{f32(1, 1, 1, 1), cltype.Vec(cltype.Double, 4), "as_double4 needs an operand of 32 bytes, got float4 (16 bytes)"},
		{f32(1), cltype.Scalar(cltype.Double), "as_double needs an operand of 8 bytes, got float (4 bytes)"},
		{vec(cltype.Int, 1, 2, 3), cltype.Vec(cltype.Int, 2), "16 bytes"},
		{New(cltype.Scalar(cltype.Bool), 1), cltype.Scalar(cltype.Uchar), "bool takes no part"},
	}
	for _, tt := range tests {
		_, err := As(tt.in, tt.to)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("as_%v(%v): error %v, want %q", tt.to, tt.in, err, tt.want)
		}
	}
}

// TestAsRoundTrip checks that every same-size pair of types reinterprets
// without loss when the element counts are not 3 (whose padding lane may be
// dropped).
func TestAsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var types []cltype.Type
	for _, k := range cltype.Scalars {
		for _, n := range cltype.Widths {
			types = append(types, cltype.Vec(k, n))
		}
	}
	for _, a := range types {
		for _, b := range types {
			if a.Size() != b.Size() || a.N == 3 || b.N == 3 {
				continue
			}
			v := Value{Type: a}
			for i := range a.N {
				v.Lanes[i] = rng.Uint64() & a.Kind.Mask()
			}
			w, err := As(v, b)
			if err != nil {
				t.Fatalf("as_%v(%v): %v", b, a, err)
			}
			back, err := As(w, a)
			if err != nil || !back.Equal(v) {
				t.Errorf("as_%v(as_%v(%v)) = %v, %v", a, b, v, back, err)
			}
		}
	}
}

func TestFormat(t *testing.T) {
	nan32 := uint64(0x7fc00000)
	tests := []struct {
		v          Value
		text, bits string
	}{
		{FromInt64(cltype.Int, 2), "(int)2", "(int)0x00000002"},
		{vec(cltype.Uchar, 0, 254, 255, 255), "(uchar4)(0, 254, 255, 255)", "(uchar4)(0x00, 0xfe, 0xff, 0xff)"},
		{FromInt64(cltype.Char, -1), "(char)-1", "(char)0xff"},
		{FromInt64(cltype.Long, math.MinInt64), "(long)-9223372036854775808", "(long)0x8000000000000000"},
		{FromUint64(cltype.Ulong, math.MaxUint64), "(ulong)18446744073709551615", "(ulong)0xffffffffffffffff"},
		{FromFloat64(cltype.Float, 0.1), "(float)0.1", "(float)0x3dcccccd"},
		{FromFloat64(cltype.Float, 1e10), "(float)1e+10", "(float)0x501502f9"},
		{FromFloat64(cltype.Float, 1), "(float)1", "(float)0x3f800000"},
		{FromFloat64(cltype.Double, 0.1), "(double)0.1", "(double)0x3fb999999999999a"},
		{FromFloat64(cltype.Double, math.Copysign(0, -1)), "(double)-0", "(double)0x8000000000000000"},
		{FromFloat64(cltype.Float, math.Inf(1)), "(float)inf", "(float)0x7f800000"},
		{FromFloat64(cltype.Float, math.Inf(-1)), "(float)-inf", "(float)0xff800000"},
		{New(cltype.Scalar(cltype.Float), nan32), "(float)nan", "(float)0x7fc00000"},
		{New(cltype.Scalar(cltype.Float), nan32|0x80000000), "(float)-nan", "(float)0xffc00000"},
		{New(cltype.Scalar(cltype.Double), 0xfff0000000000001), "(double)-nan", "(double)0xfff0000000000001"},
		{New(cltype.Scalar(cltype.Half), 0x7bff), "(half)65500", "(half)0x7bff"},
		{New(cltype.Scalar(cltype.Half), 0x2e66), "(half)0.1", "(half)0x2e66"},
		{New(cltype.Scalar(cltype.Half), 0xfe00), "(half)-nan", "(half)0xfe00"},
		{New(cltype.Scalar(cltype.Half), 0x0001), "(half)6e-08", "(half)0x0001"},
		{vec(cltype.Short, 1, 2, 3), "(short3)(1, 2, 3)", "(short3)(0x0001, 0x0002, 0x0003)"},
		{New(cltype.Scalar(cltype.Bool), 1), "(bool)true", "(bool)0x01"},
	}
	for _, tt := range tests {
		if got := Format(tt.v, false); got != tt.text {
			t.Errorf("Format(%#v) = %s, want %s", tt.v.Lanes[:tt.v.Type.N], got, tt.text)
		}
		if got := Format(tt.v, true); got != tt.bits {
			t.Errorf("Format(%#v, bits) = %s, want %s", tt.v.Lanes[:tt.v.Type.N], got, tt.bits)
		}
	}
}

// TestFormatReadsBack checks that the decimal form of every float and of
// random doubles parses back, as a literal of the same type, to the same bits.
func TestFormatReadsBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	check := func(v Value) {
		t.Helper()
		s := Format(v, false)
		body := s[strings.IndexByte(s, ')')+1:]
		if strings.Contains(body, "nan") || strings.Contains(body, "inf") {
			return
		}
		neg := strings.HasPrefix(body, "-")
		body = strings.TrimPrefix(body, "-")
		if !strings.ContainsAny(body, ".e") {
			body += "."
		}
		switch v.Type.Kind {
		case cltype.Float:
			body += "f"
		case cltype.Half:
			body += "h"
		}
		w, err := ParseLiteral(body)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if neg {
			w, _ = Neg(w)
		}
		if !w.Equal(v) {
			t.Errorf("%s reads back as %s", Format(v, true), Format(w, true))
		}
	}
	for h := range 1 << 16 {
		check(New(cltype.Scalar(cltype.Half), uint64(h)))
	}
	for range 100000 {
		check(New(cltype.Scalar(cltype.Float), uint64(rng.Uint32())))
		check(New(cltype.Scalar(cltype.Double), rng.Uint64()))
	}
}

func TestAccessors(t *testing.T) {
	v := f32(-2.75, 3e9, float32(math.NaN()), 0.5)
	if got := v.Int64(0); got != -2 {
		t.Errorf("Int64(-2.75f) = %d", got)
	}
	if got := v.Int64(1); got != 3000000000 {
		t.Errorf("Int64(3e9f) = %d", got)
	}
	if got := v.Uint64(0); got != 0 {
		t.Errorf("Uint64(-2.75f) = %d", got)
	}
	if got := v.Float64(3); got != 0.5 {
		t.Errorf("Float64(0.5f) = %v", got)
	}
	if !v.Bool(2) || v.Bool(3) == false || f32(0).Bool(0) {
		t.Errorf("Bool: NaN and 0.5 are true, 0 is false")
	}
	c := FromInt64(cltype.Char, -1)
	if c.Lane(0) != 0xff || c.Int64(0) != -1 || c.Uint64(0) != math.MaxUint64 || c.Float64(0) != -1 {
		t.Errorf("char -1: lane %#x, Int64 %d, Uint64 %d, Float64 %v", c.Lane(0), c.Int64(0), c.Uint64(0), c.Float64(0))
	}
	h := FromFloat64(cltype.Half, 65519)
	if half.Half(h.Lane(0)) != half.MaxHalf {
		t.Errorf("FromFloat64(half, 65519) = %v, want 65504 (rte)", h)
	}
	if b := FromFloat64(cltype.Bool, math.NaN()); b.Lane(0) != 1 {
		t.Errorf("FromFloat64(bool, NaN) = %v, want true", b)
	}
	if got := FromFloat64(cltype.Int, 1e20); got.Int64(0) != math.MaxInt32 {
		t.Errorf("FromFloat64(int, 1e20) = %v, want INT_MAX (saturated)", got)
	}
	if e := v.Elem(3); e.String() != "(float)0.5" || v.Len() != 4 || Zero(v.Type).String() != "(float4)(0, 0, 0, 0)" {
		t.Errorf("Elem(3) = %v, Len = %d", e, v.Len())
	}
	bv, err := Broadcast(FromInt64(cltype.Short, 7), 3)
	if err != nil || bv.String() != "(short3)(7, 7, 7)" || bv.Lanes[3] != 0 {
		t.Errorf("Broadcast = %v, %v", bv, err)
	}
	if _, err := Broadcast(bv, 4); err == nil {
		t.Errorf("Broadcast of a vector succeeded")
	}
	if _, err := Broadcast(FromInt64(cltype.Int, 1), 5); err == nil {
		t.Errorf("Broadcast to 5 elements succeeded")
	}
}

func TestBinary(t *testing.T) {
	i := func(k cltype.Kind, x int64) Value { return FromInt64(k, x) }
	tests := []struct {
		op   BinaryOp
		x, y Value
		want string
	}{
		{Add, i(cltype.Int, math.MaxInt32), i(cltype.Int, 1), "(int)-2147483648"},
		{Sub, i(cltype.Uint, 0), i(cltype.Uint, 1), "(uint)4294967295"},
		{Mul, i(cltype.Long, 1<<62), i(cltype.Long, 4), "(long)0"},
		{Div, i(cltype.Int, -7), i(cltype.Int, 2), "(int)-3"},
		{Rem, i(cltype.Int, -7), i(cltype.Int, 2), "(int)-1"},
		{Div, i(cltype.Int, math.MinInt32), i(cltype.Int, -1), "(int)-2147483648"},
		{Rem, i(cltype.Long, math.MinInt64), i(cltype.Long, -1), "(long)0"},
		{Div, i(cltype.Uint, -1), i(cltype.Uint, 2), "(uint)2147483647"},
		{Shl, i(cltype.Int, 1), i(cltype.Int, 33), "(int)2"}, // count modulo 32
		{Shr, i(cltype.Int, -8), i(cltype.Uint, 1), "(int)-4"},
		{Shr, i(cltype.Uint, -8), i(cltype.Int, 1), "(uint)2147483644"},
		{Shl, i(cltype.Long, 1), i(cltype.Int, 53), "(long)9007199254740992"},
		{And, i(cltype.Int, 12), i(cltype.Int, 10), "(int)8"},
		{Or, i(cltype.Int, 12), i(cltype.Int, 10), "(int)14"},
		{Xor, i(cltype.Int, 12), i(cltype.Int, 10), "(int)6"},
		{Add, f32(0.1), f32(0.2), "(float)0.3"},
		{Add, f32(16777216), f32(1), "(float)16777216"},
		{Mul, f32(0x1p100), f32(0x1p100), "(float)inf"},
		{Div, f32(1), f32(3), "(float)0.33333334"},
		{Sub, FromFloat64(cltype.Double, math.Inf(1)), FromFloat64(cltype.Double, math.Inf(1)), "(double)nan"},
		{Add, New(cltype.Scalar(cltype.Half), 0x7bff), New(cltype.Scalar(cltype.Half), 0x3c00), "(half)65500"},
		{Add, New(cltype.Scalar(cltype.Half), 0x7bff), New(cltype.Scalar(cltype.Half), 0x5000), "(half)inf"},
		{Add, vec(cltype.Uchar, 250, 1), vec(cltype.Uchar, 10, 1), "(uchar2)(4, 2)"},
	}
	for _, tt := range tests {
		got, err := Binary(tt.op, tt.x, tt.y, round.RTE)
		if err != nil || got.String() != tt.want {
			t.Errorf("%v %v %v = %v, %v; want %s", tt.x, tt.op, tt.y, got, err, tt.want)
		}
	}
	// NaN results: the first NaN operand, quieted; the canonical NaN otherwise.
	snan := New(cltype.Scalar(cltype.Float), 0xff800001)
	if got, _ := Binary(Add, f32(1), snan, round.RTE); got.Lanes[0] != 0xffc00001 {
		t.Errorf("1 + sNaN = %s, want 0xffc00001", Format(got, true))
	}
	if got, _ := Binary(Mul, f32(0), FromFloat64(cltype.Float, math.Inf(-1)), round.RTE); got.Lanes[0] != canonNaN32 {
		t.Errorf("0 * -inf = %s, want the canonical NaN", Format(got, true))
	}
	for _, tt := range []struct {
		op   BinaryOp
		x, y Value
		want string
	}{
		{Div, i(cltype.Int, 1), i(cltype.Int, 0), "division by zero"},
		{Rem, i(cltype.Uchar, 1), i(cltype.Uchar, 0), "division by zero"},
		{Add, i(cltype.Int, 1), i(cltype.Long, 0), "one type"},
		{Rem, f32(1), f32(1), "integer operands"},
		{Shl, f32(1), i(cltype.Int, 1), "integer operands"},
	} {
		if _, err := Binary(tt.op, tt.x, tt.y, round.RTE); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v %v %v: error %v, want %q", tt.x, tt.op, tt.y, err, tt.want)
		}
	}
	// Directed modes are correctly rounded (round/arith.go proves the
	// primitives against math/big).
	if got, err := Binary(Add, f32(1), f32(0x1p-30), round.RTP); err != nil || got.Lanes[0] != 0x3f800001 {
		t.Errorf("float 1 + 2^-30 rtp = %v, %v; want 0x1.000002p0", got, err)
	}
	if got, err := Binary(Add, f32(1), f32(0x1p-30), round.RTZ); err != nil || got.Lanes[0] != 0x3f800000 {
		t.Errorf("float 1 + 2^-30 rtz = %v, %v; want 1", got, err)
	}
}

// TestHalfArithmetic checks half + - * / against float64 arithmetic rounded
// once (exact for + - *) on random operands.
func TestHalfArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200000 {
		a, b := half.Half(rng.Uint32()), half.Half(rng.Uint32())
		if a.IsNaN() || b.IsNaN() {
			continue
		}
		op := BinaryOp(rng.IntN(4))
		got, err := Binary(op, New(cltype.Scalar(cltype.Half), uint64(a)), New(cltype.Scalar(cltype.Half), uint64(b)), round.RTE)
		if err != nil {
			t.Fatal(err)
		}
		// The reference divides in float32 too, so that a wrong double
		// rounding would show up as a disagreement somewhere.
		var want half.Half
		x, y := a.Float64(), b.Float64()
		switch op {
		case Add:
			want = half.FromFloat64(x+y, round.RTE)
		case Sub:
			want = half.FromFloat64(x-y, round.RTE)
		case Mul:
			want = half.FromFloat64(x*y, round.RTE)
		case Div:
			want = half.FromFloat32(float32(a.Float32()/b.Float32()), round.RTE)
		}
		if want.IsNaN() {
			want = canonNaN16
		}
		if half.Half(got.Lanes[0]) != want {
			t.Errorf("%v %v %v = %#04x, want %#04x", a, op, b, got.Lanes[0], uint16(want))
		}
	}
}

func TestNegComplement(t *testing.T) {
	for _, tt := range []struct {
		v    Value
		want string
	}{
		{f32(0), "(float)0x80000000"},
		{New(cltype.Scalar(cltype.Float), 0x7fc00000), "(float)0xffc00000"},
		{New(cltype.Scalar(cltype.Half), 0x3c00), "(half)0xbc00"},
		{FromInt64(cltype.Int, math.MinInt32), "(int)0x80000000"},
		{FromInt64(cltype.Uint, 1), "(uint)0xffffffff"},
		{vec(cltype.Char, 1, 0x80), "(char2)(0xff, 0x80)"},
	} {
		got, err := Neg(tt.v)
		if err != nil || Format(got, true) != tt.want {
			t.Errorf("-%v = %s, %v; want %s", tt.v, Format(got, true), err, tt.want)
		}
	}
	got, err := Complement(FromInt64(cltype.Uchar, 0x0f))
	if err != nil || got.String() != "(uchar)240" {
		t.Errorf("~(uchar)15 = %v, %v", got, err)
	}
	if _, err := Complement(f32(1)); err == nil {
		t.Errorf("~1.0f succeeded")
	}
}

// The small formats print as their shortest decimals (bfloat16) or exact
// values (the 8-bit and smaller ones) and take part in no arithmetic; conversions to and from them go through package convert.
func TestSmallFormatValues(t *testing.T) {
	op, err := convert.ParseName("convert_e4m3x2_sat_rtz")
	if err != nil {
		t.Fatal(err)
	}
	v, err := Convert(New(cltype.Vec(cltype.Float, 2), uint64(math.Float32bits(500)), uint64(math.Float32bits(-0.3))), op, round.RTE)
	if err != nil {
		t.Fatal(err)
	}
	if got := Format(v, true); got != "(e4m3x2)(0x7e, 0xa9)" {
		t.Errorf("Format bits = %s", got)
	}
	if got := Format(New(cltype.Scalar(cltype.BFloat16), 0x3dcd), false); got != "(bfloat16)0.1" {
		t.Errorf("Format = %s", got)
	}
	if got := Format(New(cltype.Scalar(cltype.E5M2), 0xfc), false); got != "(e5m2)-inf" {
		t.Errorf("Format = %s", got)
	}
	if _, err := Binary(Add, v, v, round.RTE); err == nil || !strings.Contains(err.Error(), "storage format") {
		t.Errorf("Binary on e4m3x2: %v", err)
	}
	if _, err := Neg(v); err == nil {
		t.Error("Neg on e4m3x2: no error")
	}
	if f := New(cltype.Scalar(cltype.BFloat16), 0x3fc0).Float64(0); f != 1.5 {
		t.Errorf("Float64 = %v", f)
	}
	if New(cltype.Scalar(cltype.E4M3), 0x80).Bool(0) {
		t.Error("e4m3 -0 is true")
	}
	// The 8-bit and smaller formats print their exact values.
	for _, c := range []struct {
		v    Value
		want string
	}{
		{New(cltype.Scalar(cltype.E4M3), 0x7e), "(e4m3)448"},
		{New(cltype.Vec(cltype.E2M1, 4), 0x7, 0x8, 0x1, 0xf7), "(e2m1x4)(6, -0, 0.5, 6)"},
		{New(cltype.Vec(cltype.E8M0, 3), 0x00, 0x7f, 0xff), "(e8m0x3)(0x1p-127, 1, nan)"},
		{New(cltype.Scalar(cltype.E3M2), 0x3f), "(e3m2)-28"},
		{New(cltype.Scalar(cltype.E2M3), 0x01), "(e2m3)0.125"},
	} {
		if got := Format(c.v, false); got != c.want {
			t.Errorf("Format = %s, want %s", got, c.want)
		}
	}
	if !New(cltype.Scalar(cltype.E8M0), 0).Bool(0) || New(cltype.Scalar(cltype.E2M1), 0xf8).Bool(0) {
		t.Error("truth of e8m0 2^-127 or e2m1 -0")
	}
}
