// Package clctree lets tests outside package clc run clc's tree walker, the
// evaluator that compiled code replaced and is held to (clc/compile.go):
// cmd/clconv/internal/difftest runs its random programs through both.
// Package clc sets Use when it is initialized; the package exists because
// clc's own internal packages cannot be imported from cmd/clconv.
package clctree

// Use, set by package clc, makes the *clc.Interp or *clc.Evaluator it is
// given run with the tree walker. It panics on anything else.
var Use func(interpOrEvaluator any)
