package syntax

import (
	"strconv"

	"github.com/clconv/clconv/round"
)

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
	CHAR   // a character constant: 'a', '\n'
	STRING // a string literal: "abc" (only # stringizing and #pragma make use of them)

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

	placemarker // the preprocessor's stand-in for an empty macro argument next to ##
	numTokenKinds
)

var tokenNames = [numTokenKinds]string{
	EOF: "end of input", ILLEGAL: "illegal token", IDENT: "identifier", NUMBER: "number",
	CHAR: "character constant", STRING: "string literal",
	LPAREN: "(", RPAREN: ")", LBRACK: "[", RBRACK: "]", LBRACE: "{", RBRACE: "}",
	COMMA: ",", SEMICOLON: ";", PERIOD: ".", ARROW: "->", QUESTION: "?", COLON: ":",
	HASH: "#", HASHHASH: "##", ELLIPSIS: "...",
	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%", SHL: "<<", SHR: ">>",
	AND: "&", OR: "|", XOR: "^", TILDE: "~", NOT: "!", LAND: "&&", LOR: "||",
	LSS: "<", GTR: ">", LEQ: "<=", GEQ: ">=", EQL: "==", NEQ: "!=", INC: "++", DEC: "--",
	ASSIGN: "=", ADD_ASSIGN: "+=", SUB_ASSIGN: "-=", MUL_ASSIGN: "*=", QUO_ASSIGN: "/=",
	REM_ASSIGN: "%=", SHL_ASSIGN: "<<=", SHR_ASSIGN: ">>=", AND_ASSIGN: "&=", OR_ASSIGN: "|=",
	XOR_ASSIGN: "^=", placemarker: "placemarker",
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
	// Mode is the rounding mode in force where the token stands, as
	// #pragma OPENCL SELECT_ROUNDING_MODE and the braces around it decide; the
	// preprocessor sets it on every token it hands on, so that the parser can
	// give each operation the mode of its place in the source.
	Mode round.Mode
	// Macro names the outermost macro whose expansion produced the token
	// (empty for tokens written in the source), for messages.
	Macro string

	hide *hideSet // the macros this token must not expand (C99 6.10.3.4)
}

// String returns the token's spelling, or its kind for EOF.
func (t Token) String() string {
	if t.Kind == EOF {
		return t.Kind.String()
	}
	return t.Text
}
