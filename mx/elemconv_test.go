package mx

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

// elemRef is the scalar conversion ElemsFromFloat32 must reproduce.
func elemRef(e Elem, x float32, m round.Mode, sat bool) byte {
	switch {
	case e == ElemE2M1 && sat:
		return byte(fp4.E2M1FromFloat32Sat(x, m))
	case e == ElemE2M1:
		return byte(fp4.E2M1FromFloat32(x, m))
	case e == ElemE2M3 && sat:
		return byte(fp6.E2M3FromFloat32Sat(x, m))
	case e == ElemE2M3:
		return byte(fp6.E2M3FromFloat32(x, m))
	case e == ElemE3M2 && sat:
		return byte(fp6.E3M2FromFloat32Sat(x, m))
	case e == ElemE3M2:
		return byte(fp6.E3M2FromFloat32(x, m))
	case sat:
		return byte(fp8.E8M0FromFloat32Sat(x, m))
	}
	return byte(fp8.E8M0FromFloat32(x, m))
}

// elemInputs returns every float32 upper half with the low halves 0, 1,
// 0x7fff, 0x8000, 0x8001, 0xffff and two random ones: both zeros, every
// subnormal binade, every tie of these formats (their ties have zero low
// halves), the neighbours of every tie and power of two, the infinities and
// NaNs of every payload class.
func elemInputs() []float32 {
	rng := rand.New(rand.NewPCG(44, 1))
	var src []float32
	for hi := range uint32(1 << 16) {
		for _, lo := range []uint32{0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, rng.Uint32() & 0xffff, rng.Uint32() & 0xffff} {
			src = append(src, math.Float32frombits(hi<<16|lo))
		}
	}
	return src
}

func TestElemsFromFloat32(t *testing.T) {
	src := elemInputs()
	dst := make([]byte, len(src))
	if kernels.Best() >= kernels.AVX512 && simdElems(ElemE2M1, dst, src, round.RTE, false) != len(src) {
		t.Fatal("the kernels did not take the whole input")
	}
	for _, e := range []Elem{ElemE2M1, ElemE2M3, ElemE3M2, ElemE8M0} {
		for m := round.RTE; m <= round.RTN+1; m++ { // RTN+1: out of range, as RTE
			for _, sat := range []bool{false, true} {
				for tier, got := range onTiers(func() []byte {
					d := make([]byte, len(src))
					ElemsFromFloat32(e, d, src, m, sat)
					return d
				}) {
					bad := 0
					for i, x := range src {
						if want := elemRef(e, x, m, sat); got[i] != want {
							if bad++; bad <= 5 {
								t.Errorf("elem %d mode %v sat %v tier %d: %#08x gives %#02x, want %#02x", e, m, sat, tier, math.Float32bits(x), got[i], want)
							}
						}
					}
				}
			}
		}
	}
}

// TestElemsFromFloat32Tails checks the lengths and offsets that leave a
// tail to the Go loop, and that nothing beyond len(src) is written.
func TestElemsFromFloat32Tails(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2))
	src := make([]float32, 300)
	for i := range src {
		src[i] = math.Float32frombits(rng.Uint32())
	}
	for _, e := range []Elem{ElemE2M1, ElemE8M0} {
		for off := range 3 {
			for n := 0; n+off <= len(src); n += 1 + n/7 {
				s := src[off : off+n]
				d := make([]byte, n+1)
				d[n] = 0xaa
				ElemsFromFloat32(e, d[:n], s, round.RTP, true)
				for i, x := range s {
					if want := elemRef(e, x, round.RTP, true); d[i] != want {
						t.Fatalf("elem %d off %d n %d: element %d gives %#02x, want %#02x", e, off, n, i, d[i], want)
					}
				}
				if d[n] != 0xaa {
					t.Fatalf("elem %d n %d: wrote beyond the end", e, n)
				}
			}
		}
	}
}

func ExampleElemsFromFloat32() {
	codes := make([]byte, 4)
	ElemsFromFloat32(ElemE2M1, codes, []float32{0.25, 0.75, -5, 100}, round.RTE, false)
	fmt.Printf("%#x\n", codes)
	ElemsFromFloat32(ElemE8M0, codes, []float32{1, 1.5, 0, -2}, round.RTE, true)
	fmt.Printf("%#x\n", codes)
	// Output:
	// 0x00020e07
	// 0x7f800000
}
