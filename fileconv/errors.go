package fileconv

import (
	"errors"
	"fmt"

	"github.com/clconv/clconv/cltype"
)

// FormatError reports input that is not what it claims to be: a corrupt or
// unsupported .npy header, truncated data, data that does not match the shape,
// or a raw file that is not a whole number of elements. Offset is the byte of
// the input where the problem lies.
type FormatError struct {
	Offset int64
	Msg    string
	said   bool // Msg already gives Offset
}

// Error implements error.
func (e *FormatError) Error() string {
	if e.said {
		return e.Msg
	}
	return fmt.Sprintf("%s (at byte %d)", e.Msg, e.Offset)
}

func formatErr(off int64, format string, args ...any) error {
	return &FormatError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// leftoverErr reports a raw input whose size is not a whole number of
// elements, naming the offset of the bytes left over.
func leftoverErr(size int64, k cltype.Kind) error {
	r := size % int64(k.Size())
	return &FormatError{Offset: size - r, said: true, Msg: fmt.Sprintf(
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

// ReadError wraps a failure of the input's reader (not a format problem).
type ReadError struct{ Err error }

// Error implements error.
func (e *ReadError) Error() string { return "reading the input: " + e.Err.Error() }

// Unwrap returns the underlying error.
func (e *ReadError) Unwrap() error { return e.Err }
