package mx

import (
	"bytes"
	"fmt"
	"github.com/clconv/clconv/internal/testvals"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

// onTiers runs fn on every SIMD tier the machine has (the Go loops
// included) and returns the results by tier.
func onTiers[R any](fn func() R) []R {
	var out []R
	prev := kernels.Level()
	defer kernels.SetLevel(prev)
	for t := kernels.Best(); t >= kernels.Go; t-- {
		kernels.SetLevel(t)
		out = append(out, fn())
	}
	return out
}

// sweepBlocks returns float32 blocks that take every shared exponent X of
// the rule's range through every float32 exponent below the block maximum,
// with many mantissas and both signs: block maxima 2^k * (1, the rule's
// thresholds) for every k, filled with elements 2^j * m for j <= k.
func sweepBlocks(f *Format, mants []uint32, step int) []float32 {
	var src []float32
	e := elemInfos[f.id]
	tops := []uint32{0, 0x7fffff, uint32(e.maxFrac52 >> 29), uint32(e.maxFrac52>>29) + 1, uint32(e.evenFrac52 >> 29), uint32(e.evenFrac52>>29) - 1}
	var blk []float32
	flush := func(top uint32) {
		for len(blk) < 31 {
			blk = append(blk, 0)
		}
		src = append(src, math.Float32frombits(top))
		src = append(src, blk...)
		blk = blk[:0]
	}
	for k := uint32(0); k < 255; k++ {
		for ti, tf := range tops {
			top := k<<23 | tf&0x7fffff
			for j := uint32(0); j <= k; j += uint32(step) {
				for mi, m := range mants {
					if (int(j)+mi+ti)%3 != 0 && step > 1 {
						continue
					}
					b := j<<23 | m&0x7fffff
					if b > top {
						continue
					}
					blk = append(blk, math.Float32frombits(b))
					if len(blk) == 31 {
						flush(top)
					}
					blk = append(blk, -math.Float32frombits(b))
					if len(blk) == 31 {
						flush(top)
					}
				}
			}
			if len(blk) > 0 {
				flush(top)
			}
		}
	}
	return src
}

func TestSIMDQuantize(t *testing.T) {
	if kernels.Best() == kernels.Go {
		t.Skip("no SIMD tier on this machine or build")
	}
	mants := []uint32{0, 1, 0x7fffff, 0x400000, 0x3fffff, 0x400001, 0x200000, 0x600000, 0x100000, 0x500000, 0x700000, 0x680000, 0x080000, 0x780000, 0x7c0000, 0x040000}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 16 {
		mants = append(mants, rng.Uint32()&0x7fffff)
	}
	step := 2
	switch {
	case *long:
		step = 1
	case testing.Short():
		step = 3
	}
	// Under the race detector and the emulated ports, a sample: every
	// fourth sweep step (each format still sees every exponent class).
	step *= testvals.Stride(4)
	for _, f := range mxFormats {
		src := sweepBlocks(f, mants, step)
		// Random blocks of every magnitude, special values included.
		for range 4096 {
			s := math.Ldexp(1, rng.IntN(280)-150)
			for range 32 {
				v := float32(rng.NormFloat64() * s)
				switch rng.IntN(512) {
				case 0:
					v = float32(math.NaN())
				case 1:
					v = float32(math.Inf(-1))
				case 2:
					v = 0
				}
				src = append(src, v)
			}
		}
		n := len(src) / 32
		// A sample of the sweep against the reference, too.
		var sample [][]float64
		for i := 0; i < n; i += 127 {
			b := make([]float64, 32)
			for j := range b {
				b[j] = float64(src[32*i+j])
			}
			sample = append(sample, b)
		}
		for _, rule := range Rules {
			for _, m := range round.Modes {
				checkMX(t, f, srcTypes[0], rule, m, true, sample)
			}
		}
		for _, rule := range Rules {
			for _, m := range round.Modes {
				for _, packed := range []bool{false, true} {
					if packed && f.ElemBits() == 8 {
						continue
					}
					t.Run(fmt.Sprintf("%s/%s/%s/packed=%v", f, rule, m, packed), func(t *testing.T) {
						opt := Options{Rule: rule, Mode: m, Packed: packed}
						type res struct {
							e, s []byte
							st   Stats
						}
						rs := onTiers(func() res {
							e := make([]byte, f.ElemBytes(n*32, packed))
							s := make([]byte, n)
							st, err := Quantize(f, e, s, src, 32, opt)
							if err != nil {
								t.Fatal(err)
							}
							return res{e, s, st}
						})
						for _, r := range rs[1:] {
							if r.st != rs[0].st {
								t.Fatalf("stats differ between tiers: %+v, %+v", rs[0].st, r.st)
							}
							if !bytes.Equal(r.s, rs[0].s) {
								t.Fatal("scales differ between tiers")
							}
							if i := firstDiff(r.e, rs[0].e); i >= 0 {
								bi := i * 8 / f.ElemBits() / 32
								t.Fatalf("element byte %d differs between tiers (%#x, %#x); block %v scale %#x", i, rs[0].e[i], r.e[i], src[bi*32:bi*32+32], r.s[bi])
							}
						}
					})
				}
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

func TestSIMDDequantize(t *testing.T) {
	if kernels.Best() == kernels.Go {
		t.Skip("no SIMD tier on this machine or build")
	}
	for _, f := range mxFormats {
		for _, packed := range []bool{false, true} {
			for _, o := range []NibbleOrder{LowFirst, HighFirst} {
				var codes, scales []byte
				for s := range 256 {
					for c := 0; c < 256; c += 32 {
						for k := range 32 {
							codes = append(codes, byte(c+k))
						}
						scales = append(scales, byte(s))
					}
				}
				elems := codes
				if packed {
					switch f.ElemBits() {
					case 4:
						for i := range codes {
							codes[i] &= 0xf
						}
						elems = make([]byte, len(codes)/2)
						PackFP4(elems, codes, o)
					case 6:
						for i := range codes {
							codes[i] &= 0x3f
						}
						elems = make([]byte, len(codes)*3/4)
						PackFP6(elems, codes, FP6LittleEndian)
					}
				}
				for _, m := range round.Modes {
					opt := Options{Mode: m, Packed: packed, Nibbles: o}
					type res struct {
						v  []float32
						st Stats
					}
					rs := onTiers(func() res {
						v := make([]float32, len(codes))
						st, err := Dequantize(f, v, elems, scales, 32, opt)
						if err != nil {
							t.Fatal(err)
						}
						return res{v, st}
					})
					for _, r := range rs[1:] {
						if r.st != rs[0].st {
							t.Fatalf("%s: stats differ between tiers: %+v, %+v", f, rs[0].st, r.st)
						}
						for i := range r.v {
							if math.Float32bits(r.v[i]) != math.Float32bits(rs[0].v[i]) {
								t.Fatalf("%s packed=%v %s %s: code %#x scale %#x: %#08x, Go %#08x", f, packed, o, m, codes[i], scales[i/32], math.Float32bits(rs[0].v[i]), math.Float32bits(r.v[i]))
							}
						}
					}
				}
			}
		}
	}
}

// TestSIMDQuantizeBatch puts a block that the kernels' 16-block loop leaves
// to the others (NaN, an infinity, a maximum so small that the Go code
// takes it) or a zero block at every position of a batch, with tails of 0
// to 15 blocks after it, among blocks of random magnitudes, and compares
// the tiers.
func TestSIMDQuantizeBatch(t *testing.T) {
	if kernels.Best() == kernels.Go {
		t.Skip("no SIMD tier on this machine or build")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	kinds := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0x100), math.Float32frombits(0x00900000), 0}
	for _, f := range mxFormats {
		for _, rule := range Rules {
			for _, m := range round.Modes {
				for _, packed := range []bool{false, true} {
					if packed && f.ElemBits() == 8 {
						continue
					}
					opt := Options{Rule: rule, Mode: m, Packed: packed}
					for p := range 16 {
						for ki, kv := range kinds {
							n := 33 + p + ki%2*15
							src := make([]float32, 32*n)
							for i := range src {
								e := rng.IntN(280) - 150
								if i%32 == 0 {
									e = (i/32*37)%280 - 150
								}
								src[i] = float32(rng.NormFloat64() * math.Ldexp(1, e))
							}
							bad := src[32*(16+p) : 32*(17+p)]
							for i := range bad {
								bad[i] = float32(rng.NormFloat64()) * kv
								if kv == 0 || i%2 == 1 {
									bad[i] = 0
								}
							}
							bad[rng.IntN(32)] = kv
							type res struct {
								e, s []byte
								st   Stats
							}
							rs := onTiers(func() res {
								e := make([]byte, f.ElemBytes(n*32, packed))
								s := make([]byte, n)
								st, err := Quantize(f, e, s, src, 32, opt)
								if err != nil {
									t.Fatal(err)
								}
								return res{e, s, st}
							})
							for _, r := range rs[1:] {
								if r.st != rs[0].st || !bytes.Equal(r.s, rs[0].s) || !bytes.Equal(r.e, rs[0].e) {
									t.Fatalf("%s %s %s packed=%v: block %v at %d of %d: tiers differ", f, rule, m, packed, kv, 16+p, n)
								}
							}
						}
					}
				}
			}
		}
	}
}
