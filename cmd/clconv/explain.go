package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/cmd/clconv/internal/explain"
	"github.com/clconv/clconv/round"
)

func init() { subcommands = append(subcommands, newExplainCmd) }

// maxExplained bounds the conversions one explain reports in full.
const maxExplained = 64

func newExplainCmd() *cobra.Command {
	var asJSON bool
	var mode string
	cmd := &cobra.Command{
		Use:   "explain [--json] [--mode M] EXPR",
		Short: "Show why a conversion gives what it gives: bits, exact value, neighbours, every mode and its rule",
		Long: `explain evaluates an OpenCL C expression, as eval does, and explains every conversion
it performs (convert_* calls, casts, implicit conversions such as the usual arithmetic
conversions), in the order they run, lane by lane for vectors:

  - the source's bits split into sign, exponent and fraction (all bits for an integer),
    and its exact decimal value;
  - the destination's two values just below and above it (the value itself when exact),
    with exact values and bits; past the largest finite value, the upper one is inf,
    with the value it would have were the exponent range unbounded (a format without
    infinities shows that value alone);
  - the result in every mode (rte, rtz, rtp, rtn) and, for an integer destination or a
    small floating format, without and with _sat; * marks the one the expression used;
  - the rule that decided each result (exact, nearest, tie-even, tie-up, toward-zero,
    toward-pos, toward-neg, max-finite, overflow-inf, overflow-nan, nan, inf, inf-nan,
    zero, clamp, nan-zero, no-value, min-value, impl-defined, wrap), with where it is
    written (the seed text, docs/RULES.md, docs/FORMATS.md).

The small floating formats (bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0) are
explained too: their neighbours come from the format's grid, and their rules are
docs/FORMATS.md's (e4m3's overflow to NaN, _sat's largest value, the MX formats'
saturation, e8m0's ties up and missing zero).

Results come from the library's conversions; the neighbours and rules are computed
apart, with exact integer arithmetic, and the tests require them to agree.
Without _sat, a float->integer conversion of NaN or an out-of-range value is
implementation-defined in OpenCL: clconv gives the saturated value (rule impl-defined).

--json prints one JSON object (docs/EXPLAIN.md has the schema):

  {"expr": "...", "value": "(half)inf", "bits": "(half)0x7c00", "omitted": 0,
   "conversions": [{"pos": "<arg>:1:1", "line": 1, "col": 1, "kind": "convert",
     "function": "convert_half", "from": "float", "to": "half", "mode": "rte",
     "sat": false, "result": "(half)inf",
     "lanes": [{"lane": 0,
       "source": {"type", "bits", "value", "exact"},
       "fields": {"class", "sign", "exponent", "fraction", "exponent_value", "integer"},
       "exact": false, "below": NUMBER or null, "above": NUMBER or null,
       "results": [{"mode": "rte", "sat": false, "name": "convert_half_rte",
         "bits": "0x7c00", "value": "inf", "exact": "inf", "own": true,
         "rule": {"id": "overflow-inf", "text": "...", "cite": "..."}}, ...]}]}]}

Numbers are strings (64-bit integers and NaN payloads do not survive JSON numbers).
At most 64 conversions are explained ("omitted" counts the rest). An expression that
does not evaluate gives the interpreter's error (file:line:col, the line and a caret)
on standard error and exit status 1, as does one that performs no conversion; a bad
flag or a wrong number of arguments gives exit status 2.`,
		Example: `  clconv explain 'convert_half(65520.0f)'
  clconv explain 'convert_int_sat_rte((float2)(2.5f, 1e10f))'
  clconv explain 'convert_e4m3(464.0f)'
  clconv explain --json '(float)16777217'`,
		// Expressions such as -5.0f must not be taken for flags.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if isExplainBlock(args) {
				return runExplainBlock(cmd, args)
			}
			var flags, exprs []string
			for i := 0; i < len(args); i++ {
				a := args[i]
				switch {
				case a == "--":
					exprs = append(exprs, args[i+1:]...)
					i = len(args)
				case a == "--mode" && i+1 < len(args):
					flags = append(flags, a, args[i+1])
					i++
				case strings.HasPrefix(a, "--") || a == "-h":
					flags = append(flags, a)
				default:
					exprs = append(exprs, a)
				}
			}
			if err := cmd.Flags().Parse(flags); err != nil {
				return usageError(cmd, err)
			}
			if help, _ := cmd.Flags().GetBool("help"); help {
				return cmd.Help()
			}
			if len(exprs) != 1 {
				return usageError(cmd, fmt.Errorf("explain takes one expression, got %d", len(exprs)))
			}
			m, err := round.ParseMode(mode)
			if err != nil {
				return usageError(cmd, fmt.Errorf("--mode: %v", err))
			}
			return runExplain(cmd.OutOrStdout(), cmd.ErrOrStderr(), exprs[0], m, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the explanation as one JSON object")
	cmd.Flags().String("block", "", explainBlockFlag)
	cmd.Flags().StringVar(&mode, "mode", "rte", "the rounding mode the expression starts in (as #pragma OPENCL SELECT_ROUNDING_MODE): rte, rtz, rtp or rtn")
	return cmd
}

// usageError reports a bad command line on standard error with exit status 2.
func usageError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "clconv explain: %v\n", err)
	return exitStatus(exitUsage)
}

func runExplain(stdout, stderr io.Writer, src string, mode round.Mode, asJSON bool) error {
	rep, err := explain.Expression("<arg>", src, mode, maxExplained)
	if err != nil {
		fmt.Fprintln(stderr, detail(err))
		return exitStatus(exitBad)
	}
	if len(rep.Conversions) == 0 {
		// Name as_ only where the expression has it.
		why := "clconv eval shows its value"
		if strings.Contains(src, "as_") {
			why = "as_ reinterprets bits; clconv eval --bits shows them"
		}
		fmt.Fprintf(stderr, "clconv explain: %s performs no conversion (%s)\n", src, why)
		return exitStatus(exitBad)
	}
	w := bufio.NewWriter(stdout)
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		writeExplanation(w, rep)
	}
	return w.Flush()
}

// writeExplanation prints a report for people.
func writeExplanation(w io.Writer, rep *explain.Report) {
	fmt.Fprintf(w, "%s = %s\n", rep.Expr, rep.Value)
	for i, c := range rep.Conversions {
		fmt.Fprintf(w, "\n%s %s: %s -> %s (%s", c.Pos, c.Function, c.From, c.To, kindWords(c.Kind))
		fmt.Fprintf(w, ", rounds %s", c.Mode)
		if c.Sat {
			fmt.Fprint(w, ", _sat")
		}
		fmt.Fprintf(w, ") = %s\n", c.Result)
		for _, l := range c.Lanes {
			if len(c.Lanes) > 1 {
				fmt.Fprintf(w, "lane %d\n", l.Index)
			}
			writeLane(w, l)
		}
		if i == len(rep.Conversions)-1 && rep.Omitted > 0 {
			fmt.Fprintf(w, "\n(%d more conversions not explained)\n", rep.Omitted)
		}
	}
}

func kindWords(kind string) string {
	switch kind {
	case "convert":
		return "convert_ call"
	case "cast":
		return "cast"
	}
	return "implicit conversion"
}

func writeLane(w io.Writer, l explain.Lane) {
	s := l.Source
	fmt.Fprintf(w, "  source   %s %s = %s\n", s.Type, s.Bits, s.Exact)
	f := l.Fields
	if f.Integer != "" {
		fmt.Fprintf(w, "           %s integer bits %s\n", f.Class, f.Integer)
	} else {
		fmt.Fprint(w, "           ")
		if f.Sign != "" {
			fmt.Fprintf(w, "sign %s | ", f.Sign)
		}
		fmt.Fprintf(w, "exponent %s", f.Exponent)
		if f.Fraction != "" {
			fmt.Fprintf(w, " | fraction %s", f.Fraction)
		}
		if f.ExponentValue != nil {
			fmt.Fprintf(w, "  (%s, 2^%d)", f.Class, *f.ExponentValue)
		} else {
			fmt.Fprintf(w, "  (%s)", f.Class)
		}
		fmt.Fprintln(w)
	}
	dst := l.To
	switch {
	case l.Exact:
		fmt.Fprintf(w, "  in %-5s  exact: %s = %s\n", dst, l.Below.Bits, l.Below.Exact)
	case l.Below == nil && l.Above == nil:
		fmt.Fprintf(w, "  in %-5s  no neighbours: NaN has no place among the %s values\n", dst, dst)
	default:
		fmt.Fprintf(w, "  in %-5s  below %s\n", dst, neighbour(l.Below))
		fmt.Fprintf(w, "            above %s\n", neighbour(l.Above))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  mode\tresult\tbits\t\trule")
	for _, r := range l.Results {
		mark := ""
		if r.Own {
			mark = "*"
		}
		name := r.Mode
		if r.Sat {
			name += " _sat"
		}
		v := r.Exact
		if len(v) > 24 {
			v = r.Value // the shortest decimal that reads back to the bits
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s: %s\n", name, v, r.Bits, mark, r.Rule.ID, r.Rule.Text)
	}
	tw.Flush()
	// Each rule's source, once.
	seen := map[string]bool{}
	for _, r := range l.Results {
		if !seen[r.Rule.Cite] {
			seen[r.Rule.Cite] = true
			fmt.Fprintf(w, "  see: %s\n", r.Rule.Cite)
		}
	}
}

func neighbour(n *explain.Number) string {
	if n == nil {
		return "none"
	}
	s := n.Bits + " = " + n.Exact
	if n.Bits == "" { // a value the type has no pattern for
		s = n.Exact
	}
	if n.Note != "" {
		s += "  (" + n.Note + ")"
	}
	return s
}
