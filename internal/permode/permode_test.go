package permode

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// modes are the four rounding modes in math/big's terms, in the order of
// each table below: rte, rtz, rtp, rtn.
var modes = [4]big.RoundingMode{big.ToNearestEven, big.ToZero, big.ToPositiveInf, big.ToNegativeInf}

var (
	f64ToF32 = [4]func(float64) float32{F64ToF32RTE, F64ToF32RTZ, F64ToF32RTP, F64ToF32RTN}
	i64ToF64 = [4]func(int64) float64{I64ToF64RTE, I64ToF64RTZ, I64ToF64RTP, I64ToF64RTN}
	i64ToF32 = [4]func(int64) float32{I64ToF32RTE, I64ToF32RTZ, I64ToF32RTP, I64ToF32RTN}
	u64ToF64 = [4]func(uint64) float64{U64ToF64RTE, U64ToF64RTZ, U64ToF64RTP, U64ToF64RTN}
	u64ToF32 = [4]func(uint64) float32{U64ToF32RTE, U64ToF32RTZ, U64ToF32RTP, U64ToF32RTN}
)

// ints returns the powers of two with their neighbours, the ties of both
// precisions with theirs, and random values of every bit length.
func ints(n int) []uint64 {
	var in []uint64
	for e := 0; e < 64; e++ {
		p := uint64(1) << e
		in = append(in, p, p-1, p+1, p-2, p+2)
		for _, prec := range []int{24, 53} {
			if e > prec {
				half := uint64(1) << (e - prec)
				in = append(in, p+half, p+half-1, p+half+1, p+3*half, p+3*half-1, p+3*half+1, p-half/2, p-half/2-1)
			}
		}
	}
	in = append(in, math.MaxUint64, math.MaxUint64-1, math.MaxUint64-1024, math.MaxUint64-1025)
	r := rand.New(rand.NewPCG(1, 2))
	for range n {
		in = append(in, r.Uint64()>>r.IntN(64))
	}
	return in
}

// TestIntToFloat checks the int64 and uint64 forms in every mode against
// math/big, which gives +0 for 0 as they must.
func TestIntToFloat(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	for _, a := range ints(n) {
		for i, bm := range modes {
			b := new(big.Float).SetMode(bm)
			w64, _ := b.SetPrec(53).SetUint64(a).Float64()
			if got := u64ToF64[i](a); math.Float64bits(got) != math.Float64bits(w64) {
				t.Fatalf("U64ToF64 %v %#x = %v, want %v", bm, a, got, w64)
			}
			w32, _ := b.SetPrec(24).SetUint64(a).Float32()
			if got := u64ToF32[i](a); math.Float32bits(got) != math.Float32bits(w32) {
				t.Fatalf("U64ToF32 %v %#x = %v, want %v", bm, a, got, w32)
			}
			for _, v := range []int64{int64(a), -int64(a)} {
				w64, _ := b.SetPrec(53).SetInt64(v).Float64()
				if got := i64ToF64[i](v); math.Float64bits(got) != math.Float64bits(w64) {
					t.Fatalf("I64ToF64 %v %d = %v, want %v", bm, v, got, w64)
				}
				w32, _ := b.SetPrec(24).SetInt64(v).Float32()
				if got := i64ToF32[i](v); math.Float32bits(got) != math.Float32bits(w32) {
					t.Fatalf("I64ToF32 %v %d = %v, want %v", bm, v, got, w32)
				}
			}
		}
	}
}

// TestF64ToF32 checks float64 -> float32 in every mode against math/big on
// the neighbours of float32's powers of two, ties and overflow threshold,
// random values, and NaNs, which keep sign and high payload, quieted.
func TestF64ToF32(t *testing.T) {
	var in []float64
	for e := -160; e <= 130; e++ {
		for _, m := range []float64{1, 1 + 0x1p-24, 1 + 0x1p-23 + 0x1p-24, 2 - 0x1p-25} {
			x := math.Ldexp(m, e)
			in = append(in, x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
		}
	}
	in = append(in, 0, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1))
	r := rand.New(rand.NewPCG(3, 4))
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	for range n {
		// Any exponent, and one of float32's range, subnormals included.
		if x := math.Float64frombits(r.Uint64() &^ (1 << 63)); x == x {
			in = append(in, x)
		}
		in = append(in, math.Ldexp(1+float64(r.Uint64()>>11)*0x1p-53, r.IntN(291)-160))
	}
	for _, x := range in {
		for _, x := range []float64{x, -x} {
			for i, bm := range modes {
				want := to32(x, bm)
				if got := f64ToF32[i](x); math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("F64ToF32 %v %x = %x, want %x", bm, x, got, want)
				}
			}
		}
	}
	for _, b := range []uint64{0x7ff8000000000000, 0xfff0000000000001, 0x7ff4000020000000, 0xffffffffffffffff} {
		want := uint32(b>>32)&0x80000000 | 0x7fc00000 | uint32(b>>29)&0x3fffff
		for i := range modes {
			if got := math.Float32bits(f64ToF32[i](math.Float64frombits(b))); got != want {
				t.Errorf("F64ToF32 mode %d NaN %#x = %#x, want %#x", i, b, got, want)
			}
		}
	}
}

// to32 rounds x to binary32 in mode bm: normal results with math/big,
// overflow and subnormal results by IEEE 754's rules (math/big's Float32
// overflows to infinity and rounds subnormals to nearest in every mode).
func to32(x float64, bm big.RoundingMode) float32 {
	if math.Abs(x) < 0x1p-126 {
		return subnormal(x, bm)
	}
	b := new(big.Float).SetPrec(24).SetMode(bm).SetFloat64(x)
	if b.MantExp(nil) > 128 { // |b| >= 2^128: overflow
		away := bm == big.ToNearestEven || bm == big.ToPositiveInf && x > 0 || bm == big.ToNegativeInf && x < 0
		if away {
			return float32(math.Copysign(math.Inf(1), x))
		}
		return float32(math.Copysign(math.MaxFloat32, x))
	}
	f, _ := b.Float32()
	return f
}

// subnormal rounds |x| < 2^-126 to a multiple of 2^-149, float32's
// subnormal spacing, in mode bm (math/big's Float32 rounds those to nearest
// in every mode). Scaling by a power of two is exact.
func subnormal(x float64, bm big.RoundingMode) float32 {
	r := map[big.RoundingMode]func(float64) float64{
		big.ToNearestEven: math.RoundToEven, big.ToZero: math.Trunc,
		big.ToPositiveInf: math.Ceil, big.ToNegativeInf: math.Floor,
	}[bm](x * 0x1p149)
	return float32(math.Copysign(r*0x1p-149, x)) // exact; keeps the sign of zero
}
