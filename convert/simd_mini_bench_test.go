package convert

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

// BenchmarkMini measures the mini kernels (simd_mini.go) in every variant and
// tier, in L2 (32 Ki elements) and from memory (8 Mi elements, 40 to 48 MiB
// read plus written), next to a copy of the same number of bytes read plus
// written, measured in the same run; bytes/s count bytes read plus bytes
// written for both, so a variant's MB/s over its format's copy MB/s is its
// speed relative to copy. The inputs are random patterns across the
// format's range (and some beyond it, infinities and NaNs), in no order a
// predictor could learn; the kernels have no branches anyway.
//
//	go test ./convert -run - -bench Mini -count 5
//
// The whole slice goes through the hook, the Go tail (less than a block)
// included, as a caller converts it.
func BenchmarkMini(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"l2", 1 << 15}, {"mem", 1 << 23}} {
		b.Run(size.name, func(b *testing.B) {
			for _, k := range miniKinds {
				b.Run(k.String(), func(b *testing.B) {
					benchMini(b, k, size.n)
				})
			}
		})
	}
}

func benchMini(b *testing.B, k miniKind, n int) {
	src := miniBenchInput(k, n)
	dst := make([]byte, n*k.size())
	total := int64(n * (4 + k.size()))
	b.Run("copy", func(b *testing.B) {
		from := make([]byte, total/2)
		to := make([]byte, total/2)
		for i := range from {
			from[i] = byte(i * 7)
		}
		b.SetBytes(total)
		for b.Loop() {
			copy(to, from)
		}
	})
	tiers := kernels.SIMDTiers()
	if len(tiers) > 1 {
		tiers = tiers[:len(tiers)-1] // the assembly tiers; the Go tier converts nothing here
	}
	dp := unsafe.Pointer(&dst[0])
	for _, m := range round.Modes {
		for _, sat := range []bool{false, true} {
			name := strings.ToLower(m.String())
			if sat {
				name += "-sat"
			}
			for _, tier := range tiers {
				b.Run(name+"/"+tier, func(b *testing.B) {
					prev, _ := kernels.SetSIMD(tier)
					defer kernels.SetSIMD(prev)
					b.SetBytes(total)
					for b.Loop() {
						c := simdFloatToMini(k, dp, src, m, sat)
						for i := c; i < len(src); i++ {
							miniStore(k, dp, i, miniFromFloat32(k, src[i], m, sat))
						}
					}
				})
			}
		}
	}
	// Back to float, from the rte patterns.
	simdFloatToMini(k, dp, src, round.RTE, false)
	back := make([]float32, n)
	for _, tier := range tiers {
		b.Run("tofloat/"+tier, func(b *testing.B) {
			prev, _ := kernels.SetSIMD(tier)
			defer kernels.SetSIMD(prev)
			b.SetBytes(total)
			for b.Loop() {
				c := simdMiniToFloat(k, back, dp)
				for i := c; i < n; i++ {
					back[i] = miniToFloat32(k, miniLoad(k, dp, i))
				}
			}
		})
	}
}

// miniBenchInput returns n random floats for format k: random signs and
// mantissas, exponents uniform from below the smallest subnormal to above
// MAX, and one in 64 an infinity or a NaN.
func miniBenchInput(k miniKind, n int) []float32 {
	r := rand.New(rand.NewPCG(7, uint64(k)))
	lo, hi := -140, 128 // bfloat16: float's range
	switch k {
	case miniE4M3:
		lo, hi = -12, 10
	case miniE5M2:
		lo, hi = -19, 17
	}
	out := make([]float32, n)
	for i := range out {
		bits := r.Uint32()&0x807fffff | uint32(127+lo+r.IntN(hi-lo+1))<<23
		if r.IntN(64) == 0 {
			bits |= 0x7f800000
			if r.IntN(2) == 0 {
				bits &^= 0x007fffff
			}
		}
		out[i] = math.Float32frombits(bits)
	}
	return out
}
