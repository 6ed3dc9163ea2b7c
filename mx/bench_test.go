package mx

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// benchN is the benchmarks' element count: 8 Mi float32 (32 MiB), beyond
// the caches.
const benchN = 8 << 20

// benchInput returns benchN normal-ish float32 values whose magnitude
// changes from block to block at random, so that neither the shared
// exponent nor the rounding is predictable.
func benchInput() []float32 {
	rng := rand.New(rand.NewPCG(11, 12))
	src := make([]float32, benchN)
	for b := 0; b < benchN; b += 32 {
		scale := math.Ldexp(1, rng.IntN(24)-12)
		for i := b; i < b+32; i++ {
			src[i] = float32(rng.NormFloat64() * scale)
		}
	}
	return src
}

// copyTime measures the time to copy the float32 input to another buffer
// of the same size, in the same process and just before the benchmark
// loop: the mean over at least 300 ms of copies, as the benchmark's own
// time is a mean.
func copyTime(src []float32) time.Duration {
	dst := make([]float32, len(src))
	copy(dst, src)
	n := 0
	t0 := time.Now()
	for n < 8 || time.Since(t0) < 300*time.Millisecond {
		copy(dst, src)
		n++
	}
	return time.Since(t0) / time.Duration(n)
}

// report adds the GB/s of float32 bytes and the ratio to a copy of them.
func report(b *testing.B, ct time.Duration) {
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(benchN*4)/per.Seconds()/1e9, "GB/s")
	b.ReportMetric(ct.Seconds()/per.Seconds(), "x-copy")
}

func benchQuantize(b *testing.B, f *Format, opt Options) {
	src := benchInput()
	dst := make([]byte, f.ElemBytes(benchN, opt.Packed))
	scales := make([]byte, benchN/f.BlockSize)
	if _, err := Quantize(f, dst, scales, src, 4096, opt); err != nil {
		b.Fatal(err)
	}
	ct := copyTime(src)
	b.SetBytes(benchN * 4)
	b.ResetTimer()
	for b.Loop() {
		Quantize(f, dst, scales, src, 4096, opt)
	}
	report(b, ct)
}

func benchDequantize(b *testing.B, f *Format, opt Options) {
	src := benchInput()
	elems := make([]byte, f.ElemBytes(benchN, opt.Packed))
	scales := make([]byte, benchN/f.BlockSize)
	if _, err := Quantize(f, elems, scales, src, 4096, opt); err != nil {
		b.Fatal(err)
	}
	out := make([]float32, benchN)
	if _, err := Dequantize(f, out, elems, scales, 4096, opt); err != nil {
		b.Fatal(err)
	}
	ct := copyTime(src)
	b.SetBytes(benchN * 4)
	b.ResetTimer()
	for b.Loop() {
		Dequantize(f, out, elems, scales, 4096, opt)
	}
	report(b, ct)
}

// BenchmarkQuantizeMXFP8 quantizes float32 to MXFP8 E4M3 (amax, shared
// exponent, elements), Floor rule, RTE.
func BenchmarkQuantizeMXFP8(b *testing.B) { benchQuantize(b, MXFP8E4M3, Options{}) }

// BenchmarkQuantizeMXFP4 quantizes float32 to MXFP4 with packing (two
// elements per byte, LowFirst).
func BenchmarkQuantizeMXFP4(b *testing.B) { benchQuantize(b, MXFP4, Options{Packed: true}) }

// BenchmarkDequantizeMXFP8 decodes MXFP8 E4M3 to float32.
func BenchmarkDequantizeMXFP8(b *testing.B) { benchDequantize(b, MXFP8E4M3, Options{}) }

// BenchmarkDequantizeMXFP4 decodes packed MXFP4 to float32.
func BenchmarkDequantizeMXFP4(b *testing.B) { benchDequantize(b, MXFP4, Options{Packed: true}) }

// benchL2 quantizes or dequantizes 64 Ki elements again and again (256 KiB
// of float32, resident in L2): the kernels' own speed, in G elements/s.
func benchL2(b *testing.B, f *Format, opt Options, dequantize bool) {
	src := benchInput()[:64<<10]
	elems := make([]byte, f.ElemBytes(len(src), opt.Packed))
	scales := make([]byte, len(src)/f.BlockSize)
	out := make([]float32, len(src))
	Quantize(f, elems, scales, src, 4096, opt)
	b.SetBytes(int64(len(src) * 4))
	for b.Loop() {
		if dequantize {
			Dequantize(f, out, elems, scales, 4096, opt)
		} else {
			Quantize(f, elems, scales, src, 4096, opt)
		}
	}
	b.ReportMetric(float64(len(src))*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gelem/s")
}

func BenchmarkQuantizeMXFP8L2(b *testing.B)   { benchL2(b, MXFP8E4M3, Options{}, false) }
func BenchmarkQuantizeMXFP4L2(b *testing.B)   { benchL2(b, MXFP4, Options{Packed: true}, false) }
func BenchmarkDequantizeMXFP8L2(b *testing.B) { benchL2(b, MXFP8E4M3, Options{}, true) }
func BenchmarkDequantizeMXFP4L2(b *testing.B) { benchL2(b, MXFP4, Options{Packed: true}, true) }
