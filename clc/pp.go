package clc

// The preprocessor stage sits between the lexer and the parser. For now it
// only expands OpenCL C's predefined object-like macros (INT_MAX, FLT_MAX,
// INFINITY, ...); directives, user macros, ## and # come with the
// interpreter.

// predefined holds the bodies of OpenCL C's predefined object-like macros
// (OpenCL C 3.0 §6.15.17 and §6.15.2.1, with the spellings of Clang's
// opencl-c-base.h).
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
}

// preprocessor turns the lexer's tokens into the parser's, expanding macros.
type preprocessor struct {
	lex     *lexer
	pending []Token // the rest of an expansion
}

func newPreprocessor(file, src string) *preprocessor {
	return &preprocessor{lex: newLexer(file, src)}
}

// next returns the next token after macro expansion.
func (p *preprocessor) next() (Token, *Error) {
	if len(p.pending) > 0 {
		t := p.pending[0]
		p.pending = p.pending[1:]
		return t, nil
	}
	t, err := p.lex.next()
	if err != nil || t.Kind != IDENT {
		return t, err
	}
	if _, ok := predefined[t.Text]; !ok {
		return t, nil
	}
	toks := expandPredefined(t, nil)
	p.pending = toks[1:]
	return toks[0], nil
}

// expandPredefined returns the full expansion of the predefined macro named
// by use. Every token takes use's position, as compilers report errors in a
// macro at its use. active holds the macros being expanded, which are not
// expanded again (C99 6.10.3.4).
func expandPredefined(use Token, active []string) []Token {
	lx := newLexer("", predefined[use.Text])
	active = append(active, use.Text)
	var out []Token
	for {
		t, err := lx.next()
		if err != nil || t.Kind == EOF {
			break
		}
		t.Pos, t.BOL = use.Pos, false
		if len(out) == 0 {
			t.BOL, t.Space = use.BOL, use.Space
		}
		if _, ok := predefined[t.Text]; ok && t.Kind == IDENT && !contains(active, t.Text) {
			out = append(out, expandPredefined(t, active)...)
			continue
		}
		out = append(out, t)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
