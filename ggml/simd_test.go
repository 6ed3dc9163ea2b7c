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

// TestSIMDQuant compares the fast Q8_0 and Q4_0 quantizers with the Go
// ones, byte for byte, on blocks built to bite: magnitudes from subnormal to
// 2^127 (the scale underflowing to 0, its inverse overflowing, its fp16
// overflowing), exact ties at half steps (amax 127 makes Q8_0's id 1),
// zeros of both signs (Q4_0's max is then +0 and its scale -0), equal
// magnitudes of both signs (Q4_0 takes the first), and blocks holding NaN
// or infinity (left to Go mid-row).
func TestSIMDQuant(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const nb = 20000
	x := make([]float32, 32*nb)
	for b := range nb {
		blk := x[32*b : 32*b+32]
		e := rng.IntN(280) - 150
		for j := range blk {
			blk[j] = float32(rng.NormFloat64() * math.Ldexp(1, e))
		}
		switch rng.IntN(12) {
		case 0: // ties: amax 127, id 1, halves
			for j := range blk {
				blk[j] = float32(rng.IntN(254)-127) + 0.5
			}
			blk[rng.IntN(32)] = 127
		case 1:
			for j := range blk {
				blk[j] = 0
			}
			blk[rng.IntN(32)] = float32(math.Copysign(0, -1))
		case 2:
			blk[rng.IntN(32)] = math.Float32frombits(0x7fc00000 | uint32(rng.IntN(1<<22)))
		case 3:
			blk[rng.IntN(32)] = float32(math.Inf(1 - 2*rng.IntN(2)))
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
		}
	}
	for _, c := range []struct {
		name string
		size int
		q    func([]byte, []float32)
	}{{"q8_0", 34, Q8_0.info().quantize}, {"q4_0", 18, Q4_0.info().quantize}} {
		for _, m := range []int{nb, nb - 3, 5, 1} {
			a, b := make([]byte, c.size*m), make([]byte, c.size*m)
			c.q(a, x[:32*m])
			prev, _ := kernels.SetSIMD("go")
			c.q(b, x[:32*m])
			kernels.SetSIMD(prev)
			if !bytes.Equal(a, b) {
				for i := range a {
					if a[i] != b[i] {
						blk := i / c.size
						t.Fatalf("%s block %d byte %d: %#x, Go %#x (block %v)", c.name, blk, i%c.size, a[i], b[i], x[32*blk:32*blk+32])
					}
				}
			}
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
