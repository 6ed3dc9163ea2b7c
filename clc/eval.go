package clc

import (
	"errors"
	"fmt"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// Evaluator evaluates single expressions, as clconv eval does: no
// variables, but the whole expression language (operators, casts, vector
// literals, swizzles, convert_*, as_*, select, any, all, the predefined
// macros). The zero value evaluates in the default rounding mode (rte) and
// ignores warnings.
type Evaluator struct {
	// Mode is the rounding mode an expression starts in: conversions to
	// floating types without a rounding suffix (casts and implicit
	// conversions included) and floating arithmetic use it.
	Mode round.Mode
	// Warn, if not nil, receives each warning (Warning set), such as a
	// conversion whose result OpenCL leaves implementation-defined.
	Warn func(*Error)
	// OnConversion, if not nil, receives every conversion the expression
	// performs (convert_ calls, casts, implicit conversions), in the order
	// they run, with operand and result; clconv explain is built on it.
	OnConversion func(Conversion)

	engine engine // how the expression runs (compile.go)
}

// EvalString parses and evaluates src, named file in positions, as one
// expression. Errors and warnings carry their source lines.
func (ev *Evaluator) EvalString(file, src string) (value.Value, error) {
	if testHookEval != nil && ev.engine == engineCompiled {
		return testHookEval(ev, file, src)
	}
	return ev.evalString(file, src)
}

// testHookEval is testHookExec for an Evaluator.
var testHookEval func(ev *Evaluator, file, src string) (value.Value, error)

func (ev *Evaluator) evalString(file, src string) (value.Value, error) {
	var warn func(*Error)
	if ev.Warn != nil {
		warn = func(w *Error) {
			w.setLine(src)
			ev.Warn(w)
		}
	}
	x, errs := syntax.ParseExpr(file, src, syntax.NewState(ev.Mode), syntaxWarn(warn))
	if errs != nil {
		return value.Value{}, withSource(fromSyntaxList(errs), file, src)
	}
	v, err := ev.eval(x, warn)
	if err != nil {
		return value.Value{}, withSource(err, file, src)
	}
	return v, nil
}

// eval checks and evaluates x. Each operation rounds in the mode recorded
// where it was parsed. The error, if any, is an *Error.
func (ev *Evaluator) eval(x syntax.Expr, warn func(*Error)) (value.Value, error) {
	c := newChecker(nil, 0, warn, false)
	var e expr
	if !c.guard(func() { e = c.expr(x) }) || len(c.errs) > 0 {
		return value.Value{}, c.errs[0]
	}
	if isVoid(e.typ()) {
		return value.Value{}, errorf(x.Pos(), "the expression has type void")
	}
	m := &machine{warn: warn, onConv: ev.OnConversion}
	m.start(DefaultMaxSteps)
	if ev.engine == engineTree {
		return e.eval(m)
	}
	run := compileExpr(e).valueFn()
	var v value.Value
	err := protect(func() { v = run(m) })
	return v, err
}

func errorf(pos syntax.Pos, format string, args ...any) error {
	return errorAt(pos, fmt.Sprintf(format, args...))
}

// wrap turns an error from package value into an *Error at pos.
func wrap(pos syntax.Pos, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return errorAt(pos, err.Error())
}

func wrapErr(pos syntax.Pos, err error) error {
	if err == nil {
		return nil
	}
	return wrap(pos, err)
}
