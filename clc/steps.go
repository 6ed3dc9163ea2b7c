package clc

// The step limit (Interp.MaxSteps) bounds work, not statements: a statement
// that applies 8,000 operators costs 8,001 steps, so that a loop over it
// stops as soon, in the interpreter's time, as a loop over cheap statements
// with the same budget (one 8,000-operator statement looped under the old
// count, one step per statement, ran for hours before the default limit
// stopped it).
//
// Each statement charges its steps when it starts, before any of it runs:
// a declaration, an expression statement, an if and a return with a value
// charge 1 plus the operators of their expressions; each iteration of a
// loop charges 1 plus the operators of its condition and of for's third
// clause; each call of a user function charges 1, and its body's statements
// charge their own as they run. The operators are counted once, when the
// checker builds the statement (opCount): an operator that ?:, && or ||
// skip is charged all the same, so the charge is a bound on the work, and
// it is the same in the compiled code and in the tree walker, which stop
// at the same statement with the same message.

// opCount returns the operators of x: the nodes of its tree less
// constants and variables, which cost nothing to read. Calls count one
// each; the statements of their bodies are charged when they run. It walks
// the tree with a stack of its own, not by recursion: a chain of 8,192
// operators costs no Go stack (js/wasm's is small; compileExpr does the
// same).
func opCount(x expr) int64 {
	if x == nil {
		return 0
	}
	var n int64
	stack := []expr{x}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := x.(type) {
		case *constExpr, *varExpr:
			continue
		case *swizzleExpr:
			stack = append(stack, x.x)
		case *castExpr:
			stack = append(stack, x.x)
		case *convertExpr:
			stack = append(stack, x.x)
		case *asExpr:
			stack = append(stack, x.x)
		case *arithExpr:
			stack = append(stack, x.x, x.y)
		case *unaryExpr:
			stack = append(stack, x.x)
		case *notExpr:
			stack = append(stack, x.x)
		case *compareExpr:
			stack = append(stack, x.x, x.y)
		case *logicalExpr:
			stack = append(stack, x.x, x.y)
		case *condExpr:
			stack = append(stack, x.c, x.x, x.y)
		case *assignExpr:
			stack = append(stack, x.lhs, x.rhs)
		case *incDecExpr:
			stack = append(stack, x.lhs, x.next)
		case *commaExpr:
			stack = append(stack, x.x, x.y)
		case *vecLitExpr:
			stack = append(stack, x.parts...)
		case *callExpr:
			stack = append(stack, x.args...)
		case *selectExpr:
			stack = append(stack, x.a, x.b, x.c)
		case *anyAllExpr:
			stack = append(stack, x.x)
		}
		n++
	}
	return n
}
