// Package difftest proves clconv's interpreter (package clc: clconv run,
// eval and repl) by differential testing against a real OpenCL C compiler,
// the way Csmith and YARPGen prove C compilers: it generates random
// programs, runs each in clconv and as a kernel on an OpenCL device, and
// compares every variable bit for bit.
//
// The pieces, in the order a program meets them:
//
//   - gen.go generates a program from a seed, by OpenCL C's typing rules
//     (ast.go holds the tree and the type model): top-level scalars and
//     vectors of every type and width, user functions, if/else, for, while
//     and do-while with small trip counts, break and continue, compound
//     assignment, ++ and -- on integers, ?:, component assignment,
//     swizzles, blocks that shadow, every convert_ suffix, as_ of every
//     legal size, select, any, all, and blocks under the rounding pragma.
//   - ub.go removes undefined behaviour: it runs the program in clconv,
//     whose warnings and errors name each place that computed something
//     OpenCL C leaves undefined (signed overflow, float->integer out of
//     range without _sat, integer division by zero), rewrites the node
//     there, and runs it again until nothing is reported.
//   - print.go prints clconv's copy and the kernel's. The kernel has the
//     top-level statements as its body and stores every top-level
//     variable's bytes; PoCL has no rounding pragma, so in a pragma block
//     each conversion to a floating type without a suffix gets the block's
//     mode spelled out (floating arithmetic, which only the pragma could
//     round, is generated in rte blocks only). Half of the kernels read
//     their constants from memory, so that both the device's constant
//     folding and its code are checked.
//   - harness.go runs clconv's copy in process, as clconv run --bits does
//     (clc.Interp.Run, then Vars: the same values run prints), and the
//     kernels on the device through clconv's OpenCL host layer in child
//     processes (device.go), many to a build; compare.go compares and
//     classifies: NaN bits only (the spec leaves them open), a value, a
//     build error, a crash, a run error.
//   - known.go names the differences already judged, each recognised by a
//     value-preserving rewrite that steers around it; minimize.go shrinks
//     every other finding to the smallest program that still shows it;
//     report.go writes it all for people.
//
// The generator and everything but the device runs are pure Go and tested
// without OpenCL. The comparison needs the build tag opencl: its tests run
// a fixed seed of 200 programs in CI and, with -long, 10,000 and more
// (docs/LANGUAGE.md, "Proven"). half is left out against PoCL 3.1, which
// has no cl_khr_fp16; the interpreter-only tests generate it.
package difftest
