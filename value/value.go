// Package value holds dynamic OpenCL C values — a type tag and up to sixteen
// lanes of raw bits — for tools that learn types only at run time: the clc
// front end, the CLI and the device checker.
//
// Conversions here are a thin layer over package convert: Convert, Cast and
// the From* constructors call convert.Bits lane by lane, so a value computed
// by a tool is bit for bit what the typed library computes. As implements
// as_<type>n, Format prints values the way clconv's tools show them,
// ParseLiteral reads OpenCL C integer and floating constants, and Binary, Neg
// and Complement do the arithmetic the front end needs (floating arithmetic
// correctly rounded in all four modes, through round's and half's primitives).
// Their steps for one lane (BinaryLaneOp, CastLane, NegLane, ComplementLane,
// Truth) serve callers that know the types ahead of time and keep raw lanes,
// as package clc's compiled programs do.
//
// # Lanes
//
// Lane i holds element i's bit pattern zero-extended to 64 bits (a half lane
// holds its binary16 bits, a float lane its binary32 bits, a char lane the low
// 8 bits of its two's complement value). Lanes past the type's storage are 0. A
// 3-vector occupies the storage of a 4-vector, as in OpenCL C: its fourth
// storage lane is invisible to everything except as_ to a type with a different
// element count, and it is 0 unless the value came from a 4-vector through as_
// (see As).
//
// A bool value (the interpreter's scalar bool) holds 0 or 1 in lane 0.
package value

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// MaxLanes is the number of lanes of the widest vector type.
const MaxLanes = 16

// Value is an OpenCL C scalar or vector value: its type and the bit pattern of
// each element.
type Value struct {
	Type  cltype.Type
	Lanes [MaxLanes]uint64
}

// validType reports whether t is a type a Value can hold.
func validType(t cltype.Type) bool {
	if t.Kind == cltype.Bool {
		return t.N == 1
	}
	return t.Kind.Convertible() && cltype.ValidWidth(t.N)
}

// laneMask returns the bit mask of one lane of kind k.
func laneMask(k cltype.Kind) uint64 {
	if k == cltype.Bool {
		return 1
	}
	return k.Mask()
}

// New returns a value of type t whose first lanes are the given bit patterns,
// each truncated to the element width (for bool: nonzero -> 1); missing lanes
// are 0. New panics if t is not a valid type or more lanes are given than t
// stores: it is for callers that have already checked their input.
func New(t cltype.Type, lanes ...uint64) Value {
	if !validType(t) {
		panic(fmt.Sprintf("value.New: invalid type %v", t))
	}
	if len(lanes) > t.Storage() {
		panic(fmt.Sprintf("value.New: %d lanes for %v", len(lanes), t))
	}
	v := Value{Type: t}
	m := laneMask(t.Kind)
	for i, b := range lanes {
		if t.Kind == cltype.Bool && b != 0 {
			b = 1
		}
		v.Lanes[i] = b & m
	}
	return v
}

// Zero returns the zero value of type t (all bits clear: +0.0 for floating
// types). It panics if t is not a valid type.
func Zero(t cltype.Type) Value { return New(t) }

// FromInt64 returns x as a scalar of kind k, as a C conversion from long
// gives it: the low bits for integer kinds (wrapping), correctly rounded to
// nearest even for floating kinds, x != 0 for bool.
func FromInt64(k cltype.Kind, x int64) Value {
	return fromBits(k, cltype.Long, uint64(x))
}

// FromUint64 is FromInt64 for an unsigned source (a conversion from ulong).
func FromUint64(k cltype.Kind, x uint64) Value {
	return fromBits(k, cltype.Ulong, x)
}

// FromFloat64 returns x as a scalar of kind k: rounded to nearest even for
// half and float (exact for double); for integer kinds, as a C cast does
// (toward zero; out of range and NaN give the saturated value, clconv's
// choice); x != 0 for bool (NaN is true).
func FromFloat64(k cltype.Kind, x float64) Value {
	return fromBits(k, cltype.Double, math.Float64bits(x))
}

func fromBits(k cltype.Kind, src cltype.Kind, b uint64) Value {
	if k == cltype.Bool {
		return New(cltype.Scalar(k), truth(src, b))
	}
	out, _ := convert.Bits(k, src, b, convert.EffectiveMode(k, convert.NoSuffix, round.RTE), false)
	return New(cltype.Scalar(k), out)
}

// truth returns 1 if the lane b of kind k compares unequal to zero (NaN is
// unequal to everything), else 0.
func truth(k cltype.Kind, b uint64) uint64 {
	switch k {
	case cltype.Half:
		b &= 0x7fff
	case cltype.Float:
		b &= 0x7fffffff
	case cltype.Double:
		b &= 0x7fffffffffffffff
	case cltype.BFloat16:
		b &= 0x7fff
	case cltype.E8M0:
		b = 1 // no zero: every value, and the NaN, is true
	case cltype.E2M1:
		b &= 0x7
	case cltype.E2M3, cltype.E3M2:
		b &= 0x1f
	case cltype.E4M3, cltype.E5M2:
		b &= 0x7f
	case cltype.E4M3FNUZ, cltype.E5M2FNUZ:
		b &= 0xff // 0x80 is the NaN, true as every NaN is; only 0 is false
	}
	if b != 0 {
		return 1
	}
	return 0
}

// Broadcast returns the n-element vector whose every element is the scalar s
// (n == 1 returns s). It fails if s is not a scalar, n is not a legal width or
// s is a bool (there are no bool vectors).
func Broadcast(s Value, n int) (Value, error) {
	if s.Type.N != 1 {
		return Value{}, fmt.Errorf("cannot broadcast %v: not a scalar", s.Type)
	}
	if !cltype.ValidWidth(n) {
		return Value{}, fmt.Errorf("cannot broadcast to %d elements: vector width must be 2, 3, 4, 8 or 16", n)
	}
	if n > 1 && s.Type.Kind == cltype.Bool {
		return Value{}, fmt.Errorf("there are no bool vectors")
	}
	v := Value{Type: cltype.Vec(s.Type.Kind, n)}
	for i := range n {
		v.Lanes[i] = s.Lanes[0]
	}
	return v, nil
}

// Len returns the number of elements of v (3 for a 3-vector).
func (v Value) Len() int { return v.Type.N }

// Lane returns the bit pattern of element i (or of a storage lane past the
// last element, for 3-vectors), zero-extended.
func (v Value) Lane(i int) uint64 { return v.Lanes[i] }

// Elem returns element i as a scalar value.
func (v Value) Elem(i int) Value {
	return Value{Type: cltype.Scalar(v.Type.Kind), Lanes: [MaxLanes]uint64{v.Lanes[i]}}
}

// Float64 returns element i as a float64: exact for half, float and double
// and for integers of magnitude up to 2^53, rounded to nearest even beyond.
// A NaN keeps its sign and high payload bits.
func (v Value) Float64(i int) float64 {
	k, b := v.srcKind(i)
	out, _ := convert.Bits(cltype.Double, k, b, round.RTE, false)
	return math.Float64frombits(out)
}

// Int64 returns element i as convert_long would: integers sign- or
// zero-extended (a ulong above 2^63-1 wraps), floating values rounded toward
// zero and saturated (NaN gives 0).
func (v Value) Int64(i int) int64 {
	k, b := v.srcKind(i)
	out, _ := convert.Bits(cltype.Long, k, b, round.RTZ, false)
	return int64(out)
}

// Uint64 returns element i as convert_ulong would: integers wrap modulo 2^64
// (-1 gives 2^64-1), floating values are rounded toward zero and saturated
// (negative values and NaN give 0).
func (v Value) Uint64(i int) uint64 {
	k, b := v.srcKind(i)
	out, _ := convert.Bits(cltype.Ulong, k, b, round.RTZ, false)
	return out
}

// Bool returns whether element i compares unequal to zero (NaN does).
func (v Value) Bool(i int) bool { return truth(v.Type.Kind, v.Lanes[i]) != 0 }

// srcKind returns the kind convert.Bits should read lane i as (bool reads as
// uchar 0 or 1).
func (v Value) srcKind(i int) (cltype.Kind, uint64) {
	if v.Type.Kind == cltype.Bool {
		return cltype.Uchar, v.Lanes[i] & 1
	}
	return v.Type.Kind, v.Lanes[i]
}

// Equal reports whether v and w have the same type and the same bits in every
// element (so NaNs with equal bits are equal and +0 != -0). The hidden fourth
// storage lane of a 3-vector is not compared.
func (v Value) Equal(w Value) bool {
	if v.Type != w.Type {
		return false
	}
	for i := range v.Type.N {
		if v.Lanes[i] != w.Lanes[i] {
			return false
		}
	}
	return true
}

// String formats v as Format(v, false) does: "(uchar4)(0, 254, 255, 255)".
func (v Value) String() string { return Format(v, false) }
