// Command gopjrt checks clconv's bfloat16 against the bfloat16 package of
// github.com/gomlx/gopjrt (dtypes/bfloat16), a Go module served by the Go
// module proxy. That package converts float32 by dropping the low 16 bits,
// which is rounding toward zero for every non-NaN, so it is compared with
// clconv's rtz on all 2^32 float32 patterns; its float64 conversion goes
// through float32 first, and its widening to float32 shifts the bits back.
// Every disagreement is counted in a group that docs/FORMATS.md explains.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"

	"github.com/gomlx/gopjrt/dtypes/bfloat16"

	"github.com/clconv/clconv/_oracle/internal/tally"
	ours "github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/round"
)

func main() {
	t := tally.New()
	var mu sync.Mutex
	var wg sync.WaitGroup
	const chunk = 1 << 24
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			local := tally.New()
			for c := uint64(w); c < 1<<32/chunk; c += uint64(workers) {
				for b := c * chunk; b < (c+1)*chunk; b++ {
					x := math.Float32frombits(uint32(b))
					got := bfloat16.FromFloat32(x).Bits()
					want := ours.FromFloat32(x, round.RTZ).Bits()
					k := tally.Key{Dst: "bfloat16", Src: "float32", Mode: "rtz"}
					if got == want {
						local.Agree(k)
						continue
					}
					local.Disagree(k, why32(uint32(b), got, want), fmt.Sprintf("%#08x: gopjrt %#04x, clconv %#04x", b, got, want))
				}
			}
			mu.Lock()
			t.Merge(local)
			mu.Unlock()
		})
	}
	wg.Wait()
	// float64: gopjrt rounds to float32 (nearest even) and then truncates.
	r := rand.New(rand.NewPCG(64, 64))
	for range 2000000 {
		b := r.Uint64()
		if r.IntN(2) == 0 {
			b = b&(1<<63|1<<52-1) | uint64(1023-140+r.IntN(280))<<52
		}
		x := math.Float64frombits(b)
		got := bfloat16.FromFloat64(x).Bits()
		want := ours.FromFloat64(x, round.RTZ).Bits()
		k := tally.Key{Dst: "bfloat16", Src: "float64", Mode: "rtz"}
		if got == want {
			t.Agree(k)
			continue
		}
		// gopjrt truncates float32(x): explained when that is what it gave.
		why := "unexplained"
		switch f := float32(x); {
		case x != x:
			why = "nan: " + why32(uint32(b>>32)|uint32(b)&1, got, want)
		case ours.FromFloat32(f, round.RTZ).Bits() != got:
		case math.IsInf(float64(f), 0):
			why = "x beyond float32's range: float32(x) is infinite, clconv's rtz gives +-MAX"
		default:
			why = "double rounding: float32(x) (rte) rounded x up across a bfloat16 value, which truncation keeps"
		}
		t.Disagree(k, why, fmt.Sprintf("%#016x: gopjrt %#04x, clconv %#04x", b, got, want))
	}
	// Widening.
	for b := range 1 << 16 {
		got := math.Float32bits(bfloat16.BFloat16(b).Float32())
		want := math.Float32bits(ours.BFloat16(b).Float32())
		k := tally.Key{Dst: "float32", Src: "bfloat16", Mode: "exact"}
		if got == want {
			t.Agree(k)
			continue
		}
		t.Disagree(k, "signalling nan: gopjrt keeps it, clconv sets the quiet bit", fmt.Sprintf("%#04x: gopjrt %#08x, clconv %#08x", b, got, want))
	}
	t.Write(os.Stdout)
	if t.Count("unexplained") > 0 {
		os.Exit(1)
	}
}

// why32 names a float32 -> bfloat16 disagreement.
func why32(b uint32, got, want uint16) string {
	switch {
	case b&0x7fffffff > 0x7f800000 && b&0x7f0000 == 0:
		return "nan whose payload is only in the low 16 bits: gopjrt's truncation gives infinity, clconv a quiet nan"
	case b&0x7fffffff > 0x7f800000 && b&0x400000 == 0:
		return "signalling nan: gopjrt keeps it signalling, clconv sets the quiet bit"
	}
	return "unexplained"
}
