// Package byteorder holds the host's byte order and the byte swap that turns
// little-endian elements into host order and back, for the packages whose byte
// buffers are little-endian on every host (convert's Bytes functions, fileconv).
package byteorder

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// BigEndian reports whether the host stores multi-byte values most significant
// byte first (s390x, mips, mips64, ppc64). It is a constant, so that a branch
// on it costs nothing: little-endian hosts compile the swapping code away.
const BigEndian = cpu.IsBigEndian

// Swap reverses the bytes of each size-byte element of b in place: it converts
// between little-endian and big-endian elements. size is 1 (nothing to do), 2,
// 4 or 8; bytes after the last whole element are left alone.
func Swap(b []byte, size int) { SwapCopy(b, b, size) }

// SwapCopy writes the elements of src (size bytes each: 1, 2, 4 or 8) into dst
// with their bytes reversed, as many whole elements as both hold. dst and src
// may be the same memory but must not overlap otherwise.
func SwapCopy(dst, src []byte, size int) {
	if size != 1 && size != 2 && size != 4 && size != 8 {
		panic("byteorder: element size must be 1, 2, 4 or 8")
	}
	n := min(len(dst), len(src)) / size
	if n == 0 {
		return
	}
	if size == 1 {
		copy(dst[:n], src[:n])
		return
	}
	d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	if (uintptr(d)|uintptr(s))%uintptr(size) == 0 {
		// Aligned: whole-word loads and stores.
		switch size {
		case 2:
			dd, ss := unsafe.Slice((*uint16)(d), n), unsafe.Slice((*uint16)(s), n)
			for i, v := range ss {
				dd[i] = bits.ReverseBytes16(v)
			}
		case 4:
			dd, ss := unsafe.Slice((*uint32)(d), n), unsafe.Slice((*uint32)(s), n)
			for i, v := range ss {
				dd[i] = bits.ReverseBytes32(v)
			}
		case 8:
			dd, ss := unsafe.Slice((*uint64)(d), n), unsafe.Slice((*uint64)(s), n)
			for i, v := range ss {
				dd[i] = bits.ReverseBytes64(v)
			}
		}
		return
	}
	// Unaligned: byte-wise access, which every architecture allows.
	dst, src = dst[:n*size], src[:n*size]
	switch size {
	case 2:
		for i := 0; i < len(src); i += 2 {
			binary.LittleEndian.PutUint16(dst[i:], binary.BigEndian.Uint16(src[i:]))
		}
	case 4:
		for i := 0; i < len(src); i += 4 {
			binary.LittleEndian.PutUint32(dst[i:], binary.BigEndian.Uint32(src[i:]))
		}
	case 8:
		for i := 0; i < len(src); i += 8 {
			binary.LittleEndian.PutUint64(dst[i:], binary.BigEndian.Uint64(src[i:]))
		}
	}
}

// Load returns element i of the size-byte elements at p (1, 2, 4 or 8
// bytes), read in the host's byte order and zero-extended.
func Load(p unsafe.Pointer, size, i int) uint64 {
	p = unsafe.Add(p, i*size)
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// Store writes the low size bytes of v as element i of the size-byte
// elements at p, in the host's byte order.
func Store(p unsafe.Pointer, size, i int, v uint64) {
	p = unsafe.Add(p, i*size)
	switch size {
	case 1:
		*(*uint8)(p) = uint8(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	case 4:
		*(*uint32)(p) = uint32(v)
	default:
		*(*uint64)(p) = v
	}
}
