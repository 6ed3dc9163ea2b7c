package gguf

import (
	"bytes"
	"errors"
	"github.com/clconv/clconv/ggml"
	"io"
	"strings"
	"testing"
)

type failingReader struct {
	r     io.ReaderAt
	after int64 // fail reads that reach past this offset
	err   error
}

func (f failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.after {
		n := max(0, int(f.after-off))
		copy(p[:n], make([]byte, n))
		if n > 0 {
			f.r.ReadAt(p[:n], off)
		}
		return n, f.err
	}
	return f.r.ReadAt(p, off)
}

// A header larger than the read-ahead window, with a string larger than
// it, reads the same through every path; a reader that fails or comes up
// short is an I/O error or ErrTruncated at the field.
func TestLargeHeaderAndIOErrors(t *testing.T) {
	big := strings.Repeat("x", 3*winSize+5)
	toks := make([]string, 20000)
	for i := range toks {
		toks[i] = strings.Repeat("t", i%17)
	}
	f := &File{KV: []KV{{"big", NewString(big)}, {"toks", NewArray(toks)}}, Tensors: []TensorInfo{{Name: "w", Type: ggml.F32, Dims: []uint64{8}}}}
	b := writeAll(t, f, [][]byte{make([]byte, 32)})
	g, err := readBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := g.KV[0].Value.Str(); s != big || !g.KV[1].Value.Equal(f.KV[1].Value) {
		t.Error("values differ")
	}
	if et, ok := g.KV[1].Value.Elem(); !ok || et != ValueString {
		t.Error("Elem")
	}
	boom := errors.New("disk on fire")
	for _, after := range []int64{10, 100, winSize + 3, 4 * winSize, int64(len(b)) - 40} {
		_, err := Read(failingReader{bytes.NewReader(b), after, boom}, int64(len(b)))
		var fe *FormatError
		if !errors.Is(err, boom) || !errors.As(err, &fe) || fe.Offset > after {
			t.Errorf("after %d: %v", after, err)
		}
		_, err = Read(failingReader{bytes.NewReader(b), after, io.EOF}, int64(len(b)))
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("after %d, EOF: %v", after, err)
		}
	}
	if _, err := Read(bytes.NewReader(b), -1); !errors.Is(err, ErrTruncated) {
		t.Errorf("negative size: %v", err)
	}
	// Set replaces in place; the Writer's File has the offsets.
	g.Set("big", NewUint8(1))
	if v, _ := g.Get("big"); v.Type() != ValueUint8 || g.KV[0].Key != "big" {
		t.Error("Set")
	}
	w, err := NewWriter(io.Discard, g)
	if err != nil || w.File().DataOffset%32 != 0 || w.File().Tensors[0].Offset != 0 || w.File().Version != 3 {
		t.Errorf("Writer.File: %v", err)
	}
}
