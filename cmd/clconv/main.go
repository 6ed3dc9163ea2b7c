// Command clconv evaluates OpenCL C explicit conversions bit-exactly.
//
//	clconv eval [--bits] EXPR...     evaluate expressions ('-' reads one per line from stdin)
//
// Each subcommand lives in its own file and registers itself in init by
// appending its constructor to subcommands.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cmd/clconv/internal/verify"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// subcommands holds the constructors of clconv's subcommands; each file
// appends its own in init.
var subcommands []func() *cobra.Command

// The exit statuses every command follows (clconv --help, README.md's "Exit
// status"); 130 and 143 follow SIGINT and SIGTERM.
const (
	exitBad   = 1 // the input is wrong or the check failed: a code error, bad data, a failing device
	exitUsage = 2 // usage or trouble: a bad command line, an OUT that exists, I/O errors
)

// dataStatus returns the exit status for err, an error of convert or inspect:
// exitBad for bad data in a file (a format error, a value out of range),
// exitUsage for I/O errors and everything else (bad flags and arguments).
// I/O is asked first: a failure to read or write is never bad data, even
// where a data error wraps it (a checkpoint.DataError whose message wraps a
// *fs.PathError, a safetensors.FormatError whose cause is the reader's error
// or a mapped file that changed while it was read).
func dataStatus(err error) int {
	var (
		pathErr  *fs.PathError
		errno    syscall.Errno
		writeErr *fileconv.WriteError
		readErr  *fileconv.ReadError
		npyErr   *fileconv.FormatError
		stErr    *safetensors.FormatError
		cpErr    *checkpoint.DataError
	)
	switch {
	case errors.Is(err, safetensors.ErrChanged):
		// The input was truncated or rewritten while it was read: what is
		// left of it is not a valid file (issue 41: exit 1, as a .npy
		// input truncated the same way).
		return exitBad
	case errors.As(err, &pathErr), errors.As(err, &errno), errors.As(err, &writeErr), errors.As(err, &readErr),
		errors.Is(err, fs.ErrClosed), errors.As(err, &stErr) && stErr.IO():
		return exitUsage
	case errors.As(err, &npyErr), errors.As(err, &stErr), errors.As(err, &cpErr), errors.Is(err, convert.ErrRange):
		return exitBad
	}
	return exitUsage
}

// exitStatus is an error that asks main to exit with that status without
// printing anything more: the command has already reported its problems (as
// eval does on the lines it answers).
type exitStatus int

// Error implements error.
func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// newRootCmd returns the clconv command with every registered subcommand.
func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "clconv",
		Short: "Bit-exact OpenCL C explicit conversions (convert_*, as_*)",
		Long: `clconv implements the OpenCL C conversions convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn]
and as_<type>[n] bit-exactly. Where OpenCL leaves a float->integer result
implementation-defined (NaN or out of range without _sat), clconv gives the saturated value.

Types:
  OpenCL C     char uchar short ushort int uint long ulong half float double
  bfloat16     1-8-7 bits
  OCP FP8      e4m3 (max 448, no inf) e5m2 (max 57344)
  OCP MX       element formats e2m1 (FP4) e2m3 e3m2 (FP6) e8m0 (scale)
  MX blocks    mxfp8-e4m3 mxfp8-e5m2 mxfp6-e2m3 mxfp6-e3m2 mxfp4 nvfp4
               (convert --to: .npy or safetensors in, safetensors out)
  aliases      NumPy/PyTorch/ml_dtypes/safetensors names: float16 uint8 bf16 fp32
               float8_e4m3fn float4_e2m1fn F8_E4M3 BF16 ...
Files (convert, inspect): NumPy .npy, raw little-endian binary (--from TYPE),
safetensors files and sharded checkpoints.

Exit status (every command):
  0        success
  1        the input is wrong or the check failed: an error in an OpenCL C program
           or expression (eval, run, repl, explain), bad data in a file (convert,
           inspect), a device that fails verification (verify)
  2        usage or trouble: unknown command or flag, bad flag value, wrong number
           of arguments, an OUT that exists without --force, I/O errors (a missing
           input, an unwritable output, a full disk)
  130/143  interrupted by SIGINT/SIGTERM`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       versionString(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.CompletionOptions.HiddenDefaultCmd = true
	for _, f := range subcommands {
		root.AddCommand(f())
	}
	return root
}

// run executes the root command with the given arguments and streams and
// returns the process exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var st exitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	// Errors not reported by the command itself come from the command line
	// (cobra's unknown command or flag, a wrong number of arguments) or from
	// trouble such as I/O errors.
	fmt.Fprintln(stderr, "clconv:", err)
	return exitUsage
}

func main() {
	if verify.IsWorker() { // a build process of clconv verify (verify.WorkerEnv)
		os.Exit(verify.WorkerMain())
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
