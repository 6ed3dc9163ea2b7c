package safetensors

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/clconv/clconv/cltype"
)

// DType is the element type of a tensor, as the header's "dtype" names it.
// The zero DType is invalid: every tensor of a File has one of the constants
// below, and NewWriter rejects a TensorInfo whose DType was left unset.
type DType uint8

// The dtypes this package reads and writes, named as safetensors names them
// (safetensors/src/tensor.rs, enum Dtype). The MX formats F8_E8M0, F4,
// F6_E2M3 and F6_E3M2 are the OCP Microscaling element and scale formats
// (minifloat rows E8M0, E2M1, E2M3 and E3M2); F8_E4M3FNUZ and F8_E5M2FNUZ
// the FNUZ FP8 formats of AMD's MI300 (cltype.E4M3FNUZ, E5M2FNUZ).
const (
	BOOL        DType = iota + 1 // bool, one byte per element holding 0 or 1
	U8                           // uint8 (uchar)
	I8                           // int8 (char)
	U16                          // uint16 (ushort)
	I16                          // int16 (short)
	U32                          // uint32 (uint)
	I32                          // int32 (int)
	U64                          // uint64 (ulong)
	I64                          // int64 (long)
	F16                          // IEEE binary16 (half)
	BF16                         // bfloat16
	F32                          // IEEE binary32 (float)
	F64                          // IEEE binary64 (double)
	F8_E4M3                      // OCP FP8 E4M3 (float8_e4m3fn): bias 7, max 448, no infinities
	F8_E5M2                      // OCP FP8 E5M2 (float8_e5m2)
	F8_E8M0                      // OCP MX scale E8M0 (float8_e8m0fnu): 2^-127 .. 2^127 and NaN 0xff
	F4                           // OCP MX FP4 E2M1, two elements per byte, first in the low nibble
	F6_E2M3                      // OCP MX FP6 E2M3, four elements per three bytes
	F6_E3M2                      // OCP MX FP6 E3M2, four elements per three bytes
	F8_E4M3FNUZ                  // FNUZ FP8 E4M3 (float8_e4m3fnuz): bias 8, max 240, NaN 0x80, no -0
	F8_E5M2FNUZ                  // FNUZ FP8 E5M2 (float8_e5m2fnuz): bias 16, max 57344, NaN 0x80, no -0
	numDTypes
)

// DTypes lists every DType in constant order.
var DTypes = []DType{BOOL, U8, I8, U16, I16, U32, I32, U64, I64, F16, BF16, F32, F64, F8_E4M3, F8_E5M2, F8_E8M0, F4, F6_E2M3, F6_E3M2, F8_E4M3FNUZ, F8_E5M2FNUZ}

type dtypeInfo struct {
	name  string
	bits  int
	float bool
	rank  int // position in safetensors' enum Dtype, which orders dtypes by alignment
}

var dtypes = [numDTypes]dtypeInfo{
	BOOL:    {"BOOL", 8, false, 0},
	U8:      {"U8", 8, false, 4},
	I8:      {"I8", 8, false, 5},
	U16:     {"U16", 16, false, 12},
	I16:     {"I16", 16, false, 11},
	U32:     {"U32", 32, false, 16},
	I32:     {"I32", 32, false, 15},
	U64:     {"U64", 64, false, 21},
	I64:     {"I64", 64, false, 20},
	F16:     {"F16", 16, true, 13},
	BF16:    {"BF16", 16, true, 14},
	F32:     {"F32", 32, true, 17},
	F64:     {"F64", 64, true, 19},
	F8_E4M3: {"F8_E4M3", 8, true, 7},
	F8_E5M2: {"F8_E5M2", 8, true, 6},
	F8_E8M0: {"F8_E8M0", 8, true, 8},
	F4:      {"F4", 4, true, 1},
	F6_E2M3: {"F6_E2M3", 6, true, 2},
	F6_E3M2: {"F6_E3M2", 6, true, 3},
	// safetensors' enum puts the FNUZ formats after F8_E8M0 (PR #711).
	F8_E4M3FNUZ: {"F8_E4M3FNUZ", 8, true, 9},
	F8_E5M2FNUZ: {"F8_E5M2FNUZ", 8, true, 10},
}

// unsupported lists the other dtypes safetensors defines, which this package
// recognises in order to name them in its error, and why it cannot read them.
var unsupported = map[string]string{
	"C64": "complex64 has no clconv type",
}

// valid reports whether d is one of the constants.
func (d DType) valid() bool { return d >= BOOL && d < numDTypes }

// String returns the safetensors name of d ("BF16"), or "DType(n)" for a
// value that is not one of the constants.
func (d DType) String() string {
	if !d.valid() {
		return "DType(" + strconv.Itoa(int(d)) + ")"
	}
	return dtypes[d].name
}

// ParseDType returns the DType that safetensors names s ("F32", "F8_E4M3").
// The names are case-sensitive, as in the format. A dtype that safetensors
// defines but this package cannot read (C64) gives
// an error wrapping ErrUnsupported; any other string an error wrapping
// ErrUnknownDType.
func ParseDType(s string) (DType, error) {
	for _, d := range DTypes {
		if dtypes[d].name == s {
			return d, nil
		}
	}
	if why, ok := unsupported[s]; ok {
		return 0, &cause{msg: "dtype " + strconv.Quote(s) + " is not supported: " + why, is: ErrUnsupported}
	}
	return 0, &cause{msg: "unknown dtype " + strconv.Quote(s), is: ErrUnknownDType}
}

// Bits returns the size of one element in bits: 8 for BOOL, U8, I8 and the
// FP8 formats, 4 for F4, 6 for F6_E2M3 and F6_E3M2, and 16, 32 or 64 for the
// others; 0 for an invalid DType.
func (d DType) Bits() int {
	if !d.valid() {
		return 0
	}
	return dtypes[d].bits
}

// Kind returns the cltype kind of d's elements: U8 -> Uchar, I8 -> Char, U16
// -> Ushort, I16 -> Short, U32 -> Uint, I32 -> Int, U64 -> Ulong, I64 -> Long,
// F16 -> Half, BF16 -> BFloat16, F32 -> Float, F64 -> Double, F8_E4M3 -> E4M3,
// F8_E5M2 -> E5M2, F8_E4M3FNUZ -> E4M3FNUZ and F8_E5M2FNUZ -> E5M2FNUZ. BOOL, F8_E8M0, F4, F6_E2M3 and F6_E3M2 have no
// cltype kind and give cltype.Invalid; ReadInto still reads them (BOOL as
// uchar, the MX formats through their exact float64 values).
func (d DType) Kind() cltype.Kind {
	switch d {
	case U8:
		return cltype.Uchar
	case I8:
		return cltype.Char
	case U16:
		return cltype.Ushort
	case I16:
		return cltype.Short
	case U32:
		return cltype.Uint
	case I32:
		return cltype.Int
	case U64:
		return cltype.Ulong
	case I64:
		return cltype.Long
	case F16:
		return cltype.Half
	case BF16:
		return cltype.BFloat16
	case F32:
		return cltype.Float
	case F64:
		return cltype.Double
	case F8_E4M3:
		return cltype.E4M3
	case F8_E5M2:
		return cltype.E5M2
	case F8_E4M3FNUZ:
		return cltype.E4M3FNUZ
	case F8_E5M2FNUZ:
		return cltype.E5M2FNUZ
	}
	// BOOL, and the MX formats F8_E8M0, F4, F6_E2M3 and F6_E3M2, which
	// ReadInto decodes itself (F4 and F6 are packed, unlike any kind's
	// storage).
	return cltype.Invalid
}

// IsFloat reports whether d is a floating-point format: F16, BF16, F32, F64,
// the FP8 formats (F8_E8M0 included), F4 and the FP6 formats.
func (d DType) IsFloat() bool { return d.valid() && dtypes[d].float }

// DTypeOf returns the DType whose Kind is k: the inverse of DType.Kind, over
// the sixteen kinds it returns (char .. double, bfloat16, e4m3, e5m2,
// e4m3fnuz, e5m2fnuz). Any
// other kind, cltype.Bool included, gives false.
func DTypeOf(k cltype.Kind) (DType, bool) {
	if k == cltype.Invalid {
		return 0, false
	}
	for _, d := range DTypes {
		if d.Kind() == k {
			return d, true
		}
	}
	return 0, false
}

// SortTensors orders ts as huggingface's serializer (safetensors
// tensor.rs, prepare) orders the tensors of a file: by decreasing position of
// their dtype in safetensors' enum Dtype, which lists dtypes by increasing
// alignment (so 8-byte elements come first and every tensor's data is
// aligned to its element size when the data starts at a multiple of 8), then
// by name (bytewise). NewWriter keeps the order it is given; SortTensors
// before it gives the bytes safetensors.torch.save_file writes for the same
// tensors.
func SortTensors(ts []TensorInfo) {
	slices.SortStableFunc(ts, func(a, b TensorInfo) int {
		if c := cmp.Compare(rankOf(b.DType), rankOf(a.DType)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

func rankOf(d DType) int {
	if !d.valid() {
		return -1
	}
	return dtypes[d].rank
}
