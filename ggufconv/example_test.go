package ggufconv_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/ggufconv"
)

// Quantize a model as llama-quantize's Q4_K_M does, with its tensor order,
// so that the file is llama-quantize's byte for byte.
func ExampleConvertGGUF() {
	dir, _ := os.MkdirTemp("", "ggufconv")
	defer os.RemoveAll(dir)
	dst := filepath.Join(dir, "tiny.Q4_K_M.gguf")
	rep, err := ggufconv.ConvertGGUF(context.Background(), dst, "testdata/tiny-f16.gguf",
		ggufconv.Options{FileType: ggufconv.Q4_K_M, LlamaLayout: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	count := map[ggml.Type]int{}
	for _, t := range rep.Tensors {
		count[t.To]++
	}
	fmt.Println("general.file_type", rep.FileType)
	fmt.Println("q4_K", count[ggml.Q4_K], "q6_K", count[ggml.Q6_K], "f32", count[ggml.F32])
	for _, t := range rep.Tensors[:3] {
		fmt.Println(t.Name, t.From, "->", t.To, t.Action)
	}
	// Output:
	// general.file_type 15
	// q4_K 13 q6_K 3 f32 5
	// output.weight f16 -> q6_K quantize
	// output_norm.weight f32 -> f32 keep
	// token_embd.weight f16 -> q4_K quantize
}
