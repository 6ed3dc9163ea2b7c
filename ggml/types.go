package ggml

import (
	"fmt"
	"strings"
)

// Type is a ggml tensor type, numbered as in ggml.h's enum ggml_type (and so
// as in GGUF tensor infos).
type Type uint32

// The types this package quantizes and dequantizes.
const (
	F32   Type = 0
	F16   Type = 1
	Q4_0  Type = 2
	Q4_1  Type = 3
	Q5_0  Type = 6
	Q5_1  Type = 7
	Q8_0  Type = 8
	Q2_K  Type = 10
	Q3_K  Type = 11
	Q4_K  Type = 12
	Q5_K  Type = 13
	Q6_K  Type = 14
	Q8_K  Type = 15
	BF16  Type = 30
	MXFP4 Type = 39
	NVFP4 Type = 40
)

// typeInfo is one row of the type table: ggml-common.h's block struct (by its
// size) and the pair of row functions from ggml-quants.c that this package
// reproduces. quantize gets whole blocks: len(src) = k*block, len(dst) =
// k*size; dequantize the reverse.
type typeInfo struct {
	name       string
	block      int // elements per block
	size       int // bytes per block
	quantize   func(dst []byte, src []float32)
	dequantize func(dst []float32, src []byte)
}

// types is the type table, in ggml's type order. A type is supported when its
// row is here; adding one is adding a row and its goldens.
var types = map[Type]*typeInfo{
	F32:   {"f32", 1, 4, quantF32, dequantF32},
	F16:   {"f16", 1, 2, quantF16, dequantF16},
	Q4_0:  {"q4_0", 32, 18, quantQ4_0, dequantQ4_0},
	Q4_1:  {"q4_1", 32, 20, quantQ4_1, dequantQ4_1},
	Q5_0:  {"q5_0", 32, 22, quantQ5_0, dequantQ5_0},
	Q5_1:  {"q5_1", 32, 24, quantQ5_1, dequantQ5_1},
	Q8_0:  {"q8_0", 32, 34, quantQ8_0, dequantQ8_0},
	Q2_K:  {"q2_K", 256, 84, quantQ2_K, dequantQ2_K},
	Q3_K:  {"q3_K", 256, 110, quantQ3_K, dequantQ3_K},
	Q4_K:  {"q4_K", 256, 144, quantQ4_K, dequantQ4_K},
	Q5_K:  {"q5_K", 256, 176, quantQ5_K, dequantQ5_K},
	Q6_K:  {"q6_K", 256, 210, quantQ6_K, dequantQ6_K},
	Q8_K:  {"q8_K", 256, 292, quantQ8_K, dequantQ8_K},
	BF16:  {"bf16", 1, 2, quantBF16, dequantBF16},
	MXFP4: {"mxfp4", 32, 17, quantMXFP4, dequantMXFP4},
	NVFP4: {"nvfp4", 64, 36, quantNVFP4, dequantNVFP4},
}

// Types returns the supported types in ggml's numeric order.
func Types() []Type {
	var ts []Type
	for t := Type(0); t < 64; t++ {
		if types[t] != nil {
			ts = append(ts, t)
		}
	}
	return ts
}

// String returns ggml's name of the type ("q4_K", "bf16"), or "Type(n)" for a
// type this package does not support.
func (t Type) String() string {
	if ti := types[t]; ti != nil {
		return ti.name
	}
	return fmt.Sprintf("Type(%d)", uint32(t))
}

// BlockSize returns the number of elements per block (1 for F32, F16, BF16),
// or 0 for an unsupported type.
func (t Type) BlockSize() int {
	if ti := types[t]; ti != nil {
		return ti.block
	}
	return 0
}

// TypeSize returns the number of bytes per block, or 0 for an unsupported type.
func (t Type) TypeSize() int {
	if ti := types[t]; ti != nil {
		return ti.size
	}
	return 0
}

// RowSize returns the bytes of a row of n elements (ggml_row_size). n must be
// a non-negative multiple of the block size.
func (t Type) RowSize(n int) (int, error) {
	ti, err := lookup(t)
	if err != nil {
		return 0, err
	}
	if n < 0 || n%ti.block != 0 {
		return 0, fmt.Errorf("ggml: %s row of %d elements is not a whole number of %d-element blocks", ti.name, n, ti.block)
	}
	return n / ti.block * ti.size, nil
}

// ParseType returns the type with ggml's name s, ignoring case ("Q4_K",
// "q4_k", "bf16").
func ParseType(s string) (Type, error) {
	for t, ti := range types {
		if strings.EqualFold(ti.name, s) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("ggml: unknown or unsupported type %q", s)
}

func lookup(t Type) (*typeInfo, error) {
	if ti := types[t]; ti != nil {
		return ti, nil
	}
	return nil, fmt.Errorf("ggml: unsupported type %d", uint32(t))
}
