package ggufconv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
)

// model describes a synthetic llama-architecture GGUF file: the metadata
// llama.cpp's loader needs to quantize it and the tensors of a llama model.
type model struct {
	layers, embd, ff, head, headKV, vocab int
	wtype                                 ggml.Type  // F32, F16 or BF16 for the 2-D weights
	tied                                  bool       // no output.weight
	extra                                 bool       // odd tensors: a [256,1] weight, position_embd, an unaligned row
	shuffle                               bool       // tensors in convert_hf_to_gguf's order, not llama's
	experts                               int        // a mixture of experts: 3-D ffn_*_exps tensors
	only                                  []FileType // the file types to try (all when empty)
	rows                                  int        // when set, every 2-D weight has this many rows (llama-quantize does not check shapes)
	arch                                  string     // general.architecture (default llama); falcon has a fused attn_qkv and no ffn_gate
	seed                                  uint64
}

func (m model) archName() string {
	if m.arch == "" {
		return "llama"
	}
	return m.arch
}

type synthTensor struct {
	name string
	dims []uint64
	typ  ggml.Type
}

func (m model) tensors() []synthTensor {
	w := func(name string, d0, d1 int) synthTensor {
		if m.rows > 0 {
			d1 = m.rows
		}
		return synthTensor{name, []uint64{uint64(d0), uint64(d1)}, m.wtype}
	}
	norm := func(name string) synthTensor { return synthTensor{name, []uint64{uint64(m.embd)}, ggml.F32} }
	kv := m.embd / m.head * m.headKV
	var ts []synthTensor
	ts = append(ts, w("token_embd.weight", m.embd, m.vocab))
	for l := 0; l < m.layers; l++ {
		p := fmt.Sprintf("blk.%d.", l)
		if m.arch == "falcon" {
			ts = append(ts,
				norm(p+"attn_norm.weight"),
				w(p+"attn_qkv.weight", m.embd, m.embd+2*kv),
				w(p+"attn_output.weight", m.embd, m.embd),
				w(p+"ffn_up.weight", m.embd, m.ff),
				w(p+"ffn_down.weight", m.ff, m.embd),
			)
			continue
		}
		ts = append(ts,
			norm(p+"attn_norm.weight"),
			w(p+"attn_q.weight", m.embd, m.embd),
			w(p+"attn_k.weight", m.embd, kv),
			w(p+"attn_v.weight", m.embd, kv),
			w(p+"attn_output.weight", m.embd, m.embd),
			norm(p+"ffn_norm.weight"),
		)
		if m.experts > 0 {
			e := uint64(m.experts)
			ts = append(ts,
				synthTensor{p + "ffn_gate_inp.weight", []uint64{uint64(m.embd), e}, ggml.F32},
				synthTensor{p + "ffn_gate_exps.weight", []uint64{uint64(m.embd), uint64(m.ff), e}, m.wtype},
				synthTensor{p + "ffn_up_exps.weight", []uint64{uint64(m.embd), uint64(m.ff), e}, m.wtype},
				synthTensor{p + "ffn_down_exps.weight", []uint64{uint64(m.ff), uint64(m.embd), e}, m.wtype},
			)
		} else {
			ts = append(ts,
				w(p+"ffn_gate.weight", m.embd, m.ff),
				w(p+"ffn_up.weight", m.embd, m.ff),
				w(p+"ffn_down.weight", m.ff, m.embd),
			)
		}
	}
	ts = append(ts, norm("output_norm.weight"))
	if !m.tied {
		ts = append(ts, w("output.weight", m.embd, m.vocab))
	}
	if m.extra {
		ts = append(ts,
			synthTensor{"rope_freqs.weight", []uint64{uint64(m.embd / m.head / 2)}, ggml.F32},
			synthTensor{"position_embd.weight", []uint64{uint64(m.embd), 64}, m.wtype},
			synthTensor{"blk.0.odd.weight", []uint64{96, 8}, m.wtype},             // rows not whole K-blocks
			synthTensor{"blk.1.col.weight", []uint64{uint64(m.embd), 1}, m.wtype}, // one column: 1-D for ggml
		)
	}
	if !m.shuffle {
		idx := LlamaOrder(infos(ts))
		sorted := make([]synthTensor, len(ts))
		for k, i := range idx {
			sorted[k] = ts[i]
		}
		ts = sorted
	}
	return ts
}

func infos(ts []synthTensor) []gguf.TensorInfo {
	out := make([]gguf.TensorInfo, len(ts))
	for i, t := range ts {
		out[i] = gguf.TensorInfo{Name: t.name, Type: t.typ, Dims: t.dims}
	}
	return out
}

// file returns the header and the data of every tensor.
func (m model) file() (*gguf.File, [][]byte) {
	f := &gguf.File{}
	set := func(k string, v gguf.Value) { f.KV = append(f.KV, gguf.KV{Key: k, Value: v}) }
	a := m.archName()
	set("general.architecture", gguf.NewString(a))
	set("general.name", gguf.NewString("synthetic"))
	set(a+".block_count", gguf.NewUint32(uint32(m.layers)))
	set(a+".context_length", gguf.NewUint32(256))
	set(a+".embedding_length", gguf.NewUint32(uint32(m.embd)))
	set(a+".feed_forward_length", gguf.NewUint32(uint32(m.ff)))
	set(a+".attention.head_count", gguf.NewUint32(uint32(m.head)))
	set(a+".attention.head_count_kv", gguf.NewUint32(uint32(m.headKV)))
	set(a+".rope.dimension_count", gguf.NewUint32(uint32(m.embd/m.head)))
	if a == "falcon" {
		set(a+".attention.layer_norm_epsilon", gguf.NewFloat32(1e-5))
	} else {
		set(a+".attention.layer_norm_rms_epsilon", gguf.NewFloat32(1e-5))
	}
	if m.experts > 0 {
		set(a+".expert_count", gguf.NewUint32(uint32(m.experts)))
		set(a+".expert_used_count", gguf.NewUint32(2))
	}
	set("general.file_type", gguf.NewUint32(map[ggml.Type]uint32{ggml.F32: 0, ggml.F16: 1, ggml.BF16: 32}[m.wtype]))
	rng := rand.New(rand.NewPCG(m.seed, 43))
	var data [][]byte
	for _, t := range m.tensors() {
		ti := gguf.TensorInfo{Name: t.name, Type: t.typ, Dims: t.dims}
		f.Tensors = append(f.Tensors, ti)
		n := ti.Elements()
		vals := make([]float32, n)
		for i := range vals {
			if t.typ == ggml.F32 && len(t.dims) == 1 {
				// float32(...) around the product: no fused multiply-add
				// on arm64, ppc64le, s390x, riscv64 (the same file on
				// every port).
				vals[i] = 1 + float32(0.1*float32(rng.NormFloat64()))
			} else {
				vals[i] = 0.02 * float32(rng.NormFloat64())
			}
		}
		b := make([]byte, ti.Bytes())
		if _, err := ggml.Quantize(t.typ, b, vals, int(t.dims[0]), nil); err != nil {
			panic(err)
		}
		data = append(data, b)
	}
	set("general.quantization_version", gguf.NewUint32(2))
	return f, data
}

// write writes the model to path.
func (m model) write(t testing.TB, path string) {
	t.Helper()
	f, data := m.file()
	var buf bytes.Buffer
	if err := gguf.Write(&buf, f, func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil }); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
}

// f32le returns float32s as little-endian bytes.
func f32le(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}
