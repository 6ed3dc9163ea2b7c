//go:build !amd64 || !gc || purego

package digest

import "unsafe"

// Without the AVX-512 kernels the pure-Go loops do everything.

func simdOK() bool { return false }

func sumSIMD(kind termKind, size int, p unsafe.Pointer, bad []bool, base uint64, cnt int, a, b uint64) (sum, nan uint64, done int) {
	return 0, 0, 0
}

func fillSIMD(size int, double bool, buf []uint64, base uint64, cnt int) (done int) { return 0 }
