package safetensors

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/convert"
)

// copyNs returns the time in ns that copying src into dst takes, the
// memory-speed baseline of the benchmarks.
func copyNs(dst, src []byte) float64 {
	copy(dst, src)
	start, n := time.Now(), 0
	for time.Since(start) < 300*time.Millisecond {
		copy(dst, src)
		n++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// benchRead runs ReadInto of the file's first tensor into dst, from memory
// (ReadBytes, as from Open's mapping) and through an io.ReaderAt, and
// reports its time as a multiple of copying the tensor's bytes or the
// destination's, whichever is more (x-copy): 1 is memory speed.
func benchRead[T convert.Number](b *testing.B, file []byte, dst []T) {
	files := []struct {
		name string
		f    func() (*File, error)
	}{
		{"memory", func() (*File, error) { return ReadBytes(file) }},
		{"ReaderAt", func() (*File, error) { return Read(bytes.NewReader(file), int64(len(file))) }},
	}
	for _, o := range files {
		f, err := o.f()
		if err != nil {
			b.Fatal(err)
		}
		t := &f.Tensors[0]
		var z T
		n := max(t.Bytes(), int64(len(dst))*int64(unsafe.Sizeof(z)))
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i*131 + 1) // written, so not the kernel's shared zero page
		}
		base := copyNs(make([]byte, n), src)
		b.Run(o.name, func(b *testing.B) {
			b.SetBytes(t.Bytes())
			b.ResetTimer()
			for range b.N {
				if err := ReadInto(f, t, dst, ReadOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/base, "x-copy")
		})
	}
}

// BenchmarkReadIntoBF16 reads 16 MiB of F32 into bfloat16 (rte): from
// memory (ReadBytes, or Open's mapping) it converts in place of a copy, and
// x-copy is the ratio to copying the same bytes.
func BenchmarkReadIntoBF16(b *testing.B) {
	const n = 4 << 20
	rng := rand.New(rand.NewPCG(1, 1))
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(rng.NormFloat64())
	}
	info, data, _ := Encode("w", []int64{n}, xs)
	benchRead(b, writeAll(b, []TensorInfo{info}, [][]byte{data}, nil), make([]bfloat16.BFloat16, n))
}

// BenchmarkReadIntoF4 reads 8 Mi F4 elements (4 MiB) into float32 (32 MiB),
// through the MX formats' table of codes.
func BenchmarkReadIntoF4(b *testing.B) {
	const n = 8 << 20
	data := make([]byte, n/2)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	file := writeAll(b, []TensorInfo{{Name: "w", DType: F4, Shape: []int64{n}}}, [][]byte{data}, nil)
	benchRead(b, file, make([]float32, n))
}
