//go:build !amd64 || !gc || purego

package ggml

// Without the AVX-512 kernels (other architectures, purego builds) the
// type table keeps its Go kernels.

func simdOK() bool { return false }

func requantSIMD(*kstate, []float32, *[16]float32, *[16]float32, int32, int32, int32) bool {
	return false
}
