package convert

import (
	"unsafe"

	"github.com/clconv/clconv/round"
)

// miniKind names a small floating format for the SIMD kernels.
type miniKind uint8

const (
	miniBF16 miniKind = iota
	miniE4M3
	miniE5M2
)

// simdFloatToMini converts a leading part of src into the small values at
// dst with the selected tier and returns how many it converted (0: no
// kernel yet).
func simdFloatToMini(k miniKind, dst unsafe.Pointer, src []float32, m round.Mode, sat bool) int {
	return 0
}

// simdMiniToFloat converts a leading part of the len(dst) small values at
// src into dst and returns how many it converted.
func simdMiniToFloat(k miniKind, dst []float32, src unsafe.Pointer) int {
	return 0
}
