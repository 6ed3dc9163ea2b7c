// Package clc is clconv's OpenCL C front end: it preprocesses, parses,
// checks and runs OpenCL C snippets over package value, so that every
// conversion and every floating operation it performs is the library's own.
//
// The stages follow a compiler's:
//
//   - internal/syntax: tokens, the C99 preprocessor (#define with # and ##,
//     #if and friends, #pragma, #error, the predefined macros such as
//     INT_MAX, FLT_MAX and __OPENCL_VERSION__, and the rounding mode of
//     #pragma OPENCL SELECT_ROUNDING_MODE, which __ROUNDING_MODE__ names),
//     the syntax tree and a recursive-descent parser;
//   - types.go, check.go: OpenCL C's typing rules (integer promotions, the
//     usual arithmetic conversions, scalar widening with its rank rule,
//     vector comparison results, implicit conversions, swizzles), name
//     resolution and the errors a compiler reports, all before anything
//     runs; the output is a typed tree with every conversion explicit;
//   - compile.go: that tree compiled, once per input (a function's body once
//     per definition), into Go closures: variables resolved to slots,
//     operators and conversions to the functions that compute one lane,
//     scalars kept as raw lanes; running them is bounded by a step limit and
//     a call depth;
//   - exec.go: the tree walker that evaluated the typed tree node by node
//     before the compiler, kept as the reference compiled code is tested
//     against (the tests run every program through both).
//
// The API is small: an Interp runs files (Run) and REPL inputs (Exec) with
// state kept between them and reports the variables they declare (Vars);
// an Evaluator evaluates one expression, as clconv eval does.
//
// Diagnostics are *Error values that print as "file:line:col: message" and
// quote the source line with a caret (Error.Detail); functions that can
// report several return an ErrorList.
//
// # Rounding modes
//
// Floating arithmetic (+ - * /) and conversions to floating types without a
// rounding suffix (casts, implicit conversions, convert_float and friends)
// round in the mode in force where they are written: rte unless
// #pragma OPENCL SELECT_ROUNDING_MODE, after
// #pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable, selected
// another. A pragma inside a block lasts to the block's end; a function
// rounds in the modes of its own body, wherever it is called from;
// float->integer conversions without a suffix always round toward zero.
//
// # Language
//
// docs/LANGUAGE.md in the repository describes the language subset (all
// scalar and vector types, operators, casts, vector literals, swizzles,
// convert_*, as_*, select, any, all, functions, if, for, while, do, blocks)
// and its limits. Where OpenCL leaves a result implementation-defined
// (float->integer out of range or NaN without _sat, as_ between different
// element counts), clconv gives the saturated value and the little-endian
// memory reinterpretation, and warns where it can.
//
// Its values are held to a real OpenCL C compiler's by differential
// testing: cmd/clconv/internal/difftest runs random programs here and as
// kernels on PoCL and compares them bit for bit (docs/LANGUAGE.md,
// "Proven").
package clc
