package ref_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/bigref"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/round"
)

// conv is one scalar conversion to check.
type conv struct {
	dst, src cltype.Kind
	bits     uint64
	m        round.Mode
	sat      bool
}

func (c conv) String() string {
	s := ""
	if c.sat {
		s = "_sat"
	}
	return fmt.Sprintf("convert_%v%s_%v((%v)bits 0x%x)", c.dst, s, c.m, c.src, c.bits)
}

// impls are the two references every hard-coded expectation is checked
// against.
var impls = []struct {
	name    string
	convert func(dst, src cltype.Kind, bits uint64, m round.Mode, sat bool) (uint64, bool)
}{
	{"ref", ref.Convert},
	{"bigref", bigref.Convert},
}

func f32(x float32) uint64 { return uint64(math.Float32bits(x)) }
func f64(x float64) uint64 { return math.Float64bits(x) }

// The cases RULES.md lists under "Cases that separate correct implementations
// from almost-correct ones", plus the other concrete rules it states, with
// the expected bits written out by hand.
var cases = []struct {
	c        conv
	want     uint64
	wantImpl bool
}{
	// Float -> int rounding ties.
	{conv{cltype.Int, cltype.Float, f32(2.5), round.RTE, false}, 2, false},
	{conv{cltype.Int, cltype.Float, f32(-2.5), round.RTE, false}, 0xfffffffe, false},
	{conv{cltype.Int, cltype.Float, f32(3.5), round.RTE, false}, 4, false},
	{conv{cltype.Int, cltype.Float, f32(-2.5), round.RTN, false}, 0xfffffffd, false},
	{conv{cltype.Int, cltype.Float, f32(-2.5), round.RTZ, false}, 0xfffffffe, false},
	{conv{cltype.Int, cltype.Float, f32(-2.5), round.RTP, false}, 0xfffffffe, false},
	{conv{cltype.Int, cltype.Float, f32(2.5), round.RTP, false}, 3, false},
	{conv{cltype.Int, cltype.Float, f32(0.5), round.RTE, false}, 0, false},
	{conv{cltype.Int, cltype.Float, f32(1.5), round.RTE, false}, 2, false},
	{conv{cltype.Int, cltype.Float, f32(-0.5), round.RTN, false}, 0xffffffff, false},

	// Seed 001: convert_uchar_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f)) == (0, 254, 255, 255).
	{conv{cltype.Uchar, cltype.Float, 0xc0a00000, round.RTE, true}, 0, false},
	{conv{cltype.Uchar, cltype.Float, 0x437e8000, round.RTE, true}, 254, false},
	{conv{cltype.Uchar, cltype.Float, 0x437e999a, round.RTE, true}, 255, false},
	{conv{cltype.Uchar, cltype.Float, 0x4e8f0d18, round.RTE, true}, 255, false},

	{conv{cltype.Uchar, cltype.Float, f32(255.5), round.RTE, true}, 255, false},
	{conv{cltype.Char, cltype.Float, f32(-128.5), round.RTN, true}, 0x80, false},
	{conv{cltype.Char, cltype.Float, f32(-128.5), round.RTE, true}, 0x80, false},
	{conv{cltype.Char, cltype.Float, f32(-128.5), round.RTZ, false}, 0x80, false},
	{conv{cltype.Uint, cltype.Float, f32(-0.5), round.RTP, true}, 0, false},
	{conv{cltype.Uint, cltype.Float, f32(-0.5), round.RTP, false}, 0, false},
	// rtn takes -0.5 to -1, outside uint: implementation-defined, clconv gives the _sat result.
	{conv{cltype.Uint, cltype.Float, f32(-0.5), round.RTN, false}, 0, true},
	{conv{cltype.Uint, cltype.Float, f32(-0.5), round.RTN, true}, 0, false},

	// Saturation at the top of the range (default rtz).
	{conv{cltype.Int, cltype.Float, 0x4f000000, round.RTZ, true}, 0x7fffffff, false},
	{conv{cltype.Long, cltype.Float, 0x5f000000, round.RTZ, true}, 0x7fffffffffffffff, false},
	{conv{cltype.Ulong, cltype.Float, 0x5f800000, round.RTZ, true}, 0xffffffffffffffff, false},
	{conv{cltype.Int, cltype.Float, 0x4f000000, round.RTZ, false}, 0x7fffffff, true},
	{conv{cltype.Long, cltype.Float, 0x5f000000, round.RTZ, false}, 0x7fffffffffffffff, true},
	{conv{cltype.Ulong, cltype.Float, 0x5f800000, round.RTZ, false}, 0xffffffffffffffff, true},
	{conv{cltype.Int, cltype.Float, 0xcf000000, round.RTZ, false}, 0x80000000, false}, // -2^31 fits
	{conv{cltype.Long, cltype.Double, 0xc3e0000000000000, round.RTZ, false}, 0x8000000000000000, false},
	{conv{cltype.Ulong, cltype.Double, 0x43efffffffffffff, round.RTZ, false}, 0xfffffffffffff800, false},
	// NaN: 0 under _sat; implementation-defined (clconv: 0) without.
	{conv{cltype.Int, cltype.Float, 0x7fc00000, round.RTZ, true}, 0, false},
	{conv{cltype.Int, cltype.Float, 0xffc00001, round.RTZ, false}, 0, true},
	{conv{cltype.Uchar, cltype.Half, 0x7c01, round.RTE, true}, 0, false},
	// Infinities saturate.
	{conv{cltype.Short, cltype.Double, 0xfff0000000000000, round.RTE, true}, 0x8000, false},
	{conv{cltype.Ushort, cltype.Half, 0x7c00, round.RTE, false}, 0xffff, true},
	{conv{cltype.Ushort, cltype.Half, 0x7bff, round.RTE, false}, 0xffe0, false}, // 65504

	// Integer -> integer.
	{conv{cltype.Uchar, cltype.Int, 300, round.RTZ, false}, 44, false},
	{conv{cltype.Char, cltype.Int, 200, round.RTZ, false}, 0xc8, false},
	{conv{cltype.Uchar, cltype.Int, 300, round.RTZ, true}, 255, false},
	{conv{cltype.Char, cltype.Int, 200, round.RTN, true}, 0x7f, false},
	{conv{cltype.Int, cltype.Char, 0xff, round.RTZ, false}, 0xffffffff, false},
	{conv{cltype.Ulong, cltype.Char, 0x80, round.RTZ, true}, 0, false},
	{conv{cltype.Ulong, cltype.Char, 0x80, round.RTZ, false}, 0xffffffffffffff80, false},
	{conv{cltype.Long, cltype.Ulong, 0xffffffffffffffff, round.RTE, true}, 0x7fffffffffffffff, false},
	{conv{cltype.Uint, cltype.Long, 0x8000000000000000, round.RTE, true}, 0, false},
	{conv{cltype.Int, cltype.Long, 0x8000000000000000, round.RTE, true}, 0x80000000, false},

	// Integer -> float.
	{conv{cltype.Float, cltype.Int, 16777217, round.RTZ, false}, 0x4b800000, false},
	{conv{cltype.Float, cltype.Int, 16777217, round.RTE, false}, 0x4b800000, false},
	{conv{cltype.Float, cltype.Int, 16777217, round.RTP, false}, 0x4b800001, false},
	{conv{cltype.Float, cltype.Int, 16777219, round.RTE, false}, 0x4b800002, false}, // tie to even, upward
	{conv{cltype.Float, cltype.Long, 0x7fffffffffffffff, round.RTZ, false}, 0x5effffff, false},
	{conv{cltype.Float, cltype.Long, 0x7fffffffffffffff, round.RTE, false}, 0x5f000000, false},
	{conv{cltype.Float, cltype.Long, 0x8000000000000000, round.RTZ, false}, 0xdf000000, false},
	{conv{cltype.Float, cltype.Long, 0x8000000000000001, round.RTZ, false}, 0xdeffffff, false},
	{conv{cltype.Float, cltype.Long, 0x8000000000000001, round.RTN, false}, 0xdf000000, false},
	{conv{cltype.Float, cltype.Ulong, 0xffffffffffffffff, round.RTP, false}, 0x5f800000, false},
	{conv{cltype.Float, cltype.Ulong, 0xffffffffffffffff, round.RTZ, false}, 0x5f7fffff, false},
	{conv{cltype.Double, cltype.Long, 1<<53 + 1, round.RTP, false}, 0x4340000000000001, false},
	{conv{cltype.Double, cltype.Long, 1<<53 + 1, round.RTE, false}, 0x4340000000000000, false},
	{conv{cltype.Double, cltype.Ulong, 0xffffffffffffffff, round.RTE, false}, 0x43f0000000000000, false},
	{conv{cltype.Half, cltype.Short, 32767, round.RTZ, false}, 0x77ff, false},
	{conv{cltype.Half, cltype.Short, 32767, round.RTE, false}, 0x7800, false},
	{conv{cltype.Half, cltype.Int, 65520, round.RTE, false}, 0x7c00, false},
	{conv{cltype.Half, cltype.Int, 65519, round.RTE, false}, 0x7bff, false},
	{conv{cltype.Half, cltype.Uint, 0xffffffff, round.RTZ, false}, 0x7bff, false},
	{conv{cltype.Half, cltype.Int, 0xfff00000, round.RTP, false}, 0xfbff, false}, // -2^20: -max under rtp
	{conv{cltype.Half, cltype.Int, 0xfff00000, round.RTN, false}, 0xfc00, false},
	// Integer 0 is +0 in every mode.
	{conv{cltype.Float, cltype.Int, 0, round.RTN, false}, 0, false},
	{conv{cltype.Double, cltype.Char, 0, round.RTN, false}, 0, false},
	{conv{cltype.Half, cltype.Long, 0, round.RTN, false}, 0, false},

	// double -> float.
	{conv{cltype.Float, cltype.Double, 0x7fefffffffffffff, round.RTZ, false}, 0x7f7fffff, false},
	{conv{cltype.Float, cltype.Double, 0x7fefffffffffffff, round.RTE, false}, 0x7f800000, false},
	{conv{cltype.Float, cltype.Double, 0x7fefffffffffffff, round.RTN, false}, 0x7f7fffff, false},
	{conv{cltype.Float, cltype.Double, 0xffefffffffffffff, round.RTP, false}, 0xff7fffff, false},
	{conv{cltype.Float, cltype.Double, 0xffefffffffffffff, round.RTN, false}, 0xff800000, false},
	{conv{cltype.Float, cltype.Double, f64(0x1p-150), round.RTE, false}, 0, false},
	{conv{cltype.Float, cltype.Double, f64(0x1p-150), round.RTP, false}, 1, false},
	{conv{cltype.Float, cltype.Double, f64(0x1.8p-149), round.RTE, false}, 2, false}, // tie to even subnormal
	{conv{cltype.Float, cltype.Double, f64(0x1.fffffep-127), round.RTP, false}, 0x00800000, false},
	{conv{cltype.Float, cltype.Double, f64(-1e-300), round.RTE, false}, 0x80000000, false},
	{conv{cltype.Float, cltype.Double, f64(0x1.ffffffp127), round.RTE, false}, 0x7f800000, false}, // overflow threshold
	{conv{cltype.Float, cltype.Double, 0x47efffffefffffff, round.RTE, false}, 0x7f7fffff, false},  // just below it
	{conv{cltype.Float, cltype.Double, f64(0x1.000001p0), round.RTE, false}, 0x3f800000, false},
	{conv{cltype.Float, cltype.Double, f64(0x1.000003p0), round.RTE, false}, 0x3f800002, false},

	// float -> half.
	{conv{cltype.Half, cltype.Float, 0x477fef00, round.RTE, false}, 0x7bff, false}, // 65519
	{conv{cltype.Half, cltype.Float, 0x477fef00, round.RTP, false}, 0x7c00, false},
	{conv{cltype.Half, cltype.Float, 0x477ff000, round.RTE, false}, 0x7c00, false}, // 65520
	{conv{cltype.Half, cltype.Float, 0x477ff000, round.RTZ, false}, 0x7bff, false},
	{conv{cltype.Half, cltype.Float, 0xb3000001, round.RTZ, false}, 0x8000, false}, // -0x1.000002p-25
	{conv{cltype.Half, cltype.Float, 0xb3000001, round.RTN, false}, 0x8001, false},
	{conv{cltype.Half, cltype.Float, 0xb3000001, round.RTE, false}, 0x8001, false},
	{conv{cltype.Half, cltype.Float, 0xb3000000, round.RTE, false}, 0x8000, false}, // -0x1p-25: tie to even 0
	{conv{cltype.Half, cltype.Float, 0x33c00000, round.RTE, false}, 0x0002, false}, // 0x1.8p-24: tie to even 2
	{conv{cltype.Half, cltype.Float, 0x387fe000, round.RTE, false}, 0x0400, false}, // 0x1.ffcp-15: tie, to the smallest normal
	{conv{cltype.Half, cltype.Float, 0x387fe000, round.RTZ, false}, 0x03ff, false},
	{conv{cltype.Half, cltype.Double, 0x3e60000000000001, round.RTE, false}, 0x0001, false},

	// Widening is exact.
	{conv{cltype.Float, cltype.Half, 0x0001, round.RTZ, false}, 0x33800000, false},
	{conv{cltype.Double, cltype.Half, 0x83ff, round.RTZ, false}, 0xbf0ff80000000000, false},
	{conv{cltype.Double, cltype.Float, 0x00000001, round.RTZ, false}, 0x36a0000000000000, false},
	{conv{cltype.Double, cltype.Float, 0xff7fffff, round.RTE, false}, 0xc7efffffe0000000, false},

	// Infinities and NaNs to floating types.
	{conv{cltype.Half, cltype.Double, 0xfff0000000000000, round.RTZ, false}, 0xfc00, false},
	{conv{cltype.Double, cltype.Half, 0x7c00, round.RTZ, false}, 0x7ff0000000000000, false},
	{conv{cltype.Float, cltype.Double, 0x7ff0000000000001, round.RTE, false}, 0x7fc00000, false},
	{conv{cltype.Float, cltype.Double, 0x7ff4000000000000, round.RTE, false}, 0x7fe00000, false},
	{conv{cltype.Float, cltype.Double, 0xfff8000020000000, round.RTE, false}, 0xffc00001, false},
	{conv{cltype.Double, cltype.Float, 0x7f800001, round.RTE, false}, 0x7ff8000020000000, false},
	{conv{cltype.Double, cltype.Float, 0xffa00000, round.RTE, false}, 0xfffc000000000000, false},
	{conv{cltype.Float, cltype.Half, 0x7c01, round.RTE, false}, 0x7fc02000, false},
	{conv{cltype.Float, cltype.Half, 0xfdff, round.RTE, false}, 0xffffe000, false},
	{conv{cltype.Half, cltype.Float, 0x7fbfffff, round.RTE, false}, 0x7fff, false},
	{conv{cltype.Half, cltype.Double, 0x7ff0000000000001, round.RTE, false}, 0x7e00, false},

	// The same type is a no-op, signalling NaNs included; _sat on a float destination is ignored.
	{conv{cltype.Float, cltype.Float, 0x7f800001, round.RTE, false}, 0x7f800001, false},
	{conv{cltype.Half, cltype.Half, 0xfc01, round.RTZ, true}, 0xfc01, false},
	{conv{cltype.Double, cltype.Double, 0x7ff0000000000001, round.RTN, false}, 0x7ff0000000000001, false},
	{conv{cltype.Char, cltype.Char, 0x80, round.RTN, true}, 0x80, false},
	{conv{cltype.Float, cltype.Double, 0x7fefffffffffffff, round.RTE, true}, 0x7f800000, false},
}

func TestCases(t *testing.T) {
	for _, tc := range cases {
		for _, im := range impls {
			got, impl := im.convert(tc.c.dst, tc.c.src, tc.c.bits, tc.c.m, tc.c.sat)
			if got != tc.want || impl != tc.wantImpl {
				t.Errorf("%s: %v = 0x%x (implDefined %v), want 0x%x (implDefined %v)",
					im.name, tc.c, got, impl, tc.want, tc.wantImpl)
			}
		}
	}
}

// TestHighBitsIgnored checks that bits above the source's width do not leak
// into the result.
func TestHighBitsIgnored(t *testing.T) {
	for _, im := range impls {
		if got, _ := im.convert(cltype.Int, cltype.Char, 0xffffff05, round.RTZ, false); got != 5 {
			t.Errorf("%s: char 0x05 with garbage above = 0x%x, want 5", im.name, got)
		}
		if got, _ := im.convert(cltype.Float, cltype.Half, 0xdead3c00, round.RTZ, false); got != 0x3f800000 {
			t.Errorf("%s: half 0x3c00 with garbage above = 0x%x, want 0x3f800000", im.name, got)
		}
	}
}
