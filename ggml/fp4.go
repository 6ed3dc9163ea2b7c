package ggml

import "math"

// kvaluesMXFP4 is ggml's kvalues_mxfp4: twice the E2M1 values, so that the
// scales below are half the E8M0 or UE4M3 scale.
var kvaluesMXFP4 = [16]int8{0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12}

// bestIndexFP4 is best_index_mxfp4 as written: the first index of least
// fabsf(kvalues[i]*d - x). It is the slow path for blocks with a NaN or an
// infinity (or a scale far below the elements).
func bestIndexFP4(x, d float32) uint8 {
	best := uint8(0)
	bestErr := absf(float32(float32(kvaluesMXFP4[0])*d) - x)
	for i := 1; i < 16; i++ {
		if err := absf(float32(float32(kvaluesMXFP4[i])*d) - x); err < bestErr {
			best, bestErr = uint8(i), err
		}
	}
	return best
}

// fp4Grid holds the midpoints between neighbouring |kvalues|*d as float32
// bits. In the fast path the element goes to the nearest grid value, a tie to
// the smaller magnitude, and takes its sign from x unless it is 0; this is
// best_index_mxfp4's choice whenever the grid unit (d, or d/8 for a UE4M3
// scale) is at least ulp(x): then every error that could win is computed
// exactly in float32 (it is a multiple of ulp(x) below 2^(exp(x)+1)), every
// other one rounds to more than the error of index 0, which is |x|, and the
// reference's first-index rule breaks ties toward zero, as indices grow with
// magnitude and 0 has index 0.
type fp4Grid [7]uint32

func makeFP4Grid(d float32) fp4Grid {
	var g fp4Grid
	for k, m := range [7]float32{0.5, 1.5, 2.5, 3.5, 5, 7, 10} {
		g[k] = math.Float32bits(float32(m * d))
		// A kvalue*d that overflows has an infinite error and never wins:
		// the midpoint below it moves to infinity, above every finite x.
		if float32(float32(kvaluesMXFP4[k+1])*d) > math.MaxFloat32 {
			g[k] = 0x7f800000
		}
	}
	return g
}

// codes writes the fast best_index_mxfp4 of lo[j] (low nibble) and hi[j]
// (high nibble) into q[j], for finite, non-NaN elements: the count of
// midpoints strictly below |x|, plus 8 for a negative x off zero. Comparing
// the bits of non-negative floats compares the floats, and (m-u)>>31 is
// u > m because both are below 2^31.
func (g *fp4Grid) codes(q []byte, lo, hi []float32) {
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

// mxfp4Exp is quantize_row_mxfp4_ref's scale byte: (uint8_t)(floorf(log2f(amax))
// - 2 + 127) for amax > 0, which wraps for amax below 2^-125 (to 232..255)
// and gives 0 for an infinite amax.
func mxfp4Exp(amax float32) uint8 {
	switch {
	case !(amax > 0):
		return 0
	case math.IsInf(float64(amax), 1):
		return uint8(cvtt(float32(math.Inf(1))))
	}
	return uint8(int32(floorLog2f(amax) - 2 + 127))
}

func quantMXFP4(dst []byte, src []float32) {
	for ; len(src) >= 32; src, dst = src[32:], dst[17:] {
		x, y := src[:32], dst[:17]
		m := absMaxBits(x)
		var amax float32
		if m <= 0x7f800000 {
			amax = math.Float32frombits(m)
		} else {
			for _, v := range x {
				if a := absf(v); amax < a {
					amax = a
				}
			}
		}
		e := mxfp4Exp(amax)
		d := e8m0Half(e)
		y[0] = e
		q := y[1:17]
		if m < 0x7f800000 {
			g := makeFP4Grid(d)
			g.codes(q, x[:16], x[16:32])
		} else {
			for j := range 16 {
				q[j] = bestIndexFP4(x[j], d) | bestIndexFP4(x[j+16], d)<<4
			}
		}
	}
}

func dequantMXFP4(dst []float32, src []byte) {
	for ; len(src) >= 17; src, dst = src[17:], dst[32:] {
		d := e8m0Half(src[0])
		var p [16]float32
		for k, v := range kvaluesMXFP4 {
			p[k] = float32(v) * d
		}
		lut4x32((*[32]float32)(dst[:32]), (*[16]byte)(src[1:17]), &p)
	}
}

func quantNVFP4(dst []byte, src []float32) {
	for ; len(src) >= 64; src, dst = src[64:], dst[36:] {
		for s := range 4 {
			x := src[16*s : 16*s+16]
			var amax float32
			for _, v := range x {
				if a := absf(v); amax < a {
					amax = a
				}
			}
			ue := fp32ToUE4M3(amax / 6)
			dst[s] = ue
			d := ue4m3Half(ue)
			q := dst[4+8*s : 12+8*s]
			m := absMaxBits(x)
			switch {
			case d == 0:
				// Every kvalue*0 is 0: the first index, 0, wins (or all
				// errors are NaN, which also leaves index 0).
				clear(q)
			case m < 0x7f800000 && m < math.Float32bits(d)+(20<<23):
				// The grid unit is d/8 (d has 4 significant bits), and
				// |x| < 2^20 d keeps it at least ulp(x).
				g := makeFP4Grid(d)
				g.codes(q, x[:8], x[8:16])
			default:
				for j := range 8 {
					q[j] = bestIndexFP4(x[j], d) | bestIndexFP4(x[j+8], d)<<4
				}
			}
		}
	}
}

func dequantNVFP4(dst []float32, src []byte) {
	for ; len(src) >= 36; src, dst = src[36:], dst[64:] {
		for s := range 4 {
			d := ue4m3Half(src[s])
			var p [16]float32
			for k, v := range kvaluesMXFP4 {
				p[k] = float32(v) * d
			}
			lut4x16((*[16]float32)(dst[16*s:16*s+16]), (*[8]byte)(src[4+8*s:12+8*s]), &p)
		}
	}
}
