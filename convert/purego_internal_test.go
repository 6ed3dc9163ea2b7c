package convert

import (
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// The pure Go slice kernels of the plans in internal/gen (tables, rounding on
// bit patterns, arithmetic comparisons) are checked here against the scalar
// conversions, which the other tests check against the reference: every
// variant, on inputs placed around every rounding position of every exponent
// of the floating sources and of every bit length of the integer ones.

// pureGoTestInputs returns bit patterns of kind k: every value of an 8- or
// 16-bit kind; for float and double every sign and exponent with significands
// around each bit position (0, 1, 2^j-1, 2^j, 2^j+1, all ones) and random
// ones; for the 32- and 64-bit integers every bit length with the bits below
// each rounding position of half, float and double set to the patterns that
// decide a rounding (zero, one, half less one, half, half plus one, all ones),
// both signs, and random values.
func pureGoTestInputs(k cltype.Kind) []uint64 {
	r := rand.New(rand.NewPCG(5, uint64(k)))
	var vals []uint64
	if k.Size() <= 2 {
		for b := range uint64(1) << k.Bits() {
			vals = append(vals, b)
		}
		return vals
	}
	if k.IsFloat() {
		mant := 52
		if k == cltype.Float {
			mant = 23
		}
		expBits := k.Bits() - 1 - mant
		for se := range uint64(1) << (expBits + 1) {
			hi := se << mant
			add := func(m uint64) { vals = append(vals, hi|m&(1<<mant-1)) }
			add(0)
			add(1<<mant - 1)
			for j := range mant {
				add(1 << j)
				add(1<<j - 1)
				add(1<<j + 1)
				add(1<<mant - 1<<j)
			}
			for range 8 {
				add(r.Uint64())
			}
		}
		return vals
	}
	n := k.Bits()
	mask := uint64(1)<<n - 1
	if n == 64 {
		mask = math.MaxUint64
	}
	for l := 0; l <= n; l++ {
		for _, p := range []int{11, 24, 53} {
			drop := l - p
			for _, low := range []uint64{0, 1, 2, 3} {
				top := uint64(0)
				if l > 0 {
					top = 1<<(l-1) | r.Uint64()&(1<<(l-1)-1)
				}
				var pats []uint64
				if drop > 0 {
					h := uint64(1) << (drop - 1)
					pats = []uint64{0, 1, h - 1, h, h + 1, 2*h - 1}
				} else {
					pats = []uint64{0}
				}
				for _, pat := range pats {
					v := top
					if drop > 0 {
						v = v>>drop<<drop | pat
						v ^= low << drop // neighbouring significands, odd and even
					}
					v &= mask
					vals = append(vals, v, -v&mask, v-1&mask, v+1&mask)
				}
			}
		}
	}
	if n > 16 {
		// Every integer from just below 2^16 to 2^16+4096, and their
		// negations: the edge of the integer-to-half tables (x+65535 for
		// x in [-65535, 65535]), where an index taken modulo the table's
		// size wraps.
		for d := uint64(0); d < 4160; d++ {
			v := 1<<16 - 64 + d
			vals = append(vals, v, -v&mask)
		}
	}
	for range 20000 {
		vals = append(vals, r.Uint64()&mask)
	}
	return vals
}

// storeNative writes v's low bits as element j of kind k at p, in host order.
func storeNative(p unsafe.Pointer, k cltype.Kind, j int, v uint64) {
	byteorder.Store(p, k.Size(), j, v)
}

func loadNative(p unsafe.Pointer, k cltype.Kind, j int) uint64 {
	return byteorder.Load(p, k.Size(), j)
}

// TestPureGoKernels runs every variant's pure Go slice kernel (convertSlice
// at the Go tier) on pureGoTestInputs, in batches of every length up to 64
// and then 4096 (so that every kernel's start and tail are covered), with its
// tables built, and compares each element with the scalar conversion
// (convertBits). The paths without tables are the scalar conversions.
func TestPureGoKernels(t *testing.T) {
	prev := kernels.SetLevel(kernels.Go)
	defer kernels.SetLevel(prev)
	for _, sk := range cltype.Scalars {
		t.Run(sk.String(), func(t *testing.T) {
			vals := pureGoTestInputs(sk)
			if limit := testvals.Sample(1<<17, 8); testing.Short() && len(vals) > limit {
				r := rand.New(rand.NewPCG(6, uint64(sk)))
				r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
				vals = vals[:limit]
			}
			// One long conversion per variant first: it builds the variant's
			// table (a lazyTable is built only for a long slice), so that
			// the batches below, short ones included, use it.
			long := make([]uint64, 1<<16)
			longDst := make([]uint64, 1<<16)
			for _, dk := range cltype.Scalars {
				for _, m := range round.Modes {
					convertSlice(dk, sk, unsafe.Pointer(&longDst[0]), unsafe.Pointer(&long[0]), len(long), m, false)
				}
			}
			src := make([]uint64, 4096)
			dst := make([]uint64, 4096)
			sp, dp := unsafe.Pointer(&src[0]), unsafe.Pointer(&dst[0])
			fails := 0
			for lo := 0; lo < len(vals); {
				// 4095, odd: the loops unrolled by two (bitsLoop2) convert
				// every batch's last element in their tail.
				n := min(len(vals)-lo, 4095)
				if lo < 64*65/2 {
					n = min(len(vals)-lo, 1+lo%64) // short batches first
				}
				batch := vals[lo : lo+n]
				lo += n
				for j, v := range batch {
					storeNative(sp, sk, j, v)
				}
				for _, dk := range cltype.Scalars {
					for _, m := range round.Modes {
						for _, sat := range []bool{false, true} {
							if sat && dk.IsFloat() {
								continue
							}
							convertSlice(dk, sk, dp, sp, n, m, sat)
							for j, v := range batch {
								want, _ := convertBits(dk, sk, v, m, sat)
								if got := loadNative(dp, dk, j); got != want {
									if fails++; fails <= 20 {
										t.Errorf("%s->%s %s sat=%v: %#x gives %#x, scalar %#x", sk, dk, m, sat, v, got, want)
									}
								}
							}
						}
					}
				}
			}
			if fails > 20 {
				t.Errorf("%d mismatches in all", fails)
			}
		})
	}
}

// TestPureGoKernels32 checks the pure Go slice kernels that the plans of
// internal/gen changed for the 32-bit sources, float -> every other type and
// int and uint -> float and half, against the scalar conversions on all 2^32
// inputs in every mode (for a float source saturation changes nothing: the
// kernels ignore it). It takes many minutes: it runs only when the
// environment sets CLCONV_PUREGO_EXHAUSTIVE=1.
func TestPureGoKernels32(t *testing.T) {
	if os.Getenv("CLCONV_PUREGO_EXHAUSTIVE") != "1" {
		t.Skip("set CLCONV_PUREGO_EXHAUSTIVE=1 to check all 2^32 inputs")
	}
	prev := kernels.SetLevel(kernels.Go)
	defer kernels.SetLevel(prev)
	exhaustive32(t, "float", func(b uint32) float32 { return math.Float32frombits(b) }, []func([]float32, []uint32) int{
		ex32(sliceFloatToChar, floatToChar), ex32(sliceFloatToUchar, floatToUchar),
		ex32(sliceFloatToShort, floatToShort), ex32(sliceFloatToUshort, floatToUshort),
		ex32(sliceFloatToInt, floatToInt), ex32(sliceFloatToUint, floatToUint),
		ex32(sliceFloatToLong, floatToLong), ex32(sliceFloatToUlong, floatToUlong),
		ex32(sliceFloatToHalf, floatToHalf),
	})
	exhaustive32(t, "int", func(b uint32) int32 { return int32(b) }, []func([]int32, []uint32) int{
		ex32bits(sliceIntToFloat, intToFloat), ex32(sliceIntToHalf, intToHalf),
	})
	exhaustive32(t, "uint", func(b uint32) uint32 { return b }, []func([]uint32, []uint32) int{
		ex32bits(sliceUintToFloat, uintToFloat), ex32(sliceUintToHalf, uintToHalf),
	})
}

// ex32 returns a check of one pair: it converts src with the slice kernel in
// every mode and counts the elements that differ from the scalar conversion.
func ex32[S, D comparable](slice func([]D, []S, round.Mode, bool), scalar func(S, round.Mode, bool) D) func([]S, []uint32) int {
	return func(src []S, _ []uint32) int {
		dst := make([]D, len(src))
		bad := 0
		for _, m := range round.Modes {
			slice(dst, src, m, false)
			for i, x := range src {
				if dst[i] != scalar(x, m, false) {
					bad++
				}
			}
		}
		return bad
	}
}

// ex32bits is ex32 for floating destinations, compared as bit patterns.
func ex32bits[S comparable, D float32 | float64](slice func([]D, []S, round.Mode, bool), scalar func(S, round.Mode, bool) D) func([]S, []uint32) int {
	return func(src []S, _ []uint32) int {
		dst := make([]D, len(src))
		bad := 0
		for _, m := range round.Modes {
			slice(dst, src, m, false)
			for i, x := range src {
				w := scalar(x, m, false)
				if !sameBits(dst[i], w) {
					bad++
				}
			}
		}
		return bad
	}
}

func sameBits[D float32 | float64](a, b D) bool {
	if unsafe.Sizeof(a) == 4 {
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b))
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
}

// exhaustive32 runs checks on all 2^32 inputs of a 32-bit source, in chunks
// on every core.
func exhaustive32[S any](t *testing.T, name string, from func(uint32) S, checks []func([]S, []uint32) int) {
	const chunk = 1 << 16
	var next atomic.Uint64
	var bad atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			src := make([]S, chunk)
			in := make([]uint32, chunk)
			for {
				lo := next.Add(chunk) - chunk
				if lo >= 1<<32 {
					return
				}
				for i := range src {
					in[i] = uint32(lo) + uint32(i)
					src[i] = from(in[i])
				}
				for ci, c := range checks {
					if n := c(src, in); n != 0 {
						if bad.Add(int64(n)) < 100 {
							t.Errorf("%s: check %d: %d mismatches in [%#x, %#x)", name, ci, n, lo, lo+chunk)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	t.Logf("%s: all 2^32 inputs, %d checks, %d mismatches", name, len(checks), bad.Load())
}

// BenchmarkPureGoTableBuild measures the one-time cost of building each kind
// of table of the pure Go kernels (each is built on first use, once per
// process: nothing is computed at init).
func BenchmarkPureGoTableBuild(b *testing.B) {
	b.Run("halfToLong", func(b *testing.B) { // 512 KiB, the largest half table
		for b.Loop() {
			halfTable(halfToLong, round.RTE)
		}
	})
	b.Run("halfToChar", func(b *testing.B) {
		for b.Loop() {
			halfTable(halfToChar, round.RTE)
		}
	})
	b.Run("intToHalf", func(b *testing.B) {
		for b.Loop() {
			intToHalfTable(round.RTE)
		}
	})
	b.Run("doubleToHalf", func(b *testing.B) {
		for b.Loop() {
			narrowTable64(10, 15, 15, round.RTZ)
		}
	})
	b.Run("floatToHalf", func(b *testing.B) {
		for b.Loop() {
			narrowTable32(10, 15, 15, round.RTZ)
		}
	})
	b.Run("doubleToHalfRTE", func(b *testing.B) {
		for b.Loop() {
			halfRTETable64()
		}
	})
	b.Run("floatToHalfRTE", func(b *testing.B) {
		for b.Loop() {
			halfRTETable32()
		}
	})
}
