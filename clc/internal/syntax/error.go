package syntax

import "strconv"

// Error is a diagnostic of the preprocessor or the parser at a source
// position: an error, or a warning when Warning is set. Package clc turns it
// into its own Error, which quotes the source line.
type Error struct {
	Pos     Pos
	Msg     string
	Warning bool
	// Note, if not empty, is advice to print after the source line (such
	// as the macro form that works where one does not).
	Note string
	// Incomplete marks an error that more input could cure (the source
	// ended inside a block, a comment, an argument list or an #if): the
	// REPL then reads another line instead of reporting it.
	Incomplete bool
}

// Error returns "file:line:col: message" ("file:line:col: warning: message"
// for a warning).
func (e *Error) Error() string {
	s := e.Msg
	if e.Warning {
		s = "warning: " + s
	}
	if e.Pos.IsValid() {
		s = e.Pos.String() + ": " + s
	}
	return s
}

// ErrorList is a list of diagnostics; as an error it prints the first one and
// how many more there are.
type ErrorList []*Error

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
