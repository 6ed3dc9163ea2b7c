package gguf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Reader is a GGUF file opened by Open: its header (the embedded File) and
// the open file, from which it reads tensor data on demand.
type Reader struct {
	*File
	f    *os.File
	name string
}

// Open opens the GGUF file at path and reads its header as Read does.
// Errors name the file. Close the Reader when done.
func Open(path string) (*Reader, error) {
	// A FIFO would block the open, a device never end: regular files
	// only, checked before the open.
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("gguf: %s is not a regular file (%s)", path, fi.Mode().Type())
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	f, err := read(fh, st.Size(), path)
	if err != nil {
		fh.Close()
		return nil, err
	}
	return &Reader{File: f, f: fh, name: path}, nil
}

// Close closes the file.
func (r *Reader) Close() error { return r.f.Close() }

// TensorData returns a reader of tensor i's bytes (exactly its Bytes, no
// padding). It panics if i is out of range.
func (r *Reader) TensorData(i int) *io.SectionReader { return r.Section(r.f, i) }

// ReadTensor returns the bytes of the tensor named name. The error is a
// *FormatError wrapping ErrNotFound for an unknown name, ErrTruncated if the
// file has shrunk since Open, or the I/O error.
func (r *Reader) ReadTensor(name string) ([]byte, error) {
	i, ok := r.Lookup(name)
	if !ok {
		return nil, &FormatError{File: r.name, Offset: -1, Tensor: name, HasTensor: true, Err: ErrNotFound, Msg: "no such tensor"}
	}
	t := &r.Tensors[i]
	n := t.Bytes()
	off := r.DataOffset + int64(t.Offset)
	if n > math.MaxInt {
		return nil, &FormatError{File: r.name, Offset: off, Tensor: name, HasTensor: true, Err: ErrBadValue, Msg: "tensor too large to hold in memory on this platform"}
	}
	buf := make([]byte, n)
	if _, err := r.f.ReadAt(buf, off); err != nil {
		fe := &FormatError{File: r.name, Offset: off, Tensor: name, HasTensor: true, Err: err, Msg: "reading the data: " + err.Error()}
		if errors.Is(err, io.EOF) {
			fe.Err, fe.Msg = ErrTruncated, "the file ends inside the tensor's data"
		}
		return nil, fe
	}
	return buf, nil
}
