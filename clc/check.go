package clc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// The checker does what a C compiler's semantic analysis does: it resolves
// names, types every expression by OpenCL C's rules, makes implicit
// conversions explicit and reports the errors a compiler would, all before
// anything runs. Its output is the tree of exec.go.

// maxErrors is how many errors the checker reports before it gives up.
const maxErrors = 10

// checkBailout abandons the statement being checked after an error.
type checkBailout struct{}

type scope struct {
	parent *scope
	objs   map[string]any // *variable or *function
}

// funcDef is a function body checked but not yet installed (installing waits
// until the whole input has checked, so that a REPL input with errors
// changes nothing).
type funcDef struct {
	fn        *function
	pos       syntax.Pos // of the name in the definition
	params    []*variable
	body      []stmt
	nslots    int
	exprDepth int
	end       syntax.Pos
}

// topItem is a statement at top level: x (an expression statement, whose
// value the REPL shows) or s; vars are a declaration's variables.
type topItem struct {
	s     stmt
	x     expr
	pos   syntax.Pos
	ops   int64 // opCount(x)
	label string
	vars  []*variable
}

type checker struct {
	globals  map[string]any // the file scope (a copy the caller may keep)
	nglobals int            // the next global slot
	newVars  []*variable    // globals declared by this input, in order
	defs     []funcDef
	called   map[*function]syntax.Pos

	scope *scope // the innermost block scope; nil at file scope
	fn    *function
	// depth and maxDepth follow the nesting of expressions, so that a
	// function knows how deep its evaluation can recurse.
	depth, maxDepth int
	slots           *int // the slot counter of the frame being laid out
	topSlots        int
	loops           int
	// init is the local declaration whose initializer is being checked.
	init *declStmt

	errs ErrorList
	warn func(*Error)
	repl bool
}

func newChecker(globals map[string]any, nglobals int, warn func(*Error), repl bool) *checker {
	g := make(map[string]any, len(globals)+8)
	for k, v := range globals {
		g[k] = v
	}
	c := &checker{globals: g, nglobals: nglobals, called: make(map[*function]syntax.Pos), warn: warn, repl: repl}
	c.slots = &c.topSlots
	return c
}

// errorf reports an error and abandons the current statement.
func (c *checker) errorf(pos syntax.Pos, format string, args ...any) {
	c.errs = append(c.errs, errorAt(pos, fmt.Sprintf(format, args...)))
	panic(checkBailout{})
}

func (c *checker) warnf(pos syntax.Pos, format string, args ...any) {
	if c.warn != nil {
		c.warn(warningAt(pos, fmt.Sprintf(format, args...)))
	}
}

// guard runs f, turning a bailout into a false result; past maxErrors it
// lets the bailout through to stop everything.
func (c *checker) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(checkBailout); !isBail || len(c.errs) >= maxErrors {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// checkFile checks a parsed input and returns its top-level items.
func (c *checker) checkFile(f *syntax.File) (items []topItem) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(checkBailout); !isBail {
				panic(r)
			}
		}
	}()
	for _, it := range f.Items {
		c.guard(func() {
			switch it := it.(type) {
			case *syntax.FuncDecl:
				c.funcDecl(it)
			case *syntax.DeclStmt:
				t := topItem{pos: it.DeclPos}
				t.s, t.vars = c.decl(it)
				items = append(items, t)
			case *syntax.ExprStmt:
				x := c.expr(it.X)
				items = append(items, topItem{x: x, pos: it.X.Pos(), ops: opCount(x), label: assignLabel(it.X)})
			case syntax.Stmt:
				items = append(items, topItem{s: c.stmt(it), pos: it.Pos()})
			}
		})
	}
	if !c.repl {
		defined := make(map[*function]bool)
		for _, d := range c.defs {
			defined[d.fn] = true
		}
		for fn, pos := range c.called {
			if !fn.defined && !defined[fn] {
				c.errs = append(c.errs, errorAt(pos, fmt.Sprintf("function %s is declared (at %v) but never defined", fn.name, fn.pos)))
			}
		}
	}
	return items
}

// assignLabel returns what the REPL shows before " = " for an expression
// statement: the assigned-to expression, or "" for other expressions.
func assignLabel(x syntax.Expr) string {
	for {
		p, ok := x.(*syntax.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	switch x := x.(type) {
	case *syntax.AssignExpr:
		return syntax.ExprString(x.X)
	case *syntax.IncDecExpr:
		return syntax.ExprString(x.X)
	}
	return ""
}

func (c *checker) lookup(name string) any {
	for s := c.scope; s != nil; s = s.parent {
		if o, ok := s.objs[name]; ok {
			return o
		}
	}
	return c.globals[name]
}

// isBuiltinName reports whether name is a built-in conversion function
// (convert_<type>... or as_<type>), which no declaration may take.
func isBuiltinName(name string) bool {
	if _, err := convert.ParseName(name); err == nil {
		return true
	}
	_, err := convert.ParseAsName(name)
	return err == nil
}

func (c *checker) declareVar(name *syntax.Ident, t cltype.Type, isConst bool) *variable {
	if isBuiltinName(name.Name) {
		c.errorf(name.NamePos, "%s is the name of a built-in function", name.Name)
	}
	v := &variable{name: name.Name, t: t, isConst: isConst, pos: name.NamePos}
	if c.scope == nil {
		switch old := c.globals[name.Name].(type) {
		case *function:
			c.errorf(name.NamePos, "%s redeclared as a variable; it is a function declared at %v", name.Name, old.pos)
		case *variable:
			c.warnf(name.NamePos, "redeclaration of %s (first declared at %v): a C compiler rejects this; clconv starts a new variable, and both are shown", name.Name, old.pos)
		}
		v.global, v.slot = true, c.nglobals
		c.nglobals++
		c.globals[name.Name] = v
		c.newVars = append(c.newVars, v)
		return v
	}
	if old, dup := c.scope.objs[name.Name]; dup {
		where := ""
		if ov, ok := old.(*variable); ok {
			where = fmt.Sprintf(" (previous declaration at %v)", ov.pos)
		}
		c.errorf(name.NamePos, "redefinition of %s%s", name.Name, where)
	}
	v.slot = *c.slots
	*c.slots++
	c.scope.objs[name.Name] = v
	return v
}

func (c *checker) pushScope() { c.scope = &scope{parent: c.scope, objs: make(map[string]any)} }

func (c *checker) popScope() { c.scope = c.scope.parent }

// funcDecl checks a function definition or prototype.
func (c *checker) funcDecl(d *syntax.FuncDecl) {
	name := d.Name.Name
	if isBuiltinName(name) {
		c.errorf(d.Name.NamePos, "%s is the name of a built-in function", name)
	}
	if c.scope != nil {
		c.errorf(d.Name.NamePos, "functions can only be defined at top level")
	}
	var result cltype.Type
	if !d.Result.IsVoid() {
		result = d.Result.Type
	}
	var ptypes []cltype.Type
	for i, p := range d.Params {
		if p.Type.IsVoid() {
			c.errorf(p.Type.NamePos, "parameter %d of %s has type void", i+1, name)
		}
		ptypes = append(ptypes, p.Type.Type)
	}
	var fn *function
	switch old := c.globals[name].(type) {
	case *variable:
		c.errorf(d.Name.NamePos, "%s redeclared as a function; it is a variable declared at %v", name, old.pos)
	case *function:
		same := old.result == result && len(old.params) == len(ptypes)
		for i := 0; same && i < len(ptypes); i++ {
			same = old.params[i].t == ptypes[i]
		}
		switch {
		case !same && !c.repl:
			c.errorf(d.Name.NamePos, "conflicting types for %s: declared as %s at %v", name, old.signature(), old.pos)
		case !same:
			// The REPL lets a new definition replace an old one; calls
			// checked earlier keep the old function.
		case d.Body != nil && (old.defined || c.hasDef(old)) && !c.repl:
			c.errorf(d.Name.NamePos, "redefinition of %s (previous definition at %v)", name, old.pos)
		default:
			fn = old
		}
	}
	if fn == nil {
		fn = &function{name: name, pos: d.Name.NamePos, result: result}
		for _, t := range ptypes {
			fn.params = append(fn.params, &variable{t: t})
		}
		c.globals[name] = fn
	}
	if d.Body == nil {
		return
	}
	// The body: a frame of its own, parameters first.
	savedScope, savedFn, savedSlots, savedLoops, savedMax := c.scope, c.fn, c.slots, c.loops, c.maxDepth
	defer func() {
		c.scope, c.fn, c.slots, c.loops, c.maxDepth = savedScope, savedFn, savedSlots, savedLoops, savedMax
	}()
	nslots := 0
	c.scope, c.fn, c.slots, c.loops, c.maxDepth = nil, fn, &nslots, 0, 0
	c.pushScope()
	def := funcDef{fn: fn, pos: d.Name.NamePos, end: d.Body.Rbrace}
	for _, p := range d.Params {
		if p.Name == nil {
			// An unnamed parameter still takes its argument's slot.
			def.params = append(def.params, &variable{t: p.Type.Type, slot: nslots})
			nslots++
			continue
		}
		def.params = append(def.params, c.declareVar(p.Name, p.Type.Type, p.Const))
	}
	nerr := len(c.errs)
	def.body = c.stmtList(d.Body.List)
	def.nslots = nslots
	def.exprDepth = c.maxDepth
	if len(c.errs) == nerr {
		c.defs = append(c.defs, def)
	}
}

func (c *checker) hasDef(fn *function) bool {
	for _, d := range c.defs {
		if d.fn == fn {
			return true
		}
	}
	return false
}

func (c *checker) stmtList(list []syntax.Stmt) []stmt {
	var out []stmt
	for _, s := range list {
		c.guard(func() {
			if st := c.stmt(s); st != nil {
				out = append(out, st)
			}
		})
	}
	return out
}

func (c *checker) stmt(s syntax.Stmt) stmt {
	switch s := s.(type) {
	case *syntax.DeclStmt:
		st, _ := c.decl(s)
		return st
	case *syntax.ExprStmt:
		x := c.expr(s.X)
		return &exprStmt{x: x, pos: s.X.Pos(), ops: opCount(x)}
	case *syntax.BlockStmt:
		c.pushScope()
		defer c.popScope()
		return &blockStmt{list: c.stmtList(s.List)}
	case *syntax.IfStmt:
		st := &ifStmt{cond: c.condition(s.Cond, "if"), pos: s.If}
		st.ops = opCount(st.cond)
		st.then = c.scoped(s.Then)
		if s.Else != nil {
			st.otherwise = c.scoped(s.Else)
		}
		return st
	case *syntax.WhileStmt:
		st := &loopStmt{cond: c.condition(s.Cond, "while"), pos: s.While}
		st.body = c.loopBody(s.Body)
		st.ops = opCount(st.cond)
		return st
	case *syntax.DoStmt:
		st := &loopStmt{doWhile: true, pos: s.Do}
		st.body = c.loopBody(s.Body)
		st.cond = c.condition(s.Cond, "do-while")
		st.ops = opCount(st.cond)
		return st
	case *syntax.ForStmt:
		c.pushScope()
		defer c.popScope()
		st := &loopStmt{pos: s.For}
		if s.Init != nil {
			st.init = c.stmt(s.Init)
		}
		if s.Cond != nil {
			st.cond = c.condition(s.Cond, "for")
		}
		if s.Post != nil {
			st.post = c.expr(s.Post)
		}
		st.body = c.loopBody(s.Body)
		st.ops = opCount(st.cond) + opCount(st.post)
		return st
	case *syntax.BranchStmt:
		if c.loops == 0 {
			c.errorf(s.TokPos, "%s outside a loop", s.Tok)
		}
		if s.Tok == "break" {
			return &branchStmt{fl: flowBreak}
		}
		return &branchStmt{fl: flowContinue}
	case *syntax.ReturnStmt:
		return c.returnStmt(s)
	case *syntax.EmptyStmt:
		return emptyStmt{}
	}
	c.errorf(s.Pos(), "unsupported statement %T", s)
	return nil
}

// scoped checks the body of if or a loop, which is a block scope of its own
// even without braces (C99 6.8.4p3).
func (c *checker) scoped(s syntax.Stmt) stmt {
	c.pushScope()
	defer c.popScope()
	return c.stmt(s)
}

func (c *checker) loopBody(s syntax.Stmt) stmt {
	c.loops++
	defer func() { c.loops-- }()
	return c.scoped(s)
}

// condition checks the controlling expression of if, while, do or for,
// which must be a scalar.
func (c *checker) condition(x syntax.Expr, what string) expr {
	e := c.expr(x)
	t := e.typ()
	if isVoid(t) || t.N > 1 {
		hint := ""
		if t.N > 1 {
			hint = " (test the elements with any() or all())"
		}
		c.errorf(x.Pos(), "the condition of %s must be a scalar, not %s%s", what, typeString(t), hint)
	}
	c.storageOnly(x.Pos(), "the condition of "+what, t)
	return e
}

func (c *checker) returnStmt(s *syntax.ReturnStmt) stmt {
	if c.fn == nil {
		c.errorf(s.Return, "return outside a function")
	}
	if s.Result == nil {
		if !isVoid(c.fn.result) {
			c.errorf(s.Return, "function %s must return a %v value", c.fn.name, c.fn.result)
		}
		return &returnStmt{}
	}
	x := c.expr(s.Result)
	if isVoid(c.fn.result) {
		if isVoid(x.typ()) {
			return &returnStmt{x: x, pos: s.Return, ops: opCount(x)}
		}
		c.errorf(s.Result.Pos(), "void function %s cannot return a value", c.fn.name)
	}
	x = c.implicitConv(x, c.fn.result, s.Result.Pos(), s.Mode, "the value returned by "+c.fn.name, "")
	return &returnStmt{x: x, pos: s.Return, ops: opCount(x)}
}

// decl checks a declaration; it declares every variable even when an
// initializer has an error, so that later statements do not cascade.
func (c *checker) decl(d *syntax.DeclStmt) (stmt, []*variable) {
	if d.Type.IsVoid() {
		c.errorf(d.Type.NamePos, "variable %s declared void", d.Specs[0].Name.Name)
	}
	t := d.Type.Type
	var list []stmt
	var vars []*variable
	for _, sp := range d.Specs {
		ds := &declStmt{pos: sp.Name.NamePos}
		if c.scope != nil {
			// C99 6.2.1p7: a local's scope begins just after its
			// declarator, so its own initializer already sees it (and
			// not an outer variable of the same name). At top level,
			// where clconv lets a name be declared again, the
			// initializer sees the earlier variable.
			ds.v = c.declareVar(sp.Name, t, d.Const)
		}
		if sp.Init != nil {
			c.guard(func() {
				saved := c.init
				c.init = ds
				defer func() { c.init = saved }()
				x := c.expr(sp.Init)
				ds.init = c.implicitConv(x, t, sp.Init.Pos(), sp.Mode, "initializing "+sp.Name.Name, sp.Name.Name)
				ds.ops = opCount(ds.init)
			})
		} else {
			c.warnf(sp.Name.NamePos, "%s is declared without an initializer: clconv gives it 0 (in OpenCL C its value is indeterminate)", sp.Name.Name)
		}
		if ds.v == nil {
			ds.v = c.declareVar(sp.Name, t, d.Const)
		}
		vars = append(vars, ds.v)
		list = append(list, ds)
	}
	if len(list) == 1 {
		return list[0], vars
	}
	return &blockStmt{list: list}, vars
}

// implicitConv converts x to t as initialization, assignment, argument
// passing and return do (C99 6.5.16.1 with OpenCL C 6.2.1): between scalars
// freely, a scalar to a vector by conversion and widening, never between
// different vector types or from a vector to a scalar. what names the place
// for messages ("initializing c"); name, if set, is the variable declared.
func (c *checker) implicitConv(x expr, t cltype.Type, pos syntax.Pos, mode round.Mode, what, name string) expr {
	xt := x.typ()
	switch {
	case isVoid(xt):
		c.errorf(pos, "%s: the expression has type void", what)
	case xt == t:
		return x
	case xt.N == 1:
		return &castExpr{typed: typed{t}, x: x, mode: mode, pos: pos, what: "implicit conversion to"}
	case t.N == 1:
		c.errorf(pos, "%s: implicit conversion from %v to %v is not allowed (a vector does not convert to a scalar; select one element, e.g. .s0)", what, xt, t)
	}
	hint := ""
	if name != "" {
		hint = fmt.Sprintf(", or declare %s as %v", name, xt)
	}
	c.errorf(pos, "%s: implicit conversion from %v to %v is not allowed: OpenCL C has no implicit conversions between vector types (use convert_%v() to convert the elements%s)", what, xt, t, t, hint)
	return nil
}

// promote applies the integer promotions to a scalar operand.
func (c *checker) promote(x expr, pos syntax.Pos) expr {
	t := x.typ()
	if p := promoteType(t); p != t {
		return &castExpr{typed: typed{p}, x: x, pos: pos, what: "promotion to"}
	}
	return x
}

func (c *checker) expr(x syntax.Expr) expr {
	c.depth++
	c.maxDepth = max(c.maxDepth, c.depth)
	defer func() { c.depth-- }()
	switch x := x.(type) {
	case *syntax.BasicLit:
		return &constExpr{typed{x.Value.Type}, x.Value}
	case *syntax.StringLit:
		c.errorf(x.ValuePos, "string literals are not supported")
	case *syntax.Ident:
		return c.ident(x)
	case *syntax.ParenExpr:
		return c.expr(x.X)
	case *syntax.UnaryExpr:
		return c.unary(x)
	case *syntax.IncDecExpr:
		return c.incDec(x)
	case *syntax.BinaryExpr:
		if x.Op == syntax.COMMA {
			a, b := c.expr(x.X), c.expr(x.Y)
			return &commaExpr{typed{b.typ()}, a, b}
		}
		return c.binary(x.Op, x.OpPos, x.Mode, c.expr(x.X), c.expr(x.Y))
	case *syntax.AssignExpr:
		return c.assign(x)
	case *syntax.CondExpr:
		return c.cond(x)
	case *syntax.CastExpr:
		return c.cast(x)
	case *syntax.VectorLit:
		return c.vectorLit(x)
	case *syntax.CallExpr:
		return c.call(x)
	case *syntax.SelectorExpr:
		return c.selector(x)
	case *syntax.SizeofExpr:
		return c.sizeof(x)
	}
	c.errorf(x.Pos(), "unsupported expression %T", x)
	return nil
}

func fromMacro(x *syntax.Ident) string {
	if x.Macro != "" && x.Macro != x.Name {
		return fmt.Sprintf(" (from the expansion of macro %s)", x.Macro)
	}
	return ""
}

func (c *checker) ident(x *syntax.Ident) expr {
	switch o := c.lookup(x.Name).(type) {
	case *variable:
		if c.init != nil && c.init.v == o && !c.init.self {
			c.init.self = true
			c.warnf(x.NamePos, "%s is used in its own initializer, where OpenCL C leaves its value indeterminate (its scope begins before the initializer, C99 6.2.1); clconv gives it 0 there", x.Name)
		}
		return &varExpr{typed{o.t}, o}
	case *function:
		c.errorf(x.NamePos, "%s is a function; call it as %s(...)", x.Name, x.Name)
	}
	if isBuiltinName(x.Name) {
		c.errorf(x.NamePos, "%s is a function; call it as %s(x)", x.Name, x.Name)
	}
	if x.Name == syntax.ModeMacro {
		c.errorf(x.NamePos, "unknown identifier %q: it is defined only after #pragma OPENCL EXTENSION %s : enable", x.Name, syntax.SelectExt)
	}
	hint := ""
	if x.Macro == "" { // a name typed, not made by a macro
		hint = c.identHint(x.Name)
	}
	c.errorf(x.NamePos, "unknown identifier %q%s%s", x.Name, fromMacro(x), hint)
	return nil
}

var binaryOps = map[syntax.TokenKind]value.BinaryOp{
	syntax.ADD: value.Add, syntax.SUB: value.Sub, syntax.MUL: value.Mul, syntax.QUO: value.Div, syntax.REM: value.Rem,
	syntax.SHL: value.Shl, syntax.SHR: value.Shr, syntax.AND: value.And, syntax.OR: value.Or, syntax.XOR: value.Xor,
}

// compoundOps maps a compound assignment to its binary operator.
var compoundOps = map[syntax.TokenKind]syntax.TokenKind{
	syntax.ADD_ASSIGN: syntax.ADD, syntax.SUB_ASSIGN: syntax.SUB, syntax.MUL_ASSIGN: syntax.MUL, syntax.QUO_ASSIGN: syntax.QUO, syntax.REM_ASSIGN: syntax.REM,
	syntax.SHL_ASSIGN: syntax.SHL, syntax.SHR_ASSIGN: syntax.SHR, syntax.AND_ASSIGN: syntax.AND, syntax.OR_ASSIGN: syntax.OR, syntax.XOR_ASSIGN: syntax.XOR,
}

func (c *checker) unary(x *syntax.UnaryExpr) expr {
	e := c.expr(x.X)
	t := e.typ()
	if isVoid(t) {
		c.errorf(x.OpPos, "operator %v needs an operand, got a void expression", x.Op)
	}
	c.storageOnly(x.OpPos, "operator "+x.Op.String(), t)
	switch x.Op {
	case syntax.NOT:
		return &notExpr{typed{truthType(t)}, e}
	case syntax.TILDE:
		e = c.promote(e, x.OpPos)
		if !e.typ().Kind.IsInteger() {
			c.errorf(x.OpPos, "operator ~ needs an integer operand, got %v", e.typ())
		}
		return &unaryExpr{typed{e.typ()}, syntax.TILDE, e, x.OpPos}
	case syntax.SUB:
		e = c.promote(e, x.OpPos)
		return &unaryExpr{typed{e.typ()}, syntax.SUB, e, x.OpPos}
	}
	return c.promote(e, x.OpPos) // unary +
}

// lvalue returns x as something to assign to, or reports why it is not.
func (c *checker) lvalue(x expr, node syntax.Expr, what string) lvalue {
	switch v := x.(type) {
	case *varExpr:
		if v.v.isConst {
			c.errorf(node.Pos(), "cannot %s %s: it is const", what, v.v.name)
		}
		return v
	case *swizzleExpr:
		seen := 0
		for _, i := range v.idx {
			if seen&(1<<i) != 0 {
				c.errorf(node.Pos(), "cannot %s %s: it repeats a component", what, syntax.ExprString(node))
			}
			seen |= 1 << i
		}
		inner := node
		if sel, ok := node.(*syntax.SelectorExpr); ok {
			inner = unparen(sel.X)
		}
		c.lvalue(v.x, inner, what)
		return v
	}
	c.errorf(node.Pos(), "cannot %s %s: it is not a variable", what, syntax.ExprString(node))
	return nil
}

// unparen strips parentheses, for messages about lvalues.
func unparen(x syntax.Expr) syntax.Expr {
	for {
		p, ok := x.(*syntax.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

func (c *checker) incDec(x *syntax.IncDecExpr) expr {
	e := c.expr(x.X)
	t := e.typ()
	if isVoid(t) || t.Kind == cltype.Bool {
		c.errorf(x.OpPos, "operator %v needs an arithmetic variable, got %s", x.Op, typeString(t))
	}
	c.storageOnly(x.OpPos, "operator "+x.Op.String(), t)
	if t.Kind.IsFloat() {
		// OpenCL C 1.2 6.3.c and its footnote: a++ of 0x1.0p25f would give
		// 0x1.0p25f back, so the floating types have no ++ or --.
		one := "1.0f"
		switch t.Kind {
		case cltype.Double:
			one = "1.0"
		case cltype.Half:
			one = "1.0h"
		}
		op := "+="
		if x.Op == syntax.DEC {
			op = "-="
		}
		c.errs = append(c.errs, &Error{
			Pos: Pos(x.OpPos),
			Msg: fmt.Sprintf("operator %v is not supported for %v: OpenCL C has no ++ or -- for the built-in scalar and vector floating types (OpenCL C 1.2 6.3.c)", x.Op, t),
			Note: fmt.Sprintf("note: add or subtract 1 with an assignment: %s %s %s",
				syntax.ExprString(unparen(x.X)), op, one),
		})
		panic(checkBailout{})
	}
	if _, ok := e.(lvalue); !ok {
		c.errorf(x.OpPos, "operator %v needs a variable", x.Op)
	}
	lv := c.lvalue(e, unparen(x.X), "apply "+x.Op.String()+" to")
	// x ± 1 with 1 of x's element type, so that a vector's element type
	// does not change (a plain int 1 would outrank a char vector).
	one := value.FromInt64(t.Kind, 1)
	op := syntax.ADD
	if x.Op == syntax.DEC {
		op = syntax.SUB
	}
	next := c.binary(op, x.OpPos, x.Mode, e, &constExpr{typed{one.Type}, one})
	next = c.implicitConv(next, t, x.OpPos, x.Mode, "operator "+x.Op.String(), "")
	return &incDecExpr{typed{t}, lv, next, x.Postfix}
}

func (c *checker) assign(x *syntax.AssignExpr) expr {
	lhs := c.expr(x.X)
	if _, ok := lhs.(lvalue); !ok {
		c.errorf(x.OpPos, "cannot assign to %s: it is not a variable", syntax.ExprString(unparen(x.X)))
	}
	lv := c.lvalue(lhs, unparen(x.X), "assign to")
	t := lhs.typ()
	rhs := c.expr(x.Y)
	what := "assigning to " + syntax.ExprString(unparen(x.X))
	if x.Op != syntax.ASSIGN {
		rhs = c.binary(compoundOps[x.Op], x.OpPos, x.Mode, lhs, rhs)
		return &assignExpr{typed{t}, lv, c.implicitConv(rhs, t, x.OpPos, x.Mode, what, "")}
	}
	return &assignExpr{typed{t}, lv, c.implicitConv(rhs, t, x.Y.Pos(), x.Mode, what, "")}
}

// binary types a binary operator by OpenCL C's rules (6.3) and builds it.
func (c *checker) binary(op syntax.TokenKind, pos syntax.Pos, mode round.Mode, x, y expr) expr {
	xt, yt := x.typ(), y.typ()
	if isVoid(xt) || isVoid(yt) {
		c.errorf(pos, "invalid operands to %v: %s and %s", op, typeString(xt), typeString(yt))
	}
	c.storageOnly(pos, "operator "+op.String(), xt)
	c.storageOnly(pos, "operator "+op.String(), yt)
	switch op {
	case syntax.ADD, syntax.SUB, syntax.MUL, syntax.QUO:
		x, y, t := c.arithOperands(op, pos, mode, x, y)
		return &arithExpr{typed{t}, binaryOps[op], x, y, mode, pos}
	case syntax.REM, syntax.AND, syntax.OR, syntax.XOR:
		if px, py := promoteType(xt), promoteType(yt); px.Kind.IsFloat() || py.Kind.IsFloat() {
			c.errorf(pos, "invalid operands to %v: %v and %v (it needs integers)", op, px, py)
		}
		x, y, t := c.arithOperands(op, pos, mode, x, y)
		return &arithExpr{typed{t}, binaryOps[op], x, y, mode, pos}
	case syntax.SHL, syntax.SHR:
		x, y = c.promote(x, pos), c.promote(y, pos)
		xt, yt = x.typ(), y.typ()
		if xt.Kind.IsFloat() || yt.Kind.IsFloat() {
			c.errorf(pos, "invalid operands to %v: %v and %v (it needs integers)", op, xt, yt)
		}
		switch {
		case xt.N == 1 && yt.N > 1:
			c.errorf(pos, "the right operand of %v must be a scalar when the left one is (%v %v %v)", op, xt, op, yt)
		case xt.N > 1 && yt.N == 1:
			// The count is converted to the element type and widened.
			y = &castExpr{typed: typed{cltype.Vec(xt.Kind, xt.N)}, x: y, mode: mode, pos: pos, what: "conversion to"}
		case xt.N != yt.N:
			c.errorf(pos, "invalid operands to %v: %v and %v (vector operands must have the same number of elements)", op, xt, yt)
		}
		return &arithExpr{typed{xt}, binaryOps[op], x, y, mode, pos}
	case syntax.EQL, syntax.NEQ, syntax.LSS, syntax.GTR, syntax.LEQ, syntax.GEQ:
		x, y, t := c.arithOperands(op, pos, mode, x, y)
		return &compareExpr{typed{truthType(t)}, op, x, y}
	case syntax.LAND, syntax.LOR:
		if xt.N == 1 && yt.N == 1 {
			return &logicalExpr{typed{cltype.Scalar(cltype.Int)}, op, x, y}
		}
		x, y, t := c.arithOperands(op, pos, mode, x, y)
		return &logicalExpr{typed{truthType(t)}, op, x, y}
	}
	c.errorf(pos, "operator %v is not supported", op)
	return nil
}

// arithOperands converts the operands of an arithmetic, bitwise or
// comparison operator to one type: the usual arithmetic conversions for two
// scalars; for a vector and a scalar, the scalar converted to the element
// type and widened (if its rank allows); two vectors must have the same type.
func (c *checker) arithOperands(op syntax.TokenKind, pos syntax.Pos, mode round.Mode, x, y expr) (expr, expr, cltype.Type) {
	xt, yt := x.typ(), y.typ()
	switch {
	case xt.N == 1 && yt.N == 1:
		t := cltype.Scalar(commonKind(promoteKind(xt.Kind), promoteKind(yt.Kind)))
		return c.convertTo(x, t, pos, mode), c.convertTo(y, t, pos, mode), t
	case xt.N > 1 && yt.N > 1:
		if xt != yt {
			c.errorf(pos, "invalid operands to %v: %v and %v (vector operands must have the same type; convert one with convert_%v)", op, xt, yt, xt)
		}
		return x, y, xt
	case xt.N > 1:
		return x, c.widen(op, pos, mode, y, xt, xt, yt), xt
	}
	return c.widen(op, pos, mode, x, yt, xt, yt), y, yt
}

// widen converts the scalar s to the vector type vt for a binary operator
// whose operand types are a and b.
func (c *checker) widen(op syntax.TokenKind, pos syntax.Pos, mode round.Mode, s expr, vt, a, b cltype.Type) expr {
	if scalarRankTooHigh(s.typ().Kind, vt.Kind) {
		c.errorf(pos, "invalid operands to %v: %v and %v: the scalar's type has a greater rank than the vector's element type, which OpenCL C forbids; make the scalar a %v (a cast, or a constant with the right suffix)", op, a, b, vt.Kind)
	}
	return &castExpr{typed: typed{vt}, x: s, mode: mode, pos: pos, what: "conversion to"}
}

func (c *checker) convertTo(x expr, t cltype.Type, pos syntax.Pos, mode round.Mode) expr {
	if x.typ() == t {
		return x
	}
	return &castExpr{typed: typed{t}, x: x, mode: mode, pos: pos, what: "conversion to"}
}

// cond types c ? x : y (OpenCL C 6.3.i).
func (c *checker) cond(x *syntax.CondExpr) expr {
	ce := c.expr(x.Cond)
	ct := ce.typ()
	if isVoid(ct) {
		c.errorf(x.Cond.Pos(), "the condition of ?: has type void")
	}
	c.storageOnly(x.Cond.Pos(), "the condition of ?:", ct)
	if ct.N == 1 && ct.Kind.IsFloat() {
		// OpenCL C 1.2 6.3.i: "exp1, which can be a scalar or vector
		// result except float"; Clang rejects every floating type.
		c.errorf(x.Cond.Pos(), "the condition of ?: cannot be a %v: OpenCL C takes an integer scalar or vector there (OpenCL C 1.2 6.3.i); compare it with 0 (x != 0)", ct)
	}
	a, b := c.expr(x.X), c.expr(x.Y)
	at, bt := a.typ(), b.typ()
	var t cltype.Type
	switch {
	case (at.Kind.IsSmallFloat() || bt.Kind.IsSmallFloat()) && at != bt:
		// No arithmetic conversions between the storage formats and
		// others: the operands of ?: must then have one type.
		c.errorf(x.Question, "incompatible operand types %s and %s in ?: (%s is a storage format; convert the other operand with convert_%s)",
			typeString(at), typeString(bt), smallOf(at, bt), smallOf(at, bt))
	case isVoid(at) && isVoid(bt) && ct.N == 1:
		return &condExpr{typed{t}, ce, a, b}
	case isVoid(at) || isVoid(bt):
		c.errorf(x.Question, "incompatible operand types %s and %s in ?:", typeString(at), typeString(bt))
	case at.N == 1 && bt.N == 1:
		a, b, t = c.arithOperands(syntax.QUESTION, x.Question, x.Mode, a, b)
	case at == bt:
		t = at
	case at.N > 1 && bt.N > 1:
		c.errorf(x.Question, "incompatible operand types %v and %v in ?: (vector operands must have the same type)", at, bt)
	default:
		a, b, t = c.arithOperands(syntax.QUESTION, x.Question, x.Mode, a, b)
	}
	if ct.N == 1 {
		return &condExpr{typed{t}, ce, a, b}
	}
	if !ct.Kind.IsInteger() {
		c.errorf(x.Cond.Pos(), "a vector condition of ?: must have integer elements, not %v", ct)
	}
	if t.N == 1 {
		t = cltype.Vec(t.Kind, ct.N)
		a, b = c.convertTo(a, t, x.Question, x.Mode), c.convertTo(b, t, x.Question, x.Mode)
	}
	if t.N != ct.N {
		c.errorf(x.Question, "vector condition type %v and result type %v do not have the same number of elements", ct, t)
	}
	if t.Kind.Size() != ct.Kind.Size() {
		c.errorf(x.Question, "vector condition type %v and result type %v do not have elements of the same size", ct, t)
	}
	return &condExpr{typed{t}, ce, a, b}
}

func (c *checker) cast(x *syntax.CastExpr) expr {
	e := c.expr(x.X)
	et := e.typ()
	if x.Type.IsVoid() {
		return &commaExpr{typed{}, e, &constExpr{}}
	}
	t := x.Type.Type
	switch {
	case isVoid(et):
		c.errorf(x.Lparen, "cannot cast a void expression to %v", t)
	case et.N > 1 && et == t:
		return e
	case et.N > 1 && t.N == 1:
		c.errorf(x.Lparen, "cannot cast vector type %v to scalar type %v", et, t)
	case et.N > 1:
		c.errorf(x.Lparen, "cannot cast %v to %v: OpenCL C has no casts between vector types; use convert_%v() or as_%v()", et, t, t, t)
	}
	return &castExpr{typed: typed{t}, x: e, mode: x.Mode, pos: x.Lparen, what: "cast to"}
}

func (c *checker) vectorLit(x *syntax.VectorLit) expr {
	t := x.Type.Type
	lit := &vecLitExpr{typed: typed{t}}
	n := 0
	for _, el := range x.Elems {
		e := c.expr(el)
		et := e.typ()
		switch {
		case isVoid(et):
			c.errorf(el.Pos(), "element of type void in a %v literal", t)
		case et.N == 1 && len(x.Elems) == 1:
			return &castExpr{typed: typed{t}, x: e, mode: x.Mode, pos: el.Pos(), what: "cast to"}
		case et.N == 1:
			e = &castExpr{typed: typed{cltype.Scalar(t.Kind)}, x: e, mode: x.Mode, pos: el.Pos(), what: "cast to"}
		case et.Kind != t.Kind:
			c.errorf(el.Pos(), "element of type %v in a %v literal: vector elements must have element type %v (use convert_%v%d)", et, t, t.Kind, t.Kind, et.N)
		}
		if n+et.N > t.N {
			c.errorf(x.Lparen, "too many elements in the %v literal: more than %d", t, t.N)
		}
		n += et.N
		lit.parts = append(lit.parts, e)
	}
	if n != t.N {
		c.errorf(x.Lparen, "too few elements in the %v literal: %d, want %d (or one scalar to broadcast)", t, n, t.N)
	}
	return lit
}

// selector types a swizzle (OpenCL C 6.1.7).
func (c *checker) selector(x *syntax.SelectorExpr) expr {
	base := c.expr(x.X)
	bt := base.typ()
	if isVoid(bt) || bt.N == 1 {
		c.errorf(x.Sel.NamePos, "cannot select .%s from %s: only vectors have components", x.Sel.Name, describeType(bt))
	}
	idx, err := swizzle(x.Sel.Name, bt.N)
	if err != "" {
		c.errorf(x.Sel.NamePos, "invalid component selection .%s on %v: %s", x.Sel.Name, bt, err)
	}
	t := cltype.Scalar(bt.Kind)
	if len(idx) > 1 {
		t = cltype.Vec(bt.Kind, len(idx))
	}
	return &swizzleExpr{typed{t}, base, idx}
}

func describeType(t cltype.Type) string {
	if isVoid(t) {
		return "a void expression"
	}
	return "a scalar of type " + t.String()
}

// swizzle returns the storage lanes a component selection of an n-element
// vector names, or why it is invalid.
func swizzle(sel string, n int) ([]int, string) {
	storage := n
	if n == 3 {
		storage = 4
	}
	var idx []int
	switch sel {
	case "lo", "hi", "even", "odd":
		// A 3-vector acts as a 4-vector whose w is undefined (clconv: the
		// hidden fourth storage lane, normally 0).
		half := storage / 2
		for i := range half {
			switch sel {
			case "lo":
				idx = append(idx, i)
			case "hi":
				idx = append(idx, half+i)
			case "even":
				idx = append(idx, 2*i)
			case "odd":
				idx = append(idx, 2*i+1)
			}
		}
		return idx, ""
	}
	if sel[0] == 's' || sel[0] == 'S' {
		if len(sel) == 1 {
			return nil, "no element numbers after s"
		}
		for _, ch := range []byte(sel[1:]) {
			u, err := strconv.ParseUint(string(ch), 16, 8)
			if err != nil {
				return nil, fmt.Sprintf("%q is not an element number (0-9, a-f)", ch)
			}
			i := int(u)
			if i >= n {
				return nil, fmt.Sprintf("element %c is past the end of a %d-element vector", ch, n)
			}
			idx = append(idx, i)
		}
	} else {
		sets := []string{"xyzw", "rgba"}
		set := ""
		for _, s := range sets {
			if strings.IndexByte(s, sel[0]) >= 0 {
				set = s
			}
		}
		if set == "" {
			return nil, "components are x, y, z, w (or r, g, b, a), s0 ... sF, lo, hi, even and odd"
		}
		if n > 4 {
			return nil, "vectors of 8 and 16 elements are selected with .s0 ... .sF"
		}
		for _, ch := range []byte(sel) {
			i := strings.IndexByte(set, ch)
			if i < 0 {
				return nil, "component names from different sets cannot be mixed"
			}
			if i >= n {
				return nil, fmt.Sprintf("%c is past the end of a %d-element vector", ch, n)
			}
			idx = append(idx, i)
		}
	}
	if !cltype.ValidWidth(len(idx)) {
		return nil, fmt.Sprintf("%d components make no vector type (2, 3, 4, 8 or 16)", len(idx))
	}
	return idx, ""
}

func (c *checker) sizeof(x *syntax.SizeofExpr) expr {
	var t cltype.Type
	if x.Type != nil {
		t = x.Type.Type
		if x.Type.IsVoid() {
			c.errorf(x.Type.NamePos, "%s(void) is not allowed", x.Op)
		}
	} else {
		t = c.expr(x.X).typ()
		if isVoid(t) {
			c.errorf(x.OpPos, "%s of a void expression", x.Op)
		}
	}
	if x.Op == "vec_step" {
		// OpenCL C 6.12.5.1 / 6.3: vec_step of a 3-vector is 4.
		return &constExpr{typed{cltype.Scalar(cltype.Int)}, value.FromInt64(cltype.Int, int64(t.Storage()))}
	}
	// size_t is 64 bits on the devices clconv models; sizeof gives ulong.
	return &constExpr{typed{cltype.Scalar(cltype.Ulong)}, value.FromUint64(cltype.Ulong, uint64(t.Size()))}
}

func (c *checker) call(x *syntax.CallExpr) expr {
	name := x.Fun.Name
	switch o := c.lookup(name).(type) {
	case *variable:
		c.errorf(x.Fun.NamePos, "called object %s is not a function (it is a %v variable)", name, o.t)
	case *function:
		return c.userCall(o, x)
	}
	switch {
	case strings.HasPrefix(name, "convert_"):
		op, err := convert.ParseName(name)
		if err != nil {
			c.errorf(x.Fun.NamePos, "%v%s", err, conversionHint(name))
		}
		arg, pos := c.oneArg(x)
		// The library's own checks (element counts, bool) on a value of
		// the operand's type.
		if _, _, err := value.ConvertImpl(value.Zero(arg.typ()), op, round.RTE); err != nil {
			c.errorf(pos, "%v", err)
		}
		return &convertExpr{typed{op.Dst}, arg, op, x.Mode, x.Fun.NamePos}
	case strings.HasPrefix(name, "as_"):
		t, err := convert.ParseAsName(name)
		if err != nil {
			c.errorf(x.Fun.NamePos, "%v%s", err, conversionHint(name))
		}
		arg, pos := c.oneArg(x)
		if _, err := value.As(value.Zero(arg.typ()), t); err != nil {
			c.errorf(pos, "%v", err)
		}
		return &asExpr{typed{t}, arg, pos}
	case name == "select":
		return c.selectCall(x)
	case name == "any" || name == "all":
		arg, pos := c.oneArg(x)
		t := arg.typ()
		if !t.Kind.IsInteger() || !t.Kind.IsSigned() {
			c.errorf(pos, "%s needs a signed integer argument (char, short, int, long or a vector of them), got %v", name, t)
		}
		return &anyAllExpr{typed{cltype.Scalar(cltype.Int)}, name == "all", arg}
	}
	e := errorAt(x.Fun.NamePos, fmt.Sprintf("call to undeclared function %q%s%s", name, fromMacro(x.Fun), c.callHint(x.Fun)))
	if i := strings.Index(name, syntax.ModeMacro); i >= 0 {
		prefix := strings.TrimSuffix(name[:i], "_") + "_"
		e.Note = "note: ## pasted the name __ROUNDING_MODE__, not the rounding mode (the operands of ## are not macro-expanded)\n" +
			strings.TrimPrefix(syntax.RoundingModeNote(x.Fun.Macro, prefix), "note: ")
		if x.Fun.Macro == "" {
			e.Note = strings.ReplaceAll(e.Note, "#define  XCAT", "#define foo XCAT")
		}
	}
	c.errs = append(c.errs, e)
	panic(checkBailout{})
}

// oneArg checks and returns the single argument of a built-in.
func (c *checker) oneArg(x *syntax.CallExpr) (expr, syntax.Pos) {
	if len(x.Args) != 1 {
		c.errorf(x.Lparen, "%s takes 1 argument, got %d", x.Fun.Name, len(x.Args))
	}
	e := c.expr(x.Args[0])
	if isVoid(e.typ()) {
		c.errorf(x.Args[0].Pos(), "%s: the argument has type void", x.Fun.Name)
	}
	return e, x.Args[0].Pos()
}

// selectCall checks the built-in select(a, b, c): a and b of one type, c an
// integer of the same element count and element size.
func (c *checker) selectCall(x *syntax.CallExpr) expr {
	if len(x.Args) != 3 {
		c.errorf(x.Lparen, "select takes 3 arguments, got %d", len(x.Args))
	}
	var e [3]expr
	for i, a := range x.Args {
		e[i] = c.expr(a)
		if isVoid(e[i].typ()) {
			c.errorf(a.Pos(), "select: argument %d has type void", i+1)
		}
	}
	at, bt, ct := e[0].typ(), e[1].typ(), e[2].typ()
	switch {
	case at != bt:
		c.errorf(x.Args[1].Pos(), "select: the first two arguments must have the same type, got %v and %v", at, bt)
	case at.Kind == cltype.Bool:
		c.errorf(x.Args[0].Pos(), "select does not take bool")
	case !ct.Kind.IsInteger() || ct.N != at.N || ct.Kind.Size() != at.Kind.Size():
		c.errorf(x.Args[2].Pos(), "select: the third argument must be an integer type with the elements and element size of %v, got %v", at, ct)
	}
	return &selectExpr{typed{at}, e[0], e[1], e[2]}
}

func (c *checker) userCall(fn *function, x *syntax.CallExpr) expr {
	if len(x.Args) != len(fn.params) {
		c.errorf(x.Lparen, "%s takes %d argument%s, got %d", fn.name, len(fn.params), plural(len(fn.params)), len(x.Args))
	}
	call := &callExpr{typed: typed{fn.result}, fn: fn, pos: x.Fun.NamePos}
	for i, a := range x.Args {
		e := c.expr(a)
		what := fmt.Sprintf("argument %d of %s", i+1, fn.name)
		call.args = append(call.args, c.implicitConv(e, fn.params[i].t, a.Pos(), x.Mode, what, ""))
	}
	if _, ok := c.called[fn]; !ok {
		c.called[fn] = x.Fun.NamePos
	}
	return call
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// storageOnly reports an error at pos when t is a small floating format
// (bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0), which takes part in no
// operator: clconv treats them as storage formats, as SPV_KHR_bfloat16 and
// SPV_EXT_float8 do.
func (c *checker) storageOnly(pos syntax.Pos, what string, t cltype.Type) {
	if t.Kind.IsSmallFloat() {
		c.errorf(pos, "%s is not defined on %v: %v is a storage format (docs/FORMATS.md); convert it with convert_float%s first", what, t, t.Kind, widthSuffix(t.N))
	}
}

// smallOf returns the kind of whichever of a and b is a small format.
func smallOf(a, b cltype.Type) cltype.Kind {
	if a.Kind.IsSmallFloat() {
		return a.Kind
	}
	return b.Kind
}

// widthSuffix is the vector width as a type name's suffix ("" for a scalar).
func widthSuffix(n int) string {
	if n <= 1 {
		return ""
	}
	return strconv.Itoa(n)
}
