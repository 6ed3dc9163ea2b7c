package minifloat

import (
	"flag"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/clconv/clconv/round"
)

var long = flag.Bool("long", false, "run the oracle on every float32 sample of the chosen binades and on 2 million random inputs")

// small are the rows whose every value the oracle can list.
var small = []*Format{BFloat16, E4M3, E5M2, E2M3, E3M2, E2M1, E8M0, E4M3FNUZ, E5M2FNUZ, Binary16}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		f                *Format
		width            int
		max, min         uint64
		maxVal, minVal   float64
		emax, emin       int
		nan, inf         uint64
		hasNaN, hasInf   bool
		smallestSubExpon int
	}{
		{BFloat16, 16, 0x7f7f, 1, 0x1.fep127, 0x1p-133, 127, -126, 0x7fc0, 0x7f80, true, true, -133},
		{E4M3, 8, 0x7e, 1, 448, 0x1p-9, 8, -6, 0x7f, 0, true, false, -9},
		{E5M2, 8, 0x7b, 1, 57344, 0x1p-16, 15, -14, 0x7e, 0x7c, true, true, -16},
		{E2M3, 6, 0x1f, 1, 7.5, 0.125, 2, 0, 0, 0, false, false, -3},
		{E3M2, 6, 0x1f, 1, 28, 0.0625, 4, -2, 0, 0, false, false, -4},
		{E2M1, 4, 0x7, 1, 6, 0.5, 2, 0, 0, 0, false, false, -1},
		{E8M0, 8, 0xfe, 0, 0x1p127, 0x1p-127, 127, -127, 0xff, 0, true, false, -127},
		{E4M3FNUZ, 8, 0x7f, 1, 240, 0x1p-10, 7, -7, 0x80, 0, true, false, -10},
		{E5M2FNUZ, 8, 0x7f, 1, 57344, 0x1p-17, 15, -15, 0x80, 0, true, false, -17},
		{Binary16, 16, 0x7bff, 1, 65504, 0x1p-24, 15, -14, 0x7e00, 0x7c00, true, true, -24},
		{Binary32, 32, 0x7f7fffff, 1, math.MaxFloat32, 0x1p-149, 127, -126, 0x7fc00000, 0x7f800000, true, true, -149},
	} {
		f := c.f
		if err := f.Validate(); err != nil {
			t.Error(err)
		}
		if f.Width() != c.width || f.MaxBits() != c.max || f.MinBits() != c.min || f.Emax() != c.emax || f.Emin() != c.emin {
			t.Errorf("%s: width %d max %#x min %#x emax %d emin %d", f, f.Width(), f.MaxBits(), f.MinBits(), f.Emax(), f.Emin())
		}
		if v := math.Float64frombits(ToFloat64Bits(f, f.MaxBits())); v != c.maxVal {
			t.Errorf("%s: max %v, want %v", f, v, c.maxVal)
		}
		if v := math.Float64frombits(ToFloat64Bits(f, f.MinBits())); v != c.minVal {
			t.Errorf("%s: min %v, want %v", f, v, c.minVal)
		}
		if nan, ok := f.NaNBits(); nan != c.nan || ok != c.hasNaN || ok && f.Classify(nan) != ClassNaN {
			t.Errorf("%s: NaN %#x %v", f, nan, ok)
		}
		if inf, ok := f.InfBits(); ok != c.hasInf || ok && (inf != c.inf || f.Classify(inf) != ClassInf) {
			t.Errorf("%s: inf %#x %v", f, inf, ok)
		}
		if ByName(f.Name) != f {
			t.Errorf("ByName(%q)", f.Name)
		}
	}
	for _, bad := range []Format{
		{Name: "signed-no-zero", ExpBits: 4, MantBits: 3, Bias: 7, Signed: true},
		{Name: "ieee-nan-no-mant", ExpBits: 5, Bias: 15, Signed: true, Zero: true, Inf: true},
		{Name: "inf-without-ieee-nan", ExpBits: 5, MantBits: 2, Bias: 15, Signed: true, Zero: true, Inf: true, NaN: NaNAllOnes},
		{Name: "too-wide", ExpBits: 12, MantBits: 52, Bias: 2047, Signed: true, Zero: true, Inf: true},
		{Name: "fnuz-unsigned", ExpBits: 4, MantBits: 3, Bias: 8, Zero: true, NaN: NaNNegZero},
	} {
		if bad.Validate() == nil {
			t.Errorf("%s: valid", bad.Name)
		}
	}
	if len(Formats) != 12 || Formats[0].Validate() != nil {
		t.Errorf("table")
	}
}

// refResults converts in every mode, without and with _sat.
func refResults(dst, src *Format, b uint64) (out [4][2]uint64) {
	for _, m := range round.Modes {
		out[m][0] = Convert(dst, src, b, m, false)
		out[m][1] = Convert(dst, src, b, m, true)
	}
	return out
}

func diff(t *testing.T, what string, got, want [4][2]uint64) bool {
	t.Helper()
	if got == want {
		return false
	}
	for _, m := range round.Modes {
		for si, sat := range []string{"", "_sat"} {
			if got[m][si] != want[m][si] {
				t.Errorf("%s%s_%s: %#x, want %#x", what, sat, m, got[m][si], want[m][si])
			}
		}
	}
	return true
}

// parallel runs fn(i) for i in [0, n) on every core and stops after the
// first failures.
func parallel(t *testing.T, n int, fn func(i int) bool) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	fails := 0
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				if !fn(i) {
					mu.Lock()
					fails++
					stop := fails > 10
					mu.Unlock()
					if stop {
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if fails > 10 {
		t.Fatal("too many failures")
	}
}

// Every pattern of every row of at most 16 bits, to every such row, in
// every mode, with and without _sat, against the oracle.
func TestAllSmallSources(t *testing.T) {
	for _, src := range small {
		n := 1 << src.Width()
		for _, dst := range small {
			if testing.Short() && src.Width() == 16 && dst.Width() == 16 {
				continue
			}
			// With -short, every 16th pattern of a 16-bit source.
			stride := 1
			if testing.Short() && src.Width() == 16 {
				stride = 16
			}
			t.Run(src.Name+"->"+dst.Name, func(t *testing.T) {
				parallel(t, n/stride, func(i int) bool {
					b := uint64(i * stride)
					want := bigResults(dst, bigDecode(src, b))
					if *dst == *src {
						// The identity keeps the bits; _sat only clamps
						// infinities.
						for m := range want {
							want[m][0] = b
							if src.Classify(b) != ClassInf {
								want[m][1] = b
							}
						}
					}
					return !diff(t, fmt.Sprintf("%s(%s %#x)", dst, src, b), refResults(dst, src, b), want)
				})
			})
		}
	}
}

// Decoding to binary32 and binary64 is exact, and NaNs keep sign and payload.
func TestDecodeExact(t *testing.T) {
	for _, src := range small {
		for b := uint64(0); b < 1<<src.Width(); b++ {
			s := bigDecode(src, b)
			for _, dst := range []*Format{Binary32, Binary64} {
				out := Convert(dst, src, b, round.RTZ, false)
				d := bigDecode(dst, out)
				ok := d.nan == s.nan && d.inf == s.inf && d.neg == (s.neg && src.Signed)
				switch {
				case s.nan:
					ok = ok && d.payload == s.payload|1<<63
				case !s.inf:
					ok = ok && d.x.Cmp(s.x) == 0
				}
				if !ok {
					t.Fatalf("%s %#x -> %s %#x", src, b, dst, out)
				}
			}
		}
	}
}

// float32 patterns with every combination of the top 12 mantissa bits
// (every rounding position of these formats) and four low-bit patterns, in
// every binade from below the smallest subnormal to beyond the largest
// value of each format, and in a few far binades.
func float32Samples(f *Format) []uint32 {
	lo := f.Emin() - f.MantBits - 3
	hi := f.Emax() + 3
	var exps []int
	for e := lo; e <= hi; e++ {
		exps = append(exps, e)
	}
	exps = append(exps, -149, -140, -127, -126, -100, 0, 50, 126, 127)
	var out []uint32
	seen := map[int]bool{}
	for _, e := range exps {
		field := e + 127
		if field < 1 || field > 254 || seen[field] {
			continue
		}
		seen[field] = true
		for top := uint32(0); top < 1<<12; top++ {
			for _, low := range []uint32{0, 1, 0x400, 0x7ff} {
				out = append(out, uint32(field)<<23|top<<11|low)
			}
		}
	}
	// Binary32 subnormals, zeros, infinities and NaNs.
	for _, b := range []uint32{0, 1, 2, 3, 0x7fffff, 0x400000, 0x400001, 0x7f800000, 0x7f800001, 0x7fc00000, 0x7fffffff, 0x7fa00000, 0x7f810000, 0x7f80ffff} {
		out = append(out, b)
	}
	n := len(out)
	for _, b := range out[:n] {
		out = append(out, b|0x80000000)
	}
	return out
}

func TestFloat32Binades(t *testing.T) {
	for _, dst := range small {
		t.Run(dst.Name, func(t *testing.T) {
			xs := float32Samples(dst)
			// Every 8th sample by default, every 256th with -short.
			stride := 8
			switch {
			case *long:
				stride = 1
			case testing.Short():
				stride = 256
			}
			var some []uint32
			for i := 0; i < len(xs); i += stride {
				some = append(some, xs[i])
			}
			xs = some
			parallel(t, len(xs), func(i int) bool {
				b := uint64(xs[i])
				return !diff(t, fmt.Sprintf("%s(float %#x)", dst, b), refResults(dst, Binary32, b), bigResults(dst, bigDecode(Binary32, b)))
			})
		})
	}
}

// With -long, every float32 of two whole binades per format, both signs:
// the one holding MAX (where rounding meets overflow) and the one just
// below the smallest normal (where it meets the subnormals; for bfloat16
// and E8M0 that is binary32's subnormal range).
func TestFloat32WholeBinades(t *testing.T) {
	if !*long {
		t.Skip("-long checks every float32 of chosen binades")
	}
	for _, dst := range []*Format{BFloat16, E4M3, E5M2, E2M1, E8M0, E4M3FNUZ, E5M2FNUZ} {
		for _, e := range []int{dst.Emax(), dst.Emin() - 1} {
			t.Run(fmt.Sprintf("%s/2^%d", dst.Name, e), func(t *testing.T) {
				field := uint32(max(e+127, 0)) // 0: binary32's subnormals
				parallel(t, 1<<24, func(i int) bool {
					b := uint64(uint32(i&1)<<31 | field<<23 | uint32(i>>1))
					return !diff(t, fmt.Sprintf("%s(float %#x)", dst, b), refResults(dst, Binary32, b), bigResults(dst, bigDecode(Binary32, b)))
				})
			})
		}
	}
}
