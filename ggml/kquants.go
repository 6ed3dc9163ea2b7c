package ggml

import (
	"encoding/binary"
	"math"
)

// The K-quants: 256-element super-blocks of 16 or 32-element sub-blocks, each
// sub-block with a scale found by a small search (make_qx_quants,
// make_q3_quants, make_qkx2_quants in ggml-quants.c), the scales quantized
// again against an fp16 super-block scale, and the elements requantized with
// the stored scales. Sums run in the reference's order and every product that
// feeds a sum is rounded on its own (float32(...)), as the x86-64 build,
// which has no FMA, computes them.

const qkK = 256

const groupMaxEps = 1e-15

// canonNaN returns x, or for a super-block holding a NaN a copy in buf with
// every NaN replaced by 0x7fc00000. ggml's own result for such a block depends
// on which operand gcc made first in each loop (the same NaN gives a different
// code in the first and the second sub-block of the x86-64 build), so it is
// not reproduced; what stays is that all ports agree: a NaN without payload
// bits makes nearest_int 0 however it propagates, and no NaN reaches a stored
// scale.
func canonNaN(x []float32, buf *[qkK]float32) []float32 {
	if absMaxBits(x) <= 0x7f800000 {
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

func sqrtf(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// max32 is C's if (b > a) a = b.
func max32(a, b float32) float32 {
	if b > a {
		return b
	}
	return a
}

// firstAbsMax is the index of C's loop "if (fabsf(v[j]) > amax) { amax =
// fabsf(v[j]); max = v[j]; }" over 16 values from amax = 0 (-1 when none
// is above it): the first of the largest magnitudes, NaNs never taken. It
// compares magnitudes as bits, which orders them as floats, without
// branches.
func firstAbsMax(v *[16]float32) int {
	var best uint32
	idx := -1
	for j, f := range v {
		a := math.Float32bits(f) &^ (1 << 31)
		if a > 0x7f800000 {
			a = 0 // NaN
		}
		if a > best {
			best, idx = a, j
		}
	}
	return idx
}

// kstate is what the scale search of one K-quant super-block finds: each
// sub-block's scale (and minimum, for Q2_K, Q4_K and Q5_K) and codes. The
// codes are in L, or (from the AVX-512 searches) transposed in t: code ii
// of sub-block j at t[16*ii+off+j].
type kstate struct {
	scales, mins [16]float32
	L            [qkK]uint8
	t            []uint8
	off          int
	sub          int // the sub-blocks' length, 16 or 32
}

// requant sets the codes of each sub-block j whose d[j] is not zero to
// clamp(nearest_int((dm[j] + x)/d[j]), lo, hi) + bias (x/d[j] when dm is
// nil), the last pass of every K-quant, and leaves the others the
// search's codes.
func (s *kstate) requant(x []float32, d, dm *[16]float32, lo, hi, bias int32) {
	n := qkK / s.sub
	if s.t != nil && requantSIMD(s, x, d, dm, lo, hi, bias) {
		for j := range n {
			if d[j] == 0 {
				for ii := range s.sub {
					s.L[s.sub*j+ii] = s.t[16*ii+s.off+j]
				}
			}
		}
		return
	}
	for j := range n {
		if d[j] == 0 {
			continue
		}
		for ii := range s.sub {
			v := x[s.sub*j+ii]
			if dm != nil {
				v = addx(dm[j], v)
			}
			l := nearestIntK(divx(v, d[j]))
			s.L[s.sub*j+ii] = uint8(min(max(l, lo), hi) + bias)
		}
	}
}

// quantKBlocks quantizes the super-blocks of src (size bytes each in dst)
// by search and finish, the two halves of a K-quant quantizer.
func quantKBlocks(dst []byte, src []float32, size, sub int, search func([]float32, *kstate), finish func([]float32, []byte, *kstate)) {
	var nanBuf [qkK]float32
	s := kstate{sub: sub}
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[size:] {
		x := canonNaN(src[:qkK], &nanBuf)
		search(x, &s)
		finish(x, dst[:size], &s)
	}
}

// makeQXQuants is make_qx_quants with rmse_type 1 and no weights (Q6_K).
func makeQXQuants(x []float32, nmax int32, L []uint8) float32 {
	if len(x) == 16 && absMaxBits(x) < 0x7f800000 {
		return makeQXQuantsFast((*[16]float32)(x), nmax, (*[16]uint8)(L[:16]))
	}
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
		L[i] = uint8(l + nmax)
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
				L[i] = uint8(l + nmax)
			}
			scale = sumlx / suml2
			best = float32(scale * sumlx)
		}
	}
	return scale
}

// makeQ3Quants is make_q3_quants with do_rmse (Q3_K).
func makeQ3Quants(x []float32, nmax int32, out []uint8) float32 {
	if len(x) == 16 && absMaxBits(x) < 0x7f800000 {
		return makeQ3QuantsFast((*[16]float32)(x), nmax, (*[16]uint8)(out[:16]))
	}
	var buf [32]int8
	L := buf[:len(x)]
	defer func() {
		for i, l := range L {
			out[i] = uint8(l)
		}
	}()
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

// makeQKX2Quants is make_qkx2_quants: an affine fit (scale and a minimum at
// or below 0) by a grid search over the inverse scale. It returns the scale
// and -min.
func makeQKX2Quants(x, weights []float32, nmax int32, L, Laux []uint8, rmin, rdelta float32, nstep int, useMAD bool) (float32, float32) {
	if absMaxBits(x) < 0x7f800000 {
		return makeQKX2Fast(x, weights, nmax, L, rmin, rdelta, nstep, useMAD)
	}
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

// getScaleMinK4 unpacks the 6-bit scale and minimum j of Q4_K and Q5_K.
func getScaleMinK4(j int, q []byte) (uint8, uint8) {
	if j < 4 {
		return q[j] & 63, q[j+4] & 63
	}
	return q[j+4]&0xf | (q[j-4]>>6)<<4, q[j+4]>>4 | (q[j]>>6)<<4
}

// pack2 stores 2-bit values as Q2_K and Q3_K do: byte l of each 32-byte
// group holds elements l, l+32, l+64 and l+96 of a 128-element half.
func pack2(qs []byte, L []uint8) {
	le := binary.LittleEndian
	for j := 0; j < qkK; j += 128 {
		for l := 0; l < 32; l += 8 {
			// Eight codes of 2 bits from each quarter: no carries.
			le.PutUint64(qs[j/4+l:], le.Uint64(L[j+l:])|le.Uint64(L[j+l+32:])<<2|le.Uint64(L[j+l+64:])<<4|le.Uint64(L[j+l+96:])<<6)
		}
	}
}

// Q2_K: scales[16] (4-bit scale | 4-bit min), qs[64], d, dmin.

func quantQ2_K(dst []byte, src []float32) { quantKBlocks(dst, src, 84, 16, searchQ2_K, finishQ2_K) }

// searchQ2_K is the scale search of one Q2_K super-block.
func searchQ2_K(x []float32, s *kstate) {
	var Laux [16]uint8
	var weights [16]float32
	for j := range 16 {
		xs := x[16*j : 16*j+16]
		for l, v := range xs {
			weights[l] = absf(v)
		}
		s.scales[j], s.mins[j] = makeQKX2Quants(xs, weights[:], 3, s.L[16*j:], Laux[:], -0.5, 0.1, 15, true)
	}
}

// finishQ2_K quantizes the scales and minima the search found and stores the
// super-block.
func finishQ2_K(x []float32, y []byte, s *kstate) {
	const q4scale = 15
	var maxScale, maxMin float32
	for j := range 16 {
		maxScale = max32(maxScale, s.scales[j])
		maxMin = max32(maxMin, s.mins[j])
	}
	sc := y[:16]
	if maxScale > 0 {
		iscale := q4scale / maxScale
		for j := range 16 {
			sc[j] = uint8(nearestIntK(float32(iscale * s.scales[j])))
		}
		binary.LittleEndian.PutUint16(y[80:], fp32ToFP16(maxScale/q4scale))
	} else {
		clear(sc)
		binary.LittleEndian.PutUint16(y[80:], 0)
	}
	if maxMin > 0 {
		iscale := q4scale / maxMin
		for j := range 16 {
			sc[j] |= uint8(nearestIntK(float32(iscale*s.mins[j])) << 4)
		}
		binary.LittleEndian.PutUint16(y[82:], fp32ToFP16(maxMin/q4scale))
	} else {
		binary.LittleEndian.PutUint16(y[82:], 0)
	}
	dAll := fp16ToFP32(binary.LittleEndian.Uint16(y[80:]))
	mAll := fp16ToFP32(binary.LittleEndian.Uint16(y[82:]))
	var d, dm [16]float32
	for j := range 16 {
		d[j] = float32(dAll * float32(sc[j]&0xf))
		dm[j] = float32(mAll * float32(sc[j]>>4))
	}
	s.requant(x, &d, &dm, 0, 3, 0)
	pack2(y[16:80], s.L[:])
}

func dequantQ2_K(dst []float32, src []byte) {
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
				// The 4 values of this group: code*dl - ml.
				// (dl*0 - ml, not -ml: the sign of a zero must be ggml's.)
				k := &kfloat6
				p := [4]float32{float32(dl*k[32]) - ml, float32(dl*k[33]) - ml, float32(dl*k[34]) - ml, float32(dl*k[35]) - ml}
				lut2x16((*[16]float32)(y), (*[16]byte)(qq), uint(2*j), &p)
			} else {
				for l, b := range qq {
					y[l] = subx(mulx(dl, float32(b>>(2*j)&3)), ml)
				}
			}
		}
	}
}

// Q3_K: hmask[32], qs[64], scales[12] (16 6-bit scales), d.

func q3Scale(s []byte, j int) int32 {
	var lo uint8
	if j < 8 {
		lo = s[j] & 0xf
	} else {
		lo = s[j-8] >> 4
	}
	return int32(lo|(s[8+j%4]>>(2*(j/4))&3)<<4) - 32
}

func quantQ3_K(dst []byte, src []float32) { quantKBlocks(dst, src, 110, 16, searchQ3_K, finishQ3_K) }

// searchQ3_K is the scale search of one Q3_K super-block.
func searchQ3_K(x []float32, s *kstate) {
	for j := range 16 {
		s.scales[j] = makeQ3Quants(x[16*j:16*j+16], 4, s.L[16*j:])
	}
}

// finishQ3_K quantizes the scales the search found and stores the
// super-block.
func finishQ3_K(x []float32, y []byte, s *kstate) {
	var maxScale float32
	if j := firstAbsMax(&s.scales); j >= 0 {
		maxScale = s.scales[j]
	}
	hmask, qs, sc := y[:32], y[32:96], y[96:108]
	clear(sc)
	var ls [16]int32 // the 6-bit scales as stored (q3Scale(sc, j) + 32)
	if maxScale != 0 {
		iscale := -32 / maxScale
		for j := range 16 {
			l := int32(int8(nearestIntK(float32(iscale * s.scales[j]))))
			l = min(max(l, -32), 31) + 32
			ls[j] = l
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
	var d [16]float32
	for j := range 16 {
		d[j] = float32(dAll * float32(ls[j]-32))
	}
	s.requant(x, &d, nil, -4, 3, 4)
	// Codes 4..7 set their bit of hmask and keep their low 2 bits: eight
	// bytes at a time.
	L := &s.L
	clear(hmask)
	for m := range 8 {
		for l := 0; l < 32; l += 8 {
			v := binary.LittleEndian.Uint64(L[32*m+l:])
			h := binary.LittleEndian.Uint64(hmask[l:])
			binary.LittleEndian.PutUint64(hmask[l:], h|(v>>2&0x0101010101010101)<<m)
			binary.LittleEndian.PutUint64(L[32*m+l:], v&0x0303030303030303)
		}
	}
	pack2(qs, L[:])
}

func dequantQ3_K(dst []float32, src []byte) {
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
			if fin {
				q3x16((*[16]float32)(y), (*[16]byte)(qq), (*[16]byte)(hm), uint(2*j), uint(4*n+j), dl)
				continue
			}
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

// searchQ45K is the scale search of one Q4_K (nmax 15, rmin -1, nstep 20)
// or Q5_K (31, -0.5, 15) super-block.
func searchQ45K(x []float32, s *kstate, nmax int32, rmin float32, nstep int) {
	var Laux [32]uint8
	var weights [32]float32
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
		s.scales[j], s.mins[j] = makeQKX2Quants(xs, weights[:], nmax, s.L[32*j:], Laux[:], rmin, 0.1, nstep, false)
	}
}

// finishQ45K quantizes the scales and minima the search found and requantizes
// the codes (to s.L) of a Q4_K or Q5_K super-block, storing y's d, dmin and
// scales.
func finishQ45K(x []float32, y []byte, s *kstate, nmax int32) {
	var maxScale, maxMin float32
	for j := range 8 {
		maxScale = max32(maxScale, s.scales[j])
		maxMin = max32(maxMin, s.mins[j])
	}
	var invScale, invMin float32
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxMin > 0 {
		invMin = 63 / maxMin
	}
	sc := y[4:16]
	clear(sc)
	for j := range 8 {
		ls := min(uint8(nearestIntK(float32(invScale*s.scales[j]))), 63)
		lm := min(uint8(nearestIntK(float32(invMin*s.mins[j]))), 63)
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
	var d, dm [16]float32
	for j := range 8 {
		s, m := getScaleMinK4(j, sc)
		d[j] = float32(dAll * float32(s))
		dm[j] = float32(mAll * float32(m))
	}
	s.requant(x, &d, &dm, 0, nmax, 0)
}

func searchQ4_K(x []float32, s *kstate) { searchQ45K(x, s, 15, -1, 20) }
func searchQ5_K(x []float32, s *kstate) { searchQ45K(x, s, 31, -0.5, 15) }

func quantQ4_K(dst []byte, src []float32) { quantKBlocks(dst, src, 144, 32, searchQ4_K, finishQ4_K) }

func finishQ4_K(x []float32, y []byte, s *kstate) {
	finishQ45K(x, y, s, 15)
	L, q := &s.L, y[16:144]
	for j := 0; j < qkK; j += 64 {
		for l := range 32 {
			q[l] = L[j+l] | L[j+l+32]<<4
		}
		q = q[32:]
	}
}

func quantQ5_K(dst []byte, src []float32) { quantKBlocks(dst, src, 176, 32, searchQ5_K, finishQ5_K) }

func finishQ5_K(x []float32, y []byte, s *kstate) {
	finishQ45K(x, y, s, 31)
	L, qh, ql := &s.L, y[16:48], y[48:176]
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

// dequantQ45K is dequantize_row_q4_K (qh nil) and dequantize_row_q5_K.
func dequantQ45K(y []float32, blk []byte, qh, qs []byte) {
	d := fp16ToFP32(binary.LittleEndian.Uint16(blk))
	mn := fp16ToFP32(binary.LittleEndian.Uint16(blk[2:]))
	fin := finite(d) && finite(mn)
	sc := blk[4:16]
	for j := 0; j < 4; j++ {
		for h := range 2 {
			s, m := getScaleMinK4(2*j+h, sc)
			dl, ml := mulx(d, float32(s)), mulx(mn, float32(m))
			// The 16 or 32 values of this group: a table of code*dl - ml.
			var p [32]float32
			np := 32
			if qh == nil {
				np = 16
			}
			if fin {
				for k := range np {
					p[k] = float32(dl*kfloat6[32+k]) - ml
				}
			} else {
				for k := range np {
					p[k] = subx(mulx(dl, float32(k)), ml)
				}
			}
			out := (*[32]float32)(y[64*j+32*h : 64*j+32*h+32])
			q := (*[32]byte)(qs[32*j : 32*j+32])
			if qh == nil {
				lut4s32(out, q, uint(4*h), (*[16]float32)(p[:16]))
				continue
			}
			lut5s32(out, q, (*[32]byte)(qh[:32]), uint(4*h), uint(2*j+h), &p)
		}
	}
}

func dequantQ4_K(dst []float32, src []byte) {
	for ; len(src) >= 144; src, dst = src[144:], dst[qkK:] {
		dequantQ45K(dst[:qkK], src[:144], nil, src[16:144])
	}
}

func dequantQ5_K(dst []float32, src []byte) {
	for ; len(src) >= 176; src, dst = src[176:], dst[qkK:] {
		dequantQ45K(dst[:qkK], src[:176], src[16:48], src[48:176])
	}
}

// Q6_K: ql[128], qh[64], scales[16] (int8), d.

func quantQ6_K(dst []byte, src []float32) { quantKBlocks(dst, src, 210, 16, searchQ6_K, finishQ6_K) }

// searchQ6_K is the scale search of one Q6_K super-block.
func searchQ6_K(x []float32, s *kstate) {
	for j := range 16 {
		s.scales[j] = makeQXQuants(x[16*j:16*j+16], 32, s.L[16*j:])
	}
}

// finishQ6_K quantizes the scales the search found and stores the
// super-block.
func finishQ6_K(x []float32, y []byte, s *kstate) {
	var maxScale, maxAbs float32
	for j := range 16 {
		if a := absf(s.scales[j]); a > maxAbs {
			maxAbs, maxScale = a, s.scales[j]
		}
	}
	if maxAbs < groupMaxEps {
		clear(y)
		return
	}
	iscale := -128 / maxScale
	binary.LittleEndian.PutUint16(y[208:], fp32ToFP16(1/iscale))
	sc := y[192:208]
	for j := range 16 {
		sc[j] = uint8(min(nearestIntK(float32(iscale*s.scales[j])), 127))
	}
	dAll := fp16ToFP32(binary.LittleEndian.Uint16(y[208:]))
	var d [16]float32
	for j := range 16 {
		d[j] = float32(dAll * float32(int8(sc[j])))
	}
	s.requant(x, &d, nil, -32, 31, 32)
	L := &s.L
	ql, qh := y[:128], y[128:192]
	for j := 0; j < qkK; j += 128 {
		for l := range 32 {
			q1, q2 := L[j+l]&0xf, L[j+l+32]&0xf
			q3, q4 := L[j+l+64]&0xf, L[j+l+96]&0xf
			ql[l] = q1 | q3<<4
			ql[l+32] = q2 | q4<<4
			qh[l] = L[j+l]>>4 | L[j+l+32]>>4<<2 | L[j+l+64]>>4<<4 | L[j+l+96]>>4<<6
		}
		ql, qh = ql[64:], qh[32:]
	}
}

func dequantQ6_K(dst []float32, src []byte) {
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
					if fin {
						q6x16((*[16]float32)(y), (*[16]byte)(qq[16*half:16*half+16]), (*[16]byte)(hh[16*half:16*half+16]), uint(shift), uint(2*k), ds)
						continue
					}
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

func quantQ8_K(dst []byte, src []float32) {
	for ; len(src) >= qkK; src, dst = src[qkK:], dst[292:] {
		x, y := src[:qkK], dst[:292]
		var mx, amax float32
		for _, v := range x {
			if a := absf(v); a > amax {
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
			qs[j] = uint8(min(nearestInt(mulx(iscale, v)), 127))
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

func dequantQ8_K(dst []float32, src []byte) {
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
