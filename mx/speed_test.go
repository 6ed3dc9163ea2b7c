package mx

import (
	"flag"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

var speedMem = flag.Int("speedmem", 0, "TestSpeedMemory's element count (0: skip)")

// TestSpeedMemory prints, for -speedmem N float32 elements (far beyond the
// caches), the time per element of MX quantization and of the element
// conversions (median of 5, one goroutine) beside a copy of the same
// float32 bytes timed just before and after each: ">= 0.8x copy from
// memory" is copy/time >= 0.8. -speedgo adds the Go loops' times.
//
//	go test ./mx -run TestSpeedMemory -speedmem 33554432 -v
func TestSpeedMemory(t *testing.T) {
	n := *speedMem &^ 4095
	if n == 0 {
		t.Skip("needs -speedmem N")
	}
	x := make([]float32, n)
	in := benchInput()
	for i := 0; i < n; i += len(in) {
		copy(x[i:], in)
	}
	median := func(f func()) float64 {
		var ts []float64
		for range 5 {
			start := time.Now()
			f()
			ts = append(ts, float64(time.Since(start).Nanoseconds()))
		}
		sort.Float64s(ts)
		return ts[2] / float64(n)
	}
	cpDst := make([]float32, n)
	cp := func() { copy(cpDst, x) }
	fmt.Printf("copy of %d MiB: %.3f ns/element (median of 5), tier %v\n", 4*n>>20, median(cp), kernels.Level())
	out := make([]byte, n)
	scales := make([]byte, n/32)
	must := func(_ Stats, err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	row := func(name string, f func()) {
		f()
		c1 := median(cp)
		d := median(f)
		c2 := median(cp)
		c := (c1 + c2) / 2
		fmt.Printf("%-28s %7.3f ns/elem %6.2f x copy\n", name, d, c/d)
	}
	for _, tier := range []kernels.Tier{kernels.Best(), kernels.Go} {
		if tier != kernels.Best() && !*speedGo {
			continue
		}
		prev := kernels.SetLevel(tier)
		sfx := " " + tier.String()
		row("quantize mxfp8-e4m3"+sfx, func() { must(Quantize(MXFP8E4M3, out, scales, x, 4096, Options{})) })
		row("quantize mxfp4 packed"+sfx, func() { must(Quantize(MXFP4, out[:n/2], scales, x, 4096, Options{Packed: true})) })
		for _, c := range []struct {
			name string
			e    Elem
			m    round.Mode
			sat  bool
		}{
			{"e2m1 rte", ElemE2M1, round.RTE, false},
			{"e2m1 rtp", ElemE2M1, round.RTP, false},
			{"e2m3 rte", ElemE2M3, round.RTE, false},
			{"e3m2 rtn", ElemE3M2, round.RTN, false},
			{"e8m0 rte", ElemE8M0, round.RTE, false},
			{"e8m0_sat rtp", ElemE8M0, round.RTP, true},
		} {
			row("float -> "+c.name+sfx, func() { ElemsFromFloat32(c.e, out, x, c.m, c.sat) })
		}
		kernels.SetLevel(prev)
	}
}

var speedGo = flag.Bool("speedgo", false, "TestSpeedMemory: also time the Go loops")
