package fp4_test

import (
	"flag"
	"fmt"
	"math"
	"testing"

	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast/fastcheck"
	"github.com/clconv/clconv/round"
)

var long = flag.Bool("long", false, "check the float32 conversions on all 2^32 inputs, in every mode, with and without _sat")

var e2m1 = fastcheck.Kind{
	Ref: minifloat.E2M1,
	From32: func(b uint32, m round.Mode, sat bool) uint64 {
		if sat {
			return uint64(fp4.E2M1FromFloat32Sat(math.Float32frombits(b), m))
		}
		return uint64(fp4.E2M1FromFloat32(math.Float32frombits(b), m))
	},
	From64: func(b uint64, m round.Mode, sat bool) uint64 {
		if sat {
			return uint64(fp4.E2M1FromFloat64Sat(math.Float64frombits(b), m))
		}
		return uint64(fp4.E2M1FromFloat64(math.Float64frombits(b), m))
	},
	FromI64: func(v int64, m round.Mode, sat bool) uint64 {
		if sat {
			return uint64(fp4.E2M1FromInt64Sat(v, m))
		}
		return uint64(fp4.E2M1FromInt64(v, m))
	},
	FromU64: func(v uint64, m round.Mode, sat bool) uint64 {
		if sat {
			return uint64(fp4.E2M1FromUint64Sat(v, m))
		}
		return uint64(fp4.E2M1FromUint64(v, m))
	},
	To32: func(b uint8) uint32 { return math.Float32bits(fp4.E2M1(b).Float32()) },
	To64: func(b uint8) uint64 { return math.Float64bits(fp4.E2M1(b).Float64()) },
	Class: func(b uint8) (bool, bool, bool, bool) {
		x := fp4.E2M1(b)
		return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
	},
	Str:     func(b uint8) string { return fp4.E2M1(b).String() },
	Sprintf: func(f string, b uint8) string { return fmt.Sprintf(f, fp4.E2M1(b)) },
}

func TestFromFloat32HighHalves(t *testing.T) { fastcheck.HighHalves(t, e2m1) }

func TestFromFloat32Exhaustive(t *testing.T) {
	if !*long {
		t.Skip("-long checks all 2^32 inputs")
	}
	fastcheck.Exhaustive(t, e2m1)
}

func TestFromFloat64(t *testing.T) {
	n := 300000
	if testing.Short() {
		n = 30000
	}
	fastcheck.Float64(t, e2m1, n)
}

func TestIntegers(t *testing.T) { fastcheck.Integers(t, e2m1) }

func TestAllPatterns(t *testing.T) { fastcheck.Patterns(t, e2m1) }

func TestFormat(t *testing.T) {
	var all []fp4.E2M1
	for b := range 16 {
		all = append(all, fp4.E2M1(b))
	}
	for _, c := range []struct {
		got, want string
	}{
		{fmt.Sprint(all), "[0 0.5 1 1.5 2 3 4 6 -0 -0.5 -1 -1.5 -2 -3 -4 -6]"},
		{fmt.Sprintf("%+v|%5v|%-5v|%05v|%.1f", fp4.E2M1Max, fp4.E2M1(0xf), fp4.E2M1MinSub, fp4.E2M1(0xb), fp4.E2M1(0x3)), "+6|   -6|0.5  |-01.5|1.5"},
		{fmt.Sprintf("%b %b %#v %d", fp4.E2M1(0x3), fp4.E2M1MinSub, fp4.E2M1(0xb), fp4.E2M1One), "3p-1 1p-1 0xb %!d(fp4.E2M1=1)"},
		{fmt.Sprint(fp4.E2M1(0xf7), fp4.E2M1FromBits(0xf7).Bits()), "6 7"}, // the high bits are ignored
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// The rules of docs/FORMATS.md for formats without infinities or NaNs: a NaN
// gives +0 (ml_dtypes 0.6.0: -0 for +NaN, +0 for -NaN), an infinity and
// every overflow +-6 in every mode, with or without _sat.
func TestSpecials(t *testing.T) {
	for _, m := range round.Modes {
		for _, sat := range []bool{false, true} {
			from := fp4.E2M1FromFloat32
			if sat {
				from = fp4.E2M1FromFloat32Sat
			}
			for _, c := range []struct {
				x    float32
				want uint8
			}{
				{math.Float32frombits(0x7fc00000), 0}, {math.Float32frombits(0xff800001), 0},
				{float32(math.Inf(1)), 0x7}, {float32(math.Inf(-1)), 0xf},
				{7, 0x7}, {-1e38, 0xf}, {6, 0x7}, {-0.0, 0},
			} {
				if got := from(c.x, m).Bits(); got != c.want {
					t.Errorf("%v %s sat=%v: %#x, want %#x", c.x, m, sat, got, c.want)
				}
			}
		}
	}
}
