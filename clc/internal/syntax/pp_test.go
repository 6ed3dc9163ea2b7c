package syntax

import (
	"strings"
	"testing"

	"github.com/clconv/clconv/round"
)

// preprocess returns the tokens src preprocesses to, joined by spaces, and
// the warnings.
func preprocess(src string) (string, []string, error) {
	var warns []string
	p := newPreprocessor("t", 1, src, NewState(round.RTE), func(e *Error) { warns = append(warns, e.Error()) })
	var parts []string
	for {
		tok, err := p.next()
		if err != nil {
			return "", warns, err
		}
		if tok.Kind == EOF {
			return strings.Join(parts, " "), warns, nil
		}
		parts = append(parts, tok.Text)
	}
}

func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// TestC99Examples runs the macro examples of C99 6.10.3.5 (3 and 4, less
// the characters clconv's lexer rejects), which exercise rescanning, hide
// sets, # and ##.
func TestC99Examples(t *testing.T) {
	tests := []struct{ src, want string }{
		{`#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };`,
			`f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };`},
		{`#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)`,
			`printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0", s);
"vers2.h"
"hello";
"hello" ", world"`},
		// 6.10.3.5 EXAMPLE 7: variable arguments.
		{`#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);`,
			`fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));`},
	}
	for _, tt := range tests {
		got, _, err := preprocess(tt.src)
		if err != nil {
			t.Errorf("%s\n: %v", tt.src, err)
			continue
		}
		if noSpace(got) != noSpace(tt.want) {
			t.Errorf("got\n%s\nwant\n%s", got, tt.want)
		}
	}
}

func TestPreprocessor(t *testing.T) {
	tests := []struct{ src, want string }{
		{"#define foo foo\nfoo", "foo"},
		{"#define f(x) x f\nf(1)(2)", "1 f ( 2 )"},
		{"#define f(x) (x)\nf", "f"},
		{"#define f(x) (x)\nf\n(1)", "( 1 )"},
		{"#define E\n#define f(x) [x]\nf(E)f()", "[ ] [ ]"},
		{"#define C(a, b) a ## b\nC(,x) C(x,) C(,) C(1, 2) C(+, =) C(<<, =)", "x x 12 += <<="},
		{"#define S(x) #x\nS( a  +   b ) S(\"q\\n\") S('\"')", `"a + b" "\"q\\n\"" "'\"'"`},
		{"#define CAT(a, b) a ## b\n#define XCAT(a, b) CAT(a, b)\n#define N 1\nCAT(x, N) XCAT(x, N)", "xN x1"},
		{"#define A 1\n#undef A\nA", "A"},
		{"#if 1 + 2 * 3 == 7 && (1 ? 2 : (1 / 0)) && -1 < 0 && !(-1 < 0u)\nyes\n#else\nno\n#endif", "yes"},
		{"#if 0\n' unterminated \"junk $ @\n#if 1\n#error not here\n#endif\n#elif 1\nb\n#else\nc\n#endif", "b"},
		{"#ifdef INT_MAX\na\n#endif\n#ifndef NOPE\nb\n#endif\n#if defined INT_MAX && defined(CHAR_BIT) && !defined(NOPE)\nc\n#endif", "a b c"},
		{"#if __OPENCL_VERSION__ >= CL_VERSION_1_2 && cl_khr_fp64 && true && !false\nok\n#endif", "ok"},
		{"__LINE__\n\n__LINE__ __FILE__", `1 3 "t"`},
		{"#define X 1\n#define X 1\n#define Y(a) a\n#define Y(a) a\nX Y(2)", "1 2"},
		{"#\n# /* null directive */\nx", "x"},
		{"#pragma unroll\n#pragma OPENCL FP_CONTRACT OFF\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nx", "x"},
		{"#if 0xffffffffffffffff == -1\nu\n#endif\n#if (0x7fffffffffffffff + 1) < 0\nwrap\n#endif", "u wrap"},
		{"#if 'a' == 97 && '\\377' < 0\nchar\n#endif", "char"},
	}
	for _, tt := range tests {
		got, _, err := preprocess(tt.src)
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%q\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestPreprocessorErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"#define", "t:1:2: #define needs a macro name"},
		{"#define 1", "t:1:9: macro names must be identifiers"},
		{"#define defined", `t:1:9: "defined" cannot be used as a macro name`},
		{"#define f(x, x) x", `t:1:14: duplicate macro parameter "x"`},
		{"#define f(x x", "t:1:11: expected , or ) in the parameter list of macro f"},
		{"#define f(", "t:1:10: missing ) in the parameter list of macro f"},
		{"#define f(x) #y", "t:1:14: # must be followed by a macro parameter"},
		{"#define f ## x", "t:1:11: ## cannot be at either end of a macro body"},
		{"#define f(x) x\nf(1, 2)", "t:2:1: macro f takes 1 argument, got 2"},
		{"#define f(x, y) x\nf(1)", "t:2:1: macro f takes 2 arguments, got 1"},
		{"#define f(x) x\nf(1", "t:2:1: unterminated argument list invoking macro f"},
		{"#define f(x) x\nf(\n#define y\n)", "t:3:1: preprocessing directive inside the arguments of a macro call"},
		{"#define C(a, b) a ## b\nC(+, -)", `t:2:1: pasting "+" and "-" in macro C does not give a valid token`},
		{"#if 1\nx", "t:1:1: unterminated conditional directive (#if without #endif)"},
		{"#endif", "t:1:2: #endif without #if"},
		{"#else", "t:1:2: #else without #if"},
		{"#if 1\n#else\n#else\n#endif", "t:3:2: #else after #else"},
		{"#if 1\n#else\n#elif 1\n#endif", "t:3:2: #elif after #else"},
		{"#if 1 / 0\n#endif", "t:1:7: division by zero in #if"},
		{"#if 1.5\n#endif", "t:1:5: floating constant in #if"},
		{"#if\n#endif", "t:1:2: #if with no expression"},
		{"#if (1\n#endif", "t:1:6: expected ) in #if, found end of input"},
		{"#if 1 +\n#endif", "t:1:7: expected a value in #if, found end of input"},
		{"#ifdef\n#endif", "t:1:2: #ifdef needs a macro name"},
		{"#if defined(\n#endif", "t:1:5: defined needs a macro name"},
		{"#error stop here", "t:1:1: #error stop here"},
		{"#include <x.h>", "t:1:1: #include is not supported: clconv has no header files, and OpenCL C's built-ins need none"},
		{"#foo", "t:1:2: invalid preprocessing directive #foo"},
		{"#undef __LINE__", "t:1:8: cannot #undef the builtin macro __LINE__"},
		{"#define __FILE__ 1", "t:1:9: cannot redefine the builtin macro __FILE__"},
		{"#define __ROUNDING_MODE__ rte", "t:1:9: cannot redefine the builtin macro __ROUNDING_MODE__"},
		{"#pragma OPENCL SELECT_ROUNDING_MODE rtz", "t:1:16: #pragma OPENCL SELECT_ROUNDING_MODE needs the extension: write #pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable first"},
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n#pragma OPENCL SELECT_ROUNDING_MODE rtx", `t:2:37: unknown rounding mode "rtx" (want rte, rtz, rtp or rtn)`},
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : on", `t:1:58: expected enable or disable, found "on"`},
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode", "t:1:16: expected #pragma OPENCL EXTENSION <name> : enable|disable"},
		{"#define A(x) A(x) A(x)\n#define B(x) A(A(A(A(x))))\nB(B(B(B(B(1)))))", "t:3:3: macro expansion too large (more than 262144 tokens)"},
		{"#define D(x) x ## x\n#define E(x) D(x)\n" + strings.Repeat("E(", 30) + "a" + strings.Repeat(")", 30), "t:3:21: macro expansion too large (## and # made more than 1048576 bytes)"},
		{"#define I(x) x\n" + strings.Repeat("I(", 300) + strings.Repeat(")", 300), "t:2:403: macro arguments nested too deeply (more than 200 levels)"},
	}
	for _, tt := range tests {
		_, _, err := preprocess(tt.src)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q:\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}

func TestPreprocessorWarnings(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"#define X 1\n#define X 2", "t:2:9: warning: macro X redefined (previous definition at t:1:9)"},
		{"#define INT_MAX 1", "t:1:9: warning: macro INT_MAX redefined (a predefined macro)"},
		{"#pragma unroll 4", "t:1:9: warning: #pragma unroll 4 ignored"},
		{"#pragma OPENCL EXTENSION cl_khr_gl_sharing : enable", "t:1:26: warning: unknown extension cl_khr_gl_sharing ignored"},
		{"#warning careful", "t:1:1: warning: #warning careful"},
		{"#if 1\n#endif junk", "t:2:8: warning: extra tokens at the end of #endif ignored"},
		{"#define foo foo ## __ROUNDING_MODE__", "t:1:17: warning: the operands of ## are not macro-expanded, so this pastes the name __ROUNDING_MODE__ itself (giving foo__ROUNDING_MODE__), not the current rounding mode"},
	} {
		_, warns, err := preprocess(tt.src)
		if err != nil || len(warns) != 1 || warns[0] != tt.want {
			t.Errorf("%q: warnings %q, error %v; want %q", tt.src, warns, err, tt.want)
		}
	}
}

// TestRoundingModeTokens checks the mode the preprocessor gives tokens: set
// by the pragma, restored at the end of a block, named by __ROUNDING_MODE__.
func TestRoundingModeTokens(t *testing.T) {
	src := `#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
a __ROUNDING_MODE__
#pragma OPENCL SELECT_ROUNDING_MODE rtz
b __ROUNDING_MODE__ {
#pragma OPENCL SELECT_ROUNDING_MODE rtp
c __ROUNDING_MODE__ { d
#pragma OPENCL SELECT_ROUNDING_MODE rtn
e } f } g __ROUNDING_MODE__
#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : disable
h __ROUNDING_MODE__`
	p := newPreprocessor("t", 1, src, NewState(round.RTE), nil)
	var got []string
	for {
		tok, err := p.next()
		if err != nil {
			t.Fatal(err)
		}
		if tok.Kind == EOF {
			break
		}
		got = append(got, tok.Text+":"+tok.Mode.String())
	}
	want := "a:rte rte:rte b:rtz rtz:rtz {:rtz c:rtp rtp:rtp {:rtp d:rtp e:rtn }:rtn f:rtp }:rtp g:rtz rtz:rtz h:rte __ROUNDING_MODE__:rte"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}
