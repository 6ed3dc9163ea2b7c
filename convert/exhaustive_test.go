package convert_test

import (
	"bufio"
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
	"github.com/clconv/clconv/digest"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/round"
)

var (
	long    = flag.Bool("long", false, "run the exhaustive 2^32-input tests")
	exSrc   = flag.String("exhaustive.src", "float,int,uint", "source types for TestExhaustive")
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
			out[i].names = append(out[i].names, op.Name())
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
		for r := convert.Default; r <= convert.RTN; r++ {
			ops = append(ops, convert.Op{Dst: cltype.Scalar(dst), Sat: sat, Round: r})
		}
	}
	return ops
}

// TestExhaustive pushes all 2^32 inputs of the 32-bit sources through every
// conversion's fast kernel and through the integer-only reference, requires
// bit-identical results, and records the digests (ORACLES.md) of the
// reference's outputs. Run with -long; it uses every core.
func TestExhaustive(t *testing.T) {
	if !*long {
		t.Skip("exhaustive 2^32-input test: run with -long")
	}
	var lines []string
	for _, name := range strings.Split(*exSrc, ",") {
		src, err := cltype.ParseKind(name)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, exhaustive(t, src)...)
	}
	if *exOut != "" {
		if err := os.WriteFile(*exOut, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func exhaustive(t *testing.T, src cltype.Kind) []string {
	convs := exConversions(src)
	nChunks := digest.Chunks(src)
	if *exLimit > 0 {
		nChunks = min(nChunks, *exLimit)
	}
	sums := make([][]uint64, len(convs)) // per conversion, per chunk
	impl := make([]atomic.Uint64, len(convs))
	for i := range sums {
		sums[i] = make([]uint64, nChunks)
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
			in := make([]uint64, batch)
			out := make([]uint64, batch)
			bad := make([]bool, batch)
			inB := unsafe.Slice((*byte)(unsafe.Pointer(&in[0])), batch*8)
			outB := unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), batch*8)
			for {
				k := int(next.Add(1)) - 1
				if k >= nChunks {
					return
				}
				lo := uint64(k) * digest.ChunkSize
				for base := lo; base < lo+digest.ChunkSize; base += batch {
					src32 := unsafe.Slice((*uint32)(unsafe.Pointer(&in[0])), batch)
					for j := range src32 {
						src32[j] = uint32(base) + uint32(j)
					}
					for ci, c := range convs {
						dst := outB[:batch*c.dst.Size()]
						n, err := convert.BytesFlag(c.dst, src, dst, inB[:batch*4], c.m, c.sat, bad)
						if err != nil {
							panic(err)
						}
						impl[ci].Add(uint64(n))
						var sum uint64
						for j := 0; j < batch; j++ {
							x := base + uint64(j)
							want, wantImpl := ref.Convert(c.dst, src, x, c.m, c.sat)
							got := load(outB, c.dst, j)
							gotImpl := src.IsFloat() && c.dst.IsInteger() && bad[j]
							if got != want || gotImpl != wantImpl {
								if failures.Add(1) <= 20 {
									t.Errorf("%s(%s 0x%08x): fast %#x (impl %v), reference %#x (impl %v)", c.names[0], src, x, got, gotImpl, want, wantImpl)
								}
							}
							sum += digest.Term(x, digest.Canonical(c.dst, want, wantImpl))
						}
						sums[ci][k] = sum
					}
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%s: %d conversions x %d chunks of 2^24 inputs in %v, %d mismatches", src, len(convs), nChunks, time.Since(start).Round(time.Second), failures.Load())
	var lines []string
	for ci, c := range convs {
		var total uint64
		for _, s := range sums[ci] {
			total += s
		}
		for _, name := range c.names {
			nImpl := uint64(0)
			if strings.Count(name, "_sat") == 0 {
				nImpl = impl[ci].Load()
			}
			nNaN := "-"
			lines = append(lines, fmt.Sprintf("%s\t%s\t%d\t%016x\t%d\t%s", name, src, uint64(nChunks)*digest.ChunkSize, total, nImpl, nNaN))
		}
	}
	return lines
}

func load(b []byte, k cltype.Kind, j int) uint64 {
	p := unsafe.Pointer(&b[0])
	switch k.Size() {
	case 1:
		return uint64(*(*uint8)(unsafe.Add(p, j)))
	case 2:
		return uint64(*(*uint16)(unsafe.Add(p, 2*j)))
	case 4:
		return uint64(*(*uint32)(unsafe.Add(p, 4*j)))
	}
	return *(*uint64)(unsafe.Add(p, 8*j))
}

// TestRecordedDigests checks `digest.Compute` (the fast kernels) against the
// digests the exhaustive run recorded, on a few chunks of each (full digests
// when -long is given).
func TestRecordedDigests(t *testing.T) {
	f, err := os.Open("testdata/exhaustive_digests.tsv")
	if err != nil {
		t.Skip("no recorded digests yet")
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 4 {
			continue
		}
		n++
		if !*long && n%23 != 0 {
			continue
		}
		c, err := digest.Parse(fs[0], fs[1])
		if err != nil {
			t.Fatal(err)
		}
		if !*long {
			continue // the full digest takes seconds per conversion
		}
		r := digest.Compute(c, digest.Options{})
		if got := fmt.Sprintf("%016x", r.Digest()); got != fs[3] {
			t.Errorf("digest %s %s = %s, recorded %s", fs[0], fs[1], got, fs[3])
		}
	}
}
