//go:build opencl

package difftest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
	"github.com/clconv/clconv/cmd/clconv/internal/verify"
)

// CISeed and CIPrograms are the programs CI compares on PoCL.
const (
	CISeed     = 19
	CIPrograms = 200
)

var (
	long     = flag.Bool("long", false, "run the long mode (TestLong): -n programs over each of -seeds")
	seedList = flag.String("seeds", "1,2,3", "the long mode's seeds")
	nProgs   = flag.Int("n", 0, "programs per seed (CI: 200; long mode: 3334, 10,002 over three seeds)")
	report   = flag.String("report", "", "write the long mode's report to this file")
	workers  = flag.Int("workers", 0, "child processes building at once (GOMAXPROCS when 0)")
	only     = flag.String("only", "", "run only these programs (indexes, comma-separated) of each seed")
	minimize = flag.Int("minimize", 1, "findings minimised per class and known difference (the long mode: judged ones too)")
)

// TestMain serves as the harness's child process when ChildEnv is set:
// PoCL compiles in the process that calls it, and a compiler crash must not
// take the tests down. Otherwise it runs the tests, with the drivers set as
// clconv verify sets them.
func TestMain(m *testing.M) {
	verify.DriverSettings()
	if os.Getenv(ChildEnv) != "" {
		if err := ServeChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// needDevice skips the test where no OpenCL platform has a device (CI
// installs PoCL: pocl-opencl-icd).
func needDevice(t *testing.T) {
	t.Helper()
	d, err := opencl.FirstDevice()
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Skip("no OpenCL platform with a device (install pocl-opencl-icd)")
	}
	if !d.FP64() {
		t.Skip(d.Name + " has no cl_khr_fp64; the programs use double")
	}
}

// TestCISeed compares CIPrograms programs of a fixed seed in clconv and on
// the device. Every difference must be judged: NaN bits (clconv's rules
// decide) or a Known difference; any other fails the test, minimised.
func TestCISeed(t *testing.T) {
	needDevice(t)
	n := CIPrograms
	if *nProgs > 0 {
		n = *nProgs
	}
	rep := run(t, CISeed, n, false)
	if got := sum(rep.Counts); got != n && *only == "" {
		t.Errorf("%d programs classified, want %d", got, n)
	}
}

// TestLong is the long mode: -n programs (3334 by default) over each seed
// of -seeds, every class minimised once.
func TestLong(t *testing.T) {
	if !*long {
		t.Skip("the long mode runs with -long")
	}
	needDevice(t)
	n := 3334
	if *nProgs > 0 {
		n = *nProgs
	}
	var out strings.Builder
	total := map[Class]int{}
	for _, s := range strings.Split(*seedList, ",") {
		seed, err := strconv.ParseUint(strings.TrimSpace(s), 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		rep := run(t, seed, n, true)
		rep.WriteText(&out)
		out.WriteString("\n")
		for c, k := range rep.Counts {
			total[c] += k
		}
	}
	fmt.Fprintf(&out, "total: %d programs: %s\n", sum(total), countLine(total))
	t.Log("\n" + out.String())
	if *report != "" {
		if err := os.WriteFile(*report, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, seed uint64, n int, judged bool) *Report {
	t.Helper()
	start := time.Now()
	var indexes []int
	for _, s := range strings.Split(*only, ",") {
		if s = strings.TrimSpace(s); s != "" {
			i, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("-only: %v", err)
			}
			indexes = append(indexes, i)
		}
	}
	rep, err := Run(context.Background(), Options{
		Seed: seed, N: n, Only: indexes, Exe: os.Args[0], Workers: *workers,
		Minimize: *minimize, MinimizeJudged: judged, Log: testLog{t},
	})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	rep.WriteText(&sb)
	if !judged {
		t.Logf("%s", sb.String())
	}
	for _, f := range rep.Unjudged() {
		t.Errorf("program %d of seed %d: %s needs a judgement (see the report above):\n%s", f.Index, seed, f.Class, f.Program)
	}
	t.Logf("seed %d: %d programs in %v", seed, n, time.Since(start).Round(time.Millisecond))
	return rep
}

type testLog struct{ t *testing.T }

func (l testLog) Write(b []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func sum(m map[Class]int) int {
	n := 0
	for _, k := range m {
		n += k
	}
	return n
}
