package main

// clconv convert --to mxfp4|mxfp6-e2m3|mxfp6-e3m2|mxfp8-e4m3|mxfp8-e5m2|nvfp4:
// quantization of a .npy file or a safetensors checkpoint to the block-scaled
// formats of package mx, written as safetensors in the layouts of published
// checkpoints (package checkpoint, docs/SAFETENSORS.md).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/ggufconv"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// mxAddConvertFlags registers convert's flags for block formats.
func mxAddConvertFlags(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.String("scale-rule", "floor", "--to an MX format: the shared-exponent rule: floor (OCP MX v1.0), rceil (NVIDIA), ceil or even (torchao)")
	fl.Bool("pad", false, "--to a block format: pad each row's last block with zeros when the last axis is not a whole number of blocks")
}

// mxFormatNames lists the block formats for messages.
func mxFormatNames() string {
	var s []string
	for _, f := range mx.Formats {
		s = append(s, f.Name)
	}
	return strings.Join(s, ", ")
}

// runConvertMX handles convert when --to names a block format (or when a
// flag of block formats is given): it reports whether it did, and the
// command's result.
func runConvertMX(cmd *cobra.Command, args []string, f *convertFlags) (bool, error) {
	fail := func(err error) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v\n", err)
		return exitStatus(dataStatus(err))
	}
	fl := cmd.Flags()
	var bf *mx.Format
	if f.name == "" && f.to != "" {
		var err error
		bf, err = mx.ParseFormat(f.to)
		if err != nil {
			if l := strings.ToLower(f.to); strings.HasPrefix(l, "mx") || strings.HasPrefix(l, "nvfp") {
				return true, fail(fmt.Errorf("--to %s: %v", f.to, err))
			}
			bf = nil
		}
	}
	if bf == nil {
		for _, n := range []string{"scale-rule", "pad"} {
			if fl.Changed(n) {
				return true, fail(fmt.Errorf("--%s applies to the block formats: --to %s", n, mxFormatNames()))
			}
		}
		return false, nil
	}
	for _, n := range []string{"name", "sat", "from", "in-format", "out-format", "block-size", "weight-block-size", "scale-suffix", "recipe"} {
		if fl.Changed(n) {
			why := "does not apply to block formats"
			if n == "sat" {
				why = "does not apply: block formats always clamp to ±max"
			}
			return true, fail(fmt.Errorf("--to %s: --%s %s", bf.Name, n, why))
		}
	}
	ruleName, _ := fl.GetString("scale-rule")
	rule, err := mx.ParseScaleRule(ruleName)
	if err != nil {
		return true, fail(fmt.Errorf("--scale-rule: %v", err))
	}
	if bf.TensorScale && fl.Changed("scale-rule") {
		return true, fail(fmt.Errorf("--scale-rule: %s has no shared exponent (its E4M3 block scales are rounded to nearest even, as ModelOpt does)", bf.Name))
	}
	mode := round.RTE
	if f.round != "" {
		if mode, err = round.ParseMode(f.round); err != nil {
			return true, fail(fmt.Errorf("--round: %v", err))
		}
	}
	pad, _ := fl.GetBool("pad")
	inPath, outPath := args[0], args[1]
	if inPath == "-" || outPath == "-" {
		return true, fail(fmt.Errorf("--to %s writes a safetensors file: give IN and OUT paths, not '-'", bf.Name))
	}
	opt := checkpoint.Options{
		Block: bf, Rule: rule, Mode: mode, Pad: pad,
		Tensors: f.tensors, Skip: f.skip, KeepRaw: f.keepRaw, Workers: f.workers, Stats: true,
	}
	if f.rest != "" {
		if opt.Rest, err = cltype.Lookup(f.rest); err != nil {
			return true, fail(fmt.Errorf("--rest: %v", err))
		}
	}
	if f.maxShard != "" {
		fi, err := os.Stat(inPath)
		ck := err == nil && (fi.IsDir() || strings.HasSuffix(strings.ToLower(inPath), checkpoint.IndexSuffix))
		if opt.MaxShardSize, err = parseShardSize(f.maxShard, ck); err != nil {
			return true, fail(err)
		}
	}
	progress, finish := convProgress(cmd, f.quiet, bf.Name)
	opt.Progress = progress
	start := time.Now()
	var rep *checkpoint.Report
	err = convWithSignals(cmd.Context(), func(ctx context.Context) error {
		var err error
		rep, err = mxQuantizeFile(ctx, inPath, outPath, f.force, opt)
		return err
	}, nil)
	if err != nil {
		return true, convJobFailed(cmd, err, finish, fail)
	}
	finish(true)
	printWarnings(cmd, rep.Warnings)
	for _, t := range rep.Tensors {
		if t.Layout {
			fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: to quantize the kept block-scaled weights to %s as well, dequantize them first: clconv convert --to double IN WIDE (exact; --to bf16 is smaller but rounds once more), then clconv convert --to %s WIDE OUT\n", bf.Name, bf.Name)
			break
		}
	}
	r := mxNewReport(rep, bf, rule, mode, pad, inPath, outPath, time.Since(start))
	w := cmd.OutOrStdout()
	switch {
	case f.json:
		return true, convJSON(w, r)
	case f.stats:
		mxPrintReport(w, r)
	}
	return true, nil
}

// mxQuantizeFile quantizes the safetensors checkpoint, GGUF file or .npy
// file at in into out.
func mxQuantizeFile(ctx context.Context, in, out string, force bool, opt checkpoint.Options) (*checkpoint.Report, error) {
	if !isSafetensors(in) && isGGUF(in) {
		return ggufconv.ConvertToSafetensors(ctx, out, in, force, opt)
	}
	if isSafetensors(in) {
		fi, err := os.Stat(in)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() || strings.HasSuffix(strings.ToLower(in), checkpoint.IndexSuffix) {
			return checkpoint.ConvertCheckpoint(ctx, out, in, force, opt)
		}
		return checkpoint.ConvertFile(ctx, out, in, force, opt)
	}
	src, err := mxOpenNPY(in)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if err := checkpoint.CheckOutput(out, []string{in}, false, force); err != nil {
		return nil, err
	}
	a, err := fileconv.CreateAtomic(out, force)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("%s exists: use --force to replace it", out)
		}
		return nil, err
	}
	var rep *checkpoint.Report
	a.Verify = func(tmp string) error { return checkpoint.VerifyFile(tmp, rep) }
	if len(opt.Tensors) == 0 {
		// A .npy file is one tensor, the one to quantize, whatever its
		// name (a checkpoint's default is its linear weights).
		opt.Tensors = []string{"*"}
	}
	rep, err = checkpoint.Convert(ctx, a, src, nil, opt)
	if err == nil && ctx.Err() != nil {
		err = context.Cause(ctx)
	}
	if err == nil {
		err = a.Commit()
	}
	if err != nil {
		a.Abort()
		return nil, err
	}
	return rep, nil
}

// mxOpenNPY opens the .npy file at path as a safetensors file of one
// tensor (safetensors.OpenNPY) whose dtype a block format can quantize.
func mxOpenNPY(path string) (*safetensors.File, error) {
	src, err := safetensors.OpenNPY(path)
	if err != nil {
		var fe *fileconv.FormatError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("%w (block formats read .npy and safetensors files)", err)
		}
		return nil, err
	}
	switch dt := src.Tensors[0].DType; dt {
	case safetensors.F32, safetensors.F64, safetensors.F16, safetensors.BF16:
		return src, nil
	default:
		src.Close()
		npy := (&fileconv.Header{Kind: dt.Kind()}).Descr() // as the .npy header names it
		return nil, fmt.Errorf("%s: dtype %s cannot be quantized: save float32, float64, float16 or bfloat16", path, npy)
	}
}

// mxReport is what --json prints.
type mxReport struct {
	Format    string     `json:"format"`
	ScaleRule string     `json:"scale_rule,omitempty"`
	Round     string     `json:"round"`
	Pad       bool       `json:"pad"`
	Input     string     `json:"input"`
	Output    string     `json:"output"`
	Tensors   []mxTensor `json:"tensors"`
	BytesIn   int64      `json:"bytes_in"`
	BytesOut  int64      `json:"bytes_out"`
	Seconds   float64    `json:"seconds"`
}

// mxTensor is one input tensor: quantized (its outputs, elements first,
// and mx's statistics) or kept.
type mxTensor struct {
	Name    string     `json:"name"`
	Action  string     `json:"action"`
	From    string     `json:"from"`
	Outputs []mxOutput `json:"outputs"`
	Stats   *mxStats   `json:"stats,omitempty"`
}

type mxOutput struct {
	Name  string  `json:"name"`
	DType string  `json:"dtype"`
	Shape []int64 `json:"shape"`
}

// mxStats is mx.Stats of one tensor.
type mxStats struct {
	Elements       int      `json:"elements"`
	Blocks         int      `json:"blocks"`
	Clamped        int      `json:"clamped"`
	Flushed        int      `json:"flushed_to_zero"`
	NaNInputs      int      `json:"nan_inputs"`
	InfInputs      int      `json:"inf_inputs"`
	ZeroBlocks     int      `json:"zero_blocks"`
	FirstZeroBlock int      `json:"first_zero_block"`
	NaNBlocks      int      `json:"nan_blocks"`
	FirstNaNBlock  int      `json:"first_nan_block"`
	ScaleClamped   int      `json:"scale_clamped"`
	TensorScale    *float32 `json:"tensor_scale,omitempty"`
}

func mxNewReport(rep *checkpoint.Report, f *mx.Format, rule mx.ScaleRule, mode round.Mode, pad bool, in, out string, d time.Duration) *mxReport {
	r := &mxReport{Format: f.Name, Round: mode.String(), Pad: pad, Input: in, Output: out,
		BytesIn: rep.BytesIn, BytesOut: rep.BytesOut, Seconds: d.Seconds(), Tensors: []mxTensor{}}
	if !f.TensorScale {
		r.ScaleRule = rule.String()
	}
	for _, t := range rep.Tensors {
		o := mxOutput{Name: t.Name, DType: t.To, Shape: t.Shape}
		if t.Action == checkpoint.ActScaleOut.String() && len(r.Tensors) > 0 {
			last := &r.Tensors[len(r.Tensors)-1]
			last.Outputs = append(last.Outputs, o)
			continue
		}
		mt := mxTensor{Name: t.Name, Action: t.Action, From: t.From, Outputs: []mxOutput{o}}
		if s := t.MX; s != nil {
			mt.Name = strings.TrimSuffix(t.Name, ".blocks")
			mt.Stats = &mxStats{
				Elements: s.Elements, Blocks: s.Blocks, Clamped: s.Clamped, Flushed: s.Flushed,
				NaNInputs: s.NaNInputs, InfInputs: s.InfInputs, ZeroBlocks: s.ZeroBlocks, FirstZeroBlock: s.FirstZero,
				NaNBlocks: s.NaNBlocks, FirstNaNBlock: s.FirstNaN, ScaleClamped: s.ScaleClamped,
			}
			if f.TensorScale {
				ts := s.TensorScale
				mt.Stats.TensorScale = &ts
			}
		}
		r.Tensors = append(r.Tensors, mt)
	}
	return r
}

// mxPrintReport prints the --stats report.
func mxPrintReport(w io.Writer, r *mxReport) {
	how := r.Round
	if r.ScaleRule != "" {
		how = r.ScaleRule + ", " + how
	}
	if r.Pad {
		how += ", pad"
	}
	q := 0
	for _, t := range r.Tensors {
		if t.Stats != nil {
			q++
		}
	}
	fmt.Fprintf(w, "%s (%s): %s -> %s, %d tensors quantized, %d kept, %s -> %s in %.2fs\n",
		r.Format, how, r.Input, r.Output, q, len(r.Tensors)-q, convSize(r.BytesIn), convSize(r.BytesOut), r.Seconds)
	for _, t := range r.Tensors {
		if t.Stats == nil {
			fmt.Fprintf(w, "  %s: %s %s\n", t.Name, t.Action, t.From)
			continue
		}
		var outs []string
		for _, o := range t.Outputs {
			outs = append(outs, fmt.Sprintf("%s %s %s", o.Name, o.DType, checkpoint.ShapeString(o.Shape)))
		}
		fmt.Fprintf(w, "  %s: %s %s -> %s\n", t.Name, t.Action, t.From, strings.Join(outs, ", "))
		s := t.Stats
		fmt.Fprintf(w, "    %d elements, %d blocks", s.Elements, s.Blocks)
		if s.TensorScale != nil {
			fmt.Fprintf(w, ", tensor scale %g", *s.TensorScale)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "    clamped %d, flushed to zero %d, NaN inputs %d, inf inputs %d, scale clamped %d\n",
			s.Clamped, s.Flushed, s.NaNInputs, s.InfInputs, s.ScaleClamped)
		fmt.Fprintf(w, "    zero blocks %d%s, NaN blocks %d%s\n",
			s.ZeroBlocks, mxFirst(s.ZeroBlocks, s.FirstZeroBlock), s.NaNBlocks, mxFirst(s.NaNBlocks, s.FirstNaNBlock))
	}
}

func mxFirst(n, first int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (first: block %d)", first)
}
