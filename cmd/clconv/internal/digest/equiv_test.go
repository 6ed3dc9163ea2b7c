package digest_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/testvals"
)

func key(c digest.Conversion) string { return c.Op.Name() + " " + c.Src.String() }

// TestRepresentativeClasses checks Representative against the digests of
// every conversion with an 8-, 16- or 32-bit source recorded by the
// exhaustive run (convert/testdata/exhaustive_digests.tsv, which the convert
// tests re-derive): members of one class have equal digests, implementation-
// defined and NaN counts, and two classes of one source and destination never
// share a digest,
// so the classes are neither too coarse (a wrong reference) nor too fine.
func TestRepresentativeClasses(t *testing.T) {
	f, err := os.Open("../../../../convert/testdata/exhaustive_digests.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recorded := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Split(sc.Text(), "\t")
		if len(fl) < 6 || strings.HasPrefix(fl[0], "#") {
			continue
		}
		recorded[fl[0]+" "+fl[1]] = strings.Join(fl[3:6], " ")
	}
	if len(recorded) < 700 {
		t.Fatalf("only %d recorded digests", len(recorded))
	}
	classOf := map[string]string{}  // representative -> recorded digest
	digestOf := map[string]string{} // source + digest -> representative
	members := map[string]int{}
	checked := 0
	for _, c := range digest.All() {
		r := c.Representative()
		if r.Representative() != r {
			t.Errorf("%s: representative %s is not its own representative", key(c), key(r))
		}
		if r.Src != c.Src || r.Op.Dst != c.Op.Dst {
			t.Errorf("%s: representative %s changes the types", key(c), key(r))
		}
		members[key(r)]++
		d, ok := recorded[key(c)]
		if !ok {
			continue
		}
		checked++
		if prev, ok := classOf[key(r)]; ok && prev != d {
			t.Errorf("%s: digest %s, but its class %s has %s", key(c), d, key(r), prev)
		}
		classOf[key(r)] = d
		sd := c.Src.String() + " " + c.Op.Dst.String() + " " + d
		if other, ok := digestOf[sd]; ok && other != key(r) {
			t.Errorf("classes %s and %s have the same digest %s: one class", other, key(r), d)
		}
		digestOf[sd] = key(r)
	}
	if checked != len(recorded) {
		t.Errorf("checked %d of %d recorded digests", checked, len(recorded))
	}
	t.Logf("%d conversions in %d classes; %d recorded digests checked", len(digest.All()), len(members), checked)
}

func TestRepresentativeExamples(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"convert_int", "float", "convert_int_rtz float"},
		{"convert_int_sat", "float", "convert_int_sat_rtz float"},
		{"convert_float", "int", "convert_float_rte int"},
		{"convert_float_rtn", "uint", "convert_float_rtz uint"},
		{"convert_float_rtn", "int", "convert_float_rtn int"},
		{"convert_double_rtp", "float", "convert_double float"},
		{"convert_half_rtp", "uchar", "convert_half uchar"},
		{"convert_half_rtp", "short", "convert_half_rtp short"},
		{"convert_int_sat_rtp", "short", "convert_int short"},
		{"convert_uchar_sat_rtn", "float", "convert_uchar_sat_rtz float"},
		{"convert_uchar_rtn", "float", "convert_uchar_rtn float"},
		{"convert_char_sat_rtn", "float", "convert_char_sat_rtn float"},
		{"convert_uint_sat_rtp", "short", "convert_uint_sat short"},
		{"convert_long_sat", "uint", "convert_long uint"},
		{"convert_ulong_sat_rte", "long", "convert_ulong_sat long"},
	} {
		c, err := digest.Parse(tc.name, tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := key(c.Representative()); got != tc.want {
			t.Errorf("%s %s: representative %s, want %s", tc.name, tc.src, got, tc.want)
		}
	}
}

// TestRepresentativeSampled compares every conversion with its
// representative input by input: the edge values of the source and 2^16
// digest inputs spread over its input space. It covers the 64-bit sources,
// which have no recorded digests.
func TestRepresentativeSampled(t *testing.T) {
	compared := 0
	for _, c := range digest.All() {
		r := c.Representative()
		if r == c {
			continue
		}
		ins := testvals.Edges(c.Src)
		n := digestspec.N(c.Src)
		for i := uint64(0); i < 1<<16; i += uint64(testvals.Stride(8)) {
			ins = append(ins, digestspec.Input(c.Src, i*(n>>16)+i%(n>>16|1)))
		}
		dk := c.Op.Dst.Kind
		for _, x := range ins {
			a, ai := convert.Bits(dk, c.Src, x, c.Mode(), c.Op.Sat)
			b, bi := convert.Bits(dk, c.Src, x, r.Mode(), r.Op.Sat)
			if ca, cb := digestspec.Canonical(dk, a, ai), digestspec.Canonical(dk, b, bi); ca != cb {
				t.Errorf("%s gives %#x on %s input %#x, its representative %s gives %#x", key(c), ca, c.Src, x, key(r), cb)
				break
			}
		}
		compared++
	}
	t.Logf("%d conversions compared with their representatives", compared)
}
