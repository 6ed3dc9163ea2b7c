package gguf

import (
	"errors"
	"strconv"
	"strings"
)

// The sentinel causes of a FormatError, for errors.Is.
var (
	// ErrMagic: the file does not begin with "GGUF".
	ErrMagic = errors.New("gguf: bad magic")
	// ErrVersion: a version other than 2 and 3 (1, the oldest, stored 32-bit
	// counts and lengths; ggml refuses it, and so does Read).
	ErrVersion = errors.New("gguf: unsupported version")
	// ErrTruncated: the file ends inside a field, or a count or length
	// promises more bytes than the file has left.
	ErrTruncated = errors.New("gguf: file is truncated")
	// ErrBadValue: a field holds a value that ggml refuses: an unknown value
	// type, an empty or repeated key, a string or array over ggml's limit of
	// 2^30, a bad general.alignment, a tensor name of 64 bytes or more or
	// repeated, more than 4 dimensions, a negative dimension, too many
	// elements, a row that is not whole blocks.
	ErrBadValue = errors.New("gguf: invalid value")
	// ErrType: a tensor type id that ggml does not define (or has removed).
	ErrType = errors.New("gguf: unknown tensor type")
	// ErrLayout: the tensor data is not where ggml puts it: an offset that
	// is not the previous tensor's end padded to the alignment (so not
	// aligned, overlapping or leaving a gap), or data past the end of the
	// file.
	ErrLayout = errors.New("gguf: bad data layout")
	// ErrNotFound: ReadTensor was asked for a name the file does not hold.
	ErrNotFound = errors.New("gguf: no such tensor")
)

// FormatError is the error of Read, Open, the Reader's methods and the
// writers: a file that is not valid GGUF, a File that cannot be written, or
// an I/O failure underneath. Err is the cause: one of the sentinel errors
// above, or the I/O error; errors.Is sees through it. Msg says what is wrong
// in words.
//
// Offset is the byte of the file where the offending field begins (the
// magic, the count, the string's length, the value, the tensor's name or
// offset), or -1 when no byte is to blame (a Writer given the wrong number of
// bytes). Key names the metadata key involved and Tensor the tensor; Tensor
// is meaningful when HasTensor is set, since ggml accepts a tensor named "".
type FormatError struct {
	File      string // the path, when the error comes from a named file
	Offset    int64
	Tensor    string
	HasTensor bool
	Key       string
	Err       error
	Msg       string
}

// Error formats e as
//
//	model.gguf: byte 1234: tensor "blk.0.attn_q.weight": offset 77 not a multiple of the alignment 32
//
// with "gguf" in place of the file's name when there is none, and key "k"
// in place of the tensor for a metadata problem.
func (e *FormatError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("gguf")
	}
	if e.Offset >= 0 {
		b.WriteString(": byte ")
		b.WriteString(strconv.FormatInt(e.Offset, 10))
	}
	if e.Key != "" {
		b.WriteString(": key ")
		b.WriteString(strconv.Quote(e.Key))
	}
	if e.HasTensor || e.Tensor != "" {
		b.WriteString(": tensor ")
		b.WriteString(strconv.Quote(e.Tensor))
	}
	b.WriteString(": ")
	switch {
	case e.Msg != "":
		b.WriteString(e.Msg)
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("invalid file")
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *FormatError) Unwrap() error { return e.Err }
