//go:build opencl

package verify

import (
	"context"
	"encoding/gob"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testWorkerFault is the environment variable that makes this test binary,
// started as a build process, a faulty one: "crash" exits after reading the
// request, "reject" answers every program with a binary no driver accepts,
// "hang" answers nothing after the hello, "die-after-one" builds one
// program and exits at the next.
const testWorkerFault = "CLCONV_TEST_WORKER_FAULT"

func testWorkerMain() int {
	fault := os.Getenv(testWorkerFault)
	if fault == "" {
		return WorkerMain()
	}
	in, out := os.Stdin, os.NewFile(3, "results")
	dec, enc := gob.NewDecoder(in), gob.NewEncoder(out)
	var h workerHello
	if err := dec.Decode(&h); err != nil {
		return 1
	}
	if fault == "crash" {
		os.Stderr.WriteString("crashing as asked\n")
		return 3
	}
	enc.Encode(&workerReady{})
	for n := 0; ; n++ {
		var j workerJob
		if err := dec.Decode(&j); err != nil {
			return 0
		}
		switch fault {
		case "hang":
			time.Sleep(time.Hour)
		case "reject":
			enc.Encode(&workerResult{ID: j.ID, Bin: []byte("not a binary any driver could load")})
		case "die-after-one":
			if n > 0 {
				return 4
			}
			ctx, err := workerContext(h)
			if err != nil {
				return 6
			}
			prog, err := ctx.Build(j.Source, h.Options)
			if err != nil {
				return 7
			}
			bin, err := prog.Binary()
			if err != nil {
				return 8
			}
			enc.Encode(&workerResult{ID: j.ID, Bin: bin})
		default:
			return 5
		}
	}
}

// workerOptions are the options of a small run (3 programs: two
// conversions' and as_type's) with two build processes, this test binary.
func workerOptions(t *testing.T, cache *BinCache) Options {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Only: "convert_float_rtz short,convert_char_sat ushort", NoVectors: true, Programs: cache,
		Worker: []string{exe}, BuildProcs: 2}
}

// TestBuildProcesses builds a run's programs in two build processes and
// shows that the run passes, that the cache then holds exactly the entries
// (same key, same sources) a run that builds in its own process stores, and
// that a warm run loads them all and gets the same results.
func TestBuildProcesses(t *testing.T) {
	dev := testDevice(t)
	cache := NewBinCache(t.TempDir())
	o := workerOptions(t, cache)
	rep, err := Run(dev, o)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Passed != 2 || len(rep.Notices) != 0 {
		t.Fatalf("run with build processes: passed %d, OK %v, errors %q, notices %q", rep.Passed, rep.OK(), rep.Errors, rep.Notices)
	}
	if c := rep.Cache; c.Built != 3 || c.Processes != 3 || c.Stored != 3 || rep.Times.Processes != 2 {
		t.Errorf("cache %+v, %d build processes; want 3 built in 2 build processes, 3 stored", c, rep.Times.Processes)
	}
	for _, p := range rep.Programs {
		if p.From != "build process" || p.Build <= 0 || p.Ready <= 0 {
			t.Errorf("program %+v, want built in a build process", p)
		}
	}
	var sb strings.Builder
	rep.WriteText(&sb)
	if !strings.Contains(sb.String(), "in 2 build processes") || !strings.Contains(sb.String(), "3 built (3 in build processes)") {
		t.Errorf("the report's TIME does not tell the build processes:\n%s", sb.String())
	}

	here := NewBinCache(t.TempDir())
	o2 := o
	o2.Programs, o2.BuildProcs = here, -1
	rep2, err := Run(dev, o2)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep2.Cache; c.Built != 3 || c.Processes != 0 || rep2.Times.Processes != 0 {
		t.Errorf("BuildProcs -1: cache %+v, %d build processes; want none", c, rep2.Times.Processes)
	}
	names := func(c *BinCache) []string {
		var n []string
		for _, e := range c.Entries() {
			n = append(n, filepath.Base(e))
			data, err := os.ReadFile(e)
			if err != nil {
				t.Fatal(err)
			}
			if be, err := unmarshalBinEntry(data); err != nil || be.key != binKey(dev, "") {
				t.Errorf("entry %s: %v, key %q", e, err, be.key)
			}
		}
		slices.Sort(n)
		return n
	}
	if a, b := names(cache), names(here); !slices.Equal(a, b) || len(a) != 3 {
		t.Errorf("entries stored from the build processes %q, from this process %q", a, b)
	}

	rep3, err := Run(dev, o)
	if err != nil {
		t.Fatal(err)
	}
	if c := rep3.Cache; c.Loaded != 3 || c.Built != 0 || rep3.Times.Processes != 0 || len(rep3.Notices) != 0 {
		t.Errorf("warm run: cache %+v, %d build processes, notices %q; want 3 loaded and no build process", c, rep3.Times.Processes, rep3.Notices)
	}
	for i, c := range rep3.Conversions {
		c0 := rep2.Conversions[i]
		if c.Status != StatusPass || c.Status != c0.Status || c.Inputs != c0.Inputs || c.Edges != c0.Edges {
			t.Errorf("warm run: %+v; built here: %+v", c, c0)
		}
	}
	if !rep3.OK() || rep3.AsType == nil || rep3.AsType.Failing != 0 {
		t.Errorf("warm run: OK %v, as_type %+v", rep3.OK(), rep3.AsType)
	}
}

// TestBuildProcessFailures shows that a build process that cannot start,
// crashes, hangs, dies midway or sends a binary the driver rejects costs
// only time: its programs are built in the run's process, with a notice,
// and the run passes and stores every binary.
func TestBuildProcessFailures(t *testing.T) {
	dev := testDevice(t)
	defer func(d time.Duration) { WorkerTimeout = d }(WorkerTimeout)
	WorkerTimeout = 3 * time.Second
	for _, tt := range []struct {
		fault, note string
		worker      []string
		procs       int // programs the build processes deliver
	}{
		{"crash", "build process 1 failed", nil, 0},
		{"reject", "the driver rejected the binary a build process made", nil, 0},
		{"hang", "no answer in 3s", nil, 0},
		{"die-after-one", "failed", nil, 2},
		{"", "did not start", []string{filepath.Join(t.TempDir(), "no-such-clconv")}, 0},
	} {
		if testing.Short() && tt.fault != "crash" {
			continue
		}
		name := tt.fault
		if name == "" {
			name = "no executable"
		}
		t.Run(name, func(t *testing.T) {
			t.Setenv(testWorkerFault, tt.fault)
			cache := NewBinCache(t.TempDir())
			o := workerOptions(t, cache)
			if tt.worker != nil {
				o.Worker = tt.worker
			}
			start := time.Now()
			rep, err := Run(dev, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %.1fs, notices %q", name, time.Since(start).Seconds(), rep.Notices)
			if !rep.OK() || rep.Passed != 2 {
				t.Errorf("passed %d, OK %v: %v", rep.Passed, rep.OK(), rep.Errors)
			}
			if c := rep.Cache; c.Built != 3 || c.Processes != tt.procs || c.Stored != 3 || len(cache.Entries()) != 3 {
				t.Errorf("cache %+v, %d entries; want 3 built (%d in build processes) and stored", c, len(cache.Entries()), tt.procs)
			}
			if !slices.ContainsFunc(rep.Notices, func(n string) bool { return strings.Contains(n, tt.note) }) {
				t.Errorf("notices %q, want one saying %q", rep.Notices, tt.note)
			}
		})
	}
}

// TestBuildProcessCompilerError: a program the compiler rejects in a build
// process is built again in the run's process, which reports the
// compiler's error as without build processes, and no notice.
func TestBuildProcessCompilerError(t *testing.T) {
	dev := testDevice(t)
	o := workerOptions(t, nil)
	o.NoAsType, o.BuildOptions = true, "-cl-no-such-option"
	rep, err := Run(dev, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Notices) != 0 || rep.Errored != 2 || !strings.Contains(rep.Conversions[0].Reason, "building the kernels failed") {
		t.Errorf("errored %d, notices %q, first %+v; want 2 errors and no notice", rep.Errored, rep.Notices, rep.Conversions[0])
	}
}

// TestBuildProcessesInterrupted: a run interrupted while its build
// processes hang returns at once and leaves no process behind.
func TestBuildProcessesInterrupted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts child processes in /proc")
	}
	dev := testDevice(t)
	t.Setenv(testWorkerFault, "hang")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	o := workerOptions(t, nil)
	o.Context = ctx
	start := time.Now()
	rep, err := Run(dev, o)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the interrupted run took %v", d)
	}
	if !rep.Interrupted || rep.NotRun != 2 || len(rep.Notices) != 0 {
		t.Errorf("interrupted %v, not run %d, notices %q; want true, 2, none", rep.Interrupted, rep.NotRun, rep.Notices)
	}
	if kids := children(t); len(kids) != 0 {
		t.Errorf("child processes left: %v", kids)
	}
}

// children lists this process's child processes.
func children(t *testing.T) []int {
	tasks, err := filepath.Glob("/proc/self/task/*/children")
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range tasks {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, s := range strings.Fields(string(data)) {
			n, _ := strconv.Atoi(s)
			pids = append(pids, n)
		}
	}
	return pids
}
