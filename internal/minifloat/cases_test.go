package minifloat

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// randFloat64 returns doubles of every kind, biased toward the ranges of
// these formats: any pattern, or an exponent within the small formats'
// reach with a random mantissa, or a value near a tie (a mantissa that is
// zero below some bit, plus or minus one).
func randFloat64(r *rand.Rand) uint64 {
	x := r.Uint64()
	switch r.IntN(4) {
	case 0:
		return x
	case 1:
		e := uint64(1023 - 140 + r.IntN(280))
		return x&(1<<63|1<<52-1) | e<<52
	default:
		e := uint64(1023 - 140 + r.IntN(280))
		keep := uint(r.IntN(53))
		m := x & (1<<52 - 1) &^ (1<<(52-keep) - 1)
		switch r.IntN(3) {
		case 0:
			m++
		case 1:
			m--
		}
		return x&(1<<63) | (e<<52 + m&(1<<52-1))
	}
}

// samples scales a default sample count: a fiftieth with -short, ten times
// more with -long.
func samples(n int) int {
	switch {
	case *long:
		return 10 * n
	case testing.Short():
		return n / 50
	}
	return n
}

func TestRandomFloat64(t *testing.T) {
	n := samples(200000)
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = randFloat64(r)
	}
	for _, dst := range small {
		t.Run(dst.Name, func(t *testing.T) {
			parallel(t, n, func(i int) bool {
				b := xs[i]
				return !diff(t, fmt.Sprintf("%s(double %#x)", dst, b), refResults(dst, Binary64, b), bigResults(dst, bigDecode(Binary64, b)))
			})
		})
	}
}

func intResults(dst *Format, v int64, unsigned bool) (out [4][2]uint64) {
	for _, m := range round.Modes {
		for si, sat := range []bool{false, true} {
			if unsigned {
				out[m][si] = FromUint64(dst, uint64(v), m, sat)
			} else {
				out[m][si] = FromInt64(dst, v, m, sat)
			}
		}
	}
	return out
}

func TestRandomIntegers(t *testing.T) {
	n := samples(100000)
	r := rand.New(rand.NewPCG(3, 4))
	xs := []uint64{0, 1, 2, 3, 5, 6, 7, 8, 15, 28, 29, 30, 31, 32, 448, 449, 464, 465, 479, 480, 57344, 61439, 61440, 61441, 65536,
		1 << 63, 1<<63 - 1, 1<<63 + 1, math.MaxUint64, math.MaxUint64 - 1, 0x7f7f << 112 >> 64, 1<<64 - 1<<55}
	for len(xs) < n {
		// Every bit length, with random low bits or runs of ones.
		v := r.Uint64() >> r.IntN(64)
		if r.IntN(3) == 0 {
			v |= 1<<r.IntN(64) - 1
		}
		xs = append(xs, v)
	}
	for _, dst := range small {
		t.Run(dst.Name, func(t *testing.T) {
			parallel(t, len(xs), func(i int) bool {
				v := xs[i]
				okU := !diff(t, fmt.Sprintf("%s(ulong %d)", dst, v), intResults(dst, int64(v), true), bigResults(dst, bigUint(v)))
				okS := !diff(t, fmt.Sprintf("%s(long %d)", dst, int64(v)), intResults(dst, int64(v), false), bigResults(dst, bigInt(int64(v))))
				return okU && okS
			})
		})
	}
}

// Cases written out by hand, each a rule of docs/FORMATS.md.
func TestCases(t *testing.T) {
	const (
		rte = round.RTE
		rtz = round.RTZ
		rtp = round.RTP
		rtn = round.RTN
	)
	f32 := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	f64 := math.Float64bits
	for _, c := range []struct {
		dst  *Format
		src  *Format
		b    uint64
		m    round.Mode
		sat  bool
		want uint64
	}{
		// 464 is half way between 448 (S.1111.110, even) and 480 (the NaN
		// pattern's value on the unbounded grid): rte picks 448.
		{E4M3, Binary32, f32(464), rte, false, 0x7e},
		{E4M3, Binary32, f32(464.001), rte, false, 0x7f},
		{E4M3, Binary32, f32(464.001), rte, true, 0x7e},
		{E4M3, Binary32, f32(-464.001), rte, false, 0xff},
		{E4M3, Binary32, f32(449), rtp, false, 0x7f},
		{E4M3, Binary32, f32(449), rtz, false, 0x7e},
		{E4M3, Binary32, f32(1e30), rtz, false, 0x7e},
		{E4M3, Binary32, f32(-1e30), rtp, false, 0xfe},
		{E4M3, Binary32, f32(-1e30), rtn, false, 0xff},
		{E4M3, Binary32, f32(float32(math.Inf(1))), rtz, false, 0x7f},
		{E4M3, Binary32, f32(float32(math.Inf(-1))), rte, true, 0xfe},
		{E4M3, Binary32, 0xffc00000, rte, true, 0xff},
		{E4M3, Binary32, f32(0x1p-10), rte, false, 0x00}, // a tie with 0 and 2^-9: even is 0
		{E4M3, Binary32, f32(0x1.8p-9), rte, false, 0x02},
		{E4M3, Binary32, f32(-0x1p-20), rtn, false, 0x81},
		{E4M3, Binary32, f32(-0x1p-20), rte, false, 0x80},
		// The FNUZ formats: 0x80 (the pattern of -0) is the one NaN, there is
		// no -0 and no infinity. E4M3FNUZ's MAX 240 is S.1111.111 (odd), so
		// the tie at 248 overflows, to NaN without _sat.
		{E4M3FNUZ, Binary32, f32(1), rte, false, 0x40},
		{E4M3FNUZ, Binary32, f32(247.9), rte, false, 0x7f},
		{E4M3FNUZ, Binary32, f32(248), rte, false, 0x80},
		{E4M3FNUZ, Binary32, f32(-248), rte, false, 0x80},
		{E4M3FNUZ, Binary32, f32(248), rte, true, 0x7f},
		{E4M3FNUZ, Binary32, f32(-248), rte, true, 0xff},
		{E4M3FNUZ, Binary32, f32(1e30), rtz, false, 0x7f},
		{E4M3FNUZ, Binary32, f32(-1e30), rtp, false, 0xff},
		{E4M3FNUZ, Binary32, f32(-1e30), rtn, false, 0x80},
		{E4M3FNUZ, Binary32, f32(float32(math.Inf(1))), rtz, false, 0x80},
		{E4M3FNUZ, Binary32, f32(float32(math.Inf(-1))), rte, true, 0xff},
		{E4M3FNUZ, Binary32, 0x7fc00000, rte, false, 0x80},
		{E4M3FNUZ, Binary32, 0xffc00000, rte, true, 0x80},
		{E4M3FNUZ, Binary32, 0x80000000, rte, false, 0x00}, // -0 is +0
		{E4M3FNUZ, Binary32, 0x80000000, rtn, true, 0x00},
		{E4M3FNUZ, Binary32, f32(0x1p-10), rte, false, 0x01},
		{E4M3FNUZ, Binary32, f32(-0x1p-11), rte, false, 0x00}, // a tie with 0: +0, not 0x80
		{E4M3FNUZ, Binary32, f32(-0x1p-20), rtp, false, 0x00},
		{E4M3FNUZ, Binary32, f32(-0x1p-20), rtz, false, 0x00},
		{E4M3FNUZ, Binary32, f32(-0x1p-20), rtn, false, 0x81},
		{E4M3FNUZ, Binary32, f32(-0x1.8p-10), rte, false, 0x82},
		{Binary32, E4M3FNUZ, 0x80, rte, false, 0x7fc00000}, // the NaN has no sign
		{Binary32, E4M3FNUZ, 0xff, rte, false, uint64(math.Float32bits(-240))},
		{E5M2FNUZ, Binary32, f32(1), rte, false, 0x40},
		{E5M2FNUZ, Binary32, f32(61440), rte, false, 0x80},
		{E5M2FNUZ, Binary32, f32(61439), rte, false, 0x7f},
		{E5M2FNUZ, Binary32, f32(61440), rtz, false, 0x7f},
		{E5M2FNUZ, Binary32, f32(-61440), rte, true, 0xff},
		{E5M2FNUZ, Binary32, f32(0x1p-17), rte, false, 0x01},
		{E5M2FNUZ, Binary32, f32(-0x1p-18), rte, false, 0x00},
		{E5M2FNUZ, Binary32, f32(-0x1p-18), rtn, false, 0x81},
		{Binary64, E5M2FNUZ, 0x80, rtz, false, 0x7ff8000000000000},
		// OCP E4M3 to E4M3FNUZ and back, value for value (not the checkpoint
		// re-encoding, which keeps the bits and doubles the scale).
		{E4M3FNUZ, E4M3, 0x80, rte, false, 0x00}, // -0
		{E4M3FNUZ, E4M3, 0x7f, rte, false, 0x80}, // NaN
		{E4M3FNUZ, E4M3, 0xff, rte, false, 0x80},
		{E4M3FNUZ, E4M3, 0x7e, rte, false, 0x80}, // 448 overflows
		{E4M3FNUZ, E4M3, 0x7e, rte, true, 0x7f},
		{E4M3FNUZ, E4M3, 0x01, rte, false, 0x02}, // 2^-9
		{E4M3, E4M3FNUZ, 0x80, rte, false, 0x7f},
		{E4M3, E4M3FNUZ, 0x7f, rte, false, 0x77}, // 240
		{E4M3, E4M3FNUZ, 0x01, rte, false, 0x00}, // 2^-10 is a tie with 0
		{E4M3, E4M3FNUZ, 0x01, rtp, false, 0x01},
		{E4M3FNUZ, E4M3FNUZ, 0x80, rte, true, 0x80},
		// E5M2: IEEE-like, 57344 = 1.11b * 2^15 is odd, so the tie at 61440
		// overflows.
		{E5M2, Binary32, f32(61440), rte, false, 0x7c},
		{E5M2, Binary32, f32(61440), rte, true, 0x7b},
		{E5M2, Binary32, f32(61439), rte, false, 0x7b},
		{E5M2, Binary32, f32(1e9), rtz, false, 0x7b},
		{E5M2, Binary32, f32(1e9), rtn, false, 0x7b},
		{E5M2, Binary32, f32(-1e9), rtn, false, 0xfc},
		{E5M2, Binary32, f32(float32(math.Inf(-1))), rtz, false, 0xfc},
		{E5M2, Binary32, f32(float32(math.Inf(-1))), rtz, true, 0xfb},
		{E5M2, Binary32, 0x7f800001, rte, false, 0x7e}, // payload below the top bits: quiet NaN
		{E5M2, Binary32, 0xffa00000, rte, false, 0xff}, // payload's top bit kept
		// bfloat16: binary32's exponent range; the quiet bit is 0x40.
		{BFloat16, Binary32, 0x7f7fffff, rte, false, 0x7f80},
		{BFloat16, Binary32, 0x7f7fffff, rte, true, 0x7f7f},
		{BFloat16, Binary32, 0x7f7fffff, rtz, false, 0x7f7f},
		{BFloat16, Binary32, 0x3f808000, rte, false, 0x3f80}, // a tie, to even
		{BFloat16, Binary32, 0x3f818000, rte, false, 0x3f82},
		{BFloat16, Binary32, 0x00008000, rte, false, 0x0000},
		{BFloat16, Binary32, 0x00008001, rte, false, 0x0001},
		{BFloat16, Binary32, 0x7f800001, rtz, false, 0x7fc0},
		{BFloat16, Binary32, 0xff810000, rtz, false, 0xffc1},
		{BFloat16, Binary32, f32(float32(math.Inf(1))), rte, true, 0x7f7f},
		{BFloat16, Binary64, f64(0x1p128), rtz, false, 0x7f7f},
		{BFloat16, Binary64, f64(0x1p-134), rte, false, 0x0000},
		{BFloat16, Binary64, f64(0x1.0000000000001p-134), rte, false, 0x0001},
		// The MX element formats have neither infinity nor NaN.
		{E2M1, Binary32, f32(7), rte, false, 0x7}, // a tie between 6 (odd) and 8: 8 overflows to MAX
		{E2M1, Binary32, f32(5), rte, false, 0x6}, // a tie between 4 (even) and 6
		{E2M1, Binary32, f32(float32(math.Inf(-1))), rte, false, 0xf},
		{E2M1, Binary32, 0xffc00000, rte, false, 0x0},
		{E2M1, Binary32, f32(0.25), rte, false, 0x0},
		{E2M1, Binary32, f32(0.2500001), rte, false, 0x1},
		{E2M3, Binary32, f32(7.75), rte, false, 0x1f},
		{E3M2, Binary32, f32(30), rte, false, 0x1f},
		{E3M2, Binary32, f32(-1e6), rtn, false, 0x3f},
		// E8M0: 2^-127 .. 2^127, unsigned, no zero; every significand is
		// 1, and ties go up: 3 lies half way between 2 (128) and 4 (129).
		{E8M0, Binary32, f32(1), rte, false, 127},
		{E8M0, Binary32, f32(3), rte, false, 129},
		{E8M0, Binary32, f32(6), rte, false, 130},
		{E8M0, Binary32, f32(5.9), rte, false, 129}, // nearer 4
		{E8M0, Binary32, f32(3), rtz, false, 128},
		{E8M0, Binary32, f32(3), rtp, false, 129},
		{E8M0, Binary32, f32(-1), rte, false, 0xff},
		{E8M0, Binary32, f32(-1), rte, true, 0x00},
		{E8M0, Binary32, f32(0), rtp, false, 0xff},
		{E8M0, Binary32, f32(0), rtp, true, 0x00},
		{E8M0, Binary32, f32(float32(math.Inf(1))), rte, false, 0xff},
		{E8M0, Binary32, f32(float32(math.Inf(1))), rte, true, 0xfe},
		{E8M0, Binary32, f32(float32(math.Inf(-1))), rte, true, 0x00},
		{E8M0, Binary32, 0x7f400000, rte, false, 0xff}, // 1.5 * 2^127: a tie, up to 2^128: overflow, to NaN
		{E8M0, Binary32, 0x7f400000, rte, true, 0xfe},
		{E8M0, Binary32, 0x7f3fffff, rte, false, 0xfe},
		{E8M0, Binary32, 0x7f400000, rtz, false, 0xfe},
		{E8M0, Binary32, f32(0x1p-127), rte, false, 0x00},
		{E8M0, Binary32, f32(0x1p-128), rte, false, 0x00}, // below 2^-127: 2^-127 in every mode
		{E8M0, Binary32, 1, rtz, false, 0x00},
		{E8M0, Binary32, 1, rtn, true, 0x00},
		{E8M0, Binary32, f32(0x1.8p-127), rtz, false, 0x00},
		{E8M0, Binary32, f32(0x1.8p-127), rte, false, 0x01},
		{E8M0, Binary32, 0x7fc00000, rte, true, 0xff},
		// Between the formats.
		{E4M3, E5M2, 0x7c, rte, false, 0x7f}, // inf -> NaN
		{E4M3, E5M2, 0x7c, rte, true, 0x7e},  // inf -> MAX under _sat
		{E4M3, E5M2, 0xfe, rte, true, 0xff},  // NaN stays NaN under _sat
		{E5M2, E4M3, 0x7f, rte, false, 0x7f}, // E4M3's NaN: its mantissa 111 is the payload
		{E5M2, E4M3, 0x7e, rte, false, 0x5f}, // 448 -> 448 exactly
		{E5M2, E4M3, 0x79, rte, false, 0x5c}, // 288: a tie between 256 (0x5c) and 320 -> 256 (even)
		{BFloat16, E4M3, 0xff, rte, false, 0xfff0},
		{Binary32, E8M0, 0xff, rte, false, 0x7fc00000},
		{E5M2, E5M2, 0x7d, rte, false, 0x7d}, // the identity keeps a signalling NaN
		{E5M2, E5M2, 0x7c, rte, true, 0x7b},  // but _sat clamps infinity
		{BFloat16, BFloat16, 0xff81, rte, true, 0xff81},
		{Binary16, E8M0, 0xfe, rte, false, 0x7c00}, // 2^127 overflows half
		{Binary16, E8M0, 0xfe, rtz, false, 0x7bff},
		{Binary16, E8M0, 0xff, rtz, false, 0x7e00},
	} {
		if got := Convert(c.dst, c.src, c.b, c.m, c.sat); got != c.want {
			sat := ""
			if c.sat {
				sat = "_sat"
			}
			t.Errorf("convert_%s%s_%s(%s %#x) = %#x, want %#x", c.dst, sat, c.m, c.src, c.b, got, c.want)
		}
	}
	// Integers.
	for _, c := range []struct {
		dst  *Format
		v    int64
		m    round.Mode
		sat  bool
		want uint64
	}{
		{E4M3, 0, rtn, false, 0x00},
		{E4M3, 464, rte, false, 0x7e},
		{E4M3, 465, rte, false, 0x7f},
		{E4M3, -465, rte, true, 0xfe},
		{E4M3, 17, rte, false, 0x58}, // 16 (0x58) and 18 (0x59): a tie, to even
		{E5M2, math.MinInt64, rtz, false, 0xfb},
		{E5M2, math.MinInt64, rte, false, 0xfc},
		{BFloat16, math.MaxInt64, rte, false, 0x5f00},
		{BFloat16, math.MaxInt64, rtz, false, 0x5eff},
		{E8M0, 0, rte, false, 0xff},
		{E8M0, 0, rte, true, 0x00},
		{E8M0, -8, rte, true, 0x00},
		{E8M0, 8, rte, true, 130},
	} {
		if got := FromInt64(c.dst, c.v, c.m, c.sat); got != c.want {
			t.Errorf("%s(%d) %s sat=%v = %#x, want %#x", c.dst, c.v, c.m, c.sat, got, c.want)
		}
	}
}

// The binary16 row is a second derivation of package half, which its own
// tests prove: the two agree.
func TestBinary16MatchesHalf(t *testing.T) {
	step := uint32(1)
	if testing.Short() {
		step = 7
	}
	for _, m := range round.Modes {
		for hi := uint32(0); hi < 1<<16; hi += step {
			for _, lo := range []uint32{0, 1, 0x1000, 0x1fff, 0x2000, 0x2001, 0xffff} {
				b := hi<<16 | lo
				got := FromFloat32Bits(Binary16, b, m, false)
				want := uint64(half.FromFloat32(math.Float32frombits(b), m))
				if got != want {
					t.Fatalf("binary16(float %#x) %s = %#x, half %#x", b, m, got, want)
				}
				h := uint16(hi)
				if g, w := ToFloat32Bits(Binary16, uint64(h)), math.Float32bits(half.Half(h).Float32()); g != w {
					t.Fatalf("float(half %#x) = %#x, half %#x", h, g, w)
				}
			}
		}
		r := rand.New(rand.NewPCG(5, uint64(m)))
		for range 20000 {
			b := randFloat64(r)
			got := FromFloat64Bits(Binary16, b, m, false)
			want := uint64(half.FromFloat64(math.Float64frombits(b), m))
			if got != want {
				t.Fatalf("binary16(double %#x) %s = %#x, half %#x", b, m, got, want)
			}
		}
	}
}

// bigOdd32 rounds the double b to binary32 by rounding to odd, with
// math/big.
func bigOdd32(b uint64) uint32 {
	s := bigDecode(Binary64, b)
	var sign uint32
	if s.neg {
		sign = 1 << 31
	}
	switch {
	case s.nan:
		return sign | 0x7fc00000 | uint32(s.payload>>41)&0x3fffff
	case s.inf:
		return sign | 0x7f800000
	case s.x.Sign() == 0:
		return sign
	case s.x.Cmp(bigPow2(128)) >= 0:
		return sign | 0x7f7fffff
	}
	// Truncate to the binary32 grid: 24 bits from 2^-126 up, a fixed
	// quantum of 2^-149 below.
	exp := s.x.MantExp(nil) // x = mant * 2^exp, 1/2 <= mant < 1
	prec := 24
	if exp < -125 {
		prec = exp + 149
	}
	tr := newFloat()
	if prec > 0 {
		tr.SetPrec(uint(prec)).SetMode(big.ToZero).Set(s.x)
	}
	f32, acc := tr.Float32()
	if acc != big.Exact {
		panic("not a binary32")
	}
	r := math.Float32bits(f32)
	if tr.Cmp(s.x) != 0 {
		r |= 1
	}
	return sign | r
}

func TestFloat64ToOdd32(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	xs := []uint64{0, 1, 1 << 63, 0x7ff0000000000000, 0x7ff0000000000001, 0xfff8000000000000, 0x7ff4000000000000,
		0x47efffffe0000000, 0x47efffffffffffff, 0x47f0000000000000, 0x3810000000000000, 0x380fffffffffffff,
		0x36a0000000000000, 0x369fffffffffffff, 0x36a0000000000001, 0x3690000000000000}
	for range 200000 {
		xs = append(xs, randFloat64(r))
	}
	for _, b := range xs {
		if got, want := Float64ToOdd32(b), bigOdd32(b); got != want {
			t.Fatalf("Float64ToOdd32(%#x) = %#x, want %#x", b, got, want)
		}
	}
}
