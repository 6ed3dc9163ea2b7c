package main

import (
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"slices"
	"strings"
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

// benchRow is one line of the table and one object of --json.
type benchRow struct {
	Conversion    string  `json:"conversion"`
	Source        string  `json:"source"`
	Size          string  `json:"size"`
	GElemPerS     float64 `json:"gelem_per_s"`
	GBPerS        float64 `json:"gb_per_s"`
	RatioToCopy   float64 `json:"ratio_to_copy"`
	RatioToPurego float64 `json:"ratio_to_purego"`

	dst     cltype.Kind
	copyGBs float64
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
}

func newBenchCmd() *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench [flags]",
		Short: "Measure the slice conversions against copy and pure Go",
		Long: `bench converts slices of each conversion with SIMD kernels (every rounding
mode, with and without _sat) in two sizes, l2 (32 Ki elements, in a core's
L2 cache) and mem (16 Mi elements, from and to memory), and prints one row per
conversion: G elements/s, GB/s (bytes read plus bytes written), the ratio to
a copy of as many bytes and the ratio to the pure Go kernels, all measured in
the same run. Each figure is the median of --repeat measurements, each at
least --min-time long; the copy, SIMD and pure Go measurements alternate so
that they see the same machine state. A measurement times batches of calls
and keeps the fastest batch (--fastest, the default), which filters out the
time other processes take on a busy machine; --fastest=false keeps the mean.

--json prints a JSON array with one object per row instead of the table;
--png also writes a bar chart of GB/s next to copy's.`,
		Example: `  clconv bench
  clconv bench --pairs float-uchar --size l2 --json
  clconv bench --size mem --parallel --png mem.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			progress := io.Discard
			if f, ok := cmd.ErrOrStderr().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				progress = f
			}
			rows, err := runBench(o, progress)
			if err != nil {
				return err
			}
			if o.pngPath != "" {
				if err := writeBenchPNG(o.pngPath, rows, o); err != nil {
					return err
				}
			}
			if o.jsonOut {
				return writeBenchJSON(cmd.OutOrStdout(), rows)
			}
			writeBenchTable(cmd.OutOrStdout(), rows, o)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.sizes, "size", []string{"l2", "mem"}, "sizes to measure: l2, mem")
	f.StringSliceVar(&o.pairs, "pairs", nil, "conversions to measure as SOURCE-DEST, e.g. float-uchar,int-float (default: every pair with SIMD kernels)")
	f.IntVar(&o.repeat, "repeat", 5, "measurements per figure (the median is reported)")
	f.DurationVar(&o.minTime, "min-time", 100*time.Millisecond, "shortest duration of one measurement")
	f.BoolVar(&o.parallel, "parallel", false, "use every core (convert.BytesParallel, and a parallel copy)")
	f.StringVar(&o.tier, "tier", "", "SIMD tier to measure (default: the best; see --tier=list)")
	f.BoolVar(&o.jsonOut, "json", false, "print JSON instead of the table")
	f.StringVar(&o.pngPath, "png", "", "write a bar chart to this PNG file")
	f.BoolVar(&o.fastest, "fastest", true, "take each measurement's fastest batch (false: its mean; see --help)")
	return cmd
}

func runBench(o benchOptions, progress io.Writer) ([]benchRow, error) {
	if o.tier == "list" {
		return nil, fmt.Errorf("tiers on this machine: %s", strings.Join(kernels.SIMDTiers(), ", "))
	}
	best := kernels.SIMDTiers()[0]
	if o.tier == "" {
		o.tier = best
	}
	prev, err := kernels.SetSIMD(o.tier)
	if err != nil {
		return nil, err
	}
	defer kernels.SetSIMD(prev)
	if o.repeat < 1 {
		return nil, fmt.Errorf("--repeat must be at least 1")
	}
	var pairs []kernels.Pair
	for _, p := range kernels.SIMDPairs() {
		if len(o.pairs) == 0 || slices.Contains(o.pairs, p.Src.String()+"-"+p.Dst.String()) {
			pairs = append(pairs, p)
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("no pair matches --pairs %s (pairs look like float-uchar)", strings.Join(o.pairs, ","))
	}
	for _, s := range o.sizes {
		if _, ok := benchSizes[s]; !ok {
			return nil, fmt.Errorf("unknown size %q (want l2 or mem)", s)
		}
	}
	conv := convert.Bytes
	if o.parallel {
		conv = convert.BytesParallel
	}
	var rows []benchRow
	for _, size := range o.sizes {
		n := benchSizes[size]
		for _, p := range pairs {
			src := benchdata.Input(p.Src, n)
			dst := make([]byte, n*p.Dst.Size())
			moved := float64(n * (p.Src.Size() + p.Dst.Size()))
			from := make([]byte, int(moved)/2)
			copy(from, src)
			to := make([]byte, len(from))
			cp := func() {
				if o.parallel {
					benchdata.ParallelCopy(to, from)
				} else {
					copy(to, from)
				}
			}
			vs := benchdata.Variants(p.Src, p.Dst)
			copyT := make([]time.Duration, 0, o.repeat)
			simdT := make([][]time.Duration, len(vs))
			goT := make([][]time.Duration, len(vs))
			for range o.repeat {
				copyT = append(copyT, timeOp(cp, o.minTime, o.fastest))
				for i, v := range vs {
					f := func() { conv(p.Dst, p.Src, dst, src, v.Mode, v.Sat) }
					kernels.SetSIMD(o.tier)
					simdT[i] = append(simdT[i], timeOp(f, o.minTime, o.fastest))
					kernels.SetSIMD("go")
					goT[i] = append(goT[i], timeOp(f, o.minTime, o.fastest))
					kernels.SetSIMD(o.tier)
				}
			}
			copyGBs := moved / median(copyT).Seconds() / 1e9
			for i, v := range vs {
				t := median(simdT[i]).Seconds()
				r := benchRow{
					Conversion:    v.Name(p.Dst),
					Source:        p.Src.String(),
					Size:          size,
					GElemPerS:     float64(n) / t / 1e9,
					GBPerS:        moved / t / 1e9,
					RatioToPurego: median(goT[i]).Seconds() / t,
					dst:           p.Dst,
					copyGBs:       copyGBs,
				}
				r.RatioToCopy = r.GBPerS / copyGBs
				rows = append(rows, r)
			}
			fmt.Fprintf(progress, "\r\033[K%s %s->%s", size, p.Src, p.Dst)
		}
	}
	fmt.Fprint(progress, "\r\033[K")
	return rows, nil
}

// timeOp returns the time of one call of f in one measurement of at least
// minTime: after a warm-up call it times batches of calls, each batch at least
// a twentieth of minTime long (one call for the memory size), and returns the
// fastest batch's time per call. The fastest batch is the speed of the code
// on this machine; slower ones were interrupted by other processes, which on a
// shared machine happens in most measurements. With fastest=false it returns
// the mean over the measurement instead.
func timeOp(f func(), minTime time.Duration, fastest bool) time.Duration {
	f()
	batch := 1
	for {
		start := time.Now()
		for range batch {
			f()
		}
		if el := time.Since(start); el >= minTime/20 {
			break
		}
		batch *= 2
	}
	best, total, calls := time.Duration(math.MaxInt64), time.Duration(0), 0
	for total < minTime {
		start := time.Now()
		for range batch {
			f()
		}
		el := time.Since(start)
		best = min(best, el/time.Duration(batch))
		total += el
		calls += batch
	}
	if fastest {
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

func writeBenchJSON(w io.Writer, rows []benchRow) error {
	for i := range rows {
		r := &rows[i]
		r.GElemPerS = round3(r.GElemPerS)
		r.GBPerS = round3(r.GBPerS)
		r.RatioToCopy = round3(r.RatioToCopy)
		r.RatioToPurego = round3(r.RatioToPurego)
	}
	if rows == nil {
		rows = []benchRow{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}

func round3(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(x)))) // three significant digits
	return math.Round(x*p) / p
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
	fmt.Fprintf(w, "# SIMD tier %s, %s, median of %d measurements (each: %s); GB/s counts bytes read plus written\n", o.tierOrBest(), mode, o.repeat, est)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pair\tconversion\tsize\tG elem/s\tGB/s\tcopy GB/s\tx copy\tx pure Go\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s->%s\t%s\t%s\t%.2f\t%.1f\t%.1f\t%.2f\t%.1f\t\n", r.Source, r.dst, r.Conversion, r.Size, r.GElemPerS, r.GBPerS, r.copyGBs, r.RatioToCopy, r.RatioToPurego)
	}
	tw.Flush()
}

func (o benchOptions) tierOrBest() string {
	if o.tier == "" {
		return kernels.SIMDTiers()[0]
	}
	return o.tier
}

// writeBenchPNG draws one horizontal bar per row: the conversion's GB/s, and
// beneath it a thin bar for copy's GB/s at the same size. The font is the
// 7x13 bitmap font of golang.org/x/image, so the chart needs no font files.
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
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	maxGB := 1.0
	for _, r := range rows {
		maxGB = math.Max(maxGB, math.Max(r.GBPerS, r.copyGBs))
	}
	text := func(x, y int, s string, c color.Color) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	fill := func(x0, y0, x1, y1 int, c color.Color) {
		draw.Draw(img, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{}, draw.Src)
	}
	mode := "one core"
	if o.parallel {
		mode = "all cores"
	}
	text(margin, 16, fmt.Sprintf("clconv bench: GB/s (read+written), SIMD tier %s, %s; grey: copy of as many bytes", o.tierOrBest(), mode), color.Black)
	blue := color.RGBA{0x2b, 0x6c, 0xb0, 0xff}
	red := color.RGBA{0xc0, 0x39, 0x2b, 0xff}
	grey := color.RGBA{0x99, 0x99, 0x99, 0xff}
	for i, r := range rows {
		y := top + i*rowH
		text(margin, y+12, fmt.Sprintf("%-4s %-6s %s", r.Size, r.Source, r.Conversion), color.Black)
		w := int(float64(barW) * r.GBPerS / maxGB)
		c := blue
		if r.RatioToCopy < 0.9 {
			c = red
		}
		fill(labelW, y+1, labelW+w, y+12, c)
		fill(labelW, y+13, labelW+int(float64(barW)*r.copyGBs/maxGB), y+16, grey)
		text(labelW+w+4, y+12, fmt.Sprintf("%.1f (%.2fx)", r.GBPerS, r.RatioToCopy), color.Black)
	}
	text(margin, H-10, fmt.Sprintf("bar scale: %d px = %.0f GB/s; red: below 0.9x copy", barW, maxGB), color.Black)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
