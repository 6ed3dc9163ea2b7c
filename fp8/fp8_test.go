package fp8_test

import (
	"flag"
	"fmt"
	"math"
	"math/big"
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
	{
		ref: minifloat.E8M0,
		from32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E8M0FromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp8.E8M0FromFloat32(math.Float32frombits(b), m))
		},
		from64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E8M0FromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp8.E8M0FromFloat64(math.Float64frombits(b), m))
		},
		fromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E8M0FromInt64Sat(v, m))
			}
			return uint64(fp8.E8M0FromInt64(v, m))
		},
		fromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E8M0FromUint64Sat(v, m))
			}
			return uint64(fp8.E8M0FromUint64(v, m))
		},
		to32: func(b uint8) uint32 { return math.Float32bits(fp8.E8M0(b).Float32()) },
		to64: func(b uint8) uint64 { return math.Float64bits(fp8.E8M0(b).Float64()) },
		class: func(b uint8) (bool, bool, bool, bool) {
			x := fp8.E8M0FromBits(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		str:      func(b uint8) string { return fp8.E8M0(b).String() },
		sprintf:  func(f string, b uint8) string { return fmt.Sprintf(f, fp8.E8M0(b)) },
		readBack: func(v float64) uint8 { return fp8.E8M0FromFloat64(v, round.RTE).Bits() },
	},
	{
		ref: minifloat.E4M3FNUZ,
		from32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FNUZFromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp8.E4M3FNUZFromFloat32(math.Float32frombits(b), m))
		},
		from64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FNUZFromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp8.E4M3FNUZFromFloat64(math.Float64frombits(b), m))
		},
		fromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FNUZFromInt64Sat(v, m))
			}
			return uint64(fp8.E4M3FNUZFromInt64(v, m))
		},
		fromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E4M3FNUZFromUint64Sat(v, m))
			}
			return uint64(fp8.E4M3FNUZFromUint64(v, m))
		},
		to32: func(b uint8) uint32 { return math.Float32bits(fp8.E4M3FNUZ(b).Float32()) },
		to64: func(b uint8) uint64 { return math.Float64bits(fp8.E4M3FNUZ(b).Float64()) },
		class: func(b uint8) (bool, bool, bool, bool) {
			x := fp8.E4M3FNUZFromBits(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		str:      func(b uint8) string { return fp8.E4M3FNUZ(b).String() },
		sprintf:  func(f string, b uint8) string { return fmt.Sprintf(f, fp8.E4M3FNUZ(b)) },
		readBack: func(v float64) uint8 { return fp8.E4M3FNUZFromFloat64(v, round.RTE).Bits() },
	},
	{
		ref: minifloat.E5M2FNUZ,
		from32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FNUZFromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp8.E5M2FNUZFromFloat32(math.Float32frombits(b), m))
		},
		from64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FNUZFromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp8.E5M2FNUZFromFloat64(math.Float64frombits(b), m))
		},
		fromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FNUZFromInt64Sat(v, m))
			}
			return uint64(fp8.E5M2FNUZFromInt64(v, m))
		},
		fromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp8.E5M2FNUZFromUint64Sat(v, m))
			}
			return uint64(fp8.E5M2FNUZFromUint64(v, m))
		},
		to32: func(b uint8) uint32 { return math.Float32bits(fp8.E5M2FNUZ(b).Float32()) },
		to64: func(b uint8) uint64 { return math.Float64bits(fp8.E5M2FNUZ(b).Float64()) },
		class: func(b uint8) (bool, bool, bool, bool) {
			x := fp8.E5M2FNUZFromBits(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		str:      func(b uint8) string { return fp8.E5M2FNUZ(b).String() },
		sprintf:  func(f string, b uint8) string { return fmt.Sprintf(f, fp8.E5M2FNUZ(b)) },
		readBack: func(v float64) uint8 { return fp8.E5M2FNUZFromFloat64(v, round.RTE).Bits() },
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

// checkExact requires s to be the exact value of the finite v, as
// strconv's exact decimal or, for E8M0's long ones, as a hex float, and in
// numfmt's layout: plain for decimal exponents from -4 to below max(digits,
// 6).
func checkExact(t *testing.T, name string, b uint8, s string, v float64) {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Cmp(new(big.Rat).SetFloat64(v)) != 0 || (v == 0 && math.Signbit(v) != strings.HasPrefix(s, "-")) {
		t.Fatalf("%s %#02x prints as %q, not its exact value %v", name, b, s, v)
	}
	if strings.HasPrefix(s, "0x") {
		return
	}
	// The exact decimal's digits and exponent, from math/big.
	digits := strings.TrimRight(strings.Replace(new(big.Float).SetPrec(2000).SetFloat64(math.Abs(v)).Text('e', 800), ".", "", 1), "0")
	mant, exp, _ := strings.Cut(digits, "e")
	x, _ := strconv.Atoi(exp)
	plain := x >= -4 && x < max(len(mant), 6)
	if v != 0 && plain == strings.Contains(s, "e") {
		t.Errorf("%s %#02x prints as %q: layout", name, b, s)
	}
}

// Decoding, classification and formatting, on every pattern.
func TestAllPatterns(t *testing.T) {
	for _, k := range kinds {
		for i := range 256 {
			b := uint8(i)
			c := k.ref.Classify(uint64(b))
			nan, inf, finite, sign := k.class(b)
			if nan != (c == minifloat.ClassNaN) || inf != (c == minifloat.ClassInf) || finite != (c <= minifloat.ClassFinite) || sign != (b&uint8(k.ref.SignBit()) != 0) {
				t.Fatalf("%s %#02x: classified wrongly", k.ref, b)
			}
			if got, want := k.to32(b), minifloat.ToFloat32Bits(k.ref, uint64(b)); got != want {
				t.Fatalf("float(%s %#02x) = %#x, reference %#x", k.ref, b, got, want)
			}
			if got, want := k.to64(b), minifloat.ToFloat64Bits(k.ref, uint64(b)); got != want {
				t.Fatalf("double(%s %#02x) = %#x, reference %#x", k.ref, b, got, want)
			}
			s := k.str(b)
			if got := k.sprintf("%v", b); got != s {
				t.Errorf("%s %#02x: %%v gives %q, String %q", k.ref, b, got, s)
			}
			if !finite {
				continue
			}
			checkExact(t, k.ref.Name, b, s, math.Float64frombits(k.to64(b)))
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
		// The exact values: %v is String (issue 29: 448 printed as 450).
		{fmt.Sprint(fp8.E4M3Max, fp8.E5M2Max, fp8.E4M3MinSub, fp8.E5M2MinSub), "448 57344 0.001953125 1.52587890625e-05"},
		{fmt.Sprintf("%v %v %v %v %v", fp8.E4M3NaN, fp8.E4M3(0xff), fp8.E5M2NegInf, fp8.E5M2PosInf, fp8.E8M0NaN), "nan -nan -inf inf nan"},
		{fmt.Sprintf("%s %s %s %q", fp8.E4M3NaN, fp8.E4M3(0xff), fp8.E5M2NegInf, fp8.E5M2(0xfd)), `nan -nan -inf "-nan"`},
		{fmt.Sprintf("%+v|%6v|%-6v|%06v|%+06v|% v", fp8.E4M3Max, fp8.E5M2NegInf, fp8.E5M2PosInf, fp8.E4M3(0xb8), fp8.E5M2PosInf, fp8.E4M3(0x38)), "+448|  -inf|inf   |-00001|  +inf| 1"},
		{fmt.Sprintf("%g %e %.1f %G", fp8.E4M3Max, fp8.E5M2Max, fp8.E5M2NegInf, fp8.E8M0Min), "448 5.734400e+04 -Inf 5.877471754111438E-39"},
		{fmt.Sprintf("%b %b %b %b", fp8.E4M3(0x3c), fp8.E5M2(0x3e), fp8.E4M3MinSub, fp8.E8M0Min), "12p-3 6p-2 1p-9 1p-127"},
		{fmt.Sprintf("%#v %#v %#v", fp8.E4M3(0x38), fp8.E5M2(0x3c), fp8.E8M0One), "0x38 0x3c 0x7f"},
		{fmt.Sprintf("%d", fp8.E4M3(0x38)), "%!d(fp8.E4M3=1)"},
		{fp8.E4M3FromFloat32(0.1, round.RTE).String(), "0.1015625"},
		{fp8.E5M2FromFloat32(-0.1, round.RTE).String(), "-0.09375"},
		{fp8.E4M3(0x80).String(), "-0"},
		// FNUZ: 0x80 is the NaN, and there is no -0.
		{fmt.Sprint(fp8.E4M3FNUZMax, fp8.E5M2FNUZMax, fp8.E4M3FNUZMinSub, fp8.E5M2FNUZMinSub, fp8.E4M3FNUZNaN, fp8.E5M2FNUZNaN), "240 57344 0.0009765625 7.62939453125e-06 nan nan"},
		{fmt.Sprintf("%v %v %b %#v", fp8.E4M3FNUZFromFloat32(-0x1p-20, round.RTE), fp8.E4M3FNUZFromFloat32(1e6, round.RTE), fp8.E4M3FNUZ(0x40), fp8.E5M2FNUZ(0x40)), "0 nan 8p-3 0x40"},
		{fmt.Sprint(fp8.E4M3FNUZFromFloat32(-1e6, round.RTE), fp8.E4M3FNUZFromFloat32Sat(-1e6, round.RTE), fp8.E4M3FNUZFromFloat32(-1e6, round.RTP)), "nan -240 -240"},
		{fmt.Sprint(fp8.E8M0Min, fp8.E8M0One, fp8.E8M0Max, fp8.E8M0FromExp(-24), fp8.E8M0FromExp(-25), fp8.E8M0FromExp(56), fp8.E8M0FromExp(57)),
			"0x1p-127 1 0x1p+127 5.9604644775390625e-08 0x1p-25 72057594037927936 0x1p+57"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
