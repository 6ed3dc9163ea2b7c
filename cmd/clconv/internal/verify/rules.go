package verify

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// hexBits formats a bit pattern at the width of kind k ("0x7fc00000").
func hexBits(k cltype.Kind, b uint64) string { return fmt.Sprintf("0x%0*x", 2*k.Size(), b&k.Mask()) }

// signExtend returns the value of an integer kind's bit pattern.
func signExtend(k cltype.Kind, b uint64) int64 {
	s := 64 - k.Bits()
	return int64(b<<s) >> s
}

// floatValue returns the value of a floating kind's bit pattern, exactly.
func floatValue(k cltype.Kind, b uint64) float64 {
	switch k {
	case cltype.Half:
		return half.Half(b).Float64()
	case cltype.Float:
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// FormatValue formats the bit pattern b of kind k as a value: integers in
// decimal, floating values in their shortest decimal form followed by the
// exact hexadecimal form ("2.1474835e+09 (0x1.fffffep+30)"), "nan", "-inf".
func FormatValue(k cltype.Kind, b uint64) string {
	b &= k.Mask()
	s := string(value.AppendScalar(nil, b, k))
	if f := floatValue(k, b); k.IsFloat() && f != 0 && !math.IsInf(f, 0) && !math.IsNaN(f) {
		s += " (" + strconv.FormatFloat(f, 'x', -1, 64) + ")"
	}
	return s
}

// exact returns the exact value of a finite input.
func exact(k cltype.Kind, b uint64) *big.Rat {
	if k.IsInteger() {
		if k.IsSigned() {
			return new(big.Rat).SetInt64(signExtend(k, b))
		}
		return new(big.Rat).SetInt(new(big.Int).SetUint64(b & k.Mask()))
	}
	return new(big.Rat).SetFloat64(floatValue(k, b))
}

// intRange returns MIN and MAX of an integer kind, exactly.
func intRange(k cltype.Kind) (lo, hi *big.Rat) {
	return new(big.Rat).SetInt64(k.MinInt()), new(big.Rat).SetInt(new(big.Int).SetUint64(k.MaxUint()))
}

// maxFinite and minNormal of a floating kind.
func maxFinite(k cltype.Kind) float64 {
	f := k.Format()
	return (2 - math.Ldexp(1, 1-f.Prec)) * math.Ldexp(1, f.Emax)
}

func minNormal(k cltype.Kind) float64 { return math.Ldexp(1, k.Format().Emin()) }

// modeWords describes a rounding mode as the spec's rule does.
func modeWords(m round.Mode) string {
	switch m {
	case round.RTZ:
		return "toward zero"
	case round.RTP:
		return "toward +inf"
	case round.RTN:
		return "toward -inf"
	}
	return "to nearest, ties to even"
}

// modeLabel names the mode a conversion uses ("rtz, the mode of float -> integer without a suffix").
func modeLabel(c digest.Conversion) string {
	m := c.Mode()
	switch {
	case c.Op.Round != convert.NoSuffix:
		return m.String()
	case c.Op.Dst.Kind.IsFloat():
		return m.String() + ", the default rounding mode"
	}
	return m.String() + ", the mode of float -> integer without a suffix"
}

// Rule names the rule of the OpenCL C specification (RULES.md) that a device
// result got breaks, where exp is the library's result; in is the input's
// bit pattern. Both results are bit patterns of the destination kind.
func Rule(c digest.Conversion, in, exp, got uint64) string {
	sk, dk, m := c.Src, c.Op.Dst.Kind, c.Mode()
	if digestspec.IsNaN(sk, in) {
		if dk.IsFloat() {
			return "NaN must convert to NaN"
		}
		return "NaN must convert to 0 under _sat"
	}
	if dk.IsFloat() {
		return floatRule(c, in, exp, got)
	}
	if sk.IsInteger() {
		v := exact(sk, in)
		lo, hi := intRange(dk)
		out := v.Cmp(lo) < 0 || v.Cmp(hi) > 0
		var r string
		switch {
		case c.Op.Sat && out:
			r = fmt.Sprintf("_sat must clamp to [%d, %d]", dk.MinInt(), dk.MaxUint())
		case out:
			r = fmt.Sprintf("integer -> integer without _sat must keep the low %d bits (two's complement)", dk.Bits())
		default:
			r = "a value in the destination's range must convert unchanged"
		}
		if c.Op.Round != convert.NoSuffix {
			r += " (rounding suffixes change nothing between integers)"
		}
		return r
	}
	// Floating -> integer.
	f := floatValue(sk, in)
	if math.IsInf(f, 0) {
		if f > 0 {
			return "+inf must saturate to MAX under _sat"
		}
		return "-inf must saturate to MIN under _sat"
	}
	rounded := new(big.Rat).SetFloat64(roundInt(f, m))
	if lo, hi := intRange(dk); rounded.Cmp(lo) < 0 || rounded.Cmp(hi) > 0 {
		return fmt.Sprintf("a value that rounds (%s) out of range must saturate to %s under _sat", modeLabel(c), map[bool]string{true: "MAX", false: "MIN"}[f > 0])
	}
	if frac := math.Abs(f - math.Trunc(f)); frac == 0.5 && m == round.RTE {
		return "rte tie must go to even"
	}
	if f == math.Trunc(f) {
		return "an integral value in range must convert exactly"
	}
	return fmt.Sprintf("%s must round %s", modeLabel(c), modeWords(m))
}

// roundInt rounds f to an integer in mode m (exact in float64).
func roundInt(f float64, m round.Mode) float64 {
	switch m {
	case round.RTZ:
		return math.Trunc(f)
	case round.RTP:
		return math.Ceil(f)
	case round.RTN:
		return math.Floor(f)
	}
	return math.RoundToEven(f)
}

func floatRule(c digest.Conversion, in, exp, got uint64) string {
	sk, dk, m := c.Src, c.Op.Dst.Kind, c.Mode()
	if digestspec.IsNaN(dk, got) {
		return "a number must not convert to NaN"
	}
	if sk.IsInteger() && in&sk.Mask() == 0 {
		return "integer 0 must convert to +0.0 in every mode"
	}
	if sk.IsFloat() && math.IsInf(floatValue(sk, in), 0) {
		return "infinity must convert to infinity of the same sign"
	}
	down, _ := convert.Bits(dk, sk, in, round.RTN, false)
	up, _ := convert.Bits(dk, sk, in, round.RTP, false)
	if down == up {
		if sk.IsFloat() && sk.Bits() < dk.Bits() {
			return fmt.Sprintf("%s -> %s is exact", sk, dk)
		}
		return "an exactly representable value must convert exactly"
	}
	x := exact(sk, in)
	neg := x.Sign() < 0
	ax := new(big.Rat).Abs(x)
	if ax.Cmp(new(big.Rat).SetFloat64(maxFinite(dk))) > 0 {
		var want string
		switch {
		case m == round.RTE:
			want = "inf"
		case m == round.RTZ:
			want = "max finite"
		case m == round.RTP && !neg, m == round.RTN && neg:
			want = "inf"
		default:
			want = "max finite"
		}
		sign := "+"
		if neg {
			sign = "-"
		}
		if m == round.RTE && !math.IsInf(floatValue(dk, exp), 0) {
			return fmt.Sprintf("under %s, values between max finite and max + half an ulp must round to %smax finite", modeLabel(c), sign)
		}
		return fmt.Sprintf("overflow under %s must give %s%s", modeLabel(c), sign, want)
	}
	ef, gf := floatValue(dk, exp), floatValue(dk, got)
	if ef == 0 && gf == 0 {
		return "the sign of zero must be kept"
	}
	if ax.Cmp(new(big.Rat).SetFloat64(minNormal(dk))) < 0 {
		if gf == 0 {
			return fmt.Sprintf("subnormal results must be kept (no flush to zero) under %s", modeLabel(c))
		}
		return fmt.Sprintf("underflow must round %s to a subnormal or zero", modeWords(m))
	}
	mid := new(big.Rat).Add(new(big.Rat).SetFloat64(floatValue(dk, down)), new(big.Rat).SetFloat64(floatValue(dk, up)))
	mid.Quo(mid, big.NewRat(2, 1))
	if mid.Cmp(x) == 0 && m == round.RTE {
		return "rte tie must go to even"
	}
	return fmt.Sprintf("the result must be correctly rounded %s (%s)", modeWords(m), modeLabel(c))
}
