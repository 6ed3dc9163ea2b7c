package gguf

import (
	"io"
	"math"
	"math/bits"
)

// The limits of the format as ggml reads it.
const (
	// DefaultAlignment is the alignment of the data when general.alignment
	// is absent (GGUF_DEFAULT_ALIGNMENT).
	DefaultAlignment = 32
	// MaxDims is the most dimensions a tensor has (GGML_MAX_DIMS).
	MaxDims = 4
	// MaxNameLen is the longest tensor name, in bytes: GGML_MAX_NAME is 64
	// with the terminating NUL.
	MaxNameLen = 63
	// MaxStringLen and MaxArrayLen are gguf.cpp's GGUF_MAX_STRING_LENGTH
	// and GGUF_MAX_ARRAY_ELEMENTS.
	MaxStringLen = 1 << 30
	MaxArrayLen  = 1 << 30
	// MaxNesting is how deep Read follows arrays of arrays (ggml refuses
	// any; the specification sets no limit).
	MaxNesting = 64
	// AlignmentKey is the key of the alignment, a uint32 power of two.
	AlignmentKey = "general.alignment"
)

// File is the header of a GGUF file: its metadata in file order and its
// tensor infos in file order (which ggml requires to be data order).
type File struct {
	// Version is 2 or 3. A Writer writes 3 when it is 0.
	Version uint32
	// Alignment is the data alignment: general.alignment, or 32. A Writer
	// takes it from the metadata; 0 means "whatever the metadata says", and
	// another value that differs from the metadata is an error.
	Alignment int
	KV        []KV
	Tensors   []TensorInfo
	// DataOffset is where the data section begins: the end of the tensor
	// infos padded to the alignment (not padded when there are no tensors,
	// as gguf_get_data_offset reports it). A Writer computes it.
	DataOffset int64
}

// KV is one metadata pair.
type KV struct {
	Key   string
	Value Value
}

// TensorInfo describes one tensor.
type TensorInfo struct {
	Name string
	Type Type
	// Dims are ggml's ne: the number of elements along each dimension,
	// innermost (contiguous) first; at most 4.
	Dims []uint64
	// Offset is where the tensor's data begins, relative to the data
	// section (File.DataOffset). A Writer computes it.
	Offset uint64
}

// Get returns the value of key, and whether it is present.
func (f *File) Get(key string) (Value, bool) {
	for i := range f.KV {
		if f.KV[i].Key == key {
			return f.KV[i].Value, true
		}
	}
	return Value{}, false
}

// Set sets key to v: in place if the key is present, else appended. (ggml's
// gguf_set_val_* removes the key and appends it, moving it to the end.)
func (f *File) Set(key string, v Value) {
	for i := range f.KV {
		if f.KV[i].Key == key {
			f.KV[i].Value = v
			return
		}
	}
	f.KV = append(f.KV, KV{key, v})
}

// SetAlignment sets general.alignment and Alignment to a.
func (f *File) SetAlignment(a uint32) {
	f.Set(AlignmentKey, NewUint32(a))
	f.Alignment = int(a)
}

// Lookup returns the index of the tensor named name in f.Tensors, or false.
func (f *File) Lookup(name string) (int, bool) {
	for i := range f.Tensors {
		if f.Tensors[i].Name == name {
			return i, true
		}
	}
	return -1, false
}

// Section returns the bytes of tensor i in r, a reader of the whole file.
func (f *File) Section(r io.ReaderAt, i int) *io.SectionReader {
	t := &f.Tensors[i]
	return io.NewSectionReader(r, f.DataOffset+int64(t.Offset), t.Bytes())
}

// Elements returns the number of elements (1 for no dimensions, a scalar;
// 0 with a dimension of 0), or -1 if it overflows an int64.
func (t *TensorInfo) Elements() int64 {
	for _, d := range t.Dims {
		if d == 0 {
			return 0
		}
	}
	n := uint64(1)
	for _, d := range t.Dims {
		hi, lo := bits.Mul64(n, d)
		if hi != 0 || lo > math.MaxInt64 {
			return -1
		}
		n = lo
	}
	return int64(n)
}

// Bytes returns the size of the tensor's data: its elements divided into
// blocks of its type, times the block size in bytes. It returns -1 if the
// type is unknown, the rows (Dims[0]) are not a whole number of blocks, or
// the size overflows an int64.
func (t *TensorInfo) Bytes() int64 {
	n := t.Elements()
	bs := t.Type.BlockSize()
	if n < 0 || bs == 0 {
		return -1
	}
	if t.ne(0)%uint64(bs) != 0 {
		return -1
	}
	hi, lo := bits.Mul64(uint64(n)/uint64(bs), uint64(t.Type.TypeSize()))
	if hi != 0 || lo > math.MaxInt64 {
		return -1
	}
	return int64(lo)
}

// CanonicalDims returns dims as ggml's writer writes them: without
// trailing dimensions of 1, and at least one dimension (ggml_n_dims). A
// File whose tensors have canonical Dims is written byte for byte as ggml
// writes it.
func CanonicalDims(dims []uint64) []uint64 {
	n := len(dims)
	for n > 1 && dims[n-1] == 1 {
		n--
	}
	if n == 0 {
		return []uint64{1}
	}
	return dims[:n:n]
}

// ne returns dimension i as ggml holds it: 1 past the last.
func (t *TensorInfo) ne(i int) uint64 {
	if i < len(t.Dims) {
		return t.Dims[i]
	}
	return 1
}

// Shape returns the dimensions in row-major order, outermost first (Dims
// reversed), as NumPy and PyTorch write a shape.
func (t *TensorInfo) Shape() []uint64 {
	s := make([]uint64, len(t.Dims))
	for i, d := range t.Dims {
		s[len(s)-1-i] = d
	}
	return s
}

// padTo returns n rounded up to a multiple of a (a power of two), and
// false if that overflows.
func padTo(n, a uint64) (uint64, bool) {
	p := (n + a - 1) &^ (a - 1)
	return p, p >= n
}
