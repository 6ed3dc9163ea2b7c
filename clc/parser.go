package clc

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/value"
)

// maxDepth bounds the nesting of expressions, so that hostile input cannot
// exhaust the stack (Clang's default bracket depth is 256).
const maxDepth = 1000

// parser is a recursive-descent parser over the preprocessor's tokens, with
// precedence climbing for binary operators. It stops at the first error: an
// error panics with bailout, which ParseExpr recovers (as go/parser does);
// no other panic is recovered.
type parser struct {
	pp    *preprocessor
	tok   Token   // the current token
	ahead []Token // tokens after tok already read
	errs  ErrorList
	depth int
}

type bailout struct{}

func newParser(file, src string) *parser {
	return &parser{pp: newPreprocessor(file, src)}
}

func (p *parser) read() Token {
	t, err := p.pp.next()
	if err != nil {
		p.errs = append(p.errs, err)
		panic(bailout{})
	}
	return t
}

// next moves to the next token.
func (p *parser) next() {
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
		return
	}
	p.tok = p.read()
}

// peek returns the i-th token after the current one (peek(1) is the next).
func (p *parser) peek(i int) Token {
	for len(p.ahead) < i {
		p.ahead = append(p.ahead, p.read())
	}
	return p.ahead[i-1]
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.errs.Add(pos, fmt.Sprintf(format, args...))
	panic(bailout{})
}

func (p *parser) expect(k TokenKind, context string) Pos {
	if p.tok.Kind != k {
		p.errorf(p.tok.Pos, "expected %s %s, found %s", k, context, describe(p.tok))
	}
	pos := p.tok.Pos
	p.next()
	return pos
}

// describe names a token in an error message.
func describe(t Token) string {
	switch t.Kind {
	case EOF:
		return "end of input"
	case IDENT, NUMBER:
		return fmt.Sprintf("%q", t.Text)
	}
	return fmt.Sprintf("'%s'", t.Text)
}

// ParseExpr parses src, named file in positions, as one OpenCL C expression.
// The error, if any, is an ErrorList whose diagnostics carry their source
// lines.
func ParseExpr(file, src string) (x Expr, err error) {
	p := newParser(file, src)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			x, err = nil, withSource(p.errs, file, src)
		}
	}()
	p.next()
	x = p.parseExpr()
	if p.tok.Kind != EOF {
		p.errorf(p.tok.Pos, "unexpected %s after the expression", describe(p.tok))
	}
	return x, nil
}

func (p *parser) enter(pos Pos) {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(pos, "expression nested too deeply (more than %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// parseExpr parses an assignment-expression (C's expression minus the comma
// operator; the conditional and assignment operators come with statements).
func (p *parser) parseExpr() Expr { return p.parseBinary(1) }

// binaryPrec returns the precedence of a binary operator (higher binds
// tighter), or 0 if k is not one.
func binaryPrec(k TokenKind) int {
	switch k {
	case LOR:
		return 1
	case LAND:
		return 2
	case OR:
		return 3
	case XOR:
		return 4
	case AND:
		return 5
	case EQL, NEQ:
		return 6
	case LSS, GTR, LEQ, GEQ:
		return 7
	case SHL, SHR:
		return 8
	case ADD, SUB:
		return 9
	case MUL, QUO, REM:
		return 10
	}
	return 0
}

// parseBinary parses a chain of binary operators of precedence >= minPrec
// (precedence climbing; all of C's binary operators are left-associative).
func (p *parser) parseBinary(minPrec int) Expr {
	p.enter(p.tok.Pos)
	defer p.leave()
	x := p.parseUnary()
	for {
		prec := binaryPrec(p.tok.Kind)
		if prec == 0 || prec < minPrec {
			return x
		}
		op := p.tok
		p.next()
		y := p.parseBinary(prec + 1)
		x = &BinaryExpr{X: x, OpPos: op.Pos, Op: op.Kind, Y: y}
	}
}

// parseUnary parses a unary-expression or cast-expression.
func (p *parser) parseUnary() Expr {
	p.enter(p.tok.Pos)
	defer p.leave()
	switch p.tok.Kind {
	case SUB, ADD, TILDE, NOT, INC, DEC:
		op := p.tok
		p.next()
		x := p.parseUnary()
		return &UnaryExpr{OpPos: op.Pos, Op: op.Kind, X: x}
	case LPAREN:
		if next := p.peek(1); next.Kind == IDENT && isTypeWord(next.Text) {
			lparen := p.tok.Pos
			p.next()
			tn := p.parseTypeName()
			p.expect(RPAREN, "after the type name")
			// (float4)(...) is a vector literal, unless the parenthesis
			// opens another cast, as in (float4)(int4)x.
			if tn.Type.N > 1 && p.tok.Kind == LPAREN {
				if after := p.peek(1); after.Kind != IDENT || !isTypeWord(after.Text) {
					return p.parseVectorLit(lparen, tn)
				}
			}
			x := p.parseUnary()
			return &CastExpr{Lparen: lparen, Type: tn, X: x}
		}
	}
	return p.parsePostfix()
}

// isTypeWord reports whether an identifier starts a type name.
func isTypeWord(s string) bool {
	switch s {
	case "signed", "unsigned":
		return true
	}
	_, err := cltype.ParseType(s)
	return err == nil
}

// badTypeName returns the error for a name that is a scalar type with an
// illegal vector width ("float5", "bool2"), and nil for any other name.
func badTypeName(s string) error {
	base := strings.TrimRight(s, "0123456789")
	if base == s {
		return nil
	}
	if _, err := cltype.ParseKind(base); err != nil {
		return nil
	}
	_, err := cltype.ParseType(s)
	return err
}

// parseTypeName parses a type name: an OpenCL type ("float4", "uint") or a C
// spelling of an integer type ("unsigned int", "signed char", "long int").
func (p *parser) parseTypeName() *TypeName {
	start := p.tok.Pos
	var words []string
	for p.tok.Kind == IDENT && isTypeWord(p.tok.Text) {
		words = append(words, p.tok.Text)
		p.next()
	}
	text := strings.Join(words, " ")
	t, ok := typeFromWords(words)
	if !ok {
		p.errorf(start, "invalid type name %q", text)
	}
	return &TypeName{NamePos: start, Text: text, Type: t}
}

// typeFromWords resolves the words of a type name.
func typeFromWords(words []string) (cltype.Type, bool) {
	if len(words) == 1 && words[0] != "signed" && words[0] != "unsigned" {
		t, err := cltype.ParseType(words[0])
		return t, err == nil
	}
	sign := ""
	if len(words) > 0 && (words[0] == "signed" || words[0] == "unsigned") {
		sign, words = words[0], words[1:]
	}
	base := "int"
	switch {
	case len(words) == 0:
	case len(words) == 1 && (words[0] == "char" || words[0] == "short" || words[0] == "int" || words[0] == "long"):
		base = words[0]
	case len(words) == 2 && (words[0] == "short" || words[0] == "long") && words[1] == "int":
		base = words[0]
	default:
		return cltype.Type{}, false
	}
	if sign == "unsigned" {
		base = "u" + base
	}
	t, err := cltype.ParseType(base)
	return t, err == nil
}

// parseVectorLit parses the parenthesized element list of (Type)(...).
func (p *parser) parseVectorLit(lparen Pos, tn *TypeName) Expr {
	p.expect(LPAREN, "to open the vector literal")
	var elems []Expr
	for {
		elems = append(elems, p.parseExpr())
		if p.tok.Kind != COMMA {
			break
		}
		p.next()
	}
	rparen := p.expect(RPAREN, "to close the vector literal")
	return &VectorLit{Lparen: lparen, Type: tn, Elems: elems, Rparen: rparen}
}

// parsePostfix parses a primary expression and any calls after it.
func (p *parser) parsePostfix() Expr {
	x := p.parsePrimary()
	for p.tok.Kind == LPAREN {
		fun, ok := x.(*Ident)
		if !ok {
			p.errorf(p.tok.Pos, "called object is not a function")
		}
		lparen := p.tok.Pos
		p.next()
		var args []Expr
		if p.tok.Kind != RPAREN {
			for {
				args = append(args, p.parseExpr())
				if p.tok.Kind != COMMA {
					break
				}
				p.next()
			}
		}
		rparen := p.expect(RPAREN, "to close the argument list")
		x = &CallExpr{Fun: fun, Lparen: lparen, Args: args, Rparen: rparen}
	}
	return x
}

func (p *parser) parsePrimary() Expr {
	t := p.tok
	switch t.Kind {
	case IDENT:
		if isTypeWord(t.Text) {
			p.errorf(t.Pos, "unexpected type name %q in an expression (a cast is written (%s)x)", t.Text, t.Text)
		}
		if err := badTypeName(t.Text); err != nil {
			p.errorf(t.Pos, "%v", err)
		}
		p.next()
		return &Ident{NamePos: t.Pos, Name: t.Text}
	case NUMBER:
		v, err := value.ParseLiteral(t.Text)
		if err != nil {
			p.errorf(t.Pos, "%v", err)
		}
		p.next()
		return &BasicLit{ValuePos: t.Pos, Text: t.Text, Value: v}
	case LPAREN:
		p.next()
		x := p.parseExpr()
		rparen := p.expect(RPAREN, "to close the parenthesis")
		return &ParenExpr{Lparen: t.Pos, X: x, Rparen: rparen}
	}
	p.errorf(t.Pos, "expected an expression, found %s", describe(t))
	return nil
}
