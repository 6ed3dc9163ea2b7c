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
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
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
	ctx, err := opencl.NewContext(dev)
	if err != nil {
		return nil, err
	}
	defer ctx.Release()
	caps := Caps{FP64: dev.FP64(), FP16: dev.FP16() && !o.NoFP16}
	rep := &Report{Device: deviceInfo(dev), Quick: o.Quick, Only: o.Only, Started: start}
	if o.Fault != nil {
		rep.Fault = o.Fault.Key + ":" + o.Fault.Kind
	}
	r := &runner{o: o, caps: caps, rep: rep, dev: &device{ctx: ctx}, vecInputs: map[cltype.Kind][]uint64{}}
	defer r.dev.release()

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
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }
	defer halt()
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
			if p := byClass[classKey(j.c)]; p != nil {
				j.sums, j.impl = p.sums, p.impl
			} else {
				j.sums, j.impl = reference(j.c, j.slices, o.Cache)
				byClass[classKey(j.c)] = j
			}
			refTime += time.Since(t0)
			close(j.done)
		}
	}()

	total := len(refs)
	if !o.NoAsType {
		total++
	}
	done := 0
	r.progress = func(current string) {
		if o.Progress != nil {
			o.Progress(done, total, current)
		}
		done++
	}
	for _, p := range pairs {
		r.runPair(p)
	}
	if r.interrupted() {
		halt() // the reference goroutine stops at its next conversion
	}
	<-refsDone
	if !o.NoAsType && !r.interrupted() {
		r.progress("as_type")
		rep.AsType = r.asType()
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
	rep.Seconds = time.Since(start).Seconds()
	rep.DeviceSeconds = r.dev.busy.Seconds()
	rep.ReferenceSeconds = refTime.Seconds()
	return rep, nil
}

// task is one conversion's check.
type task struct {
	c       digest.Conversion
	res     *ConvResult
	slices  []Slice
	ref     *refJob
	check   *checker
	started time.Time
}

// refJob is one conversion's CPU reference, computed in the background.
type refJob struct {
	c      digest.Conversion
	slices []Slice
	done   chan struct{}
	sums   []uint64
	impl   uint64
}

type runner struct {
	o         Options
	caps      Caps
	rep       *Report
	dev       *device
	vecInputs map[cltype.Kind][]uint64
	widths    map[int]*WidthResult
	progress  func(current string) // announces the next conversion
	rerunIn   []uint64             // rerun's buffers, kept between calls
	rerunGot  []uint64
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

// runPair checks the conversions of one source/destination pair: one program.
func (r *runner) runPair(p []*task) {
	if r.interrupted() {
		for _, t := range p {
			t.res.Status, t.res.Reason = StatusNotRun, "the run was interrupted"
		}
		return
	}
	convs := make([]digest.Conversion, len(p))
	for i, t := range p {
		convs[i] = t.c
		t.check = newChecker(t.c, t.res, r.o.Examples)
	}
	src := pairSource(convs, r.caps, r.o.Fault, r.o.Widths)
	t0 := time.Now()
	prog, err := r.dev.ctx.Build(src, r.o.BuildOptions)
	r.dev.busy += time.Since(t0)
	if err != nil {
		for _, t := range p {
			r.progress(Key(t.c))
			t.res.Status, t.res.Reason = StatusError, "building the kernels failed: "+err.Error()
			t.check.finish(r.rep)
		}
		return
	}
	defer prog.Release()
	k, err := prog.Kernel("conv")
	for i, t := range p {
		r.progress(Key(t.c))
		t.started = time.Now()
		if r.interrupted() {
			err = errInterrupted
		}
		if err == nil {
			err = r.runConversion(kernelOp{k, uint32(i)}, t)
		}
		switch {
		case errors.Is(err, errInterrupted):
			t.res.Status, t.res.Reason = StatusNotRun, "the run was interrupted"
		case err != nil:
			t.res.Status, t.res.Reason = StatusError, err.Error()
		}
		t.res.Seconds += time.Since(t.started).Seconds()
	}
	k.Release()
	if len(r.o.Widths) > 0 && !r.interrupted() {
		if err := r.runVectors(prog, p); err != nil {
			r.rep.Errors = append(r.rep.Errors, fmt.Sprintf("vector check %s -> %s: %v", convs[0].Src, convs[0].Op.Dst.Kind, err))
		}
	}
	for _, t := range p {
		t.check.finish(r.rep)
	}
}

// kernelOp is kernel conv of a pair program with the number of one of its conversions.
type kernelOp struct {
	k  *opencl.Kernel
	op uint32
}

// runConversion runs the digest and edge checks of one conversion.
func (r *runner) runConversion(k kernelOp, t *task) error {
	res := t.res
	sums, err := r.dev.digest(k, t.slices)
	if err != nil {
		return err
	}
	edges := testvals.Edges(t.c.Src)
	got, err := r.dev.list(k, edges)
	if err != nil {
		return err
	}
	res.Edges = len(edges)
	t.check.compare("edges", edges, got, 1)

	<-t.ref.done
	res.Slices = len(t.slices)
	res.ImplDefined = t.ref.impl
	for j, s := range t.slices {
		res.Inputs += s.Len
		if sums[j] == t.ref.sums[j] {
			continue
		}
		if r.interrupted() {
			return errInterrupted
		}
		res.BadSlices++
		before := res.Failing
		if err := r.rerun(k, t, s); err != nil {
			return err
		}
		if res.Failing == before {
			r.rep.Errors = append(r.rep.Errors, fmt.Sprintf("%s: the digest of inputs %d..%d differs (device %016x, reference %016x) but every result agrees when rerun one by one: the device is not deterministic or miscomputes the digest",
				Key(t.c), s.Start, s.Start+s.Len-1, sums[j], t.ref.sums[j]))
		}
	}
	return nil
}

// rerun compares every raw result of a slice with the library.
func (r *runner) rerun(k kernelOp, t *task, s Slice) error {
	const piece = digestspec.ChunkSize
	n := int(min(piece, s.Len))
	if len(r.rerunIn) < n {
		r.rerunIn, r.rerunGot = make([]uint64, n), make([]uint64, n)
	}
	for lo := s.Start; lo < s.Start+s.Len; lo += piece {
		cnt := min(piece, s.Start+s.Len-lo)
		got := r.rerunGot[:cnt]
		if err := r.dev.raw(k, lo, got); err != nil {
			return err
		}
		in := r.rerunIn[:cnt]
		parallel(int((cnt+batchLen-1)/batchLen), func(next func() (int, bool)) {
			for i, ok := next(); ok; i, ok = next() {
				for j := uint64(i) * batchLen; j < min(cnt, uint64(i+1)*batchLen); j++ {
					in[j] = digestspec.Input(t.c.Src, lo+j)
				}
			}
		})
		t.check.compare("digest", in, got, 1)
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

// runVectors runs kernel vec of prog for each width.
func (r *runner) runVectors(prog *opencl.Program, p []*task) error {
	if r.widths == nil {
		r.widths = map[int]*WidthResult{}
	}
	k, err := prog.Kernel("vec")
	if err != nil {
		return err
	}
	defer k.Release()
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
		got := make([]uint64, lanes)
		buf := make([]uint64, (lanes*dst.Size()+7)/8)
		for i, t := range p {
			t0 := time.Now()
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
			t.res.Seconds += time.Since(t0).Seconds()
		}
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
	perRule  map[string]int
	seen     map[[3]uint64]bool
	impl     *implTracker
	implSeen int
}

func newChecker(c digest.Conversion, res *ConvResult, max int) *checker {
	return &checker{c: c, res: res, max: max, perRule: map[string]int{}, seen: map[[3]uint64]bool{},
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
	dk, sk := c.Op.Dst.Kind, c.Src
	for _, f := range flagInputs(c, in, got) {
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
		if ch.perRule[check+"\x00"+rule] >= ch.max || ch.seen[key] {
			continue
		}
		ch.seen[key] = true
		ch.perRule[check+"\x00"+rule]++
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

// device runs kernels and keeps the time it was busy.
type device struct {
	ctx    *opencl.Context
	dummy  *opencl.Buffer
	rawOut *opencl.Buffer // raw's output buffer, kept for the next call
	rawCap int            // its size in results
	busy   time.Duration
}

func (d *device) release() {
	d.dummy.Release()
	d.rawOut.Release()
}

// maxLaunch is the most inputs one digest launch covers.
const maxLaunch = 1 << 28

// digest returns the device's digest of each slice (all of one length).
func (d *device) digest(k kernelOp, sl []Slice) (sums []uint64, err error) {
	defer func(t time.Time) { d.busy += time.Since(t) }(time.Now())
	if len(sl) == 0 {
		return nil, nil
	}
	l := sl[0].Len
	for _, s := range sl {
		if s.Len != l {
			return nil, errors.New("verify: slices of different lengths")
		}
	}
	per := min(l, 256)
	wps := l / per
	nb := min(len(sl), max(1, int(maxLaunch/l)))
	starts, err := d.ctx.NewBuffer(8 * nb)
	if err != nil {
		return nil, err
	}
	defer starts.Release()
	out, err := d.ctx.NewBuffer(8 * nb * int(wps))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	partial := make([]uint64, nb*int(wps))
	sums = make([]uint64, len(sl))
	for first := 0; first < len(sl); first += nb {
		batch := sl[first:min(first+nb, len(sl))]
		st := make([]uint64, len(batch))
		for i, s := range batch {
			st[i] = s.Start
		}
		if err := d.ctx.Write(starts, u64Bytes(st)); err != nil {
			return nil, err
		}
		if err := k.k.SetArgs(k.op, uint32(modeDigest), starts, uint64(0), uint32(wps), uint32(per), out); err != nil {
			return nil, err
		}
		n := len(batch) * int(wps)
		if err := d.ctx.Run(k.k, n, 0); err != nil {
			return nil, err
		}
		if err := d.ctx.Read(out, u64Bytes(partial[:n])); err != nil {
			return nil, err
		}
		for i := range batch {
			var s uint64
			for _, v := range partial[i*int(wps) : (i+1)*int(wps)] {
				s += v
			}
			sums[first+i] = s
		}
	}
	return sums, nil
}

func (d *device) dummyBuffer() (*opencl.Buffer, error) {
	if d.dummy == nil {
		b, err := d.ctx.NewBuffer(64)
		if err != nil {
			return nil, err
		}
		d.dummy = b
	}
	return d.dummy, nil
}

// raw puts the raw results of input indices base..base+len(got)-1 in got.
// The device buffer is kept for the next call: a full run of a device that
// fails everywhere (NaN under _sat from double: every chunk) reruns
// thousands of chunks.
func (d *device) raw(k kernelOp, base uint64, got []uint64) error {
	defer func(t time.Time) { d.busy += time.Since(t) }(time.Now())
	dummy, err := d.dummyBuffer()
	if err != nil {
		return err
	}
	n := len(got)
	if d.rawCap < n {
		d.rawOut.Release()
		d.rawOut, d.rawCap = nil, 0
		if d.rawOut, err = d.ctx.NewBuffer(8 * n); err != nil {
			return err
		}
		d.rawCap = n
	}
	if err := k.k.SetArgs(k.op, uint32(modeRaw), dummy, base, uint32(0), uint32(0), d.rawOut); err != nil {
		return err
	}
	if err := d.ctx.Run(k.k, n, 0); err != nil {
		return err
	}
	return d.ctx.Read(d.rawOut, u64Bytes(got))
}

// list returns the raw results for the given input bit patterns.
func (d *device) list(k kernelOp, in []uint64) ([]uint64, error) {
	defer func(t time.Time) { d.busy += time.Since(t) }(time.Now())
	if len(in) == 0 {
		return nil, nil
	}
	ib, err := d.ctx.NewBuffer(8 * len(in))
	if err != nil {
		return nil, err
	}
	defer ib.Release()
	out, err := d.ctx.NewBuffer(8 * len(in))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	if err := d.ctx.Write(ib, u64Bytes(slices.Clone(in))); err != nil {
		return nil, err
	}
	if err := k.k.SetArgs(k.op, uint32(modeList), ib, uint64(0), uint32(0), uint32(0), out); err != nil {
		return nil, err
	}
	if err := d.ctx.Run(k.k, len(in), 0); err != nil {
		return nil, err
	}
	got := make([]uint64, len(in))
	return got, d.ctx.Read(out, u64Bytes(got))
}

// vec runs kernel vec for width n over nvec vectors and returns the output bytes.
func (d *device) vec(k *opencl.Kernel, n, nvec int, in []byte, outSize int) ([]byte, error) {
	defer func(t time.Time) { d.busy += time.Since(t) }(time.Now())
	ib, err := d.ctx.NewBuffer(len(in))
	if err != nil {
		return nil, err
	}
	defer ib.Release()
	out, err := d.ctx.NewBuffer(outSize)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	if err := d.ctx.Write(ib, in); err != nil {
		return nil, err
	}
	if err := k.SetArgs(uint32(n), ib, out, uint32(nvec)); err != nil {
		return nil, err
	}
	if err := d.ctx.Run(k, nvec, 0); err != nil {
		return nil, err
	}
	got := make([]byte, outSize)
	return got, d.ctx.Read(out, got)
}

func u64Bytes(u []uint64) []byte {
	if len(u) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&u[0])), 8*len(u))
}
