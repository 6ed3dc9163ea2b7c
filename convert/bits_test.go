package convert

import (
	"encoding/binary"
	"unsafe"

	"github.com/clconv/clconv/cltype"
)

// StoreBits writes the low bits of v as element j of kind k in b,
// little-endian as Bytes reads it; LoadBits reads element j back,
// zero-extended. Tests of both test packages use them (exported here, in a
// test file, for convert_test).
func StoreBits(b []byte, k cltype.Kind, j int, v uint64) {
	switch k.Size() {
	case 1:
		b[j] = uint8(v)
	case 2:
		binary.LittleEndian.PutUint16(b[2*j:], uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b[4*j:], uint32(v))
	default:
		binary.LittleEndian.PutUint64(b[8*j:], v)
	}
}

// LoadBits reads little-endian element j of kind k from b, zero-extended.
func LoadBits(b []byte, k cltype.Kind, j int) uint64 {
	switch k.Size() {
	case 1:
		return uint64(b[j])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b[2*j:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b[4*j:]))
	}
	return binary.LittleEndian.Uint64(b[8*j:])
}

// CheckedBits is ToChecked on bit patterns (for the tests of convert_test):
// the result's pattern and the error, a *RangeError whose Value is b.
func CheckedBits(dst, src cltype.Kind, b uint64, m Mode) (uint64, error) {
	var in, out uint64
	storeBits(src, unsafe.Pointer(&in), b)
	if !convertChecked(dst, src, unsafe.Pointer(&out), unsafe.Pointer(&in), m) {
		return loadBits(dst, unsafe.Pointer(&out)), rangeError(-1, b, dst, src, unsafe.Pointer(&in), m)
	}
	return loadBits(dst, unsafe.Pointer(&out)), nil
}
