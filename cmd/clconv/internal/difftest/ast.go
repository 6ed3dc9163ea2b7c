package difftest

import (
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// The generator builds programs as the typed tree of this file and prints
// them twice (print.go): as the snippet clconv runs and as an OpenCL C
// kernel. Every implicit conversion OpenCL C makes is a node (Imp), so that
// the kernel's copy can spell out the rounding mode of a pragma block, and
// every node that could compute something undefined has a Fix level that
// ub.go raises until the interpreter reports nothing undefined.

// Type is an OpenCL C scalar or vector type.
type Type = cltype.Type

// Program is a generated program: functions, then the top-level statements
// that clconv runs in order and the kernel runs as its body.
type Program struct {
	Funcs []*Func
	Body  []Stmt
}

// Globals returns the variables that the top-level statements declare, in
// order: what clconv run prints and what the kernel stores.
func (p *Program) Globals() []*Var {
	var out []*Var
	for _, s := range p.Body {
		if d, ok := s.(*Decl); ok {
			out = append(out, d.V)
		}
	}
	return out
}

// Var is a variable: a top-level one, a local, a parameter or a loop
// counter.
type Var struct {
	Name  string
	T     Type
	Const bool
}

// Func is a user function. Its body never names a top-level variable (the
// kernel's copy has them as the kernel's locals).
type Func struct {
	Name   string
	Result Type
	Params []*Var
	Body   []Stmt // ends with a Return
}

// Expr is an expression; Type is its OpenCL C type.
type Expr interface{ Type() Type }

// Lit is a scalar constant of type T with the bit pattern Bits; Style picks
// one of the spellings print.go knows for it (decimal, hex, suffixes).
type Lit struct {
	T     Type
	Bits  uint64
	Style int
}

// Ref names a variable.
type Ref struct{ V *Var }

// Swz selects components: X.Sel.
type Swz struct {
	X   Expr
	Sel string
	T   Type
	Idx []int // the lanes of X it names
}

// Unary is -x, ~x or !x (+x is not generated). Fix 1 turns an overflowing
// -x into ~x.
type Unary struct {
	Op  string
	X   Expr
	T   Type
	Fix int
}

// Bin is a binary operator on operands already converted (Imp) as OpenCL C
// converts them. Fix 1 guards a divisor (y | 1); Fix 2 replaces an
// operator whose result is undefined by ^.
type Bin struct {
	Op   string
	X, Y Expr
	T    Type
	Fix  int
}

// Cond is c ? x : y.
type Cond struct {
	C, X, Y Expr
	T       Type
}

// Cast is (T)x: a scalar converted, or converted and widened to a vector.
// Sat (set by ub.go) writes a float->integer cast as convert_T_sat.
type Cast struct {
	T   Type
	X   Expr
	Sat bool
}

// Conv is a convert_ call.
type Conv struct {
	Op convert.Op
	X  Expr
}

// As is an as_ call.
type As struct {
	T Type
	X Expr
}

// VecLit is (T)(e, ...): scalar elements are Imp to the element kind.
type VecLit struct {
	T     Type
	Elems []Expr
}

// Call calls a user function; the arguments are Imp to the parameter types.
type Call struct {
	F    *Func
	Args []Expr
}

// Select is select(a, b, c).
type Select struct{ A, B, C Expr }

// AnyAll is any(x) or all(x).
type AnyAll struct {
	All bool
	X   Expr
}

// Imp is an implicit conversion of a scalar X to T (T's element kind, then
// widened when T is a vector). clconv's copy shows only X. Sat (set by
// ub.go) writes a float->integer conversion as convert_<kind>_sat.
type Imp struct {
	T   Type
	X   Expr
	Sat bool
}

// Type implements Expr.
func (x *Lit) Type() Type { return x.T }

// Type implements Expr.
func (x *Ref) Type() Type { return x.V.T }

// Type implements Expr.
func (x *Swz) Type() Type { return x.T }

// Type implements Expr.
func (x *Unary) Type() Type { return x.T }

// Type implements Expr.
func (x *Bin) Type() Type { return x.T }

// Type implements Expr.
func (x *Cond) Type() Type { return x.T }

// Type implements Expr.
func (x *Cast) Type() Type { return x.T }

// Type implements Expr.
func (x *Conv) Type() Type { return x.Op.Dst }

// Type implements Expr.
func (x *As) Type() Type { return x.T }

// Type implements Expr.
func (x *VecLit) Type() Type { return x.T }

// Type implements Expr.
func (x *Call) Type() Type { return x.F.Result }

// Type implements Expr.
func (x *Select) Type() Type { return x.A.Type() }

// Type implements Expr.
func (x *AnyAll) Type() Type { return cltype.Scalar(cltype.Int) }

// Type implements Expr.
func (x *Imp) Type() Type { return x.T }

// Stmt is a statement.
type Stmt interface{ stmt() }

// Decl declares V, initialized with Init (Imp to V.T where it differs).
type Decl struct {
	V    *Var
	Init Expr
}

// Assign is LHS Op RHS with Op "=" or a compound operator ("+=").
// For "=", RHS is Imp to LHS's type. For a compound operator, RHS is the
// right operand as written and Conv records the arithmetic's type: OpenCL C
// computes LHS op RHS in it (Imp on either side as for Bin) and converts
// back. Fix 1 guards a divisor; Fix 2 turns an undefined op= into ^=; Sat
// writes a float->integer conversion back as LHS = convert_T_sat(LHS op RHS).
type Assign struct {
	LHS Expr // a Ref or a Swz chain on one
	Op  string
	RHS Expr
	Fix int
	Sat bool
}

// IncDec is LHS++ (Op "++", Post) and its three siblings, on an integer
// lvalue. Fix 1 turns an overflowing one into LHS ^= 1.
type IncDec struct {
	LHS  Expr
	Op   string
	Post bool
	Fix  int
}

// If is if (Cond) Then else Else (Else may be nil).
type If struct {
	Cond       Expr
	Then, Else *Block
}

// Loop is a loop of at most N trips on its own counter V (an int that the
// body never assigns): for (int V = 0; V < N; V++), or while and do-while
// with V declared before the loop and incremented first in the body, so that
// continue cannot skip it.
type Loop struct {
	Kind string // "for", "while", "do"
	V    *Var
	N    int
	Body *Block
}

// Jump is if (Cond) break; or continue; (Cond nil: unconditional).
type Jump struct {
	Cond  Expr
	Break bool
}

// Block is { ... }; with Pragma set it opens with
// #pragma OPENCL SELECT_ROUNDING_MODE Mode, which lasts to its end.
type Block struct {
	Pragma bool
	Mode   round.Mode
	Stmts  []Stmt
}

// Return returns X (Imp to the function's result type).
type Return struct{ X Expr }

func (*Decl) stmt()   {}
func (*Assign) stmt() {}
func (*IncDec) stmt() {}
func (*If) stmt()     {}
func (*Loop) stmt()   {}
func (*Jump) stmt()   {}
func (*Block) stmt()  {}
func (*Return) stmt() {}

// The type model the generator builds programs with: OpenCL C's rules (6.2,
// 6.3) as clconv's checker applies them. Every generated program is checked
// by clconv (the tests hold all of them to compile), so a rule modelled
// wrongly here shows as a failing test, not as a false difference.

func scalar(k cltype.Kind) Type { return cltype.Scalar(k) }

// promote applies the integer promotions to a scalar kind.
func promote(k cltype.Kind) cltype.Kind {
	switch k {
	case cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort:
		return cltype.Int
	}
	return k
}

// common is the usual arithmetic conversions' kind for two promoted kinds.
func common(a, b cltype.Kind) cltype.Kind {
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
	return s
}

// widens reports whether a scalar of kind s may be widened to a vector of
// element kind e in a binary operator: its rank may not exceed e's, an
// unsigned kind outranking the signed kind of its size (Clang's order).
func widens(s, e cltype.Kind) bool {
	switch {
	case e.IsFloat() && s.IsFloat():
		return s.Size() <= e.Size()
	case e.IsFloat():
		return true
	case s.IsFloat():
		return false
	case s.Size() == e.Size():
		return s.IsSigned() || !e.IsSigned()
	}
	return s.Size() < e.Size()
}

// signedOfSize is the signed integer kind of a byte size.
func signedOfSize(size int) cltype.Kind {
	switch size {
	case 1:
		return cltype.Char
	case 2:
		return cltype.Short
	case 8:
		return cltype.Long
	}
	return cltype.Int
}

// truth is the type of a comparison's or a logical operator's result on
// operands of type t.
func truth(t Type) Type {
	if t.N == 1 {
		return scalar(cltype.Int)
	}
	return cltype.Vec(signedOfSize(t.Kind.Size()), t.N)
}
