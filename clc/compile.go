package clc

import (
	"cmp"
	"fmt"
	"math"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/clctree"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// The compiler turns the checked tree of exec.go into Go closures, once per
// input (a function's body at its first call, and again after a REPL input
// redefines it), so that running a program does little more than its
// operations: every name is already a slot of the globals or of a frame,
// every type and rounding mode is fixed, every operator and conversion is
// resolved to the function that computes one lane, and constants are values.
//
// A scalar (and a void expression) runs as a function returning its one
// lane's bits, and is stored in lane 0 of its variable's slot; only vectors
// carry value.Value, whose sixteen lanes a scalar does not need. A scalar
// condition can also run as a function returning its truth (comparisons do
// so without making 0 or 1 first). An operand that is a constant or a
// variable is read in place (operand), an assignment of an operator to a
// scalar variable is one closure (compileArithTo), and frames come from a
// stack in the machine (machine.push). The hottest scalar operators (float
// arithmetic, 32-bit integer arithmetic, integer comparisons) are one
// closure each with the operator written out (compile_fast.go), and a
// conversion calls the function of its pair of kinds (kernels.BitsFunc).
//
// Runtime errors (integer division by zero, the step and depth limits, a
// call of a function never defined) panic with a runError, which protect
// turns back into the error: the code that does not fail pays nothing for
// the checks. Steps are counted exactly as the tree walker counts them, at
// the same places and with the same charges (steps.go), so that
// --max-steps stops a program at the same statement with the same message.
//
// The tree walker (the eval and exec methods of exec.go) stays as the
// reference: an Interp or Evaluator whose engine is engineTree runs it, and
// the tests run every program through both and want the same values,
// warnings, conversions and errors (engine_test.go;
// cmd/clconv/internal/difftest selects the walker through internal/clctree).
// docs/LANGUAGE.md, "How programs run", has the design and the measurements.

// engine selects how checked programs run.
type engine uint8

const (
	engineCompiled engine = iota // the closures of this file
	engineTree                   // the tree walker of exec.go
)

func init() {
	clctree.Use = func(x any) {
		switch x := x.(type) {
		case *Interp:
			x.engine = engineTree
		case *Evaluator:
			x.engine = engineTree
		default:
			panic(fmt.Sprintf("clctree.Use: %T is not a *clc.Interp or *clc.Evaluator", x))
		}
	}
}

// runError carries a runtime error out of compiled code to protect.
type runError struct{ err error }

// fail stops the compiled code running with err.
func fail(err error) { panic(runError{err}) }

// protect runs f and returns the error compiled code failed with, if any.
// Other panics go on.
func protect(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(runError)
			if !ok {
				panic(r)
			}
			err = re.err
		}
	}()
	f()
	return nil
}

// tick charges n steps as machine.step does, failing at the same points.
func (m *machine) tick(pos syntax.Pos, n int64) {
	m.steps -= n
	if m.steps < m.poll {
		m.tickSlow(pos)
	}
}

// tickSlow is kept out of line so that tick, on every statement's path,
// stays small enough to inline.
//
//go:noinline
func (m *machine) tickSlow(pos syntax.Pos) {
	if err := m.stepSlow(pos); err != nil {
		fail(err)
	}
}

// code is a compiled expression of type t: s for scalars and void (it
// returns the lane; void returns 0), v for vectors. b, if set, returns a
// scalar's truth. A constant also has konst set and its value in c.
type code struct {
	t     cltype.Type
	s     func(*machine) uint64
	v     func(*machine) value.Value
	b     func(*machine) bool
	konst bool
	c     value.Value
	load  *variable // the variable, when the code only reads one
}

func isScalar(t cltype.Type) bool { return t.N <= 1 }

// lane0 returns a Value of scalar type t holding the lane b.
func lane0(t cltype.Type, b uint64) value.Value {
	v := value.Value{Type: t}
	v.Lanes[0] = b
	return v
}

// valueFn returns c as a function returning a Value, for either form.
func (c code) valueFn() func(*machine) value.Value {
	if c.v != nil {
		return c.v
	}
	s, t := c.s, c.t
	if c.konst {
		k := c.c
		return func(*machine) value.Value { return k }
	}
	return func(m *machine) value.Value { return lane0(t, s(m)) }
}

// truthFn returns a scalar's truth as Value.Bool(0) gives it.
func (c code) truthFn() func(*machine) bool {
	if c.b != nil {
		return c.b
	}
	s, k := c.s, c.t.Kind
	if k.IsInteger() || k == cltype.Bool {
		return func(m *machine) bool { return s(m) != 0 }
	}
	return func(m *machine) bool { return value.Truth(k, s(m)) }
}

// scalarCode makes a scalar's code from its lane function.
func scalarCode(t cltype.Type, s func(*machine) uint64) code { return code{t: t, s: s} }

// fromValue makes code from a function that returns a Value, for the
// general paths that work on whole values as the tree walker does.
func fromValue(t cltype.Type, v func(*machine) value.Value) code {
	if isScalar(t) {
		return code{t: t, s: func(m *machine) uint64 { return v(m).Lanes[0] }}
	}
	return code{t: t, v: v}
}

// boolCode makes a scalar int truth value (1 or 0) from a truth function.
func boolCode(t cltype.Type, b func(*machine) bool) code {
	return code{t: t, b: b, s: func(m *machine) uint64 {
		if b(m) {
			return 1
		}
		return 0
	}}
}

// compileExpr compiles a checked expression. The left operands of binary
// operators are compiled in a loop, not by recursion: a long chain (a + b +
// ... or a < b < ...: 8192 operators pass the parser) then costs no Go stack,
// where a frame per operator could overflow js/wasm's (docs/LANGUAGE.md,
// "Limits"; V8 makes the frames of a function larger once it optimizes it).
func compileExpr(x expr) code {
	var buf [8]expr
	spine := buf[:0]
	for {
		var left expr
		switch b := x.(type) {
		case *arithExpr:
			left = b.x
		case *compareExpr:
			left = b.x
		case *logicalExpr:
			left = b.x
		case *commaExpr:
			left = b.x
		}
		if left == nil {
			break
		}
		spine = append(spine, x)
		x = left
	}
	c := compileNode(x)
	for i := len(spine) - 1; i >= 0; i-- {
		switch b := spine[i].(type) {
		case *arithExpr:
			c, _ = arithCode(b, c, compileExpr(b.y), nil)
		case *compareExpr:
			c = compareCode(b, c, compileExpr(b.y))
		case *logicalExpr:
			c = logicalCode(b, c, compileExpr(b.y))
		case *commaExpr:
			c = commaCode(b, c, compileExpr(b.y))
		}
	}
	return c
}

// compileNode compiles an expression that is not a binary operator.
func compileNode(x expr) code {
	t := x.typ()
	switch x := x.(type) {
	case *constExpr:
		return constCode(t, x.v)
	case *varExpr:
		return loadCode(x.v)
	case *swizzleExpr:
		return compileSwizzle(x)
	case *castExpr:
		return compileCast(x)
	case *convertExpr:
		return compileConvert(x)
	case *asExpr:
		return compileAs(x)
	case *unaryExpr:
		return compileUnary(x)
	case *notExpr:
		return compileNot(x)
	case *condExpr:
		return compileCond(x)
	case *assignExpr:
		return compileAssign(x)
	case *incDecExpr:
		return compileIncDec(x)
	case *vecLitExpr:
		return compileVecLit(x)
	case *callExpr:
		return compileCall(x)
	case *selectExpr:
		return compileSelect(x)
	case *anyAllExpr:
		return compileAnyAll(x)
	}
	panic("clc: compileNode: unknown expression")
}

func constCode(t cltype.Type, v value.Value) code {
	c := code{t: t, konst: true, c: v}
	if isScalar(t) {
		b := v.Lanes[0]
		c.s = func(*machine) uint64 { return b }
	} else {
		c.v = func(*machine) value.Value { return v }
	}
	return c
}

// loadCode reads a variable.
func loadCode(v *variable) code {
	slot, t := v.slot, v.t
	c := code{t: t, load: v}
	switch {
	case v.global && isScalar(t):
		c.s = func(m *machine) uint64 { return m.globals[slot].Lanes[0] }
	case v.global:
		c.v = func(m *machine) value.Value { return m.globals[slot] }
	case isScalar(t):
		c.s = func(m *machine) uint64 { return m.frame[slot].Lanes[0] }
	default:
		c.v = func(m *machine) value.Value { return m.frame[slot] }
	}
	return c
}

// operand reads a scalar operand without a call where it is a constant or
// a variable: most operands of the operators in a hot loop are.
type operand struct {
	from uint8 // fromCode, fromConst, fromLocal or fromGlobal
	slot int
	c    uint64
	f    func(*machine) uint64
}

const (
	fromCode uint8 = iota
	fromConst
	fromLocal
	fromGlobal
)

// operandOf returns the operand that reads the scalar code c.
func operandOf(c code) operand {
	switch {
	case c.konst:
		return operand{from: fromConst, c: c.c.Lanes[0]}
	case c.load != nil && c.load.global:
		return operand{from: fromGlobal, slot: c.load.slot}
	case c.load != nil:
		return operand{from: fromLocal, slot: c.load.slot}
	}
	return operand{f: c.s}
}

// get reads an operand that is not code: written so that the compiler
// inlines it, where a call would cost more than the read. Code reads it as
//
//	a := o.c
//	if o.f != nil { a = o.f(m) } else if o.from != fromConst { a = o.get(m) }
func (o *operand) get(m *machine) uint64 {
	if o.from == fromLocal {
		return m.frame[o.slot].Lanes[0]
	}
	return m.globals[o.slot].Lanes[0]
}

// refFn returns the function that finds a variable's slot.
func refFn(v *variable) func(*machine) *value.Value {
	slot := v.slot
	if v.global {
		return func(m *machine) *value.Value { return &m.globals[slot] }
	}
	return func(m *machine) *value.Value { return &m.frame[slot] }
}

// store is a compiled lvalue: s stores a scalar's lane, v a vector.
type store struct {
	s func(*machine, uint64)
	v func(*machine, value.Value)
}

func compileStore(lv lvalue) store {
	switch x := lv.(type) {
	case *varExpr:
		slot := x.v.slot
		switch {
		case x.v.global && isScalar(x.t):
			return store{s: func(m *machine, b uint64) { m.globals[slot].Lanes[0] = b }}
		case x.v.global:
			return store{v: func(m *machine, v value.Value) { m.globals[slot] = v }}
		case isScalar(x.t):
			return store{s: func(m *machine, b uint64) { m.frame[slot].Lanes[0] = b }}
		}
		return store{v: func(m *machine, v value.Value) { m.frame[slot] = v }}
	case *swizzleExpr:
		idx := x.idx
		if base, ok := x.x.(*varExpr); ok {
			ref := refFn(base.v)
			if len(idx) == 1 {
				j := idx[0]
				return store{s: func(m *machine, b uint64) { ref(m).Lanes[j] = b }}
			}
			return store{v: func(m *machine, v value.Value) {
				p := ref(m)
				for i, j := range idx {
					p.Lanes[j] = v.Lanes[i]
				}
			}}
		}
		// A swizzle of a swizzle: read the base, change it, store it.
		get := compileExpr(x.x).valueFn()
		set := compileStore(x.x.(lvalue)).v
		if len(idx) == 1 {
			j := idx[0]
			return store{s: func(m *machine, b uint64) {
				old := get(m)
				old.Lanes[j] = b
				set(m, old)
			}}
		}
		return store{v: func(m *machine, v value.Value) {
			old := get(m)
			for i, j := range idx {
				old.Lanes[j] = v.Lanes[i]
			}
			set(m, old)
		}}
	}
	panic("clc: compileStore: not an lvalue")
}

func compileSwizzle(x *swizzleExpr) code {
	t, idx := x.t, x.idx
	var get func(*machine) value.Value
	if base, ok := x.x.(*varExpr); ok {
		ref := refFn(base.v)
		if len(idx) == 1 {
			j := idx[0]
			return scalarCode(t, func(m *machine) uint64 { return ref(m).Lanes[j] })
		}
		return code{t: t, v: func(m *machine) value.Value {
			p := ref(m)
			r := value.Value{Type: t}
			for i, j := range idx {
				r.Lanes[i] = p.Lanes[j]
			}
			return r
		}}
	}
	get = compileExpr(x.x).valueFn()
	if len(idx) == 1 {
		j := idx[0]
		return scalarCode(t, func(m *machine) uint64 { return get(m).Lanes[j] })
	}
	return code{t: t, v: func(m *machine) value.Value {
		v := get(m)
		r := value.Value{Type: t}
		for i, j := range idx {
			r.Lanes[i] = v.Lanes[j]
		}
		return r
	}}
}

func compileCast(x *castExpr) code {
	t, pos, mode, what := x.t, x.pos, x.mode, x.what
	src := compileExpr(x.x)
	st := src.t
	kind := castKind(what)
	if !isScalar(st) || isVoid(st) {
		// Never made by the checker (a cast or an implicit conversion
		// takes a scalar); the tree walker's steps, for exactness.
		xv := src.valueFn()
		return fromValue(t, func(m *machine) value.Value {
			v := xv(m)
			r, impl, err := value.Cast(v, t.Kind, mode)
			if err != nil {
				fail(wrap(pos, err))
			}
			if m.onConv != nil {
				m.reportConversion(Pos(pos), kind, convert.Op{Dst: cltype.Vec(t.Kind, v.Type.N)}, mode, v, r)
			}
			if impl != 0 {
				m.warnOnce(pos, "%s %v: the value is NaN or out of range; the result is undefined in C, clconv saturates", what, t.Kind)
			}
			if t.N > 1 {
				if r, err = value.Broadcast(r, t.N); err != nil {
					fail(wrap(pos, err))
				}
			}
			return r
		})
	}
	k, sk := t.Kind, st.Kind
	op := convert.Op{Dst: cltype.Scalar(k)}
	xo := operandOf(src)
	castLane := func(b uint64) (uint64, bool) { return value.CastLane(k, sk, b, mode) }
	if k != cltype.Bool && sk != cltype.Bool {
		// value.CastLane's conversion, resolved here.
		castLane = kernels.BitsFunc(k, sk, convert.EffectiveMode(k, convert.NoSuffix, mode), false)
	}
	lane := func(m *machine) uint64 {
		b := xo.c
		if xo.f != nil {
			b = xo.f(m)
		} else if xo.from != fromConst {
			b = xo.get(m)
		}
		r, impl := castLane(b)
		if m.onConv != nil {
			m.reportConversion(Pos(pos), kind, op, mode, lane0(st, b), lane0(op.Dst, r))
		}
		if impl {
			m.warnOnce(pos, "%s %v: the value is NaN or out of range; the result is undefined in C, clconv saturates", what, k)
		}
		return r
	}
	n := t.N
	if src.konst {
		// A constant converted (the 2 of x * 2.0f): the result is known;
		// only a run that watches conversions, or one to warn, converts.
		r, impl := value.CastLane(k, sk, xo.c, mode)
		v := value.Value{Type: t}
		for i := range n {
			v.Lanes[i] = r
		}
		if n == 1 {
			return scalarCode(t, func(m *machine) uint64 {
				if m.onConv != nil || impl {
					return lane(m)
				}
				return r
			})
		}
		return code{t: t, v: func(m *machine) value.Value {
			if m.onConv != nil || impl {
				lane(m)
			}
			return v
		}}
	}
	if n == 1 {
		return scalarCode(t, lane)
	}
	return code{t: t, v: func(m *machine) value.Value {
		b := lane(m)
		r := value.Value{Type: t}
		for i := range n {
			r.Lanes[i] = b
		}
		return r
	}}
}

func compileConvert(x *convertExpr) code {
	t, op, mode, pos := x.t, x.op, x.mode, x.pos
	src := compileExpr(x.x)
	st := src.t
	dk, sk, mm, sat := op.Dst.Kind, st.Kind, op.Mode(mode), op.Sat
	implWarn := func(m *machine, impl value.LaneMask) {
		m.warnOnce(pos, "%s: %s NaN or out of range for %v; OpenCL leaves the result implementation-defined, clconv saturates (use _sat to make it portable)", op.Name(), laneList(t, impl), t.Kind)
	}
	if isScalar(st) {
		xo := operandOf(src)
		conv := kernels.BitsFunc(dk, sk, mm, sat) // convert.Bits for this pair, resolved once
		return scalarCode(t, func(m *machine) uint64 {
			b := xo.c
			if xo.f != nil {
				b = xo.f(m)
			} else if xo.from != fromConst {
				b = xo.get(m)
			}
			r, impl := conv(b)
			if m.onConv != nil {
				m.reportConversion(Pos(pos), ConvertCall, op, mode, lane0(st, b), lane0(op.Dst, r))
			}
			if impl && m.warn != nil {
				implWarn(m, 1)
			}
			return r
		})
	}
	xv := src.v
	n := st.N
	return code{t: t, v: func(m *machine) value.Value {
		v := xv(m)
		r := value.Value{Type: op.Dst}
		var impl value.LaneMask
		for i := range n {
			out, id := convert.Bits(dk, sk, v.Lanes[i], mm, sat)
			r.Lanes[i] = out
			if id {
				impl |= 1 << i
			}
		}
		if m.onConv != nil {
			m.reportConversion(Pos(pos), ConvertCall, op, mode, v, r)
		}
		if impl != 0 && m.warn != nil {
			implWarn(m, impl)
		}
		return r
	}}
}

func compileAs(x *asExpr) code {
	t, pos := x.t, x.pos
	src := compileExpr(x.x)
	if isScalar(t) && src.t.N == 1 && src.t.Kind.Size() == t.Kind.Size() &&
		t.Kind != cltype.Bool && src.t.Kind != cltype.Bool {
		// Same element count: the bits, unchanged (value.As).
		return scalarCode(t, src.s)
	}
	xv := src.valueFn()
	return fromValue(t, func(m *machine) value.Value {
		r, err := value.As(xv(m), t)
		if err != nil {
			fail(wrap(pos, err))
		}
		return r
	})
}

// overflowMsg is the warning of a signed integer overflow.
const overflowMsg = "signed integer overflow: %v %v %v: %s out of range; OpenCL C leaves the result undefined, clconv wraps"

// compileArithTo compiles x; if dst is not nil and x is a scalar operator,
// the code also stores the result in the scalar variable dst, as an
// assignment does after x (fused reports that it does).
func compileArithTo(x *arithExpr, dst *variable) (c code, fused bool) {
	return arithCode(x, compileExpr(x.x), compileExpr(x.y), dst)
}

// arithCode is compileArithTo with the operands compiled.
func arithCode(x *arithExpr, xc, yc code, dst *variable) (c code, fused bool) {
	t, op, mode, pos := x.t, x.op, x.mode, x.pos
	f, err := value.BinaryLaneOp(op, t.Kind, mode)
	if err == nil {
		// The checks value.BinaryOverflow makes on the operand types.
		one := value.Zero(yc.t)
		for i := range yc.t.N {
			one.Lanes[i] = 1
		}
		_, _, err = value.BinaryOverflow(op, value.Zero(xc.t), one, mode)
	}
	if err != nil {
		// Never made by the checker; fail as the tree walker does, after
		// evaluating the operands.
		xv, yv := xc.valueFn(), yc.valueFn()
		return fromValue(t, func(m *machine) value.Value {
			a, b := xv(m), yv(m)
			_, _, err := value.BinaryOverflow(op, a, b, mode)
			fail(wrap(pos, err))
			return value.Value{}
		}), false
	}
	if isScalar(t) {
		xo, yo := operandOf(xc), operandOf(yc)
		slow := func(m *machine, err error) {
			if err != nil {
				fail(wrap(pos, err))
			}
			m.warnOnce(pos, overflowMsg, t, op, t, laneList(t, 1))
		}
		to, slot := fromCode, 0 // where the result goes: nowhere, or a variable
		if dst != nil {
			to, slot = fromLocal, dst.slot
			if dst.global {
				to = fromGlobal
			}
		}
		if xc.t == t && yc.t == t {
			over := func(m *machine) { slow(m, nil) }
			if fast := fastArith(op, t.Kind, mode, xo, yo, dest{to, slot}, over); fast != nil {
				return scalarCode(t, fast), dst != nil
			}
		}
		return scalarCode(t, func(m *machine) uint64 {
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
			r, over, err := f(a, b)
			if err != nil || over {
				slow(m, err)
			}
			if to == fromLocal {
				m.frame[slot].Lanes[0] = r
			} else if to == fromGlobal {
				m.globals[slot].Lanes[0] = r
			}
			return r
		}), dst != nil
	}
	xv, yv := xc.valueFn(), yc.valueFn()
	n := t.N
	return code{t: t, v: func(m *machine) value.Value {
		a := xv(m)
		b := yv(m)
		r := value.Value{Type: t}
		var over value.LaneMask
		for i := range n {
			l, o, err := f(a.Lanes[i], b.Lanes[i])
			if err != nil {
				fail(wrap(pos, err))
			}
			r.Lanes[i] = l
			if o {
				over |= 1 << i
			}
		}
		if over != 0 {
			m.warnOnce(pos, overflowMsg, t, op, t, laneList(t, over))
		}
		return r
	}}, false
}

func compileUnary(x *unaryExpr) code {
	t, pos := x.t, x.pos
	src := compileExpr(x.x)
	k := t.Kind
	neg := x.op == syntax.SUB
	var err error
	if neg {
		_, _, err = value.NegOverflow(value.Zero(src.t))
	} else {
		_, err = value.Complement(value.Zero(src.t))
	}
	if isScalar(t) && err == nil && src.t == t {
		xs := src.s
		if neg {
			return scalarCode(t, func(m *machine) uint64 {
				r, over := value.NegLane(k, xs(m))
				if over {
					m.warnOnce(pos, "signed integer overflow: -%v: %s out of range; OpenCL C leaves the result undefined, clconv wraps", t, laneList(t, 1))
				}
				return r
			})
		}
		return scalarCode(t, func(m *machine) uint64 { return value.ComplementLane(k, xs(m)) })
	}
	// Vectors: whole values, as the tree walker computes them.
	xv := src.valueFn()
	return fromValue(t, func(m *machine) value.Value {
		v := xv(m)
		var err error
		if neg {
			var over value.LaneMask
			v, over, err = value.NegOverflow(v)
			if over != 0 {
				m.warnOnce(pos, "signed integer overflow: -%v: %s out of range; OpenCL C leaves the result undefined, clconv wraps", t, laneList(t, over))
			}
		} else {
			v, err = value.Complement(v)
		}
		if err != nil {
			fail(wrap(pos, err))
		}
		return v
	})
}

func compileNot(x *notExpr) code {
	t := x.t
	src := compileExpr(x.x)
	if isScalar(t) {
		tr := src.truthFn()
		return boolCode(t, func(m *machine) bool { return !tr(m) })
	}
	xv, k := src.v, src.t.Kind
	return code{t: t, v: func(m *machine) value.Value {
		v := xv(m)
		r := value.Value{Type: t}
		for i := range t.N {
			r.Lanes[i] = boolLane(t, !value.Truth(k, v.Lanes[i]))
		}
		return r
	}}
}

// ordered returns Go's comparison op on values of type T, which is IEEE
// 754's on floating types (every comparison with NaN is false but !=).
func ordered[T cmp.Ordered](op syntax.TokenKind) func(a, b T) bool {
	switch op {
	case syntax.EQL:
		return func(a, b T) bool { return a == b }
	case syntax.NEQ:
		return func(a, b T) bool { return a != b }
	case syntax.LSS:
		return func(a, b T) bool { return a < b }
	case syntax.GTR:
		return func(a, b T) bool { return a > b }
	case syntax.LEQ:
		return func(a, b T) bool { return a <= b }
	}
	return func(a, b T) bool { return a >= b }
}

// laneCompare returns the comparison op of two lanes of kind k, as compare
// makes it: floating lanes as the numbers they are, signed integers
// sign-extended, unsigned ones as they are. ok is false for the kinds
// compare reads another way (bool and the storage formats, which the
// checker keeps away from comparisons).
func laneCompare(op syntax.TokenKind, k cltype.Kind) (f func(a, b uint64) bool, ok bool) {
	switch {
	case k == cltype.Double:
		c := ordered[float64](op)
		return func(a, b uint64) bool { return c(math.Float64frombits(a), math.Float64frombits(b)) }, true
	case k == cltype.Float:
		c := ordered[float32](op)
		return func(a, b uint64) bool {
			return c(math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)))
		}, true
	case k == cltype.Half:
		c := ordered[float64](op)
		return func(a, b uint64) bool { return c(halfFloat64(a), halfFloat64(b)) }, true
	case k.IsInteger() && k.IsSigned():
		c := ordered[int64](op)
		sh := uint(64 - k.Bits())
		return func(a, b uint64) bool { return c(int64(a<<sh)>>sh, int64(b<<sh)>>sh) }, true
	case k.IsInteger():
		return ordered[uint64](op), true
	}
	return nil, false
}

// halfFloat64 returns a half lane's value exactly.
func halfFloat64(b uint64) float64 {
	out, _ := convert.Bits(cltype.Double, cltype.Half, b, round.RTE, false)
	return math.Float64frombits(out)
}

func compareCode(x *compareExpr, xc, yc code) code {
	t, op := x.t, x.op
	f, ok := laneCompare(op, xc.t.Kind)
	if !ok || xc.t != yc.t {
		xv, yv := xc.valueFn(), yc.valueFn()
		return fromValue(t, func(m *machine) value.Value {
			a, b := xv(m), yv(m)
			r := value.Value{Type: t}
			for i := range a.Type.N {
				r.Lanes[i] = boolLane(t, compare(op, a, b, i))
			}
			return r
		})
	}
	if isScalar(t) {
		xo, yo := operandOf(xc), operandOf(yc)
		b := func(m *machine) bool {
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
			return f(a, b)
		}
		if fb := fastCompare(op, xc.t.Kind, xo, yo); fb != nil {
			b = fb
		}
		// s repeats b rather than calling it: a chain of comparisons
		// (a < b < c) then costs one Go frame per operator.
		return code{t: t, b: b, s: func(m *machine) uint64 {
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
			if f(a, b) {
				return 1
			}
			return 0
		}}
	}
	xv, yv := xc.v, yc.v
	n, all := xc.t.N, t.Kind.Mask()
	return code{t: t, v: func(m *machine) value.Value {
		a := xv(m)
		b := yv(m)
		r := value.Value{Type: t}
		for i := range n {
			if f(a.Lanes[i], b.Lanes[i]) {
				r.Lanes[i] = all
			}
		}
		return r
	}}
}

func logicalCode(x *logicalExpr, xc, yc code) code {
	t, or := x.t, x.op == syntax.LOR
	if isScalar(t) {
		a, b := xc.truthFn(), yc.truthFn()
		if or {
			return boolCode(t, func(m *machine) bool { return a(m) || b(m) })
		}
		return boolCode(t, func(m *machine) bool { return a(m) && b(m) })
	}
	xv, yv := xc.valueFn(), yc.valueFn()
	return code{t: t, v: func(m *machine) value.Value {
		a := xv(m)
		b := yv(m)
		r := value.Value{Type: t}
		for i := range t.N {
			if or {
				r.Lanes[i] = boolLane(t, a.Bool(i) || b.Bool(i))
			} else {
				r.Lanes[i] = boolLane(t, a.Bool(i) && b.Bool(i))
			}
		}
		return r
	}}
}

func compileCond(x *condExpr) code {
	t := x.t
	cc, xc, yc := compileExpr(x.c), compileExpr(x.x), compileExpr(x.y)
	if isScalar(cc.t) {
		c := cc.truthFn()
		if isScalar(t) {
			a, b := xc.s, yc.s
			return scalarCode(t, func(m *machine) uint64 {
				if c(m) {
					return a(m)
				}
				return b(m)
			})
		}
		a, b := xc.valueFn(), yc.valueFn()
		return code{t: t, v: func(m *machine) value.Value {
			if c(m) {
				return a(m)
			}
			return b(m)
		}}
	}
	cv, a, b := cc.v, xc.valueFn(), yc.valueFn()
	return code{t: t, v: func(m *machine) value.Value {
		c := cv(m)
		va := a(m)
		vb := b(m)
		return selectLanes(vb, va, c)
	}}
}

func compileAssign(x *assignExpr) code {
	t := x.t
	if v, ok := x.lhs.(*varExpr); ok && isScalar(t) {
		if a, ok := x.rhs.(*arithExpr); ok {
			if c, fused := compileArithTo(a, v.v); fused {
				return c
			}
		}
	}
	rc := compileExpr(x.rhs)
	st := compileStore(x.lhs)
	if isScalar(t) {
		rs := rc.s
		if v, ok := x.lhs.(*varExpr); ok {
			slot := v.v.slot
			if v.v.global {
				return scalarCode(t, func(m *machine) uint64 {
					b := rs(m)
					m.globals[slot].Lanes[0] = b
					return b
				})
			}
			return scalarCode(t, func(m *machine) uint64 {
				b := rs(m)
				m.frame[slot].Lanes[0] = b
				return b
			})
		}
		set := st.s
		return scalarCode(t, func(m *machine) uint64 {
			b := rs(m)
			set(m, b)
			return b
		})
	}
	rv, set := rc.v, st.v
	return code{t: t, v: func(m *machine) value.Value {
		v := rv(m)
		set(m, v)
		return v
	}}
}

func compileIncDec(x *incDecExpr) code {
	t, post := x.t, x.postfix
	old, next := compileExpr(x.lhs), compileExpr(x.next)
	st := compileStore(x.lhs)
	if v, ok := x.lhs.(*varExpr); ok && isScalar(t) && !v.v.global {
		slot, nx := v.v.slot, next.s
		return scalarCode(t, func(m *machine) uint64 {
			p := &m.frame[slot].Lanes[0]
			o := *p
			n := nx(m)
			m.frame[slot].Lanes[0] = n
			if post {
				return o
			}
			return n
		})
	}
	if isScalar(t) {
		get, nx, set := old.s, next.s, st.s
		return scalarCode(t, func(m *machine) uint64 {
			o := get(m)
			v := nx(m)
			set(m, v)
			if post {
				return o
			}
			return v
		})
	}
	get, nx, set := old.v, next.v, st.v
	return code{t: t, v: func(m *machine) value.Value {
		o := get(m)
		v := nx(m)
		set(m, v)
		if post {
			return o
		}
		return v
	}}
}

func commaCode(x *commaExpr, xc, second code) code {
	t := x.t
	xs, xv := xc.s, xc.v // one is set; called directly, a chain of commas costs a frame per comma
	if isScalar(t) {
		ys := second.s
		return scalarCode(t, func(m *machine) uint64 {
			if xs != nil {
				xs(m)
			} else {
				xv(m)
			}
			return ys(m)
		})
	}
	yv := second.v
	return code{t: t, v: func(m *machine) value.Value {
		if xs != nil {
			xs(m)
		} else {
			xv(m)
		}
		return yv(m)
	}}
}

func compileVecLit(x *vecLitExpr) code {
	t := x.t
	type part struct {
		s func(*machine) uint64
		v func(*machine) value.Value
		n int
	}
	parts := make([]part, len(x.parts))
	for i, p := range x.parts {
		c := compileExpr(p)
		parts[i] = part{s: c.s, v: c.v, n: c.t.N}
		if isScalar(c.t) {
			parts[i].v = nil
		}
	}
	return code{t: t, v: func(m *machine) value.Value {
		r := value.Value{Type: t}
		n := 0
		for _, p := range parts {
			if p.v == nil {
				r.Lanes[n] = p.s(m)
				n++
				continue
			}
			v := p.v(m)
			copy(r.Lanes[n:n+p.n], v.Lanes[:p.n])
			n += p.n
		}
		return r
	}}
}

func compileCall(x *callExpr) code {
	site := &callSite{fn: x.fn, pos: x.pos, args: make([]code, len(x.args))}
	for i, a := range x.args {
		site.args[i] = compileExpr(a)
	}
	// The body runs from the closure itself, not from a function it
	// calls: recursion then costs as few Go frames as the tree walker's
	// (js/wasm's stack holds few, docs/LANGUAGE.md "Limits").
	if t := x.t; isScalar(t) {
		return scalarCode(t, func(m *machine) uint64 {
			saved, base, need, body := site.enter(m)
			site.leave(m, saved, base, need, body(m))
			return m.retLane
		})
	}
	return code{t: x.t, v: func(m *machine) value.Value {
		saved, base, need, body := site.enter(m)
		site.leave(m, saved, base, need, body(m))
		return m.ret
	}}
}

// callSite is a compiled call of a user function.
type callSite struct {
	fn   *function
	pos  syntax.Pos
	args []code
}

// enter starts a call as callExpr.eval does: it checks that the function is
// defined, counts the step, checks the depth, evaluates the arguments into a
// new frame and makes it current. It returns what leave restores and the
// body to run.
func (c *callSite) enter(m *machine) (saved []value.Value, base, need int, body cstmt) {
	fn := c.fn
	if !fn.defined {
		fail(errorf(c.pos, "function %s is declared but never defined", fn.name))
	}
	m.tick(c.pos, 1)
	need = fn.exprDepth + 8
	if m.depth >= maxCallDepth || m.evalLoad+need > maxEvalDepth {
		fail(errorf(c.pos, "calls nested too deeply (%d deep): endless recursion?", m.depth))
	}
	frame, base := m.push(fn.nslots)
	for i, a := range c.args {
		p := fn.params[i].slot
		if a.s != nil {
			frame[p] = lane0(a.t, a.s(m))
		} else {
			frame[p] = a.v(m)
		}
	}
	if fn.code == nil {
		fn.code = compileList(fn.body)
	}
	saved = m.frame
	m.frame = frame
	m.depth++
	m.evalLoad += need
	return saved, base, need, fn.code
}

// leave ends a call that flowed out of its body as fl.
func (c *callSite) leave(m *machine, saved []value.Value, base, need int, fl flow) {
	m.depth--
	m.evalLoad -= need
	m.frame = saved
	m.sp = base
	if fl != flowReturn && !isVoid(c.fn.result) {
		fail(errorf(c.fn.end, "function %s reached its end without returning a value", c.fn.name))
	}
}

// push returns a frame of n zeroed slots above those of the calls in
// progress, and the position to pop it back to. When the stack is full a
// larger one replaces it; the frames in use stay in the old one, where their
// calls hold them.
func (m *machine) push(n int) ([]value.Value, int) {
	base := m.sp
	if base+n > len(m.stack) {
		m.stack = make([]value.Value, 2*(base+n)+16)
	}
	frame := m.stack[base : base+n : base+n]
	clear(frame)
	m.sp = base + n
	return frame, base
}

func compileSelect(x *selectExpr) code {
	t := x.t
	ac, bc, cc := compileExpr(x.a), compileExpr(x.b), compileExpr(x.c)
	if isScalar(t) {
		a, b, c := ac.s, bc.s, cc.s
		return scalarCode(t, func(m *machine) uint64 {
			va := a(m)
			vb := b(m)
			if c(m) != 0 {
				return vb
			}
			return va
		})
	}
	a, b, c := ac.v, bc.v, cc.v
	return code{t: t, v: func(m *machine) value.Value {
		va := a(m)
		vb := b(m)
		return selectLanes(va, vb, c(m))
	}}
}

func compileAnyAll(x *anyAllExpr) code {
	t, all := x.t, x.all
	src := compileExpr(x.x)
	n := src.t.N
	msb := uint64(1) << (src.t.Kind.Bits() - 1)
	if isScalar(src.t) {
		s := src.s
		return boolCode(t, func(m *machine) bool { return s(m)&msb != 0 })
	}
	xv := src.v
	return boolCode(t, func(m *machine) bool {
		v := xv(m)
		res := all
		for i := range n {
			set := v.Lanes[i]&msb != 0
			if all {
				res = res && set
			} else {
				res = res || set
			}
		}
		return res
	})
}

// compileEffect compiles x, whose value is not used (an expression
// statement, the third clause of for): there x++ on a scalar variable is
// x = x + 1, without keeping the old value.
func compileEffect(x expr) code {
	if x, ok := x.(*incDecExpr); ok {
		if v, ok := x.lhs.(*varExpr); ok && isScalar(x.t) {
			if a, ok := x.next.(*arithExpr); ok {
				if c, fused := compileArithTo(a, v.v); fused {
					return c
				}
			}
		}
	}
	return compileExpr(x)
}

// cstmt is a compiled statement.
type cstmt func(*machine) flow

func noop(*machine) flow { return flowNormal }

// compileList compiles a statement list into one statement.
func compileList(list []stmt) cstmt {
	code := make([]cstmt, 0, len(list))
	for _, s := range list {
		if _, empty := s.(emptyStmt); !empty {
			code = append(code, compileStmt(s))
		}
	}
	switch len(code) {
	case 0:
		return noop
	case 1:
		return code[0]
	case 2:
		a, b := code[0], code[1]
		return func(m *machine) flow {
			if fl := a(m); fl != flowNormal {
				return fl
			}
			return b(m)
		}
	}
	return func(m *machine) flow {
		for _, s := range code {
			if fl := s(m); fl != flowNormal {
				return fl
			}
		}
		return flowNormal
	}
}

func compileStmt(s stmt) cstmt {
	switch s := s.(type) {
	case *declStmt:
		return compileDecl(s)
	case *exprStmt:
		pos, n := s.pos, 1+s.ops
		c := compileEffect(s.x)
		if xs := c.s; xs != nil {
			return func(m *machine) flow {
				m.tick(pos, n)
				xs(m)
				return flowNormal
			}
		}
		xv := c.v
		return func(m *machine) flow {
			m.tick(pos, n)
			xv(m)
			return flowNormal
		}
	case *blockStmt:
		return compileList(s.list)
	case *ifStmt:
		pos, n := s.pos, 1+s.ops
		cond := compileExpr(s.cond).truthFn()
		then := compileStmt(s.then)
		if s.otherwise == nil {
			return func(m *machine) flow {
				m.tick(pos, n)
				if cond(m) {
					return then(m)
				}
				return flowNormal
			}
		}
		otherwise := compileStmt(s.otherwise)
		return func(m *machine) flow {
			m.tick(pos, n)
			if cond(m) {
				return then(m)
			}
			return otherwise(m)
		}
	case *loopStmt:
		return compileLoop(s)
	case *branchStmt:
		fl := s.fl
		return func(*machine) flow { return fl }
	case *returnStmt:
		if s.x == nil {
			return func(*machine) flow { return flowReturn }
		}
		pos, n := s.pos, 1+s.ops
		c := compileExpr(s.x)
		if isScalar(c.t) {
			xs := c.s
			return func(m *machine) flow {
				m.tick(pos, n)
				m.retLane = xs(m)
				return flowReturn
			}
		}
		xv := c.v
		return func(m *machine) flow {
			m.tick(pos, n)
			m.ret = xv(m)
			return flowReturn
		}
	case emptyStmt:
		return noop
	}
	panic("clc: compileStmt: unknown statement")
}

func compileDecl(s *declStmt) cstmt {
	pos, n, self, t := s.pos, 1+s.ops, s.self, s.v.t
	var init code
	if s.init != nil {
		init = compileExpr(s.init)
	}
	st := compileStore(&varExpr{typed{t}, s.v})
	if isScalar(t) {
		set := st.s
		if s.init == nil {
			return func(m *machine) flow {
				m.tick(pos, n)
				set(m, 0)
				return flowNormal
			}
		}
		is := init.s
		return func(m *machine) flow {
			m.tick(pos, n)
			if self {
				set(m, 0)
			}
			set(m, is(m))
			return flowNormal
		}
	}
	set, zero := st.v, value.Zero(t)
	var iv func(*machine) value.Value
	if s.init != nil {
		iv = init.v
	}
	return func(m *machine) flow {
		m.tick(pos, n)
		v := zero
		if self {
			set(m, v)
		}
		if iv != nil {
			v = iv(m)
		}
		set(m, v)
		return flowNormal
	}
}

func compileLoop(s *loopStmt) cstmt {
	pos, n, doWhile := s.pos, 1+s.ops, s.doWhile
	init := noop
	if s.init != nil {
		init = compileStmt(s.init)
	}
	var cond func(*machine) bool
	if s.cond != nil {
		cond = compileExpr(s.cond).truthFn()
	}
	var post code // zero, or run for its effects
	if s.post != nil {
		post = compileEffect(s.post)
	}
	ps, pv := post.s, post.v
	body := compileStmt(s.body)
	if cond == nil || doWhile {
		return func(m *machine) flow {
			init(m)
			for first := true; ; first = false {
				m.tick(pos, n)
				if cond != nil && !(doWhile && first) && !cond(m) {
					return flowNormal
				}
				switch fl := body(m); fl {
				case flowBreak:
					return flowNormal
				case flowReturn:
					return fl
				}
				if ps != nil {
					ps(m)
				} else if pv != nil {
					pv(m)
				}
			}
		}
	}
	return func(m *machine) flow {
		init(m)
		for {
			m.tick(pos, n)
			if !cond(m) {
				return flowNormal
			}
			switch fl := body(m); fl {
			case flowBreak:
				return flowNormal
			case flowReturn:
				return fl
			}
			if ps != nil {
				ps(m)
			} else if pv != nil {
				pv(m)
			}
		}
	}
}
