package main

// clconv inspect of GGUF files (package gguf).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
	"github.com/clconv/clconv/ggufconv"
	"github.com/clconv/clconv/mx"
)

// isGGUF reports whether path is a GGUF file: by its magic, or by its
// extension when it cannot be read (so that the error is GGUF's).
func isGGUF(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		// Not opened: a FIFO would block. gguf.Open names the problem.
		return strings.HasSuffix(strings.ToLower(path), ".gguf")
	}
	f, err := os.Open(path)
	if err != nil {
		return strings.HasSuffix(strings.ToLower(path), ".gguf")
	}
	defer f.Close()
	var m [4]byte
	if _, err := io.ReadFull(f, m[:]); err != nil {
		return strings.HasSuffix(strings.ToLower(path), ".gguf")
	}
	return string(m[:]) == "GGUF"
}

// ggufArrayShown is how many elements of a metadata array inspect prints
// (and --json lists); longer arrays are summarised with their length.
const ggufArrayShown = 8

// ggufValueJSON is a metadata value in inspect --json: its wire type, the
// value (a number, a bool, a string or, for an array, its first
// elements), and an array's element type and length.
type ggufValueJSON struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
	Elem  string `json:"elem,omitempty"`
	Len   *int   `json:"len,omitempty"`
	// Truncated says that Value holds only the first elements.
	Truncated bool `json:"truncated,omitempty"`
}

type ggufKVJSON struct {
	Key string `json:"key"`
	ggufValueJSON
}

type ggufTensorJSON struct {
	// Stats, with --stats: the tensor's values as ggml dequantizes them
	// (float32, bit-equal to dequantize_row_*).
	Stats *ggufStats `json:"stats,omitempty"`
	Name  string     `json:"name"`
	Type  string     `json:"type"`
	Dims  []uint64   `json:"ne"`    // GGUF's order, innermost first
	Shape []uint64   `json:"shape"` // row-major: ne reversed
	Count int64      `json:"count"`
	Bytes int64      `json:"bytes"`
	// Offset is the tensor's first byte in the file.
	Offset int64 `json:"offset"`
}

type ggufReport struct {
	File       string           `json:"file"`
	Format     string           `json:"format"`
	Version    uint32           `json:"version"`
	Alignment  int              `json:"alignment"`
	DataOffset int64            `json:"data_offset"`
	Bytes      int64            `json:"bytes"`
	Metadata   []ggufKVJSON     `json:"metadata"`
	Tensors    []ggufTensorJSON `json:"tensors"`
}

// ggufScalar returns a scalar value as JSON holds it: numbers as numbers
// (a float as its shortest decimal; NaN and infinities as strings), bools,
// strings.
func ggufScalar(v gguf.Value) any {
	if s, ok := v.Str(); ok {
		return s
	}
	if b, ok := v.Bool(); ok {
		return b
	}
	if u, ok := v.Uint(); ok {
		return u
	}
	if i, ok := v.Int(); ok {
		return i
	}
	if f, ok := v.Float(); ok {
		bits := 64
		if v.Type() == gguf.ValueFloat32 {
			bits = 32 // the shortest decimal of the float32: 0.1, not 0.10000000149011612
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return strconv.FormatFloat(f, 'g', -1, bits)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, bits))
	}
	return v.String()
}

// ggufValue describes v for --json, an array's first elements only.
func ggufValue(v gguf.Value) ggufValueJSON {
	j := ggufValueJSON{Type: v.Type().String()}
	if _, ok := v.Array(); !ok {
		j.Value = ggufScalar(v)
		return j
	}
	n := v.Len()
	j.Len = &n
	if et, ok := v.Elem(); ok {
		j.Elem = et.String()
	}
	shown := make([]any, 0, min(n, ggufArrayShown))
	for i := range min(n, ggufArrayShown) {
		e := v.Index(i)
		if _, ok := e.Array(); ok {
			shown = append(shown, ggufValue(e))
		} else {
			shown = append(shown, ggufScalar(e))
		}
	}
	j.Value, j.Truncated = shown, n > ggufArrayShown
	return j
}

// ggufText is a value as inspect prints it: a string quoted, a number, or
// an array's type, length and first elements.
func ggufText(v gguf.Value) string {
	if s, ok := v.Str(); ok {
		return strconv.Quote(s)
	}
	if _, ok := v.Array(); !ok {
		return fmt.Sprint(ggufScalar(v)) + " (" + v.Type().String() + ")"
	}
	et, _ := v.Elem()
	n := v.Len()
	var b strings.Builder
	fmt.Fprintf(&b, "[%s x %d]", et, n)
	for i := range min(n, ggufArrayShown) {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(", ")
		}
		e := v.Index(i)
		if s, ok := e.Str(); ok {
			b.WriteString(strconv.Quote(s))
		} else if _, ok := e.Array(); ok {
			b.WriteString(ggufText(e))
		} else {
			fmt.Fprint(&b, ggufScalar(e))
		}
	}
	if n > ggufArrayShown {
		b.WriteString(", ...")
	}
	return b.String()
}

// ggufStats are a tensor's dequantized values: the least and greatest
// finite ones (shortest float32 decimals) and the NaN and infinity counts.
type ggufStats struct {
	Min    *string `json:"min,omitempty"`
	Max    *string `json:"max,omitempty"`
	NaN    int64   `json:"nan"`
	PosInf int64   `json:"pos_inf"`
	NegInf int64   `json:"neg_inf"`
}

// ggufChunkBlocks is how many blocks --stats dequantizes at a time.
const ggufChunkBlocks = 1 << 12

// ggufTensorStats dequantizes tensor i of r (a type package ggml
// dequantizes) in chunks of blocks and returns its statistics; nil for a
// type it does not.
func ggufTensorStats(ctx context.Context, r *gguf.Reader, i int) (*ggufStats, error) {
	t := r.Tensors[i]
	if !t.Type.Supported() {
		return nil, nil
	}
	bs, ts := int64(t.Type.BlockSize()), int64(t.Type.TypeSize())
	blocks := t.Elements() / bs
	sec := r.TensorData(i)
	raw := make([]byte, min(blocks, ggufChunkBlocks)*ts)
	vals := make([]float32, min(blocks, ggufChunkBlocks)*bs)
	var st ggufStats
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for b0 := int64(0); b0 < blocks; b0 += ggufChunkBlocks {
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		n := min(ggufChunkBlocks, blocks-b0)
		if _, err := sec.ReadAt(raw[:n*ts], b0*ts); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
		}
		v := vals[:n*bs]
		if err := ggml.Dequantize(t.Type, v, raw[:n*ts]); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
		}
		for _, x := range v {
			switch {
			case x != x:
				st.NaN++
			case math.IsInf(float64(x), 1):
				st.PosInf++
			case math.IsInf(float64(x), -1):
				st.NegInf++
			default:
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	if lo <= hi {
		l, h := strconv.FormatFloat(float64(lo), 'g', -1, 32), strconv.FormatFloat(float64(hi), 'g', -1, 32)
		st.Min, st.Max = &l, &h
	}
	return &st, nil
}

// inspectGGUF reads path's header and returns its report; with stats,
// every tensor of a type package ggml dequantizes is read for its Stats.
func inspectGGUF(ctx context.Context, path string, stats bool) (*ggufReport, error) {
	r, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f := r.File
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	rep := &ggufReport{File: path, Format: "gguf", Version: f.Version, Alignment: f.Alignment, DataOffset: f.DataOffset, Bytes: fi.Size()}
	for _, kv := range f.KV {
		rep.Metadata = append(rep.Metadata, ggufKVJSON{kv.Key, ggufValue(kv.Value)})
	}
	for i, t := range f.Tensors {
		tj := ggufTensorJSON{Name: t.Name, Type: t.Type.String(), Dims: t.Dims, Shape: t.Shape(), Count: t.Elements(), Bytes: t.Bytes(), Offset: f.DataOffset + int64(t.Offset)}
		if stats {
			if tj.Stats, err = ggufTensorStats(ctx, r, i); err != nil {
				return nil, err
			}
		}
		rep.Tensors = append(rep.Tensors, tj)
	}
	return rep, nil
}

// printGGUF prints inspect's listing of a GGUF file.
func printGGUF(w io.Writer, path string) error {
	r, err := gguf.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	f := r.File
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	defer bw.Flush()
	fmt.Fprintf(bw, "%-10s %s\n", "file:", termSafe(path))
	fmt.Fprintf(bw, "%-10s GGUF v%d (alignment %d, data at byte %d, %s in all)\n", "format:", f.Version, f.Alignment, f.DataOffset, convSize(fi.Size()))
	fmt.Fprintf(bw, "%-10s %d\n", "metadata:", len(f.KV))
	for _, kv := range f.KV {
		fmt.Fprintf(bw, "  %s = %s\n", termSafe(kv.Key), termSafe(ggufText(kv.Value)))
	}
	fmt.Fprintf(bw, "%-10s %d\n", "tensors:", len(f.Tensors))
	var tab bytes.Buffer
	wn, wt, ws := len("name"), len("type"), len("shape")
	rows := make([][4]string, 0, len(f.Tensors))
	for _, t := range f.Tensors {
		shape := make([]string, 0, len(t.Dims))
		for _, d := range t.Shape() {
			shape = append(shape, strconv.FormatUint(d, 10))
		}
		row := [4]string{termSafe(t.Name), t.Type.String(), "(" + strings.Join(shape, ", ") + ")", strconv.FormatInt(t.Bytes(), 10)}
		wn, wt, ws = max(wn, len(row[0])), max(wt, len(row[1])), max(ws, len(row[2]))
		rows = append(rows, row)
	}
	fmt.Fprintf(&tab, "%-*s  %-*s  %-*s  %s\n", wn, "name", wt, "type", ws, "shape", "bytes")
	for _, row := range rows {
		fmt.Fprintf(&tab, "%-*s  %-*s  %-*s  %s\n", wn, row[0], wt, row[1], ws, row[2], row[3])
	}
	bw.Write(tab.Bytes())
	return nil
}

// inspectGGUFCmd is inspect for one GGUF file (the i-th argument).
func inspectGGUFCmd(cmd *cobra.Command, path string, f *inspectFlags, hasTo bool, i int) error {
	if hasTo {
		return errors.New("--to counts what a conversion would do to safetensors tensors; for a GGUF file, --stats gives each tensor's dequantized range")
	}
	w := cmd.OutOrStdout()
	if f.json {
		rep, err := inspectGGUF(cmd.Context(), path, f.stats)
		if err != nil {
			return err
		}
		return convJSON(w, rep)
	}
	if i > 0 {
		fmt.Fprintln(w)
	}
	if f.stats {
		rep, err := inspectGGUF(cmd.Context(), path, true)
		if err != nil {
			return err
		}
		printGGUFStats(w, rep)
		return nil
	}
	return printGGUF(w, path)
}

// printGGUFStats prints inspect --stats for a GGUF file: the header lines
// and each tensor with its dequantized range.
func printGGUFStats(w io.Writer, r *ggufReport) {
	fmt.Fprintf(w, "%-10s %s\n", "file:", termSafe(r.File))
	fmt.Fprintf(w, "%-10s GGUF v%d (alignment %d, data at byte %d, %s in all)\n", "format:", r.Version, r.Alignment, r.DataOffset, convSize(r.Bytes))
	fmt.Fprintf(w, "%-10s %d (inspect without --stats lists them)\n", "metadata:", len(r.Metadata))
	fmt.Fprintf(w, "%-10s %d, dequantized as ggml does (float32)\n", "tensors:", len(r.Tensors))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "name\ttype\tshape\tbytes\tmin\tmax\tNaN\tinf")
	for _, t := range r.Tensors {
		shape := make([]string, 0, len(t.Shape))
		for _, d := range t.Shape {
			shape = append(shape, strconv.FormatUint(d, 10))
		}
		lo, hi, nan, inf := "-", "-", "-", "-"
		if st := t.Stats; st != nil {
			if st.Min != nil {
				lo, hi = *st.Min, *st.Max
			}
			nan, inf = strconv.FormatInt(st.NaN, 10), strconv.FormatInt(st.PosInf+st.NegInf, 10)
		}
		fmt.Fprintf(tw, "%s\t%s\t(%s)\t%d\t%s\t%s\t%s\t%s\n", termSafe(t.Name), t.Type, strings.Join(shape, ", "), t.Bytes, lo, hi, nan, inf)
	}
	tw.Flush()
}

// ggufStatus is the exit status of a GGUF error: 1 for a bad file (a
// gguf.FormatError), 2 for the rest (I/O, arguments).
func ggufStatus(err error) int {
	var fe *gguf.FormatError
	if errors.As(err, &fe) {
		return 1
	}
	return convExitStatus
}

// ggufTarget is what --to means for a GGUF input: a llama-quantize file
// type (Q4_K_M; its bytes), a ggml tensor type (q4_K), or a floating type
// for a dequantized safetensors or .npy output.
type ggufTarget struct {
	fileType ggufconv.FileType
	tensor   ggml.Type
	isTensor bool
	float    cltype.Kind
}

// parseGGUFTo reads --to for a GGUF input whose output is out.
func parseGGUFTo(to, out string) (ggufTarget, error) {
	l := strings.ToLower(out)
	if strings.HasSuffix(l, ".safetensors") || strings.HasSuffix(l, ".npy") {
		k, err := cltype.Lookup(to)
		if err != nil || !k.IsFloating() {
			return ggufTarget{}, fmt.Errorf("--to %s: a GGUF file is dequantized to safetensors or .npy as a floating type (float, bf16, half, double; e4m3 or e5m2 with --block-size)", to)
		}
		return ggufTarget{float: k}, nil
	}
	if ft, err := ggufconv.ParseFileType(to); err == nil {
		return ggufTarget{fileType: ft}, nil
	}
	if t, err := ggml.ParseType(to); err == nil {
		if !t.Supported() {
			return ggufTarget{}, fmt.Errorf("--to %s: clconv does not quantize %s yet (it does %s)", to, t, ggufTypeNames())
		}
		return ggufTarget{tensor: t, isTensor: true}, nil
	}
	var fts []string
	for _, ft := range ggufconv.FileTypes() {
		fts = append(fts, ft.String())
	}
	return ggufTarget{}, fmt.Errorf("--to %s: for a GGUF output give a llama-quantize file type (%s) or a ggml tensor type (%s); for a .safetensors or .npy output, float, bf16, half or double", to, strings.Join(fts, ", "), ggufTypeNames())
}

func ggufTypeNames() string {
	var s []string
	for _, t := range ggml.Types() {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}

// runConvertGGUF converts a GGUF file: to a GGUF file of a file type or a
// tensor type, or dequantized to safetensors or .npy.
func runConvertGGUF(cmd *cobra.Command, inPath, outPath string, f *convertFlags) error {
	fail := func(err error) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v\n", err)
		return exitStatus(ggufStatus(err))
	}
	if inPath == "-" || outPath == "-" {
		return fail(errors.New("GGUF files are converted file to file: give IN and OUT paths, not '-'"))
	}
	if l := strings.ToLower(outPath); strings.HasSuffix(l, ".safetensors") || strings.HasSuffix(l, ".npy") {
		return runConvertGGUFSafetensors(cmd, inPath, outPath, f)
	}
	for _, n := range []string{"name", "sat", "round", "from", "in-format", "out-format", "keep-raw", "block-size", "weight-block-size", "recipe", "rest", "max-shard-size", "scale-suffix", "scale-rule", "pad"} {
		if cmd.Flags().Changed(n) {
			return fail(fmt.Errorf("--%s does not apply to a GGUF input converted to GGUF (it converts as llama.cpp's ggml does: --to TYPE, --pure, --requantize, --tensors, --skip); a .safetensors output takes the safetensors conversion's flags", n))
		}
	}
	if f.to == "" {
		return fail(errors.New("say the destination with --to: a llama-quantize file type (Q4_K_M), a ggml tensor type (q8_0), or float/bf16 for a .safetensors output"))
	}
	tgt, err := parseGGUFTo(f.to, outPath)
	if err != nil {
		return fail(err)
	}
	requant, _ := cmd.Flags().GetBool("requantize")
	po, err := ggufOverrides(cmd, tgt.fileType != ggufconv.NoFileType)
	if err != nil {
		return fail(err)
	}
	progress, finish := convProgress(cmd, f.quiet, "gguf "+f.to)
	opt := ggufconv.Options{
		To: tgt.tensor, FileType: tgt.fileType, PlanOptions: po, Requantize: requant,
		LlamaLayout: tgt.fileType != ggufconv.NoFileType,
		Tensors:     f.tensors, Skip: f.skip, Workers: f.workers, Progress: progress, Replace: f.force,
	}
	start := time.Now()
	var rep *ggufconv.Report
	err = convWithSignals(cmd.Context(), func(ctx context.Context) error {
		var err error
		rep, err = ggufconv.ConvertGGUF(ctx, outPath, inPath, opt)
		return err
	}, nil)
	if err != nil {
		return convJobFailed(cmd, err, finish, fail)
	}
	finish(true)
	w := cmd.OutOrStdout()
	if f.json {
		return convJSON(w, struct {
			*ggufconv.Report
			Seconds float64 `json:"seconds"`
		}{rep, time.Since(start).Seconds()})
	}
	if f.stats {
		counts := map[string]int{}
		for _, t := range rep.Tensors {
			counts[t.Action.String()]++
		}
		var parts []string
		for _, k := range sortedKeys(counts) {
			parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
		}
		fmt.Fprintf(w, "%s -> %s (--to %s): %d tensors (%s), %s of tensor data -> %s in %.2fs\n", inPath, outPath, f.to, len(rep.Tensors), strings.Join(parts, ", "), convSize(rep.BytesIn), convSize(rep.BytesOut), time.Since(start).Seconds())
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, t := range rep.Tensors {
			to := t.To.String()
			if t.DType != "" {
				to = t.DType
			}
			nonFinite := ""
			if t.Stats.NaN+t.Stats.Inf > 0 {
				nonFinite = fmt.Sprintf("NaN inputs %d, inf inputs %d", t.Stats.NaN, t.Stats.Inf)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s -> %s\t%s%s\n", termSafe(t.Name), t.Action, t.From, to, termSafe(t.Reason), nonFinite)
		}
		tw.Flush()
	}
	return nil
}

// runConvertGGUFSafetensors converts a GGUF file to safetensors (or .npy)
// through package checkpoint's planner (ggufconv.ConvertToSafetensors):
// every tensor decoded as ggml does, then what a safetensors input gets:
// --to with --round and --sat, --block-size with --recipe, --rest and
// --scale-suffix, the block formats (--to mxfp4, nvfp4 ...), --stats,
// --json. --tensors and --skip choose the tensors written, as before.
func runConvertGGUFSafetensors(cmd *cobra.Command, inPath, outPath string, f *convertFlags) error {
	fail := func(err error) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v\n", err)
		status := ggufStatus(err)
		if status != 1 {
			status = dataStatus(err)
		}
		return exitStatus(status)
	}
	if f.to == "" {
		return fail(errors.New("say the destination with --to: a llama-quantize file type (Q4_K_M), a ggml tensor type (q8_0), or float/bf16 for a .safetensors output"))
	}
	if _, err := ggufOverrides(cmd, false); err != nil {
		return fail(err)
	}
	if _, err := mx.ParseFormat(f.to); err == nil && strings.HasSuffix(strings.ToLower(outPath), ".safetensors") {
		// A block format (mxfp4, nvfp4 ...): the block formats' command,
		// whose input may be GGUF (mxQuantizeFile).
		_, err := runConvertMX(cmd, []string{inPath, outPath}, f)
		return err
	}
	for _, n := range []string{"name", "from", "in-format", "out-format", "keep-raw", "weight-block-size", "max-shard-size", "scale-rule", "pad"} {
		if cmd.Flags().Changed(n) {
			return fail(fmt.Errorf("--%s does not apply to a GGUF input converted to %s (its tensors are ggml's types, decoded exactly; --tensors and --skip choose them)", n, outPath))
		}
	}
	if _, err := parseGGUFTo(f.to, outPath); err != nil {
		return fail(err)
	}
	op, err := convParseOp(cmd, f)
	if err != nil {
		return fail(err)
	}
	opt, err := checkpointOptions(cmd, op, f)
	if err != nil {
		return fail(err)
	}
	return runCheckpointJob(cmd, op, inPath, outPath, f, opt, fail, func(ctx context.Context, opt checkpoint.Options) (*checkpoint.Report, error) {
		return ggufconv.ConvertToSafetensors(ctx, outPath, inPath, f.force, opt)
	})
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]int) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// ggufOverrides reads llama-quantize's --pure, --tensor-type,
// --output-tensor-type, --token-embedding-type and --leave-output-tensor;
// they need a file type.
func ggufOverrides(cmd *cobra.Command, fileType bool) (ggufconv.PlanOptions, error) {
	var po ggufconv.PlanOptions
	fl := cmd.Flags()
	if po.Pure, _ = fl.GetBool("pure"); po.Pure && !fileType {
		return po, errors.New("--pure gives every tensor a file type's default type: give --to a llama-quantize file type (Q4_K_M)")
	}
	rules, _ := fl.GetStringArray("tensor-type")
	for _, r := range rules {
		i := strings.LastIndex(r, "=")
		if i <= 0 || i == len(r)-1 {
			return po, fmt.Errorf("--tensor-type %q: want PATTERN=TYPE (e.g. attn_v=q8_0)", r)
		}
		t, err := ggml.ParseType(r[i+1:])
		if err != nil {
			return po, fmt.Errorf("--tensor-type %q: %v", r, err)
		}
		if _, err := regexp.Compile(r[:i]); err != nil {
			return po, fmt.Errorf("--tensor-type %q: the pattern: %v", r, err)
		}
		po.TensorTypes = append(po.TensorTypes, ggufconv.TensorTypeRule{Pattern: r[:i], Type: t})
	}
	for _, c := range []struct {
		flag string
		dst  **ggml.Type
	}{{"output-tensor-type", &po.OutputType}, {"token-embedding-type", &po.TokenEmbeddingType}} {
		if v, _ := fl.GetString(c.flag); v != "" {
			t, err := ggml.ParseType(v)
			if err != nil {
				return po, fmt.Errorf("--%s %s: %v", c.flag, v, err)
			}
			*c.dst = &t
		}
	}
	po.LeaveOutput, _ = fl.GetBool("leave-output-tensor")
	if !fileType && (len(po.TensorTypes) > 0 || po.OutputType != nil || po.TokenEmbeddingType != nil || po.LeaveOutput) {
		return po, errors.New("--tensor-type, --output-tensor-type, --token-embedding-type and --leave-output-tensor refine a llama-quantize file type: give --to one (Q4_K_M)")
	}
	return po, nil
}
