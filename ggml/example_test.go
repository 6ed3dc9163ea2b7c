package ggml_test

import (
	"fmt"

	"github.com/clconv/clconv/ggml"
)

func Example() {
	// Two rows of 32 weights, quantized as llama-quantize would write them.
	src := make([]float32, 64)
	for i := range src {
		src[i] = float32(i%32-16) / 8
	}
	t, _ := ggml.ParseType("Q8_0")
	n, _ := t.RowSize(32)
	dst := make([]byte, 2*n)
	if _, err := ggml.Quantize(t, dst, src, 32, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d bytes per row, scale bytes % x, codes % x\n", t, n, dst[:2], dst[2:6])

	back := make([]float32, len(src))
	if err := ggml.Dequantize(t, back, dst); err != nil {
		fmt.Println(err)
		return
	}
	// The codes use the float32 scale 16/127; dequantization uses the
	// stored fp16 one, 0x2408.
	fmt.Println(back[:4])
	// Output:
	// q8_0: 34 bytes per row, scale bytes 08 24, codes 81 89 91 99
	// [-1.9998779 -1.8739014 -1.7479248 -1.6219482]
}
