package digest

import (
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
