package ggml

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/clconv/clconv/internal/gencheck"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
)

// TestSIMDDequant compares the fast dequantizers (the type table's, with
// the AVX-512 kernels where this machine and build have them) with the Go
// kernels, bit for bit: Q8_0, Q4_0, Q4_1, Q5_0 and Q5_1 rows with every fp16
// scale (and every fp16 m); MXFP4 with every scale byte; NVFP4 with every
// UE4M3 byte in each slot; Q8_K with float32 scales of every class; Q2_K,
// Q3_K, Q4_K, Q5_K and Q6_K with every fp16 d (and dmin); random codes and
// scales throughout, the NaN and infinite scales mid-row, which the kernels
// leave to Go; every bfloat16 and every half, NaNs included; lengths that
// end inside a group of 16.
func TestSIMDDequant(t *testing.T) {
	if !simdOK() {
		t.Logf("no AVX-512 kernels here (%s, tier %v): the fast dequantizers are the Go ones", runtime.GOARCH, kernels.Level())
	}
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(name string, fast, slow func([]float32, []byte), src []byte, n int) {
		t.Helper()
		a, b := make([]float32, n), make([]float32, n)
		fast(a, src)
		prev, _ := kernels.SetSIMD("go")
		slow(b, src)
		kernels.SetSIMD(prev)
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("%s element %d: %#x, Go %#x", name, i, math.Float32bits(a[i]), math.Float32bits(b[i]))
			}
		}
	}
	for _, c := range []struct {
		name       string
		size       int
		fast, slow func([]float32, []byte)
	}{
		{"q8_0", 34, Q8_0.info().dequantize, dequantQ8_0},
		{"q4_0", 18, Q4_0.info().dequantize, dequantQ4_0},
		{"q4_1", 20, Q4_1.info().dequantize, dequantQ4_1},
		{"q5_0", 22, Q5_0.info().dequantize, dequantQ5_0},
		{"q5_1", 24, Q5_1.info().dequantize, dequantQ5_1},
	} {
		const nb = 1 << 16 // every fp16 scale once, in random order
		src := make([]byte, nb*c.size)
		ms := rng.Perm(nb) // and every fp16 m of Q4_1 and Q5_1
		for i, h := range rng.Perm(nb) {
			blk := src[i*c.size : (i+1)*c.size]
			binary.LittleEndian.PutUint16(blk, uint16(h))
			for j := 2; j < c.size; j++ {
				blk[j] = byte(rng.Uint32())
			}
			if c.name == "q4_1" || c.name == "q5_1" {
				binary.LittleEndian.PutUint16(blk[2:], uint16(ms[i]))
			}
		}
		for _, m := range []int{nb, nb - 1, 7, 1} {
			check(c.name, c.fast, c.slow, src[:m*c.size], m*32)
		}
	}
	// MXFP4: every scale byte (0 and 1, the subnormal halves, left to Go)
	// with random codes, 256 times; Q8_K: float32 scales of every class.
	{
		const nb = 256 * 256
		src := make([]byte, 17*nb)
		for i := range nb {
			src[17*i] = byte(i)
			for j := 1; j < 17; j++ {
				src[17*i+j] = byte(rng.Uint32())
			}
		}
		for _, m := range []int{nb, nb - 1, 3, 1} {
			check("mxfp4", MXFP4.info().dequantize, dequantMXFP4, src[:17*m], 32*m)
		}
		// NVFP4: every UE4M3 byte in each of the 4 scale slots.
		const vb = 4 * 256 * 64
		src = make([]byte, 36*vb)
		for i := range vb {
			blk := src[36*i : 36*(i+1)]
			for j := range blk {
				blk[j] = byte(rng.Uint32())
			}
			blk[i%4] = byte(i / 4)
		}
		for _, m := range []int{vb, vb - 1, 3, 1} {
			check("nvfp4", NVFP4.info().dequantize, dequantNVFP4, src[:36*m], 64*m)
		}
		const kb = 3000
		src = make([]byte, 292*kb)
		for i := range kb {
			blk := src[292*i : 292*(i+1)]
			var d uint32
			switch rng.IntN(8) {
			case 0:
				d = 0x7f800000 | uint32(rng.IntN(2))<<31 // infinity
			case 1:
				d = 0x7f800000 | uint32(1+rng.IntN(1<<23-1)) | uint32(rng.IntN(2))<<31 // NaN
			case 2:
				d = uint32(rng.IntN(1 << 23)) // subnormal
			default:
				d = rng.Uint32() &^ (1 << 30) // finite
			}
			binary.LittleEndian.PutUint32(blk, d)
			for j := 4; j < 292; j++ {
				blk[j] = byte(rng.Uint32())
			}
		}
		for _, m := range []int{kb, kb - 1, 2, 1} {
			check("q8_K", Q8_K.info().dequantize, dequantQ8_K, src[:292*m], 256*m)
		}
		// The K-quants: random bytes (so every scale, min and code occurs)
		// and, at offsets dOff and mOff (-1: none), every fp16 d and dmin
		// in random order (the non-finite ones mid-row).
		for _, c := range []struct {
			name       string
			size       int
			dOff, mOff int
			fast, slow func([]float32, []byte)
		}{
			{"q2_K", 84, 80, 82, Q2_K.info().dequantize, dequantQ2_K},
			{"q3_K", 110, 108, -1, Q3_K.info().dequantize, dequantQ3_K},
			{"q4_K", 144, 0, 2, Q4_K.info().dequantize, dequantQ4_K},
			{"q5_K", 176, 0, 2, Q5_K.info().dequantize, dequantQ5_K},
			{"q6_K", 210, 208, -1, Q6_K.info().dequantize, dequantQ6_K},
		} {
			const qb = 1 << 16
			src := make([]byte, c.size*qb)
			ds, ms := rng.Perm(qb), rng.Perm(qb)
			for i := range qb {
				blk := src[c.size*i : c.size*(i+1)]
				for j := range blk {
					blk[j] = byte(rng.Uint32())
				}
				binary.LittleEndian.PutUint16(blk[c.dOff:], uint16(ds[i]))
				if c.mOff >= 0 {
					binary.LittleEndian.PutUint16(blk[c.mOff:], uint16(ms[i]))
				}
			}
			for _, m := range []int{qb, qb - 1, 2, 1} {
				check(c.name, c.fast, c.slow, src[:c.size*m], 256*m)
			}
		}
	}
	for _, c := range []struct {
		name       string
		fast, slow func([]float32, []byte)
	}{
		{"bf16", BF16.info().dequantize, dequantBF16},
		{"f16", F16.info().dequantize, dequantF16},
	} {
		src := make([]byte, 2<<16)
		for i, h := range rng.Perm(1 << 16) {
			binary.LittleEndian.PutUint16(src[2*i:], uint16(h))
		}
		// Long runs of finite halves too, so that the kernel runs far.
		fin := make([]byte, 2*5000)
		for i := range 5000 {
			binary.LittleEndian.PutUint16(fin[2*i:], uint16(rng.IntN(0x7c00))|uint16(rng.IntN(2))<<15)
		}
		for _, s := range [][]byte{src, src[:2*1000+6], fin, fin[:2*33], fin[:2*15]} {
			check(c.name, c.fast, c.slow, s, len(s)/2)
		}
	}
}

// TestGeneratedUpToDate fails when zsimd_amd64.s or its stubs differ from
// what _asm/ggml writes now.
func TestGeneratedUpToDate(t *testing.T) {
	gencheck.UpToDate(t, "../_asm", "./ggml", []string{"-out", "{zsimd_amd64.s}", "-stubs", "{zsimd_amd64.go}", "-pkg", "ggml"},
		[]string{"zsimd_amd64.s", "zsimd_amd64.go"}, "go generate ./ggml")
}

// TestSIMDQuant compares the fast Q8_0, Q4_0 and MXFP4 quantizers with the
// Go ones, byte for byte, on blocks built to bite: magnitudes from
// subnormal to 2^127 (the scale underflowing to 0, its inverse overflowing,
// its fp16 overflowing), every exponent of amax with mantissas at glibc's
// log2f rounding edge (MXFP4's scale byte, the kernel's range ends), amax
// within a few ulp of MaxFloat32 (MXFP4's kernel stops 44 ulp below 2^128), exact ties at half steps (amax 127 makes
// Q8_0's id 1) and at MXFP4's midpoints and one ulp off them, zeros of both
// signs (Q4_0's max is then +0 and its scale -0; MXFP4's byte 0), equal
// magnitudes of both signs (Q4_0 takes the first), and blocks holding NaN
// or infinity (left to Go mid-row). One row has such blocks often (most
// batches of 16 go block by block), one rarely (most run as batches), and
// the lengths leave tails of every size below 16.
func TestSIMDQuant(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const nb = 20000
	row := func(special int) []float32 {
		x := make([]float32, 32*nb)
		for b := range nb {
			quantTestBlock(rng, x[32*b:32*b+32], special)
		}
		return x
	}
	rows := [][]float32{row(12), row(2000), quantEdgeRow(rng, nb)}
	for _, c := range []struct {
		name string
		size int
		q    func([]byte, []float32)
	}{{"q8_0", 34, Q8_0.info().quantize}, {"q4_0", 18, Q4_0.info().quantize}, {"mxfp4", 17, MXFP4.info().quantize}} {
		for r, x := range rows {
			for _, m := range []int{nb, nb - 3, 16*7 + 15, 33, 31, 17, 16, 15, 5, 1} {
				for _, off := range []int{0, 1, 16} {
					if off+m > nb {
						continue
					}
					xs := x[32*off : 32*(off+m)]
					a, b := make([]byte, c.size*m), make([]byte, c.size*m)
					c.q(a, xs)
					prev, _ := kernels.SetSIMD("go")
					c.q(b, xs)
					kernels.SetSIMD(prev)
					if !bytes.Equal(a, b) {
						for i := range a {
							if a[i] != b[i] {
								blk := i / c.size
								t.Fatalf("%s row %d (%d blocks from %d) block %d byte %d: %#x, Go %#x (block %v)", c.name, r, m, off, blk, i%c.size, a[i], b[i], xs[32*blk:32*blk+32])
							}
						}
					}
				}
			}
		}
	}
}

// quantEdgeRow returns nb blocks (for the batch kernels: no NaN or
// infinity) whose amax runs through every biased exponent, each with the
// mantissas 0, 1, 2^22 and 2^23-1 and, where glibc's log2f rounds up to
// the next exponent (log2f_table.go), at that bound and one ulp either side
// of it (MXFP4's scale byte and the range of its kernel); one sign, random
// elements below, in random order.
func quantEdgeRow(rng *rand.Rand, nb int) []float32 {
	var amax []uint32
	for e := uint32(0); e < 255; e++ {
		for _, m := range []uint32{0, 1, 0x400000, 0x7fffff} {
			amax = append(amax, e<<23|m)
		}
		if u := log2fUp[int(e)+22]; e > 0 && u != 0xffffffff {
			amax = append(amax, u-1, u, u+1)
		}
	}
	x := make([]float32, 32*nb)
	for b := range nb {
		a := amax[rng.IntN(len(amax))]
		blk := x[32*b : 32*b+32]
		for k := range blk {
			blk[k] = math.Float32frombits(uint32(rng.Int64N(int64(a)+1)) | uint32(rng.IntN(2))<<31)
		}
		blk[rng.IntN(32)] = math.Float32frombits(a | uint32(rng.IntN(2))<<31)
	}
	return x
}

// quantTestBlock fills blk with one of TestSIMDQuant's blocks; NaNs and
// infinities come in about 2 of special blocks.
func quantTestBlock(rng *rand.Rand, blk []float32, special int) {
	e := rng.IntN(280) - 150
	for j := range blk {
		blk[j] = float32(rng.NormFloat64() * math.Ldexp(1, e))
	}
	sign := func() float32 { return float32(1 - 2*rng.IntN(2)) }
	switch k := rng.IntN(special); k {
	case 0:
		blk[rng.IntN(32)] = math.Float32frombits(0x7fc00000 | uint32(rng.IntN(1<<22)) | uint32(rng.IntN(2))<<31)
	case 1:
		blk[rng.IntN(32)] = float32(math.Inf(1 - 2*rng.IntN(2)))
	default:
		switch k % 10 {
		case 2: // ties: amax 127 (Q8_0's id 1) or 8 (Q4_0's id -1 or
			// 1), halves and values off them by an ulp or by 2^-20
			// (the ulp of x*id + 8.5 for Q4_0)
			a := [...]float32{127, 8, -8}[rng.IntN(3)]
			for j := range blk {
				v := float32(rng.IntN(2*int(absf(a)))) - absf(a) + 0.5
				switch rng.IntN(4) {
				case 1:
					v = math.Nextafter32(v, float32(rng.IntN(2)*2-1))
				case 2:
					v += float32(rng.IntN(3)-1) * 0x1p-20
				}
				blk[j] = v
			}
			blk[rng.IntN(32)] = a
		case 3:
			for j := range blk {
				blk[j] = 0
			}
			if rng.IntN(2) == 0 {
				blk[rng.IntN(32)] = float32(math.Copysign(0, -1))
			} else {
				for j := range blk {
					blk[j] = float32(math.Copysign(0, -1))
				}
			}
		case 4: // subnormals only
			for j := range blk {
				blk[j] = math.Float32frombits(uint32(rng.IntN(1<<23)) | uint32(rng.IntN(2))<<31)
			}
		case 5: // the largest magnitude twice, with both signs
			v := float32(rng.NormFloat64() * 100)
			i, j := rng.IntN(32), rng.IntN(32)
			for k := range blk {
				blk[k] = float32(rng.NormFloat64())
			}
			blk[i], blk[j] = v, -v
		case 6: // a tiny maximum: Q4_0's 1/d overflows
			for k := range blk {
				blk[k] = math.Float32frombits(uint32(rng.IntN(8)) | uint32(rng.IntN(2))<<31)
			}
		case 7: // every exponent of amax, and at glibc's log2f rounding
			// up to the next one (MXFP4's scale byte, log2f_table.go)
			a := uint32(rng.IntN(255))<<23 | [...]uint32{0, 1, 0x400000, 0x7fffff}[rng.IntN(4)]
			if u := log2fUp[int(a>>23)+22]; rng.IntN(2) == 0 && a>>23 > 0 && u != 0xffffffff {
				a = u + uint32(rng.IntN(3)) - 1
			}
			for k := range blk {
				blk[k] = math.Float32frombits(uint32(rng.Int64N(int64(a)+1))) * sign()
			}
			blk[rng.IntN(32)] = math.Float32frombits(a) * sign()
		case 8: // amax near MaxFloat32 (MXFP4's largest scales)
			a := uint32(0x7f7fffff - rng.IntN(100))
			for k := range blk {
				blk[k] = math.Float32frombits(a-uint32(rng.IntN(1<<24))) * sign()
			}
			blk[rng.IntN(32)] = math.Float32frombits(a) * sign()
		case 9: // MXFP4 ties: d = 2^j, amax in [8d, 16d), elements at the
			// midpoints d{0.5, 1.5, 2.5, 3.5, 5, 7, 10}, at d times the
			// grid values, and one ulp off them
			j := rng.IntN(280) - 151
			d := math.Ldexp(1, j)
			for k := range blk {
				v := float32(d * []float64{0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 10, 12}[rng.IntN(15)])
				u := math.Float32bits(v)
				switch rng.IntN(3) {
				case 1:
					u++
				case 2:
					if u > 0 {
						u--
					}
				}
				blk[k] = math.Float32frombits(u) * sign()
			}
			blk[rng.IntN(32)] = float32(d*(8+8*rng.Float64())) * sign()
		}
	}
}

// TestRoundfTrick checks the rounding of the AVX-512 Q8_0 quantizer:
// trunc(p + copysign(0.5 - 2^-25, p)), the sum rounded to float32, is
// roundf(p) (half away from zero) for every float32 0 <= p < 2^31 (the
// negative ones mirror them); -short checks every 101st.
func TestRoundfTrick(t *testing.T) {
	c := math.Float32frombits(0x3effffff) // 0.5 - 2^-25
	step := uint32(1)
	if testing.Short() {
		step = 101
	}
	for b := uint32(0); b < 0x4f000000; b += step {
		p := math.Float32frombits(b)
		if want, got := math.Floor(float64(p)+0.5), math.Trunc(float64(float32(p+c))); want != got {
			t.Fatalf("p = %g (%#x): trunc(p + c) = %g, roundf(p) = %g", p, b, got, want)
		}
	}
}

// TestWidenNT: from widenNTMin values on, F16 and BF16 widen with
// non-temporal stores from the first 64-byte aligned element; every start
// offset of dst within a line and a tail that is not 16 values must give
// the Go kernel's bits.
func TestWidenNT(t *testing.T) {
	if testing.Short() && testvals.Sampled() {
		t.Skip("64 MiB buffers: not on emulated ports")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	n := widenNTMin + 37
	src := make([]byte, 2*n)
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	buf, want := make([]float32, n+16), make([]float32, n)
	for _, c := range []struct {
		name       string
		fast, slow func([]float32, []byte)
	}{{"f16", F16.info().dequantize, dequantF16}, {"bf16", BF16.info().dequantize, dequantBF16}} {
		c.slow(want, src)
		for _, off := range []int{0, 1, 5, 15} {
			got := buf[off : off+n]
			clear(got)
			c.fast(got, src)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s, dst offset %d: element %d: %#x, Go %#x", c.name, off, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
				}
			}
		}
	}
}
