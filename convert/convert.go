// Package convert implements OpenCL C's explicit conversions,
// convert_<dst>[n][_sat][_rte|_rtz|_rtp|_rtn], bit-exactly for every ordered
// pair of the eleven scalar types char, uchar, short, ushort, int, uint, long,
// ulong, half, float and double, and of those and the small floating formats
// bfloat16, e4m3, e5m2 and the OCP MX formats e2m1, e2m3, e3m2 and e8m0
// (packages bfloat16, fp8, fp6 and fp4; the rules are docs/FORMATS.md's).
//
// # Semantics
//
// Integer to integer without _sat keeps the low bits of the two's complement
// value (convert_uchar(300) == 44); with _sat it clamps to the destination's
// range. Rounding suffixes change nothing between integers.
//
// Floating to integer rounds in the conversion's mode (rtz when no suffix is
// given) and then clamps: values beyond the range give MIN or MAX, infinities
// likewise, and NaN gives 0. Without _sat, OpenCL leaves out-of-range and NaN
// inputs implementation-defined; clconv gives the same result as _sat on every
// platform (the spec allows saturating hardware for both), unlike Go's own
// float-to-int conversion, whose out-of-range result depends on the
// architecture (golang/go#76264). ToChecked and SliceChecked report such inputs
// as errors instead.
//
// Conversions to a floating type are correctly rounded in their mode (the
// current mode, rte by default, when no suffix is given). Overflow follows IEEE
// 754: rte gives infinity, rtz the largest finite value, rtp and rtn infinity on
// their side and the largest finite value on the other. Underflow keeps
// subnormals and the sign of zero; integer 0 gives +0 in every mode. Widening
// half->float->double is exact. A NaN stays NaN with its sign, the quiet bit
// set and the high payload bits that fit. Converting a type to itself returns
// the bits unchanged. _sat is meaningless for floating destinations: ParseName
// rejects it, and the typed API ignores it.
//
// # Checked conversions
//
// ToChecked and SliceChecked convert as ToSat and SliceSat do and return an
// error when a value did not survive the conversion apart from rounding:
//
//   - NaN to an integer type (CauseNaN);
//   - a value whose rounded value (in the conversion's mode) is above an
//     integer type's MAX or below its MIN, +-infinity included (CauseTooLarge,
//     CauseTooSmall);
//   - a finite value that overflows a floating type (CauseOverflow): IEEE 754's
//     overflow, where the value rounded in the mode as if the exponent range
//     were unbounded is larger in magnitude than the type's largest finite
//     value MAX. The result is then infinity in rte, in rtp above MAX and in
//     rtn below -MAX, and +-MAX in rtz, in rtp below -MAX and in rtn above
//     MAX, which is still an error: 1e6 to half in rtz gives 65504 and an
//     error, while 65519 to half in rtz gives 65504 without one (that is
//     rounding, as 2.7 to int in rtz gives 2).
//
// Everything else converts without an error: NaN to a floating type stays NaN,
// +-infinity to a floating type stays infinite, and underflow (a tiny value
// that becomes a subnormal or zero) is rounding, as 0.4 to int gives 0. The
// error is a *RangeError, and errors.Is(err, ErrRange) reports it.
//
// # The small floating formats
//
// bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0, e4m3fnuz and e5m2fnuz
// convert to and from every other kind (Go types bfloat16.BFloat16,
// fp8.E4M3, fp8.E5M2, fp4.E2M1, fp6.E2M3, fp6.E3M2, fp8.E8M0, fp8.E4M3FNUZ
// and fp8.E5M2FNUZ; cltype.BFloat16 .. E5M2FNUZ). A conversion to
// one of them rounds the exact source value once in the mode (the current
// mode, rte by default, without a suffix), and _sat means something for
// them: every overflow and every infinity gives +-MAX (OCP's saturating
// mode, PTX's .satfinite). Without _sat, overflow gives infinity (bfloat16,
// e5m2) or NaN (e4m3, which has no infinity; e8m0; e4m3fnuz and e5m2fnuz,
// whose one NaN is 0x80 and which have no -0: -0 gives +0), or +-MAX in a mode that
// rounds toward zero; e2m1, e2m3 and e3m2, which have neither, always give
// +-MAX, and NaN gives +0 there. e8m0 has no sign and no zero: zero and
// negative values give NaN, or 2^-127 under _sat. From them, values are
// exact floats, converted by the float rules.
//
// ToChecked to them reports IEEE 754 overflow as to half, and an infinity
// to a format without infinities, with CauseOverflow; a NaN to e2m1, e2m3
// or e3m2 with CauseNaN; zero, a negative value and -infinity to e8m0 with
// CauseTooSmall. It returns ToSat's value then (+-MAX, +0 for a NaN, 2^-127)
// and To's otherwise (an infinity to bfloat16 stays infinite, a NaN stays
// NaN where the format has one, and a positive value below 2^-127 gives
// 2^-127 in e8m0 as underflow gives zero elsewhere).
//
// # API
//
// Typed Go callers use the generic functions To, ToSat, ToChecked and their
// slice forms Slice, SliceSat and SliceChecked over the Number types (Go's
// fixed-size numeric types, the types defined on them, and half.Half), with a
// rounding Mode: round.Mode, whose constants round.RTE .. round.RTN this
// package repeats as RTE .. RTN. Tools that know types only at run time use
// Bits (one value as raw bits) and Bytes (little-endian buffers), or the
// vector-aware package value. Op and ParseName describe convert_ names; their
// rounding suffix is a RoundingSuffix (NoSuffix, SuffixRTE, ...), which
// EffectiveMode turns into a Mode.
//
// All per-type-pair code is generated from one table by internal/gen
// (go generate); the fast paths take rounding from the hardware's
// round-to-nearest and correct directed modes after an exact comparison, and are
// tested against an integer-only reference (internal/ref), which is itself
// tested against math/big (internal/bigref).
package convert

import (
	"fmt"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/round"
)

// Mode is a rounding mode: the same type as round.Mode, so that either
// package's constants serve every function of both.
type Mode = round.Mode

// The four rounding modes, the same constants as round's: RTE (to nearest,
// ties to even), RTZ (toward zero), RTP (toward +infinity) and RTN (toward
// -infinity). OpenCL's default is RTZ to integer types and RTE to floating
// types.
const (
	RTE = round.RTE
	RTZ = round.RTZ
	RTP = round.RTP
	RTN = round.RTN
)

// Number is the set of Go types that stand for OpenCL C scalars: int8 (char),
// uint8 (uchar), int16 (short), uint16 (ushort), int32 (int), uint32 (uint),
// int64 (long), uint64 (ulong), float32 (float), float64 (double),
// half.Half (half), bfloat16.BFloat16 (bfloat16), fp8.E4M3 (e4m3),
// fp8.E5M2 (e5m2), fp4.E2M1 (e2m1), fp6.E2M3 (e2m3), fp6.E3M2 (e3m2),
// fp8.E8M0 (e8m0), fp8.E4M3FNUZ (e4m3fnuz) and fp8.E5M2FNUZ (e5m2fnuz), and
// every type whose underlying type is one of Go's ten, such as type Celsius
// float32, which stands for the same OpenCL type as its underlying type. The
// ten format types, whose underlying types are uint16 and uint8, are the
// exceptions: each stands for its format, and every other type with
// underlying type uint16 or uint8 stands for ushort or uchar, a type defined
// on one of the ten included (its underlying type is uint16
// or uint8 too). KindOf tells which.
type Number interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// KindOf returns the OpenCL kind that Go type T stands for (see Number).
// It costs a few instructions: the size, signedness and floating-point-ness
// of T are constants in each instantiation, and only a 1- or 2-byte unsigned
// T compares its type with the formats' types.
func KindOf[T Number]() cltype.Kind {
	var one T = 1
	float := one/2 != 0
	signed := one-2 < 0
	switch unsafe.Sizeof(one) {
	case 1:
		if signed {
			return cltype.Char
		}
		switch any((*T)(nil)).(type) {
		case *fp8.E4M3:
			return cltype.E4M3
		case *fp8.E5M2:
			return cltype.E5M2
		case *fp4.E2M1:
			return cltype.E2M1
		case *fp6.E2M3:
			return cltype.E2M3
		case *fp6.E3M2:
			return cltype.E3M2
		case *fp8.E8M0:
			return cltype.E8M0
		case *fp8.E4M3FNUZ:
			return cltype.E4M3FNUZ
		case *fp8.E5M2FNUZ:
			return cltype.E5M2FNUZ
		}
		return cltype.Uchar
	case 2:
		if signed {
			return cltype.Short
		}
		switch any((*T)(nil)).(type) {
		case *half.Half:
			return cltype.Half
		case *bfloat16.BFloat16:
			return cltype.BFloat16
		}
		return cltype.Ushort
	case 4:
		switch {
		case float:
			return cltype.Float
		case signed:
			return cltype.Int
		}
		return cltype.Uint
	}
	switch {
	case float:
		return cltype.Double
	case signed:
		return cltype.Long
	}
	return cltype.Ulong
}

// To converts x to D in mode m without saturation: convert_<D>_<m>(x). For an
// integer destination pass RTZ to get OpenCL's default (no suffix).
// Out-of-range or NaN floating inputs give the saturated result (see the
// package documentation).
func To[D, S Number](x S, m Mode) D {
	var d D
	convertOne(KindOf[D](), KindOf[S](), unsafe.Pointer(&d), unsafe.Pointer(&x), m, false)
	return d
}

// ToSat converts x to D in mode m with saturation: convert_<D>_sat_<m>(x).
func ToSat[D, S Number](x S, m Mode) D {
	var d D
	convertOne(KindOf[D](), KindOf[S](), unsafe.Pointer(&d), unsafe.Pointer(&x), m, true)
	return d
}

// Slice converts min(len(dst), len(src)) elements of src into dst in mode m
// without saturation and returns that count, like copy. dst and src must not
// overlap unless they are the same memory and the same size of element.
// It does not allocate.
func Slice[D, S Number](dst []D, src []S, m Mode) int {
	return slice(dst, src, m, false)
}

// SliceSat is Slice with saturation (convert_<D>_sat_<m>).
func SliceSat[D, S Number](dst []D, src []S, m Mode) int {
	return slice(dst, src, m, true)
}

func slice[D, S Number](dst []D, src []S, m Mode, sat bool) int {
	n := min(len(dst), len(src))
	if n == 0 {
		return 0
	}
	convertSlice(KindOf[D](), KindOf[S](), unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), n, m, sat)
	return n
}

// Bits converts one value of kind src, given as its bit pattern zero-extended
// to 64 bits, to kind dst and returns the result's bit pattern zero-extended.
// implDefined reports a non-saturated float->integer conversion whose rounded
// value is NaN or out of range: OpenCL leaves its result implementation-defined
// and clconv returns the saturated value. Both kinds must be valid.
func Bits(dst, src cltype.Kind, bits uint64, m Mode, sat bool) (out uint64, implDefined bool) {
	return convertBits(dst, src, bits, m, sat)
}

// Bytes converts the little-endian elements of src (kind sk) into dst (kind
// dk), written little-endian, on every host. len(src) must be a multiple of
// sk's size, dst must hold exactly as many elements of dk, and both must be
// aligned as Go aligns their element type (to its size, or to 4 bytes for
// 8-byte elements on 32-bit ports; buffers from make are). dst and src must
// not overlap unless they are the same memory (kinds of the same size). On a
// big-endian host the elements go through a small scratch buffer in chunks,
// byte-swapped on the way in and out; a little-endian host converts the
// buffers directly, with no copy.
func Bytes(dk, sk cltype.Kind, dst, src []byte, m Mode, sat bool) error {
	n, err := checkBuffers(dk, sk, dst, src)
	if err != nil || n == 0 {
		return err
	}
	d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	if byteorder.BigEndian {
		convertSwapped(dk, sk, d, s, n, m, sat, nil)
		return nil
	}
	convertSlice(dk, sk, d, s, n, m, sat)
	return nil
}

// bytesFlag is Bytes that also, for a floating source and an integer
// destination, sets bad[i] for each element whose rounded value is NaN or out
// of range (the implementation-defined inputs of a non-saturated conversion)
// and returns their count. bad must have one entry per element. clconv's own
// packages call it as internal/kernels.BytesFlag.
func bytesFlag(dk, sk cltype.Kind, dst, src []byte, m round.Mode, sat bool, bad []bool) (int, error) {
	n, err := checkBuffers(dk, sk, dst, src)
	if err != nil || n == 0 {
		return 0, err
	}
	if len(bad) < n {
		return 0, fmt.Errorf("convert: flag slice has %d entries, want %d", len(bad), n)
	}
	d, s := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	if byteorder.BigEndian {
		return convertSwapped(dk, sk, d, s, n, m, sat, bad[:n]), nil
	}
	return convertSliceFlag(dk, sk, d, s, n, m, sat, bad), nil
}

// swapChunk is the number of elements convertSwapped byte-swaps and converts
// at a time: 16 KiB of scratch for 8-byte sources, which stays in L1 cache
// with the destination chunk.
const swapChunk = 2048

// convertSwapped converts n elements stored in the byte order opposite to the
// host's (little-endian ones on a big-endian host, the case Bytes uses it for)
// into elements of that same order, through the host-order kernels: each chunk
// of the source is byte-swapped into scratch, converted into the destination
// and swapped there in place. With bad it flags like convertSliceFlag and
// returns the count. d and s may be the same memory: each chunk of the source
// is read before that chunk of the destination is written.
func convertSwapped(dk, sk cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat bool, bad []bool) int {
	var scratch [swapChunk]uint64
	ss, ds := sk.Size(), dk.Size()
	count := 0
	for lo := 0; lo < n; lo += swapChunk {
		k := min(swapChunk, n-lo)
		sp, dp := unsafe.Add(s, lo*ss), unsafe.Add(d, lo*ds)
		if ss > 1 {
			tmp := unsafe.Pointer(&scratch)
			byteorder.SwapCopy(unsafe.Slice((*byte)(tmp), k*ss), unsafe.Slice((*byte)(sp), k*ss), ss)
			sp = tmp
		}
		if bad != nil {
			count += convertSliceFlag(dk, sk, dp, sp, k, m, sat, bad[lo:lo+k])
		} else {
			convertSlice(dk, sk, dp, sp, k, m, sat)
		}
		if ds > 1 {
			byteorder.Swap(unsafe.Slice((*byte)(dp), k*ds), ds)
		}
	}
	return count
}

// goAlign is the alignment Go gives an element of kind k: its size, except
// that 8-byte values are 4-byte aligned on 32-bit ports (386, arm, mips),
// where Go itself loads them as two words.
func goAlign(k cltype.Kind) uintptr { return min(uintptr(k.Size()), unsafe.Alignof(uint64(0))) }

// checkBuffers validates Bytes' arguments and returns the element count.
func checkBuffers(dk, sk cltype.Kind, dst, src []byte) (int, error) {
	if !dk.Convertible() || !sk.Convertible() {
		return 0, fmt.Errorf("convert: invalid kinds %s -> %s", sk, dk)
	}
	if r := len(src) % sk.Size(); r != 0 {
		return 0, fmt.Errorf("convert: %d source bytes are not a whole number of %s: %d bytes left over at offset %d", len(src), sk, r, len(src)-r)
	}
	n := len(src) / sk.Size()
	if len(dst) != n*dk.Size() {
		return 0, fmt.Errorf("convert: destination has %d bytes, want %d for %d %s", len(dst), n*dk.Size(), n, dk)
	}
	if n > 0 && (uintptr(unsafe.Pointer(unsafe.SliceData(src)))%goAlign(sk) != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%goAlign(dk) != 0) {
		return 0, fmt.Errorf("convert: buffers must be aligned for their element type")
	}
	return n, nil
}
