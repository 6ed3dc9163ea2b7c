package ggufconv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/clconv/clconv/internal/testvals"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
)

var small = model{layers: 2, embd: 256, ff: 512, head: 8, headKV: 2, vocab: 256, wtype: ggml.F16, extra: true, shuffle: true, seed: 1}

// testModel is small, or under emulation (scripts/ports.sh,
// testvals.Sampled) the same tensors with 8 rows each: the K-quants run
// about 30 times slower there.
func testModel() model {
	m := small
	if testvals.Sampled() {
		m.rows = 8
	}
	return m
}

func readAll(t *testing.T, path string) (*gguf.Reader, [][]byte) {
	t.Helper()
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	var data [][]byte
	for _, ti := range r.Tensors {
		b, err := r.ReadTensor(ti.Name)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b)
	}
	return r, data
}

// expect computes what a tensor should become, independently of the
// pipeline: the whole tensor dequantized and quantized at once.
func expect(t *testing.T, from, to ggml.Type, ne0 int, in []byte) []byte {
	t.Helper()
	n := len(in) / from.TypeSize() * from.BlockSize()
	f := make([]float32, n)
	if err := ggml.Dequantize(from, f, in); err != nil {
		t.Fatal(err)
	}
	rs, _ := to.RowSize(ne0)
	out := make([]byte, n/ne0*rs)
	if _, err := ggml.Quantize(to, out, f, ne0, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fileconv.IsTempName(e.Name()) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestConvertTo(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in.gguf")
	testModel().write(t, src)
	in, inData := readAll(t, src)
	types, workerCounts := []ggml.Type{ggml.Q8_0, ggml.Q4_K, ggml.BF16, ggml.F32}, []int{1, 3}
	if testvals.Sampled() {
		// Under emulation (scripts/ports.sh): the two block families, one
		// worker count; the full set runs natively.
		types, workerCounts = types[:2], []int{1, 2}
	}
	for _, to := range types {
		var outs [][]byte
		for _, workers := range workerCounts {
			dst := filepath.Join(dir, to.String()+"-"+string(rune('0'+workers))+".gguf")
			var calls int
			rep, err := ConvertGGUF(context.Background(), dst, src, Options{To: to, Workers: workers, Progress: func(d, tot int64) { calls++ }})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(dst)
			outs = append(outs, b)
			if calls == 0 {
				t.Error("no progress")
			}
			out, outData := readAll(t, dst)
			if len(rep.Tensors) != len(in.Tensors) {
				t.Fatalf("%d reports", len(rep.Tensors))
			}
			if v, _ := out.Get("general.file_type"); v.String() != "u32 "+map[ggml.Type]string{ggml.Q8_0: "7", ggml.Q4_K: "15", ggml.BF16: "32", ggml.F32: "0"}[to] {
				t.Errorf("%v: file_type %v", to, v)
			}
			for i, ti := range in.Tensors {
				tr := rep.Tensors[i]
				ot := out.Tensors[i]
				if ot.Name != ti.Name || fmtDims(ot.Dims) != fmtDims(ti.Dims) {
					t.Fatalf("tensor %d: %s %v, want %s %v", i, ot.Name, ot.Dims, ti.Name, ti.Dims)
				}
				convert := ti.Type == ggml.F16 && nDims(ti.Dims) >= 2 && ti.Dims[0]%uint64(to.BlockSize()) == 0
				if !convert {
					if tr.Action != Keep || ot.Type != ti.Type || !bytes.Equal(outData[i], inData[i]) {
						t.Errorf("%v %s: %v %v, want kept", to, ti.Name, tr.Action, ot.Type)
					}
					if ti.Name == "blk.0.odd.weight" && to == ggml.Q4_K && !strings.Contains(tr.Reason, "whole blocks") {
						t.Errorf("odd: reason %q", tr.Reason)
					}
					continue
				}
				want := expect(t, ti.Type, to, int(ti.Dims[0]), inData[i])
				if ot.Type != to || !bytes.Equal(outData[i], want) {
					t.Errorf("%v %s: type %v, bytes differ", to, ti.Name, ot.Type)
				}
				if tr.BytesOut != int64(len(want)) || tr.BytesIn != int64(len(inData[i])) {
					t.Errorf("%s: bytes %d %d", ti.Name, tr.BytesIn, tr.BytesOut)
				}
			}
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%v: output depends on the worker count", to)
		}
	}
	noTemp(t, dir)
}

func fmtDims(d []uint64) string { return fmt.Sprint(d) }

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in.gguf")
	testModel().write(t, src)
	ctx := context.Background()

	bad := filepath.Join(dir, "bad.gguf")
	os.WriteFile(bad, []byte("GGUX0000000000000000000000000"), 0o666)
	_, err := ConvertGGUF(ctx, filepath.Join(dir, "o1.gguf"), bad, Options{To: ggml.Q8_0})
	var fe *gguf.FormatError
	if !errors.As(err, &fe) || !errors.Is(err, gguf.ErrMagic) || !strings.Contains(err.Error(), "bad.gguf") {
		t.Errorf("bad input: %v", err)
	}

	_, err = ConvertGGUF(ctx, filepath.Join(dir, "o2.gguf"), src, Options{To: ggml.IQ2_XXS})
	if err == nil || !strings.Contains(err.Error(), "iq2_xxs") {
		t.Errorf("unsupported type: %v", err)
	}

	exist := filepath.Join(dir, "exist.gguf")
	os.WriteFile(exist, []byte("x"), 0o666)
	_, err = ConvertGGUF(ctx, exist, src, Options{To: ggml.Q8_0})
	if !errors.Is(err, checkpoint.ErrUnsafeOutput) && !errors.Is(err, fs.ErrExist) {
		t.Errorf("existing output: %v", err)
	}
	if _, err = ConvertGGUF(ctx, exist, src, Options{To: ggml.Q8_0, Replace: true}); err != nil {
		t.Errorf("replace: %v", err)
	}
	if _, err = ConvertGGUF(ctx, src, src, Options{To: ggml.Q8_0, Replace: true}); err == nil {
		t.Error("dst == src accepted")
	}

	_, err = ConvertGGUF(ctx, filepath.Join(dir, "o3.gguf"), src, Options{To: ggml.Q8_0, Tensors: []string{"["}})
	if err == nil {
		t.Error("bad pattern accepted")
	}

	// Cancellation in the middle: no output, no temporary file.
	cctx, cancel := context.WithCancel(ctx)
	out := filepath.Join(dir, "cancel.gguf")
	_, err = ConvertGGUF(cctx, out, src, Options{To: ggml.Q4_K, Progress: func(done, total int64) {
		if done > total/3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cancelled output exists: %v", err)
	}
	noTemp(t, dir)
}

func TestRequantizeAndSelect(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in.gguf")
	testModel().write(t, src)
	ctx := context.Background()
	q8 := filepath.Join(dir, "q8.gguf")
	if _, err := ConvertGGUF(ctx, q8, src, Options{To: ggml.Q8_0, Skip: []string{"blk.1.*"}, Tensors: []string{"blk.*"}}); err != nil {
		t.Fatal(err)
	}
	r, _ := readAll(t, q8)
	for _, ti := range r.Tensors {
		sel := strings.HasPrefix(ti.Name, "blk.0.") && ti.Name != "blk.0.attn_norm.weight" && ti.Name != "blk.0.ffn_norm.weight"
		if (ti.Type == ggml.Q8_0) != sel {
			t.Errorf("%s: %v", ti.Name, ti.Type)
		}
	}
	rep, err := ConvertGGUF(ctx, filepath.Join(dir, "kept.gguf"), q8, Options{To: ggml.Q4_K})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range rep.Tensors {
		if tr.From == ggml.Q8_0 && tr.Dims[0]%256 == 0 && (tr.Action != Keep || !strings.Contains(tr.Reason, "Requantize")) {
			t.Errorf("%s: %v %q", tr.Name, tr.Action, tr.Reason)
		}
	}
	rep, err = ConvertGGUF(ctx, filepath.Join(dir, "rq.gguf"), q8, Options{To: ggml.Q4_K, Requantize: true})
	if err != nil {
		t.Fatal(err)
	}
	_, inData := readAll(t, q8)
	_, outData := readAll(t, filepath.Join(dir, "rq.gguf"))
	for i, tr := range rep.Tensors {
		if tr.From == ggml.Q8_0 && tr.Dims[0]%256 == 0 {
			if tr.Action != Requantize || !bytes.Equal(outData[i], expect(t, ggml.Q8_0, ggml.Q4_K, int(tr.Dims[0]), inData[i])) {
				t.Errorf("%s: %v", tr.Name, tr.Action)
			}
		}
	}
}
