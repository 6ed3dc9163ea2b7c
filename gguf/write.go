package gguf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/clconv/clconv/fileconv"
)

// Writer writes a GGUF file as ggml's gguf_write_to_file does: the header,
// the metadata in order, the tensor infos, zeros up to the alignment, then
// each tensor's data followed by zeros up to the alignment. It streams: the
// header goes out in NewWriter and each tensor as it is given.
type Writer struct {
	w       io.Writer
	f       *File
	align   int64
	next    int   // the next tensor to write
	written int64 // bytes written
	err     error // the first error, which every later call returns
}

// NewWriter checks f, lays out its data and writes its header to w.
//
// The offsets in f.Tensors and f.DataOffset are ignored: the Writer places
// each tensor at the previous one's end padded to the alignment, as ggml
// does (File gives the result). The alignment is general.alignment's, or
// 32; f.Alignment must be 0 or the same (SetAlignment sets both). Version 0
// is written as 3. A tensor is written with len(Dims) dimensions: ggml's
// writer drops trailing dimensions of 1 (ggml_n_dims), so for output
// identical to ggml's give Dims without them.
//
// NewWriter refuses, with a *FormatError, any File that Read would refuse:
// it parses the header it has built before writing it. f is not modified.
func NewWriter(w io.Writer, f *File) (*Writer, error) {
	g, hdr, err := prepare(f)
	if err != nil {
		return nil, err
	}
	wr := &Writer{w: w, f: g, align: int64(g.Alignment)}
	if err := wr.write(hdr); err != nil {
		return nil, err
	}
	return wr, nil
}

// File returns the header as written: f with Version, Alignment,
// DataOffset and every tensor's Offset filled in.
func (w *Writer) File() *File { return w.f }

// Size returns the size of the whole file: the header and every tensor's
// data, padded.
func (w *Writer) Size() int64 {
	n := len(w.f.Tensors)
	if n == 0 {
		return padInt(w.f.DataOffset, w.align)
	}
	t := &w.f.Tensors[n-1]
	return w.f.DataOffset + int64(t.Offset) + padInt(t.Bytes(), w.align)
}

func padInt(n, a int64) int64 { return (n + a - 1) &^ (a - 1) }

func (w *Writer) write(p []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.w.Write(p)
	w.written += int64(n)
	if err != nil {
		w.err = err
	}
	return err
}

// pad writes zeros up to the alignment.
func (w *Writer) pad() error {
	var zeros [256]byte
	for k := padInt(w.written, w.align) - w.written; k > 0; {
		m := min(k, int64(len(zeros)))
		if err := w.write(zeros[:m]); err != nil {
			return err
		}
		k -= m
	}
	return nil
}

// start checks that name is the next tensor and returns it.
func (w *Writer) start(name string) (*TensorInfo, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.next >= len(w.f.Tensors) {
		w.err = &FormatError{Offset: w.written, Tensor: name, HasTensor: true, Err: ErrLayout, Msg: fmt.Sprintf("all %d tensors are written", len(w.f.Tensors))}
		return nil, w.err
	}
	t := &w.f.Tensors[w.next]
	if t.Name != name {
		w.err = &FormatError{Offset: w.written, Tensor: name, HasTensor: true, Err: ErrLayout, Msg: fmt.Sprintf("written in place of tensor %d, %q", w.next, t.Name)}
		return nil, w.err
	}
	return t, nil
}

// WriteTensor writes the data of the next tensor, which must be named name
// and take len(data) bytes, and pads it.
func (w *Writer) WriteTensor(name string, data []byte) error {
	t, err := w.start(name)
	if err != nil {
		return err
	}
	if int64(len(data)) != t.Bytes() {
		w.err = &FormatError{Offset: w.written, Tensor: name, HasTensor: true, Err: ErrLayout, Msg: fmt.Sprintf("%d bytes of data; %v of %s takes %d", len(data), t.Dims, t.Type, t.Bytes())}
		return w.err
	}
	if err := w.write(data); err != nil {
		return err
	}
	w.next++
	return w.pad()
}

// WriteTensorFrom writes the data of the next tensor, which must be named
// name, copying exactly its Bytes from r, and pads it. A reader that ends
// early is an error (and the output is then incomplete).
func (w *Writer) WriteTensorFrom(name string, r io.Reader) error {
	t, err := w.start(name)
	if err != nil {
		return err
	}
	want := t.Bytes()
	if want > 0 && r == nil {
		r = bytes.NewReader(nil)
	}
	at := w.written
	n, err := io.CopyN(writerFunc(w.write), r, want)
	if n < want {
		if w.err == nil {
			msg := fmt.Sprintf("the reader gave %d of the %d bytes", n, want)
			if err != nil && err != io.EOF {
				msg += ": " + err.Error()
			}
			w.err = &FormatError{Offset: at, Tensor: name, HasTensor: true, Err: ErrTruncated, Msg: msg}
		}
		return w.err
	}
	w.next++
	return w.pad()
}

type writerFunc func([]byte) error

func (f writerFunc) Write(p []byte) (int, error) {
	if err := f(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close checks that every tensor has been written. It does not close the
// underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.next < len(w.f.Tensors) {
		t := &w.f.Tensors[w.next]
		w.err = &FormatError{Offset: w.written, Tensor: t.Name, HasTensor: true, Err: ErrTruncated, Msg: fmt.Sprintf("closed with %d of %d tensors written", w.next, len(w.f.Tensors))}
		return w.err
	}
	return nil
}

// Write writes f to w: the header, then the data of each tensor i, which
// data(i) returns (exactly the tensor's Bytes are read from it).
func Write(w io.Writer, f *File, data func(i int) (io.Reader, error)) error {
	wr, err := NewWriter(w, f)
	if err != nil {
		return err
	}
	for i := range wr.f.Tensors {
		r, err := data(i)
		if err != nil {
			return err
		}
		if err := wr.WriteTensorFrom(wr.f.Tensors[i].Name, r); err != nil {
			return err
		}
	}
	return wr.Close()
}

// WriteFile writes f to a new file at path, as Write does, atomically (see
// fileconv.CreateAtomic): the file appears only once it is complete and
// Read has read it back with the expected tensors and offsets. An existing
// file is an error unless replace is set.
func WriteFile(path string, f *File, data func(i int) (io.Reader, error), replace bool) (err error) {
	a, err := fileconv.CreateAtomic(path, replace)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			a.Abort()
			var fe *FormatError
			if errors.As(err, &fe) && fe.File == "" {
				fe.File = path
			}
		}
	}()
	bw := bufio.NewWriterSize(a, 1<<20)
	wr, err := NewWriter(bw, f)
	if err != nil {
		return err
	}
	for i := range wr.f.Tensors {
		r, err := data(i)
		if err != nil {
			return err
		}
		if err := wr.WriteTensorFrom(wr.f.Tensors[i].Name, r); err != nil {
			return err
		}
	}
	if err := wr.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	a.Verify = func(tmp string) error { return verify(tmp, path, wr) }
	return a.Commit()
}

// verify reads back the file a Writer wrote and checks its layout.
func verify(tmp, path string, wr *Writer) error {
	r, err := Open(tmp)
	if err != nil {
		return fmt.Errorf("gguf: %s: reading back what was written: %w", path, err)
	}
	defer r.Close()
	st, err := r.f.Stat()
	if err != nil {
		return err
	}
	want := wr.f
	bad := st.Size() != wr.Size() || r.DataOffset != want.DataOffset || len(r.Tensors) != len(want.Tensors) || len(r.KV) != len(want.KV)
	for i := 0; !bad && i < len(r.Tensors); i++ {
		bad = r.Tensors[i].Name != want.Tensors[i].Name || r.Tensors[i].Offset != want.Tensors[i].Offset
	}
	if bad {
		return fmt.Errorf("gguf: %s: the file read back (%d bytes, %d tensors, data at %d) is not the file written (%d bytes, %d tensors, data at %d)",
			path, st.Size(), len(r.Tensors), r.DataOffset, wr.Size(), len(want.Tensors), want.DataOffset)
	}
	return nil
}

// prepare checks f, lays it out and encodes its header (padded).
func prepare(f *File) (*File, []byte, error) {
	g := &File{Version: f.Version, KV: f.KV, Tensors: append([]TensorInfo(nil), f.Tensors...)}
	fail := func(sentinel error, format string, args ...any) (*File, []byte, error) {
		return nil, nil, &FormatError{Offset: -1, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
	}
	failTensor := func(t *TensorInfo, sentinel error, format string, args ...any) (*File, []byte, error) {
		return nil, nil, tensorErr(&FormatError{Offset: -1, Err: sentinel, Msg: fmt.Sprintf(format, args...)}, t.Name)
	}
	switch g.Version {
	case 0:
		g.Version = 3
	case 2, 3:
	default:
		return fail(ErrVersion, "version %d: a Writer writes 2 or 3", g.Version)
	}
	align := uint64(DefaultAlignment)
	if v, ok := f.Get(AlignmentKey); ok {
		// Read checks it below; here only what the layout needs.
		if a := v.bits; v.typ == ValueUint32 && a != 0 && a&(a-1) == 0 && a <= math.MaxInt32 {
			align = a
		}
	}
	if f.Alignment != 0 && uint64(f.Alignment) != align {
		return fail(ErrBadValue, "Alignment %d, but %s makes it %d (SetAlignment sets both)", f.Alignment, AlignmentKey, align)
	}
	g.Alignment = int(align)

	var off uint64
	for i := range g.Tensors {
		t := &g.Tensors[i]
		n := t.Bytes()
		switch {
		case !t.Type.Known():
			return failTensor(t, ErrType, "type id %d is not a ggml type", uint32(t.Type))
		case n < 0:
			return failTensor(t, ErrBadValue, "dimensions %v of %s: rows not whole blocks, or too many elements", t.Dims, t.Type)
		}
		t.Offset = off
		p, ok := padTo(uint64(n), align)
		if off += p; !ok || off < p || off > math.MaxInt64 {
			return failTensor(t, ErrLayout, "the data section's size overflows")
		}
	}

	var b bytes.Buffer
	b.WriteString("GGUF")
	put := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	put(g.Version)
	put(uint64(len(g.Tensors)))
	put(uint64(len(g.KV)))
	for _, kv := range g.KV {
		putString(&b, kv.Key)
		putValue(&b, kv.Value, true)
	}
	for _, t := range g.Tensors {
		putString(&b, t.Name)
		put(uint32(len(t.Dims)))
		put(t.Dims)
		put(uint32(t.Type))
		put(t.Offset)
	}
	for b.Len()%int(align) != 0 {
		b.WriteByte(0)
	}
	hdr := b.Bytes()

	if off > math.MaxInt64-uint64(len(hdr)) {
		return fail(ErrLayout, "the file's size overflows")
	}
	// Read the header back, with zeros for the data, so that whatever Read
	// refuses is never written.
	size := int64(len(hdr)) + int64(off)
	h, err := read(headerThenZeros(hdr), size, "")
	if err != nil {
		return nil, nil, err
	}
	g.DataOffset = h.DataOffset
	return g, hdr, nil
}

func putString(b *bytes.Buffer, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	b.Write(n[:])
	b.WriteString(s)
}

// putValue writes v: with its type when tagged, else (an element of an
// array of arrays) from its element type on.
func putValue(b *bytes.Buffer, v Value, tagged bool) {
	var n [8]byte
	if tagged {
		binary.LittleEndian.PutUint32(n[:4], uint32(v.typ))
		b.Write(n[:4])
	}
	switch v.typ {
	case ValueString:
		putString(b, v.str)
	case ValueArray:
		binary.LittleEndian.PutUint32(n[:4], uint32(v.elem))
		b.Write(n[:4])
		binary.LittleEndian.PutUint64(n[:], uint64(v.Len()))
		b.Write(n[:])
		switch v.elem {
		case ValueString:
			for _, s := range v.strs {
				putString(b, s)
			}
		case ValueArray:
			for _, e := range v.arrs {
				putValue(b, e, false)
			}
		default:
			b.Write(v.raw)
		}
	default:
		binary.LittleEndian.PutUint64(n[:], v.bits)
		b.Write(n[:v.typ.Size()])
	}
}

// headerThenZeros reads as hdr followed by zeros.
type headerThenZeros []byte

func (h headerThenZeros) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	if off < int64(len(h)) {
		n = copy(p, h[off:])
	}
	clear(p[n:])
	return len(p), nil
}
