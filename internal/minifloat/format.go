// Package minifloat is clconv's table of small binary floating-point formats
// (bfloat16, OCP FP8 E4M3 and E5M2, the OCP MX element formats E2M3, E3M2 and
// E2M1, the MX scale format E8M0, and the FNUZ FP8 formats E4M3FNUZ and
// E5M2FNUZ of AMD's MI300, ONNX, ml_dtypes and PyTorch) and its integer-only reference for
// converting to and from them in the four rounding modes, with and without
// _sat. docs/FORMATS.md states every rule and the text it follows.
//
// A format is one row of Formats: exponent and mantissa widths, bias, sign,
// whether the exponent field 0 holds zero and subnormals, whether it has
// infinities, and how its NaNs are encoded. Everything else (largest finite
// value, smallest subnormal, the bit patterns of infinity and NaN) is derived
// from the row, so a new format is one more row. The IEEE formats binary16,
// binary32 and binary64 are rows too: conversions from float and double are
// conversions from those rows, and decoding to float or double is a
// conversion to them.
//
// Conversion takes a source apart into an exact value (sign, a significand
// and a binary exponent) and rounds it with integer shifts and guard/sticky
// masks: no floating-point arithmetic, no math/big. The package's tests prove
// it against an independent math/big implementation of the same rules;
// packages bfloat16 and fp8 test their fast paths against it.
package minifloat

import "fmt"

// NaNEncoding says which bit patterns of a format are NaNs.
type NaNEncoding uint8

const (
	// NaNIEEE is IEEE 754's encoding: the exponent field all ones and a
	// non-zero mantissa, whose top bit is the quiet bit (binary16/32/64,
	// bfloat16, E5M2).
	NaNIEEE NaNEncoding = iota
	// NaNAllOnes has one NaN per sign: every exponent and mantissa bit set
	// (E4M3's S.1111.111; E8M0's 0xFF, which has no sign bit). The
	// exponent field all ones is otherwise an ordinary binade.
	NaNAllOnes
	// NaNNone has no NaN: every pattern is a number (E2M3, E3M2, E2M1).
	NaNNone
	// NaNNegZero has one NaN, the pattern of negative zero (the sign bit
	// alone: 0x80 in E4M3FNUZ and E5M2FNUZ), and so no negative zero, and
	// no infinities: the "FNUZ" formats (finite, NaN, unsigned zero). Every
	// other pattern is a number; a result of -0 is +0, and the NaN has no
	// sign.
	NaNNegZero
)

// Format is one row of the table: a binary floating-point format of at most
// 64 bits, laid out as [sign] exponent mantissa from the top bit down.
//
// A pattern's value is (-1)^sign * 1.mantissa * 2^(field-Bias) for an
// exponent field other than 0, and (-1)^sign * 0.mantissa * 2^(1-Bias) for
// the field 0 when Zero is set (zero and subnormals); when Zero is clear the
// field 0 is an ordinary binade, 1.mantissa * 2^-Bias. Infinities (when Inf
// is set) are the exponent field all ones with mantissa 0; NaNs are as NaN
// says; the largest finite value is the largest pattern below those.
type Format struct {
	Name     string      // the name clconv uses: "bfloat16", "e4m3", ...
	ExpBits  int         // width of the exponent field
	MantBits int         // width of the stored mantissa (precision - 1)
	Bias     int         // exponent bias
	Signed   bool        // a sign bit above the exponent field
	Zero     bool        // the exponent field 0 holds zero and subnormals
	Inf      bool        // the exponent field all ones with mantissa 0 is infinity
	NaN      NaNEncoding // which patterns are NaNs
}

// The rows. Each is a pointer into Formats.
var (
	// BFloat16 is bfloat16: binary32 with the low 16 mantissa bits cut off
	// (SPV_KHR_bfloat16: bias 127, 8 exponent and 7 mantissa bits, IEEE 754
	// encodings).
	BFloat16 = &Formats[0]
	// E4M3 is OCP OFP8 E4M3 ("E4M3FN" in LLVM and ml_dtypes): bias 7, no
	// infinities, NaN only S.1111.111, largest finite 448.
	E4M3 = &Formats[1]
	// E5M2 is OCP OFP8 E5M2: bias 15, IEEE 754 encodings, largest finite 57344.
	E5M2 = &Formats[2]
	// E2M3 is the OCP MX FP6 element format E2M3: bias 1, no infinities or
	// NaNs, largest finite 7.5.
	E2M3 = &Formats[3]
	// E3M2 is the OCP MX FP6 element format E3M2: bias 3, no infinities or
	// NaNs, largest finite 28.
	E3M2 = &Formats[4]
	// E2M1 is the OCP MX FP4 element format E2M1: bias 1, no infinities or
	// NaNs, largest finite 6.
	E2M1 = &Formats[5]
	// E8M0 is the OCP MX scale format E8M0: unsigned, bias 127, no zero, no
	// infinities, NaN 0xFF; the values are 2^-127 .. 2^127.
	E8M0 = &Formats[6]
	// Binary16 is IEEE 754 binary16 (OpenCL's half).
	Binary16 = &Formats[7]
	// Binary32 is IEEE 754 binary32 (float).
	Binary32 = &Formats[8]
	// Binary64 is IEEE 754 binary64 (double).
	Binary64 = &Formats[9]
	// E4M3FNUZ is the FNUZ variant of E4M3 (ml_dtypes' and PyTorch's
	// float8_e4m3fnuz, ONNX's FLOAT8E4M3FNUZ, safetensors' F8_E4M3FNUZ):
	// bias 8, no infinities, no negative zero, NaN only 0x80, largest
	// finite 240.
	E4M3FNUZ = &Formats[10]
	// E5M2FNUZ is the FNUZ variant of E5M2 (float8_e5m2fnuz, F8_E5M2FNUZ):
	// bias 16, no infinities, no negative zero, NaN only 0x80, largest
	// finite 57344.
	E5M2FNUZ = &Formats[11]
)

// Formats is the table. The first seven rows are the formats of issue 14;
// the IEEE rows complete it so that every conversion clconv needs between
// these formats and half, float and double is one conversion between rows;
// the FNUZ rows (issue 44) follow them.
var Formats = [...]Format{
	{Name: "bfloat16", ExpBits: 8, MantBits: 7, Bias: 127, Signed: true, Zero: true, Inf: true, NaN: NaNIEEE},
	{Name: "e4m3", ExpBits: 4, MantBits: 3, Bias: 7, Signed: true, Zero: true, NaN: NaNAllOnes},
	{Name: "e5m2", ExpBits: 5, MantBits: 2, Bias: 15, Signed: true, Zero: true, Inf: true, NaN: NaNIEEE},
	{Name: "e2m3", ExpBits: 2, MantBits: 3, Bias: 1, Signed: true, Zero: true, NaN: NaNNone},
	{Name: "e3m2", ExpBits: 3, MantBits: 2, Bias: 3, Signed: true, Zero: true, NaN: NaNNone},
	{Name: "e2m1", ExpBits: 2, MantBits: 1, Bias: 1, Signed: true, Zero: true, NaN: NaNNone},
	{Name: "e8m0", ExpBits: 8, MantBits: 0, Bias: 127, NaN: NaNAllOnes},
	{Name: "binary16", ExpBits: 5, MantBits: 10, Bias: 15, Signed: true, Zero: true, Inf: true, NaN: NaNIEEE},
	{Name: "binary32", ExpBits: 8, MantBits: 23, Bias: 127, Signed: true, Zero: true, Inf: true, NaN: NaNIEEE},
	{Name: "binary64", ExpBits: 11, MantBits: 52, Bias: 1023, Signed: true, Zero: true, Inf: true, NaN: NaNIEEE},
	{Name: "e4m3fnuz", ExpBits: 4, MantBits: 3, Bias: 8, Signed: true, Zero: true, NaN: NaNNegZero},
	{Name: "e5m2fnuz", ExpBits: 5, MantBits: 2, Bias: 16, Signed: true, Zero: true, NaN: NaNNegZero},
}

// ByName returns the row named name, or nil.
func ByName(name string) *Format {
	for i := range Formats {
		if Formats[i].Name == name {
			return &Formats[i]
		}
	}
	return nil
}

// String returns f's name, or "<nil>" for a nil f. (It checks rather than
// leaving fmt to recover a nil dereference: under qemu-user a fault's
// address may come garbled, and the runtime then dies instead of panicking.)
func (f *Format) String() string {
	if f == nil {
		return "<nil>"
	}
	return f.Name
}

// Width returns the number of bits of a pattern.
func (f *Format) Width() int {
	w := f.ExpBits + f.MantBits
	if f.Signed {
		w++
	}
	return w
}

// Mask returns all ones over the pattern's width.
func (f *Format) Mask() uint64 { return 1<<uint(f.Width()) - 1 }

// SignBit returns the sign bit's mask (0 for an unsigned format).
func (f *Format) SignBit() uint64 {
	if !f.Signed {
		return 0
	}
	return 1 << uint(f.ExpBits+f.MantBits)
}

// magMask covers the exponent and mantissa fields.
func (f *Format) magMask() uint64 { return 1<<uint(f.ExpBits+f.MantBits) - 1 }

// expAll is the exponent field all ones, shifted into place.
func (f *Format) expAll() uint64 { return (1<<uint(f.ExpBits) - 1) << uint(f.MantBits) }

// firstNonFinite is the magnitude code just above the largest finite one:
// infinity, the all-ones NaN, or 2^(ExpBits+MantBits) when every magnitude
// is a number (no NaN, or the FNUZ NaN, which is the sign bit alone).
func (f *Format) firstNonFinite() uint64 {
	switch f.NaN {
	case NaNIEEE:
		return f.expAll()
	case NaNAllOnes:
		return f.magMask()
	}
	return f.magMask() + 1
}

// MaxBits returns the pattern of the largest finite value.
func (f *Format) MaxBits() uint64 { return f.firstNonFinite() - 1 }

// MinBits returns the pattern of the smallest positive value: the smallest
// subnormal, or 2^-Bias for a format without zero.
func (f *Format) MinBits() uint64 {
	if f.Zero {
		return 1
	}
	return 0
}

// Emax returns the exponent of the largest finite value's leading bit.
func (f *Format) Emax() int { return int(f.MaxBits()>>uint(f.MantBits)) - f.Bias }

// Emin returns the exponent of the smallest normal value (1-Bias; -Bias
// for a format without zero, whose exponent field 0 is normal).
func (f *Format) Emin() int {
	if f.Zero {
		return 1 - f.Bias
	}
	return -f.Bias
}

// HasNaN reports whether f has NaNs.
func (f *Format) HasNaN() bool { return f.NaN != NaNNone }

// InfBits returns +infinity's pattern, and false if f has no infinities.
func (f *Format) InfBits() (uint64, bool) { return f.expAll(), f.Inf }

// NaNBits returns the positive quiet NaN with an empty payload (for
// bfloat16 0x7fc0, E4M3 0x7f, E5M2 0x7e, E8M0 0xff), the one NaN of an
// FNUZ format (0x80), and false if f has no NaNs.
func (f *Format) NaNBits() (uint64, bool) {
	switch f.NaN {
	case NaNIEEE:
		return f.expAll() | f.quietBit(), true
	case NaNAllOnes:
		return f.magMask(), true
	case NaNNegZero:
		return f.SignBit(), true
	}
	return 0, false
}

// quietBit is the top mantissa bit (IEEE NaNs only; MantBits >= 1 there).
func (f *Format) quietBit() uint64 { return 1 << uint(f.MantBits-1) }

// Validate reports whether the row describes a format this package handles.
func (f *Format) Validate() error {
	switch {
	case f.ExpBits < 1 || f.MantBits < 0 || f.Width() > 64:
		return fmt.Errorf("minifloat: %s: field widths %d+%d out of range", f.Name, f.ExpBits, f.MantBits)
	case f.NaN == NaNIEEE && f.MantBits == 0:
		return fmt.Errorf("minifloat: %s: IEEE NaNs need a mantissa", f.Name)
	case f.Inf != (f.NaN == NaNIEEE):
		return fmt.Errorf("minifloat: %s: infinities go with IEEE NaNs and only with them", f.Name)
	case !f.Zero && f.Signed:
		return fmt.Errorf("minifloat: %s: a signed format without zero is not handled", f.Name)
	case f.NaN == NaNNegZero && (!f.Signed || !f.Zero):
		return fmt.Errorf("minifloat: %s: the NaN of negative zero needs a sign and a zero", f.Name)
	case f.NaN == NaNAllOnes && f.MantBits == 0 && f.ExpBits < 2:
		return fmt.Errorf("minifloat: %s: no finite values", f.Name)
	}
	return nil
}
