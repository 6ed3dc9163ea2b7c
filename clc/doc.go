// Package clc is clconv's OpenCL C front end: it reads OpenCL C source and
// evaluates it over package value, so that every conversion it performs is
// the library's own.
//
// The stages follow a compiler's, each in its own file: token.go (tokens and
// positions), lexer.go, pp.go (the preprocessor; for now it expands the
// predefined macros such as INT_MAX, FLT_MAX and INFINITY), ast.go, parser.go
// (recursive descent with precedence climbing) and eval.go. Diagnostics are
// *Error values that print as "file:line:col: message" and can quote the
// source line with a caret (Error.Detail).
//
// # Language
//
// At this stage the front end takes one expression:
//
//   - integer constants (decimal, hex, octal; suffixes u, l, ul) typed by C's
//     rules, and floating constants (decimal or hex like 0x1.8p3f; suffix f for
//     float, h for half, none for double), correctly rounded;
//   - parentheses, unary - + ~ with C's integer promotions, and the binary
//     operators + - * / % << >> & | ^ with the usual arithmetic conversions
//     (integers wrap; division by zero is an error; shift counts are taken
//     modulo the width; floating arithmetic rounds to nearest even);
//   - casts to scalar types, (long)x, with C's semantics (toward zero to
//     integers; integers wrap; to floating types in the current rounding
//     mode), and casts of a scalar to a vector type, which broadcast;
//   - vector literals (float4)(a, b, c, d), (float4)(x), and compositions of
//     smaller vectors such as (float4)(f2, 1.0f, 2.0f), whose element counts
//     must add up exactly; scalar elements are converted to the element type
//     as an implicit conversion would, vector elements must have it already;
//   - calls of every convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn] and
//     as_<type>[n].
//
// Where OpenCL leaves a float->integer result implementation-defined (NaN or
// out of range without _sat), clconv gives the saturated value and the
// Evaluator can warn. Casts between vector types are errors, as in OpenCL C.
package clc
