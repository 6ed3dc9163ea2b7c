package half

import (
	"math"

	"github.com/clconv/clconv/round"
)

// Arithmetic on halves, correctly rounded in every mode: the exact result
// rounded once to binary16 (subnormals kept, overflow to infinity or to
// ±65504 by the mode, as IEEE 754 7.4 says).
//
// Every operand converts exactly to binary64, where the operations are done:
//
//   - Sums and products of two halves are exact in binary64 (a sum needs at
//     most 11 + 40 bits, the span from 2^-24 to 2^16; a product 22), so
//     FromFloat64 rounds the exact value once.
//   - A quotient or square root rounded to binary64 is never a binary16 value
//     or a midpoint between two unless it is exact (53 >= 2*11 + 2), so it
//     rounds to binary16 as the exact value does, in every mode.
//   - fma's product is exact; its sum with c may not be (81 bits), so the
//     sum's rounding error (TwoSum) turns the binary64 sum into its rounding
//     to odd, which rounds to binary16 as the exact value does (53 >= 11 + 2).
//
// Zeros and NaNs follow IEEE 754 and clconv's NaN policy as in package round
// (round/arith.go): an exact zero sum of operands of opposite sign is +0, or
// -0 in rtn; a NaN result is the first NaN operand with its quiet bit set, or
// QNaN (0x7e00) when no operand is NaN (inf - inf, 0 * inf, 0 / 0,
// inf / inf, sqrt of a negative value, fma(0, inf, c)).

// nanResult is the NaN result of an operation on a, b, c (pass 0 for absent
// operands).
func nanResult(a, b, c Half) Half {
	for _, x := range [3]Half{a, b, c} {
		if x.IsNaN() {
			return x | 0x0200
		}
	}
	return QNaN
}

// Add returns a + b correctly rounded in mode m.
func Add(a, b Half, m round.Mode) Half {
	return sum(a.Float64(), b.Float64(), a, b, m)
}

// Sub returns a - b correctly rounded in mode m. A NaN b is returned quieted
// but not negated.
func Sub(a, b Half, m round.Mode) Half {
	return sum(a.Float64(), -b.Float64(), a, b, m)
}

// sum rounds x + y, the exact values of a and ±b.
func sum(x, y float64, a, b Half, m round.Mode) Half {
	s := float64(x + y) // exact
	if s != s {
		return nanResult(a, b, 0)
	}
	if s == 0 && m == round.RTN {
		// An exact zero: -0 unless both operands are +0 (the hardware's
		// nearest sum is +0 unless both are -0).
		s = -float64(-x - y)
	}
	return FromFloat64(s, m)
}

// Mul returns a * b correctly rounded in mode m.
func Mul(a, b Half, m round.Mode) Half {
	p := float64(a.Float64() * b.Float64()) // exact
	if p != p {
		return nanResult(a, b, 0)
	}
	return FromFloat64(p, m)
}

// Div returns a / b correctly rounded in mode m.
func Div(a, b Half, m round.Mode) Half {
	q := float64(a.Float64() / b.Float64())
	if q != q {
		return nanResult(a, b, 0)
	}
	return FromFloat64(q, m)
}

// Sqrt returns the square root of a correctly rounded in mode m; sqrt(-0) is
// -0 and a negative a gives QNaN.
func Sqrt(a Half, m round.Mode) Half {
	s := math.Sqrt(a.Float64())
	if s != s {
		return nanResult(a, 0, 0)
	}
	return FromFloat64(s, m)
}

// FMA returns a*b + c computed exactly and rounded once in mode m.
func FMA(a, b, c Half, m round.Mode) Half {
	p := float64(a.Float64() * b.Float64()) // exact
	z := c.Float64()
	s := float64(p + z)
	// TwoSum: p + z = s + e exactly.
	bb := float64(s - p)
	e := float64(float64(p-float64(s-bb)) + float64(z-bb))
	switch {
	case s != s:
		return nanResult(a, b, c)
	case e != 0:
		if e != e {
			return FromFloat64(s, m) // an infinite operand: s is exact
		}
		// Round to odd: an even s moves to its neighbour on e's side.
		sb := math.Float64bits(s)
		if sb&1 == 0 {
			if (math.Float64bits(e)^sb)>>63 == 0 {
				sb++
			} else {
				sb--
			}
		}
		s = math.Float64frombits(sb)
	case s == 0 && m == round.RTN:
		s = -float64(-p - z)
	}
	return FromFloat64(s, m)
}
