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
