package convert

import (
	"encoding/binary"

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
