package convert_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/convert"
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
