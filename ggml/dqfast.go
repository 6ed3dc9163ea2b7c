package ggml

// Unrolled dequantizer kernels. Every kernel stores exactly the table entries or the
// float32 products that the loops they replace stored: only the order of the
// loads and the bounds checks differ.

import "encoding/binary"

// kfloat6 is float32(i-32) for the 6-bit codes of Q6_K; kfloat3 is
// float32(i-4) for Q3_K's code | high bit << 2.
var kfloat6 = func() (t [64]float32) {
	for i := range t {
		t[i] = float32(i - 32)
	}
	return
}()

var kfloat3 = [8]float32{-4, -3, -2, -1, 0, 1, 2, 3}

// lut4x32 stores p[q[j]&15] at y[j] and p[q[j]>>4] at y[j+16].
func lut4x32(y *[32]float32, q *[16]byte, p *[16]float32) {
	a0 := binary.LittleEndian.Uint64(q[0:])
	a1 := binary.LittleEndian.Uint64(q[8:])
	y[0] = p[a0>>0&15]
	y[16] = p[a0>>4&15]
	y[1] = p[a0>>8&15]
	y[17] = p[a0>>12&15]
	y[2] = p[a0>>16&15]
	y[18] = p[a0>>20&15]
	y[3] = p[a0>>24&15]
	y[19] = p[a0>>28&15]
	y[4] = p[a0>>32&15]
	y[20] = p[a0>>36&15]
	y[5] = p[a0>>40&15]
	y[21] = p[a0>>44&15]
	y[6] = p[a0>>48&15]
	y[22] = p[a0>>52&15]
	y[7] = p[a0>>56&15]
	y[23] = p[a0>>60&15]
	y[8] = p[a1>>0&15]
	y[24] = p[a1>>4&15]
	y[9] = p[a1>>8&15]
	y[25] = p[a1>>12&15]
	y[10] = p[a1>>16&15]
	y[26] = p[a1>>20&15]
	y[11] = p[a1>>24&15]
	y[27] = p[a1>>28&15]
	y[12] = p[a1>>32&15]
	y[28] = p[a1>>36&15]
	y[13] = p[a1>>40&15]
	y[29] = p[a1>>44&15]
	y[14] = p[a1>>48&15]
	y[30] = p[a1>>52&15]
	y[15] = p[a1>>56&15]
	y[31] = p[a1>>60&15]
}

// lut4x16 stores p[q[j]&15] at y[j] and p[q[j]>>4] at y[j+8].
func lut4x16(y *[16]float32, q *[8]byte, p *[16]float32) {
	a := binary.LittleEndian.Uint64(q[:])
	y[0] = p[a>>0&15]
	y[8] = p[a>>4&15]
	y[1] = p[a>>8&15]
	y[9] = p[a>>12&15]
	y[2] = p[a>>16&15]
	y[10] = p[a>>20&15]
	y[3] = p[a>>24&15]
	y[11] = p[a>>28&15]
	y[4] = p[a>>32&15]
	y[12] = p[a>>36&15]
	y[5] = p[a>>40&15]
	y[13] = p[a>>44&15]
	y[6] = p[a>>48&15]
	y[14] = p[a>>52&15]
	y[7] = p[a>>56&15]
	y[15] = p[a>>60&15]
}

// lut5x32 stores p[q[j]&15 | bit j of qh << 4] at y[j] and
// p[q[j]>>4 | bit j+16 of qh << 4] at y[j+16].
func lut5x32(y *[32]float32, q *[16]byte, qh uint32, p *[32]float32) {
	h := uint64(qh)
	a0 := binary.LittleEndian.Uint64(q[0:])
	a1 := binary.LittleEndian.Uint64(q[8:])
	y[0] = p[a0>>0&15|h<<4&16]
	y[16] = p[a0>>4&15|h>>12&16]
	y[1] = p[a0>>8&15|h<<3&16]
	y[17] = p[a0>>12&15|h>>13&16]
	y[2] = p[a0>>16&15|h<<2&16]
	y[18] = p[a0>>20&15|h>>14&16]
	y[3] = p[a0>>24&15|h<<1&16]
	y[19] = p[a0>>28&15|h>>15&16]
	y[4] = p[a0>>32&15|h>>0&16]
	y[20] = p[a0>>36&15|h>>16&16]
	y[5] = p[a0>>40&15|h>>1&16]
	y[21] = p[a0>>44&15|h>>17&16]
	y[6] = p[a0>>48&15|h>>2&16]
	y[22] = p[a0>>52&15|h>>18&16]
	y[7] = p[a0>>56&15|h>>3&16]
	y[23] = p[a0>>60&15|h>>19&16]
	y[8] = p[a1>>0&15|h>>4&16]
	y[24] = p[a1>>4&15|h>>20&16]
	y[9] = p[a1>>8&15|h>>5&16]
	y[25] = p[a1>>12&15|h>>21&16]
	y[10] = p[a1>>16&15|h>>6&16]
	y[26] = p[a1>>20&15|h>>22&16]
	y[11] = p[a1>>24&15|h>>7&16]
	y[27] = p[a1>>28&15|h>>23&16]
	y[12] = p[a1>>32&15|h>>8&16]
	y[28] = p[a1>>36&15|h>>24&16]
	y[13] = p[a1>>40&15|h>>9&16]
	y[29] = p[a1>>44&15|h>>25&16]
	y[14] = p[a1>>48&15|h>>10&16]
	y[30] = p[a1>>52&15|h>>26&16]
	y[15] = p[a1>>56&15|h>>11&16]
	y[31] = p[a1>>60&15|h>>27&16]
}

// lut4s32 stores p[q[l]>>sh&15] at y[l].
func lut4s32(y *[32]float32, q *[32]byte, sh uint, p *[16]float32) {
	a0 := binary.LittleEndian.Uint64(q[0:]) >> sh
	a1 := binary.LittleEndian.Uint64(q[8:]) >> sh
	a2 := binary.LittleEndian.Uint64(q[16:]) >> sh
	a3 := binary.LittleEndian.Uint64(q[24:]) >> sh
	y[0] = p[a0>>0&15]
	y[1] = p[a0>>8&15]
	y[2] = p[a0>>16&15]
	y[3] = p[a0>>24&15]
	y[4] = p[a0>>32&15]
	y[5] = p[a0>>40&15]
	y[6] = p[a0>>48&15]
	y[7] = p[a0>>56&15]
	y[8] = p[a1>>0&15]
	y[9] = p[a1>>8&15]
	y[10] = p[a1>>16&15]
	y[11] = p[a1>>24&15]
	y[12] = p[a1>>32&15]
	y[13] = p[a1>>40&15]
	y[14] = p[a1>>48&15]
	y[15] = p[a1>>56&15]
	y[16] = p[a2>>0&15]
	y[17] = p[a2>>8&15]
	y[18] = p[a2>>16&15]
	y[19] = p[a2>>24&15]
	y[20] = p[a2>>32&15]
	y[21] = p[a2>>40&15]
	y[22] = p[a2>>48&15]
	y[23] = p[a2>>56&15]
	y[24] = p[a3>>0&15]
	y[25] = p[a3>>8&15]
	y[26] = p[a3>>16&15]
	y[27] = p[a3>>24&15]
	y[28] = p[a3>>32&15]
	y[29] = p[a3>>40&15]
	y[30] = p[a3>>48&15]
	y[31] = p[a3>>56&15]
}

// lut5s32 stores p[q[l]>>sh&15 | qh[l]>>bit&1<<4] at y[l].
func lut5s32(y *[32]float32, q, qh *[32]byte, sh, bit uint, p *[32]float32) {
	a0 := binary.LittleEndian.Uint64(q[0:]) >> sh
	h0 := binary.LittleEndian.Uint64(qh[0:]) >> bit << 4
	a1 := binary.LittleEndian.Uint64(q[8:]) >> sh
	h1 := binary.LittleEndian.Uint64(qh[8:]) >> bit << 4
	a2 := binary.LittleEndian.Uint64(q[16:]) >> sh
	h2 := binary.LittleEndian.Uint64(qh[16:]) >> bit << 4
	a3 := binary.LittleEndian.Uint64(q[24:]) >> sh
	h3 := binary.LittleEndian.Uint64(qh[24:]) >> bit << 4
	y[0] = p[a0>>0&15|h0>>0&16]
	y[1] = p[a0>>8&15|h0>>8&16]
	y[2] = p[a0>>16&15|h0>>16&16]
	y[3] = p[a0>>24&15|h0>>24&16]
	y[4] = p[a0>>32&15|h0>>32&16]
	y[5] = p[a0>>40&15|h0>>40&16]
	y[6] = p[a0>>48&15|h0>>48&16]
	y[7] = p[a0>>56&15|h0>>56&16]
	y[8] = p[a1>>0&15|h1>>0&16]
	y[9] = p[a1>>8&15|h1>>8&16]
	y[10] = p[a1>>16&15|h1>>16&16]
	y[11] = p[a1>>24&15|h1>>24&16]
	y[12] = p[a1>>32&15|h1>>32&16]
	y[13] = p[a1>>40&15|h1>>40&16]
	y[14] = p[a1>>48&15|h1>>48&16]
	y[15] = p[a1>>56&15|h1>>56&16]
	y[16] = p[a2>>0&15|h2>>0&16]
	y[17] = p[a2>>8&15|h2>>8&16]
	y[18] = p[a2>>16&15|h2>>16&16]
	y[19] = p[a2>>24&15|h2>>24&16]
	y[20] = p[a2>>32&15|h2>>32&16]
	y[21] = p[a2>>40&15|h2>>40&16]
	y[22] = p[a2>>48&15|h2>>48&16]
	y[23] = p[a2>>56&15|h2>>56&16]
	y[24] = p[a3>>0&15|h3>>0&16]
	y[25] = p[a3>>8&15|h3>>8&16]
	y[26] = p[a3>>16&15|h3>>16&16]
	y[27] = p[a3>>24&15|h3>>24&16]
	y[28] = p[a3>>32&15|h3>>32&16]
	y[29] = p[a3>>40&15|h3>>40&16]
	y[30] = p[a3>>48&15|h3>>48&16]
	y[31] = p[a3>>56&15|h3>>56&16]
}

// lut2x16 stores p[q[l]>>sh&3] at y[l].
func lut2x16(y *[16]float32, q *[16]byte, sh uint, p *[4]float32) {
	a0 := binary.LittleEndian.Uint64(q[0:]) >> sh
	a1 := binary.LittleEndian.Uint64(q[8:]) >> sh
	y[0] = p[a0>>0&3]
	y[1] = p[a0>>8&3]
	y[2] = p[a0>>16&3]
	y[3] = p[a0>>24&3]
	y[4] = p[a0>>32&3]
	y[5] = p[a0>>40&3]
	y[6] = p[a0>>48&3]
	y[7] = p[a0>>56&3]
	y[8] = p[a1>>0&3]
	y[9] = p[a1>>8&3]
	y[10] = p[a1>>16&3]
	y[11] = p[a1>>24&3]
	y[12] = p[a1>>32&3]
	y[13] = p[a1>>40&3]
	y[14] = p[a1>>48&3]
	y[15] = p[a1>>56&3]
}

// q6x16 stores ds * float32(code-32) at y[l] for the 6-bit code
// ql[l]>>sh&15 | (qh[l]>>hs&3)<<4.
func q6x16(y *[16]float32, ql, qh *[16]byte, sh, hs uint, ds float32) {
	t := &kfloat6
	a0 := binary.LittleEndian.Uint64(ql[0:]) >> sh
	h0 := binary.LittleEndian.Uint64(qh[0:]) >> hs << 4
	a1 := binary.LittleEndian.Uint64(ql[8:]) >> sh
	h1 := binary.LittleEndian.Uint64(qh[8:]) >> hs << 4
	y[0] = ds * t[a0>>0&15|h0>>0&48]
	y[1] = ds * t[a0>>8&15|h0>>8&48]
	y[2] = ds * t[a0>>16&15|h0>>16&48]
	y[3] = ds * t[a0>>24&15|h0>>24&48]
	y[4] = ds * t[a0>>32&15|h0>>32&48]
	y[5] = ds * t[a0>>40&15|h0>>40&48]
	y[6] = ds * t[a0>>48&15|h0>>48&48]
	y[7] = ds * t[a0>>56&15|h0>>56&48]
	y[8] = ds * t[a1>>0&15|h1>>0&48]
	y[9] = ds * t[a1>>8&15|h1>>8&48]
	y[10] = ds * t[a1>>16&15|h1>>16&48]
	y[11] = ds * t[a1>>24&15|h1>>24&48]
	y[12] = ds * t[a1>>32&15|h1>>32&48]
	y[13] = ds * t[a1>>40&15|h1>>40&48]
	y[14] = ds * t[a1>>48&15|h1>>48&48]
	y[15] = ds * t[a1>>56&15|h1>>56&48]
}

// q3x16 stores dl * float32(v) at y[l] for Q3_K's v = (q[l]>>sh&3) - 4
// when bit hb of hm[l] is clear, (q[l]>>sh&3) when it is set.
func q3x16(y *[16]float32, q, hm *[16]byte, sh, hb uint, dl float32) {
	t := &kfloat3
	a0 := binary.LittleEndian.Uint64(q[0:]) >> sh
	h0 := binary.LittleEndian.Uint64(hm[0:]) >> hb << 2
	a1 := binary.LittleEndian.Uint64(q[8:]) >> sh
	h1 := binary.LittleEndian.Uint64(hm[8:]) >> hb << 2
	y[0] = dl * t[a0>>0&3|h0>>0&4]
	y[1] = dl * t[a0>>8&3|h0>>8&4]
	y[2] = dl * t[a0>>16&3|h0>>16&4]
	y[3] = dl * t[a0>>24&3|h0>>24&4]
	y[4] = dl * t[a0>>32&3|h0>>32&4]
	y[5] = dl * t[a0>>40&3|h0>>40&4]
	y[6] = dl * t[a0>>48&3|h0>>48&4]
	y[7] = dl * t[a0>>56&3|h0>>56&4]
	y[8] = dl * t[a1>>0&3|h1>>0&4]
	y[9] = dl * t[a1>>8&3|h1>>8&4]
	y[10] = dl * t[a1>>16&3|h1>>16&4]
	y[11] = dl * t[a1>>24&3|h1>>24&4]
	y[12] = dl * t[a1>>32&3|h1>>32&4]
	y[13] = dl * t[a1>>40&3|h1>>40&4]
	y[14] = dl * t[a1>>48&3|h1>>48&4]
	y[15] = dl * t[a1>>56&3|h1>>56&4]
}
