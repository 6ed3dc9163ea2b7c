package clc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// Evaluator evaluates expressions over value.Value. The zero value evaluates
// in the default rounding mode (rte) and ignores warnings.
type Evaluator struct {
	// Mode is the current rounding mode, which #pragma OPENCL
	// SELECT_ROUNDING_MODE sets: conversions to floating types without a
	// rounding suffix (casts and implicit conversions included) use it.
	Mode round.Mode
	// Warn, if not nil, receives each warning (Warning set), such as a
	// conversion whose result OpenCL leaves implementation-defined.
	Warn func(*Error)
}

// EvalString parses and evaluates src, named file in positions, as one
// expression. Errors and warnings carry their source lines.
func (ev *Evaluator) EvalString(file, src string) (value.Value, error) {
	x, err := ParseExpr(file, src)
	if err != nil {
		return value.Value{}, err
	}
	inner := *ev
	if ev.Warn != nil {
		inner.Warn = func(w *Error) {
			w.setLine(src)
			ev.Warn(w)
		}
	}
	v, err := inner.Eval(x)
	if err != nil {
		return value.Value{}, withSource(err, file, src)
	}
	return v, nil
}

// Eval evaluates x. The error, if any, is an *Error.
func (ev *Evaluator) Eval(x Expr) (value.Value, error) {
	return ev.eval(x)
}

func errorf(pos Pos, format string, args ...any) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// wrap turns an error from package value into an *Error at pos.
func wrap(pos Pos, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Pos: pos, Msg: err.Error()}
}

func (ev *Evaluator) warnf(pos Pos, format string, args ...any) {
	if ev.Warn != nil {
		ev.Warn(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Warning: true})
	}
}

// warnImpl reports lanes whose conversion OpenCL leaves implementation-defined
// (or, for casts, undefined) and where clconv gives the saturated value.
func (ev *Evaluator) warnImpl(pos Pos, what string, t cltype.Type, impl value.LaneMask) {
	if impl == 0 || ev.Warn == nil {
		return
	}
	where := "the value is"
	if t.N > 1 {
		var lanes []string
		for i := range t.N {
			if impl.Has(i) {
				lanes = append(lanes, fmt.Sprint(i))
			}
		}
		where = "element " + strings.Join(lanes, ", ") + " is"
		if len(lanes) > 1 {
			where = "elements " + strings.Join(lanes, ", ") + " are"
		}
	}
	ev.warnf(pos, "%s: %s NaN or out of range for %v; OpenCL leaves the result implementation-defined, clconv saturates (use _sat to make it portable)", what, where, t.Kind)
}

func (ev *Evaluator) eval(x Expr) (value.Value, error) {
	switch x := x.(type) {
	case *BasicLit:
		return x.Value, nil
	case *Ident:
		return value.Value{}, ev.identError(x)
	case *ParenExpr:
		return ev.eval(x.X)
	case *UnaryExpr:
		return ev.evalUnary(x)
	case *BinaryExpr:
		return ev.evalBinary(x)
	case *CastExpr:
		return ev.evalCast(x)
	case *VectorLit:
		return ev.evalVectorLit(x)
	case *CallExpr:
		return ev.evalCall(x)
	}
	return value.Value{}, errorf(x.Pos(), "unsupported expression %T", x)
}

func (ev *Evaluator) identError(x *Ident) error {
	if strings.HasPrefix(x.Name, "convert_") || strings.HasPrefix(x.Name, "as_") {
		return errorf(x.NamePos, "%s is a function; call it as %s(x)", x.Name, x.Name)
	}
	return errorf(x.NamePos, "unknown identifier %q", x.Name)
}

// promote applies C's integer promotions to a scalar: char, uchar, short,
// ushort and bool become int. Vectors are not promoted in OpenCL C.
func (ev *Evaluator) promote(v value.Value) value.Value {
	if v.Type.N != 1 {
		return v
	}
	switch v.Type.Kind {
	case cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Bool:
		r, _, _ := value.Cast(v, cltype.Int, ev.Mode) // exact: every value fits
		return r
	}
	return v
}

func (ev *Evaluator) evalUnary(x *UnaryExpr) (value.Value, error) {
	switch x.Op {
	case INC, DEC:
		return value.Value{}, errorf(x.OpPos, "operator %v needs a variable", x.Op)
	case NOT:
		return value.Value{}, errorf(x.OpPos, "operator ! is not supported yet")
	}
	v, err := ev.eval(x.X)
	if err != nil {
		return v, err
	}
	v = ev.promote(v)
	switch x.Op {
	case ADD:
		return v, nil
	case SUB:
		v, err = value.Neg(v)
	case TILDE:
		if !v.Type.Kind.IsInteger() {
			return value.Value{}, errorf(x.OpPos, "operator ~ needs an integer operand, got %v", v.Type)
		}
		v, err = value.Complement(v)
	}
	return v, wrapErr(x.OpPos, err)
}

func wrapErr(pos Pos, err error) error {
	if err == nil {
		return nil
	}
	return wrap(pos, err)
}

var binaryOps = map[TokenKind]value.BinaryOp{
	ADD: value.Add, SUB: value.Sub, MUL: value.Mul, QUO: value.Div, REM: value.Rem,
	SHL: value.Shl, SHR: value.Shr, AND: value.And, OR: value.Or, XOR: value.Xor,
}

func (ev *Evaluator) evalBinary(x *BinaryExpr) (value.Value, error) {
	op, ok := binaryOps[x.Op]
	if !ok {
		return value.Value{}, errorf(x.OpPos, "operator %v is not supported yet", x.Op)
	}
	a, err := ev.eval(x.X)
	if err != nil {
		return a, err
	}
	b, err := ev.eval(x.Y)
	if err != nil {
		return b, err
	}
	a, b = ev.promote(a), ev.promote(b)
	if op.IntegerOnly() && (a.Type.Kind.IsFloat() || b.Type.Kind.IsFloat()) {
		return value.Value{}, errorf(x.OpPos, "invalid operands to %v: %v and %v (it needs integers)", op, a.Type, b.Type)
	}
	if op == value.Shl || op == value.Shr {
		// The result has the (promoted) type of the left operand; a scalar
		// count is widened to a vector, not the other way round.
		if a.Type.N == 1 && b.Type.N > 1 {
			return value.Value{}, errorf(x.OpPos, "the right operand of %v must be a scalar when the left one is (%v %v %v)", op, a.Type, op, b.Type)
		}
		if b.Type.N == 1 && a.Type.N > 1 {
			b, _ = value.Broadcast(b, a.Type.N)
		}
	} else if a, b, err = ev.arithConvert(x, a, b); err != nil {
		return value.Value{}, err
	}
	r, err := value.Binary(op, a, b, ev.Mode)
	return r, wrapErr(x.OpPos, err)
}

// arithConvert brings the operands of an arithmetic operator to one type:
// the usual arithmetic conversions for two scalars; for a vector and a
// scalar, the scalar converted to the element type and widened; two vectors
// must already have the same type (OpenCL C never converts vectors implicitly).
func (ev *Evaluator) arithConvert(x *BinaryExpr, a, b value.Value) (value.Value, value.Value, error) {
	switch {
	case a.Type.N == 1 && b.Type.N == 1:
		k := commonKind(a.Type.Kind, b.Type.Kind)
		a, _, _ = value.Cast(a, k, ev.Mode)
		b, _, _ = value.Cast(b, k, ev.Mode)
	case a.Type.N == 1:
		a = ev.widen(a, b.Type)
	case b.Type.N == 1:
		b = ev.widen(b, a.Type)
	case a.Type != b.Type:
		return a, b, errorf(x.OpPos, "invalid operands to %v: %v and %v (vector operands must have the same type; convert one with convert_%v)", x.Op, a.Type, b.Type, a.Type)
	}
	return a, b, nil
}

func (ev *Evaluator) widen(s value.Value, t cltype.Type) value.Value {
	s, _, _ = value.Cast(s, t.Kind, ev.Mode)
	v, _ := value.Broadcast(s, t.N)
	return v
}

// commonKind is the type the usual arithmetic conversions (C99 6.3.1.8) give
// two promoted scalar kinds: the wider floating kind if either is floating,
// else by rank, preferring the unsigned kind at equal rank and the signed
// kind when it is wider.
func commonKind(a, b cltype.Kind) cltype.Kind {
	for _, f := range []cltype.Kind{cltype.Double, cltype.Float, cltype.Half} {
		if a == f || b == f {
			return f
		}
	}
	if a == b {
		return a
	}
	if a.IsSigned() == b.IsSigned() {
		if a.Size() >= b.Size() {
			return a
		}
		return b
	}
	u, s := a, b
	if a.IsSigned() {
		u, s = b, a
	}
	if u.Size() >= s.Size() {
		return u
	}
	return s // the signed kind is wider, so it holds every value of u
}

func (ev *Evaluator) evalCast(x *CastExpr) (value.Value, error) {
	v, err := ev.eval(x.X)
	if err != nil {
		return v, err
	}
	t := x.Type.Type
	if v.Type.N > 1 {
		if v.Type == t {
			return v, nil
		}
		if t.N == 1 {
			return value.Value{}, errorf(x.Lparen, "cannot cast vector type %v to scalar type %v", v.Type, t)
		}
		return value.Value{}, errorf(x.Lparen, "cannot cast %v to %v: OpenCL C has no casts between vector types; use convert_%v() or as_%v()", v.Type, t, t, t)
	}
	r, impl, err := value.Cast(v, t.Kind, ev.Mode)
	if err != nil {
		return r, wrap(x.Lparen, err)
	}
	ev.warnImplCast(x.Lparen, t, impl)
	if t.N > 1 {
		r, err = value.Broadcast(r, t.N)
	}
	return r, wrapErr(x.Lparen, err)
}

func (ev *Evaluator) warnImplCast(pos Pos, t cltype.Type, impl value.LaneMask) {
	if impl != 0 {
		ev.warnf(pos, "cast to %v: the value is NaN or out of range; the result is undefined in C, clconv saturates", t.Kind)
	}
}

func (ev *Evaluator) evalVectorLit(x *VectorLit) (value.Value, error) {
	t := x.Type.Type
	r := value.Value{Type: t}
	n := 0
	for _, e := range x.Elems {
		v, err := ev.eval(e)
		if err != nil {
			return v, err
		}
		if v.Type.N == 1 {
			c, impl, err := value.Cast(v, t.Kind, ev.Mode)
			if err != nil {
				return c, wrap(e.Pos(), err)
			}
			ev.warnImplCast(e.Pos(), t, impl)
			if len(x.Elems) == 1 {
				return value.Broadcast(c, t.N)
			}
			v = c
		} else if v.Type.Kind != t.Kind {
			return value.Value{}, errorf(e.Pos(), "element of type %v in a %v literal: vector elements must have element type %v (use convert_%v%d)", v.Type, t, t.Kind, t.Kind, v.Type.N)
		}
		if n+v.Type.N > t.N {
			return value.Value{}, errorf(x.Lparen, "too many elements in the %v literal: more than %d", t, t.N)
		}
		for i := range v.Type.N {
			r.Lanes[n+i] = v.Lanes[i]
		}
		n += v.Type.N
	}
	if n != t.N {
		return value.Value{}, errorf(x.Lparen, "too few elements in the %v literal: %d, want %d (or one scalar to broadcast)", t, n, t.N)
	}
	return r, nil
}

func (ev *Evaluator) evalCall(x *CallExpr) (value.Value, error) {
	name := x.Fun.Name
	switch {
	case strings.HasPrefix(name, "convert_"):
		op, err := convert.ParseName(name)
		if err != nil {
			return value.Value{}, wrap(x.Fun.NamePos, err)
		}
		arg, err := ev.oneArg(x)
		if err != nil {
			return arg, err
		}
		r, impl, err := value.ConvertImpl(arg, op, ev.Mode)
		if err != nil {
			return r, wrap(x.Args[0].Pos(), err)
		}
		ev.warnImpl(x.Fun.NamePos, name, op.Dst, impl)
		return r, nil
	case strings.HasPrefix(name, "as_"):
		t, err := convert.ParseAsName(name)
		if err != nil {
			return value.Value{}, wrap(x.Fun.NamePos, err)
		}
		arg, err := ev.oneArg(x)
		if err != nil {
			return arg, err
		}
		r, err := value.As(arg, t)
		return r, wrapErr(x.Args[0].Pos(), err)
	}
	return value.Value{}, errorf(x.Fun.NamePos, "unknown function %q", name)
}

// oneArg evaluates the single argument of a conversion call.
func (ev *Evaluator) oneArg(x *CallExpr) (value.Value, error) {
	if len(x.Args) != 1 {
		return value.Value{}, errorf(x.Lparen, "%s takes 1 argument, got %d", x.Fun.Name, len(x.Args))
	}
	return ev.eval(x.Args[0])
}
