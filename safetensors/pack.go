package safetensors

import (
	"math"

	"github.com/clconv/clconv/internal/minifloat"
)

// UnpackF4 unpacks len(dst) F4 (E2M1) codes from src, one code per byte of
// dst, and returns the number of bytes of src it used, (len(dst)+1)/2.
// Element 2i is the low nibble of src[i] and element 2i+1 its high nibble,
// PyTorch's float4_e2m1fn_x2 layout, which safetensors' F4 stores. It panics
// if src is shorter than that.
func UnpackF4(dst []uint8, src []byte) int {
	n := (len(dst) + 1) / 2
	if len(src) < n {
		panic("safetensors: UnpackF4: src holds fewer than len(dst) elements")
	}
	src = src[:n]
	for i := 0; i+1 < len(dst); i += 2 {
		b := src[i/2]
		dst[i], dst[i+1] = b&0xf, b>>4
	}
	if len(dst)%2 == 1 {
		dst[len(dst)-1] = src[n-1] & 0xf
	}
	return n
}

// PackF4 packs the low 4 bits of each byte of src into dst, two per byte,
// the first in the low nibble, and returns the number of bytes written,
// (len(src)+1)/2. An odd count leaves the last byte's high nibble 0. It
// panics if dst is shorter than that.
func PackF4(dst []byte, src []uint8) int {
	n := (len(src) + 1) / 2
	if len(dst) < n {
		panic("safetensors: PackF4: dst is too short")
	}
	dst = dst[:n]
	for i := 0; i+1 < len(src); i += 2 {
		dst[i/2] = src[i]&0xf | src[i+1]<<4
	}
	if len(src)%2 == 1 {
		dst[n-1] = src[len(src)-1] & 0xf
	}
	return n
}

// f6Bytes is the number of bytes that n 6-bit elements occupy.
func f6Bytes(n int) int { return (6*n + 7) / 8 }

// UnpackF6 unpacks len(dst) 6-bit codes (F6_E2M3 or F6_E3M2) from src, one
// code per byte of dst, and returns the number of bytes of src it used,
// ceil(6*len(dst)/8). Element i is bits [6i, 6i+6) of src read as one
// little-endian bit string: four elements in three bytes, the first in the
// low six bits of the first byte (see the package documentation for why).
// It panics if src is shorter than that.
func UnpackF6(dst []uint8, src []byte) int {
	n := f6Bytes(len(dst))
	if len(src) < n {
		panic("safetensors: UnpackF6: src holds fewer than len(dst) elements")
	}
	i, j := 0, 0
	for ; i+4 <= len(dst); i, j = i+4, j+3 {
		v := uint32(src[j]) | uint32(src[j+1])<<8 | uint32(src[j+2])<<16
		dst[i] = uint8(v & 0x3f)
		dst[i+1] = uint8(v >> 6 & 0x3f)
		dst[i+2] = uint8(v >> 12 & 0x3f)
		dst[i+3] = uint8(v >> 18)
	}
	if i < len(dst) {
		var v uint32
		for k := j; k < n; k++ {
			v |= uint32(src[k]) << (8 * (k - j))
		}
		for ; i < len(dst); i++ {
			dst[i] = uint8(v & 0x3f)
			v >>= 6
		}
	}
	return n
}

// PackF6 packs the low 6 bits of each byte of src into dst as UnpackF6
// reads them and returns the number of bytes written, ceil(6*len(src)/8).
// Bits of the last byte after the last element are 0. It panics if dst is
// shorter than that.
func PackF6(dst []byte, src []uint8) int {
	n := f6Bytes(len(src))
	if len(dst) < n {
		panic("safetensors: PackF6: dst is too short")
	}
	i, j := 0, 0
	for ; i+4 <= len(src); i, j = i+4, j+3 {
		v := uint32(src[i]&0x3f) | uint32(src[i+1]&0x3f)<<6 | uint32(src[i+2]&0x3f)<<12 | uint32(src[i+3]&0x3f)<<18
		dst[j], dst[j+1], dst[j+2] = byte(v), byte(v>>8), byte(v>>16)
	}
	if i < len(src) {
		var v uint32
		for k := 0; i+k < len(src); k++ {
			v |= uint32(src[i+k]&0x3f) << (6 * k)
		}
		for k := j; k < n; k++ {
			dst[k] = byte(v)
			v >>= 8
		}
	}
	return n
}

// mxTables holds the exact float64 value of every code of the formats that
// cltype has no kind for, indexed by code: F8_E8M0 (256 codes), F4 (16),
// F6_E2M3 and F6_E3M2 (64 each), from internal/minifloat's rows.
var mxTables = func() map[DType]*[256]float64 {
	rows := map[DType]*minifloat.Format{
		F8_E8M0: minifloat.E8M0,
		F4:      minifloat.E2M1,
		F6_E2M3: minifloat.E2M3,
		F6_E3M2: minifloat.E3M2,
	}
	out := make(map[DType]*[256]float64, len(rows))
	for d, row := range rows {
		t := new([256]float64)
		for code := uint64(0); code <= row.Mask(); code++ {
			t[code] = math.Float64frombits(minifloat.ToFloat64Bits(row, code))
		}
		out[d] = t
	}
	return out
}()

// isMX reports whether d is one of the formats ReadInto decodes through
// mxTables.
func isMX(d DType) bool { return d == F8_E8M0 || d == F4 || d == F6_E2M3 || d == F6_E3M2 }
