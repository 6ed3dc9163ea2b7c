package kernels_test

import (
	"slices"
	"testing"

	"github.com/clconv/clconv/cltype"
	_ "github.com/clconv/clconv/convert" // sets BytesFlag
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

func TestTiers(t *testing.T) {
	tiers := kernels.SIMDTiers()
	if tiers[0] != kernels.Best().String() || tiers[len(tiers)-1] != "go" || kernels.SIMD() != tiers[0] {
		t.Fatalf("tiers %v, best %s, in use %s", tiers, kernels.Best(), kernels.SIMD())
	}
	for _, name := range tiers {
		prev, err := kernels.SetSIMD(name)
		if err != nil || kernels.SIMD() != name || kernels.Level().String() != name {
			t.Errorf("SetSIMD(%s): %v; in use %s", name, err, kernels.SIMD())
		}
		kernels.SetSIMD(prev)
	}
	if prev, err := kernels.SetSIMD("sse9"); err == nil || prev != kernels.SIMD() {
		t.Errorf("SetSIMD(sse9) = %q, %v", prev, err)
	}
	prev := kernels.SetLevel(kernels.Go)
	if kernels.SIMD() != "go" {
		t.Error("SetLevel(Go) did not select go")
	}
	kernels.SetLevel(prev)
}

func TestSIMDPairs(t *testing.T) {
	// Every ordered pair of the 11 types but the identities, once each.
	ps := kernels.SIMDPairs()
	seen := map[kernels.Pair]bool{}
	for _, p := range ps {
		if p.Src == p.Dst || seen[p] || !slices.Contains(cltype.Scalars, p.Src) || !slices.Contains(cltype.Scalars, p.Dst) {
			t.Errorf("SIMDPairs lists %v", p)
		}
		seen[p] = true
	}
	if len(ps) != 110 || !seen[kernels.Pair{Src: cltype.Char, Dst: cltype.Half}] {
		t.Errorf("SIMDPairs: %d pairs: %v", len(ps), ps)
	}
}

func TestBytesFlag(t *testing.T) {
	src := []byte{0, 0, 0x80, 0x7f, 0, 0, 0x80, 0x3f} // +inf, 1.0
	dst := make([]byte, 2)
	bad := make([]bool, 2)
	n, err := kernels.BytesFlag(cltype.Uchar, cltype.Float, dst, src, round.RTE, false, bad)
	if err != nil || n != 1 || !bad[0] || bad[1] || dst[0] != 255 || dst[1] != 1 {
		t.Errorf("BytesFlag = %d, %v; flags %v, dst %v", n, err, bad, dst)
	}
}
