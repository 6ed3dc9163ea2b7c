package clc

import (
	"strings"

	"github.com/clconv/clconv/cltype"
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

// BasicLit is an integer or floating constant, already parsed.
type BasicLit struct {
	ValuePos Pos
	Text     string      // the source spelling: "2.5f", "0x1fu"
	Value    value.Value // its value and type
}

// Ident is an identifier used as an expression or a function name.
type Ident struct {
	NamePos Pos
	Name    string
}

// ParenExpr is a parenthesized expression.
type ParenExpr struct {
	Lparen Pos
	X      Expr
	Rparen Pos
}

// UnaryExpr is a prefix operator applied to X: - + ~ ! ++ --.
type UnaryExpr struct {
	OpPos Pos
	Op    TokenKind
	X     Expr
}

// BinaryExpr is X Op Y for any of C's binary operators (the evaluator may
// not implement them all yet).
type BinaryExpr struct {
	X     Expr
	OpPos Pos
	Op    TokenKind
	Y     Expr
}

// TypeName is a type as written in a cast or vector literal: "float4",
// "ulong", "unsigned int".
type TypeName struct {
	NamePos Pos
	Text    string // as written, words separated by one space
	Type    cltype.Type
}

// CastExpr is a C cast, (Type)X. To a vector type it broadcasts a scalar.
type CastExpr struct {
	Lparen Pos
	Type   *TypeName
	X      Expr
}

// VectorLit is a vector literal (Type)(Elems...): a single scalar broadcasts,
// otherwise the scalars and vectors listed must add up to Type's element count.
type VectorLit struct {
	Lparen Pos // the '(' before the type name
	Type   *TypeName
	Elems  []Expr
	Rparen Pos
}

// CallExpr is a function call, Fun(Args...).
type CallExpr struct {
	Fun    *Ident
	Lparen Pos
	Args   []Expr
	Rparen Pos
}

// Pos implements Node.
func (x *BasicLit) Pos() Pos { return x.ValuePos }

// Pos implements Node.
func (x *Ident) Pos() Pos { return x.NamePos }

// Pos implements Node.
func (x *ParenExpr) Pos() Pos { return x.Lparen }

// Pos implements Node.
func (x *UnaryExpr) Pos() Pos { return x.OpPos }

// Pos implements Node.
func (x *BinaryExpr) Pos() Pos { return x.X.Pos() }

// Pos implements Node.
func (x *TypeName) Pos() Pos { return x.NamePos }

// Pos implements Node.
func (x *CastExpr) Pos() Pos { return x.Lparen }

// Pos implements Node.
func (x *VectorLit) Pos() Pos { return x.Lparen }

// Pos implements Node.
func (x *CallExpr) Pos() Pos { return x.Fun.NamePos }

func (*BasicLit) exprNode()   {}
func (*Ident) exprNode()      {}
func (*ParenExpr) exprNode()  {}
func (*UnaryExpr) exprNode()  {}
func (*BinaryExpr) exprNode() {}
func (*CastExpr) exprNode()   {}
func (*VectorLit) exprNode()  {}
func (*CallExpr) exprNode()   {}

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
	case *Ident:
		b.WriteString(x.Name)
	case *ParenExpr:
		b.WriteByte('(')
		writeExpr(b, x.X)
		b.WriteByte(')')
	case *UnaryExpr:
		b.WriteString(x.Op.String())
		writeExpr(b, x.X)
	case *BinaryExpr:
		writeExpr(b, x.X)
		b.WriteByte(' ')
		b.WriteString(x.Op.String())
		b.WriteByte(' ')
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
