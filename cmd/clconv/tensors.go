package main

// safetensors input for convert and inspect: thin layers over packages
// checkpoint and safetensors.

import (
	"bufio"
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
	"unicode"
	"unicode/utf8"

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
		// A directory with safetensors files or an index is a
		// checkpoint, valid or not: its errors are checkpoint errors,
		// not "is a directory".
		for _, pat := range []string{"*.safetensors", "*" + checkpoint.IndexSuffix} {
			if m, _ := filepath.Glob(filepath.Join(path, pat)); len(m) > 0 {
				return true
			}
		}
	}
	return false
}

// checkWorkers checks --workers.
func checkWorkers(n int) error {
	if n < 0 || n > checkpoint.MaxWorkers() {
		return fmt.Errorf("--workers %d: give 1 to %d (0, the default, uses every core)", n, checkpoint.MaxWorkers())
	}
	return nil
}

// printWarnings prints a conversion's warnings to stderr, names escaped.
func printWarnings(cmd *cobra.Command, ws []string) {
	for _, w := range ws {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: warning: %s\n", termSafe(w))
	}
}

// termSafe escapes what a terminal would interpret in s: control
// characters (ESC, NUL, CR...), and invalid UTF-8, as Go's %q escapes
// them; printable text, non-ASCII letters included, is kept.
func termSafe(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
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
	opt, err := checkpointOptions(cmd, op, f)
	if err != nil {
		return fail(err)
	}
	fi, err := os.Stat(inPath)
	if err != nil {
		return fail(err)
	}
	sharded := fi.IsDir() || strings.HasSuffix(strings.ToLower(inPath), checkpoint.IndexSuffix)
	if opt.MaxShardSize, err = parseShardSize(f.maxShard, sharded); err != nil {
		return fail(err)
	}
	return runCheckpointJob(cmd, op, inPath, outPath, f, opt, fail, func(ctx context.Context, opt checkpoint.Options) (*checkpoint.Report, error) {
		if sharded {
			return checkpoint.ConvertCheckpoint(ctx, outPath, inPath, f.force, opt)
		}
		return checkpoint.ConvertFile(ctx, outPath, inPath, f.force, opt)
	})
}

// runCheckpointJob runs one planner conversion (run, given opt with its
// progress bar) under convert's signal handling, then prints its report:
// the end of convert for safetensors and GGUF input alike.
func runCheckpointJob(cmd *cobra.Command, op convert.Op, inPath, outPath string, f *convertFlags, opt checkpoint.Options, fail func(error) error, run func(context.Context, checkpoint.Options) (*checkpoint.Report, error)) error {
	progress, finish := convProgress(cmd, f.quiet, op.Name())
	opt.Progress = progress
	start := time.Now()
	var rep *checkpoint.Report
	err := convWithSignals(cmd.Context(), func(ctx context.Context) error {
		var err error
		rep, err = run(ctx, opt)
		return err
	}, nil)
	if err != nil {
		return convJobFailed(cmd, err, finish, fail)
	}
	finish(true)
	return printCheckpointReport(cmd, op, inPath, outPath, rep, time.Since(start), f)
}

// checkpointOptions builds the planner's options from convert's flags:
// --to, --round and --sat (op), --tensors, --skip, --keep-raw, --workers,
// --stats, --block-size, --weight-block-size, --recipe, --rest and
// --scale-suffix, each checked against the others. Safetensors and GGUF
// input share it.
func checkpointOptions(cmd *cobra.Command, op convert.Op, f *convertFlags) (checkpoint.Options, error) {
	opt := checkpoint.Options{
		To: op.Dst.Kind, Mode: op.Mode(round.RTE), Sat: op.Sat,
		Tensors: f.tensors, Skip: f.skip, KeepRaw: f.keepRaw, Workers: f.workers,
		Stats: f.stats || f.json, ScaleSuffix: f.scaleSuffix,
	}
	var err error
	if opt.BlockSize, err = parseBlock("block-size", f.blockSize); err != nil {
		return opt, err
	}
	if opt.WeightBlockSize, err = parseBlock("weight-block-size", f.weightBlock); err != nil {
		return opt, err
	}
	if f.recipe != "" {
		if f.blockSize == "" {
			return opt, fmt.Errorf("--recipe %s is a formula of FP8 block quantization: give --block-size too (e.g. --to e4m3 --block-size 128x128)", f.recipe)
		}
		if opt.Recipe, err = checkpoint.ParseRecipe(f.recipe); err != nil {
			return opt, err
		}
		if opt.Recipe != checkpoint.RecipeExact && (cmd.Flags().Changed("round") || f.sat) {
			return opt, fmt.Errorf("--recipe %s rounds to nearest even as %s does, and never overflows: leave out --round and --sat", opt.Recipe, opt.Recipe)
		}
	}
	if f.rest != "" {
		if f.blockSize == "" {
			return opt, fmt.Errorf("--rest %s says what a quantization does with the tensors it does not quantize: give --block-size (or --to a block format); without one, --to converts every tensor", f.rest)
		}
		if opt.Rest, err = cltype.Lookup(f.rest); err != nil {
			return opt, fmt.Errorf("--rest: %v", err)
		}
	}
	if f.scaleSuffix != "" && f.blockSize == "" {
		return opt, errors.New("--scale-suffix names the scales that --block-size writes; give --block-size too")
	}
	return opt, nil
}

// printCheckpointReport prints what the planner did (rep): its warnings,
// --json or --stats, and the note on dequantized block-scaled weights.
func printCheckpointReport(cmd *cobra.Command, op convert.Op, inPath, outPath string, rep *checkpoint.Report, elapsed time.Duration, f *convertFlags) error {
	printWarnings(cmd, rep.Warnings)
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
	for _, a := range []checkpoint.Action{checkpoint.ActConvert, checkpoint.ActKeep, checkpoint.ActDequantFP8, checkpoint.ActQuantFP8, checkpoint.ActDequantMX, checkpoint.ActDequantNV, checkpoint.ActScaleOut, checkpoint.ActDropScale, checkpoint.ActDecode} {
		if n := counts[a.String()]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	return strings.Join(parts, ", ")
}

// printTensorReport prints one tensor of --stats: what was done and the
// non-zero counters.
func printTensorReport(w io.Writer, t checkpoint.TensorReport) {
	line := fmt.Sprintf("  %s: %s %s", termSafe(t.Name), t.Action, t.From)
	if t.To != "" && t.To != t.From {
		line += " -> " + t.To
	}
	line += " " + fileconv.ShapeString(t.Shape)
	if t.Scale != "" {
		line += fmt.Sprintf(" (scale %s, blocks %dx%d)", termSafe(t.Scale), t.Block[0], t.Block[1])
	}
	if t.Shard != "" {
		line += " in " + t.Shard
	}
	fmt.Fprintln(w, line)
	if t.Stats == nil {
		return
	}
	k := cltype.Invalid
	if d, err := safetensors.ParseDType(t.To); err == nil {
		k = d.Kind()
	}
	for _, r := range t.Stats.RowsFor(k) {
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
	// Action is what convert --to would do with the tensor, and As the
	// name it would have in the output when that differs.
	Action string `json:"action,omitempty"`
	As     string `json:"as,omitempty"`
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
	Warnings   []string          `json:"warnings,omitempty"`
	// Layouts are the block-scaled weights whose weight tensor is in this
	// file (checkpoint.Layouts).
	Layouts []checkpoint.Layout `json:"layouts,omitempty"`
}

// inspectSafetensors inspects one safetensors file, or every shard of a
// checkpoint directory or index. With --stats and --to, the "to" counts
// are those of the conversion itself: checkpoint.Convert runs into a
// writer that discards, so that dequantized weights, kept layouts and
// skipped tensors are reported as convert would treat them.
func inspectSafetensors(cmd *cobra.Command, path string, f *inspectFlags, to convert.Op, hasTo bool) ([]*stReport, error) {
	files, cfgDir, err := inspectFiles(path)
	if err != nil {
		return nil, err
	}
	sfs := make([]*safetensors.File, len(files))
	var total int64
	for i, p := range files {
		sf, err := checkpoint.Open(p)
		if err != nil {
			return nil, err
		}
		defer sf.Close()
		sfs[i] = sf
		total += sf.Size
	}
	layouts, err := checkpoint.Layouts(sfs, cfgDir)
	if err != nil {
		return nil, err
	}
	var ranges map[string]checkpoint.Range
	var rangeErr error
	if f.stats && len(layouts) > 0 {
		// Each weight dequantized exactly (float64), for its range.
		ranges, rangeErr = checkpoint.DequantizedRanges(cmd.Context(), sfs, cfgDir, f.workers)
		if rangeErr != nil && cmd.Context().Err() != nil {
			return nil, rangeErr
		}
	}
	progress, finish := convProgress(cmd, f.quiet, "inspect")
	var done int64
	var out []*stReport
	for i, sf := range sfs {
		var prog func(int64, int64)
		if progress != nil {
			base := done
			prog = func(d, _ int64) { progress(base+d, total) }
		}
		r, err := inspectSafetensorsFile(cmd.Context(), files[i], sf, sfs, f, to, hasTo, prog)
		if err != nil {
			finish(false)
			return nil, err
		}
		done += sf.Size
		for _, l := range layouts {
			if _, ok := sf.Lookup(l.Weight); ok {
				if rg, ok := ranges[l.Weight]; ok {
					l.Dequantized = &rg
				}
				r.Layouts = append(r.Layouts, l)
			}
		}
		if rangeErr != nil && i == 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("the dequantized ranges could not be computed: %v", rangeErr))
		}
		out = append(out, r)
	}
	finish(true)
	return out, nil
}

// discardAt is an io.WriterAt that discards.
type discardAt struct{}

func (discardAt) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }

func inspectSafetensorsFile(ctx context.Context, path string, sf *safetensors.File, all []*safetensors.File, f *inspectFlags, to convert.Op, hasTo bool, progress func(int64, int64)) (*stReport, error) {
	rep := &stReport{File: path, Format: "safetensors", HeaderLen: sf.HeaderLen, DataOffset: sf.DataOffset(), Bytes: sf.Size, Metadata: sf.Metadata}
	conv := map[string]checkpoint.TensorReport{}
	if hasTo && f.stats {
		rep.Target = to.Name()
		var others []*safetensors.File
		for _, g := range all {
			if g != sf {
				others = append(others, g)
			}
		}
		cr, err := checkpoint.Convert(ctx, discardAt{}, sf, others, checkpoint.Options{
			To: to.Dst.Kind, Mode: to.Mode(round.RTE), Sat: to.Sat, Workers: f.workers, Stats: true, Progress: progress,
		})
		if err != nil {
			return nil, err
		}
		for _, t := range cr.Tensors {
			name := t.Name
			if t.Source != "" {
				name = t.Source
			}
			conv[name] = t
		}
		rep.Warnings = cr.Warnings
	}
	for i := range sf.Tensors {
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		t := &sf.Tensors[i]
		tr := stTensorReport{Name: t.Name, Dtype: t.DType.String(), Shape: t.Shape, Count: t.Count(), Bytes: t.Bytes(), Offset: sf.DataOffset() + t.Begin}
		k := t.DType.Kind()
		if k != cltype.Invalid {
			tr.Type = k.String()
		}
		if c, ok := conv[t.Name]; ok {
			tr.Action = c.Action
			if c.Name != t.Name {
				tr.As = c.Name
			}
			tr.To = c.Stats
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
		}
		rep.Tensors = append(rep.Tensors, tr)
	}
	return rep, nil
}

// printSafetensorsHead prints the lines above inspect's table.
func printSafetensorsHead(w io.Writer, r *stReport, n int) {
	fmt.Fprintf(w, "%-10s %s\n", "file:", termSafe(r.File))
	fmt.Fprintf(w, "%-10s safetensors (header %d bytes, data at byte %d, %s in all)\n", "format:", r.HeaderLen, r.DataOffset, convSize(r.Bytes))
	if len(r.Metadata) > 0 {
		var kv []string
		for k, v := range r.Metadata {
			kv = append(kv, fmt.Sprintf("%s=%q", termSafe(k), v))
		}
		sort.Strings(kv)
		fmt.Fprintf(w, "%-10s %s\n", "metadata:", strings.Join(kv, " "))
	}
	fmt.Fprintf(w, "%-10s %d\n", "tensors:", n)
}

// printSafetensors prints inspect's table for one file.
func printSafetensors(w io.Writer, r *stReport, stats bool) {
	printSafetensorsHead(w, r, len(r.Tensors))
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
		line := fmt.Sprintf("%s\t%s\t%s\t%d", termSafe(t.Name), t.Dtype, fileconv.ShapeString(t.Shape), t.Bytes)
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
	printLayouts(w, r.Layouts)
}

// printTensorTable prints the plain table of inspect, aligned like the
// tabwriter's but streamed from the file's own tensor list: a million
// tensors print without a million cells or reports.
func printTensorTable(w io.Writer, ts []safetensors.TensorInfo) {
	bw := bufio.NewWriterSize(w, 1<<16)
	defer bw.Flush()
	wn, wd, ws := len("name"), len("dtype"), len("shape")
	for i := range ts {
		t := &ts[i]
		wn = max(wn, utf8.RuneCountInString(termSafe(t.Name)))
		wd = max(wd, len(t.DType.String()))
		ws = max(ws, len(fileconv.ShapeString(t.Shape)))
	}
	pad := func(s string, n int) {
		bw.WriteString(s)
		for k := utf8.RuneCountInString(s); k < n+2; k++ {
			bw.WriteByte(' ')
		}
	}
	pad("name", wn)
	pad("dtype", wd)
	pad("shape", ws)
	bw.WriteString("bytes\n")
	for i := range ts {
		t := &ts[i]
		pad(termSafe(t.Name), wn)
		pad(t.DType.String(), wd)
		pad(fileconv.ShapeString(t.Shape), ws)
		bw.WriteString(strconv.FormatInt(t.Bytes(), 10))
		bw.WriteByte('\n')
	}
}

// inspectPlain prints inspect's plain listing of a safetensors file or
// checkpoint straight from each shard's header, then the block-scaled
// layouts that a conversion would see (a weight with its scales and block
// size; an incomplete one with its problem).
func inspectPlain(w io.Writer, path string, first bool) error {
	files, dir, err := inspectFiles(path)
	if err != nil {
		return err
	}
	sfs := make([]*safetensors.File, 0, len(files))
	defer func() {
		for _, sf := range sfs {
			sf.Close()
		}
	}()
	for i, p := range files {
		sf, err := checkpoint.Open(p)
		if err != nil {
			return err
		}
		sfs = append(sfs, sf)
		if i > 0 || !first {
			fmt.Fprintln(w)
		}
		r := &stReport{File: p, HeaderLen: sf.HeaderLen, DataOffset: sf.DataOffset(), Bytes: sf.Size, Metadata: sf.Metadata}
		printSafetensorsHead(w, r, len(sf.Tensors))
		printTensorTable(w, sf.Tensors)
	}
	ls, err := checkpoint.Layouts(sfs, dir)
	if err != nil {
		return err
	}
	printLayouts(w, ls)
	return nil
}

// inspectFiles returns the safetensors files of path (a file, a checkpoint
// directory or its index) and the directory whose config.json applies.
func inspectFiles(path string) ([]string, string, error) {
	if fi, err := os.Stat(path); err == nil && (fi.IsDir() || strings.HasSuffix(strings.ToLower(path), checkpoint.IndexSuffix)) {
		dir, _, shards, err := checkpoint.Shards(path)
		if err != nil {
			return nil, "", err
		}
		var files []string
		for _, s := range shards {
			files = append(files, filepath.Join(dir, s))
		}
		return files, dir, nil
	}
	return []string{path}, filepath.Dir(path), nil
}

// printLayouts prints the block-scaled layouts below inspect's tables.
func printLayouts(w io.Writer, ls []checkpoint.Layout) {
	if len(ls) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%-10s %d block-scaled weight(s): converting to half, float, double or bfloat16 dequantizes them\n", "layouts:", len(ls))
	for _, l := range ls {
		if l.Problem != "" {
			fmt.Fprintf(w, "  %s  incomplete: %s\n", termSafe(l.Weight), termSafe(l.Problem))
			continue
		}
		blk := ""
		if len(l.Block) == 2 {
			blk = fmt.Sprintf("  blocks %dx%d", l.Block[0], l.Block[1])
		}
		fmt.Fprintf(w, "  %s  %s%s  scales %s\n", termSafe(l.Weight), l.Kind, blk, termSafe(strings.Join(l.Scales, ", ")))
		if r := l.Dequantized; r != nil {
			rg := "no finite value"
			if r.Finite > 0 {
				rg = fmt.Sprintf("[%s, %s]", strconv.FormatFloat(r.Min, 'g', -1, 64), strconv.FormatFloat(r.Max, 'g', -1, 64))
			}
			extra := ""
			if r.NaN+r.PosInf+r.NegInf > 0 {
				extra = fmt.Sprintf(", NaN %d, +inf %d, -inf %d", r.NaN, r.PosInf, r.NegInf)
			}
			fmt.Fprintf(w, "      dequantized: %s over %d values%s\n", rg, r.Count, extra)
		}
	}
}

// parseShardSize reads --max-shard-size, which applies to a checkpoint
// (a directory or an index) only.
func parseShardSize(s string, checkpointIn bool) (int64, error) {
	if s == "" {
		return 0, nil
	}
	if !checkpointIn {
		return 0, fmt.Errorf("--max-shard-size %s cuts a checkpoint's output into shards: give a checkpoint directory or its index as IN, and a directory as OUT", s)
	}
	n, err := checkpoint.ParseSize(s)
	if err != nil {
		return 0, fmt.Errorf("--max-shard-size: %v", err)
	}
	return n, nil
}
