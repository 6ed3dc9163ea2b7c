package convert

import (
	"unsafe"

	"github.com/clconv/clconv/cltype"
)

// StoreBits writes the low bits of v as element j of kind k in b; LoadBits
// reads element j back, zero-extended. Tests of both test packages use them
// (exported here, in a test file, for convert_test).
func StoreBits(b []byte, k cltype.Kind, j int, v uint64) {
	p := unsafe.Pointer(&b[0])
	switch k.Size() {
	case 1:
		*(*uint8)(unsafe.Add(p, j)) = uint8(v)
	case 2:
		*(*uint16)(unsafe.Add(p, 2*j)) = uint16(v)
	case 4:
		*(*uint32)(unsafe.Add(p, 4*j)) = uint32(v)
	default:
		*(*uint64)(unsafe.Add(p, 8*j)) = v
	}
}

// LoadBits reads element j of kind k from b, zero-extended.
func LoadBits(b []byte, k cltype.Kind, j int) uint64 {
	p := unsafe.Pointer(&b[0])
	switch k.Size() {
	case 1:
		return uint64(*(*uint8)(unsafe.Add(p, j)))
	case 2:
		return uint64(*(*uint16)(unsafe.Add(p, 2*j)))
	case 4:
		return uint64(*(*uint32)(unsafe.Add(p, 4*j)))
	}
	return *(*uint64)(unsafe.Add(p, 8*j))
}
