package convert_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/kernels"
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
		d[i] = math.Float64frombits(digestspec.Input(cltype.Double, uint64(i)))
		u[i] = digestspec.Input(cltype.Ulong, uint64(i))
	}
	i32 := make([]int32, n)
	f32 := make([]float32, n)
	// eachTier runs f as name/clconv-TIER in every SIMD tier.
	eachTier := func(name string, f func()) {
		for _, tier := range kernels.SIMDTiers() {
			b.Run(name+"/clconv-"+tier, func(b *testing.B) {
				prev, _ := kernels.SetSIMD(tier)
				defer kernels.SetSIMD(prev)
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
		x := math.Float64frombits(digestspec.Input(cltype.Double, i))
		if got, want := branchingClampInt(math.Trunc(x)), convert.ToSat[int32](x, round.RTZ); got != want {
			t.Fatalf("double %v: baseline %d, clconv %d", x, got, want)
		}
		a := digestspec.Input(cltype.Ulong, i)
		if got, want := branchingUint64ToFloat32RTZ(a), convert.To[float32](a, round.RTZ); got != want {
			t.Fatalf("ulong %#x: baseline %v, clconv %v", a, got, want)
		}
	}
}

// inRangeInputs returns n random bit patterns of kind src, uniform over the
// middle 98% of the values that convert to dst without an error (in every
// mode), so that SliceChecked finds nothing to report and no branch can learn
// the data.
func inRangeInputs(src, dst cltype.Kind, n int) []uint64 {
	limit := func(k cltype.Kind) (lo, hi float64) {
		switch k {
		case cltype.Half:
			return -65000, 65000
		case cltype.Float:
			return -3e38, 3e38
		case cltype.Double:
			return -1e308, 1e308
		}
		return float64(k.MinInt()), float64(k.MaxUint())
	}
	slo, shi := limit(src)
	dlo, dhi := limit(dst)
	lo, hi := max(slo, dlo)*0.98, min(shi, dhi)*0.98
	r := rand.New(rand.NewPCG(uint64(src), uint64(dst)))
	out := make([]uint64, n)
	for i := range out {
		x := lo + (hi-lo)*r.Float64()
		out[i], _ = convert.Bits(src, cltype.Double, math.Float64bits(x), round.RTZ, true)
	}
	return out
}

// BenchmarkChecked measures SliceChecked against SliceSat in the same run on
// every hot pair (those with SIMD kernels), in rte, on 1 Mi random elements
// that all convert without an error:
//
//	go test ./convert -run - -bench Checked -count 5 | benchstat -col /check -
func BenchmarkChecked(b *testing.B) {
	const n = 1 << 20
	for _, p := range kernels.SIMDPairs() {
		b.Run(fmt.Sprintf("%s-%s", p.Src, p.Dst), func(b *testing.B) {
			typedPair(p.Src, p.Dst).bench(b, inRangeInputs(p.Src, p.Dst, n), round.RTE)
		})
	}
}

// BenchmarkNamedTypes measures the hot slice paths and a scalar conversion
// with Go's own types and with types defined on them in the same run: a
// generic instantiation is shared by types with the same underlying type, so
// the figures must match.
func BenchmarkNamedTypes(b *testing.B) {
	type Celsius float32
	type Sample uint8
	const n = 1 << 14
	src := randomFloats(n)
	named := unsafe.Slice((*Celsius)(unsafe.Pointer(&src[0])), n)
	u8 := make([]uint8, n)
	s8 := unsafe.Slice((*Sample)(unsafe.Pointer(&u8[0])), n)
	h := make([]half.Half, n)
	b.Run("float-uchar/types=go", func(b *testing.B) {
		for b.Loop() {
			convert.SliceSat(u8, src, round.RTE)
		}
	})
	b.Run("float-uchar/types=named", func(b *testing.B) {
		for b.Loop() {
			convert.SliceSat(s8, named, round.RTE)
		}
	})
	b.Run("float-half/types=go", func(b *testing.B) {
		for b.Loop() {
			convert.Slice(h, src, round.RTE)
		}
	})
	b.Run("float-half/types=named", func(b *testing.B) {
		for b.Loop() {
			convert.Slice(h, named, round.RTE)
		}
	})
	var sink int16
	b.Run("scalar-float-short/types=go", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += convert.To[int16](src[i&(n-1)], round.RTE)
		}
	})
	b.Run("scalar-float-short/types=named", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += convert.To[int16](named[i&(n-1)], round.RTE)
		}
	})
	_ = sink
}
