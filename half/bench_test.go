package half_test

import (
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/half"
)

func BenchmarkFromFloat64RTE(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float64, 4096)
	for i := range src {
		src[i] = r.NormFloat64() * 1000
	}
	dst := make([]half.Half, len(src))
	for b.Loop() {
		for i, x := range src {
			dst[i] = half.FromFloat64RTE(x)
		}
	}
}

func BenchmarkFromFloat32Slice(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 4096)
	for i := range src {
		src[i] = float32(r.NormFloat64() * 1000)
	}
	dst := make([]half.Half, len(src))
	for b.Loop() {
		for i, x := range src {
			dst[i] = half.FromFloat32RTE(x)
		}
	}
}

func BenchmarkFromFloat64Big(b *testing.B) {
	src := make([]float64, 4096)
	for i := range src {
		src[i] = 1e22 + float64(i)
	}
	dst := make([]half.Half, len(src))
	for b.Loop() {
		for i, x := range src {
			dst[i] = half.FromFloat64RTE(x)
		}
	}
}
