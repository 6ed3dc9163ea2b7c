// Package verify proves a real OpenCL device's conversions against clconv's
// reference, bit for bit.
//
// For every scalar conversion (each of the eleven source kinds to each
// convert_ function of the eleven destination kinds: _sat for integer
// destinations, every rounding suffix and none) it builds an OpenCL C kernel
// that generates the inputs of the digest of ORACLES.md on the device,
// converts them, makes the results canonical and sums
// fmix(fmix(i + 0x9E3779B97F4A7C15) ^ o) per slice of the input space, so a
// device proves 2^32 results while sending back only sums. Each slice's sum
// is compared with the CPU reference (package digest, computed while the
// device works); for every slice that differs the kernel runs again writing
// its raw results, and each one is compared with convert.Bits to list the
// exact failing inputs and the rule of the specification each breaks.
//
// Non-saturated float -> integer conversions of NaN or of values that round
// out of range are implementation-defined: the kernel replaces their results
// by 0xDEADDEADDEADDEAD in the digest (ORACLES.md), and the results the
// device gives for them are summarised separately, never reported as
// failures.
//
// Besides the digests, each conversion runs on the edge values of its
// source type (package testvals: limits, ties, NaN payloads, subnormals),
// every conversion runs on vectors of 2, 3, 4, 8 and 16 elements (vloadn,
// convert_<dst>n, vstoren) and the as_type rules are checked.
//
// Half without cl_khr_fp16 is read with vload_half and written with
// vstore_half_<mode>; conversions that cannot be expressed exactly that way
// (integer -> half) are reported as not testable, like double without
// cl_khr_fp64.
package verify

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/testvals"
)

// Options control Run.
type Options struct {
	Only  string // --only: which conversions (see ParseFilter); empty means all
	Quick bool   // check 2^24 inputs per 32/64-bit source (see Slices) instead of all

	// Widths are the vector widths checked; nil means 2, 3, 4, 8 and 16.
	Widths []int
	// NoVectors and NoAsType skip the vector width and as_type checks.
	NoVectors bool
	NoAsType  bool
	// Lanes is the number of vector lanes per source kind and width
	// (default 1<<16): the edge values, then biased random values.
	Lanes int
	// Examples is the number of failing inputs listed per conversion,
	// broken rule and check (digest, edges, vector; default 3); all are
	// counted.
	Examples int
	// NoFP16 tests half through vload_half and vstore_half even on a
	// device with cl_khr_fp16.
	NoFP16 bool
	// BuildOptions are passed to the OpenCL compiler (default none: no
	// fast-math, denormals kept).
	BuildOptions string
	// Cache, if set, supplies complete reference digests for a full run and
	// receives the ones computed (see RefCache).
	Cache *RefCache
	// NoShipped makes a full run compute every reference digest on the CPU
	// instead of taking the shipped ones (Shipped) where Cache lacks them.
	NoShipped bool
	// Programs is the cache of program binaries (nil: none; the CLI uses
	// DefaultBinCache).
	Programs *BinCache
	// Slices is the on-disk cache of the reference digests of slices
	// shorter than a chunk (a quick run's; nil: none; the CLI uses
	// DefaultSliceCache).
	Slices *SliceCache
	// Builders is the number of threads that build programs or load their
	// binaries in this process (default GOMAXPROCS, at most 16).
	Builders int
	// Worker is the command line that starts a build process (WorkerMain;
	// the CLI gives its own executable, which WorkerEnv makes one): the
	// programs not in the binary cache are built from source in
	// BuildProcs such processes at once, since the drivers build one
	// program at a time per process (see worker.go). Nil: every program is
	// built in this process.
	Worker []string
	// BuildProcs is the number of build processes: 0 chooses (one per
	// program to build, up to one less than GOMAXPROCS and 16; none where
	// that is fewer than 2), a negative number starts none.
	BuildProcs int
	// ProgramSize is the most conversions in one program (default
	// DefaultProgramSize).
	ProgramSize int
	// Notice, if set, receives notes as they happen (a cache entry that was
	// rebuilt); they are in the report's Notices too.
	Notice func(string)
	// Fault injects a device bug for tests (see Fault).
	Fault *Fault
	// Context, if set, interrupts the run when done: the conversions not
	// finished by then are reported as not run (StatusNotRun) and the
	// report is marked Interrupted.
	Context context.Context
	// Progress, if set, is called before each conversion (and the as_type
	// check) with the number done so far, the total and what starts now
	// ("convert_int_sat_rte float"), and at the end with done == total.
	Progress func(done, total int, current string)
}

// DefaultWidths are the vector widths checked by default.
var DefaultWidths = []int{2, 3, 4, 8, 16}

// Run verifies the device's conversions. It returns an error only when the
// run cannot start (a bad pattern, no context on the device); everything the
// device gets wrong or cannot do is in the report.
//
// The conversions of a source kind are built into one program (or a few:
// Options.ProgramSize), with one kernel per destination kind that computes
// the digests of all the pair's conversions in one pass. Programs are built
// (or loaded from Options.Programs) on several threads while the kernels
// already built run, and the CPU reference digests are computed meanwhile by
// another goroutine.
func Run(dev *opencl.Device, o Options) (*Report, error) {
	filter, err := ParseFilter(o.Only)
	if err != nil {
		return nil, err
	}
	if o.Widths == nil {
		o.Widths = DefaultWidths
	}
	if o.NoVectors {
		o.Widths = nil
	}
	for _, n := range o.Widths {
		if n == 1 || !cltype.ValidWidth(n) {
			return nil, fmt.Errorf("vector width %d: want 2, 3, 4, 8 or 16", n)
		}
	}
	if o.Lanes <= 0 {
		o.Lanes = 1 << 16
	}
	if o.Examples <= 0 {
		o.Examples = 3
	}
	if o.Builders <= 0 {
		o.Builders = min(runtime.GOMAXPROCS(0), 16)
	}
	if o.ProgramSize <= 0 {
		o.ProgramSize = DefaultProgramSize
	}
	if !o.NoShipped {
		base, err := Shipped()
		if err != nil {
			return nil, fmt.Errorf("the shipped reference digests: %v", err)
		}
		if o.Cache == nil {
			o.Cache = NewRefCache()
		}
		o.Cache.base = base
	}
	start := time.Now()
	caps := Caps{FP64: dev.FP64(), FP16: dev.FP16() && !o.NoFP16}
	rep := &Report{Device: deviceInfo(dev), Quick: o.Quick, Only: o.Only, Started: start,
		Cache: &CacheReport{Dir: o.Programs.describe()}}
	if o.Fault != nil {
		rep.Fault = o.Fault.Key + ":" + o.Fault.Kind
	}
	r := &runner{o: o, caps: caps, rep: rep, vecInputs: map[cltype.Kind][]uint64{},
		key: binKey(dev, o.BuildOptions), start: start}

	// Select the conversions and queue the reference digests of the
	// testable ones; a goroutine computes them in order while the device works.
	var pairs [][]*task
	var refs []*refJob
	for _, c := range All() {
		if !filter.Match(c) {
			continue
		}
		t := &task{c: c, res: &ConvResult{Conversion: c.Op.Name(), Source: c.Src.String()}}
		rep.Conversions = append(rep.Conversions, t.res)
		p := PathOf(c, caps)
		t.res.Via = p.Via
		if !p.Testable {
			t.res.Status, t.res.Reason = StatusNotTestable, p.Reason
			continue
		}
		t.slices = Slices(c.Src, o.Quick)
		t.ref = &refJob{c: c, slices: t.slices, done: make(chan struct{})}
		refs = append(refs, t.ref)
		if n := len(pairs); n > 0 && pairs[n-1][0].c.Src == c.Src && pairs[n-1][0].c.Op.Dst.Kind == c.Op.Dst.Kind {
			pairs[n-1] = append(pairs[n-1], t)
		} else {
			pairs = append(pairs, []*task{t})
		}
	}
	if len(rep.Conversions) == 0 {
		return nil, fmt.Errorf("--only %q matches no conversion (patterns match \"NAME SOURCE\", e.g. \"convert_int_sat_rte float\")", o.Only)
	}
	progs := groupPrograms(pairs, o.ProgramSize)
	for _, p := range progs {
		convs := make([][]digest.Conversion, len(p.pairs))
		for i, pr := range p.pairs {
			for _, t := range pr {
				convs[i] = append(convs[i], t.c)
			}
		}
		p.source = programSource(convs, caps, o.Fault, o.Widths)
	}
	var asProg *program
	all := progs
	if !o.NoAsType {
		asProg = asTypeProgram(caps)
		all = append(slices.Clone(progs), asProg)
	}
	// The programs not in the binary cache go to build processes, started
	// before this process opens the device so that theirs open meanwhile.
	var toBuild []*program
	for i, p := range all {
		p.id, p.info.Name = i, p.name
		p.srcSum = sha256.Sum256([]byte(p.source))
		if !o.Programs.has(r.key, p.srcSum) {
			toBuild = append(toBuild, p)
		}
	}
	if k := workerCount(o, len(toBuild)); k > 0 {
		r.workers = startWorkers(o.Worker, k, dev, r.key, o.BuildOptions, toBuild, r.notice)
		defer r.workers.stop()
	}
	ctx, err := opencl.NewContext(dev)
	if err != nil {
		return nil, err
	}
	defer ctx.Release()
	r.dev = &device{ctx: ctx, timing: &timing{}}
	r.main = r.dev
	defer func() {
		for _, d := range r.devs {
			d.release()
			if d != r.main {
				d.ctx.Release()
			}
		}
	}()
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	defer halt()
	// A quick run takes the sums of its slices' reference of the 32- and
	// 64-bit sources from quick.tsv (quickref.go) unless told not to.
	var quick map[string]quickSum
	if o.Quick && !o.NoShipped {
		var qerr error
		if quick, qerr = shippedQuick(); qerr != nil {
			n := "quick reference: " + qerr.Error() + "; computing it on the CPU"
			rep.Notices = append(rep.Notices, n)
			if o.Notice != nil {
				o.Notice(n)
			}
		}
	}
	var refTime time.Duration
	refsDone := make(chan struct{})
	go func() {
		defer close(refsDone)
		// Equivalent conversions (digest.Conversion.Representative) over
		// the same slices have the same reference: compute it once.
		byClass := map[string]*refJob{}
		for _, j := range refs {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			if q, ok := quick[classKey(j.c)]; ok {
				j.shipped, j.impl = &q, q.impl
			} else if p := byClass[classKey(j.c)]; p != nil {
				j.sums, j.impl = p.sums, p.impl
			} else {
				j.sums, j.impl = o.Slices.reference(j.c, j.slices, o.Cache)
				byClass[classKey(j.c)] = j
			}
			refTime += time.Since(t0)
			close(j.done)
		}
	}()
	buildsDone := r.startBuilders(all, stop)

	total := len(refs)
	if !o.NoAsType {
		total++
	}
	done := 0
	r.progress = func(current string, n int) {
		if o.Progress != nil {
			o.Progress(done, total, current)
		}
		done += n
	}
	for _, p := range progs {
		r.runProgram(p)
	}
	if r.interrupted() {
		halt() // the reference goroutine and the builders stop at their next item
	}
	if !o.NoAsType && !r.interrupted() {
		r.progress("as_type", 1)
		rep.AsType = r.asType(asProg)
	}
	halt()
	<-refsDone
	<-buildsDone
	r.workers.stop()
	for _, p := range all {
		if p.prog != nil { // built, never run (interrupted)
			p.prog.Release()
		}
	}
	if o.Progress != nil {
		o.Progress(total, total, "")
	}
	for _, c := range rep.Conversions {
		switch c.Status {
		case StatusPass:
			rep.Passed++
		case StatusFail:
			rep.Failed++
		case StatusNotTestable:
			rep.NotTestable++
		case StatusError:
			rep.Errored++
		case StatusNotRun:
			rep.NotRun++
		}
		rep.Inputs += c.Inputs
	}
	for _, w := range o.Widths {
		if v := r.widths[w]; v != nil {
			rep.Vectors = append(rep.Vectors, v)
		}
	}
	r.noticeNow()
	rep.Seconds = time.Since(start).Seconds()
	d := r.main
	rep.Times = Times{Wall: rep.Seconds, Build: r.buildTime.Seconds(), BuildWait: d.buildWait.Seconds(),
		Run: d.run.Seconds(), Transfer: d.transfer.Seconds(), Reference: refTime.Seconds(),
		ReferenceWait: d.refWait.Seconds(), Narrowing: d.narrowing.Seconds(), Check: d.check.Seconds(),
		Programs: len(all), Builders: o.Builders}
	if w := r.workers; w != nil {
		rep.Times.Processes, rep.Times.ProcessBuild, rep.Times.ProcessStart = w.started, w.build.Seconds(), w.slowInit.Seconds()
	}
	for _, p := range all {
		rep.Programs = append(rep.Programs, p.info)
	}
	rep.DeviceSeconds = (d.buildWait + d.run + d.transfer).Seconds()
	rep.ReferenceSeconds = refTime.Seconds()
	rep.groupFailures()
	return rep, nil
}

// DefaultProgramSize is the default of Options.ProgramSize: the conversions
// of a source kind in one program. Measured on the GPU machine, NVIDIA's
// driver and PoCL 5 both build one program at a time however many threads
// ask (a cold quick run's builds took 28 s on the H100 with 12 programs and
// 29 s with 103, one per pair), and PoCL's fixed cost per program is high.
var DefaultProgramSize = 100

// task is one conversion's check.
type task struct {
	c       digest.Conversion
	res     *ConvResult
	slices  []Slice
	ref     *refJob
	check   *checker
	started time.Time
}

// refJob is one conversion's CPU reference, computed in the background: the
// digest of each slice (sums), or for a quick run of a 32- or 64-bit source
// their sum shipped in quick.tsv (shipped; sums is then nil and computed
// only where the device's sum differs).
type refJob struct {
	c       digest.Conversion
	slices  []Slice
	done    chan struct{}
	sums    []uint64
	impl    uint64
	shipped *quickSum
}

// program is one OpenCL program: the pairs of conversions it holds (none for
// the as_type program) and, once built, the built program.
type program struct {
	name   string
	pairs  [][]*task
	source string
	built  chan struct{} // closed when prog or err is set
	prog   *opencl.Program
	err    error
	dev    *device // the context it is built in
	cached bool    // prog came from the binary cache
	stored bool    // its binary was stored in the cache
	srcSum [32]byte
	id     int
	worker chan workerOut // the build processes' answer, where they build it
	info   ProgramTime
}

// groupPrograms puts consecutive pairs of one source kind into programs of
// at most size conversions (at least one pair each).
func groupPrograms(pairs [][]*task, size int) []*program {
	var progs []*program
	n := 0
	for _, p := range pairs {
		last := len(progs) - 1
		if last < 0 || progs[last].pairs[0][0].c.Src != p[0].c.Src || n+len(p) > size {
			progs = append(progs, &program{built: make(chan struct{})})
			last, n = last+1, 0
		}
		progs[last].pairs = append(progs[last].pairs, p)
		n += len(p)
	}
	for _, p := range progs {
		var dsts []string
		for _, pr := range p.pairs {
			dsts = append(dsts, pr[0].c.Op.Dst.Kind.String())
		}
		p.name = fmt.Sprintf("%s -> %s", p.pairs[0][0].c.Src, strings.Join(dsts, ","))
	}
	return progs
}

type runner struct {
	o         Options
	caps      Caps
	rep       *Report
	dev       *device
	key       string // the binary cache's key of the device (binKey)
	vecInputs map[cltype.Kind][]uint64
	widths    map[int]*WidthResult
	progress  func(current string, n int) // announces the next n conversions
	rerunIn   []uint64                    // rerun's buffers, kept between calls
	rerunGot  []uint64
	nanIdx    map[[3]uint64][]uint64 // nanInputs' lists, for one source kind
	nanIdxSrc cltype.Kind
	nanLists  map[uint64][]uint64 // rerunNaNs' device results per slice, for one pair

	main    *device   // the context Run made
	devs    []*device // the contexts programs are built in (main)
	workers *workerPool
	start   time.Time

	mu        sync.Mutex
	buildTime time.Duration // summed over the builders
	notices   []string      // the runner's own, for noticeNow
}

// notice records a note for the report and Options.Notice (noticeNow).
func (r *runner) notice(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notices = append(r.notices, fmt.Sprintf(format, args...))
}

// startBuilders builds the programs, in order, on o.Builders goroutines; the
// returned channel is closed when they have all stopped.
func (r *runner) startBuilders(progs []*program, stop chan struct{}) chan struct{} {
	next := make(chan *program, len(progs))
	for _, p := range progs {
		next <- p
	}
	close(next)
	done := make(chan struct{})
	// Every builder builds in Run's context: the drivers measured
	// (NVIDIA's, PoCL) serialise builds process-wide anyway, and more
	// contexts cost seconds to create (NVIDIA) and memory for their buffers.
	// The builders still overlap the builds with the kernels already built,
	// and the cache loads in parallel.
	nb := min(r.o.Builders, len(progs))
	r.devs = []*device{r.main}
	var wg sync.WaitGroup
	for i := range nb {
		d := r.devs[i%len(r.devs)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				select {
				case <-stop:
					p.err = errInterrupted
					close(p.built)
					continue
				default:
				}
				r.build(p, d, stop)
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// build builds p, in d's context: from the binary cache, from the binary
// a build process sent, or from source.
func (r *runner) build(p *program, d *device, stop chan struct{}) {
	defer close(p.built)
	p.dev = d
	var here time.Duration // loading or building in this process
	defer func() {
		p.info.Ready = time.Since(r.start).Seconds()
		r.mu.Lock()
		r.buildTime += here
		r.mu.Unlock()
	}()
	cache := r.o.Programs
	t0 := time.Now()
	if bin := cache.get(r.key, p.srcSum, p.name); bin != nil {
		prog, err := d.ctx.BuildBinary(bin, r.o.BuildOptions)
		here += time.Since(t0)
		p.info.Load = time.Since(t0).Seconds()
		if err == nil {
			p.prog, p.cached, p.info.From = prog, true, "cache"
			return
		}
		cache.reject(r.key, p.srcSum, p.name, err)
	}
	if p.worker != nil {
		var out workerOut
		var interrupt <-chan struct{}
		if r.o.Context != nil {
			interrupt = r.o.Context.Done()
		}
		select {
		case out = <-p.worker:
		case <-stop:
			p.err = errInterrupted
			return
		case <-interrupt:
			p.err = errInterrupted
			return
		}
		p.info.Build = out.seconds
		if out.err == nil {
			t0 := time.Now()
			prog, err := d.ctx.BuildBinary(out.bin, r.o.BuildOptions)
			here += time.Since(t0)
			p.info.Load = time.Since(t0).Seconds()
			if err == nil {
				p.prog, p.info.From = prog, "build process"
				if cache != nil {
					p.stored = cache.put(r.key, p.srcSum, out.bin)
				}
				return
			}
			r.notice("the driver rejected the binary a build process made of %s (%s); building it in this process", p.name, firstLine(err.Error()))
		}
		// Else the build process said why it could not build p (a
		// compiler error is reported by the build here) or noted why it
		// failed.
	}
	t0 = time.Now()
	p.prog, p.err = d.ctx.Build(p.source, r.o.BuildOptions)
	here += time.Since(t0)
	p.info.Build += time.Since(t0).Seconds()
	p.info.From = "built"
}

// wait waits for p's build and returns the program; r.dev is then the
// device (context) it was built in.
func (r *runner) wait(p *program) (*opencl.Program, error) {
	t0 := time.Now()
	<-p.built
	r.main.buildWait += time.Since(t0)
	if p.dev != nil {
		r.dev = p.dev
	}
	r.noticeNow()
	return p.prog, p.err
}

// done stores p's binary in the cache if it was built from source, counts
// p and releases it. The binary is taken after the kernels ran: PoCL's then
// holds the kernels it compiled at their first launch (one generic
// function each, DriverSettings); taken before, it would make PoCL compile
// them for the binary, and PoCL 3.1 compiles them again at the first
// launch.
func (r *runner) done(p *program) {
	if p.prog == nil {
		return
	}
	if cache := r.o.Programs; cache != nil && !p.cached && !p.stored {
		t0 := time.Now()
		if bin, err := p.prog.Binary(); err != nil {
			cache.notice("program cache: the driver gave no binary for %s: %v", p.name, err)
		} else {
			p.stored = cache.put(r.key, p.srcSum, bin)
		}
		r.main.buildWait += time.Since(t0)
	}
	switch {
	case p.cached:
		r.rep.Cache.Loaded++
	default:
		r.rep.Cache.Built++
		if p.info.From == "build process" {
			r.rep.Cache.Processes++
		}
	}
	if p.stored {
		r.rep.Cache.Stored++
	}
	r.noticeNow()
	p.prog.Release()
	p.prog = nil
}

// noticeNow passes the binary cache's notices to Options.Notice.
func (r *runner) noticeNow() {
	r.mu.Lock()
	own := r.notices
	r.notices = nil
	r.mu.Unlock()
	for _, n := range slices.Concat(r.o.Programs.takeNotices(), r.o.Slices.takeNotices(), own) {
		r.rep.Notices = append(r.rep.Notices, n)
		if r.o.Notice != nil {
			r.o.Notice(n)
		}
	}
}

// interrupted reports whether Options.Context is done, and marks the report.
func (r *runner) interrupted() bool {
	if r.o.Context == nil || r.o.Context.Err() == nil {
		return false
	}
	r.rep.Interrupted = true
	return true
}

// errInterrupted stops a conversion's check when the run is interrupted.
var errInterrupted = errors.New("interrupted")

// runProgram checks the conversions of one program, pair by pair.
func (r *runner) runProgram(p *program) {
	for _, pr := range p.pairs {
		for _, t := range pr {
			t.check = newChecker(t.c, t.res, r.o.Examples)
		}
	}
	notRun := func(pr []*task) {
		for _, t := range pr {
			t.res.Status, t.res.Reason = StatusNotRun, "the run was interrupted"
		}
	}
	if r.interrupted() {
		for _, pr := range p.pairs {
			notRun(pr)
		}
		return
	}
	prog, err := r.wait(p)
	if err != nil {
		for _, pr := range p.pairs {
			if errors.Is(err, errInterrupted) {
				notRun(pr)
				continue
			}
			r.progress(Key(pr[0].c), len(pr))
			for _, t := range pr {
				t.res.Status, t.res.Reason = StatusError, "building the kernels failed: "+err.Error()
				t.check.finish(r.rep)
			}
		}
		return
	}
	defer r.done(p)
	// One kernel object for the pairs' modes and one for modeReduce, so
	// that each keeps its arguments; both are the program's one kernel,
	// which the driver compiles once.
	var k, red *opencl.Kernel
	if k, err = prog.Kernel(kernelName); err == nil {
		defer k.Release()
		if red, err = prog.Kernel(kernelName); err == nil {
			defer red.Release()
		}
	}
	for i, pr := range p.pairs {
		if r.interrupted() {
			notRun(pr)
			continue
		}
		r.progress(Key(pr[0].c), len(pr))
		t0 := time.Now()
		if err == nil {
			err = r.runPair(pairKernel{k, uint32(i)}, pairKernel{red, 0}, pr)
		}
		switch {
		case errors.Is(err, errInterrupted):
			notRun(pr)
		case err != nil:
			for _, t := range pr {
				if t.res.Status == "" {
					t.res.Status, t.res.Reason = StatusError, err.Error()
				}
			}
		}
		for _, t := range pr {
			t.res.Seconds += time.Since(t0).Seconds() / float64(len(pr))
			t.check.finish(r.rep)
		}
		if k != nil && red != nil {
			err = nil
		}
	}
}

// runPair runs the digest, edge and vector checks of one pair's conversions.
func (r *runner) runPair(k, red pairKernel, p []*task) error {
	sums, nans, err := r.dev.digest(k, red, p[0].c.Src, p[0].slices, len(p), r.interrupted)
	if err != nil {
		return err
	}
	r.nanLists = map[uint64][]uint64{}
	defer func() { r.nanLists = nil }()
	edges := testvals.Edges(p[0].c.Src)
	got, err := r.dev.list(k, edges, len(p))
	if err != nil {
		return err
	}
	for i, t := range p {
		t0 := time.Now()
		t.res.Edges = len(edges)
		t.check.compare("edges", edges, got[i*len(edges):(i+1)*len(edges)], 1)
		r.dev.check += time.Since(t0)
	}
	for i, t := range p {
		var n []uint64
		if nans != nil {
			n = nans[i]
		}
		if err := r.compareDigests(k, uint32(i), len(p), t, sums[i], n); err != nil {
			return err
		}
	}
	if len(r.o.Widths) > 0 && !r.interrupted() {
		if err := r.runVectors(k, p); err != nil {
			r.rep.Errors = append(r.rep.Errors, fmt.Sprintf("vector check %s -> %s: %v", p[0].c.Src, p[0].c.Op.Dst.Kind, err))
		}
	}
	return nil
}

// compareDigests compares a conversion's device digests with the reference
// and narrows every slice that differs to its failing inputs. nans, for a
// floating source, are the device's digests of each slice's NaN inputs
// alone: where the rest of the slice agrees with the reference, only its NaN
// inputs are run again and compared (NaNs are where devices go wrong, in
// every chunk of a 64-bit source).
func (r *runner) compareDigests(k pairKernel, op uint32, nops int, t *task, sums, nans []uint64) error {
	res := t.res
	t0 := time.Now()
	<-t.ref.done
	r.dev.refWait += time.Since(t0)
	res.Slices = len(t.slices)
	res.ImplDefined = t.ref.impl
	ref := t.ref.sums
	if q := t.ref.shipped; q != nil {
		var total uint64
		for _, s := range sums {
			total += s
		}
		if total == q.total {
			for _, s := range t.slices {
				res.Inputs += s.Len
			}
			return nil
		}
		// Some slice differs: compute every slice's reference to find it.
		t0 := time.Now()
		ref, _ = r.o.Slices.reference(t.c, t.slices, r.o.Cache)
		r.dev.refWait += time.Since(t0)
	}
	for j, s := range t.slices {
		res.Inputs += s.Len
		if sums[j] == ref[j] {
			continue
		}
		if r.interrupted() {
			return errInterrupted
		}
		res.BadSlices++
		before := res.Failing
		narrowed := false
		if nans != nil {
			var err error
			if narrowed, err = r.rerunNaNs(k, op, nops, t, s, sums[j]-nans[j], ref[j]); err != nil {
				return err
			}
		}
		if !narrowed {
			if err := r.rerun(k, op, t, s); err != nil {
				return err
			}
		}
		if res.Failing == before {
			r.rep.Errors = append(r.rep.Errors, fmt.Sprintf("%s: the digest of inputs %d..%d differs (device %016x, reference %016x) but every result agrees when rerun one by one: the device is not deterministic or miscomputes the digest",
				Key(t.c), s.Start, s.Start+s.Len-1, sums[j], ref[j]))
		}
	}
	return nil
}

// nanInputs returns the indices of the NaN inputs of a slice of a floating
// source, computed once per slice for all the conversions of a source.
func (r *runner) nanInputs(src cltype.Kind, s Slice) []uint64 {
	key := [3]uint64{uint64(src), s.Start, s.Len}
	if v, ok := r.nanIdx[key]; ok {
		return v
	}
	nb := int((s.Len + batchLen - 1) / batchLen)
	per := make([][]uint64, nb)
	parallel(nb, func(next func() (int, bool)) {
		for i, ok := next(); ok; i, ok = next() {
			var v []uint64
			for j := s.Start + uint64(i)*batchLen; j < min(s.Start+s.Len, s.Start+uint64(i+1)*batchLen); j++ {
				if digestspec.IsNaN(src, digestspec.Input(src, j)) {
					v = append(v, j)
				}
			}
			per[i] = v
		}
	})
	var all []uint64
	for _, v := range per {
		all = append(all, v...)
	}
	if r.nanIdx == nil || r.nanIdxSrc != src {
		r.nanIdx, r.nanIdxSrc = map[[3]uint64][]uint64{}, src
	}
	r.nanIdx[key] = all
	return all
}

// rerunNaNs narrows a differing slice to its NaN inputs when the device's
// digest of the other inputs (rest: the slice's digest less that of its
// NaNs) equals the reference's: it computes the reference's digest of the
// NaN inputs, and where the rest agrees, runs the NaN inputs again (list mode:
// every conversion of the pair at once, kept for the pair's other
// conversions) and compares each. It reports false, having done nothing else,
// when the rest differs too.
func (r *runner) rerunNaNs(k pairKernel, op uint32, nops int, t *task, s Slice, rest, ref uint64) (bool, error) {
	t0 := time.Now()
	idx := r.nanInputs(t.c.Src, s)
	in := make([]uint64, len(idx))
	for i, j := range idx {
		in[i] = digestspec.Input(t.c.Src, j)
	}
	e := expectAll(t.c, in)
	var nanRef uint64
	for i, j := range idx {
		nanRef += digestspec.Term(j, e.canon[i])
	}
	r.dev.narrowing += time.Since(t0)
	if rest != ref-nanRef {
		return false, nil
	}
	got, ok := r.nanLists[s.Start]
	if !ok {
		got = make([]uint64, 0, len(in)*nops)
		const piece = 1 << 20
		all := make([][]uint64, nops)
		for lo := 0; lo < len(in); lo += piece {
			part := in[lo:min(len(in), lo+piece)]
			g, err := r.dev.list(k, part, nops)
			if err != nil {
				return false, err
			}
			for q := range nops {
				all[q] = append(all[q], g[q*len(part):(q+1)*len(part)]...)
			}
		}
		for q := range nops {
			got = append(got, all[q]...)
		}
		r.nanLists[s.Start] = got
	}
	t0 = time.Now()
	t.check.compareExpected("digest", in, got[int(op)*len(in):(int(op)+1)*len(in)], e)
	r.dev.narrowing += time.Since(t0)
	return true, nil
}

// rerun compares every raw result of a slice with the library.
func (r *runner) rerun(k pairKernel, op uint32, t *task, s Slice) error {
	const piece = digestspec.ChunkSize
	n := int(min(piece, s.Len))
	if len(r.rerunIn) < n {
		r.rerunIn, r.rerunGot = make([]uint64, n), make([]uint64, n)
	}
	for lo := s.Start; lo < s.Start+s.Len; lo += piece {
		cnt := min(piece, s.Start+s.Len-lo)
		got := r.rerunGot[:cnt]
		if err := r.dev.raw(k, op, lo, got); err != nil {
			return err
		}
		t0 := time.Now()
		in := r.rerunIn[:cnt]
		parallel(int((cnt+batchLen-1)/batchLen), func(next func() (int, bool)) {
			for i, ok := next(); ok; i, ok = next() {
				for j := uint64(i) * batchLen; j < min(cnt, uint64(i+1)*batchLen); j++ {
					in[j] = digestspec.Input(t.c.Src, lo+j)
				}
			}
		})
		t.check.compare("digest", in, got, 1)
		r.dev.narrowing += time.Since(t0)
	}
	return nil
}

// vectorInputs returns the lanes used for a source kind's vector checks:
// its edge values, then biased random values (package testvals), seeded so
// that every run checks the same lanes.
func (r *runner) vectorInputs(k cltype.Kind) []uint64 {
	if in, ok := r.vecInputs[k]; ok {
		return in
	}
	in := testvals.Edges(k)
	rng := rand.New(rand.NewPCG(0x636c636f6e76, uint64(k)))
	for len(in) < r.o.Lanes {
		in = append(in, testvals.Random(rng, k))
	}
	in = in[:r.o.Lanes]
	r.vecInputs[k] = in
	return in
}

// runVectors runs the pair kernel's modeVec for each width.
func (r *runner) runVectors(k pairKernel, p []*task) error {
	if r.widths == nil {
		r.widths = map[int]*WidthResult{}
	}
	src, dst := p[0].c.Src, p[0].c.Op.Dst.Kind
	in := r.vectorInputs(src)
	packed := make([]uint64, len(in))
	pack(src, packed, in)
	inBytes := unsafe.Slice((*byte)(unsafe.Pointer(&packed[0])), len(in)*src.Size())
	for _, n := range r.o.Widths {
		w := r.widths[n]
		if w == nil {
			w = &WidthResult{Width: n}
			r.widths[n] = w
		}
		nvec := len(in) / n
		lanes := nvec * n
		outs, err := r.dev.vec(k, n, nvec, inBytes, lanes*dst.Size()*len(p))
		if err != nil {
			return fmt.Errorf("width %d: %w", n, err)
		}
		t0 := time.Now()
		got := make([]uint64, lanes)
		buf := make([]uint64, (lanes*dst.Size()+7)/8)
		for i, t := range p {
			if t.check.vecExp == nil {
				t.check.vecExp = expectAll(t.c, in)
			}
			part := outs[i*lanes*dst.Size() : (i+1)*lanes*dst.Size()]
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(part)), part)
			unpack(dst, got, buf)
			f0, i0 := t.check.res.Failing, t.check.implSeen
			t.check.compare("vector", in[:lanes], got, n)
			w.Conversions++
			w.Lanes += uint64(lanes)
			w.Failing += t.check.res.Failing - f0
			w.ImplDefined += uint64(t.check.implSeen - i0)
			if t.check.res.Failing > f0 {
				w.Bad = append(w.Bad, vectorName(t.c.Op.Name(), n)+" "+src.String())
			}
		}
		r.dev.check += time.Since(t0)
	}
	for _, t := range p {
		t.check.vecExp = nil
	}
	return nil
}

// checker compares one conversion's device results with the library's and
// records failures and implementation-defined results.
type checker struct {
	c        digest.Conversion
	res      *ConvResult
	max      int
	examples []Failure
	perRule  map[[2]string]int // examples listed per check and rule
	seen     map[[3]uint64]bool
	impl     *implTracker
	implSeen int
	vecExp   *expected // the library's results for the vector lanes, computed once for all widths
}

// expected is the library's results for a list of inputs.
type expected struct {
	out, canon []uint64
	impl       []bool
}

// expectAll computes the library's results of c for in on every core.
func expectAll(c digest.Conversion, in []uint64) *expected {
	e := &expected{out: make([]uint64, len(in)), canon: make([]uint64, len(in)), impl: make([]bool, len(in))}
	const part = 1 << 12 // 16 parts of a vector check's 2^16 lanes
	nb := (len(in) + part - 1) / part
	parallel(nb, func(next func() (int, bool)) {
		b := batchPool.Get().(*batch)
		defer batchPool.Put(b)
		for i, ok := next(); ok; i, ok = next() {
			lo := i * part
			cnt := min(part, len(in)-lo)
			copy(b.in[:cnt], in[lo:lo+cnt])
			b.convert(c, cnt)
			copy(e.out[lo:], b.out[:cnt])
			copy(e.canon[lo:], b.canon[:cnt])
			copy(e.impl[lo:], b.impl[:cnt])
		}
	})
	return e
}

func newChecker(c digest.Conversion, res *ConvResult, max int) *checker {
	return &checker{c: c, res: res, max: max, perRule: map[[2]string]int{}, seen: map[[3]uint64]bool{},
		impl: newImplTracker(c)}
}

// maxClassified is the number of failing inputs per conversion whose broken
// rule is worked out (exact rational arithmetic); further ones are counted
// under ruleUnclassified, except NaN inputs, whose rule is always named.
const maxClassified = 1 << 20

const ruleUnclassified = "(rule not worked out: more than 2^20 failing inputs)"

// compare checks the device's raw results got for the input bit patterns in,
// which are lanes of width-element vectors (width 1: scalars). The library's
// results are computed and compared on every core; only the inputs that
// differ or are implementation-defined are then looked at one by one, in
// input order.
func (ch *checker) compare(check string, in, got []uint64, width int) {
	c := ch.c
	dk := c.Op.Dst.Kind
	var fl []flagged
	if e := ch.vecExp; check == "vector" && e != nil && len(in) <= len(e.out) {
		// in is a prefix of the lanes e was computed for (runVectors)
		fl = flagExpected(dk, got, e)
	} else {
		fl = flagInputs(c, in, got)
	}
	ch.record(check, in, got, width, fl)
}

// compareExpected is compare with the library's results for in already
// computed.
func (ch *checker) compareExpected(check string, in, got []uint64, e *expected) {
	ch.record(check, in, got, 1, flagExpected(ch.c.Op.Dst.Kind, got, e))
}

// flagExpected returns the inputs whose result in got differs from e's or is
// implementation-defined (got may be shorter than e: a prefix).
func flagExpected(dk cltype.Kind, got []uint64, e *expected) []flagged {
	const part = 1 << 12 // 16 parts of a vector check's 2^16 lanes
	nb := (len(got) + part - 1) / part
	per := make([][]flagged, nb)
	mask, float := dk.Mask(), dk.IsFloating()
	parallel(nb, func(next func() (int, bool)) {
		for i, ok := next(); ok; i, ok = next() {
			var fl []flagged
			for j := i * part; j < min(len(got), (i+1)*part); j++ {
				g := got[j] & mask
				if float && digestspec.IsNaN(dk, g) {
					g = digestspec.NaN
				}
				if e.impl[j] || g != e.canon[j] {
					fl = append(fl, flagged{j, e.out[j], e.impl[j]})
				}
			}
			per[i] = fl
		}
	})
	var all []flagged
	for _, fl := range per {
		all = append(all, fl...)
	}
	return all
}

// record counts and lists the flagged inputs.
func (ch *checker) record(check string, in, got []uint64, width int, fl []flagged) {
	c := ch.c
	dk, sk := c.Op.Dst.Kind, c.Src
	for _, f := range fl {
		j, x, g := f.j, in[f.j], got[f.j]&dk.Mask()
		if f.impl {
			ch.impl.add(x, g, width)
			ch.implSeen++
			continue
		}
		ch.res.Failing++
		rule := ruleUnclassified
		if ch.res.Failing <= maxClassified || digestspec.IsNaN(sk, x) { // a NaN's rule costs nothing
			rule = Rule(c, x, f.out, g)
		}
		if ch.res.Rules == nil {
			ch.res.Rules = map[string]uint64{}
		}
		ch.res.Rules[rule]++
		key := [3]uint64{x, uint64(width), g}
		if ch.perRule[[2]string{check, rule}] >= ch.max || ch.seen[key] {
			continue
		}
		ch.seen[key] = true
		ch.perRule[[2]string{check, rule}]++
		ch.examples = append(ch.examples, Failure{
			Conversion: c.Op.Name(), Source: sk.String(), Check: check, Width: width, Lane: j % width,
			Input: hexBits(sk, x), InputValue: FormatValue(sk, x),
			Expected: hexBits(dk, f.out), ExpValue: FormatValue(dk, f.out),
			Device: hexBits(dk, g), DevValue: FormatValue(dk, g), Rule: rule,
		})
	}
}

// flagged is an input whose device result differs from the library's
// (out) or is implementation-defined.
type flagged struct {
	j    int
	out  uint64
	impl bool
}

// flagInputs converts in with the library on every core, compares with the
// device's results got and returns, in input order, the inputs that differ
// or are implementation-defined.
func flagInputs(c digest.Conversion, in, got []uint64) []flagged {
	dk := c.Op.Dst.Kind
	nb := (len(in) + batchLen - 1) / batchLen
	per := make([][]flagged, nb)
	parallel(nb, func(next func() (int, bool)) {
		b := batchPool.Get().(*batch)
		defer batchPool.Put(b)
		for i, ok := next(); ok; i, ok = next() {
			lo := i * batchLen
			cnt := min(batchLen, len(in)-lo)
			copy(b.in[:cnt], in[lo:lo+cnt])
			b.convert(c, cnt)
			var fl []flagged
			for j := 0; j < cnt; j++ {
				if b.impl[j] || digestspec.Canonical(dk, got[lo+j]&dk.Mask(), false) != b.canon[j] {
					fl = append(fl, flagged{lo + j, b.out[j], b.impl[j]})
				}
			}
			per[i] = fl
		}
	})
	var all []flagged
	for _, fl := range per {
		all = append(all, fl...)
	}
	return all
}

var batchPool = sync.Pool{New: func() any { return new(batch) }}

// parallel runs work on up to GOMAXPROCS goroutines that share n items,
// taken with next.
func parallel(n int, work func(next func() (int, bool))) {
	var ctr atomic.Int64
	next := func() (int, bool) {
		i := int(ctr.Add(1)) - 1
		return i, i < n
	}
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 {
		work(next)
		return
	}
	var wg sync.WaitGroup
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(next)
		}()
	}
	wg.Wait()
}

// finish sets the conversion's status and adds its findings to the report.
func (ch *checker) finish(rep *Report) {
	res := ch.res
	if res.Status == "" {
		res.Status = StatusPass
		if res.Failing > 0 {
			res.Status = StatusFail
		}
	}
	sort.SliceStable(ch.examples, func(i, j int) bool { return ch.examples[i].Rule < ch.examples[j].Rule })
	rep.Failures = append(rep.Failures, ch.examples...)
	if hasImplDefined(ch.c) && res.Status != StatusError {
		rep.ImplDefined = append(rep.ImplDefined, ch.impl.summary(res.ImplDefined))
	}
}

// device runs kernels on the queue of one context and keeps its buffers
// between calls; timing, shared by the contexts, the time spent in each part
// of the work.
type device struct {
	ctx *opencl.Context
	// buffers kept for the next call, grown as needed
	bufs map[string]*opencl.Buffer
	*timing
}

type timing struct {
	buildWait time.Duration // waiting for a program's build
	run       time.Duration // kernels running (enqueue to finish)
	transfer  time.Duration // copies between host and device
	refWait   time.Duration // waiting for the CPU reference
	narrowing time.Duration // comparing the raw results of differing slices on the host
	check     time.Duration // comparing edge values and vector lanes on the host
}

func (d *device) release() {
	for _, b := range d.bufs {
		b.Release()
	}
	d.bufs = nil
}

// buffer returns the kept buffer named name, of at least size bytes.
func (d *device) buffer(name string, size int) (*opencl.Buffer, error) {
	if b := d.bufs[name]; b != nil && b.Size >= size {
		return b, nil
	}
	if d.bufs == nil {
		d.bufs = map[string]*opencl.Buffer{}
	}
	d.bufs[name].Release()
	delete(d.bufs, name)
	b, err := d.ctx.NewBuffer(max(size, 64))
	if err != nil {
		return nil, err
	}
	d.bufs[name] = b
	return b, nil
}

// timed runs f and adds its time to *acc.
func (d *device) timed(acc *time.Duration, f func() error) error {
	t0 := time.Now()
	err := f()
	*acc += time.Since(t0)
	return err
}

// pairKernel is a program's kernel (kernelName) bound to one of its pairs:
// SetArgs passes the pair's number as the kernel's first argument.
type pairKernel struct {
	*opencl.Kernel
	pair uint32
}

// SetArgs sets the kernel's arguments after the pair's number (kernel.go).
func (k pairKernel) SetArgs(mode, op uint32, in *opencl.Buffer, base uint64, wps, per, cnt uint32, out *opencl.Buffer) error {
	return k.Kernel.SetArgs(k.pair, mode, op, in, base, wps, per, cnt, out)
}

// localSize is the work-group size of every launch (fewer where a kernel
// allows fewer): one size, so that PoCL compiles each kernel once.
const localSize = 64

// launch runs k over n work-items (rounded up to whole work-groups: the
// kernels ignore work-items g >= their count) and waits for it.
func (d *device) launch(k *opencl.Kernel, n int) error {
	l := localSize
	if wg, err := k.WorkGroupSize(); err == nil && wg > 0 {
		for l > wg {
			l /= 2
		}
	}
	if err := d.ctx.Run(k, (n+l-1)/l*l, l); err != nil {
		return err
	}
	return d.ctx.Finish()
}

// maxLaunch is the most inputs one digest launch covers, maxPartials the
// most partial sums it writes (64 MiB).
const (
	maxLaunch   = 1 << 28
	maxPartials = 1 << 23
)

// perItem is the number of consecutive inputs each work-item digests.
const perItem = 256

// reduceBy is the most partial sums the device adds per reduced value.
const reduceBy = 1024

// digest returns the device's digest of each slice (all of one length) for
// each of the nops conversions of a pair kernel, sums[op][slice], and for a
// floating source the digest of the slice's NaN inputs alone,
// nans[op][slice] (nil for other sources).
func (d *device) digest(k, red pairKernel, src cltype.Kind, sl []Slice, nops int, stop func() bool) (sums, nans [][]uint64, err error) {
	parts := digestParts(src)
	sums = make([][]uint64, nops)
	for i := range sums {
		sums[i] = make([]uint64, len(sl))
	}
	if parts == 2 {
		nans = make([][]uint64, nops)
		for i := range nans {
			nans[i] = make([]uint64, len(sl))
		}
	}
	if len(sl) == 0 {
		return sums, nans, nil
	}
	l := sl[0].Len
	for _, s := range sl {
		if s.Len != l {
			return nil, nil, errors.New("verify: slices of different lengths")
		}
	}
	per := min(l, perItem)
	wps := l / per
	m := min(wps, reduceBy)
	np := nops * parts
	nb := min(len(sl), max(1, int(maxLaunch/l)), max(1, maxPartials/(int(wps)*np)))
	starts, err := d.buffer("starts", 8*nb)
	if err != nil {
		return nil, nil, err
	}
	part, err := d.buffer("partial", 8*nb*int(wps)*np)
	if err != nil {
		return nil, nil, err
	}
	redOut, err := d.buffer("reduced", 8*nb*int(wps/m)*np)
	if err != nil {
		return nil, nil, err
	}
	got := make([]uint64, nb*int(wps/m)*np)
	st := make([]uint64, nb)
	for first := 0; first < len(sl); first += nb {
		if first > 0 && stop() {
			return nil, nil, errInterrupted
		}
		batch := sl[first:min(first+nb, len(sl))]
		st = st[:len(batch)]
		for i, s := range batch {
			st[i] = s.Start
		}
		if err := d.timed(&d.transfer, func() error { return d.ctx.Write(starts, u64Bytes(st)) }); err != nil {
			return nil, nil, err
		}
		n := len(batch) * int(wps)
		if err := k.SetArgs(modeDigest, 0, starts, 0, uint32(wps), uint32(per), uint32(n), part); err != nil {
			return nil, nil, err
		}
		nr := n * np / int(m)
		if err := red.SetArgs(modeReduce, 0, part, 0, 0, uint32(m), uint32(nr), redOut); err != nil {
			return nil, nil, err
		}
		if err := d.timed(&d.run, func() error {
			if err := d.launchNoWait(k.Kernel, n); err != nil {
				return err
			}
			return d.launch(red.Kernel, nr)
		}); err != nil {
			return nil, nil, err
		}
		if err := d.timed(&d.transfer, func() error { return d.ctx.Read(redOut, u64Bytes(got[:nr])) }); err != nil {
			return nil, nil, err
		}
		// got[q*n/m + slice*wps/m + j] for part q = parts*op + (0: all, 1: NaNs)
		per := int(wps / m)
		for q := 0; q < np; q++ {
			dst := sums[q/parts]
			if q%parts == 1 {
				dst = nans[q/parts]
			}
			for i := range batch {
				var s uint64
				base := q*n/int(m) + i*per
				for _, v := range got[base : base+per] {
					s += v
				}
				dst[first+i] = s
			}
		}
	}
	return sums, nans, nil
}

// launchNoWait enqueues k like launch without waiting.
func (d *device) launchNoWait(k *opencl.Kernel, n int) error {
	l := localSize
	if wg, err := k.WorkGroupSize(); err == nil && wg > 0 {
		for l > wg {
			l /= 2
		}
	}
	return d.ctx.Run(k, (n+l-1)/l*l, l)
}

// raw puts the raw results of conversion op of a pair kernel for input
// indices base..base+len(got)-1 in got. The device buffer is kept for the
// next call: a full run of a device that fails everywhere (NaN under _sat
// from double: every chunk) reruns thousands of chunks.
func (d *device) raw(k pairKernel, op uint32, base uint64, got []uint64) error {
	n := len(got)
	dummy, err := d.buffer("dummy", 64)
	if err != nil {
		return err
	}
	out, err := d.buffer("raw", 8*n)
	if err != nil {
		return err
	}
	if err := k.SetArgs(modeRaw, op, dummy, base, 0, 0, uint32(n), out); err != nil {
		return err
	}
	if err := d.timed(&d.run, func() error { return d.launch(k.Kernel, n) }); err != nil {
		return err
	}
	return d.timed(&d.transfer, func() error { return d.ctx.Read(out, u64Bytes(got)) })
}

// list returns the raw results of every conversion of a pair kernel for the
// given input bit patterns: nops blocks of len(in).
func (d *device) list(k pairKernel, in []uint64, nops int) ([]uint64, error) {
	if len(in) == 0 {
		return nil, nil
	}
	ib, err := d.buffer("list-in", 8*len(in))
	if err != nil {
		return nil, err
	}
	out, err := d.buffer("list-out", 8*len(in)*nops)
	if err != nil {
		return nil, err
	}
	if err := d.timed(&d.transfer, func() error { return d.ctx.Write(ib, u64Bytes(slices.Clone(in))) }); err != nil {
		return nil, err
	}
	if err := k.SetArgs(modeList, 0, ib, 0, 0, 0, uint32(len(in)), out); err != nil {
		return nil, err
	}
	if err := d.timed(&d.run, func() error { return d.launch(k.Kernel, len(in)) }); err != nil {
		return nil, err
	}
	got := make([]uint64, len(in)*nops)
	return got, d.timed(&d.transfer, func() error { return d.ctx.Read(out, u64Bytes(got)) })
}

// vec runs a pair kernel's modeVec for width n over nvec vectors and returns
// the output bytes.
func (d *device) vec(k pairKernel, n, nvec int, in []byte, outSize int) ([]byte, error) {
	ib, err := d.buffer("vec-in", len(in))
	if err != nil {
		return nil, err
	}
	out, err := d.buffer("vec-out", outSize)
	if err != nil {
		return nil, err
	}
	if err := d.timed(&d.transfer, func() error { return d.ctx.Write(ib, in) }); err != nil {
		return nil, err
	}
	if err := k.SetArgs(modeVec, uint32(n), ib, 0, 0, 0, uint32(nvec), out); err != nil {
		return nil, err
	}
	if err := d.timed(&d.run, func() error { return d.launch(k.Kernel, nvec) }); err != nil {
		return nil, err
	}
	got := make([]byte, outSize)
	return got, d.timed(&d.transfer, func() error { return d.ctx.Read(out, got) })
}

func u64Bytes(u []uint64) []byte {
	if len(u) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&u[0])), 8*len(u))
}
