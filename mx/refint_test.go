package mx

// A second, integer-only reference for the same rules as ref_test.go, for
// the tests' hot loops: math/big allocates on every operation and is slow
// under qemu-user and wasm, where these tests run in CI. Values are exact
// rationals (-1)^neg * n/d * 2^e with n and d in a uint64 (every value the
// tests form fits: products of at most two float32-wide factors and an
// element value, quotients of a float64 by such a product), decoded from a
// float64's bits, and rounding divides a 128-bit numerator with
// bits.Div64. No float arithmetic: results are built as float64 bit
// patterns. Like ref_test.go it calls nothing of the package's quantizer,
// element tables or minifloat; TestIntRefMatchesBig (refint_agree_test.go)
// shows that the two references agree.

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/clconv/clconv/round"
)

// xv is the exact finite value (-1)^neg * n/d * 2^e, d > 0; n == 0 is zero.
type xv struct {
	neg  bool
	n, d uint64
	e    int
}

// xf returns the exact value of the finite float64 v, from its bits.
func xf(v float64) xv {
	b := math.Float64bits(v)
	neg := b>>63 == 1
	ex := int(b >> 52 & 0x7ff)
	m := b & (1<<52 - 1)
	switch ex {
	case 0x7ff:
		panic(fmt.Sprintf("xf: %#x is not finite", b))
	case 0:
		return xv{neg, m, 1, -1074}.norm()
	}
	return xv{neg, m | 1<<52, 1, ex - 1075}.norm()
}

// xi returns n * 2^e.
func xi(n uint64, e int) xv { return xv{false, n, 1, e}.norm() }

// norm moves the factors of two of n and d into e.
func (a xv) norm() xv {
	if a.n == 0 {
		return xv{a.neg, 0, 1, 0}
	}
	tn, td := bits.TrailingZeros64(a.n), bits.TrailingZeros64(a.d)
	a.n >>= tn
	a.d >>= td
	a.e += tn - td
	return a
}

func (a xv) abs() xv { a.neg = false; return a }

func (a xv) isZero() bool { return a.n == 0 }

// pow2 returns a * 2^k.
func (a xv) pow2(k int) xv {
	if a.n != 0 {
		a.e += k
	}
	return a
}

func mul64(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		panic("xv: product beyond 64 bits")
	}
	return lo
}

// xmul returns a * b.
func xmul(a, b xv) xv {
	return xv{a.neg != b.neg, mul64(a.n, b.n), mul64(a.d, b.d), a.e + b.e}.norm()
}

// xquo returns a / b (b non-zero).
func xquo(a, b xv) xv {
	if b.n == 0 {
		panic("xv: division by zero")
	}
	return xv{a.neg != b.neg, mul64(a.n, b.d), mul64(a.d, b.n), a.e - b.e}.norm()
}

// flog2 returns floor(log2(n/d)) for n, d > 0, and whether n/d is that
// power of two.
func flog2(n, d uint64) (int, bool) {
	L := bits.Len64(n) - bits.Len64(d) // n/d in [2^(L-1), 2^(L+1))
	var x, y uint64                    // n/d compared with 2^L as x with y
	if L >= 0 {
		x, y = n, d<<L // fits: len(d)+L == len(n)
	} else {
		x, y = n<<-L, d
	}
	if x < y {
		return L - 1, false
	}
	return L, x == y
}

// roundX rounds the magnitude of the non-zero a into a binary format of
// precision p (with the leading bit) whose smallest normal exponent is emin
// and whose exponent range has no top, in mode m for a value of a's sign.
// The result is fl * 2^qe with fl <= 2^p (2^p when rounding carried into the
// next binade).
func roundX(a xv, p, emin int, m round.Mode) (fl uint64, qe int) {
	n, d := a.n, a.d
	L, _ := flog2(n, d)
	qe = max(a.e+L, emin) - (p - 1)
	s := a.e - qe // |a| / 2^qe = n * 2^s / d
	var inexact bool
	var half int // the dropped fraction compared with 1/2
	switch {
	case d == 1 && s >= 0:
		// dyadic (no division: slow on 32-bit ports): exact in quanta, and
		// n * 2^s <= 2^p
		fl = n << s
	case d == 1 && -s >= 64:
		fl, inexact, half = 0, true, cmpU(n, 1<<63)
		if -s > 64 {
			half = -1
		}
	case d == 1:
		k := uint(-s)
		f, h := n&(^uint64(0)>>(64-k)), uint64(1)<<(k-1)
		fl, inexact, half = n>>k, f != 0, cmpU(f, h)
	case s >= 0:
		// n * 2^s < d * 2^(p+1) < 2^128, and the quotient is below 2^64.
		var hi, lo uint64
		if s >= 64 {
			hi, lo = n<<(s-64), 0
		} else {
			hi, lo = n>>(64-s), n<<s
			if s == 0 {
				hi = 0
			}
		}
		q, r := bits.Div64(hi, lo, d)
		fl = q
		inexact = r != 0
		half = cmpU(r, d-r) // 2r against d
	case -s > 64:
		// |a| / 2^qe < 2^64 / 2^65.
		fl, inexact, half = 0, true, -1
	default:
		k := uint(-s) // |a| / 2^qe = (n/d) / 2^k, 1 <= k <= 64
		q0, r0 := n/d, n%d
		mask := ^uint64(0) >> (64 - k)
		f, h := q0&mask, uint64(1)<<(k-1)
		fl = q0 >> k
		inexact = f != 0 || r0 != 0
		half = cmpU(f, h)
		if half == 0 && r0 != 0 {
			half = 1
		}
	}
	up := false
	if inexact {
		switch m {
		case round.RTZ:
		case round.RTP:
			up = !a.neg
		case round.RTN:
			up = a.neg
		default:
			up = half > 0 || half == 0 && fl&1 == 1
		}
	}
	if up {
		fl++
	}
	return fl, qe
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// f64Bits returns fl * 2^qe as a float64, which must represent it exactly.
func f64Bits(fl uint64, qe int) float64 {
	if fl == 0 {
		return 0
	}
	n := bits.Len64(fl)
	E := qe + n - 1
	shift := func(x uint64, k int) uint64 { // x * 2^k, exactly
		if k >= 0 {
			return x << k
		}
		if x&(1<<-k-1) != 0 {
			panic(fmt.Sprintf("f64Bits: %d * 2^%d is not a float64", fl, qe))
		}
		return x >> -k
	}
	if E > 1023 {
		panic(fmt.Sprintf("f64Bits: %d * 2^%d is beyond float64", fl, qe))
	}
	if E >= -1022 {
		m := shift(fl, 53-n)
		return math.Float64frombits(uint64(E+1023)<<52 | m&(1<<52-1))
	}
	return math.Float64frombits(shift(fl, qe+1074))
}

// roundDestInt is roundDest for an xv: a rounded into d in mode m, as a
// float64 (infinite on overflow, or ±MAX where m rounds a toward zero).
func roundDestInt(a xv, d refDest, m round.Mode) float64 {
	if a.n == 0 {
		return 0
	}
	fl, qe := roundX(a, d.p, d.emin, m)
	top := d.emax - d.p + 1 // MAX = (2^p - 1) * 2^top
	var out float64
	if qe > top || qe == top && fl >= 1<<d.p {
		if m == round.RTZ || m == round.RTP && a.neg || m == round.RTN && !a.neg {
			out = f64Bits(1<<d.p-1, top)
		} else {
			out = math.Inf(1)
		}
	} else {
		out = f64Bits(fl, qe)
	}
	if a.neg {
		out = -out
	}
	return out
}

// rn32Int is rn32 for an xv.
func rn32Int(a xv) float64 { return roundDestInt(a, refF32, round.RTE) }

// roundElemInt rounds the non-zero magnitude of a, of the sign a.neg, into
// r's element grid in mode m, as if the exponent range had no top: codes 0
// .. maxCode, and maxCode+1 for any value at or beyond the grid point above
// MAX (the grid is the codes of a binary format of precision mbits+1 and
// smallest normal exponent 1-bias, the point above MAX being the next code).
func roundElemInt(r *refElem, a xv, m round.Mode) int {
	fl, qe := roundX(a, r.mbits+1, 1-r.bias, m)
	qmin := 1 - r.bias - r.mbits // the quantum of the subnormals
	if fl == 1<<(r.mbits+1) {
		fl >>= 1
		qe++
	}
	code := int(fl) // subnormal (qe == qmin, fl < 2^mbits) or zero
	if fl >= 1<<r.mbits {
		field := qe - qmin + 1
		code = min(field, 1<<(r.ebits+1))<<r.mbits | int(fl-1<<r.mbits)
	}
	return min(code, r.maxCode+1)
}

// codeInt is code with the integer rounding.
func (r *refElem) codeInt(v float64, x int, m round.Mode, sat bool) (int, bool) {
	signNeg := math.Signbit(v)
	sign := 0
	if signNeg {
		sign = 1 << r.signShift
	}
	if v == 0 {
		return sign, false
	}
	c := roundElemInt(r, xf(v).pow2(-x), m)
	if c <= r.maxCode {
		return sign | c, false
	}
	towardZero := m == round.RTZ || m == round.RTP && signNeg || m == round.RTN && !signNeg
	if sat || towardZero || r.nanOver < 0 {
		return sign | r.maxCode, true
	}
	return sign | r.nanOver, true
}

// refElemInt is refElemValue as an xv, from the format's formula.
func refElemInt(r *refElem, code int) (v xv, nan, inf bool, neg bool) {
	code &= 1<<(r.signShift+1) - 1
	neg = code>>r.signShift&1 == 1
	mag := code & (1<<r.signShift - 1)
	if mag > r.maxCode {
		if r == refE5M2 && mag == 0x7c {
			return xv{}, false, true, neg
		}
		return xv{}, true, false, neg
	}
	field, mant := mag>>r.mbits, uint64(mag&(1<<r.mbits-1))
	if field == 0 {
		v = xi(mant, 1-r.bias-r.mbits)
	} else {
		v = xi(1<<r.mbits|mant, field-r.bias-r.mbits)
	}
	v.neg = neg
	return v, false, false, neg
}

// refMaxInt is r's MAX as an xv.
func refMaxInt(r *refElem) xv {
	v, _, _, _ := refElemInt(r, r.maxCode)
	return v
}

// refSharedXInt is refSharedX with integer arithmetic for RCEIL and Even.
func refSharedXInt(r *refElem, rule ScaleRule, amax float64) int {
	fl := refFloorLog2(amax)
	switch rule {
	case Ceil: // ceil(log2(amax)) - emax
		if frac, _ := math.Frexp(amax); frac != 0.5 {
			fl++
		}
		return fl - r.emax
	case RCEIL: // the least k with amax / max <= 2^k: ceil(log2(amax / max))
		q := xquo(xf(amax), refMaxInt(r))
		L, exact := flog2(q.n, q.d)
		if !exact {
			L++
		}
		return q.e + L
	case Even: // floor(log2(amax rounded to mbits+1 significant bits, ties to even)) - emax
		f, qe := roundX(xf(amax), r.mbits+1, math.MinInt32, round.RTE)
		return qe + bits.Len64(f) - 1 - r.emax
	}
	return fl - r.emax
}

// refScaleInt is refScale with refSharedXInt.
func refScaleInt(r *refElem, rule ScaleRule, amax float64) (code int, clamped bool, x int) {
	switch {
	case math.IsNaN(amax) || math.IsInf(amax, 0):
		return 0xFF, false, 0
	case amax == 0:
		return 0, false, -127
	}
	x = refSharedXInt(r, rule, amax)
	switch {
	case x < -127:
		return 0, true, -127
	case x > 127:
		return 254, true, 127
	}
	return x + 127, false, x
}

// refNVInt is refNV with integer arithmetic: the same formulas, term by
// term.
func refNVInt(vals []float64, rowLen int, recipe NVRecipe, m, sm round.Mode, givenTS float32, is64 bool) (codes, scales []int, ts float64, st nvRefStats) {
	const B = 16
	amax := 0.0
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
			st.nanIn++
		case math.IsInf(v, 0):
			st.infIn++
		default:
			amax = math.Max(amax, math.Abs(v))
		}
	}
	six, k2688 := xi(6, 0), xi(2688, 0)
	switch {
	case givenTS != 0:
		ts = float64(givenTS)
	case recipe == Exact:
		ts = rn32Int(xquo(xf(amax), k2688))
	case recipe == ModelOptCUDA:
		ts = rn32Int(xmul(xf(rn32Int(xf(amax))), xf(rn32Int(xquo(xi(1, 0), k2688)))))
	default:
		ts = rn32Int(xquo(xf(rn32Int(xf(amax))), k2688))
	}
	xts := xf(ts)
	rows := len(vals) / rowLen
	bpr := (rowLen + B - 1) / B
	for r := range rows {
		for j := range bpr {
			blk := vals[r*rowLen+j*B : r*rowLen+min((j+1)*B, rowLen)]
			bmax := 0.0
			bad := false
			for _, v := range blk {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad = true
				}
				bmax = math.Max(bmax, math.Abs(v))
			}
			bc := make([]int, B)
			if bad {
				st.nanBlocks++
				scales = append(scales, 0x7f)
				codes = append(codes, bc...)
				continue
			}
			var sc int
			switch {
			case bmax == 0:
				st.zeroBlocks++
				sc = 0x38
			case recipe == Exact:
				sc = roundElemInt(refE4M3, xquo(xf(bmax), xmul(six, xts)), sm)
				switch {
				case sc == 0:
					sc = 1
					st.scaleClamped++
				case sc > 0x7e:
					sc = 0x7e
					st.scaleClamped++
				}
			default:
				b32 := rn32Int(xf(bmax))
				d := rn32Int(xmul(six, xts))
				s32 := rn32Int(xquo(xf(b32), xf(d)))
				switch {
				case s32 == 0:
					s32 = 1
				case s32 < 0x1p-9:
					s32 = 0x1p-9
					st.scaleClamped++
				case s32 > 448:
					s32 = 448
					st.scaleClamped++
				}
				sc = roundElemInt(refE4M3, xf(s32), sm)
				sc = min(sc, 0x7e)
			}
			scales = append(scales, sc)
			sv, _, _, _ := refElemInt(refE4M3, sc)
			for i, x := range blk {
				var c int
				var over bool
				if recipe == Exact {
					neg := math.Signbit(x)
					if x != 0 {
						a := xquo(xf(x).abs(), xmul(sv, xts))
						a.neg = neg
						c = roundElemInt(refE2M1, a, m)
					}
					if over = c > 7; over {
						c = 7
					}
					if neg {
						c |= 8
					}
				} else {
					dd := rn32Int(xmul(sv, xts))
					var q float64
					if x == 0 {
						// 0 / d is ±0 (NaN for the all-zero tensor's d = 0): code 0.
					} else if is64 {
						q = roundDestInt(xquo(xf(x), xf(dd)), refF64, round.RTE)
					} else {
						q = rn32Int(xquo(xf(x), xf(dd)))
					}
					neg := q < 0
					if q == 0 {
						c = 0
					} else {
						c = roundElemInt(refE2M1, xf(q), m)
						if over = c > 7; over {
							c = 7
						}
						if neg {
							c |= 8
						}
					}
					if m == round.RTE {
						if lit := castFP4(q); lit != c {
							panic(fmt.Sprintf("castFP4(%g) = %#x, reference %#x", q, lit, c))
						}
					}
				}
				if over {
					st.clamped++
				}
				if x != 0 && c&7 == 0 {
					st.flushed++
				}
				bc[i] = c
			}
			codes = append(codes, bc...)
		}
	}
	return codes, scales, ts, st
}
