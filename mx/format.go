package mx

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// Format is a block-scaled format: an element format, the number of
// consecutive elements along the last axis that share one scale, and the
// scale's format.
//
// The formats are a closed set: the variables below (also in Formats and
// from ParseFormat). Quantize, Dequantize and SharedExp work from tables
// of each format made when the package starts, so they refuse any other
// *Format, a copy or one built field by field included, and a format of
// the set whose fields were changed (ErrUnknownFormat): its fields need not
// say what those tables do.
type Format struct {
	// Name is the name ParseFormat accepts: "mxfp8-e4m3", "nvfp4", ...
	Name string
	// Elem is the element format, a row of internal/minifloat's table.
	Elem *minifloat.Format
	// BlockSize is the number of elements that share one scale.
	BlockSize int
	// Scale is the block scale's format: E8M0 (a power of two, 0xFF NaN)
	// for the OCP MX formats, E4M3 for NVFP4.
	Scale *minifloat.Format
	// TensorScale is set for NVFP4, whose values are also multiplied by
	// one float32 per tensor (Options.TensorScale).
	TensorScale bool

	id int // index into elemInfos
}

// The formats. MXFP8E4M3 .. MXFP4 are the concrete MX-compliant formats of
// the OCP Microscaling Formats (MX) Specification v1.0 (32 elements, E8M0
// scale); NVFP4 is NVIDIA's: E2M1 elements, 16 per E4M3 scale, and a float32
// scale per tensor.
var (
	MXFP8E4M3 = &Format{Name: "mxfp8-e4m3", Elem: minifloat.E4M3, BlockSize: 32, Scale: minifloat.E8M0, id: idE4M3}
	MXFP8E5M2 = &Format{Name: "mxfp8-e5m2", Elem: minifloat.E5M2, BlockSize: 32, Scale: minifloat.E8M0, id: idE5M2}
	MXFP6E2M3 = &Format{Name: "mxfp6-e2m3", Elem: minifloat.E2M3, BlockSize: 32, Scale: minifloat.E8M0, id: idE2M3}
	MXFP6E3M2 = &Format{Name: "mxfp6-e3m2", Elem: minifloat.E3M2, BlockSize: 32, Scale: minifloat.E8M0, id: idE3M2}
	MXFP4     = &Format{Name: "mxfp4", Elem: minifloat.E2M1, BlockSize: 32, Scale: minifloat.E8M0, id: idE2M1}
	NVFP4     = &Format{Name: "nvfp4", Elem: minifloat.E2M1, BlockSize: 16, Scale: minifloat.E4M3, TensorScale: true, id: idE2M1}
)

// Formats lists every format, in the order ParseFormat's errors name them.
var Formats = []*Format{MXFP4, MXFP6E2M3, MXFP6E3M2, MXFP8E4M3, MXFP8E5M2, NVFP4}

// ErrUnknownFormat is the cause (errors.Is) of the *Error for a *Format
// that is not one of the package's formats, or whose fields were changed.
var ErrUnknownFormat = errors.New("mx: unknown format")

// known holds the package's formats as made, and their fields then: the
// exported variables and Formats can be reassigned or their fields
// changed, these cannot.
var known = [...]struct {
	f *Format
	v Format
}{
	{MXFP8E4M3, *MXFP8E4M3}, {MXFP8E5M2, *MXFP8E5M2}, {MXFP6E2M3, *MXFP6E2M3},
	{MXFP6E3M2, *MXFP6E3M2}, {MXFP4, *MXFP4}, {NVFP4, *NVFP4},
}

// checkFormat returns nil when f is one of the package's formats with its
// fields as made, else an *Error of op wrapping ErrUnknownFormat. It is the
// one check of a call (its cost does not grow with the data).
func checkFormat(op string, f *Format) error {
	if f == nil {
		return &Error{Op: op, Err: ErrUnknownFormat, Msg: fmt.Sprintf("no format (valid: %s)", formatNames())}
	}
	for _, k := range known {
		if f == k.f {
			if *f != k.v {
				return &Error{Op: op, Format: k.v.Name, Err: ErrUnknownFormat, Msg: fmt.Sprintf(
					"the package's format was changed (now %s; made as %s): its quantizer follows the format as made, not the change", describe(f), describe(&k.v))}
			}
			return nil
		}
	}
	return &Error{Op: op, Format: f.Name, Err: ErrUnknownFormat, Msg: fmt.Sprintf(
		"not one of the package's formats (%s; valid: %s): its quantizer runs on tables made for those and would not follow another's fields; take one from ParseFormat, Formats or a variable such as MXFP4",
		describe(f), formatNames())}
}

// describe gives f's fields for an error: "mxfp4: e2m1 elements, 32 per
// e8m0 scale".
func describe(f *Format) string {
	s := fmt.Sprintf("%q: %v elements, %d per %v scale", f.Name, f.Elem, f.BlockSize, f.Scale)
	if f.TensorScale {
		s += " and a tensor scale"
	}
	return s
}

// ParseFormat returns the format named name (case-insensitive): "mxfp4",
// "mxfp6-e2m3", "mxfp6-e3m2", "mxfp8-e4m3", "mxfp8-e5m2" or "nvfp4".
// Underscores may stand for hyphens.
func ParseFormat(name string) (*Format, error) {
	n := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
	for _, f := range Formats {
		if f.Name == n {
			return f, nil
		}
	}
	return nil, &Error{Op: "parse", Msg: fmt.Sprintf("unknown format %q (valid: %s)", name, formatNames())}
}

func formatNames() string {
	var s []string
	for _, f := range Formats {
		s = append(s, f.Name)
	}
	return strings.Join(s, ", ")
}

// String returns f's name, or "<nil>" for a nil f (checked, not left to
// fmt's recovery of a nil dereference, which qemu-user can turn fatal).
func (f *Format) String() string {
	if f == nil {
		return "<nil>"
	}
	return f.Name
}

// ElemBits returns the width of one element: 8, 6 or 4.
func (f *Format) ElemBits() int { return f.Elem.Width() }

// ElemBytes returns the size of n elements in bytes: n unpacked (one element
// per byte, its code in the low bits), or packed (FP4 two per byte, FP6 four
// per three bytes; FP8 is one per byte either way). n must be a multiple of
// the block size when packed; the layouts always are.
func (f *Format) ElemBytes(n int, packed bool) int {
	if !packed {
		return n
	}
	return n * f.ElemBits() / 8
}

// ScaleRule is how the shared exponent X of an MX block is derived from
// the largest magnitude amax among its elements; the block's scale is 2^X,
// stored in E8M0 as X+127. Every rule is computed exactly on amax's
// binary exponent and significand (no floating-point logarithm), and X is
// then clamped to E8M0's range [-127, 127]. emax is the exponent of the
// element format's largest normal value (E4M3 8, E5M2 15, E2M3 2, E3M2 4,
// E2M1 2) and max that value (448, 57344, 7.5, 28, 6).
type ScaleRule uint8

const (
	// Floor is the OCP MX v1.0 specification's rule (section 6.3, as
	// torchao's to_mx cites it): X = floor(log2(amax)) - emax. Elements
	// that round above max are clamped to ±max. torchao's
	// ScaleCalculationMode.FLOOR, its default.
	Floor ScaleRule = iota
	// RCEIL is the rule of NVIDIA's libraries and hardware (cuBLAS's "1D
	// block quantization", which torchao's _to_mx_rceil cites; cuDNN's
	// block scale quantize, "scale = quantize_round_up(amax(vals) /
	// vmax_otype)"; PTX cvt.rp.ue8m0x2.f32 applied to amax / max, as
	// torchao does on Blackwell; torchao's ScaleCalculationMode.RCEIL):
	// amax / max rounded up to a power of two, X = ceil(log2(amax / max)).
	// No element exceeds max.
	RCEIL
	// Ceil is torchao's ScaleCalculationMode.CEIL: X = ceil(log2(amax)) -
	// emax; torchao adds one to floor(log2(amax)) when amax's float32
	// mantissa is not zero.
	Ceil
	// Even is torchao's ScaleCalculationMode.EVEN: amax is first rounded
	// to the element's precision (mbits mantissa bits) and X =
	// floor(log2(rounded amax)) - emax. torchao adds 1<<(23-mbits-1) to
	// amax's float32 bits and clears the mantissa, which is round half
	// up; only whether the exponent carries matters, and at the top of a
	// binade half up and half to even agree (the last candidate below 2 is
	// odd), so X = floor(log2(amax)) - emax + 1 exactly when amax's
	// significand is at least 2 - 2^-(mbits+1).
	Even
	numRules
)

var ruleNames = [numRules]string{"floor", "rceil", "ceil", "even"}

// Rules lists the scale rules.
var Rules = []ScaleRule{Floor, RCEIL, Ceil, Even}

// String returns the rule's name: "floor", "rceil", "ceil" or "even".
func (r ScaleRule) String() string {
	if r < numRules {
		return ruleNames[r]
	}
	return fmt.Sprintf("ScaleRule(%d)", uint8(r))
}

// ParseScaleRule parses "floor", "rceil", "ceil" or "even" (case-insensitive).
func ParseScaleRule(s string) (ScaleRule, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range ruleNames {
		if n == t {
			return ScaleRule(i), nil
		}
	}
	return 0, &Error{Op: "parse", Msg: fmt.Sprintf("unknown scale rule %q (valid: %s)", s, strings.Join(ruleNames[:], ", "))}
}

// NibbleOrder is the order of two FP4 elements in a byte.
type NibbleOrder uint8

const (
	// LowFirst puts the first element in the low nibble: PyTorch's
	// float4_e2m1fn_x2, ONNX's FLOAT4E2M1, safetensors' F4, gpt-oss's
	// MXFP4 .blocks, ModelOpt's NVFP4 weights, torchao's pack_uint4.
	LowFirst NibbleOrder = iota
	// HighFirst puts the first element in the high nibble: PTX's
	// cvt.rn.satfinite.e2m1x2.f32 d, a, b puts operand a (the first) in
	// the upper half of d.
	HighFirst
)

// String returns "low-first" or "high-first".
func (o NibbleOrder) String() string {
	if o == HighFirst {
		return "high-first"
	}
	return "low-first"
}

// ParseNibbleOrder parses "low-first" or "high-first" (case-insensitive;
// "low", "high", "lo" and "hi" too).
func ParseNibbleOrder(s string) (NibbleOrder, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "low-first", "low", "lo":
		return LowFirst, nil
	case "high-first", "high", "hi":
		return HighFirst, nil
	}
	return 0, &Error{Op: "parse", Msg: fmt.Sprintf("unknown nibble order %q (valid: low-first, high-first)", s)}
}

// FP6Order is the bit layout of four FP6 elements a, b, c, d packed into
// three bytes.
type FP6Order uint8

const (
	// FP6LittleEndian is a little-endian bit stream: element i occupies
	// bits 6i .. 6i+5 of the 24-bit little-endian number the three bytes
	// form, so byte0 = b1b0 a5..a0, byte1 = c3..c0 b5..b2, byte2 = d5..d0
	// c5c4. It continues FP4's LowFirst order (the first element in the
	// low bits); a public FP6 packing kernel for CUTLASS GEMMs packs its
	// operands this way.
	FP6LittleEndian FP6Order = iota
	// FP6BigEndian is a big-endian bit stream (most significant bit first):
	// byte0 = a5..a0 b5b4, byte1 = b3..b0 c5..c2, byte2 = c1c0 d5..d0, the
	// "AAAAAABB|BBBBCCCC|CCDDDDDD" layout of torchao's generic
	// pack_uint6 (uintx bit packing).
	FP6BigEndian
	// FP6TorchAOSplit is the layout of torchao's former mx_formats
	// pack_uint6_pytorch (custom_cast.py): the high four bits of a and b,
	// then of d and c, then the low two bits of a, b, d, c:
	// byte0 = a5..a2 b5..b2, byte1 = d5..d2 c5..c2,
	// byte2 = a1a0 b1b0 d1d0 c1c0.
	FP6TorchAOSplit
	numFP6Orders
)

var fp6OrderNames = [numFP6Orders]string{"le", "be", "torchao-split"}

// String returns "le", "be" or "torchao-split".
func (o FP6Order) String() string {
	if o < numFP6Orders {
		return fp6OrderNames[o]
	}
	return fmt.Sprintf("FP6Order(%d)", uint8(o))
}

// ParseFP6Order parses "le", "be" or "torchao-split" (case-insensitive).
func ParseFP6Order(s string) (FP6Order, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range fp6OrderNames {
		if n == t {
			return FP6Order(i), nil
		}
	}
	return 0, &Error{Op: "parse", Msg: fmt.Sprintf("unknown FP6 order %q (valid: %s)", s, strings.Join(fp6OrderNames[:], ", "))}
}

// NVRecipe is how NVFP4 quantization computes its tensor and block scales
// and element quotients.
type NVRecipe uint8

const (
	// ModelOpt reproduces NVIDIA TensorRT Model Optimizer's NVFP4QTensor
	// (modelopt/torch/quantization/qtensor/nvfp4_tensor.py) bit for bit:
	// every step is one IEEE float32 operation rounded to nearest even,
	// as PyTorch evaluates it there:
	//
	//	tensor_scale = amax_tensor / 2688             (6 * 448; get_weights_scaling_factor_2)
	//	s32          = amax_block / (6 * tensor_scale) (get_weights_scaling_factor)
	//	s32          = 1 if s32 == 0; clamp(s32, 2^-9, 448)
	//	scale        = E4M3(s32)                      (.to(torch.float8_e4m3fn): nearest even)
	//	q            = x / (float32(scale) * tensor_scale)
	//	element      = E2M1(q)                        (_cast_fp4: nearest even, saturating)
	//
	// Options.ScaleMode and Options.Mode replace the two nearest-even
	// roundings into E4M3 and E2M1 when set. A float64 source's quotient
	// is taken in float64 (PyTorch promotes), its amax rounded to float32.
	ModelOpt NVRecipe = iota
	// ModelOptCUDA is ModelOpt as it runs on a CUDA device, where PyTorch
	// divides a tensor by a Python number by multiplying by its float32
	// reciprocal: tensor_scale = amax_tensor * float32(1/2688), which can
	// differ from the quotient by one unit in the last place (seen on an
	// H200 with PyTorch 2.11: 0x3e3644cc on CUDA, 0x3e3644cb on the CPU, for
	// the same tensor). The other steps divide tensor by tensor and are the
	// same on both.
	ModelOptCUDA
	// Exact rounds each rational once: scale = amax_block / (6 *
	// tensor_scale) to E4M3 in Options.ScaleMode, clamped to [2^-9, 448]
	// (1.0 for an all-zero block, as ModelOpt), and element = x / (scale *
	// tensor_scale) to E2M1 in Options.Mode, clamped to ±6.
	Exact
	numRecipes
)

var recipeNames = [numRecipes]string{"modelopt", "modelopt-cuda", "exact"}

// String returns "modelopt", "modelopt-cuda" or "exact".
func (r NVRecipe) String() string {
	if r < numRecipes {
		return recipeNames[r]
	}
	return fmt.Sprintf("NVRecipe(%d)", uint8(r))
}

// ParseNVRecipe parses "modelopt", "modelopt-cuda" or "exact".
func ParseNVRecipe(s string) (NVRecipe, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range recipeNames {
		if n == t {
			return NVRecipe(i), nil
		}
	}
	return 0, &Error{Op: "parse", Msg: fmt.Sprintf("unknown NVFP4 recipe %q (valid: %s)", s, strings.Join(recipeNames[:], ", "))}
}

// Options control Quantize and Dequantize. The zero value is the OCP
// specification's quantization: the Floor rule, elements rounded to nearest
// even and clamped to ±max, unpacked elements, no padding; for NVFP4,
// ModelOpt's recipe with the tensor scale computed from the data.
type Options struct {
	// Rule is the MX shared-exponent rule (ignored for NVFP4).
	Rule ScaleRule
	// Mode rounds each element (Quantize) or each result into the
	// destination type (Dequantize).
	Mode round.Mode
	// NoSat lets FP8 elements overflow as a non-saturating conversion
	// does (E4M3 to NaN, E5M2 to infinity, ±max in a mode that rounds
	// toward zero) instead of the specification's clamp to ±max. The FP4
	// and FP6 element formats have neither and always clamp.
	NoSat bool
	// Pad accepts a last-axis length that is not a whole number of blocks:
	// the last block of each row is padded with zeros, and the element
	// and scale outputs are sized to whole blocks.
	Pad bool
	// Packed lays FP4 and FP6 elements out packed (Nibbles, FP6): two per
	// byte, or four per three bytes. Otherwise each element takes one byte,
	// its code in the low bits (ml_dtypes, torchao's unpacked codes).
	Packed bool
	// Nibbles is the FP4 order when Packed.
	Nibbles NibbleOrder
	// FP6 is the FP6 layout when Packed.
	FP6 FP6Order

	// TensorScale is NVFP4's float32 scale per tensor. Quantize computes it
	// from the data when it is 0 (amax / 2688, the recipe's way) and
	// returns the value used in Stats.TensorScale; Dequantize requires it.
	TensorScale float32
	// Recipe is NVFP4's quantization recipe.
	Recipe NVRecipe
	// ScaleMode rounds NVFP4's block scales into E4M3 (RTE, as ModelOpt
	// and TensorRT do; RTP is cuDNN's "quantize_round_up").
	ScaleMode round.Mode
}

// Stats reports what a Quantize or Dequantize call did. Indexes count
// blocks from 0 in row-major order; First* is -1 when the count is 0.
type Stats struct {
	Elements int // elements read (Quantize) or written (Dequantize), padding excluded
	Blocks   int // blocks, the padded last one of each row included

	// Quantize only.
	Clamped      int // finite inputs whose rounded element exceeded ±max and was clamped (or overflowed, NoSat)
	Flushed      int // finite non-zero inputs that became a zero element
	NaNInputs    int // NaN inputs
	InfInputs    int // infinite inputs
	ZeroBlocks   int // blocks whose elements are all zero (amax 0)
	FirstZero    int // the first of them
	ScaleClamped int // MX: blocks whose shared exponent the rule put outside [-127, 127]; NVFP4: block scales clamped into [2^-9, 448]

	// Both: blocks with a NaN scale. Quantize gives them to blocks whose
	// amax is NaN or infinite (every element of such a block is NaN).
	NaNBlocks int
	FirstNaN  int

	// Dequantize only.
	Inexact  int // results that the destination type could not hold exactly (rounded)
	Overflow int // finite results beyond the destination's range (infinity, or ±max in a mode toward zero)

	// NVFP4: the tensor scale used.
	TensorScale float32
}

func newStats() Stats { return Stats{FirstZero: -1, FirstNaN: -1} }

func (s *Stats) zeroBlock(b int) {
	if s.ZeroBlocks == 0 {
		s.FirstZero = b
	}
	s.ZeroBlocks++
}

func (s *Stats) nanBlock(b int) {
	if s.NaNBlocks == 0 {
		s.FirstNaN = b
	}
	s.NaNBlocks++
}

// Error is the error this package returns: the operation ("quantize",
// "dequantize", "pack", "unpack", "parse"), the format when there is one,
// and what is wrong.
type Error struct {
	Op     string // "quantize", "dequantize", "pack", "unpack", "parse" or "shared exponent"
	Format string // the format's name, or ""
	Msg    string // what is wrong
	Err    error  // the cause for errors.Is (ErrUnknownFormat), or nil; Msg says it
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Error returns "mx: <op> <format>: <msg>".
func (e *Error) Error() string {
	if e.Format != "" {
		return "mx: " + e.Op + " " + e.Format + ": " + e.Msg
	}
	return "mx: " + e.Op + ": " + e.Msg
}

func errorf(op string, f *Format, format string, args ...any) error {
	e := &Error{Op: op, Msg: fmt.Sprintf(format, args...)}
	if f != nil {
		e.Format = f.Name
	}
	return e
}
