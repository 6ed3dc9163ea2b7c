package checkpoint

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

// all selects every tensor: the tests that quantize tensors of any name
// say so, since a quantization takes only linear weights by default.
var all = []string{"*"}

func TestIsLinearWeight(t *testing.T) {
	m2 := []int64{64, 64}
	for _, c := range []struct {
		name    string
		shape   []int64
		experts bool
		want    bool
	}{
		{"model.layers.0.self_attn.q_proj.weight", m2, false, true},
		{"model.layers.0.mlp.gate_proj.weight", m2, false, true},
		{"model.layers.3.mlp.experts.17.down_proj.weight", m2, false, true},
		{"model.layers.3.mlp.shared_experts.up_proj.weight", m2, false, true},
		{"transformer.h.0.attn.c_attn.weight", m2, false, true},
		{"model.layers.0.self_attn.q_proj.bias", []int64{64}, false, false},
		{"model.layers.0.self_attn.q_proj.weight", []int64{64}, false, false},
		{"model.embed_tokens.weight", m2, false, false},
		{"transformer.wte.weight", m2, false, false},
		{"lm_head.weight", m2, false, false},
		{"output.weight", m2, false, false},
		{"model.norm.weight", []int64{64}, false, false},
		{"model.layers.0.input_layernorm.weight", m2, false, false},
		{"model.layers.3.mlp.gate.weight", m2, false, false},                           // DeepSeek-V3, Qwen MoE router
		{"model.layers.3.block_sparse_moe.gate.weight", m2, false, false},              // Mixtral
		{"model.layers.3.mlp.shared_expert_gate.weight", []int64{1, 64}, false, false}, // Qwen2-MoE
		{"model.layers.3.mlp.router.weight", m2, false, false},                         // gpt-oss
		{"model.layers.3.mlp.gate.e_score_correction_bias", []int64{64}, false, false},
		{"score.weight", m2, false, false},
		{"model.layers.0.mlp.experts.gate_up_proj", []int64{4, 64, 128}, true, true}, // gpt-oss experts
		{"model.layers.0.mlp.experts.down_proj", []int64{4, 64, 64}, true, true},
		{"model.layers.0.mlp.experts.gate_up_proj", []int64{4, 64, 128}, false, false},
		{"model.layers.0.mlp.experts.gate_up_proj_bias", []int64{4, 128}, true, false},
	} {
		if got := IsLinearWeight(c.name, c.shape, c.experts); got != c.want {
			t.Errorf("IsLinearWeight(%q, %v, %v) = %v, want %v", c.name, c.shape, c.experts, got, c.want)
		}
	}
}

// llamaTensors is a small Llama-shaped checkpoint, with a DeepSeek router
// and its bias.
func llamaTensors(rng *rand.Rand) []tensor {
	bf := func(name string, shape ...int64) tensor { return rawFinite(name, safetensors.BF16, shape, rng) }
	return []tensor{
		bf("model.embed_tokens.weight", 64, 32),
		bf("model.layers.0.input_layernorm.weight", 32),
		bf("model.layers.0.self_attn.q_proj.weight", 32, 32),
		bf("model.layers.0.self_attn.q_proj.bias", 32),
		bf("model.layers.0.mlp.down_proj.weight", 32, 64),
		bf("model.layers.0.mlp.gate.weight", 4, 32),
		{safetensors.TensorInfo{Name: "model.layers.0.mlp.gate.e_score_correction_bias", DType: safetensors.F32, Shape: []int64{4}}, make([]byte, 16)},
		{safetensors.TensorInfo{Name: "model.layers.0.self_attn.q_proj.input_scale", DType: safetensors.F32, Shape: []int64{}}, make([]byte, 4)},
		bf("model.norm.weight", 32),
		bf("lm_head.weight", 64, 32),
	}
}

// rawFinite is a tensor of small finite BF16 values.
func rawFinite(name string, d safetensors.DType, shape []int64, rng *rand.Rand) tensor {
	t := rawTensor(name, d, shape, rng)
	for i := 0; i+1 < len(t.data); i += 2 {
		t.data[i+1] = 0x3c | t.data[i+1]&0x80 // sign, exponent near 1
	}
	return t
}

// TestQuantizeLinearOnly: by default a quantization quantizes the linear
// layers' weights only, keeps the rest (or converts it to Rest), keeps
// DeepSeek's router bias in F32 either way, and config.json lists the
// 2-D weights it left.
func TestQuantizeLinearOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := filepath.Join(t.TempDir(), "model")
	if err := os.Mkdir(src, 0o777); err != nil {
		t.Fatal(err)
	}
	writeFile(t, src, "model.safetensors", nil, llamaTensors(rng)...)
	if err := os.WriteFile(filepath.Join(src, "config.json"), []byte(`{"architectures": ["LlamaForCausalLM"], "torch_dtype": "float32"}`), 0o666); err != nil {
		t.Fatal(err)
	}
	quantized := []string{"model.layers.0.self_attn.q_proj.weight", "model.layers.0.mlp.down_proj.weight"}
	for _, c := range []struct {
		name string
		opt  Options
	}{
		{"fp8", Options{To: cltype.E4M3, BlockSize: [2]int{16, 16}}},
		{"fp8-rest", Options{To: cltype.E4M3, BlockSize: [2]int{16, 16}, Rest: cltype.Half, Recipe: RecipeDeepSeek}},
		{"fp8-ct", Options{To: cltype.E4M3, BlockSize: [2]int{16, 16}, Recipe: RecipeCompressedTensors}},
		{"mxfp4", Options{Block: mx.MXFP4}},
		{"nvfp4-rest", Options{Block: mx.NVFP4, Rest: cltype.Float}},
	} {
		out := filepath.Join(t.TempDir(), c.name)
		rep, err := ConvertCheckpoint(context.Background(), out, src, false, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		file, _ := readBack(t, filepath.Join(out, "model.safetensors"))
		dtypes := map[string]safetensors.DType{}
		for _, ti := range file.Tensors {
			dtypes[ti.Name] = ti.DType
		}
		for _, ti := range llamaTensors(rng) {
			n := ti.info.Name
			isQ := n == quantized[0] || n == quantized[1]
			switch {
			case isQ && c.opt.Block == mx.MXFP4:
				if _, ok := dtypes[n+".blocks"]; !ok {
					t.Errorf("%s: %s not quantized: %v", c.name, n, dtypes)
				}
			case isQ && c.opt.Block == mx.NVFP4:
				if dtypes[n] != safetensors.U8 || dtypes[n+"_scale"] != safetensors.F8_E4M3 {
					t.Errorf("%s: %s not quantized: %v", c.name, n, dtypes)
				}
			case isQ && c.opt.Recipe == RecipeCompressedTensors:
				// compressed-tensors: the scale in the weight's dtype.
				if dtypes[n] != safetensors.F8_E4M3 || dtypes[n+"_scale"] != ti.info.DType {
					t.Errorf("%s: %s not quantized: %v", c.name, n, dtypes)
				}
			case isQ:
				if dtypes[n] != safetensors.F8_E4M3 || dtypes[n+"_scale_inv"] != safetensors.F32 {
					t.Errorf("%s: %s not quantized: %v", c.name, n, dtypes)
				}
			case strings.HasSuffix(n, "e_score_correction_bias") || strings.HasSuffix(n, "input_scale"):
				if dtypes[n] != safetensors.F32 {
					t.Errorf("%s: %s is %v, want F32 kept", c.name, n, dtypes[n])
				}
			default:
				want := ti.info.DType
				if c.opt.Rest != cltype.Invalid {
					want, _ = safetensors.DTypeOf(c.opt.Rest)
				}
				if dtypes[n] != want {
					t.Errorf("%s: %s is %v, want %v", c.name, n, dtypes[n], want)
				}
			}
		}
		if c.opt.Recipe != RecipeExact {
			for _, tr := range rep.Tensors {
				if tr.Action == ActQuantFP8.String() && tr.Recipe != c.opt.Recipe.String() {
					t.Errorf("%s: %s recipe %q", c.name, tr.Name, tr.Recipe)
				}
			}
		}
		b, err := os.ReadFile(filepath.Join(out, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		var cfg struct {
			TorchDType string `json:"torch_dtype"`
			QC         struct {
				Method string   `json:"quant_method"`
				Keep   []string `json:"modules_to_not_convert"`
				Ignore []string `json:"ignore"`
				Format string   `json:"format"`
				Groups map[string]struct {
					Weights struct {
						Block []int `json:"block_structure"`
					} `json:"weights"`
				} `json:"config_groups"`
			} `json:"quantization_config"`
		}
		if err := json.Unmarshal(b, &cfg); err != nil {
			t.Fatal(err)
		}
		wantDType := "float32"
		if c.opt.Rest == cltype.Half {
			wantDType = "float16"
		}
		if cfg.TorchDType != wantDType {
			t.Errorf("%s: torch_dtype %q, want %q", c.name, cfg.TorchDType, wantDType)
		}
		if c.opt.Recipe == RecipeCompressedTensors {
			want := "lm_head model.embed_tokens model.layers.0.mlp.gate"
			if got := strings.Join(cfg.QC.Ignore, " "); cfg.QC.Method != "compressed-tensors" || cfg.QC.Format != "float-quantized" || got != want || !slices.Equal(cfg.QC.Groups["group_0"].Weights.Block, []int{16, 16}) {
				t.Errorf("%s: quantization_config %+v, want compressed-tensors float-quantized, 16x16 blocks, ignoring %s", c.name, cfg.QC, want)
			}
			// Its own output dequantizes, the block size read from
			// config_groups' block_structure.
			back := filepath.Join(t.TempDir(), "back")
			if _, err := ConvertCheckpoint(context.Background(), back, out, false, Options{To: cltype.Float}); err != nil {
				t.Fatalf("%s: dequantizing: %v", c.name, err)
			}
			bb, _ := os.ReadFile(filepath.Join(back, "config.json"))
			if strings.Contains(string(bb), "quantization_config") {
				t.Errorf("%s: dequantized config.json keeps quantization_config", c.name)
			}
		} else if c.opt.BlockSize != [2]int{} {
			want := "lm_head model.embed_tokens model.layers.0.mlp.gate"
			if got := strings.Join(cfg.QC.Keep, " "); cfg.QC.Method != "fp8" || got != want {
				t.Errorf("%s: quantization_config %+v, want fp8 keeping %s", c.name, cfg.QC, want)
			}
		}
	}
	// Rest without a quantization, or to a non-float type, is an error.
	for _, o := range []Options{{To: cltype.BFloat16, Rest: cltype.Half}, {To: cltype.E4M3, BlockSize: [2]int{16, 16}, Rest: cltype.E5M2}} {
		if _, err := ConvertCheckpoint(context.Background(), filepath.Join(t.TempDir(), "x"), src, false, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestQuantizeNothingWarns: a quantization that finds no linear weight
// says so, and how to choose tensors.
func TestQuantizeNothingWarns(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "w.safetensors", nil, rawFinite("w", safetensors.BF16, []int64{32, 32}, rand.New(rand.NewPCG(1, 1))))
	rep, err := ConvertFile(context.Background(), filepath.Join(dir, "o.safetensors"), in, false, Options{To: cltype.E4M3, BlockSize: [2]int{16, 16}})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(rep.Warnings, "\n"); !strings.Contains(w, "no tensor was quantized to e4m3") || !strings.Contains(w, "--tensors") {
		t.Errorf("warnings %q", w)
	}
}
