//go:build gc && !purego

package ggml

import "math/bits"

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
	s := kstate{sub: sub, t: t[:]}
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
	if dm == nil {
		dm = &zeros16
	}
	if s.sub == 16 {
		kreqAVX512(&s.L[0], &x[0], &d[0], &dm[0], 16, lo, hi, bias)
		return true
	}
	// Sub-blocks of 32: each scale twice, one for each group of 16.
	var dg, mg [16]float32
	for j := range 8 {
		dg[2*j], dg[2*j+1] = d[j], d[j]
		mg[2*j], mg[2*j+1] = dm[j], dm[j]
	}
	kreqAVX512(&s.L[0], &x[0], &dg[0], &mg[0], 16, lo, hi, bias)
	return true
}

// zeros16 is the dm of the K-quants without minima: x + 0 is x for every
// finite x but -0, and nearest_int(+0/d) is nearest_int(-0/d), 0.
var zeros16 [16]float32

func init() {
	Q2_K.info().quantize = func(dst []byte, src []float32) {
		quantKSIMD(dst, src, 84, 16, 1, false, func(x []float32, w *kwork, s *[32]float32, m *[16]float32, t *[512]uint8) {
			kqx2n16MADAVX512(&x[0], &w[0][0], &csQ2[0], len(csQ2), 3, &s[0], &m[0], &t[0])
		}, searchQ2_K, finishQ2_K)
	}
	Q3_K.info().quantize = quantQ3_KSIMD
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

// q3BatchLen is how many super-blocks quantQ3_KSIMD searches before it
// finishes them: the sub-blocks that need more passes wait for a full
// queue, and only the last queue of a batch runs partly filled.
const q3BatchLen = 64

// q3Batch is quantQ3_KSIMD's state for up to q3BatchLen super-blocks: each one's
// codes (transposed, plus 4: 256 bytes), scales (16) and sums (sumlx then
// suml2: 32) from the first kernel, and the sub-blocks waiting for more
// passes.
type q3Batch struct {
	t      [q3BatchLen * 256]uint8
	scales [q3BatchLen * 16]float32
	sums   [q3BatchLen * 32]float32
	simd   [q3BatchLen]bool // the kernels searched it (its elements are finite)
	// queue[p] holds the sub-blocks (16*super-block + sub-block) waiting
	// for their pass p+2, n[p] how many.
	queue [4][32]int32
	n     [4]int
	w, mw kwork
	mt    [512]uint8
}

// zeros256 stands in for a missing second super-block.
var zeros256 [qkK]float32

// push queues sub-block sb for its pass p+2, running the queue when it is
// full.
func (q *q3Batch) push(src []float32, p int, sb int32) {
	q.queue[p][q.n[p]] = sb
	if q.n[p]++; q.n[p] == len(q.queue[p]) {
		q.more(src, p)
	}
}

// more runs pass p+2 of the sub-blocks queued for it in the second Q3_K
// kernel, which gathers them from the batch's state and puts their scales
// and sums back; their codes come back transposed in mt. The ones the pass
// changed wait for the next (ggml makes at most 5).
func (q *q3Batch) more(src []float32, p int) {
	n := q.n[p]
	if n == 0 {
		return
	}
	q.n[p] = 0
	changed := kq3moreAVX512(&src[0], &q.t[0], &q.sums[0], &q.queue[p][0], n, &q.mw[0][0], 4, 1, &q.scales[0], &q.mt[0])
	for l, sb := range q.queue[p][:n] {
		t := q.t[256*int(sb>>4)+int(sb&15):][:241]
		mt := q.mt[256*(l/16)+l%16:][:241]
		for i := range 16 {
			t[16*i] = mt[16*i]
		}
	}
	if p+1 < len(q.queue) {
		for ch := uint32(changed); ch != 0; ch &= ch - 1 {
			q.push(src, p+1, q.queue[p][bits.TrailingZeros32(ch)])
		}
	}
}

// quantQ3_KSIMD is quantQ3_K with the kernels of kq3: a first pass over
// every sub-block, two super-blocks at a time, the sub-blocks that pass
// changed gathered 32 at a time for the rest.
func quantQ3_KSIMD(dst []byte, src []float32) {
	if !simdOK() {
		quantKBlocks(dst, src, 110, 16, searchQ3_K, finishQ3_K)
		return
	}
	q := new(q3Batch)
	s := kstate{sub: 16}
	for len(src) >= qkK {
		nb := min(q3BatchLen, len(src)/qkK)
		for b := 0; b < nb; b += 2 {
			x1 := &zeros256[0]
			if b+1 < nb {
				x1 = &src[qkK*(b+1)]
			}
			r := kq3AVX512(&src[qkK*b], x1, &q.w[0][0], 4, &q.scales[16*b], &q.t[256*b], &q.sums[32*b])
			for h := range 2 {
				if b+h >= nb {
					break
				}
				q.simd[b+h] = r>>(32+h)&1 == 0
				if !q.simd[b+h] {
					continue
				}
				for ch := r >> (16 * h) & 0xffff; ch != 0; ch &= ch - 1 {
					q.push(src, 0, int32(16*(b+h)+bits.TrailingZeros(uint(ch))))
				}
			}
		}
		for p := range q.queue {
			q.more(src, p)
		}
		for b := range nb {
			x, y := src[qkK*b:qkK*(b+1)], dst[110*b:110*(b+1)]
			if !q.simd[b] {
				quantKBlocks(y, x, 110, 16, searchQ3_K, finishQ3_K)
				continue
			}
			s.t, s.off = q.t[256*b:256*(b+1)], 0
			copy(s.scales[:], q.scales[16*b:16*b+16])
			finishQ3_K(x, y, &s)
		}
		src, dst = src[nb*qkK:], dst[nb*110:]
	}
}
