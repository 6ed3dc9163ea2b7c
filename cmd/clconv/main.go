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
	"os"

	"github.com/spf13/cobra"
)

// subcommands holds the constructors of clconv's subcommands; each file
// appends its own in init.
var subcommands []func() *cobra.Command

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
and as_<type>[n] bit-exactly for char, uchar, short, ushort, int, uint, long, ulong,
half, float and double. Where OpenCL leaves a float->integer result implementation-defined
(NaN or out of range without _sat), clconv gives the saturated value.`,
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
	fmt.Fprintln(stderr, "clconv:", err)
	return 1
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
