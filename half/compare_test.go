package half_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/testvals"
)

// compareValues returns a few hundred halves: zeros, infinities, NaNs of
// both signs and several payloads, subnormals, boundaries and random ones.
func compareValues() []half.Half {
	hs := []half.Half{0, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x3c00, 0x3bff, 0x3c01, 0x7bff, 0xfbff,
		half.PosInf, half.NegInf, half.QNaN, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0xffff, 0x7d00, 0xfd55}
	r := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		hs = append(hs, half.Half(r.Uint32()))
	}
	return hs
}

// Compare and Less agree with cmp on the float64 values: every half against
// each of a few hundred.
func TestCompareLess(t *testing.T) {
	vals := compareValues()
	for b := 0; b < 1<<16; b += testvals.Stride(8) { // every 8th half when Sampled
		a := half.Half(b)
		fa := a.Float64()
		for _, h := range vals {
			fh := h.Float64()
			if got, want := half.Compare(a, h), cmp.Compare(fa, fh); got != want {
				t.Fatalf("Compare(%#04x, %#04x) = %d, want %d", b, uint16(h), got, want)
			}
			if got, want := half.Compare(h, a), cmp.Compare(fh, fa); got != want {
				t.Fatalf("Compare(%#04x, %#04x) = %d, want %d", uint16(h), b, got, want)
			}
			if got, want := half.Less(a, h), cmp.Less(fa, fh); got != want {
				t.Fatalf("Less(%#04x, %#04x) = %v, want %v", b, uint16(h), got, want)
			}
			if got, want := half.Less(h, a), cmp.Less(fh, fa); got != want {
				t.Fatalf("Less(%#04x, %#04x) = %v, want %v", uint16(h), b, got, want)
			}
		}
	}
}

// Sorting every half with Compare orders the float64 values as cmp does.
func TestCompareSort(t *testing.T) {
	hs := make([]half.Half, 1<<16)
	for i := range hs {
		hs[i] = half.Half(i)
	}
	slices.SortFunc(hs, half.Compare)
	if !slices.IsSortedFunc(hs, func(a, b half.Half) int { return cmp.Compare(a.Float64(), b.Float64()) }) {
		t.Fatal("not sorted numerically")
	}
	// 2046 NaNs, then -Inf, ..., +Inf.
	if !hs[2045].IsNaN() || hs[2046] != half.NegInf || hs[len(hs)-1] != half.PosInf {
		t.Fatalf("ends: %#04x %#04x %#04x", uint16(hs[2045]), uint16(hs[2046]), uint16(hs[len(hs)-1]))
	}
}

func TestIsFinite(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := half.Half(b)
		f := h.Float64()
		if got, want := h.IsFinite(), !math.IsInf(f, 0) && !math.IsNaN(f); got != want {
			t.Fatalf("%#04x.IsFinite() = %v, want %v", b, got, want)
		}
	}
}
