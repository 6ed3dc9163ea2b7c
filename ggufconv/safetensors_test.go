package ggufconv

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
	"github.com/clconv/clconv/safetensors"
)

// mixedFile writes a GGUF file with tensors of several kinds: a Q4_K and a
// Q8_0 matrix, an F32 vector, an I32 tensor, an F64 one and (when iq) an
// IQ2_XXS tensor of arbitrary bytes.
func mixedFile(t *testing.T, path string, iq bool) (*gguf.File, [][]byte) {
	t.Helper()
	f := &gguf.File{}
	f.KV = []gguf.KV{
		{Key: "general.architecture", Value: gguf.NewString("llama")},
		{Key: "general.name", Value: gguf.NewString("bad\xffutf8")},
		{Key: "llama.rope.freq_base", Value: gguf.NewFloat32(10000.5)},
		{Key: "llama.eps", Value: gguf.NewFloat64(1e-5)},
		{Key: "x.neg", Value: gguf.NewInt8(-3)},
		{Key: "x.flag", Value: gguf.NewBool(true)},
		{Key: "tokenizer.ggml.tokens", Value: gguf.NewArray([]string{"<s>", "a\"b", "é"})},
		{Key: "tokenizer.ggml.scores", Value: gguf.NewArray([]float32{0, -1.5, float32(math.Inf(1)), float32(math.NaN())})},
	}
	vals := make([]float32, 512*3)
	for i := range vals {
		vals[i] = float32(math.Sin(float64(i))) * 3
	}
	vals[7] = float32(math.NaN())
	add := func(name string, typ ggml.Type, dims []uint64) {
		f.Tensors = append(f.Tensors, gguf.TensorInfo{Name: name, Type: typ, Dims: dims})
	}
	var data [][]byte
	q := func(typ ggml.Type, ne0 int, v []float32) []byte {
		rs, _ := typ.RowSize(ne0)
		b := make([]byte, len(v)/ne0*rs)
		if _, err := ggml.Quantize(typ, b, v, ne0, nil); err != nil {
			t.Fatal(err)
		}
		return b
	}
	data = append(data, q(ggml.Q4_K, 512, vals))
	add("a.q4k", ggml.Q4_K, []uint64{512, 3})
	data = append(data, q(ggml.Q8_0, 256, vals))
	add("b.q8", ggml.Q8_0, []uint64{256, 2, 3})
	data = append(data, f32le(vals[:5]))
	add("c.f32", ggml.F32, []uint64{5})
	i32 := make([]byte, 4*6)
	for i := range 6 {
		binary.LittleEndian.PutUint32(i32[4*i:], uint32(int32(i-3)))
	}
	data = append(data, i32)
	add("d.i32", ggml.I32, []uint64{3, 2})
	f64 := make([]byte, 8*2)
	binary.LittleEndian.PutUint64(f64, math.Float64bits(1.0000000001))
	binary.LittleEndian.PutUint64(f64[8:], math.Float64bits(-2))
	data = append(data, f64)
	add("e.f64", ggml.F64, []uint64{2})
	if iq {
		data = append(data, make([]byte, ggml.IQ2_XXS.TypeSize()))
		add("f.iq", ggml.IQ2_XXS, []uint64{256})
	}
	var buf bytes.Buffer
	if err := gguf.Write(&buf, f, func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil }); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return f, data
}

func TestToSafetensors(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.gguf")
	f, data := mixedFile(t, src, true)
	ctx := context.Background()
	if _, err := ToSafetensors(ctx, filepath.Join(dir, "x.safetensors"), src, cltype.Float, Options{}); err == nil || !strings.Contains(err.Error(), `"f.iq"`) {
		t.Fatalf("IQ tensor: %v", err)
	}
	for _, kind := range []cltype.Kind{cltype.Float, cltype.Half, cltype.BFloat16, cltype.Double} {
		dst := filepath.Join(dir, kind.String()+".safetensors")
		rep, err := ToSafetensors(ctx, dst, src, kind, Options{Skip: []string{"f.*"}, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		st, err := safetensors.Open(dst)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Tensors) != 5 || len(rep.Tensors) != 5 {
			t.Fatalf("%d tensors", len(st.Tensors))
		}
		md := st.Metadata
		for k, want := range map[string]string{
			"gguf.general.name": "bad\uFFFDutf8", "gguf.llama.rope.freq_base": "10000.5", "gguf.llama.eps": "1e-05",
			"gguf.x.neg": "-3", "gguf.x.flag": "true", "gguf.tokenizer.ggml.tokens": `["<s>","a\"b","é"]`,
			"gguf.tokenizer.ggml.scores": `[0,-1.5,"Infinity","NaN"]`,
		} {
			if md[k] != want {
				t.Errorf("%s = %q, want %q", k, md[k], want)
			}
		}
		for i, ti := range st.Tensors {
			gt := f.Tensors[i]
			sh := gt.Shape()
			if len(ti.Shape) != len(sh) {
				t.Fatalf("%s: shape %v", ti.Name, ti.Shape)
			}
			for j := range sh {
				if uint64(ti.Shape[j]) != sh[j] {
					t.Errorf("%s: shape %v, want %v", ti.Name, ti.Shape, sh)
				}
			}
			got := make([]byte, ti.Bytes())
			if _, err := st.Section(&ti).ReadAt(got, 0); err != nil {
				t.Fatal(err)
			}
			var want []byte
			switch gt.Type {
			case ggml.I32:
				want = data[i]
			case ggml.F64:
				want = make([]byte, 2*kind.Size())
				convert.Bytes(kind, cltype.Double, want, data[i], convert.RTE, false)
			default:
				n := gt.Elements()
				fl := make([]float32, n)
				ggml.Dequantize(gt.Type, fl, data[i])
				want = make([]byte, n*int64(kind.Size()))
				convert.Bytes(kind, cltype.Float, want, f32le(fl), convert.RTE, false)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%v %s: bytes differ", kind, ti.Name)
			}
		}
		if rep.Tensors[2].Name != "c.f32" || rep.Tensors[2].Stats != (Stats{}) || rep.Tensors[2].DType != safetensors.F32.String() && kind == cltype.Float {
			t.Errorf("c.f32: %+v", rep.Tensors[2])
		}
		st.Close()
	}
	// One tensor to .npy.
	npy := filepath.Join(dir, "b.npy")
	if _, err := ToSafetensors(ctx, npy, src, cltype.Half, Options{Tensors: []string{"b.q8"}}); err != nil {
		t.Fatal(err)
	}
	fh, _ := os.Open(npy)
	h, err := fileconv.ReadHeader(fh)
	fh.Close()
	if err != nil || h.Kind != cltype.Half || len(h.Shape) != 3 || h.Shape[0] != 3 || h.Shape[2] != 256 {
		t.Errorf("npy: %+v %v", h, err)
	}
	if _, err := ToSafetensors(ctx, filepath.Join(dir, "two.npy"), src, cltype.Half, Options{Tensors: []string{"[ab].*"}}); err == nil {
		t.Error("two tensors to .npy accepted")
	}
	if _, err := ToSafetensors(ctx, filepath.Join(dir, "i.safetensors"), src, cltype.Int, Options{}); err == nil {
		t.Error("int output kind accepted")
	}
	noTemp(t, dir)
}
