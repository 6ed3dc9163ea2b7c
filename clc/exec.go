package clc

import (
	"fmt"
	"math"
	"strings"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// The checker (check.go) turns the syntax tree into the tree of this file:
// every node typed, every name resolved to a variable or function, every
// implicit conversion explicit, every rounding mode fixed. Evaluating it
// needs no more checks than the ones only values can fail (integer division
// by zero, the step and call-depth limits).

// Limits on running a program.
const (
	// DefaultMaxSteps bounds the work of one input when the Interp sets no
	// limit of its own: about a second of scalar code (Interp.MaxSteps
	// says what a step is).
	DefaultMaxSteps = 100_000_000
	// MaxSource bounds the bytes of one input (Interp.Run, Interp.Exec,
	// Evaluator.Eval): 4 MiB. A larger one is an error at the first byte
	// past the limit.
	MaxSource = syntax.MaxSource
	// maxCallDepth bounds recursion.
	maxCallDepth = 1000
	// maxEvalDepth bounds how deep evaluation may recurse in Go: calls
	// times the expression depth of their bodies (a function whose body
	// holds a long chain like 1 + 1 + ... + f(n) cannot recurse as deep as
	// a small one). Like maxChain, it is sized for js/wasm's stack.
	maxEvalDepth = 1 << 14
)

// variable is a declared variable: a global (a slot of the Interp's
// globals) or a local (a slot of the current frame).
type variable struct {
	name    string
	t       cltype.Type
	isConst bool
	global  bool
	slot    int
	pos     syntax.Pos
}

// function is a user-defined function.
type function struct {
	name    string
	pos     syntax.Pos
	result  cltype.Type // void: the zero Type
	params  []*variable
	body    []stmt
	defined bool // body is set
	nslots  int
	// exprDepth is the deepest nesting of expressions in the body.
	exprDepth int
	end       syntax.Pos // the closing brace of the body
	mode      round.Mode
	// code is body compiled (compile.go), made at the first call that
	// compiled code makes; a new definition clears it.
	code cstmt
}

func (f *function) signature() string {
	var b strings.Builder
	b.WriteString(typeString(f.result))
	b.WriteByte(' ')
	b.WriteString(f.name)
	b.WriteByte('(')
	for i, p := range f.params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p.t.String())
	}
	b.WriteByte(')')
	return b.String()
}

// machine is the state of a running program.
type machine struct {
	globals  []value.Value
	frame    []value.Value
	steps    int64 // left
	poll     int64 // below it step and tick take the slow path (cancel, limit)
	depth    int   // calls in progress
	evalLoad int   // their bodies' expression depths, summed
	warn     func(*Error)
	warned   map[syntax.Pos]bool
	cancel   <-chan struct{}
	ret      value.Value
	retLane  uint64           // a scalar result, in compiled code
	stack    []value.Value    // the frames of compiled calls (machine.push)
	sp       int              // the slots of stack in use
	onConv   func(Conversion) // Evaluator.OnConversion
}

// stepLimitMsg is the error of a run that takes too many steps.
const stepLimitMsg = "execution limit reached (an endless loop?); raise it with --max-steps"

// cancelEvery is how many steps run between two looks at machine.cancel.
const cancelEvery = 1024

// start sets the steps of a run, max or DefaultMaxSteps when max is not
// positive, and when the cancel channel is looked at first.
func (m *machine) start(limit int64) {
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	m.steps = limit
	m.poll = 0
	if m.cancel != nil {
		m.poll = max(0, m.steps-cancelEvery)
	}
}

// step charges n steps of work at pos (1 for the statement, loop iteration
// or call, plus the operators of the expressions it evaluates: opCount) and
// fails when the budget is spent or the run was cancelled. The compiled
// code's tick does the same.
func (m *machine) step(pos syntax.Pos, n int64) error {
	m.steps -= n
	if m.steps < m.poll {
		return m.stepSlow(pos)
	}
	return nil
}

func (m *machine) stepSlow(pos syntax.Pos) error {
	if m.steps < 0 {
		return errorAt(pos, stepLimitMsg)
	}
	if m.cancel != nil {
		select {
		case <-m.cancel:
			return errorAt(pos, "interrupted")
		default:
		}
		m.poll = max(0, m.steps-cancelEvery)
	}
	return nil
}

// warnOnce reports a warning once per source position and run.
func (m *machine) warnOnce(pos syntax.Pos, format string, args ...any) {
	if m.warn == nil || m.warned[pos] {
		return
	}
	if m.warned == nil {
		m.warned = make(map[syntax.Pos]bool)
	}
	m.warned[pos] = true
	m.warn(warningAt(pos, fmt.Sprintf(format, args...)))
}

func (m *machine) load(v *variable) value.Value {
	if v.global {
		return m.globals[v.slot]
	}
	return m.frame[v.slot]
}

func (m *machine) store(v *variable, x value.Value) {
	if v.global {
		m.globals[v.slot] = x
	} else {
		m.frame[v.slot] = x
	}
}

// expr is a checked expression.
type expr interface {
	typ() cltype.Type
	eval(m *machine) (value.Value, error)
}

// lvalue is an expression that can be assigned to: a variable, or a
// swizzle of one without repeated components.
type lvalue interface {
	expr
	set(m *machine, v value.Value) error
}

type typed struct{ t cltype.Type }

func (x typed) typ() cltype.Type { return x.t }

type constExpr struct {
	typed
	v value.Value
}

func (x *constExpr) eval(*machine) (value.Value, error) { return x.v, nil }

type varExpr struct {
	typed
	v *variable
}

func (x *varExpr) eval(m *machine) (value.Value, error) { return m.load(x.v), nil }

func (x *varExpr) set(m *machine, v value.Value) error {
	m.store(x.v, v)
	return nil
}

// swizzleExpr selects the storage lanes idx of x.
type swizzleExpr struct {
	typed
	x   expr
	idx []int
}

func (x *swizzleExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	r := value.Value{Type: x.t}
	for i, j := range x.idx {
		r.Lanes[i] = v.Lanes[j]
	}
	return r, nil
}

func (x *swizzleExpr) set(m *machine, v value.Value) error {
	base := x.x.(lvalue)
	old, err := base.eval(m)
	if err != nil {
		return err
	}
	for i, j := range x.idx {
		old.Lanes[j] = v.Lanes[i]
	}
	return base.set(m, old)
}

// castExpr converts a scalar to kind t.Kind as a C cast or an implicit
// conversion does (value.Cast), then widens it when t is a vector.
type castExpr struct {
	typed
	x    expr
	mode round.Mode
	pos  syntax.Pos
	what string // "cast to" or "conversion to", for warnings
}

func (x *castExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	r, impl, err := value.Cast(v, x.t.Kind, x.mode)
	if err != nil {
		return r, wrap(x.pos, err)
	}
	if m.onConv != nil {
		op := convert.Op{Dst: cltype.Vec(x.t.Kind, v.Type.N)}
		m.reportConversion(Pos(x.pos), castKind(x.what), op, x.mode, v, r)
	}
	if impl != 0 {
		m.warnOnce(x.pos, "%s %v: the value is NaN or out of range; the result is undefined in C, clconv saturates", x.what, x.t.Kind)
	}
	if x.t.N > 1 {
		r, err = value.Broadcast(r, x.t.N)
	}
	return r, wrapErr(x.pos, err)
}

type convertExpr struct {
	typed
	x    expr
	op   convert.Op
	mode round.Mode
	pos  syntax.Pos
}

func (x *convertExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	r, impl, err := value.ConvertImpl(v, x.op, x.mode)
	if err != nil {
		return r, wrap(x.pos, err)
	}
	m.reportConversion(Pos(x.pos), ConvertCall, x.op, x.mode, v, r)
	if impl != 0 && m.warn != nil {
		m.warnOnce(x.pos, "%s: %s NaN or out of range for %v; OpenCL leaves the result implementation-defined, clconv saturates (use _sat to make it portable)", x.op.Name(), laneList(x.t, impl), x.t.Kind)
	}
	return r, nil
}

// laneList describes the lanes of a value of type t flagged in impl.
func laneList(t cltype.Type, impl value.LaneMask) string {
	if t.N == 1 {
		return "the value is"
	}
	var lanes []string
	for i := range t.N {
		if impl.Has(i) {
			lanes = append(lanes, fmt.Sprint(i))
		}
	}
	if len(lanes) == 1 {
		return "element " + lanes[0] + " is"
	}
	return "elements " + strings.Join(lanes, ", ") + " are"
}

type asExpr struct {
	typed
	x   expr
	pos syntax.Pos
}

func (x *asExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	r, err := value.As(v, x.t)
	return r, wrapErr(x.pos, err)
}

// arithExpr is a binary arithmetic, bitwise or shift operator on operands
// already converted as OpenCL C says.
type arithExpr struct {
	typed
	op   value.BinaryOp
	x, y expr
	mode round.Mode
	pos  syntax.Pos
}

func (x *arithExpr) eval(m *machine) (value.Value, error) {
	a, err := x.x.eval(m)
	if err != nil {
		return a, err
	}
	b, err := x.y.eval(m)
	if err != nil {
		return b, err
	}
	r, over, err := value.BinaryOverflow(x.op, a, b, x.mode)
	if over != 0 {
		m.warnOnce(x.pos, "signed integer overflow: %v %v %v: %s out of range; OpenCL C leaves the result undefined, clconv wraps", x.t, x.op, x.t, laneList(x.t, over))
	}
	return r, wrapErr(x.pos, err)
}

// unaryExpr is - or ~ on a promoted operand.
type unaryExpr struct {
	typed
	op  syntax.TokenKind
	x   expr
	pos syntax.Pos
}

func (x *unaryExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	if x.op == syntax.SUB {
		var over value.LaneMask
		v, over, err = value.NegOverflow(v)
		if over != 0 {
			m.warnOnce(x.pos, "signed integer overflow: -%v: %s out of range; OpenCL C leaves the result undefined, clconv wraps", x.t, laneList(x.t, over))
		}
	} else {
		v, err = value.Complement(v)
	}
	return v, wrapErr(x.pos, err)
}

// boolLane returns the lane value of a truth value in a result of type t:
// 1 for scalars, all bits set for vectors (OpenCL C 6.3).
func boolLane(t cltype.Type, b bool) uint64 {
	switch {
	case !b:
		return 0
	case t.N == 1:
		return 1
	}
	return t.Kind.Mask()
}

// notExpr is !x: 1 (or -1 in a vector) where x is zero.
type notExpr struct {
	typed
	x expr
}

func (x *notExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	r := value.Value{Type: x.t}
	for i := range x.t.N {
		r.Lanes[i] = boolLane(x.t, !v.Bool(i))
	}
	return r, nil
}

// compareExpr is a relational or equality operator on operands of one type.
type compareExpr struct {
	typed
	op   syntax.TokenKind
	x, y expr
}

func (x *compareExpr) eval(m *machine) (value.Value, error) {
	a, err := x.x.eval(m)
	if err != nil {
		return a, err
	}
	b, err := x.y.eval(m)
	if err != nil {
		return b, err
	}
	r := value.Value{Type: x.t}
	for i := range a.Type.N {
		r.Lanes[i] = boolLane(x.t, compare(x.op, a, b, i))
	}
	return r, nil
}

// compare applies a relational or equality operator to element i of two
// values of one type. Comparisons with NaN are false, except != which is
// true (IEEE 754). Every half, float and double is exactly a float64.
func compare(op syntax.TokenKind, a, b value.Value, i int) bool {
	var lt, eq bool
	switch k := a.Type.Kind; {
	case k.IsFloat():
		fa, fb := a.Float64(i), b.Float64(i)
		if math.IsNaN(fa) || math.IsNaN(fb) {
			return op == syntax.NEQ
		}
		lt, eq = fa < fb, fa == fb
	case k.IsSigned():
		sa, sb := a.Int64(i), b.Int64(i)
		lt, eq = sa < sb, sa == sb
	default:
		ua, ub := a.Uint64(i), b.Uint64(i)
		lt, eq = ua < ub, ua == ub
	}
	switch op {
	case syntax.EQL:
		return eq
	case syntax.NEQ:
		return !eq
	case syntax.LSS:
		return lt
	case syntax.GTR:
		return !lt && !eq
	case syntax.LEQ:
		return lt || eq
	}
	return !lt // GEQ
}

// logicalExpr is && or ||: on scalars it evaluates Y only when X does not
// decide; on vectors it works lane by lane on both.
type logicalExpr struct {
	typed
	op   syntax.TokenKind
	x, y expr
}

func (x *logicalExpr) eval(m *machine) (value.Value, error) {
	a, err := x.x.eval(m)
	if err != nil {
		return a, err
	}
	r := value.Value{Type: x.t}
	if x.t.N == 1 {
		ta := a.Bool(0)
		if ta == (x.op == syntax.LOR) {
			r.Lanes[0] = boolLane(x.t, ta)
			return r, nil
		}
		b, err := x.y.eval(m)
		if err != nil {
			return b, err
		}
		r.Lanes[0] = boolLane(x.t, b.Bool(0))
		return r, nil
	}
	b, err := x.y.eval(m)
	if err != nil {
		return b, err
	}
	for i := range x.t.N {
		if x.op == syntax.LAND {
			r.Lanes[i] = boolLane(x.t, a.Bool(i) && b.Bool(i))
		} else {
			r.Lanes[i] = boolLane(x.t, a.Bool(i) || b.Bool(i))
		}
	}
	return r, nil
}

// condExpr is c ? x : y. A scalar c evaluates one branch; a vector c
// evaluates both and selects lane by lane on the most significant bit of c's
// lanes, as select(y, x, c) does.
type condExpr struct {
	typed
	c, x, y expr
}

func (x *condExpr) eval(m *machine) (value.Value, error) {
	c, err := x.c.eval(m)
	if err != nil {
		return c, err
	}
	if c.Type.N == 1 {
		if c.Bool(0) {
			return x.x.eval(m)
		}
		return x.y.eval(m)
	}
	a, err := x.x.eval(m)
	if err != nil {
		return a, err
	}
	b, err := x.y.eval(m)
	if err != nil {
		return b, err
	}
	return selectLanes(b, a, c), nil
}

// selectLanes returns select(a, b, c) for vectors: b's lane where the most
// significant bit of c's lane is set, a's lane elsewhere.
func selectLanes(a, b, c value.Value) value.Value {
	r := a
	msb := uint64(1) << (c.Type.Kind.Bits() - 1)
	for i := range c.Type.N {
		if c.Lanes[i]&msb != 0 {
			r.Lanes[i] = b.Lanes[i]
		}
	}
	return r
}

type assignExpr struct {
	typed
	lhs lvalue
	rhs expr
}

func (x *assignExpr) eval(m *machine) (value.Value, error) {
	v, err := x.rhs.eval(m)
	if err != nil {
		return v, err
	}
	return v, x.lhs.set(m, v)
}

// incDecExpr is ++ or --: next computes the new value from the lvalue.
type incDecExpr struct {
	typed
	lhs     lvalue
	next    expr
	postfix bool
}

func (x *incDecExpr) eval(m *machine) (value.Value, error) {
	old, err := x.lhs.eval(m)
	if err != nil {
		return old, err
	}
	v, err := x.next.eval(m)
	if err != nil {
		return v, err
	}
	if err := x.lhs.set(m, v); err != nil {
		return v, err
	}
	if x.postfix {
		return old, nil
	}
	return v, nil
}

type commaExpr struct {
	typed
	x, y expr
}

func (x *commaExpr) eval(m *machine) (value.Value, error) {
	if _, err := x.x.eval(m); err != nil {
		return value.Value{}, err
	}
	return x.y.eval(m)
}

// vecLitExpr concatenates its parts' elements (scalars already converted to
// the element type).
type vecLitExpr struct {
	typed
	parts []expr
}

func (x *vecLitExpr) eval(m *machine) (value.Value, error) {
	r := value.Value{Type: x.t}
	n := 0
	for _, p := range x.parts {
		v, err := p.eval(m)
		if err != nil {
			return v, err
		}
		for i := range v.Type.N {
			r.Lanes[n+i] = v.Lanes[i]
		}
		n += v.Type.N
	}
	return r, nil
}

type callExpr struct {
	typed
	fn   *function
	args []expr
	pos  syntax.Pos
}

func (x *callExpr) eval(m *machine) (value.Value, error) {
	fn := x.fn
	if !fn.defined {
		return value.Value{}, errorf(x.pos, "function %s is declared but never defined", fn.name)
	}
	if err := m.step(x.pos, 1); err != nil {
		return value.Value{}, err
	}
	need := fn.exprDepth + 8
	if m.depth >= maxCallDepth || m.evalLoad+need > maxEvalDepth {
		return value.Value{}, errorf(x.pos, "calls nested too deeply (%d deep): endless recursion?", m.depth)
	}
	frame := make([]value.Value, fn.nslots)
	for i, a := range x.args {
		v, err := a.eval(m)
		if err != nil {
			return v, err
		}
		frame[fn.params[i].slot] = v
	}
	saved := m.frame
	m.frame = frame
	m.depth++
	m.evalLoad += need
	fl, err := execList(m, fn.body)
	m.depth--
	m.evalLoad -= need
	m.frame = saved
	if err != nil {
		return value.Value{}, err
	}
	if fl == flowReturn {
		return m.ret, nil
	}
	if isVoid(fn.result) {
		return value.Value{}, nil
	}
	return value.Value{}, errorf(fn.end, "function %s reached its end without returning a value", fn.name)
}

// selectExpr is the built-in select(a, b, c).
type selectExpr struct {
	typed
	a, b, c expr
}

func (x *selectExpr) eval(m *machine) (value.Value, error) {
	var vs [3]value.Value
	for i, e := range []expr{x.a, x.b, x.c} {
		v, err := e.eval(m)
		if err != nil {
			return v, err
		}
		vs[i] = v
	}
	if x.t.N == 1 {
		if vs[2].Lanes[0] != 0 {
			return vs[1], nil
		}
		return vs[0], nil
	}
	return selectLanes(vs[0], vs[1], vs[2]), nil
}

// anyAllExpr is the built-in any(x) or all(x): whether the most significant
// bit of any (all) element of x is set.
type anyAllExpr struct {
	typed
	all bool
	x   expr
}

func (x *anyAllExpr) eval(m *machine) (value.Value, error) {
	v, err := x.x.eval(m)
	if err != nil {
		return v, err
	}
	msb := uint64(1) << (v.Type.Kind.Bits() - 1)
	res := x.all
	for i := range v.Type.N {
		set := v.Lanes[i]&msb != 0
		if x.all {
			res = res && set
		} else {
			res = res || set
		}
	}
	return boolValue(res), nil
}

func boolValue(b bool) value.Value {
	if b {
		return value.New(cltype.Scalar(cltype.Int), 1)
	}
	return value.New(cltype.Scalar(cltype.Int), 0)
}

// flow says how a statement ended.
type flow uint8

const (
	flowNormal flow = iota
	flowBreak
	flowContinue
	flowReturn
)

// stmt is a checked statement.
type stmt interface {
	exec(m *machine) (flow, error)
}

func execList(m *machine, list []stmt) (flow, error) {
	for _, s := range list {
		fl, err := s.exec(m)
		if err != nil || fl != flowNormal {
			return fl, err
		}
	}
	return flowNormal, nil
}

type declStmt struct {
	v    *variable
	init expr // nil: zero
	pos  syntax.Pos
	ops  int64 // opCount(init)
	// self is set when init reads the variable itself, which then holds 0.
	self bool
}

func (s *declStmt) exec(m *machine) (flow, error) {
	if err := m.step(s.pos, 1+s.ops); err != nil {
		return flowNormal, err
	}
	v := value.Zero(s.v.t)
	if s.self {
		m.store(s.v, v)
	}
	if s.init != nil {
		var err error
		if v, err = s.init.eval(m); err != nil {
			return flowNormal, err
		}
	}
	m.store(s.v, v)
	return flowNormal, nil
}

type exprStmt struct {
	x   expr
	pos syntax.Pos
	ops int64 // opCount(x)
}

func (s *exprStmt) exec(m *machine) (flow, error) {
	if err := m.step(s.pos, 1+s.ops); err != nil {
		return flowNormal, err
	}
	_, err := s.x.eval(m)
	return flowNormal, err
}

type blockStmt struct{ list []stmt }

func (s *blockStmt) exec(m *machine) (flow, error) { return execList(m, s.list) }

type ifStmt struct {
	cond            expr
	then, otherwise stmt
	pos             syntax.Pos
	ops             int64 // opCount(cond)
}

func (s *ifStmt) exec(m *machine) (flow, error) {
	if err := m.step(s.pos, 1+s.ops); err != nil {
		return flowNormal, err
	}
	c, err := s.cond.eval(m)
	if err != nil {
		return flowNormal, err
	}
	if c.Bool(0) {
		return s.then.exec(m)
	}
	if s.otherwise != nil {
		return s.otherwise.exec(m)
	}
	return flowNormal, nil
}

// loopStmt is for, while and do-while: init; while cond { body; post }.
type loopStmt struct {
	init    stmt // or nil
	cond    expr // or nil: true
	post    expr // or nil
	body    stmt
	doWhile bool
	pos     syntax.Pos
	ops     int64 // opCount(cond) + opCount(post): each iteration's charge, less 1
}

func (s *loopStmt) exec(m *machine) (flow, error) {
	if s.init != nil {
		if _, err := s.init.exec(m); err != nil {
			return flowNormal, err
		}
	}
	for first := true; ; first = false {
		if err := m.step(s.pos, 1+s.ops); err != nil {
			return flowNormal, err
		}
		if s.cond != nil && !(s.doWhile && first) {
			c, err := s.cond.eval(m)
			if err != nil {
				return flowNormal, err
			}
			if !c.Bool(0) {
				return flowNormal, nil
			}
		}
		fl, err := s.body.exec(m)
		if err != nil {
			return fl, err
		}
		switch fl {
		case flowBreak:
			return flowNormal, nil
		case flowReturn:
			return fl, nil
		}
		if s.post != nil {
			if _, err := s.post.eval(m); err != nil {
				return flowNormal, err
			}
		}
	}
}

type branchStmt struct{ fl flow }

func (s *branchStmt) exec(*machine) (flow, error) { return s.fl, nil }

type returnStmt struct {
	x   expr // or nil
	pos syntax.Pos
	ops int64 // opCount(x)
}

func (s *returnStmt) exec(m *machine) (flow, error) {
	if s.x != nil {
		if err := m.step(s.pos, 1+s.ops); err != nil {
			return flowNormal, err
		}
		v, err := s.x.eval(m)
		if err != nil {
			return flowNormal, err
		}
		m.ret = v
	}
	return flowReturn, nil
}

type emptyStmt struct{}

func (emptyStmt) exec(*machine) (flow, error) { return flowNormal, nil }
