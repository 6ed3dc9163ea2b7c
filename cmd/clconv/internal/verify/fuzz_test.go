package verify

import (
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
)

// FuzzParseDigestLine feeds arbitrary lines to the parser of reference files
// (--reference FILE): it must return an error or a line that prints back to
// the same result, never panic.
func FuzzParseDigestLine(f *testing.F) {
	rc, err := Shipped()
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range []string{"convert_uchar_sat char", "convert_half_rtz short", "convert_int_rtz half"} {
		for _, x := range All() {
			if Key(x) == c {
				f.Add(rc.get(x).Line())
			}
		}
	}
	f.Add("convert_char\tchar\t256\t0715445b4811aebb\t0\t0\t0715445b4811aebb")
	f.Add("convert_char\tchar\t256\t0715445b4811aebb\t0\t0\t-")
	f.Add("convert_int_sat_rte\tfloat\t4294967296\t0\t0\t0\t" + strings.Repeat("-,", 255) + "-")
	f.Add("convert_char\tbool\t256\t0\t0\t0\t0")
	f.Add("\t\t\t\t\t\t")
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseDigestLine(line)
		if err != nil {
			return
		}
		again, err := ParseDigestLine(r.Line())
		if err != nil {
			t.Fatalf("%q parses, but its printed form %q does not: %v", line, r.Line(), err)
		}
		if again.Line() != r.Line() || again.Impl != r.Impl || again.NaN != r.NaN {
			t.Fatalf("%q: printed and parsed again differs: %q vs %q", line, again.Line(), r.Line())
		}
	})
}

// FuzzParseFilter feeds arbitrary --only patterns: an error or a filter that
// can be matched, never a panic.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", "float", "convert_int*_sat* float", "^convert_u?char_sat_rt[pn] (half|float)$", "[", "a,(", "convert_*,,double"} {
		f.Add(s)
	}
	all := All()
	f.Fuzz(func(t *testing.T, pattern string) {
		fl, err := ParseFilter(pattern)
		if err != nil {
			return
		}
		for _, c := range all[:50] {
			fl.Match(c)
		}
	})
}

// FuzzParseChunks feeds arbitrary --chunks lists: an error or chunks in range.
func FuzzParseChunks(f *testing.F) {
	for _, s := range []string{"0", "63-95,127", "255", "256", "5-3", "-", "1,,2", "0-255"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ks, err := digest.ParseChunks(s, 256)
		if err != nil {
			return
		}
		for _, k := range ks {
			if k < 0 || k >= 256 {
				t.Fatalf("%q: chunk %d out of range", s, k)
			}
		}
	})
}
