package fileconv

import (
	"unsafe"

	"github.com/clconv/clconv/cltype"
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
