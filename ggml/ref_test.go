package ggml

// The reference: this package's quantizers and dequantizers as they were
// before the speed work (every identifier prefixed with ref), kept verbatim
// so that the differential tests in diff_test.go can prove the optimized
// code writes the same bytes and float bits.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
	"unsafe"

	"github.com/clconv/clconv/internal/byteorder"
)

// This file holds the C float semantics that ggml's reference code relies on,
// written so that every Go port computes the same bits: each float32 product
// is wrapped in float32(...) so that no port fuses it into an FMA, every
// float-to-integer conversion goes through refCvtt (x86's cvttss2si, which is
// what the x86-64 build of ggml executes), and NaNs that reach stored bits are
// made by explicit rules, not by the hardware.

// refAbsf is fabsf.
func refAbsf(x float32) float32 {
	return math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
}

// refCvtt is a C conversion from float to a 32-bit or narrower integer as
// x86-64 ggml executes it (cvttss2si): truncation, and 0x80000000 for NaN
// and for values out of int32's range. A cast to int8_t or uint8_t keeps the
// low byte of that.
func refCvtt(x float32) int32 {
	if x >= -2147483648 && x < 2147483648 {
		return int32(x)
	}
	return math.MinInt32
}

// refRoundf rounds half away from zero. For |x| < 2^31 the sum in float64 is
// exact or rounds only below the integer boundary, so truncating it is
// refRoundf; larger values are integers already.
func refRoundf(x float32) float32 {
	if refAbsf(x) < 1<<31 {
		return float32(int32(float64(x) + math.Copysign(0.5, float64(x))))
	}
	return x
}

// refNearestInt is ggml's nearest_int: add 1.5*2^23 and read the low mantissa
// bits, which rounds half to even for |x| < 2^22 (the range ggml asserts in
// debug builds and its callers stay in). Outside that range it returns what
// the bit trick gives. A NaN argument keeps its payload through the addition
// on x86 (with the refQuiet bit set), so the result is computed from x's bits.
func refNearestInt(x float32) int32 {
	v := x + 12582912
	b := math.Float32bits(v)
	if x != x {
		b = math.Float32bits(x) | 0x400000
	}
	return int32(b&0x7fffff) - 0x400000
}

// refNearestIntK is refNearestInt for the Q2_K..Q6_K quantizers, which work
// on refCanonNaN's copy of the block: on x86 every NaN there has no payload
// bits (the block's are 0x7fc00000, SSE propagates a NaN operand's payload
// or makes 0xffc00000), so nearest_int gives 0 for it whatever its sign. The
// bits other ports give the NaNs of plain float32 operations (MIPS's
// 0x7fbfffff) are not read.
func refNearestIntK(x float32) int32 {
	if x != x {
		return 0
	}
	return refNearestInt(x)
}

// refDefaultNaN is the NaN x86 makes for an invalid operation (0*inf, inf-inf).
const refDefaultNaN = 0xffc00000

func refIsNaN(x float32) bool { return x != x }

func refQuiet(x float32) float32 {
	return math.Float32frombits(math.Float32bits(x) | 0x400000)
}

// refNanRule returns the NaN that SSE returns for an operation with first
// operand a and second b, and ok=false when neither is NaN and r (the IEEE
// result Go computed) is not NaN.
func refNanRule(a, b, r float32) (float32, bool) {
	switch {
	case refIsNaN(a):
		return refQuiet(a), true
	case refIsNaN(b):
		return refQuiet(b), true
	case refIsNaN(r):
		return math.Float32frombits(refDefaultNaN), true
	}
	return r, false
}

// refMulx, refAddx, refSubx and refDivx are float32 operations with x86's NaN results.
// Use them where a NaN can reach output bits; elsewhere plain Go arithmetic
// gives the same non-NaN results on every port.
func refMulx(a, b float32) float32 {
	r := float32(a * b)
	if n, ok := refNanRule(a, b, r); ok {
		return n
	}
	return r
}

func refAddx(a, b float32) float32 {
	r := a + b
	if n, ok := refNanRule(a, b, r); ok {
		return n
	}
	return r
}

func refSubx(a, b float32) float32 {
	r := a - b
	if n, ok := refNanRule(a, b, r); ok {
		return n
	}
	return r
}

func refDivx(a, b float32) float32 {
	r := a / b
	if n, ok := refNanRule(a, b, r); ok {
		return n
	}
	return r
}

// refFp32ToFP16 is ggml_compute_fp32_to_fp16: round to nearest even, overflow to
// infinity, subnormals kept, every NaN to sign|0x7e00.
func refFp32ToFP16(f float32) uint16 {
	w := math.Float32bits(f)
	sign := uint16(w>>16) & 0x8000
	if w<<1 > 0xff000000 {
		return sign | 0x7e00
	}
	// The reference adds a power of two that leaves the fp16 mantissa in the
	// low bits of the float32 sum; the products are exact or overflow.
	base := float32(float32(refAbsf(f)*0x1p112) * 0x1p-110)
	bias := (w << 1) & 0xff000000
	if bias < 0x71000000 {
		bias = 0x71000000
	}
	base = math.Float32frombits(bias>>1+0x07800000) + base
	b := math.Float32bits(base)
	return sign | uint16((b>>13)&0x7c00+b&0x0fff)
}

// refFp16ToFP32 is ggml_compute_fp16_to_fp32: exact, and a NaN gets the refQuiet bit
// (the reference reaches it through a multiplication).
func refFp16ToFP32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	e := uint32(h>>10) & 0x1f
	m := uint32(h & 0x3ff)
	switch e {
	case 0:
		return math.Float32frombits(sign | math.Float32bits(float32(m)*0x1p-24))
	case 31:
		if m != 0 {
			return math.Float32frombits(sign | 0x7fc00000 | m<<13)
		}
		return math.Float32frombits(sign | 0x7f800000)
	}
	return math.Float32frombits(sign | (e+112)<<23 | m<<13)
}

// refFp32ToBF16 is ggml_compute_fp32_to_bf16: nearest even, NaN kept with the
// refQuiet bit forced.
func refFp32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return uint16(u>>16) | 64
	}
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

func refBf16ToFP32(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}

// refE8m0Half is ggml_e8m0_to_fp32_half: 2^(x-128), with no NaN (0xff is 2^127).
func refE8m0Half(x uint8) float32 {
	if x < 2 {
		return math.Float32frombits(0x00200000 << x)
	}
	return math.Float32frombits(uint32(x-1) << 23)
}

// refUe4m3Half is ggml_ue4m3_to_fp32: half the UE4M3 value; the sign bit is
// ignored and 0x7f (and 0) decode to zero.
func refUe4m3Half(x uint8) float32 {
	if x == 0 || x == 0x7f {
		return 0
	}
	e := int(x>>3) & 0xf
	m := uint32(x & 7)
	if e == 0 {
		return float32(m) * 0x1p-10
	}
	return math.Float32frombits(uint32(e-7+127-1)<<23 | m<<20)
}

// refFp32ToUE4M3 is ggml_fp32_to_ue4m3: the 3-bit mantissa rounded half up (by
// the first dropped bit), values above 448 and exponent overflow to 0x7e,
// non-positive and NaN to 0.
func refFp32ToUE4M3(x float32) uint8 {
	if !(x > 0) {
		return 0
	}
	if x > 448 {
		x = 448
	}
	b := math.Float32bits(x)
	e := int(b>>23&0xff) - 127 + 7
	if e <= 0 {
		m := refCvtt(float32(x*512) + 0.5)
		if m > 7 {
			m = 7
		}
		if m < 1 {
			return 0
		}
		return uint8(m)
	}
	if e >= 15 {
		return 0x7e
	}
	m := int(b>>20&7) + int(b>>19&1)
	if m > 7 {
		m = 0
		e++
		if e >= 15 {
			return 0x7e
		}
	}
	return uint8(e<<3 | m)
}

// refFloorLog2f is floorf(log2f(x)) for refFinite x > 0 as glibc computes it: the
// exact floor, plus one from the points in log2fUp on, where log2f's
// rounding reaches the next integer.
func refFloorLog2f(x float32) int {
	b := math.Float32bits(x)
	k := int(b>>23) - 127
	if b>>23 == 0 {
		k = bits.Len32(b) - 1 - 149
	}
	if b >= log2fUp[k+149] {
		k++
	}
	return k
}

// F32, F16 and BF16: one element per "block".

// F32 is a copy in little-endian byte order.

func refQuantF32(dst []byte, src []float32) {
	if len(src) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&src[0])), 4*len(src))
	if byteorder.BigEndian {
		byteorder.SwapCopy(dst, b, 4)
		return
	}
	copy(dst, b)
}

func refDequantF32(dst []float32, src []byte) {
	if len(dst) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 4*len(dst))
	if byteorder.BigEndian {
		byteorder.SwapCopy(b, src, 4)
		return
	}
	copy(b, src)
}

func refQuantF16(dst []byte, src []float32) {
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], refFp32ToFP16(v))
	}
}

// refFp16Table holds refFp16ToFP32 of every fp16, for the F16 rows.
var refFp16Table = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		t[h] = refFp16ToFP32(uint16(h))
	}
	return &t
})

func refDequantF16(dst []float32, src []byte) {
	t := refFp16Table()
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = t[binary.LittleEndian.Uint16(src[2*i:])]
	}
}

func refQuantBF16(dst []byte, src []float32) {
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], refFp32ToBF16(v))
	}
}

func refDequantBF16(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = refBf16ToFP32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

// refAbsMaxBits returns the largest |x| of a block as bits: above 0x7f800000
// when the block holds a NaN, 0x7f800000 for an infinity. For a block without
// NaN it is the amax of ggml's loops, whichever form of max they use.
func refAbsMaxBits(x []float32) uint32 {
	var m uint32
	for _, v := range x {
		m = max(m, math.Float32bits(v)&0x7fffffff)
	}
	return m
}

// refSignedMax is the loop of quantize_row_q4_0_ref and q5_0: the element of
// largest magnitude, the first of equals, never a NaN.
func refSignedMax(x []float32) float32 {
	var amax, mx float32
	for _, v := range x {
		if a := refAbsf(v); amax < a {
			amax, mx = a, v
		}
	}
	return mx
}

// refMinMax is the loop of quantize_row_q4_1_ref and q5_1.
func refMinMax(x []float32) (lo, hi float32) {
	lo, hi = math.MaxFloat32, -math.MaxFloat32
	for _, v := range x {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return lo, hi
}

// refInvOrZero is `d ? 1.0f/d : 0.0f`.
func refInvOrZero(d float32) float32 {
	if d != 0 {
		return refDivx(1, d)
	}
	return 0
}

// refRoundCvtt is refCvtt(refRoundf(x)).
func refRoundCvtt(x float32) int32 {
	if refAbsf(x) < 1<<31 {
		f := float64(x)
		return int32(f + math.Copysign(0.5, f))
	}
	return math.MinInt32
}

func refQuantQ8_0(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[34:] {
		x, y := src[:32], dst[:34]
		var amax float32
		if m := refAbsMaxBits(x); m <= 0x7f800000 {
			amax = math.Float32frombits(m)
		} else {
			// MAX(amax, fabsf(v)) restarts after a NaN: it keeps the NaN
			// only when the NaN is the last element.
			for _, v := range x {
				if a := refAbsf(v); !(amax > a) {
					amax = a
				}
			}
		}
		d := refDivx(amax, 127)
		id := refInvOrZero(d)
		binary.LittleEndian.PutUint16(y, refFp32ToFP16(d))
		q := y[2:34]
		for j, v := range x {
			q[j] = byte(refRoundCvtt(float32(v * id)))
		}
	}
}

func refDequantQ8_0(dst []float32, src []byte) {
	for ; len(src) >= 34; src, dst = src[34:], dst[32:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src))
		q, y := src[2:34], dst[:32]
		if refFinite(d) {
			for j, b := range q {
				y[j] = refInt8Float[b] * d
			}
		} else {
			for j, b := range q {
				y[j] = refMulx(float32(int8(b)), d)
			}
		}
	}
}

// refInt8Float is float32(int8(b)) for every byte b.
var refInt8Float = func() (t [256]float32) {
	for b := range t {
		t[b] = float32(int8(b))
	}
	return
}()

func refFinite(x float32) bool { return math.Float32bits(x)&0x7f800000 != 0x7f800000 }

// q4 packs quantize_row_q4_0_ref's MIN(15, (int8_t)v) into the uint8_t it is
// stored as.
func refMinInt8(hi int32, v float32) uint8 {
	return uint8(min(hi, int32(int8(refCvtt(v)))))
}

func refQuantQ4_0(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[18:] {
		x, y := src[:32], dst[:18]
		d := refSignedMax(x) / -8
		id := refInvOrZero(d)
		binary.LittleEndian.PutUint16(y, refFp32ToFP16(d))
		for j := range 16 {
			x0 := refMinInt8(15, float32(x[j]*id)+8.5)
			x1 := refMinInt8(15, float32(x[j+16]*id)+8.5)
			y[2+j] = x0 | x1<<4
		}
	}
}

func refDequantQ4_0(dst []float32, src []byte) {
	for ; len(src) >= 18; src, dst = src[18:], dst[32:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src))
		var p [16]float32
		if refFinite(d) {
			for k := range p {
				p[k] = float32(k-8) * d
			}
		} else {
			for k := range p {
				p[k] = refMulx(float32(k-8), d)
			}
		}
		q, lo, hi := src[2:18], dst[:16], dst[16:32]
		for j, b := range q {
			lo[j] = p[b&15]
			hi[j] = p[b>>4]
		}
	}
}

func refQuantQ4_1(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[20:] {
		x, y := src[:32], dst[:20]
		lo, hi := refMinMax(x)
		d := refDivx(refSubx(hi, lo), 15)
		id := refInvOrZero(d)
		binary.LittleEndian.PutUint16(y, refFp32ToFP16(d))
		binary.LittleEndian.PutUint16(y[2:], refFp32ToFP16(lo))
		for j := range 16 {
			x0 := refMinInt8(15, float32((x[j]-lo)*id)+0.5)
			x1 := refMinInt8(15, float32((x[j+16]-lo)*id)+0.5)
			y[4+j] = x0 | x1<<4
		}
	}
}

// refAffine is ggml's x*d + m for the 4- and 5-bit types with a minimum.
func refAffine(q int, d, m float32) float32 {
	return refAddx(refMulx(float32(q), d), m)
}

func refDequantQ4_1(dst []float32, src []byte) {
	for ; len(src) >= 20; src, dst = src[20:], dst[32:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src))
		m := refFp16ToFP32(binary.LittleEndian.Uint16(src[2:]))
		var p [16]float32
		if refFinite(d) && refFinite(m) {
			for k := range p {
				p[k] = float32(float32(k)*d) + m
			}
		} else {
			for k := range p {
				p[k] = refAffine(k, d, m)
			}
		}
		q, lo, hi := src[4:20], dst[:16], dst[16:32]
		for j, b := range q {
			lo[j] = p[b&15]
			hi[j] = p[b>>4]
		}
	}
}

func refQuantQ5_0(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[22:] {
		x, y := src[:32], dst[:22]
		d := refSignedMax(x) / -16
		id := refInvOrZero(d)
		binary.LittleEndian.PutUint16(y, refFp32ToFP16(d))
		var qh uint32
		for j := range 16 {
			x0 := refMinInt8(31, float32(x[j]*id)+16.5)
			x1 := refMinInt8(31, float32(x[j+16]*id)+16.5)
			y[6+j] = x0&15 | x1&15<<4
			qh |= uint32(x0&0x10)>>4<<j | uint32(x1&0x10)>>4<<(j+16)
		}
		binary.LittleEndian.PutUint32(y[2:], qh)
	}
}

func refDequantQ5_0(dst []float32, src []byte) {
	for ; len(src) >= 22; src, dst = src[22:], dst[32:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src))
		qh := binary.LittleEndian.Uint32(src[2:])
		var p [32]float32
		if refFinite(d) {
			for k := range p {
				p[k] = float32(k-16) * d
			}
		} else {
			for k := range p {
				p[k] = refMulx(float32(k-16), d)
			}
		}
		q, y := src[6:22], dst[:32]
		for j, b := range q {
			y[j] = p[b&15|byte(qh>>j<<4)&0x10]
			y[j+16] = p[b>>4|byte(qh>>(j+12))&0x10]
		}
	}
}

func refQuantQ5_1(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[24:] {
		x, y := src[:32], dst[:24]
		lo, hi := refMinMax(x)
		d := refDivx(refSubx(hi, lo), 31)
		id := refInvOrZero(d)
		binary.LittleEndian.PutUint16(y, refFp32ToFP16(d))
		binary.LittleEndian.PutUint16(y[2:], refFp32ToFP16(lo))
		var qh uint32
		for j := range 16 {
			x0 := uint8(refCvtt(float32((x[j]-lo)*id) + 0.5))
			x1 := uint8(refCvtt(float32((x[j+16]-lo)*id) + 0.5))
			y[8+j] = x0&15 | x1&15<<4
			qh |= uint32(x0&0x10)>>4<<j | uint32(x1&0x10)>>4<<(j+16)
		}
		binary.LittleEndian.PutUint32(y[4:], qh)
	}
}

func refDequantQ5_1(dst []float32, src []byte) {
	for ; len(src) >= 24; src, dst = src[24:], dst[32:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src))
		m := refFp16ToFP32(binary.LittleEndian.Uint16(src[2:]))
		qh := binary.LittleEndian.Uint32(src[4:])
		var p [32]float32
		if refFinite(d) && refFinite(m) {
			for k := range p {
				p[k] = float32(float32(k)*d) + m
			}
		} else {
			for k := range p {
				p[k] = refAffine(k, d, m)
			}
		}
		q, y := src[8:24], dst[:32]
		for j, b := range q {
			y[j] = p[b&15|byte(qh>>j<<4)&0x10]
			y[j+16] = p[b>>4|byte(qh>>(j+12))&0x10]
		}
	}
}

// The K-quants: 256-element super-blocks of 16 or 32-element sub-blocks, each
// sub-block with a scale found by a small search (make_qx_quants,
// make_q3_quants, make_qkx2_quants in ggml-quants.c), the scales quantized
// again against an fp16 super-block scale, and the elements requantized with
// the stored scales. Sums run in the reference's order and every product that
// feeds a sum is rounded on its own (float32(...)), as the x86-64 build,
// which has no FMA, computes them.

const refQkK = 256

const refGroupMaxEps = 1e-15

// refCanonNaN returns x, or for a super-block holding a NaN a copy in buf with
// every NaN replaced by 0x7fc00000. ggml's own result for such a block depends
// on which operand gcc made first in each loop (the same NaN gives a different
// code in the first and the second sub-block of the x86-64 build), so it is
// not reproduced; what stays is that all ports agree: a NaN without payload
// bits makes nearest_int 0 however it propagates, and no NaN reaches a stored
// scale.
func refCanonNaN(x []float32, buf *[refQkK]float32) []float32 {
	if refAbsMaxBits(x) <= 0x7f800000 {
		return x
	}
	for i, v := range x {
		if v != v {
			v = math.Float32frombits(0x7fc00000)
		}
		buf[i] = v
	}
	return buf[:]
}

func refSqrtf(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// refMakeQXQuants is make_qx_quants with rmse_type 1 and no weights (Q6_K).
func refMakeQXQuants(x []float32, nmax int32, L []int8) float32 {
	var mx, amax float32
	for _, v := range x {
		if a := refAbsf(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < refGroupMaxEps {
		clear(L[:len(x)])
		return 0
	}
	fn := float32(nmax)
	iscale := float32(-nmax) / mx
	var sumlx, suml2 float32
	for i, v := range x {
		l := min(max(refNearestIntK(refMulx(iscale, v)), -nmax), nmax-1)
		L[i] = int8(l + nmax)
		w := float32(v * v)
		fl := float32(l)
		sumlx += float32(float32(w*v) * fl)
		suml2 += float32(float32(w*fl) * fl)
	}
	scale := float32(0)
	if suml2 != 0 {
		scale = sumlx / suml2
	}
	best := float32(scale * sumlx)
	for is := -9; is <= 9; is++ {
		if is == 0 {
			continue
		}
		iscale = -(fn + float32(0.1*float32(is))) / mx
		sumlx, suml2 = 0, 0
		for _, v := range x {
			l := min(max(refNearestIntK(refMulx(iscale, v)), -nmax), nmax-1)
			w := float32(v * v)
			fl := float32(l)
			sumlx += float32(float32(w*v) * fl)
			suml2 += float32(float32(w*fl) * fl)
		}
		if suml2 > 0 && float32(sumlx*sumlx) > float32(best*suml2) {
			for i, v := range x {
				l := min(max(refNearestIntK(refMulx(iscale, v)), -nmax), nmax-1)
				L[i] = int8(l + nmax)
			}
			scale = sumlx / suml2
			best = float32(scale * sumlx)
		}
	}
	return scale
}

// refMakeQ3Quants is make_q3_quants with do_rmse (Q3_K).
func refMakeQ3Quants(x []float32, nmax int32, L []int8) float32 {
	var mx, amax float32
	for _, v := range x {
		if a := refAbsf(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < refGroupMaxEps {
		clear(L[:len(x)])
		return 0
	}
	iscale := float32(-nmax) / mx
	var sumlx, suml2 float32
	for i, v := range x {
		l := min(max(refNearestIntK(refMulx(iscale, v)), -nmax), nmax-1)
		L[i] = int8(l)
		w := float32(v * v)
		fl := float32(l)
		sumlx += float32(float32(w*v) * fl)
		suml2 += float32(float32(w*fl) * fl)
	}
	for range 5 {
		changed := false
		for i, v := range x {
			w := float32(v * v)
			li := float32(L[i])
			slx := sumlx - float32(float32(w*v)*li)
			if slx > 0 {
				sl2 := suml2 - float32(float32(w*li)*li)
				nl := min(max(refNearestIntK(refDivx(refMulx(v, sl2), slx)), -nmax), nmax-1)
				if nl != int32(L[i]) {
					fl := float32(nl)
					slx += float32(float32(w*v) * fl)
					sl2 += float32(float32(w*fl) * fl)
					if sl2 > 0 && float32(float32(slx*slx)*suml2) > float32(float32(sumlx*sumlx)*sl2) {
						L[i] = int8(nl)
						sumlx, suml2 = slx, sl2
						changed = true
					}
				}
			}
		}
		if !changed {
			break
		}
	}
	for i := range x {
		L[i] += int8(nmax)
	}
	if suml2 > 0 {
		return sumlx / suml2
	}
	return 0
}

// refMakeQKX2Quants is make_qkx2_quants: an refAffine fit (scale and a minimum at
// or below 0) by a grid search over the inverse scale. It returns the scale
// and -min.
func refMakeQKX2Quants(x, weights []float32, nmax int32, L, Laux []uint8, rmin, rdelta float32, nstep int, useMAD bool) (float32, float32) {
	n := len(x)
	lo, hi := x[0], x[0]
	sumW := weights[0]
	sumX := float32(sumW * x[0])
	for i := 1; i < n; i++ {
		v := x[i]
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
		w := weights[i]
		sumW += w
		sumX += float32(w * v)
	}
	if lo > 0 {
		lo = 0
	}
	if hi == lo {
		clear(L[:n])
		return 0, -lo
	}
	fn := float32(nmax)
	iscale := fn / (hi - lo)
	scale := 1 / iscale
	errOf := func(diff float32) float32 {
		if useMAD {
			return refAbsf(diff)
		}
		return float32(diff * diff)
	}
	var bestErr float32
	for i, v := range x {
		l := min(max(refNearestIntK(refMulx(iscale, refSubx(v, lo))), 0), nmax)
		L[i] = uint8(l)
		diff := float32(scale*float32(l)) + lo - v
		bestErr += float32(weights[i] * errOf(diff))
	}
	for is := 0; is <= nstep; is++ {
		iscale = (rmin + float32(rdelta*float32(is)) + fn) / (hi - lo)
		var sumL, sumL2, sumXL float32
		for i, v := range x {
			l := min(max(refNearestIntK(refMulx(iscale, refSubx(v, lo))), 0), nmax)
			Laux[i] = uint8(l)
			w := weights[i]
			fl := float32(l)
			wl := float32(w * fl)
			sumL += wl
			sumL2 += float32(wl * fl)
			sumXL += float32(wl * v)
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if D > 0 {
			thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
			thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
			if thisMin > 0 {
				thisMin = 0
				thisScale = sumXL / sumL2
			}
			var curErr float32
			for i, v := range x {
				diff := float32(thisScale*float32(Laux[i])) + thisMin - v
				curErr += float32(weights[i] * errOf(diff))
			}
			if curErr < bestErr {
				copy(L[:n], Laux[:n])
				bestErr = curErr
				scale, lo = thisScale, thisMin
			}
		}
	}
	return scale, -lo
}

// refGetScaleMinK4 unpacks the 6-bit scale and minimum j of Q4_K and Q5_K.
func refGetScaleMinK4(j int, q []byte) (uint8, uint8) {
	if j < 4 {
		return q[j] & 63, q[j+4] & 63
	}
	return q[j+4]&0xf | (q[j-4]>>6)<<4, q[j+4]>>4 | (q[j]>>6)<<4
}

// refPack2 stores 2-bit values as Q2_K and Q3_K do: byte l of each 32-byte
// group holds elements l, l+32, l+64 and l+96 of a 128-element half.
func refPack2(qs []byte, L []uint8) {
	for j := 0; j < refQkK; j += 128 {
		for l := range 32 {
			qs[j/4+l] = L[j+l] | L[j+l+32]<<2 | L[j+l+64]<<4 | L[j+l+96]<<6
		}
	}
}

// Q2_K: scales[16] (4-bit scale | 4-bit min), qs[64], d, dmin.

func refQuantQ2_K(dst []byte, src []float32) {
	var nanBuf [refQkK]float32
	var L, Laux [refQkK]uint8
	var weights [16]float32
	var mins, scales [16]float32
	const q4scale = 15
	for ; len(src) >= refQkK; src, dst = src[refQkK:], dst[84:] {
		x, y := refCanonNaN(src[:refQkK], &nanBuf), dst[:84]
		var maxScale, maxMin float32
		for j := range 16 {
			xs := x[16*j : 16*j+16]
			for l, v := range xs {
				weights[l] = refAbsf(v)
			}
			scales[j], mins[j] = refMakeQKX2Quants(xs, weights[:], 3, L[16*j:], Laux[:], -0.5, 0.1, 15, true)
			if scales[j] > maxScale {
				maxScale = scales[j]
			}
			if mins[j] > maxMin {
				maxMin = mins[j]
			}
		}
		sc := y[:16]
		if maxScale > 0 {
			iscale := q4scale / maxScale
			for j := range 16 {
				sc[j] = uint8(refNearestIntK(float32(iscale * scales[j])))
			}
			binary.LittleEndian.PutUint16(y[80:], refFp32ToFP16(maxScale/q4scale))
		} else {
			clear(sc)
			binary.LittleEndian.PutUint16(y[80:], 0)
		}
		if maxMin > 0 {
			iscale := q4scale / maxMin
			for j := range 16 {
				sc[j] |= uint8(refNearestIntK(float32(iscale*mins[j])) << 4)
			}
			binary.LittleEndian.PutUint16(y[82:], refFp32ToFP16(maxMin/q4scale))
		} else {
			binary.LittleEndian.PutUint16(y[82:], 0)
		}
		dAll := refFp16ToFP32(binary.LittleEndian.Uint16(y[80:]))
		mAll := refFp16ToFP32(binary.LittleEndian.Uint16(y[82:]))
		for j := range 16 {
			d := float32(dAll * float32(sc[j]&0xf))
			if d == 0 {
				continue
			}
			dm := float32(mAll * float32(sc[j]>>4))
			for ii := range 16 {
				l := refNearestIntK(refDivx(refAddx(dm, x[16*j+ii]), d))
				L[16*j+ii] = uint8(min(max(l, 0), 3))
			}
		}
		refPack2(y[16:80], L[:])
	}
}

func refDequantQ2_K(dst []float32, src []byte) {
	for ; len(src) >= 84; src, dst = src[84:], dst[refQkK:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src[80:]))
		mn := refFp16ToFP32(binary.LittleEndian.Uint16(src[82:]))
		fin := refFinite(d) && refFinite(mn)
		sc, q := src[:16], src[16:80]
		// Group g of 16 elements: half n = g/8, shift 2*(g/2%4), bytes
		// 32n + 16(g%2) ... +15.
		for g := range 16 {
			n, j, h := g/8, g/2%4, g%2
			s := sc[g]
			dl, ml := refMulx(d, float32(s&0xf)), refMulx(mn, float32(s>>4))
			qq := q[32*n+16*h : 32*n+16*h+16]
			y := dst[16*g : 16*g+16]
			if fin {
				for l, b := range qq {
					y[l] = float32(dl*float32(b>>(2*j)&3)) - ml
				}
			} else {
				for l, b := range qq {
					y[l] = refSubx(refMulx(dl, float32(b>>(2*j)&3)), ml)
				}
			}
		}
	}
}

// Q3_K: hmask[32], qs[64], scales[12] (16 6-bit scales), d.

func refQ3Scale(s []byte, j int) int32 {
	var lo uint8
	if j < 8 {
		lo = s[j] & 0xf
	} else {
		lo = s[j-8] >> 4
	}
	return int32(lo|(s[8+j%4]>>(2*(j/4))&3)<<4) - 32
}

func refQuantQ3_K(dst []byte, src []float32) {
	var nanBuf [refQkK]float32
	var L [refQkK]int8
	var scales [16]float32
	for ; len(src) >= refQkK; src, dst = src[refQkK:], dst[110:] {
		x, y := refCanonNaN(src[:refQkK], &nanBuf), dst[:110]
		var maxScale, amax float32
		for j := range 16 {
			scales[j] = refMakeQ3Quants(x[16*j:16*j+16], 4, L[16*j:])
			if a := refAbsf(scales[j]); a > amax {
				amax, maxScale = a, scales[j]
			}
		}
		hmask, qs, sc := y[:32], y[32:96], y[96:108]
		clear(sc)
		if maxScale != 0 {
			iscale := -32 / maxScale
			for j := range 16 {
				l := int32(int8(refNearestIntK(float32(iscale * scales[j]))))
				l = min(max(l, -32), 31) + 32
				if j < 8 {
					sc[j] = uint8(l & 0xf)
				} else {
					sc[j-8] |= uint8(l&0xf) << 4
				}
				l >>= 4
				sc[j%4+8] |= uint8(l << (2 * (j / 4)))
			}
			binary.LittleEndian.PutUint16(y[108:], refFp32ToFP16(1/iscale))
		} else {
			binary.LittleEndian.PutUint16(y[108:], 0)
		}
		dAll := refFp16ToFP32(binary.LittleEndian.Uint16(y[108:]))
		for j := range 16 {
			d := float32(dAll * float32(refQ3Scale(sc, j)))
			if d == 0 {
				continue
			}
			for ii := range 16 {
				l := refNearestIntK(refDivx(x[16*j+ii], d))
				L[16*j+ii] = int8(min(max(l, -4), 3) + 4)
			}
		}
		clear(hmask)
		var u [refQkK]uint8
		for j := range refQkK {
			if L[j] > 3 {
				hmask[j%32] |= 1 << (j / 32)
				L[j] -= 4
			}
			u[j] = uint8(L[j])
		}
		refPack2(qs, u[:])
	}
}

func refDequantQ3_K(dst []float32, src []byte) {
	for ; len(src) >= 110; src, dst = src[110:], dst[refQkK:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src[108:]))
		hmask, qs, sc := src[:32], src[32:96], src[96:108]
		fin := refFinite(d)
		for g := range 16 {
			n, j, h := g/8, g/2%4, g%2
			dl := refMulx(d, float32(refQ3Scale(sc, g)))
			qq := qs[32*n+16*h : 32*n+16*h+16]
			hm := hmask[16*h : 16*h+16]
			bit := uint8(1) << (4*n + j)
			y := dst[16*g : 16*g+16]
			for l, b := range qq {
				v := int32(b>>(2*j)) & 3
				if hm[l]&bit == 0 {
					v -= 4
				}
				if fin {
					y[l] = dl * float32(v)
				} else {
					y[l] = refMulx(dl, float32(v))
				}
			}
		}
	}
}

// Q4_K and Q5_K: d, dmin, scales[12] (8 6-bit scales and mins), then (Q5_K)
// qh[32] and qs[128].

func refQuantQ45K(x []float32, y []byte, nmax int32, rmin, rdelta float32, nstep int, L []uint8) {
	var Laux [32]uint8
	var weights [32]float32
	var mins, scales [8]float32
	var maxScale, maxMin float32
	for j := range 8 {
		xs := x[32*j : 32*j+32]
		var sumX2 float32
		for _, v := range xs {
			sumX2 += float32(v * v)
		}
		avX := refSqrtf(sumX2 / 32)
		for l, v := range xs {
			weights[l] = avX + refAbsf(v)
		}
		scales[j], mins[j] = refMakeQKX2Quants(xs, weights[:], nmax, L[32*j:], Laux[:], rmin, rdelta, nstep, false)
		if scales[j] > maxScale {
			maxScale = scales[j]
		}
		if mins[j] > maxMin {
			maxMin = mins[j]
		}
	}
	var invScale, invMin float32
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxMin > 0 {
		invMin = 63 / maxMin
	}
	sc := y[4:16]
	for j := range 8 {
		ls := min(uint8(refNearestIntK(float32(invScale*scales[j]))), 63)
		lm := min(uint8(refNearestIntK(float32(invMin*mins[j]))), 63)
		if j < 4 {
			sc[j] = ls
			sc[j+4] = lm
		} else {
			sc[j+4] = ls&0xf | lm&0xf<<4
			sc[j-4] |= ls >> 4 << 6
			sc[j] |= lm >> 4 << 6
		}
	}
	binary.LittleEndian.PutUint16(y, refFp32ToFP16(maxScale/63))
	binary.LittleEndian.PutUint16(y[2:], refFp32ToFP16(maxMin/63))
	dAll := refFp16ToFP32(binary.LittleEndian.Uint16(y))
	mAll := refFp16ToFP32(binary.LittleEndian.Uint16(y[2:]))
	for j := range 8 {
		s, m := refGetScaleMinK4(j, sc)
		d := float32(dAll * float32(s))
		if d == 0 {
			continue
		}
		dm := float32(mAll * float32(m))
		for ii := range 32 {
			l := refNearestIntK(refDivx(refAddx(dm, x[32*j+ii]), d))
			L[32*j+ii] = uint8(min(max(l, 0), nmax))
		}
	}
}

func refQuantQ4_K(dst []byte, src []float32) {
	var L [refQkK]uint8
	var nanBuf [refQkK]float32
	for ; len(src) >= refQkK; src, dst = src[refQkK:], dst[144:] {
		y := dst[:144]
		clear(y[4:16])
		refQuantQ45K(refCanonNaN(src[:refQkK], &nanBuf), y, 15, -1, 0.1, 20, L[:])
		q := y[16:144]
		for j := 0; j < refQkK; j += 64 {
			for l := range 32 {
				q[l] = L[j+l] | L[j+l+32]<<4
			}
			q = q[32:]
		}
	}
}

func refQuantQ5_K(dst []byte, src []float32) {
	var L [refQkK]uint8
	var nanBuf [refQkK]float32
	for ; len(src) >= refQkK; src, dst = src[refQkK:], dst[176:] {
		y := dst[:176]
		clear(y[4:16])
		refQuantQ45K(refCanonNaN(src[:refQkK], &nanBuf), y, 31, -0.5, 0.1, 15, L[:])
		qh, ql := y[16:48], y[48:176]
		clear(qh)
		m1, m2 := uint8(1), uint8(2)
		for n := 0; n < refQkK; n += 64 {
			for j := range 32 {
				l1, l2 := L[n+j], L[n+j+32]
				if l1 > 15 {
					l1 -= 16
					qh[j] |= m1
				}
				if l2 > 15 {
					l2 -= 16
					qh[j] |= m2
				}
				ql[j] = l1 | l2<<4
			}
			m1 <<= 2
			m2 <<= 2
			ql = ql[32:]
		}
	}
}

// refDequantQ45K is dequantize_row_q4_K (qh nil) and dequantize_row_q5_K.
func refDequantQ45K(y []float32, blk []byte, qh, qs []byte) {
	d := refFp16ToFP32(binary.LittleEndian.Uint16(blk))
	mn := refFp16ToFP32(binary.LittleEndian.Uint16(blk[2:]))
	fin := refFinite(d) && refFinite(mn)
	sc := blk[4:16]
	for j := 0; j < 4; j++ {
		for h := range 2 {
			s, m := refGetScaleMinK4(2*j+h, sc)
			dl, ml := refMulx(d, float32(s)), refMulx(mn, float32(m))
			// The 32 values of this group: a table of code*dl - ml.
			var p [32]float32
			for k := range p {
				if fin {
					p[k] = float32(dl*float32(k)) - ml
				} else {
					p[k] = refSubx(refMulx(dl, float32(k)), ml)
				}
			}
			out := y[64*j+32*h : 64*j+32*h+32]
			q := qs[32*j : 32*j+32]
			shift := 4 * h
			if qh == nil {
				for l, b := range q {
					out[l] = p[b>>shift&0xf]
				}
				continue
			}
			hb := qh[:32]
			bit := 2*j + h
			for l, b := range q {
				out[l] = p[b>>shift&0xf|hb[l]>>bit&1<<4]
			}
		}
	}
}

func refDequantQ4_K(dst []float32, src []byte) {
	for ; len(src) >= 144; src, dst = src[144:], dst[refQkK:] {
		refDequantQ45K(dst[:refQkK], src[:144], nil, src[16:144])
	}
}

func refDequantQ5_K(dst []float32, src []byte) {
	for ; len(src) >= 176; src, dst = src[176:], dst[refQkK:] {
		refDequantQ45K(dst[:refQkK], src[:176], src[16:48], src[48:176])
	}
}

// Q6_K: ql[128], qh[64], scales[16] (int8), d.

func refQuantQ6_K(dst []byte, src []float32) {
	var nanBuf [refQkK]float32
	var L [refQkK]int8
	var scales [16]float32
	for ; len(src) >= refQkK; src, dst = src[refQkK:], dst[210:] {
		x, y := refCanonNaN(src[:refQkK], &nanBuf), dst[:210]
		var maxScale, maxAbs float32
		for ib := range 16 {
			s := refMakeQXQuants(x[16*ib:16*ib+16], 32, L[16*ib:])
			scales[ib] = s
			if a := refAbsf(s); a > maxAbs {
				maxAbs, maxScale = a, s
			}
		}
		if maxAbs < refGroupMaxEps {
			clear(y)
			continue
		}
		iscale := -128 / maxScale
		binary.LittleEndian.PutUint16(y[208:], refFp32ToFP16(1/iscale))
		sc := y[192:208]
		for ib := range 16 {
			sc[ib] = uint8(min(refNearestIntK(float32(iscale*scales[ib])), 127))
		}
		dAll := refFp16ToFP32(binary.LittleEndian.Uint16(y[208:]))
		for j := range 16 {
			d := float32(dAll * float32(int8(sc[j])))
			if d == 0 {
				continue
			}
			for ii := range 16 {
				l := refNearestIntK(refDivx(x[16*j+ii], d))
				L[16*j+ii] = int8(min(max(l, -32), 31) + 32)
			}
		}
		ql, qh := y[:128], y[128:192]
		for j := 0; j < refQkK; j += 128 {
			for l := range 32 {
				q1, q2 := uint8(L[j+l])&0xf, uint8(L[j+l+32])&0xf
				q3, q4 := uint8(L[j+l+64])&0xf, uint8(L[j+l+96])&0xf
				ql[l] = q1 | q3<<4
				ql[l+32] = q2 | q4<<4
				qh[l] = uint8(L[j+l])>>4 | uint8(L[j+l+32])>>4<<2 | uint8(L[j+l+64])>>4<<4 | uint8(L[j+l+96])>>4<<6
			}
			ql, qh = ql[64:], qh[32:]
		}
	}
}

func refDequantQ6_K(dst []float32, src []byte) {
	for ; len(src) >= 210; src, dst = src[210:], dst[refQkK:] {
		d := refFp16ToFP32(binary.LittleEndian.Uint16(src[208:]))
		fin := refFinite(d)
		ql, qh, sc := src[:128], src[128:192], src[192:208]
		for n := range 2 {
			for k := range 4 {
				// Quarter k of half n: low nibbles of ql[64n+32(k%2)+l]
				// (high nibbles for k >= 2), 2 bits of qh[32n+l] at 2k.
				qq := ql[64*n+32*(k%2) : 64*n+32*(k%2)+32]
				hh := qh[32*n : 32*n+32]
				shift := 4 * (k / 2)
				for half := range 2 {
					s := float32(int8(sc[8*n+2*k+half]))
					ds := refMulx(d, s)
					y := dst[128*n+32*k+16*half : 128*n+32*k+16*half+16]
					for l := range 16 {
						i := 16*half + l
						v := int32(qq[i]>>shift&0xf|(hh[i]>>(2*k)&3)<<4) - 32
						if fin {
							y[l] = ds * float32(v)
						} else {
							y[l] = refMulx(ds, float32(v))
						}
					}
				}
			}
		}
	}
}

// Q8_K: d (float32), qs[256] (int8), bsums[16] (int16). ggml uses it only as
// the other operand of the K-quant dot products; quantize_row_q8_K_ref leaves
// bsums unwritten for an all-zero block, where this package writes zeros.

func refQuantQ8_K(dst []byte, src []float32) {
	for ; len(src) >= refQkK; src, dst = src[refQkK:], dst[292:] {
		x, y := src[:refQkK], dst[:292]
		var mx, amax float32
		for _, v := range x {
			if a := refAbsf(v); a > amax {
				amax, mx = a, v
			}
		}
		qs := y[4:260]
		if amax == 0 {
			clear(y)
			continue
		}
		iscale := -127 / mx
		for j, v := range x {
			qs[j] = uint8(min(refNearestInt(refMulx(iscale, v)), 127))
		}
		for j := range 16 {
			var sum int32
			for _, q := range qs[16*j : 16*j+16] {
				sum += int32(int8(q))
			}
			binary.LittleEndian.PutUint16(y[260+2*j:], uint16(sum))
		}
		binary.LittleEndian.PutUint32(y, math.Float32bits(1/iscale))
	}
}

func refDequantQ8_K(dst []float32, src []byte) {
	for ; len(src) >= 292; src, dst = src[292:], dst[refQkK:] {
		d := math.Float32frombits(binary.LittleEndian.Uint32(src))
		y := dst[:refQkK]
		if refFinite(d) {
			for j, q := range src[4:260] {
				y[j] = d * refInt8Float[q]
			}
			continue
		}
		for j, q := range src[4:260] {
			y[j] = refMulx(d, float32(int8(q)))
		}
	}
}

// refKvaluesMXFP4 is ggml's kvalues_mxfp4: twice the E2M1 values, so that the
// scales below are half the E8M0 or UE4M3 scale.
var refKvaluesMXFP4 = [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// refBestIndexFP4 is best_index_mxfp4 as written: the first index of least
// fabsf(kvalues[i]*d - x). It is the slow path for blocks with a NaN or an
// infinity (or a scale far below the elements).
func refBestIndexFP4(x, d float32) uint8 {
	best := uint8(0)
	bestErr := refAbsf(float32(float32(refKvaluesMXFP4[0])*d) - x)
	for i := 1; i < 16; i++ {
		if err := refAbsf(float32(float32(refKvaluesMXFP4[i])*d) - x); err < bestErr {
			best, bestErr = uint8(i), err
		}
	}
	return best
}

// refFp4Grid holds the midpoints between neighbouring |kvalues|*d as float32
// bits. In the fast path the element goes to the nearest grid value, a tie to
// the smaller magnitude, and takes its sign from x unless it is 0; this is
// best_index_mxfp4's choice whenever the grid unit (d, or d/8 for a UE4M3
// scale) is at least ulp(x): then every error that could win is computed
// exactly in float32 (it is a multiple of ulp(x) below 2^(exp(x)+1)), every
// other one rounds to more than the error of index 0, which is |x|, and the
// reference's first-index rule breaks ties toward zero, as indices grow with
// magnitude and 0 has index 0.
type refFp4Grid [7]uint32

func refMakeFP4Grid(d float32) refFp4Grid {
	var g refFp4Grid
	for k, m := range [7]float32{0.5, 1.5, 2.5, 3.5, 5, 7, 10} {
		g[k] = math.Float32bits(float32(m * d))
		// A kvalue*d that overflows has an infinite error and never wins:
		// the midpoint below it moves to infinity, above every refFinite x.
		if float32(float32(refKvaluesMXFP4[k+1])*d) > math.MaxFloat32 {
			g[k] = 0x7f800000
		}
	}
	return g
}

// codes writes the fast best_index_mxfp4 of lo[j] (low nibble) and hi[j]
// (high nibble) into q[j], for refFinite, non-NaN elements: the count of
// midpoints strictly below |x|, plus 8 for a negative x off zero. Comparing
// the bits of non-negative floats compares the floats, and (m-u)>>31 is
// u > m because both are below 2^31.
func (g *refFp4Grid) codes(q []byte, lo, hi []float32) {
	g0, g1, g2, g3, g4, g5, g6 := g[0], g[1], g[2], g[3], g[4], g[5], g[6]
	hi = hi[:len(lo)]
	q = q[:len(lo)]
	for j := range lo {
		a, b := math.Float32bits(lo[j]), math.Float32bits(hi[j])
		u, v := a&0x7fffffff, b&0x7fffffff
		i := (g0-u)>>31 + (g1-u)>>31 + (g2-u)>>31 + (g3-u)>>31 + (g4-u)>>31 + (g5-u)>>31 + (g6-u)>>31
		k := (g0-v)>>31 + (g1-v)>>31 + (g2-v)>>31 + (g3-v)>>31 + (g4-v)>>31 + (g5-v)>>31 + (g6-v)>>31
		// 8 for a negative x with a nonzero index: a>>28&8 is the sign,
		// and (0-i)>>28 is 0xf for i > 0, 0 for i = 0.
		i |= a >> 28 & ((0 - i) >> 28) & 8
		k |= b >> 28 & ((0 - k) >> 28) & 8
		q[j] = uint8(i | k<<4)
	}
}

// refMxfp4Exp is quantize_row_mxfp4_ref's scale byte: (uint8_t)(floorf(log2f(amax))
// - 2 + 127) for amax > 0, which wraps for amax below 2^-125 (to 232..255)
// and gives 0 for an infinite amax.
func refMxfp4Exp(amax float32) uint8 {
	switch {
	case !(amax > 0):
		return 0
	case math.IsInf(float64(amax), 1):
		return uint8(refCvtt(float32(math.Inf(1))))
	}
	return uint8(int32(refFloorLog2f(amax) - 2 + 127))
}

func refQuantMXFP4(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[17:] {
		x, y := src[:32], dst[:17]
		m := refAbsMaxBits(x)
		var amax float32
		if m <= 0x7f800000 {
			amax = math.Float32frombits(m)
		} else {
			for _, v := range x {
				if a := refAbsf(v); amax < a {
					amax = a
				}
			}
		}
		e := refMxfp4Exp(amax)
		d := refE8m0Half(e)
		y[0] = e
		q := y[1:17]
		if m < 0x7f800000 {
			g := refMakeFP4Grid(d)
			g.codes(q, x[:16], x[16:32])
		} else {
			for j := range 16 {
				q[j] = refBestIndexFP4(x[j], d) | refBestIndexFP4(x[j+16], d)<<4
			}
		}
	}
}

func refDequantMXFP4(dst []float32, src []byte) {
	for ; len(src) >= 17; src, dst = src[17:], dst[32:] {
		d := refE8m0Half(src[0])
		var p [16]float32
		for k, v := range refKvaluesMXFP4 {
			p[k] = float32(v) * d
		}
		q, y := src[1:17], dst[:32]
		for j, b := range q {
			y[j] = p[b&15]
			y[j+16] = p[b>>4]
		}
	}
}

func refQuantNVFP4(dst []byte, src []float32) {
	for ; len(src) >= 64; src, dst = src[64:], dst[36:] {
		for s := range 4 {
			x := src[16*s : 16*s+16]
			var amax float32
			for _, v := range x {
				if a := refAbsf(v); amax < a {
					amax = a
				}
			}
			ue := refFp32ToUE4M3(amax / 6)
			dst[s] = ue
			d := refUe4m3Half(ue)
			q := dst[4+8*s : 12+8*s]
			m := refAbsMaxBits(x)
			switch {
			case d == 0:
				// Every kvalue*0 is 0: the first index, 0, wins (or all
				// errors are NaN, which also leaves index 0).
				clear(q)
			case m < 0x7f800000 && m < math.Float32bits(d)+(20<<23):
				// The grid unit is d/8 (d has 4 significant bits), and
				// |x| < 2^20 d keeps it at least ulp(x).
				g := refMakeFP4Grid(d)
				g.codes(q, x[:8], x[8:16])
			default:
				for j := range 8 {
					q[j] = refBestIndexFP4(x[j], d) | refBestIndexFP4(x[j+8], d)<<4
				}
			}
		}
	}
}

func refDequantNVFP4(dst []float32, src []byte) {
	for ; len(src) >= 36; src, dst = src[36:], dst[64:] {
		for s := range 4 {
			d := refUe4m3Half(src[s])
			var p [16]float32
			for k, v := range refKvaluesMXFP4 {
				p[k] = float32(v) * d
			}
			q, y := src[4+8*s:12+8*s], dst[16*s:16*s+16]
			for j, b := range q {
				y[j] = p[b&15]
				y[j+8] = p[b>>4]
			}
		}
	}
}
