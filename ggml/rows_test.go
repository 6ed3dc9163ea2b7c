package ggml

import (
	"encoding/binary"
	"math"
)

// The inputs of the goldens. Everything here is integer arithmetic or exact
// float arithmetic, so every port (and every Go version) makes the same rows
// from the same seeds; testdata stores only what ggml made of them.

// rng is splitmix64.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// unit is uniform in [0, 1) with 53 random bits.
func (r *rng) unit() float64 { return float64(r.next()>>11) * 0x1p-53 }

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// gauss is approximately N(0,1): the centred sum of 12 uniforms.
func (r *rng) gauss() float64 {
	s := -6.0
	for range 12 {
		s += r.unit()
	}
	return s
}

// pow2 is 2^k for any int k, exactly, without libm.
func pow2(k int) float64 { return math.Ldexp(1, k) }

const goldenRow = 256 // elements per row in every quantization case

// dist fills x with one of the random distributions.
func dist(name string, seed uint64, x []float32) {
	r := &rng{seed}
	switch name {
	case "gauss":
		for i := range x {
			x[i] = float32(r.gauss())
		}
	case "uniform":
		for i := range x {
			x[i] = float32(2*r.unit() - 1)
		}
	case "heavy": // gaussian times 2^k, k in -12..12 per element
		for i := range x {
			x[i] = float32(r.gauss() * pow2(r.intn(25)-12))
		}
	case "blockscale": // each 32-element block its own scale, 2^-60..2^60
		for b := 0; b < len(x); b += 32 {
			s := pow2(r.intn(121) - 60)
			for i := b; i < b+32 && i < len(x); i++ {
				x[i] = float32(r.gauss() * s)
			}
		}
	case "ints": // small integers and halves: ties everywhere
		for i := range x {
			x[i] = float32(r.intn(65)-32) / 2
		}
	case "weights": // like LLM weights: small gaussian, rare outliers
		for i := range x {
			v := r.gauss() * 0.02
			if r.intn(512) == 0 {
				v *= 40
			}
			x[i] = float32(v)
		}
	case "bits": // any finite float32
		for i := range x {
			for {
				b := uint32(r.next())
				if b&0x7f800000 != 0x7f800000 {
					x[i] = math.Float32frombits(b)
					break
				}
			}
		}
	default:
		panic("unknown distribution " + name)
	}
}

var dists = []string{"gauss", "uniform", "heavy", "blockscale", "ints", "weights", "bits"}

func f32b(b uint32) float32 { return math.Float32frombits(b) }

// adversarial returns rows of goldenRow elements built from 32-element chunks
// that aim at the edges of every quantizer.
func adversarial() []float32 {
	r := &rng{0xadd}
	var chunks [][]float32
	add := func(c []float32) { chunks = append(chunks, c) }
	fill := func(v float32) []float32 {
		c := make([]float32, 32)
		for i := range c {
			c[i] = v
		}
		return c
	}
	small := func(scale float64) []float32 {
		c := make([]float32, 32)
		for i := range c {
			c[i] = float32(r.gauss() * scale)
		}
		return c
	}
	nan, inf := f32b(0x7fc00000), float32(math.Inf(1)) // x86's float32(math.NaN()), by its bits (MIPS would make 0x7fbfffff)
	maxf := float32(math.MaxFloat32)

	add(fill(0))
	add(fill(float32(math.Copysign(0, -1))))
	for _, v := range []float32{1, -1, 1e-3, -7, maxf, -maxf, f32b(1), f32b(0x80000001), f32b(0x007fffff)} {
		add(fill(v))
	}
	// One huge element among small ones, first, middle, last, either sign.
	for _, pos := range []int{0, 13, 31} {
		for _, v := range []float32{1e30, -1e30, maxf, -maxf, 65504 * 127, -3e38} {
			c := small(1)
			c[pos] = v
			add(c)
		}
	}
	// Signed maxima: the largest magnitude negative, and equal magnitudes.
	c := small(1)
	c[5] = -100
	add(c)
	c = small(1)
	c[3], c[9] = 100, -100
	add(c)
	c = small(1)
	c[3], c[9] = -100, 100
	add(c)
	// Ties at half steps for every scale rule: amax 127 (Q8_0), max -8 and
	// -16 (Q4_0, Q5_0), ranges 15 and 31 (Q4_1, Q5_1), and scaled copies.
	for _, top := range []float32{127, -8, 8, -16, 16, 15, 31, 6, 12, 254, 0.75} {
		for _, s := range []float32{1, 0.5, 3, 1.0 / 3, 1e-20, 1e20} {
			c := make([]float32, 32)
			for i := range c {
				c[i] = float32(float32(i)-15.5) * s * top / 16
			}
			c[0] = top * s
			add(c)
			c = make([]float32, 32)
			for i := range c {
				c[i] = float32(i%16) * 0.5 * s
				if i >= 16 {
					c[i] = -c[i]
				}
			}
			c[31] = top * s
			add(c)
		}
	}
	// fp16 overflow and underflow of the scale.
	for _, amax := range []float32{65504 * 127, 65519 * 127, 65520 * 127, 65536 * 127, 65504 * 8, 65520 * 8, 65504 * 16,
		65504 * 15, 65520 * 15, 65504 * 31, 127 * 0x1p-24, 127 * 0x1p-25, 127 * 0x1p-26, 8 * 0x1p-25, 8 * 0x1p-24,
		15 * 0x1p-25, 127 * 0x1p-14, 127 * 0x1p-15 * 1.5, 1e-38, 1e-40, 1e-45} {
		for _, sign := range []float32{1, -1} {
			c := small(float64(amax) / 4)
			c[7] = sign * amax
			add(c)
		}
	}
	// Float32 subnormals only.
	c = make([]float32, 32)
	for i := range c {
		c[i] = f32b(uint32(r.intn(0x800000)) | uint32(r.intn(2))<<31)
	}
	add(c)
	// NaN and infinities, alone and mixed, at the start, middle and end.
	negNaN := f32b(0xffc00000)
	payNaN := f32b(0x7f800123) // signalling, with a payload
	for _, v := range []float32{nan, negNaN, payNaN, inf, -inf} {
		for _, pos := range []int{0, 16, 31} {
			c := small(1)
			c[pos] = v
			add(c)
		}
		add(fill(v))
	}
	c = small(1)
	c[2], c[20] = inf, -inf
	add(c)
	c = small(1)
	c[2], c[20] = nan, inf
	add(c)
	c = small(1)
	c[2], c[31] = inf, nan
	add(c)
	c = fill(nan)
	c[4] = 3
	add(c)
	// MXFP4: amax at and next to the points where log2f rounds up, at powers
	// of two, and elements on and next to the E2M1 midpoints.
	for _, k := range []int{-149, -140, -130, -127, -126, -125, -124, -100, -3, -1, 0, 1, 2, 10, 100, 126, 127} {
		i := k + 149
		for _, b := range []uint32{log2fUp[i], log2fUp[i] - 1, math.Float32bits(float32(pow2(k))), math.Float32bits(float32(pow2(k))) - 1} {
			if b == 0xffffffff || b == 0 || b >= 0x7f800000 {
				continue
			}
			c := small(float64(f32b(b)) / 8)
			c[11] = f32b(b)
			c[12] = -f32b(b)
			add(c)
		}
	}
	for _, e := range []float32{1, 0x1p-20, 0x1p20, 0x1p-126, 3} {
		c := make([]float32, 32)
		c[0] = 15.9 * e / 2 // amax in [8d,16d) of the grid unit
		mids := []float32{0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5, 0.5, 1, 1.5, 2, 3, 4, 6}
		for i := 1; i < 32; i++ {
			m := mids[i%len(mids)] * e
			switch i % 3 {
			case 1:
				m = f32b(math.Float32bits(m) + 1)
			case 2:
				m = f32b(math.Float32bits(m) - 1)
			}
			if i >= 16 {
				m = -m
			}
			c[i] = m
		}
		add(c)
	}
	// NVFP4: sub-block maxima whose amax/6 sits on UE4M3 rounding points,
	// above 448*6 and in UE4M3's subnormal range.
	for _, a := range []float32{6 * 1.0625, 6 * 1.125, 6 * 1.1875, 6 * 240, 6 * 248, 6 * 448, 6 * 449, 6 * 500, 1e6, 6 * 0x1p-7,
		6 * 0x1p-9 * 3.5, 6 * 0x1p-9 * 0.5, 6 * 0x1p-9 * 0.4999, 6 * 0x1p-11, 6 * 0x1p-10 * 7.5, 6 * 0x1p-6 * 0.999} {
		c := small(float64(a) / 4)
		c[1] = a
		c[17] = -a * 0.75
		add(c)
	}
	// Random chunks at random scales, so that the set fills whole rows.
	for len(chunks)%(goldenRow/32) != 0 || len(chunks) < 400 {
		add(small(pow2(r.intn(80) - 40)))
	}
	// K-quant super-blocks: whole rows of one kind.
	out := make([]float32, 0, len(chunks)*32+10*goldenRow)
	for _, c := range chunks {
		out = append(out, c...)
	}
	for _, row := range [][]float32{make([]float32, goldenRow)} {
		out = append(out, row...)
	}
	row := make([]float32, goldenRow)
	for i := range row {
		row[i] = float32(r.gauss() * 1e-3)
	}
	row[100] = 50
	out = append(out, row...)
	for _, s := range []float64{1e-30, 1e-10, 1e10, 1e30} {
		for i := range row {
			row[i] = float32(r.gauss() * s)
		}
		out = append(out, row...)
	}
	for i := range row { // one non-zero sub-block
		row[i] = 0
		if i >= 32 && i < 48 {
			row[i] = float32(i - 40)
		}
	}
	out = append(out, row...)
	for i := range row { // all positive, all negative
		row[i] = float32(1 + r.unit())
	}
	out = append(out, row...)
	for i := range row {
		row[i] = -row[i]
	}
	out = append(out, row...)
	return out
}

// edgeFloats is every float32 whose low 16 bits are one of a few patterns
// around the F16 and BF16 rounding points: 2^16 high halves x 8.
func edgeFloats() []float32 {
	lows := []uint32{0, 1, 0x0fff, 0x1000, 0x1001, 0x7fff, 0x8000, 0xffff}
	out := make([]float32, 0, 1<<16*len(lows))
	for hi := uint32(0); hi < 1<<16; hi++ {
		for _, lo := range lows {
			out = append(out, f32b(hi<<16|lo))
		}
	}
	return out
}

// randomBlocks is n blocks of random bytes of type t.
func randomBlocks(t Type, n int, seed uint64) []byte {
	r := &rng{seed}
	b := make([]byte, n*t.TypeSize())
	for i := 0; i < len(b); i += 8 {
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], r.next())
		copy(b[i:], w[:])
	}
	return b
}

// sweepBlocks enumerates the scale fields: for the fp16-scaled types every
// fp16 with every code (Q8_0: 8 blocks of 32 codes per scale; the 4- and
// 5-bit types: one block holding each code once or twice; the second fp16,
// the minimum, random so that NaN and infinity pairs meet), for MXFP4 every
// E8M0 byte with the 16 codes, for NVFP4 every UE4M3 byte in each of the four
// scale slots with the 16 codes in each sub-block.
func sweepBlocks(t Type) []byte {
	r := &rng{uint64(t) + 77}
	var out []byte
	switch t {
	case MXFP4:
		for s := 0; s < 256; s++ {
			blk := make([]byte, 17)
			blk[0] = byte(s)
			for j := range 16 {
				blk[1+j] = byte(j | (15-j)<<4)
			}
			out = append(out, blk...)
		}
	case NVFP4:
		for s := 0; s < 256; s++ {
			blk := make([]byte, 36)
			blk[0], blk[1], blk[2], blk[3] = byte(s), byte(s+1), byte(s+64), byte(s+128)
			for i := 4; i < 36; i++ {
				j := (i - 4) % 8
				blk[i] = byte(j | (j+8)<<4)
			}
			out = append(out, blk...)
		}
	case Q8_0:
		for s := 0; s < 1<<16; s++ {
			for b := range 8 {
				blk := make([]byte, 34)
				binary.LittleEndian.PutUint16(blk, uint16(s))
				for j := range 32 {
					blk[2+j] = byte(32*b + j)
				}
				out = append(out, blk...)
			}
		}
	case Q4_0, Q4_1, Q5_0, Q5_1:
		ts := t.TypeSize()
		for s := 0; s < 1<<16; s++ {
			blk := make([]byte, ts)
			binary.LittleEndian.PutUint16(blk, uint16(s))
			q := blk[2:]
			if t == Q4_1 || t == Q5_1 {
				binary.LittleEndian.PutUint16(blk[2:], uint16(r.next()))
				q = blk[4:]
			}
			if t == Q5_0 || t == Q5_1 {
				binary.LittleEndian.PutUint32(q, 0xffff0000)
				q = q[4:]
				for j := range 16 {
					q[j] = byte(j | j<<4)
				}
			} else {
				for j := range 16 {
					q[j] = byte(j | (15-j)<<4)
				}
			}
			out = append(out, blk...)
		}
	}
	return out
}
