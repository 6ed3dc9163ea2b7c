package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/explain"
)

// TestExplainAcceptance is issue 15's example: convert_half(65520.0f).
func TestExplainAcceptance(t *testing.T) {
	out, errOut, status := clconv(t, "", "explain", "convert_half(65520.0f)")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{
		"convert_half(65520.0f) = (half)inf",
		"source   float 0x477ff000 = 65520",
		"sign 0 | exponent 10001110 | fraction 11111111111000000000000  (normal, 2^15)",
		"below 0x7bff = 65504  (the largest finite half)",
		"above 0x7c00 = inf  (65536 were the exponent range unbounded, beyond the largest finite half)",
		"rte   inf     0x7c00  *  overflow-inf: 65520 is exactly halfway between 65504 and 65536; ties to even gives 65536, which is beyond the largest finite half and overflows to inf",
		"rtz   65504   0x7bff     max-finite: rtz takes the neighbour toward zero, 65504",
		"rtp   inf     0x7c00     overflow-inf:",
		"rtn   65504   0x7bff     max-finite:",
		"RULES.md, Rounding (overflow)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
}

func TestExplainJSON(t *testing.T) {
	out, _, status := clconv(t, "", "explain", "--json", "convert_int2_sat_rte((float2)(2.5f, NAN))")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	var rep explain.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(rep.Conversions) != 1 || len(rep.Conversions[0].Lanes) != 2 {
		t.Fatalf("want one conversion of two lanes: %s", out)
	}
	c := rep.Conversions[0]
	if c.Function != "convert_int2_sat_rte" || c.Mode != "rte" || !c.Sat || c.Result != "(int2)(2, 0)" {
		t.Errorf("conversion %+v", c)
	}
	if n := len(c.Lanes[0].Results); n != 8 {
		t.Errorf("%d results for an integer destination, want 8 (4 modes, with and without _sat)", n)
	}
	for _, r := range c.Lanes[1].Results {
		if r.Bits != "0x00000000" || (r.Sat && r.Rule.ID != explain.RuleNaNZero) || (!r.Sat && r.Rule.ID != explain.RuleImplSat) {
			t.Errorf("NaN lane: %+v", r)
		}
	}
}

func TestExplainErrors(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		status int // 1: a bad expression; 2: a bad command line
		want   string
	}{
		{[]string{"explain", "convert_int("}, 1, "<arg>:1:13: expected an expression"},
		{[]string{"explain", "as_double4((float4)(1.0f))"}, 1, "<arg>:1:12: as_double4 needs an operand of 32 bytes"},
		{[]string{"explain", "as_float(1)"}, 1, "performs no conversion"},
		{[]string{"explain"}, 2, "explain takes one expression, got 0"},
		{[]string{"explain", "1", "2"}, 2, "explain takes one expression, got 2"},
		{[]string{"explain", "--mode", "rtx", "1.0f"}, 2, "--mode"},
		{[]string{"explain", "--nope", "1"}, 2, "unknown flag"},
	} {
		out, errOut, status := clconv(t, "", tt.args...)
		if status != tt.status || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want %d and %q", tt.args, status, out, errOut, tt.status, tt.want)
		}
	}
	// An expression may start with '-', and --mode sets the start mode.
	out, _, status := clconv(t, "", "explain", "--mode", "rtz", "-16777217 + 0.0f")
	if status != 0 || !strings.Contains(out, "convert_float: int -> float (implicit conversion, rounds rtz) = (float)-16777216") {
		t.Errorf("status %d:\n%s", status, out)
	}
}
