package convert_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/digest"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

func randomFloats(n int) []float32 {
	r := rand.New(rand.NewPCG(1, 2))
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64() * 1000)
	}
	return s
}

// BenchmarkSlice measures a few hot pairs on 16 Ki elements (in L2) next to a
// copy of the same bytes and a plain Go loop, in the same run.
func BenchmarkSlice(b *testing.B) {
	const n = 1 << 14
	src := randomFloats(n)
	u8 := make([]uint8, n)
	i32 := make([]int32, n)
	h := make([]half.Half, n)
	cp := make([]byte, 5*n)
	cpSrc := make([]byte, 5*n)
	b.Run("copy-5B", func(b *testing.B) {
		b.SetBytes(5 * n)
		for b.Loop() {
			copy(cp, cpSrc)
		}
	})
	b.Run("plain-go-loop-float-uchar", func(b *testing.B) {
		b.SetBytes(5 * n)
		for b.Loop() {
			for i, x := range src {
				u8[i] = uint8(x) // not OpenCL semantics: only a speed baseline
			}
		}
	})
	for _, m := range round.Modes {
		b.Run(fmt.Sprintf("float-uchar-sat-%s", m), func(b *testing.B) {
			b.SetBytes(5 * n)
			for b.Loop() {
				convert.SliceSat(u8, src, m)
			}
		})
		b.Run(fmt.Sprintf("float-int-%s", m), func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				convert.Slice(i32, src, m)
			}
		})
		b.Run(fmt.Sprintf("float-half-%s", m), func(b *testing.B) {
			b.SetBytes(6 * n)
			for b.Loop() {
				convert.Slice(h, src, m)
			}
		})
		b.Run(fmt.Sprintf("int-float-%s", m), func(b *testing.B) {
			b.SetBytes(8 * n)
			for b.Loop() {
				convert.Slice(src, i32, m)
			}
		})
	}
}

// BenchmarkBranchFree measures the branch-free forms of double -> int and
// ulong -> float next to the branching forms they replaced (kept here as
// baselines) on 16 Ki of the digest's 64-bit samples, which mix in-range and
// out-of-range values and set the top bit of the ulongs at random. clconv runs
// in each SIMD tier: "clconv-go" is the pure Go loop (other architectures,
// purego builds, the tails of the SIMD kernels; for ulong also the AVX2 tier).
// docs/PERFORMANCE.md has the numbers.
func BenchmarkBranchFree(b *testing.B) {
	const n = 1 << 14
	d := make([]float64, n)
	u := make([]uint64, n)
	for i := range d {
		d[i] = math.Float64frombits(digest.Input(cltype.Double, uint64(i)))
		u[i] = digest.Input(cltype.Ulong, uint64(i))
	}
	i32 := make([]int32, n)
	f32 := make([]float32, n)
	// eachTier runs f as name/clconv-TIER in every SIMD tier.
	eachTier := func(name string, f func()) {
		for _, tier := range convert.SIMDTiers() {
			b.Run(name+"/clconv-"+tier, func(b *testing.B) {
				prev, _ := convert.SetSIMD(tier)
				defer convert.SetSIMD(prev)
				for b.Loop() {
					f()
				}
			})
		}
	}
	b.Run("double-int-sat-rtz/branching", func(b *testing.B) {
		for b.Loop() {
			for i, x := range d {
				i32[i] = branchingClampInt(math.Trunc(x))
			}
		}
	})
	eachTier("double-int-sat-rtz", func() { convert.SliceSat(i32, d, round.RTZ) })
	b.Run("ulong-float-rtz/branching", func(b *testing.B) {
		for b.Loop() {
			for i, x := range u {
				f32[i] = branchingUint64ToFloat32RTZ(x)
			}
		}
	})
	eachTier("ulong-float-rtz", func() { convert.Slice(f32, u, round.RTZ) })
}

// branchingClampInt is the clamp clconv generated before it used MINSD/MAXSD.
func branchingClampInt(r float64) int32 {
	if r >= 0x1p31 {
		return math.MaxInt32
	}
	if r >= -0x1p31 {
		return int32(r)
	}
	if r < -0x1p31 {
		return math.MinInt32
	}
	return 0
}

// branchingUint64ToFloat32RTZ is the uint64 -> float rtz clconv had before
// halving with a sticky bit: Go's conversions, which branch on the top bit.
func branchingUint64ToFloat32RTZ(a uint64) float32 {
	f := float32(a)
	if a>>24 == 0 {
		return f
	}
	if f >= 0x1p64 || uint64(f) > a {
		return math.Float32frombits(math.Float32bits(f) - 1)
	}
	return f
}

// TestBranchingBaselines keeps the benchmark's baselines honest: they give
// clconv's results on the benchmark's inputs.
func TestBranchingBaselines(t *testing.T) {
	for i := uint64(0); i < 1<<16; i++ {
		x := math.Float64frombits(digest.Input(cltype.Double, i))
		if got, want := branchingClampInt(math.Trunc(x)), convert.ToSat[int32](x, round.RTZ); got != want {
			t.Fatalf("double %v: baseline %d, clconv %d", x, got, want)
		}
		a := digest.Input(cltype.Ulong, i)
		if got, want := branchingUint64ToFloat32RTZ(a), convert.To[float32](a, round.RTZ); got != want {
			t.Fatalf("ulong %#x: baseline %v, clconv %v", a, got, want)
		}
	}
}
