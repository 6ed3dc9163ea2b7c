package digest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// The value published with the CLI contract (../shared/tools/contract-check).
func TestKnownDigest(t *testing.T) {
	c, err := Parse("convert_char", "char")
	if err != nil {
		t.Fatal(err)
	}
	r := Compute(c, Options{})
	if got := r.Digest(); got != 0x0715445b4811aebb {
		t.Fatalf("digest convert_char char = %016x, want 0715445b4811aebb", got)
	}
}

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

func TestParseChunks(t *testing.T) {
	got, err := ParseChunks("63-65,127,64", 256)
	if err != nil || fmt.Sprint(got) != "[63 64 65 127]" {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range []string{"256", "-1", "5-3", "x", "1,,2", ""} {
		if _, err := ParseChunks(bad, 256); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A partial digest: only the chosen chunks are computed, and their sums
// equal those of the full run.
func TestPartialChunks(t *testing.T) {
	c, _ := Parse("convert_half_rtp", "short")
	full := Compute(c, Options{})
	part := Compute(c, Options{Chunks: []int{0}})
	if !part.Complete() || part.Digest() != full.Digest() || part.Line() != full.Line() {
		t.Errorf("partial %s vs full %s", part.Line(), full.Line())
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

func TestLineFormat(t *testing.T) {
	c, _ := Parse("convert_int_sat_rte", "float")
	r := Compute(c, Options{Chunks: []int{75}})
	f := strings.Split(r.Line(), "\t")
	if len(f) != 7 || f[2] != "4294967296" || len(strings.Split(f[6], ",")) != 256 || strings.Split(f[6], ",")[75] == "-" || strings.Split(f[6], ",")[0] != "-" {
		t.Errorf("line %q", r.Line())
	}
	if _, err := Parse("convert_int4", "float"); err == nil {
		t.Error("vector conversion accepted")
	}
	if _, err := Parse("convert_int", "bool"); err == nil {
		t.Error("bool source accepted")
	}
}
