// Package syntax is the first half of package clc's OpenCL C front end:
// what turns source text into a syntax tree.
//
//   - token.go, lexer.go: tokens with positions; comments, line splices,
//     character constants and string literals;
//   - pp.go, ppexpr.go: the C99 preprocessor (#define with # and ##, #undef,
//     #if/#ifdef/#ifndef/#elif/#else/#endif, #pragma, #error) with
//     Prosser's hide-set expansion, the predefined macros (INT_MAX,
//     FLT_MAX, INFINITY, __OPENCL_VERSION__, true, ...), and the rounding
//     mode of #pragma OPENCL SELECT_ROUNDING_MODE, which it stamps on every
//     token (Token.Mode) and which __ROUNDING_MODE__ names; State carries
//     the macros and the mode from one input to the next;
//   - ast.go, parser.go: the syntax tree and a recursive-descent parser
//     (precedence climbing for binary operators), ParseFile and ParseExpr.
//
// Package clc checks the tree (types, names) and runs it. Diagnostics here
// are *Error values without source lines; clc turns them into its own Error.
package syntax
