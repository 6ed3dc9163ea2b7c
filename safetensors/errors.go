package safetensors

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// FormatError is the error of every function and method of this package
// (ParseDType and OpenNPY aside: OpenNPY's doc gives its errors): a file
// that is not valid safetensors, a request that the file cannot satisfy, or
// a failure of the reader or writer underneath.
// Offset is the byte of the file where the problem lies: in the header for a
// bad entry (the offending value, or the tensor's entry for a problem between
// its fields), in the data for a hole, leftover bytes or a bad element. Tensor
// names the tensor involved, if one is. Err is the cause; errors.Is sees
// through it to ErrTruncated, ErrUnsupported, ErrUnknownDType, ErrNotFound,
// convert.ErrRange and I/O errors.
type FormatError struct {
	Offset int64
	Tensor string // the tensor involved; see HasTensor
	Err    error

	// HasTensor is set when the error concerns a tensor, so that a tensor
	// named "" (a legal JSON key) is still named.
	HasTensor bool
}

// Error formats e as `safetensors: offset 8: tensor "w": data_offsets [0, 12)
// but shape [2, 2] of F32 needs 16 bytes`.
func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("safetensors: offset ")
	b.WriteString(strconv.FormatInt(e.Offset, 10))
	b.WriteString(": ")
	if e.HasTensor || e.Tensor != "" {
		b.WriteString("tensor ")
		b.WriteString(strconv.Quote(e.Tensor))
		b.WriteString(": ")
	}
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("invalid file")
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *FormatError) Unwrap() error { return e.Err }

// The sentinel causes of a FormatError, for errors.Is.
var (
	// ErrTruncated: the file ends before its header length, its header or
	// its data does.
	ErrTruncated = errors.New("safetensors: file is truncated")
	// ErrUnsupported: a dtype that safetensors defines and this package
	// cannot read (C64).
	ErrUnsupported = errors.New("safetensors: unsupported dtype")
	// ErrUnknownDType: a dtype string that safetensors does not define.
	ErrUnknownDType = errors.New("safetensors: unknown dtype")
	// ErrNotFound: ReadTensor was asked for a name the file does not hold.
	ErrNotFound = errors.New("safetensors: no such tensor")
)

// cause is the Err of most FormatErrors: a message, and the sentinel (if
// any) that errors.Is should match.
type cause struct {
	msg string
	is  error
}

func (c *cause) Error() string { return c.msg }
func (c *cause) Unwrap() error { return c.is }

// errf returns a FormatError at off with no tensor.
func errf(off int64, sentinel error, format string, args ...any) *FormatError {
	return &FormatError{Offset: off, Err: &cause{msg: fmt.Sprintf(format, args...), is: sentinel}}
}

// tensorErrf returns a FormatError at off that names tensor name.
func tensorErrf(off int64, name string, sentinel error, format string, args ...any) *FormatError {
	e := errf(off, sentinel, format, args...)
	e.Tensor, e.HasTensor = name, true
	return e
}

// wrapErr returns a FormatError at off whose cause is err itself.
func wrapErr(off int64, name string, named bool, err error) *FormatError {
	return &FormatError{Offset: off, Tensor: name, HasTensor: named, Err: err}
}

// shapeString formats a shape as the header writes it: "[2, 3]", "[]".
func shapeString(shape []int64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(d, 10))
	}
	b.WriteByte(']')
	return b.String()
}
