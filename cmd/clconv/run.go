package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

func init() { subcommands = append(subcommands, newRunCmd) }

// maxSource bounds the size of a snippet file.
const maxSource = 64 << 20

// runOptions are the flags run and repl share.
type runOptions struct {
	bits     bool
	warn     bool
	mode     string
	maxSteps int64
}

func (o *runOptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&o.bits, "bits", false, "print every element's bit pattern in hex")
	cmd.Flags().BoolVar(&o.warn, "warn", false, "print warnings (uninitialized variables, implementation-defined conversions, ignored pragmas, ...) on standard error")
	cmd.Flags().StringVar(&o.mode, "mode", "rte", "the rounding mode before any #pragma OPENCL SELECT_ROUNDING_MODE: rte, rtz, rtp or rtn")
	cmd.Flags().Int64Var(&o.maxSteps, "max-steps", clc.DefaultMaxSteps, "stop a program after this many steps of work (a statement, loop iteration or call, plus one per operator it evaluates)")
}

// interp returns an Interp configured by the options.
func (o *runOptions) interp() (*clc.Interp, error) {
	m, err := round.ParseMode(o.mode)
	if err != nil {
		return nil, fmt.Errorf("--mode: %v", err)
	}
	if o.maxSteps <= 0 {
		return nil, errors.New("--max-steps must be positive")
	}
	return &clc.Interp{Mode: m, MaxSteps: o.maxSteps}, nil
}

func newRunCmd() *cobra.Command {
	var opts runOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "run [--bits] [--json] [--warn] FILE.cl",
		Short: "Run an OpenCL C snippet and print its top-level variables",
		Long: `run preprocesses, checks and runs an OpenCL C snippet (- reads it from standard input):
statements and declarations at top level, function definitions, #define, #if, and
#pragma OPENCL SELECT_ROUNDING_MODE. Then it prints every variable declared at top
level, in source order, with its final value:

    c = (uchar4)(0, 254, 255, 255)

A variable declared without an initializer starts as 0 (--warn says so). A name
declared twice at top level is two variables (a C compiler would reject the second;
the seed examples do it), and both are printed.

--json prints a JSON array instead, one object per variable and per line:

    [
      {"name":"c","type":"uchar4","line":3,"value":["0","254","255","255"],"bits":["0x00","0xfe","0xff","0xff"]}
    ]

"value" and "bits" always hold one string per element (one for a scalar), "value" in
the form eval prints (shortest round-trip floats, inf, -nan, true/false) and "bits"
in hex zero-padded to the element width; "line" is the line of the declaration.

Errors a C compiler would give (implicit conversions between vector types, as_ size
mismatches, _sat with a floating destination, unknown names, wrong argument counts)
are printed with the source line and a caret, nothing runs, and the exit status is 1.
docs/LANGUAGE.md describes the language clconv accepts.`,
		Example: `  clconv run examples/seeds.cl
  clconv run --bits examples/004_select_rounding_mode.cl
  echo 'float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f); uchar4 c = convert_uchar4_sat_rte(f);' | clconv run -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFile(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], &opts, asJSON)
		},
	}
	opts.addFlags(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the variables as a JSON array")
	return cmd
}

// readSource reads a snippet file, or standard input for "-".
func readSource(stdin io.Reader, name string) (string, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSource+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxSource {
		return "", fmt.Errorf("%s is larger than %d MiB", name, maxSource>>20)
	}
	return string(b), nil
}

func runFile(stdin io.Reader, stdout, stderr io.Writer, name string, opts *runOptions, asJSON bool) error {
	src, err := readSource(stdin, name)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	in, err := opts.interp()
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if opts.warn {
		in.Warn = func(e *clc.Error) { fmt.Fprintln(stderr, e.Detail()) }
	}
	file := name
	if name == "-" {
		file = "<stdin>"
	}
	if err := in.Run(file, src); err != nil {
		printErrors(stderr, err)
		return exitStatus(1)
	}
	w := bufio.NewWriter(stdout)
	if asJSON {
		writeJSON(w, in.Vars())
	} else {
		var buf []byte
		for _, v := range in.Vars() {
			buf = append(buf[:0], v.Name...)
			buf = append(buf, " = "...)
			buf = value.AppendFormat(buf, v.Value, opts.bits)
			buf = append(buf, '\n')
			w.Write(buf)
		}
	}
	return w.Flush()
}

// printErrors prints each diagnostic of err with its source line and caret.
func printErrors(w io.Writer, err error) {
	var list clc.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			fmt.Fprintln(w, e.Detail())
		}
		return
	}
	fmt.Fprintln(w, detail(err))
}

// jsonVar is one element of run --json's output.
type jsonVar struct {
	Name  string   `json:"name"`
	Type  string   `json:"type"`
	Line  int      `json:"line"`
	Value []string `json:"value"`
	Bits  []string `json:"bits"`
}

func writeJSON(w io.Writer, vars []clc.Var) {
	out := make([]jsonVar, 0, len(vars))
	for _, v := range vars {
		out = append(out, jsonVar{
			Name:  v.Name,
			Type:  v.Type.String(),
			Line:  v.Pos.Line,
			Value: elements(v.Value, false),
			Bits:  elements(v.Value, true),
		})
	}
	// One object per line: readable, and still one JSON document.
	if len(out) == 0 {
		io.WriteString(w, "[]\n")
		return
	}
	io.WriteString(w, "[\n")
	for i, v := range out {
		b, _ := json.Marshal(v) // strings and ints only: cannot fail
		io.WriteString(w, "  ")
		w.Write(b)
		if i < len(out)-1 {
			io.WriteString(w, ",")
		}
		io.WriteString(w, "\n")
	}
	io.WriteString(w, "]\n")
}

// elements returns each element of v as Format prints it, without the type.
func elements(v value.Value, bits bool) []string {
	out := make([]string, v.Type.N)
	for i := range v.Type.N {
		s := value.Format(v.Elem(i), bits)
		out[i] = s[strings.IndexByte(s, ')')+1:]
	}
	return out
}
