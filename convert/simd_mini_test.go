package convert

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// The mini kernels (simd_mini.go) against packages bfloat16 and fp8, in every
// tier this CPU and build have, every format, mode and _sat.

var miniKinds = []miniKind{miniBF16, miniE4M3, miniE5M2}

func (k miniKind) String() string { return [...]string{"bfloat16", "e4m3", "e5m2"}[k] }

// miniTiers runs f with each tier this machine has, pure Go included (whose
// hooks convert nothing).
func miniTiers(t *testing.T, f func(t *testing.T, tier simdTier)) {
	defer kernels.SetLevel(simdLevel())
	for tier := simdBest(); tier >= tierGo; tier-- {
		kernels.SetLevel(tier)
		t.Run(tier.String(), func(t *testing.T) { f(t, tier) })
	}
}

// miniInputs returns float32 patterns that reach every case of the
// conversions: every sign and exponent with random mantissas; every value of
// each format (decoded), the midpoints between neighbours (the ties) and the
// floats a few ulps either side of both, which cover MAX, the first grid
// point above it, the subnormal and normal boundaries and the tie rules;
// infinities, NaNs with payloads in the high, low and quiet bits (signalling
// ones too), and float subnormals. perExp random mantissas per exponent.
func miniInputs(perExp int) []uint32 {
	r := rand.New(rand.NewPCG(14, 8))
	var in []uint32
	for e := uint32(0); e < 256; e++ {
		for s := uint32(0); s < 2; s++ {
			base := s<<31 | e<<23
			in = append(in, base, base|0x7fffff, base|0x400000, base|0x8000, base|0x7fff, base|0x10000, base|0x18000)
			for range perExp {
				m := r.Uint32() & 0x7fffff
				switch r.IntN(4) {
				case 0: // low bits that decide rounding: ties and near-ties
					m &^= 0xffff
					m |= [...]uint32{0x8000, 0x7fff, 0x8001, 0, 0xffff}[r.IntN(5)]
				case 1:
					m &^= 0xfffff
					m |= [...]uint32{0x80000, 0x7ffff, 0x80001, 0, 0xfffff, 0x100000, 0x40000}[r.IntN(7)]
				}
				in = append(in, base|m)
			}
		}
	}
	// Every grid value of each format, the midpoints and their neighbours.
	grid := func(vals []float32) {
		for i, v := range vals {
			b := math.Float32bits(v)
			for d := uint32(0); d < 4; d++ {
				in = append(in, b+d, b-d, b^0x80000000+d, b^0x80000000-d)
			}
			if i+1 < len(vals) {
				mid := float32((float64(v) + float64(vals[i+1])) / 2) // exact: a format has few bits
				mb := math.Float32bits(mid)
				for d := uint32(0); d < 3; d++ {
					in = append(in, mb+d, mb-d, mb^0x80000000+d, mb^0x80000000-d)
				}
			}
		}
	}
	var bf, e4, e5 []float32
	for b := range uint32(0x7f80) { // positive finite bfloat16
		bf = append(bf, bfloat16.BFloat16(b).Float32())
	}
	bf = append(bf, float32(math.Inf(1)))
	for b := range uint32(0x7f) {
		e4 = append(e4, fp8.E4M3(b).Float32())
	}
	e4 = append(e4, 480, 512)
	for b := range uint32(0x7c) {
		e5 = append(e5, fp8.E5M2(b).Float32())
	}
	e5 = append(e5, 65536, 98304)
	grid(bf)
	grid(e4)
	grid(e5)
	// Specials.
	for _, b := range []uint32{0, 0x7f800000, 0x7f800001, 0x7f800002, 0x7fa00000, 0x7f900000, 0x7fbfffff, 0x7fc00000, 0x7fc00001, 0x7fe00000, 0x7fd00000, 0x7fffffff, 0x7f808000, 0x7f80ffff, 0x7f810000, 0x7fff0000, 0x7f7fffff, 0x7f7f8000, 0x7f7f7fff, 0x1, 0x7fffff, 0x800000, 0x8000, 0x7fff, 0x17fff, 0x18000} {
		in = append(in, b, b|0x80000000)
	}
	for range 4 * perExp {
		in = append(in, 0x7f800000|r.Uint32()&0x807fffff|1) // NaNs, signalling and quiet
		in = append(in, r.Uint32()&0x807fffff)              // float subnormals
	}
	r.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
	return in
}

func f32s(bits []uint32) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(bits))), len(bits))
}

// miniRef converts src with the packages into a k array.
func miniRef(k miniKind, src []uint32, m round.Mode, sat bool) []byte {
	out := make([]byte, len(src)*k.size())
	p := unsafe.Pointer(unsafe.SliceData(out))
	for i, b := range src {
		miniStore(k, p, i, miniFromFloat32(k, math.Float32frombits(b), m, sat))
	}
	return out
}

// miniCompare reports the first few elements where got differs from want.
func miniCompare(t *testing.T, what string, k miniKind, src []uint32, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	fails := 0
	gp, wp := unsafe.Pointer(unsafe.SliceData(got)), unsafe.Pointer(unsafe.SliceData(want))
	for i := range src {
		if g, w := miniLoad(k, gp, i), miniLoad(k, wp, i); g != w {
			if fails++; fails <= 5 {
				t.Errorf("%s: input %#08x (%g): got %#x, want %#x", what, src[i], math.Float32frombits(src[i]), g, w)
			}
		}
	}
	t.Errorf("%s: %d of %d differ", what, fails, len(src))
}

// Every tier's kernels give the packages' bits on miniInputs, converting all
// but a tail shorter than a block.
func TestSIMDMiniFromFloat(t *testing.T) {
	perExp := 4000
	if testing.Short() {
		perExp = testvals.Sample(1000, 4)
	}
	src := miniInputs(perExp)
	t.Logf("%d inputs", len(src))
	type variant struct {
		k   miniKind
		m   round.Mode
		sat bool
	}
	var vs []variant
	for _, k := range miniKinds {
		for _, m := range round.Modes {
			for _, sat := range []bool{false, true} {
				vs = append(vs, variant{k, m, sat})
			}
		}
	}
	want := make([][]byte, len(vs))
	var wg sync.WaitGroup
	for i, v := range vs {
		wg.Go(func() { want[i] = miniRef(v.k, src, v.m, v.sat) })
	}
	wg.Wait()
	miniTiers(t, func(t *testing.T, tier simdTier) {
		for i, v := range vs {
			got := make([]byte, len(src)*v.k.size())
			n := simdFloatToMini(v.k, unsafe.Pointer(&got[0]), f32s(src), v.m, v.sat)
			if tier == tierGo && n != 0 || tier != tierGo && (n > len(src) || len(src)-n >= 64) {
				t.Fatalf("%s %s sat=%v: converted %d of %d", v.k, v.m, v.sat, n, len(src))
			}
			copy(got[n*v.k.size():], want[i][n*v.k.size():]) // the caller's part
			miniCompare(t, fmt.Sprintf("%s %s sat=%v", v.k, v.m, v.sat), v.k, src, got, want[i])
		}
	})
}

// Every pattern of each format decodes to the packages' float bits.
func TestSIMDMiniToFloat(t *testing.T) {
	miniTiers(t, func(t *testing.T, tier simdTier) {
		for _, k := range miniKinds {
			n := 1 << (8 * k.size())
			src := make([]byte, (n+64)*k.size())
			sp := unsafe.Pointer(&src[0])
			for i := range n + 64 {
				miniStore(k, sp, i, uint16(i*0x9e37+i/n)) // every pattern, in a shuffled order
			}
			dst := make([]float32, n+64)
			got := simdMiniToFloat(k, dst, sp)
			if tier == tierGo && got != 0 || tier != tierGo && got != n+64 {
				t.Fatalf("%s: converted %d of %d", k, got, n+64)
			}
			for i := range got {
				b := miniLoad(k, sp, i)
				if g, w := math.Float32bits(dst[i]), math.Float32bits(miniToFloat32(k, b)); g != w {
					t.Errorf("%s %#x: got %#08x, want %#08x", k, b, g, w)
				}
			}
		}
	})
}

// Slices of every length 0..200 at unaligned starts of source and
// destination (odd byte addresses for bfloat16) convert like the packages,
// report a count that leaves less than a block, and write nothing outside.
func TestSIMDMiniLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	all := miniInputs(2)[:300]
	miniTiers(t, func(t *testing.T, tier simdTier) {
		for _, k := range miniKinds {
			size := k.size()
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					for n := 0; n <= 200; n++ {
						so, do := r.IntN(16), r.IntN(64)
						srcBuf := make([]uint32, n+16)
						copy(srcBuf[so:], all[n%50:n%50+n])
						src := srcBuf[so : so+n]
						buf := bytes.Repeat([]byte{0xa5}, n*size+128)
						n1 := simdFloatToMini(k, unsafe.Pointer(&buf[do]), f32s(src), m, sat)
						if n1 < 0 || n1 > n || tier != tierGo && n-n1 >= 64 || tier == tierGo && n1 != 0 {
							t.Fatalf("%s %s n=%d: converted %d", k, m, n, n1)
						}
						want := miniRef(k, src[:n1], m, sat)
						miniCompare(t, fmt.Sprintf("%s %s sat=%v n=%d off=%d", k, m, sat, n, do), k, src[:n1], buf[do:do+n1*size], want)
						for i, b := range buf {
							if (i < do || i >= do+n1*size) && b != 0xa5 {
								t.Fatalf("%s %s n=%d off=%d: wrote byte %d outside the %d converted", k, m, n, do, i, n1)
							}
						}
					}
				}
			}
			for n := 0; n <= 200; n++ {
				so, do := r.IntN(64), r.IntN(16)
				src := make([]byte, (n+64)*size)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				dst := make([]float32, n+32)
				for i := range dst {
					dst[i] = math.Float32frombits(0xa5a5a5a5)
				}
				n1 := simdMiniToFloat(k, dst[do:do+n], unsafe.Pointer(&src[so]))
				if n1 < 0 || n1 > n || tier != tierGo && n-n1 >= 64 || tier == tierGo && n1 != 0 {
					t.Fatalf("%s -> float n=%d: converted %d", k, n, n1)
				}
				for i, f := range dst {
					b := math.Float32bits(f)
					if i < do || i >= do+n1 {
						if b != 0xa5a5a5a5 {
							t.Fatalf("%s -> float n=%d: wrote element %d outside", k, n, i)
						}
						continue
					}
					x := miniLoad(k, unsafe.Pointer(&src[so]), i-do)
					if w := math.Float32bits(miniToFloat32(k, x)); b != w {
						t.Fatalf("%s -> float n=%d: %#x gave %#08x, want %#08x", k, n, x, b, w)
					}
				}
			}
		}
	})
}
