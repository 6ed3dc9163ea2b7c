//go:build gc && !purego

package ggml

// The K-quant quantizers with the AVX-512 scale searches of _asm/ggml's
// kquant.go: 16 sub-blocks at a time, one in each lane, the same float32
// operations in the same order as the Go searches (kfast.go), for
// super-blocks whose elements are all finite; a super-block holding a NaN
// or an infinity goes to the Go search, which defines it. The rest of each
// quantizer (the scales' own quantization, the packing) is the Go code
// (finishQ2_K ...), whose last pass, nearest_int((dm + x)/d) per element,
// runs in kreqAVX512.

// kwork is a search kernel's work area: rows of 16 float32.
type kwork [128][16]float32

// candidates returns the numerators of make_qkx2_quants' nstep+1 candidate
// inverse scales, rmin + rdelta*is + nmax, as the C code computes them.
func candidatesQKX2(nmax int32, rmin, rdelta float32, nstep int) []float32 {
	cs := make([]float32, nstep+1)
	for is := range cs {
		cs[is] = rmin + float32(rdelta*float32(is)) + float32(nmax)
	}
	return cs
}

// candidatesQX are make_qx_quants' numerators -(nmax + 0.1*is), is = -9..9
// but 0.
func candidatesQX(nmax int32) []float32 {
	var cs []float32
	for is := -9; is <= 9; is++ {
		if is != 0 {
			cs = append(cs, -(float32(nmax) + float32(0.1*float32(is))))
		}
	}
	return cs
}

var (
	csQ2 = candidatesQKX2(3, -0.5, 0.1, 15)
	csQ4 = candidatesQKX2(15, -1, 0.1, 20)
	csQ5 = candidatesQKX2(31, -0.5, 0.1, 15)
	csQ6 = candidatesQX(32)
)

// finite reports whether every element of x is finite.
func allFinite(x []float32) bool { return absMaxBits(x) < 0x7f800000 }

// quantKSIMD quantizes the super-blocks of src as quantKBlocks does, with
// search kernel k over per super-blocks at a time, the Go search for any
// holding a NaN or an infinity. k takes 16 sub-blocks in lanes (per 2 when
// the sub-blocks have 32 elements: lanes 0-7 and 8-15), or, when streams,
// per 16-lane streams of one super-block each (scales at 16*b, codes at
// 256*b).
func quantKSIMD(dst []byte, src []float32, size, sub, per int, streams bool, k func(x []float32, w *kwork, s *[32]float32, m *[16]float32, t *[512]uint8), search func([]float32, *kstate), finish func([]float32, []byte, *kstate)) {
	if !simdOK() {
		quantKBlocks(dst, src, size, sub, search, finish)
		return
	}
	var w kwork
	var t [512]uint8
	var scales [32]float32
	var mins [16]float32
	var pad [2 * qkK]float32
	s := kstate{sub: sub, t: &t}
	nsub := qkK / sub
	for len(src) >= qkK {
		nb := min(per, len(src)/qkK)
		x := src[:nb*qkK]
		if !allFinite(x) {
			quantKBlocks(dst[:nb*size], x, size, sub, search, finish)
			src, dst = src[nb*qkK:], dst[nb*size:]
			continue
		}
		in := x
		if nb < per {
			// The last super-block alone: zeros fill the other lanes.
			copy(pad[:], x)
			clear(pad[len(x):])
			in = pad[:per*qkK]
		}
		k(in, &w, &scales, &mins, &t)
		for b := range nb {
			so := b * nsub
			s.off = so
			if streams {
				so, s.off = 16*b, 256*b
			}
			copy(s.scales[:nsub], scales[so:])
			copy(s.mins[:nsub], mins[min(so, 16-nsub):])
			finish(x[b*qkK:(b+1)*qkK], dst[b*size:(b+1)*size], &s)
		}
		src, dst = src[nb*qkK:], dst[nb*size:]
	}
}

// requantSIMD is kstate.requant's last pass in kreqAVX512, per 16 elements.
func requantSIMD(s *kstate, x []float32, d, dm *[16]float32, lo, hi, bias int32) bool {
	if !simdOK() {
		return false
	}
	var dg, mg [16]float32
	r := s.sub / 16
	for g := range 16 {
		dg[g] = d[g/r]
		if dm != nil {
			mg[g] = dm[g/r]
		}
	}
	kreqAVX512(&s.L[0], &x[0], &dg[0], &mg[0], 16, lo, hi, bias)
	return true
}

func init() {
	Q2_K.info().quantize = func(dst []byte, src []float32) {
		quantKSIMD(dst, src, 84, 16, 1, false, func(x []float32, w *kwork, s *[32]float32, m *[16]float32, t *[512]uint8) {
			kqx2n16MADAVX512(&x[0], &w[0][0], &csQ2[0], len(csQ2), 3, &s[0], &m[0], &t[0])
		}, searchQ2_K, finishQ2_K)
	}
	Q3_K.info().quantize = func(dst []byte, src []float32) {
		quantKSIMD(dst, src, 110, 16, 1, true, func(x []float32, w *kwork, s *[32]float32, _ *[16]float32, t *[512]uint8) {
			kq3AVX512(&x[0], &w[0][0], 4, &s[0], &t[0])
		}, searchQ3_K, finishQ3_K)
	}
	Q4_K.info().quantize = func(dst []byte, src []float32) {
		quantKSIMD(dst, src, 144, 32, 2, false, func(x []float32, w *kwork, s *[32]float32, m *[16]float32, t *[512]uint8) {
			kqx2n32AVX512(&x[0], &w[0][0], &csQ4[0], len(csQ4), 15, &s[0], &m[0], &t[0])
		}, searchQ4_K, finishQ4_K)
	}
	Q5_K.info().quantize = func(dst []byte, src []float32) {
		quantKSIMD(dst, src, 176, 32, 2, false, func(x []float32, w *kwork, s *[32]float32, m *[16]float32, t *[512]uint8) {
			kqx2n32AVX512(&x[0], &w[0][0], &csQ5[0], len(csQ5), 31, &s[0], &m[0], &t[0])
		}, searchQ5_K, finishQ5_K)
	}
	Q6_K.info().quantize = func(dst []byte, src []float32) {
		quantKSIMD(dst, src, 210, 16, 1, false, func(x []float32, w *kwork, s *[32]float32, _ *[16]float32, t *[512]uint8) {
			kqxAVX512(&x[0], &w[0][0], &csQ6[0], len(csQ6), 32, &s[0], &t[0])
		}, searchQ6_K, finishQ6_K)
	}
}
