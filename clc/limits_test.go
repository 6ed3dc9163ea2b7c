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

// TestStepsCountWork runs loops over one 8,000-operator statement, in each
// place a statement's expressions are charged, and a loop over a cheap one,
// under one budget: the step limit must stop each after about
// budget/(operators per iteration) iterations. Under the old count, one
// step per statement, the long loops ran budget/3 iterations of 8,000
// operators each (about a minute here; hours under the default budget).
func TestStepsCountWork(t *testing.T) {
	budget := int64(1_000_000)
	if testing.Short() {
		budget = 200_000 // the ports run under emulation
	}
	long := "x" + strings.Repeat(" + x", 8000)
	half := "x" + strings.Repeat(" + x", 4000) // for's clauses are one statement to the parser
	cases := []struct {
		name, src string
		ops       int64 // the operators of one iteration, about
	}{
		{"expression statement", "int x = 1, y = 0, n = 0;\nwhile (1) { y = " + long + "; n++; }", 8000},
		{"declaration", "int x = 1, n = 0;\nwhile (1) { int y = " + long + "; n++; }", 8000},
		{"if", "int x = 1, n = 0;\nwhile (1) { if (" + long + ") n++; }", 8000},
		{"while condition", "int x = 1, n = 0;\nwhile (" + long + ") n++;", 8000},
		{"do-while condition", "int x = 1, n = 0;\ndo n++; while (" + long + ");", 8000},
		{"for clauses", "int x = 1, y = 0, n = 0;\nfor (; " + half + "; y = " + half + ") n++;", 8000},
		{"return", "int x = 1, n = 0;\nint f(void) { return " + long + "; }\nwhile (1) { f(); n++; }", 8000},
		{"argument", "int x = 1, n = 0;\nvoid g(int a) {}\nwhile (1) { g(" + long + "); n++; }", 8000},
		{"vector", "int4 x = 1; int n = 0;\nwhile (1) { int4 y = " + long + "; n++; }", 8000},
		{"cheap statements", "int n = 0;\nwhile (1) n++;", 2},
	}
	for _, c := range cases {
		for _, repl := range []bool{false, true} {
			in := Interp{MaxSteps: budget}
			var err error
			if repl {
				_, err = in.Exec("t", 1, c.src)
			} else {
				err = in.Run("t", c.src)
			}
			if err == nil || !strings.Contains(err.Error(), "execution limit reached") {
				t.Errorf("%s (repl %v): error %v, want the step limit", c.name, repl, firstLine(err))
				continue
			}
			var n int64 = -1
			for _, v := range in.Vars() {
				if v.Name == "n" {
					n = v.Value.Int64(0)
				}
			}
			// Each iteration is charged its operators and a few steps for
			// its statements.
			if lo, hi := budget/(2*c.ops+20), budget/c.ops+1; n < lo || n > hi {
				t.Errorf("%s (repl %v): %d iterations under %d steps, want %d to %d", c.name, repl, n, budget, lo, hi)
			}
		}
	}
}

// TestStepCharges pins what one step buys: the budget that lets a program
// finish, and one less, which stops it at the statement that passes it.
func TestStepCharges(t *testing.T) {
	cases := []struct {
		src   string
		steps int64  // the least budget that runs src to its end
		at    string // where one step less stops it
	}{
		{"int x = 1;", 1, "t:1:5"},
		{"int x = 1;\nint y = x + x * x;", 4, "t:2:5"},                 // 1, then 1 + 2 (+, *)
		{"int x = 1;\nx = (x + 1) * 2;", 5, "t:2:1"},                   // 1, then 1 + 3 (=, +, *)
		{"float f = 1;\nint i = f;", 4, "t:2:5"},                       // 1 + 1 (int -> float), 1 + 1 (float -> int)
		{"int i = 0;\nwhile (i < 2) i++;", 13, "t:2:1"},                // 1; 3 x (1 + <); 2 x (1 + ++ +)
		{"int f(int a) { return a * a; }\nint y = f(3);", 5, "t:1:16"}, // 1 + 1 (the call), the call 1, return 1 + 1 (*)
		{"int i = 1;\nif (i && i > 0) i = 2;", 6, "t:2:17"},            // 1, 1 + 2 (&&, >), 1 + 1
	}
	for _, c := range cases {
		in := Interp{MaxSteps: c.steps}
		if err := in.Run("t", c.src); err != nil {
			t.Errorf("%q under %d steps: %v", c.src, c.steps, firstLine(err))
		}
		if c.steps == 1 {
			continue // MaxSteps 0 is the default
		}
		in = Interp{MaxSteps: c.steps - 1}
		err := in.Run("t", c.src)
		if err == nil || !strings.HasPrefix(err.Error(), c.at+": execution limit reached") {
			t.Errorf("%q under %d steps: %v, want the step limit at %s", c.src, c.steps-1, firstLine(err), c.at)
		}
	}
}

// TestSourceSize wants an input over MaxSource to fail with an error at
// the first byte past the limit, and one of MaxSource bytes to run.
func TestSourceSize(t *testing.T) {
	big := "int x = 1;\n" + strings.Repeat("x = 2;\n", (MaxSource-11)/7+1)
	var in Interp
	err := in.Run("t", big)
	line := 2 + (MaxSource-11)/7
	col := (MaxSource-11)%7 + 1
	want := fmt.Sprintf("t:%d:%d: the source is too large (%d bytes): clconv takes at most 4 MiB (4194304 bytes) in one input", line, col, len(big))
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Run: %v, want %s", firstLine(err), want)
	}
	if _, err := in.Exec("<repl>", 1, big); err == nil || !strings.Contains(err.Error(), "too large") || IsIncomplete(err) {
		t.Errorf("Exec: %v", firstLine(err))
	}
	var ev Evaluator
	if _, err := ev.EvalString("<expr>", "1"+strings.Repeat(" ", MaxSource)); err == nil || !strings.HasPrefix(err.Error(), "<expr>:1:4194305: the source is too large") {
		t.Errorf("Eval: %v", firstLine(err))
	}
	// At the limit: a comment fills it.
	ok := "int x = 1; //" + strings.Repeat("-", MaxSource-13)
	in = Interp{}
	if err := in.Run("t", ok); err != nil || len(ok) != MaxSource {
		t.Errorf("%d bytes: %v", len(ok), firstLine(err))
	}
}
