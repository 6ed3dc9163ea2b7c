package round_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/bigref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// The arithmetic primitives are checked against internal/bigref's exact
// oracle (math/big: the exact result, rounded once by integer arithmetic) in
// all four modes, bit for bit (NaN results included: both follow clconv's NaN
// policy), and in rte also against Go's own hardware operation.

var ops = []bigref.Op{bigref.Add, bigref.Sub, bigref.Mul, bigref.Div, bigref.Sqrt, bigref.FMA}

// randomPerOp is the number of biased random operand tuples per operation
// and format; each is checked in all four modes.
const randomPerOp = 150_000

// call64 applies op to float64 bit patterns in mode m.
func call64(op bigref.Op, m round.Mode, x []uint64) uint64 {
	a := math.Float64frombits(x[0])
	var b, c float64
	if len(x) > 1 {
		b = math.Float64frombits(x[1])
	}
	if len(x) > 2 {
		c = math.Float64frombits(x[2])
	}
	var r float64
	switch op {
	case bigref.Add:
		r = round.AddF64(a, b, m)
	case bigref.Sub:
		r = round.SubF64(a, b, m)
	case bigref.Mul:
		r = round.MulF64(a, b, m)
	case bigref.Div:
		r = round.DivF64(a, b, m)
	case bigref.Sqrt:
		r = round.SqrtF64(a, m)
	case bigref.FMA:
		r = round.FMAF64(a, b, c, m)
	}
	return math.Float64bits(r)
}

// hw64 is Go's own rte operation.
func hw64(op bigref.Op, x []uint64) uint64 {
	a := math.Float64frombits(x[0])
	var b, c float64
	if len(x) > 1 {
		b = math.Float64frombits(x[1])
	}
	if len(x) > 2 {
		c = math.Float64frombits(x[2])
	}
	var r float64
	switch op {
	case bigref.Add:
		r = a + b
	case bigref.Sub:
		r = a - b
	case bigref.Mul:
		r = float64(a * b)
	case bigref.Div:
		r = a / b
	case bigref.Sqrt:
		r = math.Sqrt(a)
	case bigref.FMA:
		r = math.FMA(a, b, c)
	}
	return math.Float64bits(r)
}

func call32(op bigref.Op, m round.Mode, x []uint64) uint64 {
	a := math.Float32frombits(uint32(x[0]))
	var b, c float32
	if len(x) > 1 {
		b = math.Float32frombits(uint32(x[1]))
	}
	if len(x) > 2 {
		c = math.Float32frombits(uint32(x[2]))
	}
	var r float32
	switch op {
	case bigref.Add:
		r = round.AddF32(a, b, m)
	case bigref.Sub:
		r = round.SubF32(a, b, m)
	case bigref.Mul:
		r = round.MulF32(a, b, m)
	case bigref.Div:
		r = round.DivF32(a, b, m)
	case bigref.Sqrt:
		r = round.SqrtF32(a, m)
	case bigref.FMA:
		r = round.FMAF32(a, b, c, m)
	}
	return uint64(math.Float32bits(r))
}

// hw32 is Go's own rte binary32 operation; ok is false for fma, which Go
// has only in binary64 (rounding its result again to binary32 would not be
// correct), so that FMAF32's rte is checked against the oracle alone.
func hw32(op bigref.Op, x []uint64) (r uint64, ok bool) {
	a := math.Float32frombits(uint32(x[0]))
	var b float32
	if len(x) > 1 {
		b = math.Float32frombits(uint32(x[1]))
	}
	var f float32
	switch op {
	case bigref.Add:
		f = a + b
	case bigref.Sub:
		f = a - b
	case bigref.Mul:
		f = float32(a * b)
	case bigref.Div:
		f = a / b
	case bigref.Sqrt:
		// Go's float32 square root: innocuous double rounding (53 >= 2*24+2).
		f = float32(math.Sqrt(float64(a)))
	default:
		return 0, false
	}
	return uint64(math.Float32bits(f)), true
}

// checker compares the primitives of one format with the oracle.
type checker struct {
	t     *testing.T
	k     cltype.Kind
	fails int
	n     int // operand tuples checked
}

func (c *checker) isNaN(b uint64) bool {
	if c.k == cltype.Float {
		return b&0x7fffffff > 0x7f800000
	}
	return b&^(1<<63) > 0x7ff0000000000000
}

func (c *checker) check(op bigref.Op, x ...uint64) {
	c.t.Helper()
	c.n++
	want := bigref.ArithModes(op, c.k, x...)
	for _, m := range round.Modes {
		var got uint64
		if c.k == cltype.Float {
			got = call32(op, m, x)
		} else {
			got = call64(op, m, x)
		}
		if got != want[m] {
			c.fail(fmt.Sprintf("%v %v %s: got %#x, oracle %#x", c.k, op, c.args(x), got, want[m]))
		}
	}
	var hw uint64
	ok := true
	if c.k == cltype.Float {
		hw, ok = hw32(op, x)
	} else {
		hw = hw64(op, x)
	}
	// Go leaves NaN bits to the hardware; only NaN-ness is compared there.
	if ok && hw != want[round.RTE] && !(c.isNaN(hw) && c.isNaN(want[round.RTE])) {
		c.fail(fmt.Sprintf("%v %v %s rte: hardware %#x, oracle %#x", c.k, op, c.args(x), hw, want[round.RTE]))
	}
}

func (c *checker) args(x []uint64) string {
	s := ""
	for i, b := range x {
		if i > 0 {
			s += ", "
		}
		if c.k == cltype.Float {
			s += fmt.Sprintf("%#x (%x)", b, math.Float32frombits(uint32(b)))
		} else {
			s += fmt.Sprintf("%#x (%x)", b, math.Float64frombits(b))
		}
	}
	return s
}

func (c *checker) fail(msg string) {
	c.t.Helper()
	c.fails++
	c.t.Error(msg)
	if c.fails >= 20 {
		c.t.Fatal("too many failures")
	}
}

// TestArithEdges checks every pair of the format's edge values (zeros,
// subnormals, the normal boundary, the largest finite value, infinities,
// NaNs, and the conversion anchors) under + - * /, every edge value under
// sqrt, and fma on random triples of edge values.
func TestArithEdges(t *testing.T) {
	for _, k := range []cltype.Kind{cltype.Float, cltype.Double} {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			c := &checker{t: t, k: k}
			edges := testvals.Edges(k)
			// Under an emulator, every 4th pair (a different 4th for each a).
			step := testvals.Stride(12)
			for i, a := range edges {
				for j := i % step; j < len(edges); j += step {
					for _, op := range ops[:4] {
						c.check(op, a, edges[j])
					}
				}
				c.check(bigref.Sqrt, a)
			}
			r := rand.New(rand.NewPCG(1, uint64(k)))
			triples := 100_000
			if testing.Short() {
				triples = testvals.Sample(20_000, 12) // the ports run -short under qemu, where big.Float is slow
			}
			for range triples {
				c.check(bigref.FMA, edges[r.IntN(len(edges))], edges[r.IntN(len(edges))], edges[r.IntN(len(edges))])
			}
			t.Logf("%d operand tuples, 4 modes each", c.n)
		})
	}
}

// TestArithRandom checks randomPerOp biased random operand tuples per
// operation (see gen).
func TestArithRandom(t *testing.T) {
	for _, k := range []cltype.Kind{cltype.Float, cltype.Double} {
		for _, op := range ops {
			t.Run(k.String()+"/"+op.String(), func(t *testing.T) {
				t.Parallel()
				c := &checker{t: t, k: k}
				g := newGen(k, uint64(op)<<8|uint64(k))
				for range testvals.Sample(randomPerOp, 12) {
					c.check(op, g.args(op)...)
				}
			})
		}
	}
}

// TestArithNamed checks results IEEE 754 pins down, spelled out.
func TestArithNamed(t *testing.T) {
	negZero := math.Copysign(0, -1)
	inf := math.Inf(1)
	max := math.MaxFloat64
	for _, tc := range []struct {
		name string
		got  func(m round.Mode) float64
		want [4]float64 // rte, rtz, rtp, rtn
	}{
		{"1 - 1", func(m round.Mode) float64 { return round.SubF64(1, 1, m) }, [4]float64{0, 0, 0, negZero}},
		{"+0 + -0", func(m round.Mode) float64 { return round.AddF64(0, negZero, m) }, [4]float64{0, 0, 0, negZero}},
		{"-0 + -0", func(m round.Mode) float64 { return round.AddF64(negZero, negZero, m) }, [4]float64{negZero, negZero, negZero, negZero}},
		{"-0 - +0", func(m round.Mode) float64 { return round.SubF64(negZero, 0, m) }, [4]float64{negZero, negZero, negZero, negZero}},
		{"max + max", func(m round.Mode) float64 { return round.AddF64(max, max, m) }, [4]float64{inf, max, inf, max}},
		{"-max - max", func(m round.Mode) float64 { return round.SubF64(-max, max, m) }, [4]float64{-inf, -max, -max, -inf}},
		{"1 + 2^-60", func(m round.Mode) float64 { return round.AddF64(1, 0x1p-60, m) }, [4]float64{1, 1, 1 + 0x1p-52, 1}},
		{"-1 - 2^-60", func(m round.Mode) float64 { return round.SubF64(-1, 0x1p-60, m) }, [4]float64{-1, -1, -1, -1 - 0x1p-52}},
		{"2^-1074 * 0.5", func(m round.Mode) float64 { return round.MulF64(0x1p-1074, 0.5, m) }, [4]float64{0, 0, 0x1p-1074, 0}},
		{"-2^-1074 * 0.75", func(m round.Mode) float64 { return round.MulF64(-0x1p-1074, 0.75, m) }, [4]float64{-0x1p-1074, negZero, negZero, -0x1p-1074}},
		{"3*2^-1074 / 2", func(m round.Mode) float64 { return round.DivF64(0x1.8p-1073, 2, m) }, [4]float64{0x1p-1073, 0x1p-1074, 0x1p-1073, 0x1p-1074}},
		{"1 / 3", func(m round.Mode) float64 { return round.DivF64(1, 3, m) }, [4]float64{1.0 / 3, 0x1.5555555555555p-2, 0x1.5555555555556p-2, 0x1.5555555555555p-2}},
		{"1 / -0", func(m round.Mode) float64 { return round.DivF64(1, negZero, m) }, [4]float64{-inf, -inf, -inf, -inf}},
		{"sqrt(2)", func(m round.Mode) float64 { return round.SqrtF64(2, m) }, [4]float64{math.Sqrt2, 0x1.6a09e667f3bccp0, 0x1.6a09e667f3bcdp0, 0x1.6a09e667f3bccp0}},
		{"sqrt(-0)", func(m round.Mode) float64 { return round.SqrtF64(negZero, m) }, [4]float64{negZero, negZero, negZero, negZero}},
		{"fma(1, 1, -1)", func(m round.Mode) float64 { return round.FMAF64(1, 1, -1, m) }, [4]float64{0, 0, 0, negZero}},
		{"fma(+0, 1, -0)", func(m round.Mode) float64 { return round.FMAF64(0, 1, negZero, m) }, [4]float64{0, 0, 0, negZero}},
		{"fma(-0, 1, -0)", func(m round.Mode) float64 { return round.FMAF64(negZero, 1, negZero, m) }, [4]float64{negZero, negZero, negZero, negZero}},
		{"fma(2^-600, 2^-600, 1)", func(m round.Mode) float64 { return round.FMAF64(0x1p-600, 0x1p-600, 1, m) }, [4]float64{1, 1, 1 + 0x1p-52, 1}},
		{"fma(2^-600, -2^-600, 0)", func(m round.Mode) float64 { return round.FMAF64(0x1p-600, -0x1p-600, 0, m) }, [4]float64{negZero, negZero, negZero, -0x1p-1074}},
	} {
		for _, m := range round.Modes {
			if got := tc.got(m); math.Float64bits(got) != math.Float64bits(tc.want[m]) {
				t.Errorf("%s %v = %x, want %x", tc.name, m, got, tc.want[m])
			}
		}
	}
	nan := func(f float64) uint64 { return math.Float64bits(f) }
	sNaN := math.Float64frombits(0xfff0000000000001)
	for _, m := range round.Modes {
		if got := nan(round.SubF64(inf, inf, m)); got != 0x7ff8000000000000 {
			t.Errorf("inf - inf %v = %#x, want the default NaN", m, got)
		}
		if got := nan(round.MulF64(0, inf, m)); got != 0x7ff8000000000000 {
			t.Errorf("0 * inf %v = %#x, want the default NaN", m, got)
		}
		if got := nan(round.DivF64(0, 0, m)); got != 0x7ff8000000000000 {
			t.Errorf("0 / 0 %v = %#x", m, got)
		}
		if got := nan(round.SqrtF64(-1, m)); got != 0x7ff8000000000000 {
			t.Errorf("sqrt(-1) %v = %#x", m, got)
		}
		if got := nan(round.SubF64(1, sNaN, m)); got != 0xfff8000000000001 {
			t.Errorf("1 - sNaN %v = %#x, want sNaN quieted, not negated", m, got)
		}
		if got := nan(round.FMAF64(0, inf, sNaN, m)); got != 0xfff8000000000001 {
			t.Errorf("fma(0, inf, sNaN) %v = %#x, want the NaN operand", m, got)
		}
		if got := math.Float32bits(round.AddF32(float32(math.Inf(1)), float32(math.Inf(-1)), m)); got != 0x7fc00000 {
			t.Errorf("float inf + -inf %v = %#x", m, got)
		}
	}
	// float: 1 + 2^-30 and the double rounding FMAF32 must avoid.
	for _, m := range round.Modes {
		want := [4]float32{1, 1, 1 + 0x1p-23, 1}[m]
		if got := round.AddF32(1, 0x1p-30, m); got != want {
			t.Errorf("float 1 + 2^-30 %v = %x, want %x", m, got, want)
		}
	}
	// a*a = 1 + 2^-11 + 2^-24 is a binary32 tie; c = ±2^-60 moves it off the
	// tie by less than binary64's half unit, so float32(math.FMA(a, a, c))
	// would see the tie and round to even for both signs of c.
	a := float32(1 + 0x1p-12)
	if got := round.FMAF32(a, a, -0x1p-60, round.RTE); got != 1+0x1p-11 {
		t.Errorf("FMAF32 tie just below: %x, want %x", got, float32(1+0x1p-11))
	}
	if got := round.FMAF32(a, a, 0x1p-60, round.RTE); got != 1+0x1p-11+0x1p-23 {
		t.Errorf("FMAF32 tie just above: %x, want %x", got, float32(1+0x1p-11+0x1p-23))
	}
}

// gen makes operand tuples biased toward the places where a directed
// rounding goes wrong: results on or next to a tie, results exactly
// representable, cancellation, overflow and the largest finite value, the
// subnormal range and underflow to zero, and the ranges where the fast paths'
// error-free transformations hand over to the exact slow paths.
type gen struct {
	r          *rand.Rand
	k          cltype.Kind
	p          int // precision
	emin, emax int
}

func newGen(k cltype.Kind, seed uint64) *gen {
	f := k.Format()
	return &gen{r: rand.New(rand.NewPCG(seed, 99)), k: k, p: f.Prec, emin: f.Emin(), emax: f.Emax}
}

// sig returns a significand in [2^(p-1), 2^p): random, all ones, one bit
// past the leading one, or the leading one alone.
func (g *gen) sig() uint64 {
	top := uint64(1) << (g.p - 1)
	switch g.r.IntN(6) {
	case 0:
		return top
	case 1:
		return 2*top - 1
	case 2:
		return top | uint64(g.r.IntN(4))
	case 3:
		return 2*top - 1 - uint64(g.r.IntN(4))
	}
	return top | g.r.Uint64()&(top-1)
}

// short returns an odd integer of exactly n bits (n >= 1).
func (g *gen) short(n int) uint64 {
	if n <= 1 {
		return 1
	}
	return 1<<(n-1) | g.r.Uint64()&(1<<(n-1)-1) | 1
}

// val returns ±m * 2^e as a value of the format (rounded to nearest when it
// does not fit, which only moves the operand).
func (g *gen) val(m uint64, e int) uint64 {
	x := math.Ldexp(float64(m), e)
	if g.r.IntN(2) == 0 {
		x = -x
	}
	return g.bits(x)
}

// num returns a value with the significand sig() and exponent e.
func (g *gen) num(e int) uint64 { return g.val(g.sig(), e-g.p+1) }

func (g *gen) bits(x float64) uint64 {
	if g.k == cltype.Float {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

func (g *gen) float(b uint64) float64 {
	if g.k == cltype.Float {
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// exp returns an interesting exponent: anywhere, or near the ends of the range.
func (g *gen) exp() int {
	switch g.r.IntN(5) {
	case 0:
		return g.emax - g.r.IntN(4)
	case 1:
		return g.emin + g.r.IntN(5) - 2
	case 2:
		return g.emin - g.p + g.r.IntN(g.p+1) // subnormal
	}
	return g.emin + g.r.IntN(g.emax-g.emin+1)
}

// ulps moves b by d units in the last place (its bit pattern, within the sign).
func (g *gen) ulps(b uint64, d int) uint64 {
	sign := uint64(1) << (g.k.Bits() - 1)
	mag := b &^ sign
	if d < 0 && mag < uint64(-d) {
		return b & sign
	}
	return b&sign | (mag+uint64(d))&(sign-1)
}

func (g *gen) args(op bigref.Op) []uint64 {
	r := g.r
	if r.IntN(8) == 0 {
		// Raw random patterns: NaN payloads, infinities, anything.
		x := []uint64{testvals.Random(r, g.k), testvals.Random(r, g.k), testvals.Random(r, g.k)}
		return x[:op.Arity()]
	}
	p := g.p
	switch op {
	case bigref.Add, bigref.Sub:
		ea := g.exp()
		a := g.num(ea)
		var b uint64
		switch r.IntN(5) {
		case 0:
			// Exponent gap around p: ties and sticky bits.
			b = g.num(ea - p - 3 + r.IntN(8))
		case 1:
			// A tie against a: an odd multiple of a's half unit.
			b = g.val(g.short(1+r.IntN(4)), ea-p)
		case 2:
			// Cancellation: b within a few units of ±a.
			b = g.ulps(a, r.IntN(9)-4) ^ uint64(r.IntN(2))<<(g.k.Bits()-1)
		case 3:
			b = g.num(ea - r.IntN(3*p))
		default:
			b = g.num(g.exp())
		}
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		return []uint64{a, b}
	case bigref.Mul:
		var a, b uint64
		switch r.IntN(4) {
		case 0:
			// The product has p+1 significant bits, odd: an exact tie; or
			// p+2, p, fewer: near ties, exact results.
			i := 1 + r.IntN(p)
			j := p + 2 - i - r.IntN(4)
			if j < 1 {
				j = 1
			}
			a = g.val(g.short(i), g.exp()-i+1)
			ea := g.float(a)
			_, e := math.Frexp(ea)
			// Put the product near a chosen exponent.
			b = g.val(g.short(j), g.exp()-e-j+1)
		case 1:
			// Near overflow, or near and below the subnormal range.
			ea := g.exp()
			target := g.emax + r.IntN(3) - 1
			switch r.IntN(3) {
			case 0:
				target = g.emin - r.IntN(p+2)
			case 1:
				target = g.emin - p - r.IntN(3)
			}
			a, b = g.num(ea), g.num(target-ea)
		default:
			a, b = g.num(g.exp()), g.num(g.exp())
		}
		return []uint64{a, b}
	case bigref.Div:
		var a, b uint64
		switch r.IntN(5) {
		case 0:
			// Exact quotients, and subnormal ties: q * b with a short q.
			b = g.val(g.short(1+r.IntN(p/2)), g.exp()/2)
			q := g.val(g.short(1+r.IntN(p/2)), g.exp()/2)
			a = g.bits(g.float(q) * g.float(b))
			if r.IntN(2) == 0 {
				a = g.ulps(a, r.IntN(3)-1)
			}
		case 1:
			// A subnormal dividend over a small power of two: ties.
			a = g.val(g.short(1+r.IntN(p-1)), g.emin-p+1)
			b = g.val(1, r.IntN(4))
		case 2:
			// Quotients near overflow and underflow.
			eb := g.exp()
			target := g.emax + r.IntN(3) - 1
			if r.IntN(2) == 0 {
				target = g.emin - r.IntN(p+3)
			}
			a, b = g.num(eb+target), g.num(eb)
		case 3:
			a = g.num(g.exp())
			b = g.ulps(a, r.IntN(9)-4)
		default:
			a, b = g.num(g.exp()), g.num(g.exp())
		}
		return []uint64{a, b}
	case bigref.Sqrt:
		var a uint64
		switch r.IntN(4) {
		case 0:
			// Squares of short values and their neighbours.
			s := g.short(1 + r.IntN((p+1)/2))
			a = g.bits(math.Ldexp(float64(s*s), 2*(g.exp()/2)))
			a = g.ulps(a, r.IntN(5)-2)
		case 1:
			// The square of a full value, rounded, and neighbours.
			s := g.float(g.num(g.exp() / 2))
			a = g.ulps(g.bits(s*s), r.IntN(5)-2)
		default:
			a = g.num(g.exp())
		}
		if r.IntN(8) != 0 {
			a &^= 1 << (g.k.Bits() - 1)
		}
		return []uint64{a}
	}
	// FMA.
	var a, b, c uint64
	switch r.IntN(6) {
	case 0:
		// c cancels the product's leading part: the result is (near) the
		// product's rounding error.
		a, b = g.num(g.exp()/2), g.num(g.exp()/2)
		pr := g.float(a) * g.float(b)
		c = g.ulps(g.bits(-pr), r.IntN(5)-2)
	case 1:
		// Short factors whose product has p+1..p+3 bits, c a small nudge or
		// a power of two: ties, near ties.
		i := 1 + r.IntN(p)
		a = g.val(g.short(i), g.exp()/2-i)
		b = g.val(g.short(p+2-i+r.IntN(2)), g.exp()/2-p)
		_, e := math.Frexp(g.float(a) * g.float(b))
		c = g.val(g.short(1+r.IntN(3)), e-p-r.IntN(2*p))
	case 2:
		// Product near overflow or near/below the subnormal range, c anywhere.
		ea := g.exp()
		target := g.emax + r.IntN(3) - 1
		if r.IntN(2) == 0 {
			target = g.emin - r.IntN(2*p)
		}
		a, b = g.num(ea), g.num(target-ea)
		c = g.num(g.exp())
		if r.IntN(2) == 0 {
			c = g.ulps(g.bits(-g.float(a)*g.float(b)), r.IntN(5)-2)
		}
	case 3:
		// c tiny or huge beside the product.
		a, b = g.num(g.exp()/2), g.num(g.exp()/2)
		_, e := math.Frexp(g.float(a) * g.float(b))
		c = g.num(e + r.IntN(6*p) - 3*p)
	case 4:
		// Zeros with every sign.
		a, b, c = g.num(g.exp()), g.num(g.exp()), g.num(g.exp())
		sign := uint64(r.IntN(2)) << (g.k.Bits() - 1)
		switch r.IntN(3) {
		case 0:
			a = sign
		case 1:
			c = sign
		default:
			b, c = sign, uint64(r.IntN(2))<<(g.k.Bits()-1)
		}
	default:
		a, b, c = g.num(g.exp()), g.num(g.exp()), g.num(g.exp())
	}
	return []uint64{a, b, c}
}

// TestOracleRounding checks bigref's integer rounding against its rounding
// through big.Rat with the conversions' code, on a sample.
func TestOracleRounding(t *testing.T) {
	for _, k := range []cltype.Kind{cltype.Float, cltype.Double} {
		for _, op := range ops {
			g := newGen(k, 7+uint64(op))
			for range testvals.Sample(2000, 5) {
				x := g.args(op)
				if a, b := bigref.ArithModes(op, k, x...), bigref.ArithModesRat(op, k, x...); a != b {
					t.Errorf("%v %v %#x: %#x vs %#x", k, op, x, a, b)
				}
			}
		}
	}
}

var sink64 float64
var sink32 float32

// benchArith runs loop (one pass over n operands, returning a checksum) as a
// benchmark reporting ns per operation.
func benchArith[F float32 | float64](b *testing.B, n int, sink *F, loop func() F) {
	var s F
	for b.Loop() {
		s += loop()
	}
	*sink = s
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/op1")
}

// BenchmarkArith64 measures each operation in each mode, and Go's hardware
// operation ("hw"), on 1024 random operands (normal values of mixed
// magnitude and sign); the ns/op1 metric is per single operation.
func BenchmarkArith64(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 1024
	x, y, z, sq := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i], z[i] = r.NormFloat64()*1e3, r.NormFloat64(), r.NormFloat64()*1e3
		sq[i] = math.Abs(x[i])
	}
	type fn struct {
		name string
		hw   func() float64
		f    func(m round.Mode) float64
	}
	for _, o := range []fn{
		{"add", func() (s float64) {
			for i := range n {
				s += x[i] + y[i]
			}
			return
		}, func(m round.Mode) (s float64) {
			for i := range n {
				s += round.AddF64(x[i], y[i], m)
			}
			return
		}},
		{"sub", func() (s float64) {
			for i := range n {
				s += x[i] - y[i]
			}
			return
		}, func(m round.Mode) (s float64) {
			for i := range n {
				s += round.SubF64(x[i], y[i], m)
			}
			return
		}},
		{"mul", func() (s float64) {
			for i := range n {
				s += float64(x[i] * y[i])
			}
			return
		}, func(m round.Mode) (s float64) {
			for i := range n {
				s += round.MulF64(x[i], y[i], m)
			}
			return
		}},
		{"div", func() (s float64) {
			for i := range n {
				s += x[i] / y[i]
			}
			return
		}, func(m round.Mode) (s float64) {
			for i := range n {
				s += round.DivF64(x[i], y[i], m)
			}
			return
		}},
		{"sqrt", func() (s float64) {
			for i := range n {
				s += math.Sqrt(sq[i])
			}
			return
		}, func(m round.Mode) (s float64) {
			for i := range n {
				s += round.SqrtF64(sq[i], m)
			}
			return
		}},
		{"fma", func() (s float64) {
			for i := range n {
				s += math.FMA(x[i], y[i], z[i])
			}
			return
		}, func(m round.Mode) (s float64) {
			for i := range n {
				s += round.FMAF64(x[i], y[i], z[i], m)
			}
			return
		}},
	} {
		b.Run(o.name+"/hw", func(b *testing.B) { benchArith(b, n, &sink64, o.hw) })
		for _, m := range round.Modes {
			b.Run(o.name+"/"+m.String(), func(b *testing.B) {
				benchArith(b, n, &sink64, func() float64 { return o.f(m) })
			})
		}
	}
}

// BenchmarkArith32 is BenchmarkArith64 for binary32. Its "hw" for sqrt is
// float32(math.Sqrt(float64(x))), and for fma float32(math.FMA(...)), which
// rounds twice (not a correct binary32 fma: a speed reference only).
func BenchmarkArith32(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 1024
	x, y, z, sq := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range n {
		x[i], y[i], z[i] = float32(r.NormFloat64()*1e3), float32(r.NormFloat64()), float32(r.NormFloat64()*1e3)
		sq[i] = float32(math.Abs(float64(x[i])))
	}
	type fn struct {
		name string
		hw   func() float32
		f    func(m round.Mode) float32
	}
	for _, o := range []fn{
		{"add", func() (s float32) {
			for i := range n {
				s += x[i] + y[i]
			}
			return
		}, func(m round.Mode) (s float32) {
			for i := range n {
				s += round.AddF32(x[i], y[i], m)
			}
			return
		}},
		{"sub", func() (s float32) {
			for i := range n {
				s += x[i] - y[i]
			}
			return
		}, func(m round.Mode) (s float32) {
			for i := range n {
				s += round.SubF32(x[i], y[i], m)
			}
			return
		}},
		{"mul", func() (s float32) {
			for i := range n {
				s += float32(x[i] * y[i])
			}
			return
		}, func(m round.Mode) (s float32) {
			for i := range n {
				s += round.MulF32(x[i], y[i], m)
			}
			return
		}},
		{"div", func() (s float32) {
			for i := range n {
				s += x[i] / y[i]
			}
			return
		}, func(m round.Mode) (s float32) {
			for i := range n {
				s += round.DivF32(x[i], y[i], m)
			}
			return
		}},
		{"sqrt", func() (s float32) {
			for i := range n {
				s += float32(math.Sqrt(float64(sq[i])))
			}
			return
		}, func(m round.Mode) (s float32) {
			for i := range n {
				s += round.SqrtF32(sq[i], m)
			}
			return
		}},
		{"fma", func() (s float32) {
			for i := range n {
				s += float32(math.FMA(float64(x[i]), float64(y[i]), float64(z[i])))
			}
			return
		}, func(m round.Mode) (s float32) {
			for i := range n {
				s += round.FMAF32(x[i], y[i], z[i], m)
			}
			return
		}},
	} {
		b.Run(o.name+"/hw", func(b *testing.B) { benchArith(b, n, &sink32, o.hw) })
		for _, m := range round.Modes {
			b.Run(o.name+"/"+m.String(), func(b *testing.B) {
				benchArith(b, n, &sink32, func() float32 { return o.f(m) })
			})
		}
	}
}

// TestArithAllocs checks that the primitives allocate nothing, on fast and
// slow paths (tiny, huge, zero, infinite and NaN operands) in every mode.
func TestArithAllocs(t *testing.T) {
	vals := []float64{1.5, -3, 0x1p-1070, -0x1p-600, 0x1p1023, math.Inf(-1), math.NaN(), 0}
	n := testing.AllocsPerRun(10, func() {
		for _, m := range round.Modes {
			for _, a := range vals {
				for _, b := range vals {
					sink64 += round.AddF64(a, b, m) + round.SubF64(a, b, m) + round.MulF64(a, b, m) +
						round.DivF64(a, b, m) + round.SqrtF64(a, m) + round.FMAF64(a, b, a, m) + round.FMAF64(a, b, b, m)
					fa, fb := float32(a), float32(b)
					sink32 += round.AddF32(fa, fb, m) + round.SubF32(fa, fb, m) + round.MulF32(fa, fb, m) +
						round.DivF32(fa, fb, m) + round.SqrtF32(fa, m) + round.FMAF32(fa, fb, fa, m)
				}
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}
