package value

import (
	"encoding/binary"
	"fmt"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// LaneMask has bit i set for each lane i that a conversion or an operation
// flags (see ConvertImpl and BinaryOverflow).
type LaneMask uint16

// Has reports whether lane i is set in m.
func (m LaneMask) Has(i int) bool { return m&(1<<i) != 0 }

// Convert applies the convert_ function op to v element-wise, with cur as the
// current rounding mode (used by floating destinations without a rounding
// suffix). op.Dst.N must equal v's element count. Out-of-range and NaN inputs
// of a non-saturating float->integer conversion give the saturated value
// (clconv's choice where OpenCL leaves the result implementation-defined);
// ConvertImpl reports which lanes those were.
func Convert(v Value, op convert.Op, cur round.Mode) (Value, error) {
	r, _, err := ConvertImpl(v, op, cur)
	return r, err
}

// ConvertImpl is Convert that also returns the lanes whose result OpenCL leaves
// implementation-defined (a non-saturating float->integer conversion of NaN or
// of a value whose rounded result is out of range), so tools can warn.
func ConvertImpl(v Value, op convert.Op, cur round.Mode) (Value, LaneMask, error) {
	name := op.Name()
	if !op.Dst.Kind.Convertible() || !cltype.ValidWidth(op.Dst.N) {
		return Value{}, 0, fmt.Errorf("%s: invalid destination type %v", name, op.Dst)
	}
	if op.Sat && op.Dst.Kind.IsFloat() {
		return Value{}, 0, fmt.Errorf("%s: _sat is not allowed with a floating destination (%v)", name, op.Dst)
	}
	if v.Type.Kind == cltype.Bool {
		return Value{}, 0, fmt.Errorf("%s: bool takes no part in convert_", name)
	}
	if !validType(v.Type) {
		return Value{}, 0, fmt.Errorf("%s: invalid operand type %v", name, v.Type)
	}
	if op.Dst.N != v.Type.N {
		if op.Dst.N == 1 {
			return Value{}, 0, fmt.Errorf("%s needs a scalar operand, got %v", name, v.Type)
		}
		return Value{}, 0, fmt.Errorf("%s needs a %d-element operand, got %v", name, op.Dst.N, v.Type)
	}
	m := op.Mode(cur)
	r := Value{Type: op.Dst}
	var impl LaneMask
	for i := range v.Type.N {
		out, id := convert.Bits(op.Dst.Kind, v.Type.Kind, v.Lanes[i], m, op.Sat)
		r.Lanes[i] = out
		if id {
			impl |= 1 << i
		}
	}
	return r, impl, nil
}

// Cast converts every element of v to kind k as a C cast or an implicit
// conversion does: like convert_<k> without a suffix and without saturation
// (toward zero to integer kinds, the current mode cur to floating kinds;
// integers wrap), and to bool, element != 0. v's element count is kept, so a
// vector cannot become bool. The mask reports lanes whose result OpenCL leaves
// implementation-defined or undefined (clconv gives the saturated value).
func Cast(v Value, k cltype.Kind, cur round.Mode) (Value, LaneMask, error) {
	if !validType(v.Type) {
		return Value{}, 0, fmt.Errorf("invalid operand type %v", v.Type)
	}
	t := cltype.Vec(k, v.Type.N)
	if !validType(t) {
		return Value{}, 0, fmt.Errorf("cannot convert %v to %v", v.Type, t)
	}
	r := Value{Type: t}
	var impl LaneMask
	for i := range v.Type.N {
		out, id := CastLane(k, v.Type.Kind, v.Lanes[i], cur)
		r.Lanes[i] = out
		if id {
			impl |= 1 << i
		}
	}
	return r, impl, nil
}

// As reinterprets v's bits as type t, as OpenCL C's as_<t> does. The byte
// sizes must match, a 3-vector counting as four elements. With the same
// element count the bits are unchanged (NaN payloads included); a 4-vector to
// a 3-vector keeps the first three elements. Other changes of element count are
// implementation-defined in OpenCL; clconv reinterprets the little-endian
// memory image of v's storage (what a union does on x86 and ARM). The fourth
// storage lane of a 3-vector takes part in that image: it is 0 unless the
// 3-vector came from a 4-vector through as_, and As keeps it only when the
// source has 3 or 4 elements.
func As(v Value, t cltype.Type) (Value, error) {
	name := "as_" + t.String()
	if t.Kind == cltype.Bool || v.Type.Kind == cltype.Bool {
		return Value{}, fmt.Errorf("%s: bool takes no part in as_", name)
	}
	if !validType(t) {
		return Value{}, fmt.Errorf("%s: invalid type %v", name, t)
	}
	if !validType(v.Type) {
		return Value{}, fmt.Errorf("%s: invalid operand type %v", name, v.Type)
	}
	if t.Size() != v.Type.Size() {
		return Value{}, fmt.Errorf("%s needs an operand of %d bytes, got %v (%d bytes)", name, t.Size(), v.Type, v.Type.Size())
	}
	var mem [MaxLanes * 8]byte
	ss, ds := v.Type.Kind.Size(), t.Kind.Size()
	for i := range v.Type.Storage() {
		putLane(mem[i*ss:], ss, v.Lanes[i])
	}
	r := Value{Type: t}
	for i := range t.Storage() {
		r.Lanes[i] = getLane(mem[i*ds:], ds)
	}
	if t.N == 3 && v.Type.N != 3 && v.Type.N != 4 {
		r.Lanes[3] = 0
	}
	return r, nil
}

func putLane(b []byte, size int, x uint64) {
	switch size {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(x))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(x))
	case 8:
		binary.LittleEndian.PutUint64(b, x)
	}
}

func getLane(b []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
