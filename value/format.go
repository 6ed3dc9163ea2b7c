package value

import (
	"math"
	"strconv"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/numfmt"
)

// Format returns v as clconv's tools print it: "(int)2" for a scalar,
// "(uchar4)(0, 254, 255, 255)" for a vector (a 3-vector shows three
// elements). Integers print in decimal; floating values in the shortest
// decimal form that reads back to the same bits ("0.1", "16777216", "1e+21", "-0"; plain notation for decimal exponents -5..20), and
// "inf", "-inf", "nan", "-nan" (a NaN's sign is shown, its payload is not).
// bool prints as "true" or "false".
//
// With bits set, every element prints as its bit pattern in hex, zero-padded
// to the element width: "(float)0x3f800000", "(uchar4)(0x00, 0xfe, 0xff, 0xff)".
func Format(v Value, bits bool) string {
	return string(AppendFormat(nil, v, bits))
}

// AppendFormat appends Format(v, bits) to b and returns the extended buffer.
func AppendFormat(b []byte, v Value, bits bool) []byte {
	b = append(b, '(')
	b = append(b, v.Type.String()...)
	b = append(b, ')')
	if v.Type.N > 1 {
		b = append(b, '(')
	}
	for i := range v.Type.N {
		if i > 0 {
			b = append(b, ", "...)
		}
		if bits {
			b = appendHex(b, v.Lanes[i], v.Type.Kind)
		} else {
			b = AppendScalar(b, v.Lanes[i], v.Type.Kind)
		}
	}
	if v.Type.N > 1 {
		b = append(b, ')')
	}
	return b
}

func appendHex(b []byte, x uint64, k cltype.Kind) []byte {
	digits := max(k.Size()*2, 1)
	h := strconv.FormatUint(x, 16)
	b = append(b, "0x"...)
	for range digits - len(h) {
		b = append(b, '0')
	}
	return append(b, h...)
}

// AppendScalar appends the value of the bit pattern x (zero-extended) of
// scalar kind k as clconv prints it: integers in decimal, floating values in
// the shortest decimal that reads back to the same value, and infinities and
// NaNs as OpenCL's printf names them ("inf", "-inf", "nan", "-nan").
func AppendScalar(b []byte, x uint64, k cltype.Kind) []byte {
	switch k {
	case cltype.Bool:
		return strconv.AppendBool(b, x != 0)
	case cltype.Char, cltype.Short, cltype.Int, cltype.Long:
		shift := 64 - k.Bits()
		return strconv.AppendInt(b, int64(x<<shift)>>shift, 10)
	case cltype.Uchar, cltype.Ushort, cltype.Uint, cltype.Ulong:
		return strconv.AppendUint(b, x, 10)
	case cltype.Half:
		return append(b, half.Half(x).String()...)
	case cltype.Float:
		f := math.Float32frombits(uint32(x))
		if s, ok := special(float64(f)); ok {
			return append(b, s...)
		}
		return numfmt.AppendShortest(b, float64(f), 32)
	case cltype.Double:
		f := math.Float64frombits(x)
		if s, ok := special(f); ok {
			return append(b, s...)
		}
		return numfmt.AppendShortest(b, f, 64)
	}
	return append(b, '?')
}

// special names infinities and NaNs the way OpenCL's printf does.
func special(f float64) (string, bool) {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan", true
		}
		return "nan", true
	case math.IsInf(f, 1):
		return "inf", true
	case math.IsInf(f, -1):
		return "-inf", true
	}
	return "", false
}
