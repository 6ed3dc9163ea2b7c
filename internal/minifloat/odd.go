package minifloat

// Float64ToOdd32 rounds the binary64 pattern b to binary32 by rounding to
// odd: truncate toward zero, then set the last bit if anything was
// discarded. It is how the fast paths convert a double: rounding to odd
// first and then once more, in any mode, to a format of at most 22
// significant bits whose smallest quantum is at least 2^-147 gives the same
// result as rounding b directly (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", IEEE
// Trans. Computers 2008), because every rounding boundary of such a format
// (its values and the midpoints between them) is a binary32 value with a
// zero last bit, on which rounding to odd never lands from either side.
//
// Magnitudes of 2^128 and up, which have no binary32 neighbour above, give
// the largest finite binary32 magnitude 0x7f7fffff: odd, and beyond every
// such format's overflow threshold, so the second rounding overflows as the
// direct one does (to +-MAX toward zero, to infinity or NaN otherwise).
// Infinities stay infinite. A NaN keeps its sign and top 22 payload bits
// and gets the quiet bit, so that a payload only in the low bits stays a
// NaN. Only integer operations are used.
func Float64ToOdd32(b uint64) uint32 {
	sign := uint32(b>>32) & 0x80000000
	a := b &^ (1 << 63)
	switch {
	case a > 0x7ff0000000000000:
		return sign | 0x7fc00000 | uint32(a>>29)&0x3fffff
	case a == 0x7ff0000000000000:
		return sign | 0x7f800000
	case a >= 0x47f0000000000000: // 2^128
		return sign | 0x7f7fffff
	}
	e := uint32(a >> 52)
	mant := a & (1<<52 - 1)
	if e >= 897 { // 2^-126 and up: a normal binary32
		r := (e-896)<<23 | uint32(mant>>29)
		if mant&(1<<29-1) != 0 {
			r |= 1
		}
		return sign | r
	}
	// A binary32 subnormal, in units of 2^-149.
	sig := mant | 1<<52
	if e == 0 {
		sig, e = mant, 1
	}
	sh := 926 - e // at least 30
	var r uint32
	if sh < 64 {
		r = uint32(sig >> sh)
		if sig&(1<<sh-1) != 0 {
			r |= 1
		}
	} else if sig != 0 {
		r = 1
	}
	return sign | r
}
