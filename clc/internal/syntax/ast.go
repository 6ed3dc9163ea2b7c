package syntax

import (
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// Node is a node of the syntax tree.
type Node interface {
	Pos() Pos // the position of the node's first token
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Nodes that round carry the Mode of their operator's token: the rounding
// mode #pragma OPENCL SELECT_ROUNDING_MODE put in force there.

// BasicLit is an integer, floating or character constant, already parsed.
type BasicLit struct {
	ValuePos Pos
	Text     string      // the source spelling: "2.5f", "0x1fu", "'a'"
	Value    value.Value // its value and type
}

// StringLit is a string literal. OpenCL C without printf has no use for
// one; the checker rejects it.
type StringLit struct {
	ValuePos Pos
	Text     string
}

// Ident is an identifier used as an expression or a function name.
type Ident struct {
	NamePos Pos
	Name    string
	Macro   string // the macro whose expansion produced it, if any
}

// ParenExpr is a parenthesized expression.
type ParenExpr struct {
	Lparen Pos
	X      Expr
	Rparen Pos
}

// UnaryExpr is a prefix operator applied to X: - + ~ !.
type UnaryExpr struct {
	OpPos Pos
	Op    TokenKind
	X     Expr
	Mode  round.Mode
}

// IncDecExpr is ++X, --X, X++ or X--.
type IncDecExpr struct {
	X       Expr
	OpPos   Pos
	Op      TokenKind // INC or DEC
	Postfix bool
	Mode    round.Mode
}

// BinaryExpr is X Op Y for C's binary operators, the comma operator
// included.
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    TokenKind
	Y     Expr
	Mode  round.Mode
}

// AssignExpr is X = Y or a compound assignment X op= Y.
type AssignExpr struct {
	X     Expr
	OpPos Pos
	Op    TokenKind // ASSIGN, ADD_ASSIGN, ...
	Y     Expr
	Mode  round.Mode
}

// CondExpr is Cond ? X : Y.
type CondExpr struct {
	Cond     Expr
	Question Pos
	X        Expr
	Colon    Pos
	Y        Expr
	Mode     round.Mode
}

// TypeName is a type as written in a cast, vector literal or declaration:
// "float4", "ulong", "unsigned int", "void".
type TypeName struct {
	NamePos Pos
	Text    string      // as written, words separated by one space
	Type    cltype.Type // the zero Type for void
}

// IsVoid reports whether the type is void.
func (t *TypeName) IsVoid() bool { return t.Type.Kind == cltype.Invalid }

// CastExpr is a C cast, (Type)X. To a vector type it broadcasts a scalar.
type CastExpr struct {
	Lparen Pos
	Type   *TypeName
	X      Expr
	Mode   round.Mode
}

// VectorLit is a vector literal (Type)(Elems...): a single scalar broadcasts,
// otherwise the scalars and vectors listed must add up to Type's element count.
type VectorLit struct {
	Lparen Pos // the '(' before the type name
	Type   *TypeName
	Elems  []Expr
	Rparen Pos
	Mode   round.Mode
}

// CallExpr is a function call, Fun(Args...).
type CallExpr struct {
	Fun    *Ident
	Lparen Pos
	Args   []Expr
	Rparen Pos
	Mode   round.Mode
}

// SelectorExpr is a vector component selection, X.Sel: a swizzle such as
// .xyzw, .s01, .lo, .hi, .even or .odd.
type SelectorExpr struct {
	X   Expr
	Dot Pos
	Sel *Ident
}

// SizeofExpr is sizeof(Type), sizeof X, vec_step(Type) or vec_step(X): one
// of Type and X is set.
type SizeofExpr struct {
	OpPos Pos
	Op    string // "sizeof" or "vec_step"
	Type  *TypeName
	X     Expr
}

// Pos implements Node.
func (x *BasicLit) Pos() Pos { return x.ValuePos }

// Pos implements Node.
func (x *StringLit) Pos() Pos { return x.ValuePos }

// Pos implements Node.
func (x *Ident) Pos() Pos { return x.NamePos }

// Pos implements Node.
func (x *ParenExpr) Pos() Pos { return x.Lparen }

// Pos implements Node.
func (x *UnaryExpr) Pos() Pos { return x.OpPos }

// Pos implements Node.
func (x *IncDecExpr) Pos() Pos {
	if x.Postfix {
		return x.X.Pos()
	}
	return x.OpPos
}

// Pos implements Node.
func (x *BinaryExpr) Pos() Pos { return x.X.Pos() }

// Pos implements Node.
func (x *AssignExpr) Pos() Pos { return x.X.Pos() }

// Pos implements Node.
func (x *CondExpr) Pos() Pos { return x.Cond.Pos() }

// Pos implements Node.
func (x *TypeName) Pos() Pos { return x.NamePos }

// Pos implements Node.
func (x *CastExpr) Pos() Pos { return x.Lparen }

// Pos implements Node.
func (x *VectorLit) Pos() Pos { return x.Lparen }

// Pos implements Node.
func (x *CallExpr) Pos() Pos { return x.Fun.NamePos }

// Pos implements Node.
func (x *SelectorExpr) Pos() Pos { return x.X.Pos() }

// Pos implements Node.
func (x *SizeofExpr) Pos() Pos { return x.OpPos }

func (*BasicLit) exprNode()     {}
func (*StringLit) exprNode()    {}
func (*Ident) exprNode()        {}
func (*ParenExpr) exprNode()    {}
func (*UnaryExpr) exprNode()    {}
func (*IncDecExpr) exprNode()   {}
func (*BinaryExpr) exprNode()   {}
func (*AssignExpr) exprNode()   {}
func (*CondExpr) exprNode()     {}
func (*CastExpr) exprNode()     {}
func (*VectorLit) exprNode()    {}
func (*CallExpr) exprNode()     {}
func (*SelectorExpr) exprNode() {}
func (*SizeofExpr) exprNode()   {}

// VarSpec is one declarator of a declaration: a name and its initializer.
type VarSpec struct {
	Name   *Ident
	Assign Pos  // of the '=', if Init is set
	Init   Expr // nil when uninitialized
	Mode   round.Mode
}

// DeclStmt declares variables of one type: "const float4 f = x, g;".
type DeclStmt struct {
	DeclPos Pos // of the first specifier
	Const   bool
	Type    *TypeName
	Specs   []*VarSpec
	Semi    Pos
}

// ExprStmt is an expression used as a statement. NoSemi is set on a final
// statement the REPL accepted without its ';'.
type ExprStmt struct {
	X      Expr
	NoSemi bool
}

// BlockStmt is a compound statement, { List }.
type BlockStmt struct {
	Lbrace Pos
	List   []Stmt
	Rbrace Pos
}

// IfStmt is if (Cond) Then [else Else].
type IfStmt struct {
	If   Pos
	Cond Expr
	Then Stmt
	Else Stmt // or nil
}

// ForStmt is for (Init; Cond; Post) Body; any of Init, Cond and Post may
// be nil.
type ForStmt struct {
	For  Pos
	Init Stmt // a *DeclStmt or an *ExprStmt
	Cond Expr
	Post Expr
	Body Stmt
}

// WhileStmt is while (Cond) Body.
type WhileStmt struct {
	While Pos
	Cond  Expr
	Body  Stmt
}

// DoStmt is do Body while (Cond);.
type DoStmt struct {
	Do   Pos
	Body Stmt
	Cond Expr
}

// BranchStmt is break or continue.
type BranchStmt struct {
	TokPos Pos
	Tok    string // "break" or "continue"
}

// ReturnStmt is return [Result];.
type ReturnStmt struct {
	Return Pos
	Result Expr // or nil
	Mode   round.Mode
}

// EmptyStmt is a lone ';'.
type EmptyStmt struct {
	Semi Pos
}

// Param is a function parameter.
type Param struct {
	Const bool
	Type  *TypeName
	Name  *Ident // nil in a prototype that leaves it out
}

// FuncDecl is a function definition (Body set) or prototype.
type FuncDecl struct {
	Result *TypeName
	Name   *Ident
	Lparen Pos
	Params []*Param
	Body   *BlockStmt // nil for a prototype
}

// File is a parsed source: statements and function declarations at top
// level, in order (each item is a Stmt or a *FuncDecl).
type File struct {
	Name  string
	Items []Node
}

// Pos implements Node.
func (s *DeclStmt) Pos() Pos { return s.DeclPos }

// Pos implements Node.
func (s *ExprStmt) Pos() Pos { return s.X.Pos() }

// Pos implements Node.
func (s *BlockStmt) Pos() Pos { return s.Lbrace }

// Pos implements Node.
func (s *IfStmt) Pos() Pos { return s.If }

// Pos implements Node.
func (s *ForStmt) Pos() Pos { return s.For }

// Pos implements Node.
func (s *WhileStmt) Pos() Pos { return s.While }

// Pos implements Node.
func (s *DoStmt) Pos() Pos { return s.Do }

// Pos implements Node.
func (s *BranchStmt) Pos() Pos { return s.TokPos }

// Pos implements Node.
func (s *ReturnStmt) Pos() Pos { return s.Return }

// Pos implements Node.
func (s *EmptyStmt) Pos() Pos { return s.Semi }

// Pos implements Node.
func (d *FuncDecl) Pos() Pos { return d.Result.NamePos }

func (*DeclStmt) stmtNode()   {}
func (*ExprStmt) stmtNode()   {}
func (*BlockStmt) stmtNode()  {}
func (*IfStmt) stmtNode()     {}
func (*ForStmt) stmtNode()    {}
func (*WhileStmt) stmtNode()  {}
func (*DoStmt) stmtNode()     {}
func (*BranchStmt) stmtNode() {}
func (*ReturnStmt) stmtNode() {}
func (*EmptyStmt) stmtNode()  {}

// ExprString returns x in source form with canonical spacing, fully
// parenthesized where the tree has a ParenExpr; it is for messages and tests.
func ExprString(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case *BasicLit:
		b.WriteString(x.Text)
	case *StringLit:
		b.WriteString(x.Text)
	case *Ident:
		b.WriteString(x.Name)
	case *ParenExpr:
		b.WriteByte('(')
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *UnaryExpr:
		b.WriteString(x.Op.String())
		writeExpr(b, x.X)
	case *IncDecExpr:
		if !x.Postfix {
			b.WriteString(x.Op.String())
		}
		writeExpr(b, x.X)
		if x.Postfix {
			b.WriteString(x.Op.String())
		}
	case *BinaryExpr:
		writeExpr(b, x.X)
		if x.Op != COMMA {
			b.WriteByte(' ')
		}
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		writeExpr(b, x.Y)
	case *AssignExpr:
		writeExpr(b, x.X)
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
		writeExpr(b, x.Y)
	case *CondExpr:
		writeExpr(b, x.Cond)
		b.WriteString(" ? ")
		writeExpr(b, x.X)
		b.WriteString(" : ")
		writeExpr(b, x.Y)
	case *CastExpr:
		b.WriteByte('(')
		b.WriteString(x.Type.Text)
		b.WriteByte(')')
		writeExpr(b, x.X)
	case *VectorLit:
		b.WriteByte('(')
		b.WriteString(x.Type.Text)
		b.WriteString(")(")
		writeList(b, x.Elems)
		b.WriteByte(')')
	case *CallExpr:
		b.WriteString(x.Fun.Name)
		b.WriteByte('(')
		writeList(b, x.Args)
		b.WriteByte(')')
	case *SelectorExpr:
		writeExpr(b, x.X)
		b.WriteByte('.')
		b.WriteString(x.Sel.Name)
	case *SizeofExpr:
		b.WriteString(x.Op)
		b.WriteByte('(')
		if x.Type != nil {
			b.WriteString(x.Type.Text)
		} else {
			writeExpr(b, x.X)
		}
		b.WriteByte(')')
	}
}

func writeList(b *strings.Builder, xs []Expr) {
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x)
	}
}
