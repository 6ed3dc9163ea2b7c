package gguf

import (
	"bytes"
	"errors"
	"github.com/clconv/clconv/ggml"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// allValues has every value type, as scalars and arrays, and nested arrays.
func allValues(nested bool) []KV {
	kv := []KV{
		{"general.architecture", NewString("llama")},
		{"v.u8", NewUint8(255)},
		{"v.i8", NewInt8(-128)},
		{"v.u16", NewUint16(65535)},
		{"v.i16", NewInt16(-32768)},
		{"v.u32", NewUint32(math.MaxUint32)},
		{"v.i32", NewInt32(math.MinInt32)},
		{"v.f32", NewFloat32(float32(math.Inf(-1)))},
		{"v.f32.nan", NewUint32(0)}, // replaced below by a NaN with a payload
		{"v.bool", NewBool(false)},
		{"v.str", NewString("h\x00llo, \u4e16\u754c")},
		{"v.u64", NewUint64(math.MaxUint64)},
		{"v.i64", NewInt64(math.MinInt64)},
		{"v.f64", NewFloat64(math.SmallestNonzeroFloat64)},
		{"a.u8", NewArray([]uint8{0, 1, 255})},
		{"a.i8", NewArray([]int8{-1, 2})},
		{"a.u16", NewArray([]uint16{1, 65535})},
		{"a.i16", NewArray([]int16{-2, 3})},
		{"a.u32", NewArray([]uint32{7})},
		{"a.i32", NewArray([]int32{-7, 8, 9})},
		{"a.f32", NewArray([]float32{0.5, float32(math.Copysign(0, -1))})},
		{"a.bool", NewArray([]bool{true, false, true})},
		{"a.str", NewArray([]string{"a", "", "ccc"})},
		{"a.u64", NewArray([]uint64{1 << 63})},
		{"a.i64", NewArray([]int64{-1})},
		{"a.f64", NewArray([]float64{math.Pi, math.NaN()})},
		{"a.empty", NewArray([]float32{})},
		{"a.str.empty", NewArray([]string{})},
	}
	kv[8].Value = fixedValue(ValueFloat32, 0x7fa00001) // a signaling NaN: bits kept
	if nested {
		kv = append(kv, KV{"a.nested", NewArrayOfArrays([]Value{
			NewArray([]int32{1, 2}),
			NewArrayOfArrays([]Value{NewArray([]string{"x"}), NewArray([]bool{})}),
			NewArray([]string{}),
		})})
	}
	return kv
}

// someTensors has tensors of several types, with their data.
func someTensors() ([]TensorInfo, [][]byte) {
	ts := []TensorInfo{
		{Name: "f32", Type: ggml.F32, Dims: []uint64{3, 5}},
		{Name: "q8_0", Type: ggml.Q8_0, Dims: []uint64{64, 2}},
		{Name: "q4_K", Type: ggml.Q4_K, Dims: []uint64{256, 1}}, // trailing 1 kept
		{Name: "nvfp4", Type: ggml.NVFP4, Dims: []uint64{64, 1, 1, 2}},
		{Name: "i8", Type: ggml.I8, Dims: []uint64{1}},
		{Name: "empty", Type: ggml.F16, Dims: []uint64{0, 4}},
		{Name: "scalar", Type: ggml.F64},
		{Name: "iq2_xxs", Type: ggml.IQ2_XXS, Dims: []uint64{256}},
	}
	data := make([][]byte, len(ts))
	for i := range ts {
		data[i] = counter(i*7, int(ts[i].Bytes()))
	}
	return ts, data
}

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name    string
		align   uint32
		version uint32
		nested  bool
	}{
		{"default", 0, 0, false},
		{"align1", 1, 3, false},
		{"align64", 64, 3, false},
		{"align4096", 4096, 3, false},
		{"v2", 0, 2, false},
		{"nested", 0, 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts, data := someTensors()
			f := &File{Version: c.version, KV: allValues(c.nested), Tensors: ts}
			if c.align != 0 {
				f.SetAlignment(c.align)
			}
			b := writeAll(t, f, data)
			g, err := readBytes(b)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			align := 32
			if c.align != 0 {
				align = int(c.align)
			}
			if g.Alignment != align || g.DataOffset%int64(align) != 0 || int64(len(b))%int64(align) != 0 {
				t.Errorf("alignment %d, data at %d, %d bytes", g.Alignment, g.DataOffset, len(b))
			}
			wantV := c.version
			if wantV == 0 {
				wantV = 3
			}
			if g.Version != wantV || len(g.KV) != len(f.KV) || len(g.Tensors) != len(ts) {
				t.Fatalf("v%d, %d kv, %d tensors", g.Version, len(g.KV), len(g.Tensors))
			}
			for i := range f.KV {
				if g.KV[i].Key != f.KV[i].Key || !g.KV[i].Value.Equal(f.KV[i].Value) {
					t.Errorf("kv %d: %q %v, want %q %v", i, g.KV[i].Key, g.KV[i].Value, f.KV[i].Key, f.KV[i].Value)
				}
			}
			for i := range ts {
				sec := g.Section(bytes.NewReader(b), i)
				got, _ := io.ReadAll(sec)
				if !bytes.Equal(got, data[i]) || g.Tensors[i].Offset%uint64(align) != 0 {
					t.Errorf("tensor %s: offset %d, data differs", ts[i].Name, g.Tensors[i].Offset)
				}
			}
			// Rewriting what was read gives the same bytes.
			again := writeAll(t, g, data)
			if !bytes.Equal(again, b) {
				t.Error("rewrite is not byte-identical")
			}
		})
	}
}

func TestCanonicalDims(t *testing.T) {
	for _, c := range [][2][]uint64{
		{{256, 1}, {256}}, {{1, 1, 1}, {1}}, {nil, {1}}, {{2, 1, 1, 3}, {2, 1, 1, 3}}, {{4, 5}, {4, 5}},
	} {
		if got := CanonicalDims(c[0]); len(got) != len(c[1]) || (len(got) > 0 && got[len(got)-1] != c[1][len(c[1])-1]) {
			t.Errorf("CanonicalDims(%v) = %v", c[0], got)
		}
	}
}

func TestValueAccessors(t *testing.T) {
	for _, c := range []struct {
		v     Value
		u     uint64
		uok   bool
		i     int64
		iok   bool
		f     float64
		fok   bool
		text  string
		array bool
	}{
		{NewUint8(7), 7, true, 7, true, 0, false, "u8 7", false},
		{NewInt8(-3), 0, false, -3, true, 0, false, "i8 -3", false},
		{NewInt32(5), 5, true, 5, true, 0, false, "i32 5", false},
		{NewUint64(math.MaxUint64), math.MaxUint64, true, 0, false, 0, false, "u64 18446744073709551615", false},
		{NewFloat32(0.1), 0, false, 0, false, float64(float32(0.1)), true, "f32 0.1", false},
		{NewFloat64(-2), 0, false, 0, false, -2, true, "f64 -2", false},
		{NewBool(true), 0, false, 0, false, 0, false, "bool true", false},
		{NewArray([]int16{1, -1}), 0, false, 0, false, 0, false, "[2]i16{1, -1}", true},
		{NewArray(make([]uint8, 10)), 0, false, 0, false, 0, false, "[10]u8{0, 0, 0, 0, 0, 0, 0, 0, ...}", true},
		{NewArray([]string{"a"}), 0, false, 0, false, 0, false, `[1]str{"a"}`, true},
		{NewArrayOfArrays([]Value{NewArray([]bool{true})}), 0, false, 0, false, 0, false, "[1]arr{[1]bool{true}}", true},
	} {
		u, uok := c.v.Uint()
		i, iok := c.v.Int()
		f, fok := c.v.Float()
		_, isArr := c.v.Array()
		if u != c.u || uok != c.uok || i != c.i || iok != c.iok || f != c.f || fok != c.fok || c.v.String() != c.text || isArr != c.array {
			t.Errorf("%v: Uint %d %v Int %d %v Float %g %v String %q Array %v", c.v, u, uok, i, iok, f, fok, c.v.String(), isArr)
		}
	}
	if s, ok := NewString("x").Str(); !ok || s != "x" || NewString("x").String() != "x" {
		t.Error("Str")
	}
	if b, ok := NewBool(true).Bool(); !b || !ok {
		t.Error("Bool")
	}
	if _, ok := NewString("x").Bits(); ok {
		t.Error("Bits of a string")
	}
	var zero Value
	if zero.Type() != ValueUint8 || !zero.Equal(NewUint8(0)) {
		t.Error("zero Value is not u8 0")
	}
	defer func() {
		if recover() == nil {
			t.Error("NewArrayOfArrays of a scalar did not panic")
		}
	}()
	NewArrayOfArrays([]Value{NewUint8(1)})
}

func TestWriterErrors(t *testing.T) {
	ts, _ := someTensors()
	base := func() *File {
		return &File{KV: []KV{{"a", NewUint8(1)}}, Tensors: append([]TensorInfo(nil), ts[:2]...)}
	}
	for _, c := range []struct {
		name   string
		mutate func(f *File)
		is     error
		msg    string
	}{
		{"unknown type", func(f *File) { f.Tensors[0].Type = 4 }, ErrType, "type id 4"},
		{"partial block", func(f *File) { f.Tensors[1].Dims[0] = 48 }, ErrBadValue, "rows"},
		{"dup tensor", func(f *File) { f.Tensors[1].Name = "f32" }, ErrBadValue, "duplicate tensor name"},
		{"long name", func(f *File) { f.Tensors[0].Name = strings.Repeat("n", 64) }, ErrBadValue, "at most 63"},
		{"5 dims", func(f *File) { f.Tensors[0].Dims = []uint64{1, 1, 1, 1, 1} }, ErrBadValue, "5 dimensions"},
		{"dup key", func(f *File) { f.KV = append(f.KV, KV{"a", NewUint8(2)}) }, ErrBadValue, "duplicate key"},
		{"empty key", func(f *File) { f.KV[0].Key = "" }, ErrBadValue, "empty key"},
		{"alignment type", func(f *File) { f.KV = append(f.KV, KV{AlignmentKey, NewUint64(32)}) }, ErrBadValue, "must be of type u32"},
		{"alignment 48", func(f *File) { f.KV = append(f.KV, KV{AlignmentKey, NewUint32(48)}) }, ErrBadValue, "power of two"},
		{"Alignment mismatch", func(f *File) { f.Alignment = 64 }, ErrBadValue, "SetAlignment"},
		{"version 1", func(f *File) { f.Version = 1 }, ErrVersion, "version 1"},
	} {
		f := base()
		f.Tensors[1].Dims = []uint64{64, 2}
		c.mutate(f)
		_, err := NewWriter(io.Discard, f)
		if !errors.Is(err, c.is) || !strings.Contains(fmtErr(err), c.msg) {
			t.Errorf("%s: err = %v", c.name, err)
		}
	}

	// Streaming misuse.
	f := base()
	f.Tensors[1].Dims = []uint64{64, 2}
	w, err := NewWriter(io.Discard, f)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteTensor("q8_0", nil); !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), `in place of tensor 0, "f32"`) {
		t.Errorf("wrong order: %v", err)
	}
	w, _ = NewWriter(io.Discard, f)
	if err := w.WriteTensor("f32", make([]byte, 59)); !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "59 bytes of data") {
		t.Errorf("short data: %v", err)
	}
	w, _ = NewWriter(io.Discard, f)
	if err := w.WriteTensorFrom("f32", bytes.NewReader(make([]byte, 10))); !errors.Is(err, ErrTruncated) {
		t.Errorf("short reader: %v", err)
	}
	if err := w.Close(); err == nil {
		t.Error("Close after an error succeeded")
	}
	w, _ = NewWriter(io.Discard, f)
	_ = w.WriteTensor("f32", make([]byte, 60))
	if err := w.Close(); !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "1 of 2 tensors") {
		t.Errorf("early Close: %v", err)
	}
	if err := w.WriteTensor("q8_0", make([]byte, 136)); err == nil {
		t.Error("write after a failed Close succeeded")
	}
	w, _ = NewWriter(io.Discard, f)
	_ = w.WriteTensor("f32", make([]byte, 60))
	_ = w.WriteTensor("q8_0", make([]byte, 136))
	if err := w.WriteTensor("x", nil); !errors.Is(err, ErrLayout) {
		t.Errorf("extra tensor: %v", err)
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gguf")
	ts, data := someTensors()
	f := &File{KV: allValues(false), Tensors: ts}
	src := func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil }
	if err := WriteFile(path, f, src, false); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := writeAll(t, f, data); !bytes.Equal(got, want) {
		t.Error("WriteFile and Write differ")
	}
	if err := WriteFile(path, f, src, false); err == nil {
		t.Error("WriteFile replaced a file without replace")
	}
	// A failing data source leaves no file and no temporary file behind.
	boom := errors.New("boom")
	bad := filepath.Join(dir, "bad.gguf")
	if err := WriteFile(bad, f, func(i int) (io.Reader, error) { return nil, boom }, false); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	if err := WriteFile(path, f, src, true); err != nil {
		t.Errorf("replace: %v", err)
	}
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, err := r.ReadTensor("q8_0"); err != nil || !bytes.Equal(b, data[1]) {
		t.Errorf("ReadTensor: %v", err)
	}
	if _, err := r.ReadTensor("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("ReadTensor(nope): %v", err)
	}
}

// An empty File is a 24-byte header padded to 32, as ggml writes it; Read
// puts its data at 24 (unpadded, as gguf_get_data_offset does with no
// tensors).
func TestEmptyFile(t *testing.T) {
	b := writeAll(t, &File{}, nil)
	want := (&fb{}).header(3, 0, 0).pad(32).b
	if !bytes.Equal(b, want) {
		t.Fatalf("% x", b)
	}
	f, err := readBytes(b)
	if err != nil || f.DataOffset != 24 || f.Alignment != 32 {
		t.Fatalf("%+v %v", f, err)
	}
	if f, err := readBytes(b[:24]); err != nil || f.DataOffset != 24 {
		t.Fatalf("unpadded: %v", err)
	}
}
