package main

// safetensors input for convert and inspect: thin layers over packages
// checkpoint and safetensors.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// isSafetensors reports whether path is safetensors input: a .safetensors
// file, a sharded checkpoint's index, or a directory holding .safetensors
// files.
func isSafetensors(path string) bool {
	l := strings.ToLower(path)
	if strings.HasSuffix(l, ".safetensors") || strings.HasSuffix(l, checkpoint.IndexSuffix) {
		return true
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		_, _, _, err := checkpoint.Shards(path)
		return err == nil
	}
	return false
}

// parseBlock parses ROWSxCOLS (or ROWS,COLS).
func parseBlock(flag, s string) ([2]int, error) {
	if s == "" {
		return [2]int{}, nil
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == 'x' || r == 'X' || r == ',' })
	if len(parts) != 2 {
		return [2]int{}, fmt.Errorf("--%s %s: want ROWSxCOLS, e.g. 128x128", flag, s)
	}
	var b [2]int
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return [2]int{}, fmt.Errorf("--%s %s: %q is not a positive size", flag, s, p)
		}
		b[i] = n
	}
	return b, nil
}

func runConvertSafetensors(cmd *cobra.Command, inPath, outPath string, op convert.Op, f *convertFlags) error {
	fail := func(err error) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v\n", err)
		return exitStatus(dataStatus(err))
	}
	if outPath == "-" || inPath == "-" {
		return fail(errors.New("safetensors checkpoints are converted file to file: give IN and OUT paths, not '-'"))
	}
	for _, name := range []string{"from", "in-format", "out-format"} {
		if cmd.Flags().Changed(name) {
			return fail(fmt.Errorf("--%s does not apply to safetensors input (its header gives every dtype)", name))
		}
	}
	if !op.Dst.Kind.IsFloating() {
		return fail(fmt.Errorf("--to %s: safetensors conversion converts the floating tensors; give a floating type (integer tensors are copied as they are)", op.Dst.Kind))
	}
	opt := checkpoint.Options{
		To: op.Dst.Kind, Mode: op.Mode(round.RTE), Sat: op.Sat,
		Tensors: f.tensors, Skip: f.skip, Workers: f.workers,
		Stats: f.stats || f.json, ScaleSuffix: f.scaleSuffix,
	}
	var err error
	if opt.BlockSize, err = parseBlock("block-size", f.blockSize); err != nil {
		return fail(err)
	}
	if opt.WeightBlockSize, err = parseBlock("weight-block-size", f.weightBlock); err != nil {
		return fail(err)
	}
	if f.scaleSuffix != "" && f.blockSize == "" {
		return fail(errors.New("--scale-suffix names the scales that --block-size writes; give --block-size too"))
	}
	progress, finish := convProgress(cmd, f.quiet, op.Name())
	opt.Progress = progress
	fi, err := os.Stat(inPath)
	if err != nil {
		return fail(err)
	}
	sharded := fi.IsDir() || strings.HasSuffix(strings.ToLower(inPath), checkpoint.IndexSuffix)
	start := time.Now()
	var rep *checkpoint.Report
	err = convWithSignals(cmd.Context(), func(ctx context.Context) error {
		var err error
		if sharded {
			rep, err = checkpoint.ConvertCheckpoint(ctx, outPath, inPath, f.force, opt)
		} else {
			rep, err = checkpoint.ConvertFile(ctx, outPath, inPath, f.force, opt)
		}
		return err
	})
	if err != nil {
		finish(false)
		var intr *convInterrupted
		if errors.As(err, &intr) {
			fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v; no output written\n", err)
			return exitStatus(intr.status())
		}
		return fail(err)
	}
	finish(true)
	elapsed := time.Since(start)
	w := cmd.OutOrStdout()
	if f.json {
		return convJSON(w, struct {
			Conversion string `json:"conversion"`
			Input      string `json:"input"`
			Output     string `json:"output"`
			*checkpoint.Report
			Seconds float64 `json:"seconds"`
		}{op.Name(), inPath, outPath, rep, elapsed.Seconds()})
	}
	counts := map[string]int{}
	for _, t := range rep.Tensors {
		counts[t.Action]++
	}
	if f.stats {
		fmt.Fprintf(w, "%s: %s -> %s, %d tensors (%s), %s -> %s in %.2fs\n", op.Name(), inPath, outPath,
			len(rep.Tensors), actionSummary(counts), convSize(rep.BytesIn), convSize(rep.BytesOut), elapsed.Seconds())
		for _, t := range rep.Tensors {
			printTensorReport(w, t)
		}
	}
	if n := counts[checkpoint.ActDequantFP8.String()] + counts[checkpoint.ActDequantMX.String()] + counts[checkpoint.ActDequantNV.String()]; n > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: dequantized %d block-scaled weight(s) to %s and left out their scales: a config.json's quantization_config no longer applies to the output\n", n, op.Dst.Kind)
	}
	return nil
}

// actionSummary is "12 converted, 3 kept".
func actionSummary(counts map[string]int) string {
	var parts []string
	for _, a := range []checkpoint.Action{checkpoint.ActConvert, checkpoint.ActKeep, checkpoint.ActDequantFP8, checkpoint.ActQuantFP8, checkpoint.ActDequantMX, checkpoint.ActDequantNV, checkpoint.ActScaleOut, checkpoint.ActDropScale} {
		if n := counts[a.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	return strings.Join(parts, ", ")
}

// printTensorReport prints one tensor of --stats: what was done and the
// non-zero counters.
func printTensorReport(w io.Writer, t checkpoint.TensorReport) {
	line := fmt.Sprintf("  %s: %s %s", t.Name, t.Action, t.From)
	if t.To != "" && t.To != t.From {
		line += " -> " + t.To
	}
	line += " " + fileconv.ShapeString(t.Shape)
	if t.Scale != "" {
		line += fmt.Sprintf(" (scale %s, blocks %dx%d)", t.Scale, t.Block[0], t.Block[1])
	}
	if t.Shard != "" {
		line += " in " + t.Shard
	}
	fmt.Fprintln(w, line)
	if t.Stats == nil {
		return
	}
	for _, r := range t.Stats.Rows() {
		if r.Value != 0 && r.Name != "count" {
			fmt.Fprintf(w, "      %-17s %d  %s\n", r.Name, r.Value, convPercent(r.Value, t.Stats.Count))
		}
	}
}

// stTensorReport is one tensor of inspect --json.
type stTensorReport struct {
	Name   string          `json:"name"`
	Dtype  string          `json:"dtype"`
	Type   string          `json:"type,omitempty"`
	Shape  []int64         `json:"shape"`
	Count  int64           `json:"count"`
	Bytes  int64           `json:"bytes"`
	Offset int64           `json:"data_offset"` // from the file's start
	Min    *string         `json:"min,omitempty"`
	Max    *string         `json:"max,omitempty"`
	NaN    *int64          `json:"nan,omitempty"`
	PosInf *int64          `json:"pos_inf,omitempty"`
	NegInf *int64          `json:"neg_inf,omitempty"`
	To     *fileconv.Stats `json:"to,omitempty"` // what --to would do
}

// stReport is inspect --json for a safetensors file.
type stReport struct {
	File       string            `json:"file"`
	Format     string            `json:"format"`
	HeaderLen  int64             `json:"header_bytes"`
	DataOffset int64             `json:"data_offset"`
	Bytes      int64             `json:"bytes"`
	Metadata   map[string]string `json:"metadata"`
	Target     string            `json:"target,omitempty"`
	Tensors    []stTensorReport  `json:"tensors"`
}

// inspectSafetensors inspects one safetensors file, or every shard of a
// checkpoint directory or index.
func inspectSafetensors(cmd *cobra.Command, path string, f *inspectFlags, to convert.Op, hasTo bool) ([]*stReport, error) {
	files := []string{path}
	if fi, err := os.Stat(path); err == nil && (fi.IsDir() || strings.HasSuffix(strings.ToLower(path), checkpoint.IndexSuffix)) {
		dir, _, shards, err := checkpoint.Shards(path)
		if err != nil {
			return nil, err
		}
		files = files[:0]
		for _, s := range shards {
			files = append(files, filepath.Join(dir, s))
		}
	}
	var out []*stReport
	for _, p := range files {
		r, err := inspectSafetensorsFile(cmd.Context(), p, f, to, hasTo)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func inspectSafetensorsFile(ctx context.Context, path string, f *inspectFlags, to convert.Op, hasTo bool) (*stReport, error) {
	sf, err := safetensors.Open(path)
	if err != nil {
		return nil, err
	}
	defer sf.Close()
	rep := &stReport{File: path, Format: "safetensors", HeaderLen: sf.HeaderLen, DataOffset: sf.DataOffset(), Bytes: sf.Size, Metadata: sf.Metadata}
	if hasTo {
		rep.Target = to.Name()
	}
	for i := range sf.Tensors {
		t := &sf.Tensors[i]
		tr := stTensorReport{Name: t.Name, Dtype: t.DType.String(), Shape: t.Shape, Count: t.Count(), Bytes: t.Bytes(), Offset: sf.DataOffset() + t.Begin}
		k := t.DType.Kind()
		if k != cltype.Invalid {
			tr.Type = k.String()
		}
		if f.stats && k != cltype.Invalid {
			sum, err := fileconv.Inspect(ctx, sf.Section(t), fileconv.InspectOptions{From: k, In: fileconv.FormatRaw, Workers: f.workers, Size: t.Bytes()})
			if err != nil {
				return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
			}
			if sum.HasRange {
				lo, hi := sum.Min.String(), sum.Max.String()
				tr.Min, tr.Max = &lo, &hi
			}
			tr.NaN, tr.PosInf, tr.NegInf = &sum.NaN, &sum.PosInf, &sum.NegInf
			if hasTo && k != to.Dst.Kind && (t.DType.IsFloat() || to.Dst.Kind.IsInteger()) {
				res, err := fileconv.Convert(ctx, io.Discard, sf.Section(t), fileconv.Options{
					Dst: to.Dst.Kind, Sat: to.Sat, Mode: to.Mode(round.RTE), From: k,
					In: fileconv.FormatRaw, Out: fileconv.FormatRaw, Workers: f.workers, Stats: true, Size: t.Bytes(),
				})
				if err != nil {
					return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
				}
				st := res.Stats
				tr.To = &st
			}
		}
		rep.Tensors = append(rep.Tensors, tr)
	}
	return rep, nil
}

// printSafetensors prints inspect's table for one file.
func printSafetensors(w io.Writer, r *stReport, stats bool) {
	fmt.Fprintf(w, "%-10s %s\n", "file:", r.File)
	fmt.Fprintf(w, "%-10s safetensors (header %d bytes, data at byte %d, %s in all)\n", "format:", r.HeaderLen, r.DataOffset, convSize(r.Bytes))
	if len(r.Metadata) > 0 {
		var kv []string
		for k, v := range r.Metadata {
			kv = append(kv, fmt.Sprintf("%s=%q", k, v))
		}
		sort.Strings(kv)
		fmt.Fprintf(w, "%-10s %s\n", "metadata:", strings.Join(kv, " "))
	}
	fmt.Fprintf(w, "%-10s %d\n", "tensors:", len(r.Tensors))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "name\tdtype\tshape\tbytes"
	if stats {
		head += "\tmin\tmax\tNaN\tinf"
		if r.Target != "" {
			head += "\t" + r.Target + ": clamped\toverflow\tunderflow\tinexact"
		}
	}
	fmt.Fprintln(tw, head)
	for _, t := range r.Tensors {
		line := fmt.Sprintf("%s\t%s\t%s\t%d", t.Name, t.Dtype, fileconv.ShapeString(t.Shape), t.Bytes)
		if stats {
			if t.NaN == nil {
				line += "\t-\t-\t-\t-"
			} else {
				lo, hi := "-", "-"
				if t.Min != nil {
					lo, hi = *t.Min, *t.Max
				}
				line += fmt.Sprintf("\t%s\t%s\t%d\t%d", lo, hi, *t.NaN, *t.PosInf+*t.NegInf)
			}
			if r.Target != "" {
				if s := t.To; s != nil {
					line += fmt.Sprintf("\t%d\t%d\t%d\t%d", s.ClampedHigh+s.ClampedLow, s.OverflowInf, s.UnderflowZero, s.Inexact)
				} else {
					line += "\t-\t-\t-\t-"
				}
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}
