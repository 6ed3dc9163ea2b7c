package difftest

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/clc"
)

// Known is a difference the harness found and a person judged against the
// spec; docs/LANGUAGE.md ("Proven") gives each with its minimised example.
//
// A finding is attributed to a known difference by a rewrite, not by its
// looks: Avoid changes the program in a way that keeps every value clconv
// computes but steers around the device's bug. If the finding disappears
// from the rewritten program (it builds, runs, and agrees but for NaN
// bits), it is that bug. A finding that matches one is reported under its
// name and does not fail the tests; any other finding of a class other
// than NaNBits does.
type Known struct {
	Name    string
	Class   Class
	Avoid   Avoid
	Verdict string
}

// KnownDifferences are the judged differences.
var KnownDifferences = []Known{
	{
		Name:  "pocl-rte-constant-crash",
		Class: Crash,
		Avoid: AvoidNarrowRTE,
		Verdict: "PoCL bug: PoCL 3.1 (LLVM 15) dies with a segmentation fault (or, now and then, hangs) compiling convert_<integer>[_sat]_rte " +
			"of a scalar or 2-vector float, or a scalar double, whose value the compiler knows and that lies outside " +
			"the range of int (float) or long (double), NaN and infinities included: convert_int_sat_rte(3e9f), " +
			"convert_uchar2_sat_rte((float2)(3e9f)), convert_ushort_sat_rte(-HUGE_VAL). The 3- to 16-vectors, the " +
			"other rounding modes and the same value read from memory compile and saturate",
	},
	{
		Name:  "pocl-sat-nan-poison",
		Class: Value,
		Avoid: AvoidSatNaN,
		Verdict: "PoCL bug: PoCL 3.1 gives convert_<integer>_sat of a NaN that the compiler computes (0.0 / " +
			"convert_short_sat(g) with g 0) a value its optimiser treats as undefined instead of 0: stored " +
			"directly it reads 0, but select(a, b, c) and ?: with b that conversion and c true give a (our " +
			"reading, not checked in PoCL's source: LLVM poison from converting the NaN without testing for it). " +
			"The spec requires 0 (OpenCL C 6.2.3.3: NaN converts to 0 under _sat); clconv gives 0",
	},
	{
		Name:  "pocl-const-vector-logical",
		Class: Value,
		Avoid: AvoidConstLogical,
		Verdict: "PoCL bug (its Clang 15 front end): a const local initialized with a vector && or || gets 1 " +
			"in each true lane instead of -1 (all bits set, OpenCL C 6.3.h): Clang's constant evaluator, which " +
			"folds a const variable's initializer, applies C's scalar rule to vectors; the same expression " +
			"without const, and == or !, give -1. clconv gives -1",
	},
	{
		Name:  "pocl-bitcast-sign",
		Class: Value,
		Avoid: AvoidBitcastSign,
		Verdict: "PoCL bug (its LLVM 15 optimiser): when the compiler knows that a float vector is not negative " +
			"(convert_float4 of a uchar4), it takes every element of as_char16 of it for non-negative, so " +
			"select, ?: and < on them ignore the bytes whose top bit is set; the bytes themselves are right. " +
			"clconv selects on the most significant bit of each element, as select is specified",
	},
	{
		Name:  "pocl-rtz-minimum-folding",
		Class: Value,
		Avoid: AvoidRTZFold,
		Verdict: "PoCL bug: folding convert_float_rtz or convert_double_rtz of a negative int or long that the " +
			"compiler knows, and whose nearest float is -2^31 (float from int) or -2^63 (from long), PoCL 3.1 " +
			"gives that nearest value instead of the one toward zero: convert_float_rtz(-2147483647) is " +
			"-2147483648.0f (0xcf000000) on PoCL, -2147483520.0f (0xceffffff) in clconv and by the spec; " +
			"convert_double4_rtz((long4)(-9223372036854775806L)) is -0x1p63 on PoCL, -0x1.fffffffffffffp62 " +
			"in clconv. The same values read from memory convert correctly",
	},
	{
		Name:  "pocl-select-divisor",
		Class: Value,
		Avoid: AvoidSelectDivisor,
		Verdict: "PoCL bug (our reading: LLVM 15's fold of X / select(C, 0, Y) into X / Y applied to vectors " +
			"whose arm is zero in some lanes only): a vector integer / or % whose divisor is a select() " +
			"(or ?:) one of whose arms has a zero lane divides by the other arm in every lane. With " +
			"d = select((uint2)(12u), (uint2)(7u, 0u), (uint2)(x, 0u)) and x = 0xfa8dfa95 read from memory, d " +
			"is (7, 12) on PoCL too, but (uint2)(28036u, 5u) / d gives 28036 / 12 = 2336 (0x920) in lane 0 " +
			"instead of 4005 (0xfa5), and % gives 4 instead of 1; with no zero lane, or as a scalar, it is " +
			"right. The divisor chosen in every lane is non-zero, so nothing is undefined; clconv divides " +
			"lane by lane, as OpenCL C 6.3 says",
	},
}

// attribute names, for each finding that no class judges, the known
// difference whose rewrite makes it disappear; a finding that no single
// rewrite explains is tried with all the rewrites of its class at once
// (a program may show two known bugs).
func (h *harness) attribute(findings []*Finding, cases []*kase) error {
	err := h.tryRewrites(findings, cases, func(f *Finding) []Known {
		var out []Known
		for _, k := range KnownDifferences {
			if k.Class == f.Class {
				out = append(out, k)
			}
		}
		return out
	})
	if err != nil {
		return err
	}
	return h.tryRewrites(findings, cases, func(f *Finding) []Known {
		all := Known{Class: f.Class}
		var names []string
		for _, k := range KnownDifferences {
			if k.Class == f.Class {
				all.Avoid |= k.Avoid
				names = append(names, k.Name)
			}
		}
		if len(names) < 2 {
			return nil
		}
		all.Name = strings.Join(names, " and/or ")
		return []Known{all}
	})
}

// tryRewrites runs, for each unjudged finding, its program rewritten for
// each of the known differences candidates gives, and names the first that
// makes the finding disappear.
func (h *harness) tryRewrites(findings []*Finding, cases []*kase, candidates func(*Finding) []Known) error {
	type try struct {
		f    *Finding
		name string
		vars []clc.Var
	}
	var tries []try
	var jobs []*Printed
	for _, f := range findings {
		if f.Judged() {
			continue
		}
		c := caseOf(cases, f.Index)
		for i, k := range candidates(f) {
			form := Form{Canon: true, Avoid: k.Avoid}
			vars, err := Interpret(Print(c.prog, form).Src, nil)
			if err != nil {
				return fmt.Errorf("program %d rewritten for %s: clconv: %v", c.index, k.Name, err)
			}
			form.Kernel, form.Name, form.Loads = true, fmt.Sprintf("k%d_%d", c.index, i), c.index%2 == 1
			tries = append(tries, try{f: f, name: k.Name, vars: vars})
			jobs = append(jobs, Print(c.prog, form))
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	outs := h.runJobs(jobs)
	for i, t := range tries {
		if outs[i].class != "" || t.f.Known != "" {
			continue
		}
		diffs, err := compare(t.vars, jobs[i].Slots, outs[i].out, true)
		if err != nil {
			return err
		}
		if len(diffs) == 0 {
			t.f.Known = t.name
		}
	}
	return nil
}
