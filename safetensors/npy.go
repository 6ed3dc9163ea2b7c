package safetensors

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clconv/clconv/fileconv"
)

// OpenNPY presents the NumPy .npy file at path as a safetensors File of one
// tensor, so that whatever reads safetensors (ReadInto, Section, checkpoint's
// conversions) reads a .npy array too. The tensor is named after the file's
// stem ("w" for "dir/w.npy"; "tensor" when the stem is empty) and has the
// array's shape and the DType whose Kind is the array's (DTypeOf); its data
// are the .npy file's, read in place, never loaded whole. The File's header
// (HeaderLen, Size and the tensor's offsets) is the one NewWriter would write
// for that tensor; the File reads the .npy file through its descriptor, and
// Close closes it.
//
// A failure to open or stat the file is returned as the os package gives it.
// Every other error names path; a .npy header that fileconv.ReadHeader
// rejects wraps its *fileconv.FormatError (errors.Is with fileconv.ErrHeader,
// ErrTruncated or ErrUnsupported). OpenNPY also refuses, as safetensors
// cannot hold them: raw records ('|V2', ml_dtypes' types: their type is not
// in the file), element types without a DType (cltype.Bool, complex), big-
// endian data, Fortran-order arrays of more than one dimension, and a file
// shorter than its header's shape needs (wrapping ErrTruncated).
func OpenNPY(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			fh.Close()
		}
	}()
	fi, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	h, err := fileconv.ReadHeader(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dt, known := DTypeOf(h.Kind)
	switch {
	case h.Void:
		return nil, fmt.Errorf("%s: raw records (%s) have no safetensors dtype: their element type is not in the file", path, h.Descr())
	case !known:
		return nil, fmt.Errorf("%s: dtype %s has no safetensors dtype", path, h.Descr())
	case h.BigEndian && h.Kind.Size() > 1:
		return nil, fmt.Errorf("%s: big-endian data (%s): save it little-endian (arr.astype(arr.dtype.newbyteorder('<')))", path, h.Descr())
	case h.Fortran && len(h.Shape) > 1:
		return nil, fmt.Errorf("%s: Fortran-order data: the last axis is not contiguous (save np.ascontiguousarray(arr))", path)
	}
	data := h.DataLen()
	if fi.Size() < h.DataOffset+data {
		return nil, fmt.Errorf("%s: %w: the header's shape needs %d data bytes, the file has %d", path, ErrTruncated, data, max(0, fi.Size()-h.DataOffset))
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if name == "" || name == "." {
		name = "tensor"
	}
	shape := h.Shape
	if shape == nil {
		shape = []int64{}
	}
	var hdr bytes.Buffer
	if _, err := NewWriter(&hdr, []TensorInfo{{Name: name, DType: dt, Shape: shape}}, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := Read(&npyReader{hdr: hdr.Bytes(), f: fh, off: h.DataOffset}, int64(hdr.Len())+data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.closer = fh.Close
	ok = true
	return f, nil
}

// npyReader reads a safetensors header followed by a .npy file's data.
type npyReader struct {
	hdr []byte
	f   *os.File
	off int64 // the .npy's data offset
}

func (r *npyReader) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < int64(len(r.hdr)) {
		n = copy(p, r.hdr[off:])
		if n == len(p) {
			return n, nil
		}
		off += int64(n)
	}
	m, err := r.f.ReadAt(p[n:], off-int64(len(r.hdr))+r.off)
	return n + m, err
}
