package round

import (
	"github.com/clconv/clconv/internal/testvals"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// bigModes maps each mode to math/big's.
var bigModes = map[Mode]big.RoundingMode{RTE: big.ToNearestEven, RTZ: big.ToZero, RTP: big.ToPositiveInf, RTN: big.ToNegativeInf}

// TestUint64ToFloat checks the branch-free uint64 -> binary64 and binary32
// conversions in every mode against math/big's rounding on every power of
// two with its neighbours, the ties and the neighbours of the ties of both
// precisions, and 10^6 random values of every bit length.
func TestUint64ToFloat(t *testing.T) {
	var in []uint64
	for e := 0; e < 64; e++ {
		p := uint64(1) << e
		in = append(in, p, p-1, p+1, p-2, p+2)
		for _, prec := range []int{24, 53} {
			if e > prec {
				half := uint64(1) << (e - prec) // half an ulp above p
				in = append(in, p+half, p+half-1, p+half+1, p+3*half, p+3*half-1, p+3*half+1, p-half/2, p-half/2-1)
			}
		}
	}
	in = append(in, math.MaxUint64, math.MaxUint64-1, math.MaxUint64-1024, math.MaxUint64-1025, math.MaxUint64-(1<<39))
	r := rand.New(rand.NewPCG(64, 2))
	for range testvals.Sample(1_000_000, 10) {
		in = append(in, r.Uint64()>>r.IntN(64))
	}
	for _, a := range in {
		for m, bm := range bigModes {
			want64, _ := new(big.Float).SetPrec(53).SetMode(bm).SetUint64(a).Float64()
			if got := Uint64ToFloat64(a, m); math.Float64bits(got) != math.Float64bits(want64) {
				t.Fatalf("Uint64ToFloat64(%#x, %v) = %v, want %v", a, m, got, want64)
			}
			want32, _ := new(big.Float).SetPrec(24).SetMode(bm).SetUint64(a).Float32()
			if got := Uint64ToFloat32(a, m); math.Float32bits(got) != math.Float32bits(want32) {
				t.Fatalf("Uint64ToFloat32(%#x, %v) = %v, want %v (%d bits)", a, m, got, want32, bits.Len64(a))
			}
		}
	}
}
