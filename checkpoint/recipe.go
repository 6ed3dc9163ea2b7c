package checkpoint

import (
	"fmt"
	"math"
	"strings"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// Recipe is the formula by which FP8 block quantization (Options.BlockSize)
// computes each block's stored scale and each element's code. The recipes
// differ only in their roundings; every one stores a float32 scale s with
// weight = code * s (DeepSeek-V3's weight_scale_inv).
type Recipe uint8

// The FP8 block recipes (docs/SAFETENSORS.md, "Recipes"). With M the
// format's largest finite value (448 for e4m3) and amax the block's largest
// magnitude:
const (
	// RecipeExact is clconv's own: s = amax/M rounded up to a float32, so
	// that no element exceeds M, and each element the exact quotient x/s
	// rounded once, in any rounding mode.
	RecipeExact Recipe = iota
	// RecipeDeepSeek is DeepSeek-V3's quantizer (its act_quant kernel, as
	// the FP8 checkpoints were made): s = amax/M rounded to nearest in
	// float32, each element x/s rounded to nearest in float32, then to
	// nearest even in FP8.
	RecipeDeepSeek
	// RecipeTransformers is what transformers writes when it saves a model
	// quantized with FineGrainedFP8Config (integrations/finegrained_fp8.py,
	// Fp8Quantize, with its default scale_fmt "float"): m = M/amax, which
	// torch computes as (1/amax)*M, each rounded to float32; each element
	// x*m rounded in float32 and clamped to [-M, M], then to nearest even in
	// FP8; the stored scale is 1/m in float32.
	RecipeTransformers
	// RecipeCompressedTensors is what llm-compressor's FP8_BLOCK scheme
	// writes through compressed-tensors (its calculate_qparams, _quantize
	// and float-quantized compressor), computed in the weight's own dtype D
	// as torch does on the CPU: s = amax/M rounded to D (the scale tensor
	// "X.weight_scale" is of dtype D; a zero scale becomes D's machine
	// epsilon); each element x/s rounded to D, plus the zero point +0 (so
	// -0 becomes +0), clamped to [-M, M], then to nearest even in E4M3.
	RecipeCompressedTensors
)

// recipeNames are the recipes' names, as ParseRecipe reads them.
var recipeNames = [...]string{"exact", "deepseek", "transformers", "compressed-tensors"}

// String returns the recipe's name.
func (r Recipe) String() string {
	if int(r) < len(recipeNames) {
		return recipeNames[r]
	}
	return fmt.Sprintf("Recipe(%d)", r)
}

// ParseRecipe returns the recipe named name (case-insensitive): exact,
// deepseek, transformers or compressed-tensors (also llm-compressor).
func ParseRecipe(name string) (Recipe, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "llm-compressor" {
		return RecipeCompressedTensors, nil
	}
	for i, s := range recipeNames {
		if s == n {
			return Recipe(i), nil
		}
	}
	return 0, fmt.Errorf("unknown FP8 recipe %q (valid: %s)", name, strings.Join(recipeNames[:], ", "))
}

// blockCoef is a block's scale under a recipe: stored is written to the
// scale tensor (a value of the scale's dtype, Recipe.scaleDType); coef is
// what element() uses (the stored scale itself, or transformers'
// multiplier M/amax).
type blockCoef struct {
	stored float64
	coef   float64
}

// scaleDType returns the dtype of the scale tensor that r writes for a
// weight of dtype d: compressed-tensors stores the scale in the weight's
// dtype, the others in float32.
func (r Recipe) scaleDType(d safetensors.DType) safetensors.DType {
	if r == RecipeCompressedTensors {
		return d
	}
	return safetensors.F32
}

// roundOp rounds x, the float32 result of an operation that torch computes
// on the CPU in float32 (its "opmath" for float32, bfloat16 and float16), to
// dtype d (BF16, F16 or F32), to nearest even. float64 operations do not
// come here: they are computed in float64.
func roundOp(d safetensors.DType, x float32) float64 {
	switch d {
	case safetensors.BF16:
		return float64(bfloat16.FromFloat32(x, round.RTE).Float32())
	case safetensors.F16:
		return half.FromFloat32(x, round.RTE).Float64()
	}
	return float64(x)
}

// machineEps is torch.finfo(d).eps, which compressed-tensors puts in place
// of a zero scale.
func machineEps(d safetensors.DType) float64 {
	switch d {
	case safetensors.BF16:
		return 0x1p-7
	case safetensors.F16:
		return 0x1p-10
	case safetensors.F64:
		return 0x1p-52
	}
	return 0x1p-23
}

// scale returns the coefficients of a block of largest magnitude amax
// (NaNs left out) of a weight of dtype d for a format of largest finite
// value fmax; hasNaN says whether the block holds a NaN, which the named
// recipes' formulas spread to the whole block (an error here).
func (r Recipe) scale(amax, fmax float64, hasNaN bool, d safetensors.DType) (blockCoef, error) {
	if r != RecipeExact && hasNaN {
		return blockCoef{}, fmt.Errorf("the block holds a NaN, which %s's formula would spread to every element of the block (--recipe exact keeps it to its own element)", r)
	}
	switch r {
	case RecipeDeepSeek:
		if math.IsInf(amax, 0) {
			return blockCoef{}, fmt.Errorf("the block holds %v: no finite scale", amax)
		}
		a := float32(amax) // the float32 value the formula sees
		if a == 0 {
			// The formula divides 0 by 0 here; every recipe writes an
			// all-zero block as zeros with scale 1.
			return blockCoef{1, 1}, nil
		}
		s := float32(a / float32(fmax))
		if s == 0 {
			return blockCoef{}, fmt.Errorf("its largest magnitude %g gives a scale amax/%g that is 0 in float32 (--recipe exact rounds it up)", amax, fmax)
		}
		if math.IsInf(float64(s), 0) {
			return blockCoef{}, fmt.Errorf("its largest magnitude %g needs a scale beyond float32", amax)
		}
		return blockCoef{float64(s), float64(s)}, nil
	case RecipeCompressedTensors:
		if math.IsInf(amax, 0) {
			return blockCoef{}, fmt.Errorf("the block holds %v: no finite scale", amax)
		}
		// max_val_pos / 448.0, in the weight's dtype; amax is one of
		// its values, exact in float32 unless the weight is float64.
		s := amax / fmax
		if d != safetensors.F64 {
			s = roundOp(d, float32(amax)/float32(fmax))
		}
		if s == 0 {
			// calculate_qparams: "Update any 0s with small values to
			// prevent div by 0" (an all-zero block, or an underflow).
			s = machineEps(d)
		}
		return blockCoef{s, s}, nil
	case RecipeTransformers:
		if math.IsInf(amax, 0) {
			return blockCoef{}, fmt.Errorf("the block holds %v: no finite scale", amax)
		}
		a := float32(amax)
		if a == 0 {
			return blockCoef{1, 1}, nil
		}
		// torch evaluates the Python scalar's 448.0 / t as
		// t.reciprocal() * 448: two roundings, not one division.
		m := float32(float32(1/a) * float32(fmax))
		if math.IsInf(float64(m), 0) {
			return blockCoef{}, fmt.Errorf("its largest magnitude %g gives a multiplier %g/amax beyond float32 (--recipe exact has a scale for it)", amax, fmax)
		}
		inv := float32(1 / m)
		if inv == 0 {
			return blockCoef{}, fmt.Errorf("its largest magnitude %g gives a stored scale 1/(%g/amax) of 0 in float32", amax, fmax)
		}
		return blockCoef{float64(inv), float64(m)}, nil
	}
	s, err := BlockScale(amax, fmax)
	return blockCoef{float64(s), float64(s)}, err
}

// element returns the value that the FP8 encoder rounds for element v (of
// dtype d) of a block with coefficients c.
func (r Recipe) element(v float64, c blockCoef, fmax float64, d safetensors.DType) float64 {
	switch r {
	case RecipeCompressedTensors:
		q := v / c.coef // float64's quotient
		if d != safetensors.F64 {
			q = roundOp(d, float32(v)/float32(c.coef))
		}
		if q == 0 {
			q = 0 // scaled += zero_point (a zero): -0 + 0 is +0
		}
		q = max(-fmax, min(fmax, q))
		// torch's float64 -> float8 cast goes through float32 (c10's
		// Float8_e4m3fn takes a float); the others are exact in float32.
		return float64(float32(q))
	case RecipeDeepSeek:
		return float64(float32(float32(v) / float32(c.coef)))
	case RecipeTransformers:
		p := float64(float32(float32(v) * float32(c.coef)))
		return max(-fmax, min(fmax, p))
	}
	return Quotient(v, c.coef)
}
