package safetensors

import (
	"encoding/binary"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/byteorder"
)

// Writer writes a safetensors file: NewWriter writes the header, Write the
// data of the tensors one after another, and Close checks that all of it
// came. Its errors are *FormatErrors whose Offset is the byte of the output
// file involved; a failure of the underlying writer is wrapped in one, and
// the Writer then refuses further writes.
type Writer struct {
	w       io.Writer
	tensors []TensorInfo
	start   int64 // 8 + N: where the data starts in the output
	total   int64 // the data bytes the header promises
	written int64 // data bytes written so far
	err     error // the first failure of w
	closed  bool
}

// NewWriter writes to w the header of a file holding tensors (in the given
// order) and metadata, and returns the Writer that takes their data. The
// Begin and End of the given tensors are ignored: each tensor's data follows
// the previous one's with no gap. The header is JSON as safetensors'
// serializer writes it (serde_json's compact form and string escapes):
// __metadata__ first if metadata is not nil, its keys sorted, then the
// tensors, each as {"dtype":..,"shape":[..],"data_offsets":[b,e]}; it is
// padded with spaces so that the data starts at a multiple of 8 bytes.
// (SortTensors first gives safetensors' tensor order too.)
//
// Every name must be valid UTF-8, distinct and not "__metadata__", every
// metadata key and value valid UTF-8, every dtype valid, every shape of at
// most MaxDims non-negative dimensions of whole bytes whose size does not
// overflow, and the header at most MaxHeaderLen bytes.
func NewWriter(w io.Writer, tensors []TensorInfo, metadata map[string]string) (*Writer, error) {
	ts := make([]TensorInfo, len(tensors))
	seen := make(map[string]bool, len(tensors))
	pos := int64(0)
	for i, t := range tensors {
		switch {
		case !utf8.ValidString(t.Name):
			return nil, tensorErrf(8, t.Name, nil, "the name is not valid UTF-8")
		case t.Name == "__metadata__":
			return nil, tensorErrf(8, t.Name, nil, "__metadata__ cannot name a tensor")
		case seen[t.Name]:
			return nil, tensorErrf(8, t.Name, nil, "duplicate tensor name")
		}
		seen[t.Name] = true
		_, n, c := sizeOf(t.DType, t.Shape)
		if c != nil {
			return nil, tensorErrf(8, t.Name, nil, "%s", c.msg)
		}
		if n > maxInt64-pos {
			return nil, tensorErrf(8, t.Name, nil, "the data of the tensors exceeds 2^63-1 bytes")
		}
		t.Shape = slices.Clone(t.Shape)
		t.Begin, t.End = pos, pos+n
		pos += n
		ts[i] = t
	}
	keys := make([]string, 0, len(metadata))
	for k, v := range metadata {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, errf(8, nil, "__metadata__ entry %q: not valid UTF-8", k)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)

	// The header's size, nearly: one allocation even for a million tensors.
	est := 64
	for k, v := range metadata {
		est += len(k) + len(v) + 8
	}
	for i := range ts {
		est += len(ts[i].Name) + 64 + 21*len(ts[i].Shape)
	}
	h := make([]byte, 8, est)
	h = append(h, '{')
	if metadata != nil {
		h = appendString(h, "__metadata__")
		h = append(h, ':', '{')
		for i, k := range keys {
			if i > 0 {
				h = append(h, ',')
			}
			h = appendString(h, k)
			h = append(h, ':')
			h = appendString(h, metadata[k])
		}
		h = append(h, '}')
		if len(ts) > 0 {
			h = append(h, ',')
		}
	}
	for i, t := range ts {
		if i > 0 {
			h = append(h, ',')
		}
		h = appendString(h, t.Name)
		h = append(h, `:{"dtype":"`...)
		h = append(h, t.DType.String()...)
		h = append(h, `","shape":[`...)
		for j, d := range t.Shape {
			if j > 0 {
				h = append(h, ',')
			}
			h = strconv.AppendInt(h, d, 10)
		}
		h = append(h, `],"data_offsets":[`...)
		h = strconv.AppendInt(h, t.Begin, 10)
		h = append(h, ',')
		h = strconv.AppendInt(h, t.End, 10)
		h = append(h, ']', '}')
	}
	h = append(h, '}')
	// tensor.rs pads the JSON to a multiple of 8 bytes, so that 8 + N is one.
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	n := int64(len(h) - 8)
	if n > MaxHeaderLen {
		return nil, errf(0, nil, "the header would be %d bytes, more than the limit of %d", n, MaxHeaderLen)
	}
	binary.LittleEndian.PutUint64(h, uint64(n))
	wr := &Writer{w: w, tensors: ts, start: 8 + n, total: pos}
	if _, err := w.Write(h); err != nil {
		return nil, wrapErr(0, "", false, err)
	}
	return wr, nil
}

const maxInt64 = 1<<63 - 1

// appendString appends s as serde_json writes a string: '"' and '\\'
// escaped, control characters as \b \t \n \f \r or \u00xx (lower-case hex),
// everything else (non-ASCII, '/', '<', DEL) as it is.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\f':
			b = append(b, '\\', 'f')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// tensorAt returns the tensor whose data holds data byte pos (the last one
// if pos is the end), for errors.
func (w *Writer) tensorAt(pos int64) (string, bool) {
	for _, t := range w.tensors {
		if pos < t.End {
			return t.Name, true
		}
	}
	if len(w.tensors) > 0 {
		return w.tensors[len(w.tensors)-1].Name, true
	}
	return "", false
}

// Write writes data bytes: the tensors' data, little-endian, in the order
// given to NewWriter, split across calls in any way. Bytes past the total
// the header promised are not written, and make an error.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, errf(w.start+w.written, nil, "Write after Close")
	}
	asked := int64(len(p))
	room := w.total - w.written
	over := asked > room
	if over {
		p = p[:room]
	}
	n, err := w.w.Write(p)
	w.written += int64(n)
	if err != nil {
		name, ok := w.tensorAt(w.written)
		w.err = wrapErr(w.start+w.written, name, ok, err)
		return n, w.err
	}
	if over {
		name, ok := w.tensorAt(w.total)
		e := errf(w.start+w.total, nil, "Write of %d bytes goes %d bytes past the end of the data the header promised (%d bytes)", asked, asked-room, w.total)
		e.Tensor, e.HasTensor = name, ok
		return n, e
	}
	return n, nil
}

// Close checks that all the data the header promised was written. It does
// not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	if w.written < w.total {
		name, ok := w.tensorAt(w.written)
		e := errf(w.start+w.written, ErrTruncated, "closed after %d of the %d data bytes the header promised", w.written, w.total)
		e.Tensor, e.HasTensor = name, ok
		return e
	}
	return nil
}

// Tensors returns the tensors as the header describes them, with their
// Begin and End.
func (w *Writer) Tensors() []TensorInfo {
	out := make([]TensorInfo, len(w.tensors))
	for i, t := range w.tensors {
		t.Shape = slices.Clone(t.Shape)
		out[i] = t
	}
	return out
}

// Encode returns a TensorInfo (Begin 0, End its size) and the little-endian
// bytes of data, a tensor of the given shape whose dtype is T's (DTypeOf of
// convert.KindOf[T]: float32 gives F32, bfloat16.BFloat16 BF16, fp8.E4M3
// F8_E4M3). len(data) must be the shape's element count. It is the piece
// for writing in-memory tensors:
//
//	info, b, _ := safetensors.Encode("w", []int64{2, 2}, []float32{1, 2, 3, 4})
//	w, _ := safetensors.NewWriter(out, []safetensors.TensorInfo{info}, nil)
//	w.Write(b)
//	w.Close()
func Encode[T convert.Number](name string, shape []int64, data []T) (TensorInfo, []byte, error) {
	d, _ := DTypeOf(convert.KindOf[T]())
	t := TensorInfo{Name: name, DType: d, Shape: slices.Clone(shape)}
	count, n, c := sizeOf(d, shape)
	if c != nil {
		return TensorInfo{}, nil, tensorErrf(8, name, nil, "%s", c.msg)
	}
	if count != int64(len(data)) {
		return TensorInfo{}, nil, tensorErrf(8, name, nil, "shape %s has %d elements but the data %d", shapeString(shape), count, len(data))
	}
	t.End = n
	b := make([]byte, n)
	if n > 0 {
		copy(b, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), n))
		if byteorder.BigEndian {
			byteorder.Swap(b, d.Bits()/8)
		}
	}
	return t, b, nil
}
