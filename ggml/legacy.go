package ggml

import (
	"encoding/binary"
	"math"
	"sync"
	"unsafe"

	"github.com/clconv/clconv/internal/byteorder"
)

// F32, F16 and BF16: one element per "block".

// F32 is a copy in little-endian byte order.

func quantF32(dst []byte, src []float32) {
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

func dequantF32(dst []float32, src []byte) {
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

func quantF16(dst []byte, src []float32) {
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], fp32ToFP16(v))
	}
}

// fp16Table holds fp16ToFP32 of every fp16, for the F16 rows.
var fp16Table = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		t[h] = fp16ToFP32(uint16(h))
	}
	return &t
})

func dequantF16(dst []float32, src []byte) {
	t := fp16Table()
	src = src[:2*len(dst)]
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		s := (*[16]byte)(src[2*i : 2*i+16])
		w, v := binary.LittleEndian.Uint64(s[:8]), binary.LittleEndian.Uint64(s[8:])
		d := (*[8]float32)(dst[i : i+8])
		d[0] = t[uint16(w)]
		d[1] = t[uint16(w>>16)]
		d[2] = t[uint16(w>>32)]
		d[3] = t[uint16(w>>48)]
		d[4] = t[uint16(v)]
		d[5] = t[uint16(v>>16)]
		d[6] = t[uint16(v>>32)]
		d[7] = t[uint16(v>>48)]
	}
	for ; i < len(dst); i++ {
		dst[i] = t[binary.LittleEndian.Uint16(src[2*i:])]
	}
}

func quantBF16(dst []byte, src []float32) {
	for i, v := range src {
		binary.LittleEndian.PutUint16(dst[2*i:], fp32ToBF16(v))
	}
}

func dequantBF16(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	i := 0
	for ; i+8 <= len(dst); i += 8 {
		s := (*[16]byte)(src[2*i : 2*i+16])
		w, v := binary.LittleEndian.Uint64(s[:8]), binary.LittleEndian.Uint64(s[8:])
		d := (*[8]float32)(dst[i : i+8])
		d[0] = math.Float32frombits(uint32(w) << 16)
		d[1] = math.Float32frombits(uint32(w) &^ 0xffff)
		d[2] = math.Float32frombits(uint32(w>>32) << 16)
		d[3] = math.Float32frombits(uint32(w>>32) &^ 0xffff)
		d[4] = math.Float32frombits(uint32(v) << 16)
		d[5] = math.Float32frombits(uint32(v) &^ 0xffff)
		d[6] = math.Float32frombits(uint32(v>>32) << 16)
		d[7] = math.Float32frombits(uint32(v>>32) &^ 0xffff)
	}
	for ; i < len(dst); i++ {
		dst[i] = bf16ToFP32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

// absMaxBits returns the largest |x| of a block as bits: above 0x7f800000
// when the block holds a NaN, 0x7f800000 for an infinity. For a block without
// NaN it is the amax of ggml's loops, whichever form of max they use.
func absMaxBits(x []float32) uint32 {
	var m uint32
	for _, v := range x {
		m = max(m, math.Float32bits(v)&0x7fffffff)
	}
	return m
}

// signedMax is the loop of quantize_row_q4_0_ref and q5_0: the element of
// largest magnitude, the first of equals, never a NaN.
func signedMax(x []float32) float32 {
	var amax, mx float32
	for _, v := range x {
		if a := absf(v); amax < a {
			amax, mx = a, v
		}
	}
	return mx
}

// minMax is the loop of quantize_row_q4_1_ref and q5_1.
func minMax(x []float32) (lo, hi float32) {
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

// invOrZero is `d ? 1.0f/d : 0.0f`.
func invOrZero(d float32) float32 {
	if d != 0 {
		return divx(1, d)
	}
	return 0
}

// roundCvtt is cvtt(roundf(x)).
func roundCvtt(x float32) int32 {
	if absf(x) < 1<<31 {
		f := float64(x)
		return int32(f + math.Copysign(0.5, f))
	}
	return math.MinInt32
}

func quantQ8_0(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[34:] {
		x, y := src[:32], dst[:34]
		var amax float32
		if m := absMaxBits(x); m <= 0x7f800000 {
			amax = math.Float32frombits(m)
		} else {
			// MAX(amax, fabsf(v)) restarts after a NaN: it keeps the NaN
			// only when the NaN is the last element.
			for _, v := range x {
				if a := absf(v); !(amax > a) {
					amax = a
				}
			}
		}
		d := divx(amax, 127)
		id := invOrZero(d)
		binary.LittleEndian.PutUint16(y, fp32ToFP16(d))
		q := y[2:34]
		for j, v := range x {
			q[j] = byte(roundCvtt(float32(v * id)))
		}
	}
}

func dequantQ8_0(dst []float32, src []byte) {
	for ; len(src) >= 34; src, dst = src[34:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		q, y := src[2:34], dst[:32]
		if finite(d) {
			for j := 0; j < 32; j += 8 {
				w := binary.LittleEndian.Uint64(q[j:])
				yy := y[j : j+8 : j+8]
				yy[0] = int8Float[uint8(w)] * d
				yy[1] = int8Float[uint8(w>>8)] * d
				yy[2] = int8Float[uint8(w>>16)] * d
				yy[3] = int8Float[uint8(w>>24)] * d
				yy[4] = int8Float[uint8(w>>32)] * d
				yy[5] = int8Float[uint8(w>>40)] * d
				yy[6] = int8Float[uint8(w>>48)] * d
				yy[7] = int8Float[uint8(w>>56)] * d
			}
		} else {
			for j, b := range q {
				y[j] = mulx(float32(int8(b)), d)
			}
		}
	}
}

// int8Float is float32(int8(b)) for every byte b.
var int8Float = func() (t [256]float32) {
	for b := range t {
		t[b] = float32(int8(b))
	}
	return
}()

func finite(x float32) bool { return math.Float32bits(x)&0x7f800000 != 0x7f800000 }

// q4 packs quantize_row_q4_0_ref's MIN(15, (int8_t)v) into the uint8_t it is
// stored as.
func minInt8(hi int32, v float32) uint8 {
	return uint8(min(hi, int32(int8(cvtt(v)))))
}

func quantQ4_0(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[18:] {
		x, y := src[:32], dst[:18]
		d := signedMax(x) / -8
		id := invOrZero(d)
		binary.LittleEndian.PutUint16(y, fp32ToFP16(d))
		for j := range 16 {
			x0 := minInt8(15, float32(x[j]*id)+8.5)
			x1 := minInt8(15, float32(x[j+16]*id)+8.5)
			y[2+j] = x0 | x1<<4
		}
	}
}

func dequantQ4_0(dst []float32, src []byte) {
	for ; len(src) >= 18; src, dst = src[18:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		var p [16]float32
		if finite(d) {
			kf := &kfloat6 // kf[32+k] is float32(k), exactly
			for k := range p {
				p[k] = kf[24+k] * d
			}
		} else {
			for k := range p {
				p[k] = mulx(float32(k-8), d)
			}
		}
		lut4x32((*[32]float32)(dst[:32]), (*[16]byte)(src[2:18]), &p)
	}
}

func quantQ4_1(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[20:] {
		x, y := src[:32], dst[:20]
		lo, hi := minMax(x)
		d := divx(subx(hi, lo), 15)
		id := invOrZero(d)
		binary.LittleEndian.PutUint16(y, fp32ToFP16(d))
		binary.LittleEndian.PutUint16(y[2:], fp32ToFP16(lo))
		for j := range 16 {
			x0 := minInt8(15, float32((x[j]-lo)*id)+0.5)
			x1 := minInt8(15, float32((x[j+16]-lo)*id)+0.5)
			y[4+j] = x0 | x1<<4
		}
	}
}

// affine is ggml's x*d + m for the 4- and 5-bit types with a minimum.
func affine(q int, d, m float32) float32 {
	return addx(mulx(float32(q), d), m)
}

func dequantQ4_1(dst []float32, src []byte) {
	for ; len(src) >= 20; src, dst = src[20:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		m := fp16ToFP32(binary.LittleEndian.Uint16(src[2:]))
		var p [16]float32
		if finite(d) && finite(m) {
			kf := &kfloat6 // kf[32+k] is float32(k), exactly
			for k := range p {
				p[k] = float32(kf[32+k]*d) + m
			}
		} else {
			for k := range p {
				p[k] = affine(k, d, m)
			}
		}
		lut4x32((*[32]float32)(dst[:32]), (*[16]byte)(src[4:20]), &p)
	}
}

func quantQ5_0(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[22:] {
		x, y := src[:32], dst[:22]
		d := signedMax(x) / -16
		id := invOrZero(d)
		binary.LittleEndian.PutUint16(y, fp32ToFP16(d))
		var qh uint32
		for j := range 16 {
			x0 := minInt8(31, float32(x[j]*id)+16.5)
			x1 := minInt8(31, float32(x[j+16]*id)+16.5)
			y[6+j] = x0&15 | x1&15<<4
			qh |= uint32(x0&0x10)>>4<<j | uint32(x1&0x10)>>4<<(j+16)
		}
		binary.LittleEndian.PutUint32(y[2:], qh)
	}
}

func dequantQ5_0(dst []float32, src []byte) {
	for ; len(src) >= 22; src, dst = src[22:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		qh := binary.LittleEndian.Uint32(src[2:])
		var p [32]float32
		if finite(d) {
			kf := &kfloat6 // kf[32+k] is float32(k), exactly
			for k := range p {
				p[k] = kf[16+k] * d
			}
		} else {
			for k := range p {
				p[k] = mulx(float32(k-16), d)
			}
		}
		lut5x32((*[32]float32)(dst[:32]), (*[16]byte)(src[6:22]), qh, &p)
	}
}

func quantQ5_1(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[24:] {
		x, y := src[:32], dst[:24]
		lo, hi := minMax(x)
		d := divx(subx(hi, lo), 31)
		id := invOrZero(d)
		binary.LittleEndian.PutUint16(y, fp32ToFP16(d))
		binary.LittleEndian.PutUint16(y[2:], fp32ToFP16(lo))
		var qh uint32
		for j := range 16 {
			x0 := uint8(cvtt(float32((x[j]-lo)*id) + 0.5))
			x1 := uint8(cvtt(float32((x[j+16]-lo)*id) + 0.5))
			y[8+j] = x0&15 | x1&15<<4
			qh |= uint32(x0&0x10)>>4<<j | uint32(x1&0x10)>>4<<(j+16)
		}
		binary.LittleEndian.PutUint32(y[4:], qh)
	}
}

func dequantQ5_1(dst []float32, src []byte) {
	for ; len(src) >= 24; src, dst = src[24:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		m := fp16ToFP32(binary.LittleEndian.Uint16(src[2:]))
		qh := binary.LittleEndian.Uint32(src[4:])
		var p [32]float32
		if finite(d) && finite(m) {
			kf := &kfloat6 // kf[32+k] is float32(k), exactly
			for k := range p {
				p[k] = float32(kf[32+k]*d) + m
			}
		} else {
			for k := range p {
				p[k] = affine(k, d, m)
			}
		}
		lut5x32((*[32]float32)(dst[:32]), (*[16]byte)(src[8:24]), qh, &p)
	}
}
