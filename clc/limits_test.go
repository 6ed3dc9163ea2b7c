package clc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clconv/clconv/clc/internal/syntax"
)

// TestStackLimits runs the deepest programs the limits allow, and one step
// past each limit, and wants a result or the limit's error: never a crash.
// It matters most on js/wasm, whose default stack under node (V8's, about
// 1 MB) holds some 30000 Go frames: a Go program that recurses deeper dies
// there with a segmentation fault, not a panic. CI runs it there (scripts/ports.sh).
func TestStackLimits(t *testing.T) {
	chain := func(n int) string { return "1" + strings.Repeat(" + 1", n) } // n operators
	nest := func(n int, inner string) string {
		return strings.Repeat("(", n) + inner + strings.Repeat(")", n)
	}
	block := func(n int, inner string) string {
		return strings.Repeat("{ ", n) + inner + strings.Repeat(" }", n)
	}
	ifs := func(n int, inner string) string {
		return strings.Repeat("if (x >= 0) ", n) + inner
	}
	// A recursive function whose body holds a chain of k operators: the
	// evaluation depth is about calls * k.
	recurse := func(k, calls int) string {
		return fmt.Sprintf("int f(int n) { return n <= 0 ? 0 : %s + f(n - 1); }\nint r = f(%d);", chain(k), calls)
	}
	// Each parenthesis is a few levels of the parser's recursion (the
	// precedence ladder), so fewer than syntax.MaxDepth of them fit.
	const maxParens = 330
	cases := []struct {
		name, src, err string // err "" means the program must run
	}{
		{"longest chain", "int x = " + chain(syntax.MaxChain) + ";", ""},
		{"longest chain of comparisons", "int x = 1" + strings.Repeat(" < 2", syntax.MaxChain) + ";", ""},
		{"longest chain of && and ||", "int x = 1" + strings.Repeat(" && 2 || 0", syntax.MaxChain/2) + ";", ""},
		{"longest chain of commas", "int x = (1" + strings.Repeat(", 2", syntax.MaxChain) + ");", ""},
		{"longest chain of vector operators", "int4 x = (int4)(1)" + strings.Repeat(" * 3", syntax.MaxChain) + ";", ""},
		{"chain past the limit", "int x = " + chain(syntax.MaxChain+1) + ";", "statement too long"},
		{"deepest parentheses", "int x = " + nest(maxParens, "1") + ";", ""},
		{"parentheses past the limit", "int x = " + nest(maxParens+20, "1") + ";", "nested too deeply"},
		{"deepest parentheses around the longest chain", "int x = " + nest(maxParens, chain(syntax.MaxChain-1)) + ";", ""},
		{"deepest blocks", "int x = 0;\nvoid g() " + block(syntax.MaxDepth-8, "x = 1;") + "\nint y = (g(), x);", ""},
		{"deepest ifs", "int x = 0;\nvoid g() { " + ifs(syntax.MaxDepth-8, "x = 1;") + " }\nint y = (g(), x);", ""},
		{"deepest recursion", recurse(1, maxCallDepth-1), ""},
		{"recursion past the limit", recurse(1, maxCallDepth+5), "calls nested too deeply"},
		{"long body, deep recursion", recurse(200, maxEvalDepth/200), "calls nested too deeply"},
		{"longest body, one call", "int f(int n) { return " + chain(syntax.MaxChain-1) + " + n; }\nint r = f(1);", ""},
		{"deepest macros", "#define I(x) x\nint x = " + strings.Repeat("I(", 200) + "1" + strings.Repeat(")", 200) + ";", ""},
		{"deepest #if expression", "#if " + nest(maxParens, "1") + "\nint x = 1;\n#endif", ""},
	}
	for _, c := range cases {
		var in Interp
		err := in.Run("t", c.src)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, firstLine(err))
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, firstLine(err), c.err)
		}
	}
}

func firstLine(err error) string {
	if err == nil {
		return "<nil>"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
