// Command mkref computes the reference digests shipped in
// cmd/clconv/internal/verify/reference.tsv: one line of `clconv digest` for
// the representative of every class of equivalent conversions
// (digest.Conversion.Representative), every chunk.
// It saves after each class and resumes an existing output file, so it can be
// stopped and rerun; -fresh recomputes everything (into OUT.partial, renamed
// to OUT at the end). Run by `go generate ./cmd/clconv/internal/verify`:
// about 45 minutes on 2 cores, 10 on 16.
//
// With -quick FILE it writes instead the quick-run reference
// (cmd/clconv/internal/verify/quick.tsv): for every class with a 32- or
// 64-bit source, the sum of the reference digests of a --quick run's slices
// (half a minute on 2 cores), unless FILE already has every class's line
// for this clconv's quick slices (-fresh: recompute it anyway).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/cmd/clconv/internal/verify"
)

func main() {
	out := flag.String("o", "reference.tsv", "output file (extended if it exists)")
	srcs := flag.String("src", "", "only these comma-separated source types (default all)")
	workers := flag.Int("workers", 0, "goroutines per digest (default: all cores)")
	fresh := flag.Bool("fresh", false, "recompute everything into OUT.partial, then rename it to OUT")
	quick := flag.String("quick", "", "write the quick-run reference (quick.tsv) to this file instead")
	flag.Parse()
	if *quick != "" {
		if err := runQuick(*quick, *fresh); err != nil {
			fmt.Fprintln(os.Stderr, "mkref:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*out, *srcs, *workers, *fresh); err != nil {
		fmt.Fprintln(os.Stderr, "mkref:", err)
		os.Exit(1)
	}
}

func run(out, srcs string, workers int, fresh bool) error {
	want := map[cltype.Kind]bool{}
	for _, s := range strings.Split(srcs, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		k, err := cltype.ParseKind(s)
		if err != nil || !k.Valid() {
			return fmt.Errorf("-src: %q is not a scalar type", s)
		}
		want[k] = true
	}
	final := out
	if fresh {
		// The old file stays in place (package verify embeds it, and this
		// program is built from verify) until the new one is complete.
		out += ".partial"
	}
	rc, err := verify.LoadRefCache(out)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	start := time.Now()
	n := 0
	for _, c := range verify.All() {
		r := c.Representative()
		k := verify.Key(r)
		if seen[k] || len(want) > 0 && !want[c.Src] {
			continue
		}
		seen[k] = true
		if rc.Has(r) {
			continue
		}
		t0 := time.Now()
		rc.Put(digest.Compute(r, digest.Options{Workers: workers}))
		if err := rc.Save(out); err != nil {
			return err
		}
		n++
		fmt.Fprintf(os.Stderr, "%-30s %6.1fs  (%d computed, %d classes, %.0fs)\n", k, time.Since(t0).Seconds(), n, len(seen), time.Since(start).Seconds())
	}
	if fresh {
		return os.Rename(out, final)
	}
	return nil
}

// runQuick writes the quick-run reference of every class with a 32- or
// 64-bit source to out (through out.partial: package verify embeds out).
func runQuick(out string, fresh bool) error {
	if !fresh {
		if err := verify.CheckQuickFile(out); err == nil {
			return nil
		}
	}
	var b strings.Builder
	b.WriteString(verify.QuickHeader())
	seen := map[string]bool{}
	start := time.Now()
	for _, c := range verify.All() {
		r := c.Representative()
		if k := verify.Key(r); seen[k] || !verify.HasQuickLine(r) {
			continue
		} else {
			seen[k] = true
		}
		b.WriteString(verify.QuickLine(r) + "\n")
	}
	fmt.Fprintf(os.Stderr, "%d classes in %.1fs\n", len(seen), time.Since(start).Seconds())
	if err := os.WriteFile(out+".partial", []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(out+".partial", out)
}
