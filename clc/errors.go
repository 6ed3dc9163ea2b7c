package clc

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clconv/clconv/clc/internal/syntax"
)

// Error is a diagnostic at a source position: an error, or a warning when
// Warning is set. Error() prints "file:line:col: message"; Detail adds the
// source line and a caret under the column.
type Error struct {
	Pos     Pos
	Msg     string
	Warning bool
	// Line is the text of the source line Pos is on, without its newline;
	// empty when unknown. The functions that take source text fill it in.
	Line string
	// Note, if not empty, is advice that Detail prints after the caret
	// (such as the macro form that works where one does not).
	Note string

	// incomplete marks an error that more input could cure (the source
	// ended inside a block, a comment, an argument list or an #if): the
	// REPL then reads another line instead of reporting it.
	incomplete bool
}

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
func (p Pos) String() string { return syntax.Pos(p).String() }

// errorAt returns an error at pos, a position in the syntax tree.
func errorAt(pos syntax.Pos, msg string) *Error { return &Error{Pos: Pos(pos), Msg: msg} }

// warningAt returns a warning at pos.
func warningAt(pos syntax.Pos, msg string) *Error {
	return &Error{Pos: Pos(pos), Msg: msg, Warning: true}
}

// fromSyntax converts a diagnostic of the preprocessor or the parser.
func fromSyntax(e *syntax.Error) *Error {
	return &Error{Pos: Pos(e.Pos), Msg: e.Msg, Warning: e.Warning, Note: e.Note, incomplete: e.Incomplete}
}

// fromSyntaxList converts the parser's diagnostics.
func fromSyntaxList(l syntax.ErrorList) ErrorList {
	out := make(ErrorList, len(l))
	for i, e := range l {
		out[i] = fromSyntax(e)
	}
	return out
}

// syntaxWarn adapts warn to the preprocessor's warnings; nil stays nil.
func syntaxWarn(warn func(*Error)) func(*syntax.Error) {
	if warn == nil {
		return nil
	}
	return func(w *syntax.Error) { warn(fromSyntax(w)) }
}

// IsIncomplete reports whether err says that the source ended too early
// (inside a block, a comment, an #if, a macro's argument list, or in the
// middle of a statement), so that more input could complete it. The REPL
// uses it to ask for a continuation line.
func IsIncomplete(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.incomplete
}

// Error returns "file:line:col: message" ("file:line:col: warning: message"
// for a warning).
func (e *Error) Error() string {
	var b strings.Builder
	if e.Pos.IsValid() {
		b.WriteString(e.Pos.String())
		b.WriteString(": ")
	}
	if e.Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Detail returns Error() followed, when the source line is known, by the line
// and a caret pointing at the column, as C compilers print them, and then
// the Note if there is one:
//
//	<arg1>:1:1: convert_float_sat: _sat is not allowed with a floating destination (float)
//	convert_float_sat(1)
//	^
func (e *Error) Detail() string {
	s := e.Error()
	if e.Line == "" || !e.Pos.IsValid() {
		if e.Note != "" {
			s += "\n" + e.Note
		}
		return s
	}
	var b strings.Builder
	b.WriteString(s)
	b.WriteByte('\n')
	line, col := clip(e.Line, max(min(e.Pos.Col-1, len(e.Line)), 0))
	col = min(col, len(line))
	b.WriteString(line)
	b.WriteByte('\n')
	// Tabs are copied so the caret lines up however tabs are displayed;
	// every other rune (a multi-byte one too) takes one column.
	for _, r := range line[:col] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	if e.Note != "" {
		b.WriteByte('\n')
		b.WriteString(e.Note)
	}
	return b.String()
}

// maxShownLine is the longest source line Detail shows whole.
const maxShownLine = 200

// clip returns at most maxShownLine bytes of line around the byte column col
// (with "..." where it cut) and col's place in the result.
func clip(line string, col int) (string, int) {
	if len(line) <= maxShownLine {
		return line, col
	}
	start := max(col-maxShownLine/2, 0)
	for start < col && !utf8.RuneStart(line[start]) {
		start++
	}
	end := min(start+maxShownLine, len(line)) // past col: start >= col-maxShownLine/2
	out := line[start:end]
	if start > 0 {
		out = "..." + out
		col += 3
	}
	if end < len(line) {
		out += "..."
	}
	return out, col - start
}

// setLine fills in e.Line from src if e's position is in src.
func (e *Error) setLine(src string) {
	off := e.Pos.Offset
	if off < 0 || off > len(src) {
		return
	}
	start := strings.LastIndexByte(src[:off], '\n') + 1
	end := strings.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	e.Line = strings.TrimSuffix(src[start:end], "\r")
}

// ErrorList is a list of diagnostics; as an error it prints the first one and
// how many more there are.
type ErrorList []*Error

// sort sorts the list by file, then offset.
func (l ErrorList) sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
}

// Error returns the first error's text, with "(and N more errors)" when
// there are more.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return l[0].Error() + " (and " + strconv.Itoa(len(l)-1) + " more errors)"
}

// Unwrap returns the diagnostics, so that errors.As finds the first *Error.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// withSource fills in the source lines of the diagnostics in err (an *Error or
// an ErrorList) whose positions lie in the named file.
func withSource(err error, file, src string) error {
	switch e := err.(type) {
	case *Error:
		if e.Pos.File == file {
			e.setLine(src)
		}
	case ErrorList:
		for _, x := range e {
			if x.Pos.File == file {
				x.setLine(src)
			}
		}
	}
	return err
}
