package gguf

import (
	"fmt"
	"strconv"
	"strings"
)

// Type is a ggml tensor type id (enum ggml_type in ggml.h), as a tensor
// info stores it. Its block size and bytes per block come from the table
// below, which copies ggml.c's type_traits (blck_size, type_size) and the
// block structs of ggml-common.h; TestTypeTable and the oracle
// (scripts/gguf-oracle) check it against libggml-base.
type Type uint32

// The ggml type ids. Ids 4 and 5 (Q4_2, Q4_3), 31 to 33 (Q4_0_4_4,
// Q4_0_4_8, Q4_0_8_8) and 36 to 38 (IQ4_NL_4_4 ...) were removed from ggml:
// type_traits gives them a block size of 0 and gguf.cpp refuses them, and so
// does Read.
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

// typeInfo is one row of ggml.c's type_traits: the name as ggml_type_name
// spells it, the elements per block (blck_size) and the bytes per block
// (type_size, the sizeof of the block struct in ggml-common.h).
type typeInfo struct {
	id        Type
	name      string
	blockSize int
	typeSize  int
}

// typeTable is every tensor type ggml defines. QK_K is 256. The byte counts
// are the block structs' sizes: e.g. block_q4_K is d, dmin (2 halves), 12
// scale bytes and 128 nibble bytes = 144; block_iq3_s is d, 64 qs, 8 qh, 32
// signs, 4 scales = 110; block_tq1_0 is 48 qs, 4 qh, d = 54.
var typeTable = [...]typeInfo{
	{F32, "f32", 1, 4},
	{F16, "f16", 1, 2},
	{Q4_0, "q4_0", 32, 18},
	{Q4_1, "q4_1", 32, 20},
	{Q5_0, "q5_0", 32, 22},
	{Q5_1, "q5_1", 32, 24},
	{Q8_0, "q8_0", 32, 34},
	{Q8_1, "q8_1", 32, 36},
	{Q2_K, "q2_K", 256, 84},
	{Q3_K, "q3_K", 256, 110},
	{Q4_K, "q4_K", 256, 144},
	{Q5_K, "q5_K", 256, 176},
	{Q6_K, "q6_K", 256, 210},
	{Q8_K, "q8_K", 256, 292},
	{IQ2_XXS, "iq2_xxs", 256, 66},
	{IQ2_XS, "iq2_xs", 256, 74},
	{IQ3_XXS, "iq3_xxs", 256, 98},
	{IQ1_S, "iq1_s", 256, 50},
	{IQ4_NL, "iq4_nl", 32, 18},
	{IQ3_S, "iq3_s", 256, 110},
	{IQ2_S, "iq2_s", 256, 82},
	{IQ4_XS, "iq4_xs", 256, 136},
	{I8, "i8", 1, 1},
	{I16, "i16", 1, 2},
	{I32, "i32", 1, 4},
	{I64, "i64", 1, 8},
	{F64, "f64", 1, 8},
	{IQ1_M, "iq1_m", 256, 56},
	{BF16, "bf16", 1, 2},
	{TQ1_0, "tq1_0", 256, 54},
	{TQ2_0, "tq2_0", 256, 66},
	{MXFP4, "mxfp4", 32, 17},
	{NVFP4, "nvfp4", 64, 36},
	{Q1_0, "q1_0", 128, 18},
	{Q2_0, "q2_0", 64, 18},
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

// String returns ggml's name for t (ggml_type_name: "f32", "q4_K",
// "iq2_xxs"), or "type(N)" for an id it does not define.
func (t Type) String() string {
	if ti := t.info(); ti != nil {
		return ti.name
	}
	return "type(" + strconv.FormatUint(uint64(t), 10) + ")"
}

// BlockSize returns the number of elements in one block of t (1 for the
// plain types, 32 for Q8_0, 256 for the K-quants), or 0 for an unknown type.
func (t Type) BlockSize() int {
	if ti := t.info(); ti != nil {
		return ti.blockSize
	}
	return 0
}

// TypeSize returns the number of bytes in one block of t (4 for F32, 34 for
// Q8_0), or 0 for an unknown type.
func (t Type) TypeSize() int {
	if ti := t.info(); ti != nil {
		return ti.typeSize
	}
	return 0
}

// Types returns every known type, in id order.
func Types() []Type {
	ts := make([]Type, 0, len(typeTable))
	for id := range typeIndex {
		if typeIndex[id] >= 0 {
			ts = append(ts, Type(id))
		}
	}
	return ts
}

// ParseType returns the type named s, ignoring case ("Q4_K", "q4_k" and
// "q4_K" are all Q4_K).
func ParseType(s string) (Type, error) {
	for _, t := range typeTable {
		if strings.EqualFold(s, t.name) {
			return t.id, nil
		}
	}
	return 0, fmt.Errorf("gguf: unknown tensor type %q", s)
}
