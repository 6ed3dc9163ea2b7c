package syntax

import (
	"fmt"
	"unicode/utf8"
)

// punctuators maps every C punctuator spelling to its kind; the lexer takes
// the longest match (3, then 2, then 1 bytes).
var punctuators = func() map[string]TokenKind {
	m := make(map[string]TokenKind)
	for k := LPAREN; k < placemarker; k++ {
		m[tokenNames[k]] = k
	}
	return m
}()

// lexer splits a source into tokens. It skips white space and comments (//
// and /* */) and reports malformed input as ILLEGAL tokens with an error.
type lexer struct {
	file      string
	src       string
	off       int
	line, col int
	bol       bool // no token yet on the current line
}

func newLexer(file, src string) *lexer {
	return newLexerAt(file, 1, src)
}

// newLexerAt returns a lexer whose first line is numbered line (the REPL
// numbers the lines of a session consecutively).
func newLexerAt(file string, line int, src string) *lexer {
	return &lexer{file: file, src: src, line: max(line, 1), col: 1, bol: true}
}

func (l *lexer) pos() Pos { return Pos{File: l.file, Offset: l.off, Line: l.line, Col: l.col} }

// advance moves past n bytes of the current line (no newlines among them).
func (l *lexer) advance(n int) {
	l.off += n
	l.col += n
}

func isIdentStart(c byte) bool { return c == '_' || c|0x20 >= 'a' && c|0x20 <= 'z' }

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipSpace skips white space and comments and reports whether it skipped
// anything. An unterminated block comment is returned as an error.
func (l *lexer) skipSpace() (bool, *Error) {
	skipped := false
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == '\n':
			l.off++
			l.line++
			l.col = 1
			l.bol = true
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			l.advance(1)
		case c == '\\' && l.off+1 < len(l.src) && l.src[l.off+1] == '\n':
			// A line splice: the two lines are one logical line.
			l.off += 2
			l.line++
			l.col = 1
		case c == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance(1)
			}
		case c == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '*':
			start := l.pos()
			l.advance(2)
			for {
				if l.off+1 >= len(l.src) {
					l.off, l.col = len(l.src), l.col+1
					return true, &Error{Pos: start, Msg: "unterminated /* comment", Incomplete: true}
				}
				if l.src[l.off] == '*' && l.src[l.off+1] == '/' {
					l.advance(2)
					break
				}
				if l.src[l.off] == '\n' {
					l.off++
					l.line++
					l.col = 1
				} else {
					l.advance(1)
				}
			}
		default:
			return skipped, nil
		}
		skipped = true
	}
	return skipped, nil
}

// next returns the next token. At the end of the source it returns EOF
// tokens forever.
func (l *lexer) next() (Token, *Error) {
	space, err := l.skipSpace()
	t := Token{Pos: l.pos(), BOL: l.bol, Space: space}
	if err != nil {
		t.Kind = ILLEGAL
		return t, err
	}
	if l.off >= len(l.src) {
		t.Kind = EOF
		return t, nil
	}
	l.bol = false
	start := l.off
	c := l.src[l.off]
	switch {
	case isIdentStart(c):
		for l.off < len(l.src) && isIdentChar(l.src[l.off]) {
			l.advance(1)
		}
		t.Kind = IDENT
	case isDigit(c) || c == '.' && l.off+1 < len(l.src) && isDigit(l.src[l.off+1]):
		// C99 6.4.8 pp-number: digits, letters, '_', '.', and a sign right
		// after e, E, p or P. The literal parser decides what it means, so
		// "1.2.3" and "0x1e+5" are one (invalid) token, as in C.
		l.advance(1)
		for l.off < len(l.src) {
			c := l.src[l.off]
			if (c == '+' || c == '-') && (l.src[l.off-1]|0x20 == 'e' || l.src[l.off-1]|0x20 == 'p') {
				l.advance(1)
				continue
			}
			if !isIdentChar(c) && c != '.' {
				break
			}
			l.advance(1)
		}
		t.Kind = NUMBER
	default:
		for n := 3; n >= 1; n-- {
			if l.off+n <= len(l.src) {
				if k, ok := punctuators[l.src[l.off:l.off+n]]; ok {
					l.advance(n)
					t.Kind = k
					t.Text = l.src[start:l.off]
					return t, nil
				}
			}
		}
		if c == '\'' || c == '"' {
			return l.quoted(t, c)
		}
		r, size := utf8.DecodeRuneInString(l.src[l.off:])
		l.advance(size)
		t.Kind = ILLEGAL
		t.Text = l.src[start:l.off]
		if r == utf8.RuneError && size == 1 {
			return t, &Error{Pos: t.Pos, Msg: fmt.Sprintf("invalid byte 0x%02x in source", c)}
		}
		return t, &Error{Pos: t.Pos, Msg: fmt.Sprintf("unexpected character %q", r)}
	}
	t.Text = l.src[start:l.off]
	return t, nil
}

// quoted lexes a character constant or a string literal (q is the opening
// quote), escapes included; the parser decodes them. Neither may span lines.
func (l *lexer) quoted(t Token, q byte) (Token, *Error) {
	start := l.off
	l.advance(1)
	for {
		if l.off >= len(l.src) || l.src[l.off] == '\n' {
			t.Kind = ILLEGAL
			t.Text = l.src[start:l.off]
			what := "character constant"
			if q == '"' {
				what = "string literal"
			}
			return t, &Error{Pos: t.Pos, Msg: "unterminated " + what}
		}
		c := l.src[l.off]
		if c == '\\' && l.off+1 < len(l.src) && l.src[l.off+1] != '\n' {
			l.advance(2)
			continue
		}
		l.advance(1)
		if c == q {
			break
		}
	}
	t.Kind = CHAR
	if q == '"' {
		t.Kind = STRING
	}
	t.Text = l.src[start:l.off]
	return t, nil
}
