package value

import (
	"math"
	"strconv"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/numfmt"
)

// Format returns v as clconv's tools print it: "(int)2" for a scalar,
// "(uchar4)(0, 254, 255, 255)" for a vector (a 3-vector shows three
// elements). Integers print in decimal; half, bfloat16, float and double in
// the shortest decimal form that reads back to the same bits ("0.1",
// "16777216", "1e+21", "-0"), the 8-bit and smaller formats in their exact
// value (AppendScalar), and "inf", "-inf", "nan", "-nan" (a NaN's sign is
// shown, its payload is not).
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
// scalar kind k as clconv prints it: integers in decimal, half, bfloat16,
// float and double in the shortest decimal that reads back to the same
// value, the 8-bit and smaller formats in their exact value (each is short:
// "448", "0.0625"; e8m0's longest as a hex float, "0x1p-127"), and
// infinities and NaNs as OpenCL's printf names them ("inf", "-inf", "nan",
// "-nan").
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
	case cltype.BFloat16:
		return append(b, bfloat16.BFloat16(x).String()...)
	case cltype.E4M3:
		return append(b, fp8.E4M3(x).String()...)
	case cltype.E5M2:
		return append(b, fp8.E5M2(x).String()...)
	case cltype.E2M1:
		return append(b, fp4.E2M1(x).String()...)
	case cltype.E2M3:
		return append(b, fp6.E2M3(x).String()...)
	case cltype.E3M2:
		return append(b, fp6.E3M2(x).String()...)
	case cltype.E8M0:
		return append(b, fp8.E8M0(x).String()...)
	case cltype.E4M3FNUZ:
		return append(b, fp8.E4M3FNUZ(x).String()...)
	case cltype.E5M2FNUZ:
		return append(b, fp8.E5M2FNUZ(x).String()...)
	case cltype.Float:
		// Classified by its bits: widening a NaN to float64 would let the
		// hardware rewrite it (RISC-V makes every NaN the positive canonical
		// one; MIPS's legacy encoding takes 0x7fc00000 for a signaling NaN).
		if s, ok := special(x>>31&1 != 0, x>>23&0xff == 0xff, x&(1<<23-1) != 0); ok {
			return append(b, s...)
		}
		return numfmt.AppendShortest(b, float64(math.Float32frombits(uint32(x))), 32)
	case cltype.Double:
		if s, ok := special(x>>63 != 0, x>>52&0x7ff == 0x7ff, x&(1<<52-1) != 0); ok {
			return append(b, s...)
		}
		return numfmt.AppendShortest(b, math.Float64frombits(x), 64)
	}
	return append(b, '?')
}

// special names infinities and NaNs the way OpenCL's printf does, from a
// value's sign, whether its exponent field is all ones and whether its
// fraction is nonzero.
func special(neg, maxExp, frac bool) (string, bool) {
	switch {
	case !maxExp:
		return "", false
	case frac && neg:
		return "-nan", true
	case frac:
		return "nan", true
	case neg:
		return "-inf", true
	}
	return "inf", true
}
