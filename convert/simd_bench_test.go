package convert_test

import (
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/benchdata"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

var hotTiers = flag.String("hot.tiers", "", "comma-separated SIMD tiers for BenchmarkHot (default: the best; \"all\" for every tier)")

// Sizes of BenchmarkHot: 32 Ki elements keep source and destination (at most
// 384 KiB) in a core's L2; 16 Mi elements (80 to 192 MiB) are far beyond the
// last-level cache, so every byte comes from and goes to memory.
var hotSizes = []struct {
	name string
	n    int
}{{"l2", 1 << 15}, {"mem", 1 << 24}}

// benchData returns n elements of kind k (benchdata.Input, as clconv bench
// converts), cached: the first call makes at least 16 Mi elements.
var benchData = func() func(k cltype.Kind, n int) []byte {
	var mu sync.Mutex
	cache := map[cltype.Kind][]byte{}
	return func(k cltype.Kind, n int) []byte {
		mu.Lock()
		defer mu.Unlock()
		if b := cache[k]; len(b) < n*k.Size() {
			cache[k] = benchdata.Input(k, max(n, 1<<24))
		}
		return cache[k][:n*k.Size()]
	}
}()

func benchTiers(b *testing.B) []string {
	switch *hotTiers {
	case "":
		return kernels.SIMDTiers()[:1]
	case "all":
		return kernels.SIMDTiers()
	}
	return strings.Split(*hotTiers, ",")
}

// BenchmarkHot measures every hot pair in every variant, in L2 and from
// memory, next to a copy of the same number of bytes (read plus written) in
// the same run. Bytes/s count bytes read plus bytes written for both.
//
//	go test ./convert -run - -bench Hot -count 5 | benchstat -
func BenchmarkHot(b *testing.B) {
	for _, size := range hotSizes {
		b.Run(size.name, func(b *testing.B) {
			for _, p := range simdPairs {
				b.Run(fmt.Sprintf("%s-%s", p.src, p.dst), func(b *testing.B) {
					n := size.n
					src := benchData(p.src, n)
					dst := make([]byte, n*p.dst.Size())
					total := int64(n * (p.src.Size() + p.dst.Size()))
					benchCopy(b, total, func(to, from []byte) { copy(to, from) })
					for _, v := range benchdata.Variants(p.src, p.dst) {
						for _, tier := range benchTiers(b) {
							b.Run(v.Short+"/"+tier, func(b *testing.B) {
								prev, err := kernels.SetSIMD(tier)
								if err != nil {
									b.Skip(err)
								}
								defer kernels.SetSIMD(prev)
								b.SetBytes(total)
								for b.Loop() {
									convert.Bytes(p.dst, p.src, dst, src, v.Mode, v.Sat)
								}
							})
						}
					}
				})
			}
		})
	}
}

// benchCopy runs sub-benchmark "copy": cp of total/2 bytes, so that total
// bytes are read plus written, as a conversion's total counts them.
func benchCopy(b *testing.B, total int64, cp func(to, from []byte)) {
	b.Run("copy", func(b *testing.B) {
		from := benchData(cltype.Uchar, int(total/2))
		to := make([]byte, total/2)
		b.SetBytes(total)
		for b.Loop() {
			cp(to, from)
		}
	})
}

// BenchmarkHotParallel is the memory-sized half of BenchmarkHot in rte (or
// wrap/exact) with BytesParallel on every core, next to a copy split the same
// way.
func BenchmarkHotParallel(b *testing.B) {
	n := hotSizes[1].n
	for _, p := range simdPairs {
		b.Run(fmt.Sprintf("%s-%s", p.src, p.dst), func(b *testing.B) {
			src := benchData(p.src, n)
			dst := make([]byte, n*p.dst.Size())
			total := int64(n * (p.src.Size() + p.dst.Size()))
			benchCopy(b, total, benchdata.ParallelCopy)
			v := benchdata.Variants(p.src, p.dst)[0]
			b.Run(v.Short, func(b *testing.B) {
				b.SetBytes(total)
				for b.Loop() {
					convert.BytesParallel(p.dst, p.src, dst, src, v.Mode, v.Sat)
				}
			})
		})
	}
}

// BenchmarkSmall measures the fixed cost of the SIMD hooks on slices too
// short for a vector block, next to the pure Go tier.
func BenchmarkSmall(b *testing.B) {
	src := randomFloats(64)
	dst := make([]uint8, 64)
	for _, n := range []int{1, 8, 31, 64} {
		for _, tier := range []string{kernels.SIMDTiers()[0], "go"} {
			b.Run(fmt.Sprintf("float-uchar-sat-rte/n=%d/%s", n, tier), func(b *testing.B) {
				prev, _ := kernels.SetSIMD(tier)
				defer kernels.SetSIMD(prev)
				for b.Loop() {
					convert.SliceSat(dst[:n], src[:n], round.RTE)
				}
			})
		}
	}
}
