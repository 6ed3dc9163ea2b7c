package fileconv

import (
	"bytes"
	"math"
	"sync"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// Stats counts what a conversion did to the values. Every count is exact: each
// element is classified from its source value and its converted result.
//
// ClampedHigh, ClampedLow, NaNToZero, Wrapped and OverflowInf are exclusive:
// an element is in at most one of them, and then not in Inexact. Inexact counts
// every other finite value whose result differs from it; Subnormal and
// UnderflowZero overlap with Inexact (an underflow to zero is inexact; an
// exact subnormal result is not).
type Stats struct {
	// Count is the number of elements converted (set in Result.Stats
	// whether or not statistics were asked for).
	Count int64 `json:"count"`
	// ClampedHigh counts values above the destination's range that gave its
	// maximum. To an integer: sources whose rounded value exceeds MAX (or
	// +inf), with or without _sat (clconv saturates both), and integers
	// above MAX under _sat. To a floating type: IEEE overflows that give
	// the largest finite value instead of +inf (sources of at least
	// 2^(emax+1), rounded toward zero or -inf).
	ClampedHigh int64 `json:"clamped_high"`
	// ClampedLow is ClampedHigh's counterpart for MIN, or for -max (sources
	// of at most -2^(emax+1) rounded toward zero or +inf). To e8m0, whose
	// range starts at 2^-127 and which has no zero and no sign, it counts
	// the sources below that range: zero, negative values and -inf, which
	// give 2^-127 under _sat and e8m0's NaN without.
	ClampedLow int64 `json:"clamped_low"`
	// NaNToZero counts NaN sources converted to an integer type (result 0),
	// or to e2m1, e2m3 or e3m2, which have no NaN (result +0).
	NaNToZero int64 `json:"nan_to_zero"`
	// Wrapped counts integer sources outside an integer destination's range
	// converted without _sat (the low bits were kept).
	Wrapped int64 `json:"wrapped"`
	// Inexact counts finite sources whose finite result has another value
	// and that are not clamped: rounded to an integer or to fewer bits.
	Inexact int64 `json:"inexact"`
	// OverflowInf counts finite sources whose result is an infinity; to
	// e4m3 and e8m0, which have none, also those whose result is their NaN,
	// and the infinities that become that NaN without _sat (RowsFor names
	// it "overflow to NaN" for them).
	OverflowInf int64 `json:"overflow_to_inf"`
	// Subnormal counts results that are subnormal (non-zero and below the
	// destination's smallest normal magnitude), for conversions between
	// different types.
	Subnormal int64 `json:"became_subnormal"`
	// UnderflowZero counts non-zero sources whose floating result is zero.
	UnderflowZero int64 `json:"underflow_to_zero"`
	// NaN counts NaN sources converted to a floating type (they stay NaN).
	NaN int64 `json:"nan"`
}

// add adds o's counts to s.
func (s *Stats) add(o *Stats) {
	s.Count += o.Count
	s.ClampedHigh += o.ClampedHigh
	s.ClampedLow += o.ClampedLow
	s.NaNToZero += o.NaNToZero
	s.Wrapped += o.Wrapped
	s.Inexact += o.Inexact
	s.OverflowInf += o.OverflowInf
	s.Subnormal += o.Subnormal
	s.UnderflowZero += o.UnderflowZero
	s.NaN += o.NaN
}

// StatRow is one counter of Stats with its name and description.
type StatRow struct {
	Name  string
	Value int64
	Desc  string
}

// Rows lists the counters in table order, OverflowInf as "overflow to inf".
// RowsFor names the counters as they apply to a destination.
func (s *Stats) Rows() []StatRow { return s.RowsFor(cltype.Invalid) }

// RowsFor lists the counters in table order for a conversion to dst: to a
// destination that has no infinity, OverflowInf is "overflow to NaN" where
// the format has a NaN (e4m3, e8m0: a finite value that overflows becomes
// NaN, not infinity) and "overflow" where it has neither (e2m1, e2m3, e3m2,
// whose overflows clamp, so that it stays 0). cltype.Invalid (or any kind
// with an infinity) gives Rows' names.
func (s *Stats) RowsFor(dst cltype.Kind) []StatRow {
	over := StatRow{"overflow to inf", s.OverflowInf, "finite source, infinite result"}
	if r := minifloat.OfKind(dst); r != nil && !r.Inf {
		if r.HasNaN() {
			over = StatRow{"overflow to NaN", s.OverflowInf, "finite source (or infinity without _sat), NaN result: " + dst.String() + " has no infinity"}
		} else {
			over = StatRow{"overflow", s.OverflowInf, "none: " + dst.String() + " has no infinity or NaN, its overflows clamp"}
		}
	}
	return []StatRow{
		{"clamped high", s.ClampedHigh, "above the range: gave MAX (or the largest finite value)"},
		{"clamped low", s.ClampedLow, "below the range: gave MIN (or the most negative finite value)"},
		{"NaN->0", s.NaNToZero, "NaN converted to an integer (or to e2m1, e2m3, e3m2)"},
		{"wrapped", s.Wrapped, "out-of-range integer without _sat: low bits kept"},
		{"inexact", s.Inexact, "rounded: the result differs from the source"},
		over,
		{"became subnormal", s.Subnormal, "subnormal result"},
		{"underflow to 0", s.UnderflowZero, "non-zero source, zero result"},
		{"NaN kept", s.NaN, "NaN converted to a floating type"},
	}
}

// nonFiniteMask returns the bits m such that an element x of kind k is NaN
// or infinite exactly when x&m == m, from k's row of the format table: the
// exponent field where all ones is infinity or NaN (IEEE 754, bfloat16,
// e5m2), the exponent and mantissa where only all ones is NaN (e4m3,
// e8m0); 0 for the kinds that have neither (integers, e2m1, e2m3, e3m2).
// For e4m3fnuz and e5m2fnuz, whose one NaN is the byte 0x80, it is 0x80,
// and an element is NaN when it equals it: nonFinite tells them apart (no
// other kind's mask is 0x80).
func nonFiniteMask(k cltype.Kind) uint64 {
	r := minifloat.OfKind(k)
	switch {
	case r == nil || !r.Inf && !r.HasNaN():
		return 0
	case r.NaN == minifloat.NaNNegZero:
		return r.SignBit()
	case r.Inf || r.NaN == minifloat.NaNIEEE:
		return (1<<r.ExpBits - 1) << r.MantBits
	}
	return 1<<(r.ExpBits+r.MantBits) - 1
}

// largest returns the largest finite magnitude of kind k (for a 64-bit
// integer, the nearest float64 above it).
func largest(k cltype.Kind) float64 {
	if k.IsInteger() {
		return max(float64(k.MaxUint()), -float64(k.MinInt()))
	}
	r := minifloat.OfKind(k)
	return math.Float64frombits(minifloat.ToFloat64Bits(r, r.MaxBits()))
}

// mayBecomeNonFinite reports whether converting some finite value of kind
// sk to dk can give NaN or an infinity: only to a kind that has them,
// without _sat (which clamps: it is only allowed for integer and small
// destinations), from a source whose range reaches beyond the destination's,
// or to e8m0, which makes zero and negative values its NaN. Convert counts
// Result.NonFinite only then.
func mayBecomeNonFinite(dk, sk cltype.Kind, sat bool) bool {
	switch {
	case nonFiniteMask(dk) == 0 || sat:
		return false
	case dk == cltype.E8M0:
		return true
	}
	return largest(sk) > largest(dk)
}

// lanes returns v repeated in every size-byte lane of a uint64.
func lanes(v uint64, size int) uint64 {
	w := v
	for sh := 8 * size; sh < 64; sh *= 2 {
		w |= w << sh
	}
	return w
}

// countNonFinite returns the number of the n elements of dst (kind dk,
// little-endian, as convert.Bytes writes them) that are NaN or infinite
// while their source in src (kind sk) is finite. It first looks for any
// non-finite pattern in dst, a word at a time, which is all it does for a
// chunk that has none (nearly every chunk); only otherwise does it compare
// element by element. dst must be 8-byte aligned.
func countNonFinite(dk, sk cltype.Kind, dst, src []byte, n int) int64 {
	dm := nonFiniteMask(dk)
	dsize := dk.Size()
	if !anyNonFinite(dst[:n*dsize], dsize, dm) {
		return 0
	}
	sm, ssize := nonFiniteMask(sk), sk.Size()
	var count int64
	for i := range n {
		if nonFinite(loadLE(dst, dsize, i), dm) && (sm == 0 || !nonFinite(loadLE(src, ssize, i), sm)) {
			count++
		}
	}
	return count
}

// nonFinite reports whether the element x is NaN or infinite by its kind's
// mask m (nonFiniteMask, not 0): x&m == m, or x == m for the FNUZ mask.
func nonFinite(x, m uint64) bool { return x&m == m && (m != fnuzNaN || x == m) }

// fnuzNaN is nonFiniteMask of e4m3fnuz and e5m2fnuz: their NaN, 0x80.
const fnuzNaN = 0x80

// loadLE returns little-endian element i of size bytes of b, zero-extended.
func loadLE(b []byte, size, i int) uint64 {
	var v uint64
	for j := size - 1; j >= 0; j-- {
		v = v<<8 | uint64(b[i*size+j])
	}
	return v
}

// anyNonFinite reports whether some little-endian element of size bytes of
// b has all the bits of m set (m is not 0). Where m leaves the element's top
// bit clear (every kind but e8m0), (x & m) + (top - m) reaches top exactly
// when x&m == m, and cannot carry into the next element, so that a word of
// 8/size elements takes an AND, an ADD and an OR: the scan runs at about
// the speed of memory while the chunk is in cache.
func anyNonFinite(b []byte, size int, m uint64) bool {
	top := uint64(1) << (8*size - 1)
	if m&top != 0 {
		// e8m0: its NaN is the byte 0xff; e4m3fnuz and e5m2fnuz: 0x80.
		return size == 1 && (m == 0xff || m == fnuzNaN) && bytes.IndexByte(b, byte(m)) >= 0
	}
	words := 0
	var acc uint64
	if !byteorder.BigEndian && len(b) >= 64 { // a *[8]uint64 must point at 64 bytes (checkptr)
		// Blocks of 8 words (no bounds checks), then the words left.
		words = len(b) / 64 * 8
		blocks := unsafe.Slice((*[8]uint64)(unsafe.Pointer(unsafe.SliceData(b))), words/8)
		mm, add := lanes(m, size), lanes(top-m, size)
		var a0, a1, a2, a3 uint64
		for i := range blocks {
			w := &blocks[i]
			a0 |= w[0]&mm + add
			a1 |= w[1]&mm + add
			a2 |= w[2]&mm + add
			a3 |= w[3]&mm + add
			a0 |= w[4]&mm + add
			a1 |= w[5]&mm + add
			a2 |= w[6]&mm + add
			a3 |= w[7]&mm + add
		}
		acc = (a0 | a1 | a2 | a3) & lanes(top, size)
	}
	for i := words * 8 / size; i < len(b)/size; i++ {
		if loadLE(b, size, i)&m == m {
			return true
		}
	}
	return acc != 0
}

// Element types, as Go sees them.
type (
	integer interface {
		int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64
	}
	float interface{ float32 | float64 }
)

// view returns the first n elements of b as a []T (b is aligned and holds
// them in the host's byte order).
func view[T any](b []byte, n int) []T {
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// signMag returns the sign and magnitude of an integer.
func signMag[T integer](x T) (neg bool, mag uint64) {
	if x < 0 {
		return true, uint64(-int64(x)) // -MinInt64 wraps to 1<<63, the right magnitude
	}
	return false, uint64(x)
}

// maxFinite returns the largest finite value of floating kind k.
func maxFinite(k cltype.Kind) float64 {
	switch k {
	case cltype.Half:
		return 65504
	case cltype.Float:
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// overflowAt returns 2^(emax+1), the magnitude from which every mode
// overflows kind k (+Inf for double, which nothing finite reaches).
func overflowAt(k cltype.Kind) float64 {
	return math.Ldexp(1, k.Format().Emax+1)
}

// minNormal returns the smallest normal magnitude of floating kind k.
func minNormal(k cltype.Kind) float64 {
	return math.Ldexp(1, k.Format().Emin())
}

// classify adds to s the classification of n elements: src (kind sk) and
// their converted values dst (kind dk), converted in mode m with or without
// saturation, both little-endian as convert.Bytes reads and writes them.
// Conversions between two floating formats but e8m0 (the ML pairs: float,
// double, half, bfloat16, the FP8 and MX element formats) take
// classifyWide's fast path; the others, and the elements it leaves,
// classifyRef.
func (s *Stats) classify(dk, sk cltype.Kind, dst, src []byte, n int, m round.Mode, sat bool) {
	if byteorder.BigEndian {
		// The typed views below read the host's byte order: swap both
		// buffers to it (they are in cache, just converted) and back.
		src, dst = src[:n*sk.Size()], dst[:n*dk.Size()]
		byteorder.Swap(src, sk.Size())
		byteorder.Swap(dst, dk.Size())
		defer byteorder.Swap(src, sk.Size())
		defer byteorder.Swap(dst, dk.Size())
	}
	s.Count += int64(n)
	switch dom := wideDomain(dk, sk); dom.Size() {
	case 2:
		classifyWide[uint16](s, dom, dk, sk, dst, src, n, m, sat)
	case 4:
		classifyWide[uint32](s, dom, dk, sk, dst, src, n, m, sat)
	case 8:
		classifyWide[uint64](s, dom, dk, sk, dst, src, n, m, sat)
	default:
		s.classifyRef(dk, sk, dst, src, n, m, sat)
	}
}

// classifyRef is classify's reference for n elements in the host's byte
// order, without counting them in s.Count: one element at a time, from the
// source's exact value and the result's. The loops are instantiated per Go
// element type; half, which Go does not have, goes through float32
// (exactly).
func (s *Stats) classifyRef(dk, sk cltype.Kind, dst, src []byte, n int, m round.Mode, sat bool) {
	if dk.IsSmallFloat() {
		s.classifySmall(dk, sk, dst, src, n, m)
		return
	}
	if sk == cltype.Half || sk.IsSmallFloat() {
		// Widening half and the small formats to float32 is exact and every
		// statistic depends on the source's value alone (and its bits, for
		// the rare elements that classifyFloatInt hands to convert.Bits,
		// which get the source's bits).
		wide := make([]float32, n)
		widen(cltype.Float, sk, src, 0, n, unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(wide))), n))
		if dk.IsInteger() {
			forInt(dk, func(d any) {
				classifyFloatInt(s, dk, sk, wide, d, m, func(i int) uint64 { return loadHost(src, sk.Size(), i) })
			}, dst, n)
		} else {
			forFloat(dk, func(d any) { classifyFloatFloat(s, dk, sk, wide, d) }, dst, n)
		}
		return
	}
	forAny(sk, func(sv any) {
		switch {
		case dk.IsInteger():
			forInt(dk, func(d any) {
				switch sv := sv.(type) {
				case []float32:
					classifyFloatInt(s, dk, sk, sv, d, m, func(i int) uint64 { return uint64(math.Float32bits(sv[i])) })
				case []float64:
					classifyFloatInt(s, dk, sk, sv, d, m, func(i int) uint64 { return math.Float64bits(sv[i]) })
				default:
					classifyIntIntAny(s, dk, sv, sat)
				}
			}, dst, n)
		default:
			forFloat(dk, func(d any) {
				switch sv := sv.(type) {
				case []float32:
					classifyFloatFloat(s, dk, sk, sv, d)
				case []float64:
					classifyFloatFloat(s, dk, sk, sv, d)
				default:
					classifyIntFloatAny(s, dk, sv, d)
				}
			}, dst, n)
		}
	}, src, n)
}

// forAny calls f with b viewed as a slice of kind k's Go type (k is not
// half, which classify widens first).
func forAny(k cltype.Kind, f func(any), b []byte, n int) {
	switch k {
	case cltype.Float:
		f(view[float32](b, n))
	case cltype.Double:
		f(view[float64](b, n))
	default:
		forInt(k, f, b, n)
	}
}

// forInt calls f with b viewed as a slice of integer kind k's Go type.
func forInt(k cltype.Kind, f func(any), b []byte, n int) {
	switch k {
	case cltype.Char:
		f(view[int8](b, n))
	case cltype.Uchar:
		f(view[uint8](b, n))
	case cltype.Short:
		f(view[int16](b, n))
	case cltype.Ushort:
		f(view[uint16](b, n))
	case cltype.Int:
		f(view[int32](b, n))
	case cltype.Uint:
		f(view[uint32](b, n))
	case cltype.Long:
		f(view[int64](b, n))
	case cltype.Ulong:
		f(view[uint64](b, n))
	}
}

// forFloat calls f with b viewed as floating kind k's elements: []float32,
// []float64, or for half a []float32 of the exactly widened values.
func forFloat(k cltype.Kind, f func(any), b []byte, n int) {
	switch k {
	case cltype.Float:
		f(view[float32](b, n))
	case cltype.Double:
		f(view[float64](b, n))
	case cltype.Half:
		wide := make([]float32, n)
		for i, h := range view[half.Half](b, n) {
			wide[i] = h.Float32()
		}
		f(wide)
	}
}

// classifyFloatInt classifies a floating source converted to an integer
// type. Rounding to an integer is monotonic and the limits are integers, so
// elements within [MIN, MAX] stay in range and elements from MAX+1 up (MIN-1
// down) go out of range in every mode; convert.Bits decides the few in
// between, reporting whether their rounded value is out of range. An
// in-range result r is inexact when r != x, a comparison that float64 makes
// exactly (|r| < 2^53 there, or x is an integer and r == x).
func classifyFloatInt[S float](s *Stats, dk, sk cltype.Kind, src []S, dst any, m round.Mode, bits func(i int) uint64) {
	switch d := dst.(type) {
	case []int8:
		floatInt(s, dk, sk, src, d, m, bits)
	case []uint8:
		floatInt(s, dk, sk, src, d, m, bits)
	case []int16:
		floatInt(s, dk, sk, src, d, m, bits)
	case []uint16:
		floatInt(s, dk, sk, src, d, m, bits)
	case []int32:
		floatInt(s, dk, sk, src, d, m, bits)
	case []uint32:
		floatInt(s, dk, sk, src, d, m, bits)
	case []int64:
		floatInt(s, dk, sk, src, d, m, bits)
	case []uint64:
		floatInt(s, dk, sk, src, d, m, bits)
	}
}

func floatInt[S float, D integer](s *Stats, dk, sk cltype.Kind, src []S, dst []D, m round.Mode, bits func(i int) uint64) {
	// [lo, hi] is the range of doubles within [MIN, MAX]: MAX itself for
	// kinds below 64 bits, the double below 2^63 or 2^64 for long and ulong.
	// From hi1 = MAX+1 up (and from lo1 = MIN-1 down) every mode rounds out
	// of range; only (MAX, MAX+1) and (MIN-1, MIN) depend on the mode.
	lo, hi := float64(dk.MinInt()), float64(dk.MaxUint())
	lo1, hi1 := lo-1, hi+1 // exact below 64 bits; 2^63 (2^64) and -2^63 for 64-bit kinds, which are right there too
	if dk.Bits() == 64 {
		hi = math.Nextafter(hi, 0) // float64(MAX) rounded up to 2^63 or 2^64
	}
	dst = dst[:len(src)]
	var inexact, high, low int64
	for i, x := range src {
		f := float64(x)
		if f >= lo && f <= hi {
			if float64(dst[i]) != f {
				inexact++
			}
			continue
		}
		switch {
		case f >= hi1:
			high++
		case f <= lo1:
			low++
		case f != f:
			s.NaNToZero++
		default:
			if _, out := convert.Bits(dk, sk, bits(i), m, false); !out {
				if float64(dst[i]) != f {
					inexact++
				}
			} else if f > 0 {
				high++
			} else {
				low++
			}
		}
	}
	s.Inexact += inexact
	s.ClampedHigh += high
	s.ClampedLow += low
}

// classifyFloatFloat classifies a floating source (as float32 or float64)
// converted to a floating type (dst: []float32 or []float64).
func classifyFloatFloat[S float](s *Stats, dk, sk cltype.Kind, src []S, dst any) {
	switch d := dst.(type) {
	case []float32:
		floatFloat(s, dk, sk, src, d)
	case []float64:
		floatFloat(s, dk, sk, src, d)
	}
}

func floatFloat[S, D float](s *Stats, dk, sk cltype.Kind, src []S, dst []D) {
	mf, ovf, mn := maxFinite(dk), overflowAt(dk), minNormal(dk)
	dst = dst[:len(src)]
	for i, x := range src {
		f, d := float64(x), float64(dst[i])
		if d == f {
			// Exact (NaN != NaN and infinities are sorted out below).
			if sk != dk && d != 0 && math.Abs(d) < mn {
				s.Subnormal++
			}
			continue
		}
		switch {
		case f != f:
			s.NaN++
			continue
		case math.IsInf(d, 0):
			s.OverflowInf++
			continue
		case math.Abs(f) >= ovf && math.Abs(d) == mf:
			if f < 0 {
				s.ClampedLow++
			} else {
				s.ClampedHigh++
			}
			continue
		}
		s.Inexact++
		if d == 0 {
			s.UnderflowZero++
		} else if sk != dk && math.Abs(d) < mn {
			s.Subnormal++
		}
	}
}

// classifyIntIntAny classifies an integer source (src: a slice of its Go
// type) converted to an integer type: out-of-range values are clamped under
// _sat and wrapped without.
func classifyIntIntAny(s *Stats, dk cltype.Kind, src any, sat bool) {
	switch v := src.(type) {
	case []int8:
		intInt(s, dk, v, sat)
	case []uint8:
		intInt(s, dk, v, sat)
	case []int16:
		intInt(s, dk, v, sat)
	case []uint16:
		intInt(s, dk, v, sat)
	case []int32:
		intInt(s, dk, v, sat)
	case []uint32:
		intInt(s, dk, v, sat)
	case []int64:
		intInt(s, dk, v, sat)
	case []uint64:
		intInt(s, dk, v, sat)
	}
}

func intInt[S integer](s *Stats, dk cltype.Kind, src []S, sat bool) {
	hi := dk.MaxUint()
	lo := uint64(-dk.MinInt()) // magnitude of MIN; 1<<63 for long
	var above, below int64
	for _, x := range src {
		neg, mag := signMag(x)
		if neg {
			if mag > lo {
				below++
			}
		} else if mag > hi {
			above++
		}
	}
	if sat {
		s.ClampedHigh += above
		s.ClampedLow += below
	} else {
		s.Wrapped += above + below
	}
}

// classifyIntFloatAny classifies an integer source converted to a floating
// type (dst: []float32 or []float64, half widened).
func classifyIntFloatAny(s *Stats, dk cltype.Kind, src, dst any) {
	switch d := dst.(type) {
	case []float32:
		intFloatAny(s, dk, src, d)
	case []float64:
		intFloatAny(s, dk, src, d)
	}
}

func intFloatAny[D float](s *Stats, dk cltype.Kind, src any, dst []D) {
	switch v := src.(type) {
	case []int8:
		intFloat(s, dk, v, dst)
	case []uint8:
		intFloat(s, dk, v, dst)
	case []int16:
		intFloat(s, dk, v, dst)
	case []uint16:
		intFloat(s, dk, v, dst)
	case []int32:
		intFloat(s, dk, v, dst)
	case []uint32:
		intFloat(s, dk, v, dst)
	case []int64:
		intFloat(s, dk, v, dst)
	case []uint64:
		intFloat(s, dk, v, dst)
	}
}

// intFloat: an integer never underflows or becomes subnormal; only half's
// range is within reach of a 64-bit integer (from 2^16 every mode overflows:
// to inf, or with rtz/rtn/rtp to the largest finite value).
func intFloat[S integer, D float](s *Stats, dk cltype.Kind, src []S, dst []D) {
	mf := maxFinite(dk)
	ovf := uint64(math.MaxUint64)
	if dk == cltype.Half {
		ovf = uint64(overflowAt(dk))
	}
	dst = dst[:len(src)]
	for i, x := range src {
		neg, mag := signMag(x)
		d := float64(dst[i])
		switch {
		case math.IsInf(d, 0):
			s.OverflowInf++
		case mag >= ovf && math.Abs(d) == mf:
			if neg {
				s.ClampedLow++
			} else {
				s.ClampedHigh++
			}
		case !intEqualsFloat(neg, mag, d):
			s.Inexact++
		}
	}
}

// intEqualsFloat reports whether the integer with sign neg and magnitude mag
// equals the finite float64 d exactly.
func intEqualsFloat(neg bool, mag uint64, d float64) bool {
	if d != math.Trunc(d) || math.Abs(d) >= 0x1p64 {
		return false
	}
	if mag == 0 {
		return d == 0
	}
	return neg == (d < 0) && uint64(math.Abs(d)) == mag
}

// loadHost returns element i of size bytes of b, in the host's byte order,
// zero-extended.
func loadHost(b []byte, size, i int) uint64 {
	return byteorder.Load(unsafe.Pointer(unsafe.SliceData(b)), size, i)
}

// bitsAt returns element i of b (kind k, host order) converted exactly to
// the floating kind to (float or double), as its bits.
func bitsAt(k, to cltype.Kind, b []byte, i int) uint64 {
	out, _ := convert.Bits(to, k, loadHost(b, k.Size(), i), round.RTE, false)
	return out
}

// classifySmall classifies conversions to the small formats, one element at
// a time: the source's exact value (a float64 for the floating kinds, sign
// and magnitude for the integers), the result decoded exactly, and for a
// result of +-MAX whether the value overflowed (IEEE 754's overflow, which
// ToChecked reports). An infinite result, or the NaN of e4m3 or e8m0, from a
// finite source or from an infinity that the format cannot hold counts as
// OverflowInf; an infinity that _sat (or a format without infinities and
// NaNs, e2m1, e2m3, e3m2) takes to +-MAX as clamped. A NaN to e2m1, e2m3 or
// e3m2 gives +0 (NaNToZero); zero, negative values and -inf to e8m0 count as
// clamped low.
func (s *Stats) classifySmall(dk, sk cltype.Kind, dst, src []byte, n int, m round.Mode) {
	mf, mn := smallMax(dk), smallMinNormal(dk)
	noNaN := !minifloat.OfKind(dk).HasNaN()
	dval := widener(dk)
	var sval func(b []byte, i int) float64
	if !sk.IsInteger() {
		sval = widener(sk)
	}
	for i := range n {
		d := dval(dst, i)
		dNaN := d != d
		var f float64
		var exact bool
		// overflow is IEEE 754's overflow of the source (ToChecked's
		// CauseOverflow): only asked about a result of +-MAX, which few
		// elements have, so it is computed only then.
		var overflow func() bool
		if sk.IsInteger() {
			sb := loadHost(src, sk.Size(), i)
			neg, mag := false, sb
			if sk.IsSigned() {
				sh := 64 - sk.Bits()
				neg, mag = signMag(int64(sb<<sh) >> sh)
			}
			exact = !dNaN && !math.IsInf(d, 0) && intEqualsFloat(neg, mag, d)
			f = float64(mag) // exact below 2^53; beyond, only its magnitude matters
			if neg {
				f = -f
			}
			overflow = func() bool {
				if mag < 1<<53 {
					return smallOverflows(dk, f, m)
				}
				// Beyond the range of e4m3, e5m2 and the MX element
				// formats, within that of bfloat16 and e8m0.
				return mf < 0x1p53
			}
		} else {
			f = sval(src, i)
			if f != f {
				if noNaN {
					s.NaNToZero++
				} else {
					s.NaN++
				}
				continue
			}
			exact = d == f
			overflow = func() bool { return !math.IsInf(f, 0) && smallOverflows(dk, f, m) }
		}
		switch {
		case dk == cltype.E8M0 && (f == 0 || f < 0):
			s.ClampedLow++ // below e8m0's range: 2^-127 under _sat, NaN without
		case exact:
			if sk != dk && d != 0 && math.Abs(d) < mn {
				s.Subnormal++
			}
		case math.IsInf(d, 0) || dNaN:
			s.OverflowInf++
		case math.Abs(d) == mf && (math.IsInf(f, 0) || overflow()):
			if f < 0 {
				s.ClampedLow++
			} else {
				s.ClampedHigh++
			}
		default:
			s.Inexact++
			if d == 0 {
				s.UnderflowZero++
			} else if sk != dk && math.Abs(d) < mn {
				s.Subnormal++
			}
		}
	}
}

// widener returns a function giving element i of a buffer of floating kind
// k (host order) as its exact float64 value: by the bits for float,
// double and bfloat16, through package half, by a table of every pattern
// for the formats of one byte (byteTables). NaNs stay NaNs.
func widener(k cltype.Kind) func(b []byte, i int) float64 {
	switch {
	case k == cltype.Float:
		return func(b []byte, i int) float64 { return float64(math.Float32frombits(uint32(loadHost(b, 4, i)))) }
	case k == cltype.Double:
		return func(b []byte, i int) float64 { return math.Float64frombits(loadHost(b, 8, i)) }
	case k == cltype.BFloat16:
		return func(b []byte, i int) float64 {
			return float64(math.Float32frombits(uint32(loadHost(b, 2, i)) << 16))
		}
	case k == cltype.Half:
		return func(b []byte, i int) float64 { return half.Half(loadHost(b, 2, i)).Float64() }
	}
	lut := &byteTables()[k].f64 // the formats of one byte
	return func(b []byte, i int) float64 { return math.Float64frombits(lut[b[i]]) }
}

// smallOverflows reports whether the finite value f overflows small kind k
// in mode m (convert.ToChecked's CauseOverflow).
func smallOverflows(k cltype.Kind, f float64, m round.Mode) bool {
	var err error
	switch k {
	case cltype.BFloat16:
		_, err = convert.ToChecked[bfloat16.BFloat16](f, m)
	case cltype.E4M3:
		_, err = convert.ToChecked[fp8.E4M3](f, m)
	case cltype.E5M2:
		_, err = convert.ToChecked[fp8.E5M2](f, m)
	case cltype.E2M1:
		_, err = convert.ToChecked[fp4.E2M1](f, m)
	case cltype.E2M3:
		_, err = convert.ToChecked[fp6.E2M3](f, m)
	case cltype.E3M2:
		_, err = convert.ToChecked[fp6.E3M2](f, m)
	case cltype.E8M0:
		_, err = convert.ToChecked[fp8.E8M0](f, m)
	case cltype.E4M3FNUZ:
		_, err = convert.ToChecked[fp8.E4M3FNUZ](f, m)
	case cltype.E5M2FNUZ:
		_, err = convert.ToChecked[fp8.E5M2FNUZ](f, m)
	}
	return err != nil
}

// smallMax returns the largest finite value of small kind k, from its row
// of the format table.
func smallMax(k cltype.Kind) float64 {
	r := minifloat.OfKind(k)
	return math.Float64frombits(minifloat.ToFloat64Bits(r, r.MaxBits()))
}

// smallMinNormal returns the smallest normal magnitude of small kind k
// (2^-127 for e8m0, whose exponent field 0 is normal).
func smallMinNormal(k cltype.Kind) float64 { return math.Ldexp(1, minifloat.OfKind(k).Emin()) }

// byteTable holds every pattern of a format of one byte widened exactly, as
// convert.Bits widens it: to double's bits (f64), float's (f32), half's
// (f16) and bfloat16's (bf16).
type byteTable struct {
	f64       [256]uint64
	f32       [256]uint32
	f16, bf16 [256]uint16
}

// byteTables returns the tables of the formats of one byte (the FP8 and MX
// formats), computed once with convert.Bits.
var byteTables = sync.OnceValue(func() map[cltype.Kind]*byteTable {
	m := map[cltype.Kind]*byteTable{}
	for _, k := range cltype.SmallFloats {
		if k.Size() != 1 {
			continue
		}
		t := new(byteTable)
		for v := range 256 {
			t.f64[v], _ = convert.Bits(cltype.Double, k, uint64(v), round.RTE, false)
			f32, _ := convert.Bits(cltype.Float, k, uint64(v), round.RTE, false)
			f16, _ := convert.Bits(cltype.Half, k, uint64(v), round.RTE, false)
			bf16, _ := convert.Bits(cltype.BFloat16, k, uint64(v), round.RTE, false)
			t.f32[v], t.f16[v], t.bf16[v] = uint32(f32), uint16(f16), uint16(bf16)
		}
		m[k] = t
	}
	return m
})

// wideDomain returns the format in which classifyWide compares the
// conversion from sk to dk: the narrowest of half, bfloat16, float and
// double whose values include all of both kinds', or cltype.Invalid for
// the conversions that classifyWide leaves to classifyRef: from a kind to
// itself, and those with an integer or e8m0 (which has no zero and takes
// zero and negative values to its smallest value or NaN).
func wideDomain(dk, sk cltype.Kind) cltype.Kind {
	switch {
	case sk == dk || !sk.IsFloating() || !dk.IsFloating() || sk == cltype.E8M0 || dk == cltype.E8M0,
		isFNUZ(sk) || isFNUZ(dk):
		// (The FNUZ formats turn -0 into +0 and have one NaN, 0x80: the
		// reference classifies them.)
		return cltype.Invalid
	case sk == cltype.Double || dk == cltype.Double:
		return cltype.Double
	}
	// The formats of one byte hold values of half and of bfloat16 alike.
	for _, dom := range []cltype.Kind{cltype.Half, cltype.BFloat16} {
		if (sk == dom || sk.Size() == 1) && (dk == dom || dk.Size() == 1) {
			return dom
		}
	}
	return cltype.Float
}

// isFNUZ reports whether k is e4m3fnuz or e5m2fnuz.
func isFNUZ(k cltype.Kind) bool { return k == cltype.E4M3FNUZ || k == cltype.E5M2FNUZ }

// fastBlock is the number of elements classifyWide widens at a time: the
// widened blocks stay in the first-level cache.
const fastBlock = 1024

// wideLimits are classifyWide's thresholds, as magnitudes widened to its
// domain.
type wideLimits[W wideBits] struct {
	// src is the first non-finite magnitude of the source (unreachable for
	// the formats without infinities and NaNs), dst the destination's
	// largest finite magnitude: elements from either on are rare.
	src, dst W
	// sub is the destination's smallest subnormal, normal its smallest
	// normal magnitude.
	sub, normal W
}

// wideBits are the bits of classifyWide's domains.
type wideBits interface{ uint16 | uint32 | uint64 }

// classifyWide classifies n elements (host order) converted between two
// floating formats that both widen exactly to the domain dom (half or
// bfloat16 for W uint16, float for uint32, double for uint64). Every
// statistic of an element whose source is finite and whose result is
// finite and below the destination's largest magnitude follows from the
// two magnitudes alone, whatever the mode and _sat (a finite result has its
// source's sign, which TestClassifyWide checks for every pair): inexact
// when they differ, an underflow when the result is also zero, subnormal
// when the result is. countWide decides those with
// integer compares on the widened bits, a word of them at a time; the
// others (NaN and infinite sources, results of +-MAX, infinity or NaN:
// overflows, clamps, exact extremes) go to classifyRef.
func classifyWide[W wideBits](s *Stats, dom, dk, sk cltype.Kind, dst, src []byte, n int, m round.Mode, sat bool) {
	ss, ds := sk.Size(), dk.Size()
	dr := minifloat.OfKind(dk)
	var lim wideLimits[W]
	lim.src = ^W(0)>>1 + 1 // above every magnitude
	if nf := nonFiniteMask(sk); nf != 0 {
		lim.src = widenOne[W](dom, sk, nf)
	}
	lim.dst = widenOne[W](dom, dk, dr.MaxBits())
	lim.sub = widenOne[W](dom, dk, 1)
	lim.normal = widenOne[W](dom, dk, 1<<dr.MantBits)
	sbuf, dbuf := make([]W, fastBlock), make([]W, fastBlock)
	var rare [fastBlock]uint16
	var gsrc, gdst []byte // the rare elements, gathered for classifyRef
	var inexact, under, sub int64
	for lo := 0; lo < n; lo += fastBlock {
		hi := min(lo+fastBlock, n)
		sv := widen(dom, sk, src, lo, hi, sbuf)
		dv := widen(dom, dk, dst, lo, hi, dbuf)
		ie, ue, se, nr := countWide(sv, dv, &lim, &rare)
		inexact += ie
		under += ue
		sub += se
		if nr == 0 {
			continue
		}
		if gsrc == nil {
			gsrc, gdst = alignedBytes(fastBlock*ss), alignedBytes(fastBlock*ds)
		}
		for j, i := range rare[:nr] {
			k := lo + int(i)
			copy(gsrc[j*ss:(j+1)*ss], src[k*ss:])
			copy(gdst[j*ds:(j+1)*ds], dst[k*ds:])
		}
		s.classifyRef(dk, sk, gdst, gsrc, nr, m, sat)
	}
	s.Inexact += inexact
	s.UnderflowZero += under
	s.Subnormal += sub
}

// countWide counts the inexact, underflowing and subnormal results among
// the widened sources sv and results dv (len(sv) <= fastBlock), and lists
// in rare the indices of the elements that it leaves to classifyRef.
// Go has no SIMD: this is the part of Stats that costs (the widening is
// convert's SIMD or a table).
//
// It reads 64-bit words of 8/size(W) lanes (SWAR): each lane's magnitude
// is below 2^(b-1) (b bits a lane), so that adding 2^(b-1) - t to it sets
// the lane's top bit exactly when it is at least t, without carrying into
// the next lane. A group of 8 words where some element is rare goes to
// countRare, as do the elements after the last whole group.
func countWide[W wideBits](sv, dv []W, lim *wideLimits[W], rare *[fastBlock]uint16) (inexact, under, sub int64, nr int) {
	size := int(unsafe.Sizeof(W(0)))
	bits := 8 * uint(size)
	ones := ^uint64(0) / uint64(^W(0)) // 1 in each lane: constants per W
	top := ones << (bits - 1)
	abs := ^top
	// aS, aD, aN, abs added to a magnitude set its lane's top bit when it
	// is at least the source's limit, the destination's, its smallest
	// normal magnitude, and 1.
	half := uint64(1) << (bits - 1)
	aS := ones * (half - min(uint64(lim.src), half))
	aD := ones * (half - uint64(lim.dst))
	aN := ones * (half - uint64(lim.normal))
	n := len(sv)
	dv = dv[:n]
	per := 64 / size // elements in a group of 8 words
	groups := n / per
	var sw, dw [][8]uint64
	if groups > 0 { // a *[8]uint64 must point at 64 bytes (checkptr)
		sw = view[[8]uint64](unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(sv))), size*n), groups)
		dw = view[[8]uint64](unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dv))), size*n), groups)
		dw = dw[:len(sw)]
	}
	var ne, un, sb uint64 // per-lane counts (at most fastBlock/2 a lane)
	for g := range sw {
		s, d := &sw[g], &dw[g]
		// First the rare elements, the inexact ones, and whether some
		// result is below the smallest normal magnitude (few are but to
		// the formats of one byte): only then are underflows and
		// subnormals counted.
		rr, e, nm := laneFlags(s[0], d[0], aS, aD, aN, ones, bits-1)
		r, e1, n1 := laneFlags(s[1], d[1], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		r, e1, n1 = laneFlags(s[2], d[2], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		r, e1, n1 = laneFlags(s[3], d[3], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		r, e1, n1 = laneFlags(s[4], d[4], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		r, e1, n1 = laneFlags(s[5], d[5], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		r, e1, n1 = laneFlags(s[6], d[6], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		r, e1, n1 = laneFlags(s[7], d[7], aS, aD, aN, ones, bits-1)
		rr, e, nm = rr|r, e+e1, nm&n1
		if rr&top != 0 {
			lo := g * per
			ie, ue, se, r := countRare(sv[lo:lo+per], dv[lo:lo+per], lo, lim, rare, nr)
			inexact, under, sub, nr = inexact+ie, under+ue, sub+se, r
			continue
		}
		ne += e
		if nm&top == top {
			continue
		}
		for j := range 8 {
			sa, da := s[j]&abs, d[j]&abs
			nz := da + abs // top: a non-zero result
			un += (((sa ^ da) + abs) &^ nz) >> (bits - 1) & ones
			sb += (nz &^ (da + aN)) >> (bits - 1) & ones
		}
	}
	ie, ue, se, r := countRare(sv[groups*per:], dv[groups*per:], groups*per, lim, rare, nr)
	inexact += ie + sumLanes(ne, size)
	under += ue + sumLanes(un, size)
	sub += se + sumLanes(sb, size)
	return inexact, under, sub, r
}

// laneFlags is countWide's first look at a word of sources s and results
// d: the top bit of each lane of rare is set when the element is rare,
// that of normal when its result's magnitude is at least the smallest
// normal one; each lane of inexact is 1 when the result is inexact (the
// lanes' top bits are bit sh, and ones has bit 0 of each lane).
func laneFlags(s, d, aS, aD, aN, ones uint64, sh uint) (rare, inexact, normal uint64) {
	abs := ^(ones << sh)
	sa, da := s&abs, d&abs
	return (sa + aS) | (da + aD), ((sa ^ da) + abs) >> sh & ones, da + aN
}

// sumLanes returns the sum of the lanes of size bytes of x.
func sumLanes(x uint64, size int) int64 {
	var sum int64
	for sh := 0; sh < 64; sh += 8 * size {
		sum += int64(x >> sh & (1<<(8*size) - 1))
	}
	return sum
}

// countRare is countWide one element at a time, for the groups that have
// rare elements: it lists them in rare from rare[nr] on (their indices
// plus base) and returns the new length of that list. It has no branch
// that depends on the data: rare elements are mixed in at random.
func countRare[W wideBits](sv, dv []W, base int, lim *wideLimits[W], rare *[fastBlock]uint16, nr int) (inexact, under, sub int64, _ int) {
	abs := ^W(0) >> 1
	sLim, dLim, dSub, span := lim.src, lim.dst, lim.sub, lim.normal-lim.sub
	dv = dv[:len(sv)]
	for i, x := range sv {
		sa, da := x&abs, dv[i]&abs
		r := b2i(sa >= sLim) | b2i(da >= dLim)
		rare[uint(nr)%fastBlock] = uint16(base + i)
		nr += int(r)
		ne := b2i(sa != da) &^ r
		inexact += ne
		under += ne & b2i(da == 0)
		sub += b2i(da-dSub < span) &^ r
	}
	return inexact, under, sub, nr
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// widenOne returns the pattern v of kind k widened as widen does it.
func widenOne[W wideBits](dom, k cltype.Kind, v uint64) W {
	b := alignedBytes(8)
	byteorder.Store(unsafe.Pointer(&b[0]), k.Size(), 0, v)
	return widen(dom, k, b, 0, 1, make([]W, 1))[0]
}

// widen returns elements lo to hi of b (kind k, host order) widened
// exactly to the bits of dom (whose size is W's), in buf or, when k is
// dom, in b itself, as convert.Bits widens them: the top bit is the sign,
// the magnitudes keep their order, infinities and NaNs above every finite
// value.
func widen[W wideBits](dom, k cltype.Kind, b []byte, lo, hi int, buf []W) []W {
	n := hi - lo
	if k == dom {
		return view[W](b[lo*k.Size():], n)
	}
	if !byteorder.BigEndian && (k.Size() > 1 || dom == cltype.Float) {
		// The host's order is convert.Bytes' little-endian: its SIMD
		// kernels widen a block in a fraction of countWide's time (but
		// for the formats of one byte to half, bfloat16 and double,
		// faster through byteTables).
		out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(buf))), n*dom.Size())
		if err := convert.Bytes(dom, k, out, b[lo*k.Size():hi*k.Size()], round.RTE, false); err != nil {
			panic(err) // the sizes are right by construction
		}
		return buf[:n]
	}
	return widenHost(dom, k, b, lo, hi, buf)
}

// widenHost is widen in Go, for the formats of one byte and on a
// big-endian host: its results are convert.Bytes' (TestWiden).
func widenHost[W wideBits](dom, k cltype.Kind, b []byte, lo, hi int, buf []W) []W {
	n := hi - lo
	switch out := any(buf[:n]).(type) {
	case []uint16:
		t := &byteTables()[k].f16
		if dom == cltype.BFloat16 {
			t = &byteTables()[k].bf16
		}
		for i, x := range b[lo:hi] {
			out[i] = t[x]
		}
	case []uint32:
		switch k {
		case cltype.BFloat16:
			for i, x := range view[uint16](b[lo*2:], n) {
				out[i] = uint32(x) << 16
			}
		case cltype.Half:
			for i, x := range view[uint16](b[lo*2:], n) {
				out[i] = math.Float32bits(half.Half(x).Float32())
			}
		default:
			t := &byteTables()[k].f32
			for i, x := range b[lo:hi] {
				out[i] = t[x]
			}
		}
	case []uint64:
		switch k {
		case cltype.Float:
			for i, x := range view[float32](b[lo*4:], n) {
				out[i] = math.Float64bits(float64(x))
			}
		case cltype.BFloat16:
			for i, x := range view[uint16](b[lo*2:], n) {
				out[i] = math.Float64bits(float64(math.Float32frombits(uint32(x) << 16)))
			}
		case cltype.Half:
			for i, x := range view[uint16](b[lo*2:], n) {
				out[i] = math.Float64bits(float64(half.Half(x).Float32()))
			}
		default:
			t := &byteTables()[k].f64
			for i, x := range b[lo:hi] {
				out[i] = t[x]
			}
		}
	}
	return buf[:n]
}
