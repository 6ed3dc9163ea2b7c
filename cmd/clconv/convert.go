package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/round"
)

func init() { subcommands = append(subcommands, newConvertCmd) }

// Exit statuses of convert and inspect.
const (
	convExitStatus = exitUsage // bad flags or arguments (bad data: dataStatus)
)

// Test hooks.
var (
	// convIsTerminal reports whether w is a terminal (progress bars go only there).
	convIsTerminal = func(w io.Writer) bool {
		f, ok := w.(*os.File)
		return ok && term.IsTerminal(int(f.Fd()))
	}
	// convWrapOutput lets tests make the output fail (a full disk).
	convWrapOutput = func(w io.Writer) io.Writer { return w }
)

type convertFlags struct {
	to, name, round, from   string
	inFormat, outFormat     string
	sat, force, stats, json bool
	quiet, sync             bool
	workers                 int
	// safetensors input (tensors.go)
	tensors, skip, keepRaw              []string
	blockSize, weightBlock, scaleSuffix string
	recipe, rest, maxShard              string
}

func newConvertCmd() *cobra.Command {
	var f convertFlags
	cmd := &cobra.Command{
		Use:   "convert --to TYPE [--sat] [--round rte|rtz|rtp|rtn] [--from TYPE] IN OUT",
		Short: "Convert a .npy, raw, safetensors or GGUF file, or a checkpoint, with OpenCL semantics",
		Long: `convert applies convert_<TYPE>[_sat][_<MODE>] to every element of IN and
writes the result to OUT. IN and OUT are files or '-' (stdin, stdout).

IN is a NumPy .npy file (detected by its magic string; dtype, byte order, shape
and C/Fortran order come from its header) or raw little-endian binary, which
needs --from. The output keeps the shape and memory order and is written
little-endian: as .npy when OUT ends in .npy, raw when it ends in .raw or .bin,
otherwise in IN's format (--out-format overrides).

IN may also be a safetensors file, a checkpoint directory or its
model.safetensors.index.json (docs/SAFETENSORS.md); OUT is then a safetensors
file, or for a checkpoint a directory of shards of the same names and their
index. Every selected floating tensor is converted (--tensors, --skip), the
rest copied byte for byte. Block-scaled weights (DeepSeek-V3 and
compressed-tensors FP8 with their scales, gpt-oss MXFP4, ModelOpt NVFP4) are
dequantized with one rounding by --to half, float, double or bfloat16; other
destinations keep them and their scales byte for byte, with a warning. A
weight whose scale is missing is an error unless --keep-raw copies it as it
is. --to e4m3 or e5m2 with --block-size ROWSxCOLS quantizes 2-D tensors with
a scale per block, by --recipe exact, deepseek or transformers (a float32
scale X_scale_inv, config for FineGrainedFP8 and DeepSeek) or
compressed-tensors (X_scale in the weight's dtype, its config); --to mxfp4, mxfp6-e2m3, mxfp6-e3m2, mxfp8-e4m3, mxfp8-e5m2 or nvfp4
quantizes a .npy file, a safetensors file or a checkpoint to that block
format, written as safetensors. A quantization takes the linear layers'
weights (X.weight, not embeddings, lm_head, norms or MoE routers) unless
--tensors says otherwise, and keeps the rest (--rest bf16 converts it).

IN may also be a GGUF file (llama.cpp's): --to a llama-quantize file type
(Q4_K_M, Q8_0, Q6_K, ...; --pure, --tensor-type, --output-tensor-type,
--token-embedding-type, --leave-output-tensor as llama-quantize has them)
writes the GGUF file llama-quantize writes, byte for byte; --to a ggml tensor type (q4_K, q8_0, mxfp4, ...) quantizes every
F32/F16/BF16 tensor of 2+ dimensions whose rows are whole blocks, keeping the
order and metadata; already quantized tensors are copied unless --requantize.
--to float, bf16, half or double with OUT ending in .safetensors (or .npy for
one tensor, with --tensors) dequantizes every tensor exactly as ggml does.

Without --round, conversions to integers round toward zero and conversions to
floating types to nearest even, as in OpenCL C. A NaN or out-of-range float
converted to an integer gives the saturated value with or without --sat
(OpenCL leaves it implementation-defined; clconv saturates).

The file is streamed in constant memory on all cores. OUT is written to a
temporary file beside it, read back and checked, and renamed into place only
on success: after an error or an interrupt no partial or temporary output is
left and an existing OUT is untouched. An existing OUT is replaced only with
--force, and only a file, or a directory holding nothing but clconv's output
for it; OUT may not be IN, contain IN or lie inside an input checkpoint.

The exit status is 1 for bad data in IN (a format error, with its byte offset),
2 for bad flags or arguments, an existing OUT without --force and I/O errors
(a missing IN, an unwritable OUT, a full disk), and 130/143 after SIGINT/SIGTERM.

--stats prints how many values were clamped, became 0 from NaN, were rounded,
overflowed to infinity, became subnormal (exact counts; see docs/CONVERT.md);
--json prints the same report as JSON. Both go to stdout, or to stderr when
OUT is '-'. A progress bar is shown on stderr when it is a terminal.

bfloat16, e4m3 (OCP E4M3, "E4M3FN"), e5m2 (OCP E5M2) and the OCP MX formats
e2m1, e2m3, e3m2 (one per byte) and e8m0, and the FNUZ FP8 formats e4m3fnuz and
e5m2fnuz (AMD MI300: one NaN 0x80, no -0, overflow to NaN) convert like the other
floating types, with --sat meaning OCP's saturating mode (docs/FORMATS.md). In
.npy files they are the dtypes named bfloat16, float8_e4m3fn, float8_e5m2,
float4_e2m1fn, float6_e2m3fn, float6_e3m2fn, float8_e8m0fnu, float8_e4m3fnuz and
float8_e5m2fnuz, as ml_dtypes calls them; --to e4m3fnuz on an E4M3 block-scaled
safetensors checkpoint re-encodes it for MI300 (bits kept, scales doubled;
docs/SAFETENSORS.md);
np.save itself writes raw records ('<V2', '|V1'), which need --from.`,
		Example: `  clconv convert --to uchar --sat --round rte capture.npy capture_u8.npy
  clconv convert --name convert_half_rtz doubles.npy halves.npy
  clconv convert --from float --to uchar --sat --stats samples.raw samples_u8.raw
  clconv convert --to e4m3 --sat --round rtz weights.npy weights_fp8.npy
  cat in.npy | clconv convert --to short --sat - - > out.npy

  # checkpoints: dequantize DeepSeek-V3's FP8 to bf16, a directory (or its index) in, a directory out
  clconv convert --to bf16 DeepSeek-V3/ DeepSeek-V3-bf16/
  # DeepSeek-style FP8: the linear layers in e4m3 with 128x128 scales (DeepSeek's formula), the rest bf16
  clconv convert --to e4m3 --block-size 128x128 --recipe deepseek --rest bf16 Llama/ Llama-FP8/
  clconv convert --to mxfp4 model.safetensors out.safetensors
  # GGUF: llama-quantize's Q4_K_M, in Go; dequantized to safetensors
  clconv convert --to Q4_K_M model-f16.gguf model-Q4_K_M.gguf
  clconv convert --to bf16 model-Q4_K_M.gguf model-bf16.safetensors
  # copy a tensor byte for byte by choice (an FP8 weight without its scale is otherwise an error)
  clconv convert --to bf16 --keep-raw 'lm_head.weight' in.safetensors out.safetensors`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConvert(cmd, args, &f)
		},
	}
	cmd.SetFlagErrorFunc(convFlagError)
	fl := cmd.Flags()
	fl.StringVar(&f.to, "to", "", "destination type: char, uchar, short, ushort, int, uint, long, ulong, half, float, double, bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0, e4m3fnuz, e5m2fnuz (NumPy, ml_dtypes, PyTorch and safetensors names work: float16, bf16, float8_e4m3fn, F8_E4M3); or a block format: "+mxFormatNames())
	fl.StringVar(&f.name, "name", "", "the whole conversion as an OpenCL name, e.g. convert_uchar_sat_rte (instead of --to/--sat/--round)")
	fl.BoolVar(&f.sat, "sat", false, "saturate (integer destinations, and the small floating formats: overflow and infinities give +-MAX)")
	fl.StringVar(&f.round, "round", "", "rounding mode: rte, rtz, rtp or rtn (default: rtz to integers, rte to floating types)")
	fl.StringVar(&f.from, "from", "", "element type of raw input (for .npy input it must match the header)")
	fl.StringVar(&f.inFormat, "in-format", "auto", "input format: auto (.npy if it has the magic string, else raw), npy or raw")
	fl.StringVar(&f.outFormat, "out-format", "auto", "output format: auto (from OUT's extension, else IN's format), npy or raw")
	fl.BoolVarP(&f.force, "force", "f", false, "replace an existing OUT")
	fl.BoolVar(&f.stats, "stats", false, "print what the conversion did to the values, as a table")
	fl.BoolVar(&f.json, "json", false, "print the report (and statistics) as JSON")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar")
	fl.BoolVar(&f.sync, "sync", false, "fsync OUT before renaming it into place")
	fl.IntVar(&f.workers, "workers", 0, "goroutines converting chunks (default: all cores; at most 4 per core, or 64)")
	fl.StringSliceVar(&f.tensors, "tensors", nil, "safetensors: convert only the tensors whose names match one of these globs (comma-separated or repeated)")
	fl.StringSliceVar(&f.skip, "skip", nil, "safetensors: copy the tensors whose names match one of these globs unchanged")
	fl.StringSliceVar(&f.keepRaw, "keep-raw", nil, "safetensors: copy these tensors byte for byte by choice, even a block-scaled weight whose scale is missing (otherwise an error)")
	fl.StringVar(&f.blockSize, "block-size", "", "safetensors, --to e4m3|e5m2: quantize 2-D tensors with one float32 scale per block of ROWSxCOLS (e.g. 128x128)")
	fl.StringVar(&f.weightBlock, "weight-block-size", "", "safetensors: the block of FP8 weights' scales, ROWSxCOLS (default: config.json's quantization_config.weight_block_size, else inferred from the shapes)")
	fl.Bool("pure", false, "GGUF, --to a llama-quantize file type: every tensor it quantizes gets the file type's default type (llama-quantize --pure)")
	fl.StringArray("tensor-type", nil, "GGUF, --to a file type: PATTERN=TYPE (repeated): a quantized tensor whose name the regular expression PATTERN matches gets TYPE, the first match winning (llama-quantize --tensor-type)")
	fl.String("output-tensor-type", "", "GGUF, --to a file type: the type of output.weight (llama-quantize --output-tensor-type)")
	fl.String("token-embedding-type", "", "GGUF, --to a file type: the type of token_embd.weight (llama-quantize --token-embedding-type)")
	fl.Bool("leave-output-tensor", false, "GGUF, --to a file type: keep output.weight as it is (llama-quantize --leave-output-tensor)")
	fl.Bool("requantize", false, "GGUF: dequantize and quantize again the tensors that already have a block type (otherwise they are copied)")
	fl.StringVar(&f.maxShard, "max-shard-size", "", "checkpoint directory or index: cut the output into shards of at most this size, named and indexed as save_pretrained does (e.g. 5GB, 500MiB; default: the input's shards)")
	fl.StringVar(&f.rest, "rest", "", "safetensors, when quantizing: convert the floating tensors not quantized (embeddings, norms, lm_head, routers) to this type: bf16, half, float or double (default: keep them)")
	fl.StringVar(&f.recipe, "recipe", "", "safetensors, with --block-size: the FP8 block formula: exact (clconv's, the default: scale amax/448 rounded up, each element the exact quotient rounded once), deepseek, transformers or compressed-tensors (alias llm-compressor; those tools' bytes)")
	fl.StringVar(&f.scaleSuffix, "scale-suffix", "", "safetensors, with --block-size: the scale of tensor X is written as X+SUFFIX (default _scale_inv; _scale with --recipe compressed-tensors)")
	mxAddConvertFlags(cmd)
	return cmd
}

// convFlagError reports a bad flag or argument with exit status 2.
func convFlagError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "clconv %s: %v\n", cmd.Name(), err)
	return exitStatus(convExitStatus)
}

// convParseOp builds the conversion from --name or from --to, --sat and --round.
func convParseOp(cmd *cobra.Command, f *convertFlags) (convert.Op, error) {
	var name string
	if f.name != "" {
		for _, other := range []string{"to", "sat", "round"} {
			if cmd.Flags().Changed(other) {
				return convert.Op{}, fmt.Errorf("--name gives the whole conversion; leave out --%s", other)
			}
		}
		name = f.name
		if !strings.HasPrefix(name, "convert_") {
			name = "convert_" + name
		}
	} else {
		if f.to == "" {
			return convert.Op{}, errors.New("say the destination type with --to TYPE (or --name convert_TYPE...)")
		}
		k, err := cltype.Lookup(f.to)
		if err != nil {
			return convert.Op{}, convUnknownTo(f.to, err)
		}
		name = "convert_" + k.String()
		if f.sat {
			name += "_sat"
		}
		if f.round != "" {
			if _, err := round.ParseMode(f.round); err != nil {
				return convert.Op{}, err
			}
			name += "_" + f.round
		}
	}
	op, err := convert.ParseName(name)
	if err != nil {
		return convert.Op{}, err
	}
	if op.Dst.IsVector() {
		return convert.Op{}, fmt.Errorf("%s: convert works element by element; give a scalar type (%s)", name, op.Dst.Kind)
	}
	return op, nil
}

// convTypeHints answer the --to names that ML users reach for and clconv
// does not have (names in lower case), with the formats that exist
// instead: Lookup's nearest names would be of the wrong kind ("fp6": fp16),
// and float4, float8, int4 and uint4 are OpenCL vector types. NumPy's f4
// and f8 are float32 and float64 (safetensors' F4, FP4, is e2m1 to Lookup).
var convTypeHints = []struct {
	names []string
	what  string // what the user wants, for the vector types' message
	hint  string
}{
	{[]string{"fp8", "float8"}, "FP8", convHintFP8},
	{[]string{"f8"}, "FP8", "NumPy's f8 is float64 (--to double); for FP8, " + convHintFP8},
	{[]string{"fp4", "float4"}, "FP4", convHintFP4},
	{[]string{"f4"}, "FP4", "NumPy's f4 is float32 (--to float); for FP4, " + convHintFP4},
	{[]string{"int4", "uint4", "nf4", "q4", "q4_0"}, "4-bit integers",
		"clconv has no 4-bit integer type, NF4 or GGUF Q4 block: its 4-bit formats are e2m1 (FP4, one element per byte) and the block formats mxfp4 and nvfp4"},
	{[]string{"fp6", "float6", "f6"}, "FP6",
		"did you mean e2m3 or e3m2 (FP6, float6_e2m3fn and float6_e3m2fn, one element per byte) or the block formats mxfp6-e2m3 and mxfp6-e3m2?"},
}

const (
	convHintFP8 = "did you mean e4m3 (OCP E4M3, float8_e4m3fn) or e5m2 (OCP E5M2, float8_e5m2)? " +
		"Block-scaled FP8: the block formats mxfp8-e4m3 and mxfp8-e5m2, or e4m3 with --block-size on safetensors"
	convHintFP4 = "did you mean e2m1 (FP4, float4_e2m1fn, one element per byte) " +
		"or the block formats mxfp4 and nvfp4 (two elements per byte, with block scales)?"
)

// convUnknownTo returns the error for --to to, which Lookup refused with
// err.
func convUnknownTo(to string, err error) error {
	what, hint := "", ""
	for _, h := range convTypeHints {
		if slices.Contains(h.names, strings.ToLower(strings.TrimSpace(to))) {
			what, hint = h.what, h.hint
		}
	}
	if op, verr := convert.ParseName("convert_" + to); verr == nil && op.Dst.IsVector() {
		if hint != "" {
			hint = ". For " + what + ": " + hint
		}
		return fmt.Errorf("--to %s: an OpenCL vector type; convert works element by element: give a scalar type%s", to, hint)
	}
	if hint != "" {
		return fmt.Errorf("--to %s: unknown type %q: %s", to, to, hint)
	}
	return fmt.Errorf("--to %s: %v", to, err)
}

// convParseFrom parses --from.
func convParseFrom(s string) (cltype.Kind, error) {
	if s == "" {
		return cltype.Invalid, nil
	}
	k, err := cltype.Lookup(s)
	if err != nil {
		return cltype.Invalid, fmt.Errorf("--from %s: %v", s, err)
	}
	return k, nil
}

// convOutFormat picks the output format for OUT when --out-format is auto.
func convOutFormat(out string) fileconv.Format {
	switch strings.ToLower(filepath.Ext(out)) {
	case ".npy":
		return fileconv.FormatNPY
	case ".raw", ".bin":
		return fileconv.FormatRaw
	}
	return fileconv.FormatAuto
}

// convOpenInput opens IN ('-' is stdin) and returns it with its file information
// (nil when unknown).
func convOpenInput(cmd *cobra.Command, path string) (io.Reader, os.FileInfo, func(), error) {
	if path == "-" {
		r := cmd.InOrStdin()
		var fi os.FileInfo
		if f, ok := r.(*os.File); ok {
			fi, _ = f.Stat()
		}
		return r, fi, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	if fi.IsDir() {
		f.Close()
		return nil, nil, nil, fmt.Errorf("%s is a directory", path)
	}
	return f, fi, func() { f.Close() }, nil
}

// output is where the converted data goes.
type convOutput struct {
	w      io.Writer
	atomic *fileconv.AtomicFile // nil for stdout and devices
	close  func() error
	once   sync.Once
}

func (o *convOutput) abort() { o.tryAbort() }

// tryAbort discards the output (a temporary file) and reports whether it
// did: false when it was already committed. It may run concurrently with
// the conversion's writes, which then fail.
func (o *convOutput) tryAbort() bool {
	if o.atomic != nil {
		ok, _ := o.atomic.TryAbort()
		return ok
	}
	o.once.Do(func() {
		if o.close != nil {
			o.close()
		}
	})
	return true
}

func (o *convOutput) commit() error {
	if o.atomic != nil {
		return o.atomic.Commit()
	}
	var err error
	o.once.Do(func() {
		if o.close != nil {
			err = o.close()
		}
	})
	return err
}

// convOpenOutput prepares OUT: stdout for '-', the device itself for an existing
// non-regular file (/dev/null, a FIFO), else an AtomicFile. It refuses OUT
// being IN and an existing regular OUT without --force.
func convOpenOutput(cmd *cobra.Command, path, inPath string, inInfo os.FileInfo, force, sync bool) (*convOutput, error) {
	if path == "-" {
		w := cmd.OutOrStdout()
		if f, ok := w.(*os.File); ok {
			if term.IsTerminal(int(f.Fd())) {
				return nil, errors.New("refusing to write binary data to a terminal (redirect stdout or give OUT)")
			}
			if fi, err := f.Stat(); err == nil && inInfo != nil && os.SameFile(fi, inInfo) {
				return nil, errors.New("stdout is the input file: OUT may not be IN")
			}
		}
		// Hide WriteAt: stdout may be opened for appending or at an offset,
		// where rewriting a header at offset 0 would hit the wrong bytes.
		return &convOutput{w: struct{ io.Writer }{w}}, nil
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && inInfo != nil && os.SameFile(fi, inInfo):
		return nil, fmt.Errorf("%s is the input file: OUT may not be IN", path)
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		// Hide WriteAt: a device or FIFO cannot take a header rewritten at
		// the end, so a raw stream to .npy fails before writing anything.
		return &convOutput{w: struct{ io.Writer }{f}, close: f.Close}, nil
	case err == nil && !force:
		return nil, fmt.Errorf("%s exists: use --force to replace it", path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	var ins []string
	if inPath != "-" {
		ins = []string{inPath}
	}
	if err := checkpoint.CheckOutput(path, ins, false, force); err != nil {
		return nil, err
	}
	a, err := fileconv.CreateAtomic(path, force)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s exists: use --force to replace it", path)
		}
		return nil, err
	}
	a.Sync = sync
	return &convOutput{w: a, atomic: a}, nil
}

// convProgress returns a progress callback drawing a bar on stderr when it is
// a terminal, and a function to finish (ok) or clear the bar.
func convProgress(cmd *cobra.Command, quiet bool, desc string) (func(done, total int64), func(ok bool)) {
	stderr := cmd.ErrOrStderr()
	if quiet || !convIsTerminal(stderr) {
		return nil, func(bool) {}
	}
	var bar *progressbar.ProgressBar
	progress := func(done, total int64) {
		if bar == nil {
			bar = progressbar.NewOptions64(total,
				progressbar.OptionSetWriter(stderr),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionShowBytes(true),
				progressbar.OptionShowTotalBytes(true),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(20),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionSpinnerType(14),
				progressbar.OptionFullWidth(),
				progressbar.OptionUseIECUnits(true),
			)
		}
		bar.Set64(done)
	}
	finish := func(ok bool) {
		if bar == nil {
			return
		}
		if ok {
			bar.Finish()
			fmt.Fprintln(stderr)
		} else {
			bar.Clear()
		}
	}
	return progress, finish
}

// convInterrupted is the cancellation cause after SIGINT or SIGTERM.
type convInterrupted struct{ sig os.Signal }

func (e *convInterrupted) Error() string { return "interrupted by " + e.sig.String() }

func (e *convInterrupted) status() int {
	if e.sig == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 128 + int(syscall.SIGINT)
}

// convJobFailed reports the error of a conversion run by convWithSignals:
// the progress bar ends, an interrupt is its signal's status ("no output
// written"), any other error goes to fail.
func convJobFailed(cmd *cobra.Command, err error, finish func(bool), fail func(error) error) error {
	finish(false)
	var intr *convInterrupted
	if errors.As(err, &intr) {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v; no output written\n", err)
		return exitStatus(intr.status())
	}
	return fail(err)
}

// convWithSignals runs job and returns its error. SIGINT or SIGTERM
// cancels job's context with a *convInterrupted cause; convWithSignals then
// waits for job to return, because job removes its own temporary output
// before it returns (every copy and conversion loop checks the context), so
// that nothing of it is left when the command exits. onSignal, if not nil,
// runs as soon as a signal arrives and reports whether job may be left
// behind: the .npy conversion aborts its output there, and a job blocked on
// a read from a pipe (which no context interrupts) is then not waited for.
// A job that completes despite the signal (its output was already in
// place) returns its own result. A panic in job is returned as an error,
// after job's deferred cleanup has run.
func convWithSignals(ctx context.Context, job func(ctx context.Context) error, onSignal func() bool) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sigc := make(chan os.Signal, 2)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigc)
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("internal error (please report it): %v\n%s", r, debug.Stack())
			}
		}()
		done <- job(ctx)
	}()
	select {
	case err := <-done:
		return err
	case sig := <-sigc:
		e := &convInterrupted{sig}
		cancel(e)
		if onSignal != nil && onSignal() {
			return e
		}
		// Wait for the job's cleanup; further signals are absorbed
		// meanwhile (the default action would leave its temporary
		// files behind).
		for {
			select {
			case err := <-done:
				if err == nil {
					return nil
				}
				return e
			case <-sigc:
			}
		}
	}
}

// convVerifyOutput re-reads the finished temporary output at tmp before it
// is renamed into place: its size must be what the conversion wrote, and a
// .npy file's header must read back with the output's type and shape.
func convVerifyOutput(tmp string, res *fileconv.Result) error {
	if res == nil {
		return errors.New("no result to check the output against")
	}
	fi, err := os.Stat(tmp)
	if err != nil {
		return err
	}
	if fi.Size() != res.BytesOut {
		return fmt.Errorf("the output holds %d bytes, not the %d written: it was not kept", fi.Size(), res.BytesOut)
	}
	if res.Out.Format != fileconv.FormatNPY {
		return nil
	}
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	h, err := fileconv.ReadHeader(f)
	if err != nil {
		return fmt.Errorf("the output's .npy header does not read back (%v): it was not kept", err)
	}
	if h.Kind != res.Out.Kind || !slices.Equal(h.Shape, res.Out.Shape) || res.Out.DataOffset+h.DataLen() != fi.Size() {
		return fmt.Errorf("the output's .npy header reads back as %s %s, not %s %s: it was not kept",
			h.Kind, fileconv.ShapeString(h.Shape), res.Out.Kind, fileconv.ShapeString(res.Out.Shape))
	}
	return nil
}

// convNameErr names the file an error concerns, when the message does not:
// OUT for a failure to write, IN for the rest.
func convNameErr(in, out string, err error) error {
	var we *fileconv.WriteError
	name := in
	if errors.As(err, &we) {
		name = out
	}
	if name == "-" || strings.Contains(err.Error(), name) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// convReport is what --json prints.
type convReport struct {
	Conversion string          `json:"conversion"`
	Input      convFileReport  `json:"input"`
	Output     convFileReport  `json:"output"`
	Seconds    float64         `json:"seconds"`
	Stats      *fileconv.Stats `json:"stats,omitempty"`
}

type convFileReport struct {
	File         string  `json:"file"`
	Format       string  `json:"format"`
	Version      string  `json:"version,omitempty"`
	Type         string  `json:"type"`
	Dtype        string  `json:"dtype"`
	FortranOrder bool    `json:"fortran_order"`
	Shape        []int64 `json:"shape"`
	Count        int64   `json:"count"`
	Bytes        int64   `json:"bytes"`
}

func newConvFileReport(file string, info fileconv.Info, bytes int64) convFileReport {
	return convFileReport{
		File: file, Format: info.Format.String(), Version: info.Version,
		Type: info.Kind.String(), Dtype: convDtype(info.Kind, info.BigEndian),
		FortranOrder: info.Fortran, Shape: info.Shape, Count: info.Count, Bytes: bytes,
	}
}

// convDtype returns the NumPy type string of kind k.
func convDtype(k cltype.Kind, bigEndian bool) string {
	h := fileconv.Header{Kind: k, BigEndian: bigEndian}
	return h.Descr()
}

// ggufOnlyFlags are convert's flags that only a GGUF input takes.
var ggufOnlyFlags = []string{"pure", "requantize", "tensor-type", "output-tensor-type", "token-embedding-type", "leave-output-tensor"}

func runConvert(cmd *cobra.Command, args []string, f *convertFlags) error {
	fail := func(err error) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v\n", err)
		return exitStatus(dataStatus(err))
	}
	if len(args) != 2 {
		return fail(fmt.Errorf("want IN and OUT (files or '-'), got %d argument(s)", len(args)))
	}
	if !isSafetensors(args[0]) && isGGUF(args[0]) {
		if err := checkWorkers(f.workers); err != nil {
			return fail(err)
		}
		return runConvertGGUF(cmd, args[0], args[1], f)
	}
	for _, n := range ggufOnlyFlags {
		if cmd.Flags().Changed(n) {
			return fail(fmt.Errorf("--%s applies to GGUF input (llama-quantize's choices), not to %s", n, args[0]))
		}
	}
	if done, err := runConvertMX(cmd, args, f); done {
		return err
	}
	if err := checkWorkers(f.workers); err != nil {
		return fail(err)
	}
	inPath, outPath := args[0], args[1]
	op, err := convParseOp(cmd, f)
	if err != nil {
		return fail(err)
	}
	if isSafetensors(inPath) {
		return runConvertSafetensors(cmd, inPath, outPath, op, f)
	}
	if len(f.tensors)+len(f.skip)+len(f.keepRaw) > 0 || f.blockSize != "" || f.weightBlock != "" || f.scaleSuffix != "" || f.recipe != "" || f.rest != "" || f.maxShard != "" {
		return fail(errors.New("--tensors, --skip, --keep-raw, --block-size, --weight-block-size, --recipe, --rest, --max-shard-size and --scale-suffix apply to safetensors input"))
	}
	from, err := convParseFrom(f.from)
	if err != nil {
		return fail(err)
	}
	inFmt, err := fileconv.ParseFormat(f.inFormat)
	if err != nil {
		return fail(fmt.Errorf("--in-format: %v", err))
	}
	outFmt, err := fileconv.ParseFormat(f.outFormat)
	if err != nil {
		return fail(fmt.Errorf("--out-format: %v", err))
	}
	if outFmt == fileconv.FormatAuto && outPath != "-" {
		outFmt = convOutFormat(outPath)
	}

	in, inInfo, closeIn, err := convOpenInput(cmd, inPath)
	if err != nil {
		return fail(err)
	}
	defer closeIn()
	out, err := convOpenOutput(cmd, outPath, inPath, inInfo, f.force, f.sync)
	if err != nil {
		return fail(err)
	}

	progress, finish := convProgress(cmd, f.quiet, op.Name())
	opt := fileconv.Options{
		Dst: op.Dst.Kind, Sat: op.Sat, Mode: op.Mode(round.RTE),
		From: from, In: inFmt, Out: outFmt,
		Workers: f.workers, Stats: f.stats || f.json, Progress: progress,
	}
	start := time.Now()
	var res *fileconv.Result
	if out.atomic != nil {
		out.atomic.Verify = func(tmp string) error { return convVerifyOutput(tmp, res) }
	}
	// A regular input file is read by loops that see the cancellation;
	// a pipe may block a read for ever, and is not waited for once the
	// output is gone.
	waitable := inInfo != nil && inInfo.Mode().IsRegular()
	err = convWithSignals(cmd.Context(), func(ctx context.Context) error {
		var err error
		res, err = fileconv.Convert(ctx, convWrapOutput(out.w), in, opt)
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			return out.commit()
		}
		out.abort()
		return err
	}, func() bool {
		aborted := out.tryAbort()
		return aborted && !waitable
	})
	if err != nil {
		out.abort()
		finish(false)
		var intr *convInterrupted
		if errors.As(err, &intr) {
			fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: %v; no output written\n", err)
			return exitStatus(intr.status())
		}
		if errors.Is(err, fileconv.ErrNeedFrom) {
			return fail(fmt.Errorf("%s is not a .npy file: raw input needs --from TYPE", inPath))
		}
		return fail(convNameErr(inPath, outPath, err))
	}
	finish(true)
	elapsed := time.Since(start)
	if res.NonFinite > 0 {
		what, hint := fileconv.NonFiniteAdvice(res.Out.Kind)
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv convert: warning: %d finite value(s) became %s: %s\n", res.NonFinite, what, hint)
	}

	w := cmd.OutOrStdout()
	if outPath == "-" {
		w = cmd.ErrOrStderr()
	}
	if f.json {
		rep := convReport{
			Conversion: op.Name(),
			Input:      newConvFileReport(inPath, res.In, res.BytesIn),
			Output:     newConvFileReport(outPath, res.Out, res.BytesOut),
			Seconds:    elapsed.Seconds(),
			Stats:      &res.Stats,
		}
		return convJSON(w, rep)
	}
	if f.stats {
		convPrintStats(w, op, res, elapsed)
	}
	return nil
}

// convPrintStats prints the --stats table.
func convPrintStats(w io.Writer, op convert.Op, res *fileconv.Result, elapsed time.Duration) {
	fmt.Fprintf(w, "%s: %s %s -> %s %s, %d values, %s -> %s in %.2fs\n",
		op.Name(), res.In.Format, res.In.Kind, res.Out.Format, res.Out.Kind, res.Stats.Count,
		convSize(res.BytesIn), convSize(res.BytesOut), elapsed.Seconds())
	rows := res.Stats.RowsFor(res.Out.Kind)
	width := 1
	for _, r := range rows {
		width = max(width, len(fmt.Sprint(r.Value)))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-17s %*d  %-9s %s\n", r.Name, width, r.Value, convPercent(r.Value, res.Stats.Count), r.Desc)
	}
}

func convPercent(n, of int64) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.4g%%", 100*float64(n)/float64(of))
}

// convSize formats a byte count in IEC units.
func convSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// convJSON prints v indented, without HTML escapes ("<f4" stays readable).
func convJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
