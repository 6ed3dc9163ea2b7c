package clc

import (
	"sort"
	"strings"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// Interp runs OpenCL C snippets: a session that keeps macros, the rounding
// mode at top level, variables and functions from one input to the next.
// Run takes a whole file; Exec takes one REPL input at a time. The zero
// value is ready to use.
//
// An input is preprocessed, parsed and checked as a whole before any of it
// runs; an input with errors changes nothing. A runtime error (integer
// division by zero, the step limit) stops the input where it happens; what
// ran before it stays done.
type Interp struct {
	// Mode is the rounding mode a session starts in, before any
	// #pragma OPENCL SELECT_ROUNDING_MODE (rte when zero).
	Mode round.Mode
	// Warn, if not nil, receives each warning (Warning set), with its
	// source line: uninitialized variables, implementation-defined
	// conversions, ignored pragmas, the foo ## __ROUNDING_MODE__ idiom.
	Warn func(*Error)
	// MaxSteps bounds the work of one input (DefaultMaxSteps when zero or
	// less). A statement, a loop iteration and a call each take one step,
	// plus one for each operator the expressions they evaluate apply
	// (arithmetic, comparisons, conversions, casts, assignments, calls,
	// swizzles ...; reading a constant or a variable is free): a loop over
	// one 8,000-operator statement stops after about MaxSteps/8,001
	// iterations. The step that passes the limit fails with an error at
	// its statement ("execution limit reached").
	MaxSteps int64
	// Cancel, if not nil, interrupts a running input when it is closed or
	// receives.
	Cancel <-chan struct{}
	// OnConversion, if not nil, receives every conversion a run performs,
	// as Evaluator.OnConversion does (the differential harness uses it to
	// recognise the conversions a device is known to get wrong).
	OnConversion func(Conversion)

	engine  engine // how checked inputs run (compile.go)
	pp      *syntax.State
	globals map[string]any
	vars    []*variable
	values  []value.Value
	sources []inputText
}

// inputText is an input kept for quoting its lines in later messages.
type inputText struct {
	file  string
	line  int // of its first line
	lines int
	text  string
}

// Var is a variable declared at top level.
type Var struct {
	Name  string
	Type  cltype.Type
	Value value.Value
	Pos   Pos // where it is declared
}

// Result is something an input computed that the REPL shows: a declared
// variable, an assigned variable or the value of an expression statement.
type Result struct {
	// Name is the variable declared, or what an assignment or ++/--
	// assigned to ("v.x"); empty for the value of any other expression.
	Name  string
	Value value.Value
}

func (in *Interp) init() {
	if in.pp == nil {
		in.pp = syntax.NewState(in.Mode)
		in.globals = make(map[string]any)
	}
}

// Run preprocesses, checks and runs src, a whole file named file, from its
// first line to its last. Its top-level variables join Vars. The error, if
// any, is an ErrorList whose diagnostics carry their source lines.
func (in *Interp) Run(file, src string) error {
	_, err := in.exec(file, 1, src, false)
	return err
}

// Exec runs one REPL input whose first line is numbered line. Unlike Run it
// lets the last statement go without its ';', lets a function be defined
// again, and reports what the input declared, assigned or computed. An
// input that ends too early (inside a block, an argument list, a comment)
// gives an error for which IsIncomplete is true.
func (in *Interp) Exec(file string, line int, src string) ([]Result, error) {
	return in.exec(file, line, src, true)
}

// Vars returns the variables declared at top level so far, in the order of
// their declarations, with their current values. A name declared twice
// appears twice.
func (in *Interp) Vars() []Var {
	out := make([]Var, len(in.vars))
	for i, v := range in.vars {
		out[i] = Var{Name: v.name, Type: v.t, Value: in.values[v.slot], Pos: Pos(v.pos)}
	}
	return out
}

// RoundingMode returns the rounding mode in force at top level after the
// inputs so far.
func (in *Interp) RoundingMode() round.Mode {
	in.init()
	return in.pp.Mode()
}

// MacroDefined reports whether a macro of that name is defined.
func (in *Interp) MacroDefined(name string) bool {
	in.init()
	return in.pp.Defined(name)
}

// testHookExec, when the package's tests set it, runs each input of an
// Interp that compiles in place of exec; the tests run the input with the
// tree walker too and compare (engine_test.go).
var testHookExec func(in *Interp, file string, line int, src string, repl bool) ([]Result, error)

func (in *Interp) exec(file string, line int, src string, repl bool) ([]Result, error) {
	if testHookExec != nil && in.engine == engineCompiled {
		return testHookExec(in, file, line, src, repl)
	}
	return in.execInput(file, line, src, repl)
}

// execInput preprocesses, parses, checks and runs one input.
func (in *Interp) execInput(file string, line int, src string, repl bool) ([]Result, error) {
	in.init()
	cur := inputText{file: file, line: line, lines: strings.Count(src, "\n") + 1, text: src}
	var warns []*Error
	collect := func(w *Error) { warns = append(warns, w) }
	deliver := func() {
		if in.Warn == nil {
			return
		}
		sort.SliceStable(warns, func(i, j int) bool { return warns[i].Pos.Offset < warns[j].Pos.Offset })
		for _, w := range warns {
			in.fillLine(w, cur)
			in.Warn(w)
		}
	}
	st := in.pp.Clone()
	f, errs := syntax.ParseFile(file, line, src, st, syntaxWarn(collect), repl)
	if errs != nil {
		err := withSource(fromSyntaxList(errs), file, src)
		if !IsIncomplete(err) {
			deliver()
		}
		return nil, in.withLines(err, cur)
	}
	c := newChecker(in.globals, len(in.values), collect, repl)
	items := c.checkFile(f)
	deliver()
	if len(c.errs) > 0 {
		c.errs.sort()
		return nil, in.withLines(c.errs, cur)
	}

	// Commit: the input is valid.
	in.pp = st
	in.globals = c.globals
	for _, v := range c.newVars {
		in.values = append(in.values, value.Zero(v.t))
		in.vars = append(in.vars, v)
	}
	for _, d := range c.defs {
		d.fn.pos, d.fn.params, d.fn.body, d.fn.nslots, d.fn.end, d.fn.defined = d.pos, d.params, d.body, d.nslots, d.end, true
		d.fn.exprDepth, d.fn.code = d.exprDepth, nil
	}
	in.sources = append(in.sources, cur)

	m := &machine{
		globals: in.values,
		frame:   make([]value.Value, c.topSlots),
		cancel:  in.Cancel,
		onConv:  in.OnConversion,
	}
	m.start(in.MaxSteps)
	if in.Warn != nil {
		m.warn = func(w *Error) {
			in.fillLine(w, cur)
			in.Warn(w)
		}
	}
	if in.engine == engineTree {
		return in.walk(m, items, cur)
	}
	return in.run(m, items, cur)
}

// run compiles the items of an input and runs them.
func (in *Interp) run(m *machine, items []topItem, cur inputText) ([]Result, error) {
	exprs := make([]code, len(items))
	stmts := make([]cstmt, len(items))
	for i, it := range items {
		if it.x != nil {
			exprs[i] = compileExpr(it.x)
		} else {
			stmts[i] = compileStmt(it.s)
		}
	}
	var results []Result
	for i, it := range items {
		err := protect(func() {
			if it.x == nil {
				stmts[i](m)
				return
			}
			m.tick(it.pos, 1+it.ops)
			v := exprs[i].valueFn()(m)
			if !isVoid(it.x.typ()) {
				results = append(results, Result{Name: it.label, Value: v})
			}
		})
		if err != nil {
			return results, in.withLines(err, cur)
		}
		for _, v := range it.vars {
			results = append(results, Result{Name: v.name, Value: in.values[v.slot]})
		}
	}
	return results, nil
}

// walk runs the items of an input with the tree walker.
func (in *Interp) walk(m *machine, items []topItem, cur inputText) ([]Result, error) {
	var results []Result
	for _, it := range items {
		if it.x != nil {
			if err := m.step(it.pos, 1+it.ops); err != nil {
				return results, in.withLines(err, cur)
			}
			v, err := it.x.eval(m)
			if err != nil {
				return results, in.withLines(err, cur)
			}
			if !isVoid(it.x.typ()) {
				results = append(results, Result{Name: it.label, Value: v})
			}
			continue
		}
		if _, err := it.s.exec(m); err != nil {
			return results, in.withLines(err, cur)
		}
		for _, v := range it.vars {
			results = append(results, Result{Name: v.name, Value: in.values[v.slot]})
		}
	}
	return results, nil
}

// fillLine sets e.Line from the input its position lies in.
func (in *Interp) fillLine(e *Error, cur inputText) {
	if e.Line != "" || !e.Pos.IsValid() {
		return
	}
	for i := len(in.sources); i >= 0; i-- {
		s := cur
		if i < len(in.sources) {
			s = in.sources[i]
		}
		if s.file == e.Pos.File && e.Pos.Line >= s.line && e.Pos.Line < s.line+s.lines {
			e.setLine(s.text)
			return
		}
	}
}

// withLines fills in the source lines of err's diagnostics.
func (in *Interp) withLines(err error, cur inputText) error {
	switch e := err.(type) {
	case *Error:
		in.fillLine(e, cur)
		return ErrorList{e}
	case ErrorList:
		for _, x := range e {
			in.fillLine(x, cur)
		}
	}
	return err
}
