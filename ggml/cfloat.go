package ggml

import (
	"math"
	"math/bits"
)

// This file holds the C float semantics that ggml's reference code relies on,
// written so that every Go port computes the same bits: each float32 product
// is wrapped in float32(...) so that no port fuses it into an FMA, every
// float-to-integer conversion goes through cvtt (x86's cvttss2si, which is
// what the x86-64 build of ggml executes), and NaNs that reach stored bits are
// made by explicit rules, not by the hardware.

// absf is fabsf.
func absf(x float32) float32 {
	return math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
}

// cvtt is a C conversion from float to a 32-bit or narrower integer as
// x86-64 ggml executes it (cvttss2si): truncation, and 0x80000000 for NaN
// and for values out of int32's range. A cast to int8_t or uint8_t keeps the
// low byte of that.
func cvtt(x float32) int32 {
	if x >= -2147483648 && x < 2147483648 {
		return int32(x)
	}
	return math.MinInt32
}

// roundf rounds half away from zero. For |x| < 2^31 the sum in float64 is
// exact or rounds only below the integer boundary, so truncating it is
// roundf; larger values are integers already.
func roundf(x float32) float32 {
	if absf(x) < 1<<31 {
		return float32(int32(float64(x) + math.Copysign(0.5, float64(x))))
	}
	return x
}

// nearestInt is ggml's nearest_int: add 1.5*2^23 and read the low mantissa
// bits, which rounds half to even for |x| < 2^22 (the range ggml asserts in
// debug builds and its callers stay in). Outside that range it returns what
// the bit trick gives. A NaN argument keeps its payload through the addition
// on x86 (with the quiet bit set), so the result is computed from x's bits.
//
// Those bits must be x86's on every port: a NaN argument must come from the
// data through the software operations (mulx and the like), never from a
// plain float32 operation, whose NaN bits depend on the hardware (x86 makes
// 0xffc00000, arm64 and riscv64 0x7fc00000, MIPS's legacy encoding
// 0x7fbfffff, and MIPS also turns an operand 0x7fc00000, signaling there,
// into 0x7fbfffff). Only Q8_K calls it; the other K-quants use nearestIntK.
func nearestInt(x float32) int32 {
	v := x + 12582912
	b := math.Float32bits(v)
	if x != x {
		b = math.Float32bits(x) | 0x400000
	}
	return int32(b&0x7fffff) - 0x400000
}

// nearestIntK is nearestInt for the Q2_K..Q6_K quantizers, which work on
// canonNaN's copy of the block: there every NaN x86 can meet has no payload
// bits, so nearest_int gives (0x400000 - 0x400000) = 0 for it whatever its
// sign, and so does this for every NaN, without reading its bits. Proof: the
// block's NaNs are 0x7fc00000; an SSE operation returns its first NaN operand
// quieted (the same payload, none) or, from non-NaN operands, 0xffc00000; a
// negation or fabsf changes the sign only; mulx and the like follow the same
// rules in software. On other ports the plain operations make NaNs with other
// bits (MIPS's 0x7fbfffff, which quiet turns into 0x7fffffff), which must
// not be read.
func nearestIntK(x float32) int32 {
	if x != x {
		return 0
	}
	return int32(math.Float32bits(x+12582912)&0x7fffff) - 0x400000
}

// defaultNaN is the NaN x86 makes for an invalid operation (0*inf, inf-inf).
const defaultNaN = 0xffc00000

func isNaN(x float32) bool { return x != x }

func quiet(x float32) float32 {
	return math.Float32frombits(math.Float32bits(x) | 0x400000)
}

// nanRule returns the NaN that SSE returns for an operation with first
// operand a and second b, and ok=false when neither is NaN and r (the IEEE
// result Go computed) is not NaN.
func nanRule(a, b, r float32) (float32, bool) {
	switch {
	case isNaN(a):
		return quiet(a), true
	case isNaN(b):
		return quiet(b), true
	case isNaN(r):
		return math.Float32frombits(defaultNaN), true
	}
	return r, false
}

// mulx, addx, subx and divx are float32 operations with x86's NaN results.
// Use them where a NaN can reach output bits; elsewhere plain Go arithmetic
// gives the same non-NaN results on every port.
func mulx(a, b float32) float32 {
	r := float32(a * b)
	if n, ok := nanRule(a, b, r); ok {
		return n
	}
	return r
}

func addx(a, b float32) float32 {
	r := a + b
	if n, ok := nanRule(a, b, r); ok {
		return n
	}
	return r
}

func subx(a, b float32) float32 {
	r := a - b
	if n, ok := nanRule(a, b, r); ok {
		return n
	}
	return r
}

func divx(a, b float32) float32 {
	r := a / b
	if n, ok := nanRule(a, b, r); ok {
		return n
	}
	return r
}

// fp32ToFP16 is ggml_compute_fp32_to_fp16: round to nearest even, overflow to
// infinity, subnormals kept, every NaN to sign|0x7e00.
func fp32ToFP16(f float32) uint16 {
	w := math.Float32bits(f)
	sign := uint16(w>>16) & 0x8000
	if w<<1 > 0xff000000 {
		return sign | 0x7e00
	}
	// The reference adds a power of two that leaves the fp16 mantissa in the
	// low bits of the float32 sum; the products are exact or overflow.
	base := float32(float32(absf(f)*0x1p112) * 0x1p-110)
	bias := (w << 1) & 0xff000000
	if bias < 0x71000000 {
		bias = 0x71000000
	}
	base = math.Float32frombits(bias>>1+0x07800000) + base
	b := math.Float32bits(base)
	return sign | uint16((b>>13)&0x7c00+b&0x0fff)
}

// fp16ToFP32 is ggml_compute_fp16_to_fp32: exact, and a NaN gets the quiet bit
// (the reference reaches it through a multiplication).
func fp16ToFP32(h uint16) float32 {
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

// fp32ToBF16 is ggml_compute_fp32_to_bf16: nearest even, NaN kept with the
// quiet bit forced.
func fp32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return uint16(u>>16) | 64
	}
	return uint16((u + 0x7fff + (u>>16)&1) >> 16)
}

func bf16ToFP32(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}

// e8m0Half is ggml_e8m0_to_fp32_half: 2^(x-128), with no NaN (0xff is 2^127).
func e8m0Half(x uint8) float32 {
	if x < 2 {
		return math.Float32frombits(0x00200000 << x)
	}
	return math.Float32frombits(uint32(x-1) << 23)
}

// ue4m3Half is ggml_ue4m3_to_fp32: half the UE4M3 value; the sign bit is
// ignored and 0x7f (and 0) decode to zero.
func ue4m3Half(x uint8) float32 {
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

// fp32ToUE4M3 is ggml_fp32_to_ue4m3: the 3-bit mantissa rounded half up (by
// the first dropped bit), values above 448 and exponent overflow to 0x7e,
// non-positive and NaN to 0.
func fp32ToUE4M3(x float32) uint8 {
	if !(x > 0) {
		return 0
	}
	if x > 448 {
		x = 448
	}
	b := math.Float32bits(x)
	e := int(b>>23&0xff) - 127 + 7
	if e <= 0 {
		m := cvtt(float32(x*512) + 0.5)
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

// floorLog2f is floorf(log2f(x)) for finite x > 0 as glibc computes it: the
// exact floor, plus one from the points in log2fUp on, where log2f's
// rounding reaches the next integer.
func floorLog2f(x float32) int {
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
