package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
)

// convRun runs clconv with args and stdin and returns stdout, stderr and the
// exit status.
func convRun(t *testing.T, stdin []byte, args ...string) (string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status := run(args, bytes.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), status
}

// convFloats returns xs as little-endian float32 bytes.
func convFloats(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// convNPY returns a .npy file of float32 xs with the given shape.
func convNPY(shape []int64, fortran bool, xs ...float32) []byte {
	return append(fileconv.EncodeHeader(cltype.Float, fortran, shape, 0), convFloats(xs...)...)
}

// convReadNPY reads a .npy file and returns its header and data.
func convReadNPY(t *testing.T, path string) (*fileconv.Header, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, err := fileconv.ReadHeader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return h, b[h.DataOffset:]
}

// convWrite writes a file in dir and returns its path.
func convWrite(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// convDirNames lists dir.
func convDirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// seed001 is the input of seed 001: convert_uchar_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f)) == (0, 254, 255, 255).
var seed001 = []float32{-5, 254.5, 254.6, 1.2e9}

func TestConvertCLI(t *testing.T) {
	dir := t.TempDir()
	in := convWrite(t, dir, "in.npy", convNPY([]int64{2, 2}, true, seed001...))
	out := filepath.Join(dir, "out.npy")
	stdout, stderr, st := convRun(t, nil, "convert", "--to", "uchar", "--sat", "--round", "rte", in, out)
	if st != 0 || stdout != "" || stderr != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", st, stdout, stderr)
	}
	h, data := convReadNPY(t, out)
	if h.Kind != cltype.Uchar || !h.Fortran || !slices.Equal(h.Shape, []int64{2, 2}) || !bytes.Equal(data, []byte{0, 254, 255, 255}) {
		t.Errorf("output %+v %v", h, data)
	}
	// --name spells the same conversion; without --force OUT is not replaced.
	if _, stderr, st := convRun(t, nil, "convert", "--name", "convert_uchar_sat_rte", in, out); st != 2 || !strings.Contains(stderr, "exists: use --force") {
		t.Errorf("existing OUT: status %d, %q", st, stderr)
	}
	if _, stderr, st := convRun(t, nil, "convert", "--name", "convert_uchar_sat_rte", "--force", in, out); st != 0 {
		t.Errorf("--name --force: status %d, %q", st, stderr)
	}
	if _, data2 := convReadNPY(t, out); !bytes.Equal(data2, data) {
		t.Errorf("--name gave %v, --to gave %v", data2, data)
	}
	// Without --round: rtz to integers (OpenCL's default).
	if _, _, st := convRun(t, nil, "convert", "--name", "uchar_sat", "-f", in, out); st != 0 {
		t.Fatal(st)
	}
	if _, d := convReadNPY(t, out); !bytes.Equal(d, []byte{0, 254, 254, 255}) {
		t.Errorf("rtz default: %v", d)
	}
	// .raw output by extension, then raw back in with --from.
	raw := filepath.Join(dir, "out.raw")
	if _, stderr, st := convRun(t, nil, "convert", "--to", "half", in, raw); st != 0 {
		t.Fatalf("to raw: %d %q", st, stderr)
	}
	if b, _ := os.ReadFile(raw); len(b) != 8 {
		t.Errorf("raw output has %d bytes", len(b))
	}
	back := filepath.Join(dir, "back.npy")
	if _, stderr, st := convRun(t, nil, "convert", "--from", "half", "--to", "float", raw, back); st != 0 {
		t.Fatalf("raw in: %d %q", st, stderr)
	}
	if h, d := convReadNPY(t, back); !slices.Equal(h.Shape, []int64{4}) || !bytes.Equal(d, convFloats(-5, 254.5, 254.625, float32(math.Inf(1)))) {
		t.Errorf("raw -> npy: %+v %v", h, d)
	}
	if names := convDirNames(t, dir); !slices.Equal(names, []string{"back.npy", "in.npy", "out.npy", "out.raw"}) {
		t.Errorf("directory: %v", names)
	}
}

func TestConvertCLIStdio(t *testing.T) {
	in := convNPY([]int64{4}, false, seed001...)
	stdout, stderr, st := convRun(t, in, "convert", "--to", "uchar", "--sat", "--round", "rte", "--stats", "-", "-")
	if st != 0 {
		t.Fatalf("status %d: %s", st, stderr)
	}
	h, err := fileconv.ReadHeader(strings.NewReader(stdout))
	if err != nil || h.Kind != cltype.Uchar || stdout[h.DataOffset:] != "\x00\xfe\xff\xff" {
		t.Errorf("stdout %q (%v)", stdout, err)
	}
	// With OUT '-' the statistics go to stderr.
	for _, want := range []string{"convert_uchar_sat_rte: npy float -> npy uchar, 4 values", "clamped high      1", "clamped low       1", "inexact           2"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// A raw stream into raw stdout.
	stdout, stderr, st = convRun(t, convFloats(seed001...), "convert", "--from", "float", "--to", "char", "--sat", "-", "-")
	if st != 0 || stdout != "\xfb\x7f\x7f\x7f" {
		t.Errorf("raw stream: %d %q %q", st, stdout, stderr)
	}
	// A raw stream cannot become .npy on stdout (the header must be
	// rewritten at the end), but can in a file.
	var so, se bytes.Buffer
	unsized := io.MultiReader(bytes.NewReader(convFloats(seed001...))) // no Len: a stream of unknown length
	if st := run([]string{"convert", "--from", "float", "--to", "char", "--out-format", "npy", "-", "-"}, unsized, &so, &se); st != 2 || !strings.Contains(se.String(), "before knowing the input's length") {
		t.Errorf("raw stream to .npy stdout: %d %q", st, se.String())
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "o.npy")
	se.Reset()
	unsized = io.MultiReader(bytes.NewReader(convFloats(seed001...)))
	if st := run([]string{"convert", "--from", "float", "--to", "char", "--sat", "-", out}, unsized, &so, &se); st != 0 {
		t.Fatalf("raw stream to .npy file: %d %q", st, se.String())
	}
	if h, d := convReadNPY(t, out); !slices.Equal(h.Shape, []int64{4}) || !bytes.Equal(d, []byte{0xfb, 0x7f, 0x7f, 0x7f}) {
		t.Errorf("raw stream to .npy file: %+v %v", h, d)
	}
}

func TestConvertCLIJSON(t *testing.T) {
	dir := t.TempDir()
	in := convWrite(t, dir, "in.npy", convNPY([]int64{4}, false, seed001...))
	stdout, stderr, st := convRun(t, nil, "convert", "--name", "convert_uchar_sat_rte", "--json", in, filepath.Join(dir, "o.npy"))
	if st != 0 {
		t.Fatalf("%d %s", st, stderr)
	}
	var rep struct {
		Conversion string
		Input      struct{ Dtype, Type string }
		Output     struct {
			Dtype string
			Shape []int64
			Count int64
		}
		Stats fileconv.Stats
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	want := fileconv.Stats{Count: 4, ClampedHigh: 1, ClampedLow: 1, Inexact: 2}
	if rep.Conversion != "convert_uchar_sat_rte" || rep.Input.Dtype != "<f4" || rep.Output.Dtype != "|u1" || rep.Output.Count != 4 || rep.Stats != want {
		t.Errorf("report %+v from %s", rep, stdout)
	}
}

// TestConvertCLIErrors checks that bad arguments give exit status 2 and bad
// data in the input exit status 1, a message naming the problem, and no
// output file.
func TestConvertCLIErrors(t *testing.T) {
	dir := t.TempDir()
	good := convWrite(t, dir, "good.npy", convNPY([]int64{4}, false, seed001...))
	npy := convNPY([]int64{4}, false, seed001...)
	tests := []struct {
		name  string
		input []byte
		args  []string
		want  string
	}{
		{"sat float", nil, []string{"--to", "float", "--sat"}, "_sat is not allowed with a floating destination"},
		{"name sat float", nil, []string{"--name", "convert_half_sat_rte"}, "_sat is not allowed"},
		{"name and to", nil, []string{"--name", "convert_int", "--to", "int"}, "leave out --to"},
		{"no type", nil, []string{}, "--to TYPE"},
		{"bad type", nil, []string{"--to", "quad"}, "unknown type"},
		{"vector", nil, []string{"--to", "uchar4"}, "give a scalar type"},
		{"bad mode", nil, []string{"--to", "int", "--round", "up"}, "unknown rounding mode"},
		{"bad from", nil, []string{"--to", "int", "--from", "bool"}, "--from bool"},
		{"bad flag", nil, []string{"--to", "int", "--frobnicate"}, "unknown flag"},
		{"bad format", nil, []string{"--to", "int", "--in-format", "csv"}, "unknown format"},
		{"raw no from", convFloats(1, 2), []string{"--to", "int"}, "raw input needs --from"},
		{"raw leftover", append(convFloats(1, 2), 7, 7), []string{"--to", "int", "--from", "float"}, "2 bytes left over at byte offset 8"},
		{"truncated", npy[:len(npy)-3], []string{"--to", "int"}, "truncated .npy data"},
		{"mismatch", append(slices.Clip(npy), 0, 0, 0, 0), []string{"--to", "int"}, "shape/size mismatch"},
		{"corrupt header", append([]byte(fileconv.NPYMagic), 1, 0, 0xff, 0xff, '{'), []string{"--to", "int"}, "truncated .npy header"},
		{"complex", append(fileconv.EncodeHeader(cltype.Float, false, []int64{1}, 0)[:0:0],
			[]byte("\x93NUMPY\x01\x00\x36\x00{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n")...), []string{"--to", "int"}, "unsupported dtype \"<c8\": complex"},
		{"from mismatch", npy, []string{"--to", "int", "--from", "double"}, "header says float"},
	}
	// Bad data in the input (a format error, a header that contradicts
	// --from) gives exit status 1.
	badData := map[string]bool{"raw leftover": true, "truncated": true, "mismatch": true,
		"corrupt header": true, "complex": true, "from mismatch": true}
	for _, tt := range tests {
		in := good
		if tt.input != nil {
			in = convWrite(t, dir, "in", tt.input)
		}
		out := filepath.Join(dir, "out.npy")
		_, stderr, st := convRun(t, nil, append(append([]string{"convert"}, tt.args...), in, out)...)
		want := exitUsage
		if badData[tt.name] {
			want = exitBad
		}
		if st != want || !strings.Contains(stderr, tt.want) || !strings.HasPrefix(stderr, "clconv convert: ") {
			t.Errorf("%s: status %d, stderr %q; want %d and %q", tt.name, st, stderr, want, tt.want)
		}
		if names := convDirNames(t, dir); slices.ContainsFunc(names, func(n string) bool { return n == "out.npy" || fileconv.IsTempName(n) }) {
			t.Errorf("%s: left %v", tt.name, names)
		}
	}
	// Wrong argument counts.
	for _, args := range [][]string{{"convert", "--to", "int"}, {"convert", "--to", "int", good}, {"convert", "--to", "int", good, "a", "b"}} {
		if _, stderr, st := convRun(t, nil, args...); st != 2 || !strings.Contains(stderr, "want IN and OUT") {
			t.Errorf("%q: %d %q", args, st, stderr)
		}
	}
	// Missing input, OUT a directory.
	if _, stderr, st := convRun(t, nil, "convert", "--to", "int", filepath.Join(dir, "nope"), filepath.Join(dir, "o")); st != 2 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing input: %d %q", st, stderr)
	}
	if _, stderr, st := convRun(t, nil, "convert", "--to", "int", good, dir); st != 2 || !strings.Contains(stderr, "is a directory") {
		t.Errorf("OUT a directory: %d %q", st, stderr)
	}
}

// TestConvertCLISameFile refuses OUT that is IN, by name or through a hard
// link, even with --force, and leaves IN untouched.
func TestConvertCLISameFile(t *testing.T) {
	dir := t.TempDir()
	data := convNPY([]int64{4}, false, seed001...)
	in := convWrite(t, dir, "in.npy", data)
	link := filepath.Join(dir, "link.npy")
	if err := os.Link(in, link); err != nil {
		t.Skipf("no hard links: %v", err)
	}
	for _, out := range []string{in, link, filepath.Join(dir, ".", "in.npy")} {
		_, stderr, st := convRun(t, nil, "convert", "--to", "float", "--force", in, out)
		if st != 2 || !strings.Contains(stderr, "OUT may not be IN") {
			t.Errorf("OUT %s: %d %q", out, st, stderr)
		}
	}
	if b, _ := os.ReadFile(in); !bytes.Equal(b, data) {
		t.Error("IN was modified")
	}
}

// convFailAfter fails with ENOSPC after n bytes, like a full disk.
type convFailAfter struct {
	w io.Writer
	n int
}

func (f *convFailAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, syscall.ENOSPC
	}
	f.n -= len(p)
	return f.w.Write(p)
}

// TestConvertCLIDiskFull makes the output fail midway: exit status 2, the
// error named, no partial OUT and no temporary file, an existing OUT
// untouched.
func TestConvertCLIDiskFull(t *testing.T) {
	defer func(f func(io.Writer) io.Writer) { convWrapOutput = f }(convWrapOutput)
	convWrapOutput = func(w io.Writer) io.Writer { return &convFailAfter{w: w, n: 300} }
	dir := t.TempDir()
	xs := make([]float32, 100000)
	in := convWrite(t, dir, "in.npy", convNPY([]int64{int64(len(xs))}, false, xs...))
	out := filepath.Join(dir, "out.npy")
	_, stderr, st := convRun(t, nil, "convert", "--to", "uchar", in, out)
	if st != 2 || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("status %d, %q", st, stderr)
	}
	if names := convDirNames(t, dir); !slices.Equal(names, []string{"in.npy"}) {
		t.Errorf("directory: %v", names)
	}
	convWrite(t, dir, "out.npy", []byte("precious"))
	if _, _, st := convRun(t, nil, "convert", "--to", "uchar", "--force", in, out); st != 2 {
		t.Errorf("status %d", st)
	}
	if b, _ := os.ReadFile(out); string(b) != "precious" {
		t.Errorf("existing OUT became %q", b)
	}
	if names := convDirNames(t, dir); !slices.Equal(names, []string{"in.npy", "out.npy"}) {
		t.Errorf("directory: %v", names)
	}
}

// TestConvertCLIDevFull writes to /dev/full, a device that is always full.
func TestConvertCLIDevFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	in := convWrite(t, dir, "in.npy", convNPY([]int64{4}, false, seed001...))
	if _, stderr, st := convRun(t, nil, "convert", "--to", "uchar", in, "/dev/full"); st != 2 || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("/dev/full: %d %q", st, stderr)
	}
}

func TestConvertCLIProgress(t *testing.T) {
	defer func(f func(io.Writer) bool) { convIsTerminal = f }(convIsTerminal)
	convIsTerminal = func(io.Writer) bool { return true }
	dir := t.TempDir()
	xs := make([]float32, 1<<20)
	in := convWrite(t, dir, "in.npy", convNPY([]int64{int64(len(xs))}, false, xs...))
	_, stderr, st := convRun(t, nil, "convert", "--to", "half", in, filepath.Join(dir, "o.npy"))
	if st != 0 || !strings.Contains(stderr, "100%") || !strings.Contains(stderr, "convert_half") {
		t.Errorf("status %d, progress %q", st, stderr)
	}
	_, stderr, _ = convRun(t, nil, "convert", "-q", "--to", "half", in, filepath.Join(dir, "o2.npy"))
	if stderr != "" {
		t.Errorf("-q printed %q", stderr)
	}
}

func TestInspectCLI(t *testing.T) {
	dir := t.TempDir()
	nan := float32(math.NaN())
	in := convWrite(t, dir, "in.npy", convNPY([]int64{2, 3}, true, 1.5, nan, -0.0, float32(math.Inf(-1)), 3e38, 0.1))
	stdout, stderr, st := convRun(t, nil, "inspect", in)
	if st != 0 {
		t.Fatalf("%d %s", st, stderr)
	}
	for _, want := range []string{"format:    npy 1.0", "dtype:     <f4 (float, byte order little)", "order:     Fortran", "shape:     (2, 3)",
		"count:     6", "min:       -inf", "max:       3e+38", "NaN:       1", "inf:       0 (+inf), 1 (-inf)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("inspect output lacks %q:\n%s", want, stdout)
		}
	}
	raw := convWrite(t, dir, "in.raw", []byte{0x00, 0x80, 0xff, 0x7f, 0x05, 0x00})
	stdout, _, st = convRun(t, nil, "inspect", "--json", "--from", "short", raw)
	var rep struct {
		Format, Dtype, Min, Max string
		Count                   int64
		Shape                   []int64
	}
	if err := json.Unmarshal([]byte(stdout), &rep); st != 0 || err != nil || rep.Format != "raw" || rep.Dtype != "<i2" || rep.Min != "-32768" || rep.Max != "32767" || rep.Count != 3 {
		t.Errorf("inspect --json: %d %v %+v %s", st, err, rep, stdout)
	}
	// stdin, and errors: exit status 2 and the other files still inspected.
	if stdout, _, st := convRun(t, convNPY([]int64{1}, false, 2), "inspect", "-"); st != 0 || !strings.Contains(stdout, "max:       2") {
		t.Errorf("inspect -: %d %s", st, stdout)
	}
	stdout, stderr, st = convRun(t, nil, "inspect", raw, in)
	if st != 2 || !strings.Contains(stderr, "raw input needs --from") || !strings.Contains(stdout, "count:     6") {
		t.Errorf("inspect raw without --from: %d %q %q", st, stderr, stdout)
	}
	if _, stderr, st := convRun(t, nil, "inspect"); st != 2 || !strings.Contains(stderr, "want at least one FILE") {
		t.Errorf("inspect without files: %d %q", st, stderr)
	}
}
