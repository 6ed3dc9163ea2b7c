package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
)

func init() { subcommands = append(subcommands, newDigestCmd) }

func newDigestCmd() *cobra.Command {
	var chunks string
	var workers int
	var quiet bool
	cmd := &cobra.Command{
		Use:   "digest [--chunks LIST] CONVERSION SOURCE",
		Short: "Print the exhaustive fingerprint of a conversion (ORACLES.md)",
		Long: `digest pushes every input of SOURCE (all 2^8, 2^16 or 2^32 bit patterns;
2^32 samples for 64-bit types) through CONVERSION and prints one tab-separated
line: conversion, source, N, digest, implementation-defined count, NaN count
and the comma-separated chunk digests (2^24 inputs each; '-' for chunks not
computed). A line starting with '#' on stderr gives the time taken.`,
		Example: `  clconv digest convert_int_sat_rte float
  clconv digest --chunks 63-95,127 convert_half_rtp float`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := digest.Parse(args[0], args[1])
			if err != nil {
				return err
			}
			opts := digest.Options{Workers: workers}
			if chunks != "" {
				if opts.Chunks, err = digest.ParseChunks(chunks, digestspec.Chunks(c.Src)); err != nil {
					return err
				}
			}
			if !quiet && term.IsTerminal(int(os.Stderr.Fd())) {
				opts.Progress = func(done, total int) {
					fmt.Fprintf(os.Stderr, "\r%d/%d chunks", done, total)
					if done == total {
						fmt.Fprint(os.Stderr, "\r\033[K")
					}
				}
			}
			start := time.Now()
			r := digest.Compute(c, opts)
			fmt.Fprintln(cmd.OutOrStdout(), r.Line())
			if !quiet {
				fmt.Fprintf(cmd.ErrOrStderr(), "# %s %s: %d inputs in %.2fs\n", r.Op.Name(), r.Src, countInputs(r), time.Since(start).Seconds())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&chunks, "chunks", "", "compute only these chunks, e.g. 63-95,127")
	cmd.Flags().IntVar(&workers, "workers", 0, "goroutines to use (default: all cores)")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress or timing on stderr")
	return cmd
}

func countInputs(r *digest.Result) uint64 {
	var n uint64
	for k, d := range r.Done {
		if d {
			n += min(uint64(digestspec.ChunkSize), r.N-uint64(k)*digestspec.ChunkSize)
		}
	}
	return n
}
