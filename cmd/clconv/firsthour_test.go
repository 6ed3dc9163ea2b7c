package main

// Issue 42, "the first hour" of an ML user: convert --help covers
// checkpoints and every --to name, the ML names clconv does not have get
// the ones it does, and --to mxfp4 of an FP8 checkpoint works.

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

func TestConvertHelpCoversCheckpoints(t *testing.T) {
	stdout, stderr, status := clconv(t, "", "convert", "--help")
	if status != 0 || stderr != "" {
		t.Fatalf("convert --help: status %d, stderr %q", status, stderr)
	}
	help := strings.Join(strings.Fields(stdout), " ") // the text without its line breaks
	for _, w := range []string{
		// what IN may be
		".npy", "raw", "a safetensors file, a checkpoint directory or its model.safetensors.index.json",
		// the layouts dequantized, and to what, with one rounding
		"DeepSeek-V3", "compressed-tensors FP8", "gpt-oss MXFP4", "ModelOpt NVFP4",
		"dequantized with one rounding by --to half, float, double or bfloat16",
		"byte for byte, with a warning", "--keep-raw",
		// examples
		"clconv convert --to bf16 DeepSeek-V3/ DeepSeek-V3-bf16/",
		"--to e4m3 --block-size 128x128 --recipe deepseek --rest bf16", "by --recipe exact, deepseek or transformers", "compressed-tensors (X_scale in the weight's dtype, its config)", "unless --tensors says otherwise",
		"clconv convert --to mxfp4 model.safetensors out.safetensors",
		"clconv convert --to bf16 --keep-raw",
		// the output-safety sentences
		"read back and checked", "no partial or temporary output is left",
		"OUT may not be IN, contain IN or lie inside an input checkpoint",
	} {
		if !strings.Contains(help, w) {
			t.Errorf("convert --help lacks %q", w)
		}
	}
	// --to's description names every type and every block format.
	m := regexp.MustCompile(`--to string +(.*)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("convert --help has no --to flag:\n%s", stdout)
	}
	to := m[1]
	names := []string{"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
		"half", "float", "double", "bfloat16", "e4m3", "e5m2", "e2m1", "e2m3", "e3m2", "e8m0"}
	for _, n := range names {
		if k, err := cltype.Lookup(n); err != nil || k.String() != n {
			t.Errorf("%s: %v %v", n, k, err)
		}
	}
	for _, f := range mx.Formats {
		names = append(names, f.Name)
		if !strings.Contains(help, f.Name) {
			t.Errorf("convert --help's text lacks %s", f.Name)
		}
	}
	for _, n := range names {
		if !regexp.MustCompile(`(^|[ :,])` + regexp.QuoteMeta(n) + `([ ,);]|$)`).MatchString(to) {
			t.Errorf("--to's description lacks %s: %q", n, to)
		}
	}
}

// The --to names ML users try and clconv does not have: exit 2 and the
// formats that exist; vector types keep their message.
func TestConvertTypeHints(t *testing.T) {
	dir := t.TempDir()
	in := convWrite(t, dir, "in.npy", convNPY([]int64{2}, false, 1, 2))
	out := filepath.Join(dir, "out.npy")
	cases := []struct {
		to   string
		want []string
	}{
		{"fp8", []string{`unknown type "fp8"`, "did you mean e4m3 (OCP E4M3, float8_e4m3fn) or e5m2", "mxfp8-e4m3"}},
		{"FP8", []string{"did you mean e4m3", "e5m2"}},
		{"float8", []string{"an OpenCL vector type", "For FP8: did you mean e4m3 (OCP E4M3, float8_e4m3fn) or e5m2"}},
		{"f8", []string{"NumPy's f8 is float64", "did you mean e4m3"}},
		{"fp4", []string{"did you mean e2m1", "one element per byte", "mxfp4 and nvfp4"}},
		{"float4", []string{"an OpenCL vector type", "did you mean e2m1", "mxfp4 and nvfp4"}},
		{"f4", []string{"NumPy's f4 is float32", "did you mean e2m1", "mxfp4 and nvfp4"}},
		{"int4", []string{"an OpenCL vector type", "no 4-bit integer type", "e2m1", "mxfp4 and nvfp4"}},
		{"nf4", []string{`unknown type "nf4"`, "no 4-bit integer type", "e2m1", "mxfp4 and nvfp4"}},
		{"q4", []string{"no 4-bit integer type", "e2m1", "mxfp4 and nvfp4"}},
		{"fp6", []string{"did you mean e2m3 or e3m2", "mxfp6-e2m3 and mxfp6-e3m2"}},
		// unchanged
		{"flaot16", []string{`did you mean "float16"`}},
		{"quad", []string{`unknown type "quad"`}},
		{"half4", []string{"--to half4: an OpenCL vector type; convert works element by element: give a scalar type\n"}},
		{"mxfp3", []string{"mxfp4, mxfp6-e2m3"}},
	}
	for _, c := range cases {
		stdout, stderr, status := clconv(t, "", "convert", "--to", c.to, in, out)
		if status != 2 || stdout != "" {
			t.Errorf("--to %s: status %d, stdout %q; want 2", c.to, status, stdout)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("--to %s: %q lacks %q", c.to, stderr, w)
			}
		}
		if strings.Count(stderr, "\n") != 1 {
			t.Errorf("--to %s: %q is not one line", c.to, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("--to %s wrote %s", c.to, out)
		}
	}
	// Every name a hint offers exists.
	word := regexp.MustCompile(`\b(e[0-9]m[0-9]|mxfp[0-9](-e[0-9]m[0-9])?|nvfp4|float[0-9]_e[0-9]m[0-9][a-z]*)\b`)
	for _, h := range convTypeHints {
		for _, n := range word.FindAllString(h.hint, -1) {
			_, err := cltype.Lookup(n)
			if _, merr := mx.ParseFormat(n); err != nil && merr != nil {
				t.Errorf("hint for %v names %q, which is neither a type nor a block format", h.names, n)
			}
		}
		for _, n := range h.names {
			if _, err := cltype.Lookup(n); err == nil {
				t.Errorf("hint for %q, which Lookup takes", n)
			}
		}
	}
}

// stFP8Checkpoint writes into dir a DeepSeek-V3-style FP8 checkpoint with
// config.json (weight_block_size [2, 2]): "x.weight" F8_E4M3 [4, 64],
// "x.weight_scale_inv" F32 [2, 32], and a plain F32 "y" [2, 32].
func stFP8Checkpoint(t *testing.T, dir string) {
	t.Helper()
	w := make([]byte, 4*64)
	for i := range w {
		w[i] = byte(i*37) & 0x77 // finite E4M3
	}
	sc := make([]byte, 4*64)
	for i := range 64 {
		binary.LittleEndian.PutUint32(sc[4*i:], math.Float32bits(float32(i%5+1)/4))
	}
	y := make([]float32, 64)
	for i := range y {
		y[i] = float32(i-30) / 3
	}
	var buf bytes.Buffer
	sw, err := safetensors.NewWriter(&buf, []safetensors.TensorInfo{
		{Name: "x.weight", DType: safetensors.F8_E4M3, Shape: []int64{4, 64}},
		{Name: "x.weight_scale_inv", DType: safetensors.F32, Shape: []int64{2, 32}},
		{Name: "y", DType: safetensors.F32, Shape: []int64{2, 32}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sw.Write(w)
	sw.Write(sc)
	sw.Write(convFloats(y...))
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	convWrite(t, dir, "model.safetensors", buf.Bytes())
	convWrite(t, dir, "config.json", []byte(`{"quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`))
}

// --to mxfp4 of an FP8 checkpoint whose config.json gives the weight block
// size keeps the FP8 weight and its scale byte for byte, with a warning,
// and quantizes the plain tensor (it used to fail: "takes no FP8 block
// size").
func TestConvertMXOfFP8Checkpoint(t *testing.T) {
	root := t.TempDir()
	model := filepath.Join(root, "model")
	os.Mkdir(model, 0o777)
	stFP8Checkpoint(t, model)
	src := filepath.Join(model, "model.safetensors")
	for _, c := range []struct{ in, out, file string }{
		{model, filepath.Join(root, "dir-mxfp4"), filepath.Join("dir-mxfp4", "model.safetensors")},
		{src, filepath.Join(root, "file-mxfp4.safetensors"), "file-mxfp4.safetensors"},
	} {
		stdout, stderr, status := clconv(t, "", "convert", "--to", "mxfp4", "--tensors", "*", "--stats", c.in, c.out)
		if status != 0 {
			t.Errorf("convert --to mxfp4 %s: status %d, stderr %q", c.in, status, stderr)
			continue
		}
		if !strings.Contains(stderr, "warning: 2 block-scaled weight(s) and scale(s) were kept byte for byte") {
			t.Errorf("convert --to mxfp4 %s: stderr %q, want the kept layout named", c.in, stderr)
		}
		if !strings.Contains(stderr, "dequantize them first: clconv convert --to double IN WIDE (exact; --to bf16 is smaller but rounds once more), then clconv convert --to mxfp4 WIDE OUT") {
			t.Errorf("convert --to mxfp4 %s: stderr %q, want how to quantize the kept weights", c.in, stderr)
		}
		if !strings.Contains(stdout, "1 tensors quantized, 2 kept") {
			t.Errorf("convert --to mxfp4 %s: stdout %q", c.in, stdout)
		}
		out := filepath.Join(root, c.file)
		for _, n := range []string{"y.blocks", "y.scales"} {
			if _, ti, _ := mxTensorBytes(t, out, n); ti.DType != safetensors.U8 {
				t.Errorf("convert --to mxfp4 %s: %s is %s", c.in, n, ti.DType)
			}
		}
		for _, n := range []string{"x.weight", "x.weight_scale_inv"} {
			want, wi, _ := mxTensorBytes(t, src, n)
			got, gi, _ := mxTensorBytes(t, out, n)
			if !bytes.Equal(got, want) || gi.DType != wi.DType || !equalInts(gi.Shape, wi.Shape) {
				t.Errorf("convert --to mxfp4 %s: %s not kept byte for byte", c.in, n)
			}
		}
	}
}
