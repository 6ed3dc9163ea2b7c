package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
)

func init() { subcommands = append(subcommands, newInspectCmd) }

type inspectFlags struct {
	from, inFormat string
	json, quiet    bool
	workers        int
	// safetensors (tensors.go)
	stats     bool
	to, round string
	sat       bool
}

func newInspectCmd() *cobra.Command {
	var f inspectFlags
	cmd := &cobra.Command{
		Use:   "inspect [--from TYPE] [--json] [--stats [--to TYPE [--sat] [--round MODE]]] FILE...",
		Short: "Print a .npy, raw, safetensors or GGUF file's types, shapes, element counts and value ranges",
		Long: `inspect prints each FILE's format, dtype, byte and memory order, shape and
element count, the least and greatest values (NaNs left out, printed exactly)
and the number of NaNs and infinities. FILE is a .npy file, raw little-endian
binary with --from TYPE, or '-' for stdin. The exit status is 1 for bad data in a
file (a format error, with its byte offset), 2 for bad flags or arguments and I/O
errors (a missing file); every FILE is still listed.

A .safetensors file (or a sharded checkpoint: its directory or its
model.safetensors.index.json) is listed tensor by tensor: name, dtype, shape
and bytes, with the header's metadata. --stats adds each tensor's exact least
and greatest values and its NaN and infinity counts; --to TYPE (with --sat and
--round) adds how many values that conversion would clamp, overflow, flush to
zero or round (exact counts, as convert --stats gives them), and each
block-scaled weight's exact dequantized range.

A GGUF file (llama.cpp's; recognised by its magic) is listed with its version,
alignment, metadata (long arrays summarised: their type, length and first
elements) and every tensor's ggml type, shape (row-major: GGUF's ne reversed)
and bytes; --stats dequantizes each tensor as ggml does (float32, bit-equal to
dequantize_row_*) for its least and greatest values and NaN and infinity
counts.`,
		Example: `  clconv inspect capture.npy
  clconv inspect --stats --to bf16 model.safetensors
  clconv inspect --stats model-Q4_K_M.gguf
  clconv inspect --from float --json samples.raw`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInspect(cmd, args, &f)
		},
	}
	cmd.SetFlagErrorFunc(convFlagError)
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "element type of raw input (for .npy input it must match the header)")
	fl.StringVar(&f.inFormat, "in-format", "auto", "input format: auto, npy or raw")
	fl.BoolVar(&f.json, "json", false, "print JSON (one object per file, min and max as exact strings)")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress bar")
	fl.IntVar(&f.workers, "workers", 0, "goroutines scanning chunks (default: all cores)")
	fl.BoolVar(&f.stats, "stats", false, "safetensors and GGUF: each tensor's exact min and max, NaN and inf counts (and with --to, what that conversion would clamp, overflow, flush to zero or round)")
	fl.StringVar(&f.to, "to", "", "safetensors, with --stats: count what converting to this type would do")
	fl.StringVar(&f.round, "round", "", "with --to: the rounding mode (rte, rtz, rtp, rtn)")
	fl.BoolVar(&f.sat, "sat", false, "with --to: saturate")
	return cmd
}

// inspectReport is what inspect --json prints for a file.
type inspectReport struct {
	convFileReport
	ByteOrder  string  `json:"byte_order"`
	DataOffset int64   `json:"data_offset"`
	Min        *string `json:"min"`
	Max        *string `json:"max"`
	NaN        int64   `json:"nan"`
	PosInf     int64   `json:"pos_inf"`
	NegInf     int64   `json:"neg_inf"`
}

func runInspect(cmd *cobra.Command, args []string, f *inspectFlags) error {
	fail := func(err error) error {
		fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %v\n", err)
		return exitStatus(dataStatus(err))
	}
	if len(args) == 0 {
		return fail(errors.New("want at least one FILE (or '-')"))
	}
	from, err := convParseFrom(f.from)
	if err != nil {
		return fail(err)
	}
	inFmt, err := fileconv.ParseFormat(f.inFormat)
	if err != nil {
		return fail(fmt.Errorf("--in-format: %v", err))
	}
	var to convert.Op
	hasTo := f.to != ""
	if hasTo {
		cf := convertFlags{to: f.to, round: f.round, sat: f.sat}
		if to, err = convParseOp(cmd, &cf); err != nil {
			return fail(err)
		}
	}
	status := 0
	for i, path := range args {
		if !isSafetensors(path) && isGGUF(path) {
			if err := inspectGGUFCmd(cmd, path, f, hasTo, i); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %s\n", termSafe(convNameErr(path, "", err).Error()))
				status = max(status, ggufStatus(err))
			}
			continue
		}
		if isSafetensors(path) && !f.json && !f.stats {
			if err := inspectPlain(cmd.OutOrStdout(), path, i == 0); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %s\n", termSafe(convNameErr(path, "", err).Error()))
				status = max(status, dataStatus(err))
			}
			continue
		}
		if isSafetensors(path) {
			reps, err := inspectSafetensors(cmd, path, f, to, hasTo)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %s\n", termSafe(convNameErr(path, "", err).Error()))
				status = max(status, dataStatus(err))
				continue
			}
			for j, r := range reps {
				for _, w := range r.Warnings {
					fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %s: --to %s: warning: %s\n", termSafe(r.File), to.Name(), termSafe(w))
				}
				if f.json {
					convJSON(cmd.OutOrStdout(), r)
					continue
				}
				if i+j > 0 {
					fmt.Fprintln(cmd.OutOrStdout())
				}
				printSafetensors(cmd.OutOrStdout(), r, f.stats)
			}
			continue
		}
		if f.stats || hasTo {
			fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %s: --stats and --to apply to safetensors files (a .npy file's summary always has its range)\n", path)
			status = convExitStatus
			continue
		}
		rep, err := inspectOne(cmd, path, from, inFmt, f)
		if err != nil {
			if errors.Is(err, fileconv.ErrNeedFrom) {
				err = errors.New("not a .npy file: raw input needs --from TYPE")
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "clconv inspect: %s: %v\n", path, err)
			status = max(status, dataStatus(err))
			continue
		}
		w := cmd.OutOrStdout()
		if f.json {
			convJSON(w, rep)
			continue
		}
		if i > 0 {
			fmt.Fprintln(w)
		}
		printInspect(w, rep)
	}
	if status != 0 {
		return exitStatus(status)
	}
	return nil
}

func inspectOne(cmd *cobra.Command, path string, from cltype.Kind, inFmt fileconv.Format, f *inspectFlags) (*inspectReport, error) {
	in, _, closeIn, err := convOpenInput(cmd, path)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	progress, finish := convProgress(cmd, f.quiet, "inspect")
	sum, err := fileconv.Inspect(cmd.Context(), in, fileconv.InspectOptions{
		From: from, In: inFmt, Workers: f.workers, Progress: progress,
	})
	finish(err == nil)
	if err != nil {
		return nil, err
	}
	rep := &inspectReport{
		convFileReport: newConvFileReport(path, sum.Info, sum.Bytes),
		ByteOrder:      "little",
		DataOffset:     sum.DataOffset,
		NaN:            sum.NaN, PosInf: sum.PosInf, NegInf: sum.NegInf,
	}
	switch {
	case sum.BigEndian:
		rep.ByteOrder = "big"
	case sum.Kind.Size() == 1:
		rep.ByteOrder = "none"
	}
	if sum.HasRange {
		lo, hi := sum.Min.String(), sum.Max.String()
		rep.Min, rep.Max = &lo, &hi
	}
	return rep, nil
}

func printInspect(w io.Writer, r *inspectReport) {
	format := r.Format
	if r.Version != "" {
		format += " " + r.Version
	}
	order := "C"
	if r.FortranOrder {
		order = "Fortran"
	}
	row := func(name, format string, args ...any) {
		fmt.Fprintf(w, "%-10s "+format+"\n", append([]any{name + ":"}, args...)...)
	}
	row("file", "%s", r.File)
	row("format", "%s (data at byte %d, %d bytes in all)", format, r.DataOffset, r.Bytes)
	row("dtype", "%s (%s, byte order %s)", r.Dtype, r.Type, r.ByteOrder)
	row("order", "%s", order)
	row("shape", "%s", fileconv.ShapeString(r.Shape))
	row("count", "%d", r.Count)
	if r.Min != nil {
		row("min", "%s", *r.Min)
		row("max", "%s", *r.Max)
	} else {
		row("min", "-")
		row("max", "-")
	}
	row("NaN", "%d", r.NaN)
	row("inf", "%d (+inf), %d (-inf)", r.PosInf, r.NegInf)
}
