package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/safetensors"
)

// fuzzSep splits a fuzz input into the files of a checkpoint directory.
var fuzzSep = []byte("\n--8<--\n")

// fuzzSeed encodes a checkpoint directory: config.json, the index, then
// shards.
func fuzzSeed(config, index string, shards ...[]byte) []byte {
	parts := [][]byte{[]byte(config), []byte(index)}
	return bytes.Join(append(parts, shards...), fuzzSep)
}

// stBytes is a safetensors file of ts with metadata meta, written by the
// package's writer.
func stBytes(meta map[string]string, ts ...tensor) ([]byte, error) {
	var infos []safetensors.TensorInfo
	for _, x := range ts {
		infos = append(infos, x.info)
	}
	var buf bytes.Buffer
	w, err := safetensors.NewWriter(&buf, infos, meta)
	if err != nil {
		return nil, err
	}
	for _, x := range ts {
		if _, err := w.Write(x.data); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mustST is stBytes for the fuzz seeds, whose tensors are valid.
func mustST(ts ...tensor) []byte {
	b, err := stBytes(nil, ts...)
	if err != nil {
		panic(err)
	}
	return b
}

// fuzzSeeds are FuzzCheckpoint's seeds: an FP8 checkpoint with its index and
// config, without them, a bad index, MX and NVFP4 layouts.
func fuzzSeeds() [][]byte {
	rng := rand.New(rand.NewPCG(7, 8))
	w := rawTensor("x.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	sc := tensor{safetensors.TensorInfo{Name: "x.weight_scale_inv", DType: safetensors.F32, Shape: []int64{2, 3}}, make([]byte, 24)}
	for i := range 6 {
		binary.LittleEndian.PutUint32(sc.data[4*i:], math.Float32bits(0.25))
	}
	s1 := mustST(w, f32Tensor("y", 2, 2, rng))
	s2 := mustST(sc)
	idx := `{"weight_map": {"x.weight": "a.safetensors", "y": "a.safetensors", "x.weight_scale_inv": "b.safetensors"}}`
	return [][]byte{
		fuzzSeed(`{"quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`, idx, s1, s2),
		fuzzSeed("", "", s1, s2),
		fuzzSeed(`{}`, `{"weight_map": {"y": "a.safetensors"}}`, s1, s2),
		fuzzSeed("", "", mustST(rawTensor("e.blocks", safetensors.U8, []int64{2, 1, 16}, rng), rawTensor("e.scales", safetensors.U8, []int64{2, 1}, rng))),
		fuzzSeed("", "", mustST(rawTensor("v", safetensors.U8, []int64{2, 8}, rng), rawTensor("v_scale", safetensors.F8_E4M3, []int64{2, 1}, rng), rawTensor("v_scale_2", safetensors.F32, []int64{}, rng))),
	}
}

// FuzzCheckpoint converts whole checkpoint directories made of fuzzed
// config.json, index and shards. Whatever the input: no panic, no
// temporary file left, no output after an error, and an output that
// reads back after success (ConvertCheckpoint verifies it; the fuzz
// target checks again).
func FuzzCheckpoint(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parts := bytes.Split(data, fuzzSep)
		if len(parts) < 3 || len(parts) > 6 {
			return
		}
		root := t.TempDir()
		in := filepath.Join(root, "in")
		os.Mkdir(in, 0o777)
		if len(parts[0]) > 0 {
			os.WriteFile(filepath.Join(in, "config.json"), parts[0], 0o666)
		}
		if len(parts[1]) > 0 {
			os.WriteFile(filepath.Join(in, "model.safetensors.index.json"), parts[1], 0o666)
		}
		for i, s := range parts[2:] {
			os.WriteFile(filepath.Join(in, string(rune('a'+i))+".safetensors"), s, 0o666)
		}
		out := filepath.Join(root, "out")
		for _, opt := range []Options{{To: cltype.BFloat16}, {To: cltype.E4M3, BlockSize: [2]int{2, 2}, Sat: true}} {
			rep, err := ConvertCheckpoint(context.Background(), out, in, true, opt)
			noTemp(t, root)
			if err != nil {
				if _, serr := os.Stat(out); serr == nil && !errors.Is(err, ErrUnsafeOutput) {
					// An earlier option's output may exist; it must
					// still read back whole.
					checkTree(t, out)
				}
				continue
			}
			if rep == nil {
				t.Fatal("nil report without an error")
			}
			checkTree(t, out)
		}
	})
}

// checkTree opens every shard of the output directory.
func checkTree(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if filepath.Ext(e.Name()) != ".safetensors" {
			continue
		}
		f, err := safetensors.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("output %s does not read back: %v", e.Name(), err)
		}
		f.Close()
	}
}
