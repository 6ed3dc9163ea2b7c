package ggml

import (
	"fmt"
	"strconv"
	"strings"
)

// Type is a ggml tensor type, numbered as in ggml.h's enum ggml_type (and so
// as in GGUF tensor infos; package gguf uses this type).
type Type uint32

// The types ggml defines. Ids 4 and 5 (Q4_2, Q4_3), 31 to 33 (Q4_0_4_4,
// Q4_0_4_8, Q4_0_8_8) and 36 to 38 (IQ4_NL_4_4 ...) were removed from
// ggml: type_traits gives them a block size of 0, and they are not Known.
const (
	F32     Type = 0
	F16     Type = 1
	Q4_0    Type = 2
	Q4_1    Type = 3
	Q5_0    Type = 6
	Q5_1    Type = 7
	Q8_0    Type = 8
	Q8_1    Type = 9
	Q2_K    Type = 10
	Q3_K    Type = 11
	Q4_K    Type = 12
	Q5_K    Type = 13
	Q6_K    Type = 14
	Q8_K    Type = 15
	IQ2_XXS Type = 16
	IQ2_XS  Type = 17
	IQ3_XXS Type = 18
	IQ1_S   Type = 19
	IQ4_NL  Type = 20
	IQ3_S   Type = 21
	IQ2_S   Type = 22
	IQ4_XS  Type = 23
	I8      Type = 24
	I16     Type = 25
	I32     Type = 26
	I64     Type = 27
	F64     Type = 28
	IQ1_M   Type = 29
	BF16    Type = 30
	TQ1_0   Type = 34
	TQ2_0   Type = 35
	MXFP4   Type = 39
	NVFP4   Type = 40
	Q1_0    Type = 41
	Q2_0    Type = 42
)

// typeInfo is one row of the type table: ggml.c's type_traits (the name as
// ggml_type_name spells it, blck_size, type_size: the size of
// ggml-common.h's block struct) and the pair of row functions from
// ggml-quants.c that this package reproduces (nil for a type it does not
// quantize). quantize gets whole blocks: len(src) = k*block, len(dst) =
// k*size; dequantize the reverse.
type typeInfo struct {
	id         Type
	name       string
	block      int // elements per block
	size       int // bytes per block
	quantize   func(dst []byte, src []float32)
	dequantize func(dst []float32, src []byte)
}

// typeTable is every tensor type ggml defines, in id order. QK_K is 256;
// e.g. block_q4_K is d, dmin (2 halves), 12 scale bytes and 128 nibble
// bytes = 144; block_iq3_s is d, 64 qs, 8 qh, 32 signs, 4 scales = 110.
// Adding a quantizer is filling a row's functions, with its goldens.
var typeTable = [...]typeInfo{
	{F32, "f32", 1, 4, quantF32, dequantF32},
	{F16, "f16", 1, 2, quantF16, dequantF16},
	{Q4_0, "q4_0", 32, 18, quantQ4_0, dequantQ4_0},
	{Q4_1, "q4_1", 32, 20, quantQ4_1, dequantQ4_1},
	{Q5_0, "q5_0", 32, 22, quantQ5_0, dequantQ5_0},
	{Q5_1, "q5_1", 32, 24, quantQ5_1, dequantQ5_1},
	{Q8_0, "q8_0", 32, 34, quantQ8_0, dequantQ8_0},
	{Q8_1, "q8_1", 32, 36, nil, nil},
	{Q2_K, "q2_K", 256, 84, quantQ2_K, dequantQ2_K},
	{Q3_K, "q3_K", 256, 110, quantQ3_K, dequantQ3_K},
	{Q4_K, "q4_K", 256, 144, quantQ4_K, dequantQ4_K},
	{Q5_K, "q5_K", 256, 176, quantQ5_K, dequantQ5_K},
	{Q6_K, "q6_K", 256, 210, quantQ6_K, dequantQ6_K},
	{Q8_K, "q8_K", 256, 292, quantQ8_K, dequantQ8_K},
	{IQ2_XXS, "iq2_xxs", 256, 66, nil, nil},
	{IQ2_XS, "iq2_xs", 256, 74, nil, nil},
	{IQ3_XXS, "iq3_xxs", 256, 98, nil, nil},
	{IQ1_S, "iq1_s", 256, 50, nil, nil},
	{IQ4_NL, "iq4_nl", 32, 18, nil, nil},
	{IQ3_S, "iq3_s", 256, 110, nil, nil},
	{IQ2_S, "iq2_s", 256, 82, nil, nil},
	{IQ4_XS, "iq4_xs", 256, 136, nil, nil},
	{I8, "i8", 1, 1, nil, nil},
	{I16, "i16", 1, 2, nil, nil},
	{I32, "i32", 1, 4, nil, nil},
	{I64, "i64", 1, 8, nil, nil},
	{F64, "f64", 1, 8, nil, nil},
	{IQ1_M, "iq1_m", 256, 56, nil, nil},
	{BF16, "bf16", 1, 2, quantBF16, dequantBF16},
	{TQ1_0, "tq1_0", 256, 54, nil, nil},
	{TQ2_0, "tq2_0", 256, 66, nil, nil},
	{MXFP4, "mxfp4", 32, 17, quantMXFP4, dequantMXFP4},
	{NVFP4, "nvfp4", 64, 36, quantNVFP4, dequantNVFP4},
	{Q1_0, "q1_0", 128, 18, nil, nil},
	{Q2_0, "q2_0", 64, 18, nil, nil},
}

// typeIndex maps an id to its row in typeTable, or -1.
var typeIndex = func() (idx [Q2_0 + 1]int8) {
	for i := range idx {
		idx[i] = -1
	}
	for i, t := range typeTable {
		idx[t.id] = int8(i)
	}
	return idx
}()

func (t Type) info() *typeInfo {
	if uint64(t) >= uint64(len(typeIndex)) || typeIndex[t] < 0 {
		return nil
	}
	return &typeTable[typeIndex[t]]
}

// Known reports whether t is a type that ggml defines (and has not removed).
func (t Type) Known() bool { return t.info() != nil }

// Supported reports whether this package quantizes and dequantizes t.
func (t Type) Supported() bool {
	ti := t.info()
	return ti != nil && ti.quantize != nil
}

// Types returns the types this package quantizes and dequantizes, in id
// order.
func Types() []Type {
	var ts []Type
	for _, ti := range typeTable {
		if ti.quantize != nil {
			ts = append(ts, ti.id)
		}
	}
	return ts
}

// KnownTypes returns every type ggml defines, in id order.
func KnownTypes() []Type {
	ts := make([]Type, 0, len(typeTable))
	for _, ti := range typeTable {
		ts = append(ts, ti.id)
	}
	return ts
}

// String returns ggml's name of the type ("q4_K", "bf16", "iq2_xxs"), or
// "type(n)" for an id ggml does not define.
func (t Type) String() string {
	if ti := t.info(); ti != nil {
		return ti.name
	}
	return "type(" + strconv.FormatUint(uint64(t), 10) + ")"
}

// BlockSize returns the number of elements per block (1 for F32, F16, BF16),
// or 0 for an unknown type.
func (t Type) BlockSize() int {
	if ti := t.info(); ti != nil {
		return ti.block
	}
	return 0
}

// TypeSize returns the number of bytes per block, or 0 for an unknown type.
func (t Type) TypeSize() int {
	if ti := t.info(); ti != nil {
		return ti.size
	}
	return 0
}

// RowSize returns the bytes of a row of n elements (ggml_row_size). n must be
// a non-negative multiple of the block size.
func (t Type) RowSize(n int) (int, error) {
	ti := t.info()
	if ti == nil {
		return 0, fmt.Errorf("ggml: unknown type %d", uint32(t))
	}
	if n < 0 || n%ti.block != 0 {
		return 0, fmt.Errorf("ggml: %s row of %d elements is not a whole number of %d-element blocks", ti.name, n, ti.block)
	}
	return n / ti.block * ti.size, nil
}

// ParseType returns the type with ggml's name s, ignoring case ("Q4_K",
// "q4_k", "bf16"); any type ggml defines, whether or not Supported.
func ParseType(s string) (Type, error) {
	for _, ti := range typeTable {
		if strings.EqualFold(ti.name, strings.TrimSpace(s)) {
			return ti.id, nil
		}
	}
	return 0, fmt.Errorf("ggml: unknown type %q", s)
}

// lookup returns the row of a type this package quantizes.
func lookup(t Type) (*typeInfo, error) {
	ti := t.info()
	switch {
	case ti == nil:
		return nil, fmt.Errorf("ggml: unknown type %d", uint32(t))
	case ti.quantize == nil:
		return nil, fmt.Errorf("ggml: %s is a ggml type that this package does not quantize or dequantize yet (it does %s)", ti.name, supportedNames())
	}
	return ti, nil
}

// supportedNames lists the Supported types' names.
func supportedNames() string {
	var s []string
	for _, t := range Types() {
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}
