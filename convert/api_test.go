package convert_test

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// The cases of RULES.md through the typed API.
func TestRulesCases(t *testing.T) {
	eq := func(name string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	eq("convert_int_rte(2.5f)", convert.To[int32](float32(2.5), round.RTE), 2)
	eq("convert_int_rte(-2.5f)", convert.To[int32](float32(-2.5), round.RTE), -2)
	eq("convert_int_rte(3.5f)", convert.To[int32](float32(3.5), round.RTE), 4)
	eq("convert_int_rtn(-2.5f)", convert.To[int32](float32(-2.5), round.RTN), -3)
	u := make([]uint8, 4)
	convert.SliceSat(u, []float32{-5, 254.5, 254.6, 1.2e9}, round.RTE)
	eq("convert_uchar4_sat_rte", u, []uint8{0, 254, 255, 255})
	eq("convert_uchar_sat_rte(255.5f)", convert.ToSat[uint8](float32(255.5), round.RTE), 255)
	eq("convert_char_sat_rtn(-128.5f)", convert.ToSat[int8](float32(-128.5), round.RTN), -128)
	eq("convert_uint_sat_rtp(-0.5f)", convert.ToSat[uint32](float32(-0.5), round.RTP), 0)
	eq("convert_int_sat(0x1p31f)", convert.ToSat[int32](float32(0x1p31), round.RTZ), int32(math.MaxInt32))
	eq("convert_long_sat(0x1p63f)", convert.ToSat[int64](float32(0x1p63), round.RTZ), int64(math.MaxInt64))
	eq("convert_ulong_sat(0x1p64f)", convert.ToSat[uint64](float32(0x1p64), round.RTZ), uint64(math.MaxUint64))
	eq("convert_float_rtz(16777217)", convert.To[float32](int32(16777217), round.RTZ), float32(16777216))
	eq("convert_float_rtp(16777217)", convert.To[float32](int32(16777217), round.RTP), float32(16777218))
	eq("convert_float_rtz(LONG_MAX)", convert.To[float32](int64(math.MaxInt64), round.RTZ), float32(0x1.fffffep62))
	eq("convert_float_rte(LONG_MAX)", convert.To[float32](int64(math.MaxInt64), round.RTE), float32(0x1p63))
	eq("convert_float_rtp(ULONG_MAX)", convert.To[float32](uint64(math.MaxUint64), round.RTP), float32(0x1p64))
	eq("convert_double_rtp((1L<<53)+1)", convert.To[float64](int64(1<<53+1), round.RTP), 0x1.0000000000001p53)
	eq("convert_float_rtz(DBL_MAX)", convert.To[float32](math.MaxFloat64, round.RTZ), float32(math.MaxFloat32))
	eq("convert_float_rte(DBL_MAX)", math.IsInf(float64(convert.To[float32](math.MaxFloat64, round.RTE)), 1), true)
	eq("convert_float_rte(0x1p-150)", math.Float32bits(convert.To[float32](0x1p-150, round.RTE)), 0)
	eq("convert_float_rtp(0x1p-150)", convert.To[float32](0x1p-150, round.RTP), float32(0x1p-149))
	eq("convert_float_rte(-1e-300)", math.Float32bits(convert.To[float32](-1e-300, round.RTE)), uint32(0x80000000))
	hb := func(x float32, m round.Mode) string { return fmt.Sprintf("%#04x", uint16(convert.To[half.Half](x, m))) }
	eq("convert_half_rte(65519.0f)", hb(65519, round.RTE), "0x7bff")
	eq("convert_half_rtp(65519.0f)", hb(65519, round.RTP), "0x7c00")
	eq("convert_half_rte(65520.0f)", hb(65520, round.RTE), "0x7c00")
	eq("convert_half_rtz(65520.0f)", hb(65520, round.RTZ), "0x7bff")
	eq("convert_half_rtz(-0x1.000002p-25f)", hb(-0x1.000002p-25, round.RTZ), "0x8000")
	eq("convert_half_rtn(-0x1.000002p-25f)", hb(-0x1.000002p-25, round.RTN), "0x8001")
	eq("convert_half_rtz((short)32767)", uint16(convert.To[half.Half](int16(32767), round.RTZ)), 0x77ff)
	eq("convert_half_rte((short)32767)", uint16(convert.To[half.Half](int16(32767), round.RTE)), 0x7800)
	eq("convert_uchar(300)", convert.To[uint8](int32(300), round.RTZ), 44)
	eq("convert_char(200)", convert.To[int8](int32(200), round.RTZ), -56)
	eq("integer 0 -> +0 under rtn", math.Float64bits(convert.To[float64](int32(0), round.RTN)), 0)
}

// Out-of-range and NaN inputs give the saturated value without _sat too, on
// every platform (unlike Go's own conversion).
func TestImplementationDefinedIsSaturated(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300, 0x1p31, -0x1p31 - 1} {
		if got, want := convert.To[int32](x, round.RTZ), convert.ToSat[int32](x, round.RTZ); got != want {
			t.Errorf("convert_int(%v) = %d, convert_int_sat = %d", x, got, want)
		}
	}
	if got := convert.To[int32](math.NaN(), round.RTE); got != 0 {
		t.Errorf("convert_int_rte(NaN) = %d, want 0", got)
	}
}

func TestChecked(t *testing.T) {
	if v, err := convert.ToChecked[uint8](float32(254.5), round.RTE); err != nil || v != 254 {
		t.Errorf("ToChecked(254.5) = %d, %v", v, err)
	}
	_, err := convert.ToChecked[uint8](float32(255.5), round.RTE)
	var re *convert.RangeError
	if !errors.As(err, &re) || re.Dst != cltype.Uchar {
		t.Errorf("ToChecked(255.5 rte -> uchar) error = %v, want a RangeError", err)
	}
	if _, err := convert.ToChecked[int8](int32(128), round.RTZ); err == nil {
		t.Error("ToChecked[int8](128) gave no error")
	}
	if _, err := convert.ToChecked[int32](math.NaN(), round.RTZ); err == nil {
		t.Error("ToChecked[int32](NaN) gave no error")
	}
	dst := make([]int16, 4)
	n, err := convert.SliceChecked(dst, []float64{1.5, 2.5, 1e9, -3}, round.RTE)
	if n != 4 || !errors.As(err, &re) || re.Index != 2 || fmt.Sprint(dst) != "[2 2 32767 -3]" {
		t.Errorf("SliceChecked = %d, %v, %v", n, err, dst)
	}
}

func TestSliceAPI(t *testing.T) {
	src := []int64{1, 1 << 60, -3}
	dst := make([]float32, 2)
	if n := convert.Slice(dst, src, round.RTE); n != 2 || dst[1] != 0x1p60 {
		t.Errorf("Slice = %d %v", n, dst)
	}
	if n := convert.Slice([]int8{}, src, round.RTE); n != 0 {
		t.Errorf("Slice into empty = %d", n)
	}
	w := make([]int8, 3)
	convert.Slice(w, []int32{200, -129, 5}, round.RTZ)
	s := make([]int8, 3)
	convert.SliceSat(s, []int32{200, -129, 5}, round.RTZ)
	if fmt.Sprint(w, s) != "[-56 127 5] [127 -128 5]" {
		t.Errorf("wrap %v sat %v", w, s)
	}
}

func TestZeroAllocations(t *testing.T) {
	src := make([]float32, 1024)
	dst := make([]uint8, 1024)
	var sink uint8
	if a := testing.AllocsPerRun(100, func() {
		convert.SliceSat(dst, src, round.RTE)
		sink += convert.ToSat[uint8](src[3], round.RTN)
		v, _ := convert.ToChecked[uint8](src[4], round.RTN)
		sink += v
	}); a != 0 {
		t.Errorf("%v allocations per run, want 0", a)
	}
	_ = sink
}

func TestBytesErrors(t *testing.T) {
	if err := convert.Bytes(cltype.Uchar, cltype.Float, make([]byte, 2), make([]byte, 9), round.RTE, true); err == nil {
		t.Error("9 bytes of float accepted")
	}
	if err := convert.Bytes(cltype.Uchar, cltype.Float, make([]byte, 3), make([]byte, 8), round.RTE, true); err == nil {
		t.Error("wrong destination size accepted")
	}
	buf := make([]byte, 16)
	if err := convert.Bytes(cltype.Uchar, cltype.Float, make([]byte, 2), buf[1:9], round.RTE, true); err == nil {
		t.Error("misaligned source accepted")
	}
	if err := convert.Bytes(cltype.Bool, cltype.Float, nil, nil, round.RTE, true); err == nil {
		t.Error("bool destination accepted")
	}
}

func TestParseName(t *testing.T) {
	good := map[string]string{
		"convert_uchar4_sat_rte": "uchar4 sat rte",
		"convert_int":            "int  ",
		"convert_float16_rtp":    "float16  rtp",
		"convert_half_rtz":       "half  rtz",
		"convert_long_sat":       "long sat ",
		"convert_ushort3_rtn":    "ushort3  rtn",
	}
	for name, want := range good {
		op, err := convert.ParseName(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		s := ""
		if op.Sat {
			s = "sat"
		}
		if got := fmt.Sprintf("%s %s %s", op.Dst, s, op.Round); got != want {
			t.Errorf("%s parsed as %q, want %q", name, got, want)
		}
		if op.Name() != name {
			t.Errorf("%s: Name() = %s", name, op.Name())
		}
	}
	for _, bad := range []string{"convert_float_sat", "convert_half_sat_rte", "convert_int_rte_sat", "convert_int_sat_sat",
		"convert_int_rte_rtz", "convert_int5", "convert_bool", "convert_integer", "convert_int_rtx", "convert_", "convert_int_",
		"as_int", "convert_int04", "convert_int1"} {
		if _, err := convert.ParseName(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := convert.ParseAsName("as_double4"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"as_bool", "as_int5", "convert_int", "as_"} {
		if _, err := convert.ParseAsName(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestEffectiveMode(t *testing.T) {
	op, _ := convert.ParseName("convert_float")
	if op.Mode(round.RTP) != round.RTP {
		t.Error("convert_float should use the current mode")
	}
	op, _ = convert.ParseName("convert_int")
	if op.Mode(round.RTP) != round.RTZ {
		t.Error("convert_int should use rtz whatever the current mode")
	}
	op, _ = convert.ParseName("convert_float_rtn")
	if op.Mode(round.RTP) != round.RTN {
		t.Error("an explicit suffix wins")
	}
}

func FuzzParseName(f *testing.F) {
	for _, s := range []string{"convert_uchar4_sat_rte", "convert_float_sat", "convert_", "convert_int16_rtz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		op, err := convert.ParseName(s)
		if err == nil && op.Name() != s {
			t.Errorf("%q parsed, but prints as %q", s, op.Name())
		}
	})
}

// FuzzBits checks the scalar and slice paths against each other and against
// the rules that hold for every input.
func FuzzBits(f *testing.F) {
	f.Add(uint8(10), uint8(2), uint64(0x437e8000), uint8(0), true)
	f.Fuzz(func(t *testing.T, s, d uint8, bits uint64, m uint8, sat bool) {
		src := cltype.Scalars[int(s)%len(cltype.Scalars)]
		dst := cltype.Scalars[int(d)%len(cltype.Scalars)]
		mode := round.Mode(m % 4)
		bits &= src.Mask()
		out, impl := convert.Bits(dst, src, bits, mode, sat)
		if out&^dst.Mask() != 0 {
			t.Fatalf("output %#x wider than %s", out, dst)
		}
		if impl && (sat || !src.IsFloat() || dst.IsFloat()) {
			t.Fatalf("impl-defined reported for %s->%s sat=%v", src, dst, sat)
		}
		in := unsafe.Slice((*byte)(unsafe.Pointer(new(uint64))), 8)
		outB := unsafe.Slice((*byte)(unsafe.Pointer(new(uint64))), 8)
		convert.StoreBits(in, src, 0, bits)
		if err := convert.Bytes(dst, src, outB[:dst.Size()], in[:src.Size()], mode, sat); err != nil {
			t.Fatal(err)
		}
		if got := convert.LoadBits(outB, dst, 0); got != out {
			t.Fatalf("slice %#x, scalar %#x", got, out)
		}
	})
}
