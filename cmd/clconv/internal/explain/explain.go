// Package explain shows why an OpenCL C conversion gives what it gives: the
// source's bits and exact value, the destination's two neighbours around it,
// the result in every rounding mode (with and without _sat for integer
// destinations), and the rule that decided each one. clconv explain prints
// it and clconv serve sends it to its page as JSON.
//
// Every result shown comes from package convert (convert.Bits, the function
// value.Convert and the interpreter call); the neighbours and rules are
// computed apart, with exact integer arithmetic (rules.go), and the tests
// require the rules' predicted results to equal the library's.
package explain

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// Modes lists the rounding modes in the order explanations show them.
var Modes = []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN}

// Report explains every conversion an expression performed.
type Report struct {
	Expr  string `json:"expr"`
	Value string `json:"value"` // the expression's value, as clconv eval prints it
	Bits  string `json:"bits"`  // the same with --bits
	// Conversions lists the conversions in the order they ran.
	Conversions []Conversion `json:"conversions"`
	// Omitted counts the conversions past the limit, not explained.
	Omitted int `json:"omitted"`
}

// Conversion explains one conversion, lane by lane.
type Conversion struct {
	Pos  string `json:"pos"` // file:line:col of the convert_ name, the cast's parenthesis or the operator
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Kind string `json:"kind"` // "convert", "cast" or "implicit"
	// Function is the convert_ function written, or the one a cast or an
	// implicit conversion amounts to (no _sat, no suffix).
	Function string `json:"function"`
	From     string `json:"from"` // the operand's type
	To       string `json:"to"`   // the result's type
	Mode     string `json:"mode"` // the mode it rounded in (rtz for every integer destination without a suffix)
	Sat      bool   `json:"sat"`
	Result   string `json:"result"` // the value it gave, as clconv eval prints it
	Lanes    []Lane `json:"lanes"`
}

// Lane explains one element's conversion.
type Lane struct {
	Index  int    `json:"lane"`
	To     string `json:"to"` // the destination's element type
	Source Number `json:"source"`
	Fields Fields `json:"fields"`
	// Exact reports that the destination represents the source's value
	// (then Below and Above are both that value).
	Exact bool `json:"exact"`
	// Below and Above are the destination's values just below and just
	// above the source's value, in value order; nil where there is none
	// (NaN; past an integer type's range on that side).
	Below *Number `json:"below"`
	Above *Number `json:"above"`
	// Results holds one entry per mode (rte, rtz, rtp, rtn), and for an
	// integer destination without and then with _sat for each mode.
	Results []Result `json:"results"`
}

// Number is a value of one type.
type Number struct {
	Type  string `json:"type"`
	Bits  string `json:"bits"`  // hex, zero-padded to the width
	Value string `json:"value"` // as clconv eval prints it (shortest round trip; exact for the 8-bit and smaller formats)
	Exact string `json:"exact"` // the exact decimal value (scientific, still exact, when long)
	Note  string `json:"note,omitempty"`
}

// A Number without Bits is a value the type has no pattern for: the grid
// point after the largest finite value of a format without infinities
// (e4m3's 480, e2m1's 8), shown as an upper neighbour.

// Fields splits a bit pattern: sign, exponent and fraction for a floating
// type (no sign for e8m0, which has none, and no fraction for e8m0, which
// has no mantissa), all bits for an integer type. Binary strings, most
// significant bit first; a small format's pattern is its code's width (4
// bits for e2m1, 6 for e2m3 and e3m2).
type Fields struct {
	Class    string `json:"class"` // normal, subnormal, zero, inf, nan, signed or unsigned
	Sign     string `json:"sign,omitempty"`
	Exponent string `json:"exponent,omitempty"`
	Fraction string `json:"fraction,omitempty"`
	// ExponentValue is the unbiased exponent of a normal or subnormal
	// value: value = 1.fraction·2^e (0.fraction·2^e for a subnormal).
	ExponentValue *int   `json:"exponent_value,omitempty"`
	Integer       string `json:"integer,omitempty"`
}

// Result is the conversion's result in one mode.
type Result struct {
	Mode  string `json:"mode"`
	Sat   bool   `json:"sat"`
	Name  string `json:"name"` // the scalar function: convert_half_rte, convert_int_sat_rtz
	Bits  string `json:"bits"`
	Value string `json:"value"` // as clconv eval prints it
	Exact string `json:"exact"` // the exact decimal value
	// Own marks the mode and saturation the expression used.
	Own  bool `json:"own"`
	Rule Rule `json:"rule"`
}

// Expression evaluates src (named file in positions) with the interpreter,
// starting in rounding mode mode, and explains the first limit conversions
// it performs. An expression that does not evaluate gives the interpreter's
// error (a *clc.Error).
func Expression(file, src string, mode round.Mode, limit int) (*Report, error) {
	var convs []clc.Conversion
	omitted := 0
	ev := &clc.Evaluator{Mode: mode, OnConversion: func(c clc.Conversion) {
		if len(convs) < limit {
			convs = append(convs, c)
		} else {
			omitted++
		}
	}}
	v, err := ev.EvalString(file, src)
	if err != nil {
		return nil, err
	}
	r := &Report{Expr: src, Value: value.Format(v, false), Bits: value.Format(v, true), Omitted: omitted,
		Conversions: make([]Conversion, 0, len(convs))}
	for _, c := range convs {
		r.Conversions = append(r.Conversions, Explain(c))
	}
	return r, nil
}

// Explain explains one conversion the interpreter performed.
func Explain(c clc.Conversion) Conversion {
	own := c.Op.Mode(c.Mode)
	name := c.Op.Name()
	if c.Kind != clc.ConvertCall {
		name = "convert_" + c.Op.Dst.String()
	}
	out := Conversion{
		Pos: c.Pos.String(), Line: c.Pos.Line, Col: c.Pos.Col,
		Kind: c.Kind.String(), Function: name,
		From: c.Src.Type.String(), To: c.Op.Dst.String(),
		Mode: own.String(), Sat: c.Op.Sat,
		Result: value.Format(c.Result, false),
	}
	for i := range c.Src.Type.N {
		out.Lanes = append(out.Lanes, LaneOf(i, c.Src.Type.Kind, c.Src.Lanes[i], c.Op.Dst.Kind, own, c.Op.Sat))
	}
	return out
}

// LaneOf explains the conversion of the value of bit pattern b of kind src
// to kind dst, as lane index of a vector; own and ownSat mark the result the
// expression used. Both kinds must be conversion kinds. Bits above src's
// Width are ignored (e2m1, e2m3 and e3m2 take the low bits of a byte).
func LaneOf(index int, src cltype.Kind, b uint64, dst cltype.Kind, own round.Mode, ownSat bool) Lane {
	b &= 1<<Width(src) - 1
	x := decode(src, b)
	l := Lane{Index: index, To: dst.String(), Source: number(src, b), Fields: fields(x)}
	l.Exact, l.Below, l.Above = neighbours(x, dst)
	sats := []bool{false}
	if dst.IsInteger() || dst.IsSmallFloat() {
		sats = []bool{false, true}
	}
	for _, m := range Modes {
		for _, sat := range sats {
			got, _ := convert.Bits(dst, src, b, m, sat)
			_, rule := Predict(src, b, dst, m, sat)
			op := convert.Op{Dst: cltype.Scalar(dst), Sat: sat, Round: convert.SuffixOf(m)}
			l.Results = append(l.Results, Result{
				Mode: m.String(), Sat: sat, Name: op.Name(),
				Bits: hexBits(dst, got), Value: scalar(dst, got), Exact: exactBits(dst, got),
				Own:  m == own && sat == ownSat,
				Rule: rule,
			})
		}
	}
	return l
}

// number describes bit pattern b of kind k.
func number(k cltype.Kind, b uint64) Number {
	return Number{Type: k.String(), Bits: hexBits(k, b), Value: scalar(k, b), Exact: exactBits(k, b)}
}

func noted(n Number, note string) *Number {
	n.Note = note
	return &n
}

func hexBits(k cltype.Kind, b uint64) string { return fmt.Sprintf("0x%0*x", k.Size()*2, b&k.Mask()) }

func scalar(k cltype.Kind, b uint64) string { return string(value.AppendScalar(nil, b, k)) }

func binary(b uint64, n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%0*b", n, b&(1<<n-1))
}

func fields(x num) Fields {
	k := x.kind
	if k.IsInteger() {
		cls := "unsigned"
		if k.IsSigned() {
			cls = "signed"
		}
		return Fields{Class: cls, Integer: binary(x.bits, k.Bits())}
	}
	r := minifloat.OfKind(k)
	fb := r.MantBits
	fl := Fields{
		Exponent: binary(x.bits>>fb, r.ExpBits),
		Fraction: binary(x.bits, fb),
	}
	if r.Signed {
		fl.Sign = binary(x.bits>>(r.ExpBits+fb), 1)
	}
	switch {
	case x.cls == nan:
		fl.Class = "nan"
	case x.cls == infinite:
		fl.Class = "inf"
	case x.m == 0:
		fl.Class = "zero"
	case r.Zero && x.bits>>fb&(1<<r.ExpBits-1) == 0:
		fl.Class = "subnormal"
		e := r.Emin()
		fl.ExponentValue = &e
	default:
		fl.Class = "normal"
		e := x.e + bits.Len64(x.m) - 1
		fl.ExponentValue = &e
	}
	return fl
}

// neighbours returns the destination values around x's value in value order.
func neighbours(x num, d cltype.Kind) (exact bool, below, above *Number) {
	switch {
	case d.IsSmallFloat():
		return smallNeighbours(x, d)
	case d.IsFloat():
		return floatNeighbours(x, d)
	}
	return intNeighbours(x, d)
}

func floatNeighbours(x num, d cltype.Kind) (exact bool, below, above *Number) {
	dn := d.String()
	var sign uint64
	if x.neg {
		sign = signBit(d)
	}
	switch {
	case x.cls == nan:
		return false, nil, nil
	case x.cls == infinite, x.isZero():
		b, _ := Predict(x.kind, x.bits, d, round.RTE, false)
		n := number(d, b)
		return true, &n, &n
	}
	maxNote := "the largest finite " + dn
	pl := placeFloat(x, d)
	var lo, hi *Number
	switch {
	case pl.beyond:
		inf, _ := infBits(d)
		lo = noted(number(d, sign|maxFinite(d)), maxNote)
		hi = noted(number(d, sign|inf), "beyond the largest finite "+dn)
	case pl.b.exact:
		n := number(d, sign|pl.lo)
		return true, &n, &n
	default:
		lo = noted(number(d, sign|pl.lo), floatNote(d, pl.lo))
		hi = noted(number(d, sign|(pl.lo+1)), floatNote(d, pl.lo+1))
		if pl.lo+1 > maxFinite(d) {
			hi.Note = fmt.Sprintf("%s%s were the exponent range unbounded, beyond the largest finite %s", minus(x.neg), unboundedNext(d), dn)
		}
	}
	if x.neg {
		return false, hi, lo
	}
	return false, lo, hi
}

// floatNote says what is special about magnitude bits b of kind d.
func floatNote(d cltype.Kind, b uint64) string {
	switch {
	case b == 0:
		return "zero"
	case b == maxFinite(d):
		return "the largest finite " + d.String()
	case b < 1<<(d.Format().Prec-1):
		return "subnormal"
	}
	return ""
}

func intNeighbours(x num, d cltype.Kind) (exact bool, below, above *Number) {
	dn := d.String()
	maxN := noted(number(d, d.MaxUint()), "the largest "+dn)
	minN := noted(number(d, uint64(d.MinInt())&d.Mask()), "the least "+dn)
	if x.cls == nan {
		return false, nil, nil
	}
	if x.cls == infinite {
		if x.neg {
			return false, nil, minN
		}
		return false, maxN, nil
	}
	// floor and ceil of the value, exactly.
	lo, hi := new(big.Int), new(big.Int)
	wide := bits.Len64(x.m)+x.e > 64
	if wide {
		lo.Lsh(new(big.Int).SetUint64(x.m), uint(x.e))
		hi.Set(lo)
	} else {
		q, b := quantize(x.m, x.e, 0)
		lo.SetUint64(q)
		hi.SetUint64(q)
		if !b.exact {
			hi.Add(hi, big.NewInt(1))
		}
	}
	if x.neg {
		lo, hi = hi.Neg(hi), lo.Neg(lo)
	}
	minB, maxB := big.NewInt(d.MinInt()), new(big.Int).SetUint64(d.MaxUint())
	in := func(v *big.Int) bool { return v.Cmp(minB) >= 0 && v.Cmp(maxB) <= 0 }
	toNumber := func(v *big.Int) *Number {
		n := number(d, uint64(v.Int64())&d.Mask())
		if v.Sign() >= 0 {
			n = number(d, v.Uint64())
		}
		return &n
	}
	exact = lo.Cmp(hi) == 0
	switch {
	case lo.Cmp(maxB) > 0:
		return false, maxN, nil
	case hi.Cmp(minB) < 0:
		return false, nil, minN
	}
	if in(lo) {
		below = toNumber(lo)
	}
	if in(hi) {
		above = toNumber(hi)
	}
	if below != nil && below.Bits == maxN.Bits {
		below.Note = maxN.Note
	}
	if above != nil && above.Bits == minN.Bits {
		above.Note = minN.Note
	}
	return exact && below != nil, below, above
}

// exactOf returns x's exact decimal value.
func exactOf(x num) string {
	switch x.cls {
	case nan:
		return minus(x.neg) + "nan"
	case infinite:
		return minus(x.neg) + "inf"
	}
	return exactDecimal(x.neg, x.m, x.e)
}

func exactBits(k cltype.Kind, b uint64) string { return exactOf(decode(k, b&k.Mask())) }

// maxPlain is the longest exact decimal written without an exponent.
const maxPlain = 40

// exactDecimal returns the exact decimal value of ±m·2^e: plain when short,
// otherwise every significant digit with an exponent (1.40129846432481707...e-45).
func exactDecimal(neg bool, m uint64, e int) string {
	sign := minus(neg)
	if m == 0 {
		return sign + "0"
	}
	var digits string // the significant digits
	var point int     // the decimal exponent of the first digit
	if e >= 0 {
		digits = new(big.Int).Lsh(new(big.Int).SetUint64(m), uint(e)).String()
		point = len(digits) - 1
	} else {
		// m·2^e = m·5^-e / 10^-e
		n := -e
		p := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(n)), nil)
		digits = p.Mul(p, new(big.Int).SetUint64(m)).String()
		point = len(digits) - 1 - n
	}
	digits = strings.TrimRight(digits, "0")
	// Plain form: digits with the point placed, zeros added as needed.
	var plain string
	switch {
	case point >= len(digits)-1:
		plain = digits + strings.Repeat("0", point-len(digits)+1)
	case point >= 0:
		plain = digits[:point+1] + "." + digits[point+1:]
	default:
		plain = "0." + strings.Repeat("0", -point-1) + digits
	}
	if len(plain) <= maxPlain {
		return sign + plain
	}
	s := digits[:1]
	if len(digits) > 1 {
		s += "." + digits[1:]
	}
	return fmt.Sprintf("%s%se%+d", sign, s, point)
}
