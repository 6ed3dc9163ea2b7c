package safetensors_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// A file of two tensors, written with NewWriter.
func ExampleNewWriter() {
	w0, b0, _ := safetensors.Encode("w", []int64{2, 2}, []float32{1, 2.5, -3, 1e10})
	w1, b1, _ := safetensors.Encode("b", []int64{2}, []bfloat16.BFloat16{0x3f80, 0xc000})
	var out bytes.Buffer
	w, err := safetensors.NewWriter(&out, []safetensors.TensorInfo{w0, w1}, map[string]string{"format": "pt"})
	if err != nil {
		log.Fatal(err)
	}
	w.Write(b0)
	w.Write(b1)
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	for _, t := range w.Tensors() {
		fmt.Println(t.Name, t.DType, t.Shape, t.Begin, t.End)
	}
	n := out.Bytes()[0]
	fmt.Printf("%d+%d bytes of header: %s\n", 8, n, bytes.TrimRight(out.Bytes()[8:8+n], " "))
	// Output:
	// w F32 [2 2] 0 16
	// b BF16 [2] 16 20
	// 8+144 bytes of header: {"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[16,20]}}
}

// Reading a file: the header, then a tensor converted to another type.
func ExampleReadTensor() {
	info, data, _ := safetensors.Encode("w", []int64{2, 2}, []float32{1, 2.5, -3, 1e10})
	var out bytes.Buffer
	w, _ := safetensors.NewWriter(&out, []safetensors.TensorInfo{info}, nil)
	w.Write(data)
	w.Close()

	f, err := safetensors.ReadBytes(out.Bytes()) // or Open(path), or Read(r, size)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range f.Tensors {
		fmt.Println(t.Name, t.DType, t.Shape, t.Count())
	}
	// convert_bfloat16_rtz of each element.
	b, err := safetensors.ReadTensor[bfloat16.BFloat16](f, "w", safetensors.ReadOptions{Mode: round.RTZ})
	fmt.Println(b, err)
	// convert_char_rte, checked: 1e10 does not fit.
	c, err := safetensors.ReadTensor[int8](f, "w", safetensors.ReadOptions{Mode: round.RTE, Checked: true})
	fmt.Println(c)
	fmt.Println(err)
	// Output:
	// w F32 [2 2] 4
	// [1 2.5 -3 1e+10] <nil>
	// [1 2 -3 127]
	// safetensors: offset 84: tensor "w": convert: element 3: float 1e+10 is too large for char (max 127) in rte (1 of 4 elements fails)
}

// Read rejects a malformed file with the offset and the tensor at fault.
func ExampleRead() {
	header := `{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}}`
	file := append([]byte{byte(len(header)), 0, 0, 0, 0, 0, 0, 0}, header...)
	file = append(file, make([]byte, 12)...)
	_, err := safetensors.Read(bytes.NewReader(file), int64(len(file)))
	fmt.Println(err)
	// Output:
	// safetensors: offset 57: tensor "w": data_offsets [0, 12) but shape [2, 2] of F32 needs 16 bytes
}
