package convert_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// checker compares the fast paths with the reference on a list of inputs of
// one source kind: the scalar path (Bits) and the slice kernels (BytesFlag),
// which are generated separately, with one loop per rounding mode.
type checker struct {
	t      *testing.T
	fails  int
	in     []uint64
	out    []uint64
	bad    []bool
	inB    []byte
	outB   []byte
	checks int
}

func newChecker(t *testing.T, n int) *checker {
	c := &checker{t: t, in: make([]uint64, n), out: make([]uint64, n), bad: make([]bool, n)}
	c.inB = unsafe.Slice((*byte)(unsafe.Pointer(&c.in[0])), 8*n)
	c.outB = unsafe.Slice((*byte)(unsafe.Pointer(&c.out[0])), 8*n)
	return c
}

func (c *checker) errorf(format string, args ...any) {
	c.t.Helper()
	c.fails++
	if c.fails <= 20 {
		c.t.Errorf(format, args...)
	} else if c.fails == 21 {
		c.t.Error("too many mismatches")
	}
}

// run checks every input of vals (bit patterns of src) for every destination,
// mode and saturation.
func (c *checker) run(src cltype.Kind, vals []uint64) {
	c.t.Helper()
	for len(vals) > 0 {
		n := min(len(vals), len(c.in))
		c.batch(src, vals[:n])
		vals = vals[n:]
	}
}

func (c *checker) batch(src cltype.Kind, vals []uint64) {
	n := len(vals)
	for j, v := range vals {
		convert.StoreBits(c.inB, src, j, v)
	}
	for _, dst := range cltype.Scalars {
		for _, m := range round.Modes {
			for _, sat := range []bool{false, true} {
				if sat && dst.IsFloat() {
					continue
				}
				k, err := kernels.BytesFlag(dst, src, c.outB[:n*dst.Size()], c.inB[:n*src.Size()], m, sat, c.bad)
				if err != nil {
					c.t.Fatal(err)
				}
				nImpl := 0
				for j, v := range vals {
					want, wantImpl := ref.Convert(dst, src, v, m, sat)
					got, gotImpl := convert.Bits(dst, src, v, m, sat)
					c.checks++
					if got != want || gotImpl != wantImpl {
						c.errorf("Bits %s: %s 0x%x %s sat=%v: got %#x impl=%v, reference %#x impl=%v", dst, src, v, m, sat, got, gotImpl, want, wantImpl)
					}
					// BytesFlag marks the inputs that do not fit, with or
					// without sat: the reference's non-saturated impl flag.
					_, outOfRange := ref.Convert(dst, src, v, m, false)
					sl := convert.LoadBits(c.outB, dst, j)
					flagged := src.IsFloat() && dst.IsInteger() && c.bad[j]
					if sl != want || flagged != outOfRange {
						c.errorf("slice kernel %s: %s 0x%x %s sat=%v: got %#x flagged=%v, reference %#x out of range=%v", dst, src, v, m, sat, sl, flagged, want, outOfRange)
					}
					if flagged {
						nImpl++
					}
				}
				if k != nImpl {
					c.errorf("BytesFlag %s->%s %s: count %d, flags %d", src, dst, m, k, nImpl)
				}
			}
		}
	}
}

// Every 8- and 16-bit source value, every destination, mode and saturation.
func TestSmallSourcesExhaustive(t *testing.T) {
	for _, src := range cltype.Scalars {
		if src.Bits() > 16 {
			continue
		}
		t.Run(src.String(), func(t *testing.T) {
			t.Parallel()
			// Sampled (qemu, race): every 4th 16-bit pattern, every 8-bit one.
			step := 1
			if src.Bits() == 16 {
				step = testvals.Stride(4)
			}
			var vals []uint64
			for i := 0; i < 1<<src.Bits(); i += step {
				vals = append(vals, uint64(i))
			}
			c := newChecker(t, 4096)
			c.run(src, vals)
			t.Logf("%d checks", c.checks)
		})
	}
}

// Each type's edge values (limits and their neighbours, precision limits,
// zeros, infinities, NaNs with payloads, subnormals, ties).
func TestEdges(t *testing.T) {
	for _, src := range cltype.Scalars {
		t.Run(src.String(), func(t *testing.T) {
			t.Parallel()
			c := newChecker(t, 4096)
			c.run(src, testvals.Edges(src))
		})
	}
}

// 10^5 random inputs per pair (a quarter uniform bit patterns, the rest
// biased toward the boundaries), fixed seed; each input goes through every
// destination, so every pair sees all of them in every mode.
func TestRandom(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 10000
	}
	for _, src := range cltype.Scalars {
		t.Run(src.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(1, uint64(src)))
			vals := make([]uint64, n)
			for i := range vals {
				vals[i] = testvals.Random(r, src)
			}
			c := newChecker(t, 4096)
			c.run(src, vals)
		})
	}
}

// Slice kernels at every length 0..130 and at unaligned element offsets agree
// with the scalar path, and never write past the converted elements.
func TestSliceLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, src := range cltype.Scalars {
		for _, dst := range cltype.Scalars {
			all := make([]uint64, 140)
			for i := range all {
				all[i] = testvals.Random(r, src)
			}
			for n := 0; n <= 130; n++ {
				off := n % 5
				vals := all[off : off+n]
				inB := make([]byte, (off+n+1)*8)
				outB := make([]byte, (off+n+1)*8)
				for i := range outB {
					outB[i] = 0xa5
				}
				for j, v := range vals {
					convert.StoreBits(inB[off*src.Size():], src, j, v)
				}
				m := round.Modes[n%4]
				sat := n%3 == 0 && dst.IsInteger()
				if err := convert.Bytes(dst, src, outB[off*dst.Size():(off+n)*dst.Size()], inB[off*src.Size():(off+n)*src.Size()], m, sat); err != nil {
					t.Fatal(err)
				}
				for j, v := range vals {
					want, _ := convert.Bits(dst, src, v, m, sat)
					if got := convert.LoadBits(outB[off*dst.Size():], dst, j); got != want {
						t.Fatalf("%s->%s n=%d j=%d: got %#x want %#x", src, dst, n, j, got, want)
					}
				}
				for i := (off + n) * dst.Size(); i < len(outB); i++ {
					if outB[i] != 0xa5 {
						t.Fatalf("%s->%s n=%d: wrote byte %d past the end", src, dst, n, i)
					}
				}
				for i := 0; i < off*dst.Size(); i++ {
					if outB[i] != 0xa5 {
						t.Fatalf("%s->%s n=%d: wrote byte %d before the start", src, dst, n, i)
					}
				}
			}
		}
	}
}

func ExampleBits() {
	// convert_uchar_sat_rte(254.5f): a tie, rounded to even.
	out, _ := convert.Bits(cltype.Uchar, cltype.Float, 0x437e8000, round.RTE, true)
	fmt.Println(out)
	// Output: 254
}
