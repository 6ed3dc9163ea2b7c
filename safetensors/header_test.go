package safetensors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
)

// build returns a file of the given header (N = len(header), no padding)
// and data.
func build(header string, data []byte) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	b = append(b, header...)
	return append(b, data...)
}

// withN returns the 8-byte length n followed by rest.
func withN(n uint64, rest string) []byte {
	return append(binary.LittleEndian.AppendUint64(nil, n), rest...)
}

const f32w = `{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}`

// hostile is the corpus of invalid files. Each must be rejected with a
// *FormatError at the offset given by at (a substring of the header, whose
// first occurrence is the offset, counted from the header's start at byte 8)
// plus off, or off alone when at is empty, or (off -1) the first data byte
// that no tensor covers, naming tensor (when not
// empty), with a message containing every string of msg, and errors.Is
// matching is (when not nil).
var hostile = []struct {
	name   string
	file   []byte
	at     string
	off    int64
	tensor string
	msg    []string
	is     error
}{
	{name: "empty file", file: nil, off: 0, msg: []string{"0 bytes, too few for the 8-byte header length"}, is: ErrTruncated},
	{name: "truncated header length", file: []byte{1, 0, 0, 0, 0}, off: 5, msg: []string{"5 bytes, too few"}, is: ErrTruncated},
	{name: "truncated header", file: withN(60, `{"w":{"dtype":"F32"`), off: 27, msg: []string{"header length 60 runs past the end of the file (19 bytes"}, is: ErrTruncated},
	{name: "N beyond file", file: withN(99_999_999, "{}"), off: 10, msg: []string{"header length 99999999 runs past the end of the file (2 bytes"}, is: ErrTruncated},
	{name: "N beyond the cap", file: withN(100_000_001, "{}"), off: 0, msg: []string{"header length 100000001 exceeds the limit of 100000000 bytes"}},
	{name: "N all ones", file: withN(^uint64(0), "{}"), off: 0, msg: []string{"header length 18446744073709551615 exceeds the limit"}},
	{name: "HF header too large", file: []byte("<\x00\x00\x00\x00\xff\xff\xff{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}"), off: 0, msg: []string{"exceeds the limit"}},
	{name: "truncated data", file: build(f32w, make([]byte, 12)), at: "[0,16]", tensor: "w", msg: []string{"data_offsets [0, 16) run past the end of the data (12 bytes)"}, is: ErrTruncated},
	{name: "HF missing data", file: build(`{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}`, make([]byte, 14)), at: "[0,16]", tensor: "test", msg: []string{"run past the end of the data (14 bytes)"}, is: ErrTruncated},
	{name: "empty header", file: withN(0, ""), off: 8, msg: []string{"the header is empty"}},
	{name: "not an object", file: build(`[1,2]`, nil), off: 8, msg: []string{"must begin with '{', found an array"}},
	{name: "a string", file: build(`"w"`, nil), off: 8, msg: []string{"must begin with '{', found a string"}},
	{name: "leading space", file: build(` {}`, nil), off: 8, msg: []string{"must begin with '{', found ' '"}},
	{name: "leading newline", file: build("\n{}", nil), off: 8, msg: []string{`found '\n'`}},
	{name: "trailing garbage", file: build(`{}x`, nil), off: 10, msg: []string{"unexpected 'x' after the header's closing '}'"}},
	{name: "trailing newline", file: build("{}  \n", nil), off: 12, msg: []string{`unexpected '\n' after`, "only spaces"}},
	{name: "trailing NUL", file: build("{} \x00", nil), off: 11, msg: []string{`unexpected '\x00'`}},
	{name: "second object", file: build(`{}{}`, nil), off: 10, msg: []string{"unexpected an object after"}},
	{name: "unterminated object", file: build(`{`, nil), off: 9, msg: []string{"expected a string key in the header, found the end of the header"}},
	{name: "HF not json", file: []byte("\x01\x00\x00\x00\x00\x00\x00\x00{"), off: 9, msg: []string{"found the end of the header"}},
	{name: "trailing comma", file: build(`{"__metadata__":{},}`, nil), at: ",}", off: 1, msg: []string{"expected a string key in the header, found '}'"}},
	{name: "missing colon", file: build(`{"w" 1}`, nil), at: "1", msg: []string{`expected ':' after key "w" in the header, found a number`}},
	{name: "missing comma", file: build(`{"__metadata__":{} "w":1}`, nil), at: `"w"`, msg: []string{`expected ',' or '}' after the value of "__metadata__"`}},
	{name: "duplicate tensor names", file: build(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}`, []byte{1, 2}),
		at: `"a":{"dtype":"U8","shape":[1],"data_offsets":[1`, tensor: "a", msg: []string{"duplicate tensor name (first at offset 9)"}},
	{name: "duplicate identical tensors", file: build(`{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}`, []byte{1}),
		at: `"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}`, tensor: "a", msg: []string{"duplicate tensor name"}},
	{name: "duplicate __metadata__", file: build(`{"__metadata__":{"a":"b"},"__metadata__":{}}`, nil), at: `"__metadata__":{}`, msg: []string{`duplicate key "__metadata__" (first at offset 9)`}},
	{name: "duplicate metadata key", file: build(`{"__metadata__":{"a":"b","a":"c"}}`, nil), at: `"a":"c"`, msg: []string{`duplicate key "a" in __metadata__`}},
	{name: "invalid UTF-8 in a name", file: build("{\"a\xff\":{}}", nil), off: 11, msg: []string{"invalid UTF-8 in the header (byte 0xff)"}},
	{name: "invalid UTF-8 in padding", file: build("{}  \xc3", nil), off: 12, msg: []string{"invalid UTF-8 in the header (byte 0xc3)"}},
	{name: "HF non-UTF-8", file: []byte("\x01\x00\x00\x00\x00\x00\x00\x00\xff"), off: 8, msg: []string{"invalid UTF-8"}},
	{name: "overlong UTF-8", file: build("{\"\xc0\xaf\":1}", nil), off: 10, msg: []string{"invalid UTF-8"}},
	{name: "metadata value not a string", file: build(`{"__metadata__":{"k":1}}`, nil), at: "1}", msg: []string{`__metadata__ value of "k" must be a string, found a number`}},
	{name: "metadata value null", file: build(`{"__metadata__":{"k":null}}`, nil), at: "null}", msg: []string{`must be a string, found null`}},
	{name: "metadata not an object", file: build(`{"__metadata__":["a"]}`, nil), at: `["a"]`, msg: []string{"__metadata__ must be an object of strings, found an array"}},
	{name: "metadata a string", file: build(`{"__metadata__":"pt"}`, nil), at: `"pt"`, msg: []string{"found a string"}},
	{name: "overlap", file: build(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, make([]byte, 12)),
		at: "[4,12]", tensor: "b", msg: []string{`data_offsets [4, 12) overlap those of tensor "a", [0, 8)`}},
	{name: "zero-sized inside another", file: build(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"z":{"dtype":"F32","shape":[0],"data_offsets":[4,4]}}`, make([]byte, 8)),
		at: "[4,4]", tensor: "z", msg: []string{`data_offsets [4, 4) overlap those of tensor "a", [0, 8)`}},
	{name: "HF json attack", file: build(`{"w0":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"w1":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}`, make([]byte, 16)),
		at: `[0,16]}}`, tensor: "w1", msg: []string{`data_offsets [0, 16) overlap those of tensor "w0", [0, 16)`}},
	{name: "hole", file: build(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[12,20]}}`, make([]byte, 20)),
		off: -1, tensor: "b", msg: []string{"data bytes [8, 12) before its data_offsets [12, 20) belong to no tensor (a hole)"}},
	{name: "hole at the start", file: build(`{"b":{"dtype":"U8","shape":[2],"data_offsets":[2,4]}}`, make([]byte, 4)),
		off: -1, tensor: "b", msg: []string{"data bytes [0, 2) before its data_offsets [2, 4)"}},
	{name: "data after the last tensor", file: build(f32w, make([]byte, 19)), off: -1, tensor: "w", msg: []string{"3 data bytes after its data_offsets [0, 16) belong to no tensor"}},
	{name: "HF polyglot", file: build(`{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}`, append(make([]byte, 16), "extra_bogus_data_for_polyglot_file"...)), off: -1, tensor: "test", msg: []string{"34 data bytes after"}},
	{name: "data and no tensor", file: build(`{}`, []byte{1, 2, 3, 4}), off: 10, msg: []string{"the header holds no tensor but 4 data bytes follow it"}},
	{name: "past the end", file: build(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, make([]byte, 8)), at: "[4,12]", tensor: "w", msg: []string{"data_offsets [4, 12) run past the end of the data (8 bytes)"}, is: ErrTruncated},
	{name: "begin after end", file: build(`{"w":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}`, make([]byte, 8)), at: "[8,0]", tensor: "w", msg: []string{"data_offsets [8, 0): begin is after end"}},
	{name: "negative offset", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[-1,3]}}`, make([]byte, 4)), at: "-1", tensor: "w", msg: []string{"data_offsets: -1 is negative"}},
	{name: "negative zero", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[-0,4]}}`, make([]byte, 4)), at: "-0", tensor: "w", msg: []string{"data_offsets: -0 is negative"}},
	{name: "float offset", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4.0]}}`, make([]byte, 4)), at: "4.0", tensor: "w", msg: []string{"data_offsets: 4.0 is not an integer"}},
	{name: "exponent offset", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4e0]}}`, make([]byte, 4)), at: "4e0", tensor: "w", msg: []string{"data_offsets: 4e0 is not an integer"}},
	{name: "string offset", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":["0",4]}}`, make([]byte, 4)), at: `"0"`, tensor: "w", msg: []string{"expected a number, found a string"}},
	{name: "offsets not an array", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":{"b":0}}}`, make([]byte, 4)), at: `{"b"`, tensor: "w", msg: []string{"data_offsets must be an array of integers, found an object"}},
	{name: "three offsets", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4,8]}}`, make([]byte, 4)), at: "8]", tensor: "w", msg: []string{"data_offsets has more than 2 entries"}},
	{name: "one offset", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[4]}}`, make([]byte, 4)), at: "[4]}", tensor: "w", msg: []string{"data_offsets must be [begin, end], found 1 numbers"}},
	{name: "huge offset", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[0,9223372036854775808]}}`, make([]byte, 4)), at: "9223372036854775808", tensor: "w", msg: []string{"data_offsets: 9223372036854775808 is too large"}},
	{name: "leading zero", file: build(`{"w":{"dtype":"U8","shape":[4],"data_offsets":[00,4]}}`, make([]byte, 4)), at: "00", tensor: "w", msg: []string{"invalid number: leading zero in 00"}},
	{name: "negative dimension", file: build(`{"w":{"dtype":"U8","shape":[-2,2],"data_offsets":[0,4]}}`, make([]byte, 4)), at: "-2", tensor: "w", msg: []string{"shape: -2 is negative"}},
	{name: "float dimension", file: build(`{"w":{"dtype":"U8","shape":[2.5],"data_offsets":[0,4]}}`, make([]byte, 4)), at: "2.5", tensor: "w", msg: []string{"shape: 2.5 is not an integer"}},
	{name: "shape product overflows int64", file: build(`{"w":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,4]}}`, make([]byte, 4)), at: "[0,4]", tensor: "w", msg: []string{"shape [4294967296, 4294967296] has more than 2^63-1 elements"}},
	{name: "overflow before a zero", file: build(`{"w":{"dtype":"U8","shape":[4294967296,4294967296,0],"data_offsets":[0,0]}}`, nil), at: "[0,0]", tensor: "w", msg: []string{"has more than 2^63-1 elements"}},
	{name: "HF validation overflow 1", file: build(`{"test":{"dtype":"I32","shape":[2,18446744073709551614],"data_offsets":[0,16]}}`, make([]byte, 16)), at: "18446744073709551614", tensor: "test", msg: []string{"shape: 18446744073709551614 is too large"}},
	{name: "HF validation overflow 2", file: build(`{"test":{"dtype":"I32","shape":[2,9223372036854775807],"data_offsets":[0,16]}}`, make([]byte, 16)), at: "[0,16]", tensor: "test", msg: []string{"shape [2, 9223372036854775807] has more than 2^63-1 elements"}},
	{name: "bit size overflows", file: build(`{"w":{"dtype":"F64","shape":[2305843009213693952],"data_offsets":[0,8]}}`, make([]byte, 8)), at: "[0,8]", tensor: "w", msg: []string{"shape [2305843009213693952] of F64 has 2305843009213693952 elements, whose size in bits overflows 64 bits"}},
	{name: "too many dimensions", file: build(`{"w":{"dtype":"U8","shape":[`+strings.Repeat("1,", 64)+`1],"data_offsets":[0,1]}}`, []byte{0}), at: "1],", tensor: "w", msg: []string{"shape has more than 64 entries"}},
	{name: "bytes not matching shape", file: build(`{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}}`, make([]byte, 12)), at: "[0,12]", tensor: "w", msg: []string{"data_offsets [0, 12) but shape [2, 2] of F32 needs 16 bytes"}},
	{name: "HF invalid info", file: build(`{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0, 4]}}`, make([]byte, 4)), at: "[0, 4]", tensor: "test", msg: []string{"data_offsets [0, 4) but shape [2, 2] of I32 needs 16 bytes"}},
	{name: "scalar with no bytes", file: build(`{"w":{"dtype":"F32","shape":[],"data_offsets":[0,0]}}`, nil), at: "[0,0]", tensor: "w", msg: []string{"shape [] of F32 needs 4 bytes"}},
	{name: "odd F4 count", file: build(`{"w":{"dtype":"F4","shape":[1,3],"data_offsets":[0,2]}}`, make([]byte, 2)), at: "[0,2]", tensor: "w", msg: []string{"shape [1, 3] of F4 has 3 elements of 4 bits, not a whole number of bytes"}},
	{name: "F6 count not a multiple of 4", file: build(`{"w":{"dtype":"F6_E2M3","shape":[6],"data_offsets":[0,5]}}`, make([]byte, 5)), at: "[0,5]", tensor: "w", msg: []string{"shape [6] of F6_E2M3 has 6 elements of 6 bits, not a whole number of bytes"}},
	{name: "F4 counted in bytes", file: build(`{"w":{"dtype":"F4","shape":[4],"data_offsets":[0,4]}}`, make([]byte, 4)), at: "[0,4]", tensor: "w", msg: []string{"shape [4] of F4 needs 2 bytes"}},
	{name: "unknown dtype", file: build(`{"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: `"F33"`, tensor: "w", msg: []string{`unknown dtype "F33"`}, is: ErrUnknownDType},
	{name: "lower-case dtype", file: build(`{"w":{"dtype":"f32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: `"f32"`, tensor: "w", msg: []string{`unknown dtype "f32"`}, is: ErrUnknownDType},
	{name: "torch dtype name", file: build(`{"w":{"dtype":"float32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: `"float32"`, tensor: "w", msg: []string{`unknown dtype "float32"`}, is: ErrUnknownDType},
	// F8_E4M3FNUZ and F8_E5M2FNUZ are read (issue 44); their torch names
	// are not safetensors dtypes.
	{name: "FNUZ torch name", file: build(`{"w":{"dtype":"float8_e4m3fnuz","shape":[1],"data_offsets":[0,1]}}`, make([]byte, 1)), at: `"float8_e4m3fnuz"`, tensor: "w", msg: []string{`unknown dtype "float8_e4m3fnuz"`}, is: ErrUnknownDType},
	{name: "FNUZ lower case", file: build(`{"w":{"dtype":"F8_E5M2fnuz","shape":[1],"data_offsets":[0,1]}}`, make([]byte, 1)), at: `"F8_E5M2fnuz"`, tensor: "w", msg: []string{`unknown dtype "F8_E5M2fnuz"`}, is: ErrUnknownDType},
	{name: "C64", file: build(`{"z":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}}`, make([]byte, 8)), at: `"C64"`, tensor: "z", msg: []string{`dtype "C64" is not supported`, "complex64"}, is: ErrUnsupported},
	{name: "dtype not a string", file: build(`{"w":{"dtype":5,"shape":[1],"data_offsets":[0,1]}}`, make([]byte, 1)), at: "5", tensor: "w", msg: []string{"dtype must be a string, found a number"}},
	{name: "missing data_offsets", file: build(`{"w":{"dtype":"F32","shape":[1]}}`, make([]byte, 4)), at: `{"dtype"`, tensor: "w", msg: []string{`the entry has no "data_offsets"`}},
	{name: "missing everything", file: build(`{"w":{}}`, nil), at: `{}`, tensor: "w", msg: []string{`the entry has no "dtype", "shape", "data_offsets"`}},
	{name: "missing shape", file: build(`{"w":{"dtype":"F32","data_offsets":[0,4]}}`, make([]byte, 4)), at: `{"dtype"`, tensor: "w", msg: []string{`the entry has no "shape"`}},
	{name: "entry not an object", file: build(`{"w":[1]}`, nil), at: "[1]", tensor: "w", msg: []string{"the entry must be an object of dtype, shape and data_offsets, found an array"}},
	{name: "entry a string", file: build(`{"w":"F32"}`, nil), at: `"F32"`, tensor: "w", msg: []string{"found a string"}},
	{name: "duplicate dtype", file: build(`{"w":{"dtype":"F32","dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: `"dtype":"F32","shape"`, tensor: "w", msg: []string{`duplicate key "dtype" in the entry`}},
	{name: "duplicate unknown member", file: build(`{"w":{"x":1,"x":2,"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: `"x":2`, tensor: "w", msg: []string{`duplicate key "x" in the entry`}},
	{name: "unknown member of bad JSON", file: build(`{"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4],"x":[1,}}}`, make([]byte, 4)), at: "}}}", tensor: "w", msg: []string{"expected a JSON value, found '}'"}},
	{name: "unknown member bare word", file: build(`{"w":{"x":nul,"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: "nul,", tensor: "w", msg: []string{"expected a JSON value, found 'n'"}},
	{name: "duplicate key nested in an unknown member", file: build(`{"w":{"x":{"a":1,"a":2},"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)), at: `"a":2`, tensor: "w", msg: []string{`duplicate key "a" in an object`}},
	{name: "deep nesting", file: build(`{"w":{"x":`+strings.Repeat("[", 200)+strings.Repeat("]", 200)+`,"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)),
		at: `"x":`, off: 4 + 126, tensor: "w", msg: []string{"JSON nested more than 128 levels deep"}},
	{name: "lone high surrogate", file: build(`{"\ud800x":{}}`, nil), at: `\ud800`, msg: []string{`lone surrogate \ud800 in a string`}},
	{name: "lone low surrogate", file: build(`{"\udc00":{}}`, nil), at: `\udc00`, msg: []string{`lone surrogate \udc00 in a string`}},
	{name: "high surrogate then a letter", file: build(`{"\ud800\u0041":{}}`, nil), at: `\ud800`, msg: []string{`lone surrogate \ud800`}},
	{name: "invalid escape", file: build(`{"a\x":{}}`, nil), at: `\x`, msg: []string{`invalid escape \x in a string`}},
	{name: "short unicode escape", file: build(`{"a\u12":{}}`, nil), at: `\u12`, msg: []string{`invalid \u escape`}},
	{name: "raw control character", file: build("{\"a\tb\":{}}", nil), at: "\t", msg: []string{"control character 0x09 in a string"}},
	{name: "unterminated string", file: build(`{"abc`, nil), at: `"abc`, msg: []string{"unterminated string"}},
	{name: "tensor named __metadata__-like", file: build(`{"__metadata__ ":{"dtype":"U8","shape":[1],"data_offsets":[0,2]}}`, make([]byte, 2)), at: "[0,2]", tensor: "__metadata__ ", msg: []string{"needs 1 bytes"}},
}

// offsetOf returns where case c expects its error.
func offsetOf(t *testing.T, file []byte, at string, off int64) int64 {
	t.Helper()
	if at == "" {
		return off
	}
	i := bytes.Index(file[8:], []byte(at))
	if i < 0 {
		t.Fatalf("%q is not in the header", at)
	}
	return 8 + int64(i) + off
}

func TestHostile(t *testing.T) {
	for _, c := range hostile {
		t.Run(c.name, func(t *testing.T) {
			f, err := Read(bytes.NewReader(c.file), int64(len(c.file)))
			if err == nil {
				t.Fatalf("accepted: %+v", f.Tensors)
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			off := offsetOf(t, c.file, c.at, c.off)
			if c.off < 0 {
				off = dataHole(c.file)
			}
			if fe.Offset != off {
				t.Errorf("offset %d, want %d (%v)", fe.Offset, off, err)
			}
			if fe.Tensor != c.tensor || fe.HasTensor != (c.tensor != "") {
				t.Errorf("tensor %q (named %v), want %q (%v)", fe.Tensor, fe.HasTensor, c.tensor, err)
			}
			msg := err.Error()
			want := []string{fmt.Sprintf("safetensors: offset %d: ", off)}
			if c.tensor != "" {
				want = append(want, fmt.Sprintf("tensor %q: ", c.tensor))
			}
			for _, s := range append(want, c.msg...) {
				if !strings.Contains(msg, s) {
					t.Errorf("error %q does not contain %q", msg, s)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
			for _, s := range []error{ErrTruncated, ErrUnsupported, ErrUnknownDType} {
				if s != c.is && errors.Is(err, s) {
					t.Errorf("error %v is %v", err, s)
				}
			}
			// The same bytes in memory and through ReadBytes give the same error.
			if _, err2 := ReadBytes(c.file); err2 == nil || err2.Error() != msg {
				t.Errorf("ReadBytes: %v, want %v", err2, msg)
			}
		})
	}
}

// dataHole returns the offset of the first data byte that the tensors of a
// hostile file (one whose header parses and whose tensors are consistent)
// leave uncovered, computed independently of the reader's own tiling: it
// marks each tensor's bytes.
func dataHole(file []byte) int64 {
	n := int64(binary.LittleEndian.Uint64(file))
	entries, _, err := parseHeader(file[8:8+n], 8)
	if err != nil {
		return -1
	}
	covered := make([]bool, int64(len(file))-8-n)
	for _, e := range entries {
		for i := e.Begin; i < e.End; i++ {
			covered[i] = true
		}
	}
	for i, c := range covered {
		if !c {
			return 8 + n + int64(i)
		}
	}
	return -1
}

// TestValidHeaders checks headers that must be accepted, and what Read makes
// of them.
func TestValidHeaders(t *testing.T) {
	for _, c := range []struct {
		name    string
		file    []byte
		tensors []TensorInfo
		meta    map[string]string
	}{
		{"empty", build(`{}`, nil), []TensorInfo{}, nil},
		{"space padded", build(`{}      `, nil), []TensorInfo{}, nil},
		{"metadata null", build(`{"__metadata__":null}`, nil), []TensorInfo{}, nil},
		{"empty metadata", build(`{"__metadata__":{}}`, nil), []TensorInfo{}, map[string]string{}},
		{"metadata", build(`{"__metadata__":{"format":"pt","a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00":"\u0000"}}`, nil), []TensorInfo{},
			map[string]string{"format": "pt", "a\"\\/\b\f\n\r\t\u00e9\U0001F600": "\x00"}},
		{"JSON white space inside", build("{ \"w\" :\t{\n\"dtype\" : \"U8\" ,\r\"shape\":[ 2 , 1 ] ,\"data_offsets\":[ 0 , 2 ] } }  ", []byte{1, 2}),
			[]TensorInfo{{Name: "w", DType: U8, Shape: []int64{2, 1}, Begin: 0, End: 2}}, nil},
		{"HF deserialization", []byte("<\x00\x00\x00\x00\x00\x00\x00{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"),
			[]TensorInfo{{Name: "test", DType: I32, Shape: []int64{2, 2}, Begin: 0, End: 16}}, nil},
		{"HF scalar", []byte("8\x00\x00\x00\x00\x00\x00\x00{\"test\":{\"dtype\":\"I32\",\"shape\":[],\"data_offsets\":[0,4]}}\x00\x00\x00\x00"),
			[]TensorInfo{{Name: "test", DType: I32, Shape: []int64{}, Begin: 0, End: 4}}, nil},
		{"HF zero-sized", []byte("<\x00\x00\x00\x00\x00\x00\x00{\"test\":{\"dtype\":\"I32\",\"shape\":[2,0],\"data_offsets\":[0, 0]}}"),
			[]TensorInfo{{Name: "test", DType: I32, Shape: []int64{2, 0}, Begin: 0, End: 0}}, nil},
		{"unknown members", build(`{"w":{"x":{"y":[1,-2.5e3,true,false,null,"s",{}]},"dtype":"F32","shape":[1],"data_offsets":[0,4],"z":[]}}`, make([]byte, 4)),
			[]TensorInfo{{Name: "w", DType: F32, Shape: []int64{1}, Begin: 0, End: 4}}, nil},
		{"nesting of 128", build(`{"w":{"x":`+strings.Repeat("[", 126)+strings.Repeat("]", 126)+`,"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`, make([]byte, 4)),
			[]TensorInfo{{Name: "w", DType: F32, Shape: []int64{1}, Begin: 0, End: 4}}, nil},
		{"data order, not header order", build(`{"b":{"dtype":"U8","shape":[1],"data_offsets":[2,3]},"z1":{"dtype":"U8","shape":[0],"data_offsets":[2,2]},"a":{"dtype":"U16","shape":[1],"data_offsets":[0,2]},"z0":{"dtype":"F4","shape":[0],"data_offsets":[2,2]},"e":{"dtype":"F4","shape":[7,0,9],"data_offsets":[3,3]}}`, make([]byte, 3)),
			[]TensorInfo{
				{Name: "a", DType: U16, Shape: []int64{1}, Begin: 0, End: 2},
				{Name: "z1", DType: U8, Shape: []int64{0}, Begin: 2, End: 2},
				{Name: "z0", DType: F4, Shape: []int64{0}, Begin: 2, End: 2},
				{Name: "b", DType: U8, Shape: []int64{1}, Begin: 2, End: 3},
				{Name: "e", DType: F4, Shape: []int64{7, 0, 9}, Begin: 3, End: 3},
			}, nil},
		{"zero dimension after huge ones", build(`{"w":{"dtype":"U8","shape":[4294967296,0,4294967296],"data_offsets":[0,0]}}`, nil),
			[]TensorInfo{{Name: "w", DType: U8, Shape: []int64{4294967296, 0, 4294967296}}}, nil},
		{"empty name", build(`{"":{"dtype":"BOOL","shape":[1],"data_offsets":[0,1]}}`, []byte{1}),
			[]TensorInfo{{Name: "", DType: BOOL, Shape: []int64{1}, Begin: 0, End: 1}}, nil},
		{"sub-byte", build(`{"a":{"dtype":"F4","shape":[2,3],"data_offsets":[0,3]},"b":{"dtype":"F6_E3M2","shape":[4],"data_offsets":[3,6]}}`, make([]byte, 6)),
			[]TensorInfo{{Name: "a", DType: F4, Shape: []int64{2, 3}, Begin: 0, End: 3}, {Name: "b", DType: F6_E3M2, Shape: []int64{4}, Begin: 3, End: 6}}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ReadBytes(c.file)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.Tensors, c.tensors) {
				t.Errorf("tensors %+v, want %+v", f.Tensors, c.tensors)
			}
			if !reflect.DeepEqual(f.Metadata, c.meta) {
				t.Errorf("metadata %#v, want %#v", f.Metadata, c.meta)
			}
			n := int64(binary.LittleEndian.Uint64(c.file))
			if f.HeaderLen != n || f.DataOffset() != 8+n || f.Size != int64(len(c.file)) {
				t.Errorf("HeaderLen %d DataOffset %d Size %d", f.HeaderLen, f.DataOffset(), f.Size)
			}
			for i := range f.Tensors {
				ti, ok := f.Lookup(f.Tensors[i].Name)
				if !ok || ti != &f.Tensors[i] {
					t.Errorf("Lookup(%q) = %p, %v", f.Tensors[i].Name, ti, ok)
				}
			}
			if _, ok := f.Lookup("nope"); ok {
				t.Error("Lookup of a missing name succeeded")
			}
		})
	}
}

func TestParseDType(t *testing.T) {
	for _, d := range DTypes {
		got, err := ParseDType(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDType(%q) = %v, %v", d.String(), got, err)
		}
	}
	for s, want := range map[string]error{"C64": ErrUnsupported, "F8_E4M3FN_UZ": ErrUnknownDType, "": ErrUnknownDType, "F8_E4M3FN": ErrUnknownDType, "bf16": ErrUnknownDType} {
		if _, err := ParseDType(s); !errors.Is(err, want) {
			t.Errorf("ParseDType(%q): %v, want %v", s, err, want)
		}
	}
	for d, k := range map[DType]cltype.Kind{F8_E4M3FNUZ: cltype.E4M3FNUZ, F8_E5M2FNUZ: cltype.E5M2FNUZ} {
		if got, err := ParseDType(d.String()); err != nil || got != d || d.Kind() != k || d.Bits() != 8 || !d.IsFloat() {
			t.Errorf("%s: ParseDType %v, %v; kind %v", d, got, err, d.Kind())
		}
		if got, ok := DTypeOf(k); !ok || got != d {
			t.Errorf("DTypeOf(%v) = %v, %v", k, got, ok)
		}
	}
	if DType(0).String() != "DType(0)" || DType(0).Bits() != 0 || DType(0).IsFloat() || DType(200).String() != "DType(200)" {
		t.Error("invalid DType")
	}
}

func TestDTypeKinds(t *testing.T) {
	want := map[DType]cltype.Kind{
		U8: cltype.Uchar, I8: cltype.Char, U16: cltype.Ushort, I16: cltype.Short, U32: cltype.Uint, I32: cltype.Int,
		U64: cltype.Ulong, I64: cltype.Long, F16: cltype.Half, BF16: cltype.BFloat16, F32: cltype.Float, F64: cltype.Double,
		F8_E4M3: cltype.E4M3, F8_E5M2: cltype.E5M2, F8_E4M3FNUZ: cltype.E4M3FNUZ, F8_E5M2FNUZ: cltype.E5M2FNUZ,
	}
	bits := map[DType]int{BOOL: 8, F4: 4, F6_E2M3: 6, F6_E3M2: 6, F8_E8M0: 8}
	ranks := map[int]bool{}
	for _, d := range DTypes {
		k, ok := want[d]
		if d.Kind() != k || !ok && d.Kind() != cltype.Invalid {
			t.Errorf("%s.Kind() = %s", d, d.Kind())
		}
		if ok {
			if back, ok := DTypeOf(k); !ok || back != d {
				t.Errorf("DTypeOf(%s) = %s, %v", k, back, ok)
			}
			if d.Bits() != k.Bits() || d.IsFloat() != k.IsFloating() {
				t.Errorf("%s: bits %d float %v", d, d.Bits(), d.IsFloat())
			}
		} else if d.Bits() != bits[d] || d.IsFloat() != (d != BOOL) {
			t.Errorf("%s: bits %d float %v", d, d.Bits(), d.IsFloat())
		}
		if ranks[rankOf(d)] {
			t.Errorf("%s: rank %d twice", d, rankOf(d))
		}
		ranks[rankOf(d)] = true
	}
	for _, k := range []cltype.Kind{cltype.Invalid, cltype.Bool, cltype.Kind(200)} {
		if d, ok := DTypeOf(k); ok {
			t.Errorf("DTypeOf(%s) = %s", k, d)
		}
	}
}
