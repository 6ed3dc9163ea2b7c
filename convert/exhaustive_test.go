package convert_test

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/round"
)

var (
	long    = flag.Bool("long", false, "run the exhaustive 2^32-input tests")
	exSrc   = flag.String("exhaustive.src", "float,int,uint", "source types for TestExhaustive (64-bit types use the 2^32 samples of ORACLES.md)")
	exOut   = flag.String("exhaustive.out", "", "write the digests of TestExhaustive to this file")
	exLimit = flag.Int("exhaustive.chunks", 0, "check only the first N chunks of 2^24 inputs (0: all)")
)

// exConv is one conversion as the exhaustive test runs it. Conversions whose
// results cannot differ share a run: integer->integer kernels ignore the
// rounding mode (the generator gives them no mode parameter), and for a
// floating source a non-saturated integer conversion returns the saturated
// value and flags the implementation-defined inputs.
type exConv struct {
	dst   cltype.Kind
	m     round.Mode
	sat   bool
	names []string // every convert_ name with these results
	// For a floating source and an integer destination, the _sat names:
	// the same results, but their digest has no implementation-defined marker.
	satNames []string
}

func exConversions(src cltype.Kind) []*exConv {
	var out []*exConv
	for _, d := range cltype.Scalars {
		for _, op := range allOps(d) {
			m := op.Mode(round.RTE)
			sat := op.Sat
			if src.IsInteger() && d.IsInteger() {
				m = round.RTE
			}
			if src.IsFloat() && d.IsInteger() {
				sat = false
			}
			i := slices.IndexFunc(out, func(c *exConv) bool { return c.dst == d && c.m == m && c.sat == sat })
			if i < 0 {
				out = append(out, &exConv{dst: d, m: m, sat: sat})
				i = len(out) - 1
			}
			if src.IsFloat() && d.IsInteger() && op.Sat {
				out[i].satNames = append(out[i].satNames, op.Name())
			} else {
				out[i].names = append(out[i].names, op.Name())
			}
		}
	}
	return out
}

// allOps lists every scalar convert_ function to dst.
func allOps(dst cltype.Kind) []convert.Op {
	var ops []convert.Op
	sats := []bool{false}
	if dst.IsInteger() {
		sats = append(sats, true)
	}
	for _, sat := range sats {
		for r := convert.NoSuffix; r <= convert.SuffixRTN; r++ {
			ops = append(ops, convert.Op{Dst: cltype.Scalar(dst), Sat: sat, Round: r})
		}
	}
	return ops
}

// TestExhaustive pushes every input of each source (all 2^8 or 2^16 bit
// patterns, all 2^32 for 32-bit sources, the 2^32 samples of ORACLES.md for
// 64-bit ones) through every conversion's fast kernel and through the
// integer-only reference, requires bit-identical results, and computes the
// digests (ORACLES.md) of the reference's outputs, which must equal those
// recorded in testdata/exhaustive_digests.tsv. Without -long it covers the 8-
// and 16-bit sources; with -long, the sources named by -exhaustive.src too.
// It uses every core.
func TestExhaustive(t *testing.T) {
	srcs := []string{"char", "uchar", "short", "ushort", "half"}
	if *long {
		srcs = append(srcs, strings.Split(*exSrc, ",")...)
	}
	recorded := readRecorded(t)
	var lines []string
	for _, name := range srcs {
		src, err := cltype.ParseKind(name)
		if err != nil {
			t.Fatal(err)
		}
		got := exhaustive(t, src)
		for _, l := range got {
			key := strings.Join(strings.Split(l, "\t")[:2], "\t")
			if want, ok := recorded[key]; ok && want != l && *exLimit == 0 {
				t.Errorf("recorded %q\n     now %q", want, l)
			}
		}
		lines = append(lines, got...)
	}
	if *exOut != "" {
		if err := os.WriteFile(*exOut, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const recordedFile = "testdata/exhaustive_digests.tsv"

// readRecorded maps "conversion\tsource" to the recorded line.
func readRecorded(t *testing.T) map[string]string {
	m := map[string]string{}
	data, err := os.ReadFile(recordedFile)
	if err != nil {
		t.Logf("no recorded digests: %v", err)
		return m
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(l, "\t")
		if len(f) == 6 {
			m[f[0]+"\t"+f[1]] = l
		}
	}
	return m
}

func exhaustive(t *testing.T, src cltype.Kind) []string {
	convs := exConversions(src)
	nChunks := digestspec.Chunks(src)
	chunk := min(uint64(digestspec.ChunkSize), digestspec.N(src))
	if *exLimit > 0 {
		nChunks = min(nChunks, *exLimit)
	}
	sums := make([][]uint64, len(convs))    // per conversion, per chunk
	satSums := make([][]uint64, len(convs)) // the same for satNames
	impl := make([]atomic.Uint64, len(convs))
	nans := make([]atomic.Uint64, len(convs))
	for i := range sums {
		sums[i] = make([]uint64, nChunks)
		satSums[i] = make([]uint64, nChunks)
	}
	var failures atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			const batch = 1 << 14
			cnt := int(min(batch, chunk))
			in := make([]uint64, batch)
			inStore := make([]uint64, batch)
			out := make([]uint64, batch)
			bad := make([]bool, batch)
			inB := unsafe.Slice((*byte)(unsafe.Pointer(&inStore[0])), batch*8)
			outB := unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), batch*8)
			for {
				k := int(next.Add(1)) - 1
				if k >= nChunks {
					return
				}
				lo := uint64(k) * chunk
				for base := lo; base < lo+chunk; base += uint64(cnt) {
					for j := 0; j < cnt; j++ {
						in[j] = digestspec.Input(src, base+uint64(j))
						convert.StoreBits(inB, src, j, in[j])
					}
					for ci, c := range convs {
						dst := outB[:cnt*c.dst.Size()]
						n, err := kernels.BytesFlag(c.dst, src, dst, inB[:cnt*src.Size()], c.m, c.sat, bad)
						if err != nil {
							panic(err)
						}
						impl[ci].Add(uint64(n))
						var sum, satSum uint64
						for j := 0; j < cnt; j++ {
							x := in[j]
							want, wantImpl := ref.Convert(c.dst, src, x, c.m, c.sat)
							got := convert.LoadBits(outB, c.dst, j)
							gotImpl := src.IsFloat() && c.dst.IsInteger() && bad[j]
							if got != want || gotImpl != wantImpl {
								if failures.Add(1) <= 20 {
									t.Errorf("%s(%s %#x): fast %#x (impl %v), reference %#x (impl %v)", c.names[0], src, x, got, gotImpl, want, wantImpl)
								}
							}
							if digestspec.IsNaN(c.dst, want) {
								nans[ci].Add(1)
							}
							sum += digestspec.Term(base+uint64(j), digestspec.Canonical(c.dst, want, wantImpl))
							if len(c.satNames) > 0 {
								satSum += digestspec.Term(base+uint64(j), digestspec.Canonical(c.dst, want, false))
							}
						}
						sums[ci][k] += sum
						satSums[ci][k] += satSum
					}
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%s: %d conversions x %d inputs in %v, %d mismatches", src, len(convs), uint64(nChunks)*chunk, time.Since(start).Round(time.Second), failures.Load())
	var lines []string
	for ci, c := range convs {
		var total, satTotal uint64
		for k := range sums[ci] {
			total += sums[ci][k]
			satTotal += satSums[ci][k]
		}
		line := func(name string, sum, nImpl uint64) string {
			return fmt.Sprintf("%s\t%s\t%d\t%016x\t%d\t%d", name, src, uint64(nChunks)*chunk, sum, nImpl, nans[ci].Load())
		}
		for _, name := range c.names {
			lines = append(lines, line(name, total, impl[ci].Load()))
		}
		for _, name := range c.satNames {
			lines = append(lines, line(name, satTotal, 0))
		}
	}
	return lines
}
