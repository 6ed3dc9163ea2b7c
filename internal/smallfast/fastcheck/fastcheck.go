// Package fastcheck holds the tests that packages fp4 and fp6 run on their
// formats' fast paths: every conversion against the integer-only reference
// internal/minifloat, every pattern's decoding, classification and exact
// printing. It is imported by tests only.
package fastcheck

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// Kind adapts one format's Go type to the checks.
type Kind struct {
	Ref     *minifloat.Format
	From32  func(b uint32, m round.Mode, sat bool) uint64
	From64  func(b uint64, m round.Mode, sat bool) uint64
	FromI64 func(v int64, m round.Mode, sat bool) uint64
	FromU64 func(v uint64, m round.Mode, sat bool) uint64
	To32    func(b uint8) uint32
	To64    func(b uint8) uint64
	Class   func(b uint8) (nan, inf, finite, sign bool)
	Str     func(b uint8) string
	Sprintf func(format string, b uint8) string
}

func report(t *testing.T, k Kind, ms []minifloat.Mismatch) {
	t.Helper()
	for _, m := range ms {
		t.Errorf("%s(float %#08x) %s sat=%v: %#02x, reference %#02x", k.Ref, m.Bits, m.Mode, m.Sat, m.Got, m.Want)
	}
}

// HighHalves checks every high half of a float32 with four low halves: the
// low 16 bits only ever count as sticky bits in these formats.
func HighHalves(t *testing.T, k Kind) {
	lows := []uint32{0, 1, 0x8000, 0xffff}
	n := uint64(len(lows)) << 16
	in := func(i uint64) uint32 { return uint32(i/uint64(len(lows)))<<16 | lows[i%uint64(len(lows))] }
	report(t, k, minifloat.SweepFloat32(k.Ref, n, in, k.From32, 20))
}

// Exhaustive checks all 2^32 float32 inputs.
func Exhaustive(t *testing.T, k Kind) {
	start := time.Now()
	report(t, k, minifloat.SweepFloat32(k.Ref, 1<<32, func(i uint64) uint32 { return uint32(i) }, k.From32, 20))
	t.Logf("%s: 2^32 inputs x 8 conversions in %v", k.Ref, time.Since(start))
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

// Float64 checks n random doubles (a third of them ties of some format and
// their neighbours) and the edges: zeros, infinities, NaNs, every value and
// midpoint of the format with the doubles on either side of it.
func Float64(t *testing.T, k Kind, n int) {
	r := rand.New(rand.NewPCG(21, 22))
	xs := []uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff0000000000001, 0xfff8000000000001, math.Float64bits(1e300), 1}
	for b := uint64(0); b <= k.Ref.Mask(); b++ {
		if k.Ref.Classify(b) != minifloat.ClassFinite {
			continue
		}
		v := math.Float64frombits(minifloat.ToFloat64Bits(k.Ref, b))
		for _, w := range []float64{v, v * 1.25, v * 1.5, v * 0.75} {
			u := math.Float64bits(w)
			xs = append(xs, u, u+1, u-1)
		}
	}
	for range n {
		xs = append(xs, randFloat64(r))
	}
	for _, b := range xs {
		for _, m := range round.Modes {
			for _, sat := range []bool{false, true} {
				if got, want := k.From64(b, m, sat), minifloat.FromFloat64Bits(k.Ref, b, m, sat); got != want {
					t.Fatalf("%s(double %#x) %s sat=%v = %#02x, reference %#02x", k.Ref, b, m, sat, got, want)
				}
			}
		}
	}
}

// Integers checks the edges of the integer conversions.
func Integers(t *testing.T, k Kind) {
	for _, v := range []int64{0, 1, -1, 3, 5, 7, 9, 17, 27, 29, 30, 31, 448, 1 << 40, math.MaxInt64, math.MinInt64} {
		for _, m := range round.Modes {
			for _, sat := range []bool{false, true} {
				if got, want := k.FromI64(v, m, sat), minifloat.FromInt64(k.Ref, v, m, sat); got != want {
					t.Errorf("%s(%d) %s sat=%v = %#x, want %#x", k.Ref, v, m, sat, got, want)
				}
				if got, want := k.FromU64(uint64(v), m, sat), minifloat.FromUint64(k.Ref, uint64(v), m, sat); got != want {
					t.Errorf("%s(%d) %s sat=%v = %#x, want %#x", k.Ref, uint64(v), m, sat, got, want)
				}
			}
		}
	}
}

// Patterns checks decoding, classification and printing of every byte: the
// bits above the format's width are ignored, String is the exact value in
// numfmt's layout and %v prints it, and the float verbs print the float64 of
// the same value.
func Patterns(t *testing.T, k Kind) {
	for i := range 256 {
		b := uint8(i)
		low := uint64(b) & k.Ref.Mask()
		c := k.Ref.Classify(low)
		nan, inf, finite, sign := k.Class(b)
		if nan != (c == minifloat.ClassNaN) || inf != (c == minifloat.ClassInf) || finite != (c <= minifloat.ClassFinite) || sign != (low&k.Ref.SignBit() != 0) {
			t.Fatalf("%s %#02x: classified wrongly", k.Ref, b)
		}
		if got, want := k.To32(b), minifloat.ToFloat32Bits(k.Ref, low); got != want {
			t.Fatalf("float(%s %#02x) = %#x, reference %#x", k.Ref, b, got, want)
		}
		if got, want := k.To64(b), minifloat.ToFloat64Bits(k.Ref, low); got != want {
			t.Fatalf("double(%s %#02x) = %#x, reference %#x", k.Ref, b, got, want)
		}
		s := k.Str(b)
		if got := k.Sprintf("%v", b); got != s {
			t.Errorf("%s %#02x: %%v gives %q, String %q", k.Ref, b, got, s)
		}
		v := math.Float64frombits(k.To64(b))
		Exact(t, k.Ref.Name, b, s, v)
		for _, f := range []string{"%e", "%.3f", "%12.4E", "%x", "%-10.2g|", "%+.1e", "%08.3f", "%g"} {
			if got, want := k.Sprintf(f, b), fmt.Sprintf(f, v); got != want {
				t.Errorf("Sprintf(%q, %s %#02x) = %q, want %q", f, k.Ref, b, got, want)
			}
		}
	}
}

// Exact requires s to be the exact value of the finite v (the sign of zero
// included), in numfmt's layout: plain for decimal exponents from -4 to
// below max(digits, 6).
func Exact(t *testing.T, name string, b uint8, s string, v float64) {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Cmp(new(big.Rat).SetFloat64(v)) != 0 || math.Signbit(v) != strings.HasPrefix(s, "-") {
		t.Fatalf("%s %#02x prints as %q, not its exact value %v", name, b, s, v)
	}
	digits := strings.TrimRight(strings.Replace(new(big.Float).SetPrec(2000).SetFloat64(math.Abs(v)).Text('e', 800), ".", "", 1), "0")
	mant, exp, _ := strings.Cut(digits, "e")
	x, _ := strconv.Atoi(exp)
	plain := x >= -4 && x < max(len(mant), 6)
	if v != 0 && plain == strings.Contains(s, "e") {
		t.Errorf("%s %#02x prints as %q: layout", name, b, s)
	}
}
