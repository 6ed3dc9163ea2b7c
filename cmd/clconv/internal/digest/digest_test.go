package digest

import (
	"fmt"
	"strings"
	"testing"
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
