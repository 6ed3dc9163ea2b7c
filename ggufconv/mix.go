package ggufconv

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
)

// This file holds llama-quantize's choice of a tensor type per tensor
// (llama.cpp src/llama-quant.cpp: tensor_allows_quantization,
// llama_tensor_get_type, llama_tensor_get_type_impl, tensor_type_fallback),
// written from its rules. Every branch keeps llama.cpp's order, since later
// rules overwrite earlier ones.

// ModelInfo is what llama-quantize's rules know of a model: its
// architecture and a few hyperparameters from the metadata.
type ModelInfo struct {
	Arch    string // general.architecture ("llama")
	NLayer  int    // <arch>.block_count
	NHead   int    // <arch>.attention.head_count (of layer 0 when per layer)
	NHeadKV int    // <arch>.attention.head_count_kv (NHead when absent)
	NExpert int    // <arch>.expert_count (0 when absent)
}

// ModelInfoOf reads a ModelInfo from a GGUF header's metadata.
func ModelInfoOf(f *gguf.File) (ModelInfo, error) {
	var m ModelInfo
	v, ok := f.Get("general.architecture")
	if !ok {
		return m, fmt.Errorf("ggufconv: no general.architecture: llama-quantize's rules need the model's architecture")
	}
	if m.Arch, ok = v.Str(); !ok {
		return m, fmt.Errorf("ggufconv: general.architecture is %v, not a string", v)
	}
	num := func(key string, def int) (int, error) {
		v, ok := f.Get(m.Arch + "." + key)
		if !ok {
			return def, nil
		}
		if a, isArr := v.Array(); isArr {
			// Per-layer values: llama.cpp's n_gqa() and friends read layer 0.
			if len(a) == 0 {
				return def, nil
			}
			v = a[0]
		}
		n, ok := v.Int()
		if !ok || n < 0 || n > 1<<30 {
			return 0, fmt.Errorf("ggufconv: %s.%s is %v, not a small non-negative integer", m.Arch, key, v)
		}
		return int(n), nil
	}
	var err error
	if m.NLayer, err = num("block_count", 0); err != nil {
		return m, err
	}
	if m.NHead, err = num("attention.head_count", 0); err != nil {
		return m, err
	}
	if m.NHeadKV, err = num("attention.head_count_kv", m.NHead); err != nil {
		return m, err
	}
	if m.NExpert, err = num("expert_count", 0); err != nil {
		return m, err
	}
	return m, nil
}

// gqa is llama_hparams::n_gqa(): heads per KV head, 0 without KV heads.
func (m ModelInfo) gqa() int {
	if m.NHeadKV == 0 {
		return 0
	}
	return m.NHead / m.NHeadKV
}

// is70B is llama.cpp's LLM_TYPE_70B for the tensor rules: a llama model of
// 80 layers with grouped-query attention (65B has n_head == n_head_kv) and
// not a mixture of 8 experts.
func (m ModelInfo) is70B() bool {
	return m.Arch == "llama" && m.NExpert != 8 && m.NLayer == 80 && m.NHead != m.NHeadKV
}

// category is llama-quant.cpp's tensor_category: a tensor's role, from
// its name.
type category uint8

const (
	catOther category = iota
	catTokenEmbd
	catAttnQ
	catAttnV
	catAttnK
	catAttnQKV
	catAttnKVB
	catAttnOutput
	catFFNUp
	catFFNGate
	catFFNDown
	catOutput
)

func categoryOf(name string) category {
	switch {
	case name == "output.weight":
		return catOutput
	case name == "token_embd.weight" || name == "per_layer_token_embd.weight":
		return catTokenEmbd
	case strings.Contains(name, "attn_qkv.weight"):
		return catAttnQKV
	case strings.Contains(name, "attn_kv_b.weight"):
		return catAttnKVB
	case strings.Contains(name, "attn_v.weight"):
		return catAttnV
	case strings.Contains(name, "attn_k.weight"):
		return catAttnK
	case strings.Contains(name, "attn_q.weight"):
		return catAttnQ
	case strings.Contains(name, "attn_output.weight"):
		return catAttnOutput
	case strings.Contains(name, "ffn_up"):
		return catFFNUp
	case strings.Contains(name, "ffn_gate"):
		return catFFNGate
	case strings.Contains(name, "ffn_down"):
		return catFFNDown
	}
	return catOther
}

func (c category) isAttnV() bool { return c == catAttnV || c == catAttnQKV || c == catAttnKVB }

// keptNames are substrings of names llama-quantize never quantizes
// (tensor_allows_quantization): gating and routing tables, small
// per-architecture tensors, multimodal and audio pieces.
var keptNames = []string{
	"_norm.weight", "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight",
	"altup", "laurel", "per_layer_model_proj",
	"ssm_conv1d", "shortconv.conv.weight",
	"indexer.k_proj.weight", "indexer.q_proj.weight",
	"time_mix_first.weight", "time_mix_w0.weight", "time_mix_w1.weight", "time_mix_w2.weight",
	"time_mix_v0.weight", "time_mix_v1.weight", "time_mix_v2.weight",
	"time_mix_a0.weight", "time_mix_a1.weight", "time_mix_a2.weight",
	"time_mix_g1.weight", "time_mix_g2.weight",
	"time_mix_decay_w1.weight", "time_mix_decay_w2.weight", "time_mix_lerp_fused.weight",
	"attn_rel_b.weight",
	".position_embd", "sam.pos_embd", "sam.neck.", "sam.net_", ".rel_pos", ".patch_embd", ".patch_merger",
	"a.rvq.codebook", "mm.a.code_embd",
}

// nDims is ggml_n_dims: the dimensions without trailing 1s, at least 1.
func nDims(dims []uint64) int {
	n := len(dims)
	for n > 1 && dims[n-1] == 1 {
		n--
	}
	if n == 0 {
		return 1
	}
	return n
}

// AllowsQuantization reports whether llama-quantize would quantize the
// tensor at all (tensor_allows_quantization): a tensor of two or more
// dimensions (ggml_n_dims) whose name ends in "weight", and not a norm,
// an expert gate, positional embeddings, token types or one of the small
// tensors of some architectures that it keeps as they are.
func AllowsQuantization(name string, dims []uint64) bool {
	if nDims(dims) < 2 {
		return false
	}
	// llama.cpp tests name.rfind("weight") == name.size() - 6, which for a
	// 5-byte name compares npos with (size_t)-1 and holds.
	if !strings.HasSuffix(name, "weight") && len(name) != 5 {
		return false
	}
	for _, s := range keptNames {
		if strings.Contains(name, s) {
			return false
		}
	}
	// LLM_TN(arch)(LLM_TENSOR_POS_EMBD / TOKEN_TYPES, "weight"). llama.cpp
	// compares with "__missing__" for architectures without these tensors;
	// this package keeps them for every architecture.
	return name != "position_embd.weight" && name != "token_types.weight"
}

// Position is where a tensor stands among the tensors llama-quantize
// counts, in its order (LlamaOrder).
type Position struct {
	// AttnV is the number of attn_v, attn_qkv and attn_kv_b tensors before
	// this one whose type the rules chose; NAttnV is their number in the
	// file (quantize_state_impl's i_attention_wv and n_attention_wv).
	AttnV, NAttnV int
	// Layer is the layer of an ffn_down, ffn_gate or ffn_up tensor: the
	// number of tensors of its kind before it (i_ffn_down ...), or the N of
	// its blk.N. name in a model of experts.
	Layer int
	// Tied reports that the file has no output.weight, so that
	// token_embd.weight serves as the output too.
	Tied bool
}

// quantState is quantize_state_impl's counters, and the overrides.
type quantState struct {
	m                          ModelInfo
	iAttnV, nAttnV             int
	iFFNDown, iFFNGate, iFFNUp int
	tied                       bool
	fallbacks                  int
	ov                         PlanOptions
	rules                      []*regexp.Regexp // ov.TensorTypes' patterns, compiled
}

// TensorTypeRule is one of llama-quantize's --tensor-type PATTERN=TYPE
// options: a tensor that the file type quantizes and whose name Pattern (a
// regular expression, searched anywhere in the name, RE2 syntax) matches
// gets Type.
type TensorTypeRule struct {
	Pattern string
	Type    ggml.Type
}

// PlanOptions are llama-quantize's choices beside the file type
// (llama_model_quantize_params). The zero value chooses nothing.
type PlanOptions struct {
	// Pure gives every tensor that llama-quantize would quantize the file
	// type's default type (--pure).
	Pure bool
	// TensorTypes are --tensor-type rules: the first whose pattern matches
	// a quantized tensor's name gives its type in place of the file type's
	// rules (which then do not count the tensor), even with Pure; the type
	// still falls back when the rows are not whole blocks of it.
	TensorTypes []TensorTypeRule
	// OutputType and TokenEmbeddingType, when not nil, are the types of
	// output.weight and of token_embd.weight (--output-tensor-type,
	// --token-embedding-type), taken as given, before every other rule. A
	// model without output.weight (tied embeddings) quantizes token_embd
	// as its output: OutputType then applies to it when TokenEmbeddingType
	// is nil, through the file type's rules (not with Pure).
	OutputType, TokenEmbeddingType *ggml.Type
	// LeaveOutput keeps output.weight as it is (--leave-output-tensor).
	LeaveOutput bool
}

// none reports whether p chooses nothing.
func (p *PlanOptions) none() bool {
	return !p.Pure && len(p.TensorTypes) == 0 && p.OutputType == nil && p.TokenEmbeddingType == nil && !p.LeaveOutput
}

// TensorType returns the type llama-quantize gives one tensor of a file of
// type ft (llama_tensor_get_type with no imatrix, no overrides): its own
// type when AllowsQuantization says no; else with pure every such tensor
// gets ft's default type, and without it the mix's rules choose by role,
// layer (pos) and model (m); last, a type whose blocks do not divide the
// rows (Dims[0]) falls back as tensor_type_fallback does. The error is
// llama.cpp's where it refuses: a layer it cannot determine, a row
// length no type fits.
func TensorType(ft FileType, m ModelInfo, t gguf.TensorInfo, pos Position, pure bool) (ggml.Type, error) {
	qs := quantState{m: m, iAttnV: pos.AttnV, nAttnV: pos.NAttnV, iFFNDown: pos.Layer, iFFNGate: pos.Layer, iFFNUp: pos.Layer, tied: pos.Tied}
	return qs.tensorType(ft, t, pure)
}

func (qs *quantState) tensorType(ft FileType, t gguf.TensorInfo, pure bool) (ggml.Type, error) {
	if !ft.Valid() {
		return 0, fmt.Errorf("ggufconv: no file type")
	}
	if !AllowsQuantization(t.Name, t.Dims) || (qs.ov.LeaveOutput && t.Name == "output.weight") {
		return t.Type, nil
	}
	cat := categoryOf(t.Name)
	if p := qs.ov.TokenEmbeddingType; p != nil && cat == catTokenEmbd {
		return *p, nil
	}
	if p := qs.ov.OutputType; p != nil && cat == catOutput {
		return *p, nil
	}
	typ := ft.DefaultType()
	if !isQuantized(typ) {
		return typ, nil
	}
	manual := false
	for i, re := range qs.rules {
		if re.MatchString(t.Name) {
			typ, manual = qs.ov.TensorTypes[i].Type, true
			break
		}
	}
	if !manual && !pure {
		var err error
		if typ, err = qs.mix(typ, t, ft, cat); err != nil {
			return 0, err
		}
	}
	if typ, err := qs.fallback(t, typ); err != nil {
		return 0, err
	} else if ft == Q2_K_S && typ == ggml.Q2_K && categoryOf(t.Name) != catOutput && categoryOf(t.Name) != catTokenEmbd {
		// tensor_requires_imatrix: llama-quantize refuses Q2_K_S without one.
		return 0, fmt.Errorf("ggufconv: tensor %q: %v in a Q2_K_S file needs an importance matrix: %w", t.Name, typ, ggml.ErrImatrix)
	} else {
		return typ, nil
	}
}

// isQuantized is ggml_is_quantized: block types (F32, F16, BF16 and the
// integer types are not).
func isQuantized(t ggml.Type) bool {
	switch t {
	case ggml.F32, ggml.F16, ggml.BF16, ggml.F64, ggml.I8, ggml.I16, ggml.I32, ggml.I64:
		return false
	}
	return true
}

func (qs *quantState) fallback(t gguf.TensorInfo, typ ggml.Type) (ggml.Type, error) {
	var ncols uint64
	if len(t.Dims) > 0 {
		ncols = t.Dims[0]
	}
	if ncols%uint64(typ.BlockSize()) == 0 {
		return typ, nil
	}
	qs.fallbacks++
	var to ggml.Type
	switch typ {
	case ggml.IQ1_S, ggml.IQ1_M, ggml.IQ2_XXS, ggml.IQ2_XS, ggml.IQ2_S, ggml.IQ3_XXS, ggml.IQ3_S, ggml.IQ4_XS:
		to = ggml.IQ4_NL
	case ggml.Q2_0, ggml.Q2_K, ggml.Q3_K, ggml.TQ1_0, ggml.TQ2_0:
		to = ggml.Q4_0
	case ggml.Q4_K:
		to = ggml.Q5_0
	case ggml.Q5_K:
		to = ggml.Q5_1
	case ggml.Q6_K:
		to = ggml.Q8_0
	default:
		return 0, fmt.Errorf("ggufconv: tensor %q: %d columns are not whole blocks of %v, for which llama-quantize defines no fallback type", t.Name, ncols, typ)
	}
	if ncols%uint64(to.BlockSize()) != 0 {
		to = ggml.F16
	}
	return to, nil
}

func (qs *quantState) useMoreBits(i, n int) bool {
	return i < n/8 || i >= 7*n/8 || (i-n/8)%3 == 2
}

// layer is layer_info: the counter, or with experts the blk.N of the name.
func (qs *quantState) layer(counter int, name string) (int, int, error) {
	n := qs.m.NLayer
	if max(1, qs.m.NExpert) > 1 {
		i, ok := blockIndex(name)
		if !ok {
			return 0, 0, fmt.Errorf("ggufconv: failed to determine layer for tensor %q", name)
		}
		if i < 0 || i >= n {
			return 0, 0, fmt.Errorf("ggufconv: bad layer %d for tensor %q: must be in [0, %d)", i, name, n)
		}
		return i, n, nil
	}
	return counter, n, nil
}

// blockIndex parses a name as sscanf(name, "blk.%d.", &i) does: "blk."
// then optional white space, an optional sign and digits.
func blockIndex(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "blk.")
	if !ok {
		return 0, false
	}
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	n, digits := 0, 0
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		if n < 1<<28 {
			n = n*10 + int(s[digits]-'0')
		}
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// mix is llama_tensor_get_type_impl for the file types of this package's
// table (the IQ branches of llama.cpp, for file types it does not apply,
// are left out).
func (qs *quantState) mix(typ ggml.Type, t gguf.TensorInfo, ft FileType, cat category) (ggml.Type, error) {
	m := qs.m
	arch := m.Arch
	falcon := arch == "falcon"
	switch {
	case (cat == catOutput || (qs.tied && cat == catTokenEmbd)) && qs.ov.OutputType != nil:
		typ = *qs.ov.OutputType
	case cat == catOutput || (qs.tied && cat == catTokenEmbd):
		var nx uint64
		if len(t.Dims) > 0 {
			nx = t.Dims[0]
		}
		switch {
		case ft == MXFP4_MOE:
			typ = ggml.Q8_0
		case falcon || nx%uint64(typ.BlockSize()) != 0:
			typ = ggml.Q8_0
		case typ != ggml.Q8_0:
			typ = ggml.Q6_K
		}
	case ft == MXFP4_MOE:
		// Experts (3-D) to MXFP4, the rest to Q8_0; bailingmoe3's MLA
		// projections are 3-D too, so there only the FFN roles count.
		expertRole := cat == catFFNUp || cat == catFFNGate || cat == catFFNDown
		if len(t.Dims) > 2 && t.Dims[2] > 1 && (arch != "bailingmoe3" || expertRole) {
			typ = ggml.MXFP4
		} else {
			typ = ggml.Q8_0
		}
	case cat == catTokenEmbd:
		// Only the IQ and ternary file types change token_embd.
	case cat.isAttnV():
		switch {
		case ft == Q2_K:
			if m.gqa() >= 4 {
				typ = ggml.Q4_K
			} else {
				typ = ggml.Q3_K
			}
		case ft == Q2_K_S && m.gqa() >= 4:
			typ = ggml.Q4_K
		case ft == Q3_K_M:
			if qs.iAttnV < 2 {
				typ = ggml.Q5_K
			} else {
				typ = ggml.Q4_K
			}
		case ft == Q3_K_L:
			typ = ggml.Q5_K
		case (ft == Q4_K_M || ft == Q5_K_M) && qs.useMoreBits(qs.iAttnV, qs.nAttnV):
			typ = ggml.Q6_K
		case ft == Q4_K_S && qs.iAttnV < 4:
			typ = ggml.Q5_K
		}
		if m.is70B() && (typ == ggml.Q3_K || typ == ggml.Q4_K) {
			// 8 heads share each attn_v in the 70B model: more bits
			// cost little there.
			typ = ggml.Q5_K
		}
		if m.NExpert == 8 {
			typ = ggml.Q8_0
		}
		qs.iAttnV++
	case cat == catAttnK:
		if m.NExpert == 8 {
			typ = ggml.Q8_0
		}
	case cat == catAttnQ:
		// Only the IQ3 file types change attn_q.
	case cat == catFFNDown:
		i, n, err := qs.layer(qs.iFFNDown, t.Name)
		if err != nil {
			return 0, err
		}
		switch {
		case ft == Q2_K:
			typ = ggml.Q3_K
		case ft == Q2_K_S:
			if i < n/8 {
				typ = ggml.Q4_K
			}
		case ft == Q3_K_M:
			switch {
			case i < n/16:
				typ = ggml.Q5_K
			case !falcon || qs.useMoreBits(i, n):
				typ = ggml.Q4_K
			default:
				typ = ggml.Q3_K
			}
		case ft == Q3_K_L:
			if falcon {
				typ = ggml.Q4_K
			} else {
				typ = ggml.Q5_K
			}
		case ft == Q4_K_M:
			if falcon {
				switch {
				case i < n/16:
					typ = ggml.Q6_K
				case qs.useMoreBits(i, n):
					typ = ggml.Q5_K
				default:
					typ = ggml.Q4_K
				}
			} else if qs.useMoreBits(i, n) {
				typ = ggml.Q6_K
			}
		case ft == Q5_K_M && qs.useMoreBits(i, n):
			typ = ggml.Q6_K
		case ft == Q4_K_S && !falcon && i < n/8:
			typ = ggml.Q5_K
		}
		qs.iFFNDown++
	case cat == catAttnOutput:
		if !falcon {
			if m.NExpert == 8 {
				switch ft {
				case Q2_K, Q3_K_S, Q3_K_M, Q4_K_S, Q4_K_M:
					typ = ggml.Q5_K
				}
			} else {
				switch ft {
				case Q2_K:
					typ = ggml.Q3_K
				case Q3_K_M:
					typ = ggml.Q4_K
				case Q3_K_L:
					typ = ggml.Q5_K
				}
			}
		} else if ft == Q3_K_L {
			typ = ggml.Q4_K
		}
	case cat == catAttnQKV:
		// Unreachable: attn_qkv is attn_v-like above (as in llama.cpp,
		// where this branch is dead code too).
	case cat == catFFNGate:
		if _, _, err := qs.layer(qs.iFFNGate, t.Name); err != nil {
			return 0, err
		}
		qs.iFFNGate++
	case cat == catFFNUp:
		if _, _, err := qs.layer(qs.iFFNUp, t.Name); err != nil {
			return 0, err
		}
		qs.iFFNUp++
	}
	return typ, nil
}

// LlamaOrder returns the indices of tensors in the order llama-quantize
// writes them (llama_model_loader's weights_map, a std::map ordered by
// weight_name_comparer): tensors outside any blk.N first, then by layer,
// each group by name (bytewise).
func LlamaOrder(tensors []gguf.TensorInfo) []int {
	idx := make([]int, len(tensors))
	layer := make([]int, len(tensors))
	for i, t := range tensors {
		idx[i] = i
		layer[i] = -1
		if n, ok := blockIndex(t.Name); ok {
			layer[i] = n
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		la, lb := layer[idx[a]], layer[idx[b]]
		if la != lb {
			return la < lb
		}
		return tensors[idx[a]].Name < tensors[idx[b]].Name
	})
	return idx
}

// PlanTypes returns the type llama-quantize gives each tensor of a file of
// type ft (in the order of tensors), running its counters over the tensors
// in LlamaOrder as llama_model_quantize does. It also returns the number
// of tensors that fell back to another type because their rows are not
// whole blocks.
func PlanTypes(ft FileType, m ModelInfo, tensors []gguf.TensorInfo, pure bool) ([]ggml.Type, int, error) {
	return PlanTypesWith(ft, m, tensors, PlanOptions{Pure: pure})
}

// PlanTypesWith is PlanTypes with llama-quantize's other choices (the
// overrides of PlanOptions).
func PlanTypesWith(ft FileType, m ModelInfo, tensors []gguf.TensorInfo, po PlanOptions) ([]ggml.Type, int, error) {
	qs := quantState{m: m, tied: true, ov: po}
	for _, r := range po.TensorTypes {
		re, err := regexp.Compile(r.Pattern)
		if err != nil {
			return nil, 0, fmt.Errorf("ggufconv: tensor type rule %q: %v", r.Pattern, err)
		}
		qs.rules = append(qs.rules, re)
	}
	pure := po.Pure
	for _, t := range tensors {
		c := categoryOf(t.Name)
		if c.isAttnV() {
			qs.nAttnV++
		}
		if c == catOutput {
			qs.tied = false
		}
	}
	out := make([]ggml.Type, len(tensors))
	for _, i := range LlamaOrder(tensors) {
		typ, err := qs.tensorType(ft, tensors[i], pure)
		if err != nil {
			return nil, 0, err
		}
		out[i] = typ
	}
	return out, qs.fallbacks, nil
}
