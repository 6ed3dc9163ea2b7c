package minifloat

import (
	"math/bits"

	"github.com/clconv/clconv/round"
)

// Class is what a pattern holds.
type Class uint8

// The classes of Value.
const (
	ClassZero Class = iota
	ClassFinite
	ClassInf
	ClassNaN
)

var classNames = [...]string{"zero", "finite", "inf", "nan"}

// String returns "zero", "finite", "inf" or "nan".
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(?)"
}

// Value is an exact value taken apart.
//
// For ClassFinite the value is (-1)^Neg * Sig * 2^Exp with Sig != 0. For
// ClassNaN, Sig is the NaN's mantissa field left-aligned at bit 63, so that
// bit 63 is IEEE's quiet bit and the bits below it the payload, high bits
// first; the one NaN of E4M3 or E8M0 counts as quiet (bit 63 set) with its
// mantissa bits as the payload (E4M3's 111: Sig == 0xe000000000000000;
// E8M0's none: 1<<63). Neg is the sign bit, for zeros and NaNs too, except
// for the FNUZ NaN (0x80), whose sign bit is its encoding, not a sign: Neg
// is false there, Sig 1<<63.
type Value struct {
	Class Class
	Neg   bool
	Sig   uint64
	Exp   int
}

// Decode takes pattern b of f apart (bits above f's width are ignored).
func (f *Format) Decode(b uint64) Value {
	b &= f.Mask()
	neg := b&f.SignBit() != 0
	mag := b & f.magMask()
	m := uint(f.MantBits)
	field := int(mag >> m)
	mant := mag & (1<<m - 1)
	switch f.NaN {
	case NaNIEEE:
		if mag >= f.expAll() {
			if mant == 0 {
				return Value{Class: ClassInf, Neg: neg}
			}
			return Value{Class: ClassNaN, Neg: neg, Sig: mant << (64 - m)}
		}
	case NaNAllOnes:
		if mag == f.magMask() {
			// The mantissa bits (E4M3's 111; none in E8M0) are the
			// payload, and the NaN counts as quiet.
			return Value{Class: ClassNaN, Neg: neg, Sig: 1<<63 | mant<<(63-m)<<1}
		}
	case NaNNegZero:
		if b == f.SignBit() {
			return Value{Class: ClassNaN, Sig: 1 << 63}
		}
	}
	if f.Zero && field == 0 {
		if mant == 0 {
			return Value{Class: ClassZero, Neg: neg}
		}
		return Value{Class: ClassFinite, Neg: neg, Sig: mant, Exp: 1 - f.Bias - int(m)}
	}
	return Value{Class: ClassFinite, Neg: neg, Sig: mant | 1<<m, Exp: field - f.Bias - int(m)}
}

// Classify returns the class of pattern b of f.
func (f *Format) Classify(b uint64) Class { return f.Decode(b).Class }

// dir is how a rounding mode treats a magnitude once the sign is known,
// written as its truth table: bit guard<<2 | sticky<<1 | lsb says whether to
// add one unit to the truncated magnitude, where guard is the first
// discarded bit (half a unit), sticky whether any discarded bit below it is
// set, and lsb the parity of the truncated magnitude's pattern.
type dir uint8

const (
	towardZero   dir = 0           // never round up
	awayFromZero dir = 0b1111_1100 // round up when anything was discarded
	nearestEven  dir = 0b1110_0000 // above half way, or half way from an odd pattern
)

// magDir returns the direction of mode m for a value of sign neg; a mode
// out of range means RTE, as everywhere in clconv.
func magDir(m round.Mode, neg bool) dir {
	switch m {
	case round.RTZ:
		return towardZero
	case round.RTP:
		if neg {
			return towardZero
		}
		return awayFromZero
	case round.RTN:
		if neg {
			return awayFromZero
		}
		return towardZero
	}
	return nearestEven
}

// split returns x / 2^sh truncated, the first discarded bit and whether any
// bit below that one is set, for any sh.
func split(x uint64, sh uint) (q uint64, guard, sticky bool) {
	switch {
	case sh == 0:
		return x, false, false
	case sh == 64:
		return 0, x>>63 != 0, x<<1 != 0
	case sh > 64:
		return 0, false, x != 0
	}
	return x >> sh, x>>(sh-1)&1 != 0, x<<(65-sh) != 0
}

// Encode rounds v to f in mode m, saturating if sat. docs/FORMATS.md states
// the rules; in short:
//
//   - A finite value is rounded on its exact value, as if the exponent range
//     had no top, ties going to the even pattern. A result above the largest
//     finite value overflows: to +-MAX in a mode that rounds it toward zero
//     and under _sat; otherwise to +-infinity, to the all-ones NaN (E4M3,
//     sign kept; E8M0; the FNUZ NaN 0x80), or to +-MAX for a format with
//     neither.
//   - Infinity gives +-MAX under _sat, and otherwise infinity, the all-ones
//     NaN, or +-MAX for a format with neither.
//   - NaN gives NaN with its sign, the high payload bits that fit and the
//     quiet bit set where the format has IEEE NaNs; E4M3's S.1111.111;
//     E8M0's 0xFF; the FNUZ formats' 0x80; and +0 in a format without NaNs.
//   - Zero keeps its sign, except in the FNUZ formats, which have no
//     negative zero: a result of -0 (a negative zero, or a negative value
//     that rounds to zero) is +0 there.
//   - For E8M0 (unsigned, no zero): zero, a negative value and -infinity
//     give NaN, or 2^-127 under _sat; a positive value below 2^-127 gives
//     2^-127. Ties go up (2^-127 .. 2^127 have one significant bit, odd).
func (f *Format) Encode(v Value, m round.Mode, sat bool) uint64 {
	r := f.Prepare(v)
	return r.Result(m, sat)
}

// Rounding is a value taken apart against a format as far as the mode
// does not matter: the truncated pattern of its magnitude and the bits that
// decide rounding. Result finishes it in each mode; Prepare once and Result
// eight times is Encode in the four modes with and without _sat.
type Rounding struct {
	f    *Format
	v    Value
	sign uint64 // v's sign bit in f (0 in an unsigned format)
	over bool   // at least 2^(Emax+1): beyond MAX in every mode
	code int64  // the truncated magnitude's pattern
	idx  uint   // guard<<2 | sticky<<1 | parity of the truncated significand
}

// Prepare takes v apart against f.
func (f *Format) Prepare(v Value) Rounding {
	r := Rounding{f: f, v: v}
	if v.Neg {
		r.sign = f.SignBit()
	}
	if v.Class != ClassFinite || v.Neg && !f.Signed {
		return r
	}
	lz := bits.LeadingZeros64(v.Sig)
	sig := v.Sig << uint(lz)
	e := v.Exp + 63 - lz // the exponent of the leading bit
	if e > f.Emax() {
		r.over = true
		return r
	}
	// Below the smallest normal the quantum stays that of the smallest
	// normal binade: gradual underflow, subnormal results.
	emin := f.Emin()
	eff := max(e, emin)
	mb := uint(f.MantBits)
	q, guard, sticky := split(sig, 63-mb+uint(eff-e))
	// The pattern of the truncated magnitude. Patterns count the grid
	// points up from zero, so that adding one to the truncated pattern
	// gives the next grid point up, across binades. Without zero the
	// field 0 is a normal binade, and a value below it truncates to the
	// pattern -1.
	r.code = int64(uint64(eff-emin)<<mb) + int64(q)
	if !f.Zero {
		r.code -= 1 << mb
	}
	// Ties go to the even significand q on this binade's grid, which is
	// the even pattern except in a format without mantissa bits (E8M0):
	// there q is 1 for every value, and a tie between 2^k and 2^(k+1)
	// goes up, to 2 * 2^k, as LLVM's APFloat rounds it.
	r.idx = uint(q & 1)
	if guard {
		r.idx |= 4
	}
	if sticky {
		r.idx |= 2
	}
	return r
}

// Result returns the prepared value rounded in mode m, saturating if sat.
func (r *Rounding) Result(m round.Mode, sat bool) uint64 {
	f, v, sign := r.f, &r.v, r.sign
	switch v.Class {
	case ClassNaN:
		switch f.NaN {
		case NaNIEEE:
			return sign | f.expAll() | v.Sig>>(64-uint(f.MantBits)) | f.quietBit()
		case NaNAllOnes:
			return sign | f.magMask()
		case NaNNegZero:
			return f.SignBit()
		}
		// No NaN to give: +0, as OpenCL's float->integer conversions give
		// 0 for NaN.
		return 0
	case ClassInf:
		if v.Neg && !f.Signed {
			return f.belowRange(sat)
		}
		return f.overflow(sign, false, sat)
	case ClassZero:
		if !f.Zero {
			return f.belowRange(sat)
		}
		if f.NaN == NaNNegZero {
			return 0 // no -0: its pattern is the NaN
		}
		return sign
	}
	if v.Neg && !f.Signed {
		return f.belowRange(sat)
	}
	d := magDir(m, v.Neg)
	if r.over {
		return f.overflow(sign, d == towardZero, sat)
	}
	code := r.code + int64(d>>r.idx&1)
	switch {
	case code > int64(f.MaxBits()):
		return f.overflow(sign, d == towardZero, sat)
	case code < 0:
		// A positive value below the smallest of a format without zero
		// (E8M0) gives that smallest value in every mode: rounding
		// would give zero, which it lacks (LLVM's APFloat does the same).
		return f.MinBits()
	case code == 0 && f.NaN == NaNNegZero:
		return 0 // a negative value rounded to zero: +0, -0's pattern is the NaN
	}
	return sign | uint64(code)
}

// overflow returns f's result for a value beyond its largest finite one
// with sign bit sign: towardZero is set when the mode rounded the finite
// value toward zero, in which IEEE 754 gives the largest finite value.
func (f *Format) overflow(sign uint64, towardZero, sat bool) uint64 {
	switch {
	case towardZero || sat || f.NaN == NaNNone:
		return sign | f.MaxBits()
	case f.Inf:
		return sign | f.expAll()
	case f.NaN == NaNNegZero:
		return f.SignBit() // the FNUZ NaN, 0x80, whatever the sign
	}
	return sign | f.magMask() // the all-ones NaN
}

// belowRange returns f's result for zero, a negative value or -infinity in
// an unsigned format without zero (E8M0): its NaN, or under _sat its
// smallest value, as a float -> unsigned integer _sat conversion clamps to 0.
func (f *Format) belowRange(sat bool) uint64 {
	if sat || f.NaN == NaNNone {
		return f.MinBits()
	}
	nan, _ := f.NaNBits()
	return nan
}

// Convert converts pattern b of format src to format dst in mode m, with
// _sat if sat, and returns dst's pattern. Converting a format to itself
// returns b unchanged (NaN payloads and signalling NaNs included), except
// that _sat takes infinities to +-MAX. Bits above src's width are ignored.
func Convert(dst, src *Format, b uint64, m round.Mode, sat bool) uint64 {
	b &= src.Mask()
	if *dst == *src {
		if sat && src.Inf {
			if v := src.Decode(b); v.Class == ClassInf {
				return dst.Encode(v, m, true)
			}
		}
		return b
	}
	return dst.Encode(src.Decode(b), m, sat)
}

// FromFloat32Bits converts the binary32 pattern b to f.
func FromFloat32Bits(f *Format, b uint32, m round.Mode, sat bool) uint64 {
	return Convert(f, Binary32, uint64(b), m, sat)
}

// FromFloat64Bits converts the binary64 pattern b to f.
func FromFloat64Bits(f *Format, b uint64, m round.Mode, sat bool) uint64 {
	return Convert(f, Binary64, b, m, sat)
}

// FromInt64 converts the integer v to f. Zero gives +0 (NaN in E8M0, or
// 2^-127 under _sat).
func FromInt64(f *Format, v int64, m round.Mode, sat bool) uint64 {
	if v == 0 {
		return f.Encode(Value{Class: ClassZero}, m, sat)
	}
	mag := uint64(v)
	if v < 0 {
		mag = -mag // 1<<63 for the most negative int64, which still fits
	}
	return f.Encode(Value{Class: ClassFinite, Neg: v < 0, Sig: mag}, m, sat)
}

// FromUint64 converts the integer v to f, as FromInt64.
func FromUint64(f *Format, v uint64, m round.Mode, sat bool) uint64 {
	if v == 0 {
		return f.Encode(Value{Class: ClassZero}, m, sat)
	}
	return f.Encode(Value{Class: ClassFinite, Sig: v}, m, sat)
}

// ToFloat32Bits returns pattern b of f as a binary32 pattern: exact for
// every row but Binary64 (rounded to nearest even there). A NaN keeps its
// sign and the high mantissa bits that fit and gets the quiet bit (E4M3's
// NaN gives 0x7ff00000 with its sign; E8M0's and the FNUZ formats'
// 0x7fc00000).
func ToFloat32Bits(f *Format, b uint64) uint32 {
	return uint32(Convert(Binary32, f, b, round.RTE, false))
}

// ToFloat64Bits returns pattern b of f as a binary64 pattern, exactly, NaNs
// as ToFloat32Bits gives them.
func ToFloat64Bits(f *Format, b uint64) uint64 {
	return Convert(Binary64, f, b, round.RTE, false)
}
