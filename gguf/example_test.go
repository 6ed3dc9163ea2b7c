package gguf_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
)

// Write a small model and read it back.
func Example() {
	f := &gguf.File{
		KV: []gguf.KV{
			{Key: "general.architecture", Value: gguf.NewString("llama")},
			{Key: "llama.context_length", Value: gguf.NewUint32(4096)},
			{Key: "tokenizer.ggml.tokens", Value: gguf.NewArray([]string{"<s>", "</s>", "hi"})},
		},
		Tensors: []gguf.TensorInfo{
			{Name: "token_embd.weight", Type: ggml.F16, Dims: []uint64{4, 3}}, // 3 rows of 4
			{Name: "blk.0.attn_q.weight", Type: ggml.Q8_0, Dims: []uint64{32, 2}},
		},
	}
	data := [][]byte{make([]byte, 24), make([]byte, 68)}

	path := filepath.Join(os.TempDir(), "example.gguf")
	defer os.Remove(path)
	err := gguf.WriteFile(path, f, func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil }, true)
	if err != nil {
		log.Fatal(err)
	}

	r, err := gguf.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close()
	arch, _ := r.Get("general.architecture")
	n, _ := r.Get("llama.context_length")
	toks, _ := r.Get("tokenizer.ggml.tokens")
	fmt.Println(arch, n, toks.Len(), "tokens")
	for i, t := range r.Tensors {
		fmt.Printf("%s %s shape %v: %d bytes at %d\n", t.Name, t.Type, t.Shape(), t.Bytes(), r.DataOffset+int64(t.Offset))
		_ = r.TensorData(i) // an io.SectionReader of exactly those bytes
	}
	// Output:
	// llama u32 4096 3 tokens
	// token_embd.weight f16 shape [3 4]: 24 bytes at 320
	// blk.0.attn_q.weight q8_0 shape [2 32]: 68 bytes at 352
}

// Errors say where and what.
func ExampleRead_error() {
	b := []byte("GGUF\x01\x00\x00\x00")
	_, err := gguf.Read(bytes.NewReader(b), int64(len(b)))
	fmt.Println(err)
	// Output:
	// gguf: byte 4: version 1 (GGUFv1, with 32-bit counts and lengths) is no longer supported, by ggml or by this package
}
