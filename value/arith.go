package value

import (
	"errors"
	"fmt"

	"github.com/clconv/clconv/cltype"
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
	if err := binaryCheck(op, x.Type, y.Type, cur); err != nil {
		return Value{}, 0, err
	}
	f := laneOp(op, x.Type.Kind, cur)
	r := Value{Type: x.Type}
	var over LaneMask
	for i := range x.Type.N {
		l, o, err := f(x.Lanes[i], y.Lanes[i])
		if err != nil {
			return Value{}, 0, err
		}
		r.Lanes[i] = l
		if o {
			over |= 1 << i
		}
	}
	return r, over, nil
}

// binaryCheck returns the error of op on operands of types xt and yt in mode
// cur, or nil when Binary computes it.
func binaryCheck(op BinaryOp, xt, yt cltype.Type, cur round.Mode) error {
	k := xt.Kind
	if !validType(xt) || !validType(yt) {
		return fmt.Errorf("operator %v: invalid operand types %v and %v", op, xt, yt)
	}
	if k == cltype.Bool || yt.Kind == cltype.Bool {
		return fmt.Errorf("operator %v: bool operands must be promoted to int first", op)
	}
	if sk := smallOperand(xt.Kind, yt.Kind); sk != cltype.Invalid {
		return storageOnly("operator "+op.String(), sk)
	}
	if op == Shl || op == Shr {
		if !k.IsInteger() || !yt.Kind.IsInteger() || xt.N != yt.N {
			return fmt.Errorf("operator %v needs integer operands with the same element count, got %v and %v", op, xt, yt)
		}
	} else if xt != yt {
		return fmt.Errorf("operator %v needs operands of one type, got %v and %v", op, xt, yt)
	}
	if k.IsFloat() {
		if op.IntegerOnly() {
			return fmt.Errorf("operator %v needs integer operands, got %v", op, xt)
		}
		if cur > round.RTN {
			return fmt.Errorf("operator %v: invalid rounding mode %v", op, cur)
		}
	}
	if op > Xor {
		return fmt.Errorf("invalid operator %v", op)
	}
	return nil
}

// errDivZero is the error of an integer division or remainder by zero.
var errDivZero = errors.New("integer division by zero")

// signExtend returns lane a of integer kind k as an int64.
func signExtend(k cltype.Kind, a uint64) int64 {
	s := 64 - k.Bits()
	return int64(a<<s) >> s
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
		var o bool
		r.Lanes[i], o = NegLane(k, v.Lanes[i])
		if o {
			over |= 1 << i
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
		r.Lanes[i] = ComplementLane(k, v.Lanes[i])
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
