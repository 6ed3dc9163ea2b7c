package ggml

// The reference: the functions the speed work changed, as they were before
// it (every identifier prefixed with ref), kept verbatim so that the
// differential tests in diff_test.go can prove the optimized code writes the
// same bytes and float bits: the K-quant quantizers with their scale
// searches (make_qx_quants, make_q3_quants, make_qkx2_quants) and every
// dequantizer. What the speed work left as it was (the C float primitives,
// the other quantizers) is the package's own, pinned by the goldens from
// libggml-base; refFuncs points at it.

import (
	"encoding/binary"
	"math"
)

// F32, F16 and BF16: one element per "block".

func refDequantF16(dst []float32, src []byte) {
	t := fp16Table()
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = t[binary.LittleEndian.Uint16(src[2*i:])]
	}
}

func refDequantBF16(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = bf16ToFP32(binary.LittleEndian.Uint16(src[2*i:]))
	}
}

func refDequantQ8_0(dst []float32, src []byte) {
	for ; len(src) >= 34; src, dst = src[34:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		q, y := src[2:34], dst[:32]
		if finite(d) {
			for j, b := range q {
				y[j] = int8Float[b] * d
			}
		} else {
			for j, b := range q {
				y[j] = mulx(float32(int8(b)), d)
			}
		}
	}
}

func refDequantQ4_0(dst []float32, src []byte) {
	for ; len(src) >= 18; src, dst = src[18:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		var p [16]float32
		if finite(d) {
			for k := range p {
				p[k] = float32(k-8) * d
			}
		} else {
			for k := range p {
				p[k] = mulx(float32(k-8), d)
			}
		}
		q, lo, hi := src[2:18], dst[:16], dst[16:32]
		for j, b := range q {
			lo[j] = p[b&15]
			hi[j] = p[b>>4]
		}
	}
}

func refDequantQ4_1(dst []float32, src []byte) {
	for ; len(src) >= 20; src, dst = src[20:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		m := fp16ToFP32(binary.LittleEndian.Uint16(src[2:]))
		var p [16]float32
		if finite(d) && finite(m) {
			for k := range p {
				p[k] = float32(float32(k)*d) + m
			}
		} else {
			for k := range p {
				p[k] = affine(k, d, m)
			}
		}
		q, lo, hi := src[4:20], dst[:16], dst[16:32]
		for j, b := range q {
			lo[j] = p[b&15]
			hi[j] = p[b>>4]
		}
	}
}

func refDequantQ5_0(dst []float32, src []byte) {
	for ; len(src) >= 22; src, dst = src[22:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		qh := binary.LittleEndian.Uint32(src[2:])
		var p [32]float32
		if finite(d) {
			for k := range p {
				p[k] = float32(k-16) * d
			}
		} else {
			for k := range p {
				p[k] = mulx(float32(k-16), d)
			}
		}
		q, y := src[6:22], dst[:32]
		for j, b := range q {
			y[j] = p[b&15|byte(qh>>j<<4)&0x10]
			y[j+16] = p[b>>4|byte(qh>>(j+12))&0x10]
		}
	}
}

func refDequantQ5_1(dst []float32, src []byte) {
	for ; len(src) >= 24; src, dst = src[24:], dst[32:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src))
		m := fp16ToFP32(binary.LittleEndian.Uint16(src[2:]))
		qh := binary.LittleEndian.Uint32(src[4:])
		var p [32]float32
		if finite(d) && finite(m) {
			for k := range p {
				p[k] = float32(float32(k)*d) + m
			}
		} else {
			for k := range p {
				p[k] = affine(k, d, m)
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

// refMakeQXQuants is make_qx_quants with rmse_type 1 and no weights (Q6_K).
func refMakeQXQuants(x []float32, nmax int32, L []int8) float32 {
	var mx, amax float32
	for _, v := range x {
		if a := absf(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < groupMaxEps {
		clear(L[:len(x)])
		return 0
	}
	fn := float32(nmax)
	iscale := float32(-nmax) / mx
	var sumlx, suml2 float32
	for i, v := range x {
		l := min(max(nearestIntK(mulx(iscale, v)), -nmax), nmax-1)
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
			l := min(max(nearestIntK(mulx(iscale, v)), -nmax), nmax-1)
			w := float32(v * v)
			fl := float32(l)
			sumlx += float32(float32(w*v) * fl)
			suml2 += float32(float32(w*fl) * fl)
		}
		if suml2 > 0 && float32(sumlx*sumlx) > float32(best*suml2) {
			for i, v := range x {
				l := min(max(nearestIntK(mulx(iscale, v)), -nmax), nmax-1)
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
		if a := absf(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < groupMaxEps {
		clear(L[:len(x)])
		return 0
	}
	iscale := float32(-nmax) / mx
	var sumlx, suml2 float32
	for i, v := range x {
		l := min(max(nearestIntK(mulx(iscale, v)), -nmax), nmax-1)
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
				nl := min(max(nearestIntK(divx(mulx(v, sl2), slx)), -nmax), nmax-1)
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

// refMakeQKX2Quants is make_qkx2_quants: an affine fit (scale and a minimum at
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
			return absf(diff)
		}
		return float32(diff * diff)
	}
	var bestErr float32
	for i, v := range x {
		l := min(max(nearestIntK(mulx(iscale, subx(v, lo))), 0), nmax)
		L[i] = uint8(l)
		diff := float32(scale*float32(l)) + lo - v
		bestErr += float32(weights[i] * errOf(diff))
	}
	for is := 0; is <= nstep; is++ {
		iscale = (rmin + float32(rdelta*float32(is)) + fn) / (hi - lo)
		var sumL, sumL2, sumXL float32
		for i, v := range x {
			l := min(max(nearestIntK(mulx(iscale, subx(v, lo))), 0), nmax)
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

// Q2_K: scales[16] (4-bit scale | 4-bit min), qs[64], d, dmin.

func refQuantQ2_K(dst []byte, src []float32) {
	var nanBuf [qkK]float32
	var L, Laux [qkK]uint8
	var weights [16]float32
	var mins, scales [16]float32
	const q4scale = 15
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[84:] {
		x, y := canonNaN(src[:qkK], &nanBuf), dst[:84]
		var maxScale, maxMin float32
		for j := range 16 {
			xs := x[16*j : 16*j+16]
			for l, v := range xs {
				weights[l] = absf(v)
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
				sc[j] = uint8(nearestIntK(float32(iscale * scales[j])))
			}
			binary.LittleEndian.PutUint16(y[80:], fp32ToFP16(maxScale/q4scale))
		} else {
			clear(sc)
			binary.LittleEndian.PutUint16(y[80:], 0)
		}
		if maxMin > 0 {
			iscale := q4scale / maxMin
			for j := range 16 {
				sc[j] |= uint8(nearestIntK(float32(iscale*mins[j])) << 4)
			}
			binary.LittleEndian.PutUint16(y[82:], fp32ToFP16(maxMin/q4scale))
		} else {
			binary.LittleEndian.PutUint16(y[82:], 0)
		}
		dAll := fp16ToFP32(binary.LittleEndian.Uint16(y[80:]))
		mAll := fp16ToFP32(binary.LittleEndian.Uint16(y[82:]))
		for j := range 16 {
			d := float32(dAll * float32(sc[j]&0xf))
			if d == 0 {
				continue
			}
			dm := float32(mAll * float32(sc[j]>>4))
			for ii := range 16 {
				l := nearestIntK(divx(addx(dm, x[16*j+ii]), d))
				L[16*j+ii] = uint8(min(max(l, 0), 3))
			}
		}
		pack2(y[16:80], L[:])
	}
}

func refDequantQ2_K(dst []float32, src []byte) {
	for ; len(src) >= 84; src, dst = src[84:], dst[qkK:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src[80:]))
		mn := fp16ToFP32(binary.LittleEndian.Uint16(src[82:]))
		fin := finite(d) && finite(mn)
		sc, q := src[:16], src[16:80]
		// Group g of 16 elements: half n = g/8, shift 2*(g/2%4), bytes
		// 32n + 16(g%2) ... +15.
		for g := range 16 {
			n, j, h := g/8, g/2%4, g%2
			s := sc[g]
			dl, ml := mulx(d, float32(s&0xf)), mulx(mn, float32(s>>4))
			qq := q[32*n+16*h : 32*n+16*h+16]
			y := dst[16*g : 16*g+16]
			if fin {
				for l, b := range qq {
					y[l] = float32(dl*float32(b>>(2*j)&3)) - ml
				}
			} else {
				for l, b := range qq {
					y[l] = subx(mulx(dl, float32(b>>(2*j)&3)), ml)
				}
			}
		}
	}
}

// Q3_K: hmask[32], qs[64], scales[12] (16 6-bit scales), d.

func refQuantQ3_K(dst []byte, src []float32) {
	var nanBuf [qkK]float32
	var L [qkK]int8
	var scales [16]float32
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[110:] {
		x, y := canonNaN(src[:qkK], &nanBuf), dst[:110]
		var maxScale, amax float32
		for j := range 16 {
			scales[j] = refMakeQ3Quants(x[16*j:16*j+16], 4, L[16*j:])
			if a := absf(scales[j]); a > amax {
				amax, maxScale = a, scales[j]
			}
		}
		hmask, qs, sc := y[:32], y[32:96], y[96:108]
		clear(sc)
		if maxScale != 0 {
			iscale := -32 / maxScale
			for j := range 16 {
				l := int32(int8(nearestIntK(float32(iscale * scales[j]))))
				l = min(max(l, -32), 31) + 32
				if j < 8 {
					sc[j] = uint8(l & 0xf)
				} else {
					sc[j-8] |= uint8(l&0xf) << 4
				}
				l >>= 4
				sc[j%4+8] |= uint8(l << (2 * (j / 4)))
			}
			binary.LittleEndian.PutUint16(y[108:], fp32ToFP16(1/iscale))
		} else {
			binary.LittleEndian.PutUint16(y[108:], 0)
		}
		dAll := fp16ToFP32(binary.LittleEndian.Uint16(y[108:]))
		for j := range 16 {
			d := float32(dAll * float32(q3Scale(sc, j)))
			if d == 0 {
				continue
			}
			for ii := range 16 {
				l := nearestIntK(divx(x[16*j+ii], d))
				L[16*j+ii] = int8(min(max(l, -4), 3) + 4)
			}
		}
		clear(hmask)
		var u [qkK]uint8
		for j := range qkK {
			if L[j] > 3 {
				hmask[j%32] |= 1 << (j / 32)
				L[j] -= 4
			}
			u[j] = uint8(L[j])
		}
		pack2(qs, u[:])
	}
}

func refDequantQ3_K(dst []float32, src []byte) {
	for ; len(src) >= 110; src, dst = src[110:], dst[qkK:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src[108:]))
		hmask, qs, sc := src[:32], src[32:96], src[96:108]
		fin := finite(d)
		for g := range 16 {
			n, j, h := g/8, g/2%4, g%2
			dl := mulx(d, float32(q3Scale(sc, g)))
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
					y[l] = mulx(dl, float32(v))
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
		avX := sqrtf(sumX2 / 32)
		for l, v := range xs {
			weights[l] = avX + absf(v)
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
		ls := min(uint8(nearestIntK(float32(invScale*scales[j]))), 63)
		lm := min(uint8(nearestIntK(float32(invMin*mins[j]))), 63)
		if j < 4 {
			sc[j] = ls
			sc[j+4] = lm
		} else {
			sc[j+4] = ls&0xf | lm&0xf<<4
			sc[j-4] |= ls >> 4 << 6
			sc[j] |= lm >> 4 << 6
		}
	}
	binary.LittleEndian.PutUint16(y, fp32ToFP16(maxScale/63))
	binary.LittleEndian.PutUint16(y[2:], fp32ToFP16(maxMin/63))
	dAll := fp16ToFP32(binary.LittleEndian.Uint16(y))
	mAll := fp16ToFP32(binary.LittleEndian.Uint16(y[2:]))
	for j := range 8 {
		s, m := getScaleMinK4(j, sc)
		d := float32(dAll * float32(s))
		if d == 0 {
			continue
		}
		dm := float32(mAll * float32(m))
		for ii := range 32 {
			l := nearestIntK(divx(addx(dm, x[32*j+ii]), d))
			L[32*j+ii] = uint8(min(max(l, 0), nmax))
		}
	}
}

func refQuantQ4_K(dst []byte, src []float32) {
	var L [qkK]uint8
	var nanBuf [qkK]float32
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[144:] {
		y := dst[:144]
		clear(y[4:16])
		refQuantQ45K(canonNaN(src[:qkK], &nanBuf), y, 15, -1, 0.1, 20, L[:])
		q := y[16:144]
		for j := 0; j < qkK; j += 64 {
			for l := range 32 {
				q[l] = L[j+l] | L[j+l+32]<<4
			}
			q = q[32:]
		}
	}
}

func refQuantQ5_K(dst []byte, src []float32) {
	var L [qkK]uint8
	var nanBuf [qkK]float32
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[176:] {
		y := dst[:176]
		clear(y[4:16])
		refQuantQ45K(canonNaN(src[:qkK], &nanBuf), y, 31, -0.5, 0.1, 15, L[:])
		qh, ql := y[16:48], y[48:176]
		clear(qh)
		m1, m2 := uint8(1), uint8(2)
		for n := 0; n < qkK; n += 64 {
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
	d := fp16ToFP32(binary.LittleEndian.Uint16(blk))
	mn := fp16ToFP32(binary.LittleEndian.Uint16(blk[2:]))
	fin := finite(d) && finite(mn)
	sc := blk[4:16]
	for j := 0; j < 4; j++ {
		for h := range 2 {
			s, m := getScaleMinK4(2*j+h, sc)
			dl, ml := mulx(d, float32(s)), mulx(mn, float32(m))
			// The 32 values of this group: a table of code*dl - ml.
			var p [32]float32
			for k := range p {
				if fin {
					p[k] = float32(dl*float32(k)) - ml
				} else {
					p[k] = subx(mulx(dl, float32(k)), ml)
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
	for ; len(src) >= 144; src, dst = src[144:], dst[qkK:] {
		refDequantQ45K(dst[:qkK], src[:144], nil, src[16:144])
	}
}

func refDequantQ5_K(dst []float32, src []byte) {
	for ; len(src) >= 176; src, dst = src[176:], dst[qkK:] {
		refDequantQ45K(dst[:qkK], src[:176], src[16:48], src[48:176])
	}
}

// Q6_K: ql[128], qh[64], scales[16] (int8), d.

func refQuantQ6_K(dst []byte, src []float32) {
	var nanBuf [qkK]float32
	var L [qkK]int8
	var scales [16]float32
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[210:] {
		x, y := canonNaN(src[:qkK], &nanBuf), dst[:210]
		var maxScale, maxAbs float32
		for ib := range 16 {
			s := refMakeQXQuants(x[16*ib:16*ib+16], 32, L[16*ib:])
			scales[ib] = s
			if a := absf(s); a > maxAbs {
				maxAbs, maxScale = a, s
			}
		}
		if maxAbs < groupMaxEps {
			clear(y)
			continue
		}
		iscale := -128 / maxScale
		binary.LittleEndian.PutUint16(y[208:], fp32ToFP16(1/iscale))
		sc := y[192:208]
		for ib := range 16 {
			sc[ib] = uint8(min(nearestIntK(float32(iscale*scales[ib])), 127))
		}
		dAll := fp16ToFP32(binary.LittleEndian.Uint16(y[208:]))
		for j := range 16 {
			d := float32(dAll * float32(int8(sc[j])))
			if d == 0 {
				continue
			}
			for ii := range 16 {
				l := nearestIntK(divx(x[16*j+ii], d))
				L[16*j+ii] = int8(min(max(l, -32), 31) + 32)
			}
		}
		ql, qh := y[:128], y[128:192]
		for j := 0; j < qkK; j += 128 {
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
	for ; len(src) >= 210; src, dst = src[210:], dst[qkK:] {
		d := fp16ToFP32(binary.LittleEndian.Uint16(src[208:]))
		fin := finite(d)
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
					ds := mulx(d, s)
					y := dst[128*n+32*k+16*half : 128*n+32*k+16*half+16]
					for l := range 16 {
						i := 16*half + l
						v := int32(qq[i]>>shift&0xf|(hh[i]>>(2*k)&3)<<4) - 32
						if fin {
							y[l] = ds * float32(v)
						} else {
							y[l] = mulx(ds, float32(v))
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

func refDequantQ8_K(dst []float32, src []byte) {
	for ; len(src) >= 292; src, dst = src[292:], dst[qkK:] {
		d := math.Float32frombits(binary.LittleEndian.Uint32(src))
		y := dst[:qkK]
		if finite(d) {
			for j, q := range src[4:260] {
				y[j] = d * int8Float[q]
			}
			continue
		}
		for j, q := range src[4:260] {
			y[j] = mulx(d, float32(int8(q)))
		}
	}
}

func refDequantMXFP4(dst []float32, src []byte) {
	for ; len(src) >= 17; src, dst = src[17:], dst[32:] {
		d := e8m0Half(src[0])
		var p [16]float32
		for k, v := range kvaluesMXFP4 {
			p[k] = float32(v) * d
		}
		q, y := src[1:17], dst[:32]
		for j, b := range q {
			y[j] = p[b&15]
			y[j+16] = p[b>>4]
		}
	}
}

func refDequantNVFP4(dst []float32, src []byte) {
	for ; len(src) >= 36; src, dst = src[36:], dst[64:] {
		for s := range 4 {
			d := ue4m3Half(src[s])
			var p [16]float32
			for k, v := range kvaluesMXFP4 {
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
