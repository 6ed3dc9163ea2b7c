package difftest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// Config says what the generator may use.
type Config struct {
	// Half lets programs use half. PoCL 3.1 on x86 has no cl_khr_fp16, so
	// the harness leaves it off against PoCL; the interpreter-only tests
	// turn it on.
	Half bool
	// NoDouble leaves double out (for devices without cl_khr_fp64).
	NoDouble bool
}

// kinds returns the scalar kinds a program may use.
func (c Config) kinds() []cltype.Kind {
	var ks []cltype.Kind
	for _, k := range cltype.Scalars {
		if (k == cltype.Half && !c.Half) || (k == cltype.Double && c.NoDouble) {
			continue
		}
		ks = append(ks, k)
	}
	return ks
}

// Generate returns the program of the given seed: the same seed gives the
// same program. The program is well typed by OpenCL C's rules but may still
// compute something undefined; Make (ub.go) removes that.
func Generate(seed uint64, cfg Config) *Program {
	g := &gen{
		r:     rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		kinds: cfg.kinds(),
	}
	return g.program()
}

type gen struct {
	r     *rand.Rand
	kinds []cltype.Kind

	prog   *Program
	scopes [][]*Var       // innermost last
	fixed  map[*Var]bool  // loop counters and const variables: never assigned
	fn     *Func          // the function being generated, or nil at top level
	mode   round.Mode     // the rounding mode in force
	loops  int            // loops around the statement being generated
	nest   int            // blocks around it
	budget int            // statements left
	names  map[string]int // counters per prefix
	hidden string         // a name expressions may not use
}

func (g *gen) intn(n int) int        { return g.r.IntN(n) }
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func pick[T any](g *gen, xs []T) T   { return xs[g.r.IntN(len(xs))] }
func (g *gen) name(prefix string) string {
	n := g.names[prefix]
	g.names[prefix]++
	return fmt.Sprintf("%s%d", prefix, n)
}

func (g *gen) program() *Program {
	g.prog = &Program{}
	g.fixed = map[*Var]bool{}
	g.names = map[string]int{}
	for range g.intn(4) {
		g.function()
	}
	g.scopes = [][]*Var{nil}
	g.fn = nil
	g.budget = 14 + g.intn(26)
	// A few variables first, so that statements have something to work on.
	for range 2 + g.intn(3) {
		g.prog.Body = append(g.prog.Body, g.decl(true))
	}
	for g.budget > 0 {
		if g.chance(0.4) {
			g.prog.Body = append(g.prog.Body, g.decl(true))
		} else {
			g.prog.Body = append(g.prog.Body, g.stmt())
		}
	}
	return g.prog
}

// function generates a function with 1 to 3 parameters; its body uses only
// its parameters and locals.
func (g *gen) function() {
	f := &Func{Name: g.name("f"), Result: g.typ()}
	for range 1 + g.intn(3) {
		f.Params = append(f.Params, &Var{Name: g.name("a"), T: g.typ()})
	}
	g.fn = f
	g.scopes = [][]*Var{slices.Clone(f.Params)}
	g.budget = 2 + g.intn(6)
	for g.budget > 0 {
		f.Body = append(f.Body, g.stmt())
	}
	f.Body = append(f.Body, &Return{g.value(f.Result, 3)})
	g.prog.Funcs = append(g.prog.Funcs, f)
}

// typ returns a random scalar or vector type: scalars half the time.
func (g *gen) typ() Type {
	k := pick(g, g.kinds)
	if g.chance(0.5) {
		return scalar(k)
	}
	return cltype.Vec(k, pick(g, []int{2, 3, 4, 4, 8, 16}))
}

func (g *gen) declare(v *Var) { g.scopes[len(g.scopes)-1] = append(g.scopes[len(g.scopes)-1], v) }

func (g *gen) push() { g.scopes = append(g.scopes, nil) }

func (g *gen) pop() { g.scopes = g.scopes[:len(g.scopes)-1] }

// visible returns the variables in scope that no inner declaration shadows.
func (g *gen) visible() []*Var {
	var out []*Var
	seen := map[string]bool{}
	for i := len(g.scopes) - 1; i >= 0; i-- {
		for j := len(g.scopes[i]) - 1; j >= 0; j-- {
			v := g.scopes[i][j]
			if !seen[v.Name] && v.Name != g.hidden {
				seen[v.Name] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// varOf returns a visible variable of type t (assignable if asked), or nil.
func (g *gen) varOf(t Type, assignable bool) *Var {
	var c []*Var
	for _, v := range g.visible() {
		if v.T == t && !(assignable && g.fixed[v]) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return pick(g, c)
}

// vecOfKind returns a visible vector variable of kind k, or nil.
func (g *gen) vecOfKind(k cltype.Kind, assignable bool) *Var {
	var c []*Var
	for _, v := range g.visible() {
		if v.T.Kind == k && v.T.N > 1 && !(assignable && g.fixed[v]) {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return nil
	}
	return pick(g, c)
}

// Statements.

func (g *gen) stmt() Stmt {
	g.budget--
	deep := g.nest >= 3
	for {
		switch n := g.intn(100); {
		case n < 14:
			return g.decl(false)
		case n < 42:
			if s := g.assign(); s != nil {
				return s
			}
		case n < 50:
			if s := g.incDec(); s != nil {
				return s
			}
		case n < 60 && !deep:
			return g.ifStmt()
		case n < 72 && !deep && g.loops < 2:
			return g.loop()
		case n < 82 && !deep:
			return g.block()
		case n < 90 && g.loops > 0:
			var c Expr
			if g.chance(0.8) {
				c = g.expr(g.condType(), 2)
			}
			return &Jump{Cond: c, Break: g.chance(0.5)}
		case n < 94 && g.fn != nil && g.nest > 0:
			return &Return{g.value(g.fn.Result, 2)}
		case n >= 94:
			return g.decl(false)
		}
	}
}

// decl declares a new variable (at top level when top is set) or, in a
// nested block, sometimes one that shadows an outer name.
func (g *gen) decl(top bool) Stmt {
	t := g.typ()
	name := ""
	switch {
	case top:
		name = g.name("g")
	case g.nest > 0 && g.chance(0.3):
		// Shadow a name of an outer scope (not one of this block's).
		var outer []*Var
		for i := 0; i < len(g.scopes)-1; i++ {
			outer = append(outer, g.scopes[i]...)
		}
		if len(outer) > 0 {
			cand := pick(g, outer)
			if !slices.ContainsFunc(g.scopes[len(g.scopes)-1], func(v *Var) bool { return v.Name == cand.Name }) {
				name = cand.Name
			}
		}
	}
	if name == "" {
		name = g.name("l")
	}
	// The new variable's scope begins before its initializer (C99 6.2.1):
	// the initializer must not name it, nor the outer one it shadows.
	g.hidden = name
	init := g.value(t, 4)
	g.hidden = ""
	v := &Var{Name: name, T: t, Const: g.chance(0.1)}
	if v.Const {
		g.fixed[v] = true
	}
	g.declare(v)
	return &Decl{V: v, Init: init}
}

// lvalue returns an assignable variable or a swizzle of one without
// repeated components, or nil.
func (g *gen) lvalue() Expr {
	var c []*Var
	for _, v := range g.visible() {
		if !g.fixed[v] {
			c = append(c, v)
		}
	}
	if len(c) == 0 {
		return nil
	}
	v := pick(g, c)
	var x Expr = &Ref{v}
	if v.T.N > 1 && g.chance(0.4) {
		x = g.swizzle(x, g.swizzleWidth(v.T.N), true)
		if x.Type().N > 2 && g.chance(0.2) {
			x = g.swizzle(x, g.swizzleWidth(x.Type().N), true)
		}
	}
	return x
}

var compoundOps = []string{"+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}

func (g *gen) assign() Stmt {
	lhs := g.lvalue()
	if lhs == nil {
		return nil
	}
	t := lhs.Type()
	if g.chance(0.55) {
		return &Assign{LHS: lhs, Op: "=", RHS: g.value(t, 4)}
	}
	op := pick(g, compoundOps)
	bin := op[:len(op)-1]
	intOnly := bin != "+" && bin != "-" && bin != "*" && bin != "/"
	if t.Kind.IsFloat() && intOnly {
		return nil
	}
	// The right operand: one whose type makes lhs op rhs valid, computing
	// in a type that converts back to lhs's.
	var rhs Expr
	switch {
	case bin == "<<" || bin == ">>":
		rhs = g.shiftCount(t)
	case t.N > 1:
		if g.chance(0.7) {
			rhs = g.expr(t, 3)
		} else {
			k := g.widenable(t.Kind)
			rhs = g.expr(scalar(k), 3)
		}
	default:
		k := pick(g, g.kinds)
		if intOnly && k.IsFloat() {
			k = t.Kind
		}
		if g.mode != round.RTE && (t.Kind.IsFloat() || k.IsFloat()) {
			return nil // floating arithmetic: only in rte (print.go)
		}
		rhs = g.expr(scalar(k), 3)
	}
	if g.mode != round.RTE && t.Kind.IsFloat() {
		return nil
	}
	return &Assign{LHS: lhs, Op: op, RHS: rhs}
}

func (g *gen) incDec() Stmt {
	lhs := g.lvalue()
	if lhs == nil || lhs.Type().Kind.IsFloat() {
		return nil // OpenCL C has no ++ or -- for floating types
	}
	return &IncDec{LHS: lhs, Op: pick(g, []string{"++", "--"}), Post: g.chance(0.5)}
}

// intKind returns an integer kind, int more often than the others.
func (g *gen) intKind() cltype.Kind {
	if g.chance(0.5) {
		return cltype.Int
	}
	return pick(g, []cltype.Kind{cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Int, cltype.Uint, cltype.Long, cltype.Ulong})
}

// condType returns the type of an if's or a loop's condition: a scalar.
func (g *gen) condType() Type {
	if g.chance(0.6) {
		return scalar(cltype.Int)
	}
	return scalar(pick(g, g.kinds))
}

func (g *gen) ifStmt() Stmt {
	s := &If{Cond: g.expr(g.condType(), 3), Then: g.body()}
	if g.chance(0.4) {
		s.Else = g.body()
	}
	return s
}

// body generates the statements of a nested block in a scope of its own.
func (g *gen) body() *Block {
	g.push()
	g.nest++
	b := &Block{}
	for range 1 + g.intn(4) {
		if g.budget <= 0 && len(b.Stmts) > 0 {
			break
		}
		b.Stmts = append(b.Stmts, g.stmt())
	}
	g.nest--
	g.pop()
	return b
}

func (g *gen) loop() Stmt {
	l := &Loop{Kind: pick(g, []string{"for", "for", "while", "do"}), N: 1 + g.intn(4)}
	l.V = &Var{Name: g.name("i"), T: scalar(cltype.Int)}
	g.fixed[l.V] = true
	g.push()
	g.declare(l.V)
	g.loops++
	l.Body = g.body()
	g.loops--
	g.pop()
	return l
}

// block generates a block, a third of them under a rounding-mode pragma.
func (g *gen) block() Stmt {
	b := &Block{}
	saved := g.mode
	if g.chance(0.4) {
		b.Pragma = true
		b.Mode = pick(g, []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN, round.RTZ, round.RTP, round.RTN})
		g.mode = b.Mode
	}
	inner := g.body()
	b.Stmts = inner.Stmts
	g.mode = saved
	return b
}

// Expressions.

// value returns an expression to initialize, assign, pass or return as a
// t: sometimes of another scalar type, converted implicitly.
func (g *gen) value(t Type, d int) Expr {
	if g.chance(0.25) && (t.N == 1 || g.chance(0.4)) {
		s := scalar(pick(g, g.kinds))
		if s.Kind != t.Kind || t.N > 1 {
			return &Imp{T: t, X: g.expr(s, d)}
		}
	}
	return g.expr(t, d)
}

// conv returns x converted implicitly to t where their types differ.
func conv(x Expr, t Type) Expr {
	if x.Type() == t {
		return x
	}
	return &Imp{T: t, X: x}
}

// expr returns an expression of type t, at most d operators deep.
func (g *gen) expr(t Type, d int) Expr {
	if d > 0 && !g.chance(0.2) {
		for range 6 {
			if e := g.compound(t, d-1); e != nil {
				return e
			}
		}
	}
	return g.leaf(t)
}

// leaf returns a variable, a component of one, or a constant of type t.
func (g *gen) leaf(t Type) Expr {
	if g.chance(0.6) {
		if v := g.varOf(t, false); v != nil {
			return &Ref{v}
		}
		if v := g.vecOfKind(t.Kind, false); v != nil && (t.N == 1 || t.N <= v.T.N || g.chance(0.5)) {
			return g.swizzle(&Ref{v}, t.N, false)
		}
	}
	if t.N == 1 {
		return g.lit(t.Kind)
	}
	lit := &VecLit{T: t}
	if g.chance(0.3) {
		lit.Elems = []Expr{g.lit(t.Kind)} // broadcast
		return lit
	}
	for range t.N {
		lit.Elems = append(lit.Elems, g.lit(t.Kind))
	}
	return lit
}

// swizzleWidth returns a width a swizzle of an n-element vector may have.
func (g *gen) swizzleWidth(n int) int {
	var ws []int
	for _, w := range cltype.Widths {
		if w <= n || w <= 4 {
			ws = append(ws, w)
		}
	}
	return pick(g, ws)
}

// swizzle selects w components of x: .xyzw letters, .sN digits, or
// .lo/.hi/.even/.odd (never on a 3-vector, whose fourth lane OpenCL leaves
// undefined). An lvalue swizzle repeats no component and picks no more
// components than x has.
func (g *gen) swizzle(x Expr, w int, lvalue bool) Expr {
	t := x.Type()
	n := t.N
	if lvalue && w > n {
		w = n
	}
	if lvalue && w == 3 && n == 3 && g.chance(0.5) {
		w = 2
	}
	if w == n/2 && n != 3 && g.chance(0.4) {
		sel := pick(g, []string{"lo", "hi", "even", "odd"})
		var idx []int
		for i := range w {
			switch sel {
			case "lo":
				idx = append(idx, i)
			case "hi":
				idx = append(idx, w+i)
			case "even":
				idx = append(idx, 2*i)
			default:
				idx = append(idx, 2*i+1)
			}
		}
		return &Swz{X: x, Sel: sel, T: cltype.Vec(t.Kind, w), Idx: idx}
	}
	var idx []int
	if lvalue {
		idx = g.r.Perm(n)[:w]
	} else {
		for range w {
			idx = append(idx, g.intn(n))
		}
	}
	sel := ""
	switch {
	case n <= 4 && g.chance(0.7):
		letters := "xyzw"
		if g.chance(0.3) {
			letters = "rgba"
		}
		for _, i := range idx {
			sel += letters[i : i+1]
		}
	default:
		sel = "s"
		for _, i := range idx {
			sel += fmt.Sprintf("%x", i)
		}
		if g.chance(0.3) {
			sel = "s" + upper(sel[1:])
		}
	}
	rt := scalar(t.Kind)
	if w > 1 {
		rt = cltype.Vec(t.Kind, w)
	}
	return &Swz{X: x, Sel: sel, T: rt, Idx: idx}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// widenable returns a scalar kind that may be widened to a vector of
// element kind e.
func (g *gen) widenable(e cltype.Kind) cltype.Kind {
	var c []cltype.Kind
	for _, k := range g.kinds {
		if widens(k, e) {
			c = append(c, k)
		}
	}
	return pick(g, c)
}

// arithOperands returns the operand kinds of a scalar arithmetic operator
// whose result kind is k (after the promotions and the usual arithmetic
// conversions), or false.
func (g *gen) arithOperands(k cltype.Kind) (cltype.Kind, cltype.Kind, bool) {
	if promote(k) != k {
		return 0, 0, false
	}
	for range 12 {
		a, b := pick(g, g.kinds), pick(g, g.kinds)
		if g.chance(0.5) {
			a = k
		}
		if common(promote(a), promote(b)) == k {
			return a, b, true
		}
	}
	return k, k, true
}

var (
	arithOps = []string{"+", "-", "*", "/", "+", "-", "*"}
	intOps   = []string{"%", "&", "|", "^", "<<", ">>"}
	cmpOps   = []string{"==", "!=", "<", ">", "<=", ">="}
)

// compound returns an expression of type t with an operator, a conversion
// or a call at its root, or nil when the form picked cannot give a t.
func (g *gen) compound(t Type, d int) Expr {
	k := t.Kind
	switch n := g.intn(100); {
	case n < 30: // arithmetic
		ops := arithOps
		if k.IsInteger() {
			ops = append(slices.Clone(ops), intOps...)
		} else if g.mode != round.RTE {
			return nil // the kernel cannot round arithmetic in another mode
		}
		return g.binary(pick(g, ops), t, d)
	case n < 40: // comparisons and logical operators
		return g.truthExpr(t, d)
	case n < 47:
		return g.unary(t, d)
	case n < 54:
		return g.cond(t, d)
	case n < 62:
		return g.convert(t, d)
	case n < 68:
		return g.cast(t, d)
	case n < 75:
		return g.as(t, d)
	case n < 79:
		c := g.selectMask(t)
		if c.Kind == 0 {
			return nil
		}
		return &Select{A: g.expr(t, d), B: g.expr(t, d), C: g.expr(c, d)}
	case n < 82:
		if t != scalar(cltype.Int) {
			return nil
		}
		w := pick(g, cltype.Widths)
		st := cltype.Vec(pick(g, []cltype.Kind{cltype.Char, cltype.Short, cltype.Int, cltype.Long}), w)
		if w == 1 {
			st = scalar(st.Kind)
		}
		return &AnyAll{All: g.chance(0.5), X: g.expr(st, d)}
	case n < 89:
		var fs []*Func
		for _, f := range g.prog.Funcs {
			if f.Result == t {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			return nil
		}
		f := pick(g, fs)
		c := &Call{F: f}
		for _, p := range f.Params {
			c.Args = append(c.Args, g.value(p.T, d))
		}
		return c
	case n < 95: // a swizzle of an expression
		w := pick(g, []int{2, 3, 4, 8, 16})
		if w < t.N {
			return nil
		}
		return g.swizzle(g.expr(cltype.Vec(k, w), d), t.N, false)
	default:
		if t.N == 1 {
			return nil
		}
		return g.vecLit(t, d)
	}
}

// binary returns x op y of type t.
func (g *gen) binary(op string, t Type, d int) Expr {
	k := t.Kind
	shift := op == "<<" || op == ">>"
	if t.N > 1 {
		x, y := g.expr(t, d), Expr(nil)
		switch {
		case shift:
			y = g.shiftCount(t)
			if t2 := y.Type(); t2.N == 1 {
				y = &Imp{T: t, X: y}
			}
			return &Bin{Op: op, X: x, Y: y, T: t}
		case g.chance(0.7):
			y = g.expr(t, d)
		default:
			y = &Imp{T: t, X: g.expr(scalar(g.widenable(k)), d)}
		}
		if g.chance(0.5) {
			x, y = y, x
		}
		return &Bin{Op: op, X: x, Y: y, T: t}
	}
	if shift {
		var lefts []cltype.Kind
		for _, a := range g.kinds {
			if a.IsInteger() && promote(a) == k {
				lefts = append(lefts, a)
			}
		}
		if len(lefts) == 0 {
			return nil
		}
		x := conv(g.expr(scalar(pick(g, lefts)), d), t)
		y := g.shiftCount(scalar(k))
		return &Bin{Op: op, X: x, Y: conv(y, scalar(promote(y.Type().Kind))), T: t}
	}
	a, b, ok := g.arithOperands(k)
	if !ok {
		return nil
	}
	return &Bin{Op: op, X: conv(g.expr(scalar(a), d), t), Y: conv(g.expr(scalar(b), d), t), T: t}
}

// shiftCount returns the right operand of a shift whose left operand has
// type t: any integer scalar, or an integer vector of t's length. Counts
// past the width are defined in OpenCL C (taken modulo the width, 6.3.j).
func (g *gen) shiftCount(t Type) Expr {
	var ints []cltype.Kind
	for _, k := range g.kinds {
		if k.IsInteger() {
			ints = append(ints, k)
		}
	}
	k := pick(g, ints)
	if t.N > 1 && g.chance(0.5) {
		if g.chance(0.6) {
			k = t.Kind
		}
		return g.expr(cltype.Vec(k, t.N), 1)
	}
	if g.chance(0.6) {
		// A small count, as programs usually shift.
		return &Lit{T: scalar(cltype.Int), Bits: uint64(g.intn(t.Kind.Bits() + 2))}
	}
	return g.expr(scalar(k), 1)
}

// truthExpr returns a comparison or a logical operator whose result has
// type t (an int, or a signed integer vector), or nil.
func (g *gen) truthExpr(t Type, d int) Expr {
	k := t.Kind
	if t.N == 1 {
		if k != cltype.Int {
			return nil
		}
		if g.chance(0.25) {
			return &Bin{Op: pick(g, []string{"&&", "||"}), X: g.expr(g.condType(), d), Y: g.expr(g.condType(), d), T: t}
		}
		a, b := pick(g, g.kinds), pick(g, g.kinds)
		c := scalar(common(promote(a), promote(b)))
		return &Bin{Op: pick(g, cmpOps), X: conv(g.expr(scalar(a), d), c), Y: conv(g.expr(scalar(b), d), c), T: t}
	}
	if !k.IsInteger() || !k.IsSigned() {
		return nil
	}
	var ok []cltype.Kind
	for _, o := range g.kinds {
		if o.Size() == k.Size() {
			ok = append(ok, o)
		}
	}
	ot := cltype.Vec(pick(g, ok), t.N)
	op := pick(g, cmpOps)
	if g.chance(0.2) {
		op = pick(g, []string{"&&", "||"})
	}
	x, y := g.expr(ot, d), Expr(nil)
	if g.chance(0.75) {
		y = g.expr(ot, d)
	} else {
		y = &Imp{T: ot, X: g.expr(scalar(g.widenable(ot.Kind)), d)}
	}
	return &Bin{Op: op, X: x, Y: y, T: t}
}

func (g *gen) unary(t Type, d int) Expr {
	k := t.Kind
	switch op := pick(g, []string{"-", "-", "~", "!"}); op {
	case "!":
		if t.N == 1 {
			if k != cltype.Int {
				return nil
			}
			return &Unary{Op: "!", X: g.expr(g.condType(), d), T: t}
		}
		if !k.IsInteger() || !k.IsSigned() {
			return nil
		}
		var ok []cltype.Kind
		for _, o := range g.kinds {
			if o.Size() == k.Size() {
				ok = append(ok, o)
			}
		}
		return &Unary{Op: "!", X: g.expr(cltype.Vec(pick(g, ok), t.N), d), T: t}
	default:
		if op == "~" && !k.IsInteger() {
			return nil
		}
		if t.N > 1 {
			return &Unary{Op: op, X: g.expr(t, d), T: t}
		}
		if promote(k) != k {
			return nil
		}
		var xs []cltype.Kind
		for _, o := range g.kinds {
			if promote(o) == k {
				xs = append(xs, o)
			}
		}
		return &Unary{Op: op, X: conv(g.expr(scalar(pick(g, xs)), d), t), T: t}
	}
}

func (g *gen) cond(t Type, d int) Expr {
	k := t.Kind
	if t.N > 1 && g.chance(0.4) {
		// A vector condition selects lane by lane.
		ck := signedOfSize(k.Size())
		if g.chance(0.3) {
			ck = map[cltype.Kind]cltype.Kind{cltype.Char: cltype.Uchar, cltype.Short: cltype.Ushort, cltype.Int: cltype.Uint, cltype.Long: cltype.Ulong}[ck]
		}
		return &Cond{C: g.expr(cltype.Vec(ck, t.N), d), X: g.expr(t, d), Y: g.expr(t, d), T: t}
	}
	// The condition of ?: may not be floating (OpenCL C 6.3.i).
	c := g.expr(scalar(g.intKind()), d)
	if t.N > 1 {
		return &Cond{C: c, X: g.expr(t, d), Y: g.expr(t, d), T: t}
	}
	a, b, ok := g.arithOperands(k)
	if !ok {
		return nil
	}
	return &Cond{C: c, X: conv(g.expr(scalar(a), d), t), Y: conv(g.expr(scalar(b), d), t), T: t}
}

// convert returns convert_t[_sat][_rnd](x) for an x of any kind.
func (g *gen) convert(t Type, d int) Expr {
	op := convert.Op{Dst: t}
	if !t.Kind.IsFloat() && g.chance(0.5) {
		op.Sat = true
	}
	if g.chance(0.7) {
		op.Round = convert.SuffixOf(pick(g, []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN}))
	}
	src := cltype.Vec(pick(g, g.kinds), t.N)
	if t.N == 1 {
		src = scalar(src.Kind)
	}
	return &Conv{Op: op, X: g.expr(src, d)}
}

// cast returns (t)x: a scalar cast, or a vector literal broadcasting a
// scalar of any kind.
func (g *gen) cast(t Type, d int) Expr {
	x := g.expr(scalar(pick(g, g.kinds)), d)
	if t.N > 1 {
		return &VecLit{T: t, Elems: []Expr{conv(x, scalar(t.Kind))}}
	}
	return &Cast{T: t, X: x}
}

// as returns as_t(x) for an x of t's size. A 3-vector source is only
// reinterpreted as another 3-vector: as_ to a different element count would
// read its fourth lane, which OpenCL C leaves undefined.
func (g *gen) as(t Type, d int) Expr {
	var c []Type
	for _, k := range g.kinds {
		for _, w := range cltype.Widths {
			s := cltype.Vec(k, w)
			if w == 1 {
				s = scalar(k)
			}
			if s.Size() == t.Size() && (w != 3 || t.N == 3) {
				c = append(c, s)
			}
		}
	}
	if len(c) == 0 {
		return nil
	}
	return &As{T: t, X: g.expr(pick(g, c), d)}
}

// selectMask returns the type of select's third argument for a and b of
// type t.
func (g *gen) selectMask(t Type) Type {
	var ks []cltype.Kind
	for _, k := range []cltype.Kind{cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Int, cltype.Uint, cltype.Long, cltype.Ulong} {
		if k.Size() == t.Kind.Size() {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return Type{}
	}
	return cltype.Type{Kind: pick(g, ks), N: t.N}
}

// vecLit returns (t)(...) from parts whose element counts add up to t's.
func (g *gen) vecLit(t Type, d int) Expr {
	lit := &VecLit{T: t}
	left := t.N
	for left > 0 {
		var ws []int
		for _, w := range cltype.Widths {
			if w <= left && w < t.N {
				ws = append(ws, w)
			}
		}
		w := pick(g, ws)
		if w == 1 || g.chance(0.3) {
			w = 1
			lit.Elems = append(lit.Elems, conv(g.expr(scalar(pick(g, g.kinds)), d-1), scalar(t.Kind)))
		} else {
			lit.Elems = append(lit.Elems, g.expr(cltype.Vec(t.Kind, w), d-1))
		}
		left -= w
	}
	return lit
}

// Constants.

// lit returns a constant of kind k: small numbers, the kind's limits,
// powers of two and their neighbours, random bit patterns; for floating
// kinds also zeros, infinities, subnormals, halves and the thresholds of
// the integer ranges.
func (g *gen) lit(k cltype.Kind) *Lit {
	l := &Lit{T: scalar(k), Style: g.intn(4)}
	if k.IsInteger() {
		mask := k.Mask()
		var v uint64
		switch n := g.intn(10); {
		case n < 4:
			v = uint64(int64(g.intn(20) - 4))
		case n < 5:
			lo, hi := uint64(k.MinInt()), k.MaxUint()
			v = pick(g, []uint64{lo, lo + 1, hi, hi - 1, 0, ^uint64(0)})
		case n < 7:
			v = 1 << g.intn(k.Bits())
			v += uint64(int64(g.intn(3) - 1))
			if g.chance(0.3) {
				v = -v
			}
		default:
			v = g.r.Uint64() >> g.intn(k.Bits())
		}
		l.Bits = v & mask
		return l
	}
	var f float64
	switch n := g.intn(20); {
	case n < 5:
		f = float64(g.intn(21) - 10)
	case n < 7:
		f = float64(g.intn(41)-20) + 0.5
	case n < 8:
		f = pick(g, []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1)})
	case n < 10:
		// Thresholds of the integer ranges, and their neighbours.
		f = pick(g, []float64{127.5, 128, -128.5, -129, 255.5, 256, 32767.5, -32768.5, 65535.5, 65536,
			0x1p31, -0x1p31, 0x1p31 - 128, 0x1p32, 0x1p32 - 256, 0x1p63, -0x1p63, 0x1p64, -0.5, 0.5, 1.5, -1.5, 2.5})
	case n < 11:
		f = pick(g, []float64{math.MaxFloat32, 0x1p-126, 0x1p-149, -0x1p-149, 65504, 0x1p-24, 0x1p-14, math.MaxFloat64, 0x1p-1022, 0x1p-1074})
	case n < 15:
		f = math.Ldexp(1+g.r.Float64(), g.intn(80)-40)
		if g.chance(0.3) {
			f = -f
		}
	default:
		// Random bits of the kind.
		switch k {
		case cltype.Half:
			f = half.Half(g.r.Uint32()).Float64()
		case cltype.Float:
			f = float64(math.Float32frombits(g.r.Uint32()))
		default:
			f = math.Float64frombits(g.r.Uint64())
		}
		if math.IsNaN(f) {
			f = 1
		}
	}
	l.Bits = floatBits(k, f)
	return l
}

// floatBits returns f's bits in kind k, rounded to nearest even (a
// constant's rounding, whatever the mode).
func floatBits(k cltype.Kind, f float64) uint64 {
	switch k {
	case cltype.Half:
		return uint64(half.FromFloat64(f, round.RTE))
	case cltype.Float:
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}
