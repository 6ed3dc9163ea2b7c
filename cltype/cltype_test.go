package cltype_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
)

func TestKinds(t *testing.T) {
	want := map[cltype.Kind]struct {
		size     int
		min      int64
		max      uint64
		float    bool
		integral bool
	}{
		cltype.Char: {1, math.MinInt8, math.MaxInt8, false, true}, cltype.Uchar: {1, 0, math.MaxUint8, false, true},
		cltype.Short: {2, math.MinInt16, math.MaxInt16, false, true}, cltype.Ushort: {2, 0, math.MaxUint16, false, true},
		cltype.Int: {4, math.MinInt32, math.MaxInt32, false, true}, cltype.Uint: {4, 0, math.MaxUint32, false, true},
		cltype.Long: {8, math.MinInt64, math.MaxInt64, false, true}, cltype.Ulong: {8, 0, math.MaxUint64, false, true},
		cltype.Half: {2, 0, 0, true, false}, cltype.Float: {4, 0, 0, true, false}, cltype.Double: {8, 0, 0, true, false},
	}
	if len(cltype.Scalars) != 11 {
		t.Fatalf("%d scalars", len(cltype.Scalars))
	}
	for _, k := range cltype.Scalars {
		w := want[k]
		if k.Size() != w.size || k.MinInt() != w.min || k.MaxUint() != w.max || k.IsFloat() != w.float || k.IsInteger() != w.integral || !k.Valid() {
			t.Errorf("%s: size %d min %d max %d float %v", k, k.Size(), k.MinInt(), k.MaxUint(), k.IsFloat())
		}
		if p, err := cltype.ParseKind(k.String()); err != nil || p != k {
			t.Errorf("ParseKind(%s) = %v, %v", k, p, err)
		}
	}
	if cltype.Bool.Valid() || cltype.Invalid.Valid() {
		t.Error("bool/invalid valid for conversions")
	}
	if f := cltype.Half.Format(); f.Prec != 11 || f.Emin() != -14 || f.ExpBits() != 5 {
		t.Errorf("half format %+v", f)
	}
	if f := cltype.Double.Format(); f.ExpBits() != 11 || f.Emin() != -1022 {
		t.Errorf("double format %+v", f)
	}
}

func TestParseType(t *testing.T) {
	for _, k := range cltype.Scalars {
		for _, n := range cltype.Widths {
			name := k.String()
			if n > 1 {
				name += fmt.Sprint(n)
			}
			ty, err := cltype.ParseType(name)
			if err != nil || ty.Kind != k || ty.N != n || ty.String() != name {
				t.Errorf("ParseType(%s) = %v, %v", name, ty, err)
			}
			storage := n
			if n == 3 {
				storage = 4
			}
			if ty.Size() != storage*k.Size() {
				t.Errorf("%s size %d", name, ty.Size())
			}
		}
	}
	for _, bad := range []string{"", "int5", "int1", "int02", "float32", "bool2", "integer", "4", "uchar-4"} {
		if _, err := cltype.ParseType(bad); err == nil {
			t.Errorf("ParseType(%q) accepted", bad)
		}
	}
}

func ExampleParseType() {
	t, _ := cltype.ParseType("float3")
	fmt.Println(t, t.N, t.Size())
	// Output: float3 3 16
}

func TestSmallFloats(t *testing.T) {
	want := map[cltype.Kind]int{cltype.BFloat16: 2, cltype.E4M3: 1, cltype.E5M2: 1, cltype.E2M1: 1, cltype.E2M3: 1, cltype.E3M2: 1, cltype.E8M0: 1, cltype.E4M3FNUZ: 1, cltype.E5M2FNUZ: 1}
	if len(cltype.SmallFloats) != 9 || len(cltype.AllScalars) != 20 {
		t.Fatalf("%d small floats, %d scalars", len(cltype.SmallFloats), len(cltype.AllScalars))
	}
	for _, k := range cltype.SmallFloats {
		if k.Size() != want[k] || !k.IsSmallFloat() || !k.IsFloating() || !k.Convertible() || k.Valid() || k.IsFloat() || k.IsInteger() || k.IsSigned() != (k != cltype.E8M0) {
			t.Errorf("%s: size %d, flags wrong", k, k.Size())
		}
		for _, n := range cltype.Widths {
			name := k.String()
			if n > 1 {
				name += "x" + fmt.Sprint(n)
			}
			ty, err := cltype.ParseType(name)
			if err != nil || ty.Kind != k || ty.N != n || ty.String() != name {
				t.Errorf("ParseType(%s) = %v, %v", name, ty, err)
			}
		}
	}
	for _, k := range cltype.Scalars {
		if k.IsSmallFloat() || !k.Convertible() || k.IsFloating() != k.IsFloat() {
			t.Errorf("%s: small-float flags wrong", k)
		}
	}
	if cltype.Bool.Convertible() || cltype.Bool.IsFloating() {
		t.Error("bool convertible")
	}
	for bad, msg := range map[string]string{
		"bfloat164": "is written bfloat16x4", "e4m34": "is written e4m3x4", "e5m2x5": "vector width",
		"e5m2x1": "vector width", "e5m2x04": "vector width", "bfloat16x": "vector width", "e4m3x+4": "vector width",
		"bfloat": "unknown type", "e4m3y": "unknown type", "bfloat16x4x": "vector width",
		"e2m14": "is written e2m1x4", "e8m0x5": "vector width", "e2m2": "unknown type",
	} {
		_, err := cltype.ParseType(bad)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("ParseType(%q): %v, want %q", bad, err, msg)
		}
	}
}
