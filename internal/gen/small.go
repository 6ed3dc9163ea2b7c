package main

// The small formats' Go types (issue 44): the method sets of fp8's E4M3,
// E5M2, E4M3FNUZ and E5M2FNUZ, fp6's E2M3 and E3M2 and fp4's E2M1, written
// by go run ../internal/gen -small <pkg> from one table, smallTypes: each
// row is a row of minifloat.Formats (which gives the widths, bias, MAX,
// the special patterns and the NaN rule) plus the Go names and the prose
// that only a person can write. Everything a type shares with the others
// of its NaN encoding is derived here; E8M0, which has no sign, no zero
// and no mantissa, stays hand-written in fp8/e8m0.go.

import (
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/clconv/clconv/internal/minifloat"
)

// smallConst is one notable value: the constant <Type><suffix>, whose bits
// come from the row by kind, with its comment.
type smallConst struct {
	suffix  string // "Max", "NaN", ...: also the kind of value, see constBits
	comment string
}

type smallType struct {
	pkg     string            // fp8, fp6 or fp4
	name    string            // the Go type: "E4M3"
	row     *minifloat.Format // its row of the table
	rowVar  string            // the row's variable in package minifloat
	typeDoc string            // the type's doc comment, paragraphs split by "\n\n"
	group   string            // the doc of a const block shared with the next rows ("" for "Notable <T> values.")
	consts  []smallConst
	strDoc  string            // String's doc
	fmtDoc  string            // Format's doc
	docs    map[string]string // other docs that differ from the NaN encoding's default, by function name
}

var smallTypes = []smallType{
	{
		pkg: "fp8", name: "E4M3", row: minifloat.E4M3, rowVar: "E4M3",
		typeDoc: "E4M3 is the bit pattern of an OCP OFP8 E4M3 value: S.EEEE.MMM, bias 7, no infinities, NaN S.1111.111.\n\n" +
			"Go's == and < compare bit patterns. E4M3 implements [fmt.Formatter] as half.Half does, except that %v prints [E4M3.String]: the exact value, and \"nan\" and \"-nan\".",
		consts: []smallConst{{"Max", "448"}, {"NaN", "the NaN (0xff is the negative one)"}, {"MinNorm", "2^-6"}, {"MinSub", "2^-9"}},
		strDoc: `String formats x's exact value, which is short: "0.1015625", "-0", "448", "0.001953125"; the NaNs are "nan" and "-nan".`,
		fmtDoc: "Format implements [fmt.Formatter], as half.Half does, except for %v: the float verbs format x as fmt formats a float64 of the same value, honouring flags, width and precision; %v without a precision prints [E4M3.String], the exact value (\"448\", \"nan\"), padded and signed as a number; %g and %G without a precision give the shortest decimal that reads back to the float64, which for E4M3 is the exact value too; %b gives the 4-bit integer significand and power of two (1.5 is 12p-3); %s and %q format [E4M3.String]; %#v prints the bit pattern (0x38); other verbs are errors as for a float64: %!d(fp8.E4M3=1).",
	},
	{
		pkg: "fp8", name: "E5M2", row: minifloat.E5M2, rowVar: "E5M2",
		typeDoc: "E5M2 is the bit pattern of an OCP OFP8 E5M2 value: S.EEEEE.MM, bias 15, with IEEE 754's infinities (S.11111.00) and NaNs (S.11111.{01,10,11}, the top mantissa bit being the quiet bit).\n\n" +
			"Go's == and < compare bit patterns. E5M2 implements [fmt.Formatter] as half.Half does, except that %v prints [E5M2.String]: the exact value, and infinities and NaNs spelled OpenCL's way (\"inf\", \"-nan\").",
		consts: []smallConst{{"Max", "57344"}, {"PosInf", ""}, {"NegInf", ""}, {"NaN", "the quiet NaN with an empty payload"}, {"MinNorm", "2^-14"}, {"MinSub", "2^-16"}},
		strDoc: `String formats x's exact value, which is short: "0.09375", "-0", "57344", "1.52587890625e-05"; and "inf", "-inf", "nan", "-nan".`,
		fmtDoc: "Format implements [fmt.Formatter] as [E4M3.Format] does; %b gives the 3-bit integer significand (1.5 is 6p-2), and %v prints infinities as [E5M2.String] does, \"inf\" and \"-inf\" (the other float verbs as fmt prints a float64's, \"+Inf\").",
	},
	{
		pkg: "fp8", name: "E4M3FNUZ", row: minifloat.E4M3FNUZ, rowVar: "E4M3FNUZ",
		typeDoc: "E4M3FNUZ is the bit pattern of an E4M3FNUZ value (float8_e4m3fnuz): S.EEEE.MMM, bias 8, largest finite 240, no infinities, no -0, NaN only 0x80.\n\n" +
			"Go's == and < compare bit patterns. E4M3FNUZ implements [fmt.Formatter] as [E4M3] does: %v prints [E4M3FNUZ.String], the exact value, or \"nan\".",
		group:  "Notable E4M3FNUZ and E5M2FNUZ values.",
		consts: []smallConst{{"Max", "240"}, {"NaN", "the one NaN, the pattern of -0"}, {"MinNorm", "2^-7"}, {"MinSub", "2^-10"}},
		strDoc: `String formats x's exact value, which is short: "0.1015625", "240", "0.0009765625"; the NaN is "nan". There is no "-0".`,
		fmtDoc: "Format implements [fmt.Formatter] as [E4M3.Format] does (the NaN 0x80 prints as \"nan\" with %v, as fmt prints a NaN with the float verbs).",
	},
	{
		pkg: "fp8", name: "E5M2FNUZ", row: minifloat.E5M2FNUZ, rowVar: "E5M2FNUZ",
		typeDoc: "E5M2FNUZ is the bit pattern of an E5M2FNUZ value (float8_e5m2fnuz): S.EEEEE.MM, bias 16, largest finite 57344, no infinities, no -0, NaN only 0x80.\n\n" +
			"Go's == and < compare bit patterns. E5M2FNUZ implements [fmt.Formatter] as [E4M3] does.",
		group:  "Notable E4M3FNUZ and E5M2FNUZ values.",
		consts: []smallConst{{"Max", "57344"}, {"NaN", "the one NaN, the pattern of -0"}, {"MinNorm", "2^-15"}, {"MinSub", "2^-17"}},
		strDoc: `String formats x's exact value: "57344", "7.62939453125e-06"; the NaN is "nan". There is no "-0".`,
		fmtDoc: "Format implements [fmt.Formatter] as [E4M3.Format] does; %b gives the 3-bit integer significand.",
	},
	{
		pkg: "fp6", name: "E2M3", row: minifloat.E2M3, rowVar: "E2M3",
		typeDoc: "E2M3 is the bit pattern of an OCP MX FP6 E2M3 value in the low 6 bits of a byte (the two high bits are ignored): S.EE.MMM, bias 1, no infinities, no NaNs, largest finite value 7.5.\n\n" +
			"Go's == and < compare the bytes.",
		consts: []smallConst{{"Max", "7.5"}, {"MinNorm", "1"}, {"MinSub", "0.125"}},
		strDoc: `String formats x's exact value, which is short: "7.5", "0.125", "-0", "1.875".`,
		fmtDoc: fp6FmtDoc("E2M3"),
	},
	{
		pkg: "fp6", name: "E3M2", row: minifloat.E3M2, rowVar: "E3M2",
		typeDoc: "E3M2 is the bit pattern of an OCP MX FP6 E3M2 value in the low 6 bits of a byte (the two high bits are ignored): S.EEE.MM, bias 3, no infinities, no NaNs, largest finite value 28.\n\n" +
			"Go's == and < compare the bytes.",
		consts: []smallConst{{"Max", "28"}, {"MinNorm", "0.25"}, {"MinSub", "0.0625"}},
		strDoc: `String formats x's exact value, which is short: "28", "0.0625", "-0", "0.1875".`,
		fmtDoc: fp6FmtDoc("E3M2"),
	},
	{
		pkg: "fp4", name: "E2M1", row: minifloat.E2M1, rowVar: "E2M1",
		typeDoc: "E2M1 is the bit pattern of an OCP MX FP4 E2M1 value in the low 4 bits of a byte (the high 4 bits are ignored): S.EE.M, bias 1, no infinities, no NaNs, largest finite value 6.\n\n" +
			"Go's == and < compare the bytes.",
		consts: []smallConst{{"Max", "6"}, {"One", "1, the smallest normal value"}, {"MinSub", "0.5"}, {"NegZero", "-0"}},
		strDoc: `String formats x's exact value: "0.5", "-0", "1.5", "6".`,
		fmtDoc: "Format implements [fmt.Formatter] as fp8.E4M3 does: %v prints [E2M1.String], the exact value; the other float verbs format the float64 of the same value, honouring flags, width and precision; %b gives the 2-bit integer significand and power of two (1.5 is 3p-1); %#v prints the bit pattern.",
	},
}

func fp6FmtDoc(t string) string {
	return "Format implements [fmt.Formatter] as fp8.E4M3 does: %v prints [" + t + ".String], the exact value; the other float verbs format the float64 of the same value, honouring flags, width and precision; %b gives the integer significand and power of two; %#v prints the bit pattern."
}

// constBits returns the pattern of the notable value kind of row r.
func constBits(r *minifloat.Format, kind string) uint64 {
	switch kind {
	case "Max":
		return r.MaxBits()
	case "NaN":
		b, ok := r.NaNBits()
		if !ok {
			log.Fatalf("%s has no NaN", r)
		}
		return b
	case "PosInf", "NegInf":
		b, ok := r.InfBits()
		if !ok {
			log.Fatalf("%s has no infinity", r)
		}
		if kind == "NegInf" {
			b |= r.SignBit()
		}
		return b
	case "MinNorm":
		return 1 << uint(r.MantBits)
	case "MinSub":
		return r.MinBits()
	case "One":
		return uint64(r.Bias) << uint(r.MantBits)
	case "NegZero":
		return r.SignBit()
	}
	log.Fatalf("unknown constant kind %q", kind)
	return 0
}

// comment writes text as a doc comment wrapped at 77 columns; "\n\n"
// separates paragraphs.
func comment(text string) {
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			p("//")
		}
		line := "//"
		for _, w := range strings.Fields(para) {
			if len(line) > 2 && len(line)+1+len(w) > 77 {
				p("%s", line)
				line = "//"
			}
			line += " " + w
		}
		p("%s", line)
	}
}

// hex formats a pattern of r as its constants do: two digits for a byte or
// six bits, one for four.
func hex(r *minifloat.Format, b uint64) string {
	return fmt.Sprintf("0x%0*x", (r.Width()+3)/4, b)
}

func writeSmall(pkg, out string) {
	p("// Code generated by go run ../internal/gen -small %s; DO NOT EDIT.", pkg)
	p("")
	p("package %s", pkg)
	p("")
	p("import (")
	p(`"fmt"`)
	p(`"math"`)
	p("")
	p(`"github.com/clconv/clconv/internal/floatfmt"`)
	p(`"github.com/clconv/clconv/internal/minifloat"`)
	p(`"github.com/clconv/clconv/internal/smallfast"`)
	p(`"github.com/clconv/clconv/round"`)
	p(")")
	n := 0
	for i, t := range smallTypes {
		if t.pkg != pkg {
			continue
		}
		n++
		if t.group == "" || i == 0 || smallTypes[i-1].group != t.group {
			smallConsts(i)
		}
		smallMethods(t)
	}
	if n == 0 {
		log.Fatalf("no small format in package %q", pkg)
	}
	src, err := format.Source(buf.Bytes())
	if err != nil {
		os.WriteFile(out+".broken", buf.Bytes(), 0o644)
		log.Fatal(err)
	}
	if err := os.WriteFile(out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// smallConsts writes the const block of smallTypes[i] and of the rows after
// it that share its group.
func smallConsts(i int) {
	t := smallTypes[i]
	p("")
	if t.group != "" {
		comment(t.group)
	} else {
		comment("Notable " + t.name + " values.")
	}
	p("const (")
	for j := i; j < len(smallTypes) && (j == i || t.group != "" && smallTypes[j].group == t.group); j++ {
		u := smallTypes[j]
		for _, c := range u.consts {
			line := fmt.Sprintf("%s%s %s = %s", u.name, c.suffix, u.name, hex(u.row, constBits(u.row, c.suffix)))
			if c.comment != "" {
				line += " // " + c.comment
			}
			p("%s", line)
		}
	}
	p(")")
}

func smallMethods(t smallType) {
	r, T := t.row, t.name
	v := strings.ToLower(T) // the fast path; vTo32, vTo64, vFrom32
	width := r.Width()
	mask := hex(r, r.Mask())
	sign := hex(r, r.SignBit())
	mag := hex(r, r.Mask()&^r.SignBit())
	maxV := math.Float64frombits(minifloat.ToFloat64Bits(r, r.MaxBits()))
	maxS := strconv.FormatFloat(maxV, 'g', -1, 64)
	nanB, _ := r.NaNBits()
	infB, _ := r.InfBits()
	expAll := hex(r, ((1<<uint(r.ExpBits))-1)<<uint(r.MantBits))
	none := r.NaN == minifloat.NaNNone
	same := ""
	if none {
		same = ", which gives the same"
	}
	if !r.Signed || !r.Zero || width > 8 {
		log.Fatalf("%s: the generated method set needs a signed row with zero and at most 8 bits", r)
	}

	// The docs that depend on the NaN encoding.
	d := map[string]string{
		"FromFloat64":    "%[1]sFromFloat64 rounds x to %[1]s in mode m, once.",
		"FromFloat64Sat": "%[1]sFromFloat64Sat is %[1]sFromFloat64 with _sat" + same + ".",
		"FromInt64":      "%[1]sFromInt64 rounds v to %[1]s in mode m; 0 gives +0.",
		"FromInt64Sat":   "%[1]sFromInt64Sat is %[1]sFromInt64 with _sat" + same + ".",
		"FromUint64":     "%[1]sFromUint64 rounds v to %[1]s in mode m; 0 gives +0.",
		"FromUint64Sat":  "%[1]sFromUint64Sat is %[1]sFromUint64 with _sat" + same + ".",
		"FromFloat32Sat": "%[1]sFromFloat32Sat rounds x to %[1]s in mode m, giving +-%[2]s for infinities and every value that overflows; NaN stays NaN.",
		"IsInf":          "IsInf reports false: %[1]s has no infinities.",
		"Signbit":        "Signbit reports whether the sign bit of x is set.",
		"FromBits":       "%[1]sFromBits returns the %[1]s with bit pattern b.",
		"Bits":           "Bits returns the bit pattern of x.",
	}
	if width < 8 {
		d["FromBits"] = fmt.Sprintf("%%[1]sFromBits returns the %%[1]s with the low %d bits of b as its pattern.", width)
		d["Bits"] = fmt.Sprintf("Bits returns the bit pattern of x, its low %d bits.", width)
		d["Signbit"] = fmt.Sprintf("Signbit reports whether the sign bit of x (bit %d) is set.", width-1)
	}
	if r.Inf {
		d["IsInf"] = "IsInf reports whether x is an infinity."
	}
	switch r.NaN {
	case minifloat.NaNAllOnes:
		ones := "S." + strings.Repeat("1", r.ExpBits) + "." + strings.Repeat("1", r.MantBits)
		d["IsNaN"] = "IsNaN reports whether x is a NaN (" + ones + ")."
		d["IsFinite"] = "IsFinite reports whether x is not a NaN."
		d["Float32"] = fmt.Sprintf("Float32 returns x as a float32, exactly; the NaN %s gives the quiet NaN with the mantissa bits %s on top, %#08x with x's sign, as LLVM's APFloat converts it.",
			ones, strings.Repeat("1", r.MantBits), 0x7f800000|(1<<uint(r.MantBits)-1)<<uint(23-r.MantBits))
		d["Float64"] = "Float64 returns x as a float64, exactly (the NaN as in Float32)."
		d["FromFloat32"] = "%[1]sFromFloat32 rounds x to %[1]s in mode m. Overflow gives NaN (+-MAX in a mode that rounds toward zero), infinity gives NaN, NaN keeps its sign."
	case minifloat.NaNIEEE:
		d["IsNaN"] = "IsNaN reports whether x is a NaN."
		d["IsFinite"] = "IsFinite reports whether x is neither an infinity nor a NaN."
		d["Float32"] = "Float32 returns x as a float32, exactly. A NaN keeps its sign and payload bit and gets the quiet bit, as IEEE hardware does."
		d["Float64"] = "Float64 returns x as a float64, exactly (a NaN as in Float32)."
		d["FromFloat32"] = "%[1]sFromFloat32 rounds x to %[1]s in mode m. Overflow gives infinity (+-MAX in a mode that rounds toward zero); NaN keeps its sign and top payload bit and gets the quiet bit."
	case minifloat.NaNNegZero:
		d["IsNaN"] = "IsNaN reports whether x is the NaN, " + hex(r, nanB) + "."
		d["IsFinite"] = "IsFinite reports whether x is not the NaN."
		d["Signbit"] = "Signbit reports whether the sign bit of x is set (for the NaN too, whose pattern it is)."
		d["Float32"] = "Float32 returns x as a float32, exactly; the NaN gives 0x7fc00000."
		d["Float64"] = "Float64 returns x as a float64, exactly; the NaN gives 0x7ff8000000000000."
		d["FromFloat32"] = "%[1]sFromFloat32 rounds x to %[1]s in mode m. Overflow, infinity and NaN give the NaN (+-MAX for a finite value in a mode that rounds it toward zero); -0 and negative values that round to zero give +0."
	case minifloat.NaNNone:
		d["IsNaN"] = "IsNaN reports false: %[1]s has no NaNs."
		d["IsFinite"] = "IsFinite reports true: every pattern is a number."
		d["Float32"] = "Float32 returns x as a float32, exactly."
		d["Float64"] = "Float64 returns x as a float64, exactly."
		d["FromFloat32"] = "%[1]sFromFloat32 rounds x to %[1]s in mode m. Overflow and infinities give +-%[2]s in every mode; NaN gives +0."
		d["FromFloat32Sat"] = "%[1]sFromFloat32Sat is %[1]sFromFloat32 with _sat, which gives the same: %[1]s saturates in every mode."
	}
	for k, s := range t.docs {
		d[k] = s
	}
	doc := func(k string) {
		s, ok := d[k]
		if !ok {
			log.Fatalf("%s: no doc for %s", T, k)
		}
		comment(strings.NewReplacer("%[1]s", T, "%[2]s", maxS).Replace(s))
	}

	p("")
	comment(t.typeDoc)
	p("type %s uint8", T)
	p("")
	p("// The float32 fast path of %s and its decoding tables.", T)
	p("var %s = smallfast.New(minifloat.%s)", v, t.rowVar)
	p("")
	// isNaN is the NaN test on a pattern named %[1]s ("" for none).
	isNaN := ""
	switch r.NaN {
	case minifloat.NaNAllOnes:
		isNaN = "%[1]s&" + mag + " == " + mag
	case minifloat.NaNIEEE:
		isNaN = "%[1]s&" + mag + " > " + hex(r, infB)
	case minifloat.NaNNegZero:
		isNaN = "%[1]s == " + hex(r, nanB)
	}
	hasInf := strconv.FormatBool(r.Inf)
	tables := fmt.Sprintf("smallfast.Tables(%d, %d, %d, %s, ", width, r.MantBits, r.Bias, hasInf)
	if isNaN == "" {
		tables += "func(uint8) bool { return false })"
	} else {
		tables += "func(b uint8) bool { return " + fmt.Sprintf(isNaN, "b") + " })"
	}
	if r.NaN == minifloat.NaNNegZero {
		// The FNUZ NaN has no sign: it decodes to the positive quiet NaN.
		p("var %sTo32, %sTo64 = func() (*[256]uint32, *[256]uint64) {", v, v)
		p("t32, t64 := %s", tables)
		p("t32[%s], t64[%s] = 0x7fc00000, 0x7ff8000000000000", hex(r, nanB), hex(r, nanB))
		p("return t32, t64")
		p("}()")
	} else {
		p("var %sTo32, %sTo64 = %s", v, v, tables)
	}

	p("")
	doc("FromBits")
	if width < 8 {
		p("func %[1]sFromBits(b uint8) %[1]s { return %[1]s(b & %[2]s) }", T, mask)
	} else {
		p("func %[1]sFromBits(b uint8) %[1]s { return %[1]s(b) }", T)
	}
	p("")
	doc("Bits")
	if width < 8 {
		p("func (x %s) Bits() uint8 { return uint8(x) & %s }", T, mask)
	} else {
		p("func (x %s) Bits() uint8 { return uint8(x) }", T)
	}
	p("")
	doc("IsNaN")
	if isNaN == "" {
		p("func (x %s) IsNaN() bool { return false }", T)
	} else {
		p("func (x %s) IsNaN() bool { return %s }", T, fmt.Sprintf(isNaN, "x"))
	}
	p("")
	doc("IsInf")
	if r.Inf {
		p("func (x %s) IsInf() bool { return x&%s == %s }", T, mag, hex(r, infB))
	} else {
		p("func (x %s) IsInf() bool { return false }", T)
	}
	p("")
	doc("IsFinite")
	switch r.NaN {
	case minifloat.NaNNone:
		p("func (x %s) IsFinite() bool { return true }", T)
	case minifloat.NaNIEEE:
		p("func (x %s) IsFinite() bool { return x&%s != %s }", T, expAll, expAll)
	default:
		p("func (x %s) IsFinite() bool { return !x.IsNaN() }", T)
	}
	p("")
	doc("Signbit")
	p("func (x %s) Signbit() bool { return x&%s != 0 }", T, sign)
	p("")
	doc("Float32")
	p("func (x %s) Float32() float32 { return math.Float32frombits(%sTo32[x]) }", T, v)
	p("")
	doc("Float64")
	p("func (x %s) Float64() float64 { return math.Float64frombits(%sTo64[x]) }", T, v)

	for _, src := range []struct{ fn, goT, bits string }{
		{"Float32", "float32", "math.Float32bits(x)"},
		{"Float64", "float64", "minifloat.Float64ToOdd32(math.Float64bits(x))"},
	} {
		for _, sat := range []bool{false, true} {
			name := "From" + src.fn
			if sat {
				name += "Sat"
			}
			p("")
			doc(name)
			p("func %s%s(x %s, m round.Mode) %s { return %sFrom32(%s, m, %v) }", T, name, src.goT, T, v, src.bits, sat)
		}
	}
	for _, src := range []struct{ fn, goT string }{{"Int64", "int64"}, {"Uint64", "uint64"}} {
		for _, sat := range []bool{false, true} {
			name := "From" + src.fn
			if sat {
				name += "Sat"
			}
			p("")
			doc(name)
			p("func %s%s(v %s, m round.Mode) %s {", T, name, src.goT, T)
			p("return %s(minifloat.From%s(minifloat.%s, v, m, %v))", T, src.fn, t.rowVar, sat)
			p("}")
		}
	}

	// vFrom32 rounds a binary32 pattern; the special inputs follow the NaN
	// encoding (docs/FORMATS.md).
	maxB := hex(r, r.MaxBits())
	p("")
	p("// %sFrom32 rounds the binary32 pattern b to %s in mode m.", v, T)
	p("func %sFrom32(b uint32, m round.Mode, sat bool) %s {", v, T)
	p("sign := uint8(b>>%d) & %s", 32-width, sign)
	p("switch a := b & 0x7fffffff; {")
	switch r.NaN {
	case minifloat.NaNAllOnes:
		p("case a > 0x7f800000:")
		p("return %s(sign | %s)", T, hex(r, nanB))
		p("case a == 0x7f800000 && sat:")
		p("return %s(sign | %s)", T, maxB)
		p("case a == 0x7f800000:")
		p("return %s(sign | %s)", T, hex(r, nanB))
		p("}")
		p("return %s(sign | %s.Round(b, m, sat))", T, v)
	case minifloat.NaNIEEE:
		if r.MantBits != 2 {
			log.Fatalf("%s: the NaN payload code assumes two mantissa bits", r)
		}
		p("case a > 0x7f800000:")
		p("// Quiet, with the payload's top bit.")
		p("return %s(sign | %s | uint8(a>>21)&1)", T, hex(r, nanB))
		p("case a == 0x7f800000 && sat:")
		p("return %s(sign | %s)", T, maxB)
		p("case a == 0x7f800000:")
		p("return %s(sign | %s)", T, hex(r, infB))
		p("}")
		p("return %s(sign | %s.Round(b, m, sat))", T, v)
	case minifloat.NaNNegZero:
		// The FNUZ rules (ml_dtypes, PyTorch, ONNX; arXiv:2206.02915): NaN,
		// infinity without _sat and overflow without _sat (smallfast's
		// Overflow) give the one NaN, whatever the sign; a result of zero
		// is +0, since the pattern of -0 is the NaN.
		p("case a > 0x7f800000:")
		p("return %s", hex(r, nanB))
		p("case a == 0x7f800000 && sat:")
		p("return %s(sign | %s)", T, maxB)
		p("case a == 0x7f800000:")
		p("return %s", hex(r, nanB))
		p("}")
		p("switch c := %s.Round(b, m, sat); c {", v)
		p("case smallfast.Overflow:")
		p("return %s", hex(r, nanB))
		p("case 0:")
		p("return 0")
		p("default:")
		p("return %s(sign | c)", T)
		p("}")
	case minifloat.NaNNone:
		p("case a > 0x7f800000:")
		p("return 0 // NaN: +0")
		p("case a == 0x7f800000:")
		p("return %s(sign | %s)", T, maxB)
		p("}")
		p("return %s(sign | %s.Round(b, m, sat))", T, v)
	}
	p("}")

	p("")
	comment(t.strDoc)
	p("func (x %s) String() string {", T)
	switch r.NaN {
	case minifloat.NaNAllOnes, minifloat.NaNIEEE:
		p("switch {")
		p("case x.IsNaN() && x.Signbit():")
		p(`return "-nan"`)
		p("case x.IsNaN():")
		p(`return "nan"`)
		if r.Inf {
			p("case x.IsInf() && x.Signbit():")
			p(`return "-inf"`)
			p("case x.IsInf():")
			p(`return "inf"`)
		}
		p("}")
	case minifloat.NaNNegZero:
		p("if x.IsNaN() {")
		p(`return "nan"`)
		p("}")
	}
	p("return string(floatfmt.AppendExact(nil, x.Float64()))")
	p("}")

	p("")
	comment(t.fmtDoc)
	p("func (x %s) Format(s fmt.State, verb rune) {", T)
	p("floatfmt.Format(s, verb, smallfast.FmtValue(%q, uint8(x), %d, %d, %d, x.Float64(), x.IsFinite(), x.String))",
		t.pkg+"."+T, width, r.MantBits, r.Bias)
	p("}")
}
