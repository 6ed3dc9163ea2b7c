package clc

import (
	"strconv"
	"strings"
	"testing"
)

// loopSrc is the loop of issue 30 with n iterations: two conversions, a
// float multiply-add and integer operations per iteration.
func loopSrc(n int) string {
	return strings.Replace(`int acc = 0;
float f = 0.5f;
for (int i = 0; i < N; i++) {
    acc += convert_int_sat_rte(f * (float)(i & 1023));
    f = convert_float_rtz(acc & 255) * 0.001f + 0.5f;
}
int result = acc;
`, "N", strconv.Itoa(n), 1)
}

// BenchmarkLoop runs the loop of issue 30 (100,000 iterations per op) with
// the tree walker and with compiled code, in one run, so that their ratio
// is measured on one machine under one load (benchstat, or
// scripts/interp-speed.sh, which prints the ratio).
func BenchmarkLoop(b *testing.B) {
	src := loopSrc(100_000)
	// TestMain's hook would run the tree walker beside compiled code.
	hook := testHookExec
	testHookExec = nil
	defer func() { testHookExec = hook }()
	for _, e := range []struct {
		name   string
		engine engine
	}{{"tree", engineTree}, {"compiled", engineCompiled}} {
		b.Run(e.name, func(b *testing.B) {
			for range b.N {
				in := Interp{engine: e.engine}
				if err := in.Run("loop.cl", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCalls runs a recursive function (fib(20), 21,891 calls per op)
// and a loop over float4 vectors (10,000 iterations per op) with the tree
// walker and compiled, for the parts of the language BenchmarkLoop leaves
// out: calls and their frames, and vectors, which compiled code still
// carries as value.Value.
func BenchmarkCalls(b *testing.B) {
	hook := testHookExec
	testHookExec = nil
	defer func() { testHookExec = hook }()
	for _, p := range []struct{ name, src string }{
		{"fib", "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\nint r = fib(20);"},
		{"float4", "float4 v = (float4)(1, 2, 3, 4); int4 c = 0;\nfor (int i = 0; i < 10000; i++) { v = v * 0.5f + (float4)(1.0f); c += v > 1.5f; }"},
	} {
		for _, e := range []struct {
			name   string
			engine engine
		}{{"tree", engineTree}, {"compiled", engineCompiled}} {
			b.Run(p.name+"/"+e.name, func(b *testing.B) {
				for range b.N {
					in := Interp{engine: e.engine}
					if err := in.Run("calls.cl", p.src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
