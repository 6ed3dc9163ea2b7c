package digest_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/internal/testvals"
)

var update = flag.Bool("update", false, "rewrite testdata/crossport.txt from this host's results")

// crossPort is the fixed list of the cross-port test: at least one conversion
// per source type, with chunks (2^24 inputs each; chunk k of a 32-bit source
// holds the inputs whose top byte is k) chosen to hold NaNs, infinities,
// overflow, ties and subnormals. The 64-bit sources' chunks are samples of
// every exponent or bit length (digestspec.Input), which include the 47- and
// 48-bit integers that Go's own int64->float32 rounds wrongly on 32-bit ports.
var crossPort = []struct{ chunks, conv, src string }{
	{"", "convert_short_sat", "char"},
	{"", "convert_half_rtp", "char"},
	{"", "convert_half", "uchar"},
	{"", "convert_char_sat_rte", "short"},
	{"", "convert_half_rtz", "short"},
	{"", "convert_uchar_sat", "ushort"},
	{"", "convert_half_rtn", "ushort"},
	{"", "convert_float", "half"},
	{"", "convert_double", "half"},
	{"", "convert_int_sat_rte", "half"},
	{"", "convert_uchar", "half"},
	// int: 2^30..2^30+2^24, where float rounds (ties included); 0..2^24, where
	// half overflows and rounds.
	{"64", "convert_float_rte", "int"},
	{"0", "convert_half_rtp", "int"},
	// uint: the top 2^24 values, which round up to 2^32 in rtp and rte.
	{"255", "convert_float_rtn", "uint"},
	// float: [2, 8) with its .5 ties; 2^127 up with +inf and the positive
	// NaNs; 128..512 overflowing uchar (implementation-defined); half's
	// overflow threshold 65520 and its subnormal range; the negative NaNs and
	// -inf, payloads widened to double.
	{"64,127", "convert_int_sat_rte", "float"},
	{"67", "convert_uchar", "float"},
	{"51,71", "convert_half", "float"},
	{"255", "convert_double", "float"},
	// 64-bit sources: every chunk samples every exponent or bit length, NaNs
	// and infinities included.
	{"0", "convert_float_rtz", "double"},
	{"2", "convert_long_sat_rtp", "double"},
	{"0", "convert_float", "long"},
	{"3", "convert_half", "long"},
	{"1", "convert_float_rtp", "ulong"},
	{"5", "convert_int_sat", "ulong"},
}

const crossPortFile = "testdata/crossport.txt"

// TestCrossPort computes the digests of crossPort and compares them with the
// lines recorded in testdata/crossport.txt (on amd64, where the exhaustive
// tests prove every conversion): every Go port must print the same lines.
// scripts/ports.sh runs it under qemu-user and node. go test -run TestCrossPort
// -update rewrites the file.
func TestCrossPort(t *testing.T) {
	var out strings.Builder
	out.WriteString("# The lines `clconv digest` prints for these conversions, on every Go port.\n")
	out.WriteString("# Recorded by `go test ./cmd/clconv/internal/digest -run TestCrossPort -update`; each line follows its command.\n")
	// Under the race detector, every third conversion (the others' lines are
	// taken as recorded): the digests' goroutines are the same, and the plain
	// run and every port compute them all.
	var recorded []string
	if testvals.Race() && !*update {
		var err error
		if recorded, err = readLines(crossPortFile); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range crossPort {
		if recorded != nil && i%3 != 0 && 2+2*i+1 < len(recorded) {
			fmt.Fprintf(&out, "%s\n%s\n", recorded[2+2*i], recorded[2+2*i+1])
			continue
		}
		conv, err := digest.Parse(c.conv, c.src)
		if err != nil {
			t.Fatal(err)
		}
		var o digest.Options
		args := c.conv + " " + c.src
		if c.chunks != "" {
			if o.Chunks, err = digest.ParseChunks(c.chunks, digestspec.Chunks(conv.Src)); err != nil {
				t.Fatal(err)
			}
			args = "--chunks " + c.chunks + " " + args
		}
		fmt.Fprintf(&out, "# clconv digest %s\n%s\n", args, digest.Compute(conv, o).Line())
	}
	if *update {
		if err := os.WriteFile(crossPortFile, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := readLines(crossPortFile)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%s has %d lines, the list makes %d: run go test -run TestCrossPort -update on amd64", crossPortFile, len(want), len(got))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s:%d (%s):\n got %s\nwant %s", crossPortFile, i+1, want[max(i-1, 0)], got[i], want[i])
		}
	}
}

func readLines(name string) ([]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}

// TestCrossPortReference recomputes every chunk digest of testdata/crossport.txt
// with the integer-only reference (internal/ref) instead of the conversion
// kernels, so that the recorded lines are proven, not merely repeated.
func TestCrossPortReference(t *testing.T) {
	if testing.Short() {
		t.Skip("recomputes 15 chunks of 2^24 inputs with the scalar reference; runs without -short")
	}
	want, err := readLines(crossPortFile)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]string{} // command -> line
	for i := 0; i+1 < len(want); i++ {
		if cmd, ok := strings.CutPrefix(want[i], "# clconv digest "); ok {
			recorded[cmd] = want[i+1]
		}
	}
	for _, c := range crossPort {
		conv, err := digest.Parse(c.conv, c.src)
		if err != nil {
			t.Fatal(err)
		}
		cmd := c.conv + " " + c.src
		chunks := make([]int, digestspec.Chunks(conv.Src))
		for k := range chunks {
			chunks[k] = k
		}
		if c.chunks != "" {
			cmd = "--chunks " + c.chunks + " " + cmd
			chunks, _ = digest.ParseChunks(c.chunks, len(chunks))
		}
		line, ok := recorded[cmd]
		if !ok {
			t.Errorf("%s: not recorded", cmd)
			continue
		}
		if got := referenceLine(conv, chunks); got != line {
			t.Errorf("clconv digest %s:\nreference %s\n recorded %s", cmd, got, line)
		}
	}
}

// referenceLine computes a digest.Result from internal/ref, chunks in parallel.
func referenceLine(c digest.Conversion, chunks []int) string {
	n := digestspec.N(c.Src)
	r := &digest.Result{Conversion: c, N: n, Chunks: make([]uint64, digestspec.Chunks(c.Src)), Done: make([]bool, digestspec.Chunks(c.Src))}
	dk, m := c.Op.Dst.Kind, c.Mode()
	type part struct{ sum, impl, nan uint64 }
	parts := make([]part, len(chunks))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for j, k := range chunks {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			lo := uint64(k) * digestspec.ChunkSize
			hi := min(lo+digestspec.ChunkSize, n)
			var p part
			for i := lo; i < hi; i++ {
				out, impl := ref.Convert(dk, c.Src, digestspec.Input(c.Src, i), m, c.Op.Sat)
				if impl {
					p.impl++
				} else if digestspec.IsNaN(dk, out) {
					p.nan++
				}
				p.sum += digestspec.Term(i, digestspec.Canonical(dk, out, impl))
			}
			parts[j] = p
		}()
	}
	wg.Wait()
	for j, k := range chunks {
		r.Chunks[k], r.Done[k] = parts[j].sum, true
		r.Impl += parts[j].impl
		r.NaN += parts[j].nan
	}
	return r.Line()
}
