package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
	"golang.org/x/term"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/benchdata"
	"github.com/clconv/clconv/internal/kernels"
)

func init() { subcommands = append(subcommands, newBenchCmd) }

// benchSizes are the element counts of the two sizes: 32 Ki elements stay in
// a core's L2 (at most 384 KiB of source and destination), 16 Mi elements
// (80 to 192 MiB) come from and go to memory.
var benchSizes = map[string]int{"l2": 1 << 15, "mem": 1 << 24}

// The defaults of --repeat and --min-time with --all, which measures 836
// variants per size: one size in one tier takes a few minutes on two cores.
const (
	benchAllRepeat  = 3
	benchAllMinTime = 10 * time.Millisecond
)

// benchRow is one line of the table, and with --all one object of the
// "rows" of --json.
type benchRow struct {
	Conversion  string  `json:"conversion"`
	Source      string  `json:"source"`
	Dest        string  `json:"dest"`
	Size        string  `json:"size"`
	GElemPerS   float64 `json:"gelem_per_s"`
	GBPerS      float64 `json:"gb_per_s"`
	CopyGBPerS  float64 `json:"copy_gb_per_s"`
	RatioToCopy float64 `json:"ratio_to_copy"`
	// RatioToPurego is the pure Go kernel's time over this one's, nil where
	// it was not measured (--purego=false). In the go tier it is 1: the
	// same kernel.
	RatioToPurego *float64 `json:"ratio_to_purego,omitempty"`
}

// benchLegacyRow is one object of --json without --all: the keys of issue 4.
type benchLegacyRow struct {
	Conversion    string   `json:"conversion"`
	Source        string   `json:"source"`
	Size          string   `json:"size"`
	GElemPerS     float64  `json:"gelem_per_s"`
	GBPerS        float64  `json:"gb_per_s"`
	RatioToCopy   float64  `json:"ratio_to_copy"`
	RatioToPurego *float64 `json:"ratio_to_purego,omitempty"`
}

// benchRef names one variant of a summary.
type benchRef struct {
	Conversion  string  `json:"conversion"`
	Source      string  `json:"source"`
	Dest        string  `json:"dest"`
	RatioToCopy float64 `json:"ratio_to_copy"`
	GElemPerS   float64 `json:"gelem_per_s"`
}

func (r benchRef) String() string { return fmt.Sprintf("%s->%s %s", r.Source, r.Dest, r.Conversion) }

// benchSummary sums up one size of a run.
type benchSummary struct {
	Size     string `json:"size"`
	Elements int    `json:"elements"`
	Variants int    `json:"variants"`
	// CopyGBPerS is the median over the variants of their copy's GB/s.
	CopyGBPerS        float64  `json:"copy_gb_per_s"`
	Below08Copy       int      `json:"below_0_8_copy"` // variants below 0.8x copy
	Below05Copy       int      `json:"below_0_5_copy"`
	MedianRatioToCopy float64  `json:"median_ratio_to_copy"`
	Worst             benchRef `json:"worst"` // the lowest ratio to copy
	Below4GElem       int      `json:"below_4_gelem_per_s"`
	MedianGElemPerS   float64  `json:"median_gelem_per_s"`
	Slowest           benchRef `json:"slowest"` // the fewest G elem/s
	// SlowestBelowMedian is MedianGElemPerS over the slowest variant's;
	// Over4xBelowMedian counts the variants below a quarter of the median
	// (the pure Go tier's target: none).
	SlowestBelowMedian float64 `json:"slowest_below_median"`
	Over4xBelowMedian  int     `json:"over_4x_below_median"`
	// Where pure Go was measured: the median ratio to it, and how many
	// variants run below 0.9x pure Go.
	MedianRatioToPurego *float64 `json:"median_ratio_to_purego,omitempty"`
	Below09Purego       *int     `json:"below_0_9_purego,omitempty"`
}

// benchReport is the JSON of --all --json, and what --markdown reads.
type benchReport struct {
	Tier       string         `json:"tier"`
	Parallel   bool           `json:"parallel"`
	GOMAXPROCS int            `json:"gomaxprocs"`
	Repeat     int            `json:"repeat"`
	MinTime    string         `json:"min_time"`
	Estimator  string         `json:"estimator"` // "fastest batch" or "mean"
	Purego     bool           `json:"purego"`    // ratio_to_purego measured
	Elements   map[string]int `json:"elements"`  // per size
	CPU        string         `json:"cpu,omitempty"`
	GoVersion  string         `json:"go_version"`
	Date       string         `json:"date"`
	WallS      float64        `json:"wall_s"`
	LoadAvg    string         `json:"loadavg,omitempty"` // /proc/loadavg after the run
	PNG        string         `json:"png,omitempty"`     // --png's file name
	Summary    []benchSummary `json:"summary"`
	Rows       []benchRow     `json:"rows"`
	// Runs is how many runs --markdown --median merged into this report
	// (its rows' figures are the medians over them); 0 for one run.
	Runs int `json:"runs,omitempty"`
}

type benchOptions struct {
	sizes    []string
	pairs    []string
	repeat   int
	minTime  time.Duration
	parallel bool
	tier     string
	jsonOut  bool
	pngPath  string
	fastest  bool
	all      bool
	purego   bool
	elements int
	markdown []string
	median   bool
}

func newBenchCmd() *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench [flags]",
		Short: "Measure the slice conversions against copy and pure Go",
		Long: `bench converts slices with convert.Bytes, as a user would, in two sizes, l2
(32 Ki elements, in a core's L2 cache) and mem (16 Mi elements, from and to
memory), and prints one row per conversion variant: G elements/s, GB/s (bytes
read plus bytes written), the ratio to a copy of as many bytes and the ratio
to the pure Go kernels, all measured in the same run. Each figure is the
median of --repeat measurements, each at least --min-time long; the copy, SIMD
and pure Go measurements alternate so that they see the same machine state:
every variant's measurement is paired with a copy measured just before it in
the same way, the ratio to copy is the median of the pairs' ratios, and each
round goes through every pair before the next one starts. A
measurement keeps the fastest batch of calls (--fastest, the default), which
filters out the time other processes take on a busy machine; --fastest=false
keeps the mean.

The input is random (internal/benchdata): every element independent, with
values in and out of the destination's range, and for floating sources NaNs,
infinities, ties and subnormals. The mem size converts 16 Mi such elements.
The l2 size refills its 32 Ki-element source from a pool of 1 Mi random
elements before every timed call (outside the timing; the copy's source
likewise), so that no branch predictor learns the values and the data still
sit in L2.

Without --all, bench measures the conversions with SIMD kernels in the forms
worth telling apart (integer narrowing wrapped and saturated, exact ones once,
rounding ones in every mode with and without _sat), in the order of the pairs.
--all measures every one of the 836 variants: the 121 pairs of the eleven
types, identities included, each in every rounding mode and, for integer
destinations, with and without _sat. It sorts each size worst first by the
ratio to copy, prints a summary per size after the table (how many variants
are below 0.8x and 0.5x copy, the median and the worst; the median G elem/s,
the slowest variant and its factor below the median, the pure Go tier's
target), and the total wall time on stderr. With --all the defaults are
--repeat 3, --min-time 10ms and --purego=false (pure Go doubles the time or
more; --tier go measures the pure Go kernels themselves). --pairs narrows
--all to some of the 121 pairs, or names pairs with the small formats bfloat16,
e4m3, e5m2, e2m1, e2m3, e3m2 and e8m0 (--all --pairs float-bfloat16,e4m3-float,
float-e2m1), which --all alone leaves out.

--json prints a JSON array with one object per row instead of the table; with
--all, an object with the run's settings, "summary" (one object per size) and
"rows". --png writes a bar chart of GB/s next to copy's; with --all, a plot
of every variant's ratio to copy, worst first, one line per size. --markdown
reads the JSON of earlier --all runs and prints docs/PERFORMANCE.md's
summary and tables (scripts/perf.sh uses it); it measures nothing. With
--median it takes the files of each tier for runs of one measurement and
reports, for each variant, the medians of its figures over the runs, and
the summary of those (scripts/perf-pair.sh uses it).`,
		Example: `  clconv bench
  clconv bench --pairs float-uchar --size l2 --json
  clconv bench --size mem --parallel --png mem.png
  clconv bench --all --tier avx2 --size mem --png avx2.png
  clconv bench --all --tier go --size l2 --json > go-l2.json
  clconv bench --markdown avx512.json,avx2.json,go.json
  clconv bench --median --markdown run1.json,run2.json,run3.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return benchUsageError(cmd, fmt.Errorf("takes no arguments, only flags (got %q)", args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if len(o.markdown) > 0 {
				if err := writeBenchMarkdown(w, o.markdown, o.median); err != nil {
					return benchUsageError(cmd, err)
				}
				return nil
			}
			if o.median {
				return benchUsageError(cmd, errors.New("--median merges the files of --markdown, and measures nothing"))
			}
			if o.tier == "list" {
				fmt.Fprintln(w, strings.Join(kernels.SIMDTiers(), "\n"))
				return nil
			}
			if o.all {
				if !cmd.Flags().Changed("repeat") {
					o.repeat = benchAllRepeat
				}
				if !cmd.Flags().Changed("min-time") {
					o.minTime = benchAllMinTime
				}
				if !cmd.Flags().Changed("purego") {
					o.purego = false
				}
			}
			if o.tier == "" {
				o.tier = kernels.SIMDTiers()[0]
			}
			pairs, err := o.check()
			if err != nil {
				return benchUsageError(cmd, err)
			}
			progress := io.Discard
			if f, ok := cmd.ErrOrStderr().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				progress = f
			}
			start := time.Now()
			rows, err := runBench(o, pairs, progress)
			if err != nil {
				return err
			}
			if !o.all {
				if o.pngPath != "" {
					if err := writeBenchPNG(o.pngPath, rows, o); err != nil {
						return err
					}
				}
				if o.jsonOut {
					return writeBenchJSON(w, rows)
				}
				writeBenchTable(w, rows, o)
				return nil
			}
			sortBenchRows(rows, o.sizes)
			rep := newBenchReport(o, rows, time.Since(start))
			fmt.Fprintf(cmd.ErrOrStderr(), "clconv bench: %d variants, %d size(s), tier %s: %s\n",
				len(rows), len(o.sizes), o.tier, time.Since(start).Round(time.Second))
			if o.pngPath != "" {
				if err := writeBenchPlot(o.pngPath, rep); err != nil {
					return err
				}
			}
			if o.jsonOut {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			writeBenchTable(w, rows, o)
			writeBenchSummary(w, rep)
			return nil
		},
	}
	cmd.SetFlagErrorFunc(benchUsageError)
	f := cmd.Flags()
	f.StringSliceVar(&o.sizes, "size", []string{"l2", "mem"}, "sizes to measure: l2, mem")
	f.StringSliceVar(&o.pairs, "pairs", nil, "conversions to measure as SOURCE-DEST, e.g. float-uchar,int-float (default: every pair with SIMD kernels; with --all every pair)")
	f.IntVar(&o.repeat, "repeat", 5, "measurements per figure (the median is reported; 3 with --all)")
	f.DurationVar(&o.minTime, "min-time", 100*time.Millisecond, "shortest duration of one measurement (10ms with --all)")
	f.BoolVar(&o.parallel, "parallel", false, "use every core (convert.BytesParallel, and a parallel copy)")
	f.StringVar(&o.tier, "tier", "", "SIMD tier to measure: avx512, avx2 or go, the pure Go kernels (default: the best; --tier list lists this machine's)")
	f.BoolVar(&o.jsonOut, "json", false, "print JSON instead of the table")
	f.StringVar(&o.pngPath, "png", "", "write a chart to this PNG file (with --all: every variant against copy)")
	f.BoolVar(&o.fastest, "fastest", true, "take each measurement's fastest batch (false: its mean; see --help)")
	f.BoolVar(&o.all, "all", false, "measure all 836 variants (121 pairs, every mode, with and without _sat), worst first, with a summary")
	f.BoolVar(&o.purego, "purego", true, "also measure the pure Go kernels and report the ratio to them (default false with --all)")
	f.IntVar(&o.elements, "elements", 0, "elements per size instead of 32 Ki for l2 and 16 Mi for mem (quick runs and tests)")
	f.StringSliceVar(&o.markdown, "markdown", nil, "print docs/PERFORMANCE.md's summary and tables from these --all --json files, and measure nothing")
	f.BoolVar(&o.median, "median", false, "with --markdown: merge the files of each tier, runs of the same measurement, into one (each variant's figures the medians over the runs)")
	return cmd
}

// benchUsageError reports a bad flag or argument with exit status 2.
func benchUsageError(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "clconv bench: %v\n", err)
	return exitStatus(2)
}

// check validates the options and returns the pairs to measure.
func (o benchOptions) check() ([]kernels.Pair, error) {
	if o.repeat < 1 {
		return nil, fmt.Errorf("--repeat must be at least 1, not %d", o.repeat)
	}
	if o.minTime <= 0 {
		return nil, fmt.Errorf("--min-time must be positive, not %v", o.minTime)
	}
	if o.elements < 0 {
		return nil, fmt.Errorf("--elements must be positive (or 0 for the sizes' own counts), not %d", o.elements)
	}
	if len(o.sizes) == 0 {
		return nil, errors.New("--size names no size (want l2, mem or both)")
	}
	for i, s := range o.sizes {
		if _, ok := benchSizes[s]; !ok {
			return nil, fmt.Errorf("unknown size %q (want l2 or mem)", s)
		}
		if slices.Contains(o.sizes[:i], s) {
			return nil, fmt.Errorf("--size names %s twice", s)
		}
	}
	if !slices.Contains(kernels.SIMDTiers(), o.tier) {
		return nil, fmt.Errorf("tier %q not available on this machine (have %s)", o.tier, strings.Join(kernels.SIMDTiers(), ", "))
	}
	if o.all {
		return allBenchPairs(o.pairs)
	}
	var pairs []kernels.Pair
	for _, p := range kernels.SIMDPairs() {
		if len(o.pairs) == 0 || slices.Contains(o.pairs, p.Src.String()+"-"+p.Dst.String()) {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no pair with SIMD kernels matches --pairs %s (pairs look like float-uchar; --all measures every pair)", strings.Join(o.pairs, ","))
	}
	return pairs, nil
}

// allBenchPairs returns the 121 pairs of the eleven kinds, source by source,
// or those that names lists, which may also be pairs with the small
// floating formats.
func allBenchPairs(names []string) ([]kernels.Pair, error) {
	var all []kernels.Pair
	for _, s := range cltype.Scalars {
		for _, d := range cltype.Scalars {
			all = append(all, kernels.Pair{Src: s, Dst: d})
		}
	}
	if len(names) == 0 {
		return all, nil
	}
	for _, s := range cltype.AllScalars {
		for _, d := range cltype.AllScalars {
			if s.IsSmallFloat() || d.IsSmallFloat() {
				all = append(all, kernels.Pair{Src: s, Dst: d})
			}
		}
	}
	var pairs []kernels.Pair
	for _, name := range names {
		i := slices.IndexFunc(all, func(p kernels.Pair) bool { return p.Src.String()+"-"+p.Dst.String() == name })
		if i < 0 {
			return nil, fmt.Errorf("--pairs: %q is not SOURCE-DEST of two of char, uchar, short, ushort, int, uint, long, ulong, half, float, double, bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0", name)
		}
		if !slices.Contains(pairs, all[i]) {
			pairs = append(pairs, all[i])
		}
	}
	return pairs, nil
}

func (o benchOptions) count(size string) int {
	if o.elements > 0 {
		return o.elements
	}
	return benchSizes[size]
}

func (o benchOptions) variants(p kernels.Pair) []benchdata.Variant {
	if o.all {
		return benchdata.AllVariants(p.Src, p.Dst)
	}
	return benchdata.Variants(p.Src, p.Dst)
}

// runBench measures the pairs in every size of o and returns the rows, size
// by size and pair by pair in the order given.
func runBench(o benchOptions, pairs []kernels.Pair, progress io.Writer) ([]benchRow, error) {
	prev, err := kernels.SetSIMD(o.tier)
	if err != nil {
		return nil, err
	}
	defer kernels.SetSIMD(prev)
	tm := newBenchTimer(o.minTime, o.fastest)
	var rows []benchRow
	for _, size := range o.sizes {
		rs, err := benchSize(o, pairs, size, tm, progress)
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	fmt.Fprint(progress, "\r\033[K")
	return rows, nil
}

// benchPair holds one pair's measurements in one size.
type benchPair struct {
	p      kernels.Pair
	vs     []benchdata.Variant
	copyT  []time.Duration // every copy measured for the pair
	ratios [][]float64     // per variant, each round's copy time over the variant's
	simdT  [][]time.Duration
	puregT [][]time.Duration
}

// benchSize measures the pairs in one size: o.repeat rounds, each through
// every pair, and in each pair every variant in the tier and (with --purego)
// in pure Go, each right after a copy of as many bytes measured the same
// way. A variant's ratio to copy is the median over the rounds of the
// paired ratios: a copy measured apart from the variant (once per pair, or
// the faster of two) drifted from it by up to 30% on a shared machine, so
// that conversions that are copy itself measured 0.7x.
func benchSize(o benchOptions, pairs []kernels.Pair, size string, tm benchTimer, progress io.Writer) ([]benchRow, error) {
	n := o.count(size)
	// The sources, one per kind, made at once (the mem size takes seconds).
	srcs := map[cltype.Kind]*benchdata.Window{}
	maxDst, maxMoved := 0, 0
	for _, p := range pairs {
		srcs[p.Src] = nil
		maxDst = max(maxDst, p.Dst.Size())
		maxMoved = max(maxMoved, n*(p.Src.Size()+p.Dst.Size()))
	}
	kinds := slices.Collect(maps.Keys(srcs)) // not ranging over the map the goroutines write
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, k := range kinds {
		wg.Go(func() {
			w := benchdata.NewWindow(k, n)
			mu.Lock()
			srcs[k] = w
			mu.Unlock()
		})
	}
	wg.Wait()
	dst := make([]byte, n*maxDst)
	copyTo := make([]byte, maxMoved/2)
	// The copy's sources: windows refilled like the conversions' where
	// those refill, else one buffer of data (written: never-written memory
	// would read as the zero page).
	copySrc := map[int]*benchdata.Window{}
	var copyFrom []byte
	refill := n < benchdata.PoolElements
	if !refill {
		copyFrom = make([]byte, maxMoved/2)
		var fill []byte
		for _, w := range srcs {
			if len(w.Buf) > len(fill) {
				fill = w.Buf
			}
		}
		for off := 0; off < len(copyFrom); off += copy(copyFrom[off:], fill) {
		}
	}
	conv := convert.Bytes
	if o.parallel {
		conv = convert.BytesParallel
	}
	puregoTier := o.purego && o.tier != "go"
	ps := make([]*benchPair, len(pairs))
	for i, p := range pairs {
		vs := o.variants(p)
		ps[i] = &benchPair{p: p, vs: vs, ratios: make([][]float64, len(vs)), simdT: make([][]time.Duration, len(vs)), puregT: make([][]time.Duration, len(vs))}
		if err := conv(p.Dst, p.Src, dst[:n*p.Dst.Size()], srcs[p.Src].Buf, vs[0].Mode, vs[0].Sat); err != nil {
			return nil, err
		}
		moved := n * (p.Src.Size() + p.Dst.Size())
		if refill && copySrc[moved/2] == nil {
			copySrc[moved/2] = benchdata.NewWindow(cltype.Uchar, moved/2)
		}
	}
	for r := range o.repeat {
		for _, bp := range ps {
			p := bp.p
			fmt.Fprintf(progress, "\r\033[K%s, round %d of %d: %s->%s", size, r+1, o.repeat, p.Src, p.Dst)
			moved := n * (p.Src.Size() + p.Dst.Size())
			to := copyTo[:moved/2]
			from, copyPrep := copyFrom[:min(len(copyFrom), moved/2)], func() {}
			if w := copySrc[moved/2]; w != nil {
				from, copyPrep = w.Buf, w.Next
			}
			cp := func() { copy(to, from) }
			if o.parallel {
				cp = func() { benchdata.ParallelCopy(to, from) }
			}
			src := srcs[p.Src]
			d := dst[:n*p.Dst.Size()]
			for i, v := range bp.vs {
				f := func() { conv(p.Dst, p.Src, d, src.Buf, v.Mode, v.Sat) }
				copyT := tm.measure(cp, refillFunc(refill, copyPrep))
				bp.copyT = append(bp.copyT, copyT)
				t := tm.measure(f, refillFunc(src.Refills(), src.Next))
				bp.simdT[i] = append(bp.simdT[i], t)
				bp.ratios[i] = append(bp.ratios[i], copyT.Seconds()/t.Seconds())
				if puregoTier {
					kernels.SetSIMD("go")
					bp.puregT[i] = append(bp.puregT[i], tm.measure(f, refillFunc(src.Refills(), src.Next)))
					kernels.SetSIMD(o.tier)
				}
			}
		}
	}
	var rows []benchRow
	for _, bp := range ps {
		p := bp.p
		moved := float64(n * (p.Src.Size() + p.Dst.Size()))
		copyGBs := moved / median(bp.copyT).Seconds() / 1e9
		for i, v := range bp.vs {
			t := median(bp.simdT[i]).Seconds()
			r := benchRow{
				Conversion: v.Name(p.Dst),
				Source:     p.Src.String(),
				Dest:       p.Dst.String(),
				Size:       size,
				GElemPerS:  float64(n) / t / 1e9,
				GBPerS:     moved / t / 1e9,
				CopyGBPerS: copyGBs,
			}
			r.RatioToCopy = medianFloat(bp.ratios[i])
			switch {
			case puregoTier:
				x := median(bp.puregT[i]).Seconds() / t
				r.RatioToPurego = &x
			case o.purego: // the go tier: the same kernel
				x := 1.0
				r.RatioToPurego = &x
			}
			rows = append(rows, r)
		}
	}
	return rows, nil
}

func refillFunc(refills bool, next func()) func() {
	if refills {
		return next
	}
	return nil
}

// benchTimer times one measurement of a function.
type benchTimer struct {
	minTime  time.Duration
	fastest  bool
	overhead time.Duration // of time.Now and time.Since around nothing
}

func newBenchTimer(minTime time.Duration, fastest bool) benchTimer {
	tm := benchTimer{minTime: minTime, fastest: fastest, overhead: time.Duration(math.MaxInt64)}
	for range 1000 {
		t0 := time.Now()
		tm.overhead = min(tm.overhead, time.Since(t0))
	}
	return tm
}

// measure returns the time of one call of f in one measurement of at least
// minTime, after a warm-up call: the fastest batch's time per call, or with
// fastest=false the mean over the measurement. The fastest batch is the
// speed of the code on this machine; slower ones were interrupted by other
// processes, which on a shared machine happens in most measurements.
//
// Without prep, it times batches of calls, each batch at least a twentieth of
// minTime long (one call for the memory size), at least two batches and 8
// calls (the fastest of 3 calls of 3 ms, from memory, was up to 20% slower
// than the fastest of 13 on a quiet machine). With
// prep (a Window's Next), it calls prep before each call and times each call
// alone, less the overhead of reading the clock, at least 5 calls and until
// the calls add up to minTime (or, when prep takes much longer than f, until
// 5 minTime have passed).
func (tm benchTimer) measure(f, prep func()) time.Duration {
	best, total, calls := time.Duration(math.MaxInt64), time.Duration(0), 0
	record := func(el time.Duration, k int) {
		best = min(best, el/time.Duration(k))
		total += el
		calls += k
	}
	if prep != nil {
		prep()
		f()
		deadline := time.Now().Add(5 * tm.minTime)
		for calls < 5 || total < tm.minTime && (calls < 16 || time.Now().Before(deadline)) {
			prep()
			t0 := time.Now()
			f()
			record(max(time.Since(t0)-tm.overhead, 1), 1)
		}
	} else {
		f()
		batch := 1
		for {
			start := time.Now()
			for range batch {
				f()
			}
			el := time.Since(start)
			if el >= tm.minTime/20 {
				record(el, batch)
				break
			}
			batch *= 2
		}
		for calls < max(2*batch, 8) || total < tm.minTime {
			start := time.Now()
			for range batch {
				f()
			}
			record(time.Since(start), batch)
		}
	}
	if tm.fastest {
		return best
	}
	return total / time.Duration(calls)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianFloat(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// sortBenchRows orders the rows size by size (in the order of sizes), each
// size worst first by the ratio to copy.
func sortBenchRows(rows []benchRow, sizes []string) {
	slices.SortStableFunc(rows, func(a, b benchRow) int {
		return cmp.Or(
			cmp.Compare(slices.Index(sizes, a.Size), slices.Index(sizes, b.Size)),
			cmp.Compare(a.RatioToCopy, b.RatioToCopy),
			cmp.Compare(a.Source, b.Source),
			cmp.Compare(a.Dest, b.Dest),
			cmp.Compare(a.Conversion, b.Conversion))
	})
}

// summarize sums up the rows of one size.
func summarize(size string, elements int, rows []benchRow) benchSummary {
	s := benchSummary{Size: size, Elements: elements, Variants: len(rows)}
	if len(rows) == 0 {
		return s
	}
	ref := func(r benchRow) benchRef {
		return benchRef{Conversion: r.Conversion, Source: r.Source, Dest: r.Dest, RatioToCopy: r.RatioToCopy, GElemPerS: r.GElemPerS}
	}
	var ratios, gelems, copies, puregos []float64
	worst, slowest := rows[0], rows[0]
	for _, r := range rows {
		ratios = append(ratios, r.RatioToCopy)
		gelems = append(gelems, r.GElemPerS)
		copies = append(copies, r.CopyGBPerS)
		if r.RatioToCopy < 0.8 {
			s.Below08Copy++
		}
		if r.RatioToCopy < 0.5 {
			s.Below05Copy++
		}
		if r.GElemPerS < 4 {
			s.Below4GElem++
		}
		if r.RatioToCopy < worst.RatioToCopy {
			worst = r
		}
		if r.GElemPerS < slowest.GElemPerS {
			slowest = r
		}
		if r.RatioToPurego != nil {
			puregos = append(puregos, *r.RatioToPurego)
		}
	}
	s.CopyGBPerS = medianFloat(copies)
	s.MedianRatioToCopy = medianFloat(ratios)
	s.Worst, s.Slowest = ref(worst), ref(slowest)
	s.MedianGElemPerS = medianFloat(gelems)
	s.SlowestBelowMedian = s.MedianGElemPerS / slowest.GElemPerS
	for _, g := range gelems {
		if g < s.MedianGElemPerS/4 {
			s.Over4xBelowMedian++
		}
	}
	if len(puregos) > 0 {
		m, c := medianFloat(puregos), 0
		for _, x := range puregos {
			if x < 0.9 {
				c++
			}
		}
		s.MedianRatioToPurego, s.Below09Purego = &m, &c
	}
	return s
}

func newBenchReport(o benchOptions, rows []benchRow, wall time.Duration) *benchReport {
	est := "fastest batch"
	if !o.fastest {
		est = "mean"
	}
	rep := &benchReport{
		Tier:       o.tier,
		Parallel:   o.parallel,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		Repeat:     o.repeat,
		MinTime:    o.minTime.String(),
		Estimator:  est,
		Purego:     o.purego,
		Elements:   map[string]int{},
		CPU:        cpuModel(),
		GoVersion:  runtime.Version(),
		Date:       time.Now().UTC().Format(time.RFC3339),
		WallS:      math.Round(wall.Seconds()*10) / 10,
		Rows:       rows,
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		rep.LoadAvg = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	if o.pngPath != "" {
		rep.PNG = filepath.Base(o.pngPath)
	}
	for _, size := range o.sizes {
		n := o.count(size)
		rep.Elements[size] = n
		var rs []benchRow
		for _, r := range rows {
			if r.Size == size {
				rs = append(rs, r)
			}
		}
		rep.Summary = append(rep.Summary, summarize(size, n, rs))
	}
	rep.round()
	return rep
}

// round rounds every figure of the report to three significant digits.
func (rep *benchReport) round() {
	for i := range rep.Rows {
		r := &rep.Rows[i]
		r.GElemPerS, r.GBPerS, r.CopyGBPerS, r.RatioToCopy = round3(r.GElemPerS), round3(r.GBPerS), round3(r.CopyGBPerS), round3(r.RatioToCopy)
		if r.RatioToPurego != nil {
			x := round3(*r.RatioToPurego)
			r.RatioToPurego = &x
		}
	}
	for i := range rep.Summary {
		s := &rep.Summary[i]
		for _, x := range []*float64{&s.CopyGBPerS, &s.MedianRatioToCopy, &s.Worst.RatioToCopy, &s.Worst.GElemPerS,
			&s.MedianGElemPerS, &s.Slowest.RatioToCopy, &s.Slowest.GElemPerS, &s.SlowestBelowMedian} {
			*x = round3(*x)
		}
		if s.MedianRatioToPurego != nil {
			x := round3(*s.MedianRatioToPurego)
			s.MedianRatioToPurego = &x
		}
	}
}

// cpuModel returns the CPU's name from /proc/cpuinfo, or "".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func writeBenchJSON(w io.Writer, rows []benchRow) error {
	out := make([]benchLegacyRow, 0, len(rows))
	for _, r := range rows {
		l := benchLegacyRow{
			Conversion:  r.Conversion,
			Source:      r.Source,
			Size:        r.Size,
			GElemPerS:   round3(r.GElemPerS),
			GBPerS:      round3(r.GBPerS),
			RatioToCopy: round3(r.RatioToCopy),
		}
		if r.RatioToPurego != nil {
			x := round3(*r.RatioToPurego)
			l.RatioToPurego = &x
		}
		out = append(out, l)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func round3(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(x)))) // three significant digits
	return math.Round(x*p) / p
}

// sig3 formats x with three significant digits (0.00512, 0.46, 183).
func sig3(x float64) string {
	return strconv.FormatFloat(round3(x), 'f', -1, 64)
}

func writeBenchTable(w io.Writer, rows []benchRow, o benchOptions) {
	mode := "one core"
	if o.parallel {
		mode = "all cores"
	}
	est := "fastest batch"
	if !o.fastest {
		est = "mean"
	}
	order := ""
	if o.all {
		order = "; each size worst first"
	}
	fmt.Fprintf(w, "# SIMD tier %s, %s, median of %d measurements (each: %s); GB/s counts bytes read plus written%s\n", o.tier, mode, o.repeat, est, order)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	purego := len(rows) > 0 && rows[0].RatioToPurego != nil
	head := "pair\tconversion\tsize\tG elem/s\tGB/s\tcopy GB/s\tx copy\t"
	if purego {
		head += "x pure Go\t"
	}
	fmt.Fprintln(tw, head)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s->%s\t%s\t%s\t%.2f\t%.1f\t%.1f\t%s\t", r.Source, r.Dest, r.Conversion, r.Size, r.GElemPerS, r.GBPerS, r.CopyGBPerS, ratioText(r.RatioToCopy))
		if purego {
			fmt.Fprintf(tw, "%.1f\t", *r.RatioToPurego)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// ratioText prints a ratio with two decimals, or three significant digits
// below 0.1.
func ratioText(x float64) string {
	if x < 0.1 {
		return sig3(x)
	}
	return fmt.Sprintf("%.2f", x)
}

// writeBenchSummary prints the summary of each size after --all's table.
func writeBenchSummary(w io.Writer, rep *benchReport) {
	for _, s := range rep.Summary {
		fmt.Fprintf(w, "\nsummary, %s (%s elements): %d variants, copy %s GB/s (median over the variants)\n", s.Size, countText(s.Elements), s.Variants, sig3(s.CopyGBPerS))
		if s.Variants == 0 {
			continue
		}
		fmt.Fprintf(w, "  x copy:    %d below 0.8, %d below 0.5; median %s; worst %s at %s (%s G elem/s)\n",
			s.Below08Copy, s.Below05Copy, sig3(s.MedianRatioToCopy), s.Worst, sig3(s.Worst.RatioToCopy), sig3(s.Worst.GElemPerS))
		fmt.Fprintf(w, "  G elem/s:  median %s; slowest %s at %s, %sx below the median; %d more than 4x below it; %d below 4 G elem/s\n",
			sig3(s.MedianGElemPerS), s.Slowest, sig3(s.Slowest.GElemPerS), sig3(s.SlowestBelowMedian), s.Over4xBelowMedian, s.Below4GElem)
		if s.MedianRatioToPurego != nil {
			fmt.Fprintf(w, "  x pure Go: median %s; %d below 0.9\n", sig3(*s.MedianRatioToPurego), *s.Below09Purego)
		}
	}
}

// countText writes an element count as "16 Mi", "32 Ki" or "1000".
func countText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d Mi", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d Ki", n>>10)
	}
	return strconv.Itoa(n)
}

func (o benchOptions) modeText() string {
	if o.parallel {
		return "all cores"
	}
	return "one core"
}

// benchCanvas draws on an RGBA image with the 7x13 bitmap font of
// golang.org/x/image, so the charts need no font files and no plot library.
type benchCanvas struct{ img *image.RGBA }

func newBenchCanvas(w, h int) benchCanvas {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	return benchCanvas{img}
}

func (c benchCanvas) text(x, y int, s string, col color.Color) {
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func (c benchCanvas) fill(x0, y0, x1, y1 int, col color.Color) {
	draw.Draw(c.img, image.Rect(x0, y0, x1, y1), image.NewUniform(col), image.Point{}, draw.Src)
}

// line draws a line two pixels wide from (x0, y0) to (x1, y1).
func (c benchCanvas) line(x0, y0, x1, y1 int, col color.Color) {
	steps := max(abs(x1-x0), abs(y1-y0), 1)
	for i := 0; i <= steps; i++ {
		x := x0 + (x1-x0)*i/steps
		y := y0 + (y1-y0)*i/steps
		c.fill(x, y, x+2, y+2, col)
	}
}

// hline draws a horizontal line, dashed if dash > 0.
func (c benchCanvas) hline(x0, x1, y int, col color.Color, dash int) {
	for x := x0; x < x1; x++ {
		if dash == 0 || (x-x0)/dash%2 == 0 {
			c.img.Set(x, y, col)
		}
	}
}

func (c benchCanvas) save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, c.img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var (
	benchBlue   = color.RGBA{0x2b, 0x6c, 0xb0, 0xff}
	benchRed    = color.RGBA{0xc0, 0x39, 0x2b, 0xff}
	benchOrange = color.RGBA{0xe6, 0x7e, 0x22, 0xff}
	benchGreen  = color.RGBA{0x27, 0xae, 0x60, 0xff}
	benchPurple = color.RGBA{0x8e, 0x44, 0xad, 0xff}
	benchGrey   = color.RGBA{0x99, 0x99, 0x99, 0xff}
	benchLight  = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
)

// writeBenchPNG draws one horizontal bar per row: the conversion's GB/s, and
// beneath it a thin bar for copy's GB/s at the same size.
func writeBenchPNG(path string, rows []benchRow, o benchOptions) error {
	const (
		rowH   = 18
		labelW = 330
		barW   = 560
		top    = 40
		margin = 10
	)
	W := labelW + barW + 120
	H := top + rowH*len(rows) + 30
	c := newBenchCanvas(W, H)
	maxGB := 1.0
	for _, r := range rows {
		maxGB = math.Max(maxGB, math.Max(r.GBPerS, r.CopyGBPerS))
	}
	c.text(margin, 16, fmt.Sprintf("clconv bench: GB/s (read+written), SIMD tier %s, %s; grey: copy of as many bytes", o.tier, o.modeText()), color.Black)
	for i, r := range rows {
		y := top + i*rowH
		c.text(margin, y+12, fmt.Sprintf("%-4s %-6s %s", r.Size, r.Source, r.Conversion), color.Black)
		w := int(float64(barW) * r.GBPerS / maxGB)
		col := benchBlue
		if r.RatioToCopy < 0.9 {
			col = benchRed
		}
		c.fill(labelW, y+1, labelW+w, y+12, col)
		c.fill(labelW, y+13, labelW+int(float64(barW)*r.CopyGBPerS/maxGB), y+16, benchGrey)
		c.text(labelW+w+4, y+12, fmt.Sprintf("%.1f (%.2fx)", r.GBPerS, r.RatioToCopy), color.Black)
	}
	c.text(margin, H-10, fmt.Sprintf("bar scale: %d px = %.0f GB/s; red: below 0.9x copy", barW, maxGB), color.Black)
	return c.save(path)
}

// writeBenchPlot draws --all's plot: for each size a line through every
// variant's ratio to copy, the variants sorted worst first along the x axis,
// on a logarithmic y axis with lines at 1, 0.8 and 0.5.
func writeBenchPlot(path string, rep *benchReport) error {
	const (
		W, H          = 1100, 720
		left, right   = 70, W - 30
		top, bottom   = 60, H - 120
		plotW, plotH  = right - left, bottom - top
		legendX       = left
		legendY       = bottom + 64
		legendLineGap = 16
	)
	c := newBenchCanvas(W, H)
	series := map[string][]float64{}
	lo, hi, most := 0.5, 2.0, 1
	for _, r := range rep.Rows {
		if r.RatioToCopy > 0 {
			series[r.Size] = append(series[r.Size], r.RatioToCopy)
			lo, hi = math.Min(lo, r.RatioToCopy), math.Max(hi, r.RatioToCopy)
		}
	}
	for _, s := range series {
		slices.Sort(s)
		most = max(most, len(s))
	}
	lo = math.Pow(10, math.Floor(math.Log10(math.Max(lo, 1e-4))))
	hi = math.Pow(10, math.Ceil(math.Log10(math.Min(hi, 1e3))))
	if hi > 2 && hi/2 >= 2 && slices.IndexFunc(rep.Rows, func(r benchRow) bool { return r.RatioToCopy > hi/5 }) < 0 {
		hi /= 5 // 2 instead of 10 when nothing is above 2
	}
	yOf := func(v float64) int {
		v = math.Min(math.Max(v, lo), hi)
		return bottom - int(math.Round((math.Log10(v)-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))*plotH))
	}
	xOf := func(i int) int { return left + i*plotW/max(most-1, 1) }
	c.text(left, 20, fmt.Sprintf("clconv bench --all: every variant's GB/s (read+written) over copy's, tier %s, %s", rep.Tier, map[bool]string{false: "one core", true: "all cores"}[rep.Parallel]), color.Black)
	c.text(left, 38, fmt.Sprintf("median of %d, %s; variants sorted worst first; log scale", rep.Repeat, rep.Date), benchGrey)
	// Grid: decades and 2 and 5 times them.
	for d := lo; d <= hi*1.0001; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			v := d * m
			if v > hi*1.0001 {
				break
			}
			y := yOf(v)
			c.hline(left, right, y, benchLight, 0)
			c.text(left-8-7*len(sig3(v)), y+4, sig3(v), color.Black)
		}
	}
	for i := 0; i < most; i += 100 {
		x := xOf(i)
		c.fill(x, bottom, x+1, bottom+5, color.Black)
		c.text(x-3*len(strconv.Itoa(i)), bottom+18, strconv.Itoa(i), color.Black)
	}
	c.text(left+plotW/2-150, bottom+38, "variants, worst first by ratio to copy", color.Black)
	c.text(8, top-8, "x copy", color.Black)
	c.fill(left, top, left+1, bottom, color.Black)
	c.fill(left, bottom, right, bottom+1, color.Black)
	for _, ref := range []struct {
		v   float64
		col color.Color
		txt string
	}{{1, color.Black, "1x copy"}, {0.8, benchOrange, "0.8x"}, {0.5, benchRed, "0.5x"}} {
		y := yOf(ref.v)
		c.hline(left, right, y, ref.col, 6)
		c.hline(left, right, y+1, ref.col, 6)
		c.text(left+6, y-3, ref.txt, ref.col)
	}
	cols := []color.Color{benchBlue, benchGreen, benchPurple, benchGrey}
	for i, s := range rep.Summary {
		col := cols[i%len(cols)]
		vs := series[s.Size]
		for j := range vs {
			x, y := xOf(j), yOf(vs[j])
			if j > 0 {
				c.line(xOf(j-1), yOf(vs[j-1]), x, y, col)
			}
			c.fill(x-1, y-1, x+2, y+2, col)
		}
		y := legendY + i*legendLineGap
		c.fill(legendX, y-8, legendX+18, y-4, col)
		c.text(legendX+24, y, fmt.Sprintf("%s (%s elements): %d variants, %d below 0.8x copy, %d below 0.5x, median %sx, worst %s %sx",
			s.Size, countText(s.Elements), s.Variants, s.Below08Copy, s.Below05Copy, sig3(s.MedianRatioToCopy), s.Worst, sig3(s.Worst.RatioToCopy)), color.Black)
	}
	return c.save(path)
}

// benchTargets are issue 12's targets per tier and size.
var benchTargets = []struct {
	tier, size, text string
	holds            func(benchSummary) (bool, string)
}{
	{"avx512", "mem", "every variant ≥ 0.8× copy", func(s benchSummary) (bool, string) {
		return s.Below08Copy == 0, fmt.Sprintf("%d below", s.Below08Copy)
	}},
	{"avx512", "l2", "every variant ≥ 4 G elem/s", func(s benchSummary) (bool, string) {
		return s.Below4GElem == 0, fmt.Sprintf("%d below", s.Below4GElem)
	}},
	{"avx2", "mem", "every variant ≥ 0.5× copy", func(s benchSummary) (bool, string) {
		return s.Below05Copy == 0, fmt.Sprintf("%d below", s.Below05Copy)
	}},
	{"go", "", "none > 4× below the median G elem/s", func(s benchSummary) (bool, string) {
		return s.Over4xBelowMedian == 0, fmt.Sprintf("%d beyond; slowest %s× below", s.Over4xBelowMedian, sig3(s.SlowestBelowMedian))
	}},
}

func benchTarget(tier string, s benchSummary) string {
	for _, t := range benchTargets {
		if t.tier == tier && (t.size == "" || t.size == s.Size) {
			ok, detail := t.holds(s)
			verdict := "**misses**"
			if ok {
				verdict = "holds"
			}
			return fmt.Sprintf("%s: %s (%s)", t.text, verdict, detail)
		}
	}
	return "—"
}

// writeBenchMarkdown prints the summary and the tables of the --all --json
// reports in files, as two blocks between the markers that scripts/perf.sh
// replaces in docs/PERFORMANCE.md; with median, the reports of each tier
// merged into one (mergeBenchReports).
func writeBenchMarkdown(w io.Writer, files []string, median bool) error {
	var reps []*benchReport
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		rep := new(benchReport)
		if err := json.Unmarshal(b, rep); err != nil || rep.Rows == nil || rep.Tier == "" {
			return fmt.Errorf("%s: not the output of clconv bench --all --json", name)
		}
		reps = append(reps, rep)
	}
	if median {
		var err error
		if reps, err = mergeBenchReports(reps, files); err != nil {
			return err
		}
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	pair := func(source, dest string) string { return source + "→" + dest }
	p("<!-- begin perf.sh summary -->\n")
	p("| tier | size | variants | copy GB/s | < 0.8× copy | < 0.5× copy | median × copy | worst (× copy, G elem/s) | median G elem/s | slowest (G elem/s, × below median) | < 4 G elem/s | issue 12 target |\n")
	p("|---|---|---:|---:|---:|---:|---:|---|---:|---|---:|---|\n")
	for _, rep := range reps {
		for _, s := range rep.Summary {
			p("| %s | %s | %d | %s | %d | %d | %s | %s `%s` %s×, %s | %s | %s `%s` %s, %s× | %d | %s |\n",
				rep.Tier, s.Size, s.Variants, sig3(s.CopyGBPerS), s.Below08Copy, s.Below05Copy, sig3(s.MedianRatioToCopy),
				pair(s.Worst.Source, s.Worst.Dest), s.Worst.Conversion, sig3(s.Worst.RatioToCopy), sig3(s.Worst.GElemPerS),
				sig3(s.MedianGElemPerS), pair(s.Slowest.Source, s.Slowest.Dest), s.Slowest.Conversion, sig3(s.Slowest.GElemPerS), sig3(s.SlowestBelowMedian),
				s.Below4GElem, benchTarget(rep.Tier, s))
		}
	}
	p("\n")
	for _, rep := range reps {
		var sizes []string
		for _, s := range rep.Summary {
			sizes = append(sizes, fmt.Sprintf("%s = %s elements", s.Size, countText(s.Elements)))
		}
		purego := ""
		for _, s := range rep.Summary {
			if s.MedianRatioToPurego != nil {
				purego += fmt.Sprintf("; × pure Go in %s: median %s, %d below 0.9", s.Size, sig3(*s.MedianRatioToPurego), *s.Below09Purego)
			}
		}
		runs := ""
		if rep.Runs > 1 {
			runs = fmt.Sprintf("per variant the median over %d runs, each ", rep.Runs)
		}
		p("- **%s**: `clconv bench --all --tier %s` (%s), %s, %smedian of %d measurements of at least %s (each its %s), %s, %s, GOMAXPROCS %d; %s; wall time %s, load average after %s%s.\n",
			rep.Tier, rep.Tier, strings.Join(sizes, ", "), map[bool]string{false: "one core", true: "all cores"}[rep.Parallel],
			runs, rep.Repeat, rep.MinTime, rep.Estimator, cmp.Or(rep.CPU, "CPU unknown"), rep.GoVersion, rep.GOMAXPROCS, rep.Date,
			time.Duration(rep.WallS*float64(time.Second)).Round(time.Second).String(), cmp.Or(rep.LoadAvg, "unknown"), purego)
	}
	for _, rep := range reps {
		if rep.PNG != "" {
			p("\n![%s tier: every variant's ratio to copy, worst first](%s)\n", rep.Tier, rep.PNG)
		}
	}
	p("<!-- end perf.sh summary -->\n")
	p("<!-- begin perf.sh tables -->\n")
	for _, rep := range reps {
		for _, s := range rep.Summary {
			p("\n### %s, %s (%s elements), worst first\n\n", rep.Tier, s.Size, countText(s.Elements))
			p("| # | pair | conversion | G elem/s | GB/s | copy GB/s | × copy | × pure Go |\n")
			p("|---:|---|---|---:|---:|---:|---:|---:|\n")
			i := 0
			for _, r := range rep.Rows {
				if r.Size != s.Size {
					continue
				}
				i++
				pg := "—"
				if r.RatioToPurego != nil {
					pg = sig3(*r.RatioToPurego)
				}
				p("| %d | %s | `%s` | %s | %s | %s | %s | %s |\n", i, pair(r.Source, r.Dest), r.Conversion,
					sig3(r.GElemPerS), sig3(r.GBPerS), sig3(r.CopyGBPerS), sig3(r.RatioToCopy), pg)
			}
		}
	}
	p("<!-- end perf.sh tables -->\n")
	return nil
}

// mergeBenchReports merges the reports of each tier (in the order of their
// first file) into one, for runs of the same measurement: each variant's G
// elem/s, GB/s, copy GB/s and ratios are the medians over the runs that
// measured it, and the summaries are those of the merged rows. The runs must
// agree on the sizes, element counts and --parallel.
func mergeBenchReports(reps []*benchReport, files []string) ([]*benchReport, error) {
	var out []*benchReport
	groups := map[string][]*benchReport{}
	for i, rep := range reps {
		g := groups[rep.Tier]
		if len(g) > 0 && (rep.Parallel != g[0].Parallel || !maps.Equal(rep.Elements, g[0].Elements)) {
			return nil, fmt.Errorf("%s: --median: tier %s measured with other sizes or --parallel than in the first file of the tier", files[i], rep.Tier)
		}
		if len(g) == 0 {
			out = append(out, rep)
		}
		groups[rep.Tier] = append(g, rep)
	}
	for i, first := range out {
		g := groups[first.Tier]
		if len(g) == 1 {
			continue
		}
		type key struct{ size, source, dest, conversion string }
		var order []key
		vals := map[key][][4]float64{}
		purego := map[key][]float64{}
		for _, rep := range g {
			for _, r := range rep.Rows {
				k := key{r.Size, r.Source, r.Dest, r.Conversion}
				if _, ok := vals[k]; !ok {
					order = append(order, k)
				}
				vals[k] = append(vals[k], [4]float64{r.GElemPerS, r.GBPerS, r.CopyGBPerS, r.RatioToCopy})
				if r.RatioToPurego != nil {
					purego[k] = append(purego[k], *r.RatioToPurego)
				}
			}
		}
		m := *first
		m.Runs, m.Rows, m.Summary, m.PNG = len(g), nil, nil, ""
		var loads []string
		m.WallS = 0
		for _, rep := range g {
			m.WallS += rep.WallS
			loads = append(loads, cmp.Or(rep.LoadAvg, "unknown"))
		}
		m.LoadAvg = strings.Join(loads, "; ")
		m.Date = first.Date + " to " + g[len(g)-1].Date
		for _, k := range order {
			col := func(j int) float64 {
				var xs []float64
				for _, v := range vals[k] {
					xs = append(xs, v[j])
				}
				return medianFloat(xs)
			}
			r := benchRow{Conversion: k.conversion, Source: k.source, Dest: k.dest, Size: k.size,
				GElemPerS: col(0), GBPerS: col(1), CopyGBPerS: col(2), RatioToCopy: col(3)}
			if ps := purego[k]; len(ps) == len(vals[k]) {
				x := medianFloat(ps)
				r.RatioToPurego = &x
			}
			m.Rows = append(m.Rows, r)
		}
		var sizes []string
		for _, s := range first.Summary {
			sizes = append(sizes, s.Size)
		}
		sortBenchRows(m.Rows, sizes)
		for _, size := range sizes {
			var rs []benchRow
			for _, r := range m.Rows {
				if r.Size == size {
					rs = append(rs, r)
				}
			}
			m.Summary = append(m.Summary, summarize(size, m.Elements[size], rs))
		}
		m.round()
		out[i] = &m
	}
	return out, nil
}
