package ggml

import (
	"errors"
	"fmt"
)

// Options tune Quantize. The zero value and nil mean ggml's reference
// quantizers, as ggml_quantize_chunk runs them without an importance matrix.
type Options struct {
	// Imatrix is reserved for an importance matrix (one weight per column, as
	// llama-quantize's imatrix); setting it is an error for now.
	Imatrix []float32
}

// ErrImatrix is returned when Options.Imatrix is set.
var ErrImatrix = errors.New("ggml: importance-matrix quantization is not supported yet")

// Quantize quantizes src, rows of nPerRow float32 each, into dst as ggml type
// t and returns the number of bytes written: len(src)/nPerRow rows of
// t.RowSize(nPerRow) bytes. The bytes are those of ggml_quantize_chunk with no
// importance matrix. nPerRow must be a positive multiple of t.BlockSize(),
// len(src) a multiple of nPerRow, and dst at least as long as the result.
// Quantize keeps no state between calls and may run concurrently.
func Quantize(t Type, dst []byte, src []float32, nPerRow int, opts *Options) (int, error) {
	ti, err := lookup(t)
	if err != nil {
		return 0, err
	}
	if opts != nil && opts.Imatrix != nil {
		return 0, ErrImatrix
	}
	if nPerRow <= 0 || nPerRow%ti.block != 0 {
		return 0, fmt.Errorf("ggml: %s needs rows of a positive multiple of %d elements, got %d", ti.name, ti.block, nPerRow)
	}
	if len(src)%nPerRow != 0 {
		return 0, fmt.Errorf("ggml: %d source elements are not a whole number of %d-element rows", len(src), nPerRow)
	}
	n := len(src) / ti.block * ti.size
	if len(dst) < n {
		return 0, fmt.Errorf("ggml: %s destination has %d bytes, needs %d", ti.name, len(dst), n)
	}
	ti.quantize(dst[:n], src)
	return n, nil
}

// Dequantize converts src, whole blocks of ggml type t, to float32 in dst,
// bit for bit as ggml's dequantize_row_* (to_float) on x86-64 computes them.
// len(src) must be a multiple of t.TypeSize() and len(dst) exactly the
// number of elements those blocks hold.
func Dequantize(t Type, dst []float32, src []byte) error {
	ti, err := lookup(t)
	if err != nil {
		return err
	}
	if len(src)%ti.size != 0 {
		return fmt.Errorf("ggml: %d bytes are not a whole number of %d-byte %s blocks", len(src), ti.size, ti.name)
	}
	if n := len(src) / ti.size * ti.block; len(dst) != n {
		return fmt.Errorf("ggml: %d bytes of %s hold %d elements, destination has %d", len(src), ti.name, n, len(dst))
	}
	ti.dequantize(dst, src)
	return nil
}

// widenNTMin is the output size (float32 values: 16 MiB) from which
// widenSIMD (on amd64 with AVX-512) stores with non-temporal stores: far beyond the caches, where
// the output would not stay in them anyway.
const widenNTMin = 1 << 22
