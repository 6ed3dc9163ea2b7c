package convert

import (
	"github.com/clconv/clconv/mx"
	"math"
	"math/bits"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// Conversions to and from the small floating formats bfloat16, e4m3, e5m2,
// e2m1, e2m3, e3m2, e8m0, e4m3fnuz and e5m2fnuz (docs/FORMATS.md). The generated dispatchers of
// zconv.go cover the eleven OpenCL C kinds and end in the functions below,
// which take every pair with a small format on either side. None needs
// per-pair code, because every value of the seven formats is exactly a
// float32 (e8m0's 2^-127 a binary32 subnormal):
//
//   - from a small format, a chunk is decoded exactly into float32 scratch
//     and then converted by the float32 kernels (the SIMD ones included) to
//     any destination: that is one rounding of the exact value (R10, R11);
//   - to a small format, a float32 source is rounded by the format's own
//     fast path (and SIMD kernel); char, uchar, short, ushort and half are
//     first widened exactly to float32; int, uint, long and ulong are rounded
//     to float32 by rounding to odd in integer arithmetic, and double by
//     minifloat.Float64ToOdd32 (as bfloat16.FromFloat64 and the fp8 ones
//     do), neither of which changes the result of the second rounding to a
//     format of at most 8 significant bits (R1, R12).
//
// Rounding to odd holds for e8m0 too, which has one significant bit and the
// range 2^-127 .. 2^127: its rounding boundaries, 2^k and 1.5 * 2^k for k in
// -127 .. 127, and the overflow threshold 2^128 are binary32 values with a
// zero last bit (2^-127 and 1.5 * 2^-127 are the subnormals 0x00400000 and
// 0x00600000), and a positive double below 2^-149 rounds to odd to the
// smallest binary32 subnormal, still positive and below 2^-127, so that it
// gives 2^-127 in every mode as the double itself does.
//
// bfloat16, e4m3 and e5m2 have SIMD kernels for float (simd_mini.go); the
// MX and FNUZ formats go through their scalar fast paths, and are decoded
// from a 256-entry table.
//
// The tests check every pair, mode and _sat against the integer-only
// reference internal/minifloat, on every pattern of the 8- and 16-bit
// sources.

// smallChunk is the number of elements converted through float32 scratch at
// a time: 8 KiB, which stays in L1 cache with the chunks of source and
// destination.
const smallChunk = 2048

// miniKindOf returns the SIMD kernels' name for a small kind, and false for
// a kind without kernels (the MX formats).
func miniKindOf(k cltype.Kind) (miniKind, bool) {
	switch k {
	case cltype.BFloat16:
		return miniBF16, true
	case cltype.E4M3:
		return miniE4M3, true
	case cltype.E5M2:
		return miniE5M2, true
	}
	return 0, false
}

// tableKinds are the small kinds without SIMD kernels, decoded from mxTo32.
var tableKinds = []cltype.Kind{cltype.E2M1, cltype.E2M3, cltype.E3M2, cltype.E8M0, cltype.E4M3FNUZ, cltype.E5M2FNUZ}

// mxTo32 holds the binary32 patterns of every byte of e2m1, e2m3, e3m2,
// e8m0, e4m3fnuz and e5m2fnuz (the bits above a code's width ignored, as the
// Go types ignore them), built from bits: no NaN passes through a float
// register.
var mxTo32 = func() (t [cltype.NumKinds]*[256]uint32) {
	for _, k := range tableKinds {
		t[k] = new([256]uint32)
		r := minifloat.OfKind(k)
		for b := range 256 {
			t[k][b] = minifloat.ToFloat32Bits(r, uint64(b)&r.Mask())
		}
	}
	return t
}()

func smallPair(dst, src cltype.Kind) bool {
	return (dst.IsSmallFloat() && src.Convertible()) || (src.IsSmallFloat() && dst.Convertible())
}

func invalidPair(dst, src cltype.Kind) string {
	return "convert: invalid kind " + src.String() + " -> " + dst.String()
}

// decodeSmall writes the n small values of kind k at s into f, exactly.
func decodeSmall(k cltype.Kind, f []float32, s unsafe.Pointer) {
	n := len(f)
	if n == 0 {
		return
	}
	i := 0
	if mk, ok := miniKindOf(k); ok {
		i = simdMiniToFloat(mk, f, s)
	}
	switch k {
	case cltype.E2M1, cltype.E2M3, cltype.E3M2, cltype.E8M0, cltype.E4M3FNUZ, cltype.E5M2FNUZ:
		// Bit patterns through uint32: no NaN passes through a float
		// register.
		t, u := mxTo32[k], unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(f))), n)
		for j, x := range unsafe.Slice((*uint8)(s), n) {
			u[j] = t[x]
		}
	case cltype.BFloat16:
		for j, x := range unsafe.Slice((*bfloat16.BFloat16)(s), n)[i:] {
			f[i+j] = x.Float32()
		}
	case cltype.E4M3:
		for j, x := range unsafe.Slice((*fp8.E4M3)(s), n)[i:] {
			f[i+j] = x.Float32()
		}
	case cltype.E5M2:
		for j, x := range unsafe.Slice((*fp8.E5M2)(s), n)[i:] {
			f[i+j] = x.Float32()
		}
	default:
		panic("convert: decodeSmall of " + k.String())
	}
}

// encodeSmall rounds the float32 values of f to small kind k at d.
func encodeSmall(k cltype.Kind, d unsafe.Pointer, f []float32, m round.Mode, sat bool) {
	n := len(f)
	if n == 0 {
		return
	}
	i := 0
	if mk, ok := miniKindOf(k); ok {
		i = simdFloatToMini(mk, d, f, m, sat)
	}
	f = f[i:]
	switch k {
	case cltype.E2M1, cltype.E2M3, cltype.E3M2, cltype.E8M0:
		// mx's element conversions: the scalar ones below, with AVX-512
		// kernels for the bulk.
		e := mx.ElemE8M0
		switch k {
		case cltype.E2M1:
			e = mx.ElemE2M1
		case cltype.E2M3:
			e = mx.ElemE2M3
		case cltype.E3M2:
			e = mx.ElemE3M2
		}
		mx.ElemsFromFloat32(e, unsafe.Slice((*uint8)(d), n)[i:], f, m, sat)
	case cltype.E4M3FNUZ, cltype.E5M2FNUZ:
		enc := mxEncoder(k, sat)
		dd := unsafe.Slice((*uint8)(d), n)[i:]
		dd = dd[:len(f)]
		for j, x := range f {
			dd[j] = enc(x, m)
		}
	case cltype.BFloat16:
		dd := unsafe.Slice((*bfloat16.BFloat16)(d), n)[i:]
		dd = dd[:len(f)]
		if sat {
			for j, x := range f {
				dd[j] = bfloat16.FromFloat32Sat(x, m)
			}
		} else {
			for j, x := range f {
				dd[j] = bfloat16.FromFloat32(x, m)
			}
		}
	case cltype.E4M3:
		dd := unsafe.Slice((*fp8.E4M3)(d), n)[i:]
		dd = dd[:len(f)]
		if sat {
			for j, x := range f {
				dd[j] = fp8.E4M3FromFloat32Sat(x, m)
			}
		} else {
			for j, x := range f {
				dd[j] = fp8.E4M3FromFloat32(x, m)
			}
		}
	case cltype.E5M2:
		dd := unsafe.Slice((*fp8.E5M2)(d), n)[i:]
		dd = dd[:len(f)]
		if sat {
			for j, x := range f {
				dd[j] = fp8.E5M2FromFloat32Sat(x, m)
			}
		} else {
			for j, x := range f {
				dd[j] = fp8.E5M2FromFloat32(x, m)
			}
		}
	default:
		panic("convert: encodeSmall to " + k.String())
	}
}

// mxEncoder returns the scalar fast path of the MX or FNUZ format k (e2m1,
// e2m3, e3m2, e8m0, e4m3fnuz or e5m2fnuz), chosen once per slice rather than
// per element.
func mxEncoder(k cltype.Kind, sat bool) func(float32, round.Mode) uint8 {
	switch {
	case k == cltype.E4M3FNUZ && sat:
		return func(x float32, m round.Mode) uint8 { return uint8(fp8.E4M3FNUZFromFloat32Sat(x, m)) }
	case k == cltype.E4M3FNUZ:
		return func(x float32, m round.Mode) uint8 { return uint8(fp8.E4M3FNUZFromFloat32(x, m)) }
	case k == cltype.E5M2FNUZ && sat:
		return func(x float32, m round.Mode) uint8 { return uint8(fp8.E5M2FNUZFromFloat32Sat(x, m)) }
	case k == cltype.E5M2FNUZ:
		return func(x float32, m round.Mode) uint8 { return uint8(fp8.E5M2FNUZFromFloat32(x, m)) }
	case k == cltype.E2M1:
		// e2m1, e2m3 and e3m2 saturate with or without _sat.
		return func(x float32, m round.Mode) uint8 { return uint8(fp4.E2M1FromFloat32(x, m)) }
	case k == cltype.E2M3:
		return func(x float32, m round.Mode) uint8 { return uint8(fp6.E2M3FromFloat32(x, m)) }
	case k == cltype.E3M2:
		return func(x float32, m round.Mode) uint8 { return uint8(fp6.E3M2FromFloat32(x, m)) }
	case sat:
		return func(x float32, m round.Mode) uint8 { return uint8(fp8.E8M0FromFloat32Sat(x, m)) }
	}
	return func(x float32, m round.Mode) uint8 { return uint8(fp8.E8M0FromFloat32(x, m)) }
}

// oddFloat32 returns the float32 pattern of the integer whose sign is neg and
// whose magnitude is mag, rounded to 24 significant bits by rounding to odd
// (truncate, then set the last bit if anything was cut off), in integer
// arithmetic only: no port's lowering of an integer->float conversion takes
// part. A second rounding of the result to a format of at most 22
// significant bits gives the same result as rounding the integer itself.
func oddFloat32(mag uint64, neg bool) uint32 {
	if mag == 0 {
		return 0 // integer 0 is +0
	}
	n := bits.Len64(mag)
	var sig uint32
	if n <= 24 {
		sig = uint32(mag << (24 - n))
	} else {
		sh := uint(n - 24)
		sig = uint32(mag >> sh)
		if mag&(1<<sh-1) != 0 {
			sig |= 1
		}
	}
	b := uint32(127+n-1)<<23 | sig&0x7fffff
	if neg {
		b |= 0x80000000
	}
	return b
}

// intOdd32 is oddFloat32 of a signed integer.
func intOdd32(v int64) uint32 {
	mag := uint64(v)
	if v < 0 {
		mag = -mag
	}
	return oddFloat32(mag, v < 0)
}

// toOdd32 rounds the n integers of kind k at s to float32 patterns by
// rounding to odd (exactly, for the kinds below 32 bits).
func toOdd32(k cltype.Kind, f []float32, s unsafe.Pointer) {
	n := len(f)
	switch k {
	case cltype.Int:
		for i, x := range unsafe.Slice((*int32)(s), n) {
			f[i] = math.Float32frombits(intOdd32(int64(x)))
		}
	case cltype.Uint:
		for i, x := range unsafe.Slice((*uint32)(s), n) {
			f[i] = math.Float32frombits(oddFloat32(uint64(x), false))
		}
	case cltype.Long:
		for i, x := range unsafe.Slice((*int64)(s), n) {
			f[i] = math.Float32frombits(intOdd32(x))
		}
	case cltype.Ulong:
		for i, x := range unsafe.Slice((*uint64)(s), n) {
			f[i] = math.Float32frombits(oddFloat32(x, false))
		}
	default:
		panic("convert: toOdd32 of " + k.String())
	}
}

// smallSlice converts n values between two kinds of which at least one is a
// small floating format.
func smallSlice(dst, src cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat bool) {
	if !smallPair(dst, src) {
		panic(invalidPair(dst, src))
	}
	if dst == cltype.Float && src.IsSmallFloat() {
		decodeSmall(src, unsafe.Slice((*float32)(d), n), s)
		return
	}
	if src == cltype.Float {
		encodeSmall(dst, d, unsafe.Slice((*float32)(s), n), m, sat)
		return
	}
	if src == dst {
		// R9: the bits unchanged, except that _sat takes infinities to +-MAX
		// (and that the bits above an e2m1, e2m3 or e3m2 code, which are
		// not part of its value, are cleared).
		if d != s {
			copy(unsafe.Slice((*byte)(d), n*src.Size()), unsafe.Slice((*byte)(s), n*src.Size()))
		}
		if mask := uint8(minifloat.OfKind(src).Mask()); src.Size() == 1 && mask != 0xff {
			dd := unsafe.Slice((*uint8)(d), n)
			for i, x := range dd {
				dd[i] = x & mask
			}
		}
		if sat && minifloat.OfKind(src).Inf {
			f := minifloat.OfKind(src)
			for i := range n {
				p := unsafe.Add(d, i*src.Size())
				b := loadBits(src, p)
				storeBits(dst, p, minifloat.Convert(f, f, b, m, true))
			}
		}
		return
	}
	var scratch [smallChunk]float32
	ss, ds := src.Size(), dst.Size()
	for lo := 0; lo < n; lo += smallChunk {
		k := min(smallChunk, n-lo)
		f := scratch[:k]
		sp, dp := unsafe.Add(s, lo*ss), unsafe.Add(d, lo*ds)
		switch {
		case src.IsSmallFloat():
			decodeSmall(src, f, sp)
			convertSlice(dst, cltype.Float, dp, unsafe.Pointer(&scratch), k, m, sat)
			continue
		case src == cltype.Int || src == cltype.Uint || src == cltype.Long || src == cltype.Ulong:
			toOdd32(src, f, sp)
		case src == cltype.Double:
			for i, x := range unsafe.Slice((*uint64)(sp), k) {
				f[i] = math.Float32frombits(minifloat.Float64ToOdd32(x))
			}
		default: // char, uchar, short, ushort, half: exact in float32
			convertSlice(cltype.Float, src, unsafe.Pointer(&scratch), sp, k, round.RTE, false)
		}
		encodeSmall(dst, dp, f, m, sat)
	}
}

// smallOne converts one value between two kinds of which at least one is a
// small floating format, as smallSlice does, with the scalar conversions
// only: no pointer reaches the SIMD kernels, so that convertOne's operands
// stay on the caller's stack.
func smallOne(dst, src cltype.Kind, d, s unsafe.Pointer, m round.Mode, sat bool) {
	if !smallPair(dst, src) {
		panic(invalidPair(dst, src))
	}
	var f float32
	switch {
	case src == dst:
		f := minifloat.OfKind(src)
		b := loadBits(src, s) & f.Mask()
		if sat {
			b = minifloat.Convert(f, f, b, m, true)
		}
		storeBits(dst, d, b)
		return
	case src == cltype.Double:
		f = math.Float32frombits(minifloat.Float64ToOdd32(*(*uint64)(s)))
	case src.IsSmallFloat():
		f = decodeOne(src, loadBits(src, s))
		if !dst.IsSmallFloat() {
			convertOne(dst, cltype.Float, d, unsafe.Pointer(&f), m, sat)
			return
		}
	case src == cltype.Int || src == cltype.Uint || src == cltype.Long || src == cltype.Ulong:
		switch src {
		case cltype.Int:
			f = math.Float32frombits(intOdd32(int64(*(*int32)(s))))
		case cltype.Uint:
			f = math.Float32frombits(oddFloat32(uint64(*(*uint32)(s)), false))
		case cltype.Long:
			f = math.Float32frombits(intOdd32(*(*int64)(s)))
		default:
			f = math.Float32frombits(oddFloat32(*(*uint64)(s), false))
		}
	default: // char, uchar, short, ushort, half, float: exact in float32
		convertOne(cltype.Float, src, unsafe.Pointer(&f), s, round.RTE, false)
	}
	storeBits(dst, d, encodeOne(dst, f, m, sat))
}

// encodeOne rounds f to small kind k (the scalar form of encodeSmall).
func encodeOne(k cltype.Kind, f float32, m round.Mode, sat bool) uint64 {
	switch {
	case k == cltype.BFloat16 && sat:
		return uint64(bfloat16.FromFloat32Sat(f, m))
	case k == cltype.BFloat16:
		return uint64(bfloat16.FromFloat32(f, m))
	case k == cltype.E4M3 && sat:
		return uint64(fp8.E4M3FromFloat32Sat(f, m))
	case k == cltype.E4M3:
		return uint64(fp8.E4M3FromFloat32(f, m))
	case k == cltype.E5M2 && sat:
		return uint64(fp8.E5M2FromFloat32Sat(f, m))
	case k == cltype.E5M2:
		return uint64(fp8.E5M2FromFloat32(f, m))
	case k == cltype.E2M1 && sat:
		return uint64(fp4.E2M1FromFloat32Sat(f, m))
	case k == cltype.E2M1:
		return uint64(fp4.E2M1FromFloat32(f, m))
	case k == cltype.E2M3 && sat:
		return uint64(fp6.E2M3FromFloat32Sat(f, m))
	case k == cltype.E2M3:
		return uint64(fp6.E2M3FromFloat32(f, m))
	case k == cltype.E3M2 && sat:
		return uint64(fp6.E3M2FromFloat32Sat(f, m))
	case k == cltype.E3M2:
		return uint64(fp6.E3M2FromFloat32(f, m))
	case k == cltype.E8M0 && sat:
		return uint64(fp8.E8M0FromFloat32Sat(f, m))
	case k == cltype.E8M0:
		return uint64(fp8.E8M0FromFloat32(f, m))
	case k == cltype.E4M3FNUZ && sat:
		return uint64(fp8.E4M3FNUZFromFloat32Sat(f, m))
	case k == cltype.E4M3FNUZ:
		return uint64(fp8.E4M3FNUZFromFloat32(f, m))
	case k == cltype.E5M2FNUZ && sat:
		return uint64(fp8.E5M2FNUZFromFloat32Sat(f, m))
	case k == cltype.E5M2FNUZ:
		return uint64(fp8.E5M2FNUZFromFloat32(f, m))
	}
	panic("convert: encodeOne to " + k.String())
}

// loadBits reads one value of kind k at p as its zero-extended bit pattern.
func loadBits(k cltype.Kind, p unsafe.Pointer) uint64 { return byteorder.Load(p, k.Size(), 0) }

// storeBits writes the low bits of b as one value of kind k at p.
func storeBits(k cltype.Kind, p unsafe.Pointer, b uint64) { byteorder.Store(p, k.Size(), 0, b) }

// smallBits is convertBits for the pairs with a small format.
func smallBits(dst, src cltype.Kind, b uint64, m round.Mode, sat bool) (uint64, bool) {
	if !smallPair(dst, src) {
		panic(invalidPair(dst, src))
	}
	if src.IsSmallFloat() && dst.IsInteger() {
		f := math.Float32bits(decodeOne(src, b))
		return convertBits(dst, cltype.Float, uint64(f), m, sat)
	}
	var in, out uint64
	storeBits(src, unsafe.Pointer(&in), b)
	smallOne(dst, src, unsafe.Pointer(&out), unsafe.Pointer(&in), m, sat)
	return loadBits(dst, unsafe.Pointer(&out)), false
}

// decodeOne returns the small value of kind k with pattern b as a float32,
// exactly.
func decodeOne(k cltype.Kind, b uint64) float32 {
	switch k {
	case cltype.BFloat16:
		return bfloat16.BFloat16(b).Float32()
	case cltype.E4M3:
		return fp8.E4M3(b).Float32()
	case cltype.E5M2:
		return fp8.E5M2(b).Float32()
	case cltype.E2M1:
		return fp4.E2M1(b).Float32()
	case cltype.E2M3:
		return fp6.E2M3(b).Float32()
	case cltype.E3M2:
		return fp6.E3M2(b).Float32()
	case cltype.E8M0:
		return fp8.E8M0(b).Float32()
	case cltype.E4M3FNUZ:
		return fp8.E4M3FNUZ(b).Float32()
	case cltype.E5M2FNUZ:
		return fp8.E5M2FNUZ(b).Float32()
	}
	panic("convert: decodeOne of " + k.String())
}

// smallSliceFlag is convertSliceFlag for the pairs with a small format: a
// small source to an integer destination flags like float's.
func smallSliceFlag(dst, src cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat bool, bad []bool) int {
	if !src.IsSmallFloat() || !dst.IsInteger() {
		smallSlice(dst, src, d, s, n, m, sat)
		return 0
	}
	var scratch [smallChunk]float32
	count := 0
	for lo := 0; lo < n; lo += smallChunk {
		k := min(smallChunk, n-lo)
		decodeSmall(src, scratch[:k], unsafe.Add(s, lo*src.Size()))
		count += convertSliceFlag(dst, cltype.Float, unsafe.Add(d, lo*dst.Size()), unsafe.Pointer(&scratch), k, m, sat, bad[lo:lo+k])
	}
	return count
}

// overflowAt[k] is the least magnitude at which a value overflows the
// floating kind k, half and the small formats (IEEE 754's overflow: its
// rounding with an unbounded exponent range is above MAX in every mode):
// MAX plus one unit in its last place, from k's row of the format table
// (65536 for half, 480 for e4m3, 65536 for e5m2, 2^128 for bfloat16 and
// e8m0, 8 for e2m1 and e2m3, 32 for e3m2, 256 for e4m3fnuz, 65536 for
// e5m2fnuz). maxValue[k] is MAX.
var overflowAt, maxValue = func() (t, mv [cltype.NumKinds]float64) {
	for _, k := range append([]cltype.Kind{cltype.Half}, cltype.SmallFloats...) {
		r := minifloat.OfKind(k)
		mx := math.Float64frombits(minifloat.ToFloat64Bits(r, r.MaxBits()))
		t[k], mv[k] = mx+math.Ldexp(1, math.Ilogb(mx)-r.MantBits), mx
	}
	return t, mv
}()

// smallChecked is convertChecked for the pairs with a small format. To a
// small format it writes the conversion without _sat when the value
// survives, and the _sat result when it is lost: a finite value that
// overflows (its rounding with an unbounded exponent range is beyond MAX),
// an infinity that the format cannot hold (e4m3, e8m0, the FNUZ formats and
// the MX element formats), a NaN to a format without NaNs (e2m1, e2m3, e3m2: +0), and zero
// or a negative value to e8m0 (2^-127). A NaN stays NaN without an error
// where the format has one, and an infinity to bfloat16 or e5m2 stays
// infinite.
func smallChecked(dst, src cltype.Kind, d, s unsafe.Pointer, m round.Mode) bool {
	if !smallPair(dst, src) {
		panic(invalidPair(dst, src))
	}
	// A copy of the source: d may be s, and it is written twice below.
	var in uint64
	storeBits(src, unsafe.Pointer(&in), loadBits(src, s))
	s = unsafe.Pointer(&in)
	if src.IsSmallFloat() && dst.IsInteger() {
		f := decodeOne(src, loadBits(src, s))
		return convertChecked(dst, cltype.Float, d, unsafe.Pointer(&f), m)
	}
	v, inf := sourceMagnitude(src, s)
	neg := sourceNeg(src, s)
	smallOne(dst, src, d, s, m, false)
	r := minifloat.OfKind(dst)
	switch {
	case dst == cltype.Float || dst == cltype.Double:
		// A small source: its range is within float's.
		return true
	case v != v:
		// NaN stays NaN, except in a format without NaNs.
		if r.HasNaN() {
			return true
		}
	case dst == cltype.E8M0 && (neg || v == 0):
		// Zero, a negative value and -infinity have no e8m0 value.
	case inf:
		// An infinity stays one where the format has infinities.
		if r.Inf {
			return true
		}
	case r.NaN == minifloat.NaNNone:
		// The result is +-MAX whether the value rounded to it or
		// overflowed: decide on the value. MAX's pattern is odd (all
		// ones) in these formats, so that a tie half way to the next
		// grid point rounds up, beyond MAX, in rte.
		var over bool
		switch {
		case m == round.RTZ || m == round.RTP && neg || m == round.RTN && !neg:
			over = v >= overflowAt[dst]
		case m == round.RTP || m == round.RTN:
			over = v > maxValue[dst]
		default:
			over = v >= (maxValue[dst]+overflowAt[dst])/2
		}
		if !over {
			return true
		}
	case v >= overflowAt[dst] || overflowed(dst, loadBits(dst, d)):
		// IEEE 754's overflow: the rounding with an unbounded exponent
		// range is beyond MAX. Then the result is infinite (or the NaN of
		// e4m3 and e8m0), or the mode rounds toward zero and gives MAX
		// from a value at least one unit beyond it; a value below that
		// which rounds to MAX does not overflow.
	default:
		return true
	}
	smallOne(dst, src, d, s, m, true) // _sat's value (half: the same)
	return false
}

// sourceNeg reports whether the sign bit of the value at s of kind k is set
// (never for an unsigned kind).
func sourceNeg(k cltype.Kind, s unsafe.Pointer) bool {
	if !k.IsSigned() {
		return false
	}
	b := loadBits(k, s)
	if r := minifloat.OfKind(k); r != nil {
		return b&r.SignBit() != 0
	}
	return b>>(k.Bits()-1) != 0
}

// overflowed reports whether pattern b of the floating kind k is what
// overflow gives without _sat: an infinity, or NaN in a format without
// infinities (e4m3, e8m0, e4m3fnuz, e5m2fnuz).
func overflowed(k cltype.Kind, b uint64) bool {
	r := minifloat.OfKind(k)
	c := r.Classify(b)
	return c == minifloat.ClassInf || c == minifloat.ClassNaN && !r.Inf
}

// sourceMagnitude returns the magnitude of the value at s of kind k as a
// float64, at least as large as the value's own (it is exact for every kind
// but long and ulong, where the rounding up is harmless: every threshold is
// below 2^53 or far above 2^64), and whether it is infinite. NaN gives NaN.
func sourceMagnitude(k cltype.Kind, s unsafe.Pointer) (float64, bool) {
	var v float64
	switch k {
	case cltype.Char:
		v = float64(*(*int8)(s))
	case cltype.Uchar:
		v = float64(*(*uint8)(s))
	case cltype.Short:
		v = float64(*(*int16)(s))
	case cltype.Ushort:
		v = float64(*(*uint16)(s))
	case cltype.Int:
		v = float64(*(*int32)(s))
	case cltype.Uint:
		v = float64(*(*uint32)(s))
	case cltype.Long, cltype.Ulong:
		// Only the order of magnitude matters here: no threshold lies
		// between 2^53 and 2^64.
		x := *(*uint64)(s)
		if k == cltype.Long && int64(x) < 0 {
			x = -x
		}
		if x >= 1<<53 {
			return 0x1p53, false
		}
		return float64(int64(x)), false
	default:
		var f float32
		var d float64
		switch k {
		case cltype.Double:
			d = *(*float64)(s)
		case cltype.Float:
			f = *(*float32)(s)
			d = float64(f)
		default: // half and the small formats: exact in float32
			convertOne(cltype.Float, k, unsafe.Pointer(&f), s, round.RTE, false)
			d = float64(f)
		}
		return math.Abs(d), math.IsInf(d, 0)
	}
	return math.Abs(v), false
}
