package bfloat16_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

var long = flag.Bool("long", false, "check the float32 conversions on all 2^32 inputs, in every mode, with and without _sat")

func fast32(b uint32, m round.Mode, sat bool) uint64 {
	x := math.Float32frombits(b)
	if sat {
		return uint64(bfloat16.FromFloat32Sat(x, m))
	}
	return uint64(bfloat16.FromFloat32(x, m))
}

func report(t *testing.T, ms []minifloat.Mismatch) {
	t.Helper()
	for _, m := range ms {
		t.Errorf("bfloat16(float %#08x) %s sat=%v: %#04x, reference %#04x", m.Bits, m.Mode, m.Sat, m.Got, m.Want)
	}
}

// Every high half of a float32 with the low halves that decide rounding:
// zero, the tie and its neighbours, and the extremes.
func TestFromFloat32HighHalves(t *testing.T) {
	lows := []uint32{0, 1, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff}
	n := uint64(len(lows)) << 16
	in := func(i uint64) uint32 { return uint32(i/uint64(len(lows)))<<16 | lows[i%uint64(len(lows))] }
	report(t, minifloat.SweepFloat32(minifloat.BFloat16, n, in, fast32, 20))
}

func TestFromFloat32Exhaustive(t *testing.T) {
	if !*long {
		t.Skip("-long checks all 2^32 inputs")
	}
	start := time.Now()
	report(t, minifloat.SweepFloat32(minifloat.BFloat16, 1<<32, func(i uint64) uint32 { return uint32(i) }, fast32, 20))
	t.Logf("2^32 inputs x 8 conversions in %v", time.Since(start))
}

// randFloat64 returns doubles of every kind, many near bfloat16's rounding
// boundaries (a mantissa zero below some bit, plus or minus one).
func randFloat64(r *rand.Rand) uint64 {
	x := r.Uint64()
	e := uint64(1023 - 140 + r.IntN(280))
	switch r.IntN(3) {
	case 0:
		return x
	case 1:
		return x&(1<<63|1<<52-1) | e<<52
	}
	keep := uint(r.IntN(53))
	m := x & (1<<52 - 1) &^ (1<<(52-keep) - 1)
	m += uint64(r.IntN(3)) - 1
	return x&(1<<63) | (e<<52 + m&(1<<52-1))
}

func TestFromFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	xs := []uint64{0, 1 << 63, 0x7ff0000000000000, 0x7ff0000000000001, 0xfff8000000000001, 0x47efffffe0000000,
		0x47f0000000000000, 0x47effff000000000, 0x47effff000000001, 0x36a0000000000000, 0x3690000000000000, 0x3690000000000001}
	for range 300000 {
		xs = append(xs, randFloat64(r))
	}
	for _, b := range xs {
		x := math.Float64frombits(b)
		for _, m := range round.Modes {
			if got, want := bfloat16.FromFloat64(x, m), minifloat.FromFloat64Bits(minifloat.BFloat16, b, m, false); uint64(got) != want {
				t.Fatalf("bfloat16(double %#x) %s = %#04x, reference %#04x", b, m, got, want)
			}
			if got, want := bfloat16.FromFloat64Sat(x, m), minifloat.FromFloat64Bits(minifloat.BFloat16, b, m, true); uint64(got) != want {
				t.Fatalf("bfloat16_sat(double %#x) %s = %#04x, reference %#04x", b, m, got, want)
			}
		}
	}
}

func TestIntegers(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 255, 256, 257, 258, 259, 1<<24 + 1, math.MaxInt64, math.MinInt64} {
		for _, m := range round.Modes {
			if got, want := bfloat16.FromInt64(v, m), minifloat.FromInt64(minifloat.BFloat16, v, m, false); uint64(got) != want {
				t.Errorf("bfloat16(%d) %s = %#x, want %#x", v, m, got, want)
			}
			if got, want := bfloat16.FromUint64(uint64(v), m), minifloat.FromUint64(minifloat.BFloat16, uint64(v), m, false); uint64(got) != want {
				t.Errorf("bfloat16(%d) %s = %#x, want %#x", uint64(v), m, got, want)
			}
		}
	}
	if got := bfloat16.FromInt64(257, round.RTE); got != 0x4380 { // 256: a tie, to even
		t.Errorf("bfloat16(257) = %#x", got)
	}
}

// Decoding, classification and formatting, on every pattern.
func TestAllPatterns(t *testing.T) {
	for b := range 1 << 16 {
		x := bfloat16.FromBits(uint16(b))
		c := minifloat.BFloat16.Classify(uint64(b))
		if x.IsNaN() != (c == minifloat.ClassNaN) || x.IsInf() != (c == minifloat.ClassInf) || x.IsFinite() != (c <= minifloat.ClassFinite) || x.Signbit() != (b&0x8000 != 0) {
			t.Fatalf("%#04x: classified wrongly", b)
		}
		if got, want := math.Float32bits(x.Float32()), minifloat.ToFloat32Bits(minifloat.BFloat16, uint64(b)); got != want {
			t.Fatalf("float(%#04x) = %#x, reference %#x", b, got, want)
		}
		if got, want := math.Float64bits(x.Float64()), minifloat.ToFloat64Bits(minifloat.BFloat16, uint64(b)); got != want {
			t.Fatalf("double(%#04x) = %#x, reference %#x", b, got, want)
		}
		s := x.String()
		if !x.IsFinite() {
			continue
		}
		// The shortest decimal reads back, and no decimal of fewer
		// digits does.
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || bfloat16.FromFloat64(v, round.RTE) != x {
			t.Fatalf("%#04x prints as %q, which does not read back", b, s)
		}
		digits := sigDigits(v)
		if digits > 1 {
			shorter := strconv.FormatFloat(x.Float64(), 'e', digits-2, 64)
			if w, _ := strconv.ParseFloat(shorter, 64); bfloat16.FromFloat64(w, round.RTE) == x {
				t.Fatalf("%#04x prints as %q, but %q reads back too", b, s, shorter)
			}
		}
		if got := fmt.Sprint(x); got != s && !strings.Contains(got, "e") {
			t.Fatalf("Sprint(%#04x) = %q, String %q", b, got, s)
		}
	}
}

// sigDigits returns the number of significant digits of v's shortest
// decimal.
func sigDigits(v float64) int {
	mant, _, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	return len(strings.NewReplacer("-", "", ".", "").Replace(mant))
}

// Format agrees with fmt on the float64 of the same value.
func TestFormat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	xs := []bfloat16.BFloat16{0, 0x8000, 1, 0x7f, 0x80, 0x3f80, 0x3fc0, 0x3dcd, bfloat16.MaxBFloat16, bfloat16.PosInf, bfloat16.NegInf, bfloat16.QNaN, 0xffc1}
	for range 200 {
		xs = append(xs, bfloat16.BFloat16(r.Uint32()))
	}
	for _, x := range xs {
		for _, f := range []string{"%e", "%.3f", "%12.4E", "%x", "%-10.2g|", "%+.1e", "%08.3f"} {
			if got, want := fmt.Sprintf(f, x), fmt.Sprintf(f, x.Float64()); got != want {
				t.Errorf("Sprintf(%q, %#04x) = %q, want %q", f, uint16(x), got, want)
			}
		}
	}
	for _, c := range []struct {
		format string
		x      bfloat16.BFloat16
		want   string
	}{
		{"%v", 0x3dcd, "0.1"},
		{"%.6v", 0x3dcd, "0.100098"},
		{"%b", 0x3fc0, "192p-7"},
		{"%b", 0x0001, "1p-133"},
		{"%#v", 0x3fc0, "0x3fc0"},
		{"%s", bfloat16.NegInf, "-inf"},
		{"%v", bfloat16.NegInf, "-Inf"},
		{"%q", 0xffc0, `"-nan"`},
		{"%d", 0x3f80, "%!d(bfloat16.BFloat16=1)"},
		{"%v", bfloat16.MaxBFloat16, "3.39e+38"},
		{"%v", 0x4780, "65500"}, // 65536: as half prints 65504
		{"%v", 0x4b80, "1.68e+07"},
	} {
		if got := fmt.Sprintf(c.format, c.x); got != c.want {
			t.Errorf("Sprintf(%q, %#04x) = %q, want %q", c.format, uint16(c.x), got, c.want)
		}
	}
}
