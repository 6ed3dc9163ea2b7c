package checkpoint

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

// fp8BlockCheckpoint writes into dir a one-file FP8 checkpoint of the
// DeepSeek-V3 layout whose config.json gives the weight block size (2x2):
// "x.weight" F8_E4M3 [4, 64] with "x.weight_scale_inv" F32 [2, 32], and a
// plain F32 "y" [2, 32] that the MX formats can quantize.
func fp8BlockCheckpoint(t *testing.T, dir string) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	w := rawTensor("x.weight", safetensors.F8_E4M3, []int64{4, 64}, rng)
	for i := range w.data {
		w.data[i] &= 0x77 // finite
	}
	sc := tensor{safetensors.TensorInfo{Name: "x.weight_scale_inv", DType: safetensors.F32, Shape: []int64{2, 32}}, make([]byte, 4*64)}
	for i := range 64 {
		binary.LittleEndian.PutUint32(sc.data[4*i:], math.Float32bits(float32(i%7+1)/8))
	}
	p := writeFile(t, dir, "model.safetensors", nil, w, sc, f32Tensor("y", 2, 32, rng))
	cfg := `{"quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

// ConvertFile given a checkpoint directory or its index points to
// ConvertCheckpoint, instead of reading JSON as a safetensors header.
func TestConvertFileRefusesCheckpoint(t *testing.T) {
	root := t.TempDir()
	model := filepath.Join(root, "model")
	os.Mkdir(model, 0o777)
	fp8Checkpoint(t, model)
	index := filepath.Join(model, "model.safetensors.index.json")
	ctx := context.Background()
	for _, src := range []string{model, index} {
		dst := filepath.Join(root, "out.safetensors")
		_, err := ConvertFile(ctx, dst, src, false, Options{To: cltype.BFloat16})
		if err == nil || !strings.Contains(err.Error(), "use ConvertCheckpoint") || !strings.Contains(err.Error(), src) ||
			strings.Contains(err.Error(), "header") {
			t.Errorf("ConvertFile(%s): %v, want an error naming it and ConvertCheckpoint", src, err)
		}
		if _, err := os.Stat(dst); err == nil {
			t.Errorf("ConvertFile(%s) wrote %s", src, dst)
		}
		// What the error points to works.
		out := filepath.Join(root, "bf16-"+filepath.Base(src))
		if _, err := ConvertCheckpoint(ctx, out, src, false, Options{To: cltype.BFloat16}); err != nil {
			t.Errorf("ConvertCheckpoint(%s): %v", src, err)
		}
	}
	// Bad options are still reported first.
	if _, err := ConvertFile(ctx, filepath.Join(root, "o"), model, false, Options{To: cltype.Int}); err == nil || strings.Contains(err.Error(), "ConvertCheckpoint") {
		t.Errorf("ConvertFile with an integer destination: %v", err)
	}
}

// Quantizing an FP8 checkpoint whose config.json gives weight_block_size to
// an MX format keeps the block-scaled FP8 weights and their scales byte for
// byte (with a warning) and quantizes the plain floating tensors; the block
// size from config.json is no error. One set by the caller is refused with
// what to do instead.
func TestQuantizeMXOfFP8Checkpoint(t *testing.T) {
	root := t.TempDir()
	model := filepath.Join(root, "model")
	os.Mkdir(model, 0o777)
	src := fp8BlockCheckpoint(t, model)
	_, in := readBack(t, src)
	ctx := context.Background()
	for _, f := range []*mx.Format{mx.MXFP4, mx.NVFP4} {
		opt := Options{Block: f, Tensors: all}
		for _, c := range []struct {
			name string
			run  func(dst string) (*Report, error)
		}{
			{"ConvertFile", func(dst string) (*Report, error) { return ConvertFile(ctx, dst, src, false, opt) }},
			{"ConvertCheckpoint", func(dst string) (*Report, error) { return ConvertCheckpoint(ctx, dst, model, false, opt) }},
		} {
			dst := filepath.Join(root, c.name+"-"+f.Name)
			rep, err := c.run(dst)
			if err != nil {
				t.Errorf("%s to %s: %v", c.name, f.Name, err)
				continue
			}
			out := dst
			if c.name == "ConvertCheckpoint" {
				out = filepath.Join(dst, "model.safetensors")
			}
			of, got := readBack(t, out)
			for _, n := range []string{"x.weight", "x.weight_scale_inv"} {
				if string(got[n]) != string(in[n]) {
					t.Errorf("%s to %s: %s not kept byte for byte", c.name, f.Name, n)
				}
			}
			quantized := false
			for _, ti := range of.Tensors {
				if strings.HasPrefix(ti.Name, "y") && ti.DType == safetensors.U8 {
					quantized = true
				}
			}
			if !quantized {
				t.Errorf("%s to %s: y not quantized: %v", c.name, f.Name, of.Tensors)
			}
			if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "kept byte for byte") {
				t.Errorf("%s to %s: warnings %q, want the kept layout named", c.name, f.Name, w)
			}
		}
	}

	// A block size given with a block format has nothing to apply to.
	for _, opt := range []Options{
		{Block: mx.MXFP4, WeightBlockSize: [2]int{128, 128}},
		{Block: mx.MXFP4, BlockSize: [2]int{128, 128}},
	} {
		_, err := ConvertFile(ctx, filepath.Join(root, "bad"), src, false, opt)
		if err == nil {
			t.Errorf("%+v: no error", opt)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "mxfp4") || !strings.Contains(msg, "128x128") {
			t.Errorf("%+v: %q, want the format and the block size named", opt, msg)
		}
		if opt.WeightBlockSize != [2]int{} && (!strings.Contains(msg, "kept as they are") || !strings.Contains(msg, "dequantize")) {
			t.Errorf("WeightBlockSize: %q, want what happens to FP8 weights and how to requantize them", msg)
		}
		if opt.BlockSize != [2]int{} && !strings.Contains(msg, "e4m3") {
			t.Errorf("BlockSize: %q, want the destinations it is for", msg)
		}
	}
}
