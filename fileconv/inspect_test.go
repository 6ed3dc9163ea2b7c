package fileconv

import (
	"bytes"
	"context"
	"math"
	"slices"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// TestInspect compares Inspect's range and counts with a direct scan, for
// every type, both byte orders, and chunks that split the data.
func TestInspect(t *testing.T) {
	for _, k := range cltype.Scalars {
		vals := values(k, 3000, false, 4)
		var nan, pinf, ninf int64
		var lo, hi Value
		has := false
		for _, v := range vals {
			x := Value{k, v}
			if k.IsFloat() {
				f := floatOf(k, v)
				switch {
				case math.IsNaN(f):
					nan++
					continue
				case math.IsInf(f, 1):
					pinf++
				case math.IsInf(f, -1):
					ninf++
				}
			}
			if !has || less(x, lo) {
				lo = x
			}
			if !has || less(hi, x) {
				hi = x
			}
			has = true
		}
		for _, big := range []bool{false, true} {
			in := npyFile(k, vals, []int64{int64(len(vals))}, false, big)
			for _, r := range []bool{false, true} {
				var src = bytes.NewReader(in)
				s, err := Inspect(context.Background(), src, InspectOptions{Workers: 3, ChunkBytes: 512})
				if r {
					s, err = Inspect(context.Background(), onlyReader{bytes.NewReader(in)}, InspectOptions{Workers: 2, ChunkBytes: 1000})
				}
				if err != nil {
					t.Fatal(err)
				}
				if s.Count != int64(len(vals)) || s.NaN != nan || s.PosInf != pinf || s.NegInf != ninf || s.HasRange != has ||
					s.Min != lo || s.Max != hi || s.Bytes != int64(len(in)) || s.BigEndian != (big && k.Size() > 1) {
					t.Errorf("%s big=%v: %+v; want min %v max %v nan %d inf %d/%d", k, big, s, lo, hi, nan, pinf, ninf)
				}
			}
		}
	}
}

func TestInspectEdgeCases(t *testing.T) {
	ctx := context.Background()
	// All NaN: no range.
	in := npyFile(cltype.Float, []uint64{0x7fc00000, 0xffc00001}, []int64{2}, false, false)
	s, err := Inspect(ctx, bytes.NewReader(in), InspectOptions{})
	if err != nil || s.HasRange || s.NaN != 2 {
		t.Errorf("all NaN: %+v %v", s, err)
	}
	// -0 sorts before +0.
	in = npyFile(cltype.Double, []uint64{0, 1 << 63, 0}, []int64{3}, false, false)
	s, err = Inspect(ctx, bytes.NewReader(in), InspectOptions{ChunkBytes: 8})
	if err != nil || s.Min.String() != "-0" || s.Max.String() != "0" {
		t.Errorf("zeros: %+v %v", s, err)
	}
	// Raw input and empty input.
	s, err = Inspect(ctx, onlyReader{bytes.NewReader([]byte{0xff, 0x7f, 0x00, 0x80})}, InspectOptions{From: cltype.Short})
	if err != nil || s.Min.String() != "-32768" || s.Max.String() != "32767" || !slices.Equal(s.Shape, []int64{2}) {
		t.Errorf("raw shorts: %+v %v", s, err)
	}
	s, err = Inspect(ctx, bytes.NewReader(nil), InspectOptions{From: cltype.Short})
	if err != nil || s.HasRange || s.Count != 0 {
		t.Errorf("empty: %+v %v", s, err)
	}
}

func TestValueString(t *testing.T) {
	for _, tt := range []struct {
		v    Value
		want string
	}{
		{Value{cltype.Char, 0x80}, "-128"},
		{Value{cltype.Ulong, math.MaxUint64}, "18446744073709551615"},
		{Value{cltype.Long, 1 << 63}, "-9223372036854775808"},
		{Value{cltype.Half, 0x7bff}, "65504"}, // exact, where half's String gives the shortest "65500"
		{Value{cltype.Half, 0x2e66}, "0.0999755859375"},
		{Value{cltype.BFloat16, 0xc050}, "-3.25"},
		{Value{cltype.BFloat16, 0x0001}, "9.18354961579912115600575419704879435795832466228193376178712270530013483949005603790283203125e-41"},
		{Value{cltype.E4M3, 0x7e}, "448"},
		{Value{cltype.E5M2, 0x7b}, "57344"},
		{Value{cltype.E2M1, 0xf7}, "6"},
		{Value{cltype.E3M2, 0x01}, "0.0625"},
		{Value{cltype.E8M0, 0xfe}, "0x1p+127"},
		{Value{cltype.E8M0, 0x86}, "128"},
		{Value{cltype.Half, 0xfc00}, "-inf"},
		{Value{cltype.Float, 0x3dcccccd}, "0.1"},
		{Value{cltype.Float, 0x4b800000}, "16777216"},
		{Value{cltype.Double, math.Float64bits(math.Inf(1))}, "inf"},
		{Value{cltype.Double, math.Float64bits(-1e300)}, "-1e+300"},
	} {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.v, got, tt.want)
		}
	}
}
