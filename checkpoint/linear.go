package checkpoint

import (
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

// What a quantization quantizes by default: the weights of linear layers,
// as the reference tools do (transformers' FineGrainedFP8 replaces the
// nn.Linear modules but lm_head, DeepSeek-V3's FP8 checkpoints and
// ModelOpt's NVFP4 quantize the linear layers of the blocks, gpt-oss's
// MXFP4 its experts). Embeddings, the output head, norms, MoE routers and
// biases keep their precision. Options.Tensors chooses otherwise.

// notLinear are the module names (a weight's name without ".weight", its
// last dot-separated part) that are not linear layers to quantize, though
// their weights may be two-dimensional: embeddings, output heads, norms,
// MoE routers and classifier heads.
var notLinear = []string{"embed", "wte", "wpe", "lm_head", "norm", "ln_", "head", "output", "score", "router", "classifier"}

// routerModules are whole module names of MoE routers ("mlp.gate" in
// DeepSeek-V3 and Qwen MoE, "block_sparse_moe.gate" in Mixtral); a
// substring test would catch gate_proj.
var routerModules = []string{"gate", "shared_expert_gate"}

// IsLinearWeight reports whether a tensor is what a quantization
// quantizes by default: the 2-D weight "X.weight" of a linear layer X (not
// an embedding, an output head, a norm or an MoE router; see notLinear),
// or, when experts is set (the block formats), an MoE layer's stacked
// expert weights "....experts.gate_up_proj" / "....experts.down_proj" of
// three dimensions (gpt-oss's layout).
func IsLinearWeight(name string, shape []int64, experts bool) bool {
	if experts && len(shape) == 3 && strings.Contains(name, "experts") {
		for _, s := range []string{".gate_up_proj", ".down_proj", ".gate_proj", ".up_proj"} {
			if strings.HasSuffix(name, s) {
				return true
			}
		}
	}
	module, ok := strings.CutSuffix(name, ".weight")
	if !ok || len(shape) != 2 {
		return false
	}
	last := module[strings.LastIndexByte(module, '.')+1:]
	for _, r := range routerModules {
		if last == r {
			return false
		}
	}
	l := strings.ToLower(last)
	for _, n := range notLinear {
		if strings.Contains(l, n) {
			return false
		}
	}
	return true
}

// quantizing reports whether the conversion quantizes (FP8 blocks or a
// block format).
func (o *Options) quantizing() bool { return o.BlockSize != [2]int{} || o.Block != nil }

// quantSelected reports whether a quantization quantizes tensor t: the
// globs when Tensors is given, else the linear weights (Options.Linear,
// or IsLinearWeight); Skip and KeepRaw leave tensors out either way.
func (o *Options) quantSelected(t *Tensor) bool {
	if !o.selected(t.Name) {
		return false
	}
	switch {
	case len(o.Tensors) > 0:
		return true
	case o.modelType == "gpt_oss" && o.Block == mx.MXFP4:
		return o.gptOssExpert(t) // gpt-oss quantizes its experts only
	case o.Linear != nil:
		return o.Linear(t.Name, t.Shape, o.Block != nil)
	}
	return IsLinearWeight(t.Name, t.Shape, o.Block != nil)
}

// restKind is what a quantization does with a floating tensor it does not
// quantize: converts it to Rest, or keeps it (Invalid).
func (o *Options) restKind(t *Tensor) cltype.Kind {
	if o.Rest == cltype.Invalid || !t.DType.IsFloat() || t.DType.Kind() == o.Rest || !o.selected(t.Name) {
		return cltype.Invalid
	}
	if strings.HasSuffix(t.Name, "e_score_correction_bias") || strings.HasSuffix(t.Name, "input_scale") {
		// DeepSeek-V3 keeps its router bias in float32, ModelOpt and
		// compressed-tensors their activation scales.
		return cltype.Invalid
	}
	switch t.DType {
	case safetensors.F32, safetensors.F64, safetensors.F16, safetensors.BF16:
		return o.Rest
	}
	return cltype.Invalid
}
