package difftest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/clconv/clconv/clc"
)

// Options configure a run of the harness.
type Options struct {
	// Seed and N choose the programs: program i is Make(ProgramSeed(Seed, i)).
	Seed uint64
	N    int
	// Only, if not empty, runs only the programs of these indexes (of the
	// N), to look at findings again.
	Only []int
	// Config is the generator's; Config.Half must stay off against PoCL 3.1.
	Config Config
	// Exe is the binary the children run (it must call ServeChild when
	// ChildEnv is set): in the tests, the test binary itself.
	Exe string
	// Workers is how many children run at once (GOMAXPROCS when 0); Batch
	// how many programs one build holds (24 when 0).
	Workers, Batch int
	// BuildTimeout bounds a child's build of a batch (2 minutes when 0),
	// KernelTimeout its compiling and running of one kernel (30 seconds
	// when 0): a child past either is killed, and its program recorded as
	// a crash (hung).
	BuildTimeout, KernelTimeout time.Duration
	// Minimize is how many findings of each class are minimised (the
	// first ones); of the judged ones (NaNBits, and those that match a
	// Known difference) only with MinimizeJudged.
	Minimize       int
	MinimizeJudged bool
	// Log, if not nil, receives progress lines.
	Log io.Writer
}

// Finding is a program whose run on the device does not agree with clconv.
type Finding struct {
	Index  int
	Seed   uint64 // the program's own seed (Make's argument)
	Class  Class
	Diffs  []Diff
	Detail string // a build log, a crash, an error
	// Program is clconv's copy of the program, Kernel the device's.
	Program, Kernel string
	// Minimal, if the finding was minimised, is the smallest program
	// found that still shows it, in both copies, and its differences.
	Minimal       *Program
	MinimalSource string
	MinimalKernel string
	MinimalDiffs  []Diff
	MinimalDetail string
	// Known, if the finding matches an entry of the Known table, is its
	// name.
	Known string
}

// Judged reports whether f needs no new judgement: its class is NaNBits,
// which clconv's NaN rules decide, or it is a Known difference.
func (f *Finding) Judged() bool { return f.Class == NaNBits || f.Known != "" }

// Report is the outcome of a run.
type Report struct {
	Seed     uint64
	Programs int
	Device   string
	Counts   map[Class]int
	Findings []*Finding
	// Dropped lists the programs that could not be freed of undefined
	// behaviour (replaced by the next seeds, so that N programs run).
	Dropped  []string
	Children int // child processes run
	Elapsed  time.Duration
}

// ProgramSeed returns the seed of program i of a run.
func ProgramSeed(seed uint64, i int) uint64 {
	z := seed*0x9e3779b97f4a7c15 + uint64(i)*0xbf58476d1ce4e5b9
	z ^= z >> 31
	return z
}

type harness struct {
	opt      Options
	ctx      context.Context
	sem      chan struct{}
	mu       sync.Mutex
	children int
	device   string
	setupErr error
	start    time.Time
	idle     []*child
}

// kase is one program on its way through the harness.
type kase struct {
	index  int
	seed   uint64
	prog   *Program
	plain  *Printed
	vars   []clc.Var
	kernel *Printed
}

// outcome is what came of running a kernel.
type outcome struct {
	out    []byte
	class  Class // "" when it ran
	detail string
}

// Run generates opt.N programs, runs each in clconv and on the first OpenCL
// device, and compares them bit for bit.
func Run(ctx context.Context, opt Options) (*Report, error) {
	start := time.Now()
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Batch <= 0 {
		opt.Batch = 24
	}
	if opt.BuildTimeout <= 0 {
		opt.BuildTimeout = 2 * time.Minute
	}
	if opt.KernelTimeout <= 0 {
		opt.KernelTimeout = 30 * time.Second
	}
	h := &harness{opt: opt, ctx: ctx, sem: make(chan struct{}, opt.Workers), start: start}
	defer h.stopChildren()
	rep := &Report{Seed: opt.Seed, Counts: map[Class]int{}}

	// The programs, their runs in clconv and their kernels.
	var cases []*kase
	index := 0
	for i := 0; index < opt.N; i++ {
		seed := ProgramSeed(opt.Seed, i)
		p, err := Make(seed, opt.Config)
		if err != nil {
			rep.Dropped = append(rep.Dropped, firstLine(err.Error()))
			continue
		}
		c, err := newCase(index, seed, p)
		if err != nil {
			return nil, err
		}
		index++
		if len(opt.Only) == 0 || slices.Contains(opt.Only, c.index) {
			cases = append(cases, c)
		}
	}
	rep.Programs = len(cases)
	h.logf("generated %d programs (%d dropped) in %v", index, len(rep.Dropped), time.Since(start).Round(time.Millisecond))

	jobs := make([]*Printed, len(cases))
	for i, c := range cases {
		jobs[i] = c.kernel
	}
	outs := h.runJobs(jobs)
	if h.setupErr != nil {
		return nil, h.setupErr
	}
	var differ []*Finding
	var differCases []*kase
	for i, c := range cases {
		o := outs[i]
		f := &Finding{Index: c.index, Seed: c.seed, Program: c.plain.Src, Kernel: c.kernel.Src}
		if o.class != "" {
			f.Class, f.Detail = o.class, o.detail
			rep.Findings = append(rep.Findings, f)
			continue
		}
		diffs, err := compare(c.vars, c.kernel.Slots, o.out, false)
		if err != nil {
			return nil, fmt.Errorf("program %d: %v", c.index, err)
		}
		if len(diffs) == 0 {
			rep.Counts[Agree]++
			continue
		}
		f.Diffs = diffs
		differ = append(differ, f)
		differCases = append(differCases, c)
	}
	// Tell NaN bits from other differences: run the programs again with
	// every NaN made canonical before as_ reads it.
	if len(differ) > 0 {
		classes, err := h.classify(differCases)
		if err != nil {
			return nil, err
		}
		for i, f := range differ {
			f.Class = classes[i]
			rep.Findings = append(rep.Findings, f)
		}
	}
	sort.Slice(rep.Findings, func(i, j int) bool { return rep.Findings[i].Index < rep.Findings[j].Index })
	for _, f := range rep.Findings {
		rep.Counts[f.Class]++
	}
	if err := h.attribute(rep.Findings, cases); err != nil {
		return nil, err
	}
	h.logf("compared: %s (%d child processes)", countLine(rep.Counts), h.children)

	// Minimise the first findings of each class (and of each known
	// difference).
	if opt.Minimize > 0 {
		done := map[string]int{}
		for _, f := range rep.Findings {
			key := string(f.Class) + " " + f.Known
			if done[key] >= opt.Minimize || f.Judged() && !opt.MinimizeJudged {
				continue
			}
			done[key]++
			c := caseOf(cases, f.Index)
			h.logf("minimising program %d (%s)", f.Index, f.Class)
			if err := h.minimizeFinding(f, c); err != nil {
				return nil, err
			}
		}
	}
	rep.Device = h.device
	rep.Children = h.children
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func caseOf(cases []*kase, index int) *kase {
	for _, c := range cases {
		if c.index == index {
			return c
		}
	}
	return nil
}

// newCase prints p's copies and runs clconv's.
func newCase(index int, seed uint64, p *Program) (*kase, error) {
	c := &kase{index: index, seed: seed, prog: p}
	c.plain = Print(p, Form{})
	vars, err := Interpret(c.plain.Src, nil)
	if err != nil {
		return nil, fmt.Errorf("program %d (seed %#x): clconv: %v", index, seed, err)
	}
	c.vars = vars
	// Half the kernels read their constants from memory, so that the
	// device's compiler cannot fold them: both its folding and its code
	// are checked.
	c.kernel = Print(p, Form{Kernel: true, Name: fmt.Sprintf("p%d", index), Loads: index%2 == 1})
	return c, nil
}

// classify runs the canonical-NaN copies of programs that differ and says
// which differ only in NaN bits.
func (h *harness) classify(cases []*kase) ([]Class, error) {
	jobs := make([]*Printed, len(cases))
	vars := make([][]clc.Var, len(cases))
	for i, c := range cases {
		src := Print(c.prog, Form{Canon: true}).Src
		v, err := Interpret(src, nil)
		if err != nil {
			return nil, fmt.Errorf("program %d with canonical NaNs: clconv: %v", c.index, err)
		}
		vars[i] = v
		jobs[i] = Print(c.prog, Form{Kernel: true, Name: fmt.Sprintf("c%d", c.index), Loads: c.index%2 == 1, Canon: true})
	}
	outs := h.runJobs(jobs)
	classes := make([]Class, len(cases))
	for i := range cases {
		classes[i] = Value
		if outs[i].class != "" {
			continue
		}
		diffs, err := compare(vars[i], jobs[i].Slots, outs[i].out, true)
		if err != nil {
			return nil, err
		}
		if len(diffs) == 0 {
			classes[i] = NaNBits
		}
	}
	return classes, nil
}

// runJobs runs kernels on the device, opt.Batch to a build, opt.Workers
// builds at once. A batch whose build fails or whose child dies is split
// until the kernel responsible is alone.
func (h *harness) runJobs(jobs []*Printed) []outcome {
	outs := make([]outcome, len(jobs))
	var wg sync.WaitGroup
	for lo := 0; lo < len(jobs); lo += h.opt.Batch {
		hi := min(lo+h.opt.Batch, len(jobs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.sem <- struct{}{}
			defer func() { <-h.sem }()
			h.runBatch(jobs[lo:hi], outs[lo:hi])
		}()
	}
	wg.Wait()
	return outs
}

func (h *harness) runBatch(jobs []*Printed, outs []outcome) {
	if len(jobs) == 0 || h.failed() {
		return
	}
	req := &request{Source: KernelHeader}
	for _, j := range jobs {
		req.Source += "\n" + j.Src
		req.Kernels = append(req.Kernels, kernelRun{Name: j.Name, In: j.In, OutSize: j.OutSize})
	}
	hdr, results, err := h.do(req)
	var crash *errCrash
	switch {
	case err != nil && !errors.As(err, &crash):
		h.fail(err)
		return
	case hdr != nil && hdr.Setup != "":
		h.fail(errors.New(hdr.Setup))
		return
	case hdr == nil || hdr.BuildLog != "":
		// The build failed or killed the child: split the batch until the
		// program responsible is alone.
		if len(jobs) > 1 {
			mid := len(jobs) / 2
			h.runBatch(jobs[:mid], outs[:mid])
			h.runBatch(jobs[mid:], outs[mid:])
			return
		}
		if hdr == nil {
			outs[0] = outcome{class: Crash, detail: err.Error()}
		} else {
			outs[0] = outcome{class: BuildError, detail: hdr.BuildLog}
		}
		return
	}
	h.mu.Lock()
	h.device = hdr.Device
	h.mu.Unlock()
	for i, r := range results {
		if r.Err != "" {
			outs[i] = outcome{class: RunError, detail: r.Err}
		} else {
			outs[i] = outcome{out: r.Out}
		}
	}
	if n := len(results); n < len(jobs) && err != nil {
		// The child died compiling or running kernel n: that one crashed;
		// the rest of the batch runs in a new child.
		outs[n] = outcome{class: Crash, detail: err.Error()}
		h.runBatch(jobs[n+1:], outs[n+1:])
	}
}

// do runs req in an idle child, starting one if none is idle; a child that
// crashed is not reused.
func (h *harness) do(req *request) (*header, []result, error) {
	h.mu.Lock()
	var c *child
	if n := len(h.idle); n > 0 {
		c, h.idle = h.idle[n-1], h.idle[:n-1]
	}
	h.mu.Unlock()
	if c == nil {
		var err error
		if c, err = startChild(h.opt.Exe); err != nil {
			return nil, nil, err
		}
		h.mu.Lock()
		h.children++
		h.mu.Unlock()
	}
	hdr, results, err := c.do(h.ctx, req, h.opt.BuildTimeout, h.opt.KernelTimeout)
	if err == nil {
		h.mu.Lock()
		h.idle = append(h.idle, c)
		h.mu.Unlock()
	}
	return hdr, results, err
}

// stopChildren ends the idle children.
func (h *harness) stopChildren() {
	h.mu.Lock()
	idle := h.idle
	h.idle = nil
	h.mu.Unlock()
	for _, c := range idle {
		c.stop()
	}
}

func (h *harness) fail(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.setupErr == nil {
		h.setupErr = err
	}
}

func (h *harness) failed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.setupErr != nil || h.ctx.Err() != nil
}

func (h *harness) logf(format string, args ...any) {
	if h.opt.Log != nil {
		fmt.Fprintf(h.opt.Log, "[%5.1fs] "+format+"\n", append([]any{time.Since(h.start).Seconds()}, args...)...)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func countLine(counts map[Class]int) string {
	var parts []string
	for _, c := range []Class{Agree, NaNBits, Value, BuildError, Crash, RunError} {
		if counts[c] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, counts[c]))
		}
	}
	return strings.Join(parts, ", ")
}
