package fileconv

import (
	"bytes"
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// failReader reads b and fails with err at byte n (and at every read after).
type failReader struct {
	b   []byte
	n   int
	off int
	err error
}

func (r *failReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, r.err
	}
	k := copy(p, r.b[r.off:r.n])
	r.off += k
	return k, nil
}

// failReaderAt is an io.ReaderAt of b that fails with err for any read that
// reaches byte n.
type failReaderAt struct {
	b   []byte
	n   int
	err error
}

func (r failReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if int(off)+len(p) <= r.n {
		return copy(p, r.b[off:]), nil
	}
	k := 0
	if int(off) < r.n {
		k = copy(p, r.b[off:r.n])
	}
	return k, r.err
}

// TestReadFailure injects an I/O error into the input at every region of a
// .npy file (magic, version, header length, dictionary, data, after the
// data) and of raw input: Convert and Inspect must return a *ReadError
// wrapping it, never a *FormatError (which would call good data bad).
func TestReadFailure(t *testing.T) {
	vals := values(cltype.Float, 3000, false, 7)
	npy := npyFile(cltype.Float, vals, []int64{int64(len(vals))}, false, false)
	raw := encodeBits(cltype.Float, vals, false)
	hdr := len(npy) - len(raw)
	type input struct {
		name string
		in   []byte
		opt  Options
		at   []int
	}
	inputs := []input{
		{"npy", npy, Options{}, []int{0, 3, 6, 7, 8, 9, 10, 20, hdr - 1, hdr, hdr + 1, hdr + 4096, len(npy) - 1, len(npy)}},
		{"raw", raw, Options{From: cltype.Float}, []int{0, 1, 4, 4096, 5000, len(raw) - 1, len(raw)}},
	}
	for _, in := range inputs {
		for _, at := range in.at {
			for _, how := range []string{"stream", "sized stream", "section"} {
				var r io.Reader
				opt := in.opt
				opt.Dst, opt.ChunkBytes = cltype.Half, 1024
				switch how {
				case "stream":
					r = &failReader{b: in.in, n: at, err: syscall.EIO}
				case "sized stream":
					// The size known up front, as for a file.
					r, opt.Size = &failReader{b: in.in, n: at, err: syscall.EIO}, int64(len(in.in))
				case "section":
					// An io.ReaderAt (a file, a mapping) read through a section.
					r = io.NewSectionReader(failReaderAt{b: in.in, n: at, err: syscall.EIO}, 0, int64(len(in.in)))
				}
				if at == len(in.in) && how != "stream" {
					// The reader fails only after all the data: a sized input
					// is not read beyond its end.
					continue
				}
				_, err := Convert(context.Background(), io.Discard, r, opt)
				checkReadErr(t, in.name+"/"+how+"/Convert", at, err)
				if how == "section" {
					r = io.NewSectionReader(failReaderAt{b: in.in, n: at, err: syscall.EIO}, 0, int64(len(in.in)))
				} else {
					r = &failReader{b: in.in, n: at, err: syscall.EIO}
				}
				_, err = Inspect(context.Background(), r, InspectOptions{From: in.opt.From, Size: opt.Size, ChunkBytes: 1024})
				checkReadErr(t, in.name+"/"+how+"/Inspect", at, err)
			}
		}
	}
	// ReadHeader itself: a failure of the reader anywhere in the header.
	for at := range hdr {
		_, err := ReadHeader(&failReader{b: npy, n: at, err: syscall.EIO})
		checkReadErr(t, "ReadHeader", at, err)
	}
}

func checkReadErr(t *testing.T, what string, at int, err error) {
	t.Helper()
	var re *ReadError
	var fe *FormatError
	if !errors.As(err, &re) || !errors.Is(err, syscall.EIO) || errors.As(err, &fe) {
		t.Errorf("%s failing at byte %d: %v (%T); want a *ReadError wrapping EIO", what, at, err, err)
	}
}

// TestFormatErrorKinds checks the sentinel of each kind of bad input, and
// that the message stays as it was.
func TestFormatErrorKinds(t *testing.T) {
	vals := []uint64{1, 2, 3, 4, 5, 6}
	good := npyFile(cltype.Float, vals, []int64{6}, false, false)
	tests := []struct {
		name string
		in   []byte
		opt  Options
		kind error
		msg  string
	}{
		{"truncated data", good[:len(good)-5], Options{}, ErrTruncated, "truncated .npy data"},
		{"truncated header", good[:20], Options{}, ErrTruncated, "truncated .npy header"},
		{"too much data", append(slices.Clip(good), 1, 2, 3, 4), Options{}, ErrSizeMismatch, "shape/size mismatch"},
		{"raw leftover", make([]byte, 4*10+3), Options{From: cltype.Float}, ErrSizeMismatch, "3 bytes left over at byte offset 40"},
		{"corrupt header", rawHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1}", true), Options{}, ErrHeader, "unexpected key"},
		{"not npy", make([]byte, 100), Options{In: FormatNPY}, ErrHeader, "not a .npy file"},
		{"complex", rawHeader(1, dict("<c16", false, "(3,)"), true), Options{}, ErrUnsupported, "complex"},
		{"version", []byte("\x93NUMPY\x04\x00\x05\x00"), Options{}, ErrUnsupported, "unsupported .npy format version 4.0"},
		{"type", good, Options{From: cltype.Int}, ErrTypeMismatch, "but the source type given is int"},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			var r io.Reader = bytes.NewReader(tt.in)
			if stream {
				r = onlyReader{r}
			}
			opt := tt.opt
			opt.Dst = cltype.Uchar
			_, err := Convert(context.Background(), io.Discard, r, opt)
			var fe *FormatError
			if !errors.As(err, &fe) || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("%s (stream %v): %v; want a *FormatError of %v saying %q", tt.name, stream, err, tt.kind, tt.msg)
				continue
			}
			if strings.Contains(err.Error(), tt.kind.Error()) {
				t.Errorf("%s: %q repeats the sentinel's text", tt.name, err)
			}
		}
	}
}
