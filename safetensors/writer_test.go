package safetensors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/fp8"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.safetensors")

// f32le returns the little-endian bytes of xs.
func f32le(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// writeAll writes a file of tensors (data in the same order) with NewWriter.
func writeAll(t testing.TB, tensors []TensorInfo, data [][]byte, meta map[string]string) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := NewWriter(&out, tensors, meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range data {
		if _, err := w.Write(d); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestWriterMatchesSafetensors checks NewWriter against the bytes that
// safetensors' own tests (safetensors/src/tensor.rs) expect of its
// serializer.
func TestWriterMatchesSafetensors(t *testing.T) {
	for _, c := range []struct {
		name    string
		tensors []TensorInfo
		data    []byte
		meta    map[string]string
		want    []byte
	}{
		{"test_serialization", []TensorInfo{{Name: "attn.0", DType: F32, Shape: []int64{1, 2, 3}}}, f32le(0, 1, 2, 3, 4, 5), nil, []byte{
			64, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 46, 48, 34, 58, 123, 34, 100,
			116, 121, 112, 101, 34, 58, 34, 70, 51, 50, 34, 44, 34, 115, 104, 97, 112, 101, 34,
			58, 91, 49, 44, 50, 44, 51, 93, 44, 34, 100, 97, 116, 97, 95, 111, 102, 102, 115,
			101, 116, 115, 34, 58, 91, 48, 44, 50, 52, 93, 125, 125, 0, 0, 0, 0, 0, 0, 128, 63,
			0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64, 0, 0, 160, 64,
		}},
		{"test_serialization_fp4", []TensorInfo{{Name: "attn.0", DType: F4, Shape: []int64{1, 2}}}, []byte{0}, nil, []byte{
			64, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 46, 48, 34, 58, 123, 34, 100,
			116, 121, 112, 101, 34, 58, 34, 70, 52, 34, 44, 34, 115, 104, 97, 112, 101, 34, 58,
			91, 49, 44, 50, 93, 44, 34, 100, 97, 116, 97, 95, 111, 102, 102, 115, 101, 116,
			115, 34, 58, 91, 48, 44, 49, 93, 125, 125, 32, 32, 32, 32, 0,
		}},
		{"test_empty", nil, nil, nil, []byte{8, 0, 0, 0, 0, 0, 0, 0, 123, 125, 32, 32, 32, 32, 32, 32}},
		{"test_empty metadata", nil, nil, map[string]string{"framework": "pt"}, []byte{
			40, 0, 0, 0, 0, 0, 0, 0, 123, 34, 95, 95, 109, 101, 116, 97, 100, 97, 116, 97, 95,
			95, 34, 58, 123, 34, 102, 114, 97, 109, 101, 119, 111, 114, 107, 34, 58, 34, 112,
			116, 34, 125, 125, 32, 32, 32, 32, 32,
		}},
		{"test_serialization_forced_alignement", []TensorInfo{{Name: "attn0", DType: F32, Shape: []int64{1, 1, 2, 3}}}, f32le(0, 1, 2, 3, 4, 5), nil, []byte{
			72, 0, 0, 0, 0, 0, 0, 0, 123, 34, 97, 116, 116, 110, 48, 34, 58, 123, 34, 100, 116,
			121, 112, 101, 34, 58, 34, 70, 51, 50, 34, 44, 34, 115, 104, 97, 112, 101, 34, 58,
			91, 49, 44, 49, 44, 50, 44, 51, 93, 44, 34, 100, 97, 116, 97, 95, 111, 102, 102,
			115, 101, 116, 115, 34, 58, 91, 48, 44, 50, 52, 93, 125, 125, 32, 32, 32, 32, 32,
			32, 32, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64, 0, 0,
			160, 64,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := writeAll(t, c.tensors, [][]byte{c.data}, c.meta)
			if !bytes.Equal(got, c.want) {
				t.Errorf("wrote\n%q\nwant\n%q", got, c.want)
			}
			f, err := ReadBytes(got)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f.Metadata, c.meta) || len(f.Tensors) != len(c.tensors) {
				t.Errorf("read back %+v %v", f.Tensors, f.Metadata)
			}
		})
	}
}

// TestWriterSortTensors checks SortTensors against the order safetensors'
// prepare gives: decreasing dtype position in its enum, then names.
func TestWriterSortTensors(t *testing.T) {
	var ts []TensorInfo
	for _, n := range []string{"b", "a"} {
		for _, d := range DTypes {
			ts = append(ts, TensorInfo{Name: n + d.String(), DType: d})
		}
	}
	SortTensors(ts)
	var got []string
	for _, x := range ts {
		got = append(got, x.Name)
	}
	want := "aU64 bU64 aI64 bI64 aF64 bF64 aF32 bF32 aU32 bU32 aI32 bI32 aBF16 bBF16 aF16 bF16 aU16 bU16 aI16 bI16 " +
		"aF8_E5M2FNUZ bF8_E5M2FNUZ aF8_E4M3FNUZ bF8_E4M3FNUZ aF8_E8M0 bF8_E8M0 aF8_E4M3 bF8_E4M3 aF8_E5M2 bF8_E5M2 aI8 bI8 aU8 bU8 aF6_E3M2 bF6_E3M2 aF6_E2M3 bF6_E2M3 aF4 bF4 aBOOL bBOOL"
	if strings.Join(got, " ") != want {
		t.Errorf("order\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

func TestWriterErrors(t *testing.T) {
	f32 := func(name string, shape ...int64) TensorInfo { return TensorInfo{Name: name, DType: F32, Shape: shape} }
	for _, c := range []struct {
		name    string
		tensors []TensorInfo
		meta    map[string]string
		msg     string
	}{
		{"duplicate", []TensorInfo{f32("a", 1), f32("a", 2)}, nil, `tensor "a": duplicate tensor name`},
		{"__metadata__", []TensorInfo{f32("__metadata__")}, nil, "__metadata__ cannot name a tensor"},
		{"bad UTF-8 name", []TensorInfo{f32("a\xff")}, nil, "not valid UTF-8"},
		{"bad UTF-8 metadata", nil, map[string]string{"k": "\xc3"}, `__metadata__ entry "k": not valid UTF-8`},
		{"no dtype", []TensorInfo{{Name: "x"}}, nil, `tensor "x": invalid dtype DType(0)`},
		{"negative", []TensorInfo{f32("x", 2, -1)}, nil, "shape [2, -1] has a negative dimension"},
		{"odd F4", []TensorInfo{{Name: "x", DType: F4, Shape: []int64{3}}}, nil, "not a whole number of bytes"},
		{"overflow", []TensorInfo{f32("x", 1<<62)}, nil, "overflows 64 bits"},
		{"total overflow", bigTensors(8), nil, `tensor "t7": the data of the tensors exceeds 2^63-1 bytes`},
		{"too many dims", []TensorInfo{f32("x", make([]int64, 65)...)}, nil, "shape has 65 dimensions, more than 64"},
		{"header too large", nil, map[string]string{"k": strings.Repeat("a", MaxHeaderLen)}, "more than the limit of 100000000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := NewWriter(&out, c.tensors, c.meta)
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want a *FormatError with %q", err, c.msg)
			}
			if out.Len() != 0 {
				t.Errorf("wrote %d bytes", out.Len())
			}
		})
	}
}

func TestWriterData(t *testing.T) {
	ts := []TensorInfo{
		{Name: "a", DType: U16, Shape: []int64{2}, Begin: 99, End: 7},
		{Name: "e", DType: F32, Shape: []int64{0, 3}},
		{Name: "b", DType: U8, Shape: []int64{3}},
	}
	var out bytes.Buffer
	w, err := NewWriter(&out, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []TensorInfo{
		{Name: "a", DType: U16, Shape: []int64{2}, Begin: 0, End: 4},
		{Name: "e", DType: F32, Shape: []int64{0, 3}, Begin: 4, End: 4},
		{Name: "b", DType: U8, Shape: []int64{3}, Begin: 4, End: 7},
	}
	if got := w.Tensors(); !reflect.DeepEqual(got, want) {
		t.Errorf("Tensors %+v, want %+v", got, want)
	}
	ts[0].Shape[0] = 5 // NewWriter copied the shapes
	if got := w.Tensors(); got[0].Shape[0] != 2 {
		t.Errorf("NewWriter kept the caller's shape")
	}
	ts[0].Shape[0] = 2
	if n, err := w.Write([]byte{1, 2, 3, 4, 5}); n != 5 || err != nil {
		t.Fatal(n, err)
	}
	err = w.Close()
	var fe *FormatError
	if !errors.As(err, &fe) || !errors.Is(err, ErrTruncated) || fe.Tensor != "b" || fe.Offset != w.start+5 ||
		!strings.Contains(err.Error(), "closed after 5 of the 7 data bytes") {
		t.Errorf("Close: %v", err)
	}
	if _, err := w.Write([]byte{6}); err == nil {
		t.Error("Write after Close succeeded")
	}

	out.Reset()
	w, _ = NewWriter(&out, ts[:1], nil)
	n, err := w.Write([]byte{1, 2, 3, 4, 5, 6})
	if n != 4 || !errors.As(err, &fe) || fe.Tensor != "a" || !strings.Contains(err.Error(), "Write of 6 bytes goes 2 bytes past the end of the data the header promised (4 bytes)") {
		t.Errorf("Write past the end: %d, %v", n, err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close after the full data: %v", err)
	}
	if !bytes.HasSuffix(out.Bytes(), []byte{1, 2, 3, 4}) {
		t.Errorf("output ends %q", out.Bytes()[out.Len()-6:])
	}

	// A failing writer: the error is wrapped, positioned and sticky.
	boom := errors.New("disk full")
	_, err = NewWriter(failWriter{boom}, ts, nil)
	if !errors.Is(err, boom) || !errors.As(err, &fe) {
		t.Errorf("NewWriter on a failing writer: %v", err)
	}
	lw := &limitWriter{n: 1 << 20, err: boom}
	w, err = NewWriter(lw, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	lw.n = 2
	if _, err := w.Write([]byte{1, 2, 3, 4, 5}); !errors.Is(err, boom) || !errors.As(err, &fe) || fe.Offset != w.start+2 || fe.Tensor != "a" {
		t.Errorf("Write on a failing writer: %v", err)
	}
	if _, err := w.Write([]byte{1}); !errors.Is(err, boom) {
		t.Errorf("the failure is not sticky: %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Errorf("Close after a failure: %v", err)
	}
}

// bigTensors returns n tensors of 2^60 bytes each.
func bigTensors(n int) []TensorInfo {
	var ts []TensorInfo
	for i := range n {
		ts = append(ts, TensorInfo{Name: "t" + string(rune('0'+i)), DType: U8, Shape: []int64{1 << 60}})
	}
	return ts
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

type limitWriter struct {
	n   int
	err error
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, w.err
}

// TestWriterStrings writes names and metadata of every troublesome character
// and checks that they are escaped as serde_json escapes them and read back.
func TestWriterStrings(t *testing.T) {
	var all strings.Builder
	for c := rune(0); c < 0x80; c++ {
		all.WriteRune(c)
	}
	all.WriteString("é€😀\u2028\ufffd")
	names := []string{all.String(), "", `"`, `\`, "/", "</script>", "\x7f"}
	var ts []TensorInfo
	var data [][]byte
	for _, n := range names {
		ts = append(ts, TensorInfo{Name: n, DType: BOOL, Shape: []int64{1}})
		data = append(data, []byte{1})
	}
	meta := map[string]string{all.String(): all.String(), "": ""}
	file := writeAll(t, ts, data, meta)
	header := string(file[8 : 8+binary.LittleEndian.Uint64(file)])
	for _, s := range []string{`\u0000\u0001`, `\u001f !\"#`, `\b\t\n\u000b\f\r\u000e`, "./0", `[\\]`, "\x7f", "é€😀\u2028\ufffd", `"</script>"`} {
		if !strings.Contains(header, s) {
			t.Errorf("header does not contain %q:\n%q", s, header)
		}
	}
	if strings.Contains(header, `\/`) || strings.Contains(header, `\u007f`) || strings.Contains(header, `\u003c`) {
		t.Errorf("header escapes more than serde_json:\n%q", header)
	}
	if (8+len(header))%8 != 0 || !utf8.ValidString(header) {
		t.Errorf("header of %d bytes", len(header))
	}
	f, err := ReadBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Metadata, meta) {
		t.Errorf("metadata %q", f.Metadata)
	}
	for i, n := range names {
		if f.Tensors[i].Name != n {
			t.Errorf("tensor %d: %q, want %q", i, f.Tensors[i].Name, n)
		}
	}
}

func TestEncode(t *testing.T) {
	info, b, err := Encode("w", []int64{2}, []bfloat16.BFloat16{0x3f80, 0xc000})
	if err != nil || info.DType != BF16 || info.End != 4 || !bytes.Equal(b, []byte{0x80, 0x3f, 0x00, 0xc0}) {
		t.Errorf("Encode: %+v %x %v", info, b, err)
	}
	info, b, err = Encode("s", nil, []fp8.E4M3{0x7e})
	if err != nil || info.DType != F8_E4M3 || len(info.Shape) != 0 || !bytes.Equal(b, []byte{0x7e}) {
		t.Errorf("Encode scalar: %+v %x %v", info, b, err)
	}
	if _, _, err := Encode("w", []int64{3}, []int32{1, 2}); err == nil || !strings.Contains(err.Error(), "shape [3] has 3 elements but the data 2") {
		t.Errorf("Encode of the wrong count: %v", err)
	}
}

// goldenTensors is the content of testdata/golden.safetensors: one tensor of
// every dtype, with metadata.
func goldenTensors() ([]TensorInfo, [][]byte, map[string]string) {
	var ts []TensorInfo
	var data [][]byte
	for _, d := range DTypes {
		n := 8
		ts = append(ts, TensorInfo{Name: "t_" + d.String(), DType: d, Shape: []int64{2, int64(n / 2)}})
		b := make([]byte, n*d.Bits()/8)
		for i := range b {
			b[i] = byte(i*37 + int(d))
		}
		if d == BOOL {
			for i := range b {
				b[i] &= 1
			}
		}
		data = append(data, b)
	}
	ts = append(ts, TensorInfo{Name: "scalar", DType: F64, Shape: []int64{}}, TensorInfo{Name: "empty", DType: F32, Shape: []int64{3, 0}})
	data = append(data, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, nil)
	return ts, data, map[string]string{"format": "pt", "producer": "clconv safetensors test"}
}

// TestGolden compares the writer's output with the committed
// testdata/golden.safetensors (go test -update rewrites it), which also
// seeds FuzzRead.
func TestGolden(t *testing.T) {
	ts, data, meta := goldenTensors()
	got := writeAll(t, ts, data, meta)
	path := filepath.Join("testdata", "golden.safetensors")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the writer's output differs from %s (go test -update rewrites it)", path)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wantTs []TensorInfo
	pos := int64(0)
	for i, x := range ts {
		x.Begin, x.End = pos, pos+int64(len(data[i]))
		pos = x.End
		wantTs = append(wantTs, x)
	}
	if !reflect.DeepEqual(f.Tensors, wantTs) || !reflect.DeepEqual(f.Metadata, meta) {
		t.Errorf("read back %+v %v", f.Tensors, f.Metadata)
	}
}
