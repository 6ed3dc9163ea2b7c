package ggufconv

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/ggml"
)

// FileType is one of llama-quantize's file types (llama.h's enum
// llama_ftype): a default tensor type and the rules by which some tensors
// get more bits (FileTypeTensorType). The zero FileType is none.
type FileType uint8

// The file types this package applies: those whose every tensor type
// package ggml quantizes. Their llama_ftype ids are FileType.ID.
const (
	NoFileType FileType = iota
	AllF32
	MostlyF16
	MostlyBF16
	Q4_0
	Q4_1
	Q5_0
	Q5_1
	Q8_0
	Q2_K
	Q2_K_S
	Q3_K_S
	Q3_K_M
	Q3_K_L
	Q4_K_S
	Q4_K_M
	Q5_K_S
	Q5_K_M
	Q6_K
	MXFP4_MOE
	numFileTypes
)

// fileTypeRow is one row of the file-type table: llama-quantize's name,
// the llama_ftype id (llama.h) and llama_ftype_get_default_type's type
// (llama-quant.cpp).
type fileTypeRow struct {
	name string
	id   uint32
	def  ggml.Type
}

var fileTypeRows = [numFileTypes]fileTypeRow{
	AllF32:     {"F32", 0, ggml.F32},
	MostlyF16:  {"F16", 1, ggml.F16},
	MostlyBF16: {"BF16", 32, ggml.BF16},
	Q4_0:       {"Q4_0", 2, ggml.Q4_0},
	Q4_1:       {"Q4_1", 3, ggml.Q4_1},
	Q5_0:       {"Q5_0", 8, ggml.Q5_0},
	Q5_1:       {"Q5_1", 9, ggml.Q5_1},
	Q8_0:       {"Q8_0", 7, ggml.Q8_0},
	Q2_K:       {"Q2_K", 10, ggml.Q2_K},
	Q2_K_S:     {"Q2_K_S", 21, ggml.Q2_K},
	Q3_K_S:     {"Q3_K_S", 11, ggml.Q3_K},
	Q3_K_M:     {"Q3_K_M", 12, ggml.Q3_K},
	Q3_K_L:     {"Q3_K_L", 13, ggml.Q3_K},
	Q4_K_S:     {"Q4_K_S", 14, ggml.Q4_K},
	Q4_K_M:     {"Q4_K_M", 15, ggml.Q4_K},
	Q5_K_S:     {"Q5_K_S", 16, ggml.Q5_K},
	Q5_K_M:     {"Q5_K_M", 17, ggml.Q5_K},
	Q6_K:       {"Q6_K", 18, ggml.Q6_K},
	MXFP4_MOE:  {"MXFP4_MOE", 38, ggml.MXFP4},
}

// FileTypes returns every file type of the table, in table order.
func FileTypes() []FileType {
	out := make([]FileType, 0, numFileTypes-1)
	for f := FileType(1); f < numFileTypes; f++ {
		out = append(out, f)
	}
	return out
}

// ParseFileType returns the file type llama-quantize names s ("Q4_K_M",
// "q8_0", "F16"), ignoring case.
func ParseFileType(s string) (FileType, error) {
	for f := FileType(1); f < numFileTypes; f++ {
		if strings.EqualFold(fileTypeRows[f].name, s) {
			return f, nil
		}
	}
	return NoFileType, fmt.Errorf("ggufconv: unknown file type %q (known: %s)", s, fileTypeNames())
}

func fileTypeNames() string {
	var b strings.Builder
	for i, f := range FileTypes() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.String())
	}
	return b.String()
}

// Valid reports whether f is one of the table's file types.
func (f FileType) Valid() bool { return f > NoFileType && f < numFileTypes }

// String returns llama-quantize's name of f ("Q4_K_M").
func (f FileType) String() string {
	if !f.Valid() {
		return fmt.Sprintf("filetype(%d)", uint8(f))
	}
	return fileTypeRows[f].name
}

// ID returns f's llama_ftype, the value of general.file_type in the files
// llama-quantize writes.
func (f FileType) ID() uint32 {
	if !f.Valid() {
		return 0
	}
	return fileTypeRows[f].id
}

// DefaultType returns the tensor type most tensors of f get
// (llama_ftype_get_default_type).
func (f FileType) DefaultType() ggml.Type {
	if !f.Valid() {
		return 0
	}
	return fileTypeRows[f].def
}

// pureFileTypeIDs maps a tensor type to the llama_ftype that llama.cpp's
// loader guesses for a file whose most common type it is
// (llama_model_loader, the switch on type_max): the general.file_type
// written when every tensor becomes one type.
var pureFileTypeIDs = map[ggml.Type]uint32{
	ggml.F32:   0,
	ggml.F16:   1,
	ggml.BF16:  32,
	ggml.Q4_0:  2,
	ggml.Q4_1:  3,
	ggml.Q5_0:  8,
	ggml.Q5_1:  9,
	ggml.Q8_0:  7,
	ggml.Q2_K:  10,
	ggml.Q3_K:  12,
	ggml.Q4_K:  15,
	ggml.Q5_K:  17,
	ggml.Q6_K:  18,
	ggml.MXFP4: 38,
	ggml.NVFP4: 39,
}

// FileTypeID returns the llama_ftype of a file whose tensors are mostly of
// type t (LLAMA_FTYPE_MOSTLY_Q4_K_M for q4_K, as llama.cpp's loader guesses
// it), or false when llama.h has none (q8_K).
func FileTypeID(t ggml.Type) (uint32, bool) {
	id, ok := pureFileTypeIDs[t]
	return id, ok
}
