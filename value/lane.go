package value

import (
	"math"
	"sync"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// Lane-level operations: the step that Bool, Cast, Binary, Neg and Complement
// take for each element, for callers that know the types ahead of time and
// keep raw lanes instead of Values (package clc's compiled programs). They
// check nothing: the kinds must be ones the Value-level operation accepts.

// Truth reports whether a lane of kind k compares unequal to zero, as
// Value.Bool does (NaN is true; a bool lane is 0 or 1).
func Truth(k cltype.Kind, lane uint64) bool { return truth(k, lane) != 0 }

// CastLane converts one lane of kind src to kind k as Cast does: to bool,
// lane != 0; otherwise like convert_<k> without a suffix and without
// saturation in the current mode cur. The flag reports a result that OpenCL
// leaves implementation-defined or undefined (NaN or out of range to an
// integer kind; clconv gives the saturated value).
func CastLane(k, src cltype.Kind, lane uint64, cur round.Mode) (uint64, bool) {
	if k == cltype.Bool {
		return truth(src, lane), false
	}
	if src == cltype.Bool {
		src, lane = cltype.Uchar, lane&1
	}
	return convert.Bits(k, src, lane, convert.EffectiveMode(k, convert.NoSuffix, cur), false)
}

// NegLane negates one lane of kind k as NegOverflow does; the flag reports a
// signed integer's minimum, whose negation overflows.
func NegLane(k cltype.Kind, lane uint64) (uint64, bool) {
	if k.IsFloat() {
		return lane ^ 1<<(k.Bits()-1), false
	}
	return -lane & k.Mask(), k.IsSigned() && lane == 1<<(k.Bits()-1)
}

// ComplementLane returns ~lane for an integer kind k, as Complement does.
func ComplementLane(k cltype.Kind, lane uint64) uint64 { return ^lane & k.Mask() }

// LaneOp computes one lane of a binary operator: the result's bits, whether
// the lane overflowed (as BinaryOverflow reports it), and the error of an
// integer division by zero.
type LaneOp func(a, b uint64) (r uint64, over bool, err error)

// BinaryLaneOp returns the LaneOp that BinaryOverflow applies to each pair of
// lanes for op on operands of kind k (the left operand's kind for a shift,
// whose count may be of any integer kind) in rounding mode cur, so that a
// caller resolves the operator once. It fails where BinaryOverflow would on
// two operands of kind k: bool, a storage format, an integer-only operator on
// a floating kind, an invalid mode.
func BinaryLaneOp(op BinaryOp, k cltype.Kind, cur round.Mode) (LaneOp, error) {
	t := cltype.Scalar(k)
	if err := binaryCheck(op, t, t, cur); err != nil {
		return nil, err
	}
	return laneOp(op, k, cur), nil
}

// laneOps holds a LaneOp for every operator on every kind Binary accepts, in
// every mode for the floating kinds: made once, so that BinaryOverflow
// allocates nothing to find one.
var laneOps = sync.OnceValue(func() *[Xor + 1][cltype.Double + 1][round.RTN + 1]LaneOp {
	var t [Xor + 1][cltype.Double + 1][round.RTN + 1]LaneOp
	for op := range Xor + 1 {
		for k := cltype.Char; k <= cltype.Double; k++ {
			for m := range round.RTN + 1 {
				switch {
				case k.IsFloat() && !op.IntegerOnly():
					t[op][k][m] = floatLaneOp(op, k, m)
				case k.IsInteger() && m == round.RTE:
					t[op][k][m] = intLaneOp(op, k)
				case k.IsInteger():
					t[op][k][m] = t[op][k][round.RTE]
				}
			}
		}
	}
	return &t
})

// laneOp returns the LaneOp of op on kind k in mode cur, which binaryCheck
// has accepted.
func laneOp(op BinaryOp, k cltype.Kind, cur round.Mode) LaneOp {
	if k.IsInteger() {
		cur = round.RTE
	}
	return laneOps()[op][k][cur]
}

// intLaneOp makes the LaneOp of op on the integer kind k. Integers wrap
// modulo 2^bits; for signed kinds, over reports an exact result outside k's
// range (C99 6.5p5: undefined behaviour; MIN / -1 and MIN % -1 included).
// Shifts take the count modulo the width and >> is arithmetic on signed
// kinds.
func intLaneOp(op BinaryOp, k cltype.Kind) LaneOp {
	mask, bits := k.Mask(), uint(k.Bits())
	sh := 64 - bits // sign-extends a lane: int64(a<<sh) >> sh
	lo, hi := int64(-1)<<(bits-1), int64(mask>>1)
	signed, wide := k.IsSigned(), bits == 64
	switch op {
	case Add:
		switch {
		case !signed:
			return func(a, b uint64) (uint64, bool, error) { return (a + b) & mask, false, nil }
		case wide:
			return func(a, b uint64) (uint64, bool, error) {
				r := a + b
				sa, sb, sr := int64(a), int64(b), int64(r)
				return r, (sr^sa)&(sr^sb) < 0, nil
			}
		}
		return func(a, b uint64) (uint64, bool, error) {
			s := int64(a<<sh)>>sh + int64(b<<sh)>>sh
			return (a + b) & mask, s < lo || s > hi, nil
		}
	case Sub:
		switch {
		case !signed:
			return func(a, b uint64) (uint64, bool, error) { return (a - b) & mask, false, nil }
		case wide:
			return func(a, b uint64) (uint64, bool, error) {
				r := a - b
				sa, sb, sr := int64(a), int64(b), int64(r)
				return r, (sa^sb)&(sa^sr) < 0, nil
			}
		}
		return func(a, b uint64) (uint64, bool, error) {
			s := int64(a<<sh)>>sh - int64(b<<sh)>>sh
			return (a - b) & mask, s < lo || s > hi, nil
		}
	case Mul:
		switch {
		case !signed:
			return func(a, b uint64) (uint64, bool, error) { return (a * b) & mask, false, nil }
		case wide:
			return func(a, b uint64) (uint64, bool, error) {
				sa, sb := int64(a), int64(b)
				if sa == 0 || sb == 0 {
					return 0, false, nil
				}
				r := sa * sb
				return uint64(r), r/sb != sa || (sa == -1 && sb == lo) || (sb == -1 && sa == lo), nil
			}
		}
		return func(a, b uint64) (uint64, bool, error) {
			p := (int64(a<<sh) >> sh) * (int64(b<<sh) >> sh) // |p| <= 2^62
			return (a * b) & mask, p < lo || p > hi, nil
		}
	case Div, Rem:
		rem := op == Rem
		if !signed {
			return func(a, b uint64) (uint64, bool, error) {
				switch {
				case b == 0:
					return 0, false, errDivZero
				case rem:
					return a % b & mask, false, nil
				}
				return a / b & mask, false, nil
			}
		}
		return func(a, b uint64) (uint64, bool, error) {
			if b == 0 {
				return 0, false, errDivZero
			}
			sa, sb := int64(a<<sh)>>sh, int64(b<<sh)>>sh
			over := sa == lo && sb == -1
			if rem {
				return uint64(sa%sb) & mask, over, nil
			}
			return uint64(sa/sb) & mask, over, nil // Go defines MinInt64 / -1 == MinInt64
		}
	case Shl:
		return func(a, b uint64) (uint64, bool, error) { return (a << (b & uint64(bits-1))) & mask, false, nil }
	case Shr:
		if signed {
			return func(a, b uint64) (uint64, bool, error) {
				return uint64((int64(a<<sh)>>sh)>>(b&uint64(bits-1))) & mask, false, nil
			}
		}
		return func(a, b uint64) (uint64, bool, error) { return a >> (b & uint64(bits-1)) & mask, false, nil }
	case And:
		return func(a, b uint64) (uint64, bool, error) { return a & b & mask, false, nil }
	case Or:
		return func(a, b uint64) (uint64, bool, error) { return (a | b) & mask, false, nil }
	}
	return func(a, b uint64) (uint64, bool, error) { return (a ^ b) & mask, false, nil }
}

// floatLaneOp makes the LaneOp of a floating + - * / on kind k in mode cur,
// by the primitives of packages round and half, which return a NaN result by
// the policy Binary documents.
func floatLaneOp(op BinaryOp, k cltype.Kind, cur round.Mode) LaneOp {
	switch k {
	case cltype.Half:
		f := [...]func(a, b half.Half, m round.Mode) half.Half{Add: half.Add, Sub: half.Sub, Mul: half.Mul, Div: half.Div}[op]
		return func(a, b uint64) (uint64, bool, error) {
			return uint64(f(half.Half(a), half.Half(b), cur)), false, nil
		}
	case cltype.Float:
		f := [...]func(a, b float32, m round.Mode) float32{Add: round.AddF32, Sub: round.SubF32, Mul: round.MulF32, Div: round.DivF32}[op]
		return func(a, b uint64) (uint64, bool, error) {
			return uint64(math.Float32bits(f(math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)), cur))), false, nil
		}
	}
	f := [...]func(a, b float64, m round.Mode) float64{Add: round.AddF64, Sub: round.SubF64, Mul: round.MulF64, Div: round.DivF64}[op]
	return func(a, b uint64) (uint64, bool, error) {
		return math.Float64bits(f(math.Float64frombits(a), math.Float64frombits(b), cur)), false, nil
	}
}
