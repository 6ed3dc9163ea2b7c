package convert

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/minifloat"
)

// ErrRange is the error that ToChecked and SliceChecked report, as a
// *RangeError, for a value that the conversion could not represent:
// errors.Is(err, ErrRange) tells such an error from any other.
var ErrRange = errors.New("convert: value out of range")

// Cause says why a checked conversion could not represent a value (see the
// package documentation's "Checked conversions").
type Cause uint8

// The causes of a RangeError.
const (
	CauseNaN      Cause = iota + 1 // NaN to an integer type, or to e2m1, e2m3 or e3m2 (which have no NaN)
	CauseTooLarge                  // above an integer type's MAX after rounding, +infinity included
	CauseTooSmall                  // below an integer type's MIN after rounding, -infinity included; zero or a negative value to e8m0
	CauseOverflow                  // a finite value beyond a floating type's largest finite value (IEEE 754 overflow), or an infinity to a format without infinities
)

var causeNames = [...]string{CauseNaN: "NaN", CauseTooLarge: "too large", CauseTooSmall: "too small", CauseOverflow: "overflow"}

// String returns "NaN", "too large", "too small" or "overflow".
func (c Cause) String() string {
	if c >= CauseNaN && int(c) < len(causeNames) {
		return causeNames[c]
	}
	return "Cause(" + strconv.Itoa(int(c)) + ")"
}

// RangeError reports a value that a checked conversion could not represent.
// errors.Is(err, ErrRange) is true for it.
type RangeError struct {
	Index int         // the element's index in SliceChecked's source; -1 for ToChecked
	Value any         // the source value, of the caller's Go type
	Src   cltype.Kind // the source type
	Dst   cltype.Kind // the destination type
	Mode  Mode        // the conversion's rounding mode
	Cause Cause       // what went wrong
	// Failed is, for SliceChecked, how many of the Len elements converted
	// ToChecked would reject, this one included (counted only once an
	// element has failed, so a slice without one pays nothing); 0 for
	// ToChecked.
	Failed int
	// Len is the number of elements SliceChecked converted; 0 for
	// ToChecked.
	Len int
}

// Error describes the value, the types, the limit it passed and, where it
// matters, the mode, and for SliceChecked how many elements failed:
// "convert: float 300 is too large for char (max 127) in rtz", "convert:
// element 5: float NaN has no char value (3 of 8 elements fail)", "convert:
// float 1e+06 overflows half (max 65504) in rtz".
func (e *RangeError) Error() string {
	var b strings.Builder
	b.WriteString("convert: ")
	if e.Index >= 0 {
		fmt.Fprintf(&b, "element %d: ", e.Index)
	}
	fmt.Fprintf(&b, "%s %v ", e.Src, e.Value)
	switch e.Cause {
	case CauseNaN:
		fmt.Fprintf(&b, "has no %s value", e.Dst)
		e.writeFailed(&b)
		return b.String()
	case CauseTooLarge:
		fmt.Fprintf(&b, "is too large for %s (max %d)", e.Dst, e.Dst.MaxUint())
	case CauseTooSmall:
		if e.Dst == cltype.E8M0 {
			fmt.Fprintf(&b, "is too small for %s (min 2^-127)", e.Dst)
			break
		}
		fmt.Fprintf(&b, "is too small for %s (min %d)", e.Dst, e.Dst.MinInt())
	case CauseOverflow:
		fmt.Fprintf(&b, "overflows %s (max %s)", e.Dst, maxFinite(e.Dst))
	default:
		fmt.Fprintf(&b, "does not fit %s", e.Dst)
	}
	if e.Src.IsFloating() || e.Dst.IsFloating() {
		fmt.Fprintf(&b, " in %s", e.Mode)
	}
	e.writeFailed(&b)
	return b.String()
}

// writeFailed adds " (3 of 4 elements fail)" for SliceChecked's errors.
func (e *RangeError) writeFailed(b *strings.Builder) {
	if e.Failed <= 0 {
		return
	}
	verb := "fail"
	if e.Failed == 1 {
		verb = "fails"
	}
	fmt.Fprintf(b, " (%d of %d elements %s)", e.Failed, e.Len, verb)
}

// Is reports whether target is ErrRange.
func (e *RangeError) Is(target error) bool { return target == ErrRange }

// maxFinite formats the largest finite value of floating kind k.
func maxFinite(k cltype.Kind) string {
	switch k {
	case cltype.Half:
		return "65504"
	case cltype.Float:
		return strconv.FormatFloat(math.MaxFloat32, 'g', -1, 32)
	case cltype.Double:
		return strconv.FormatFloat(math.MaxFloat64, 'g', -1, 64)
	case cltype.E8M0:
		return "2^127"
	case cltype.BFloat16, cltype.E4M3, cltype.E5M2, cltype.E2M1, cltype.E2M3, cltype.E3M2, cltype.E4M3FNUZ, cltype.E5M2FNUZ:
		r := minifloat.OfKind(k)
		return strconv.FormatFloat(math.Float64frombits(minifloat.ToFloat64Bits(r, r.MaxBits())), 'g', -1, 32)
	}
	return "?"
}

// ToChecked converts x to D in mode m, as ToSat does, and returns an error
// when the conversion lost more than rounding: NaN to an integer type, a value
// whose rounded value is outside an integer type's range, and a finite value
// that overflows a floating type (see the package documentation for the exact
// rule). The error is a *RangeError with Index -1, and the value returned with
// it is ToSat's: the saturated integer, or the infinity or largest finite
// value that the mode gives. NaN to a floating type stays NaN, and an infinity
// stays infinite, without an error, where the type can hold them; the small
// formats' exceptions (an infinity to e4m3, e8m0, e2m1, e2m3 or e3m2, a NaN to
// e2m1, e2m3 or e3m2, zero and negative values to e8m0) are errors, as the
// package documentation says.
func ToChecked[D, S Number](x S, m Mode) (D, error) {
	var d D
	dk, sk := KindOf[D](), KindOf[S]()
	if !convertChecked(dk, sk, unsafe.Pointer(&d), unsafe.Pointer(&x), m) {
		return d, rangeError(-1, x, dk, sk, unsafe.Pointer(&x), m)
	}
	return d, nil
}

// SliceChecked converts min(len(dst), len(src)) elements like SliceSat and
// returns that count, and a *RangeError for the first element that ToChecked
// would reject (its Index is the element's). dst holds every element
// converted either way, the rejected ones as SliceSat converts them. dst and
// src must not overlap unless they are the same memory and the same size of
// element. It runs at about SliceSat's speed (see checkChunk), and a slice
// without a bad element allocates nothing.
func SliceChecked[D, S Number](dst []D, src []S, m Mode) (int, error) {
	n := min(len(dst), len(src))
	if n == 0 {
		return 0, nil
	}
	dk, sk := KindOf[D](), KindOf[S]()
	d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	if dk.IsSmallFloat() || sk.IsSmallFloat() {
		// One value at a time, each read before it is written; every
		// element gets ToChecked's value.
		var err *RangeError
		failed := 0
		for i := range n {
			x := src[i]
			if !smallChecked(dk, sk, unsafe.Add(d, i*dk.Size()), unsafe.Add(s, i*sk.Size()), m) {
				if err == nil {
					err = rangeError(i, x, dk, sk, unsafe.Pointer(&x), m)
				}
				failed++
			}
		}
		if err != nil {
			err.Failed, err.Len = failed, n
			return n, err
		}
		return n, nil
	}
	if !mayFail[sk][dk] {
		convertSlice(dk, sk, d, s, n, m, true)
		return n, nil
	}
	for lo := 0; lo < n; lo += checkChunk {
		k := min(checkChunk, n-lo)
		sp, dp := unsafe.Add(s, lo*sk.Size()), unsafe.Add(d, lo*dk.Size())
		// Before converting: dst may be src's memory.
		if i := firstBad(dk, sk, sp, k, m); i >= 0 {
			err := rangeError(lo+i, src[lo+i], dk, sk, unsafe.Add(sp, i*sk.Size()), m)
			// Count the rest before converting (dst may be src), only
			// on this error path.
			err.Failed = 1
			if rest := n - lo - i - 1; rest > 0 { // no pointer one past the end (checkptr)
				err.Failed += countBad(dk, sk, unsafe.Add(sp, (i+1)*sk.Size()), rest, m)
			}
			err.Len = n
			convertSlice(dk, sk, dp, sp, n-lo, m, true)
			return n, err
		}
		convertSlice(dk, sk, dp, sp, k, m, true)
	}
	return n, nil
}

// countBad returns how many of the k source elements at s convertChecked
// rejects, by a range scan (firstBad) from one rejected element to the
// next.
func countBad(dk, sk cltype.Kind, s unsafe.Pointer, k int, m Mode) int {
	count := 0
	for k > 0 {
		i := firstBad(dk, sk, s, k, m)
		if i < 0 {
			break
		}
		count++
		k -= i + 1
		if k > 0 { // no pointer one past the end (checkptr)
			s = unsafe.Add(s, (i+1)*sk.Size())
		}
	}
	return count
}

// CheckSlice returns the indices of the elements of src that ToChecked
// would reject in mode m, in increasing order, and nil when there are
// none. It converts nothing; SliceChecked's error tells the first of them
// and their number.
func CheckSlice[D, S Number](src []S, m Mode) []int {
	var out []int
	dk, sk := KindOf[D](), KindOf[S]()
	s := unsafe.Pointer(unsafe.SliceData(src))
	if dk.IsSmallFloat() || sk.IsSmallFloat() {
		var d D
		for i := range src {
			if !smallChecked(dk, sk, unsafe.Pointer(&d), unsafe.Add(s, i*sk.Size()), m) {
				out = append(out, i)
			}
		}
		return out
	}
	if len(src) == 0 || !mayFail[sk][dk] {
		return nil
	}
	for base, k := 0, len(src); k > 0; {
		i := firstBad(dk, sk, unsafe.Add(s, base*sk.Size()), k, m)
		if i < 0 {
			break
		}
		out = append(out, base+i)
		base += i + 1
		k -= i + 1
	}
	return out
}

// checkChunk is the number of elements that SliceChecked tests and then
// converts at a time. firstBad runs a SIMD range scan where the pair has
// SIMD kernels (two min/max instructions and one logic instruction per
// vector); the conversion then reads the chunk from L1 cache (16 KiB of
// float, 32 KiB of double), so the source crosses the memory hierarchy once,
// as in SliceSat. On 1 Mi floats to uchar the chunks take 1.4 times
// SliceSat's time, where a scan of the whole slice before the conversion took
// 1.8 times; the call overhead of smaller chunks does not pay.
const checkChunk = 4096

// rangeError returns the error for the rejected source value at s.
func rangeError(index int, value any, dk, sk cltype.Kind, s unsafe.Pointer, m Mode) *RangeError {
	return &RangeError{Index: index, Value: value, Src: sk, Dst: dk, Mode: m, Cause: causeOf(dk, sk, s)}
}

// causeOf classifies a source value that convertChecked rejected: only the
// destination's class, NaN, the sign and (to e8m0) zero matter.
func causeOf(dk, sk cltype.Kind, s unsafe.Pointer) Cause {
	if sk.IsSmallFloat() {
		f := decodeOne(sk, loadBits(sk, s))
		return causeOf(dk, cltype.Float, unsafe.Pointer(&f))
	}
	var neg bool
	zero := loadBits(sk, s) == 0
	switch sk {
	case cltype.Half:
		h := *(*half.Half)(s)
		if h.IsNaN() {
			return CauseNaN
		}
		neg, zero = h.Signbit(), h&0x7fff == 0
	case cltype.Float:
		f := *(*float32)(s)
		if f != f {
			return CauseNaN
		}
		neg, zero = math.Signbit(float64(f)), f == 0
	case cltype.Double:
		f := *(*float64)(s)
		if f != f {
			return CauseNaN
		}
		neg, zero = math.Signbit(f), f == 0
	case cltype.Char:
		neg = *(*int8)(s) < 0
	case cltype.Short:
		neg = *(*int16)(s) < 0
	case cltype.Int:
		neg = *(*int32)(s) < 0
	case cltype.Long:
		neg = *(*int64)(s) < 0
	}
	switch {
	case dk == cltype.E8M0 && (neg || zero):
		return CauseTooSmall // no e8m0 value
	case dk.IsFloating():
		return CauseOverflow
	case neg:
		return CauseTooSmall
	}
	return CauseTooLarge
}
