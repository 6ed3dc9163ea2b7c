package digestspec

import (
	"math"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// The sample generator of ORACLES.md, written out literally, against Input.
func TestInputDefinition(t *testing.T) {
	for i := uint64(0); i < 1<<16; i += 7 {
		r := Fmix(i*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019)
		var d, l uint64
		if r&3 == 0 {
			d, l = r, r
		} else {
			d = (r & 0x800FFFFFFFFFFFFF) | ((1019 + ((r>>52)&0x7F)%72) << 52)
			l = r >> ((r >> 2) & 63)
			if (r>>8)&1 == 1 {
				l = -l
			}
		}
		if Input(cltype.Double, i) != d || Input(cltype.Long, i) != l || Input(cltype.Ulong, i) != l {
			t.Fatalf("input %d: got %#x %#x, want %#x %#x", i, Input(cltype.Double, i), Input(cltype.Long, i), d, l)
		}
		if Input(cltype.Float, i) != i {
			t.Fatal("32-bit inputs are the index")
		}
	}
}

// The term is defined on the canonical output: NaNs collapse, implementation-
// defined results get their own marker.
func TestCanonical(t *testing.T) {
	if Canonical(cltype.Float, 0x7fc00001, false) != 0x7FF8000000000000 || Canonical(cltype.Half, 0xfe00, false) != 0x7FF8000000000000 {
		t.Error("NaN not canonical")
	}
	if Canonical(cltype.Int, 5, true) != ImplDefined || Canonical(cltype.Int, 0xffffffff, false) != 0xffffffff {
		t.Error("integer canonical")
	}
	if Canonical(cltype.Double, 0x7ff0000000000000, false) != 0x7ff0000000000000 {
		t.Error("inf is not NaN")
	}
}

// IsNaN (by NaNMasks) against each format's own NaN test, over every 8- and
// 16-bit pattern and the float/double patterns around their NaN boundaries.
func TestIsNaN(t *testing.T) {
	for b := uint64(0); b < 1<<16; b++ {
		want := map[cltype.Kind]bool{
			cltype.Half:     b&0x7fff > 0x7c00,
			cltype.BFloat16: b&0x7fff > 0x7f80,
		}
		if b < 256 {
			want[cltype.E4M3] = b&0x7f == 0x7f
			want[cltype.E5M2] = b&0x7f > 0x7c
			want[cltype.E8M0] = b == 0xff
			want[cltype.E4M3FNUZ], want[cltype.E5M2FNUZ] = b == 0x80, b == 0x80
			want[cltype.E2M1], want[cltype.E2M3], want[cltype.E3M2] = false, false, false
			want[cltype.Uchar] = false
		}
		for k, w := range want {
			if got := IsNaN(k, b); got != w {
				t.Fatalf("IsNaN(%v, %#x) = %v, want %v", k, b, got, w)
			}
		}
	}
	for _, f := range []uint32{0, 0x7f800000, 0x7f800001, 0x7fc00000, 0x7fffffff, 0xff800000, 0xff800001, 0xffffffff, 0x3f800000} {
		w := math.IsNaN(float64(math.Float32frombits(f)))
		if IsNaN(cltype.Float, uint64(f)) != w || IsNaN(cltype.Int, uint64(f)) {
			t.Errorf("IsNaN(float, %#x) != %v", f, w)
		}
		d := math.Float64bits(float64(math.Float32frombits(f)))
		for _, x := range []uint64{d, uint64(f)<<32 | uint64(f)} {
			if IsNaN(cltype.Double, x) != math.IsNaN(math.Float64frombits(x)) {
				t.Errorf("IsNaN(double, %#x)", x)
			}
		}
	}
}
