package gguf

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// ValueType is the wire type of a metadata value (enum gguf_type in
// gguf.h).
type ValueType uint32

// The value types, with their ids on the wire.
const (
	ValueUint8   ValueType = 0
	ValueInt8    ValueType = 1
	ValueUint16  ValueType = 2
	ValueInt16   ValueType = 3
	ValueUint32  ValueType = 4
	ValueInt32   ValueType = 5
	ValueFloat32 ValueType = 6
	ValueBool    ValueType = 7
	ValueString  ValueType = 8
	ValueArray   ValueType = 9
	ValueUint64  ValueType = 10
	ValueInt64   ValueType = 11
	ValueFloat64 ValueType = 12

	numValueTypes = 13
)

// valueTypeNames are gguf.cpp's GGUF_TYPE_NAME.
var valueTypeNames = [numValueTypes]string{"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "str", "arr", "u64", "i64", "f64"}

// valueTypeSizes are gguf.cpp's GGUF_TYPE_SIZE: 0 for string and array.
var valueTypeSizes = [numValueTypes]int{1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8}

// Valid reports whether t is one of the thirteen value types.
func (t ValueType) Valid() bool { return t < numValueTypes }

// String returns gguf.cpp's name for t ("u8", "f32", "str", "arr"), or
// "valuetype(N)".
func (t ValueType) String() string {
	if t.Valid() {
		return valueTypeNames[t]
	}
	return "valuetype(" + strconv.FormatUint(uint64(t), 10) + ")"
}

// Size returns the bytes one value of t takes on the wire, or 0 for
// strings, arrays and invalid types, whose size varies.
func (t ValueType) Size() int {
	if t.Valid() {
		return valueTypeSizes[t]
	}
	return 0
}

// fixed reports whether t is a number or a bool.
func (t ValueType) fixed() bool { return t.Size() > 0 }

// Value is one metadata value: a number, a bool, a string, or an array of
// one of those or of arrays. It keeps its wire type, so that writing it
// gives back the bytes it was read from: a uint16 stays a uint16, a float32
// keeps its bits (NaN payloads included). Make values with the New
// functions; the zero Value is the uint8 0.
type Value struct {
	typ  ValueType
	elem ValueType // an array's element type
	bits uint64    // a number's bits, zero-extended; a bool is 0 or 1
	str  string    // a string
	raw  []byte    // an array of numbers or bools: the elements as on the wire
	strs []string  // an array of strings
	arrs []Value   // an array of arrays
}

func fixedValue(t ValueType, bits uint64) Value { return Value{typ: t, bits: bits} }

// NewUint8 returns a uint8 value.
func NewUint8(v uint8) Value { return fixedValue(ValueUint8, uint64(v)) }

// NewInt8 returns an int8 value.
func NewInt8(v int8) Value { return fixedValue(ValueInt8, uint64(uint8(v))) }

// NewUint16 returns a uint16 value.
func NewUint16(v uint16) Value { return fixedValue(ValueUint16, uint64(v)) }

// NewInt16 returns an int16 value.
func NewInt16(v int16) Value { return fixedValue(ValueInt16, uint64(uint16(v))) }

// NewUint32 returns a uint32 value.
func NewUint32(v uint32) Value { return fixedValue(ValueUint32, uint64(v)) }

// NewInt32 returns an int32 value.
func NewInt32(v int32) Value { return fixedValue(ValueInt32, uint64(uint32(v))) }

// NewFloat32 returns a float32 value.
func NewFloat32(v float32) Value { return fixedValue(ValueFloat32, uint64(math.Float32bits(v))) }

// NewBool returns a bool value.
func NewBool(v bool) Value {
	if v {
		return fixedValue(ValueBool, 1)
	}
	return fixedValue(ValueBool, 0)
}

// NewString returns a string value. GGUF strings are bytes; they need not
// be UTF-8.
func NewString(v string) Value { return Value{typ: ValueString, str: v} }

// NewUint64 returns a uint64 value.
func NewUint64(v uint64) Value { return fixedValue(ValueUint64, v) }

// NewInt64 returns an int64 value.
func NewInt64(v int64) Value { return fixedValue(ValueInt64, uint64(v)) }

// NewFloat64 returns a float64 value.
func NewFloat64(v float64) Value { return fixedValue(ValueFloat64, math.Float64bits(v)) }

// Element is the Go types that NewArray takes: each maps to one value type
// (int8 to ValueInt8, float32 to ValueFloat32, string to ValueString ...).
type Element interface {
	uint8 | int8 | uint16 | int16 | uint32 | int32 | float32 | bool | string | uint64 | int64 | float64
}

// NewArray returns an array of the elements in v, whose value type follows
// from T. The slice is copied.
func NewArray[T Element](v []T) Value {
	var zero T
	switch any(zero).(type) {
	case string:
		return Value{typ: ValueArray, elem: ValueString, strs: append([]string{}, any(v).([]string)...)}
	case bool:
		raw := make([]byte, len(v))
		for i, b := range any(v).([]bool) {
			if b {
				raw[i] = 1
			}
		}
		return Value{typ: ValueArray, elem: ValueBool, raw: raw}
	}
	var t ValueType
	var put func(b []byte, i int)
	switch a := any(v).(type) {
	case []uint8:
		t, put = ValueUint8, func(b []byte, i int) { b[0] = a[i] }
	case []int8:
		t, put = ValueInt8, func(b []byte, i int) { b[0] = uint8(a[i]) }
	case []uint16:
		t, put = ValueUint16, func(b []byte, i int) { binary.LittleEndian.PutUint16(b, a[i]) }
	case []int16:
		t, put = ValueInt16, func(b []byte, i int) { binary.LittleEndian.PutUint16(b, uint16(a[i])) }
	case []uint32:
		t, put = ValueUint32, func(b []byte, i int) { binary.LittleEndian.PutUint32(b, a[i]) }
	case []int32:
		t, put = ValueInt32, func(b []byte, i int) { binary.LittleEndian.PutUint32(b, uint32(a[i])) }
	case []float32:
		t, put = ValueFloat32, func(b []byte, i int) { binary.LittleEndian.PutUint32(b, math.Float32bits(a[i])) }
	case []uint64:
		t, put = ValueUint64, func(b []byte, i int) { binary.LittleEndian.PutUint64(b, a[i]) }
	case []int64:
		t, put = ValueInt64, func(b []byte, i int) { binary.LittleEndian.PutUint64(b, uint64(a[i])) }
	case []float64:
		t, put = ValueFloat64, func(b []byte, i int) { binary.LittleEndian.PutUint64(b, math.Float64bits(a[i])) }
	}
	size := t.Size()
	raw := make([]byte, len(v)*size)
	for i := range v {
		put(raw[i*size:], i)
	}
	return Value{typ: ValueArray, elem: t, raw: raw}
}

// NewArrayOfArrays returns an array whose elements are arrays (a nested
// array, which the GGUF specification allows and ggml's reader refuses: see
// the package documentation). It panics if an element is not an array.
func NewArrayOfArrays(v []Value) Value {
	for _, e := range v {
		if e.typ != ValueArray {
			panic("gguf: NewArrayOfArrays: element of type " + e.typ.String() + ", not an array")
		}
	}
	return Value{typ: ValueArray, elem: ValueArray, arrs: append([]Value{}, v...)}
}

// Type returns v's wire type: ValueArray for an array (Elem gives the
// element type).
func (v Value) Type() ValueType { return v.typ }

// Elem returns the element type of an array, or false if v is not one.
func (v Value) Elem() (ValueType, bool) {
	if v.typ != ValueArray {
		return 0, false
	}
	return v.elem, true
}

// Len returns the number of elements of an array, or 0.
func (v Value) Len() int {
	if v.typ != ValueArray {
		return 0
	}
	switch v.elem {
	case ValueString:
		return len(v.strs)
	case ValueArray:
		return len(v.arrs)
	}
	return len(v.raw) / v.elem.Size()
}

// Index returns element i of an array as a Value. It panics if v is not an
// array or i is out of range, as a slice index would.
func (v Value) Index(i int) Value {
	if v.typ != ValueArray {
		panic("gguf: Index of a " + v.typ.String() + " value")
	}
	switch v.elem {
	case ValueString:
		return NewString(v.strs[i])
	case ValueArray:
		return v.arrs[i]
	}
	size := v.elem.Size()
	return fixedValue(v.elem, getLE(v.raw[i*size:i*size+size]))
}

// Array returns the elements of an array as Values, or false if v is not
// an array.
func (v Value) Array() ([]Value, bool) {
	if v.typ != ValueArray {
		return nil, false
	}
	out := make([]Value, v.Len())
	for i := range out {
		out[i] = v.Index(i)
	}
	return out, true
}

// Strings returns the elements of an array of strings (a tokenizer's
// vocabulary), or false if v is not one. The slice is v's own: do not
// modify it.
func (v Value) Strings() ([]string, bool) {
	if v.typ != ValueArray || v.elem != ValueString {
		return nil, false
	}
	return v.strs, true
}

// getLE reads a little-endian number of 1, 2, 4 or 8 bytes.
func getLE(b []byte) uint64 {
	switch len(b) {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

// signed returns the value of a signed integer v, sign-extended.
func (v Value) signed() int64 {
	switch v.typ {
	case ValueInt8:
		return int64(int8(v.bits))
	case ValueInt16:
		return int64(int16(v.bits))
	case ValueInt32:
		return int64(int32(v.bits))
	}
	return int64(v.bits)
}

// Uint returns the value of an integer of any width and signedness that is
// not negative, or false (for a negative integer or another type).
func (v Value) Uint() (uint64, bool) {
	switch v.typ {
	case ValueUint8, ValueUint16, ValueUint32, ValueUint64:
		return v.bits, true
	case ValueInt8, ValueInt16, ValueInt32, ValueInt64:
		if s := v.signed(); s >= 0 {
			return uint64(s), true
		}
	}
	return 0, false
}

// Int returns the value of an integer of any width and signedness that
// fits an int64, or false (for a uint64 above 2^63-1 or another type).
func (v Value) Int() (int64, bool) {
	switch v.typ {
	case ValueUint8, ValueUint16, ValueUint32:
		return int64(v.bits), true
	case ValueUint64:
		if v.bits <= math.MaxInt64 {
			return int64(v.bits), true
		}
	case ValueInt8, ValueInt16, ValueInt32, ValueInt64:
		return v.signed(), true
	}
	return 0, false
}

// Bits returns the bits of a number or bool as the file holds them (little
// endian, zero-extended: a float32's IEEE bits, an int8 -1 as 0xff), or
// false for a string or an array.
func (v Value) Bits() (uint64, bool) {
	if !v.typ.fixed() {
		return 0, false
	}
	return v.bits, true
}

// Float returns the value of a float32 (widened, exactly but for a
// signaling NaN, which the conversion may quiet: Bits has its bits) or a
// float64, or false.
func (v Value) Float() (float64, bool) {
	switch v.typ {
	case ValueFloat32:
		return float64(math.Float32frombits(uint32(v.bits))), true
	case ValueFloat64:
		return math.Float64frombits(v.bits), true
	}
	return 0, false
}

// Bool returns the value of a bool, or false, false.
func (v Value) Bool() (value, ok bool) {
	if v.typ != ValueBool {
		return false, false
	}
	return v.bits != 0, true
}

// Str returns the value of a string, or false.
func (v Value) Str() (string, bool) {
	if v.typ != ValueString {
		return "", false
	}
	return v.str, true
}

// String returns the string of a string value, as reflect.Value.String
// does; for any other value, a short description: "u32 7", "f32 0.5",
// "bool true", "[3]i32{1, 2, 3}" (arrays of more than 8 elements end in
// "...").
func (v Value) String() string {
	if v.typ == ValueString {
		return v.str
	}
	var b strings.Builder
	v.format(&b)
	return b.String()
}

func (v Value) format(b *strings.Builder) {
	switch v.typ {
	case ValueString:
		b.WriteString(strconv.Quote(v.str))
	case ValueArray:
		n := v.Len()
		b.WriteString("[" + strconv.Itoa(n) + "]" + v.elem.String() + "{")
		for i := 0; i < n && i < 8; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			e := v.Index(i)
			if e.typ == ValueArray || e.typ == ValueString {
				e.format(b)
			} else {
				b.WriteString(e.scalarText())
			}
		}
		if n > 8 {
			b.WriteString(", ...")
		}
		b.WriteString("}")
	default:
		b.WriteString(v.typ.String() + " " + v.scalarText())
	}
}

// scalarText formats a number or bool: floats in the shortest form that
// reads back to the same bits.
func (v Value) scalarText() string {
	switch v.typ {
	case ValueFloat32:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(v.bits))), 'g', -1, 32)
	case ValueFloat64:
		return strconv.FormatFloat(math.Float64frombits(v.bits), 'g', -1, 64)
	case ValueBool:
		return strconv.FormatBool(v.bits != 0)
	case ValueInt8, ValueInt16, ValueInt32, ValueInt64:
		return strconv.FormatInt(v.signed(), 10)
	}
	return strconv.FormatUint(v.bits, 10)
}

// Equal reports whether v and w are the same value of the same type: the
// same bits for floats (so a NaN equals itself and 0 is not -0).
func (v Value) Equal(w Value) bool {
	if v.typ != w.typ || v.elem != w.elem || v.bits != w.bits || v.str != w.str ||
		string(v.raw) != string(w.raw) || len(v.strs) != len(w.strs) || len(v.arrs) != len(w.arrs) {
		return false
	}
	for i := range v.strs {
		if v.strs[i] != w.strs[i] {
			return false
		}
	}
	for i := range v.arrs {
		if !v.arrs[i].Equal(w.arrs[i]) {
			return false
		}
	}
	return true
}
