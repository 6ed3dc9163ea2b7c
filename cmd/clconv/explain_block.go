package main

// clconv explain --block FORMAT [--scale-rule R] [--round M] [--tensor-scale S] [--json] V1,V2,...:
// the quantization of one block to a block-scaled format of package mx,
// step by step.

import (
	"fmt"
	"github.com/clconv/clconv/internal/floatfmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
)

// explainBlockFlag is the help text of explain's --block flag.
const explainBlockFlag = "explain the quantization of one block: --block FORMAT [--scale-rule R] [--round M] [--tensor-scale S] V1,V2,... (formats: mxfp4, mxfp6-e2m3, mxfp6-e3m2, mxfp8-e4m3, mxfp8-e5m2, nvfp4)"

// isExplainBlock reports whether explain's arguments ask for --block.
func isExplainBlock(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--block" || strings.HasPrefix(a, "--block=") {
			return true
		}
	}
	return false
}

// blockReport is what explain --block prints; --json prints it as is.
type blockReport struct {
	Format      string         `json:"format"`
	Element     string         `json:"element"`
	BlockSize   int            `json:"block_size"`
	Mode        string         `json:"mode"`
	ScaleRule   string         `json:"scale_rule,omitempty"`
	Given       int            `json:"given"`
	Padded      int            `json:"padded"`
	Notes       []string       `json:"notes,omitempty"`
	Amax        string         `json:"amax"`
	Rules       []blockRule    `json:"rules,omitempty"`
	TensorScale *blockScale    `json:"tensor_scale,omitempty"`
	BlockScale  *blockScale    `json:"block_scale,omitempty"`
	Elements    []blockElement `json:"elements"`
}

// blockRule is the shared exponent one MX rule gives.
type blockRule struct {
	Rule    string `json:"rule"`
	X       int    `json:"x"`
	Code    string `json:"code"`
	Scale   string `json:"scale"`
	Clamped bool   `json:"clamped"`
	Chosen  bool   `json:"chosen"`
}

// blockScale is NVFP4's E4M3 block scale or float32 tensor scale.
type blockScale struct {
	Code    string `json:"code,omitempty"`
	Value   string `json:"value"`
	Clamped bool   `json:"clamped,omitempty"`
	From    string `json:"from"`
}

// blockCode is an element code and its value.
type blockCode struct {
	Code  string `json:"code"`
	Value string `json:"value"`
}

// blockElement is one element of the block.
type blockElement struct {
	Index       int       `json:"index"`
	Value       string    `json:"value"`
	Scaled      string    `json:"scaled"`
	Below       blockCode `json:"below"`
	Above       blockCode `json:"above"`
	Result      blockCode `json:"result"`
	Rule        string    `json:"rule"`
	Dequantized string    `json:"dequantized"`
}

// runExplainBlock is explain --block.
func runExplainBlock(cmd *cobra.Command, args []string) error {
	var (
		format, rule, mode, ts string
		asJSON                 bool
		vals                   []string
	)
	rule, mode = "floor", "rte"
	ruleSet := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--block", "--scale-rule", "--round", "--mode", "--tensor-scale":
			if !hasVal {
				if i+1 >= len(args) {
					return usageError(cmd, fmt.Errorf("%s needs a value", name))
				}
				i++
				val = args[i]
			}
			switch name {
			case "--block":
				format = val
			case "--scale-rule":
				rule, ruleSet = val, true
			case "--round", "--mode":
				mode = val
			default:
				ts = val
			}
		case "--json":
			asJSON = true
		case "--":
			vals = append(vals, args[i+1:]...)
			i = len(args)
		default:
			if strings.HasPrefix(a, "--") {
				return usageError(cmd, fmt.Errorf("explain --block: unknown flag %s (valid: --block, --scale-rule, --round, --tensor-scale, --json)", a))
			}
			vals = append(vals, a)
		}
	}
	f, err := mx.ParseFormat(format)
	if err != nil {
		return usageError(cmd, fmt.Errorf("--block: %v", err))
	}
	r, err := mx.ParseScaleRule(rule)
	if err != nil {
		return usageError(cmd, fmt.Errorf("--scale-rule: %v", err))
	}
	if f.TensorScale && ruleSet {
		return usageError(cmd, fmt.Errorf("--scale-rule: %s has no shared exponent (its block scale is E4M3)", f.Name))
	}
	m, err := round.ParseMode(mode)
	if err != nil {
		return usageError(cmd, fmt.Errorf("--round: %v", err))
	}
	if ts != "" && !f.TensorScale {
		return usageError(cmd, fmt.Errorf("--tensor-scale applies to nvfp4, not %s", f.Name))
	}
	rep, err := explainBlock(f, r, m, strings.Join(vals, ","), ts)
	if err != nil {
		return usageError(cmd, err)
	}
	if asJSON {
		return convJSON(cmd.OutOrStdout(), rep)
	}
	printBlockReport(cmd.OutOrStdout(), rep)
	return nil
}

// explainBlock explains the quantization of the values in list (decimal
// literals separated by commas or spaces, read as float32) to f.
func explainBlock(f *mx.Format, rule mx.ScaleRule, m round.Mode, list, tsText string) (*blockReport, error) {
	fields := strings.FieldsFunc(list, func(c rune) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' })
	if len(fields) == 0 {
		return nil, fmt.Errorf("give the block's values: V1,V2,... (at most %d for %s)", f.BlockSize, f.Name)
	}
	if len(fields) > f.BlockSize {
		return nil, fmt.Errorf("%d values: one %s block holds at most %d", len(fields), f.Name, f.BlockSize)
	}
	rep := &blockReport{Format: f.Name, Element: f.Elem.Name, BlockSize: f.BlockSize, Mode: m.String(), Given: len(fields), Padded: f.BlockSize - len(fields)}
	src := make([]float32, f.BlockSize)
	for i, s := range fields {
		v, err := strconv.ParseFloat(s, 32)
		if err != nil && !isRangeErr(err) {
			return nil, fmt.Errorf("value %d: %q is not a decimal number", i, s)
		}
		src[i] = float32(v)
		if q, ok := new(big.Rat).SetString(s); ok && !isInfNaN(float64(v)) && q.Cmp(new(big.Rat).SetFloat64(v)) != 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("value %d: %s is not a float32; read as %s", i, s, exactDec(v)))
		} else if ok && isInfNaN(float64(v)) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("value %d: %s overflows float32; read as %s", i, s, exactDec(v)))
		}
	}
	if rep.Padded > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d value(s) given: padded with %d zeros to a block of %d", rep.Given, rep.Padded, f.BlockSize))
	}
	var amax float64
	for _, x := range src {
		a := math.Abs(float64(x))
		if a > amax || a != a {
			amax = a
		}
		if amax != amax {
			break
		}
	}
	rep.Amax = exactDec(amax)
	opt := mx.Options{Rule: rule, Mode: m}
	scaleOf := func(i int) float64 { return 0 } // what element i is divided by
	var scaleVal float64                        // MX: 2^X; NVFP4: E4M3 scale * tensor scale
	nanBlock := math.IsNaN(amax) || math.IsInf(amax, 0)
	if f.TensorScale {
		var t float32
		from := "given (--tensor-scale)"
		if tsText != "" {
			v, err := strconv.ParseFloat(tsText, 32)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("--tensor-scale %s: want a positive finite float32", tsText)
			}
			t = float32(v)
		} else {
			fin := amax
			if nanBlock {
				fin = 0
				for _, x := range src {
					if a := math.Abs(float64(x)); !isInfNaN(a) {
						fin = max(fin, a)
					}
				}
			}
			t = mx.NVFP4TensorScale(float32(fin), false)
			from = "amax / 2688 in float32, as ModelOpt computes it for a one-block tensor"
		}
		opt.TensorScale = t
		rep.TensorScale = &blockScale{Value: exactDec(float64(t)), From: from}
		code, clamped := mx.NVFP4BlockScale(amax, t, mx.ModelOpt, round.RTE)
		sv := math.Float64frombits(minifloat.ToFloat64Bits(minifloat.E4M3, uint64(code)))
		rep.BlockScale = &blockScale{Code: fmt.Sprintf("0x%02x", code), Value: exactDec(sv), Clamped: clamped,
			From: "amax / (6 * tensor scale) rounded to E4M3 (nearest even), clamped to [2^-9, 448]; 1.0 for an all-zero block, NaN for a NaN or infinite amax"}
		d := float32(sv) * t // ModelOpt: x / (scale * tensor_scale), in float32
		scaleVal = float64(d)
		if t == 0 {
			d = 0
		}
		scaleOf = func(i int) float64 { return float64(d) }
	} else {
		rep.ScaleRule = rule.String()
		for _, rr := range mx.Rules {
			sh := mx.SharedExp(f, rr, amax)
			br := blockRule{Rule: rr.String(), X: sh.X, Code: fmt.Sprintf("0x%02x", sh.Code), Clamped: sh.Clamped, Chosen: rr == rule}
			if sh.Code == 0xff {
				br.Scale = "nan"
			} else {
				br.Scale = "2^" + strconv.Itoa(int(sh.Code)-127)
			}
			rep.Rules = append(rep.Rules, br)
		}
		sh := mx.SharedExp(f, rule, amax)
		scaleVal = math.Ldexp(1, int(sh.Code)-127)
		scaleOf = func(i int) float64 { return scaleVal }
	}

	// The library's result, which the explanation must reproduce.
	codes := make([]byte, f.BlockSize)
	scales := make([]byte, 1)
	if _, err := mx.Quantize(f, codes, scales, src, f.BlockSize, opt); err != nil {
		return nil, err
	}
	deq := make([]float64, f.BlockSize)
	if _, err := mx.Dequantize(f, deq, codes, scales, f.BlockSize, mx.Options{TensorScale: opt.TensorScale}); err != nil {
		return nil, err
	}
	ef := f.Elem
	val := func(c uint64) string { return exactDec(math.Float64frombits(minifloat.ToFloat64Bits(ef, c))) }
	maxV := math.Float64frombits(minifloat.ToFloat64Bits(ef, ef.MaxBits()))
	for i := range rep.Given {
		x := float64(src[i])
		e := blockElement{Index: i, Value: exactDec(x), Dequantized: exactDec(deq[i])}
		e.Result = blockCode{Code: fmt.Sprintf("0x%02x", codes[i]), Value: val(uint64(codes[i]))}
		var q float64
		switch {
		case nanBlock:
			q = math.NaN()
		case f.TensorScale:
			if d := scaleOf(i); d != 0 {
				q = float64(float32(x) / float32(d))
			}
		default:
			q = x / scaleVal // exact: a power of two within float64's range
		}
		e.Scaled = exactDec(q)
		if !isInfNaN(q) {
			r := ef.Prepare(minifloat.Binary64.Decode(math.Float64bits(q)))
			lo, hi := r.Result(round.RTN, true), r.Result(round.RTP, true)
			e.Below = blockCode{Code: fmt.Sprintf("0x%02x", lo), Value: val(lo)}
			e.Above = blockCode{Code: fmt.Sprintf("0x%02x", hi), Value: val(hi)}
			want := r.Result(m, true)
			vl := math.Float64frombits(minifloat.ToFloat64Bits(ef, lo))
			vh := math.Float64frombits(minifloat.ToFloat64Bits(ef, hi))
			vr := math.Float64frombits(minifloat.ToFloat64Bits(ef, uint64(codes[i])))
			switch {
			case x == 0:
				e.Rule = "zero"
			case math.Abs(q) > maxV:
				e.Rule = "clamped to ±max"
			case vl == vh:
				e.Rule = "exact"
			case vr == 0:
				e.Rule = "flushed to zero (" + modeRule(m, q, vl, vh) + ")"
			default:
				e.Rule = modeRule(m, q, vl, vh)
			}
			if math.Float64frombits(minifloat.ToFloat64Bits(ef, want)) != vr {
				return nil, fmt.Errorf("internal error: element %d: the rules give 0x%02x, mx.Quantize 0x%02x", i, want, codes[i])
			}
		} else {
			e.Rule = "NaN block (amax is NaN or infinite: the scale is NaN, elements 0)"
			e.Below = blockCode{Code: "-", Value: "-"}
			e.Above = e.Below
		}
		rep.Elements = append(rep.Elements, e)
	}
	return rep, nil
}

// modeRule names what decided a rounding of q between lo and hi in m.
func modeRule(m round.Mode, q, lo, hi float64) string {
	switch m {
	case round.RTZ:
		return "toward zero"
	case round.RTP:
		return "toward +inf"
	case round.RTN:
		return "toward -inf"
	}
	if q == (lo+hi)/2 {
		return "tie, to even"
	}
	return "nearest"
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func isInfNaN(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// exactDec returns x's exact decimal value: "5", "0.3125", "-0", "inf", "nan".
func exactDec(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case x == 0 && math.Signbit(x):
		return "-0"
	}
	return string(floatfmt.AppendExact(nil, x))
}

// printBlockReport prints explain --block's text report.
func printBlockReport(w io.Writer, r *blockReport) {
	fmt.Fprintf(w, "block: %s, %d elements of %s, mode %s\n", r.Format, r.BlockSize, r.Element, r.Mode)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "amax: %s\n", r.Amax)
	if r.Rules != nil {
		fmt.Fprintln(w, "shared exponent X and E8M0 scale (* the rule used):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, rr := range r.Rules {
			mark := " "
			if rr.Chosen {
				mark = "*"
			}
			cl := ""
			if rr.Clamped {
				cl = "\tclamped to [-127, 127]"
			}
			fmt.Fprintf(tw, "  %s %s\tX = %d\tscale %s\t%s%s\n", mark, rr.Rule, rr.X, rr.Code, rr.Scale, cl)
		}
		tw.Flush()
	}
	if r.TensorScale != nil {
		fmt.Fprintf(w, "tensor scale: %s (%s)\n", r.TensorScale.Value, r.TensorScale.From)
		cl := ""
		if r.BlockScale.Clamped {
			cl = ", clamped"
		}
		fmt.Fprintf(w, "block scale: E4M3 %s = %s%s\n", r.BlockScale.Code, r.BlockScale.Value, cl)
	}
	fmt.Fprintln(w, "elements:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  i\tvalue\tscaled\tbelow\tabove\tresult\trule\tdequantized")
	for _, e := range r.Elements {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s (%s)\t%s (%s)\t%s (%s)\t%s\t%s\n", e.Index, e.Value, e.Scaled,
			e.Below.Value, e.Below.Code, e.Above.Value, e.Above.Code, e.Result.Value, e.Result.Code, e.Rule, e.Dequantized)
	}
	tw.Flush()
}
