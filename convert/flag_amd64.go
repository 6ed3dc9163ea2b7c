//go:build gc && !purego

package convert

import "unsafe"

// The flag pass of bytesFlag for float and double sources: the AVX-512
// kernels (zsimd_amd64.s, from _asm/flag.go) set bad[i] = !(lo < src[i] < hi)
// for a leading part of src and count the flags; done is the length of that
// part (0 in the other tiers, where the generated Go loop flags everything).

func flagFloat32(src []float32, bad []bool, lo, hi float32) (done, count int) {
	if simdLevel() < tierAVX512 || len(src) < 16 {
		return 0, 0
	}
	bad = bad[:len(src)]
	return len(src) &^ 15, flagF32AVX512((*byte)(unsafe.Pointer(unsafe.SliceData(src))), unsafe.SliceData(bad), len(src), lo, hi)
}

func flagFloat64(src []float64, bad []bool, lo, hi float64) (done, count int) {
	if simdLevel() < tierAVX512 || len(src) < 8 {
		return 0, 0
	}
	bad = bad[:len(src)]
	return len(src) &^ 7, flagF64AVX512((*byte)(unsafe.Pointer(unsafe.SliceData(src))), unsafe.SliceData(bad), len(src), lo, hi)
}
