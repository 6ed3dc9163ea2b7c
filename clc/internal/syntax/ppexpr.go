package syntax

import (
	"github.com/clconv/clconv/value"
)

// The expression of #if and #elif (C99 6.10.1): an integer constant
// expression evaluated in intmax_t or uintmax_t (64 bits), after macro
// expansion and with every remaining identifier replaced by 0.

// ppVal is a value of an #if expression.
type ppVal struct {
	v        uint64
	unsigned bool
}

type ppExpr struct {
	toks []Token
	i    int
	dir  Token
}

// evalPPExpr evaluates the expanded tokens of an #if or #elif named dir.
func evalPPExpr(toks []Token, dir Token) (ppVal, *Error) {
	e := &ppExpr{toks: toks, dir: dir}
	v, err := e.cond(true, 0)
	if err != nil {
		return v, err
	}
	if e.i < len(toks) {
		return v, ppErrorf(toks[e.i].Pos, "unexpected %s in #%s", describe(toks[e.i]), dir.Text)
	}
	return v, nil
}

func (e *ppExpr) peek() Token {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	pos := e.dir.Pos
	if n := len(e.toks); n > 0 {
		pos = e.toks[n-1].Pos
	}
	return Token{Kind: EOF, Pos: pos}
}

func (e *ppExpr) errorf(t Token, format string, args ...any) *Error {
	return ppErrorf(t.Pos, format, args...)
}

// cond parses a conditional expression; eval is false in an operand that is
// not evaluated (where division by zero is no error).
func (e *ppExpr) cond(eval bool, depth int) (ppVal, *Error) {
	if depth > MaxDepth {
		return ppVal{}, e.errorf(e.peek(), "#%s expression nested too deeply", e.dir.Text)
	}
	c, err := e.binary(1, eval, depth+1)
	if err != nil || e.peek().Kind != QUESTION {
		return c, err
	}
	e.i++
	x, err := e.cond(eval && c.v != 0, depth+1)
	if err != nil {
		return x, err
	}
	if t := e.peek(); t.Kind != COLON {
		return x, e.errorf(t, "expected : in #%s, found %s", e.dir.Text, describe(t))
	}
	e.i++
	y, err := e.cond(eval && c.v == 0, depth+1)
	if err != nil {
		return y, err
	}
	r := y
	if c.v != 0 {
		r = x
	}
	r.unsigned = x.unsigned || y.unsigned
	return r, nil
}

func (e *ppExpr) binary(minPrec int, eval bool, depth int) (ppVal, *Error) {
	if depth > MaxDepth {
		return ppVal{}, e.errorf(e.peek(), "#%s expression nested too deeply", e.dir.Text)
	}
	x, err := e.unary(eval, depth+1)
	if err != nil {
		return x, err
	}
	for {
		op := e.peek()
		prec := binaryPrec(op.Kind)
		if prec == 0 || prec < minPrec {
			return x, nil
		}
		e.i++
		evalY := eval
		switch op.Kind {
		case LAND:
			evalY = eval && x.v != 0
		case LOR:
			evalY = eval && x.v == 0
		}
		y, err := e.binary(prec+1, evalY, depth+1)
		if err != nil {
			return y, err
		}
		x, err = e.apply(op, x, y, eval)
		if err != nil {
			return x, err
		}
	}
}

func boolVal(b bool) ppVal {
	if b {
		return ppVal{v: 1}
	}
	return ppVal{}
}

func (e *ppExpr) apply(op Token, x, y ppVal, eval bool) (ppVal, *Error) {
	switch op.Kind {
	case LAND:
		return boolVal(x.v != 0 && y.v != 0), nil
	case LOR:
		return boolVal(x.v != 0 || y.v != 0), nil
	case SHL, SHR:
		// The result has the left operand's type; counts of 64 or more
		// (undefined in C) give 0, or the sign for >> of a negative value.
		n := y.v
		if !y.unsigned && int64(n) < 0 {
			n = 64
		}
		r := x
		switch {
		case op.Kind == SHL && n >= 64:
			r.v = 0
		case op.Kind == SHL:
			r.v = x.v << n
		case x.unsigned && n >= 64:
			r.v = 0
		case x.unsigned:
			r.v = x.v >> n
		default:
			r.v = uint64(int64(x.v) >> min(n, 63))
		}
		return r, nil
	}
	unsigned := x.unsigned || y.unsigned
	a, b := x.v, y.v
	sa, sb := int64(a), int64(b)
	r := ppVal{unsigned: unsigned}
	switch op.Kind {
	case ADD:
		r.v = a + b
	case SUB:
		r.v = a - b
	case MUL:
		r.v = a * b
	case QUO, REM:
		if b == 0 {
			if eval {
				return r, e.errorf(op, "division by zero in #%s", e.dir.Text)
			}
			return r, nil
		}
		switch {
		case unsigned && op.Kind == QUO:
			r.v = a / b
		case unsigned:
			r.v = a % b
		case op.Kind == QUO:
			r.v = uint64(sa / sb)
		default:
			r.v = uint64(sa % sb)
		}
	case AND:
		r.v = a & b
	case OR:
		r.v = a | b
	case XOR:
		r.v = a ^ b
	case EQL:
		return boolVal(a == b), nil
	case NEQ:
		return boolVal(a != b), nil
	case LSS, GTR, LEQ, GEQ:
		var lt, eq bool
		if unsigned {
			lt, eq = a < b, a == b
		} else {
			lt, eq = sa < sb, sa == sb
		}
		switch op.Kind {
		case LSS:
			return boolVal(lt), nil
		case GTR:
			return boolVal(!lt && !eq), nil
		case LEQ:
			return boolVal(lt || eq), nil
		}
		return boolVal(!lt), nil
	default:
		return r, e.errorf(op, "operator %s is not allowed in #%s", op.Text, e.dir.Text)
	}
	return r, nil
}

func (e *ppExpr) unary(eval bool, depth int) (ppVal, *Error) {
	if depth > MaxDepth {
		return ppVal{}, e.errorf(e.peek(), "#%s expression nested too deeply", e.dir.Text)
	}
	t := e.peek()
	switch t.Kind {
	case ADD, SUB, TILDE, NOT:
		e.i++
		x, err := e.unary(eval, depth+1)
		if err != nil {
			return x, err
		}
		switch t.Kind {
		case SUB:
			x.v = -x.v
		case TILDE:
			x.v = ^x.v
		case NOT:
			x = boolVal(x.v == 0)
		}
		return x, nil
	case LPAREN:
		e.i++
		x, err := e.cond(eval, depth+1)
		if err != nil {
			return x, err
		}
		if r := e.peek(); r.Kind != RPAREN {
			return x, e.errorf(r, "expected ) in #%s, found %s", e.dir.Text, describe(r))
		}
		e.i++
		return x, nil
	case NUMBER:
		e.i++
		v, err := value.ParseInt(t.Text)
		if err != nil {
			if _, ferr := value.ParseFloat(t.Text); ferr == nil {
				return ppVal{}, e.errorf(t, "floating constant in #%s", e.dir.Text)
			}
			return ppVal{}, e.errorf(t, "%v", err)
		}
		return ppVal{v: v.Uint64(0), unsigned: !v.Type.Kind.IsSigned()}, nil
	case CHAR:
		e.i++
		c, err := charValue(t.Text)
		if err != nil {
			return ppVal{}, e.errorf(t, "%v", err)
		}
		return ppVal{v: uint64(c)}, nil
	case IDENT:
		e.i++ // an identifier that is not a macro is 0 (C99 6.10.1p3)
		if t.Text == "defined" {
			return ppVal{}, e.errorf(t, "defined needs a macro name")
		}
		return ppVal{}, nil
	}
	return ppVal{}, e.errorf(t, "expected a value in #%s, found %s", e.dir.Text, describe(t))
}
