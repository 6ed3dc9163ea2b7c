//go:build !amd64 || !gc || purego

package ggml

// Without the AVX-512 kernels (other architectures, purego builds) the fast
// dequantizers are the Go ones.

func simdOK() bool { return false }

func dequantQ8_0Fast(dst []float32, src []byte)  { dequantQ8_0(dst, src) }
func dequantQ4_0Fast(dst []float32, src []byte)  { dequantQ4_0(dst, src) }
func dequantBF16Fast(dst []float32, src []byte)  { dequantBF16(dst, src) }
func dequantF16Fast(dst []float32, src []byte)   { dequantF16(dst, src) }
func quantQ8_0Fast(dst []byte, src []float32)    { quantQ8_0(dst, src) }
func quantQ4_0Fast(dst []byte, src []float32)    { quantQ4_0(dst, src) }
func dequantQ4_1Fast(dst []float32, src []byte)  { dequantQ4_1(dst, src) }
func dequantQ5_0Fast(dst []float32, src []byte)  { dequantQ5_0(dst, src) }
func dequantQ5_1Fast(dst []float32, src []byte)  { dequantQ5_1(dst, src) }
func dequantQ8_KFast(dst []float32, src []byte)  { dequantQ8_K(dst, src) }
func dequantMXFP4Fast(dst []float32, src []byte) { dequantMXFP4(dst, src) }
func dequantQ4_KFast(dst []float32, src []byte)  { dequantQ4_K(dst, src) }
func dequantQ6_KFast(dst []float32, src []byte)  { dequantQ6_K(dst, src) }
func dequantQ5_KFast(dst []float32, src []byte)  { dequantQ5_K(dst, src) }
func dequantQ2_KFast(dst []float32, src []byte)  { dequantQ2_K(dst, src) }
func dequantQ3_KFast(dst []float32, src []byte)  { dequantQ3_K(dst, src) }
func dequantNVFP4Fast(dst []float32, src []byte) { dequantNVFP4(dst, src) }
