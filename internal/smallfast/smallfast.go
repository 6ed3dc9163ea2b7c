// Package smallfast holds the fast float32 rounding and the decoding tables
// that packages fp8, fp6 and fp4 share for their signed formats with zero
// and subnormals: OCP E4M3 and E5M2, the FNUZ formats E4M3FNUZ and
// E5M2FNUZ, and the MX element formats E2M3, E3M2 and E2M1. Those packages check it against the integer-only reference
// internal/minifloat on every float32 (go test -long) and on a sample by
// default; nothing here reads the reference's rounding.
package smallfast

import (
	"math"

	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// Format is what the float32 fast path needs of one format.
type Format struct {
	mant      uint    // mantissa bits
	shift     uint    // 23 - mant
	qmin      int     // exponent of the smallest subnormal: the smallest quantum
	limit     uint32  // binary32 bits of the first grid point above MAX
	rebias    uint32  // (127-bias)<<23: moves binary32's exponents onto the format's
	minNormal float32 // the smallest normal magnitude, 2^(1-bias)
	subScale  float32 // 2^-qmin: a subnormal's value in quanta
	max       uint8   // MAX's magnitude code
	over      uint8   // the magnitude code overflow gives without _sat: infinity, NaN, MAX, or Overflow
}

// Overflow is what Round returns for an FNUZ format's overflow without _sat:
// a code above every magnitude (0x80, which is also the pattern of the
// FNUZ NaN), for the caller to turn into its NaN whatever the sign.
const Overflow = 0x80

// New returns the fast path of row r, which must be signed, have zero and
// subnormals, at most 8 bits and at most 7 exponent bits: E4M3, E5M2, E2M3,
// E3M2, E2M1, E4M3FNUZ or E5M2FNUZ. Overflow without _sat gives infinity
// where r has one, its all-ones NaN where it has that (E4M3), Overflow for
// an FNUZ format, and MAX otherwise (the MX formats, which have neither).
func New(r *minifloat.Format) *Format {
	if !r.Signed || !r.Zero || r.Width() > 8 || r.ExpBits > 7 {
		panic("smallfast: unsupported row " + r.Name)
	}
	mx := uint8(r.MaxBits())
	f := &Format{
		mant:   uint(r.MantBits),
		shift:  23 - uint(r.MantBits),
		qmin:   1 - r.Bias - r.MantBits,
		rebias: uint32(127-r.Bias) << 23,
		max:    mx,
		over:   mx,
	}
	// The grid point one unit above MAX, as a binary32 pattern: the code
	// after MAX's with the exponent rebiased.
	f.limit = uint32(mx+1)<<f.shift + f.rebias
	f.minNormal = math.Float32frombits(uint32(1-r.Bias+127) << 23)
	f.subScale = math.Float32frombits(uint32(-f.qmin+127) << 23)
	if inf, ok := r.InfBits(); ok {
		f.over = uint8(inf)
	} else if r.NaN == minifloat.NaNNegZero {
		f.over = Overflow
	} else if nan, ok := r.NaNBits(); ok {
		f.over = uint8(nan) // E4M3's S.1111.111, without the sign
	}
	return f
}

// Max returns MAX's magnitude code.
func (f *Format) Max() uint8 { return f.max }

// Round rounds the magnitude of the finite binary32 pattern b (sign bit
// included: it decides the directed modes) in mode m, with _sat if sat, and
// returns the format's magnitude code, to which the caller adds its sign bit.
//
// Adding and then subtracting c = 1.5*2^23*q, where q is the spacing of the
// format's values at |x|'s magnitude, rounds |x| to a multiple of q with
// ties to even in one hardware rounding (Go defines float32 arithmetic to
// round to nearest even on every port). That exact result's binary32
// pattern, its exponent rebiased and shifted right by 23-mant, is the
// format's pattern; a result below the smallest normal is its number of
// quanta. The directed modes step that pattern by one when the nearest value
// lies on the wrong side of x. Magnitudes are first clamped to the grid point
// just above MAX: everything beyond it rounds as it does, beyond MAX in every
// mode. (Multiplying by 2^(bias-127) instead, so that the binary32 pattern of
// the product is the format's, makes binary32 subnormals, which cost a
// microcode assist per element on Intel cores.)
func (f *Format) Round(b uint32, m round.Mode, sat bool) uint8 {
	neg := b&0x80000000 != 0
	ab := min(b&0x7fffffff, f.limit)
	a := math.Float32frombits(ab)
	qe := max(int(ab>>23)-127-int(f.mant), f.qmin)
	c := math.Float32frombits(uint32(qe+23+127)<<23 | 1<<22)
	r := (a + c) - c
	code := uint8((math.Float32bits(r) - f.rebias) >> f.shift)
	if r < f.minNormal {
		code = uint8(int32(r * f.subScale))
	}
	towardZero := false
	switch m {
	case round.RTZ:
		towardZero = true
		code -= b2u(r > a)
	case round.RTP:
		if !neg {
			code += b2u(r < a)
		} else {
			towardZero = true
			code -= b2u(r > a)
		}
	case round.RTN:
		if !neg {
			towardZero = true
			code -= b2u(r > a)
		} else {
			code += b2u(r < a)
		}
	}
	if code > f.max {
		// IEEE 754 overflow: +-MAX when the mode rounds toward zero,
		// and under _sat.
		if towardZero || sat {
			code = f.max
		} else {
			code = f.over
		}
	}
	return code
}

func b2u(b bool) uint8 {
	var u uint8
	if b {
		u = 1
	}
	return u
}

// Tables lists the binary32 and binary64 patterns of the 256 byte values of
// a signed format of width bits (sign, exponent, mant mantissa bits) and bias
// bias, built from its definition: (-1)^S * 1.M * 2^(E-bias), or 0.M *
// 2^(1-bias) for E == 0; with infinities at the exponent field all ones when
// hasInf. Bits above the width are ignored: entry i is the value of i's low
// width bits, so that a type may index the tables with its whole byte. A NaN
// (isNaN of the low width bits) keeps its sign and mantissa bits (E4M3's 111
// included) at the top of the wider mantissa, and gets the quiet bit.
func Tables(width, mant uint, bias int, hasInf bool, isNaN func(uint8) bool) (t32 *[256]uint32, t64 *[256]uint64) {
	t32, t64 = new([256]uint32), new([256]uint64)
	expAll := 1<<(width-1-mant) - 1
	for i := range 256 {
		b := uint8(i) & (1<<width - 1)
		signBit := b>>(width-1) != 0
		var sign32 uint32
		var sign64 uint64
		if signBit {
			sign32, sign64 = 1<<31, 1<<63
		}
		field := int(b>>mant) & expAll
		m := uint64(b) & (1<<mant - 1)
		switch {
		case isNaN(b):
			payload := m << (52 - mant)
			t64[i] = sign64 | 0x7ff8000000000000 | payload
			t32[i] = sign32 | 0x7fc00000 | uint32(payload>>29)
			continue
		case hasInf && field == expAll:
			t64[i] = sign64 | 0x7ff0000000000000
			t32[i] = sign32 | 0x7f800000
			continue
		}
		e := field - bias - int(mant)
		if field == 0 {
			e++ // subnormal: 0.M * 2^(1-bias)
		} else {
			m |= 1 << mant
		}
		v := math.Ldexp(float64(m), e) // exact: at most 4 significant bits
		t64[i] = sign64 | math.Float64bits(v)
		t32[i] = sign32 | math.Float32bits(float32(v))
	}
	return t32, t64
}

// FmtValue describes the code b (its low width bits) of a signed format with
// mant mantissa bits and bias bias to floatfmt.Format: f is its exact value,
// str its String, which %v prints (the exact value: every value of these
// formats has a short decimal expansion).
func FmtValue(typ string, b uint8, width, mant uint, bias int, f float64, finite bool, str func() string) floatfmt.Value {
	b &= 1<<width - 1
	v := floatfmt.Value{Type: typ, Bits: b, Float: f, Finite: finite, Neg: b>>(width-1) != 0,
		Shortest: func() float64 { return f }, String: str, StringV: true}
	if finite {
		field := int(b&(1<<(width-1)-1)) >> mant
		v.Mant = uint64(b) & (1<<mant - 1)
		if field == 0 {
			field = 1 // subnormal
		} else {
			v.Mant |= 1 << mant
		}
		v.Exp = field - bias - int(mant)
	}
	return v
}
