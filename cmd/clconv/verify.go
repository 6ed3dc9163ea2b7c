package main

import (
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/clconv/clconv/cmd/clconv/internal/verify"
)

func init() { subcommands = append(subcommands, newVerifyCmd) }

func newVerifyCmd() *cobra.Command {
	var (
		platform, only, widths, fault, jsonFile, refFile string
		device, examples, programSize, builders, procs   int
		quick, asJSON, noProgress                        bool
		noVectors, noAsType, noFP16, noShipped           bool
	)
	cmd := &cobra.Command{
		Use:   "verify [--platform P] [--device N] [--only PATTERN] [--quick] [--json]",
		Short: "Prove an OpenCL device's conversions against clconv, bit for bit",
		Long: `verify builds OpenCL C kernels that run every conversion the device supports
(every source/destination pair of char, uchar, short, ushort, int, uint, long,
ulong, half, float, double; _sat for integer destinations; every rounding
suffix and none) over all 2^8, 2^16 or 2^32 inputs of the source type (2^32
samples of a 64-bit one), and compares the device's digest of the results
(docs/VERIFY.md) with clconv's, per chunk of 2^24 inputs. Every chunk that
differs is rerun input by input and each wrong result is listed with the rule
of the specification it breaks. Edge values, vector widths 2, 3, 4, 8, 16 and
the as_type rules are checked too.

Implementation-defined results (float -> integer without _sat of NaN or of a
value that rounds out of range) are summarised separately; they are never
failures. The exit status is 1 when anything fails. SIGINT or SIGTERM (Ctrl-C)
stops a run: the report covers the conversions that finished, says
INCOMPLETE, and the exit status is 130 unless something failed.

--quick checks 2^24 inputs per 32- or 64-bit source, spread over the whole
input space (every input of 8- and 16-bit sources).

A full run compares with the reference digests shipped inside clconv
(computed by the library, one per class of conversions that agree on every
input), and a quick run with the shipped sums of its slices' digests, so
neither needs CPU-side exhaustive work; --no-shipped-reference
computes them on the CPU instead while the device works (seconds of CPU per
32- or 64-bit source conversion), and --reference FILE keeps what was
computed (in the format of clconv digest) for the next run.

--only selects conversions by "NAME SOURCE" (e.g. "convert_int_sat_rte float"):
a glob ("convert_int*_sat* float"; without a space it may match the name or the
source alone: "float", "convert_half*"), or a regular expression when it has
one of ^$()|+\{}. characters; several patterns are separated by commas.

Program binaries are cached in the user cache directory (clconv/programs
there), keyed by platform, device, driver version, clconv version and the
program's source; a corrupt or stale entry is rebuilt with a note on stderr.
The programs not in the cache are built in parallel by child processes of
clconv (drivers build one program at a time per process).
The CPU reference digests of a quick run's slices (computed where the
shipped sum differs) are cached there too (clconv/reference), keyed by the
executable's SHA-256. CLCONV_CACHE=DIR moves these caches, CLCONV_CACHE=off
turns them off, and PoCL's kernel cache, and gives CUDA an empty kernel cache
of the run's own (unless POCL_KERNEL_CACHE, CUDA_CACHE_PATH or
CUDA_CACHE_DISABLE is set), so that a run is cold.

Needs a build with OpenCL: go build -tags opencl ./cmd/clconv.`,
		Example: `  clconv devices
  clconv verify --quick
  clconv verify --platform pocl --only 'convert_int*_sat* float' --quick
  clconv verify --platform 1 --device 0 --json-file report.json > report.txt
  clconv verify --platform nvidia --reference digests.tsv   # later runs reuse the CPU digests`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := verify.Options{Only: only, Quick: quick, NoVectors: noVectors, NoAsType: noAsType,
				Examples: examples, NoFP16: noFP16, NoShipped: noShipped}
			if widths != "" {
				o.Widths = []int{}
				for _, s := range strings.Split(widths, ",") {
					n, err := strconv.Atoi(strings.TrimSpace(s))
					if err != nil {
						return fmt.Errorf("--widths %q: %q is not a number", widths, s)
					}
					o.Widths = append(o.Widths, n)
				}
			}
			if fault != "" {
				f, err := verify.ParseFault(fault)
				if err != nil {
					return err
				}
				o.Fault = f
			}
			if _, err := verify.ParseFilter(only); err != nil {
				return err
			}
			defer verify.DriverSettings()() // before the first OpenCL call
			o.Programs, o.Slices = verify.DefaultBinCache(), verify.DefaultSliceCache()
			o.ProgramSize, o.Builders, o.BuildProcs = programSize, builders, procs
			// The programs not in the binary cache are built in build
			// processes: this executable, as verify.WorkerEnv makes it.
			if exe, err := os.Executable(); err == nil {
				o.Worker = []string{exe}
			}
			o.Notice = func(s string) { fmt.Fprintf(cmd.ErrOrStderr(), "clconv verify: %s\n", s) }
			dev, err := pickDevice(platform, device)
			if err != nil {
				return err
			}
			if refFile != "" {
				if o.Cache, err = verify.LoadRefCache(refFile); err != nil {
					return err
				}
			}
			if !noProgress && cmd.ErrOrStderr() == os.Stderr && term.IsTerminal(int(os.Stderr.Fd())) {
				var bar *progressbar.ProgressBar
				o.Progress = func(done, total int, current string) {
					if bar == nil {
						bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
							progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true),
							progressbar.OptionSetElapsedTime(true), progressbar.OptionClearOnFinish(),
							progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100_000_000))
					}
					if current != "" {
						bar.Describe(fmt.Sprintf("%-28s", current))
					}
					_ = bar.Set(done)
					if done == total {
						_ = bar.Finish()
					}
				}
				fmt.Fprintf(os.Stderr, "verifying %s\n", dev)
			}
			// SIGINT or SIGTERM stops the run and prints the report of what
			// finished (verdict INCOMPLETE, exit status 130 unless a check
			// failed); a second signal kills it.
			ctx, stopSignals := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			o.Context = ctx
			go func() {
				<-ctx.Done()
				stopSignals()
			}()
			rep, err := verify.Run(dev, o)
			stopSignals()
			if err != nil {
				return err
			}
			if o.Cache != nil {
				if err := o.Cache.Save(refFile); err != nil {
					return err
				}
			}
			if jsonFile != "" {
				f, err := os.Create(jsonFile)
				if err != nil {
					return err
				}
				if err := rep.WriteJSON(f); err != nil {
					f.Close()
					return err
				}
				if err := f.Close(); err != nil {
					return err
				}
			}
			if asJSON {
				err = rep.WriteJSON(cmd.OutOrStdout())
			} else {
				err = rep.WriteText(cmd.OutOrStdout())
			}
			if err != nil {
				return err
			}
			if rep.AnyFailed() {
				return exitStatus(1)
			}
			if rep.Interrupted {
				return exitStatus(130)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&platform, "platform", "", "platform number or part of its name (default: the first with a device)")
	f.IntVar(&device, "device", 0, "device number within the platform")
	f.StringVar(&only, "only", "", "check only the conversions matching PATTERN (glob or regexp on \"NAME SOURCE\")")
	f.BoolVar(&quick, "quick", false, "check 2^24 inputs per 32/64-bit source instead of all")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	f.StringVar(&jsonFile, "json-file", "", "also write the JSON report to this file")
	f.BoolVar(&noProgress, "no-progress", false, "no progress bar on stderr")
	f.StringVar(&refFile, "reference", "", "read and extend this file of complete reference digests (clconv digest lines)")
	f.BoolVar(&noShipped, "no-shipped-reference", false, "compute every reference digest on the CPU instead of using the shipped ones")
	f.StringVar(&widths, "widths", "", "vector widths to check (default 2,3,4,8,16)")
	f.BoolVar(&noVectors, "no-vectors", false, "skip the vector width checks")
	f.BoolVar(&noAsType, "no-astype", false, "skip the as_type checks")
	f.BoolVar(&noFP16, "no-fp16", false, "test half through vload_half/vstore_half even with cl_khr_fp16")
	f.IntVar(&examples, "examples", 3, "failing inputs listed per conversion, broken rule and check")
	f.StringVar(&fault, "inject-fault", "", "test only: inject a device bug, \"CONVERSION SOURCE:nan|lsb\"")
	_ = f.MarkHidden("inject-fault")
	f.IntVar(&programSize, "program-size", 0, "experiments: the most conversions per program (default: a source kind's)")
	f.IntVar(&builders, "builders", 0, "experiments: programs built at once (default: the number of CPUs, at most 16)")
	f.IntVar(&procs, "build-procs", 0, "experiments: build processes for the programs not cached (default: one per program up to the number of CPUs less one, at most 16; -1: none)")
	_ = f.MarkHidden("program-size")
	_ = f.MarkHidden("builders")
	_ = f.MarkHidden("build-procs")
	return cmd
}
