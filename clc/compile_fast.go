package clc

import (
	"math"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// The hot shapes of scalar arithmetic, each one closure with its operator
// written out: float + - * / (binary32, the operators of round) and the
// operators of 32-bit int and uint. They compute what value.BinaryLaneOp's
// LaneOp computes for the same operator and kind (the tests run both
// engines, and value's tests hold LaneOp to BinaryOverflow), without its
// call through a function value and its error result. Every other kind and
// operator takes arithCode's general path.

// dest is where a fused assignment stores an operator's result: nowhere
// (fromCode), or a local or global scalar's slot.
type dest struct {
	to   uint8
	slot int
}

func (d dest) put(m *machine, r uint64) {
	if d.to == fromLocal {
		m.frame[d.slot].Lanes[0] = r
	} else if d.to == fromGlobal {
		m.globals[d.slot].Lanes[0] = r
	}
}

func f32(b uint64) float32 { return math.Float32frombits(uint32(b)) }

func f32bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// fastArith returns the specialised closure of op on scalars of kind k in
// mode mode, or nil. over is called when a signed int operation overflows
// (it warns as the general path does).
func fastArith(op value.BinaryOp, k cltype.Kind, mode round.Mode, xo, yo operand, d dest, over func(*machine)) func(*machine) uint64 {
	switch k {
	case cltype.Float:
		return fastFloat(op, mode, xo, yo, d)
	case cltype.Int, cltype.Uint:
		return fastInt32(op, k == cltype.Int, xo, yo, d, over)
	}
	return nil
}

// fastFloat: in RTE, the first step of round's functions (the operation in
// float32, kept when it is not NaN) is written here, so that the common
// case makes no call; the explicit float32 conversions keep Go from fusing
// operations. Other modes and NaN results call round's function itself.
func fastFloat(op value.BinaryOp, mode round.Mode, xo, yo operand, d dest) func(*machine) uint64 {
	rte := mode == round.RTE
	switch op {
	case value.Add:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			x, y := f32(a), f32(b)
			s := float32(x + y)
			if !rte || s != s {
				s = round.AddF32(x, y, mode)
			}
			r := f32bits(s)
			d.put(m, r)
			return r
		}
	case value.Sub:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			x, y := f32(a), f32(b)
			s := float32(x - y)
			if !rte || s != s {
				s = round.SubF32(x, y, mode)
			}
			r := f32bits(s)
			d.put(m, r)
			return r
		}
	case value.Mul:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			x, y := f32(a), f32(b)
			p := float32(x * y)
			if !rte || p != p {
				p = round.MulF32(x, y, mode)
			}
			r := f32bits(p)
			d.put(m, r)
			return r
		}
	case value.Div:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			x, y := f32(a), f32(b)
			q := float32(x / y)
			if !rte || q != q {
				q = round.DivF32(x, y, mode)
			}
			r := f32bits(q)
			d.put(m, r)
			return r
		}
	}
	return nil
}

// fastInt32: lanes of int and uint hold 32 bits, zero-extended; a signed
// result overflows when the exact int64 result does not fit int32.
func fastInt32(op value.BinaryOp, signed bool, xo, yo operand, d dest, over func(*machine)) func(*machine) uint64 {
	switch {
	case op == value.Add && signed:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			s := int64(int32(a)) + int64(int32(b))
			r := uint64(uint32(s))
			if s != int64(int32(s)) {
				over(m)
			}
			d.put(m, r)
			return r
		}
	case op == value.Sub && signed:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			s := int64(int32(a)) - int64(int32(b))
			r := uint64(uint32(s))
			if s != int64(int32(s)) {
				over(m)
			}
			d.put(m, r)
			return r
		}
	case op == value.Mul && signed:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			p := int64(int32(a)) * int64(int32(b))
			r := uint64(uint32(p))
			if p != int64(int32(p)) {
				over(m)
			}
			d.put(m, r)
			return r
		}
	case op == value.Add:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			r := uint64(uint32(a + b))
			d.put(m, r)
			return r
		}
	case op == value.Sub:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			r := uint64(uint32(a - b))
			d.put(m, r)
			return r
		}
	case op == value.Mul:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			r := uint64(uint32(a * b))
			d.put(m, r)
			return r
		}
	case op == value.And:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			r := uint64(uint32(a & b))
			d.put(m, r)
			return r
		}
	case op == value.Or:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			r := uint64(uint32(a | b))
			d.put(m, r)
			return r
		}
	case op == value.Xor:
		return func(m *machine) uint64 {
			a := xo.c
			if xo.f != nil {
				a = xo.f(m)
			} else if xo.from != fromConst {
				a = xo.get(m)
			}
			b := yo.c
			if yo.f != nil {
				b = yo.f(m)
			} else if yo.from != fromConst {
				b = yo.get(m)
			}
			r := uint64(uint32(a ^ b))
			d.put(m, r)
			return r
		}
	}
	return nil
}

// fastCompare returns the truth of a comparison op of two integer scalars
// of kind k in one closure, or nil for the other kinds. Shifted to the top
// of 64 bits, with the sign bit flipped for signed kinds, the lanes compare
// as unsigned numbers in the order laneCompare gives them; the operator is
// a switch on a constant, which costs less than laneCompare's calls.
func fastCompare(op syntax.TokenKind, k cltype.Kind, xo, yo operand) func(*machine) bool {
	if !k.IsInteger() {
		return nil
	}
	switch op {
	case syntax.EQL, syntax.NEQ, syntax.LSS, syntax.GTR, syntax.LEQ, syntax.GEQ:
	default:
		return nil
	}
	sh := uint(64 - k.Bits())
	var flip uint64
	if k.IsSigned() {
		flip = 1 << 63
	}
	return func(m *machine) bool {
		a := xo.c
		if xo.f != nil {
			a = xo.f(m)
		} else if xo.from != fromConst {
			a = xo.get(m)
		}
		b := yo.c
		if yo.f != nil {
			b = yo.f(m)
		} else if yo.from != fromConst {
			b = yo.get(m)
		}
		x, y := a<<sh^flip, b<<sh^flip
		switch op {
		case syntax.EQL:
			return x == y
		case syntax.NEQ:
			return x != y
		case syntax.LSS:
			return x < y
		case syntax.GTR:
			return x > y
		case syntax.LEQ:
			return x <= y
		}
		return x >= y
	}
}
