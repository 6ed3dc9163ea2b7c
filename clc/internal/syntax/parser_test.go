package syntax

import (
	"fmt"
	"testing"

	"github.com/clconv/clconv/round"
)

func TestLexer(t *testing.T) {
	src := "a<<=b>>c...d->e ## #x 0x1e+5 1.2.3 .5f 1e-3h /* c */ x\n  y"
	want := []struct {
		kind TokenKind
		text string
		line int
		col  int
	}{
		{IDENT, "a", 1, 1}, {SHL_ASSIGN, "<<=", 1, 2}, {IDENT, "b", 1, 5}, {SHR, ">>", 1, 6},
		{IDENT, "c", 1, 8}, {ELLIPSIS, "...", 1, 9}, {IDENT, "d", 1, 12}, {ARROW, "->", 1, 13},
		{IDENT, "e", 1, 15}, {HASHHASH, "##", 1, 17}, {HASH, "#", 1, 20}, {IDENT, "x", 1, 21},
		{NUMBER, "0x1e+5", 1, 23}, {NUMBER, "1.2.3", 1, 30}, {NUMBER, ".5f", 1, 36},
		{NUMBER, "1e-3h", 1, 40}, {IDENT, "x", 1, 54}, {IDENT, "y", 2, 3}, {EOF, "", 2, 4},
	}
	lx := newLexer("f", src)
	for i, w := range want {
		tok, err := lx.next()
		if err != nil {
			t.Fatalf("token %d: %v", i, err)
		}
		if tok.Kind != w.kind || tok.Text != w.text || tok.Pos.Line != w.line || tok.Pos.Col != w.col {
			t.Errorf("token %d = %v %q at %v, want %v %q at %d:%d", i, tok.Kind, tok.Text, tok.Pos, w.kind, w.text, w.line, w.col)
		}
		if tok.Pos.Offset < len(src) && tok.Kind != EOF && src[tok.Pos.Offset:tok.Pos.Offset+len(tok.Text)] != tok.Text {
			t.Errorf("token %d: offset %d does not point at %q", i, tok.Pos.Offset, tok.Text)
		}
	}
	// BOL and Space, which the preprocessor will need.
	lx = newLexer("f", "#define f(x) f (x)\n#x")
	var flags []string
	for {
		tok, _ := lx.next()
		if tok.Kind == EOF {
			break
		}
		flags = append(flags, fmt.Sprintf("%s:%v:%v", tok.Text, tok.BOL, tok.Space))
	}
	if got, want := fmt.Sprint(flags), "[#:true:false define:false:false f:false:true (:false:false x:false:false ):false:false f:false:true (:false:true x:false:false ):false:false #:true:true x:false:false]"; got != want {
		t.Errorf("flags = %s\nwant   %s", got, want)
	}
}

func TestParsePrecedence(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1 + 2 * 3", "1 + 2 * 3"},
		{"a - b - c", "a - b - c"},
		{"-a * b", "-a * b"},
		{"(int)x + 1", "(int)x + 1"},
		{"(float4)(1, 2) * 2", "(float4)(1, 2) * 2"},
		{"(float4)(int4)(1)", "(float4)(int4)(1)"},
		{"f(a, b + 1, (c))", "f(a, b + 1, (c))"},
		{"a | b ^ c & d == e < f << g + h * i", "a | b ^ c & d == e < f << g + h * i"},
		{"(unsigned  int)x", "(unsigned int)x"},
	}
	for _, tt := range tests {
		x, err := ParseExpr("t", tt.src, NewState(round.RTE), nil)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := ExprString(x); got != tt.want {
			t.Errorf("ExprString(%s) = %s, want %s", tt.src, got, tt.want)
		}
	}
	// The tree's shape, not just its spelling.
	x, _ := ParseExpr("t", "a - b * c - d", NewState(round.RTE), nil)
	outer := x.(*BinaryExpr)
	if outer.Op != SUB || ExprString(outer.Y) != "d" {
		t.Fatalf("a - b * c - d: outer %v %s", outer.Op, ExprString(outer.Y))
	}
	inner := outer.X.(*BinaryExpr)
	if inner.Op != SUB || ExprString(inner.Y) != "b * c" {
		t.Errorf("a - b * c - d: inner %v %s", inner.Op, ExprString(inner.Y))
	}
	if p := inner.Y.Pos(); p.Col != 5 {
		t.Errorf("b * c starts at %v, want col 5", p)
	}
	x, _ = ParseExpr("t", "(float4)(a, b)", NewState(round.RTE), nil)
	if v, ok := x.(*VectorLit); !ok || len(v.Elems) != 2 || v.Type.Type.String() != "float4" {
		t.Errorf("(float4)(a, b) = %#v", x)
	}
	x, _ = ParseExpr("t", "(float)(a)", NewState(round.RTE), nil)
	if _, ok := x.(*CastExpr); !ok {
		t.Errorf("(float)(a) = %T, want a cast", x)
	}
}

func TestPredefinedPositions(t *testing.T) {
	// A macro's tokens take the position of its use.
	x, err := ParseExpr("t", "1 + CHAR_MIN", NewState(round.RTE), nil)
	if err != nil {
		t.Fatal(err)
	}
	y := x.(*BinaryExpr).Y
	if ExprString(y) != "(-127 - 1)" || y.Pos().Col != 5 {
		t.Errorf("CHAR_MIN expands to %s at %v", ExprString(y), y.Pos())
	}
}
