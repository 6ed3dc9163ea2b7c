package verify

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
)

// Build processes.
//
// NVIDIA's OpenCL driver and PoCL build one program at a time per process,
// however many threads ask (docs/VERIFY.md, Kernels), so a cold run used to
// wait for its programs' builds one after another. Run therefore starts
// child processes ("build processes": Options.Worker, the clconv executable
// itself in the CLI) that each open the same device, take programs from the
// run one at a time over a pipe, build them from source and send back the
// binary (CL_PROGRAM_BINARIES). The run loads the binaries
// (clCreateProgramWithBinary), stores them in the binary cache and runs
// them, while the other build processes compile the next ones.
//
// A build process that cannot start, fails, dies, sends nonsense, takes
// longer than WorkerTimeout for one program or whose binary the driver
// rejects costs nothing but time: its programs are built in the run's own
// process, with a notice. An interrupted run kills its build processes.
//
// The protocol, in gob values: the run writes a workerHello to the
// process's stdin; the process opens the device, checks that it is the
// device the hello names (binKey) and answers a workerReady on file
// descriptor 3; then, for each workerJob the run writes, it answers a
// workerResult. The run closes stdin when it has no more programs and the
// process exits. File descriptor 3 rather than stdout keeps the answers
// apart from anything a driver prints.

// WorkerEnv is the environment variable that makes the clconv executable a
// build process of clconv verify (see IsWorker and WorkerMain): the run sets
// it to "1" for the processes it starts with Options.Worker.
const WorkerEnv = "CLCONV_BUILD_WORKER"

// WorkerTimeout is the longest a build process may take to start or to
// build one program before it is killed and its program is built in the
// run's own process.
var WorkerTimeout = 10 * time.Minute

// IsWorker reports whether this process was started as a build process
// (WorkerEnv is "1"): its main function should return WorkerMain().
func IsWorker() bool { return os.Getenv(WorkerEnv) == "1" }

// WorkerMain serves a run as a build process: it reads the run's requests
// from stdin and answers on file descriptor 3 (ServeBuilds), and returns the
// process's exit status.
func WorkerMain() int {
	// The environment is the run's, DriverSettings included.
	out := os.NewFile(3, "clconv-build-results")
	if _, err := out.Stat(); err != nil {
		fmt.Fprintln(os.Stderr, "clconv build process: file descriptor 3 is not open (started by clconv verify only)")
		return 2
	}
	closeOnExec(out)
	if err := ServeBuilds(os.Stdin, out); err != nil {
		fmt.Fprintln(os.Stderr, "clconv build process:", err)
		return 1
	}
	return 0
}

const workerMagic = "clconv build process v1"

// workerHello names the device and the build options.
type workerHello struct {
	Magic    string
	Platform int    // opencl.Platform.Index
	Device   int    // opencl.Device.Index
	Key      string // binKey of the device and options, as the run computed it
	Options  string
}

// workerReady answers the hello.
type workerReady struct {
	Err  string  // why the process cannot build (no such device, another key)
	Init float64 // seconds from the hello to a context on the device
}

// workerJob asks for one program.
type workerJob struct {
	ID     int
	Source string
}

// workerResult is one program's binary, or why there is none.
type workerResult struct {
	ID      int
	Bin     []byte
	Err     string  // the build or Binary failed (a compiler error has its log)
	Seconds float64 // building and taking the binary
}

// ServeBuilds is a build process's work: it reads a workerHello and then
// workerJobs from in, and writes a workerReady and a workerResult per job
// to out, until in ends.
func ServeBuilds(in io.Reader, out io.Writer) error {
	dec := gob.NewDecoder(in)
	enc := gob.NewEncoder(out)
	var h workerHello
	if err := dec.Decode(&h); err != nil {
		return fmt.Errorf("reading the request: %v", err)
	}
	if h.Magic != workerMagic {
		return fmt.Errorf("the request is not from this version of clconv verify (%q)", h.Magic)
	}
	t0 := time.Now()
	ctx, err := workerContext(h)
	ready := workerReady{Init: time.Since(t0).Seconds()}
	if err != nil {
		ready.Err = err.Error()
	}
	if err := enc.Encode(&ready); err != nil {
		return err
	}
	if ctx == nil {
		return errors.New(ready.Err)
	}
	defer ctx.Release()
	for {
		var j workerJob
		if err := dec.Decode(&j); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading a request: %v", err)
		}
		t0 := time.Now()
		res := workerResult{ID: j.ID}
		prog, err := ctx.Build(j.Source, h.Options)
		if err == nil {
			// PoCL compiles the kernels for the binary here
			// (DriverSettings): the run that loads it compiles nothing.
			res.Bin, err = prog.Binary()
			prog.Release()
		}
		if err != nil {
			res.Err = err.Error()
		}
		res.Seconds = time.Since(t0).Seconds()
		if err := enc.Encode(&res); err != nil {
			return err
		}
	}
}

// workerContext opens the hello's device and checks that it is the run's.
func workerContext(h workerHello) (*opencl.Context, error) {
	ps, err := opencl.Platforms()
	if err != nil {
		return nil, err
	}
	if h.Platform < 0 || h.Platform >= len(ps) {
		return nil, fmt.Errorf("no platform %d (%d platforms)", h.Platform, len(ps))
	}
	ds, err := ps[h.Platform].Devices()
	if err != nil {
		return nil, err
	}
	if h.Device < 0 || h.Device >= len(ds) {
		return nil, fmt.Errorf("platform %d has no device %d", h.Platform, h.Device)
	}
	dev := ds[h.Device]
	if k := binKey(dev, h.Options); k != h.Key {
		return nil, fmt.Errorf("platform %d device %d is not the run's device:\n%s\nwant\n%s", h.Platform, h.Device, k, h.Key)
	}
	return opencl.NewContext(dev)
}

// workerOut is a program's answer from the build processes: a binary, or
// the reason there is none (the run then builds the program itself).
type workerOut struct {
	bin     []byte
	seconds float64 // compiling in the build process
	err     error
	quiet   bool // the reason needs no notice (a compiler error: the run's own build reports it)
}

// workerPool is a run's build processes and the programs they build.
type workerPool struct {
	jobs   chan *program // in the order the run needs them
	hello  workerHello
	notice func(format string, args ...any)

	mu       sync.Mutex
	procs    []*workerProc
	stopped  bool
	alive    atomic.Int32
	done     sync.WaitGroup
	build    time.Duration // compiling, summed over the processes
	slowInit time.Duration // the slowest start: exec, platform, context
	started  int
}

type workerProc struct {
	n      int
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	res    *os.File
	output *tailBuffer // its stdout and stderr
	killed atomic.Bool
}

// workerCount is the number of build processes for n programs to build:
// Options.BuildProcs where set, else one per program up to one less than
// the CPUs the run may use (the run itself needs one), at most 16; none
// where that is fewer than two (one build process would build as serially
// as the run's own threads) or without Options.Worker.
func workerCount(o Options, n int) int {
	if len(o.Worker) == 0 || o.BuildProcs < 0 || n == 0 {
		return 0
	}
	if o.BuildProcs > 0 {
		return min(o.BuildProcs, n)
	}
	if runtime.GOOS == "windows" { // no file descriptor 3 for the answers
		return 0
	}
	k := min(n, runtime.GOMAXPROCS(0)-1, 16)
	if k < 2 {
		return 0
	}
	return k
}

// startWorkers starts k build processes for progs, which they build in
// order, each program's answer going to its worker channel.
func startWorkers(argv []string, k int, dev *opencl.Device, key, options string, progs []*program,
	notice func(format string, args ...any)) *workerPool {
	w := &workerPool{jobs: make(chan *program, len(progs)), notice: notice,
		hello: workerHello{Magic: workerMagic, Device: dev.Index, Key: key, Options: options}}
	if dev.Platform != nil {
		w.hello.Platform = dev.Platform.Index
	}
	for _, p := range progs {
		p.worker = make(chan workerOut, 1)
		w.jobs <- p
	}
	close(w.jobs)
	w.alive.Store(int32(k))
	for i := range k {
		pr, err := w.start(argv, i+1)
		if err != nil {
			notice("build process %d did not start: %v", i+1, err)
			w.exit(nil)
			continue
		}
		w.done.Add(1)
		go w.serve(pr)
	}
	return w
}

func (w *workerPool) start(argv []string, n int) (*workerProc, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), WorkerEnv+"=1")
	out := &tailBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = workerSysProcAttr()
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, wr, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{wr}
	err = cmd.Start()
	wr.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	pr := &workerProc{n: n, cmd: cmd, stdin: stdin, res: r, output: out}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		pr.kill()
	}
	w.procs = append(w.procs, pr)
	w.started++
	return pr, nil
}

func (p *workerProc) kill() {
	p.killed.Store(true)
	p.cmd.Process.Kill()
}

// serve gives p one program at a time until none is left or p fails.
func (w *workerPool) serve(p *workerProc) {
	defer w.done.Done()
	enc := gob.NewEncoder(p.stdin)
	dec := gob.NewDecoder(p.res)
	// Each exchange has WorkerTimeout: a process that takes longer is
	// killed, which ends the exchange with an error.
	var timedOut atomic.Bool
	deadline := func() *time.Timer {
		return time.AfterFunc(WorkerTimeout, func() { timedOut.Store(true); p.kill() })
	}
	fail := func(cur *program, err error) {
		if timedOut.Load() {
			err = fmt.Errorf("no answer in %v", WorkerTimeout)
		}
		p.kill()
		p.stdin.Close()
		p.res.Close()
		werr := p.cmd.Wait()
		w.mu.Lock()
		stopped := w.stopped
		w.mu.Unlock()
		if !stopped {
			msg := err.Error()
			if werr != nil && !timedOut.Load() {
				msg += " (" + werr.Error() + ")"
			}
			if s := strings.TrimSpace(p.output.String()); s != "" {
				msg += ": " + strings.ReplaceAll(s, "\n", " | ")
			}
			what := ""
			if cur != nil {
				what = "; building " + cur.name + " in this process"
			}
			w.notice("build process %d failed: %s%s", p.n, msg, what)
		}
		if cur != nil {
			w.deliver(cur, workerOut{err: err})
		}
		w.exit(p)
	}
	t := deadline()
	var ready workerReady
	err := enc.Encode(&w.hello)
	if err == nil {
		err = dec.Decode(&ready)
	}
	t.Stop()
	if err == nil && ready.Err != "" {
		err = errors.New(ready.Err)
	}
	if err != nil {
		fail(nil, err)
		return
	}
	w.mu.Lock()
	w.slowInit = max(w.slowInit, time.Duration(ready.Init*float64(time.Second)))
	w.mu.Unlock()
	for prog := range w.jobs {
		t := deadline()
		var res workerResult
		err := enc.Encode(&workerJob{ID: prog.id, Source: prog.source})
		if err == nil {
			err = dec.Decode(&res)
		}
		t.Stop()
		if err == nil && res.ID != prog.id {
			err = fmt.Errorf("answered program %d for program %d", res.ID, prog.id)
		}
		if err != nil {
			fail(prog, err)
			return
		}
		w.mu.Lock()
		w.build += time.Duration(res.Seconds * float64(time.Second))
		w.mu.Unlock()
		out := workerOut{bin: res.Bin, seconds: res.Seconds}
		if res.Err != "" {
			out.err, out.quiet = errors.New(res.Err), true
		}
		w.deliver(prog, out)
	}
	// No more programs: the process exits when its stdin ends.
	p.stdin.Close()
	p.cmd.Wait()
	p.res.Close()
	w.exit(nil)
}

func (w *workerPool) deliver(p *program, out workerOut) { p.worker <- out }

// exit counts a process out; the last one to go hands the programs nobody
// took back to the run.
func (w *workerPool) exit(p *workerProc) {
	if w.alive.Add(-1) > 0 {
		return
	}
	var left []string
	for prog := range w.jobs {
		left = append(left, prog.name)
		w.deliver(prog, workerOut{err: errors.New("no build process left")})
	}
	w.mu.Lock()
	stopped := w.stopped
	w.mu.Unlock()
	if len(left) > 0 && !stopped {
		w.notice("no build process left: building in this process %s", strings.Join(left, "; "))
	}
}

// stop kills the build processes (the run was interrupted) and waits for
// them.
func (w *workerPool) stop() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.stopped = true
	procs := slices.Clone(w.procs)
	w.mu.Unlock()
	for _, p := range procs {
		p.kill()
	}
	w.done.Wait()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if n := t.b.Len() - t.max; n > 0 {
		t.b.Next(n)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}
