package safetensors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/round"
)

// npyFile writes a .npy file of float32 xs with the given shape (and header
// edit) into dir and returns its path.
func npyFile(t *testing.T, dir, name string, fortran bool, shape []int64, edit func([]byte) []byte, xs ...float32) string {
	t.Helper()
	b := fileconv.EncodeHeader(cltype.Float, fortran, shape, 0)
	if edit != nil {
		b = edit(b)
	}
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenNPY(t *testing.T) {
	dir := t.TempDir()
	xs := []float32{1, -2.5, 3, float32(math.Inf(1)), 0, 6}
	for _, c := range []struct {
		file, name string
		shape      []int64
		fortran    bool
	}{
		{"w.npy", "w", []int64{2, 3}, false},
		{"v.npy", "v", []int64{6}, true}, // Fortran order of one axis is C order
		{".npy", "tensor", []int64{3, 2}, false},
	} {
		p := npyFile(t, dir, c.file, c.fortran, c.shape, nil, xs...)
		f, err := OpenNPY(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Tensors) != 1 {
			t.Fatalf("%s: %d tensors", c.file, len(f.Tensors))
		}
		ti := f.Tensors[0]
		if ti.Name != c.name || ti.DType != F32 || !slices.Equal(ti.Shape, c.shape) {
			t.Errorf("%s: tensor %q %v %v", c.file, ti.Name, ti.DType, ti.Shape)
		}
		// The header is NewWriter's for that tensor.
		var hdr bytes.Buffer
		if _, err := NewWriter(&hdr, []TensorInfo{{Name: c.name, DType: F32, Shape: c.shape}}, nil); err != nil {
			t.Fatal(err)
		}
		if f.Size != int64(hdr.Len())+24 || f.HeaderLen != int64(hdr.Len())-8 {
			t.Errorf("%s: size %d, header %d; want %d, %d", c.file, f.Size, f.HeaderLen, hdr.Len()+24, hdr.Len()-8)
		}
		got, err := ReadTensor[float32](f, c.name, ReadOptions{Mode: round.RTE})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, xs) {
			t.Errorf("%s: read %v, want %v", c.file, got, xs)
		}
		sec := f.Section(&f.Tensors[0])
		raw := make([]byte, 24)
		if _, err := sec.ReadAt(raw, 0); err != nil {
			t.Fatal(err)
		}
		if math.Float32frombits(binary.LittleEndian.Uint32(raw[4:])) != -2.5 {
			t.Errorf("%s: section bytes %x", c.file, raw)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadTensor[float32](f, c.name, ReadOptions{}); !errors.Is(err, os.ErrClosed) {
			t.Errorf("%s: read after Close: %v", c.file, err)
		}
	}

	// A 0-d array is one element of shape [].
	p := npyFile(t, dir, "s.npy", false, nil, nil, 7)
	f, err := OpenNPY(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ReadTensor[float64](f, "s", ReadOptions{}); err != nil || len(got) != 1 || got[0] != 7 || f.Tensors[0].Shape == nil || len(f.Tensors[0].Shape) != 0 {
		t.Errorf("0-d: %v %v %v", got, err, f.Tensors[0].Shape)
	}
	f.Close()

	swap := func(from, to string) func([]byte) []byte {
		return func(b []byte) []byte { return bytes.Replace(b, []byte(from), []byte(to), 1) }
	}
	for _, c := range []struct {
		name string
		path string
		is   error
		want string
	}{
		{"missing", filepath.Join(dir, "none.npy"), os.ErrNotExist, "none.npy"},
		{"directory", dir, nil, "is a directory"},
		{"not npy", npyFile(t, dir, "x.npy", false, []int64{2}, func(b []byte) []byte { return append([]byte("PK"), b[2:]...) }, 1, 2), fileconv.ErrHeader, "x.npy"},
		{"big-endian", npyFile(t, dir, "be.npy", false, []int64{2}, swap("<f4", ">f4"), 1, 2), nil, "big-endian"},
		{"fortran", npyFile(t, dir, "fo.npy", true, []int64{2, 2}, nil, 1, 2, 3, 4), nil, "Fortran-order"},
		{"void", npyFile(t, dir, "vo.npy", false, []int64{2}, swap("'<f4'", "'|V2'"), 1, 2), nil, "raw records"},
		{"complex", npyFile(t, dir, "c.npy", false, []int64{1}, swap("'<f4'", "'<c8'"), 1, 2), nil, "c.npy"},
		{"truncated", npyFile(t, dir, "tr.npy", false, []int64{3}, nil, 1, 2), ErrTruncated, "needs 12 data bytes, the file has 8"},
	} {
		f, err := OpenNPY(c.path)
		if err == nil {
			f.Close()
			t.Errorf("%s: no error", c.name)
			continue
		}
		if c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: %v is not %v", c.name, err, c.is)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q lacks %q", c.name, err, c.want)
		}
	}
}
