package fileconv

import (
	"errors"
	"fmt"
	"io"

	"github.com/clconv/clconv/cltype"
)

// FormatError reports input that is not what it claims to be: a corrupt or
// unsupported .npy header, truncated data, data that does not match the shape,
// or a raw file that is not a whole number of elements. Offset is the byte of
// the input where the problem lies. Err is the kind of problem, for
// errors.Is: ErrTruncated, ErrSizeMismatch, ErrHeader, ErrUnsupported or
// ErrTypeMismatch (nil in a FormatError made by other code). A failure of the
// reader is never a FormatError but a *ReadError.
type FormatError struct {
	Offset int64
	Msg    string
	Err    error
	said   bool // Msg already gives Offset
}

// Error implements error. It is Msg and the offset; Err's text, which Msg
// says in more words, is left out.
func (e *FormatError) Error() string {
	if e.said {
		return e.Msg
	}
	return fmt.Sprintf("%s (at byte %d)", e.Msg, e.Offset)
}

// Unwrap returns Err.
func (e *FormatError) Unwrap() error { return e.Err }

// The kinds of FormatError, for errors.Is.
var (
	// ErrTruncated: the input ends inside the .npy header or before the
	// data its header (or the size known at the start) promised.
	ErrTruncated = errors.New("fileconv: truncated input")
	// ErrSizeMismatch: more data than the shape describes, or raw input
	// that is not a whole number of elements.
	ErrSizeMismatch = errors.New("fileconv: the data's size does not match its shape or element size")
	// ErrHeader: not a .npy file, or a corrupt .npy header.
	ErrHeader = errors.New("fileconv: corrupt .npy header")
	// ErrUnsupported: a .npy format version or dtype that clconv cannot
	// convert (complex, strings, structured arrays...).
	ErrUnsupported = errors.New("fileconv: unsupported .npy version or dtype")
	// ErrTypeMismatch: the source type given (Options.From) disagrees with
	// the .npy header, or the header's raw records need one.
	ErrTypeMismatch = errors.New("fileconv: the source type and the .npy header disagree")
)

// formatErr returns a *FormatError at off whose Err is kind.
func formatErr(off int64, kind error, format string, args ...any) error {
	return &FormatError{Offset: off, Err: kind, Msg: fmt.Sprintf(format, args...)}
}

// leftoverErr reports a raw input whose size is not a whole number of
// elements, naming the offset of the bytes left over.
func leftoverErr(size int64, k cltype.Kind) error {
	r := size % int64(k.Size())
	return &FormatError{Offset: size - r, said: true, Err: ErrSizeMismatch, Msg: fmt.Sprintf(
		"raw input of %d bytes is not a whole number of %s elements (%d bytes each): %d bytes left over at byte offset %d",
		size, k, k.Size(), r, size-r)}
}

// ErrNeedFrom is returned for raw input (not a .npy file) when Options.From
// does not say its element type.
var ErrNeedFrom = errors.New("the input is not a .npy file: raw input needs its element type (--from TYPE)")

// WriteError wraps a failure to write the output (a full disk, a closed pipe).
type WriteError struct{ Err error }

// Error implements error.
func (e *WriteError) Error() string { return "writing the output: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *WriteError) Unwrap() error { return e.Err }

// ReadError wraps a failure of the input's reader (not a format problem): an
// I/O error such as syscall.EIO, which errors.Is finds through it. A reader
// that fails is never reported as truncated or bad input.
type ReadError struct{ Err error }

// Error implements error.
func (e *ReadError) Error() string { return "reading the input: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ReadError) Unwrap() error { return e.Err }

// readFail returns err, a failure of io.ReadFull that is not the end of the
// input, as a *ReadError; nil for nil, io.EOF and io.ErrUnexpectedEOF.
func readFail(err error) error {
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return nil
	}
	var re *ReadError
	if errors.As(err, &re) {
		return err
	}
	return &ReadError{err}
}
