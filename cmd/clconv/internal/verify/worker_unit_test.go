package verify

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
)

// TestWorkerCount: Options.BuildProcs decides, or the CPUs do; no build
// process without a command, without programs to build or with -1.
func TestWorkerCount(t *testing.T) {
	w := []string{"clconv"}
	auto := min(12, runtime.GOMAXPROCS(0)-1, 16)
	if auto < 2 || runtime.GOOS == "windows" {
		auto = 0
	}
	for _, tt := range []struct {
		o    Options
		n    int
		want int
	}{
		{Options{}, 12, 0},
		{Options{Worker: w, BuildProcs: -1}, 12, 0},
		{Options{Worker: w}, 0, 0},
		{Options{Worker: w, BuildProcs: 3}, 12, 3},
		{Options{Worker: w, BuildProcs: 30}, 12, 12},
		{Options{Worker: w}, 12, auto},
	} {
		if got := workerCount(tt.o, tt.n); got != tt.want {
			t.Errorf("workerCount(BuildProcs %d, worker %v, %d programs) = %d, want %d", tt.o.BuildProcs, tt.o.Worker, tt.n, got, tt.want)
		}
	}
}

// TestServeBuildsBadRequest: a build process given something else than a
// run's request stops with an error, having built nothing.
func TestServeBuildsBadRequest(t *testing.T) {
	var hello bytes.Buffer
	gob.NewEncoder(&hello).Encode(&workerHello{Magic: "something else"})
	for name, in := range map[string][]byte{
		"empty":       nil,
		"not gob":     []byte("int main() { return 0; }\n"),
		"truncated":   hello.Bytes()[:len(hello.Bytes())/2],
		"other hello": hello.Bytes(),
	} {
		var out bytes.Buffer
		if err := ServeBuilds(bytes.NewReader(in), &out); err == nil {
			t.Errorf("%s: no error", name)
		}
		if out.Len() != 0 {
			t.Errorf("%s: answered %q", name, out.Bytes())
		}
	}
}

// TestPackUnpack: every element size, round trip and zero extension.
func TestPackUnpack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []cltype.Kind{cltype.Char, cltype.Ushort, cltype.Half, cltype.Float, cltype.Uint, cltype.Double, cltype.Long} {
		in := make([]uint64, 1001)
		for i := range in {
			in[i] = r.Uint64()
		}
		buf := make([]uint64, len(in))
		pack(k, buf, in)
		out := make([]uint64, len(in))
		unpack(k, out, buf)
		for i := range in {
			if out[i] != in[i]&k.Mask() {
				t.Fatalf("%s: element %d: %#x, want %#x", k, i, out[i], in[i]&k.Mask())
			}
		}
	}
}

// TestCanonical: the batch's canonical results are digestspec.Canonical's.
func TestCanonical(t *testing.T) {
	for _, k := range []cltype.Kind{cltype.Int, cltype.Ulong, cltype.Half, cltype.Float, cltype.Double} {
		out := []uint64{0, 1, 0x7c01, 0x7fc00001, 0x7ff0000000000001, 0xfff8000000000000, k.Mask()}
		impl := []bool{false, true, false, false, false, false, true}
		canon := make([]uint64, len(out))
		canonical(k, canon, out, impl)
		for i, o := range out {
			if want := digestspec.Canonical(k, o&k.Mask(), impl[i]); o == o&k.Mask() && canon[i] != want {
				t.Errorf("%s %#x impl %v: %#x, want %#x", k, o, impl[i], canon[i], want)
			}
		}
	}
}

// TestImplTracker names the kinds of implementation-defined results.
func TestImplTracker(t *testing.T) {
	c, err := digest.Parse("convert_char", "float")
	if err != nil {
		t.Fatal(err)
	}
	tr := newImplTracker(c)
	for _, a := range []struct {
		in, got uint64
		width   int
	}{
		{0x7fc00000, 0, 4},     // NaN -> 0: clconv's saturated value
		{0x7fc00000, 0, 1},     // again, scalar
		{0x7f800000, 0x7f, 1},  // +inf -> MAX
		{0x43960000, 44, 2},    // 300 -> 44: the low bits of 300
		{0x43960000, 0x80, 16}, // 300 -> MIN
		{0xc3960000, 5, 1},     // -300 -> 5: other
	} {
		tr.add(a.in, a.got, a.width)
	}
	s := tr.summary(6)
	var got []string
	for _, b := range s.Behaviours {
		got = append(got, fmt.Sprintf("%s: %s x%d %v %s", b.Inputs, b.Result, b.Count, b.Widths, b.Device))
	}
	want := []string{
		"NaN: 0 (as clconv) x2 [1 4] 0x00 = 0",
		"+inf: MAX (as clconv) x1 [1] 0x7f = 127",
		"> MAX: MIN x1 [16] 0x80 = -128",
		"> MAX: low bits of the rounded value x1 [2] 0x2c = 44",
		"< MIN: other x1 [1] 0x05 = 5",
	}
	if !slices.Equal(got, want) || s.Observed != 6 {
		t.Errorf("behaviours (%d observed):\n%s\nwant\n%s", s.Observed, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
