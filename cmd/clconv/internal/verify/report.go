package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clconv/clconv/cltype"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
)

// Status of one conversion.
const (
	StatusPass        = "pass"
	StatusFail        = "fail"
	StatusNotTestable = "not testable"
	StatusError       = "error"   // the device could not run the check (build or runtime error)
	StatusNotRun      = "not run" // the run was interrupted first
)

// Report is the result of a verification run. Its JSON form is clconv
// verify --json's output.
type Report struct {
	Device  DeviceInfo `json:"device"`
	Quick   bool       `json:"quick"`
	Only    string     `json:"only,omitempty"`
	Fault   string     `json:"injected_fault,omitempty"`
	Started time.Time  `json:"started"`
	Seconds float64    `json:"seconds"`
	// DeviceSeconds is the time the device's queue was busy or waited for a
	// program to be built: Times.BuildWait + Run + Transfer;
	// ReferenceSeconds the CPU reference digests' time (they overlap).
	DeviceSeconds    float64 `json:"device_seconds"`
	ReferenceSeconds float64 `json:"reference_seconds"`
	// Times breaks the run's time down.
	Times Times `json:"times"`
	// Cache says where program binaries came from.
	Cache *CacheReport `json:"program_cache,omitempty"`
	// Programs says, per program, where it came from and when it was ready.
	Programs []ProgramTime `json:"programs,omitempty"`
	// Notices are notes that are not findings about the device (a cached
	// program binary that was corrupt or stale and was rebuilt).
	Notices []string `json:"notices,omitempty"`
	Inputs  uint64   `json:"inputs"` // scalar inputs checked by digests, all conversions

	Passed      int `json:"passed"`
	Failed      int `json:"failed"`
	NotTestable int `json:"not_testable"`
	Errored     int `json:"errors"`
	NotRun      int `json:"not_run"`
	// Interrupted is set when the run was stopped (Options.Context) before
	// every check ran; the report covers what finished.
	Interrupted bool `json:"interrupted"`

	Conversions []*ConvResult  `json:"conversions"`
	Failures    []Failure      `json:"failures"` // examples, at most a few per conversion and rule
	ByRule      []*RuleGroup   `json:"failures_by_rule,omitempty"`
	ImplDefined []*ImplSummary `json:"implementation_defined"`
	Vectors     []*WidthResult `json:"vectors"`
	AsType      *AsTypeResult  `json:"as_type,omitempty"`
	Errors      []string       `json:"errors_text,omitempty"`
}

// OK reports whether the run finished and the device passed every check.
func (r *Report) OK() bool { return !r.AnyFailed() && !r.Interrupted }

// AnyFailed reports whether any check that ran failed or could not run on
// the device.
func (r *Report) AnyFailed() bool {
	if r.Failed > 0 || r.Errored > 0 || len(r.Errors) > 0 {
		return true
	}
	for _, w := range r.Vectors {
		if w.Failing > 0 {
			return true
		}
	}
	return r.AsType != nil && r.AsType.Failing > 0
}

// Times is a run's time breakdown, in seconds. Building overlaps with
// running (programs are built in build processes and loaded or built on
// Builders threads while the device runs the kernels already built) and the
// CPU reference digests are computed in the background, so the parts add up
// to more than Wall; BuildWait and ReferenceWait are what the device's queue
// waited for them.
type Times struct {
	Wall float64 `json:"wall"`
	// Build is this process's compiling of programs and loading of their
	// binaries (cached or from build processes), summed over the builders.
	Build         float64 `json:"build"`
	Processes     int     `json:"build_processes"`         // build processes started (see Options.Worker)
	ProcessBuild  float64 `json:"build_processes_build"`   // compiling in the build processes, summed over them
	ProcessStart  float64 `json:"build_processes_startup"` // the slowest build process's opening of the device
	BuildWait     float64 `json:"build_wait"`              // the queue waiting for a build, and storing binaries
	Run           float64 `json:"run"`                     // kernels running on the device
	Transfer      float64 `json:"transfer"`                // copies between host and device
	Reference     float64 `json:"reference"`               // the CPU reference digests (background)
	ReferenceWait float64 `json:"reference_wait"`          // the queue waiting for them
	Narrowing     float64 `json:"narrowing"`               // comparing the raw results of differing slices input by input
	Check         float64 `json:"check"`                   // comparing edge values and vector lanes with the library
	Programs      int     `json:"programs"`
	Builders      int     `json:"builders"`
}

// ProgramTime is one program's build, in seconds.
type ProgramTime struct {
	Name  string  `json:"name"`  // "float -> char,uchar,...", or "as_type"
	From  string  `json:"from"`  // "cache", "build process" or "built" (here, from source); "" when never built (interrupted)
	Build float64 `json:"build"` // compiling it, where it was compiled
	Load  float64 `json:"load"`  // loading its binary in this process
	Ready float64 `json:"ready"` // from the start of the run to the program ready to run (or failed)
}

// CacheReport says where a run's program binaries came from.
type CacheReport struct {
	Dir    string `json:"dir"`    // the binary cache's directory, or "off"
	Loaded int    `json:"loaded"` // programs whose binary came from the cache
	Built  int    `json:"built"`  // programs built from source
	// Processes counts the programs of Built that a build process built.
	Processes int `json:"built_in_build_processes"`
	Stored    int `json:"stored"` // binaries written to the cache
}

// RuleGroup is every failure that breaks one rule.
type RuleGroup struct {
	Rule        string `json:"rule"`
	Conversions int    `json:"conversions"`
	Inputs      uint64 `json:"inputs"` // failing inputs (digest, edges and vector lanes), all conversions
	// BySource lists the conversions of each source kind with this failure.
	BySource []RuleSource `json:"by_source"`
	Examples []Failure    `json:"examples"`
}

// RuleSource is the conversions of one source kind that break a rule.
type RuleSource struct {
	Source      string   `json:"source"`
	Conversions []string `json:"conversions"`
	Inputs      uint64   `json:"inputs"`
}

func cltypeOf(name string) cltype.Kind {
	for _, k := range cltype.Scalars {
		if k.String() == name {
			return k
		}
	}
	return cltype.Invalid
}

// ruleExamples is the number of examples listed per rule.
const ruleExamples = 6

// groupFailures fills ByRule from the conversions' rule counts and the
// examples.
func (r *Report) groupFailures() {
	groups := map[string]*RuleGroup{}
	for _, c := range r.Conversions {
		for _, rule := range sortedRules(c.Rules) {
			g := groups[rule]
			if g == nil {
				g = &RuleGroup{Rule: rule}
				groups[rule] = g
			}
			g.Conversions++
			g.Inputs += c.Rules[rule]
			if n := len(g.BySource); n == 0 || g.BySource[n-1].Source != c.Source {
				g.BySource = append(g.BySource, RuleSource{Source: c.Source})
			}
			bs := &g.BySource[len(g.BySource)-1]
			bs.Conversions = append(bs.Conversions, c.Conversion)
			bs.Inputs += c.Rules[rule]
		}
	}
	// Examples: the first of each source, then the first of each source
	// and check, then the others, in order.
	used := make([]bool, len(r.Failures))
	for pass := 0; pass < 3; pass++ {
		seen := map[string]bool{}
		for i, f := range r.Failures {
			g := groups[f.Rule]
			if g == nil || used[i] || len(g.Examples) >= ruleExamples {
				continue
			}
			k := f.Rule + "\x00" + f.Source
			if pass == 1 {
				k += "\x00" + f.Check
			}
			if pass < 2 && seen[k] {
				continue
			}
			seen[k] = true
			used[i] = true
			g.Examples = append(g.Examples, f)
		}
	}
	for _, g := range groups {
		slices.SortStableFunc(g.Examples, func(a, b Failure) int {
			return slices.Index(cltype.Scalars, cltypeOf(a.Source)) - slices.Index(cltype.Scalars, cltypeOf(b.Source))
		})
	}
	r.ByRule = r.ByRule[:0]
	for _, g := range groups {
		r.ByRule = append(r.ByRule, g)
	}
	sort.Slice(r.ByRule, func(i, j int) bool {
		a, b := r.ByRule[i], r.ByRule[j]
		if a.Conversions != b.Conversions {
			return a.Conversions > b.Conversions
		}
		return a.Rule < b.Rule
	})
	if len(r.ByRule) == 0 {
		r.ByRule = nil
	}
}

// DeviceInfo is what the report says about the device.
type DeviceInfo struct {
	Platform        string `json:"platform"`
	PlatformVersion string `json:"platform_version"`
	DeviceFacts
}

// DeviceFacts are the facts about a device that decide what clconv verify
// can check there; clconv devices --json lists them too.
type DeviceFacts struct {
	Name    string `json:"name"`
	Vendor  string `json:"vendor"`
	Type    string `json:"type"`
	Version string `json:"version"`
	Driver  string `json:"driver"`
	OpenCLC string `json:"opencl_c"`
	FP64    bool   `json:"fp64"`
	FP16    bool   `json:"fp16"`
	Single  string `json:"single_fp_config"`
	Double  string `json:"double_fp_config"`
	Half    string `json:"half_fp_config"`
}

// FactsOf returns the facts of device d.
func FactsOf(d *opencl.Device) DeviceFacts {
	return DeviceFacts{Name: d.Name, Vendor: d.Vendor, Type: d.Type, Version: d.Version, Driver: d.DriverVersion,
		OpenCLC: d.OpenCLCVersion, FP64: d.FP64(), FP16: d.FP16(), Single: d.Single.String(), Double: d.Double.String(),
		Half: d.Half.String()}
}

func deviceInfo(d *opencl.Device) DeviceInfo {
	i := DeviceInfo{DeviceFacts: FactsOf(d)}
	if d.Platform != nil {
		i.Platform, i.PlatformVersion = d.Platform.Name, d.Platform.Version
	}
	return i
}

// ConvResult is the outcome for one scalar conversion.
type ConvResult struct {
	Conversion string `json:"conversion"`
	Source     string `json:"source"`
	Status     string `json:"status"`
	Via        string `json:"via,omitempty"`    // how it ran without cl_khr_fp16
	Reason     string `json:"reason,omitempty"` // why not testable, or the error
	Inputs     uint64 `json:"inputs"`           // inputs the digest checked
	Slices     int    `json:"slices"`
	BadSlices  int    `json:"bad_slices"`
	Edges      int    `json:"edge_inputs"`
	// Failing counts failing inputs found by the digest reruns and the edge
	// check (vector lanes are counted in Vectors).
	Failing     uint64            `json:"failing"`
	Rules       map[string]uint64 `json:"rules,omitempty"` // failing inputs per broken rule
	ImplDefined uint64            `json:"implementation_defined"`
	Seconds     float64           `json:"device_seconds"`
}

// Failure is one input on which the device's result breaks the specification.
type Failure struct {
	Conversion string `json:"conversion"` // scalar name; Width says the vector width
	Source     string `json:"source"`
	Check      string `json:"check"` // "digest", "edges" or "vector"
	Width      int    `json:"width"` // 1 for scalars
	Lane       int    `json:"lane"`
	Input      string `json:"input"` // bit pattern, hex
	InputValue string `json:"input_value"`
	Expected   string `json:"expected"`
	ExpValue   string `json:"expected_value"`
	Device     string `json:"device"`
	DevValue   string `json:"device_value"`
	Rule       string `json:"rule"`
}

// WidthResult is the vector check of one width.
type WidthResult struct {
	Width       int      `json:"width"`
	Conversions int      `json:"conversions"`
	Lanes       uint64   `json:"lanes"`   // lanes checked, all conversions
	Failing     uint64   `json:"failing"` // failing lanes
	ImplDefined uint64   `json:"implementation_defined"`
	Bad         []string `json:"failing_conversions,omitempty"`
}

// WriteJSON writes r as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

// WriteText writes r as the human-readable report of clconv verify.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	d := r.Device
	fmt.Fprintf(&b, "device:   %s (%s, %s) on %s\n", d.Name, d.Type, d.Vendor, d.Platform)
	fmt.Fprintf(&b, "          %s; driver %s; %s; fp64 %s; fp16 %s\n", d.Version, d.Driver, d.OpenCLC, yesNo(d.FP64), yesNo(d.FP16))
	fmt.Fprintf(&b, "          float: %s; double: %s\n", d.Single, d.Double)
	mode := "full (every input of 8/16/32-bit sources, 2^32 samples of 64-bit ones)"
	if r.Quick {
		mode = "quick (2^24 inputs per 32/64-bit source, spread over every chunk; every input of 8/16-bit sources)"
	}
	fmt.Fprintf(&b, "mode:     %s\n", mode)
	if r.Only != "" {
		fmt.Fprintf(&b, "only:     %s\n", r.Only)
	}
	if r.Fault != "" {
		fmt.Fprintf(&b, "fault:    %s (injected for testing)\n", r.Fault)
	}

	if len(r.ByRule) > 0 {
		b.WriteString("\nFAILURES BY RULE (every failing input is counted: digest, edge values, vector lanes; a few examples each)\n")
		for _, g := range r.ByRule {
			fmt.Fprintf(&b, "\n  %s: %d conversions, %d failing inputs\n", g.Rule, g.Conversions, g.Inputs)
			for _, s := range g.BySource {
				fmt.Fprintf(&b, "    %-6s %3d: %s (%d inputs)\n", s.Source, len(s.Conversions), compactNames(s.Conversions), s.Inputs)
			}
			tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
			for i, f := range g.Examples {
				name, check := f.Conversion, f.Check
				if f.Width > 1 {
					name = vectorName(f.Conversion, f.Width)
					check = fmt.Sprintf("vector lane %d", f.Lane)
				}
				lead := "      "
				if i == 0 {
					lead = "    e.g."
				}
				fmt.Fprintf(tw, "%s\t%s %s\t%s\t%s\t%s\t%s = %s\t%s = %s\n", lead, name, f.Source, check, f.Input, f.InputValue,
					f.Expected, f.ExpValue, f.Device, f.DevValue)
			}
			tw.Flush()
		}
	}

	var failed, errored []*ConvResult
	notTestable := map[string][]string{}
	for _, c := range r.Conversions {
		switch c.Status {
		case StatusFail:
			failed = append(failed, c)
		case StatusError:
			errored = append(errored, c)
		case StatusNotTestable:
			notTestable[c.Reason] = append(notTestable[c.Reason], c.Conversion+" "+c.Source)
		}
	}
	if len(failed) > 0 {
		b.WriteString("\nFAILED CONVERSIONS (alike ones together: same source, failing inputs and rules)\n")
		type line struct {
			src, what string
			names     []string
		}
		var lines []*line
		idx := map[string]*line{}
		for _, c := range failed {
			what := fmt.Sprintf("%d failing inputs", c.Failing)
			if c.BadSlices > 0 {
				what += fmt.Sprintf(" (%d of %d digest slices differ)", c.BadSlices, c.Slices)
			}
			if len(c.Rules) > 1 {
				var rs []string
				for _, rule := range sortedRules(c.Rules) {
					rs = append(rs, fmt.Sprintf("%d %s", c.Rules[rule], rule))
				}
				what += ": " + strings.Join(rs, "; ")
			}
			k := c.Source + "\x00" + what
			l := idx[k]
			if l == nil {
				l = &line{src: c.Source, what: what}
				idx[k] = l
				lines = append(lines, l)
			}
			l.names = append(l.names, c.Conversion)
		}
		for _, l := range lines {
			each := ""
			if len(l.names) > 1 {
				each = " each"
			}
			fmt.Fprintf(&b, "  %s %s: %s%s\n", l.src, compactNames(l.names), l.what, each)
		}
	}
	if len(errored) > 0 {
		b.WriteString("\nERRORS (the check could not run)\n")
		for _, c := range errored {
			fmt.Fprintf(&b, "  %s %s: %s\n", c.Conversion, c.Source, firstLine(c.Reason))
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "error: %s\n", e)
	}
	for _, n := range r.Notices {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if len(notTestable) > 0 {
		fmt.Fprintf(&b, "\nNOT TESTABLE ON THIS DEVICE (%d)\n", r.NotTestable)
		reasons := make([]string, 0, len(notTestable))
		for k := range notTestable {
			reasons = append(reasons, k)
		}
		sort.Strings(reasons)
		for _, k := range reasons {
			fmt.Fprintf(&b, "  %d conversions: %s\n      e.g. %s\n", len(notTestable[k]), k, strings.Join(notTestable[k][:min(4, len(notTestable[k]))], ", "))
		}
	}

	if len(r.ImplDefined) > 0 {
		b.WriteString("\nIMPLEMENTATION-DEFINED RESULTS (float -> integer without _sat of NaN or of a value that rounds out of range: not failures)\n")
		b.WriteString("what the device returned in the edge and vector checks; [1] = scalar, [n] = n-element vectors\n")
		writeImpl(&b, r.ImplDefined)
	}

	if len(r.Vectors) > 0 {
		b.WriteString("\nVECTOR WIDTHS (vloadn, convert_<dst>n..., vstoren)\n")
		for _, v := range r.Vectors {
			fmt.Fprintf(&b, "  width %2d: %4d conversions, %10d lanes, %d failing", v.Width, v.Conversions, v.Lanes, v.Failing)
			if len(v.Bad) > 0 {
				fmt.Fprintf(&b, ": %s", wrapList(v.Bad, 6))
			}
			b.WriteString("\n")
		}
	}
	if a := r.AsType; a != nil {
		b.WriteString("\nAS_TYPE\n")
		fmt.Fprintf(&b, "  same element count (bits unchanged): %d pairs, %d values, %d failing\n", a.SamePairs, a.SameValues, a.Failing-a.FourToThreeFailing)
		fmt.Fprintf(&b, "  4-vector -> 3-vector (first three elements): %d pairs, %d failing\n", a.FourToThreePairs, a.FourToThreeFailing)
		fmt.Fprintf(&b, "  different element counts (implementation-defined): %d pairs, %d like little-endian memory (clconv's choice), %d otherwise\n",
			a.OtherPairs, a.OtherLittleEndian, a.OtherPairs-a.OtherLittleEndian)
		for _, f := range a.Failures {
			fmt.Fprintf(&b, "  FAIL %s\n", f)
		}
		for _, f := range a.OtherExamples {
			fmt.Fprintf(&b, "  impl-defined: %s\n", f)
		}
		if a.Skipped != "" {
			fmt.Fprintf(&b, "  %s\n", a.Skipped)
		}
	}

	t := r.Times
	b.WriteString("\nTIME\n")
	fmt.Fprintf(&b, "  wall %.1fs: build %.1fs on %d threads", t.Wall, t.Build, t.Builders)
	if t.Processes > 0 {
		fmt.Fprintf(&b, " and %.1fs in %d build processes (started in %.1fs)", t.ProcessBuild, t.Processes, t.ProcessStart)
	}
	fmt.Fprintf(&b, " for %d programs (the device waited %.1fs for builds)", t.Programs, t.BuildWait)
	if c := r.Cache; c != nil {
		fmt.Fprintf(&b, "; binary cache %s: %d loaded, %d built", c.Dir, c.Loaded, c.Built)
		if c.Processes > 0 {
			fmt.Fprintf(&b, " (%d in build processes)", c.Processes)
		}
		fmt.Fprintf(&b, ", %d stored", c.Stored)
	}
	fmt.Fprintf(&b, "\n  run %.1fs, transfer %.2fs, reference %.1fs (in the background; waited %.1fs), narrowing %.1fs, edge and vector comparison %.1fs\n",
		t.Run, t.Transfer, t.Reference, t.ReferenceWait, t.Narrowing, t.Check)

	verdict := "PASS"
	switch {
	case r.AnyFailed():
		verdict = "FAIL"
	case r.Interrupted:
		verdict = "INCOMPLETE"
	}
	notRun := ""
	if r.Interrupted {
		notRun = fmt.Sprintf(", %d not run (interrupted)", r.NotRun)
	}
	fmt.Fprintf(&b, "\n%s: %d conversions passed, %d failed, %d errors, %d not testable%s; %d digest inputs in %.1fs (device %.1fs, reference %.1fs)\n",
		verdict, r.Passed, r.Failed, r.Errored, r.NotTestable, notRun, r.Inputs, r.Seconds, r.DeviceSeconds, r.ReferenceSeconds)
	_, err := io.WriteString(w, b.String())
	return err
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// vectorName returns convert_int4_sat_rte for convert_int_sat_rte and width 4.
func vectorName(scalar string, n int) string {
	rest := strings.TrimPrefix(scalar, "convert_")
	typ, mods, _ := strings.Cut(rest, "_")
	name := fmt.Sprintf("convert_%s%d", typ, n)
	if mods != "" {
		name += "_" + mods
	}
	return name
}

func sortedRules(m map[string]uint64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if m[out[i]] != m[out[j]] {
			return m[out[i]] > m[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// compactNames lists conversion names, a family of names (the same
// conversion with every rounding suffix) as one with a star: convert_long_sat*.
func compactNames(names []string) string {
	var out []string
	for i := 0; i < len(names); {
		base := names[i]
		j := i + 1
		for j < len(names) && strings.HasPrefix(names[j], base+"_rt") {
			j++
		}
		if j-i == 5 { // the name without suffix and the four modes
			out = append(out, base+"*")
		} else {
			out = append(out, names[i:j]...)
		}
		i = j
	}
	return strings.Join(out, ", ")
}

// wrapList joins items, at most max of them, with a count of the rest.
func wrapList(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:max], ", ") + fmt.Sprintf(", ... (%d more)", len(items)-max)
}

// writeImpl lists the implementation-defined behaviours, conversions that
// behave alike together.
func writeImpl(b *strings.Builder, sums []*ImplSummary) {
	groups := map[string][]*ImplSummary{}
	var order []string
	for _, s := range sums {
		p := s.Pattern()
		if _, ok := groups[p]; !ok {
			order = append(order, p)
		}
		groups[p] = append(groups[p], s)
	}
	for _, p := range order {
		g := groups[p]
		var in uint64
		names := make([]string, len(g))
		for i, s := range g {
			in += s.Inputs
			names[i] = s.Conversion + " " + s.Source
		}
		fmt.Fprintf(b, "\n  %s\n  (%d conversions; %d implementation-defined inputs in their digests)\n", wrapList(names, 12), len(g), in)
		if p == "" {
			b.WriteString("      none observed\n")
			continue
		}
		// Sum the counts of each behaviour over the group.
		type agg struct {
			Behaviour
			widths map[int]bool
		}
		var list []*agg
		idx := map[string]*agg{}
		for _, s := range g {
			for _, bh := range s.Behaviours {
				k := bh.Inputs + "\x00" + bh.Result
				a := idx[k]
				if a == nil {
					a = &agg{Behaviour: bh, widths: map[int]bool{}}
					a.Count = 0
					idx[k] = a
					list = append(list, a)
				}
				a.Count += bh.Count
				for _, w := range bh.Widths {
					a.widths[w] = true
				}
			}
		}
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		for _, a := range list {
			var ws []string
			for _, w := range []int{1, 2, 3, 4, 8, 16} {
				if a.widths[w] {
					ws = append(ws, fmt.Sprint(w))
				}
			}
			fmt.Fprintf(tw, "    %s\t-> %s\t%d\t[%s]\te.g. %s %s: %s -> %s (clconv %s)\n", a.Inputs, a.Result, a.Count,
				strings.Join(ws, ","), g[0].Conversion, g[0].Source, a.Input, a.Device, a.Clconv)
		}
		tw.Flush()
	}
}
