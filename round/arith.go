package round

import (
	"math"
	"math/bits"
)

// Correctly rounded arithmetic in every mode.
//
// IEEE 754 requires + - * / sqrt and fma to return the exact result rounded
// once. Go exposes only round-to-nearest-even hardware, so each operation here
// takes the hardware's nearest result r and, in a directed mode, decides from
// the sign of the exact error (exact result - r) whether the mode wants r or
// its neighbour one unit away (step64). The error comes from error-free
// transformations, which are exact (or at least keep the error's sign) away
// from the edges of the exponent range:
//
//   - a + b: TwoSum (six additions), exact for all finite operands whose sum
//     does not overflow, subnormals included.
//   - a * b: the product error fma(a, b, -r), exact unless the product is
//     within about 2^53 of the subnormal range.
//   - a / b: the remainder fma(-r, b, a) = a - r*b, whose sign is that of the
//     error times the sign of b; exact unless a is tiny.
//   - sqrt(a): the remainder fma(-r, r, a) = a - r*r, exact unless a is tiny.
//   - fma(a, b, c): Boldo and Muller's ErrFma ("Exact and approximated error of
//     the FMA", IEEE TC 2011), which writes a*b + c = r + r2 + r3 exactly with
//     |r3| <= ulp(r2)/2, away from underflow and overflow.
//
// Outside those ranges a slower exact path takes over: operands are rescaled
// by powers of two (exact) before the transformation, or, for fma, an integer
// implementation does the whole operation (fmaSoft). Overflow and underflow
// follow IEEE 754: the hardware's nearest result is an infinity or a zero, and
// the mode then keeps it or steps to the largest finite value or the smallest
// subnormal (rtz never overflows to infinity, rtp gives -max for a negative
// overflow, rtn +max for a positive one).
//
// binary32 operations are computed in binary64, where the exact result is
// available as a pair s + e (s = the binary64 nearest value, e = its error:
// zero for *, from TwoSum for + and fma). Rounding s to odd with e (replacing
// an even s by its neighbour on e's side when e != 0) and then rounding once
// to binary32 in the mode is correct, because 53 >= 24 + 2 (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms
// using rounding to odd", IEEE TC 2008). The quotient and square root need no
// error term: the binary64 nearest value of a quotient or square root of
// binary32 values is never a binary32 value or a midpoint between two unless it
// is exact (53 >= 2*24 + 2), so it rounds to binary32 as the exact value does,
// in every mode.
//
// # Zeros
//
// An exact zero sum of operands of opposite sign (x - x, (+0) + (-0), and
// fma's a*b + c with a*b = -c) is +0 in rte, rtz and rtp and -0 in rtn; zeros
// of one sign keep it (IEEE 754 6.3). A product or quotient's zero has the
// operands' sign product in every mode; sqrt(-0) = -0. A nonzero result that
// underflows keeps its sign.
//
// # NaNs
//
// A NaN result is the first NaN operand (in argument order, for Sub the
// subtrahend as given, not negated) with its quiet bit set; an invalid
// operation on non-NaN operands (inf - inf, 0 * inf, 0 / 0, inf / inf, sqrt
// of a negative value, fma(0, inf, c)) gives the positive quiet NaN with an
// otherwise empty payload. That is clconv's policy (value.Binary's), not the
// hardware's: x86 would give the negative default NaN.
//
// # Cost
//
// In rte each function is the hardware operation, a NaN test and a call
// (about 3-5 ns where the bare operation takes 1-2). In the directed modes a
// float64 add adds a TwoSum and a branch-free step, a mul, div or sqrt one
// FMA instruction and a step, fma ErrFma's twenty-odd operations; binary32
// adds the widening, the rounding to odd and a rounding to binary32: about
// 6-13 ns for float64 and 8-19 ns for float32 (BenchmarkArith64/32 in
// arith_test.go). None allocates.

const (
	qNaN64   = 0x7ff8000000000000 // the default NaN: positive, quiet, empty payload
	qNaN32   = 0x7fc00000
	quiet64  = 0x0008000000000000
	quiet32  = 0x00400000
	signBit  = 1 << 63
	expMask  = 0x7ff0000000000000
	fracMask = 1<<52 - 1
)

// nan64 returns the NaN result of an operation on a, b, c (pass 0 for absent
// operands): the first NaN operand quieted, or the default NaN.
func nan64(a, b, c float64) float64 {
	for _, x := range [3]float64{a, b, c} {
		if x != x {
			return math.Float64frombits(math.Float64bits(x) | quiet64)
		}
	}
	return math.Float64frombits(qNaN64)
}

// nan32 is nan64 for binary32 operands (their own bits, not widened ones).
func nan32(a, b, c float32) float32 {
	for _, x := range [3]float32{a, b, c} {
		if x != x {
			return math.Float32frombits(math.Float32bits(x) | quiet32)
		}
	}
	return math.Float32frombits(qNaN32)
}

// step64 returns the result in directed mode m (not RTE) of an operation whose
// nearest value is r, finite or infinite, given any e != 0 with the sign of
// (exact result - r). It is r or r's neighbour toward the exact result. The
// exact result has r's sign (rounding never changes the sign; a zero r has
// the sign of the exact value that underflowed), so it lies farther from
// zero than r when e has r's sign, and the step is "+1" (away from zero) or
// "-1" (toward zero) on r's sign-magnitude bit pattern. For an infinite r (an
// overflow) pass e = -r: the step toward zero gives the largest finite value.
func step64(r, e float64, m Mode) float64 {
	rb := math.Float64bits(r)
	sr := rb >> 63
	// Branch-free: the sign of the error is as unpredictable as the data.
	away := awayBits >> (2*uint64(m) + sr) & 1
	differ := math.Float64bits(e)>>63 ^ sr // |exact| < |r|
	// Farther from zero: step away if the mode says so; nearer to zero:
	// step toward zero if the mode says so.
	return math.Float64frombits(rb + away&^differ - (1^away)&differ)
}

// awayBits has bit 2*m+s set when mode m rounds magnitudes of sign s (1 for
// negative) away from zero: rtp for positive values, rtn for negative ones.
const awayBits uint64 = 1<<(2*RTP+0) | 1<<(2*RTN+1)

// step32 is step64 for binary32.
func step32(r, e float32, m Mode) float32 {
	rb := math.Float32bits(r)
	sr := rb >> 31
	away := uint32(awayBits) >> (2*uint32(m) + sr) & 1
	differ := math.Float32bits(e)>>31 ^ sr
	return math.Float32frombits(rb + away&^differ - (1^away)&differ)
}

// to32 rounds x to binary32 in directed mode m, as Float64ToFloat32 does for
// non-NaN x, from the nearest value f and the sign of x - f (exact: f is
// within a factor of two of x, or zero; on overflow f is infinite and x - f
// has the sign step32 wants; it is NaN when x itself is infinite).
func to32(x float64, m Mode) float32 {
	f := float32(x)
	d := x - float64(f)
	if d == 0 || d != d {
		return f
	}
	return step32(f, float32(d), m)
}

// zeroSum returns -0 in rtn, else +0: an exact zero sum of operands of
// opposite sign.
func zeroSum(m Mode) float64 {
	if m == RTN {
		return math.Copysign(0, -1)
	}
	return 0
}

// Each exported function returns an rte result that is not NaN at once and
// leaves everything else to one out-of-line function, so that rte costs the
// hardware operation, a NaN test and a call.

// AddF64 returns a + b correctly rounded to binary64 in mode m.
func AddF64(a, b float64, m Mode) float64 {
	s := float64(a + b)
	if m == RTE && s == s {
		return s
	}
	return sum64(a, b, b, m)
}

// SubF64 returns a - b correctly rounded to binary64 in mode m.
func SubF64(a, b float64, m Mode) float64 {
	s := float64(a - b)
	if m == RTE && s == s {
		return s
	}
	return sum64(a, -b, b, m) // a - b is a + (-b), zeros included
}

// sum64 rounds a + b in a directed mode (or returns the NaN result); bNaN
// is the second operand as given, for the NaN policy.
func sum64(a, b, bNaN float64, m Mode) float64 {
	s := float64(a + b)
	if s != s {
		return nan64(a, bNaN, 0)
	}
	// TwoSum (Knuth): a + b = s + e exactly when s is finite.
	bb := float64(s - a)
	e := float64(float64(a-float64(s-bb)) + float64(b-bb))
	if e == 0 {
		if s == 0 {
			// An exact zero. The hardware gave -0 only for (-0) + (-0);
			// rtn wants +0 only for (+0) + (+0).
			if m == RTN {
				return -float64(-a - b)
			}
		}
		return s
	}
	if e != e {
		// s is infinite: an infinite operand (exact) or an overflow.
		if math.IsInf(a, 0) || math.IsInf(b, 0) {
			return s
		}
		return step64(s, -s, m)
	}
	return step64(s, e, m)
}

// MulF64 returns a * b correctly rounded to binary64 in mode m.
func MulF64(a, b float64, m Mode) float64 {
	p := float64(a * b)
	if m == RTE && p == p {
		return p
	}
	return mul64(a, b, m)
}

func mul64(a, b float64, m Mode) float64 {
	p := float64(a * b)
	if m == RTE {
		return nan64(a, b, 0) // p is NaN
	}
	// With |p| >= 2^-968, ulp(a)*ulp(b) >= 2^-1074, so the error a*b - p is
	// a representable number and fma computes it exactly.
	if ap := math.Abs(p); ap >= 0x1p-968 && ap <= math.MaxFloat64 {
		e := math.FMA(a, b, -p)
		if e == 0 {
			return p
		}
		return step64(p, e, m)
	}
	return mulSlow64(a, b, p, m)
}

func mulSlow64(a, b, p float64, m Mode) float64 {
	switch {
	case p != p:
		return nan64(a, b, 0)
	case math.IsInf(p, 0):
		if math.IsInf(a, 0) || math.IsInf(b, 0) {
			return p
		}
		return step64(p, -p, m) // overflow
	case a == 0 || b == 0:
		return p
	case p == 0:
		// Underflow to zero: the exact product is nonzero, of p's sign.
		return step64(p, math.Copysign(1, p), m)
	}
	// A tiny nonzero product: a*b = (fa*fb) * 2^(ea+eb) with fa, fb in
	// [1/2, 1), where fma's product error is exact. p scaled by 2^-(ea+eb)
	// (exact: p is nonzero and the result is near 1) is within a factor of
	// two of fa*fb, so their difference d is exact (Sterbenz), and the
	// exact error's sign is that of d + es, computed without underflow.
	fa, ea := math.Frexp(a)
	fb, eb := math.Frexp(b)
	ps := float64(fa * fb)
	es := math.FMA(fa, fb, -ps)
	d := float64(ps - math.Ldexp(p, -(ea+eb)))
	e := float64(d + es)
	if e == 0 {
		return p
	}
	return step64(p, e, m)
}

// DivF64 returns a / b correctly rounded to binary64 in mode m.
func DivF64(a, b float64, m Mode) float64 {
	q := float64(a / b)
	if m == RTE && q == q {
		return q
	}
	return div64(a, b, m)
}

func div64(a, b float64, m Mode) float64 {
	q := float64(a / b)
	if m == RTE {
		return nan64(a, b, 0) // q is NaN
	}
	// For a finite nonzero q and |a| >= 2^-968, the remainder a - q*b is a
	// multiple of 2^-1074 (ulp(q)*ulp(b) >= ulp(a)/2^53), so fma's rounding
	// keeps its sign, which is that of (a/b - q) * b.
	if aa, aq := math.Abs(a), math.Abs(q); aa >= 0x1p-968 && aa <= math.MaxFloat64 && aq > 0 && aq <= math.MaxFloat64 {
		r := math.FMA(-q, b, a)
		if r == 0 {
			return q
		}
		return step64(q, withSignOf(r, b), m)
	}
	return divSlow64(a, b, q, m)
}

// withSignOf returns r with its sign multiplied by b's.
func withSignOf(r, b float64) float64 {
	return math.Float64frombits(math.Float64bits(r) ^ math.Float64bits(b)&signBit)
}

func divSlow64(a, b, q float64, m Mode) float64 {
	switch {
	case q != q:
		return nan64(a, b, 0)
	case math.IsInf(q, 0):
		if math.IsInf(a, 0) || b == 0 {
			return q // exact: inf / x, x / 0
		}
		return step64(q, -q, m) // overflow
	case q == 0:
		if a == 0 || math.IsInf(b, 0) {
			return q
		}
		return step64(q, math.Copysign(1, q), m) // underflow to zero
	}
	// A tiny dividend (q finite and nonzero): divide the significands fa/fb
	// in [1/2, 1) instead, with q rescaled to match (exact: near 1).
	fa, ea := math.Frexp(a)
	fb, eb := math.Frexp(b)
	qs := math.Ldexp(q, eb-ea)
	r := math.FMA(-qs, fb, fa)
	if r == 0 {
		return q
	}
	return step64(q, withSignOf(r, fb), m)
}

// SqrtF64 returns the square root of a correctly rounded to binary64 in mode
// m. sqrt(-0) = -0; a negative a gives the default NaN.
func SqrtF64(a float64, m Mode) float64 {
	s := math.Sqrt(a)
	if m == RTE && s == s {
		return s
	}
	return sqrt64(a, m)
}

func sqrt64(a float64, m Mode) float64 {
	s := math.Sqrt(a)
	if m == RTE {
		return nan64(a, 0, 0) // s is NaN
	}
	// a - s*s is exact for a >= 2^-968 (s >= 2^-484, ulp(s)^2 >= 2^-1072).
	if a >= 0x1p-968 && a <= math.MaxFloat64 {
		r := math.FMA(-s, s, a)
		if r == 0 {
			return s
		}
		return step64(s, r, m)
	}
	switch {
	case s != s:
		return nan64(a, 0, 0)
	case a == 0 || a > math.MaxFloat64:
		return s
	}
	// Tiny a: scale by 2^1000 and s by 2^500, both exact.
	s2 := s * 0x1p500
	r := math.FMA(-s2, s2, a*0x1p1000)
	if r == 0 {
		return s
	}
	return step64(s, r, m)
}

// FMAF64 returns a*b + c computed exactly and rounded once to binary64 in
// mode m (in rte it is math.FMA).
func FMAF64(a, b, c float64, m Mode) float64 {
	r := math.FMA(a, b, c)
	if m == RTE && r == r {
		return r
	}
	return fma64(a, b, c, m)
}

func fma64(a, b, c float64, m Mode) float64 {
	r := math.FMA(a, b, c)
	if r != r {
		return nan64(a, b, c)
	}
	p := float64(a * b)
	if ap, ac := math.Abs(p), math.Abs(c); ap >= 0x1p-968 && ap <= 0x1p1020 && ac <= 0x1p1020 {
		// No overflow anywhere, and a*b and c are multiples of 2^-1074:
		// r == 0 means an exact cancellation of a nonzero product.
		if r == 0 {
			return zeroSum(m)
		}
		// ErrFma: a*b + c = r + r2 + r3, |r3| <= ulp(r2)/2.
		u2 := math.FMA(a, b, -p)
		a1, z := twoSum(c, u2)
		b1, b2 := twoSum(p, a1)
		g := float64(float64(b1-r) + b2)
		r2 := float64(g + z)
		e := r2
		if r2 == 0 {
			e = float64(z - float64(r2-g)) // r3
			if e == 0 {
				return r
			}
		}
		return step64(r, e, m)
	}
	return fmaSoft(a, b, c, m)
}

// twoSum returns s = RN(a + b) and the exact error a + b - s.
func twoSum(a, b float64) (s, e float64) {
	s = float64(a + b)
	bb := float64(s - a)
	e = float64(float64(a-float64(s-bb)) + float64(b-bb))
	return s, e
}

// AddF32 returns a + b correctly rounded to binary32 in mode m.
func AddF32(a, b float32, m Mode) float32 {
	if s := float32(a + b); m == RTE && s == s {
		return s
	}
	return sum32(float64(a), float64(b), a, b, 0, m)
}

// SubF32 returns a - b correctly rounded to binary32 in mode m.
func SubF32(a, b float32, m Mode) float32 {
	if s := float32(a - b); m == RTE && s == s {
		return s
	}
	return sum32(float64(a), -float64(b), a, b, 0, m)
}

// sum32 rounds x + y, exact binary64 values (widened binary32 operands or an
// exact product of two), to binary32 in mode m; a, b, c are the original
// operands for the NaN policy.
func sum32(x, y float64, a, b, c float32, m Mode) float32 {
	s, e := twoSum(x, y)
	if e != 0 {
		if e != e { // s is infinite or NaN: no finite binary32 sum overflows binary64
			if s != s {
				return nan32(a, b, c)
			}
			return float32(s)
		}
		s = toOdd(s, e)
	} else if s == 0 && m == RTN {
		return float32(-float64(-x - y))
	}
	if m == RTE {
		return float32(s)
	}
	return to32(s, m)
}

// toOdd returns the exact value s + e (s = RN(s + e)) rounded to odd: s if e
// is zero or s's significand is odd, else s's neighbour on e's side.
func toOdd(s, e float64) float64 {
	sb := math.Float64bits(s)
	if e != 0 && sb&1 == 0 {
		if (math.Float64bits(e)^sb)>>63 == 0 {
			sb++
		} else {
			sb--
		}
	}
	return math.Float64frombits(sb)
}

// MulF32 returns a * b correctly rounded to binary32 in mode m.
func MulF32(a, b float32, m Mode) float32 {
	if p := float32(a * b); m == RTE && p == p {
		return p
	}
	return mul32(a, b, m)
}

func mul32(a, b float32, m Mode) float32 {
	p := float64(float64(a) * float64(b)) // exact: 48 bits, far from binary64's limits
	if p != p {
		return nan32(a, b, 0)
	}
	return to32(p, m)
}

// DivF32 returns a / b correctly rounded to binary32 in mode m.
func DivF32(a, b float32, m Mode) float32 {
	if q := float32(a / b); m == RTE && q == q {
		return q
	}
	return div32(a, b, m)
}

func div32(a, b float32, m Mode) float32 {
	q := float64(float64(a) / float64(b))
	if q != q {
		return nan32(a, b, 0)
	}
	return to32(q, m)
}

// SqrtF32 returns the square root of a correctly rounded to binary32 in mode
// m (in rte: float32(math.Sqrt(float64(a))), which is correctly rounded).
func SqrtF32(a float32, m Mode) float32 {
	s := math.Sqrt(float64(a))
	if m == RTE && s == s {
		return float32(s)
	}
	return sqrt32(a, m)
}

func sqrt32(a float32, m Mode) float32 {
	s := math.Sqrt(float64(a))
	if s != s {
		return nan32(a, 0, 0)
	}
	return to32(s, m)
}

// FMAF32 returns a*b + c computed exactly and rounded once to binary32 in mode
// m. (Go has no binary32 fma; float32(math.FMA(a, b, c)) would round twice.)
func FMAF32(a, b, c float32, m Mode) float32 {
	p := float64(float64(a) * float64(b)) // exact
	return sum32(p, float64(c), a, b, c, m)
}

// fmaSoft is a*b + c rounded once in mode m by integer arithmetic: Go's
// math.FMA software fallback (which rounds to nearest even) with the final
// rounding made mode-aware. The product's 106 bits and c's 53 are aligned in
// 128 bits, bits shifted out are kept as a sticky bit, and the sum is rounded
// once with ten guard bits. It serves the operands where ErrFma's
// transformations would overflow or lose bits to underflow. a*b + c must not
// be NaN.
func fmaSoft(a, b, c float64, m Mode) float64 {
	const bias = 1023
	ba, bb, bc := math.Float64bits(a), math.Float64bits(b), math.Float64bits(c)

	// A zero or infinite factor: the product is exact, and so is the sum
	// unless both are zeros.
	if a == 0 || b == 0 || ba&expMask == expMask || bb&expMask == expMask {
		p := float64(a * b)
		r := float64(p + c)
		if r == 0 && m == RTN {
			r = -float64(-p - c)
		}
		return r
	}
	if c == 0 {
		return MulF64(a, b, m) // a*b is nonzero: a*b + c = a*b
	}
	if bc&expMask == expMask {
		return c
	}

	// Split into sign, exponent and significand (normalized when subnormal).
	as, ae, am := split(ba)
	bs, be, bm := split(bb)
	cs, ce, cm := split(bc)

	// The product p = a*b as sign, exponent, two-word significand shifted
	// left by 21 (its top bit at 126 or 125, normalized below to 126).
	pe := ae + be - bias + 1
	pm1, pm2 := bits.Mul64(am<<10, bm<<11)
	cm1, cm2 := cm<<10, uint64(0)
	ps := as ^ bs

	is62zero := uint((^pm1 >> 62) & 1)
	pm1, pm2 = shl(pm1, pm2, is62zero)
	pe -= int32(is62zero)

	// Swap so that |p| >= |c|.
	if pe < ce || pe == ce && pm1 < cm1 {
		ps, pe, pm1, pm2, cs, ce, cm1, cm2 = cs, ce, cm1, cm2, ps, pe, pm1, pm2
	}

	// p == -c: an exact zero sum of nonzero operands.
	if ps != cs && pe == ce && pm1 == cm1 && pm2 == cm2 {
		return zeroSum(m)
	}

	// Align significands, keeping what falls off as a sticky bit.
	cm1, cm2 = shrcompress(cm1, cm2, uint(pe-ce))

	var mant, carry uint64
	if ps == cs {
		pm2, carry = bits.Add64(pm2, cm2, 0)
		pm1, _ = bits.Add64(pm1, cm1, carry)
		pe -= int32(^pm1 >> 63)
		pm1, mant = shrcompress(pm1, pm2, uint(64+pm1>>63))
	} else {
		pm2, carry = bits.Sub64(pm2, cm2, 0)
		pm1, _ = bits.Sub64(pm1, cm1, carry)
		nz := lz(pm1, pm2)
		pe -= nz
		mant, pm2 = shl(pm1, pm2, uint(nz-1))
		mant |= nonzero(pm2)
	}
	// mant: the significand's top bit at 62, then 52 bits, then 10 guard
	// bits whose lowest is sticky; the value is mant * 2^(pe-bias-62+1).

	away := m == RTP && ps == 0 || m == RTN && ps == 1
	if pe > 2046-1 {
		return overflow64(ps, m == RTE || away)
	}
	if pe < 0 {
		// Subnormal: shift right to the subnormal exponent, keeping a
		// sticky bit (Go's shifts by 64 or more give 0).
		n := uint(-pe)
		mant = mant>>n | nonzero(mant&(1<<n-1))
		pe = 0
	}
	var inc uint64
	switch {
	case m == RTE:
		inc = 1 << 9
	case away:
		inc = 1<<10 - 1
	}
	r := (mant + inc) >> 10
	if m == RTE && mant&(1<<10-1) == 1<<9 {
		r &^= 1 // a tie: to even
	}
	pe &= -int32(nonzero(r))
	// pe is the biased exponent minus one: r's top bit (bit 52) adds it; a
	// carry out of the significand moves into the exponent.
	bits := uint64(pe)<<52 + r
	if bits >= expMask {
		return overflow64(ps, m == RTE || away)
	}
	return math.Float64frombits(uint64(ps)<<63 | bits)
}

// overflow64 returns the result of an overflow of the given sign: infinity if
// the mode rounds it away from zero (or to nearest), else the largest finite
// value.
func overflow64(sign uint32, toInf bool) float64 {
	b := uint64(sign)<<63 | expMask
	if !toInf {
		b--
	}
	return math.Float64frombits(b)
}

func nonzero(x uint64) uint64 {
	if x != 0 {
		return 1
	}
	return 0
}

func shl(u1, u2 uint64, n uint) (r1, r2 uint64) {
	r1 = u1<<n | u2>>(64-n) | u2<<(n-64)
	r2 = u2 << n
	return
}

func shr(u1, u2 uint64, n uint) (r1, r2 uint64) {
	r2 = u2>>n | u1<<(64-n) | u1>>(n-64)
	r1 = u1 >> n
	return
}

// shrcompress shifts the two-word value right by n, ORing the bits shifted
// out into bit 0.
func shrcompress(u1, u2 uint64, n uint) (r1, r2 uint64) {
	switch {
	case n == 0:
		return u1, u2
	case n == 64:
		return 0, u1 | nonzero(u2)
	case n >= 128:
		return 0, nonzero(u1 | u2)
	case n < 64:
		r1, r2 = shr(u1, u2, n)
		r2 |= nonzero(u2 & (1<<n - 1))
	default:
		r1, r2 = shr(u1, u2, n)
		r2 |= nonzero(u1&(1<<(n-64)-1) | u2)
	}
	return
}

func lz(u1, u2 uint64) int32 {
	l := int32(bits.LeadingZeros64(u1))
	if l == 64 {
		l += int32(bits.LeadingZeros64(u2))
	}
	return l
}

// split splits a finite nonzero binary64 pattern into sign, biased exponent
// and significand with the implicit bit (subnormals normalized).
func split(b uint64) (sign uint32, exp int32, mant uint64) {
	sign = uint32(b >> 63)
	exp = int32(b>>52) & 0x7ff
	mant = b & fracMask
	if exp == 0 {
		shift := uint(bits.LeadingZeros64(mant) - 11)
		mant <<= shift
		exp = 1 - int32(shift)
	} else {
		mant |= 1 << 52
	}
	return
}
