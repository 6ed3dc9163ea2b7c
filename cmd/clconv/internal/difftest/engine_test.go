package difftest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/internal/clctree"
	"github.com/clconv/clconv/round"
)

// TestEnginesAgree holds clconv's compiled interpreter to its tree walker
// (clc/compile.go) on random programs: as generated (with the signed
// overflows, out-of-range conversions and divisions by zero that Make would
// remove, so that warnings and runtime errors are compared too), and as the
// harness runs them, in two rounding modes and under step limits. Every
// variable's bits, the error, every warning and every conversion must be
// the same.
func TestEnginesAgree(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 150
	}
	type run struct {
		src   string
		mode  round.Mode
		steps int64
	}
	var runs []run
	for i := range n {
		src := Print(Generate(ProgramSeed(11, i), Config{Half: true}), Form{}).Src
		runs = append(runs, run{src, round.RTE, 0}, run{src, round.RTP, 0}, run{src, round.RTE, int64(1 + i%50)})
	}
	for _, p := range testPrograms(t) {
		runs = append(runs, run{Print(p, Form{}).Src, round.RTE, 0}, run{Print(p, Form{Canon: true}).Src, round.RTZ, 0})
	}
	limited, failed := 0, 0
	for _, r := range runs {
		got := engineRun(r.src, r.mode, r.steps, false)
		want := engineRun(r.src, r.mode, r.steps, true)
		if got != want {
			t.Fatalf("mode %v, max steps %d:\n%s\n--- compiled:\n%s\n--- tree walker:\n%s", r.mode, r.steps, r.src, got, want)
		}
		switch {
		case strings.Contains(got, "execution limit"):
			limited++
		case strings.Contains(got, "error: prog.cl"):
			failed++
		}
	}
	// The comparison must have seen step limits and runtime errors.
	if limited < len(runs)/10 || failed == 0 {
		t.Errorf("%d runs: %d stopped by the step limit, %d by another error", len(runs), limited, failed)
	}
}

// engineRun runs src and describes everything a caller sees.
func engineRun(src string, mode round.Mode, steps int64, tree bool) string {
	var b strings.Builder
	in := &clc.Interp{Mode: mode, MaxSteps: steps}
	in.Warn = func(w *clc.Error) { fmt.Fprintf(&b, "warning: %v\n", w) }
	if mode == round.RTE {
		// Without an observer, compiled code skips the conversions of
		// constants: the RTP runs see that path.
		in.OnConversion = func(c clc.Conversion) {
			fmt.Fprintf(&b, "%v %v %v %v %v %x -> %v %x\n", c.Pos, c.Kind, c.Op, c.Mode, c.Src.Type, c.Src.Lanes, c.Result.Type, c.Result.Lanes)
		}
	}
	if tree {
		clctree.Use(in)
	}
	if err := in.Run(File, src); err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	for _, v := range in.Vars() {
		fmt.Fprintf(&b, "%s %v %v = %x\n", v.Name, v.Type, v.Pos, v.Value.Lanes)
	}
	return b.String()
}
