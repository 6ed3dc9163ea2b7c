// Package mx implements the block-scaled formats of the OCP Microscaling
// Formats (MX) Specification v1.0 and NVIDIA's NVFP4: quantization from
// float32, float64, half and bfloat16 into elements and block scales, and
// dequantization back, exact in every rounding mode and under every scale
// rule, plus the packings of 4- and 6-bit elements.
//
// # Formats
//
//	format      element  block  scale                       element max  emax
//	mxfp8-e4m3  E4M3     32     E8M0 (2^(e-127), 0xFF NaN)  448          8
//	mxfp8-e5m2  E5M2     32     E8M0                        57344        15
//	mxfp6-e2m3  E2M3     32     E8M0                        7.5          2
//	mxfp6-e3m2  E3M2     32     E8M0                        28           4
//	mxfp4       E2M1     32     E8M0                        6            2
//	nvfp4       E2M1     16     E4M3 (positive) * float32   6            2
//
// The element and scale formats are rows of internal/minifloat's table
// (docs/FORMATS.md gives their encodings). A block is BlockSize consecutive
// elements of a row along the last, contiguous axis: a tensor is rows of
// rowLen elements, each row ceil(rowLen/BlockSize) blocks. A row length
// that is not a whole number of blocks is an error unless Options.Pad is
// set: each row's last block is then padded with zeros (which change no
// block maximum), and the element and scale outputs are sized to whole
// blocks; Dequantize drops the padding again. Scales are one byte per
// block in row-major block order.
//
// # The value of a block
//
// MX: element * 2^X, X = scale - 127; the scale 0xFF is NaN and makes
// every element of its block NaN (the specification's rule, torchao's
// get_fp_scale). NVFP4: element * E4M3 scale * tensor scale; an E4M3 NaN
// scale makes its block NaN.
//
// # Scale rules (MX)
//
// The shared exponent X comes from the block's largest magnitude amax; emax
// and max are the element format's, as in the table above. Every rule is
// computed exactly on amax's binary exponent and significand (integers; no
// floating-point logarithm), for float64 amax too:
//
//	Floor  X = floor(log2(amax)) - emax         OCP MX v1.0 section 6.3; torchao FLOOR (its default)
//	RCEIL  X = ceil(log2(amax / max))           NVIDIA: cuBLAS, cuDNN, PTX cvt.rp.ue8m0x2.f32; torchao RCEIL
//	Ceil   X = ceil(log2(amax)) - emax          torchao CEIL
//	Even   X = floor(log2(RNE_p(amax))) - emax  torchao EVEN (RNE_p: to nearest even at p = mbits+1 bits)
//
// Floor keeps the specification's choice: amax / 2^X lies in [2^emax,
// 2^(emax+1)), so elements near amax may exceed max and are clamped to
// ±max. RCEIL makes 2^X the least power of two with amax / 2^X <= max, so no
// element is clamped (cuDNN: "scale = quantize_round_up(amax(vals) /
// vmax_otype)"). Ceil rounds amax itself up to a power of two (torchao adds
// one to floor(log2(amax)) when amax's float32 mantissa is non-zero). Even
// rounds amax's significand to p bits first: torchao adds 1 << (23-mbits-1)
// to the float32 bits and clears the mantissa, which is round-half-up, but
// only the carry into the exponent matters and that happens exactly when
// the significand is at least 2 - 2^-p under half-up and half-to-even alike
// (the candidate below 2 has an odd last bit), so X = floor(log2(amax)) -
// emax + 1 exactly then. SharedExp exposes the computation.
//
// X is clamped to E8M0's range [-127, 127] (Shared.Clamped, and
// Stats.ScaleClamped count it). Only the bottom clamp can happen for
// float32, half and bfloat16 sources (every rule gives X <= 126 for amax <=
// MaxFloat32); a float64 amax of 2^1000 gets X = 127 and its large elements
// clamp to ±max. A block whose amax is zero gets the scale 0x00 (2^-127)
// and zero elements, under every rule, as torchao writes it (it takes the
// exponent of 0 as -127, then clamps). A block whose amax is NaN or
// infinite gets the NaN scale 0xFF, as torchao's to_mx does for every rule
// ("No-saturation E8M0 conversion maps both NaN and Inf to 0xff"), and
// all-zero element codes (clconv's choice: the scale alone makes the block
// NaN, and FP4/FP6 have no NaN to write); Stats counts NaN and infinite
// inputs and such blocks.
//
// # Elements
//
// An MX element is x / 2^X, an exact power-of-two scaling of the exact
// source value (never a float32 product that could go subnormal), rounded
// once into the element format in Options.Mode (RTE, ties to the even code;
// RTZ; RTP; RTN) and clamped to ±max: the specification's "normal
// overflow clamped to ±max", PTX's .satfinite. Options.NoSat lets FP8
// elements overflow instead, as a non-saturating conversion does (E4M3 to
// its NaN, E5M2 to infinity; ±max when the mode rounds toward zero). A
// value that rounds to zero keeps its sign (-0 codes). Stats.Clamped counts
// the elements whose rounded value (as if the exponent range had no top)
// exceeded max; Stats.Flushed the finite non-zero inputs that became zero
// elements.
//
// # NVFP4
//
// NVIDIA's two-level scaling, as TensorRT Model Optimizer (ModelOpt)
// quantizes weights (modelopt/torch/quantization/qtensor/nvfp4_tensor.py):
//
//	tensor_scale = amax_tensor / (6 * 448)
//	block scale  = amax_block / (6 * tensor_scale), rounded to E4M3, clamped to [2^-9, 448]
//	element      = x / (block scale * tensor_scale), rounded to E2M1, clamped to ±6
//
// ModelOpt rounds the block scale to nearest even: it clamps the float32
// quotient to [2^-9, 448] (its _cast_per_block_scale_to_fp8: "avoids
// underflow→0 / overflow→NaN") and casts with .to(torch.float8_e4m3fn),
// which rounds to nearest even; an all-zero block gets the scale 1.0
// ("Set all zero values in scale to 1.0"). Its elements are _cast_fp4: a
// search among the midpoints 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5 that
// rounds ties to the even code and saturates at 6. torchao's NVFP4Tensor
// also rounds to nearest even, but clamps the scale at 2^-6 (E4M3's
// smallest normal) and multiplies by reciprocals. Options.Recipe picks:
//
//   - ModelOpt (default): ModelOpt's float32 arithmetic step by step, each
//     operation rounded to nearest even as PyTorch does on the CPU. Checked
//     bit for bit against those steps re-run in PyTorch 2.11 on the CPU
//     (tensor scale, block scales and elements of 2048 blocks).
//   - ModelOptCUDA: the same on a CUDA device, where PyTorch computes
//     amax / 2688 as amax * float32(1/2688); the tensor scale can differ
//     by one unit in the last place (seen on an H200).
//   - Exact: each rational rounded once, the block scale in
//     Options.ScaleMode (RTE by default; RTP is cuDNN's documented
//     "quantize_round_up"), the element in Options.Mode.
//
// Options.ScaleMode and Options.Mode replace the two nearest-even roundings
// in every recipe. Options.TensorScale passes the tensor scale (as a
// checkpoint's weight_scale_2 holds it) instead of computing it;
// Stats.TensorScale returns the one used, which Dequantize needs. clconv's
// choices where ModelOpt has none: the tensor amax is taken over finite
// values, and a block holding a NaN or an infinity gets the E4M3 NaN scale
// 0x7F and zero elements (in ModelOpt one NaN makes every scale NaN); an
// all-zero tensor gets tensor scale 0 and all blocks the scale 1.0; a
// tensor scale that underflows to 0 for non-zero data is an error. Like
// _cast_fp4 (sign = x < 0), the ModelOpt recipes give -0.0 the code +0; the
// Exact recipe keeps the sign.
//
// # Dequantization
//
// Every value element * 2^X, or element * E4M3 scale * tensor scale
// (at most 2 + 4 + 24 significant bits, exponents within float64's range),
// is exact in float64 and is rounded exactly once into the destination
// type in Options.Mode (as convert's float64 conversions round: overflow
// to infinity, or ±max in a mode toward zero); Stats counts inexact results
// and overflows. ModelOpt's own dequantization rounds twice in float32
// (scale * tensor_scale, then times the element); clconv does not
// reproduce that. An E4M3 or E5M2 element that is NaN or infinite stays so
// (NaNs as minifloat decodes them); a NaN scale gives the positive quiet
// NaN for its whole block.
//
// # Packing
//
// Unpacked, each element takes a byte with its code in the low bits: the
// sign is bit 3 (FP4), 5 (FP6) or 7 (FP8), as ml_dtypes stores its sub-byte
// types and torchao its unpacked codes. Options.Packed (and PackFP4,
// PackFP6, UnpackFP4, UnpackFP6) pack them:
//
//   - FP4, two per byte: LowFirst (default), the first element in the low
//     nibble: PyTorch's float4_e2m1fn_x2, ONNX FLOAT4E2M1, safetensors F4,
//     gpt-oss's MXFP4 .blocks, ModelOpt's packed NVFP4 weights ((q[1::2] <<
//     4) | q[0::2]), torchao's pack_uint4. HighFirst: PTX
//     cvt.rn.satfinite.e2m1x2.f32 d, a, b, which puts a in the upper half.
//   - FP6, four per three bytes: FP6LittleEndian (default), a little-endian
//     bit stream, element i in bits [6i, 6i+6) of the three bytes read as
//     a little-endian 24-bit number (the order of FP4's LowFirst; a
//     public FP6 packing kernel for CUTLASS GEMMs packs this way); FP6BigEndian, the most-significant-bit-first
//     stream "AAAAAABB|BBBBCCCC|CCDDDDDD" of torchao's uintx pack_uint6;
//     FP6TorchAOSplit, torchao's former mx_formats pack_uint6_pytorch (the
//     high four bits of a, b, d, c in two bytes, the low two bits of a, b,
//     d, c in the third). The OCP specification leaves the storage layout
//     to implementations.
//
// # Reproducing other implementations
//
//	to reproduce bit for bit                          use
//	OCP MX v1.0 (section 6.3 conversion)              Rule Floor, Mode RTE
//	torchao to_mx, FLOOR (default), CEIL, EVEN        Rule Floor / Ceil / Even, Mode RTE
//	torchao to_mx, RCEIL                              Rule RCEIL, Mode RTE (see below)
//	cuBLAS / cuDNN MXFP8 block quantization           Rule RCEIL, Mode RTE
//	ModelOpt NVFP4 weights, CPU                       NVFP4, Recipe ModelOpt
//	ModelOpt NVFP4 weights, CUDA                      NVFP4, Recipe ModelOptCUDA (or its weight_scale_2 as TensorScale)
//	cuDNN NVFP4 block scale quantize (as documented)  NVFP4, Recipe Exact, ScaleMode RTP
//	PTX cvt.rn.satfinite.e2m1x2.f32 byte order        Packed, Nibbles HighFirst
//	PyTorch float4_e2m1fn_x2, safetensors F4, gpt-oss Packed (LowFirst)
//	ml_dtypes float4_e2m1fn / float6_* arrays         unpacked codes
//
// The torchao rows hold for float32 and bfloat16 inputs, which is what
// to_mx accepts. They were checked by re-running to_mx's scale arithmetic
// (not the torchao package) in PyTorch 2.11 on 4096 blocks, every rule and
// element format: scales, and FP8 elements through PyTorch's own casts.
// FP4 and FP6 element codes follow torchao's _f32_to_floatx_unpacked by
// reading (round to nearest even, saturating), not by a run. Two exceptions, found by exhaustive comparison
// with torchao's float32 arithmetic: RCEIL computes amax * float32(1/max),
// which agrees with the exact rule for every float32 amax except a few
// where amax / max lies just above 2^-127, a float32 subnormal that rounds
// to 2^-127 (torchao then writes 0x00 where the rule gives 0x01); Even turns
// an amax within half an element step of MaxFloat32 into infinity, so
// torchao writes the NaN scale where the rule gives a finite one.
//
// # Speed and proof
//
// On amd64 with AVX-512 (internal/kernels' tier), whole MX blocks of
// float32 are quantized (unpacked codes, or FP4 packed low nibble first;
// the scales of 16 blocks at once in the lanes of one register, the
// codes two blocks per step) and dequantized (E4M3, E5M2, FP4) by kernels in
// zmx_amd64.s, generated with avo by _asm/mx; half and bfloat16 are widened
// exactly to float32 in chunks and take the same path; other packings
// pack the kernels' codes. ElemsFromFloat32's element conversions (E2M1,
// E2M3, E3M2, E8M0) have kernels there too. A kernel leaves to the Go code any block with a
// NaN or infinite amax, or with X so small that float32 subnormal inputs
// matter (quantize), and any block whose scale is NaN or takes an element
// out of float32's normal range (dequantize). The tests compare the
// package with an independent math/big implementation of these rules on
// random and adversarial blocks (ties at every element precision after
// scaling, amax at powers of two and at max * 2^k and their neighbours,
// NaN, infinities, zeros, subnormals, overflow and underflow in every mode)
// for every format, rule, mode and source type, every half and bfloat16
// pattern, and every element code under every scale into every
// destination; and the kernels with the Go code on every float32 exponent
// times many mantissas under every shared exponent, and with blocks the
// kernels leave to the Go code at every position of a 16-block batch.
package mx
