package difftest

import (
	"fmt"
	"slices"
	"sort"

	"github.com/clconv/clconv/clc"
)

// Minimisation: the smallest program that still shows a finding, so that a
// report against clconv or the device is one a person can read. It trims
// statement by statement first: a step removes a statement or a function,
// replaces an if, a loop or a block by the statements of its body, or drops
// an else. Then it simplifies expressions: an operator gives way to one of
// its operands of the same type, ?: and select to a branch, a vector literal
// to a broadcast of its first element, a scalar to 0.
//
// A step is kept only if clconv still accepts the program, runs it without
// anything undefined, and the device still shows a finding of the same
// class. Each round tries every step of the current program in one build,
// together with the steps that passed applied all at once, half of them,
// a quarter..., and keeps the largest combination that still shows the
// finding (or the best single step).

// maxMinimizeRounds bounds the rounds of each phase of one minimisation.
const maxMinimizeRounds = 40

// Minimize returns the smallest program reachable from p by steps for which
// keep holds. keep judges a batch of candidates at once (the harness builds
// them in one file); every candidate it sees compiles and runs without
// undefined behaviour in clconv.
func Minimize(p *Program, keep func([]*Program) []bool) *Program {
	return phases(p, func(p *Program, exprs bool) (*Program, bool) {
		progressed := false
		for range maxMinimizeRounds {
			next, ok := minimizeRound(p, exprs, keep)
			if !ok {
				break
			}
			p, progressed = next, true
		}
		return p, progressed
	})
}

// phases alternates the statement and the expression phase (a simpler
// expression may free a declaration, and the reverse) until neither makes
// progress.
func phases(p *Program, phase func(p *Program, exprs bool) (*Program, bool)) *Program {
	for range 4 {
		progressed := false
		for _, exprs := range []bool{false, true} {
			var ok bool
			p, ok = phase(p, exprs)
			progressed = progressed || ok
		}
		if !progressed {
			break
		}
	}
	return p
}

// MinimizeEach is Minimize for findings whose candidates must each be
// tried alone (a compiler crash or a build error poisons a whole build):
// it applies chunks of steps, halving the chunks when none can go (delta
// debugging), and tries one candidate at a time.
func MinimizeEach(p *Program, keep func(*Program) bool) *Program {
	return phases(p, func(p *Program, exprs bool) (*Program, bool) {
		progressed := false
		n := 2
		for {
			steps := Steps(p, exprs)
			if len(steps) == 0 {
				return p, progressed
			}
			n = min(n, len(steps))
			size := (len(steps) + n - 1) / n
			found := false
			for lo := 0; lo < len(steps) && !found; lo += size {
				q := apply(p, steps[lo:min(lo+size, len(steps))])
				if Size(q) < Size(p) && valid(q) && keep(q) {
					p, found, progressed = q, true, true
				}
			}
			switch {
			case found:
				n = max(n-1, 2)
			case size == 1:
				return p, progressed
			default:
				n *= 2
			}
		}
	})
}

func minimizeRound(p *Program, exprs bool, keep func([]*Program) []bool) (*Program, bool) {
	var steps []step
	var cands []*Program
	for _, s := range Steps(p, exprs) {
		if q := apply(p, []step{s}); valid(q) {
			steps = append(steps, s)
			cands = append(cands, q)
		}
	}
	if len(cands) == 0 {
		return nil, false
	}
	ok := keep(cands)
	var good []int
	for i := range cands {
		if ok[i] {
			good = append(good, i)
		}
	}
	if len(good) == 0 {
		return nil, false
	}
	best := good[0]
	for _, i := range good {
		if Size(cands[i]) < Size(cands[best]) {
			best = i
		}
	}
	if len(good) == 1 {
		return cands[best], true
	}
	// The steps that passed alone, applied together: all of them, then
	// the first half, the first quarter, ...
	var combos []*Program
	for n := len(good); n >= 2; n /= 2 {
		var ss []step
		for _, i := range good[:n] {
			ss = append(ss, steps[i])
		}
		if q := apply(p, ss); valid(q) {
			combos = append(combos, q)
		}
	}
	if len(combos) > 0 {
		ok := keep(combos)
		for i, q := range combos {
			if ok[i] && Size(q) < Size(cands[best]) {
				return q, true
			}
		}
	}
	return cands[best], true
}

// valid reports whether clconv runs q without errors or anything undefined.
func valid(q *Program) bool {
	evs, err := undefined(Print(q, Form{}).Src)
	return err == nil && len(evs) == 0
}

// Size counts a program's statements and expression nodes.
func Size(p *Program) int {
	n := 0
	walk(p, func(any) { n++ })
	return n + len(p.Funcs)
}

// step is one simplification: of function Func (RemoveFunc), of the
// statement or expression numbered ID in the order sites lists them.
type step struct {
	op  stepOp
	id  int
	alt int // which replacement of an expression
	fn  int
}

type stepOp uint8

const (
	removeFunc  stepOp = iota
	removeStmt         // the statement goes
	splice             // an if, loop or block gives way to its (then) body
	spliceElse         // an if gives way to its else body
	dropElse           // an if loses its else
	replaceExpr        // an expression gives way to a simpler one
)

// site is a statement in a list, or an expression in the field that holds
// it.
type site struct {
	list *[]Stmt
	stmt Stmt
	expr *Expr
}

// sites lists p's statements and, with exprs, its expressions, in preorder.
func sites(p *Program, exprs bool) []site {
	var out []site
	var stmts func(list *[]Stmt)
	var expr func(e *Expr)
	expr = func(e *Expr) {
		if !exprs {
			return
		}
		out = append(out, site{expr: e})
		switch x := (*e).(type) {
		case *Swz:
			expr(&x.X)
		case *Unary:
			expr(&x.X)
		case *Bin:
			expr(&x.X)
			expr(&x.Y)
		case *Cond:
			expr(&x.C)
			expr(&x.X)
			expr(&x.Y)
		case *Cast:
			expr(&x.X)
		case *Conv:
			expr(&x.X)
		case *As:
			expr(&x.X)
		case *VecLit:
			for i := range x.Elems {
				expr(&x.Elems[i])
			}
		case *Call:
			for i := range x.Args {
				expr(&x.Args[i])
			}
		case *Select:
			expr(&x.A)
			expr(&x.B)
			expr(&x.C)
		case *AnyAll:
			expr(&x.X)
		case *Imp:
			expr(&x.X)
		}
	}
	stmts = func(list *[]Stmt) {
		for _, s := range *list {
			out = append(out, site{list: list, stmt: s})
			switch s := s.(type) {
			case *Decl:
				expr(&s.Init)
			case *Assign:
				expr(&s.RHS)
			case *If:
				expr(&s.Cond)
				stmts(&s.Then.Stmts)
				if s.Else != nil {
					stmts(&s.Else.Stmts)
				}
			case *Loop:
				stmts(&s.Body.Stmts)
			case *Jump:
				if s.Cond != nil {
					expr(&s.Cond)
				}
			case *Block:
				stmts(&s.Stmts)
			case *Return:
				expr(&s.X)
			}
		}
	}
	for _, f := range p.Funcs {
		stmts(&f.Body)
	}
	stmts(&p.Body)
	return out
}

// Steps lists the simplifications of p: of its statements, or of its
// expressions.
func Steps(p *Program, exprs bool) []step {
	var out []step
	if !exprs {
		for i := range p.Funcs {
			out = append(out, step{op: removeFunc, fn: i})
		}
	}
	for id, s := range sites(p, exprs) {
		if s.expr != nil {
			for alt := range simpler(*s.expr) {
				out = append(out, step{op: replaceExpr, id: id, alt: alt})
			}
			continue
		}
		if exprs {
			continue
		}
		out = append(out, step{op: removeStmt, id: id})
		switch st := s.stmt.(type) {
		case *If:
			out = append(out, step{op: splice, id: id})
			if st.Else != nil {
				out = append(out, step{op: spliceElse, id: id}, step{op: dropElse, id: id})
			}
		case *Loop:
			out = append(out, step{op: splice, id: id})
		case *Block:
			if !st.Pragma {
				out = append(out, step{op: splice, id: id})
			}
		}
	}
	return out
}

// simpler returns the expressions of e's type that may replace e.
func simpler(e Expr) []Expr {
	t := e.Type()
	var out []Expr
	same := func(x Expr) {
		if x.Type() == t {
			out = append(out, x)
		}
	}
	switch x := e.(type) {
	case *Ref:
		return nil
	case *Lit:
		if x.Bits == 0 {
			return nil
		}
		return []Expr{&Lit{T: t}}
	case *Bin:
		same(x.X)
		same(x.Y)
	case *Cond:
		same(x.X)
		same(x.Y)
	case *Select:
		same(x.A)
		same(x.B)
	case *Unary:
		same(x.X)
	case *VecLit:
		if len(x.Elems) > 1 && x.Elems[0].Type().N == 1 {
			out = append(out, &VecLit{T: t, Elems: x.Elems[:1]})
		}
		return out
	}
	zero := &Lit{T: scalar(t.Kind)}
	if t.N == 1 {
		return append(out, zero)
	}
	return append(out, &VecLit{T: t, Elems: []Expr{zero}})
}

// apply returns a copy of p with the steps applied.
func apply(p *Program, steps []step) *Program {
	q := cloneProgram(p)
	var funcs, rest []step
	for _, s := range steps {
		if s.op == removeFunc {
			funcs = append(funcs, s)
		} else {
			rest = append(rest, s)
		}
	}
	exprs := slices.ContainsFunc(rest, func(s step) bool { return s.op == replaceExpr })
	ss := sites(q, exprs)
	// Later sites first: editing one never moves an earlier one.
	sort.SliceStable(rest, func(i, j int) bool { return rest[i].id > rest[j].id })
	done := map[int]bool{}
	for _, s := range rest {
		if done[s.id] {
			continue
		}
		done[s.id] = true
		st := ss[s.id]
		if s.op == replaceExpr {
			*st.expr = simpler(*st.expr)[s.alt]
			continue
		}
		list := *st.list
		i := slices.Index(list, st.stmt)
		if i < 0 {
			continue // inside a statement already replaced
		}
		var with []Stmt
		switch s.op {
		case splice:
			switch x := st.stmt.(type) {
			case *If:
				with = x.Then.Stmts
			case *Loop:
				with = x.Body.Stmts
			case *Block:
				with = x.Stmts
			}
		case spliceElse:
			with = st.stmt.(*If).Else.Stmts
		case dropElse:
			c := *st.stmt.(*If)
			c.Else = nil
			with = []Stmt{&c}
		}
		*st.list = slices.Concat(list[:i], with, list[i+1:])
	}
	sort.Slice(funcs, func(i, j int) bool { return funcs[i].fn > funcs[j].fn })
	for _, s := range funcs {
		q.Funcs = slices.Delete(q.Funcs, s.fn, s.fn+1)
	}
	return q
}

// cloneProgram copies p's statements and expressions (variables, which
// nothing changes, are shared; calls name their functions, which print by
// name).
func cloneProgram(p *Program) *Program {
	q := &Program{}
	for _, f := range p.Funcs {
		g := *f
		g.Body = cloneStmts(f.Body)
		q.Funcs = append(q.Funcs, &g)
	}
	q.Body = cloneStmts(p.Body)
	return q
}

func cloneStmts(list []Stmt) []Stmt {
	out := make([]Stmt, len(list))
	for i, s := range list {
		out[i] = cloneStmt(s)
	}
	return out
}

func cloneBlock(b *Block) *Block {
	if b == nil {
		return nil
	}
	c := *b
	c.Stmts = cloneStmts(b.Stmts)
	return &c
}

func cloneStmt(s Stmt) Stmt {
	switch s := s.(type) {
	case *Decl:
		c := *s
		c.Init = cloneExpr(s.Init)
		return &c
	case *Assign:
		c := *s
		c.LHS, c.RHS = cloneExpr(s.LHS), cloneExpr(s.RHS)
		return &c
	case *IncDec:
		c := *s
		c.LHS = cloneExpr(s.LHS)
		return &c
	case *If:
		c := *s
		c.Cond, c.Then, c.Else = cloneExpr(s.Cond), cloneBlock(s.Then), cloneBlock(s.Else)
		return &c
	case *Loop:
		c := *s
		c.Body = cloneBlock(s.Body)
		return &c
	case *Jump:
		c := *s
		if s.Cond != nil {
			c.Cond = cloneExpr(s.Cond)
		}
		return &c
	case *Block:
		return cloneBlock(s)
	case *Return:
		return &Return{X: cloneExpr(s.X)}
	}
	panic(fmt.Sprintf("difftest: unknown statement %T", s))
}

func cloneExprs(list []Expr) []Expr {
	out := make([]Expr, len(list))
	for i, e := range list {
		out[i] = cloneExpr(e)
	}
	return out
}

func cloneExpr(e Expr) Expr {
	switch x := e.(type) {
	case *Lit:
		c := *x
		return &c
	case *Ref:
		c := *x
		return &c
	case *Swz:
		c := *x
		c.X = cloneExpr(x.X)
		return &c
	case *Unary:
		c := *x
		c.X = cloneExpr(x.X)
		return &c
	case *Bin:
		c := *x
		c.X, c.Y = cloneExpr(x.X), cloneExpr(x.Y)
		return &c
	case *Cond:
		c := *x
		c.C, c.X, c.Y = cloneExpr(x.C), cloneExpr(x.X), cloneExpr(x.Y)
		return &c
	case *Cast:
		c := *x
		c.X = cloneExpr(x.X)
		return &c
	case *Conv:
		c := *x
		c.X = cloneExpr(x.X)
		return &c
	case *As:
		c := *x
		c.X = cloneExpr(x.X)
		return &c
	case *VecLit:
		c := *x
		c.Elems = cloneExprs(x.Elems)
		return &c
	case *Call:
		c := *x
		c.Args = cloneExprs(x.Args)
		return &c
	case *Select:
		return &Select{A: cloneExpr(x.A), B: cloneExpr(x.B), C: cloneExpr(x.C)}
	case *AnyAll:
		return &AnyAll{All: x.All, X: cloneExpr(x.X)}
	case *Imp:
		c := *x
		c.X = cloneExpr(x.X)
		return &c
	}
	panic(fmt.Sprintf("difftest: unknown expression %T", e))
}

// minimizeFinding minimises f's program, keeping candidates that show a
// finding of f's class.
func (h *harness) minimizeFinding(f *Finding, c *kase) error {
	round := 0
	loads := c.index%2 == 1
	keep := func(cands []*Program) []bool {
		round++
		ok := make([]bool, len(cands))
		var jobs []*Printed
		type plan struct {
			vars, canonVars []clc.Var
			plain, canon    int // job indexes, -1 when none
		}
		plans := make([]plan, len(cands))
		for i, q := range cands {
			name := fmt.Sprintf("m%d_%d_%d", f.Index, round, i)
			pl := plan{plain: len(jobs), canon: -1}
			jobs = append(jobs, Print(q, Form{Kernel: true, Name: name, Loads: loads}))
			pl.vars, _ = Interpret(Print(q, Form{}).Src, nil)
			if f.Class == NaNBits || f.Class == Value {
				var err error
				if pl.canonVars, err = Interpret(Print(q, Form{Canon: true}).Src, nil); err == nil {
					pl.canon = len(jobs)
					jobs = append(jobs, Print(q, Form{Kernel: true, Name: name + "c", Loads: loads, Canon: true}))
				}
			}
			plans[i] = pl
		}
		outs := h.runJobs(jobs)
		for i := range cands {
			pl := plans[i]
			o := outs[pl.plain]
			switch f.Class {
			case BuildError, Crash, RunError:
				ok[i] = o.class == f.Class
			default:
				if o.class != "" || pl.canon < 0 || outs[pl.canon].class != "" {
					continue
				}
				d, err := compare(pl.vars, jobs[pl.plain].Slots, o.out, false)
				if err != nil || len(d) == 0 {
					continue
				}
				cd, err := compare(pl.canonVars, jobs[pl.canon].Slots, outs[pl.canon].out, true)
				if err != nil {
					continue
				}
				ok[i] = (f.Class == NaNBits) == (len(cd) == 0)
			}
		}
		return ok
	}
	var m *Program
	switch f.Class {
	case BuildError, Crash, RunError:
		m = MinimizeEach(c.prog, func(q *Program) bool { return keep([]*Program{q})[0] })
	default:
		m = Minimize(c.prog, keep)
	}
	if h.failed() {
		return h.setupErr
	}
	f.Minimal = m
	f.MinimalSource = Print(m, Form{}).Src
	k := Print(m, Form{Kernel: true, Name: fmt.Sprintf("m%d", f.Index), Loads: loads})
	f.MinimalKernel = KernelHeader + k.Src
	// The minimal program's own differences, for the report.
	outs := h.runJobs([]*Printed{k})
	vars, _ := Interpret(f.MinimalSource, nil)
	if outs[0].class != "" {
		f.MinimalDetail = outs[0].detail
	} else if d, err := compare(vars, k.Slots, outs[0].out, false); err == nil {
		f.MinimalDiffs = d
	}
	return nil
}
