package clc

import (
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// ConversionKind says how a conversion was written.
type ConversionKind uint8

// The ways a conversion is written.
const (
	// ConvertCall is a call of convert_<type>[n][_sat][_rte|_rtz|_rtp|_rtn].
	ConvertCall ConversionKind = iota + 1
	// Cast is a C cast (type)x, or a scalar element of a vector literal
	// ((float4)(1, 2, 3, 4) casts each element).
	Cast
	// Implicit is a conversion OpenCL C inserts: initialization,
	// assignment, arguments and return values, the usual arithmetic
	// conversions, the integer promotions, and a scalar widened to a vector.
	Implicit
)

// String returns "convert", "cast" or "implicit".
func (k ConversionKind) String() string {
	switch k {
	case ConvertCall:
		return "convert"
	case Cast:
		return "cast"
	case Implicit:
		return "implicit"
	}
	return "invalid"
}

// Conversion is one conversion between two of the eleven conversion kinds
// that an expression performed, as Evaluator.OnConversion reports it.
// Conversions to or from bool are not reported, nor casts and implicit
// conversions to the operand's own element type (the elements of
// (float2)(1.0f, 2.0f), the scalar of (float4)(1.0f)), which change nothing;
// a convert_ call is always reported.
type Conversion struct {
	Pos  Pos
	Kind ConversionKind
	// Op is the convert_ function the conversion amounts to: a cast or an
	// implicit conversion is convert_<type> without _sat and without a
	// rounding suffix (OpenCL gives them the same results, clconv's
	// saturating choice for NaN and out-of-range included). Op.Dst has the
	// element count of Src: a scalar widened to a vector is converted first.
	Op convert.Op
	// Mode is the rounding mode in force where the conversion is written;
	// Op.Mode(Mode) is the mode it rounded in.
	Mode round.Mode
	// Src is the operand and Result the converted value (before widening).
	Src, Result value.Value
}

// reportConversion passes a conversion to the machine's observer, if any.
func (m *machine) reportConversion(pos Pos, kind ConversionKind, op convert.Op, mode round.Mode, src, res value.Value) {
	if m.onConv == nil || src.Type.Kind == cltype.Bool || op.Dst.Kind == cltype.Bool ||
		kind != ConvertCall && src.Type.Kind == op.Dst.Kind {
		return
	}
	m.onConv(Conversion{Pos: pos, Kind: kind, Op: op, Mode: mode, Src: src, Result: res})
}

// castKind tells a cast from the conversions the checker inserts.
func castKind(what string) ConversionKind {
	if what == "cast to" {
		return Cast
	}
	return Implicit
}
