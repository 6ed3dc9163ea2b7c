package fileconv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// rawHeader builds a .npy header of format version major around dict, padded
// to a multiple of 64 bytes as NumPy does (no padding when pad is false).
func rawHeader(major int, dict string, pad bool) []byte {
	pre := 10
	if major >= 2 {
		pre = 12
	}
	if pad {
		total := (pre + len(dict) + 1 + 63) &^ 63
		dict += strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	}
	b := []byte(NPYMagic)
	b = append(b, byte(major), 0)
	if major == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(dict)))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(dict)))
	}
	return append(b, dict...)
}

func dict(descr string, fortran bool, shape string) string {
	f := "False"
	if fortran {
		f = "True"
	}
	return fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr, f, shape)
}

func TestReadHeaderValid(t *testing.T) {
	tests := []struct {
		hdr     []byte
		kind    cltype.Kind
		big     bool
		fortran bool
		shape   []int64
	}{
		{rawHeader(1, dict("<f4", false, "(2, 3)"), true), cltype.Float, false, false, []int64{2, 3}},
		{rawHeader(1, dict(">f8", true, "(5,)"), true), cltype.Double, true, true, []int64{5}},
		{rawHeader(1, dict("|u1", false, "()"), true), cltype.Uchar, false, false, []int64{}},
		{rawHeader(1, dict("|i1", false, "(0,)"), true), cltype.Char, false, false, []int64{0}},
		{rawHeader(1, dict("<f2", false, "(1, 2, 3, 4)"), true), cltype.Half, false, false, []int64{1, 2, 3, 4}},
		{rawHeader(2, dict("<i2", false, "(7,)"), true), cltype.Short, false, false, []int64{7}},
		{rawHeader(3, dict("<u2", false, "(7,)"), true), cltype.Ushort, false, false, []int64{7}},
		{rawHeader(1, dict(">i4", false, "(7,)"), true), cltype.Int, true, false, []int64{7}},
		{rawHeader(1, dict("<u4", false, "(7,)"), true), cltype.Uint, false, false, []int64{7}},
		{rawHeader(1, dict("<i8", false, "(7,)"), true), cltype.Long, false, false, []int64{7}},
		{rawHeader(1, dict(">u8", false, "(7,)"), true), cltype.Ulong, true, false, []int64{7}},
		// '<' and '>' on one-byte types are harmless.
		{rawHeader(1, dict(">u1", false, "(7,)"), true), cltype.Uchar, false, false, []int64{7}},
		// Other key orders, double quotes, no padding, no trailing comma,
		// Python 2 longs, a trailing comma inside the shape, extra spaces.
		{rawHeader(1, `{"shape": (3L, 4L), "fortran_order": True, "descr": "<f4"}`+"\n", false), cltype.Float, false, true, []int64{3, 4}},
		{rawHeader(1, "{ 'descr' : '<f4' ,\n 'fortran_order':False,'shape':( 3 , 4 , ) }", false), cltype.Float, false, false, []int64{3, 4}},
		{rawHeader(1, dict("<f4", false, "(9223372036854775807,)")[:0]+dict("|u1", false, "(9223372036854775807,)"), true), cltype.Uchar, false, false, []int64{math.MaxInt64}},
	}
	for _, tt := range tests {
		h, err := ReadHeader(bytes.NewReader(append(slices.Clip(tt.hdr), "DATA"...)))
		if err != nil {
			t.Errorf("ReadHeader(%q): %v", tt.hdr, err)
			continue
		}
		if h.Kind != tt.kind || h.BigEndian != tt.big || h.Fortran != tt.fortran || !slices.Equal(h.Shape, tt.shape) || h.DataOffset != int64(len(tt.hdr)) {
			t.Errorf("ReadHeader(%q) = %+v; want %s big=%v fortran=%v shape %v offset %d", tt.hdr, h, tt.kind, tt.big, tt.fortran, tt.shape, len(tt.hdr))
		}
	}
}

func TestReadHeaderErrors(t *testing.T) {
	long := rawHeader(2, dict("<f4", false, "(3,)")+strings.Repeat(" ", MaxHeaderLen), false)
	huge := append([]byte(NPYMagic), 2, 0, 0xff, 0xff, 0xff, 0xff)
	tests := []struct {
		in   []byte
		want string
	}{
		{nil, "not a .npy file"},
		{[]byte("\x93NUM"), "truncated .npy header"},
		{[]byte("hello, world"), "not a .npy file"},
		{[]byte("\x93NUMPY\x01"), "truncated .npy header"},
		{[]byte("\x93NUMPY\x01\x00\x05"), "no header length"},
		{[]byte("\x93NUMPY\x04\x00\x05\x00"), "unsupported .npy format version 4.0"},
		{[]byte("\x93NUMPY\x01\x01\x05\x00"), "unsupported .npy format version 1.1"},
		{[]byte("\x93NUMPY\x01\x00\x00\x00"), "header length is 0"},
		{[]byte("\x93NUMPY\x01\x00\x50\x00{'descr'"), "truncated .npy header: 8 of 80"},
		{long, "oversized .npy header"},
		{huge, "oversized .npy header"},
		{rawHeader(1, dict("<c8", false, "(3,)"), true), "unsupported dtype \"<c8\": complex"},
		{rawHeader(1, dict("|O", false, "(3,)"), true), "Python objects"},
		{rawHeader(1, dict("|S5", false, "(3,)"), true), "strings"},
		{rawHeader(1, dict("<U5", false, "(3,)"), true), "strings"},
		{rawHeader(1, dict("|b1", false, "(3,)"), true), "bool"},
		{rawHeader(1, dict("<M8[s]", false, "(3,)"), true), "datetime"},
		{rawHeader(1, dict("<f16", false, "(3,)"), true), "floating type of that size"},
		{rawHeader(1, dict("|V4", false, "(3,)"), true), "void"},
		{rawHeader(1, dict("=f4", false, "(3,)"), true), "native byte order"},
		{rawHeader(1, dict("f4", false, "(3,)"), true), "no byte order mark"},
		{rawHeader(1, dict("|f4", false, "(3,)"), true), "only valid for 1-byte types"},
		{rawHeader(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }", true), "structured"},
		{rawHeader(1, dict("<f4", false, "(3)"), true), "not a tuple"},
		{rawHeader(1, dict("<f4", false, "(-3,)"), true), "negative dimension"},
		{rawHeader(1, dict("<f4", false, "(03,)"), true), "leading zero"},
		{rawHeader(1, dict("<f4", false, "(3.0,)"), true), "plain integer"},
		{rawHeader(1, dict("<f4", false, "(3 4)"), true), "expected ',' or ')'"},
		{rawHeader(1, dict("<f4", false, "[3]"), true), "shape must be a tuple"},
		{rawHeader(1, dict("<f4", false, "(99999999999999999999,)"), true), "too large"},
		{rawHeader(1, dict("<f4", false, "(3037000500, 3037000500)"), true), "oversized"},
		{rawHeader(1, dict("<f4", false, "("+strings.Repeat("1, ", 65)+")"), true), "more than 64 dimensions"},
		{rawHeader(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (3,), }", true), "True or False"},
		{rawHeader(1, "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (3,), }", true), "True or False"},
		{rawHeader(1, "{'descr': '<f4', 'shape': (3,), }", true), "\"fortran_order\" is missing"},
		{rawHeader(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", true), "appears twice"},
		{rawHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", true), "unexpected key"},
		{rawHeader(1, "{'descr': '<f4' 'fortran_order': False, 'shape': (3,), }", true), "expected ',' or '}'"},
		{rawHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), } x", true), "after the header dictionary"},
		{rawHeader(1, "['descr', '<f4']", true), "expected '{'"},
		{rawHeader(1, "{'descr': '<f\\x34', 'fortran_order': False, 'shape': (3,), }", true), "in a string"},
		{rawHeader(1, "{'descr: '<f4', 'fortran_order': False, 'shape': (3,), }", true), "expected ':'"},
		{rawHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), \x00}", true), "byte 0x00"},
		{rawHeader(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'é': 1}", true), "byte 0xc3"},
		{rawHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,", false), "expected a dimension"},
		{rawHeader(1, "{'descr': '<f4", false), "unterminated string"},
	}
	for _, tt := range tests {
		_, err := ReadHeader(bytes.NewReader(tt.in))
		var fe *FormatError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &fe) {
			t.Errorf("ReadHeader(%.80q) = %v; want a *FormatError containing %q", tt.in, err, tt.want)
		}
	}
}

func TestEncodeHeader(t *testing.T) {
	for _, k := range cltype.Scalars {
		for _, shape := range [][]int64{{}, {0}, {5}, {2, 3}, {1, 1, 1, 1, 7}} {
			for _, fortran := range []bool{false, true} {
				b := EncodeHeader(k, fortran, shape, 0)
				if len(b)%64 != 0 || b[len(b)-1] != '\n' || b[6] != 1 {
					t.Errorf("EncodeHeader(%s, %v, %v) = %q: not a padded 1.0 header", k, fortran, shape, b)
				}
				h, err := ReadHeader(bytes.NewReader(b))
				if err != nil || h.Kind != k || h.BigEndian || h.Fortran != fortran || !slices.Equal(h.Shape, shape) || h.DataOffset != int64(len(b)) {
					t.Errorf("ReadHeader(EncodeHeader(%s, %v, %v)) = %+v, %v", k, fortran, shape, h, err)
				}
			}
		}
	}
	// minLen reserves room for a later, longer shape.
	b := EncodeHeader(cltype.Float, false, []int64{0}, 200)
	if len(b) != 256 {
		t.Errorf("EncodeHeader with minLen 200: %d bytes, want 256", len(b))
	}
	// Headers too long for 1.0 use 2.0.
	shape := make([]int64, 64)
	for i := range shape {
		shape[i] = 1
	}
	long := EncodeHeader(cltype.Float, false, shape, 70000)
	if long[6] != 2 || len(long)%64 != 0 {
		t.Errorf("long header: version %d, %d bytes", long[6], len(long))
	}
	if _, err := ReadHeader(bytes.NewReader(long)); err == nil || !strings.Contains(err.Error(), "oversized") {
		t.Errorf("a 70000-byte header was accepted: %v", err)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// FuzzNpyHeader checks that ReadHeader never panics, reports every rejection
// as a *FormatError, consumes exactly DataOffset bytes of an accepted header,
// and accepts only headers whose data size fits an int64 and that
// EncodeHeader reproduces.
func FuzzNpyHeader(f *testing.F) {
	for _, d := range []string{
		dict("<f4", false, "(2, 3)"), dict(">f8", true, "(5,)"), dict("|u1", false, "()"),
		dict("<f2", false, "(0, 4)"), dict("<c8", false, "(3,)"), dict("<f4", false, "(3037000500, 3037000500)"),
		`{"shape": (3L, 4L), "fortran_order": True, "descr": "<i8"}`,
		"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,), }",
	} {
		for _, major := range []int{1, 2, 3} {
			f.Add(rawHeader(major, d, true))
		}
		f.Add(rawHeader(1, d, false))
	}
	// Every small float, by its ml_dtypes name and e5m2's "<f1".
	for _, k := range cltype.SmallFloats {
		f.Add(rawHeader(1, dict(descr(k, false), false, "(4,)"), true))
	}
	f.Add(rawHeader(1, dict("<f1", false, "(2, 2)"), true))
	f.Add([]byte("\x93NUMPY\x01\x00\xff\xff"))
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		cr := &countingReader{r: bytes.NewReader(data)}
		h, err := ReadHeader(cr)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if fe.Offset < 0 || fe.Offset > int64(len(data))+MaxHeaderLen {
				t.Fatalf("error offset %d out of range", fe.Offset)
			}
			return
		}
		if cr.n != h.DataOffset {
			t.Fatalf("read %d bytes, DataOffset %d", cr.n, h.DataOffset)
		}
		// Convertible, not Valid: a header may name the eleven OpenCL C
		// kinds or a small float (cltype.SmallFloats: bfloat16, e4m3,
		// e5m2, e2m1, e2m3, e3m2, e8m0), never bool.
		if !h.Kind.Convertible() || len(h.Shape) > MaxDims {
			t.Fatalf("accepted %+v", h)
		}
		size := uint64(h.Kind.Size())
		for _, d := range h.Shape {
			if d < 0 {
				t.Fatalf("negative dimension in %v", h.Shape)
			}
			if d != 0 && size > math.MaxInt64/uint64(d) && !slices.Contains(h.Shape, 0) {
				t.Fatalf("shape %v of %s overflows", h.Shape, h.Kind)
			}
			size *= uint64(d)
		}
		if h.DataLen() < 0 {
			t.Fatalf("DataLen %d", h.DataLen())
		}
		enc := EncodeHeader(h.Kind, h.Fortran, h.Shape, 0)
		h2, err := ReadHeader(bytes.NewReader(enc))
		if err != nil || h2.Kind != h.Kind || h2.Fortran != h.Fortran || !slices.Equal(h2.Shape, h.Shape) {
			t.Fatalf("re-encoded %q: %+v, %v; want %+v", enc, h2, err, h)
		}
	})
}

func TestParseDescr(t *testing.T) {
	for _, k := range cltype.Scalars {
		for _, big := range []bool{false, true} {
			s := descr(k, big)
			k2, big2, err := ParseDescr(s)
			if err != nil || k2 != k || big2 != (big && k.Size() > 1) {
				t.Errorf("ParseDescr(%q) = %s, %v, %v", s, k2, big2, err)
			}
		}
	}
}

func TestShapeString(t *testing.T) {
	for _, tt := range []struct {
		shape []int64
		want  string
	}{{nil, "()"}, {[]int64{5}, "(5,)"}, {[]int64{2, 3}, "(2, 3)"}} {
		if got := ShapeString(tt.shape); got != tt.want {
			t.Errorf("ShapeString(%v) = %q, want %q", tt.shape, got, tt.want)
		}
	}
}
