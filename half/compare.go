package half

// Compare returns -1, 0 or +1 as a is less than, equal to or greater than b
// in numeric order, with the semantics of [cmp.Compare] on floats: a NaN is
// less than every non-NaN and equal to every NaN, whatever its sign and
// payload, and -0 equals +0. It agrees with cmp.Compare(a.Float64(),
// b.Float64()) for all a and b, and it is a consistent ordering for
// [slices.SortFunc], which puts NaNs first.
func Compare(a, b Half) int {
	an, bn := a.IsNaN(), b.IsNaN()
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return +1
	}
	ka, kb := orderKey(a), orderKey(b)
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return +1
	}
	return 0
}

// Less reports whether a is less than b in the order of [Compare], with the
// semantics of [cmp.Less] on floats: a NaN is less than every non-NaN, and
// -0 is not less than +0. It agrees with cmp.Less(a.Float64(), b.Float64())
// for all a and b.
func Less(a, b Half) bool {
	return a.IsNaN() && !b.IsNaN() || !a.IsNaN() && !b.IsNaN() && orderKey(a) < orderKey(b)
}

// orderKey maps a non-NaN h to an integer in its numeric order, with both
// zeros at 0.
func orderKey(h Half) int32 {
	k := int32(h & 0x7fff)
	if h.Signbit() {
		return -k
	}
	return k
}
