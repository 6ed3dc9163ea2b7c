package safetensors

import (
	"errors"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"unsafe"

	"github.com/clconv/clconv/convert"
)

// TensorInfo describes one tensor of a file: its name, dtype, shape and the
// byte range [Begin, End) of its data, relative to the start of the data
// (File.DataOffset). An empty Shape is a scalar (one element); a 0 in the
// shape makes an empty tensor.
type TensorInfo struct {
	Name       string
	DType      DType
	Shape      []int64
	Begin, End int64
}

// Count returns the number of elements: the product of the dimensions (1 for
// a scalar). For a TensorInfo of a File the product fits in an int64; for any
// other it may wrap.
func (t *TensorInfo) Count() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Bytes returns the size of the tensor's data, End - Begin.
func (t *TensorInfo) Bytes() int64 { return t.End - t.Begin }

// File is a parsed safetensors file: its header, validated, and a way to
// read the data. Read, ReadBytes and Open make one; its methods and
// ReadInto and ReadTensor may be used from several goroutines at once, but
// not at the same time as Close.
type File struct {
	// Tensors lists the tensors in the order of their data (by Begin, then
	// End; tensors of no bytes at the same offset in header order). They
	// tile the data exactly.
	Tensors []TensorInfo
	// Metadata is __metadata__, or nil when the header has none (or has
	// "__metadata__": null, which safetensors reads as none).
	Metadata map[string]string
	// HeaderLen is N, the length of the JSON header (padding included).
	HeaderLen int64
	// Size is the size of the whole file: 8 + N + the data.
	Size int64

	r      io.ReaderAt
	data   []byte // the whole file in memory (mapped or given), or nil
	index  map[string]int
	closer func() error
	once   sync.Once
	err    error
}

// Read parses and validates the header of the safetensors file of size bytes
// that r reads, and checks that the tensors tile the data exactly; it reads
// no tensor data. It allocates at most about the header's size (N, which it
// checks against MaxHeaderLen and size before reading the header). Every
// error is a *FormatError. The File reads r when asked for tensor data; its
// Close does not close r.
func Read(r io.ReaderAt, size int64) (*File, error) {
	return parse(r, size)
}

// ReadBytes is Read of a file held in memory. ReadInto converts straight
// from b, without copying it first; b must not change while the File is in
// use.
func ReadBytes(b []byte) (*File, error) {
	f, err := parseMem(b)
	if err != nil {
		return nil, err
	}
	f.data = b
	f.r = &memReader{f}
	return f, nil
}

// parseMem is parse of a file in memory, which it reads in place (Open's
// mapping, which another process may truncate meanwhile: a fault is an
// error wrapping ErrChanged).
func parseMem(b []byte) (f *File, err error) {
	defer catchFault(debug.SetPanicOnFault(true), &err, b, 0, nil)
	f, err = parse(byteReader(b), int64(len(b)))
	if fe, ok := err.(*FormatError); ok {
		if inner, ok := fe.Err.(*FormatError); ok {
			// byteReader's own error (a fault), which readFull wrapped.
			return nil, inner
		}
	}
	return f, err
}

// Open opens the safetensors file at path and reads its header. Where the
// system has mmap (unix), the file is mapped read-only and ReadInto converts
// from the mapping; elsewhere, or when mapping fails, it reads through the
// os.File. A failure to open or stat the file is returned as the os package
// gives it; every other error is a *FormatError. Close the File to release
// the mapping or the descriptor.
//
// A mapped file that another process truncates while it is mapped (or whose
// pages the system cannot read) would crash the program with SIGBUS at the
// first access to a lost page, as with any mmap; every read of the mapping
// (ReadInto, ReadTensor, Section and the File's reader) catches that fault
// instead (runtime/debug.SetPanicOnFault) and returns a *FormatError
// wrapping ErrChanged, at the offset of the lost byte, naming the tensor
// where one is read. Data read before the fault may already have changed.
func Open(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	size := st.Size()
	if size > 0 && size <= math.MaxInt && st.Mode().IsRegular() {
		if data, unmap, err := mmapFile(fh, size); err == nil {
			fh.Close()
			f, err := ReadBytes(data)
			if err != nil {
				unmap()
				return nil, err
			}
			f.closer = unmap
			return f, nil
		}
	}
	f, err := Read(fh, size)
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.closer = fh.Close
	return f, nil
}

// Close releases what Open acquired (the mapping or the descriptor); for a
// File from Read or ReadBytes it does nothing. After Close, reading tensor
// data fails with os.ErrClosed. Close returns the first call's result on
// every call.
func (f *File) Close() error {
	f.once.Do(func() {
		if f.closer == nil {
			return
		}
		f.data = nil
		f.r = closedReader{}
		f.err = f.closer()
	})
	return f.err
}

// DataOffset returns the offset of the first data byte in the file, 8 + N.
func (f *File) DataOffset() int64 { return 8 + f.HeaderLen }

func (f *File) dataSize() int64 { return f.Size - f.DataOffset() }

// Lookup returns the tensor called name.
func (f *File) Lookup(name string) (*TensorInfo, bool) {
	i, ok := f.index[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

// Section returns a reader of the raw little-endian bytes of t (End - Begin
// bytes from DataOffset() + Begin). A t whose range is not within the data
// gives a reader that reads only what lies within it.
func (f *File) Section(t *TensorInfo) *io.SectionReader {
	begin, n := t.Begin, t.Bytes()
	if begin < 0 || begin > f.dataSize() || n < 0 {
		begin, n = 0, 0
	}
	n = min(n, f.dataSize()-begin)
	return io.NewSectionReader(fileReader{f}, f.DataOffset()+begin, n)
}

// check validates t (which the caller may have made) against f and returns
// the error that ReadInto gives for a bad one.
func (f *File) check(t *TensorInfo) error {
	if t == nil {
		return errf(8, ErrNotFound, "nil TensorInfo")
	}
	if c := checkInfo(t, f.dataSize()); c != nil {
		return tensorErrf(f.DataOffset()+max(0, min(t.Begin, f.dataSize())), t.Name, c.is, "%s", c.msg)
	}
	return nil
}

// fileReader reads f's current reader, so that a Section made before Close
// fails cleanly after it instead of reading unmapped memory.
type fileReader struct{ f *File }

func (r fileReader) ReadAt(p []byte, off int64) (int, error) { return r.f.r.ReadAt(p, off) }

// ErrChanged is the cause (errors.Is) of the *FormatError for a mapped file
// (Open) whose data could not be read from memory: it was truncated by
// another process, or the system could not read a page of it, after it was
// opened. It is a failure of reading, as an I/O error is (FormatError.IO),
// not a problem of the file as it was when opened.
var ErrChanged = errors.New("safetensors: the file changed or was truncated while it was read")

// IO reports whether e's cause is a failure of reading or writing rather
// than a problem of the file's contents or of the request: an error of the
// io.ReaderAt or io.Writer underneath (such as syscall.EIO or
// os.ErrClosed), or ErrChanged.
func (e *FormatError) IO() bool {
	if e == nil || e.Err == nil {
		return false
	}
	var c *cause
	if errors.As(e.Err, &c) {
		return errors.Is(c, ErrChanged)
	}
	var inner *FormatError
	if errors.As(e.Err, &inner) {
		return inner.IO()
	}
	return !errors.Is(e.Err, convert.ErrRange)
}

// catchFault is deferred, with debug.SetPanicOnFault(true)'s result as old,
// by every function that reads the memory of a mapped file (data, whose
// first byte is the file's): it restores old and turns the panic of a
// memory fault there (a page of a truncated file: SIGBUS) into *err, a
// *FormatError wrapping ErrChanged at the offset of the byte that faulted
// (else at off), naming tensor t if not nil. Any other panic goes on.
func catchFault(old bool, err *error, data []byte, off int64, t *TensorInfo) {
	debug.SetPanicOnFault(old)
	r := recover()
	if r == nil {
		return
	}
	re, isRuntime := r.(runtime.Error)
	fault, ok := r.(interface{ Addr() uintptr })
	// Under qemu-user the fault may come without its address (the
	// signal's code is not BUS_ADRERR), as the runtime's plain memory
	// error: inside a copy from the mapping nothing else raises it.
	if !isRuntime || !ok && !strings.Contains(re.Error(), "memory address") && !strings.Contains(re.Error(), "fault") {
		panic(r)
	}
	at := off
	if ok && len(data) > 0 {
		if d := int64(fault.Addr() - uintptr(unsafe.Pointer(unsafe.SliceData(data)))); d >= 0 && d < int64(len(data)) {
			at = d
		}
	}
	fe := errf(at, ErrChanged, "the file changed or was truncated while it was read: its mapping has no data there (the file had %d bytes when opened)", len(data))
	if t != nil {
		fe.Tensor, fe.HasTensor = t.Name, true
	}
	*err = fe
}

// memReader reads f.data.
type memReader struct{ f *File }

func (r *memReader) ReadAt(p []byte, off int64) (int, error) {
	data := r.f.data
	if data == nil {
		return 0, os.ErrClosed
	}
	return byteReader(data).ReadAt(p, off)
}

// byteReader is an io.ReaderAt of a byte slice.
type byteReader []byte

// A fault while copying (a mapped file that was truncated) is a
// *FormatError wrapping ErrChanged, and no byte counts as read.
func (b byteReader) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 {
		return 0, os.ErrInvalid
	}
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	defer catchFault(debug.SetPanicOnFault(true), &err, b, off, nil)
	n = copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

type closedReader struct{}

func (closedReader) ReadAt([]byte, int64) (int, error) { return 0, os.ErrClosed }
