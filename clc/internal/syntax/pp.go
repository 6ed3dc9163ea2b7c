package syntax

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clconv/clconv/round"
)

// The preprocessor sits between the lexer and the parser. It follows C99
// 6.10: directives (#define, #undef, #if, #ifdef, #ifndef, #elif, #else,
// #endif, #pragma, #error), object-like and function-like macros with #
// and ## (operands of ## are not macro-expanded), and rescanning with hide
// sets (Prosser's algorithm, as in the C standard's rationale), so a macro
// never expands inside its own expansion.
//
// It also owns the rounding mode: #pragma OPENCL SELECT_ROUNDING_MODE sets
// it, a '{' saves it and the matching '}' restores it, and every token it
// hands on carries the mode in force where it stands (Token.Mode). That
// makes the mode a static property of the source, as the extension wants
// ("the rounding mode specified for a block of code is known at compile
// time"), and __ROUNDING_MODE__ expands to the same mode.

// Limits that keep hostile input from exhausting time or memory. Real
// snippets stay far below them.
const (
	maxExpansion  = 1 << 18 // tokens created by macro expansion in one input
	maxMadeBytes  = 1 << 20 // bytes of tokens made by ## and # in one input
	maxMacroDepth = 200     // nesting of macro arguments being pre-expanded
	// maxHideWork bounds the nodes that hide-set unions and intersections
	// visit in one input (hideset.go), a node allocated at most per visit:
	// sets that share their nodes, as those of real expansions do, cost a
	// step or so each (the seed examples take 8, a chain of 20,000
	// function-like macros 62,195).
	maxHideWork = 1 << 22
)

// MaxSource bounds the bytes of one input (a file, a REPL input, an
// expression): 4 MiB. The largest seed example is under 10 KiB; 4 MiB of
// declarations preprocess, parse, check and run in under two seconds and
// about 400 MB, where 15 MB took 15.7 s and 1.8 GB (issue 41).
const MaxSource = 4 << 20

// SelectExt is the extension that enables SELECT_ROUNDING_MODE.
const SelectExt = "cl_khr_select_fprounding_mode"

// ModeMacro is the predefined macro that names the rounding mode in force
// (rte, rtz, rtp or rtn), defined while SelectExt is enabled.
const ModeMacro = "__ROUNDING_MODE__"

// predefined holds the bodies of OpenCL C's predefined object-like macros
// (OpenCL C 3.0 §6.15.17 and §6.15.2.1, with the spellings of Clang's
// opencl-c-base.h), the version macros of OpenCL C 1.2 and the macros of the
// extensions clconv implements.
var predefined = map[string]string{
	"CHAR_BIT":  "8",
	"SCHAR_MAX": "127",
	"SCHAR_MIN": "(-127-1)",
	"UCHAR_MAX": "255",
	"CHAR_MAX":  "SCHAR_MAX",
	"CHAR_MIN":  "SCHAR_MIN",
	"SHRT_MAX":  "32767",
	"SHRT_MIN":  "(-32767-1)",
	"USHRT_MAX": "65535",
	"INT_MAX":   "2147483647",
	"INT_MIN":   "(-2147483647-1)",
	"UINT_MAX":  "0xffffffffU",
	"LONG_MAX":  "0x7fffffffffffffffL",
	"LONG_MIN":  "(-0x7fffffffffffffffL-1)",
	"ULONG_MAX": "0xffffffffffffffffUL",

	"FLT_DIG":        "6",
	"FLT_MANT_DIG":   "24",
	"FLT_MAX_10_EXP": "+38",
	"FLT_MAX_EXP":    "+128",
	"FLT_MIN_10_EXP": "-37",
	"FLT_MIN_EXP":    "-125",
	"FLT_RADIX":      "2",
	"FLT_MAX":        "0x1.fffffep127f",
	"FLT_MIN":        "0x1.0p-126f",
	"FLT_EPSILON":    "0x1.0p-23f",
	"MAXFLOAT":       "FLT_MAX",
	"HUGE_VALF":      "INFINITY",
	"INFINITY":       "as_float(0x7f800000)",
	"NAN":            "as_float(0x7fc00000)",

	"DBL_DIG":        "15",
	"DBL_MANT_DIG":   "53",
	"DBL_MAX_10_EXP": "+308",
	"DBL_MAX_EXP":    "+1024",
	"DBL_MIN_10_EXP": "-307",
	"DBL_MIN_EXP":    "-1021",
	"DBL_MAX":        "0x1.fffffffffffffp1023",
	"DBL_MIN":        "0x1.0p-1022",
	"DBL_EPSILON":    "0x1.0p-52",
	"HUGE_VAL":       "as_double(0x7ff0000000000000L)",

	"HALF_DIG":        "3",
	"HALF_MANT_DIG":   "11",
	"HALF_MAX_10_EXP": "+4",
	"HALF_MAX_EXP":    "+16",
	"HALF_MIN_10_EXP": "-4",
	"HALF_MIN_EXP":    "-13",
	"HALF_RADIX":      "2",
	"HALF_MAX":        "0x1.ffcp15h",
	"HALF_MIN":        "0x1.0p-14h",
	"HALF_EPSILON":    "0x1.0p-10h",

	// OpenCL C 6.1.1: true and false expand to the integer constants 1 and 0.
	"true":  "1",
	"false": "0",

	"__OPENCL_VERSION__":   "120",
	"__OPENCL_C_VERSION__": "120",
	"CL_VERSION_1_0":       "100",
	"CL_VERSION_1_1":       "110",
	"CL_VERSION_1_2":       "120",
	"__ENDIAN_LITTLE__":    "1",
	"cl_khr_fp64":          "1",
	"cl_khr_fp16":          "1",
	SelectExt:              "1",
}

// macro is a macro definition.
type macro struct {
	name     string
	pos      Pos // of the name in its #define (invalid for predefined macros)
	funcLike bool
	params   []string // "__VA_ARGS__" last when variadic
	variadic bool
	body     []Token
	// builtin, if set, computes the expansion (__LINE__, __FILE__,
	// __ROUNDING_MODE__).
	builtin func(p *preprocessor, use Token) []Token
}

// param returns the index of the parameter t names, or -1.
func (m *macro) param(t Token) int {
	if !m.funcLike || t.Kind != IDENT {
		return -1
	}
	for i, p := range m.params {
		if p == t.Text {
			return i
		}
	}
	return -1
}

// sameAs reports whether two definitions are identical in C99's sense
// (6.10.3p2: same parameters, same body tokens and same white-space
// separation).
func (m *macro) sameAs(o *macro) bool {
	if m.funcLike != o.funcLike || m.variadic != o.variadic || len(m.params) != len(o.params) || len(m.body) != len(o.body) || m.builtin != nil || o.builtin != nil {
		return false
	}
	for i := range m.params {
		if m.params[i] != o.params[i] {
			return false
		}
	}
	for i := range m.body {
		a, b := m.body[i], o.body[i]
		if a.Kind != b.Kind || a.Text != b.Text || i > 0 && a.Space != b.Space {
			return false
		}
	}
	return true
}

var (
	lineMacro = &macro{name: "__LINE__", builtin: func(p *preprocessor, use Token) []Token {
		return []Token{{Kind: NUMBER, Text: strconv.Itoa(use.Pos.Line)}}
	}}
	fileMacro = &macro{name: "__FILE__", builtin: func(p *preprocessor, use Token) []Token {
		return []Token{{Kind: STRING, Text: strconv.Quote(use.Pos.File)}}
	}}
	roundingModeMacro = &macro{name: ModeMacro, builtin: func(p *preprocessor, use Token) []Token {
		return []Token{{Kind: IDENT, Text: p.st.mode.String()}}
	}}
)

// predefinedMacros is the macro table every input starts from.
var predefinedMacros = func() map[string]*macro {
	m := make(map[string]*macro, len(predefined)+2)
	for name, body := range predefined {
		lx := newLexer("", body)
		def := &macro{name: name}
		for {
			t, err := lx.next()
			if err != nil || t.Kind == EOF {
				break
			}
			t.BOL = false
			def.body = append(def.body, t)
		}
		m[name] = def
	}
	m[lineMacro.name] = lineMacro
	m[fileMacro.name] = fileMacro
	return m
}()

// State is what the preprocessor carries from one input to the next: the
// macros, whether cl_khr_select_fprounding_mode is enabled and the rounding
// mode at top level. An Interp keeps one across REPL inputs.
type State struct {
	macros map[string]*macro
	shared bool // macros is shared with others: copy it before changing it
	ext    bool
	mode   round.Mode
}

// NewState returns the state of a fresh translation unit whose rounding
// mode starts as mode.
func NewState(mode round.Mode) *State {
	return &State{macros: predefinedMacros, shared: true, mode: mode}
}

// Clone returns a copy of s that shares its macro table until one of them
// changes it.
func (s *State) Clone() *State {
	c := *s
	c.shared = true
	s.shared = true
	return &c
}

// Mode returns the rounding mode in force at top level.
func (s *State) Mode() round.Mode { return s.mode }

// Defined reports whether a macro of that name is defined.
func (s *State) Defined(name string) bool {
	_, ok := s.macros[name]
	return ok
}

func (s *State) setMacro(name string, m *macro) {
	if s.shared {
		c := make(map[string]*macro, len(s.macros)+4)
		for k, v := range s.macros {
			c[k] = v
		}
		s.macros, s.shared = c, false
	}
	if m == nil {
		delete(s.macros, name)
	} else {
		s.macros[name] = m
	}
}

// cond is an #if being processed.
type cond struct {
	pos     Pos  // of the directive that opened it
	active  bool // the current group is kept
	taken   bool // a group has been kept, or the whole #if is skipped
	sawElse bool
}

// lexed is a token from the lexer with its error, kept for reading again.
type lexed struct {
	t   Token
	err *Error
}

// source is a stream of tokens to macro-expand: pending tokens (the next one
// last) and, for the main stream, the lexer after them.
type source struct {
	stack []Token
	main  bool
	end   Pos // where a list source ends, for messages
}

// preprocessor turns the lexer's tokens into the parser's.
type preprocessor struct {
	lex        *lexer
	st         *State
	main       source
	ahead      []lexed // lexer tokens pushed back, next first
	conds      []cond
	modes      []round.Mode // the mode saved at each '{' handed on
	budget     int          // tokens expansion may still create
	madeBytes  int          // bytes ## and # may still create
	depth      int
	collecting bool // reading a macro call's arguments from the lexer
	warn       func(*Error)
	// unions memoizes hide-set unions: the tokens of one expansion share
	// hide sets, so the same pairs come up again and again.
	unions map[[2]*hideSet]*hideSet
	ids    map[string]int // the macro names in hide sets, numbered
	// hideWork is what hide-set unions and intersections may still do.
	hideWork int
}

// nameID returns the number of a macro name in hide sets.
func (p *preprocessor) nameID(name string) int {
	id, ok := p.ids[name]
	if !ok {
		if p.ids == nil {
			p.ids = make(map[string]int)
		}
		id = len(p.ids)
		p.ids[name] = id
	}
	return id
}

// hidden reports whether the identifier t must not expand: whether its
// hide set holds its own name.
func (p *preprocessor) hidden(t Token) bool {
	id, ok := p.ids[t.Text]
	return ok && t.hide.has(id)
}

// hideErr is the error of an input whose hide sets cost too much.
func (p *preprocessor) hideErr(use Token) *Error {
	if p.hideWork >= 0 {
		return nil
	}
	return ppErrorf(use.Pos, "macro expansion too complex (macros nested in too many different ways; more than %d steps of hide-set work)", maxHideWork)
}

// newPreprocessor returns a preprocessor over src that starts from st (which
// it changes: callers pass a clone when they may discard the result).
func newPreprocessor(file string, line int, src string, st *State, warn func(*Error)) *preprocessor {
	return &preprocessor{
		lex:       newLexerAt(file, line, src),
		st:        st,
		main:      source{main: true},
		budget:    maxExpansion,
		madeBytes: maxMadeBytes,
		hideWork:  maxHideWork,
		warn:      warn,
	}
}

func (p *preprocessor) warnf(pos Pos, format string, args ...any) {
	if p.warn != nil {
		p.warn(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Warning: true})
	}
}

func ppErrorf(pos Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next token after preprocessing, with its rounding mode.
func (p *preprocessor) next() (Token, *Error) {
	t, err := p.expandNext(&p.main)
	if err != nil {
		return t, err
	}
	t.Mode = p.st.mode
	t.hide = nil
	switch t.Kind {
	case LBRACE:
		p.modes = append(p.modes, p.st.mode)
	case RBRACE:
		// RULES.md: a SELECT_ROUNDING_MODE inside a compound statement
		// lasts to the end of that block.
		if n := len(p.modes); n > 0 {
			p.st.mode = p.modes[n-1]
			p.modes = p.modes[:n-1]
		}
	}
	return t, nil
}

func (p *preprocessor) skipping() bool {
	return len(p.conds) > 0 && !p.conds[len(p.conds)-1].active
}

// lexToken returns the next token from the lexer (or one pushed back).
func (p *preprocessor) lexToken() (Token, *Error) {
	if len(p.ahead) > 0 {
		l := p.ahead[0]
		p.ahead = p.ahead[1:]
		return l.t, l.err
	}
	return p.lex.next()
}

func (p *preprocessor) unlex(t Token, err *Error) {
	p.ahead = append([]lexed{{t, err}}, p.ahead...)
}

// lexRead returns the next token of the source text outside directives and
// skipped groups, carrying out the directives it passes.
func (p *preprocessor) lexRead() (Token, *Error) {
	for {
		t, err := p.lexToken()
		if err != nil {
			// Skipped groups need only be valid preprocessing tokens,
			// and even that is not checked by compilers ("don't").
			if p.skipping() && !err.Incomplete {
				continue
			}
			return t, err
		}
		switch {
		case t.Kind == HASH && t.BOL:
			if p.collecting {
				return t, ppErrorf(t.Pos, "preprocessing directive inside the arguments of a macro call")
			}
			if err := p.directive(t); err != nil {
				return t, err
			}
			continue
		case t.Kind == EOF:
			if n := len(p.conds); n > 0 {
				return t, &Error{Pos: p.conds[n-1].pos, Msg: "unterminated conditional directive (#if without #endif)", Incomplete: true}
			}
			return t, nil
		case p.skipping():
			continue
		}
		return t, nil
	}
}

// directiveLine returns the tokens of the rest of the current line.
func (p *preprocessor) directiveLine() ([]Token, *Error) {
	var toks []Token
	for {
		t, err := p.lexToken()
		if t.Kind == EOF || t.BOL {
			p.unlex(t, err)
			return toks, nil
		}
		if err != nil {
			if err.Incomplete || !p.skipping() {
				return nil, err
			}
			continue
		}
		toks = append(toks, t)
	}
}

// directive carries out the directive whose '#' is hash.
func (p *preprocessor) directive(hash Token) *Error {
	line, err := p.directiveLine()
	if err != nil {
		return err
	}
	if len(line) == 0 {
		return nil // the null directive
	}
	name := line[0]
	args := line[1:]
	switch name.Text {
	case "if", "ifdef", "ifndef":
		c := cond{pos: hash.Pos, taken: true}
		if !p.skipping() {
			v, err := p.condition(name, args)
			if err != nil {
				return err
			}
			c.active, c.taken = v, v
		}
		p.conds = append(p.conds, c)
		return nil
	case "elif", "else", "endif":
		n := len(p.conds)
		if n == 0 {
			return ppErrorf(name.Pos, "#%s without #if", name.Text)
		}
		c := &p.conds[n-1]
		switch name.Text {
		case "elif":
			if c.sawElse {
				return ppErrorf(name.Pos, "#elif after #else")
			}
			if c.taken {
				c.active = false
				return nil
			}
			v, err := p.condition(name, args)
			if err != nil {
				return err
			}
			c.active, c.taken = v, v
		case "else":
			if c.sawElse {
				return ppErrorf(name.Pos, "#else after #else")
			}
			c.active, c.taken, c.sawElse = !c.taken, true, true
			p.extraTokens(name, args)
		case "endif":
			p.conds = p.conds[:n-1]
			p.extraTokens(name, args)
		}
		return nil
	}
	if p.skipping() {
		return nil // other directives in skipped groups are not looked at
	}
	switch name.Text {
	case "define":
		return p.define(name, args)
	case "undef":
		if len(args) == 0 || args[0].Kind != IDENT {
			return ppErrorf(name.Pos, "#undef needs a macro name")
		}
		if m := p.st.macros[args[0].Text]; m != nil && m.builtin != nil {
			return ppErrorf(args[0].Pos, "cannot #undef the builtin macro %s", args[0].Text)
		}
		p.extraTokens(name, args[1:])
		p.st.setMacro(args[0].Text, nil)
		return nil
	case "pragma":
		return p.pragma(name, args)
	case "error":
		return ppErrorf(hash.Pos, "#error %s", spell(args))
	case "warning":
		p.warnf(hash.Pos, "#warning %s", spell(args))
		return nil
	case "include":
		return ppErrorf(hash.Pos, "#include is not supported: clconv has no header files, and OpenCL C's built-ins need none")
	case "line":
		return ppErrorf(hash.Pos, "#line is not supported")
	}
	return ppErrorf(name.Pos, "invalid preprocessing directive #%s", name.Text)
}

func (p *preprocessor) extraTokens(name Token, rest []Token) {
	if len(rest) > 0 {
		p.warnf(rest[0].Pos, "extra tokens at the end of #%s ignored", name.Text)
	}
}

// spell returns tokens as source text, one space where the source had white
// space.
func spell(toks []Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && t.Space {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// condition evaluates the condition of #if, #elif, #ifdef or #ifndef.
func (p *preprocessor) condition(name Token, args []Token) (bool, *Error) {
	if name.Text == "ifdef" || name.Text == "ifndef" {
		if len(args) == 0 || args[0].Kind != IDENT {
			return false, ppErrorf(name.Pos, "#%s needs a macro name", name.Text)
		}
		p.extraTokens(name, args[1:])
		_, ok := p.st.macros[args[0].Text]
		return ok == (name.Text == "ifdef"), nil
	}
	if len(args) == 0 {
		return false, ppErrorf(name.Pos, "#%s with no expression", name.Text)
	}
	// defined X and defined(X) are replaced before macro expansion.
	var toks []Token
	for i := 0; i < len(args); i++ {
		t := args[i]
		if t.Kind != IDENT || t.Text != "defined" {
			toks = append(toks, t)
			continue
		}
		j := i + 1
		paren := j < len(args) && args[j].Kind == LPAREN
		if paren {
			j++
		}
		if j >= len(args) || args[j].Kind != IDENT {
			return false, ppErrorf(t.Pos, "defined needs a macro name")
		}
		_, ok := p.st.macros[args[j].Text]
		if paren {
			j++
			if j >= len(args) || args[j].Kind != RPAREN {
				return false, ppErrorf(t.Pos, "missing ) after defined(%s", args[j-1].Text)
			}
		}
		v := "0"
		if ok {
			v = "1"
		}
		toks = append(toks, Token{Kind: NUMBER, Text: v, Pos: t.Pos, Space: t.Space})
		i = j
	}
	toks, err := p.expandList(toks, name.Pos)
	if err != nil {
		return false, err
	}
	v, err := evalPPExpr(toks, name)
	if err != nil {
		return false, err
	}
	return v.v != 0, nil
}

// define carries out #define.
func (p *preprocessor) define(dir Token, args []Token) *Error {
	if len(args) == 0 {
		return ppErrorf(dir.Pos, "#define needs a macro name")
	}
	name := args[0]
	if name.Kind != IDENT {
		return ppErrorf(name.Pos, "macro names must be identifiers")
	}
	if name.Text == "defined" {
		return ppErrorf(name.Pos, `"defined" cannot be used as a macro name`)
	}
	if old := p.st.macros[name.Text]; old != nil && old.builtin != nil || name.Text == roundingModeMacro.name {
		return ppErrorf(name.Pos, "cannot redefine the builtin macro %s", name.Text)
	}
	m := &macro{name: name.Text, pos: name.Pos}
	body := args[1:]
	if len(body) > 0 && body[0].Kind == LPAREN && !body[0].Space {
		m.funcLike = true
		i := 1
		for {
			if i >= len(body) {
				return ppErrorf(body[0].Pos, "missing ) in the parameter list of macro %s", name.Text)
			}
			t := body[i]
			if t.Kind == RPAREN && len(m.params) == 0 {
				i++
				break
			}
			switch {
			case t.Kind == ELLIPSIS:
				m.variadic = true
				m.params = append(m.params, "__VA_ARGS__")
			case t.Kind == IDENT && t.Text != "__VA_ARGS__":
				for _, q := range m.params {
					if q == t.Text {
						return ppErrorf(t.Pos, "duplicate macro parameter %q", t.Text)
					}
				}
				m.params = append(m.params, t.Text)
			default:
				return ppErrorf(t.Pos, "expected a parameter name in macro %s, found %s", name.Text, describe(t))
			}
			i++
			if i < len(body) && body[i].Kind == RPAREN {
				i++
				break
			}
			if m.variadic {
				return ppErrorf(t.Pos, "... must be the last parameter of macro %s", name.Text)
			}
			if i >= len(body) || body[i].Kind != COMMA {
				return ppErrorf(t.Pos, "expected , or ) in the parameter list of macro %s", name.Text)
			}
			i++
		}
		body = body[i:]
	} else if len(body) > 0 && !body[0].Space {
		p.warnf(body[0].Pos, "no white space after the macro name %s", name.Text)
	}
	m.body = make([]Token, len(body))
	for i, t := range body {
		t.BOL = false
		m.body[i] = t
		if t.Kind == HASHHASH && (i == 0 || i == len(body)-1) {
			return ppErrorf(t.Pos, "## cannot be at either end of a macro body")
		}
		if t.Kind == IDENT && t.Text == "__VA_ARGS__" && !m.variadic {
			return ppErrorf(t.Pos, "__VA_ARGS__ can only appear in the body of a variadic macro")
		}
		if m.funcLike && t.Kind == HASH && (i+1 >= len(body) || m.param(body[i+1]) < 0) {
			return ppErrorf(t.Pos, "# must be followed by a macro parameter")
		}
	}
	p.checkRoundingModePaste(m)
	if old := p.st.macros[name.Text]; old != nil && !old.sameAs(m) {
		where := "a predefined macro"
		if old.pos.IsValid() {
			where = "previous definition at " + old.pos.String()
		}
		p.warnf(name.Pos, "macro %s redefined (%s)", name.Text, where)
	}
	p.st.setMacro(name.Text, m)
	return nil
}

// checkRoundingModePaste warns about the idiom the SELECT_ROUNDING_MODE
// reference page suggests, #define foo foo ## __ROUNDING_MODE__: the
// operands of ## are not macro-expanded (C99 6.10.3.3), so it pastes the
// name __ROUNDING_MODE__ itself. The warning shows the form that works.
func (p *preprocessor) checkRoundingModePaste(m *macro) {
	for i, t := range m.body {
		if t.Kind != HASHHASH {
			continue
		}
		lhs, rhs := m.body[i-1], m.body[i+1]
		var other Token
		switch {
		case rhs.Kind == IDENT && rhs.Text == roundingModeMacro.name:
			other = lhs
		case lhs.Kind == IDENT && lhs.Text == roundingModeMacro.name:
			other = rhs
		default:
			continue
		}
		prefix := "foo_"
		pasted := "foo__ROUNDING_MODE__"
		if other.Kind == IDENT && m.param(other) < 0 {
			prefix = strings.TrimSuffix(other.Text, "_") + "_"
			if other == lhs {
				pasted = other.Text + roundingModeMacro.name
			} else {
				pasted = roundingModeMacro.name + other.Text
			}
		}
		if p.warn != nil {
			p.warn(&Error{
				Pos:     t.Pos,
				Warning: true,
				Msg:     fmt.Sprintf("the operands of ## are not macro-expanded, so this pastes the name __ROUNDING_MODE__ itself (giving %s), not the current rounding mode", pasted),
				Note:    RoundingModeNote(m.name, prefix),
			})
		}
		return
	}
}

// RoundingModeNote shows the macros that map name to prefix+mode.
func RoundingModeNote(name, prefix string) string {
	return fmt.Sprintf("note: to get %[2]srte, %[2]srtz, ... expand __ROUNDING_MODE__ through a second macro:\n"+
		"    #define CAT(a, b) a ## b\n"+
		"    #define XCAT(a, b) CAT(a, b)\n"+
		"    #define %[1]s XCAT(%[2]s, __ROUNDING_MODE__)", name, prefix)
}

// pragma carries out #pragma.
func (p *preprocessor) pragma(dir Token, args []Token) *Error {
	if len(args) == 0 {
		return nil
	}
	if args[0].Text != "OPENCL" {
		p.warnf(args[0].Pos, "#pragma %s ignored", spell(args))
		return nil
	}
	if len(args) < 2 {
		return ppErrorf(args[0].Pos, "#pragma OPENCL needs EXTENSION, SELECT_ROUNDING_MODE or FP_CONTRACT")
	}
	kw, rest := args[1], args[2:]
	switch kw.Text {
	case "EXTENSION":
		// #pragma OPENCL EXTENSION name : enable|disable
		if len(rest) != 3 || rest[0].Kind != IDENT || rest[1].Kind != COLON || rest[2].Kind != IDENT {
			return ppErrorf(kw.Pos, "expected #pragma OPENCL EXTENSION <name> : enable|disable")
		}
		ext, behavior := rest[0], rest[2]
		var on bool
		switch behavior.Text {
		case "enable":
			on = true
		case "disable":
		default:
			return ppErrorf(behavior.Pos, "expected enable or disable, found %q", behavior.Text)
		}
		switch ext.Text {
		case SelectExt, "all":
			p.st.ext = on
			if on {
				p.st.setMacro(roundingModeMacro.name, roundingModeMacro)
			} else {
				p.st.setMacro(roundingModeMacro.name, nil)
				p.st.mode = round.RTE
			}
		case "cl_khr_fp64", "cl_khr_fp16":
			// half and double are always available in clconv.
		default:
			p.warnf(ext.Pos, "unknown extension %s ignored", ext.Text)
		}
		return nil
	case "SELECT_ROUNDING_MODE":
		if len(rest) == 0 || rest[0].Kind != IDENT {
			return ppErrorf(kw.Pos, "#pragma OPENCL SELECT_ROUNDING_MODE needs a mode: rte, rtz, rtp or rtn")
		}
		mode, err := round.ParseMode(rest[0].Text)
		if err != nil {
			return ppErrorf(rest[0].Pos, "%v", err)
		}
		if len(rest) > 1 {
			return ppErrorf(rest[1].Pos, "unexpected %s after the rounding mode", describe(rest[1]))
		}
		if !p.st.ext {
			return ppErrorf(kw.Pos, "#pragma OPENCL SELECT_ROUNDING_MODE needs the extension: write #pragma OPENCL EXTENSION %s : enable first", SelectExt)
		}
		p.st.mode = mode
		return nil
	case "FP_CONTRACT":
		// clconv never contracts a*b+c into an fma, whatever the setting.
		if len(rest) != 1 || rest[0].Text != "ON" && rest[0].Text != "OFF" && rest[0].Text != "DEFAULT" {
			return ppErrorf(kw.Pos, "expected #pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT")
		}
		return nil
	}
	p.warnf(kw.Pos, "unknown #pragma OPENCL %s ignored", kw.Text)
	return nil
}

// read returns the next token of s, unexpanded.
func (p *preprocessor) read(s *source) (Token, *Error) {
	if n := len(s.stack); n > 0 {
		t := s.stack[n-1]
		s.stack = s.stack[:n-1]
		return t, nil
	}
	if !s.main {
		return Token{Kind: EOF, Pos: s.end}, nil
	}
	return p.lexRead()
}

// push puts toks in front of the rest of s.
func (p *preprocessor) push(s *source, toks []Token) {
	for i := len(toks) - 1; i >= 0; i-- {
		s.stack = append(s.stack, toks[i])
	}
}

// expandNext returns the next token of s that is not a macro to expand.
func (p *preprocessor) expandNext(s *source) (Token, *Error) {
	for {
		t, err := p.read(s)
		if err != nil || t.Kind != IDENT {
			return t, err
		}
		m := p.st.macros[t.Text]
		if m == nil || p.hidden(t) {
			return t, nil
		}
		ok, err := p.expandMacro(s, m, t)
		if err != nil {
			return t, err
		}
		if !ok {
			return t, nil
		}
	}
}

// expandList macro-expands toks on their own (a macro argument before
// substitution, or the expression of an #if).
func (p *preprocessor) expandList(toks []Token, end Pos) ([]Token, *Error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxMacroDepth {
		pos := end
		if len(toks) > 0 {
			pos = toks[0].Pos
		}
		return nil, ppErrorf(pos, "macro arguments nested too deeply (more than %d levels)", maxMacroDepth)
	}
	s := &source{end: end}
	p.push(s, toks)
	var out []Token
	for {
		t, err := p.expandNext(s)
		if err != nil {
			return nil, err
		}
		if t.Kind == EOF {
			return out, nil
		}
		out = append(out, t)
	}
}

// expandMacro replaces the use t of macro m at the front of s by its
// expansion. It reports false when t is not a use after all (a
// function-like macro's name without an argument list).
func (p *preprocessor) expandMacro(s *source, m *macro, t Token) (bool, *Error) {
	id := p.nameID(m.name)
	if m.builtin != nil {
		out := m.builtin(p, t)
		if err := p.finish(out, t, m, t.hide.add(id)); err != nil {
			return false, err
		}
		p.push(s, out)
		return true, nil
	}
	if !m.funcLike {
		out, err := p.subst(m, t, nil)
		if err != nil {
			return false, err
		}
		if err := p.finish(out, t, m, t.hide.add(id)); err != nil {
			return false, err
		}
		p.push(s, out)
		return true, nil
	}
	u, err := p.read(s)
	if err != nil {
		return false, err
	}
	if u.Kind != LPAREN {
		s.stack = append(s.stack, u)
		return false, nil
	}
	args, rparen, err := p.collectArgs(s, m, t)
	if err != nil {
		return false, err
	}
	out, err := p.subst(m, t, args)
	if err != nil {
		return false, err
	}
	if err := p.finish(out, t, m, hideIntersect(t.hide, rparen.hide, &p.hideWork).add(id)); err != nil {
		return false, err
	}
	p.push(s, out)
	return true, nil
}

// finish gives the tokens of an expansion the hide set hs and the use's
// spacing; it fails when the hide sets have cost too much.
func (p *preprocessor) finish(out []Token, use Token, m *macro, hs *hideSet) *Error {
	for i := range out {
		out[i].hide = p.union(out[i].hide, hs)
		out[i].BOL = false
		if out[i].Macro == "" && !out[i].Pos.IsValid() {
			out[i].Pos = use.Pos
			out[i].Macro = macroName(use, m)
		}
	}
	if len(out) > 0 {
		out[0].Space = use.Space
	}
	return p.hideErr(use)
}

// union returns the union of two hide sets, memoized.
func (p *preprocessor) union(a, b *hideSet) *hideSet {
	switch {
	case a == nil || a == b:
		return b
	case b == nil:
		return a
	}
	key := [2]*hideSet{a, b}
	if r, ok := p.unions[key]; ok {
		return r
	}
	if p.unions == nil {
		p.unions = make(map[[2]*hideSet]*hideSet)
	}
	r := hideUnion(a, b, &p.hideWork)
	p.unions[key] = r
	return r
}

func macroName(use Token, m *macro) string {
	if use.Macro != "" {
		return use.Macro
	}
	return m.name
}

// collectArgs reads the arguments of a call of m after its '('.
func (p *preprocessor) collectArgs(s *source, m *macro, name Token) ([][]Token, Token, *Error) {
	saved := p.collecting
	p.collecting = s.main
	defer func() { p.collecting = saved }()
	var args [][]Token
	var cur []Token
	depth := 0
	for {
		t, err := p.read(s)
		if err != nil {
			return nil, t, err
		}
		switch t.Kind {
		case EOF:
			return nil, t, &Error{Pos: name.Pos, Msg: fmt.Sprintf("unterminated argument list invoking macro %s", m.name), Incomplete: s.main}
		case LPAREN:
			depth++
		case RPAREN:
			if depth == 0 {
				args = append(args, cur)
				return p.checkArgs(m, name, args, t)
			}
			depth--
		case COMMA:
			if depth == 0 && !(m.variadic && len(args) == len(m.params)-1) {
				args = append(args, cur)
				cur = nil
				continue
			}
		}
		cur = append(cur, t)
	}
}

func (p *preprocessor) checkArgs(m *macro, name Token, args [][]Token, rparen Token) ([][]Token, Token, *Error) {
	if len(m.params) == 0 && len(args) == 1 && len(args[0]) == 0 {
		args = nil
	}
	if m.variadic && len(args) == len(m.params)-1 {
		args = append(args, nil)
	}
	if len(args) != len(m.params) {
		want := strconv.Itoa(len(m.params))
		if m.variadic {
			want = "at least " + strconv.Itoa(len(m.params)-1)
		}
		return nil, rparen, ppErrorf(name.Pos, "macro %s takes %s argument%s, got %d", m.name, want, plural(len(m.params)), len(args))
	}
	return args, rparen, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// subst returns m's body with the arguments substituted (C99 6.10.3.1-3):
// # param stringizes the argument as written; a parameter next to ## is
// replaced by its argument as written; every other parameter by its
// argument fully macro-expanded. Body tokens take the use's position.
func (p *preprocessor) subst(m *macro, use Token, args [][]Token) ([]Token, *Error) {
	var out []Token
	expanded := make([][]Token, len(args))
	done := make([]bool, len(args))
	body := m.body
	fromBody := func(t Token) Token {
		t.Pos = use.Pos
		t.Macro = macroName(use, m)
		t.hide = nil
		return t
	}
	for i := 0; i < len(body); i++ {
		t := body[i]
		if t.Kind == HASH && m.funcLike {
			if j := m.param(body[i+1]); j >= 0 {
				str := stringize(args[j])
				if err := p.made(len(str.Text), use); err != nil {
					return nil, err
				}
				out = append(out, fromBody(str))
				i++
				continue
			}
		}
		if t.Kind == HASHHASH {
			lhs := Token{Kind: placemarker}
			if n := len(out); n > 0 {
				lhs, out = out[n-1], out[:n-1]
			}
			i++
			var rhs []Token
			if j := m.param(body[i]); j >= 0 {
				rhs = args[j]
			} else {
				rhs = []Token{fromBody(body[i])}
			}
			if len(rhs) == 0 {
				rhs = []Token{{Kind: placemarker}}
			}
			pasted, err := paste(lhs, rhs[0], use, m)
			if err != nil {
				return nil, err
			}
			if err := p.made(len(pasted.Text), use); err != nil {
				return nil, err
			}
			out = append(out, pasted)
			out = append(out, rhs[1:]...)
			continue
		}
		if j := m.param(t); j >= 0 {
			if i+1 < len(body) && body[i+1].Kind == HASHHASH {
				if len(args[j]) == 0 {
					out = append(out, Token{Kind: placemarker})
				} else {
					out = append(out, args[j]...)
				}
				continue
			}
			if !done[j] {
				x, err := p.expandList(args[j], use.Pos)
				if err != nil {
					return nil, err
				}
				expanded[j], done[j] = x, true
			}
			arg := expanded[j]
			if len(arg) > 0 {
				arg = append([]Token(nil), arg...)
				arg[0].Space = t.Space
			}
			out = append(out, arg...)
			continue
		}
		out = append(out, fromBody(t))
	}
	// Placemarkers have done their work.
	n := 0
	for _, t := range out {
		if t.Kind != placemarker {
			out[n] = t
			n++
		}
	}
	out = out[:n]
	p.budget -= n
	if p.budget < 0 {
		return nil, ppErrorf(use.Pos, "macro expansion too large (more than %d tokens)", maxExpansion)
	}
	return out, nil
}

// made charges n bytes of tokens made by ## or # to their budget: nested
// pasting and stringizing can double a token's length at every level.
func (p *preprocessor) made(n int, use Token) *Error {
	p.madeBytes -= n
	if p.madeBytes < 0 {
		return ppErrorf(use.Pos, "macro expansion too large (## and # made more than %d bytes)", maxMadeBytes)
	}
	return nil
}

// stringize returns the string literal # makes of an argument.
func stringize(arg []Token) Token {
	var b strings.Builder
	b.WriteByte('"')
	for i, t := range arg {
		if i > 0 && t.Space {
			b.WriteByte(' ')
		}
		if t.Kind == STRING || t.Kind == CHAR {
			for _, c := range []byte(t.Text) {
				if c == '"' || c == '\\' {
					b.WriteByte('\\')
				}
				b.WriteByte(c)
			}
			continue
		}
		b.WriteString(t.Text)
	}
	b.WriteByte('"')
	return Token{Kind: STRING, Text: b.String()}
}

// paste joins two tokens with ##; the result must be one valid token.
func paste(lhs, rhs Token, use Token, m *macro) (Token, *Error) {
	switch {
	case lhs.Kind == placemarker:
		return rhs, nil
	case rhs.Kind == placemarker:
		return lhs, nil
	}
	text := lhs.Text + rhs.Text
	lx := newLexer("", text)
	t, err := lx.next()
	end, _ := lx.next()
	if err != nil || t.Kind == EOF || end.Kind != EOF || t.Text != text {
		return t, ppErrorf(use.Pos, "pasting %q and %q in macro %s does not give a valid token", lhs.Text, rhs.Text, m.name)
	}
	t.Pos, t.Space, t.BOL = use.Pos, lhs.Space, false
	t.Macro = macroName(use, m)
	return t, nil
}
