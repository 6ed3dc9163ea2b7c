package permode

import (
	"math/rand/v2"
	"testing"
)

var sink32 float32

// BenchmarkToFloat32 times the portable int64/uint64 -> float32 roundings
// against Go's own conversions (which round wrongly on 386, arm and mips,
// docs/PORTS.md) on the same random values of every bit length, 4096 per
// iteration, in the same run. The results are summed so that nothing is
// optimised away; compare the ns/op of each pair.
func BenchmarkToFloat32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	us := make([]uint64, 4096)
	vs := make([]int64, len(us))
	for i := range us {
		us[i] = r.Uint64() >> r.IntN(64)
		vs[i] = int64(r.Uint64()) >> r.IntN(64)
	}
	run := func(name string, f func() float32) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				sink32 = f()
			}
		})
	}
	run("int64/go", func() (s float32) {
		for _, v := range vs {
			s += float32(v)
		}
		return s
	})
	run("int64/permode", func() (s float32) {
		for _, v := range vs {
			s += I64ToF32RTE(v)
		}
		return s
	})
	run("uint64/go", func() (s float32) {
		for _, u := range us {
			s += float32(u)
		}
		return s
	})
	run("uint64/permode", func() (s float32) {
		for _, u := range us {
			s += U64ToF32RTE(u)
		}
		return s
	})
}
