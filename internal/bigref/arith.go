package bigref

import (
	"fmt"
	"math/big"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// Op is an IEEE 754 arithmetic operation that Arith computes.
type Op uint8

// The operations, with their operand counts: Sqrt takes one, FMA three
// (x*y + z), the others two.
const (
	Add Op = iota
	Sub
	Mul
	Div
	Sqrt
	FMA
)

var opNames = [...]string{"add", "sub", "mul", "div", "sqrt", "fma"}

// String returns the operation's name ("add").
func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// Arity returns the number of operands op takes.
func (op Op) Arity() int {
	switch op {
	case Sqrt:
		return 1
	case FMA:
		return 3
	}
	return 2
}

// Arith applies op to the operands, bit patterns of the floating kind k
// zero-extended to 64 bits, and returns the result rounded once to k in mode
// m. The exact result of the operation is an integer times a power of two
// (for Div and Sqrt, when inexact, a stand-in with a sticky bit appended far
// below the rounding position, which rounds as the exact value does in every
// mode); rounding it to k uses only integer arithmetic, so subnormals,
// overflow and the sign of an underflowed zero follow IEEE 754 exactly.
//
// The special cases are those of IEEE 754 (6.1-6.3, 7.2-7.3): inf - inf,
// 0 * inf, 0 / 0, inf / inf, sqrt of a negative value and fma(0, inf, z) are
// invalid; x / 0 is an infinity with the sign of the operands' product; an
// exact zero sum or difference of operands of opposite sign (x - x included)
// is +0, except in rtn where it is -0, while a sum of two zeros of the same
// sign keeps that sign; sqrt(-0) = -0. A NaN result is the first NaN
// operand with its quiet bit set, or, when no operand is NaN, the positive
// quiet NaN with an otherwise empty payload: the policy of value.Binary and of
// the fast primitives in packages round and half. For Sub a NaN y is
// returned as given, not negated.
//
// Arith panics if k is not floating, m is not a mode, or the operand count
// does not match op.
func Arith(op Op, k cltype.Kind, m round.Mode, args ...uint64) uint64 {
	r := ArithModes(op, k, args...)
	return r[m]
}

// ArithModes is Arith in all four modes at once, indexed by round.Mode; the
// exact result is computed once.
func ArithModes(op Op, k cltype.Kind, args ...uint64) [4]uint64 {
	return arith(op, k, args, roundDyadic)
}

// ArithModesRat is ArithModes with the last step done another way: the exact
// result (or stand-in) becomes a big.Rat rounded by the code that rounds
// Convert's results. It is slower; tests use it to check ArithModes' own
// rounding.
func ArithModesRat(op Op, k cltype.Kind, args ...uint64) [4]uint64 {
	return arith(op, k, args, func(k cltype.Kind, d dyadic) [4]uint64 {
		x := new(big.Rat).SetInt(d.m)
		x.Mul(x, pow2(d.e))
		if d.neg {
			x.Neg(x)
		}
		s := source{x: x, neg: d.neg}
		var r [4]uint64
		for _, m := range round.Modes {
			r[m] = toFloat(k, k, s, m)
		}
		return r
	})
}

// dyadic is the value (-1)^neg * m * 2^e, m >= 0.
type dyadic struct {
	neg bool
	m   *big.Int
	e   int
}

// operand is a decoded floating operand: a NaN, an infinity, or the finite
// value d (m == 0 for a zero; neg is the sign bit in every case).
type operand struct {
	neg, inf, nan bool
	d             dyadic
}

func (o operand) isZero() bool { return !o.inf && !o.nan && o.d.m.Sign() == 0 }

// decodeOperand takes a floating bit pattern apart with integer operations
// (IEEE 754 3.4): a normal is (2^fracBits + field) * 2^(biased-bias-fracBits),
// a subnormal field * 2^(emin-fracBits).
func decodeOperand(l layout, w int, b uint64) operand {
	neg := b>>(w-1)&1 == 1
	field := b & mask(l.fracBits)
	biased := int(b>>l.fracBits) & int(mask(l.expBits))
	switch {
	case biased == int(mask(l.expBits)) && field == 0:
		return operand{neg: neg, inf: true}
	case biased == int(mask(l.expBits)):
		return operand{neg: neg, nan: true}
	case biased == 0:
		return operand{neg: neg, d: dyadic{neg: neg, m: new(big.Int).SetUint64(field), e: l.emin - l.fracBits}}
	}
	m := new(big.Int).SetUint64(field | 1<<l.fracBits)
	return operand{neg: neg, d: dyadic{neg: neg, m: m, e: biased - l.bias - l.fracBits}}
}

func arith(op Op, k cltype.Kind, args []uint64, rnd func(cltype.Kind, dyadic) [4]uint64) [4]uint64 {
	if !k.IsFloat() {
		panic(fmt.Sprintf("bigref.Arith: %v is not a floating kind", k))
	}
	if len(args) != op.Arity() {
		panic(fmt.Sprintf("bigref.Arith: %v takes %d operands, got %d", op, op.Arity(), len(args)))
	}
	l := layoutOf(k)
	w := k.Bits()
	var ops [3]operand
	for i, b := range args {
		ops[i] = decodeOperand(l, w, b&mask(w))
	}
	// NaN operands: the first one, quieted.
	for i := range args {
		if ops[i].nan {
			return all(args[i]&mask(w) | 1<<(l.fracBits-1))
		}
	}
	signBit := uint64(1) << (w - 1)
	expOnes := mask(l.expBits) << l.fracBits
	invalid := all(expOnes | 1<<(l.fracBits-1))
	signed := func(neg bool, mag uint64) [4]uint64 {
		if neg {
			return all(signBit | mag)
		}
		return all(mag)
	}
	inf := func(neg bool) [4]uint64 { return signed(neg, expOnes) }
	zero := func(neg bool) [4]uint64 { return signed(neg, 0) }

	// sum is x + y for operands that are not NaN.
	sum := func(x, y operand) [4]uint64 {
		switch {
		case x.inf && y.inf && x.neg != y.neg:
			return invalid
		case x.inf:
			return inf(x.neg)
		case y.inf:
			return inf(y.neg)
		}
		if x.isZero() && y.isZero() {
			if x.neg == y.neg {
				return zero(x.neg)
			}
			return exactZero(signBit)
		}
		if x.isZero() {
			return rnd(k, y.d)
		}
		if y.isZero() {
			return rnd(k, x.d)
		}
		dx, dy := x.d, y.d
		e := min(dx.e, dy.e)
		a := new(big.Int).Lsh(dx.m, uint(dx.e-e))
		b := new(big.Int).Lsh(dy.m, uint(dy.e-e))
		if dx.neg == dy.neg {
			return rnd(k, dyadic{neg: dx.neg, m: a.Add(a, b), e: e})
		}
		switch a.Cmp(b) {
		case 0:
			// Operands of opposite sign cancelling exactly (IEEE 754 6.3).
			return exactZero(signBit)
		case 1:
			return rnd(k, dyadic{neg: dx.neg, m: a.Sub(a, b), e: e})
		}
		return rnd(k, dyadic{neg: dy.neg, m: b.Sub(b, a), e: e})
	}

	switch op {
	case Add:
		return sum(ops[0], ops[1])
	case Sub:
		y := ops[1]
		y.neg = !y.neg
		y.d.neg = y.neg
		return sum(ops[0], y)
	case Mul:
		x, y := ops[0], ops[1]
		neg := x.neg != y.neg
		switch {
		case (x.inf && y.isZero()) || (y.inf && x.isZero()):
			return invalid
		case x.inf || y.inf:
			return inf(neg)
		case x.isZero() || y.isZero():
			return zero(neg)
		}
		return rnd(k, mulDyadic(x.d, y.d))
	case Div:
		x, y := ops[0], ops[1]
		neg := x.neg != y.neg
		switch {
		case x.inf && y.inf, x.isZero() && y.isZero():
			return invalid
		case x.inf:
			return inf(neg)
		case y.inf:
			return zero(neg)
		case y.isZero():
			return inf(neg) // division by zero (IEEE 754 7.3)
		case x.isZero():
			return zero(neg)
		}
		dx, dy := x.d, y.d
		// floor(mx * 2^s / my) gets at least prec+3 bits.
		s := max(0, l.prec+4+dy.m.BitLen()-dx.m.BitLen())
		q, r := new(big.Int).DivMod(new(big.Int).Lsh(dx.m, uint(s)), dy.m, new(big.Int))
		return rnd(k, sticky(neg, q, r.Sign() != 0, dx.e-dy.e-s))
	case Sqrt:
		x := ops[0]
		switch {
		case x.isZero():
			return zero(x.neg) // sqrt(-0) = -0
		case x.neg:
			return invalid
		case x.inf:
			return inf(false)
		}
		d := x.d
		m, e := d.m, d.e
		if e%2 != 0 {
			m = new(big.Int).Lsh(m, 1)
			e--
		}
		// floor(sqrt(m * 4^t)) gets at least prec+3 bits.
		t := max(0, (2*(l.prec+3)-m.BitLen())/2+1)
		sq := new(big.Int).Lsh(m, uint(2*t))
		root := new(big.Int).Sqrt(sq)
		inexact := new(big.Int).Mul(root, root).Cmp(sq) != 0
		return rnd(k, sticky(false, root, inexact, e/2-t))
	}
	// FMA: x*y + z.
	x, y, z := ops[0], ops[1], ops[2]
	pneg := x.neg != y.neg
	switch {
	case (x.inf && y.isZero()) || (y.inf && x.isZero()):
		return invalid
	case x.inf || y.inf:
		if z.inf && z.neg != pneg {
			return invalid
		}
		return inf(pneg)
	case z.inf:
		return inf(z.neg)
	}
	p := operand{neg: pneg, d: mulDyadic(x.d, y.d)}
	return sum(p, z)
}

// exactZero is the result of an exact zero sum whose operands' signs differ:
// +0, but -0 in rtn (IEEE 754 6.3).
func exactZero(signBit uint64) [4]uint64 {
	var r [4]uint64
	r[round.RTN] = signBit
	return r
}

func all(b uint64) [4]uint64 { return [4]uint64{b, b, b, b} }

func mulDyadic(x, y dyadic) dyadic {
	return dyadic{neg: x.neg != y.neg, m: new(big.Int).Mul(x.m, y.m), e: x.e + y.e}
}

// sticky returns the stand-in for a value v with q*2^e <= |v| < (q+1)*2^e,
// q having at least prec+3 bits: q itself when v is exact, else q + 1/2.
// Every representable value and every midpoint between two near v is a
// multiple of 2^e (their spacing is at least 2^(bitlen(q)-prec+1) * 2^e), so
// none lies strictly between q*2^e and (q+1)*2^e, and the stand-in rounds in
// every mode as v does.
func sticky(neg bool, q *big.Int, inexact bool, e int) dyadic {
	if !inexact {
		return dyadic{neg: neg, m: q, e: e}
	}
	m := new(big.Int).Lsh(q, 1)
	return dyadic{neg: neg, m: m.SetBit(m, 0, 1), e: e - 1}
}

// roundDyadic rounds d to k in each mode: the magnitude is cut at the
// exponent of k's spacing there (that of d's binade, or the subnormal
// spacing), the cut-off bits decide the rounding, and a result of 2^(emax+1)
// or more overflows to infinity or to the largest finite value, as IEEE 754
// 7.4 prescribes for the mode and sign.
func roundDyadic(k cltype.Kind, d dyadic) [4]uint64 {
	l := layoutOf(k)
	var sign uint64
	if d.neg {
		sign = 1 << (k.Bits() - 1)
	}
	e := d.e + d.m.BitLen() - 1 // floor(log2 |d|)
	q := max(e, l.emin) - l.fracBits
	var trunc *big.Int
	var rem int // the cut-off part against half a unit: -1 below, 0 equal, 1 above; -2 for none
	if shift := q - d.e; shift <= 0 {
		trunc = new(big.Int).Lsh(d.m, uint(-shift))
		rem = -2
	} else {
		trunc = new(big.Int).Rsh(d.m, uint(shift))
		low := new(big.Int).Sub(d.m, new(big.Int).Lsh(trunc, uint(shift)))
		if low.Sign() == 0 {
			rem = -2
		} else {
			half := new(big.Int).Lsh(big.NewInt(1), uint(shift-1))
			rem = low.Cmp(half)
		}
	}
	var r [4]uint64
	for _, m := range round.Modes {
		c := new(big.Int).Set(trunc)
		up := false
		away := m == round.RTP && !d.neg || m == round.RTN && d.neg
		switch {
		case rem == -2:
		case m == round.RTE:
			up = rem > 0 || rem == 0 && c.Bit(0) == 1
		default:
			up = away
		}
		if up {
			c.Add(c, big.NewInt(1))
		}
		qq := q
		if c.BitLen() > l.prec { // rounded up to the next binade
			c.Rsh(c, 1)
			qq++
		}
		switch {
		case c.Sign() != 0 && qq+c.BitLen()-1 > l.emax:
			// Overflow: infinity, or the largest finite value when the
			// mode rounds this sign toward zero.
			if m == round.RTE || away {
				r[m] = sign | mask(l.expBits)<<l.fracBits
			} else {
				r[m] = sign | (mask(l.expBits)<<l.fracBits - 1)
			}
		case c.BitLen() < l.prec:
			// A subnormal or zero: q is the subnormal spacing here.
			r[m] = sign | c.Uint64()
		default:
			r[m] = sign | uint64(qq+l.fracBits+l.bias)<<l.fracBits | c.Uint64()&mask(l.fracBits)
		}
	}
	return r
}
