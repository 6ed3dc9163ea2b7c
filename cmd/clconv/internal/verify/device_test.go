//go:build opencl

package verify

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/testvals"
)

// TestMain asks the drivers for what clconv verify asks (DriverSettings:
// PoCL compiles each kernel once); the tests' caches are in t.TempDir().
// Started as a build process (IsWorker: the tests of worker_test.go start
// this test binary as one), it serves as one, a faulty one where
// testWorkerFault says so.
func TestMain(m *testing.M) {
	if IsWorker() {
		os.Exit(testWorkerMain())
	}
	cleanup := DriverSettings()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// testDevice returns the first OpenCL device, skipping the test where no
// platform is installed (CI installs PoCL: pocl-opencl-icd).
func testDevice(t *testing.T) *opencl.Device {
	t.Helper()
	d, err := opencl.FirstDevice()
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Skip("no OpenCL platform with a device (install pocl-opencl-icd)")
	}
	return d
}

// representative is the CI subset: every kind of path (integer <-> integer
// with and without _sat, float -> integer in every mode with its
// implementation-defined inputs, integer -> float rounding, narrowing and
// widening floats, half through vload_half/vstore_half, 64-bit samples).
const representative = "convert_int*_sat* float,convert_uchar_sat_rte float,convert_char_rtn float,convert_uint_rtp float," +
	"convert_short* int,convert_uchar* short,convert_ulong_sat char,convert_long_sat_rtz ulong," +
	"convert_float* int,convert_float_rtp ulong,convert_double_rtn long,convert_float* double," +
	"convert_half* float,convert_half_rtz double,convert_half half,convert_float half,convert_int_sat_rte half," +
	"convert_ulong_sat_rtp double,convert_long double,convert_double float"

// TestQuickRepresentative verifies the device over the CI subset. A
// failure there is a finding about the device (PoCL 3.1 passes them all);
// the test fails so that it is looked at.
func TestQuickRepresentative(t *testing.T) {
	dev := testDevice(t)
	rep, err := Run(dev, Options{Quick: true, Only: representative})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	rep.WriteText(&sb)
	t.Logf("%s", sb.String())
	if rep.Passed+rep.Failed < 50 {
		t.Errorf("only %d conversions ran", rep.Passed+rep.Failed)
	}
	for _, c := range rep.Conversions {
		if c.Status == StatusError || (c.Status == StatusPass && c.Inputs == 0) {
			t.Errorf("%s %s: %s %s (%d inputs)", c.Conversion, c.Source, c.Status, c.Reason, c.Inputs)
		}
	}
	if !rep.OK() {
		t.Errorf("%s failed verification: see the report above", dev.Name)
	}
	if len(rep.ImplDefined) == 0 {
		t.Error("no implementation-defined summary for the non-saturated float -> integer conversions")
	}
}

// TestInjectedNaNFault runs a kernel whose convert_int_sat_rte(float) gives 1
// for NaN (the bug NVIDIA's driver has in some _sat conversions) and checks
// that the checker finds exactly the NaN inputs and names the rule, while
// the other conversions of the same program pass: once with the program
// built from source, once with its binary from the cache.
func TestInjectedNaNFault(t *testing.T) {
	dev := testDevice(t)
	f, err := ParseFault("convert_int_sat_rte float:nan")
	if err != nil {
		t.Fatal(err)
	}
	cache := NewBinCache(t.TempDir())
	for _, fromCache := range []bool{false, true} {
		rep, err := Run(dev, Options{Quick: true, Only: "convert_int_sat* float", Fault: f, NoAsType: true, Widths: []int{4}, Programs: cache})
		if err != nil {
			t.Fatal(err)
		}
		if c := rep.Cache; fromCache && (c.Loaded != 1 || c.Built != 0) || !fromCache && (c.Loaded != 0 || c.Built != 1 || c.Stored != 1) {
			t.Errorf("from the cache %v: %+v", fromCache, c)
		}
		checkNaNFault(t, rep)
	}
}

func checkNaNFault(t *testing.T, rep *Report) {
	t.Helper()
	// The NaNs among the inputs checked: the quick slices and the edge values.
	var nans uint64
	for _, s := range Slices(cltype.Float, true) {
		for i := s.Start; i < s.Start+s.Len; i++ {
			if digestspec.IsNaN(cltype.Float, i) {
				nans++
			}
		}
	}
	for _, b := range testvals.Edges(cltype.Float) {
		if digestspec.IsNaN(cltype.Float, b) {
			nans++
		}
	}
	for _, c := range rep.Conversions {
		if c.Conversion != "convert_int_sat_rte" {
			if c.Status != StatusPass {
				t.Errorf("%s %s: %s, want pass", c.Conversion, c.Source, c.Status)
			}
			continue
		}
		// the vector lanes (kernel vec has no fault) add nothing
		if c.Status != StatusFail || c.Failing != nans || c.Rules["NaN must convert to 0 under _sat"] != nans || len(c.Rules) != 1 {
			t.Errorf("faulty conversion: status %s, %d failing inputs %v; want fail with %d NaNs", c.Status, c.Failing, c.Rules, nans)
		}
		if c.BadSlices != 4 { // chunks 0x7f and 0xff each have two slices of NaNs
			t.Errorf("%d bad slices, want 4", c.BadSlices)
		}
	}
	if len(rep.Failures) == 0 {
		t.Fatal("no failures listed")
	}
	checks := map[string]bool{}
	for _, fl := range rep.Failures {
		checks[fl.Check] = true
		if fl.Conversion != "convert_int_sat_rte" || fl.Source != "float" || !strings.HasSuffix(fl.InputValue, "nan") ||
			fl.Device != "0x00000001" || fl.Expected != "0x00000000" || fl.Rule != "NaN must convert to 0 under _sat" {
			t.Errorf("unexpected failure %+v", fl)
		}
	}
	if !checks["edges"] || !checks["digest"] {
		t.Errorf("failures listed from the checks %v, want edges and digest", checks)
	}
	if rep.OK() {
		t.Error("report says OK")
	}
	if len(rep.ByRule) != 1 || rep.ByRule[0].Conversions != 1 || rep.ByRule[0].Inputs != nans {
		t.Errorf("failures by rule: %+v", rep.ByRule)
	}
	var sb strings.Builder
	rep.WriteText(&sb)
	text := strings.Join(strings.Fields(sb.String()), " ")
	for _, want := range []string{
		"NaN must convert to 0 under _sat: 1 conversions,",
		"convert_int_sat_rte float edges 0x7f800001 nan 0x00000000 = 0 0x00000001 = 1",
		"float convert_int_sat_rte:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, sb.String())
		}
	}
}

// TestCorruptCacheEntry corrupts the cached binary of a program in the ways
// a cache can go wrong and shows that each time the program is rebuilt from
// source with a notice, and the run passes.
func TestCorruptCacheEntry(t *testing.T) {
	dev := testDevice(t)
	cache := NewBinCache(t.TempDir())
	o := Options{Only: "convert_float_rtz short,convert_char_sat ushort", NoAsType: true, NoVectors: true, Programs: cache}
	run := func(what string) *Report {
		t.Helper()
		rep, err := Run(dev, o)
		if err != nil {
			t.Fatal(err)
		}
		if !rep.OK() || rep.Passed != 2 {
			t.Errorf("%s: passed %d, OK %v: %v", what, rep.Passed, rep.OK(), rep.Errors)
		}
		return rep
	}
	rep := run("first run")
	if rep.Cache.Built != 2 || rep.Cache.Stored != 2 || len(rep.Notices) != 0 {
		t.Fatalf("first run: cache %+v, notices %q", rep.Cache, rep.Notices)
	}
	entries := cache.Entries()
	if len(entries) != 2 {
		t.Fatalf("%d cache entries, want 2", len(entries))
	}
	if rep = run("warm run"); rep.Cache.Loaded != 2 || rep.Cache.Built != 0 {
		t.Errorf("warm run: cache %+v", rep.Cache)
	}
	for _, tt := range []struct {
		name    string
		corrupt func(path string, data []byte) []byte
		note    string
	}{
		{"a flipped byte", func(_ string, d []byte) []byte { d[len(d)/2+37] ^= 0x10; return d }, "rebuilding"},
		{"truncated", func(_ string, d []byte) []byte { return d[:len(d)-100] }, "corrupt"},
		{"another driver's binary, checksum right", func(_ string, d []byte) []byte {
			e, err := unmarshalBinEntry(d)
			if err != nil {
				t.Fatal(err)
			}
			e.bin = []byte("not a binary this driver could load")
			return e.marshal()
		}, "the driver rejected the cached binary"},
	} {
		if testing.Short() && tt.name != "a flipped byte" {
			continue // CI's -race -short run: one kind of corruption
		}
		for _, p := range entries {
			d, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tt.corrupt(p, d), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		rep := run(tt.name)
		if rep.Cache.Built != 2 || rep.Cache.Loaded != 0 || rep.Cache.Stored != 2 {
			t.Errorf("%s: cache %+v, want both programs rebuilt and stored", tt.name, rep.Cache)
		}
		if len(rep.Notices) != 2 || !strings.Contains(rep.Notices[0], tt.note) || !strings.Contains(rep.Notices[0], "rebuilding") {
			t.Errorf("%s: notices %q, want two saying %q", tt.name, rep.Notices, tt.note)
		}
		var sb strings.Builder
		rep.WriteText(&sb)
		if !strings.Contains(sb.String(), "note: program cache: ") {
			t.Errorf("%s: the text report has no note:\n%s", tt.name, sb.String())
		}
		if got, _ := filepath.Glob(filepath.Join(cache.Dir, "*.bin")); len(got) != 2 {
			t.Errorf("%s: %d entries after the rebuild", tt.name, len(got))
		}
	}
}

// TestInjectedLSBFault flips one result bit for inputs ending in 0x5a in an
// exhaustively checked conversion: the digest must find exactly those.
func TestInjectedLSBFault(t *testing.T) {
	dev := testDevice(t)
	f, _ := ParseFault("convert_float_rtz short:lsb")
	rep, err := Run(dev, Options{Only: "convert_float_rtz short", Fault: f, NoAsType: true, NoVectors: true, Examples: 1000})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Conversions[0]
	if c.Inputs != 1<<16 || c.Status != StatusFail {
		t.Fatalf("%+v", c)
	}
	want := map[string]bool{}
	for i := uint64(0x5a); i < 1<<16; i += 0x100 {
		want[hexBits(cltype.Short, i)] = true
	}
	var edges uint64
	for _, b := range testvals.Edges(cltype.Short) {
		if b&0xff == 0x5a {
			edges++
		}
	}
	if c.Failing != uint64(len(want))+edges {
		t.Errorf("%d failing inputs, want %d from the digest and %d from the edges", c.Failing, len(want), edges)
	}
	for _, fl := range rep.Failures {
		if !want[fl.Input] {
			t.Errorf("failure on input %s, which the fault does not touch", fl.Input)
		}
		if fl.Check == "digest" {
			delete(want, fl.Input)
		}
	}
	if len(want) > 0 {
		t.Errorf("%d faulty inputs not listed by the digest rerun", len(want))
	}
}

// TestDigestKernel checks that the device computes the digest of
// ORACLES.md: the device's full digest of a small source equals
// digest.Compute's.
func TestDigestKernel(t *testing.T) {
	dev := testDevice(t)
	rep, err := Run(dev, Options{Only: "convert_float_rtn short,convert_char_sat ushort", NoAsType: true, NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Conversions {
		if c.Status != StatusPass || c.Inputs != 1<<16 || c.Slices != 1 {
			t.Errorf("%+v", c)
		}
	}
}

// TestInterrupted checks that a cancelled run reports every conversion as
// not run, is not OK, and has no failure.
func TestInterrupted(t *testing.T) {
	dev := testDevice(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(dev, Options{Quick: true, Only: "convert_int_sat float,convert_uchar short", Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted || rep.OK() || rep.AnyFailed() || rep.NotRun != 2 || rep.Passed != 0 {
		t.Errorf("interrupted %v, OK %v, failed %v, not run %d, passed %d; want true, false, false, 2, 0",
			rep.Interrupted, rep.OK(), rep.AnyFailed(), rep.NotRun, rep.Passed)
	}
	var sb strings.Builder
	rep.WriteText(&sb)
	if !strings.Contains(sb.String(), "INCOMPLETE: 0 conversions passed") {
		t.Errorf("report does not say INCOMPLETE:\n%s", sb.String())
	}
}
