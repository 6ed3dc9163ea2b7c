package gguf

import (
	"bytes"
	"errors"
	"github.com/clconv/clconv/ggml"
	"io"
	"math"
	"os"
	"testing"
)

// testdata/ggml-written.gguf was written by ggml itself (gguf_write_to_file
// in llama.cpp's libggml-base.so, node-llama-cpp 3.22.1) through
// scripts/gguf-oracle/oracle.c's write command: every value type, arrays,
// and six tensors whose bytes count up from 0.
func TestGGMLWritten(t *testing.T) {
	want, err := os.ReadFile("testdata/ggml-written.gguf")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open("testdata/ggml-written.gguf")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Version != 3 || r.Alignment != 32 || r.DataOffset != 1088 || len(r.KV) != 20 || len(r.Tensors) != 6 {
		t.Fatalf("header: v%d align %d data %d, %d kv, %d tensors", r.Version, r.Alignment, r.DataOffset, len(r.KV), len(r.Tensors))
	}
	get := func(k string) Value {
		v, ok := r.Get(k)
		if !ok {
			t.Fatalf("no key %q", k)
		}
		return v
	}
	if s := get("general.architecture").String(); s != "llama" {
		t.Errorf("architecture %q", s)
	}
	checks := []struct {
		key  string
		typ  ValueType
		bits uint64
	}{
		{"test.u8", ValueUint8, 200},
		{"test.i8", ValueInt8, uint64(uint8(0x9c))},
		{"test.u16", ValueUint16, 60000},
		{"test.i16", ValueInt16, uint64(uint16(0x8ad0))},
		{"test.u32", ValueUint32, 4000000000},
		{"test.i32", ValueInt32, 0x88ca6c00},
		{"test.f32", ValueFloat32, uint64(math.Float32bits(0.1))},
		{"test.bool", ValueBool, 1},
		{"test.u64", ValueUint64, 18000000000000000000},
		{"test.i64", ValueInt64, 0x831993af1d7c0000},
		{"test.f64", ValueFloat64, math.Float64bits(-2.5e-300)},
	}
	for _, c := range checks {
		v := get(c.key)
		if b, ok := v.Bits(); v.Type() != c.typ || !ok || b != c.bits {
			t.Errorf("%s: %v (bits %#x), want %s %#x", c.key, v, b, c.typ, c.bits)
		}
	}
	if i, _ := get("test.i32").Int(); i != -2000000000 {
		t.Errorf("i32 %d", i)
	}
	if i, _ := get("test.i64").Int(); i != -9000000000000000000 {
		t.Errorf("i64 %d", i)
	}
	if toks, ok := get("tokenizer.ggml.tokens").Strings(); !ok || len(toks) != 4 || toks[3] != "\u2581hello" || toks[2] != "" {
		t.Errorf("tokens %q", toks)
	}
	if v := get("test.arr.i32"); v.Len() != 3 {
		t.Errorf("arr.i32 %v", v)
	} else if x, _ := v.Index(1).Int(); x != -2 {
		t.Errorf("arr.i32[1] = %d", x)
	}
	if v := get("test.arr.bool"); v.String() != "[3]bool{true, false, true}" {
		t.Errorf("arr.bool %v", v)
	}

	// Every tensor: ggml's offsets (gocheck dump and oracle dump agree on
	// them: testdata/oracle.txt), its bytes counting up.
	wantTensors := []struct {
		name   string
		typ    Type
		dims   []uint64
		offset uint64
		size   int64
	}{
		{"token_embd.weight", ggml.F32, []uint64{3, 5}, 0, 60},
		{"blk.0.attn_q.weight", ggml.Q8_0, []uint64{64, 2}, 64, 136},
		{"blk.0.ffn_down.weight", ggml.Q4_K, []uint64{256}, 224, 144}, // ggml wrote ne {256, 1} with n_dims 1
		{"blk.0.attn_norm.weight", ggml.F16, []uint64{7}, 384, 14},
		{"output.weight", ggml.MXFP4, []uint64{32, 2, 2}, 416, 68},
		{"rope_freqs", ggml.BF16, []uint64{2, 1, 1, 3}, 512, 12},
	}
	next := 0
	for i, w := range wantTensors {
		ti := &r.Tensors[i]
		if ti.Name != w.name || ti.Type != w.typ || ti.Offset != w.offset || ti.Bytes() != w.size || len(ti.Dims) != len(w.dims) {
			t.Errorf("tensor %d: %+v", i, *ti)
			continue
		}
		b, err := r.ReadTensor(w.name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, counter(next, int(w.size))) {
			t.Errorf("%s: data % x", w.name, b[:8])
		}
		next += int(w.size)
	}

	// Our writer, given what we read, writes ggml's bytes.
	var buf bytes.Buffer
	if err := Write(&buf, r.File, func(i int) (io.Reader, error) { return r.TensorData(i), nil }); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("rewrite differs from ggml's file (%d vs %d bytes)", buf.Len(), len(want))
	}
}

// ggml writes general.alignment = 64 set on a fresh context with its
// default 32 (gguf_init_empty keeps ctx->alignment at 32 and
// gguf_set_val_u32 does not update it), so neither ggml nor Read can read
// the result: testdata/oracle.txt shows ggml's own refusal.
func TestGGMLWrittenAlign64(t *testing.T) {
	_, err := Open("testdata/ggml-written-align64.gguf")
	var fe *FormatError
	if !errors.As(err, &fe) || !errors.Is(err, ErrLayout) || fe.Tensor != "blk.0.ffn_down.weight" {
		t.Fatalf("err = %v", err)
	}
	if want := "testdata/ggml-written-align64.gguf: byte 919: tensor \"blk.0.ffn_down.weight\": offset 224 not a multiple of the alignment 64"; err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
}
