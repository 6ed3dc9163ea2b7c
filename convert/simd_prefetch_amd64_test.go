//go:build gc && !purego

package convert

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// BenchmarkSIMDStreamPrefetch measures the streaming kernels from 8-byte
// sources from memory (16 Mi elements) with simdPrefetchDist8 at 4096 (the
// default) and 0 (AMD's: the prefetches do nothing): GB/s read plus
// written, and against a copy that moves as many bytes, timed in the same
// iterations ("x-copy", the copy's time over the conversion's). On
// this project's AMD EPYC, PREFETCHT1 4 KiB ahead costs double -> char about
// a quarter (issue 32, docs/PERFORMANCE.md); on the GPU machine's Xeon the
// prefetch is worth up to a third.
//
//	go test ./convert -run '^$' -bench SIMDStreamPrefetch -count 5
func BenchmarkSIMDStreamPrefetch(b *testing.B) {
	if simdBest() < tierAVX512 {
		b.Skip("no AVX-512")
	}
	defer kernels.SetLevel(simdLevel())
	kernels.SetLevel(tierAVX512)
	defer func(d int) { simdPrefetchDist8 = d }(simdPrefetchDist8)
	const n = 16 << 20
	r := rand.New(rand.NewPCG(32, 32))
	for _, c := range []struct{ src, dst cltype.Kind }{{cltype.Double, cltype.Char}, {cltype.Long, cltype.Char}, {cltype.Double, cltype.Long}} {
		in := make([]byte, n*c.src.Size())
		for j := range n {
			StoreBits(in, c.src, j, testvals.Random(r, c.src))
		}
		out := make([]byte, n*c.dst.Size())
		bytes := n * (c.src.Size() + c.dst.Size())
		// A copy moves twice its length. Its source holds data: an untouched
		// buffer would be read from the kernel's shared zero page, in cache.
		cpIn, cpOut := make([]byte, bytes/2), make([]byte, bytes/2)
		for j := range cpIn {
			cpIn[j] = byte(r.Uint32())
		}
		for _, dist := range []int{4096, 0} {
			b.Run(c.src.String()+"-"+c.dst.String()+"/dist-"+strconv.Itoa(dist), func(b *testing.B) {
				simdPrefetchDist8 = dist
				var conv, cp float64
				for b.Loop() {
					t0 := time.Now()
					convertSlice(c.dst, c.src, unsafe.Pointer(&out[0]), unsafe.Pointer(&in[0]), n, round.RTE, false)
					t1 := time.Now()
					copy(cpOut, cpIn)
					cp += float64(time.Since(t1))
					conv += float64(t1.Sub(t0))
				}
				b.ReportMetric(float64(bytes)*float64(b.N)/conv, "GB/s")
				b.ReportMetric(cp/conv, "x-copy")
			})
		}
	}
}
