package ref_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/bigref"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// mismatches reports disagreements between ref and bigref, stopping a test
// after enough examples to debug from.
type mismatches struct {
	t *testing.T
	n int
}

const maxReported = 20

// check converts c with both references, reports any difference and returns
// whether they agreed.
func (f *mismatches) check(c conv) bool {
	r, ri := ref.Convert(c.dst, c.src, c.bits, c.m, c.sat)
	b, bi := bigref.Convert(c.dst, c.src, c.bits, c.m, c.sat)
	if r == b && ri == bi {
		return true
	}
	f.fail(fmt.Sprintf("%v: ref 0x%x (implDefined %v), bigref 0x%x (implDefined %v)", c, r, ri, b, bi))
	return false
}

// satIgnored checks that ref ignores sat for a floating destination, so the
// slow oracle need only be asked once.
func (f *mismatches) satIgnored(c conv) {
	if !c.dst.IsFloat() {
		return
	}
	r0, i0 := ref.Convert(c.dst, c.src, c.bits, c.m, false)
	r1, i1 := ref.Convert(c.dst, c.src, c.bits, c.m, true)
	if r0 != r1 || i0 || i1 {
		f.fail(fmt.Sprintf("%v: _sat changed a floating result: 0x%x (%v) vs 0x%x (%v)", c, r0, i0, r1, i1))
	}
}

func (f *mismatches) fail(msg string) {
	f.t.Helper()
	f.n++
	f.t.Error(msg)
	if f.n >= maxReported {
		f.t.Fatalf("stopping after %d mismatches", f.n)
	}
}

// sats lists the sat flags worth asking the oracle about for dst: both for
// integer destinations, one for floating ones (where sat is ignored).
func sats(dst cltype.Kind) []bool {
	if dst.IsFloat() {
		return []bool{false}
	}
	return []bool{false, true}
}

// checkAll runs one source value through every mode and sat flag to dst.
func (f *mismatches) checkAll(dst, src cltype.Kind, bits uint64) {
	for _, m := range round.Modes {
		for _, sat := range sats(dst) {
			c := conv{dst, src, bits, m, sat}
			f.check(c)
			f.satIgnored(c)
		}
	}
}

// TestExhaustiveSmall pushes every bit pattern of the 8- and 16-bit sources
// through every destination, mode and sat flag.
func TestExhaustiveSmall(t *testing.T) {
	for _, src := range []cltype.Kind{cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Half} {
		for di, dst := range cltype.Scalars {
			t.Run(fmt.Sprintf("%v_to_%v", src, dst), func(t *testing.T) {
				t.Parallel()
				f := &mismatches{t: t}
				// Sampled (under emulation and the race detector), every
				// 97th 16-bit pattern, from an offset that differs by
				// destination (the plain run checks them all).
				step, b := uint64(1), uint64(0)
				if src.Bits() == 16 && testvals.Sampled() {
					step, b = 97, uint64(di)
				}
				for ; b <= src.Mask(); b += step {
					f.checkAll(dst, src, b)
				}
			})
		}
	}
}

// TestEdges runs each source type's edge values through every destination,
// mode and sat flag.
//
// Sampled (under emulation and the race detector), each pair checks every 8th
// edge value, from an offset that differs by destination, so that every edge
// value still meets one or two of the destinations.
func TestEdges(t *testing.T) {
	for _, src := range cltype.Scalars {
		vals := testvals.Edges(src)
		for di, dst := range cltype.Scalars {
			t.Run(fmt.Sprintf("%v_to_%v", src, dst), func(t *testing.T) {
				t.Parallel()
				f := &mismatches{t: t}
				step := testvals.Stride(8)
				for i := di % step; i < len(vals); i += step {
					f.checkAll(dst, src, vals[i])
				}
			})
		}
	}
}

// randomPerPair is how many random inputs each (src, dst) pair gets. Each
// input is checked in one (mode, sat) combination, cycling through all of
// them, to keep the math/big oracle within the time budget.
const randomPerPair = 100_000

// TestRandom checks random and interesting-biased inputs for every pair.
func TestRandom(t *testing.T) {
	n := randomPerPair
	if testing.Short() {
		n = testvals.Sample(n/10, 12)
	}
	for si, src := range cltype.Scalars {
		for di, dst := range cltype.Scalars {
			t.Run(fmt.Sprintf("%v_to_%v", src, dst), func(t *testing.T) {
				t.Parallel()
				r := rand.New(rand.NewPCG(0x636c636f6e76, uint64(si*16+di)))
				f := &mismatches{t: t}
				for i := range n {
					c := conv{dst, src, testvals.Random(r, src), round.Mode(i % 4), (i/4)%2 == 1}
					f.check(c)
					f.satIgnored(c)
				}
			})
		}
	}
}
