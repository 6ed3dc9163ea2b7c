// Package checkpoint converts model checkpoints stored as safetensors files,
// exactly, in constant memory and on all cores: one file, or a sharded
// checkpoint (a directory, or its model.safetensors.index.json) shard by
// shard with its index. It is the library behind `clconv convert` for
// .safetensors input, and for GGUF input to safetensors.
//
// # The tensor view
//
// The planner and its kernels see the input through a neutral view,
// independent of the container: a Tensor is a name, the dtype of its
// values, a row-major shape and its bytes (an io.SectionReader), and an
// Input is a file's Tensors with its metadata. FromSafetensors makes one
// of a safetensors file; package ggufconv makes one of a GGUF file, whose
// block types are a Codec that decodes to float32 (ggml's exact
// dequantization): such a tensor is, to every kernel, the float32 tensor
// it decodes to (ActDecode writes it as such). ConvertInput converts an
// Input with ConvertFile's guarantees.
//
// # What is converted
//
// Every selected floating tensor (Options.Tensors and Options.Skip are
// path.Match globs on tensor names) whose dtype differs from Options.To is
// converted with OpenCL C semantics in Options.Mode, with _sat if
// Options.Sat: the same rounding, the same kernels and the same statistics
// as clconv's .npy conversion (package fileconv). Every other tensor (integer
// tensors, unselected ones, tensors already of the destination type) is
// copied byte for byte. The order of the tensors and the __metadata__ map
// are kept.
//
// # Block-scaled weights
//
// A block-scaled weight is never converted element by element without its
// scale, which would give silently wrong values. When the destination is
// half, float, double or bfloat16, these layouts are dequantized with ONE
// rounding (the element times its scale is exact in float64, and only that
// exact product is rounded into the destination, in the mode), and the scale
// tensors are dropped from the output:
//
//   - DeepSeek-V3 FP8: an F8_E4M3 (or F8_E5M2) "X.weight" with an F32, BF16
//     or F16 "X.weight_scale_inv" of one value per block of rows x columns;
//     the block size comes from config.json's
//     quantization_config.weight_block_size (Options.WeightBlockSize), or
//     is inferred from the two shapes (ceil(rows/block) = scale rows). Its
//     value is weight * weight_scale_inv (the "inverse" names the
//     quantization scale's inverse; DeepSeek's inference code multiplies).
//   - compressed-tensors FP8: the same with "X.weight_scale" (per tensor, per
//     channel or per block, again inferred from the shapes).
//
// A quantization takes, by default, the weights that the reference tools
// quantize: the 2-D weights of linear layers (IsLinearWeight), not
// embeddings, lm_head, norms or MoE routers; Options.Tensors chooses
// otherwise, and Options.Rest converts what is not quantized.
//
// With Options.BlockSize set and an FP8 destination (e4m3 or e5m2), those
// two-dimensional floating tensors are quantized the other way: one float32
// scale per block, by Options.Recipe: RecipeExact (scale = amax / MAX
// rounded up, so that no element clamps, and each element the exact
// quotient x / scale rounded once into the format in the mode), or the
// bytes of DeepSeek-V3's (RecipeDeepSeek) or transformers' (RecipeTransformers)
// formula; the scale is written after its weight as "X_scale_inv"
// (Options.ScaleSuffix).
//
// Each layout is one row of a table (rows.go): how it is recognised, its
// scales, its dequantization, its quantization and the config.json it
// writes. DequantizedRanges gives each weight's exact dequantized range.
//
// With Options.Block set, selected F32, F64, F16 and BF16 tensors are
// quantized to that block-scaled format of package mx along their last
// axis and written in gpt-oss's MXFP4 layout ("X.blocks", "X.scales"; the
// MXFP6 and MXFP8 formats alike, their format recorded under MXFormatKey)
// or ModelOpt's NVFP4 layout ("X", "X_scale", "X_scale_2"); the
// dequantization above reads all of them back.
package checkpoint

import "fmt"

// A DataError is a problem of the checkpoint itself rather than of the
// options or the file system: shapes of a weight and its scale that do not
// fit, a block with no finite scale, a malformed index or config.json,
// tensor names that clash. clconv exits with status 1 for these (the input
// is wrong) and 2 for the others. errors.Is and errors.As see through it to
// the errors its message wraps (fmt's %w): an I/O error wrapped in a
// DataError is still an I/O error.
type DataError struct {
	// File, Tensor and Offset say where the problem lies when it is known:
	// a file (a shard, the index, config.json), a tensor of it, and the
	// byte of the file (-1 when not known). The message names them already;
	// they are for programs.
	File   string
	Tensor string
	Offset int64

	msg string
	err error // fmt.Errorf's result: what %w operands it wraps
}

// Error returns the message.
func (e *DataError) Error() string { return e.msg }

// Unwrap returns the errors that the message wraps with %w (none, one or
// several).
func (e *DataError) Unwrap() []error {
	switch u := e.err.(type) {
	case interface{ Unwrap() error }:
		if w := u.Unwrap(); w != nil {
			return []error{w}
		}
	case interface{ Unwrap() []error }:
		return u.Unwrap()
	}
	return nil
}

// dataErrorf formats a *DataError with fmt.Errorf's verbs; the operands of
// %w stay in its chain (Unwrap).
func dataErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &DataError{Offset: -1, msg: err.Error(), err: err}
}
