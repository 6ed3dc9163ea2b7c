package mx_test

import (
	"fmt"

	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
)

// Quantize one row of 32 float32 values to MXFP8 E4M3 under the
// specification's Floor rule, and back.
func ExampleQuantize() {
	src := make([]float32, 32)
	for i := range src {
		src[i] = float32(i) * 0.37
	}
	src[31] = 500 // amax: floor(log2(500)) = 8, X = 8 - 8 = 0
	elems := make([]byte, 32)
	scales := make([]byte, 1)
	st, err := mx.Quantize(mx.MXFP8E4M3, elems, scales, src, 32, mx.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	back := make([]float32, 32)
	mx.Dequantize(mx.MXFP8E4M3, back, elems, scales, 32, mx.Options{})
	fmt.Printf("scale %#02x (2^%d), clamped %d\n", scales[0], int(scales[0])-127, st.Clamped)
	fmt.Println(src[3], "->", back[3], " ", src[31], "->", back[31])
	// Output:
	// scale 0x7f (2^0), clamped 1
	// 1.11 -> 1.125   500 -> 448
}

// The shared exponent of a block under each rule: for amax = 7 in MXFP4
// (E2M1, max 6 = 1.5 * 2^2).
func ExampleSharedExp() {
	for _, r := range mx.Rules {
		s := mx.SharedExp(mx.MXFP4, r, 7)
		fmt.Printf("%-5s X = %d (E8M0 %#02x)\n", r, s.X, s.Code)
	}
	// Output:
	// floor X = 0 (E8M0 0x7f)
	// rceil X = 1 (E8M0 0x80)
	// ceil  X = 1 (E8M0 0x80)
	// even  X = 1 (E8M0 0x80)
}

// NVFP4 with ModelOpt's recipe: the tensor scale comes from the data
// (24 / 2688, rounded to float32) and is returned for Dequantize. The
// element step is 448 * tensor scale, just above 4: -1 is a tie between
// -0 and -0.5 and goes to the even code, -0; each value comes back as
// element * 448 * tensor scale rounded once to float32.
func ExampleQuantize_nvfp4() {
	src := []float32{0.5, -1, 2, 3, 6, 12, -12, 0.1, 0, 0, 0, 0, 0, 0, 0, 24}
	elems := make([]byte, 8) // packed, two per byte
	scales := make([]byte, 1)
	st, _ := mx.Quantize(mx.NVFP4, elems, scales, src, 16, mx.Options{Packed: true})
	back := make([]float32, 16)
	mx.Dequantize(mx.NVFP4, back, elems, scales, 16, mx.Options{Packed: true, TensorScale: st.TensorScale})
	fmt.Printf("tensor scale %g, block scale %#02x\n", st.TensorScale, scales[0])
	fmt.Println(back)
	// Output:
	// tensor scale 0.008928572, block scale 0x7e
	// [0 -0 2 4 6.0000005 12.000001 -12.000001 0 0 0 0 0 0 0 0 24.000002]
}

// Two FP4 codes per byte, in both orders.
func ExamplePackFP4() {
	codes := []byte{0x1, 0xA} // 0.5, -1
	packed := make([]byte, 1)
	mx.PackFP4(packed, codes, mx.LowFirst)
	fmt.Printf("low first %#02x\n", packed[0])
	mx.PackFP4(packed, codes, mx.HighFirst)
	fmt.Printf("high first %#02x\n", packed[0])
	// Output:
	// low first 0xa1
	// high first 0x1a
}

// Round the elements toward zero instead of to nearest.
func ExampleOptions() {
	src := make([]float32, 32)
	src[0], src[1] = 6, 5.9
	elems := make([]byte, 32)
	scales := make([]byte, 1)
	mx.Quantize(mx.MXFP4, elems, scales, src, 32, mx.Options{Rule: mx.RCEIL, Mode: round.RTZ})
	fmt.Printf("%#x %#x\n", elems[0], elems[1]) // 6 = 0x7; 5.9 truncates to 4 = 0x6
	// Output:
	// 0x7 0x6
}
