package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/internal/kernels"
)

// clconv bench --json prints one object per row with exactly the keys of
// issue 4, and plausible values.
func TestBenchJSON(t *testing.T) {
	out, errOut, st := clconv(t, "", "bench", "--pairs", "float-uchar,int-float", "--size", "l2", "--repeat", "1", "--min-time", "1ms", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) != 8+4 {
		t.Fatalf("%d rows, want 12", len(rows))
	}
	keys := []string{"conversion", "source", "size", "gelem_per_s", "gb_per_s", "ratio_to_copy", "ratio_to_purego"}
	for _, r := range rows {
		if len(r) != len(keys) {
			t.Errorf("row %v: want exactly the keys %v", r, keys)
		}
		for _, k := range keys {
			if _, ok := r[k]; !ok {
				t.Errorf("row %v lacks %q", r, k)
			}
		}
		if r["size"] != "l2" || r["gelem_per_s"].(float64) <= 0 || r["ratio_to_copy"].(float64) <= 0 {
			t.Errorf("row %v", r)
		}
	}
	// The rows follow kernels.SIMDPairs, each pair's variants in the order
	// of benchdata.Variants.
	index := map[string]int{}
	for i, r := range rows {
		index[r["source"].(string)+" "+r["conversion"].(string)] = i
	}
	for _, want := range []struct{ before, after string }{
		{"float convert_uchar_rtn", "float convert_uchar_sat_rte"},
		{"int convert_float_rte", "int convert_float_rtz"},
	} {
		b, okb := index[want.before]
		a, oka := index[want.after]
		if !okb || !oka || a != b+1 {
			t.Errorf("rows %d (%s) and %d (%s), want consecutive", b, want.before, a, want.after)
		}
	}
}

func TestBenchTableAndPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.png")
	out, errOut, st := clconv(t, "", "bench", "--pairs", "uchar-float", "--size", "l2", "--repeat", "1", "--min-time", "1ms", "--png", path, "--tier", "go")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	if !strings.Contains(out, "uchar->float") || !strings.Contains(out, "convert_float") || !strings.Contains(out, "x pure Go") {
		t.Errorf("table:\n%s", out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
}

func TestBenchErrors(t *testing.T) {
	md := filepath.Join(t.TempDir(), "rows.json")
	if err := os.WriteFile(md, []byte(`[{"conversion": "convert_int"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string // in stderr
	}{
		{[]string{"bench", "--pairs", "float-nonsense"}, "no pair with SIMD kernels"},
		{[]string{"bench", "--size", "l3"}, `unknown size "l3"`},
		{[]string{"bench", "--size", "l2,l2"}, "twice"},
		{[]string{"bench", "--tier", "avx9000"}, `tier "avx9000" not available`},
		{[]string{"bench", "--repeat", "0"}, "--repeat"},
		{[]string{"bench", "--all", "--repeat", "0"}, "--repeat"},
		{[]string{"bench", "--all", "--min-time", "0s"}, "--min-time"},
		{[]string{"bench", "--all", "--elements", "-1"}, "--elements"},
		{[]string{"bench", "--all", "--pairs", "float-bool"}, `"float-bool" is not SOURCE-DEST`},
		{[]string{"bench", "--all", "--nonsense"}, "unknown flag: --nonsense"},
		{[]string{"bench", "--all", "--repeat", "x"}, "--repeat"},
		{[]string{"bench", "extra"}, `no arguments`},
		{[]string{"bench", "--markdown", md}, "not the output of clconv bench --all --json"},
		{[]string{"bench", "--markdown", md + ".missing"}, "no such file"},
	} {
		_, errOut, st := clconv(t, "", tc.args...)
		if st != 2 || !strings.HasPrefix(errOut, "clconv bench: ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want status 2 and %q", tc.args, st, errOut, tc.want)
		}
	}
}

func TestBenchTierList(t *testing.T) {
	out, errOut, st := clconv(t, "", "bench", "--tier", "list")
	if st != 0 || !strings.HasSuffix(out, "go\n") {
		t.Errorf("status %d, stdout %q, stderr %q", st, out, errOut)
	}
}

// benchAllReport is what the tests read of --all --json.
type benchAllReport struct {
	Tier     string           `json:"tier"`
	Repeat   int              `json:"repeat"`
	Purego   bool             `json:"purego"`
	Elements map[string]int   `json:"elements"`
	Summary  []map[string]any `json:"summary"`
	Rows     []map[string]any `json:"rows"`
}

// clconv bench --all lists all 836 variants in each size, worst first, and
// sums them up; --json is an object with the summary and the rows.
func TestBenchAll(t *testing.T) {
	start := time.Now()
	out, errOut, st := clconv(t, "", "bench", "--all", "--elements", "256", "--size", "l2,mem", "--min-time", "10us", "--repeat", "1", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	t.Logf("%v", time.Since(start))
	if !strings.Contains(errOut, "clconv bench: 1672 variants, 2 size(s), tier ") {
		t.Errorf("stderr %q lacks the wall time", errOut)
	}
	var rep benchAllReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Repeat != 1 || rep.Purego || rep.Elements["l2"] != 256 || rep.Elements["mem"] != 256 {
		t.Errorf("settings: repeat %d, purego %v, elements %v", rep.Repeat, rep.Purego, rep.Elements)
	}
	if len(rep.Rows) != 2*836 {
		t.Fatalf("%d rows, want %d", len(rep.Rows), 2*836)
	}
	keys := []string{"conversion", "source", "dest", "size", "gelem_per_s", "gb_per_s", "copy_gb_per_s", "ratio_to_copy"}
	for i, size := range []string{"l2", "mem"} {
		rows := rep.Rows[i*836 : (i+1)*836]
		seen := map[string]bool{}
		pairs := map[string]int{}
		prev := 0.0
		for _, r := range rows {
			if len(r) != len(keys) {
				t.Fatalf("row %v: want exactly the keys %v (no ratio_to_purego without --purego)", r, keys)
			}
			if r["size"] != size {
				t.Fatalf("row %v in the rows of %s", r, size)
			}
			ratio := r["ratio_to_copy"].(float64)
			if ratio < prev || ratio <= 0 || r["gelem_per_s"].(float64) <= 0 {
				t.Fatalf("%s: row %v after ratio %v: not sorted worst first", size, r, prev)
			}
			prev = ratio
			id := r["source"].(string) + " " + r["conversion"].(string)
			if seen[id] {
				t.Errorf("%s: %s twice", size, id)
			}
			seen[id] = true
			pairs[r["source"].(string)+"-"+r["dest"].(string)]++
		}
		if len(pairs) != 121 {
			t.Errorf("%s: %d pairs, want 121", size, len(pairs))
		}
		for p, n := range pairs {
			if want := map[bool]int{false: 8, true: 4}[strings.HasSuffix(p, "half") || strings.HasSuffix(p, "float") || strings.HasSuffix(p, "double")]; n != want {
				t.Errorf("%s: %s has %d variants, want %d", size, p, n, want)
			}
		}
		for _, name := range []string{"uchar convert_uchar_rte", "char convert_half_rtn", "double convert_ulong_sat_rtp", "half convert_double_rtz"} {
			if !seen[name] {
				t.Errorf("%s: no row for %s", size, name)
			}
		}
	}
	if len(rep.Summary) != 2 {
		t.Fatalf("summary %v", rep.Summary)
	}
	for i, s := range rep.Summary {
		if s["size"] != []string{"l2", "mem"}[i] || s["variants"] != 836.0 || s["elements"] != 256.0 {
			t.Errorf("summary %v", s)
		}
		for _, k := range []string{"copy_gb_per_s", "below_0_8_copy", "below_0_5_copy", "median_ratio_to_copy", "worst",
			"below_4_gelem_per_s", "median_gelem_per_s", "slowest", "slowest_below_median", "over_4x_below_median"} {
			if _, ok := s[k]; !ok {
				t.Errorf("summary %v lacks %q", s, k)
			}
		}
		worst := s["worst"].(map[string]any)
		if first := rep.Rows[i*836]; worst["conversion"] != first["conversion"] || worst["source"] != first["source"] {
			t.Errorf("summary's worst %v is not the first row %v", worst, first)
		}
	}
}

// The table of --all ends with a summary per size; --purego adds the ratio
// to pure Go; --png draws the plot; --markdown turns the JSON into the
// tables of docs/PERFORMANCE.md.
func TestBenchAllTablePNGMarkdown(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "plot.png")
	args := []string{"bench", "--all", "--pairs", "float-uchar,char-half,int-int", "--elements", "512", "--min-time", "10us", "--repeat", "3"}
	out, errOut, st := clconv(t, "", append(args, "--size", "mem", "--purego", "--png", plot)...)
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "median of 3") || !strings.Contains(lines[1], "x pure Go") {
		t.Errorf("table head:\n%s", out)
	}
	prev := 0.0
	for _, l := range lines[2 : 2+20] {
		f := strings.Fields(l)
		if len(f) != 8 || f[2] != "mem" {
			t.Fatalf("row %q", l)
		}
		r, err := strconv.ParseFloat(f[6], 64)
		if err != nil || r < prev {
			t.Fatalf("row %q: ratio %v after %v", l, r, prev)
		}
		prev = r
	}
	for _, want := range []string{"summary, mem (512 elements): 20 variants", "below 0.8", "x pure Go: median"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	b, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}

	// --markdown, from two runs.
	var files []string
	for _, tier := range []string{"go", kernelsBest()} {
		out, errOut, st := clconv(t, "", append(args, "--size", "mem,l2", "--tier", tier, "--json", "--png", filepath.Join(dir, "performance-"+tier+".png"))...)
		if st != 0 {
			t.Fatalf("status %d: %s", st, errOut)
		}
		files = append(files, filepath.Join(dir, tier+".json"))
		if err := os.WriteFile(files[len(files)-1], []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, st = clconv(t, "", "bench", "--markdown", strings.Join(files, ","))
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	for _, want := range []string{
		"<!-- begin perf.sh summary -->\n| tier | size | variants |",
		"\n| go | mem | 20 |", "\n| go | l2 | 20 |",
		"none > 4× below the median G elem/s: ",
		"- **go**: `clconv bench --all --tier go` (mem = 512 elements, l2 = 512 elements), one core, median of 3",
		"![go tier: every variant's ratio to copy, worst first](performance-go.png)",
		"<!-- end perf.sh summary -->\n<!-- begin perf.sh tables -->\n",
		"\n### go, l2 (512 elements), worst first\n\n| # | pair | conversion |",
		"\n| 20 | ", "<!-- end perf.sh tables -->\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n| 1 | "); n != 4 {
		t.Errorf("%d tables, want 4", n)
	}
}

// --median --markdown merges runs of one tier: each variant's figures are the
// medians over the runs, and the summary is recomputed from them.
func TestBenchMarkdownMedian(t *testing.T) {
	dir := t.TempDir()
	row := func(conv string, ratio, gelem float64) string {
		return fmt.Sprintf(`{"conversion": %q, "source": "float", "dest": "uchar", "size": "mem", "gelem_per_s": %v, "gb_per_s": %v, "copy_gb_per_s": 10, "ratio_to_copy": %v}`, conv, gelem, 5*gelem, ratio)
	}
	var files []string
	for i, rs := range [][2][2]float64{{{0.7, 1}, {1.2, 3}}, {{0.9, 2}, {1.0, 5}}, {{0.95, 4}, {1.1, 4}}} {
		js := fmt.Sprintf(`{"tier": "avx2", "parallel": false, "gomaxprocs": 1, "repeat": 3, "min_time": "10ms", "estimator": "fastest batch", "elements": {"mem": 512}, "go_version": "go", "date": "d%d", "wall_s": 2, "loadavg": "1 1 1", "summary": [{"size": "mem", "elements": 512, "variants": 2}], "rows": [%s, %s]}`,
			i, row("convert_uchar_rte", rs[0][0], rs[0][1]), row("convert_uchar_rtz", rs[1][0], rs[1][1]))
		files = append(files, filepath.Join(dir, fmt.Sprintf("r%d.json", i)))
		if err := os.WriteFile(files[i], []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, st := clconv(t, "", "bench", "--median", "--markdown", strings.Join(files, ","))
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	for _, want := range []string{
		// rte: ratios 0.7, 0.9, 0.95 -> 0.9, G elem/s 1, 2, 4 -> 2; rtz: 1.1 and 4.
		"| avx2 | mem | 2 | 10 | 0 | 0 | 1 | float→uchar `convert_uchar_rte` 0.9×, 2 |",
		"per variant the median over 3 runs, each median of 3 measurements",
		"d0 to d2; wall time 6s, load average after 1 1 1; 1 1 1; 1 1 1.",
		"| 1 | float→uchar | `convert_uchar_rte` | 2 | 10 | 10 | 0.9 | — |",
		"| 2 | float→uchar | `convert_uchar_rtz` | 4 | 20 | 10 | 1.1 | — |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	// Without --median, each file is a block of its own.
	out, _, _ = clconv(t, "", "bench", "--markdown", strings.Join(files, ","))
	if n := strings.Count(out, "\n| avx2 | mem | 2 |"); n != 3 {
		t.Errorf("%d summary rows without --median, want 3:\n%s", n, out)
	}
	// Runs of other sizes do not merge; --median alone is a usage error.
	other := filepath.Join(dir, "other.json")
	b, _ := os.ReadFile(files[0])
	if err := os.WriteFile(other, []byte(strings.Replace(string(b), `"elements": {"mem": 512}`, `"elements": {"mem": 1024}`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, st := clconv(t, "", "bench", "--median", "--markdown", files[0]+","+other); st == 0 || !strings.Contains(errOut, "other sizes") {
		t.Errorf("mixed sizes: status %d, %s", st, errOut)
	}
	if _, errOut, st := clconv(t, "", "bench", "--median"); st != 2 || !strings.Contains(errOut, "--median merges the files of --markdown") {
		t.Errorf("--median alone: status %d, %s", st, errOut)
	}
}

func kernelsBest() string { return kernels.SIMDTiers()[0] }
