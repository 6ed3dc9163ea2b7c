//go:build gc && !purego

package convert

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/clconv/clconv/round"
)

// The mini kernels' streaming forms, and every float input (-long); the
// tests of simd_mini_test.go run in every build.

// miniLong reports whether the exhaustive tests run: -long, which
// exhaustive_test.go declares for every 2^32-input test of the package.
func miniLong() bool {
	f := flag.Lookup("long")
	return f != nil && f.Value.String() == "true"
}

// Destinations of simdStreamBytes and more take the streaming kernels after
// a head converted in Go: at every head length the whole slice converts like
// the packages.
func TestSIMDMiniStream(t *testing.T) {
	if simdBest() < tierAVX2 {
		t.Skip("no SIMD tier")
	}
	defer func(b int) { simdStreamBytes = b }(simdStreamBytes)
	if testing.Short() {
		simdStreamBytes = 1 << 14 // the same kernels and heads, less work
	}
	r := rand.New(rand.NewPCG(3, 4))
	pool := miniInputs(200)
	miniTiers(t, func(t *testing.T, tier simdTier) {
		if tier == tierGo {
			return
		}
		for _, k := range miniKinds {
			size := k.size()
			n := simdStreamBytes/size + 77
			src := make([]uint32, n)
			for i := range src {
				src[i] = pool[r.IntN(len(pool))]
			}
			buf := make([]byte, (n+64)*size)
			for _, off := range []int{0, 1, 2, 3, 5, 63 / size} {
				m, sat := round.Mode(off%4), off%2 == 1
				dst := buf[off*size : (off+n)*size]
				if _, h, ok := simdStream(simdFloatToMiniKernelsNT[k][simdSat(sat)], simdMode(m), unsafe.Pointer(&dst[0]), n, size); !ok || h > 63 {
					t.Fatalf("%s: simdStream = %d, %v", k, h, ok)
				}
				got := simdFloatToMini(k, unsafe.Pointer(&dst[0]), f32s(src), m, sat)
				if n-got >= 64 {
					t.Fatalf("%s off=%d: converted %d of %d", k, off, got, n)
				}
				miniCompare(t, fmt.Sprintf("%s %s sat=%v off=%d (stream)", k, m, sat, off), k, src[:got], dst[:got*size], miniRef(k, src[:got], m, sat))
			}
			// And back, from every pattern.
			fbuf := make([]float32, n+16)
			for _, off := range []int{0, 1, 3, 15} {
				dst := fbuf[off : off+n]
				got := simdMiniToFloat(k, dst, unsafe.Pointer(&buf[0]))
				if n-got >= 64 {
					t.Fatalf("%s -> float off=%d: converted %d of %d", k, off, got, n)
				}
				for i := range got {
					x := miniLoad(k, unsafe.Pointer(&buf[0]), i)
					if g, w := math.Float32bits(dst[i]), math.Float32bits(miniToFloat32(k, x)); g != w {
						t.Fatalf("%s -> float off=%d element %d: %#x gave %#08x, want %#08x", k, off, i, x, g, w)
					}
				}
			}
		}
	})
}

// TestSIMDMiniExhaustive (with -long; minutes on two cores) runs every float
// -> mini kernel of every tier, the streaming ones included, over all 2^32
// float inputs, calling them directly, against the packages.
func TestSIMDMiniExhaustive(t *testing.T) {
	if !miniLong() {
		t.Skip("needs -long")
	}
	if simdBest() < tierAVX2 {
		t.Skip("no SIMD tier")
	}
	const batch = 1 << 16
	var next, fails atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			in := make([]uint32, batch)
			want := make([]byte, 2*batch)
			out := make([]byte, 2*batch) // 128 KiB: page-aligned, as the streaming kernels need
			for {
				base := next.Add(batch) - batch
				if base >= 1<<32 || fails.Load() > 20 {
					return
				}
				if base%(1<<28) == 0 {
					t.Logf("%d/16 after %v", base>>28, time.Since(start).Round(time.Second))
				}
				for j := range in {
					in[j] = uint32(base) + uint32(j)
				}
				src := (*byte)(unsafe.Pointer(&in[0]))
				for _, k := range miniKinds {
					size := batch * k.size()
					for _, sat := range []bool{false, true} {
						for _, m := range round.Modes {
							wp := unsafe.Pointer(&want[0])
							for j, b := range in {
								miniStore(k, wp, j, miniFromFloat32(k, math.Float32frombits(b), m, sat))
							}
							for _, tab := range []*simdKernels{simdFloatToMiniKernels[k][simdSat(sat)], simdFloatToMiniKernelsNT[k][simdSat(sat)]} {
								for tier := tierAVX2; tier <= simdBest(); tier++ {
									if n := tab[tier][simdMode(m)](&out[0], src, batch); n != batch {
										t.Errorf("%s %s: converted %d of %d", k, tier, n, batch)
									}
									if bytes.Equal(out[:size], want[:size]) {
										continue
									}
									for j := range batch {
										g, w := miniLoad(k, unsafe.Pointer(&out[0]), j), miniLoad(k, wp, j)
										if g != w && fails.Add(1) <= 20 {
											t.Errorf("%s %s %s sat=%v: input %#08x: got %#x, want %#x", k, tier, m, sat, in[j], g, w)
										}
									}
								}
							}
						}
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("2^32 inputs x 24 variants x %d kernels in %v", 2*int(simdBest()), time.Since(start).Round(time.Second))
}
