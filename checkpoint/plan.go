package checkpoint

import (
	"fmt"
	"path"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// Options configure a conversion.
type Options struct {
	// To is the destination of the converted floating tensors: half, float,
	// double, bfloat16 or a small floating format.
	To cltype.Kind
	// Mode is the rounding mode (round.RTE is OpenCL's default to floating
	// types). Sat saturates: overflow gives +-MAX instead of an infinity
	// or NaN.
	Mode round.Mode
	Sat  bool
	// Tensors, if not empty, selects the tensors to convert by name
	// (path.Match globs; a tensor is selected when one matches). Skip
	// leaves out the tensors any of its globs match. Tensors not selected
	// are copied byte for byte.
	Tensors, Skip []string
	// Workers is the number of converting goroutines (0: GOMAXPROCS), at
	// most MaxWorkers().
	Workers int
	// Stats asks for each converted tensor's statistics (fileconv.Stats).
	Stats bool
	// WeightBlockSize is the block of an FP8 weight's scale, rows x columns
	// (config.json's quantization_config.weight_block_size); zero means
	// infer it from the shapes of the weight and its scale.
	WeightBlockSize [2]int
	// BlockSize, with an FP8 destination, quantizes the selected
	// two-dimensional floating tensors with one float32 scale per block of
	// BlockSize[0] rows x BlockSize[1] columns.
	BlockSize [2]int
	// Recipe is the formula of the FP8 block quantization (RecipeExact,
	// clconv's own, by default; RecipeDeepSeek and RecipeTransformers
	// write those tools' bytes, and round to nearest even as they do).
	Recipe Recipe
	// MaxShardSize, when positive, cuts a checkpoint's output into new
	// shards of at most this many bytes of tensor data, named and indexed
	// as save_pretrained names them ("model-00001-of-00004.safetensors",
	// "model.safetensors.index.json"; one shard is "model.safetensors");
	// a tensor larger than that is a shard of its own. Zero keeps the
	// input's shards and names. ConvertCheckpoint only.
	MaxShardSize int64
	// Rest, when set (half, float, double or bfloat16), converts the
	// floating tensors that a quantization does not quantize (embeddings,
	// norms, lm_head, ...) to it; otherwise they are kept as they are.
	Rest cltype.Kind
	// Linear, when set, is the rule of what a quantization takes by
	// default (without Tensors) in place of IsLinearWeight: a container
	// whose tensors are named otherwise (GGUF's "blk.N.attn_q.weight")
	// gives its own. experts is set for the block formats (Block).
	Linear func(name string, shape []int64, experts bool) bool
	// ScaleSuffix names the scale written after a quantized tensor X:
	// X + ScaleSuffix ("_scale_inv" when empty, DeepSeek-V3's name).
	ScaleSuffix string
	// Progress, if not nil, is called with the input bytes done so far and
	// the total.
	Progress func(done, total int64)

	// Block, when set, quantizes every selected F32, F64, F16 and BF16
	// tensor to this block-scaled format along its last axis, in the
	// layouts of published checkpoints (see MXFormatKey and
	// docs/SAFETENSORS.md); To, Sat and the FP8 block sizes must then be
	// left zero. Mode rounds the elements.
	Block *mx.Format
	// Rule is the shared-exponent rule of the MX formats (mx.Floor, the
	// OCP specification's, by default).
	Rule mx.ScaleRule
	// Pad accepts a last axis that is not a whole number of blocks: each
	// row's last block is padded with zeros, and the output holds whole
	// blocks (a dequantization then gives the padded length).
	Pad bool
	// KeepRaw lists globs of tensors to copy byte for byte, by choice, even
	// when they are part of an incomplete block-scaled layout (a weight
	// without its scale, a scale without its weight), which is otherwise an
	// error. Skip does the same; KeepRaw says why.
	KeepRaw []string

	// fp8Config is the config.json that says the FP8 weights are
	// block-quantized ("" when none does).
	fp8Config string
	// npy writes the one output tensor as a .npy file (ConvertInput).
	npy bool
	// roles and probs are the block-scaled layouts of the whole checkpoint
	// (layouts), computed once per conversion.
	roles map[string]member
	probs []problem
	// modelType is config.json's model_type ("" without one).
	modelType string
	// ranges, when set, gathers the dequantized weights' values
	// (DequantizedRanges).
	ranges *rangeSet
}

// fileOf returns the path of the input file f ("" when unknown).
func (o *Options) fileOf(f *Input) string {
	return f.Path
}

// Action is what a conversion does with one tensor.
type Action uint8

// The actions.
const (
	ActKeep       Action = iota // copied byte for byte
	ActConvert                  // converted element by element
	ActDequantFP8               // an FP8 weight times its block scales, rounded once
	ActQuantFP8                 // quantized to FP8 with a float32 scale per block
	ActScaleOut                 // the scale written by a QuantFP8
	ActDropScale                // a scale consumed by a dequantization (not written)
	ActDequantMX                // MXFP4 blocks and E8M0 scales (gpt-oss), rounded once
	ActDequantNV                // NVFP4 weight, E4M3 block scales, F32 tensor scale (ModelOpt), rounded once
	ActQuantMX                  // quantized to an MX format (Options.Block): NAME.blocks and NAME.scales
	ActQuantNV                  // quantized to NVFP4 (Options.Block): NAME, NAME_scale and NAME_scale_2
	ActDecode                   // a tensor stored in blocks (Tensor.Codec) written as the float32 values it decodes to
	ActReencode                 // an E4M3 block-scaled weight or its scale re-encoded to E4M3FNUZ (bits kept, scale doubled), or back
)

var actionNames = [...]string{"keep", "convert", "dequantize", "quantize", "scale", "drop", "dequantize-mxfp4", "dequantize-nvfp4", "quantize-mx", "quantize-nvfp4", "decode", "reencode"}

// String returns the action's name.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", a)
}

// TensorReport is what happened to one tensor.
type TensorReport struct {
	Name   string          `json:"name"`
	Action string          `json:"action"`
	From   string          `json:"from"`            // the input dtype, or the stored type of an encoded tensor ("q4_K"); "" for a scale written by quantization
	To     string          `json:"to"`              // the output dtype ("" when dropped)
	Shape  []int64         `json:"shape"`           // the output shape (the input's when dropped)
	Block  []int           `json:"block,omitempty"` // rows x columns of a block scale
	Scale  string          `json:"scale,omitempty"` // the scale tensor's name (dequantize, quantize)
	Shard  string          `json:"shard,omitempty"` // the output shard (sharded checkpoints)
	Stats  *fileconv.Stats `json:"stats,omitempty"`
	// Recipe is the FP8 block recipe of a quantized tensor (Options.Recipe).
	Recipe string `json:"recipe,omitempty"`
	// Format is the block format of a tensor quantized with Options.Block,
	// and MX what mx.Quantize reported for it.
	Format string    `json:"format,omitempty"`
	MX     *mx.Stats `json:"mx_stats,omitempty"`
	// Source is the input tensor's name when the output's differs (MX
	// blocks "X.blocks" dequantized to "X", or quantized the other way).
	Source string `json:"source,omitempty"`
	// Transposed is set when the dequantized weight is the transpose of
	// its blocks' last two axes (gpt-oss's experts, as transformers loads
	// them).
	Transposed bool `json:"transposed,omitempty"`
	// Layout is set for a weight or scale of a block-scaled layout that
	// was kept byte for byte because the destination does not dequantize
	// it.
	Layout bool `json:"block_scaled_kept,omitempty"`
	// NonFinite counts the finite values of the tensor that became NaN or
	// an infinity (always counted, with or without Stats).
	NonFinite int64 `json:"became_nonfinite,omitempty"`
}

// Report describes a whole conversion.
type Report struct {
	Tensors  []TensorReport `json:"tensors"`
	Shards   int            `json:"shards"`
	BytesIn  int64          `json:"bytes_in"`
	BytesOut int64          `json:"bytes_out"`
	// Warnings are what the caller should tell the user: values that
	// became NaN or infinite, globs that matched nothing, shards left out
	// of the index, block-scaled weights kept as they are.
	Warnings []string `json:"warnings,omitempty"`
}

// source is a tensor of one of the input files.
type source struct {
	f *Input
	t *Tensor
}

// job is one output tensor and how to make it.
type job struct {
	act    Action
	out    safetensors.TensorInfo // Begin/End set once the header is written
	src    source
	scale  source // DequantFP8's scale; DequantMX's and DequantNV's block scales
	scale2 source // DequantNV's tensor scale
	block  [2]int
	// quant links a QuantFP8 job to its ScaleOut job (the next one).
	quantScale *job
	report     *TensorReport
	// mxf is the block format of an MX or NVFP4 (de)quantization; extra
	// are the scales a QuantMX or QuantNV job writes (the jobs after it).
	mxf   *mx.Format
	extra []*job
	// rest marks a tensor that a quantization converts to Options.Rest.
	rest bool
	// transpose marks a dequantization whose output is the transpose of
	// the blocks' last two axes (gpt-oss's experts: gptOssExperts).
	transpose bool
	// reencode is +1 for an E4M3 -> E4M3FNUZ re-encoding, -1 for the
	// inverse (ActReencode; fnuz.go).
	reencode int
}

// selected reports whether opt selects the tensor named name.
func (o *Options) selected(name string) bool {
	for _, g := range o.KeepRaw {
		if ok, _ := path.Match(g, name); ok {
			return false
		}
	}
	for _, g := range o.Skip {
		if ok, _ := path.Match(g, name); ok {
			return false
		}
	}
	if len(o.Tensors) == 0 {
		return true
	}
	for _, g := range o.Tensors {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

// validate checks the options.
func (o *Options) validate() error {
	if o.Rest != cltype.Invalid {
		if !o.quantizing() {
			return fmt.Errorf("checkpoint: Rest (%s) is what a quantization does with the tensors it does not quantize; without one, To converts every selected tensor", o.Rest)
		}
		switch o.Rest {
		case cltype.Half, cltype.Float, cltype.Double, cltype.BFloat16:
		default:
			return fmt.Errorf("checkpoint: the rest of a quantized checkpoint may become half, float, double or bfloat16, not %s", o.Rest)
		}
	}
	if o.Block != nil {
		if o.To != cltype.Invalid || o.Sat {
			return fmt.Errorf("checkpoint: quantizing to %s takes no destination type or saturation", o.Block.Name)
		}
		if err := o.validateMX(); err != nil {
			return err
		}
		return o.validateGlobs()
	}
	if !o.To.IsFloating() {
		return fmt.Errorf("checkpoint: the destination must be a floating type, not %s (integer tensors are kept as they are)", o.To)
	}
	if _, ok := safetensors.DTypeOf(o.To); !ok {
		return fmt.Errorf("checkpoint: %s has no safetensors dtype", o.To)
	}
	if err := o.validateGlobs(); err != nil {
		return err
	}
	b := o.BlockSize
	if b != [2]int{} {
		if o.To != cltype.E4M3 && o.To != cltype.E5M2 {
			return fmt.Errorf("checkpoint: a block size quantizes to e4m3 or e5m2, not %s", o.To)
		}
		if b[0] <= 0 || b[1] <= 0 {
			return fmt.Errorf("checkpoint: block size %dx%d: both must be positive", b[0], b[1])
		}
	}
	if o.Recipe != RecipeExact {
		if int(o.Recipe) >= len(recipeNames) {
			return fmt.Errorf("checkpoint: unknown FP8 recipe %d", o.Recipe)
		}
		if b == [2]int{} {
			return fmt.Errorf("checkpoint: recipe %s is a formula of FP8 block quantization: give it a block size (e.g. 128x128)", o.Recipe)
		}
		if o.Recipe == RecipeCompressedTensors && o.To != cltype.E4M3 {
			return fmt.Errorf("checkpoint: recipe %s writes e4m3 (compressed-tensors' 8-bit float is float8_e4m3fn), not %s", o.Recipe, o.To)
		}
		if o.Mode != round.RTE || o.Sat {
			return fmt.Errorf("checkpoint: recipe %s rounds to nearest even, as %s does, and never overflows: leave out the rounding mode and saturation (recipe exact takes them)", o.Recipe, o.Recipe)
		}
	}
	if w := o.WeightBlockSize; w != [2]int{} && (w[0] <= 0 || w[1] <= 0) {
		return fmt.Errorf("checkpoint: weight block size %dx%d: both must be positive", w[0], w[1])
	}
	return nil
}

// validateGlobs checks Tensors and Skip.
func (o *Options) validateGlobs() error {
	for _, g := range append(append(append([]string(nil), o.Tensors...), o.Skip...), o.KeepRaw...) {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("checkpoint: bad glob %q: %v", g, err)
		}
	}
	return nil
}

// dequantDest reports whether To is a type block-scaled weights are
// dequantized to.
func (o *Options) dequantDest() bool {
	switch o.To {
	case cltype.Half, cltype.Float, cltype.Double, cltype.BFloat16:
		return true
	}
	return false
}

// scaleSuffix returns the name suffix of written scales.
func (o *Options) scaleSuffix() string {
	if o.ScaleSuffix == "" {
		if o.Recipe == RecipeCompressedTensors {
			return "_scale" // compressed-tensors' X.weight_scale
		}
		return "_scale_inv"
	}
	return o.ScaleSuffix
}

// fp8Scale finds the scale of an FP8 weight named name: name+"_scale_inv"
// (DeepSeek-V3) or name+"_scale" (compressed-tensors).
func fp8Scale(all map[string]source, name string) (source, bool) {
	for _, suf := range []string{"_scale_inv", "_scale"} {
		if s, ok := all[name+suf]; ok {
			return s, true
		}
	}
	return source{}, false
}

// isFP8 reports whether d is an FP8 weight dtype of a block-scaled layout:
// OCP E4M3 and E5M2, and their FNUZ variants (AMD MI300 checkpoints), which
// dequantize the same way, through their own values.
func isFP8(d safetensors.DType) bool {
	switch d {
	case safetensors.F8_E4M3, safetensors.F8_E5M2, safetensors.F8_E4M3FNUZ, safetensors.F8_E5M2FNUZ:
		return true
	}
	return false
}

// plan decides every output tensor of file f. all holds every tensor of
// every input file (for scales stored in another shard); the scales that a
// dequantization uses are not written.
func plan(f *Input, all map[string]source, opt *Options) ([]*job, error) {
	if opt.roles == nil {
		opt.roles, opt.probs = layouts(all, opt.fp8Config)
	}
	if err := checkLayouts(f, all, opt); err != nil {
		return nil, err
	}
	jobs := make([]*job, 0, len(f.Tensors))
	var slab []job
	var repSlab []TensorReport
	consumed := consumedScales(all, opt)
	qrow := quantRow(opt)
	for i := range f.Tensors {
		t := &f.Tensors[i]
		src := source{f, t}
		if len(slab) == 0 {
			// Jobs and reports come from slabs: a million tensors are a
			// few large allocations, not two million small ones.
			slab = make([]job, min(len(f.Tensors)-i, 4096))
			repSlab = make([]TensorReport, len(slab))
		}
		j, rep := &slab[0], &repSlab[0]
		slab, repSlab = slab[1:], repSlab[1:]
		*rep = TensorReport{Name: t.Name, From: t.typeName(), Shape: t.Shape}
		*j = job{src: src, report: rep, out: safetensors.TensorInfo{Name: t.Name, DType: t.DType, Shape: t.Shape}}
		if c := t.Codec; c != nil {
			if c.Decode == nil {
				// Not even a copy can be written: safetensors has no
				// dtype for the blocks.
				return nil, dataErrorf("checkpoint: tensor %q: type %s has no decoder here; leave it out with --skip", t.Name, c.Name)
			}
			if n := t.Count(); c.BlockElems <= 0 || n%int64(c.BlockElems) != 0 || t.stored() != n/int64(c.BlockElems)*int64(c.BlockBytes) {
				return nil, dataErrorf("checkpoint: tensor %q: %d bytes are not the %s blocks of shape %s", t.Name, t.stored(), c.Name, ShapeString(t.Shape))
			}
		}
		m := opt.roles[t.Name]
		dequant := opt.dequantDest() && opt.selected(m.weight)
		switch {
		case planReencode(j, m, all, opt):
			// An OCP E4M3 block-scaled weight to E4M3FNUZ, or back: its
			// bytes and scale re-encoded (fnuz.go).
		case m.role != rolePlain && !(dequant && opt.roles[m.weight].role != rolePlain):
			// A block-scaled weight or scale that is not dequantized is
			// kept as it is, with its partners: converting its bytes
			// alone would change what they mean.
			j.act = ActKeep
			rep.Layout = true
		case qrow != nil && opt.quantSelected(t):
			extra, err := qrow.planQuant(j, all, opt)
			if err != nil {
				return nil, err
			}
			j.extra = extra
		case consumed[t.Name]:
			j.act = ActDropScale
		case m.role != rolePlain:
			// A weight of a complete layout, dequantized (its scales
			// were consumed, above).
			r := rowOf(m.role)
			if r.weight != m.role {
				j.act, rep.Layout = ActKeep, true
				break
			}
			if err := r.planDequant(j, all, opt); err != nil {
				return nil, err
			}
		case opt.quantizing() && !opt.quantSelected(t):
			// Not quantized: kept, or converted to Rest.
			j.act = ActKeep
			if k := opt.restKind(t); k != cltype.Invalid {
				j.act = ActConvert
				j.out.DType = mustDType(k)
				j.rest = true
			}
		case !t.DType.IsFloat() || !opt.selected(t.Name) || t.DType.Kind() == opt.To:
			j.act = ActKeep
		case strings.HasSuffix(t.Name, "e_score_correction_bias") && opt.dequantDest():
			// DeepSeek-V3's router bias stays float32, as its own
			// fp8_cast_bf16.py keeps it: the expert choice compares
			// scores that differ in low bits.
			j.act = ActKeep
		case t.DType.Kind() == cltype.Invalid:
			return nil, dataErrorf("checkpoint: tensor %q: converting %s is not supported yet; leave it out with --skip", t.Name, t.DType)
		default:
			j.act = ActConvert
			j.out.DType = mustDType(opt.To)
		}
		if j.act == ActKeep && t.Codec != nil {
			// An encoded tensor has no bytes of a safetensors dtype to
			// keep: it is written as the float32 values it decodes to.
			j.act = ActDecode
		}
		rep.Action = j.act.String()
		if j.act != ActDropScale {
			rep.To = j.out.DType.String()
		}
		jobs = append(jobs, j)
		jobs = append(jobs, j.extra...)
	}
	return jobs, nil
}

// checkLayouts returns the error for the first incomplete block-scaled
// layout of file f that the conversion would touch: a weight without its
// scale (or a scale without its weight) is never converted as plain data.
// A tensor that Skip, KeepRaw or Tensors leaves out is copied byte for
// byte and is no error.
func checkLayouts(f *Input, all map[string]source, opt *Options) error {
	for _, p := range opt.probs {
		s := all[p.tensor]
		if s.f != f || !opt.selected(p.tensor) {
			continue
		}
		where := ""
		if file := opt.fileOf(f); file != "" {
			where = file + ": "
		}
		return dataErrorf("checkpoint: %stensor %q %s: converting it without that would give wrong values; keep it byte for byte with --keep-raw %q, or fix the checkpoint",
			where, p.tensor, p.why, p.tensor)
	}
	return nil
}

// consumedScales returns the names of the scales that the dequantizations
// opt asks for use, wherever they live: they are not written. A scale goes
// with its weight: it is consumed when its weight is selected and
// dequantized, whatever the globs say of the scale itself.
func consumedScales(all map[string]source, opt *Options) map[string]bool {
	consumed := map[string]bool{}
	if !opt.dequantDest() || opt.Block != nil {
		return consumed
	}
	for name, m := range opt.roles {
		r := rowOf(m.role)
		if m.scale() && opt.selected(m.weight) && opt.roles[m.weight].role != rolePlain {
			consumed[name] = true // a complete layout's scale
		}
		// The static activation scale of an FP8 or NVFP4 linear layer
		// (compressed-tensors, ModelOpt: "X.input_scale" beside
		// "X.weight") means nothing to dequantized weights: it goes
		// with them.
		if r != nil && r.dropsInputScale && m.weight == name && opt.selected(name) {
			if base, ok := strings.CutSuffix(name, ".weight"); ok {
				if s, ok := all[base+".input_scale"]; ok && s.t.DType.IsFloat() {
					consumed[base+".input_scale"] = true
				}
			}
		}
	}
	return consumed
}

func mustDType(k cltype.Kind) safetensors.DType {
	d, ok := safetensors.DTypeOf(k)
	if !ok {
		panic("checkpoint: no dtype for " + k.String()) // validate checked it
	}
	return d
}

// ceilDiv returns ceil(a/b) for a >= 0 and b > 0, without overflow
// (a block size near MaxInt64 is one block).
func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a-1)/b + 1
}

// fp8Block returns the block (rows x columns) that each value of scale s
// covers in weight w: want when set (checked against the shapes), else
// inferred from them. A scalar scale covers the whole weight, an [R, 1]
// scale one row each.
func fp8Block(w, s *Tensor, want [2]int) ([2]int, error) {
	bad := func(why string) ([2]int, error) {
		return [2]int{}, dataErrorf("checkpoint: tensor %q (shape %s) and its scale %q (shape %s): %s",
			w.Name, ShapeString(w.Shape), s.Name, ShapeString(s.Shape), why)
	}
	switch s.DType {
	case safetensors.F32, safetensors.BF16, safetensors.F16:
	default:
		// An F64 scale times an FP8 value may need 57 bits: not exact in
		// float64, so the one-rounding promise could not be kept.
		return bad("the scale must be F32, BF16 or F16, not " + s.DType.String())
	}
	if len(w.Shape) != 2 {
		return bad("block-scaled weights must be two-dimensional")
	}
	rows, cols := w.Shape[0], w.Shape[1]
	var sr, sc int64
	switch len(s.Shape) {
	case 0:
		sr, sc = 1, 1
	case 1:
		if s.Shape[0] != 1 {
			return bad("a one-dimensional scale must hold one value")
		}
		sr, sc = 1, 1
	case 2:
		sr, sc = s.Shape[0], s.Shape[1]
	default:
		return bad("the scale must have at most two dimensions")
	}
	if sr <= 0 || sc <= 0 {
		return bad("the scale is empty")
	}
	br, bc := want[0], want[1]
	if sr == 1 && sc == 1 {
		br, bc = int(max(rows, 1)), int(max(cols, 1))
	} else if br == 0 {
		br, bc = inferBlock(rows, sr), inferBlock(cols, sc)
	}
	if ceilDiv(rows, int64(br)) != sr || ceilDiv(cols, int64(bc)) != sc {
		return bad(fmt.Sprintf("blocks of %dx%d need a scale of shape [%d, %d]", br, bc, ceilDiv(rows, int64(br)), ceilDiv(cols, int64(bc))))
	}
	return [2]int{br, bc}, nil
}

// inferBlock returns the block length along an axis of n elements that
// has m scales: the smallest power of two b with ceil(n/b) = m (DeepSeek-V3's
// 128 and the usual block sizes are powers of two; 300 rows with 3 scales
// are blocks of 128, not 100), else ceil(n/m).
func inferBlock(n, m int64) int {
	for b := int64(1); b <= max(n, 1); b *= 2 {
		if ceilDiv(n, b) == m {
			return int(b)
		}
	}
	return int(max(ceilDiv(n, m), 1))
}

// ShapeString formats a shape as safetensors' JSON writes it: [4, 6].
func ShapeString(s []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, d)
	}
	b.WriteByte(']')
	return b.String()
}
