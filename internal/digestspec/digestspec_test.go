package digestspec

import (
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
