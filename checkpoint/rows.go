package checkpoint

// The block-scaled layouts as rows of one table (../shared/docs/STYLE.md,
// "Checkpoint layouts and file formats as rows"). Each row is one layout of
// published checkpoints: how its tensors are recognised, which are its
// scales, how it dequantizes, what a quantization to it writes, and what it
// puts into config.json. The planner, Layouts, the scales a dequantization
// consumes, the kernels' dispatch and the model's config ask the table; a
// new layout is a new row and its tests.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

// layoutRow is one block-scaled layout.
type layoutRow struct {
	// kind is the layout's name in Layout.Kind (an MX weight's is its
	// format's).
	kind string
	// weight and scale are the roles of its weight and its scales.
	weight, scale role
	// find classifies the layout's tensors among names (sorted) of all,
	// setting their roles, and returns its incomplete instances. It runs
	// after the rows above it (a tensor already classified is not looked
	// at). fp8Config is the config.json that says the FP8 weights are
	// block-quantized ("" when none does).
	find func(names []string, all map[string]source, roles map[string]member, fp8Config string) []problem
	// describe fills l (Weight set) for the complete weight w.
	describe func(l *Layout, all map[string]source, w source, opt *Options)
	// planDequant plans job j, the weight, as its dequantization to
	// opt.To: its action, output and scales.
	planDequant func(j *job, all map[string]source, opt *Options) error
	// dequantAct and dequant are the dequantization's action and kernel.
	dequantAct Action
	dequant    func(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error
	// dropsInputScale: a linear layer's static activation scale
	// "X.input_scale" beside the weight "X.weight" means nothing once the
	// weight is dequantized, and goes with it (compressed-tensors FP8,
	// ModelOpt NVFP4).
	dropsInputScale bool

	// quantizes reports whether the options quantize to this layout.
	quantizes func(opt *Options) bool
	// planQuant plans job j, a selected floating tensor, as its
	// quantization, and returns the jobs that write its scales (after it);
	// it may leave j a keep.
	planQuant func(j *job, all map[string]source, opt *Options) ([]*job, error)
	// quantActs are the quantization's actions; quantize its kernel.
	quantActs []Action
	quantize  func(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error
	// config sets config.json's quantization_config (and whatever else
	// loaders read) after a quantization to this layout, and returns a
	// note for the user ("" when none).
	config func(cfg map[string]json.RawMessage, rep *Report, opt *Options) string
}

// layoutRows are the layouts, in the order they are recognised: gpt-oss's
// MX blocks, then ModelOpt's NVFP4 (whose block scale is an F8_E4M3
// tensor), then FP8 weights with scales (DeepSeek-V3, compressed-tensors).
var layoutRows = [...]layoutRow{
	{
		kind: "mxfp4", weight: roleMX, scale: roleMXScales,
		find: findMX, describe: describeMX, planDequant: planDequantMX,
		dequantAct: ActDequantMX, dequant: dequantBlocks,
		quantizes: func(o *Options) bool { return o.Block != nil && !o.Block.TensorScale },
		planQuant: planMX, quantActs: []Action{ActQuantMX}, quantize: quantBlocks,
		config: configMX,
	},
	{
		kind: "nvfp4", weight: roleNV, scale: roleNVScale,
		find: findNV, describe: describeNV, planDequant: planDequantNV,
		dequantAct: ActDequantNV, dequant: dequantBlocks, dropsInputScale: true,
		quantizes: func(o *Options) bool { return o.Block != nil && o.Block.TensorScale },
		planQuant: planMX, quantActs: []Action{ActQuantNV}, quantize: quantBlocks,
		config: configMX,
	},
	{
		kind: "fp8", weight: roleFP8, scale: roleFP8Scale,
		find: findFP8, describe: describeFP8, planDequant: planDequantFP8,
		dequantAct: ActDequantFP8, dequant: dequantFP8, dropsInputScale: true,
		quantizes: func(o *Options) bool { return o.BlockSize != [2]int{} },
		planQuant: planQuantFP8, quantActs: []Action{ActQuantFP8}, quantize: quantFP8,
		config: configFP8,
	},
}

// rowOf returns the row whose weight or scale role is r (nil for a plain
// tensor).
func rowOf(r role) *layoutRow {
	for i := range layoutRows {
		if layoutRows[i].weight == r || layoutRows[i].scale == r {
			return &layoutRows[i]
		}
	}
	return nil
}

// quantRow returns the row that opt quantizes to (nil when it does not
// quantize).
func quantRow(opt *Options) *layoutRow {
	for i := range layoutRows {
		if layoutRows[i].quantizes(opt) {
			return &layoutRows[i]
		}
	}
	return nil
}

// kernel returns the kernel of action a (nil for keep, convert, drop and
// scale, which the writer does itself).
func kernel(a Action) func(context.Context, io.WriterAt, int64, *job, *Options) error {
	for i := range layoutRows {
		r := &layoutRows[i]
		if r.dequantAct == a {
			return r.dequant
		}
		for _, q := range r.quantActs {
			if q == a {
				return r.quantize
			}
		}
	}
	return nil
}

// quantBlocks runs an MX or NVFP4 quantization: the job and the scales it
// writes.
func quantBlocks(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	return quantMX(ctx, dst, base, j, j.extra, opt)
}

// --- gpt-oss MXFP4 (and clconv's other MX formats) ---

func describeMX(l *Layout, all map[string]source, w source, _ *Options) {
	sc, base, _ := mxPair(all, w.t)
	l.Kind, l.Scales, l.Block = "mxfp4", []string{sc.t.Name}, []int{1, 32}
	if f, _, err := mxShape(w, sc.t, base); err == nil {
		l.Kind, l.Block = f.Name, []int{1, f.BlockSize}
	} else {
		l.Kind, l.Problem = "incomplete", err.Error()
	}
}

func planDequantMX(j *job, all map[string]source, opt *Options) error {
	t, rep := j.src.t, j.report
	sc, name, _ := mxPair(all, t)
	mf, shape, err := mxShape(j.src, sc.t, name)
	if err != nil {
		return err
	}
	j.act, j.scale, j.mxf = ActDequantMX, sc, mf
	if gptOssExperts(t) {
		// transformers' GptOss keeps the experts' weights as [E, in,
		// out]; its MXFP4 checkpoints store them as [E, out, in/32]
		// blocks, and its loader transposes the dequantized experts
		// (convert_moe_packed_tensors): so does clconv.
		n := len(shape)
		shape[n-2], shape[n-1] = shape[n-1], shape[n-2]
		j.transpose = true
		rep.Transposed = true
	}
	j.out = safetensors.TensorInfo{Name: name, DType: mustDType(opt.To), Shape: shape}
	rep.Name, rep.Shape, rep.Block, rep.Scale, rep.Source = name, shape, []int{1, 32}, sc.t.Name, t.Name
	if _, clash := all[name]; clash {
		return dataErrorf("checkpoint: %q dequantizes to %q, which the checkpoint already has", t.Name, name)
	}
	return nil
}

// gptOssExperts reports whether MX blocks t are the stacked experts of a
// gpt-oss checkpoint as transformers names them
// ("....mlp.experts.gate_up_proj_blocks", "..._down_proj_blocks": U8 of
// shape [E, out, in/32, 16]), whose dequantized weight is [E, in, out].
// clconv's own MX layout ("X.blocks", any tensor) is not transposed.
func gptOssExperts(t *Tensor) bool {
	return len(t.Shape) == 4 && (strings.HasSuffix(t.Name, "experts.gate_up_proj_blocks") || strings.HasSuffix(t.Name, "experts.down_proj_blocks"))
}

// gptOssExpert reports whether t is a gpt-oss expert weight that a
// quantization to MXFP4 writes in gpt-oss's layout: config.json says
// model_type "gpt_oss", and t is "...mlp.experts.gate_up_proj" or
// "...mlp.experts.down_proj", [E, in, out].
func (o *Options) gptOssExpert(t *Tensor) bool {
	return o.modelType == "gpt_oss" && o.Block == mx.MXFP4 && len(t.Shape) == 3 &&
		(strings.HasSuffix(t.Name, "mlp.experts.gate_up_proj") || strings.HasSuffix(t.Name, "mlp.experts.down_proj"))
}

// gptOssNotConverted is what gpt-oss's MXFP4 checkpoints keep in bf16
// (their config.json's quantization_config.modules_to_not_convert).
var gptOssNotConverted = []string{"model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"}

// configMX writes gpt-oss's quantization_config after quantizing a gpt-oss
// checkpoint's experts to MXFP4. No other loader's config is written for
// the block formats: transformers' MXFP4 path reads gpt-oss's experts only,
// and ModelOpt's NVFP4 hf_quant_config.json means weights and activations
// in 4 bits, whose calibrated activation scales (input_scale) a weight
// conversion cannot make.
func configMX(cfg map[string]json.RawMessage, rep *Report, opt *Options) string {
	delete(cfg, "quantization_config")
	if opt.modelType == "gpt_oss" && opt.Block == mx.MXFP4 {
		// gpt-oss: transformers' Mxfp4Config reads its experts, the
		// only tensors quantized, in gpt-oss's layout.
		other := 0
		for _, t := range rep.Tensors {
			if t.Action == ActQuantMX.String() && !t.Transposed {
				other++
			}
		}
		if other == 0 {
			cfg["quantization_config"], _ = json.Marshal(map[string]any{"quant_method": "mxfp4", "modules_to_not_convert": gptOssNotConverted})
			return ""
		}
		return fmt.Sprintf("config.json: %d tensor(s) besides gpt-oss's experts were quantized to MXFP4 (--tensors): transformers' gpt-oss loader reads MXFP4 experts only, so no quantization_config was written", other)
	}
	return fmt.Sprintf("config.json: no quantization_config for %s is written (gpt-oss's MXFP4 experts excepted; ModelOpt's NVFP4 also needs calibrated activation scales): loaders will not read the quantized weights from config.json alone", opt.destName())
}

// --- NVIDIA ModelOpt NVFP4 ---

func describeNV(l *Layout, _ map[string]source, w source, _ *Options) {
	l.Kind, l.Scales, l.Block = "nvfp4", []string{w.t.Name + "_scale", w.t.Name + "_scale_2"}, []int{1, 16}
}

func planDequantNV(j *job, all map[string]source, opt *Options) error {
	t, rep := j.src.t, j.report
	sc, sc2, _ := nvScales(all, t)
	shape, err := nvShape(t, sc.t, sc2.t)
	if err != nil {
		return err
	}
	j.act, j.scale, j.scale2 = ActDequantNV, sc, sc2
	j.out = safetensors.TensorInfo{Name: t.Name, DType: mustDType(opt.To), Shape: shape}
	rep.Shape, rep.Block, rep.Scale = shape, []int{1, 16}, sc.t.Name+", "+sc2.t.Name
	return nil
}

// --- FP8 with block scales (DeepSeek-V3, compressed-tensors) ---

func describeFP8(l *Layout, all map[string]source, w source, opt *Options) {
	s, _ := fp8Scale(all, w.t.Name)
	l.Kind, l.Scales = "fp8", []string{s.t.Name}
	if blk, err := fp8Block(w.t, s.t, opt.WeightBlockSize); err == nil {
		l.Block = blk[:]
	} else {
		l.Kind, l.Problem = "incomplete", err.Error()
	}
}

func planDequantFP8(j *job, all map[string]source, opt *Options) error {
	t, rep := j.src.t, j.report
	s, _ := fp8Scale(all, t.Name)
	blk, err := fp8Block(t, s.t, opt.WeightBlockSize)
	if err != nil {
		return err
	}
	j.act, j.scale, j.block = ActDequantFP8, s, blk
	j.out.DType = mustDType(opt.To)
	rep.Block, rep.Scale = blk[:], s.t.Name
	return nil
}

// planQuantFP8 plans the quantization of a two-dimensional floating tensor
// to opt.To with a float32 scale per block (Options.Recipe), written after
// it as X + ScaleSuffix. Other tensors are converted element by element
// (selected by Tensors) or kept.
func planQuantFP8(j *job, all map[string]source, opt *Options) ([]*job, error) {
	t, rep := j.src.t, j.report
	switch {
	case !t.DType.IsFloat() || t.DType.Kind() == opt.To:
		j.act = ActKeep
		return nil, nil
	case t.DType.Kind() == cltype.Invalid:
		return nil, dataErrorf("checkpoint: tensor %q: converting %s is not supported yet; leave it out with --skip", t.Name, t.DType)
	case len(t.Shape) != 2:
		j.act = ActConvert
		j.out.DType = mustDType(opt.To)
		return nil, nil
	}
	j.act, j.block = ActQuantFP8, opt.BlockSize
	j.out.DType = mustDType(opt.To)
	rows, cols := t.Shape[0], t.Shape[1]
	b := opt.BlockSize
	if opt.Recipe == RecipeCompressedTensors && t.DType.Kind() == cltype.Invalid {
		return nil, dataErrorf("checkpoint: tensor %q: recipe %s stores the scale in the weight's dtype, which must be F32, BF16, F16 or F64, not %s", t.Name, opt.Recipe, t.DType)
	}
	sd := opt.Recipe.scaleDType(t.DType)
	sj := &job{act: ActScaleOut, src: j.src, block: b, out: safetensors.TensorInfo{
		Name: t.Name + opt.scaleSuffix(), DType: sd,
		Shape: []int64{ceilDiv(rows, int64(b[0])), ceilDiv(cols, int64(b[1]))},
	}}
	sj.report = &TensorReport{Name: sj.out.Name, Action: ActScaleOut.String(), To: sd.String(), Shape: sj.out.Shape, Block: b[:]}
	if _, clash := all[sj.out.Name]; clash {
		return nil, dataErrorf("checkpoint: tensor %q: its scale %q would replace a tensor of that name", t.Name, sj.out.Name)
	}
	j.quantScale = sj
	rep.Block, rep.Scale, rep.Recipe = b[:], sj.out.Name, opt.Recipe.String()
	return []*job{sj}, nil
}

// configFP8 writes the quantization_config that transformers'
// FineGrainedFP8 and DeepSeek-V3's loader read: {"quant_method": "fp8",
// "weight_block_size": [R, C], "activation_scheme": "dynamic",
// "modules_to_not_convert": [...]}, the modules being those of the
// two-dimensional ".weight" tensors left as they were.
//
// With RecipeCompressedTensors it writes compressed-tensors' config instead
// (configCT).
func configFP8(cfg map[string]json.RawMessage, rep *Report, opt *Options) string {
	keep := keptModules(rep)
	if opt.Recipe == RecipeCompressedTensors {
		return configCT(cfg, keep, opt)
	}
	q := map[string]any{
		"quant_method":           "fp8",
		"weight_block_size":      []int{opt.BlockSize[0], opt.BlockSize[1]},
		"activation_scheme":      "dynamic",
		"modules_to_not_convert": keep,
	}
	note := ""
	if opt.To == cltype.E5M2 {
		note = "config.json: quantization_config says fp8 (FineGrainedFP8 and DeepSeek load E4M3 weights; these are E5M2)"
	}
	if opt.scaleSuffix() != "_scale_inv" {
		note = fmt.Sprintf("config.json: quantization_config says fp8, whose loaders read X.weight_scale_inv; the scales are named X%s", opt.scaleSuffix())
	}
	cfg["quantization_config"], _ = json.Marshal(q)
	return note
}

// keptModules returns the modules (sorted) of the two-dimensional ".weight"
// tensors that a quantization left unquantized.
func keptModules(rep *Report) []string {
	keep := []string{}
	for _, t := range rep.Tensors {
		if t.Action != ActQuantFP8.String() && len(t.Shape) == 2 && strings.HasSuffix(t.Name, ".weight") && t.Action != ActScaleOut.String() {
			keep = append(keep, strings.TrimSuffix(t.Name, ".weight"))
		}
	}
	sort.Strings(keep)
	return keep
}

// configCT writes the quantization_config that compressed-tensors writes
// for llm-compressor's FP8_BLOCK scheme (quantization/quant_scheme.py) and
// that transformers (CompressedTensorsHfQuantizer) and vLLM read: one
// config group targeting the Linear modules, whose weights are 8-bit floats
// in blocks of R x C, static, symmetric, and whose input activations are
// quantized dynamically in groups of C; the format "float-quantized", the
// status "compressed", and the kept modules in "ignore".
func configCT(cfg map[string]json.RawMessage, keep []string, opt *Options) string {
	b := opt.BlockSize
	group := map[string]any{
		"targets": []string{"Linear"},
		"weights": map[string]any{
			"num_bits": 8, "type": "float", "symmetric": true, "strategy": "block",
			"block_structure": []int{b[0], b[1]}, "dynamic": false, "group_size": nil,
			"actorder": nil, "observer": "minmax", "observer_kwargs": map[string]any{},
		},
		"input_activations": map[string]any{
			"num_bits": 8, "type": "float", "symmetric": true, "strategy": "group",
			"group_size": b[1], "dynamic": true, "block_structure": nil,
			"actorder": nil, "observer": nil, "observer_kwargs": map[string]any{},
		},
		"output_activations": nil,
		"format":             "float-quantized",
	}
	q := map[string]any{
		"quant_method":             "compressed-tensors",
		"format":                   "float-quantized",
		"quantization_status":      "compressed",
		"config_groups":            map[string]any{"group_0": group},
		"ignore":                   keep,
		"kv_cache_scheme":          nil,
		"global_compression_ratio": nil,
		"sparsity_config":          map[string]any{},
	}
	cfg["quantization_config"], _ = json.Marshal(q)
	if s := opt.scaleSuffix(); s != "_scale" {
		return fmt.Sprintf("config.json: quantization_config says compressed-tensors, whose loaders read X.weight_scale; the scales are named X%s", s)
	}
	return ""
}
