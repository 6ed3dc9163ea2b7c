package fp6_test

import (
	"flag"
	"fmt"
	"math"
	"testing"

	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/smallfast/fastcheck"
	"github.com/clconv/clconv/round"
)

var long = flag.Bool("long", false, "check the float32 conversions on all 2^32 inputs, in every mode, with and without _sat")

var kinds = []fastcheck.Kind{
	{
		Ref: minifloat.E2M3,
		From32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E2M3FromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp6.E2M3FromFloat32(math.Float32frombits(b), m))
		},
		From64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E2M3FromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp6.E2M3FromFloat64(math.Float64frombits(b), m))
		},
		FromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E2M3FromInt64Sat(v, m))
			}
			return uint64(fp6.E2M3FromInt64(v, m))
		},
		FromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E2M3FromUint64Sat(v, m))
			}
			return uint64(fp6.E2M3FromUint64(v, m))
		},
		To32: func(b uint8) uint32 { return math.Float32bits(fp6.E2M3(b).Float32()) },
		To64: func(b uint8) uint64 { return math.Float64bits(fp6.E2M3(b).Float64()) },
		Class: func(b uint8) (bool, bool, bool, bool) {
			x := fp6.E2M3(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		Str:     func(b uint8) string { return fp6.E2M3(b).String() },
		Sprintf: func(f string, b uint8) string { return fmt.Sprintf(f, fp6.E2M3(b)) },
	},
	{
		Ref: minifloat.E3M2,
		From32: func(b uint32, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E3M2FromFloat32Sat(math.Float32frombits(b), m))
			}
			return uint64(fp6.E3M2FromFloat32(math.Float32frombits(b), m))
		},
		From64: func(b uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E3M2FromFloat64Sat(math.Float64frombits(b), m))
			}
			return uint64(fp6.E3M2FromFloat64(math.Float64frombits(b), m))
		},
		FromI64: func(v int64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E3M2FromInt64Sat(v, m))
			}
			return uint64(fp6.E3M2FromInt64(v, m))
		},
		FromU64: func(v uint64, m round.Mode, sat bool) uint64 {
			if sat {
				return uint64(fp6.E3M2FromUint64Sat(v, m))
			}
			return uint64(fp6.E3M2FromUint64(v, m))
		},
		To32: func(b uint8) uint32 { return math.Float32bits(fp6.E3M2(b).Float32()) },
		To64: func(b uint8) uint64 { return math.Float64bits(fp6.E3M2(b).Float64()) },
		Class: func(b uint8) (bool, bool, bool, bool) {
			x := fp6.E3M2(b)
			return x.IsNaN(), x.IsInf(), x.IsFinite(), x.Signbit()
		},
		Str:     func(b uint8) string { return fp6.E3M2(b).String() },
		Sprintf: func(f string, b uint8) string { return fmt.Sprintf(f, fp6.E3M2(b)) },
	},
}

func TestFromFloat32HighHalves(t *testing.T) {
	for _, k := range kinds {
		fastcheck.HighHalves(t, k)
	}
}

func TestFromFloat32Exhaustive(t *testing.T) {
	if !*long {
		t.Skip("-long checks all 2^32 inputs")
	}
	for _, k := range kinds {
		fastcheck.Exhaustive(t, k)
	}
}

func TestFromFloat64(t *testing.T) {
	n := 300000
	if testing.Short() {
		n = 30000
	}
	for _, k := range kinds {
		fastcheck.Float64(t, k, n)
	}
}

func TestIntegers(t *testing.T) {
	for _, k := range kinds {
		fastcheck.Integers(t, k)
	}
}

func TestAllPatterns(t *testing.T) {
	for _, k := range kinds {
		fastcheck.Patterns(t, k)
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{fmt.Sprint(fp6.E2M3Max, fp6.E3M2Max, fp6.E2M3MinSub, fp6.E3M2MinSub, fp6.E2M3(0x20)), "7.5 28 0.125 0.0625 -0"},
		{fmt.Sprintf("%+v|%6v|%-6v|%06v", fp6.E2M3Max, fp6.E3M2(0x3f), fp6.E3M2MinNorm, fp6.E2M3(0x28)), "+7.5|   -28|0.25  |-00001"},
		{fmt.Sprintf("%b %b %#v %.2f", fp6.E2M3(0x0c), fp6.E3M2(0x0e), fp6.E3M2(0x0e), fp6.E3M2(0x0e)), "12p-3 6p-2 0xe 1.50"},
		{fmt.Sprintf("%d", fp6.E2M3(0x08)), "%!d(fp6.E2M3=1)"},
		{fmt.Sprint(fp6.E2M3(0xc8), fp6.E2M3FromBits(0xc8).Bits()), "1 8"}, // the high bits are ignored
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// The rules of docs/FORMATS.md for formats without infinities or NaNs: a NaN
// gives +0, an infinity and every overflow +-MAX in every mode, with or
// without _sat.
func TestSpecials(t *testing.T) {
	nan, negNaN := math.Float32frombits(0x7fc00000), math.Float32frombits(0xffc00001)
	inf := float32(math.Inf(1))
	for _, m := range round.Modes {
		for _, c := range []struct {
			got, want uint8
		}{
			{fp6.E2M3FromFloat32(nan, m).Bits(), 0}, {fp6.E2M3FromFloat32(negNaN, m).Bits(), 0},
			{fp6.E3M2FromFloat32Sat(negNaN, m).Bits(), 0},
			{fp6.E2M3FromFloat32(inf, m).Bits(), 0x1f}, {fp6.E2M3FromFloat32(-inf, m).Bits(), 0x3f},
			{fp6.E3M2FromFloat32(1e30, m).Bits(), 0x1f}, {fp6.E3M2FromFloat32(-32, m).Bits(), 0x3f},
			{fp6.E3M2FromFloat64(math.Inf(-1), m).Bits(), 0x3f}, {fp6.E2M3FromInt64(-1000, m).Bits(), 0x3f},
		} {
			if c.got != c.want {
				t.Errorf("%s: %#02x, want %#02x", m, c.got, c.want)
			}
		}
	}
}
