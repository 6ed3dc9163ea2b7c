package fileconv

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/clconv/clconv/cltype"
)

// NPYMagic is the first six bytes of every .npy file.
const NPYMagic = "\x93NUMPY"

// MaxHeaderLen is the longest header dictionary ReadHeader accepts, in bytes.
// NumPy itself refuses headers over 10000 bytes unless told otherwise; a
// 64-dimensional shape of 20-digit sizes needs about 1.5 KB, so anything near
// this limit is corrupt or hostile, and the limit keeps a bad length field from
// making clconv allocate gigabytes.
const MaxHeaderLen = 1 << 16

// MaxDims is the largest number of dimensions ReadHeader accepts (NumPy 2's
// NPY_MAXDIMS).
const MaxDims = 64

// Header is the header of a .npy file: the element type, its byte order, the
// memory order and the shape of the array that follows.
type Header struct {
	Major, Minor int         // format version as read (1.0, 2.0 or 3.0)
	Kind         cltype.Kind // element type (for Void, uchar or ushort of its size)
	Void         bool        // raw records ('<V2', '|V1'): NumPy's dtype for ml_dtypes' types; the caller names the type
	BigEndian    bool        // elements are stored big-endian ('>')
	Fortran      bool        // fortran_order: column-major layout
	Shape        []int64     // dimensions; empty for a 0-d array (one element)
	DataOffset   int64       // bytes from the start of the file to the data
}

// Count returns the number of elements: the product of the dimensions (1 for a
// 0-d array). ReadHeader guarantees that Count()*Kind.Size() fits in an int64.
func (h *Header) Count() int64 {
	n := int64(1)
	for _, d := range h.Shape {
		n *= d
	}
	return n
}

// DataLen returns the size of the data in bytes.
func (h *Header) DataLen() int64 { return h.Count() * int64(h.Kind.Size()) }

// Descr returns the NumPy type string of h's elements ("<f4", "|u1").
func (h *Header) Descr() string {
	if h.Void {
		return voidDescr(h.Kind.Size())
	}
	return descr(h.Kind, h.BigEndian)
}

// voidDescr is NumPy's type string of raw records of size bytes.
func voidDescr(size int) string {
	if size == 1 {
		return "|V1"
	}
	return "<V" + strconv.Itoa(size)
}

// parseVoid recognises NumPy's type string of raw records of 1 or 2 bytes
// ('|V1', '<V2'), which is what np.save writes for ml_dtypes' bfloat16 and
// float8_e4m3fn arrays (their dtypes have kind 'V'), and returns the size.
func parseVoid(s string) (int, bool) {
	switch s {
	case "|V1", "<V1", ">V1", "V1":
		return 1, true
	case "|V2", "<V2", ">V2", "V2":
		return 2, true
	}
	return 0, false
}

// ShapeString formats the shape as Python writes a tuple: "()", "(5,)", "(2, 3)".
func ShapeString(shape []int64) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(d, 10))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// npyCodes holds NumPy's type code (kind character and size) of each kind.
var npyCodes = [cltype.NumKinds]string{
	cltype.Char: "i1", cltype.Uchar: "u1",
	cltype.Short: "i2", cltype.Ushort: "u2",
	cltype.Int: "i4", cltype.Uint: "u4",
	cltype.Long: "i8", cltype.Ulong: "u8",
	cltype.Half: "f2", cltype.Float: "f4", cltype.Double: "f8",
	// The small formats: the names of ml_dtypes' dtypes (str(dtype)), which
	// loaders that keep the type write as the descr, with no byte-order mark.
	cltype.BFloat16: "bfloat16", cltype.E4M3: "float8_e4m3fn", cltype.E5M2: "float8_e5m2",
	// ml_dtypes stores the MX formats one element per byte, the code in the
	// low bits, as clconv does.
	cltype.E2M1: "float4_e2m1fn", cltype.E2M3: "float6_e2m3fn", cltype.E3M2: "float6_e3m2fn",
	cltype.E8M0: "float8_e8m0fnu",
	// The FNUZ formats (ml_dtypes' float8_e4m3fnuz and float8_e5m2fnuz).
	cltype.E4M3FNUZ: "float8_e4m3fnuz", cltype.E5M2FNUZ: "float8_e5m2fnuz",
}

// kindOfCode returns the kind of a NumPy type code such as "f4".
func kindOfCode(code string) (cltype.Kind, bool) {
	for _, k := range cltype.AllScalars {
		if npyCodes[k] == code {
			return k, true
		}
	}
	return cltype.Invalid, false
}

// descr returns the NumPy type string of kind k.
func descr(k cltype.Kind, bigEndian bool) string {
	code := npyCodes[k]
	switch {
	case k.IsSmallFloat():
		return code
	case k.Size() == 1:
		return "|" + code
	case bigEndian:
		return ">" + code
	}
	return "<" + code
}

// ParseDescr parses a NumPy type string such as "<f4", ">i2" or "|u1" and
// returns the OpenCL kind and whether the data is big-endian. It names the
// NumPy types clconv cannot convert (bool, complex, strings, objects, dates,
// long double, structured arrays) in its error.
func ParseDescr(s string) (k cltype.Kind, bigEndian bool, err error) {
	if s == "" {
		return 0, false, errors.New("empty dtype")
	}
	for _, k := range cltype.SmallFloats {
		if s == npyCodes[k] {
			return k, false, nil
		}
	}
	if s == "<f1" || s == "|f1" || s == ">f1" {
		// ml_dtypes' float8_e5m2 is the one type it gives kind 'f'.
		return cltype.E5M2, false, nil
	}
	order, code := s[0], s[1:]
	switch order {
	case '<', '>', '|':
	case '=':
		return 0, false, fmt.Errorf("dtype %q: native byte order '=' does not say which byte order the file has", s)
	default:
		order, code = 0, s
	}
	if k, ok := kindOfCode(code); ok {
		if order == 0 {
			return 0, false, fmt.Errorf("dtype %q has no byte order mark ('<', '>' or '|')", s)
		}
		if k.Size() > 1 && order == '|' {
			return 0, false, fmt.Errorf("dtype %q: '|' (no byte order) is only valid for 1-byte types", s)
		}
		return k, order == '>' && k.Size() > 1, nil
	}
	what := ""
	switch {
	case code == "":
		what = "an empty type code"
	case code[0] == 'b' || code[0] == '?':
		what = "bool (bool takes no part in OpenCL convert_)"
	case code[0] == 'c':
		what = "complex"
	case code[0] == 'O':
		what = "Python objects"
	case code[0] == 'S' || code[0] == 'a' || code[0] == 'U':
		what = "strings"
	case code[0] == 'V':
		what = "raw void records"
	case code[0] == 'M' || code[0] == 'm':
		what = "datetime"
	case code[0] == 'f':
		what = "a floating type of that size (only f2, f4, f8)"
	case code[0] == 'i' || code[0] == 'u':
		what = "an integer type of that size (only 1, 2, 4 and 8 bytes)"
	default:
		what = "an unknown type code"
	}
	return 0, false, fmt.Errorf("unsupported dtype %q: %s", s, what)
}

// ReadHeader reads a .npy header (magic, version, header length and the
// header dictionary) from r, which must be at the start of the file, and leaves
// r at the first data byte. It accepts format versions 1.0, 2.0 and 3.0 and
// checks the dictionary strictly: exactly the keys descr, fortran_order and
// shape, Python literal syntax, at most MaxDims non-negative dimensions whose
// data size fits in an int64. A problem of the header is a *FormatError
// giving the byte offset of the problem (Err ErrHeader, ErrTruncated or
// ErrUnsupported); a failure of r (an error other than io.EOF and
// io.ErrUnexpectedEOF) is a *ReadError wrapping it.
func ReadHeader(r io.Reader) (*Header, error) {
	var pre [10]byte
	if n, err := io.ReadFull(r, pre[:8]); err != nil {
		if err := readFail(err); err != nil {
			return nil, err
		}
		if n >= len(NPYMagic) || n > 0 && string(pre[:n]) == NPYMagic[:n] {
			return nil, formatErr(int64(n), ErrTruncated, "truncated .npy header: file ends after %d bytes", n)
		}
		return nil, formatErr(0, ErrHeader, "not a .npy file (too short for the magic string)")
	}
	if string(pre[:6]) != NPYMagic {
		return nil, formatErr(0, ErrHeader, "not a .npy file (no \\x93NUMPY magic string)")
	}
	h := &Header{Major: int(pre[6]), Minor: int(pre[7])}
	var hlen int64
	switch h.Major {
	case 1:
		if _, err := io.ReadFull(r, pre[8:10]); err != nil {
			if err := readFail(err); err != nil {
				return nil, err
			}
			return nil, formatErr(8, ErrTruncated, "truncated .npy header: no header length")
		}
		hlen = int64(binary.LittleEndian.Uint16(pre[8:10]))
		h.DataOffset = 10
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(r, l[:]); err != nil {
			if err := readFail(err); err != nil {
				return nil, err
			}
			return nil, formatErr(8, ErrTruncated, "truncated .npy header: no header length")
		}
		hlen = int64(binary.LittleEndian.Uint32(l[:]))
		h.DataOffset = 12
	default:
		return nil, formatErr(6, ErrUnsupported, "unsupported .npy format version %d.%d (want 1.0, 2.0 or 3.0)", h.Major, h.Minor)
	}
	if h.Minor != 0 {
		return nil, formatErr(7, ErrUnsupported, "unsupported .npy format version %d.%d (want 1.0, 2.0 or 3.0)", h.Major, h.Minor)
	}
	if hlen == 0 {
		return nil, formatErr(8, ErrHeader, "corrupt .npy header: header length is 0")
	}
	if hlen > MaxHeaderLen {
		return nil, formatErr(8, ErrHeader, "corrupt or oversized .npy header: header length %d exceeds the limit of %d bytes", hlen, MaxHeaderLen)
	}
	buf := make([]byte, hlen)
	if n, err := io.ReadFull(r, buf); err != nil {
		if err := readFail(err); err != nil {
			return nil, err
		}
		return nil, formatErr(h.DataOffset+int64(n), ErrTruncated, "truncated .npy header: %d of %d header bytes present", n, hlen)
	}
	if err := parseDict(h, buf, h.DataOffset); err != nil {
		return nil, err
	}
	h.DataOffset += hlen
	return h, nil
}

// parseDict parses the header dictionary in buf (which starts at byte base of
// the file) into h.
func parseDict(h *Header, buf []byte, base int64) error {
	p := &dictParser{s: buf, base: base}
	for i, c := range buf {
		// The dictionary is ASCII (latin-1 in 1.0/2.0, UTF-8 in 3.0; only
		// structured dtypes' field names can need more, and those are not
		// supported). Control characters other than white space are corruption.
		if c >= 0x7f || c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return p.errAt(i, "corrupt .npy header: byte 0x%02x in the header dictionary", c)
		}
	}
	p.space()
	if !p.eat('{') {
		return p.err("corrupt .npy header: expected '{' to open the header dictionary")
	}
	seen := map[string]bool{}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		if len(seen) > 0 {
			if !p.eat(',') {
				return p.err("corrupt .npy header: expected ',' or '}' after a dictionary entry")
			}
			p.space()
			if p.eat('}') {
				break
			}
		}
		keyPos := p.pos
		key, err := p.str()
		if err != nil {
			return err
		}
		if seen[key] {
			return p.errAt(keyPos, "corrupt .npy header: key %q appears twice", key)
		}
		seen[key] = true
		p.space()
		if !p.eat(':') {
			return p.err("corrupt .npy header: expected ':' after key %q", key)
		}
		p.space()
		switch key {
		case "descr":
			if p.peek() == '[' {
				return p.unsupportedAt(p.pos, "unsupported dtype: structured (record) arrays cannot be converted")
			}
			vpos := p.pos
			s, err := p.str()
			if err != nil {
				return err
			}
			if n, ok := parseVoid(s); ok {
				h.Kind, h.Void = cltype.Uchar, true
				if n == 2 {
					h.Kind = cltype.Ushort
				}
			} else if h.Kind, h.BigEndian, err = ParseDescr(s); err != nil {
				return p.unsupportedAt(vpos, "%v", err)
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				h.Fortran = true
			case p.word("False"):
				h.Fortran = false
			default:
				return p.err("corrupt .npy header: fortran_order must be True or False")
			}
		case "shape":
			if err := p.shape(h); err != nil {
				return err
			}
		default:
			return p.errAt(keyPos, "corrupt .npy header: unexpected key %q (want descr, fortran_order and shape)", key)
		}
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return p.err("corrupt .npy header: key %q is missing", k)
		}
	}
	// After the dictionary NumPy pads with spaces and ends with '\n'.
	p.space()
	if p.pos != len(p.s) {
		return p.err("corrupt .npy header: unexpected %q after the header dictionary", p.s[p.pos])
	}
	if len(h.Shape) > 0 {
		// Count * size must fit in an int64 (checked here so that no later
		// arithmetic on sizes can overflow).
		limit := uint64(math.MaxInt64) / uint64(h.Kind.Size())
		n := uint64(1)
		zero := false
		for _, d := range h.Shape {
			if d == 0 {
				zero = true
			}
		}
		if !zero {
			for _, d := range h.Shape {
				if uint64(d) > limit/n {
					return formatErr(base, ErrHeader, "corrupt or oversized .npy header: shape %s has more than %d elements of %s", ShapeString(h.Shape), limit, h.Kind)
				}
				n *= uint64(d)
			}
		}
	}
	return nil
}

// dictParser scans the Python literal of a .npy header dictionary.
type dictParser struct {
	s    []byte
	pos  int
	base int64 // file offset of s[0]
}

func (p *dictParser) errAt(pos int, format string, args ...any) error {
	return formatErr(p.base+int64(pos), ErrHeader, format, args...)
}

// unsupportedAt reports a valid header that describes data clconv cannot
// convert.
func (p *dictParser) unsupportedAt(pos int, format string, args ...any) error {
	return formatErr(p.base+int64(pos), ErrUnsupported, format, args...)
}

func (p *dictParser) err(format string, args ...any) error { return p.errAt(p.pos, format, args...) }

func (p *dictParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *dictParser) space() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *dictParser) eat(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

// word consumes w if it stands alone (not followed by an identifier character).
func (p *dictParser) word(w string) bool {
	if !strings.HasPrefix(string(p.s[p.pos:]), w) {
		return false
	}
	end := p.pos + len(w)
	if end < len(p.s) && isIdent(p.s[end]) {
		return false
	}
	p.pos = end
	return true
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// str scans a quoted Python string without escapes (no key or supported dtype
// needs one).
func (p *dictParser) str() (string, error) {
	q := p.peek()
	if q != '\'' && q != '"' {
		return "", p.err("corrupt .npy header: expected a quoted string")
	}
	start := p.pos + 1
	for i := start; i < len(p.s); i++ {
		switch p.s[i] {
		case q:
			p.pos = i + 1
			return string(p.s[start:i]), nil
		case '\\', '\n', '\r':
			return "", p.errAt(i, "corrupt .npy header: unexpected %q in a string", p.s[i])
		}
	}
	return "", p.errAt(p.pos, "corrupt .npy header: unterminated string")
}

// shape scans a tuple of non-negative integers: "()", "(5,)", "(2, 3)" or
// "(2, 3,)". "(5)" is not a tuple in Python and is rejected. Python 2's long
// suffix ("3L") is accepted for old files.
func (p *dictParser) shape(h *Header) error {
	if !p.eat('(') {
		return p.err("corrupt .npy header: shape must be a tuple such as (2, 3)")
	}
	h.Shape = []int64{}
	comma := false
	for {
		p.space()
		if p.eat(')') {
			break
		}
		if len(h.Shape) > 0 && !comma {
			return p.err("corrupt .npy header: expected ',' or ')' in shape")
		}
		start := p.pos
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
		}
		digits := string(p.s[start:p.pos])
		if digits == "" {
			if p.peek() == '-' {
				return p.err("corrupt .npy header: negative dimension in shape")
			}
			return p.err("corrupt .npy header: expected a dimension (a non-negative integer) in shape")
		}
		if len(digits) > 1 && digits[0] == '0' {
			return p.errAt(start, "corrupt .npy header: dimension %q has a leading zero", digits)
		}
		d, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return p.errAt(start, "corrupt or oversized .npy header: dimension %s is too large", digits)
		}
		if p.peek() == 'L' || p.peek() == 'l' {
			p.pos++
		}
		if isIdent(p.peek()) || p.peek() == '.' {
			return p.err("corrupt .npy header: dimension must be a plain integer")
		}
		if len(h.Shape) == MaxDims {
			return p.errAt(start, "corrupt or oversized .npy header: more than %d dimensions", MaxDims)
		}
		h.Shape = append(h.Shape, d)
		p.space()
		comma = p.eat(',')
	}
	if len(h.Shape) == 1 && !comma {
		return p.err("corrupt .npy header: shape (%d) is not a tuple; a 1-d shape is written (%d,)", h.Shape[0], h.Shape[0])
	}
	return nil
}

// EncodeHeader returns the .npy header for an array of kind k (written
// little-endian) with the given memory order and shape, padded with spaces so
// that the data starts at a multiple of 64 bytes and at least minLen bytes into
// the file (so that a placeholder header can later be overwritten in place by
// the final one). It writes format 1.0 when the header fits, else 2.0.
func EncodeHeader(k cltype.Kind, fortran bool, shape []int64, minLen int) []byte {
	order := "False"
	if fortran {
		order = "True"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr(k, false), order, ShapeString(shape))
	size := func(pre int) int { return (max(pre+len(dict)+1, minLen) + 63) &^ 63 }
	pre := 10
	total := size(pre)
	if total-pre > math.MaxUint16 {
		pre = 12
		total = size(pre)
	}
	out := make([]byte, total)
	copy(out, NPYMagic)
	if pre == 10 {
		out[6] = 1
		binary.LittleEndian.PutUint16(out[8:], uint16(total-pre))
	} else {
		out[6] = 2
		binary.LittleEndian.PutUint32(out[8:], uint32(total-pre))
	}
	n := copy(out[pre:], dict)
	for i := pre + n; i < total-1; i++ {
		out[i] = ' '
	}
	out[total-1] = '\n'
	return out
}
