package checkpoint_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// A checkpoint converted to bfloat16 in one call: every floating tensor
// rounded once, to nearest even, everything else copied, atomically.
func ExampleConvertFile() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	in, out := filepath.Join(dir, "model.safetensors"), filepath.Join(dir, "model-bf16.safetensors")
	writeExample(in)

	rep, err := checkpoint.ConvertFile(context.Background(), out, in, false, checkpoint.Options{
		To: cltype.BFloat16, Mode: round.RTE,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range rep.Tensors {
		fmt.Println(t.Name, t.Action, t.From, "->", t.To, t.Shape)
	}
	// Output:
	// embed.weight convert F32 -> BF16 [2 2]
	// step keep I64 -> I64 [1]
}

// writeExample writes a small F32 checkpoint.
func writeExample(path string) {
	var data bytes.Buffer
	for _, v := range []float32{0.1, -3.14159, 65504, float32(math.Inf(1))} {
		binary.Write(&data, binary.LittleEndian, math.Float32bits(v))
	}
	binary.Write(&data, binary.LittleEndian, int64(1000))
	f, _ := os.Create(path)
	defer f.Close()
	w, err := safetensors.NewWriter(f, []safetensors.TensorInfo{
		{Name: "embed.weight", DType: safetensors.F32, Shape: []int64{2, 2}},
		{Name: "step", DType: safetensors.I64, Shape: []int64{1}},
	}, map[string]string{"format": "pt"})
	if err != nil {
		log.Fatal(err)
	}
	w.Write(data.Bytes())
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
}
