// Package digestspec is the definition of clconv's exhaustive conversion
// digest (ORACLES.md): the inputs of each source type, the canonical output
// and one input's term of the sum, and the chunks of 2^24 inputs the sum is
// split into. Package convert's exhaustive test sums the reference's outputs
// with it and records the digests; clconv digest and clconv verify
// (cmd/clconv/internal/digest and verify) compute the same numbers from the
// conversion kernels and from devices.
package digestspec

import "github.com/clconv/clconv/cltype"

// ChunkSize is the number of inputs in one chunk.
const ChunkSize = 1 << 24

// Constants of the definition.
const (
	golden  = 0x9E3779B97F4A7C15
	sampleC = 0x632BE59BD9B4E019
	// NaN is the canonical output of every NaN result.
	NaN = 0x7FF8000000000000
	// ImplDefined is the canonical output of a non-saturated float->integer
	// conversion whose rounded value is NaN or out of range.
	ImplDefined = 0xDEADDEADDEADDEAD
)

// Fmix is the 64-bit finalizer of the definition (SplitMix64's).
func Fmix(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	z ^= z >> 31
	return z
}

// N returns the number of inputs for a source kind: 2^bits for 8-, 16- and
// 32-bit kinds, 2^32 samples for 64-bit kinds; for the MX element formats
// stored one per byte, every code: 16 for e2m1, 64 for e2m3 and e3m2 (the
// bits above a code are not part of its value).
func N(src cltype.Kind) uint64 {
	switch src {
	case cltype.E2M1:
		return 1 << 4
	case cltype.E2M3, cltype.E3M2:
		return 1 << 6
	}
	if src.Bits() >= 32 {
		return 1 << 32
	}
	return 1 << src.Bits()
}

// Chunks returns the number of chunks for a source kind.
func Chunks(src cltype.Kind) int { return int((N(src) + ChunkSize - 1) / ChunkSize) }

// Input returns the bit pattern of input i for a source kind.
func Input(src cltype.Kind, i uint64) uint64 {
	if src.Bits() < 64 {
		return i
	}
	if src == cltype.Double {
		return DoubleInput(i)
	}
	return IntInput(i)
}

// DoubleInput is input i of a double source: most samples get an exponent
// within 2^-4..2^67 of 1, where the integer and float boundaries are.
// Written without branches: the choice is random per input.
func DoubleInput(i uint64) uint64 {
	r := Fmix(i*golden + sampleC)
	v := r&0x800FFFFFFFFFFFFF | (1019+((r>>52)&0x7F)%72)<<52
	if r&3 == 0 {
		v = r
	}
	return v
}

// IntInput is input i of a long or ulong source: magnitudes of every bit length.
func IntInput(i uint64) uint64 {
	r := Fmix(i*golden + sampleC)
	v := r >> ((r >> 2) & 63)
	if (r>>8)&1 != 0 {
		v = -v
	}
	if r&3 == 0 {
		v = r
	}
	return v
}

// Canonical returns the canonical output of a conversion result: integer bits
// zero-extended, floating bits with every NaN made NaN (0x7FF8000000000000;
// the one NaN of e4m3fnuz and e5m2fnuz, 0x80, is kept: see NaNMasks), and
// ImplDefined for an implementation-defined result.
func Canonical(dst cltype.Kind, bits uint64, implDefined bool) uint64 {
	if implDefined {
		return ImplDefined
	}
	if a, m, ok := NaNMasks(dst); ok && bits&a == a && bits&m != 0 {
		return NaN
	}
	return bits
}

// IsNaN reports whether bits of kind k are a NaN: b&a == a and b&m != 0
// for the masks of NaNMasks, or, for e4m3fnuz and e5m2fnuz, b == 0x80.
func IsNaN(k cltype.Kind, b uint64) bool {
	if k == cltype.E4M3FNUZ || k == cltype.E5M2FNUZ {
		return b&0xff == 0x80
	}
	a, m, ok := NaNMasks(k)
	return ok && b&a == a && b&m != 0
}

// NaNMasks returns the masks that tell a NaN of kind k by its bits b:
// b&a == a (the exponent field all ones; for e4m3 the low seven bits, for
// e8m0 all eight) and b&m != 0 (a nonzero significand). ok is false for the
// kinds without NaNs: the integers, e2m1, e2m3 and e3m2; and for
// e4m3fnuz and e5m2fnuz, whose one NaN, 0x80, masks of this form cannot
// tell from the negative values: that pattern is canonical already, and
// Canonical and the digests keep it as it is.
func NaNMasks(k cltype.Kind) (a, m uint64, ok bool) {
	switch k {
	case cltype.Half:
		return 0x7c00, 0x3ff, true
	case cltype.Float:
		return 0x7f800000, 0x7fffff, true
	case cltype.Double:
		return 0x7ff0000000000000, 0xfffffffffffff, true
	case cltype.BFloat16:
		return 0x7f80, 0x7f, true
	case cltype.E4M3:
		return 0x7f, 0x7f, true
	case cltype.E5M2:
		return 0x7c, 3, true
	case cltype.E8M0:
		return 0xff, 0xff, true
	}
	return 0, 0, false // e2m1, e2m3 and e3m2 have no NaN
}

// Term returns one input's contribution to the sum.
func Term(i, canonical uint64) uint64 { return Fmix(Fmix(i+golden) ^ canonical) }
