package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
)

// TestExplainBlockGolden: an MXFP4 block with amax 6 and the element 5,
// a tie between 4 and 6 under Floor (X = 0) that goes to the even code 4.
func TestExplainBlockGolden(t *testing.T) {
	out, stderr, st := convRun(t, nil, "explain", "--block", "mxfp4", "6,5")
	if st != 0 {
		t.Fatal(stderr)
	}
	want := `block: mxfp4, 32 elements of e2m1, mode rte
note: 2 value(s) given: padded with 30 zeros to a block of 32
amax: 6
shared exponent X and E8M0 scale (* the rule used):
  * floor  X = 0  scale 0x7f  2^0
    rceil  X = 0  scale 0x7f  2^0
    ceil   X = 1  scale 0x80  2^1
    even   X = 0  scale 0x7f  2^0
elements:
  i  value  scaled  below     above     result    rule          dequantized
  0  6      6       6 (0x07)  6 (0x07)  6 (0x07)  exact         6
  1  5      5       4 (0x06)  6 (0x07)  4 (0x06)  tie, to even  4
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestExplainBlockJSON checks the JSON shape and the chosen rule.
func TestExplainBlockJSON(t *testing.T) {
	out, stderr, st := convRun(t, nil, "explain", "--block=mxfp4", "--scale-rule", "ceil", "--round", "rtz", "--json", "6,", "-5,", "0.75")
	if st != 0 {
		t.Fatal(stderr)
	}
	var r blockReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if r.Format != "mxfp4" || r.ScaleRule != "ceil" || r.Mode != "rtz" || r.Given != 3 || r.Padded != 29 || len(r.Rules) != 4 || len(r.Elements) != 3 {
		t.Fatalf("%+v", r)
	}
	if !r.Rules[2].Chosen || r.Rules[2].Rule != "ceil" || r.Rules[2].X != 1 || r.Rules[0].Chosen {
		t.Errorf("rules %+v", r.Rules)
	}
	// Ceil: X = 1, 5/2 = 2.5 lies between 2 and 3; rtz gives -2, dequantized -4.
	e := r.Elements[1]
	if e.Scaled != "-2.5" || e.Below.Value != "-3" || e.Above.Value != "-2" || e.Result.Value != "-2" || e.Rule != "toward zero" || e.Dequantized != "-4" {
		t.Errorf("element 1: %+v", e)
	}
	var raw map[string]any
	json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"format", "element", "block_size", "mode", "scale_rule", "given", "padded", "amax", "rules", "elements"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
}

// TestExplainBlockAgrees explains random blocks in every format, rule and
// mode: the explanation must reproduce mx.Quantize (explainBlock fails
// otherwise).
func TestExplainBlockAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, f := range mx.Formats {
		for _, rule := range mx.Rules {
			for _, m := range []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN} {
				for range 20 {
					var vals []string
					for range f.BlockSize {
						vals = append(vals, fmt.Sprint(float32(r.NormFloat64()*float64(r.IntN(1000)))))
					}
					if _, err := explainBlock(f, rule, m, strings.Join(vals, ","), ""); err != nil {
						t.Fatalf("%s %s %s: %v", f.Name, rule, m, err)
					}
				}
			}
		}
	}
	rep, err := explainBlock(mx.NVFP4, mx.Floor, round.RTE, "6,5", "0.5")
	if err != nil || rep.TensorScale.Value != "0.5" || rep.BlockScale.Code != "0x40" {
		t.Errorf("nvfp4 with a tensor scale: %+v %v", rep, err)
	}
}

// TestExplainBlockErrors checks the messages and exit status 2.
func TestExplainBlockErrors(t *testing.T) {
	many := strings.Repeat("1,", 33) + "1"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--block", "mxfp5", "1"}, "mxfp4, mxfp6-e2m3, mxfp6-e3m2, mxfp8-e4m3, mxfp8-e5m2, nvfp4"},
		{[]string{"--block", "mxfp4", "--scale-rule", "up", "1"}, "floor, rceil, ceil, even"},
		{[]string{"--block", "mxfp4", "--round", "x", "1"}, "rte, rtz, rtp or rtn"},
		{[]string{"--block", "mxfp4", many}, "at most 32"},
		{[]string{"--block", "mxfp4", "abc"}, "not a decimal number"},
		{[]string{"--block", "mxfp4"}, "give the block's values"},
		{[]string{"--block", "mxfp4", "--tensor-scale", "2", "1"}, "applies to nvfp4"},
		{[]string{"--block", "nvfp4", "--scale-rule", "ceil", "1"}, "no shared exponent"},
	} {
		_, stderr, st := convRun(t, nil, append([]string{"explain"}, c.args...)...)
		if st != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q, want %q", c.args, st, stderr, c.want)
		}
	}
}
