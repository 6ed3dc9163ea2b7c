package convert

import (
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/round"
)

// The SIMD kernels of the small floating-point formats (docs/FORMATS.md):
// float <-> bfloat16, OCP E4M3 and OCP E5M2, generated with the others from
// _asm (mini.go). They give the bits of packages bfloat16 and fp8 in every
// mode, with and without _sat; simd_mini_test.go checks every tier against
// them (with -long on every float).

// miniKind is a small floating-point format with SIMD kernels.
type miniKind uint8

const (
	miniBF16 miniKind = iota // bfloat16, 2 bytes
	miniE4M3                 // OCP E4M3, 1 byte
	miniE5M2                 // OCP E5M2, 1 byte
)

// size is the bytes of one element of k.
func (k miniKind) size() int {
	if k == miniBF16 {
		return 2
	}
	return 1
}

// simdFloatToMini converts a leading part of src into dst (len(src) elements
// of 2 bytes for miniBF16, 1 byte otherwise, at dst) in mode m with _sat if
// sat, with the selected tier, and returns how many it converted (0 when no
// tier applies); the caller converts the rest.
func simdFloatToMini(k miniKind, dst unsafe.Pointer, src []float32, m round.Mode, sat bool) int {
	return simdFloatToMiniHook(k, dst, src, m, sat)
}

// simdMiniToFloat converts a leading part of the len(dst) elements at src (2
// or 1 bytes each) into dst and returns how many.
func simdMiniToFloat(k miniKind, dst []float32, src unsafe.Pointer) int {
	return simdMiniToFloatHook(k, dst, src)
}

// miniFromFloat32 is the scalar conversion of x to k: the streaming hooks'
// head, and the tests' reference.
func miniFromFloat32(k miniKind, x float32, m round.Mode, sat bool) uint16 {
	switch {
	case k == miniBF16 && sat:
		return uint16(bfloat16.FromFloat32Sat(x, m))
	case k == miniBF16:
		return uint16(bfloat16.FromFloat32(x, m))
	case k == miniE4M3 && sat:
		return uint16(fp8.E4M3FromFloat32Sat(x, m))
	case k == miniE4M3:
		return uint16(fp8.E4M3FromFloat32(x, m))
	case sat:
		return uint16(fp8.E5M2FromFloat32Sat(x, m))
	}
	return uint16(fp8.E5M2FromFloat32(x, m))
}

// miniToFloat32 is the scalar conversion of the k pattern b to float.
func miniToFloat32(k miniKind, b uint16) float32 {
	switch k {
	case miniBF16:
		return bfloat16.BFloat16(b).Float32()
	case miniE4M3:
		return fp8.E4M3(b).Float32()
	}
	return fp8.E5M2(b).Float32()
}

// miniStore writes the pattern v as element i of the k array at p.
func miniStore(k miniKind, p unsafe.Pointer, i int, v uint16) {
	if k == miniBF16 {
		*(*uint16)(unsafe.Add(p, 2*i)) = v
		return
	}
	*(*uint8)(unsafe.Add(p, i)) = uint8(v)
}

// miniLoad reads element i of the k array at p.
func miniLoad(k miniKind, p unsafe.Pointer, i int) uint16 {
	if k == miniBF16 {
		return *(*uint16)(unsafe.Add(p, 2*i))
	}
	return uint16(*(*uint8)(unsafe.Add(p, i)))
}
