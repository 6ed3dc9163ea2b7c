package verify

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
)

var (
	long        = flag.Bool("long", false, "recompute one shipped reference line in seven in full")
	shippedFull = flag.Bool("shipped.all", false, "recompute every shipped reference line in full (about 45 minutes on 2 cores)")
	shippedSrc  = flag.String("shipped.src", "", "recompute in full the shipped reference lines of these comma-separated source types")
)

// TestShippedReference checks the reference digests embedded in the binary
// (reference.tsv): one line per class of conversions, each naming the class's
// representative; every 8/16-bit-source line and one chunk of every other
// line recomputed; every 32-bit-source conversion's digest, implementation-
// defined and NaN counts equal to those the exhaustive run recorded
// independently (convert/testdata/exhaustive_digests.tsv). With -long one line
// in seven is recomputed in full, with -shipped.all every line, with
// -shipped.src=ulong,double those of the sources named.
func TestShippedReference(t *testing.T) {
	rc, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	classes := map[string]digest.Conversion{}
	for _, c := range All() {
		classes[classKey(c)] = c.Representative()
	}
	if len(rc.m) != len(classes) {
		t.Errorf("%d shipped lines, want one for each of %d classes", len(rc.m), len(classes))
	}
	for k, r := range rc.m {
		if Key(r.Conversion) != k {
			t.Errorf("line %s is not its class's representative %s", Key(r.Conversion), k)
		}
	}

	recorded := readRecorded(t)
	checked := 0
	for _, c := range All() {
		want, ok := recorded[Key(c)]
		if !ok {
			continue
		}
		r := rc.get(c)
		if r == nil {
			t.Errorf("%s: no shipped line", Key(c))
			continue
		}
		if got := fmt.Sprintf("%016x\t%d\t%d", r.Digest(), r.Impl, r.NaN); got != want {
			t.Errorf("%s: shipped %q, recorded by the exhaustive run %q", Key(c), got, want)
		}
		checked++
	}
	if checked < 760 {
		t.Errorf("only %d conversions compared with the recorded digests", checked)
	}

	var lines []*digest.Result
	for _, c := range All() {
		if s := rc.get(c); s != nil && c.Representative() == c {
			lines = append(lines, s)
		}
	}
	// One line per goroutine: a single chunk runs on one core.
	parallel(len(lines), func(next func() (int, bool)) {
		for n, ok := next(); ok; n, ok = next() {
			s := lines[n]
			r := s.Conversion
			switch {
			case *shippedFull || *long && n%7 == 0 || s.N <= digestspec.ChunkSize || slices.Contains(strings.Split(*shippedSrc, ","), r.Src.String()):
				if testing.Short() && s.N > digestspec.ChunkSize {
					continue
				}
				got := digest.Compute(r, digest.Options{})
				if got.Line() != s.Line() {
					t.Errorf("%s: recomputed\n%s\nshipped\n%s", Key(r), got.Line(), s.Line())
				}
			case !testing.Short():
				k := n * 37 % len(s.Chunks) // a different chunk for each line
				got := digest.Compute(r, digest.Options{Chunks: []int{k}, Workers: 1})
				if got.Chunks[k] != s.Chunks[k] {
					t.Errorf("%s: chunk %d recomputed %016x, shipped %016x", Key(r), k, got.Chunks[k], s.Chunks[k])
				}
			}
		}
	})
}

// readRecorded reads convert/testdata/exhaustive_digests.tsv: "name source"
// -> "digest\timpl\tnan".
func readRecorded(t *testing.T) map[string]string {
	f, err := os.Open("../../../../convert/testdata/exhaustive_digests.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") {
			continue
		}
		fl := strings.Split(l, "\t")
		if len(fl) != 6 {
			t.Fatalf("recorded digests: bad line %q", l)
		}
		m[fl[0]+" "+fl[1]] = strings.Join(fl[3:], "\t")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestShippedQuick checks quick.tsv, the quick run's shipped reference: its
// header names this clconv's quick slices, it has one line for each class
// with a 32- or 64-bit source, each naming the class's representative, and
// the lines recomputed agree (one in 23, a different set each source order;
// every line with -shipped.all, those of a source with -shipped.src).
func TestShippedQuick(t *testing.T) {
	m, err := shippedQuick()
	if err != nil {
		t.Fatal(err)
	}
	var lines []digest.Conversion
	seen := map[string]bool{}
	for _, c := range All() {
		r := c.Representative()
		if !hasQuickLine(c) || seen[Key(r)] {
			continue
		}
		seen[Key(r)] = true
		lines = append(lines, r)
		if _, ok := m[Key(r)]; !ok {
			t.Errorf("quick.tsv has no line for %s", Key(r))
		}
	}
	if len(m) != len(lines) {
		t.Errorf("quick.tsv has %d lines, want one for each of %d classes", len(m), len(lines))
	}
	for n, r := range lines {
		if !(*shippedFull || n%23 == 5 || slices.Contains(strings.Split(*shippedSrc, ","), r.Src.String())) {
			continue
		}
		q := m[Key(r)]
		want := fmt.Sprintf("%s\t%s\t%016x\t%d", r.Op.Name(), r.Src, q.total, q.impl)
		if got := QuickLine(r); got != want {
			t.Errorf("recomputed %q, shipped %q", got, want)
		}
	}
	if _, err := readQuick(strings.NewReader("# clconv quick-run reference: other slices 0123456789abcdef\n")); err == nil {
		t.Error("a quick.tsv of other slices was accepted")
	}
}
