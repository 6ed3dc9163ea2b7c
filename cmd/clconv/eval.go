package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/value"
)

func init() { subcommands = append(subcommands, newEvalCmd) }

// maxLine bounds one line of eval's standard input.
const maxLine = 16 << 20

func newEvalCmd() *cobra.Command {
	var bits, warn bool
	cmd := &cobra.Command{
		Use:   "eval [--bits] [--warn] EXPR...",
		Short: "Evaluate OpenCL C expressions (convert_*, as_*, operators, casts, vector literals)",
		Long: `eval evaluates each OpenCL C expression and prints one line per expression:
(int)2 for a scalar, (uchar4)(0, 254, 255, 255) for a vector. Floating values print in
the shortest form that reads back to the same bits ((float)0.1, (float)inf, (float)-nan);
--bits prints every element's bit pattern in hex, zero-padded to its width.

The expressions may use the whole expression language of clconv run (docs/LANGUAGE.md)
except variables: integer, floating and character constants (0x1.8p3f, 2.5h, 42ul, 'a'),
casts, vector literals ((float4)(a, b, c, d), (float4)(x), (float4)(f2, 1.0f, 2.0f)),
swizzles (.wzyx, .s01, .lo, .hi, .even, .odd), every operator with OpenCL C's rules
(arithmetic, bitwise, shifts, comparisons giving -1/0 per vector element, && || !, ?:, the
comma operator), sizeof and vec_step, the predefined macros (INT_MAX, FLT_MAX, INFINITY,
...) and calls of every convert_* and as_* function and of select, any and all.

The argument - reads one expression per line from standard input and answers one line
each, in order; a line that fails is answered "error: <message>" and the exit status
becomes 1. Errors in expressions given as arguments go to standard error, with the
source line and a caret, and the exit status is 1.

Non-saturating float->integer conversions of NaN or out-of-range values are
implementation-defined in OpenCL; clconv gives the saturated value (--warn says so).

The small floating formats are types too (docs/FORMATS.md): bfloat16 (1-8-7 bits),
e4m3 (OCP E4M3, max 448, no infinity), e5m2 (OCP E5M2, max 57344), and the OCP MX
formats e2m1 (max 6), e2m3 (max 7.5), e3m2 (max 28), which saturate in every mode and
have no NaN, e8m0 (unsigned powers of two 2^-127 .. 2^127, no zero), and the FNUZ
formats e4m3fnuz (max 240) and e5m2fnuz (max 57344), whose one NaN is 0x80. Their vectors
put an x before the width, since the names end in a digit: bfloat16x4, e4m3x2,
e5m2x16. convert_bfloat16x4_sat_rtz(float4), convert_e4m3(x), convert_float(e5m2),
convert_e8m0_sat_rtp(x), as_e4m3x2((short)x) and casts work in every mode; _sat gives
+-MAX on overflow and for infinities. The 8-bit and smaller formats print their exact
values. They are storage formats: operators on them are errors (convert them with
convert_float first).

Flags start with --; any other argument, even one starting with -, is an expression.`,
		Example: `  clconv eval 'convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))'
  clconv eval --bits 'convert_half_rtz((short)32767)' 'as_uint(-0.0f)'
  clconv eval -0.0f
  clconv eval --bits 'convert_e4m3_rte(464.0f)' 'convert_bfloat16x2_sat_rtz((float2)(0.1f, 1e39f))'
  printf 'convert_int_rte(2.5f)\nconvert_int_rtn(-2.5f)\n' | clconv eval -`,
		// Expressions such as -5.0f must not be taken for flags, so eval
		// sorts its arguments itself.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			var flags, exprs []string
			for i, a := range args {
				if a == "--" {
					exprs = append(exprs, args[i+1:]...)
					break
				}
				if strings.HasPrefix(a, "--") || a == "-h" {
					flags = append(flags, a)
				} else {
					exprs = append(exprs, a)
				}
			}
			if err := cmd.Flags().Parse(flags); err != nil {
				return err
			}
			if help, _ := cmd.Flags().GetBool("help"); help {
				return cmd.Help()
			}
			if len(exprs) == 0 {
				return errors.New("eval: no expression given (try clconv eval --help)")
			}
			return runEval(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), exprs, bits, warn)
		},
	}
	cmd.Flags().BoolVar(&bits, "bits", false, "print every element's bit pattern in hex")
	cmd.Flags().BoolVar(&warn, "warn", false, "warn on standard error about implementation-defined results")
	return cmd
}

// runEval evaluates exprs in order, reading stdin for "-".
func runEval(stdin io.Reader, stdout, stderr io.Writer, exprs []string, bits, warn bool) error {
	w := bufio.NewWriterSize(stdout, 64<<10)
	// Diagnostics are rare: stdout is flushed before each so that a reader of
	// both streams sees them in order.
	diag := func(s string) {
		w.Flush()
		io.WriteString(stderr, s+"\n")
	}
	ev := &clc.Evaluator{}
	var line int // the stdin line being evaluated, 0 for arguments
	if warn {
		ev.Warn = func(e *clc.Error) {
			if line > 0 {
				e.Pos.Line = line
			}
			diag(e.Detail())
		}
	}
	failed := false
	var buf []byte
	for i, src := range exprs {
		if src == "-" {
			n, ok, err := evalLines(stdin, w, ev, bits, &line)
			if err != nil {
				w.Flush()
				return fmt.Errorf("eval: standard input, line %d: %w", n+1, err)
			}
			failed = failed || !ok
			line = 0
			continue
		}
		v, err := ev.EvalString("<arg"+strconv.Itoa(i+1)+">", src)
		if err != nil {
			failed = true
			diag(detail(err))
			continue
		}
		buf = value.AppendFormat(buf[:0], v, bits)
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if failed {
		return exitStatus(1)
	}
	return nil
}

// evalLines answers every line of r on w, one line each, and reports how many
// lines it read and whether all of them evaluated. *line follows the line
// being evaluated, for positions in warnings.
func evalLines(r io.Reader, w *bufio.Writer, ev *clc.Evaluator, bits bool, line *int) (n int, ok bool, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	ok = true
	var buf []byte
	for sc.Scan() {
		n++
		*line = n
		src := strings.TrimSuffix(sc.Text(), "\r")
		v, err := ev.EvalString("<stdin>", src)
		buf = buf[:0]
		if err != nil {
			ok = false
			var e *clc.Error
			msg := err.Error()
			if errors.As(err, &e) {
				e.Pos.Line = n
				msg = e.Error()
			}
			buf = append(buf, "error: "...)
			buf = append(buf, msg...)
		} else {
			buf = value.AppendFormat(buf, v, bits)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return n, ok, err
		}
	}
	return n, ok, sc.Err()
}

// detail renders an evaluation error with its source line and caret.
func detail(err error) string {
	var e *clc.Error
	if errors.As(err, &e) {
		return e.Detail()
	}
	return err.Error()
}
