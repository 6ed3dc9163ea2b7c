package clc

import "strconv"

// Pos is a position in a source: file name, byte offset, line and column
// (both 1-based; the column counts bytes, as go/token does).
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether p is a real position (Line > 0).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", or "line:col" when the file has no name.
func (p Pos) String() string {
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	if p.File != "" {
		s = p.File + ":" + s
	}
	return s
}

// TokenKind is the kind of a token.
type TokenKind uint8

// Token kinds. Punctuators cover all of C's, so that later stages (the
// preprocessor, statements) need no new lexer.
const (
	EOF TokenKind = iota
	ILLEGAL
	IDENT  // convert_int, x, float4
	NUMBER // a C preprocessing number: 42, 0x1.8p3f, 1e-3h (and malformed ones like 1.2.3)

	LPAREN     // (
	RPAREN     // )
	LBRACK     // [
	RBRACK     // ]
	LBRACE     // {
	RBRACE     // }
	COMMA      // ,
	SEMICOLON  // ;
	PERIOD     // .
	ARROW      // ->
	QUESTION   // ?
	COLON      // :
	HASH       // #
	HASHHASH   // ##
	ELLIPSIS   // ...
	ADD        // +
	SUB        // -
	MUL        // *
	QUO        // /
	REM        // %
	SHL        // <<
	SHR        // >>
	AND        // &
	OR         // |
	XOR        // ^
	TILDE      // ~
	NOT        // !
	LAND       // &&
	LOR        // ||
	LSS        // <
	GTR        // >
	LEQ        // <=
	GEQ        // >=
	EQL        // ==
	NEQ        // !=
	INC        // ++
	DEC        // --
	ASSIGN     // =
	ADD_ASSIGN // +=
	SUB_ASSIGN // -=
	MUL_ASSIGN // *=
	QUO_ASSIGN // /=
	REM_ASSIGN // %=
	SHL_ASSIGN // <<=
	SHR_ASSIGN // >>=
	AND_ASSIGN // &=
	OR_ASSIGN  // |=
	XOR_ASSIGN // ^=
	numTokenKinds
)

var tokenNames = [numTokenKinds]string{
	EOF: "end of input", ILLEGAL: "illegal token", IDENT: "identifier", NUMBER: "number",
	LPAREN: "(", RPAREN: ")", LBRACK: "[", RBRACK: "]", LBRACE: "{", RBRACE: "}",
	COMMA: ",", SEMICOLON: ";", PERIOD: ".", ARROW: "->", QUESTION: "?", COLON: ":",
	HASH: "#", HASHHASH: "##", ELLIPSIS: "...",
	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%", SHL: "<<", SHR: ">>",
	AND: "&", OR: "|", XOR: "^", TILDE: "~", NOT: "!", LAND: "&&", LOR: "||",
	LSS: "<", GTR: ">", LEQ: "<=", GEQ: ">=", EQL: "==", NEQ: "!=", INC: "++", DEC: "--",
	ASSIGN: "=", ADD_ASSIGN: "+=", SUB_ASSIGN: "-=", MUL_ASSIGN: "*=", QUO_ASSIGN: "/=",
	REM_ASSIGN: "%=", SHL_ASSIGN: "<<=", SHR_ASSIGN: ">>=", AND_ASSIGN: "&=", OR_ASSIGN: "|=",
	XOR_ASSIGN: "^=",
}

// String returns the punctuator's spelling or a description of the kind.
func (k TokenKind) String() string {
	if k < numTokenKinds {
		return tokenNames[k]
	}
	return "TokenKind(" + strconv.Itoa(int(k)) + ")"
}

// Token is one lexical token.
type Token struct {
	Kind TokenKind
	Pos  Pos
	Text string // the source spelling
	// BOL is set on the first token of a line and Space on a token preceded by
	// white space or a comment; the preprocessor needs both (directives, and
	// telling "#define f(x)" from "#define f (x)").
	BOL, Space bool
}

// String returns the token's spelling, or its kind for EOF.
func (t Token) String() string {
	if t.Kind == EOF {
		return t.Kind.String()
	}
	return t.Text
}
