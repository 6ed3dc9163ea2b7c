package fileconv

import (
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// CountNonFinite returns how many of the n elements of dst, kind dk,
// converted from the n elements of src, kind sk, with or without _sat,
// are NaN or infinite while their source is finite: what Result.NonFinite
// counts, for callers that convert buffers themselves (package checkpoint).
// It returns 0 at once for a pair that cannot overflow, and otherwise
// scans dst a word at a time, comparing with src only where dst has a
// non-finite element. Both buffers are little-endian.
func CountNonFinite(dk, sk cltype.Kind, sat bool, dst, src []byte, n int) int64 {
	if n == 0 || !mayBecomeNonFinite(dk, sk, sat) {
		return 0
	}
	if len(dst) < n*dk.Size() || len(src) < n*sk.Size() {
		panic("fileconv: CountNonFinite: buffers shorter than n elements")
	}
	if uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%8 != 0 {
		// anyNonFinite reads words: work on an aligned copy.
		a := alignedBytes(n * dk.Size())
		copy(a, dst)
		dst = a
	}
	return countNonFinite(dk, sk, dst, src, n)
}

// Classify adds to s the statistics of converting the n elements of src,
// kind sk, into the n elements of dst, kind dk, in mode m with or without
// _sat, both little-endian: exactly what Convert counts with Options.Stats,
// for callers that convert buffers themselves (package checkpoint's
// dequantization, whose source is the exact float64 product). dst must hold
// what convert.Bytes(dk, sk, dst, src, m, sat) writes.
func (s *Stats) Classify(dk, sk cltype.Kind, dst, src []byte, n int, m round.Mode, sat bool) {
	if n == 0 {
		return
	}
	if len(dst) < n*dk.Size() || len(src) < n*sk.Size() {
		panic("fileconv: Stats.Classify: buffers shorter than n elements")
	}
	aligned := func(b []byte) []byte {
		if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 == 0 {
			return b
		}
		a := alignedBytes(len(b))
		copy(a, b)
		return a
	}
	s.classify(dk, sk, aligned(dst), aligned(src), n, m, sat)
}

// Add adds o's counts to s.
func (s *Stats) Add(o *Stats) { s.add(o) }

// NonFiniteAdvice says, for the warning about Result.NonFinite, what the
// finite values that overflowed dst became ("NaN or infinite", or "NaN
// (e4m3 has no infinity)" for the formats without one), and what avoids
// it: _sat where dst allows it, a wider type for half and float.
func NonFiniteAdvice(dst cltype.Kind) (what, hint string) {
	what = "NaN or infinite"
	if r := minifloat.OfKind(dst); r != nil && !r.Inf {
		what = "NaN (" + dst.String() + " has no infinity)"
	}
	hint = "--sat clamps them to ±max instead"
	if dst.IsFloat() {
		hint = "they lie beyond " + dst.String() + "'s range: a wider type (bfloat16, float) keeps them"
	}
	return what, hint
}
