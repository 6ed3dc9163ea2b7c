package checkpoint

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

// TestGptOssExpertsTransposed: gpt-oss's expert blocks ("...experts.
// gate_up_proj_blocks", [E, out, in/32, 16]) dequantize to [E, in, out],
// the transpose of what the same blocks give in clconv's own layout
// ("X.blocks"), as transformers' loader transposes them; in tiles of rows
// and of blocks (chunkElems shrunk), over several experts.
func TestGptOssExpertsTransposed(t *testing.T) {
	defer func(c int64) { chunkElems = c }(chunkElems)
	for _, c := range []struct {
		e, r, g int64
		chunk   int64
	}{{2, 3, 2, 1 << 17}, {3, 1100, 3, 4096}, {1, 5, 7, 64}} {
		chunkElems = c.chunk
		rng := rand.New(rand.NewPCG(uint64(c.r), uint64(c.g)))
		blocks := rawTensor("", safetensors.U8, []int64{c.e, c.r, c.g, 16}, rng)
		scales := rawTensor("", safetensors.U8, []int64{c.e, c.r, c.g}, rng)
		for i := range scales.data {
			scales.data[i] = 120 + scales.data[i]%16 // finite scales
		}
		dir := t.TempDir()
		name := func(tn tensor, n string) tensor { tn.info.Name = n; return tn }
		gpt := writeFile(t, dir, "gpt.safetensors", nil, name(blocks, "model.layers.0.mlp.experts.gate_up_proj_blocks"), name(scales, "model.layers.0.mlp.experts.gate_up_proj_scales"))
		own := writeFile(t, dir, "own.safetensors", nil, name(blocks, "w.blocks"), name(scales, "w.scales"))
		for _, to := range []cltype.Kind{cltype.BFloat16, cltype.Float} {
			og, oo := filepath.Join(dir, "g.safetensors"), filepath.Join(dir, "o.safetensors")
			rep, err := ConvertFile(context.Background(), og, gpt, true, Options{To: to, Workers: 3})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ConvertFile(context.Background(), oo, own, true, Options{To: to}); err != nil {
				t.Fatal(err)
			}
			fg, g := readBack(t, og)
			_, o := readBack(t, oo)
			K := c.g * 32
			if got := fg.Tensors[0].Shape; len(got) != 3 || got[0] != c.e || got[1] != K || got[2] != c.r || !rep.Tensors[0].Transposed {
				t.Fatalf("shape %v (report %+v), want [%d, %d, %d] transposed", got, rep.Tensors[0], c.e, K, c.r)
			}
			sz := int64(to.Size())
			gw, ow := g["model.layers.0.mlp.experts.gate_up_proj"], o["w"]
			for e := range c.e {
				for r := range c.r {
					for k := range K {
						a := gw[((e*K+k)*c.r+r)*sz:][:sz]
						b := ow[((e*c.r+r)*K+k)*sz:][:sz]
						if string(a) != string(b) {
							t.Fatalf("%v chunk %d: [%d, %d, %d] = % x, want the own layout's [%d, %d, %d] = % x", to, c.chunk, e, k, r, a, e, r, k, b)
						}
					}
				}
			}
		}
	}
}

// TestGptOssQuantize: --to mxfp4 on a gpt-oss checkpoint (config.json
// model_type "gpt_oss") quantizes its experts only, in gpt-oss's layout:
// "X_blocks" [E, out, in/32, 16] and "X_scales" [E, out, in/32], the bytes
// of clconv's own layout of the transposed experts; writes gpt-oss's
// quantization_config; and dequantizes back to [E, in, out].
func TestGptOssQuantize(t *testing.T) {
	defer func(c int64) { chunkElems = c }(chunkElems)
	chunkElems = 512 // tiles across experts and within rows
	rng := rand.New(rand.NewPCG(31, 32))
	const E, H, O = 2, 64, 96
	gu := rawFinite("model.layers.0.mlp.experts.gate_up_proj", safetensors.BF16, []int64{E, H, O}, rng)
	// The same experts transposed, [E, O, H], in a plain file.
	tr := tensor{safetensors.TensorInfo{Name: "w", DType: safetensors.BF16, Shape: []int64{E, O, H}}, make([]byte, len(gu.data))}
	for e := range E {
		for h := range H {
			for o := range O {
				copy(tr.data[2*((e*O+o)*H+h):][:2], gu.data[2*((e*H+h)*O+o):][:2])
			}
		}
	}
	src := filepath.Join(t.TempDir(), "gpt")
	if err := os.Mkdir(src, 0o777); err != nil {
		t.Fatal(err)
	}
	q := rawFinite("model.layers.0.self_attn.q_proj.weight", safetensors.BF16, []int64{64, 64}, rng)
	router := rawFinite("model.layers.0.mlp.router.weight", safetensors.BF16, []int64{E, 64}, rng)
	writeFile(t, src, "model.safetensors", nil, gu, q, router)
	if err := os.WriteFile(filepath.Join(src, "config.json"), []byte(`{"model_type": "gpt_oss", "torch_dtype": "bfloat16"}`), 0o666); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "mx")
	if _, err := ConvertCheckpoint(context.Background(), out, src, false, Options{Block: mx.MXFP4, Workers: 3}); err != nil {
		t.Fatal(err)
	}
	f, got := readBack(t, filepath.Join(out, "model.safetensors"))
	shapes := map[string]string{}
	for _, ti := range f.Tensors {
		shapes[ti.Name] = ti.DType.String() + ShapeString(ti.Shape)
	}
	want := map[string]string{
		"model.layers.0.mlp.experts.gate_up_proj_blocks": "U8[2, 96, 2, 16]",
		"model.layers.0.mlp.experts.gate_up_proj_scales": "U8[2, 96, 2]",
		"model.layers.0.self_attn.q_proj.weight":         "BF16[64, 64]",
		"model.layers.0.mlp.router.weight":               "BF16[2, 64]",
	}
	for n, w := range want {
		if shapes[n] != w {
			t.Errorf("%s: %s, want %s (all: %v)", n, shapes[n], w, shapes)
		}
	}
	plain := writeFile(t, t.TempDir(), "w.safetensors", nil, tr)
	po := filepath.Join(t.TempDir(), "w-mx.safetensors")
	if _, err := ConvertFile(context.Background(), po, plain, false, Options{Block: mx.MXFP4, Tensors: all}); err != nil {
		t.Fatal(err)
	}
	_, pg := readBack(t, po)
	if !bytes.Equal(got["model.layers.0.mlp.experts.gate_up_proj_blocks"], pg["w.blocks"]) || !bytes.Equal(got["model.layers.0.mlp.experts.gate_up_proj_scales"], pg["w.scales"]) {
		t.Error("gpt-oss's layout differs from clconv's own layout of the transposed experts")
	}
	b, _ := os.ReadFile(filepath.Join(out, "config.json"))
	if !strings.Contains(string(b), `"quant_method": "mxfp4"`) || !strings.Contains(string(b), `"model.layers.*.self_attn"`) {
		t.Errorf("config.json %s", b)
	}
	// Back to bf16: [E, in, out] again, each value the MXFP4 one.
	back := filepath.Join(t.TempDir(), "back")
	if _, err := ConvertCheckpoint(context.Background(), back, out, false, Options{To: cltype.BFloat16}); err != nil {
		t.Fatal(err)
	}
	bf, bg := readBack(t, filepath.Join(back, "model.safetensors"))
	pb := filepath.Join(t.TempDir(), "w-back.safetensors")
	if _, err := ConvertFile(context.Background(), pb, po, false, Options{To: cltype.BFloat16}); err != nil {
		t.Fatal(err)
	}
	_, pbg := readBack(t, pb)
	r, _ := bf.Lookup("model.layers.0.mlp.experts.gate_up_proj")
	if r == nil || ShapeString(r.Shape) != "[2, 64, 96]" {
		t.Fatalf("dequantized experts %+v", r)
	}
	for e := range E {
		for h := range H {
			for o := range O {
				if string(bg["model.layers.0.mlp.experts.gate_up_proj"][2*((e*H+h)*O+o):][:2]) != string(pbg["w"][2*((e*O+o)*H+h):][:2]) {
					t.Fatalf("dequantized [%d, %d, %d] differs", e, h, o)
				}
			}
		}
	}
}
