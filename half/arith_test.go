package half_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/bigref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

var exhaustive = flag.Bool("exhaustive", false, "check half Add, Sub and Mul on all 2^32 operand pairs (minutes)")

var arithOps = []bigref.Op{bigref.Add, bigref.Sub, bigref.Mul, bigref.Div, bigref.Sqrt, bigref.FMA}

func callHalf(op bigref.Op, m round.Mode, x []uint64) half.Half {
	a := half.Half(x[0])
	var b, c half.Half
	if len(x) > 1 {
		b = half.Half(x[1])
	}
	if len(x) > 2 {
		c = half.Half(x[2])
	}
	switch op {
	case bigref.Add:
		return half.Add(a, b, m)
	case bigref.Sub:
		return half.Sub(a, b, m)
	case bigref.Mul:
		return half.Mul(a, b, m)
	case bigref.Div:
		return half.Div(a, b, m)
	case bigref.Sqrt:
		return half.Sqrt(a, m)
	}
	return half.FMA(a, b, c, m)
}

// hwHalf is the rte result of Go's hardware arithmetic: the binary64
// operation (exact for + - *, innocuously double-rounded for / and sqrt)
// rounded to half; for / also the binary32 quotient (24 >= 2*11 + 2), which
// shares nothing with the binary64 path. There is no hardware half fma.
func hwHalf(op bigref.Op, x []uint64) []half.Half {
	a := half.Half(x[0]).Float64()
	var b float64
	if len(x) > 1 {
		b = half.Half(x[1]).Float64()
	}
	switch op {
	case bigref.Add:
		return []half.Half{half.FromFloat64RTE(a + b)}
	case bigref.Sub:
		return []half.Half{half.FromFloat64RTE(a - b)}
	case bigref.Mul:
		return []half.Half{half.FromFloat64RTE(float64(a * b))}
	case bigref.Div:
		return []half.Half{half.FromFloat64RTE(a / b),
			half.FromFloat32RTE(half.Half(x[0]).Float32() / half.Half(x[1]).Float32())}
	case bigref.Sqrt:
		return []half.Half{half.FromFloat64RTE(math.Sqrt(a))}
	}
	return nil
}

type halfChecker struct {
	t     *testing.T
	fails int
	n     int
}

func (c *halfChecker) check(op bigref.Op, x ...uint64) {
	c.t.Helper()
	c.n++
	want := bigref.ArithModes(op, cltype.Half, x...)
	for _, m := range round.Modes {
		if got := callHalf(op, m, x); uint64(got) != want[m] {
			c.fail(fmt.Sprintf("%v %#04x %v: got %#04x, oracle %#04x", op, x, m, uint16(got), want[m]))
		}
	}
	for _, hw := range hwHalf(op, x) {
		if uint64(hw) != want[round.RTE] && !(hw.IsNaN() && half.Half(want[round.RTE]).IsNaN()) {
			c.fail(fmt.Sprintf("%v %#04x rte: hardware %#04x, oracle %#04x", op, x, uint16(hw), want[round.RTE]))
		}
	}
}

func (c *halfChecker) fail(msg string) {
	c.t.Helper()
	c.fails++
	c.t.Error(msg)
	if c.fails >= 20 {
		c.t.Fatal("too many failures")
	}
}

// TestArithEdgePairs checks + - * / on every pair of half edge values and
// fma on random triples of them, in all modes, against the exact oracle.
func TestArithEdgePairs(t *testing.T) {
	t.Parallel()
	c := &halfChecker{t: t}
	edges := testvals.Edges(cltype.Half)
	step := testvals.Stride(4) // every 4th pair when Sampled (a different 4th for each a)
	for i, a := range edges {
		for j := i % step; j < len(edges); j += step {
			for _, op := range arithOps[:4] {
				c.check(op, a, edges[j])
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range testvals.Sample(200_000, 12) {
		c.check(bigref.FMA, edges[r.IntN(len(edges))], edges[r.IntN(len(edges))], edges[r.IntN(len(edges))])
	}
	t.Logf("%d edge values, %d operand tuples, 4 modes each", len(edges), c.n)
}

// TestArithSqrtAll checks sqrt on every half.
func TestArithSqrtAll(t *testing.T) {
	t.Parallel()
	c := &halfChecker{t: t}
	for b := range 1 << 16 {
		c.check(bigref.Sqrt, uint64(b))
	}
}

// TestArithRandom checks 300,000 random operand tuples per operation, in all
// modes: uniformly random patterns, testvals' biased ones, and pairs built
// for cancellation, ties and fma's cancelling addend.
func TestArithRandom(t *testing.T) {
	for _, op := range arithOps {
		if op == bigref.Sqrt {
			continue // exhaustive above
		}
		t.Run(op.String(), func(t *testing.T) {
			t.Parallel()
			c := &halfChecker{t: t}
			r := rand.New(rand.NewPCG(uint64(op), 8))
			one := func() uint64 {
				if r.IntN(2) == 0 {
					return uint64(r.Uint32() & 0xffff)
				}
				return testvals.Random(r, cltype.Half)
			}
			for range testvals.Sample(300_000, 12) {
				a, b, cc := one(), one(), one()
				switch r.IntN(4) {
				case 0:
					// b within a few units of ±a: cancellation, quotients near 1.
					b = (a+uint64(r.IntN(9))-4)&0x7fff | (a^uint64(r.IntN(2))<<15)&0x8000
				case 1:
					// c cancelling the product's leading part.
					p := half.Half(a).Float64() * half.Half(b).Float64()
					cc = uint64(half.FromFloat64(-p, round.Modes[r.IntN(4)]))
				}
				x := []uint64{a, b, cc}
				c.check(op, x[:op.Arity()]...)
			}
		})
	}
}

// TestArithExhaustive (with -exhaustive) checks Add, Sub and Mul on all 2^32
// operand pairs in all modes without the oracle: the binary64 result x is
// exact, and a correct rounding of it is characterized by comparisons alone:
// rtn <= x <= rtp, adjacent (or equal exactly when x is a half), rtz the
// one nearer zero, rte the nearer one with ties to the even significand, and
// NaN and zero results by IEEE 754's rules.
func TestArithExhaustive(t *testing.T) {
	if !*exhaustive {
		t.Skip("run with -exhaustive")
	}
	vals := make([]float64, 1<<16)
	for i := range vals {
		vals[i] = half.Half(i).Float64()
	}
	for _, op := range []bigref.Op{bigref.Add, bigref.Sub, bigref.Mul} {
		t.Run(op.String(), func(t *testing.T) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			fails := 0
			workers := runtime.GOMAXPROCS(0)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for a := w; a < 1<<16; a += workers {
						for b := range 1 << 16 {
							if msg := exhaustiveCheck(op, half.Half(a), half.Half(b), vals); msg != "" {
								mu.Lock()
								fails++
								if fails < 20 {
									t.Error(msg)
								}
								mu.Unlock()
							}
						}
					}
				}()
			}
			wg.Wait()
			if fails > 0 {
				t.Fatalf("%d failures", fails)
			}
			t.Logf("all 2^32 pairs agree in 4 modes")
		})
	}
}

// bits4 gives the bit patterns of r, for printing with %#04x (Half's own %x
// formats the value as a hexadecimal float).
func bits4(r [4]half.Half) (b [4]uint16) {
	for i, h := range r {
		b[i] = uint16(h)
	}
	return b
}

func exhaustiveCheck(op bigref.Op, a, b half.Half, vals []float64) string {
	x, y := vals[a], vals[b]
	var v float64
	var r [4]half.Half
	switch op {
	case bigref.Add:
		v = x + y
		for _, m := range round.Modes {
			r[m] = half.Add(a, b, m)
		}
	case bigref.Sub:
		v = x - y
		for _, m := range round.Modes {
			r[m] = half.Sub(a, b, m)
		}
	default:
		v = x * y
		for _, m := range round.Modes {
			r[m] = half.Mul(a, b, m)
		}
	}
	bad := func(why string) string {
		return fmt.Sprintf("%v %#04x %#04x: %#04x (rte rtz rtp rtn): %s", op, uint16(a), uint16(b), bits4(r), why)
	}
	if v != v {
		first := half.QNaN
		if a.IsNaN() {
			first = a | 0x200
		} else if b.IsNaN() {
			first = b | 0x200
		}
		for _, h := range r {
			if h != first {
				return bad("NaN policy")
			}
		}
		return ""
	}
	if v == 0 {
		// The sign of an exact zero: same-sign zeros keep it (for Mul the
		// sign is the product's); otherwise +0, and -0 in rtn.
		want := [4]half.Half{}
		switch {
		case op == bigref.Mul:
			want = [4]half.Half{(a ^ b) & 0x8000, (a ^ b) & 0x8000, (a ^ b) & 0x8000, (a ^ b) & 0x8000}
		default:
			bs := b & 0x8000
			if op == bigref.Sub {
				bs ^= 0x8000
			}
			if x == 0 && y == 0 && a&0x8000 == bs {
				want = [4]half.Half{bs, bs, bs, bs}
			} else {
				want[round.RTN] = 0x8000
			}
		}
		if r != want {
			return bad(fmt.Sprintf("zero sign, want %#04x", bits4(want)))
		}
		return ""
	}
	lo, hi := r[round.RTN], r[round.RTP]
	flo, fhi := lo.Float64(), hi.Float64()
	if !(flo <= v && v <= fhi) {
		return bad("rtn <= exact <= rtp fails")
	}
	// Every result has the sign of v (underflow keeps the sign).
	for _, h := range r {
		if h.Signbit() != (v < 0) {
			return bad("sign")
		}
	}
	if flo == v || fhi == v {
		if lo != hi || r[round.RTZ] != lo || r[round.RTE] != lo {
			return bad("exact result not returned in every mode")
		}
		return ""
	}
	// Adjacent: one step of the magnitude apart, on v's side of zero.
	if v > 0 && hi != lo+1 || v < 0 && lo != hi+1 {
		return bad("rtn and rtp not adjacent")
	}
	if z := r[round.RTZ]; v > 0 && z != lo || v < 0 && z != hi {
		return bad("rtz not toward zero")
	}
	// rte: the nearer of lo and hi; at a tie the even pattern. An infinite
	// bound stands for 2^16 (IEEE 754 7.4: overflow when the exponent-
	// unbounded rounding reaches 2^16).
	if math.IsInf(flo, 0) {
		flo = -65536
	}
	if math.IsInf(fhi, 0) {
		fhi = 65536
	}
	var want half.Half
	switch dl, dh := v-flo, fhi-v; {
	case dl < dh:
		want = lo
	case dh < dl:
		want = hi
	case lo&1 == 0:
		want = lo
	default:
		want = hi
	}
	if r[round.RTE] != want {
		return bad(fmt.Sprintf("rte, want %#04x", uint16(want)))
	}
	return ""
}

var sinkHalf half.Half
var sinkF32 float32

// BenchmarkArith measures each half operation in each mode on 1024 random
// finite operands, beside two references: "f32", the binary32 hardware
// operation on the widened operands (no rounding back to half), and
// "naive-rte", the binary64 operation rounded with FromFloat64RTE (what
// value.Binary did before, rte only). The ns/op1 metric is per operation.
func BenchmarkArith(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 1024
	x, y, z := make([]half.Half, n), make([]half.Half, n), make([]half.Half, n)
	fx, fy, fz := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range n {
		x[i] = half.FromFloat64(r.NormFloat64()*100, round.RTE)
		y[i] = half.FromFloat64(r.NormFloat64(), round.RTE)
		z[i] = half.FromFloat64(r.NormFloat64()*100, round.RTE)
		fx[i], fy[i], fz[i] = x[i].Float32(), y[i].Float32(), z[i].Float32()
	}
	sq := make([]half.Half, n)
	for i := range n {
		sq[i] = x[i] &^ 0x8000
	}
	per := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/op1")
	}
	type fn struct {
		name  string
		f32   func(i int) float32
		naive func(i int) half.Half
		f     func(i int, m round.Mode) half.Half
	}
	for _, o := range []fn{
		{"add", func(i int) float32 { return fx[i] + fy[i] },
			func(i int) half.Half { return half.FromFloat64RTE(x[i].Float64() + y[i].Float64()) },
			func(i int, m round.Mode) half.Half { return half.Add(x[i], y[i], m) }},
		{"mul", func(i int) float32 { return fx[i] * fy[i] },
			func(i int) half.Half { return half.FromFloat64RTE(x[i].Float64() * y[i].Float64()) },
			func(i int, m round.Mode) half.Half { return half.Mul(x[i], y[i], m) }},
		{"div", func(i int) float32 { return fx[i] / fy[i] },
			func(i int) half.Half { return half.FromFloat64RTE(x[i].Float64() / y[i].Float64()) },
			func(i int, m round.Mode) half.Half { return half.Div(x[i], y[i], m) }},
		{"sqrt", func(i int) float32 { return float32(math.Sqrt(float64(fx[i]) * float64(fx[i]))) },
			func(i int) half.Half { return half.FromFloat64RTE(math.Sqrt(sq[i].Float64())) },
			func(i int, m round.Mode) half.Half { return half.Sqrt(sq[i], m) }},
		{"fma", func(i int) float32 { return float32(math.FMA(float64(fx[i]), float64(fy[i]), float64(fz[i]))) },
			func(i int) half.Half {
				return half.FromFloat64RTE(math.FMA(x[i].Float64(), y[i].Float64(), z[i].Float64()))
			},
			func(i int, m round.Mode) half.Half { return half.FMA(x[i], y[i], z[i], m) }},
	} {
		b.Run(o.name+"/f32", func(b *testing.B) {
			var s float32
			for b.Loop() {
				for i := range n {
					s += o.f32(i)
				}
			}
			sinkF32 = s
			per(b)
		})
		b.Run(o.name+"/naive-rte", func(b *testing.B) {
			var s half.Half
			for b.Loop() {
				for i := range n {
					s ^= o.naive(i)
				}
			}
			sinkHalf = s
			per(b)
		})
		for _, m := range round.Modes {
			b.Run(o.name+"/"+m.String(), func(b *testing.B) {
				var s half.Half
				for b.Loop() {
					for i := range n {
						s ^= o.f(i, m)
					}
				}
				sinkHalf = s
				per(b)
			})
		}
	}
}

func TestArithAllocs(t *testing.T) {
	vals := []half.Half{0x3c00, 0xc200, 0x0001, 0x7bff, 0xfc00, 0x7e01, 0x8000}
	n := testing.AllocsPerRun(10, func() {
		for _, m := range round.Modes {
			for _, a := range vals {
				for _, b := range vals {
					sinkHalf ^= half.Add(a, b, m) ^ half.Sub(a, b, m) ^ half.Mul(a, b, m) ^ half.Div(a, b, m) ^
						half.Sqrt(a, m) ^ half.FMA(a, b, a, m)
				}
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per run", n)
	}
}
