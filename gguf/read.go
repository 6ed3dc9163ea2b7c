package gguf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// Read parses and validates the header of the GGUF file that r holds in its
// first size bytes: the metadata, the tensor infos and the layout of the
// data, which it checks against size. It reads no tensor data. Every
// violation is a *FormatError; see the package documentation for the rules.
//
// Read's memory is bounded by size: every count and length is checked
// against the bytes left before anything is allocated for it.
func Read(r io.ReaderAt, size int64) (*File, error) {
	return read(r, size, "")
}

// winSize is the decoder's read-ahead.
const winSize = 64 << 10

// decoder reads the header's fields in order.
type decoder struct {
	r      io.ReaderAt
	size   int64
	name   string // the file's name, for errors
	off    int64  // the next byte to read
	win    []byte // buffered bytes of the file from winOff
	winOff int64
	buf    [8]byte
}

// fail returns a FormatError at off.
func (d *decoder) fail(off int64, sentinel error, format string, args ...any) *FormatError {
	return &FormatError{File: d.name, Offset: off, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) left() int64 { return d.size - d.off }

// read fills p from the file at d.off. The caller has checked that the file
// has len(p) bytes left, so a short read means it shrank or failed.
func (d *decoder) read(p []byte, what string) error {
	start := d.off
	if int64(len(p)) > d.left() {
		return d.fail(start, ErrTruncated, "file ends at byte %d, inside the %s (%d bytes)", d.size, what, len(p))
	}
	for len(p) > 0 {
		if d.off >= d.winOff && d.off < d.winOff+int64(len(d.win)) {
			n := copy(p, d.win[d.off-d.winOff:])
			p, d.off = p[n:], d.off+int64(n)
			continue
		}
		if len(p) >= winSize {
			n, err := d.r.ReadAt(p, d.off)
			if n < len(p) {
				return d.ioErr(start, err, what)
			}
			d.off += int64(n)
			return nil
		}
		n := min(int64(winSize), d.left())
		if cap(d.win) < winSize {
			d.win = make([]byte, 0, min(int64(winSize), d.size))
		}
		d.win = d.win[:n]
		m, err := d.r.ReadAt(d.win, d.off)
		if m < len(d.win) {
			d.win = d.win[:0]
			return d.ioErr(start, err, what)
		}
		d.winOff = d.off
	}
	return nil
}

func (d *decoder) ioErr(off int64, err error, what string) error {
	if err == nil || errors.Is(err, io.EOF) {
		return d.fail(off, ErrTruncated, "file ends inside the %s", what)
	}
	return &FormatError{File: d.name, Offset: off, Err: err, Msg: "reading the " + what + ": " + err.Error()}
}

func (d *decoder) u32(what string) (uint32, error) {
	if err := d.read(d.buf[:4], what); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(d.buf[:4]), nil
}

func (d *decoder) u64(what string) (uint64, error) {
	if err := d.read(d.buf[:8], what); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(d.buf[:8]), nil
}

// str reads a string: a uint64 length and the bytes.
func (d *decoder) str(what string) (string, error) {
	off := d.off
	n, err := d.u64(what + " length")
	if err != nil {
		return "", err
	}
	if n > MaxStringLen {
		return "", d.fail(off, ErrBadValue, "%s length %d exceeds ggml's limit of %d", what, n, MaxStringLen)
	}
	if int64(n) > d.left() {
		return "", d.fail(off, ErrTruncated, "%s length %d exceeds the %d bytes left in the file", what, n, d.left())
	}
	if n == 0 {
		return "", nil
	}
	// Small strings go through the window; only the result is allocated.
	if n <= uint64(len(d.buf)) {
		if err := d.read(d.buf[:n], what); err != nil {
			return "", err
		}
		return string(d.buf[:n]), nil
	}
	p := make([]byte, n)
	if err := d.read(p, what); err != nil {
		return "", err
	}
	return string(p), nil
}

// infoAt holds where a tensor info's fields are, for errors.
type infoAt struct {
	nameOff, dimsOff, typeOff, offOff int64
}

func read(r io.ReaderAt, size int64, name string) (*File, error) {
	d := &decoder{r: r, size: size, name: name}
	if size < 0 {
		return nil, d.fail(0, ErrTruncated, "negative size %d", size)
	}
	var magic [4]byte
	if err := d.read(magic[:], "magic"); err != nil {
		return nil, err
	}
	if string(magic[:]) != "GGUF" {
		return nil, d.fail(0, ErrMagic, "magic %q, want \"GGUF\"", magic[:])
	}
	f := &File{Alignment: DefaultAlignment}
	v, err := d.u32("version")
	if err != nil {
		return nil, err
	}
	// gguf.cpp's checks, in its order.
	switch {
	case v == 0:
		return nil, d.fail(4, ErrVersion, "version 0")
	case v&0xFFFF == 0:
		return nil, d.fail(4, ErrVersion, "version %d (%#08x): written on a machine of the other byte order?", v, v)
	case v == 1:
		return nil, d.fail(4, ErrVersion, "version 1 (GGUFv1, with 32-bit counts and lengths) is no longer supported, by ggml or by this package")
	case v > 3:
		return nil, d.fail(4, ErrVersion, "version %d is newer than 3", v)
	}
	f.Version = v

	nt, err := d.u64("tensor count")
	if err != nil {
		return nil, err
	}
	if nt > math.MaxInt64 {
		return nil, d.fail(8, ErrBadValue, "tensor count %d is negative as ggml's int64", int64(nt))
	}
	nkv, err := d.u64("metadata count")
	if err != nil {
		return nil, err
	}
	if nkv > math.MaxInt64 {
		return nil, d.fail(16, ErrBadValue, "metadata count %d is negative as ggml's int64", int64(nkv))
	}
	// The smallest tensor info is 24 bytes (an empty name, no dimensions)
	// and the smallest pair 14 (a 1-byte key and a uint8). Checking the
	// counts now bounds every allocation below by the file's size.
	const minInfo, minKV = 24, 14
	if nt > uint64(d.left())/minInfo {
		return nil, d.fail(8, ErrTruncated, "%d tensor infos need at least %d bytes each; the file has %d bytes left", nt, minInfo, d.left())
	}
	if nkv > (uint64(d.left())-nt*minInfo)/minKV {
		return nil, d.fail(16, ErrTruncated, "%d metadata pairs need at least %d bytes each after the tensor infos; the file has %d bytes left", nkv, minKV, d.left())
	}

	if nt > math.MaxInt32 || nkv > math.MaxInt32 {
		// Only possible in a file of more than 24 GiB of tensor infos or
		// 28 GiB of metadata; refused so that counts fit an int everywhere.
		return nil, d.fail(8, ErrBadValue, "%d tensors and %d metadata pairs: too many", nt, nkv)
	}
	// Preallocate no more than a few pages' worth: the slices grow as the
	// file proves that it holds what it counts.
	const prealloc = 1 << 10
	f.KV = make([]KV, 0, min(nkv, prealloc))
	keys := make(map[string]int, min(nkv, prealloc))
	alignAt := int64(-1)
	for i := 0; i < int(nkv); i++ {
		keyOff := d.off
		key, err := d.str("key")
		if err != nil {
			return nil, err
		}
		if key == "" {
			return nil, d.fail(keyOff, ErrBadValue, "metadata pair %d has an empty key", i)
		}
		if j, dup := keys[key]; dup {
			e := d.fail(keyOff, ErrBadValue, "duplicate key: pairs %d and %d", j, i)
			e.Key = key
			return nil, e
		}
		keys[key] = i
		val, err := d.value(0)
		if err != nil {
			var fe *FormatError
			if errors.As(err, &fe) {
				fe.Key = key
			}
			return nil, err
		}
		if key == AlignmentKey {
			alignAt = keyOff
		}
		f.KV = append(f.KV, KV{key, val})
	}
	if alignAt >= 0 {
		av, _ := f.Get(AlignmentKey)
		if av.typ != ValueUint32 {
			e := d.fail(alignAt, ErrBadValue, "alignment must be of type u32, not %s", av.typ)
			e.Key = AlignmentKey
			return nil, e
		}
		if a := av.bits; a == 0 || a&(a-1) != 0 {
			e := d.fail(alignAt, ErrBadValue, "alignment %d is not a power of two", a)
			e.Key = AlignmentKey
			return nil, e
		}
		// ggml's size_t; a uint32 fits an int only on 64-bit platforms, and
		// an alignment of 2^31 or more cannot be honoured in a file that fits
		// a 32-bit address space anyway.
		if av.bits > math.MaxInt32 {
			e := d.fail(alignAt, ErrBadValue, "alignment %d is too large", av.bits)
			e.Key = AlignmentKey
			return nil, e
		}
		f.Alignment = int(av.bits)
	}

	f.Tensors = make([]TensorInfo, 0, min(nt, prealloc))
	at := make([]infoAt, 0, min(nt, prealloc))
	names := make(map[string]int, min(nt, prealloc))
	for i := 0; i < int(nt); i++ {
		var t TensorInfo
		var a infoAt
		if err := d.info(&t, &a, i, names); err != nil {
			return nil, err
		}
		f.Tensors = append(f.Tensors, t)
		at = append(at, a)
	}
	if err := f.layout(d, at); err != nil {
		return nil, err
	}
	return f, nil
}

// tensorErr names tensor t in e.
func tensorErr(e *FormatError, t string) *FormatError {
	e.Tensor, e.HasTensor = t, true
	return e
}

// info reads tensor info i into t, checking what gguf.cpp checks.
func (d *decoder) info(t *TensorInfo, a *infoAt, i int, names map[string]int) error {
	a.nameOff = d.off
	name, err := d.str("tensor name")
	if err != nil {
		return err
	}
	t.Name = name
	if len(name) > MaxNameLen {
		return tensorErr(d.fail(a.nameOff, ErrBadValue, "name of %d bytes; ggml allows at most %d", len(name), MaxNameLen), name)
	}
	// ggml keeps the name in a char[64] and compares it with strcmp: the
	// bytes up to the first NUL are the name it sees.
	cname, _, _ := strings.Cut(name, "\x00")
	if j, dup := names[cname]; dup {
		return tensorErr(d.fail(a.nameOff, ErrBadValue, "duplicate tensor name: tensors %d and %d", j, i), name)
	}
	names[cname] = i

	a.dimsOff = d.off
	nd, err := d.u32("dimension count")
	if err != nil {
		return err
	}
	if nd > MaxDims {
		return tensorErr(d.fail(a.dimsOff, ErrBadValue, "%d dimensions; ggml allows at most %d", nd, MaxDims), name)
	}
	t.Dims = make([]uint64, nd)
	var ne [MaxDims]int64
	for j := range ne {
		ne[j] = 1
	}
	for j := range t.Dims {
		off := d.off
		n, err := d.u64("dimension")
		if err != nil {
			return err
		}
		if n > math.MaxInt64 {
			return tensorErr(d.fail(off, ErrBadValue, "dimension %d is %d, negative as ggml's int64", j, int64(n)), name)
		}
		t.Dims[j], ne[j] = n, int64(n)
	}
	// gguf.cpp's check that the element count fits an int64, on the exact
	// count: ggml computes it in int64 first, which can wrap to 0 or less
	// and skip the check; Read refuses those too.
	if n := t.Elements(); n < 0 || n > 0 &&
		(math.MaxInt64/ne[1] <= ne[0] || math.MaxInt64/ne[2] <= ne[0]*ne[1] || math.MaxInt64/ne[3] <= ne[0]*ne[1]*ne[2]) {
		return tensorErr(d.fail(a.dimsOff, ErrBadValue, "dimensions %v: the element count does not fit an int64", t.Dims), name)
	}

	a.typeOff = d.off
	ty, err := d.u32("tensor type")
	if err != nil {
		return err
	}
	t.Type = Type(ty)
	if !t.Type.Known() {
		return tensorErr(d.fail(a.typeOff, ErrType, "type id %d is not a ggml type", int32(ty)), name)
	}
	if bs := uint64(t.Type.BlockSize()); t.ne(0)%bs != 0 {
		return tensorErr(d.fail(a.typeOff, ErrBadValue, "rows of %d elements are not a whole number of %s blocks of %d", t.ne(0), t.Type, bs), name)
	}
	if t.Bytes() < 0 {
		return tensorErr(d.fail(a.typeOff, ErrBadValue, "dimensions %v of %s: the size in bytes does not fit an int64", t.Dims, t.Type), name)
	}

	a.offOff = d.off
	t.Offset, err = d.u64("tensor offset")
	return err
}

// layout finds the data section and checks every tensor's place in it as
// gguf.cpp does: each tensor begins where the previous one ends, padded to
// the alignment. It also checks, as llama.cpp's loader does, that the data
// lies within the file.
func (f *File) layout(d *decoder, at []infoAt) error {
	align := uint64(f.Alignment)
	data := uint64(d.off)
	if len(f.Tensors) > 0 {
		p, _ := padTo(data, align) // no overflow: data < 2^63, align <= 2^31
		if p > uint64(d.size) {
			return d.fail(d.off, ErrTruncated, "the data section would begin at byte %d (the header's end padded to %d), past the end of the file at %d", p, align, d.size)
		}
		data = p
	}
	f.DataOffset = int64(data)
	var want uint64 // where ggml expects the next tensor
	for i := range f.Tensors {
		t := &f.Tensors[i]
		if t.Offset != want {
			e := d.fail(at[i].offOff, ErrLayout, "offset %d, expected %d (the previous tensor's end padded to the alignment %d)", t.Offset, want, align)
			switch {
			case t.Offset%align != 0:
				e.Msg = fmt.Sprintf("offset %d not a multiple of the alignment %d", t.Offset, align)
			case i > 0 && t.Offset < want:
				e.Msg = fmt.Sprintf("offset %d overlaps tensor %q, which ends at %d", t.Offset, f.Tensors[i-1].Name, want)
			case i > 0:
				e.Msg = fmt.Sprintf("offset %d leaves a gap after tensor %q: ggml expects %d", t.Offset, f.Tensors[i-1].Name, want)
			}
			return tensorErr(e, t.Name)
		}
		n := uint64(t.Bytes())
		if end := data + t.Offset + n; end > uint64(d.size) || end < data {
			return tensorErr(d.fail(at[i].offOff, ErrTruncated, "data [%d, %d) of %d bytes is past the end of the file at %d", data+t.Offset, data+t.Offset+n, n, d.size), t.Name)
		}
		p, ok := padTo(n, align)
		if want += p; !ok || want < p {
			return tensorErr(d.fail(at[i].offOff, ErrLayout, "the data section's size overflows"), t.Name)
		}
	}
	return nil
}

// value reads a value's type and the value.
func (d *decoder) value(depth int) (Value, error) {
	off := d.off
	t, err := d.u32("value type")
	if err != nil {
		return Value{}, err
	}
	vt := ValueType(t)
	if !vt.Valid() {
		return Value{}, d.fail(off, ErrBadValue, "value type %d is not a GGUF type", int32(t))
	}
	if vt == ValueArray {
		return d.array(depth)
	}
	return d.scalar(vt)
}

func (d *decoder) scalar(vt ValueType) (Value, error) {
	if vt == ValueString {
		s, err := d.str("string")
		return Value{typ: ValueString, str: s}, err
	}
	size := vt.Size()
	if err := d.read(d.buf[:size], vt.String()+" value"); err != nil {
		return Value{}, err
	}
	v := fixedValue(vt, getLE(d.buf[:size]))
	if vt == ValueBool && v.bits != 0 {
		v.bits = 1 // ggml reads a bool as int8 != 0
	}
	return v, nil
}

// array reads an array's element type, count and elements.
func (d *decoder) array(depth int) (Value, error) {
	off := d.off
	et, err := d.u32("array element type")
	if err != nil {
		return Value{}, err
	}
	elem := ValueType(et)
	if !elem.Valid() {
		return Value{}, d.fail(off, ErrBadValue, "array element type %d is not a GGUF type", int32(et))
	}
	if elem == ValueArray && depth+1 >= MaxNesting {
		return Value{}, d.fail(off, ErrBadValue, "arrays nested more than %d deep", MaxNesting)
	}
	countOff := d.off
	n, err := d.u64("array length")
	if err != nil {
		return Value{}, err
	}
	if n > MaxArrayLen {
		return Value{}, d.fail(countOff, ErrBadValue, "array of %d elements exceeds ggml's limit of %d", n, MaxArrayLen)
	}
	// The least each element takes: its bytes, a string's length, an
	// array's type and count.
	least := uint64(elem.Size())
	switch elem {
	case ValueString:
		least = 8
	case ValueArray:
		least = 12
	}
	if n*least > uint64(d.left()) { // n <= 2^30, least <= 12: no overflow
		return Value{}, d.fail(countOff, ErrTruncated, "array of %d %s elements needs at least %d bytes; the file has %d left", n, elem, n*least, d.left())
	}
	v := Value{typ: ValueArray, elem: elem}
	switch elem {
	case ValueString:
		v.strs = make([]string, n)
		for i := range v.strs {
			if v.strs[i], err = d.str("string"); err != nil {
				return Value{}, err
			}
		}
	case ValueArray:
		v.arrs = make([]Value, n)
		for i := range v.arrs {
			if v.arrs[i], err = d.array(depth + 1); err != nil {
				return Value{}, err
			}
		}
	default:
		if n*least > math.MaxInt32 && uint64(math.MaxInt) == math.MaxInt32 {
			return Value{}, d.fail(countOff, ErrBadValue, "array of %d bytes is too large for this platform", n*least)
		}
		v.raw = make([]byte, n*least)
		if err := d.read(v.raw, "array"); err != nil {
			return Value{}, err
		}
		if elem == ValueBool {
			for i, b := range v.raw {
				if b != 0 {
					v.raw[i] = 1
				}
			}
		}
	}
	return v, nil
}
