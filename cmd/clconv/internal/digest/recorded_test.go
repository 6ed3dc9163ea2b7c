package digest_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
)

var long = flag.Bool("long", false, "recompute one in seven of the recorded digests of 32- and 64-bit sources too")

// recordedFile holds the digests of convert's exhaustive run (TestExhaustive
// in package convert, which re-derives them from the reference).
const recordedFile = "../../../../convert/testdata/exhaustive_digests.tsv"

// TestRecordedDigests recomputes recorded digests with Compute (the fast
// kernels and the definition's input generator and canonicalisation, in
// internal/digestspec): every conversion of the 8- and 16-bit sources, and
// with -long one in seven of the conversions of the larger sources.
func TestRecordedDigests(t *testing.T) {
	recorded := readRecorded(t)
	if len(recorded) == 0 {
		t.Fatal("no recorded digests")
	}
	n := 0
	for _, l := range recorded {
		f := strings.Split(l, "\t")
		c, err := digest.Parse(f[0], f[1])
		if err != nil {
			t.Fatal(err)
		}
		if c.Src.Bits() > 16 {
			if n++; !*long || n%7 != 0 {
				continue
			}
		}
		r := digest.Compute(c, digest.Options{})
		got := fmt.Sprintf("%s\t%s\t%d\t%016x\t%d\t%d", f[0], f[1], r.N, r.Digest(), r.Impl, r.NaN)
		if got != l {
			t.Errorf("digest.Compute: %q\n      recorded: %q", got, l)
		}
	}
}

// readRecorded maps "conversion\tsource" to the recorded line.
func readRecorded(t *testing.T) map[string]string {
	data, err := os.ReadFile(recordedFile)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(l, "\t")
		if len(f) == 6 {
			m[f[0]+"\t"+f[1]] = l
		}
	}
	return m
}
