//go:build gc && !purego

package convert

import (
	"math"
	"unsafe"
)

// The range scans of SliceChecked: each returns the count k of the leading
// elements of src, in whole blocks of the kernel, that lie in the interval
// (the open (lo, hi) for floats, also admitting infinities and NaN for the
// Finite forms; the closed [lo, hi] for int32). It stops at the first block
// that holds an element outside, so src[k:] starts with that block; the
// generated firstBad functions test the rest in Go. In the pure Go tier they
// return 0. The kernels (zsimd_amd64.s, from _asm) only read src, and take
// closed intervals: the open (lo, hi) of floats is [nextup(lo), nextdown(hi)].

var (
	scanF32Kernels       = [numTiers]func(src *byte, n int, lo, hi float32) int{tierAVX2: scanF32AVX2, tierAVX512: scanF32AVX512}
	scanF32FiniteKernels = [numTiers]func(src *byte, n int, lo, hi float32) int{tierAVX2: scanF32FiniteAVX2, tierAVX512: scanF32FiniteAVX512}
	scanF64Kernels       = [numTiers]func(src *byte, n int, lo, hi float64) int{tierAVX2: scanF64AVX2, tierAVX512: scanF64AVX512}
	scanF64FiniteKernels = [numTiers]func(src *byte, n int, lo, hi float64) int{tierAVX2: scanF64FiniteAVX2, tierAVX512: scanF64FiniteAVX512}
	scanI32Kernels       = [numTiers]func(src *byte, n int, lo, hi int32) int{tierAVX2: scanI32AVX2, tierAVX512: scanI32AVX512}
)

func scanFloat32(src []float32, lo, hi float32) int {
	if k := scanF32Kernels[simdLevel()]; k != nil && len(src) > 0 {
		return k((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src), math.Nextafter32(lo, hi), math.Nextafter32(hi, lo))
	}
	return 0
}

func scanFloat32Finite(src []float32, lo, hi float32) int {
	if k := scanF32FiniteKernels[simdLevel()]; k != nil && len(src) > 0 {
		return k((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src), math.Nextafter32(lo, hi), math.Nextafter32(hi, lo))
	}
	return 0
}

func scanFloat64(src []float64, lo, hi float64) int {
	if k := scanF64Kernels[simdLevel()]; k != nil && len(src) > 0 {
		return k((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src), math.Nextafter(lo, hi), math.Nextafter(hi, lo))
	}
	return 0
}

func scanFloat64Finite(src []float64, lo, hi float64) int {
	if k := scanF64FiniteKernels[simdLevel()]; k != nil && len(src) > 0 {
		return k((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src), math.Nextafter(lo, hi), math.Nextafter(hi, lo))
	}
	return 0
}

func scanInt32(src []int32, lo, hi int32) int {
	if k := scanI32Kernels[simdLevel()]; k != nil && len(src) > 0 {
		return k((*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src), lo, hi)
	}
	return 0
}
