package ggufconv

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// plannerFile writes a GGUF file of a small llama block with quantized
// weights (Q4_K, Q8_0, Q6_K, an F16 and a 3-D expert tensor), an F32
// norm and a Q4_K token embedding, and returns the file and each tensor's
// float32 values as ggml dequantizes them.
func plannerFile(t *testing.T, path string) (*gguf.File, map[string][]float32) {
	t.Helper()
	f := &gguf.File{KV: []gguf.KV{
		{Key: "general.architecture", Value: gguf.NewString("llama")},
		{Key: "llama.block_count", Value: gguf.NewUint32(1)},
	}}
	var data [][]byte
	want := map[string][]float32{}
	add := func(name string, typ ggml.Type, dims []uint64, seed float64) {
		n := 1
		for _, d := range dims {
			n *= int(d)
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(math.Sin(float64(i)*0.37+seed) * (1 + float64(i%7)))
		}
		if name == "blk.0.attn_q.weight" {
			v[300] = 1e4 // one outlier: its block's scale differs
		}
		rs, _ := typ.RowSize(int(dims[0]))
		b := make([]byte, n/int(dims[0])*rs)
		if _, err := ggml.Quantize(typ, b, v, int(dims[0]), nil); err != nil {
			t.Fatal(err)
		}
		deq := make([]float32, n)
		if err := ggml.Dequantize(typ, deq, b); err != nil {
			t.Fatal(err)
		}
		f.Tensors = append(f.Tensors, gguf.TensorInfo{Name: name, Type: typ, Dims: dims})
		data = append(data, b)
		want[name] = deq
	}
	add("token_embd.weight", ggml.Q4_K, []uint64{256, 6}, 0.1)
	add("blk.0.attn_norm.weight", ggml.F32, []uint64{256}, 0.2)
	add("blk.0.attn_q.weight", ggml.Q4_K, []uint64{512, 5}, 0.3)
	add("blk.0.attn_output.weight", ggml.Q8_0, []uint64{96, 7}, 0.4)
	add("blk.0.ffn_down.weight", ggml.Q6_K, []uint64{256, 3}, 0.5)
	add("blk.0.ffn_up.weight", ggml.F16, []uint64{64, 9}, 0.6)
	add("blk.0.ffn_gate_exps.weight", ggml.Q8_0, []uint64{64, 4, 2}, 0.7)
	add("output.weight", ggml.Q8_0, []uint64{256, 6}, 0.8)
	var buf bytes.Buffer
	if err := gguf.Write(&buf, f, func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil }); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return f, want
}

// TestPlannerQuantizesGGUF converts a GGUF file of quantized tensors
// through package checkpoint's planner with FP8 block quantization (and
// --rest), and with an MX block format, and checks the output byte for
// byte against the planner run on a safetensors file of the same float32
// values, ggml's dequantization of each tensor: the GGUF codec changes
// nothing but where the floats come from.
func TestPlannerQuantizesGGUF(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.gguf")
	f, want := plannerFile(t, src)

	// The reference: the same floats as F32 tensors of a safetensors file,
	// with the same __metadata__.
	ref := filepath.Join(dir, "ref.safetensors")
	infos := make([]safetensors.TensorInfo, len(f.Tensors))
	for i, ti := range f.Tensors {
		shape := []int64{}
		for _, d := range ti.Shape() {
			shape = append(shape, int64(d))
		}
		infos[i] = safetensors.TensorInfo{Name: ti.Name, DType: safetensors.F32, Shape: shape}
	}
	var rb bytes.Buffer
	w, err := safetensors.NewWriter(&rb, infos, metadata(f))
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range f.Tensors {
		w.Write(f32le(want[ti.Name]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ref, rb.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	for _, c := range []struct {
		name string
		opt  checkpoint.Options
	}{
		{"e4m3 128x128 rest bf16", checkpoint.Options{To: cltype.E4M3, BlockSize: [2]int{128, 128}, Rest: cltype.BFloat16}},
		{"e4m3 2x96 deepseek", checkpoint.Options{To: cltype.E4M3, BlockSize: [2]int{2, 96}, Recipe: checkpoint.RecipeDeepSeek}},
		{"e5m2 3x32 stats", checkpoint.Options{To: cltype.E5M2, BlockSize: [2]int{3, 32}, Stats: true, Workers: 3}},
		{"mxfp4 rest half", checkpoint.Options{Block: mx.MXFP4, Rest: cltype.Half}},
		{"half rtz", checkpoint.Options{To: cltype.Half, Mode: round.RTZ}},
	} {
		got, exp := filepath.Join(dir, "got.safetensors"), filepath.Join(dir, "exp.safetensors")
		o := c.opt
		o.Linear = IsLinearWeight // the reference's names are GGUF's
		rep, err := ConvertToSafetensors(ctx, got, src, true, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := checkpoint.ConvertFile(ctx, exp, ref, true, o); err != nil {
			t.Fatalf("%s: reference: %v", c.name, err)
		}
		gb, _ := os.ReadFile(got)
		eb, _ := os.ReadFile(exp)
		if !bytes.Equal(gb, eb) {
			t.Errorf("%s: the GGUF input's output (%d bytes) differs from the same floats' (%d bytes)", c.name, len(gb), len(eb))
		}
		quant := map[string]string{}
		for _, tr := range rep.Tensors {
			quant[tr.Name] = tr.Action
		}
		if c.opt.BlockSize != [2]int{} {
			for name, act := range map[string]string{
				"blk.0.attn_q.weight": "quantize", "blk.0.ffn_up.weight": "quantize", "blk.0.attn_output.weight": "quantize",
				"token_embd.weight": "", "output.weight": "", "blk.0.attn_norm.weight": "",
			} {
				if act == "" {
					act = map[bool]string{true: "convert", false: "decode"}[c.opt.Rest != cltype.Invalid]
					if name == "blk.0.attn_norm.weight" && c.opt.Rest == cltype.Invalid {
						act = "keep" // F32, stored as it is
					}
				}
				if quant[name] != act {
					t.Errorf("%s: %s: %q, want %q", c.name, name, quant[name], act)
				}
			}
		}
	}
	noTemp(t, dir)
}

// TestPlannerGGUFRefuses: what does not apply to a GGUF input is refused
// before anything is written, an undecodable type is named, and a .npy
// output that would hold a weight and its scale leaves nothing.
func TestPlannerGGUFRefuses(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.gguf")
	mixedFile(t, src, true)
	dst := filepath.Join(dir, "o.safetensors")
	ctx := context.Background()
	for _, o := range []checkpoint.Options{
		{To: cltype.BFloat16, KeepRaw: []string{"x"}},
		{To: cltype.BFloat16, WeightBlockSize: [2]int{128, 128}},
		{To: cltype.BFloat16, MaxShardSize: 1 << 20},
	} {
		if _, err := ConvertToSafetensors(ctx, dst, src, false, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := ConvertToSafetensors(ctx, dst, src, false, checkpoint.Options{To: cltype.Float}); err == nil || !strings.Contains(err.Error(), `"f.iq"`) || !strings.Contains(err.Error(), "iq2_xxs") {
		t.Errorf("IQ tensor: %v", err)
	}
	var de *checkpoint.DataError
	if _, err := ConvertToSafetensors(ctx, dst, src, false, checkpoint.Options{To: cltype.Float}); !errors.As(err, &de) {
		t.Errorf("IQ tensor: %v is not a DataError", err)
	}
	npy := filepath.Join(dir, "a.npy")
	_, err := ConvertToSafetensors(ctx, npy, src, false, checkpoint.Options{To: cltype.E4M3, BlockSize: [2]int{1, 256}, Tensors: []string{"a.q4k"}, Linear: func(string, []int64, bool) bool { return true }})
	if err == nil || !strings.Contains(err.Error(), ".npy") {
		t.Errorf(".npy of a weight and its scale: %v", err)
	}
	if _, err := os.Stat(npy); err == nil {
		t.Error(".npy written")
	}
	if _, err := ConvertToSafetensors(ctx, src, src, true, checkpoint.Options{To: cltype.Float, Skip: []string{"f.*"}}); !errors.Is(err, checkpoint.ErrUnsafeOutput) {
		t.Errorf("output = input: %v", err)
	}
	noTemp(t, dir)
}
