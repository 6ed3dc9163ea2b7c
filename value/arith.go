package value

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// BinaryOp is an arithmetic or bitwise operator of OpenCL C.
type BinaryOp uint8

// The binary operators Binary implements.
const (
	Add BinaryOp = iota // +
	Sub                 // -
	Mul                 // *
	Div                 // /
	Rem                 // %
	Shl                 // <<
	Shr                 // >>
	And                 // &
	Or                  // |
	Xor                 // ^
)

var binaryOpNames = [...]string{"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"}

// String returns the operator's C spelling ("+").
func (op BinaryOp) String() string {
	if int(op) < len(binaryOpNames) {
		return binaryOpNames[op]
	}
	return fmt.Sprintf("BinaryOp(%d)", uint8(op))
}

// IntegerOnly reports whether op takes only integer operands (% << >> & | ^).
func (op BinaryOp) IntegerOnly() bool { return op >= Rem }

// Canonical NaNs: what Binary returns for an invalid operation (inf - inf,
// 0 * inf, 0 / 0) on NaN-free operands. The positive quiet NaN is ARM's and
// most GPUs' default NaN; x86 SSE would give the negative one, so clconv fixes
// a choice instead of inheriting the host's. The arithmetic primitives of
// packages round and half return these (half.QNaN and round's default NaNs);
// the constants name them here for value's tests and documentation.
const (
	canonNaN16 = 0x7e00
	canonNaN32 = 0x7fc00000
	canonNaN64 = 0x7ff8000000000000
)

// Binary applies op element-wise to x and y, which must have the same type,
// except that a shift's count y may be of any integer kind with x's element
// count. The usual arithmetic conversions and the widening of scalars are the
// front end's job (package clc); Binary only computes.
//
// Integers wrap modulo 2^bits (signed overflow is undefined in C; clconv wraps,
// and MIN / -1 gives MIN, MIN % -1 gives 0); division by zero is an error.
// Shifts use the count modulo the element width, as OpenCL C specifies, and >>
// is arithmetic on signed kinds. Floating + - * / are correctly rounded in the
// rounding mode cur (the exact result rounded once, subnormals kept, overflow
// to infinity or the largest finite value as the mode says, an exact zero
// difference +0, or -0 in rtn), by the primitives of packages round and half.
// A NaN result is the first NaN operand with its quiet bit set, or, when
// neither operand is NaN, the canonical positive quiet NaN; the primitives
// implement that policy themselves.
func Binary(op BinaryOp, x, y Value, cur round.Mode) (Value, error) {
	r, _, err := BinaryOverflow(op, x, y, cur)
	return r, err
}

// BinaryOverflow is Binary that also returns the lanes whose result OpenCL C
// leaves undefined and clconv wraps: signed integer overflow of + - * (the
// exact result is outside the kind's range), MIN / -1 and MIN % -1, so that
// tools can warn. Unsigned arithmetic, shifts and floating operations never
// set a lane.
func BinaryOverflow(op BinaryOp, x, y Value, cur round.Mode) (Value, LaneMask, error) {
	k := x.Type.Kind
	if !validType(x.Type) || !validType(y.Type) {
		return Value{}, 0, fmt.Errorf("operator %v: invalid operand types %v and %v", op, x.Type, y.Type)
	}
	if k == cltype.Bool || y.Type.Kind == cltype.Bool {
		return Value{}, 0, fmt.Errorf("operator %v: bool operands must be promoted to int first", op)
	}
	if sk := smallOperand(x.Type.Kind, y.Type.Kind); sk != cltype.Invalid {
		return Value{}, 0, storageOnly("operator "+op.String(), sk)
	}
	shift := op == Shl || op == Shr
	if shift {
		if !k.IsInteger() || !y.Type.Kind.IsInteger() || x.Type.N != y.Type.N {
			return Value{}, 0, fmt.Errorf("operator %v needs integer operands with the same element count, got %v and %v", op, x.Type, y.Type)
		}
	} else if x.Type != y.Type {
		return Value{}, 0, fmt.Errorf("operator %v needs operands of one type, got %v and %v", op, x.Type, y.Type)
	}
	if k.IsFloat() {
		if op.IntegerOnly() {
			return Value{}, 0, fmt.Errorf("operator %v needs integer operands, got %v", op, x.Type)
		}
		if cur > round.RTN {
			return Value{}, 0, fmt.Errorf("operator %v: invalid rounding mode %v", op, cur)
		}
	}
	r := Value{Type: x.Type}
	var over LaneMask
	for i := range x.Type.N {
		var err error
		if k.IsFloat() {
			r.Lanes[i] = floatOp(op, k, x.Lanes[i], y.Lanes[i], cur)
		} else {
			r.Lanes[i], err = intOp(op, k, x.Lanes[i], y.Type.Kind, y.Lanes[i])
			if k.IsSigned() && overflows(op, k, x.Lanes[i], y.Lanes[i]) {
				over |= 1 << i
			}
		}
		if err != nil {
			return Value{}, 0, err
		}
	}
	return r, over, nil
}

// overflows reports whether op on lanes a and b of the signed kind k has an
// exact result outside k's range (C99 6.5p5: undefined behaviour).
func overflows(op BinaryOp, k cltype.Kind, a, b uint64) bool {
	sa, sb := signExtend(k, a), signExtend(k, b)
	lo, hi := signExtend(k, 1<<(k.Bits()-1)), int64(k.Mask()>>1)
	switch op {
	case Add:
		if k.Bits() == 64 {
			r := sa + sb
			return (r^sa)&(r^sb) < 0
		}
		return sa+sb < lo || sa+sb > hi
	case Sub:
		if k.Bits() == 64 {
			r := sa - sb
			return (sa^sb)&(sa^r) < 0
		}
		return sa-sb < lo || sa-sb > hi
	case Mul:
		if k.Bits() == 64 {
			if sa == 0 || sb == 0 {
				return false
			}
			r := sa * sb
			return r/sb != sa || (sa == -1 && sb == lo) || (sb == -1 && sa == lo)
		}
		return sa*sb < lo || sa*sb > hi // |sa*sb| <= 2^62
	case Div, Rem:
		return sa == lo && sb == -1
	}
	return false
}

// signExtend returns lane a of integer kind k as an int64.
func signExtend(k cltype.Kind, a uint64) int64 {
	s := 64 - k.Bits()
	return int64(a<<s) >> s
}

func intOp(op BinaryOp, k cltype.Kind, a uint64, yk cltype.Kind, b uint64) (uint64, error) {
	mask := k.Mask()
	signed := k.IsSigned()
	var r uint64
	switch op {
	case Add:
		r = a + b
	case Sub:
		r = a - b
	case Mul:
		r = a * b
	case Div, Rem:
		if b == 0 {
			return 0, fmt.Errorf("integer division by zero")
		}
		if signed {
			sa, sb := signExtend(k, a), signExtend(k, b)
			if op == Div {
				r = uint64(sa / sb) // Go defines MinInt64 / -1 == MinInt64
			} else {
				r = uint64(sa % sb)
			}
		} else if op == Div {
			r = a / b
		} else {
			r = a % b
		}
	case Shl, Shr:
		n := b & uint64(k.Bits()-1) // OpenCL: the count modulo the width
		switch {
		case op == Shl:
			r = a << n
		case signed:
			r = uint64(signExtend(k, a) >> n)
		default:
			r = a >> n
		}
	case And:
		r = a & b
	case Or:
		r = a | b
	case Xor:
		r = a ^ b
	}
	return r & mask, nil
}

// floatOp computes one lane of a floating + - * / in mode cur. The
// primitives return a NaN result by the policy Binary documents.
func floatOp(op BinaryOp, k cltype.Kind, a, b uint64, cur round.Mode) uint64 {
	switch k {
	case cltype.Half:
		ha, hb := half.Half(a), half.Half(b)
		var r half.Half
		switch op {
		case Add:
			r = half.Add(ha, hb, cur)
		case Sub:
			r = half.Sub(ha, hb, cur)
		case Mul:
			r = half.Mul(ha, hb, cur)
		default:
			r = half.Div(ha, hb, cur)
		}
		return uint64(r)
	case cltype.Float:
		fa, fb := math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b))
		var r float32
		switch op {
		case Add:
			r = round.AddF32(fa, fb, cur)
		case Sub:
			r = round.SubF32(fa, fb, cur)
		case Mul:
			r = round.MulF32(fa, fb, cur)
		default:
			r = round.DivF32(fa, fb, cur)
		}
		return uint64(math.Float32bits(r))
	}
	fa, fb := math.Float64frombits(a), math.Float64frombits(b)
	var r float64
	switch op {
	case Add:
		r = round.AddF64(fa, fb, cur)
	case Sub:
		r = round.SubF64(fa, fb, cur)
	case Mul:
		r = round.MulF64(fa, fb, cur)
	default:
		r = round.DivF64(fa, fb, cur)
	}
	return math.Float64bits(r)
}

// Neg returns -v element-wise: the sign bit flipped for floating kinds (NaNs
// included, as IEEE 754 negate does), the two's complement negation modulo
// 2^bits for integers. Integer promotion is the front end's job; bool is an
// error.
func Neg(v Value) (Value, error) {
	r, _, err := NegOverflow(v)
	return r, err
}

// NegOverflow is Neg that also returns the lanes that overflowed: a signed
// integer's minimum, whose negation OpenCL C leaves undefined (clconv gives
// the minimum back).
func NegOverflow(v Value) (Value, LaneMask, error) {
	k := v.Type.Kind
	if k == cltype.Bool || !validType(v.Type) {
		return Value{}, 0, fmt.Errorf("operator - needs an arithmetic operand, got %v", v.Type)
	}
	if k.IsSmallFloat() {
		return Value{}, 0, storageOnly("operator -", k)
	}
	r := Value{Type: v.Type}
	var over LaneMask
	for i := range v.Type.N {
		if k.IsFloat() {
			r.Lanes[i] = v.Lanes[i] ^ 1<<(k.Bits()-1)
		} else {
			r.Lanes[i] = -v.Lanes[i] & k.Mask()
			if k.IsSigned() && v.Lanes[i] == 1<<(k.Bits()-1) {
				over |= 1 << i
			}
		}
	}
	return r, over, nil
}

// Complement returns ~v element-wise for an integer v.
func Complement(v Value) (Value, error) {
	k := v.Type.Kind
	if !k.IsInteger() || !validType(v.Type) {
		return Value{}, fmt.Errorf("operator ~ needs an integer operand, got %v", v.Type)
	}
	r := Value{Type: v.Type}
	for i := range v.Type.N {
		r.Lanes[i] = ^v.Lanes[i] & k.Mask()
	}
	return r, nil
}

// smallOperand returns the first of the kinds that is a small floating
// format, or Invalid.
func smallOperand(kinds ...cltype.Kind) cltype.Kind {
	for _, k := range kinds {
		if k.IsSmallFloat() {
			return k
		}
	}
	return cltype.Invalid
}

// storageOnly is the error for arithmetic on a small floating format, which
// clconv, like SPV_KHR_bfloat16 and SPV_EXT_float8, treats as a storage
// format: values are converted to float with convert_float, computed on and
// converted back.
func storageOnly(what string, k cltype.Kind) error {
	return fmt.Errorf("%s is not defined on %s, a storage format: convert it with convert_float first", what, k)
}
