package safetensors

import (
	"errors"
	"io"
	"math"
	"runtime/debug"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/round"
)

// ReadOptions says how ReadInto converts a tensor's elements to the
// destination type, as convert's functions do: Mode is the rounding mode
// (the zero value is round.RTE; OpenCL's default to an integer type is
// round.RTZ), Sat asks for _sat (convert.SliceSat), and Checked for
// convert.SliceChecked, which gives each element convert.ToChecked's value
// and reports the first element whose value did not survive the
// conversion. Sat does not matter when Checked is set.
type ReadOptions struct {
	Mode    round.Mode
	Sat     bool
	Checked bool
}

// chunkBytes is about the source bytes ReadInto converts at a time (a
// variable so that tests can exercise the chunk boundaries).
var chunkBytes = 64 << 10

// chunkElems is the number of elements ReadInto converts at a time: a
// multiple of 8, so that every chunk of a sub-byte dtype is whole bytes.
func chunkElems(d DType) int {
	return max(chunkBytes*8/d.Bits()&^7, 8)
}

// ReadInto converts the elements of tensor t of f into dst, which must hold
// exactly t.Count() elements, in row-major order, with the rounding, _sat
// and checking of opt (ReadOptions); every conversion is exactly the one of
// package convert from the tensor's kind (DType.Kind) to T's. It works in
// chunks of about 64 KiB of the source through convert.Slice, SliceSat or
// SliceChecked (the kernels of convert.Bytes, SIMD where the host has them),
// so it needs constant extra memory; when f holds the file in memory (Open's
// mapping, ReadBytes) and the data is aligned, it converts straight from it,
// and a T of the tensor's own kind is one copy.
//
// BOOL reads as uchar, and a byte other than 0 or 1 is an error at its
// offset. F8_E8M0, F4, F6_E2M3 and F6_E3M2 are unpacked (as UnpackF4 and
// UnpackF6 unpack them) and each element decoded to its float64 value, which
// is exact (E8M0's 0xff is NaN), then converted to T (through a table of
// the at most 256 codes' results, made once per call).
//
// With opt.Checked, dst receives every element, as convert.SliceChecked
// gives them, and the error, a *FormatError at the first bad element's byte,
// wraps a *convert.RangeError whose Index is that element's index in the
// tensor (errors.Is(err, convert.ErrRange) reports it). Other errors leave
// dst partly written; among them, for a mapped file (Open) that was
// truncated while it is read, a *FormatError wrapping ErrChanged instead of
// a crash.
func ReadInto[T convert.Number](f *File, t *TensorInfo, dst []T, opt ReadOptions) error {
	if err := f.check(t); err != nil {
		return err
	}
	start := f.DataOffset() + t.Begin
	if n := t.Count(); int64(len(dst)) != n {
		return tensorErrf(start, t.Name, nil, "the destination holds %d elements, the tensor %d", len(dst), n)
	}
	if opt.Mode > round.RTN {
		return tensorErrf(start, t.Name, nil, "invalid rounding mode %v", opt.Mode)
	}
	if len(dst) == 0 {
		return nil
	}
	d := t.DType
	if k := d.Kind(); k == convert.KindOf[T]() && k != cltype.Invalid && !isMX(d) && (!k.IsSmallFloat() || !opt.Sat && !opt.Checked) {
		// The same kind, stored as T stores it (not packed): the
		// conversion keeps every bit (but _sat turns the small formats'
		// infinities into +-MAX).
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), t.Bytes())
		if err := readData(f.r, b, start, t); err != nil {
			return err
		}
		if byteorder.BigEndian {
			byteorder.Swap(b, d.Bits()/8)
		}
		return nil
	}
	return readChunks(f, t, dst, opt, start)
}

// readChunks is ReadInto's conversion loop.
func readChunks[T convert.Number](f *File, t *TensorInfo, dst []T, opt ReadOptions, start int64) (err error) {
	d := t.DType
	nbits := uint64(d.Bits())
	size := max(d.Bits()/8, 1)
	per := chunkElems(d)
	// The data in memory, if f has it, the host is little-endian and it is
	// aligned for its elements; else a buffer, 8-byte aligned, per chunk.
	var mem, buf []byte
	if data := f.data; data != nil && !byteorder.BigEndian {
		mem = data[start : start+t.Bytes()]
		if uintptr(unsafe.Pointer(unsafe.SliceData(mem)))%uintptr(size) != 0 {
			mem = nil
		} else {
			// Converting straight from a mapping: a page that another
			// process truncated away faults.
			defer catchFault(debug.SetPanicOnFault(true), &err, data, start, t)
		}
	}
	if mem == nil {
		words := make([]uint64, (uint64(per)*nbits/8+7)/8)
		buf = unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(words)*8)
	}
	var tab *mxTable[T]
	if isMX(d) {
		tab = newMXTable[T](d, opt)
	}
	var first error
	for lo := 0; lo < len(dst); lo += per {
		k := min(per, len(dst)-lo)
		b0, nb := uint64(lo)*nbits/8, uint64(k)*nbits/8
		var src []byte
		if mem != nil {
			src = mem[b0 : b0+nb]
		} else {
			src = buf[:nb]
			if err := readData(f.r, src, start+int64(b0), t); err != nil {
				return err
			}
			if byteorder.BigEndian && size > 1 {
				byteorder.Swap(src, size)
			}
		}
		var err error
		switch {
		case d == BOOL:
			for i, c := range src {
				if c > 1 {
					return tensorErrf(start+int64(b0)+int64(i), t.Name, nil, "BOOL element %d is 0x%02x, not 0 or 1", lo+i, c)
				}
			}
			err = convertFrom(dst[lo:lo+k], src, d, opt)
		case isMX(d):
			if i := tab.decode(dst[lo:lo+k], src, d); i >= 0 {
				_, err = convert.ToChecked[T](mxTables[d][tab.code(src, d, i)], opt.Mode)
				var re *convert.RangeError
				if errors.As(err, &re) {
					re.Index = i
				}
			}
		default:
			err = convertFrom(dst[lo:lo+k], src, d, opt)
		}
		if err != nil && first == nil {
			first = rangeErr(err, t, start, lo)
		}
	}
	return first
}

// mxTable is the result of converting every code of an MX format to T in
// one call's mode: the conversion of an element depends on its code alone,
// so ReadInto converts the (at most 256) codes once and then looks elements
// up. bad marks the codes that a checked conversion rejects.
type mxTable[T convert.Number] struct {
	val    [256]T
	bad    [256]bool
	anyBad bool
	pairs  *[256][2]T // F4: the two elements of each byte value
}

// newMXTable converts every code of d, decoded exactly to float64, to T as
// opt says (convert.To, ToSat or ToChecked, each giving what Slice, SliceSat
// or SliceChecked gives that element).
func newMXTable[T convert.Number](d DType, opt ReadOptions) *mxTable[T] {
	t := new(mxTable[T])
	for code, v := range mxTables[d] {
		switch {
		case opt.Checked:
			x, err := convert.ToChecked[T](v, opt.Mode)
			t.val[code], t.bad[code] = x, err != nil
			t.anyBad = t.anyBad || err != nil
		case opt.Sat:
			t.val[code] = convert.ToSat[T](v, opt.Mode)
		default:
			t.val[code] = convert.To[T](v, opt.Mode)
		}
	}
	return t
}

// decode converts the len(dst) elements packed in src (whole bytes: F4 two
// per byte, F6 four per three bytes, E8M0 one per byte) and returns the
// index of the first one a checked conversion rejects, or -1.
func (t *mxTable[T]) decode(dst []T, src []byte, d DType) int {
	val := &t.val
	switch d {
	case F4:
		// Both elements of a byte at once, from a table of byte values.
		if t.pairs == nil {
			t.pairs = new([256][2]T)
			for b := range t.pairs {
				t.pairs[b] = [2]T{val[b&0xf], val[b>>4]}
			}
		}
		pairs := unsafe.Slice((*[2]T)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)/2)
		for i, b := range src[:len(pairs)] {
			pairs[i] = t.pairs[b]
		}
	case F6_E2M3, F6_E3M2:
		for i, j := 0, 0; i < len(dst); i, j = i+4, j+3 {
			v := uint32(src[j]) | uint32(src[j+1])<<8 | uint32(src[j+2])<<16
			dst[i], dst[i+1], dst[i+2], dst[i+3] = val[v&0x3f], val[v>>6&0x3f], val[v>>12&0x3f], val[v>>18]
		}
	default:
		for i, b := range src[:len(dst)] {
			dst[i] = val[b]
		}
	}
	if !t.anyBad {
		return -1
	}
	for i := range dst {
		if t.bad[t.code(src, d, i)] {
			return i
		}
	}
	return -1
}

// code returns the code of element i of packed src.
func (t *mxTable[T]) code(src []byte, d DType, i int) uint8 {
	switch d {
	case F4:
		return src[i/2] >> (4 * (i % 2)) & 0xf
	case F6_E2M3, F6_E3M2:
		j := i / 4 * 3
		v := uint32(src[j]) | uint32(src[j+1])<<8 | uint32(src[j+2])<<16
		return uint8(v >> (6 * (i % 4)) & 0x3f)
	}
	return src[i]
}

// rangeErr places a checked conversion's error on element lo+Index of t.
func rangeErr(err error, t *TensorInfo, start int64, lo int) error {
	var re *convert.RangeError
	if !errors.As(err, &re) {
		return wrapErr(start, t.Name, true, err)
	}
	c := *re
	c.Index += lo
	return wrapErr(start+int64(uint64(c.Index)*uint64(t.DType.Bits())/8), t.Name, true, &c)
}

// readData reads the data of tensor t at off as readFull does and names t
// in its error. A FormatError that the reader gave (a fault in a mapping)
// is returned itself, not as the cause of another.
func readData(r io.ReaderAt, buf []byte, off int64, t *TensorInfo) error {
	err := readFull(r, buf, off)
	if err == nil {
		return nil
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		return err
	}
	if inner, ok := fe.Err.(*FormatError); ok {
		fe = inner
	}
	fe.Tensor, fe.HasTensor = t.Name, true
	return fe
}

// convertFrom converts the little-endian elements of dtype d in src, in host
// order by now and aligned, into dst.
func convertFrom[T convert.Number](dst []T, src []byte, d DType, opt ReadOptions) error {
	switch d {
	case BOOL, U8:
		return conv(dst, view[uint8](src), opt)
	case I8:
		return conv(dst, view[int8](src), opt)
	case U16:
		return conv(dst, view[uint16](src), opt)
	case I16:
		return conv(dst, view[int16](src), opt)
	case U32:
		return conv(dst, view[uint32](src), opt)
	case I32:
		return conv(dst, view[int32](src), opt)
	case U64:
		return conv(dst, view[uint64](src), opt)
	case I64:
		return conv(dst, view[int64](src), opt)
	case F16:
		return conv(dst, view[half.Half](src), opt)
	case BF16:
		return conv(dst, view[bfloat16.BFloat16](src), opt)
	case F32:
		return conv(dst, view[float32](src), opt)
	case F64:
		return conv(dst, view[float64](src), opt)
	case F8_E4M3:
		return conv(dst, view[fp8.E4M3](src), opt)
	case F8_E5M2:
		return conv(dst, view[fp8.E5M2](src), opt)
	case F8_E4M3FNUZ:
		return conv(dst, view[fp8.E4M3FNUZ](src), opt)
	case F8_E5M2FNUZ:
		return conv(dst, view[fp8.E5M2FNUZ](src), opt)
	}
	panic("safetensors: convertFrom: " + d.String())
}

// view returns b as a slice of S; b must be aligned for S.
func view[S any](b []byte) []S {
	var z S
	n := len(b) / int(unsafe.Sizeof(z))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*S)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// conv converts src into dst as opt says.
func conv[T, S convert.Number](dst []T, src []S, opt ReadOptions) error {
	switch {
	case opt.Checked:
		_, err := convert.SliceChecked(dst, src, opt.Mode)
		return err
	case opt.Sat:
		convert.SliceSat(dst, src, opt.Mode)
	default:
		convert.Slice(dst, src, opt.Mode)
	}
	return nil
}

// ReadTensor returns the tensor called name of f converted to T as ReadInto
// converts it. It allocates t.Count() elements, a count that Read has checked
// against the tensor's bytes, which lie within the file; a count that does
// not fit in memory's address space is an error. With opt.Checked, a range
// error comes with every element converted; any other error with nil.
func ReadTensor[T convert.Number](f *File, name string, opt ReadOptions) ([]T, error) {
	t, ok := f.Lookup(name)
	if !ok {
		return nil, tensorErrf(8, name, ErrNotFound, "no tensor of that name in the file")
	}
	if err := f.check(t); err != nil {
		return nil, err
	}
	n := t.Count()
	var z T
	if uint64(n) > uint64(math.MaxInt)/uint64(unsafe.Sizeof(z)) {
		return nil, tensorErrf(f.DataOffset()+t.Begin, name, nil, "%d elements of %d bytes do not fit in memory", n, unsafe.Sizeof(z))
	}
	dst := make([]T, n)
	if err := ReadInto(f, t, dst, opt); err != nil {
		if errors.Is(err, convert.ErrRange) {
			return dst, err
		}
		return nil, err
	}
	return dst, nil
}
