package fp8_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

var long = flag.Bool("long", false, "check the float32 conversions on all 2^32 inputs, in every mode, with and without _sat")

// kind adapts E4M3 and E5M2 to one set of tests.
type kind struct {
	ref      *minifloat.Format
	from32   func(b uint32, m round.Mode, sat bool) uint64
	from64   func(b uint64, m round.Mode, sat bool) uint64
	fromI64  func(v int64, m round.Mode, sat bool) uint64
	fromU64  func(v uint64, m round.Mode, sat bool) uint64
	to32     func(b uint8) uint32
	to64     func(b uint8) uint64
	class    func(b uint8) (nan, inf, finite, sign bool)
	str      func(b uint8) string
	sprintf  func(format string, b uint8) string
	readBack func(v float64) uint8
}

var kinds = []kind{
	{
		ref: minifloat.E4M3,
		from32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp8.E4M3FromFloat32(math.Float32frombits(b), m))
		},
		from64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp8.E4M3FromFloat64(math.Float64frombits(b), m))
		},
		fromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FromInt64Sat(v, m))
			}
			return uint64(fp8.E4M3FromInt64(v, m))
		},
		fromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FromUint64Sat(v, m))
			}
			return uint64(fp8.E4M3FromUint64(v, m))
		},
		to32: func(b uint8) uint32 { return math.Float32bits(fp8.E4M3(b).Float32()) },
		to64: func(b uint8) uint64 { return math.Float64bits(fp8.E4M3(b).Float64()) },
		class: func(b uint8) (bool, bool, bool, bool) {
			x := fp8.E4M3FromBits(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		str:      func(b uint8) string { return fp8.E4M3(b).String() },
		sprintf:  func(f string, b uint8) string { return fmt.Sprintf(f, fp8.E4M3(b)) },
		readBack: func(v float64) uint8 { return fp8.E4M3FromFloat64(v, round.RTE).Bits() },
	},
	{
		ref: minifloat.E5M2,
		from32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp8.E5M2FromFloat32(math.Float32frombits(b), m))
		},
		from64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp8.E5M2FromFloat64(math.Float64frombits(b), m))
		},
		fromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FromInt64Sat(v, m))
			}
			return uint64(fp8.E5M2FromInt64(v, m))
		},
		fromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FromUint64Sat(v, m))
			}
			return uint64(fp8.E5M2FromUint64(v, m))
		},
		to32: func(b uint8) uint32 { return math.Float32bits(fp8.E5M2(b).Float32()) },
		to64: func(b uint8) uint64 { return math.Float64bits(fp8.E5M2(b).Float64()) },
		class: func(b uint8) (bool, bool, bool, bool) {
			x := fp8.E5M2FromBits(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		str:      func(b uint8) string { return fp8.E5M2(b).String() },
		sprintf:  func(f string, b uint8) string { return fmt.Sprintf(f, fp8.E5M2(b)) },
		readBack: func(v float64) uint8 { return fp8.E5M2FromFloat64(v, round.RTE).Bits() },
	},
}

func report(t *testing.T, k kind, ms []minifloat.Mismatch) {
	t.Helper()
	for _, m := range ms {
		t.Errorf("%s(float %#08x) %s sat=%v: %#02x, reference %#02x", k.ref, m.Bits, m.Mode, m.Sat, m.Got, m.Want)
	}
}

// Every high half of a float32 with four low halves: the low 16 bits only
// ever count as sticky bits in these formats.
func TestFromFloat32HighHalves(t *testing.T) {
	lows := []uint32{0, 1, 0x8000, 0xffff}
	n := uint64(len(lows)) << 16
	in := func(i uint64) uint32 { return uint32(i/uint64(len(lows)))<<16 | lows[i%uint64(len(lows))] }
	for _, k := range kinds {
		report(t, k, minifloat.SweepFloat32(k.ref, n, in, k.from32, 20))
	}
}

func TestFromFloat32Exhaustive(t *testing.T) {
	if !*long {
		t.Skip("-long checks all 2^32 inputs")
	}
	for _, k := range kinds {
		start := time.Now()
		report(t, k, minifloat.SweepFloat32(k.ref, 1<<32, func(i uint64) uint32 { return uint32(i) }, k.from32, 20))
		t.Logf("%s: 2^32 inputs x 8 conversions in %v", k.ref, time.Since(start))
	}
}

func randFloat64(r *rand.Rand) uint64 {
	x := r.Uint64()
	e := uint64(1023 - 30 + r.IntN(60))
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
	r := rand.New(rand.NewPCG(21, 22))
	xs := []uint64{0, 1 << 63, 0x7ff0000000000000, 0x7ff0000000000001, 0xfff8000000000001, 0x7ff4000000000000,
		math.Float64bits(464), math.Float64bits(464 + 0x1p-40), math.Float64bits(61440), math.Float64bits(61440 - 0x1p-30),
		math.Float64bits(0x1p-10), math.Float64bits(0x1p-17), math.Float64bits(0x1.0000000000001p-17), math.Float64bits(1e300)}
	for range 300000 {
		xs = append(xs, randFloat64(r))
	}
	for _, k := range kinds {
		for _, b := range xs {
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					if got, want := k.from64(b, m, sat), minifloat.FromFloat64Bits(k.ref, b, m, sat); got != want {
						t.Fatalf("%s(double %#x) %s sat=%v = %#02x, reference %#02x", k.ref, b, m, sat, got, want)
					}
				}
			}
		}
	}
}

func TestIntegers(t *testing.T) {
	for _, k := range kinds {
		for _, v := range []int64{0, 1, -1, 17, 448, 464, 465, -465, 61440, 61441, 1 << 40, math.MaxInt64, math.MinInt64} {
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					if got, want := k.fromI64(v, m, sat), minifloat.FromInt64(k.ref, v, m, sat); got != want {
						t.Errorf("%s(%d) %s sat=%v = %#x, want %#x", k.ref, v, m, sat, got, want)
					}
					if got, want := k.fromU64(uint64(v), m, sat), minifloat.FromUint64(k.ref, uint64(v), m, sat); got != want {
						t.Errorf("%s(%d) %s sat=%v = %#x, want %#x", k.ref, uint64(v), m, sat, got, want)
					}
				}
			}
		}
	}
}

func sigDigits(v float64) int {
	mant, _, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	return len(strings.NewReplacer("-", "", ".", "").Replace(mant))
}

// Decoding, classification and formatting, on every pattern.
func TestAllPatterns(t *testing.T) {
	for _, k := range kinds {
		for i := range 256 {
			b := uint8(i)
			c := k.ref.Classify(uint64(b))
			nan, inf, finite, sign := k.class(b)
			if nan != (c == minifloat.ClassNaN) || inf != (c == minifloat.ClassInf) || finite != (c <= minifloat.ClassFinite) || sign != (b >= 0x80) {
				t.Fatalf("%s %#02x: classified wrongly", k.ref, b)
			}
			if got, want := k.to32(b), minifloat.ToFloat32Bits(k.ref, uint64(b)); got != want {
				t.Fatalf("float(%s %#02x) = %#x, reference %#x", k.ref, b, got, want)
			}
			if got, want := k.to64(b), minifloat.ToFloat64Bits(k.ref, uint64(b)); got != want {
				t.Fatalf("double(%s %#02x) = %#x, reference %#x", k.ref, b, got, want)
			}
			s := k.str(b)
			if !finite {
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || k.readBack(v) != b {
				t.Fatalf("%s %#02x prints as %q, which does not read back", k.ref, b, s)
			}
			if d := sigDigits(v); d > 1 {
				shorter := strconv.FormatFloat(math.Float64frombits(k.to64(b)), 'e', d-2, 64)
				if w, _ := strconv.ParseFloat(shorter, 64); k.readBack(w) == b {
					t.Fatalf("%s %#02x prints as %q, but %q reads back too", k.ref, b, s, shorter)
				}
			}
			for _, f := range []string{"%e", "%.3f", "%12.4E", "%x", "%-10.2g|", "%+.1e", "%08.3f"} {
				if got, want := k.sprintf(f, b), fmt.Sprintf(f, math.Float64frombits(k.to64(b))); got != want {
					t.Errorf("Sprintf(%q, %s %#02x) = %q, want %q", f, k.ref, b, got, want)
				}
			}
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{fmt.Sprint(fp8.E4M3Max, fp8.E5M2Max, fp8.E4M3MinSub, fp8.E5M2MinSub), "450 60000 0.002 2e-05"}, // shortest: 450 reads back to 448
		{fmt.Sprintf("%v %v %v", fp8.E4M3NaN, fp8.E4M3(0xff), fp8.E5M2NegInf), "NaN NaN -Inf"},
		{fmt.Sprintf("%s %s %s %q", fp8.E4M3NaN, fp8.E4M3(0xff), fp8.E5M2NegInf, fp8.E5M2(0xfd)), `nan -nan -inf "-nan"`},
		{fmt.Sprintf("%b %b %b", fp8.E4M3(0x3c), fp8.E5M2(0x3e), fp8.E4M3MinSub), "12p-3 6p-2 1p-9"},
		{fmt.Sprintf("%#v %#v", fp8.E4M3(0x38), fp8.E5M2(0x3c)), "0x38 0x3c"},
		{fmt.Sprintf("%d", fp8.E4M3(0x38)), "%!d(fp8.E4M3=1)"},
		{fp8.E4M3FromFloat32(0.1, round.RTE).String(), "0.1"},
		{fp8.E5M2FromFloat32(-0.1, round.RTE).String(), "-0.09"}, // -0.09375: 0.09 is nearer than 0.1
		{fp8.E4M3(0x80).String(), "-0"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
