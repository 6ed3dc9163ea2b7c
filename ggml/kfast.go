package ggml

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Fast paths of the K-quant scale searches for sub-blocks whose elements are
// all finite. They compute the same float32 operations in the same order as
// the general versions in kquants.go (so the same bits on every port) and
// differ only in what they can skip:
//
//   - mulx, subx, divx and addx become plain operations where the result only
//     feeds nearest_int. With finite inputs every NaN that can arise comes
//     from an invalid operation (0*inf, inf-inf, inf/inf) and has no payload
//     bits on x86, whatever its sign, and nearest_int of such a NaN is 0, which
//     ni returns for every NaN (as nearestIntK does) without reading its bits.
//   - A candidate scale whose vector of codes equals that of the candidate
//     evaluated just before it is skipped. Every quantity a candidate computes
//     (sums, scale, minimum, error) is a function of x, the weights and its
//     codes alone, so it reproduces the previous evaluation exactly. If that
//     one was adopted, adopting this one would store the same codes and the
//     same scale, minimum and best error (and in make_qkx2_quants the strict
//     curErr < bestErr fails outright); if it was not adopted, nothing has
//     changed since, and the same comparison fails again. The reference's
//     initial guess counts as the evaluation before the first candidate in
//     make_qx_quants, whose test and update are the same function of the sums.
//   - make_qkx2_quants' error sum stops as soon as the partial sum reaches the
//     best error: every term w*|diff| or w*diff*diff is >= +0 or NaN (w >= 0),
//     adding a non-negative float32 never lowers a sum under round to nearest,
//     and a NaN makes the total NaN; either way curErr < bestErr is false.

// ni is nearestIntK. With finite elements a NaN here comes from an invalid
// operation (0*inf, inf-inf, inf/inf after an overflow), which x86 makes
// 0xffc00000, whose nearest_int is 0; the bits other ports give it (MIPS's
// 0x7fbfffff would read as -1) are not read.
func ni(x float32) int32 {
	if x != x {
		return 0
	}
	return int32(math.Float32bits(x+12582912)&0x7fffff) - 0x400000
}

// makeQKX2Fast is makeQKX2Quants for finite x (len(x) <= 32).
func makeQKX2Fast(x, weights []float32, nmax int32, L []uint8, rmin, rdelta float32, nstep int, useMAD bool) (float32, float32) {
	n := len(x)
	weights = weights[:n]
	L = L[:n]
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
		clear(L)
		return 0, -lo
	}
	var dvA [32]float32
	dv := dvA[:n]
	for i, v := range x {
		dv[i] = v - lo
	}
	fn := float32(nmax)
	rg := hi - lo
	iscale := fn / rg
	scale := 1 / iscale
	var bestErr float32
	if useMAD {
		for i, v := range x {
			l := min(max(ni(float32(iscale*dv[i])), 0), nmax)
			L[i] = uint8(l)
			diff := float32(scale*float32(l)) + lo - v
			bestErr += float32(weights[i] * absf(diff))
		}
	} else {
		for i, v := range x {
			l := min(max(ni(float32(iscale*dv[i])), 0), nmax)
			L[i] = uint8(l)
			diff := float32(scale*float32(l)) + lo - v
			bestErr += float32(weights[i] * float32(diff*diff))
		}
	}
	var auxA, prev [32]uint8
	aux := auxA[:n]
	// pL, pL2 and pXL hold the partial sums before each element for the
	// codes in prev: a candidate whose codes first differ at f starts its
	// sums there, as sequential float32 sums over equal terms are equal.
	var pL, pL2, pXL [32]float32
	havePrev := false
	for is := 0; is <= nstep; is++ {
		iscale = (rmin + float32(rdelta*float32(is)) + fn) / rg
		for i := range aux {
			aux[i] = uint8(min(max(ni(float32(iscale*dv[i])), 0), nmax))
		}
		f := 0
		if havePrev {
			f = firstDiff(&auxA, &prev)
			if f >= n {
				continue
			}
		}
		prev, havePrev = auxA, true
		sumL, sumL2, sumXL := pL[f], pL2[f], pXL[f]
		for i := f; i < n; i++ {
			pL[i], pL2[i], pXL[i] = sumL, sumL2, sumXL
			fl := float32(aux[i])
			wl := float32(weights[i] * fl)
			sumL += wl
			sumL2 += float32(wl * fl)
			sumXL += float32(wl * x[i])
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if !(D > 0) {
			continue
		}
		thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
		thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
		if thisMin > 0 {
			thisMin = 0
			thisScale = sumXL / sumL2
		}
		var curErr float32
		done := true
		if useMAD {
			for i, v := range x {
				diff := float32(thisScale*float32(aux[i])) + thisMin - v
				curErr += float32(weights[i] * absf(diff))
				if curErr >= bestErr {
					done = false
					break
				}
			}
		} else {
			for i, v := range x {
				diff := float32(thisScale*float32(aux[i])) + thisMin - v
				curErr += float32(weights[i] * float32(diff*diff))
				if curErr >= bestErr {
					done = false
					break
				}
			}
		}
		if done && curErr < bestErr {
			copy(L, aux)
			bestErr = curErr
			scale, lo = thisScale, thisMin
			// The reference's later candidates use the new minimum.
			rg = hi - lo
			for i, v := range x {
				dv[i] = v - lo
			}
		}
	}
	return scale, -lo
}

// makeQXQuantsFast is makeQXQuants for 16 finite elements.
func makeQXQuantsFast(x *[16]float32, nmax int32, L *[16]uint8) float32 {
	var mx, amax float32
	for _, v := range x {
		if a := absf(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < groupMaxEps {
		clear(L[:])
		return 0
	}
	var w, wv [16]float32
	for i, v := range x {
		w[i] = float32(v * v)
		wv[i] = float32(w[i] * v)
	}
	fn := float32(nmax)
	iscale := float32(-nmax) / mx
	var cur [16]int8
	var sumlx, suml2 float32
	for i, v := range x {
		l := min(max(ni(float32(iscale*v)), -nmax), nmax-1)
		cur[i] = int8(l)
		fl := float32(l)
		sumlx += float32(wv[i] * fl)
		suml2 += float32(float32(w[i]*fl) * fl)
	}
	scale := float32(0)
	if suml2 != 0 {
		scale = sumlx / suml2
	}
	best := float32(scale * sumlx)
	bestL, prev := cur, cur
	for is := -9; is <= 9; is++ {
		if is == 0 {
			continue
		}
		iscale = -(fn + float32(0.1*float32(is))) / mx
		for i, v := range x {
			cur[i] = int8(min(max(ni(float32(iscale*v)), -nmax), nmax-1))
		}
		if cur == prev {
			continue
		}
		prev = cur
		sumlx, suml2 = 0, 0
		for i := range x {
			fl := float32(cur[i])
			sumlx += float32(wv[i] * fl)
			suml2 += float32(float32(w[i]*fl) * fl)
		}
		if suml2 > 0 && float32(sumlx*sumlx) > float32(best*suml2) {
			bestL = cur
			scale = sumlx / suml2
			best = float32(scale * sumlx)
		}
	}
	for i, l := range bestL {
		L[i] = uint8(l + int8(nmax))
	}
	return scale
}

// makeQ3QuantsFast is makeQ3Quants for 16 finite elements.
func makeQ3QuantsFast(x *[16]float32, nmax int32, out *[16]uint8) float32 {
	var L [16]int8
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
		clear(L[:])
		return 0
	}
	var w, wv [16]float32
	for i, v := range x {
		w[i] = float32(v * v)
		wv[i] = float32(w[i] * v)
	}
	iscale := float32(-nmax) / mx
	var sumlx, suml2 float32
	for i, v := range x {
		l := min(max(ni(float32(iscale*v)), -nmax), nmax-1)
		L[i] = int8(l)
		fl := float32(l)
		sumlx += float32(wv[i] * fl)
		suml2 += float32(float32(w[i]*fl) * fl)
	}
	for range 5 {
		changed := false
		for i, v := range x {
			li := float32(L[i])
			slx := sumlx - float32(wv[i]*li)
			if slx > 0 {
				sl2 := suml2 - float32(float32(w[i]*li)*li)
				nl := min(max(ni(float32(v*sl2)/slx), -nmax), nmax-1)
				if nl != int32(L[i]) {
					fl := float32(nl)
					slx += float32(wv[i] * fl)
					sl2 += float32(float32(w[i]*fl) * fl)
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
	for i := range L {
		L[i] += int8(nmax)
	}
	if suml2 > 0 {
		return sumlx / suml2
	}
	return 0
}

// firstDiff is the index of the first byte where a and b differ, or 32.
func firstDiff(a, b *[32]uint8) int {
	for k := 0; k < 32; k += 8 {
		if d := binary.LittleEndian.Uint64(a[k:]) ^ binary.LittleEndian.Uint64(b[k:]); d != 0 {
			return k + bits.TrailingZeros64(d)/8
		}
	}
	return 32
}
