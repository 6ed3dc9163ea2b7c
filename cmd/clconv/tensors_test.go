package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/safetensors"
)

// stFile writes a safetensors file with an F32 tensor "w" of xs, an I32
// tensor "n" and metadata, and returns its path.
func stFile(t *testing.T, dir string, xs ...float32) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := safetensors.NewWriter(&buf, []safetensors.TensorInfo{
		{Name: "w", DType: safetensors.F32, Shape: []int64{int64(len(xs))}},
		{Name: "n", DType: safetensors.I32, Shape: []int64{2}},
	}, map[string]string{"format": "pt"})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(convFloats(xs...))
	w.Write([]byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return convWrite(t, dir, "in.safetensors", buf.Bytes())
}

func TestSafetensorsCLI(t *testing.T) {
	dir := t.TempDir()
	in := stFile(t, dir, 0.1, -3.25, 448, 464, float32(math.Inf(1)), float32(math.NaN()))
	out := filepath.Join(dir, "out.safetensors")
	// Ecosystem names: bf16 is bfloat16.
	stdout, stderr, st := convRun(t, nil, "convert", "--to", "bf16", "--stats", in, out)
	if st != 0 || !strings.Contains(stdout, "w: convert F32 -> BF16") || !strings.Contains(stdout, "n: keep I32") {
		t.Fatalf("convert: status %d, stdout %q, stderr %q", st, stdout, stderr)
	}
	f, err := safetensors.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := safetensors.ReadTensor[float32](f, "w", safetensors.ReadOptions{})
	f.Close()
	if err != nil || got[0] != 0.10009765625 || got[1] != -3.25 || got[3] != 464 || !math.IsInf(float64(got[4]), 1) || !math.IsNaN(float64(got[5])) {
		t.Errorf("converted w = %v, %v", got, err)
	}
	// inspect lists tensors; --stats --to counts what e4m3 would do.
	stdout, _, st = convRun(t, nil, "inspect", "--stats", "--to", "float8_e4m3fn", in)
	if st != 0 || !strings.Contains(stdout, "convert_e4m3: clamped") || !strings.Contains(stdout, "-3.25") {
		t.Errorf("inspect --stats: status %d:\n%s", st, stdout)
	}
	stdout, _, st = convRun(t, nil, "inspect", "--json", out)
	var rep stReport
	if st != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || len(rep.Tensors) != 2 || rep.Tensors[0].Dtype != "BF16" || rep.Metadata["format"] != "pt" {
		t.Errorf("inspect --json: status %d: %s", st, stdout)
	}
	// Selection: --skip keeps w as it is.
	out2 := filepath.Join(dir, "out2.safetensors")
	if _, stderr, st := convRun(t, nil, "convert", "--to", "float16", "--skip", "w*", in, out2); st != 0 {
		t.Fatalf("--skip: %d %s", st, stderr)
	}
	a, _ := os.ReadFile(in)
	b, _ := os.ReadFile(out2)
	if !bytes.Equal(a, b) {
		t.Errorf("--skip of every floating tensor changed the file")
	}
	// Errors: exit status 2 for the command line, 1 for bad data, a message, no output.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", "--to", "int", in, filepath.Join(dir, "x.safetensors")}, "give a floating type"},
		{[]string{"convert", "--to", "bf16", in, "-"}, "not '-'"},
		{[]string{"convert", "--to", "bf16", "--from", "float", in, filepath.Join(dir, "x.safetensors")}, "--from does not apply"},
		{[]string{"convert", "--to", "bf16", in, out}, "exists"},
		{[]string{"convert", "--to", "bf16", "--block-size", "12", in, filepath.Join(dir, "x.safetensors")}, "want ROWSxCOLS"},
		{[]string{"convert", "--to", "bf16", "--block-size", "128x128", in, filepath.Join(dir, "x.safetensors")}, "quantizes to e4m3 or e5m2"},
		{[]string{"convert", "--to", "flaot16", in, filepath.Join(dir, "x.safetensors")}, `did you mean "float16"`},
		{[]string{"convert", "--to", "float4", in, filepath.Join(dir, "x.safetensors")}, "an OpenCL vector type"},
		{[]string{"convert", "--to", "bf16", "--tensors", "w", convWrite(t, dir, "bad.safetensors", []byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":1}        ")), filepath.Join(dir, "x.safetensors")}, "offset"},
	} {
		_, stderr, st := convRun(t, nil, c.args...)
		want := exitUsage
		if c.want == "offset" {
			want = exitBad
		}
		if st != want || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", c.args, st, stderr, want, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "x.safetensors")); err == nil {
			t.Errorf("%v left an output", c.args)
		}
	}
	// --to with a NumPy name for .npy input too: uint8 is uchar, not uint.
	npy := convWrite(t, dir, "a.npy", convNPY([]int64{2}, false, 1.5, 300))
	if _, stderr, st := convRun(t, nil, "convert", "--to", "uint8", "--sat", npy, filepath.Join(dir, "b.npy")); st != 0 {
		t.Fatalf("--to uint8: %s", stderr)
	}
	h, data := convReadNPY(t, filepath.Join(dir, "b.npy"))
	if h.Kind.String() != "uchar" || !bytes.Equal(data, []byte{1, 255}) {
		t.Errorf("--to uint8 gave %v %v", h.Kind, data)
	}
}
