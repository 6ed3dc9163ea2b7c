package mx

import (
	"flag"
	"fmt"
	"github.com/clconv/clconv/internal/testvals"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

var long = flag.Bool("long", false, "run the slow sweeps in full")

var mxFormats = []*Format{MXFP8E4M3, MXFP8E5M2, MXFP6E2M3, MXFP6E3M2, MXFP4}

// srcType is a source type of Quantize, seen through float64.
type srcType struct {
	name string
	// exact rounds v to the type (to nearest) and returns it as float64.
	exact func(v float64) float64
	// quantize runs Quantize on vals (exact in the type).
	quantize func(f *Format, dst, scales []byte, vals []float64, rowLen int, opt Options) (Stats, error)
}

func mkSrc[T Source](name string, from func(float64) T, to func(T) float64) srcType {
	return srcType{
		name:  name,
		exact: func(v float64) float64 { return to(from(v)) },
		quantize: func(f *Format, dst, scales []byte, vals []float64, rowLen int, opt Options) (Stats, error) {
			src := make([]T, len(vals))
			for i, v := range vals {
				src[i] = from(v)
			}
			return Quantize(f, dst, scales, src, rowLen, opt)
		},
	}
}

var srcTypes = []srcType{
	mkSrc("float32", func(v float64) float32 { return float32(v) }, func(x float32) float64 { return float64(x) }),
	mkSrc("float64", func(v float64) float64 { return v }, func(x float64) float64 { return x }),
	mkSrc("half", func(v float64) half.Half { return half.FromFloat64(v, round.RTE) }, func(x half.Half) float64 { return x.Float64() }),
	mkSrc("bfloat16", func(v float64) bfloat16.BFloat16 { return bfloat16.FromFloat64(v, round.RTE) }, func(x bfloat16.BFloat16) float64 { return x.Float64() }),
}

// checkMX quantizes blocks (each f.BlockSize exact values of the source
// type, one row) with the package and compares scales, codes and stats with
// the reference. It reports at most a few mismatches and returns false on
// any.
func checkMX(t *testing.T, f *Format, st srcType, rule ScaleRule, m round.Mode, sat bool, blocks [][]float64) bool {
	t.Helper()
	B := f.BlockSize
	vals := make([]float64, 0, len(blocks)*B)
	for _, b := range blocks {
		vals = append(vals, b...)
	}
	dst := make([]byte, len(vals))
	scales := make([]byte, len(blocks))
	opt := Options{Rule: rule, Mode: m, NoSat: !sat}
	got, err := st.quantize(f, dst, scales, vals, B, opt)
	if err != nil {
		t.Fatalf("%s %s: %v", f, st.name, err)
	}
	var rs refStats
	ok := true
	bad := 0
	for i, b := range blocks {
		scale, codes := refQuantBlock(f, rule, m, sat || f.ElemBits() < 8, b, &rs)
		if int(scales[i]) != scale {
			t.Errorf("%s %s %s %s sat=%v: block %v: scale %#02x, want %#02x", f, st.name, rule, m, sat, b, scales[i], scale)
			ok = false
			bad++
		}
		for j, c := range codes {
			if int(dst[i*B+j]) != c {
				t.Errorf("%s %s %s %s sat=%v: block amax-scale %#02x: element %d = %g (%#x): code %#02x, want %#02x", f, st.name, rule, m, sat, scale, j, b[j], math.Float64bits(b[j]), dst[i*B+j], c)
				ok = false
				bad++
				break
			}
		}
		if bad > 5 {
			t.FailNow()
		}
	}
	want := refStats{}
	want = rs
	gs := refStats{got.Clamped, got.Flushed, got.NaNInputs, got.InfInputs, got.ZeroBlocks, got.NaNBlocks, got.ScaleClamped}
	if ok && gs != want {
		t.Errorf("%s %s %s %s sat=%v: stats %+v, want %+v", f, st.name, rule, m, sat, gs, want)
		ok = false
	}
	return ok
}

// forAll runs fn for every MX format, rule, mode, saturation (FP8 only
// without) and source type, in parallel.
func forAll(t *testing.T, fn func(t *testing.T, f *Format, st srcType, rule ScaleRule, m round.Mode, sat bool)) {
	for _, f := range mxFormats {
		for _, st := range srcTypes {
			t.Run(f.Name+"/"+st.name, func(t *testing.T) {
				t.Parallel()
				for _, rule := range Rules {
					for _, m := range round.Modes {
						for _, sat := range []bool{true, false} {
							if !sat && f.ElemBits() < 8 {
								continue
							}
							fn(t, f, st, rule, m, sat)
						}
					}
				}
			})
		}
	}
}

// randomBlocks returns n blocks of normal-ish values of varying magnitude,
// some with special values, exact in st.
func randomBlocks(rng *rand.Rand, st srcType, B, n int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		b := make([]float64, B)
		scale := math.Ldexp(1, rng.IntN(60)-30)
		if rng.IntN(8) == 0 {
			scale = math.Ldexp(1, rng.IntN(600)-300)
		}
		for j := range b {
			v := rng.NormFloat64() * scale
			switch rng.IntN(64) {
			case 0:
				v = 0
			case 1:
				v = math.Copysign(0, -1)
			case 2:
				v *= 1e-6
			case 3:
				if rng.IntN(16) == 0 {
					v = math.Inf(1 - 2*rng.IntN(2))
				}
			case 4:
				if rng.IntN(16) == 0 {
					v = math.NaN()
				}
			}
			b[j] = st.exact(v)
		}
		out[i] = b
	}
	return out
}

func TestQuantizeRandom(t *testing.T) {
	n := 60
	if *long {
		n = 600
	}
	forAll(t, func(t *testing.T, f *Format, st srcType, rule ScaleRule, m round.Mode, sat bool) {
		rng := rand.New(rand.NewPCG(uint64(f.id), uint64(rule)<<8|uint64(m)))
		checkMX(t, f, st, rule, m, sat, randomBlocks(rng, st, f.BlockSize, n))
	})
}

// adversarialBlocks builds blocks around every edge the rules and the
// element rounding have, for the block maximum A: ties at the element
// precision after scaling, the element grid's points and neighbours,
// overflow beyond MAX, underflow below the smallest subnormal, amax at
// powers of two and at MAX * 2^k and their neighbours, NaN, infinities,
// zeros, subnormals and mixed magnitudes.
//
// memo keeps the neighbours found for each value (by its bits) from one
// call to the next with the same format and source type.
func adversarialBlocks(f *Format, st srcType, rule ScaleRule, memo map[uint64][]float64) [][]float64 {
	r := refElemOf(f)
	B := f.BlockSize
	var out [][]float64
	// add cuts b[1:] into blocks that each start with b[0], the maximum.
	add := func(b []float64) {
		rest := b[1:]
		for {
			k := min(B-1, len(rest))
			blk := make([]float64, B)
			blk[0] = b[0]
			copy(blk[1:], rest[:k])
			out = append(out, blk)
			rest = rest[k:]
			if len(rest) == 0 {
				break
			}
		}
	}
	next := func(v float64, dir float64) float64 { return st.exact(math.Nextafter(v, dir)) }
	// Neighbours of v in the source type: the value itself and the next
	// representable ones each way (found by stepping float64 and rounding).
	around := func(v float64) []float64 {
		v = st.exact(v)
		if o, ok := memo[math.Float64bits(v)]; ok {
			return o
		}
		out := []float64{v}
		defer func() { memo[math.Float64bits(v)] = out }()
		for _, dir := range []float64{math.Inf(1), math.Inf(-1)} {
			w := v
			for range 64 {
				w = math.Nextafter(w, dir)
				if u := st.exact(w); u != v && !math.IsInf(u, 0) && u == u {
					out = append(out, u)
					break
				}
				// step faster through the type's gaps
				w = v + (w-v)*2
			}
		}
		return out
	}
	_ = next
	maxv, _ := r.maxVal.Float64()
	// Block maxima to try: powers of two, MAX * 2^k, and Even's threshold
	// (2 - 2^-(m+1)) * 2^k, each with its neighbours in the source type.
	ks := []int{-140, -127, -126, -117, -100, -20, -3, 0, 1, 20, 100, 125, 127, 1000}
	var amaxes []float64
	for _, k := range ks {
		for _, base := range []float64{1, maxv, 2 - math.Ldexp(1, -(r.mbits+1))} {
			for _, a := range around(math.Ldexp(base, k)) {
				if a > 0 && !math.IsInf(a, 0) && st.exact(a) == a {
					amaxes = append(amaxes, a)
				}
			}
		}
	}
	grid := make([]float64, len(r.vals)+1)
	for i, v := range r.vals {
		grid[i], _ = v.Float64()
	}
	grid[len(r.vals)] = maxv + math.Ldexp(1, r.emax-r.mbits)
	// The grid points to visit: the bottom (zero, subnormals, the first
	// normals), the top (MAX and the point above), and a few more; every
	// point for some maxima.
	sub := 1 << r.mbits
	some := []int{0, 1, 2, sub - 1, sub, sub + 1, 2 * sub, len(grid) / 2, len(grid) - 4, len(grid) - 3, len(grid) - 2, len(grid) - 1}
	for ai, A := range amaxes {
		_, _, x := refScaleInt(r, rule, A)
		blk := []float64{A}
		idx := some
		if ai%16 == 0 {
			idx = nil
			for i := range grid {
				idx = append(idx, i)
			}
		}
		// Grid points, midpoints and their neighbours, scaled by 2^X, up
		// to A.
		var cands []float64
		for _, i := range idx {
			if i < 0 || i >= len(grid) {
				continue
			}
			cands = append(cands, around(math.Ldexp(grid[i], x))...)
			if i+1 < len(grid) {
				cands = append(cands, around(math.Ldexp((grid[i]+grid[i+1])/2, x))...)
			}
		}
		// Underflow: a quarter and a half of the smallest subnormal, tiny
		// values.
		minsub := grid[1]
		cands = append(cands, around(math.Ldexp(minsub/4, x))...)
		cands = append(cands, around(math.Ldexp(minsub/2, x))...)
		cands = append(cands, st.exact(math.Ldexp(A, -200)), st.exact(5e-324), st.exact(math.Ldexp(1, -149)))
		for _, c := range cands {
			if c > 0 && c <= A && !math.IsInf(c, 0) {
				blk = append(blk, c, -c)
			}
		}
		add(blk)
	}
	// Special blocks.
	nan, inf := math.NaN(), math.Inf(1)
	add([]float64{1, 2, nan, 3})
	add([]float64{inf, 1})
	add([]float64{-inf, 1e-3})
	add([]float64{nan, inf, -inf})
	add([]float64{-inf, nan})
	add([]float64{0, math.Copysign(0, -1), 0})
	add([]float64{st.exact(math.Ldexp(1, -149)), st.exact(-math.Ldexp(3, -149)), st.exact(math.Ldexp(1, -130))})
	add([]float64{st.exact(math.MaxFloat32), st.exact(-math.MaxFloat32), 1, 1e-30})
	add([]float64{st.exact(math.MaxFloat64), st.exact(math.SmallestNonzeroFloat64), -1})
	add([]float64{st.exact(65504), st.exact(6.1e-5), st.exact(-5.96e-8)})
	return out
}

func TestQuantizeAdversarial(t *testing.T) {
	// forAll's loops, with the blocks (which depend on the format, source
	// type and rule only) built once for every mode and saturation.
	for _, f := range mxFormats {
		for _, st := range srcTypes {
			t.Run(f.Name+"/"+st.name, func(t *testing.T) {
				t.Parallel()
				memo := map[uint64][]float64{}
				for _, rule := range Rules {
					blocks := adversarialBlocks(f, st, rule, memo)
					for _, m := range round.Modes {
						for _, sat := range []bool{true, false} {
							if !sat && f.ElemBits() < 8 {
								continue
							}
							checkMX(t, f, st, rule, m, sat, blocks)
						}
					}
				}
			})
		}
	}
}

// TestQuantize16Bit quantizes every half and every bfloat16 pattern p in
// blocks [p, -p, A] for fixed block maxima A (p dominates when larger), for
// every format, rule and mode.
func TestQuantize16Bit(t *testing.T) {
	amaxes := []float64{1, 0.75, 448, 6, 1e-3, 3e4}
	for _, f := range mxFormats {
		for _, st := range srcTypes[2:] {
			t.Run(f.Name+"/"+st.name, func(t *testing.T) {
				t.Parallel()
				var blocks [][]float64
				for p := range 1 << 16 {
					var v float64
					if st.name == "half" {
						v = half.FromBits(uint16(p)).Float64()
					} else {
						v = bfloat16.FromBits(uint16(p)).Float64()
					}
					b := make([]float64, f.BlockSize)
					b[0], b[1] = v, -v
					b[2] = st.exact(amaxes[p%len(amaxes)])
					blocks = append(blocks, b)
				}
				if testing.Short() {
					var some [][]float64
					for i := 0; i < len(blocks); i += 8 * testvals.Stride(6) {
						some = append(some, blocks[i])
					}
					blocks = some
				}
				for _, rule := range Rules {
					for _, m := range round.Modes {
						checkMX(t, f, st, rule, m, true, blocks)
					}
				}
			})
		}
	}
}

func TestSharedExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range mxFormats {
		r := refElemOf(f)
		for _, rule := range Rules {
			try := func(a float64) {
				got := SharedExp(f, rule, a)
				code, clamped, _ := refScaleInt(r, rule, math.Abs(a))
				if int(got.Code) != code || got.Clamped != clamped {
					t.Fatalf("%s %s: SharedExp(%g) = %+v, want code %#x clamped %v", f, rule, a, got, code, clamped)
				}
				if a != 0 && !math.IsNaN(a) && !math.IsInf(a, 0) {
					if want := refSharedXInt(r, rule, math.Abs(a)); got.X != want {
						t.Fatalf("%s %s: SharedExp(%g).X = %d, want %d", f, rule, a, got.X, want)
					}
				}
			}
			for e := -1075; e <= 1024; e += testvals.Stride(3) {
				for _, m := range []float64{1, 1.5, 1.75, 1.875, 1.9375, 1.96875, 1.25, 1.125, 1.0625} {
					v := math.Ldexp(m, e)
					try(v)
					try(math.Nextafter(v, 0))
					try(math.Nextafter(v, math.Inf(1)))
					try(-v)
				}
				try(math.Ldexp(1+rng.Float64(), e))
			}
			try(0)
			try(math.NaN())
			try(math.Inf(1))
			try(math.Inf(-1))
			try(math.MaxFloat64)
			try(5e-324)
		}
	}
	if got := SharedExp(NVFP4, Floor, 1); got.Code != 0xFF {
		t.Errorf("SharedExp(NVFP4) = %+v", got)
	}
}

// TestEvenMatchesTorchao checks the Even rule against torchao's own bit
// arithmetic on float32 amax (mx_tensor.py, to_mx, ScaleCalculationMode.EVEN:
// add 1 << (23 - mbits - 1) to the bits, clear the mantissa, take the
// exponent field minus 127 and the element's max_pow2, clamp to [-127,
// 128], NaN for a non-finite result) over every float32 exponent and the
// mantissas around the threshold. torchao turns amax near MaxFloat32 into
// infinity and so into a NaN scale where the exact rule does not; those
// are skipped and counted.
func TestEvenMatchesTorchao(t *testing.T) {
	for _, f := range mxFormats {
		mbits := f.Elem.MantBits
		emax := f.Elem.Emax()
		skipped := 0
		for e := uint32(0); e < 255; e++ {
			for _, mant := range []uint32{0, 1, 0x7fffff, 0x400000, 0x7fffff - 1<<(22-mbits), 0x800000 - 1<<(22-mbits), 0x800000 - 1<<(22-mbits) - 1, 0x800000 - 1<<(22-mbits) + 1, 0x200000, 0x600000} {
				b := e<<23 | mant&0x7fffff
				tb := (b + 1<<(22-mbits)) & 0xff800000
				var code int
				if tb>>23 == 0xff {
					skipped++
					continue
				}
				x := int(tb>>23) - 127 - emax
				x = max(-127, min(128, x))
				code = x + 127
				if b == 0 {
					continue // zero: both give 0x00, tested elsewhere
				}
				got := SharedExp(f, Even, float64(math.Float32frombits(b)))
				if int(got.Code) != code {
					t.Errorf("%s: amax %#08x: Even gives %#02x, torchao %#02x", f, b, got.Code, code)
				}
			}
		}
		if skipped == 0 {
			t.Errorf("%s: expected torchao's overflow near MaxFloat32", f)
		}
	}
}

// TestFromFloat32 checks the float32 element rounder with the reference in
// internal/minifloat on every float32 exponent and many mantissas.
func TestFromFloat32(t *testing.T) {
	mants := []uint32{0, 1, 2, 3, 0x7fffff, 0x7ffffe, 0x400000, 0x3fffff, 0x400001}
	for k := range 24 {
		mants = append(mants, 1<<k, 1<<k-1, 1<<k+1, 3<<k>>1)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		mants = append(mants, rng.Uint32()&0x7fffff)
	}
	for id, e := range elemInfos {
		_ = id
		for ex := uint32(0); ex < 255; ex++ {
			for _, mt := range mants {
				for _, sign := range []uint32{0, 1 << 31} {
					b := sign | ex<<23 | mt&0x7fffff
					for _, m := range round.Modes {
						for _, sat := range []bool{false, true} {
							want := uint8(minifloat.FromFloat32Bits(e.f, b, m, sat))
							got, _ := e.finish(e.fromFloat32(tiny32(b&0x7fffffff), sign != 0, m), sign != 0, m, sat)
							if got != want {
								t.Fatalf("%s: %#08x %s sat=%v: %#02x, want %#02x", e.f.Name, b, m, sat, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// parallel runs fn(i) for i in [0, n) on every core.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	w := runtime.GOMAXPROCS(0)
	for k := range w {
		wg.Go(func() {
			for i := k; i < n; i += w {
				fn(i)
			}
		})
	}
	wg.Wait()
}

// TestDequantizeMX decodes every element code under every E8M0 scale into
// every destination type in every mode and compares with the reference.
func TestDequantizeMX(t *testing.T) {
	type dest struct {
		ref refDest
		run func(f *Format, elems, scales []byte, opt Options) ([]float64, Stats, error)
	}
	mk := func(ref refDest, run func(f *Format, elems, scales []byte, opt Options) ([]float64, Stats, error)) dest {
		return dest{ref, run}
	}
	dests := []dest{
		mk(refF32, func(f *Format, elems, scales []byte, opt Options) ([]float64, Stats, error) {
			d := make([]float32, len(elems))
			st, err := Dequantize(f, d, elems, scales, f.BlockSize, opt)
			out := make([]float64, len(d))
			for i, v := range d {
				out[i] = float64(v)
			}
			return out, st, err
		}),
		mk(refF64, func(f *Format, elems, scales []byte, opt Options) ([]float64, Stats, error) {
			d := make([]float64, len(elems))
			st, err := Dequantize(f, d, elems, scales, f.BlockSize, opt)
			return d, st, err
		}),
		mk(refHalf, func(f *Format, elems, scales []byte, opt Options) ([]float64, Stats, error) {
			d := make([]half.Half, len(elems))
			st, err := Dequantize(f, d, elems, scales, f.BlockSize, opt)
			out := make([]float64, len(d))
			for i, v := range d {
				out[i] = v.Float64()
			}
			return out, st, err
		}),
		mk(refBF16, func(f *Format, elems, scales []byte, opt Options) ([]float64, Stats, error) {
			d := make([]bfloat16.BFloat16, len(elems))
			st, err := Dequantize(f, d, elems, scales, f.BlockSize, opt)
			out := make([]float64, len(d))
			for i, v := range d {
				out[i] = v.Float64()
			}
			return out, st, err
		}),
	}
	// Sampled (under emulation and the race detector), the reference checks
	// the codes c under the scales s with (c+s) % 4 == 0: every code under a
	// quarter of the scales, every scale with a quarter of the codes, and
	// the NaN scale's blocks in full. The plain run checks every pair.
	stride := testvals.Stride(4)
	for _, f := range mxFormats {
		r := refElemOf(f)
		B := f.BlockSize
		// Every code (all 256 byte values: bits above the width are
		// ignored) in blocks of B, under every scale.
		var elems, scales []byte
		for s := range 256 {
			for c := 0; c < 256; c += B {
				for k := range B {
					elems = append(elems, byte(c+k))
				}
				scales = append(scales, byte(s))
			}
		}
		for _, d := range dests {
			for _, m := range round.Modes {
				t.Run(fmt.Sprintf("%s/%s/%s", f, d.ref.name, m), func(t *testing.T) {
					t.Parallel()
					got, st, err := d.run(f, elems, scales, Options{Mode: m})
					if err != nil {
						t.Fatal(err)
					}
					var mu sync.Mutex
					nan := 0
					fails := 0
					parallel(len(elems), func(i int) {
						s := scales[i/B]
						var want float64
						if s == 0xFF {
							want = math.NaN()
							if i%B == 0 {
								mu.Lock()
								nan++
								mu.Unlock()
							}
						} else {
							if (int(elems[i])+int(s))%stride != 0 {
								return // sampled: a diagonal of codes x scales
							}
							v, isNaN, isInf, neg := refElemInt(r, int(elems[i]))
							switch {
							case isNaN:
								want = math.NaN()
							case isInf:
								want = math.Inf(1)
								if neg {
									want = -want
								}
							default:
								want = roundDestInt(v.pow2(int(s)-127), d.ref, m)
								if v.isZero() && neg {
									want = math.Copysign(0, -1)
								}
							}
						}
						g := got[i]
						if !(g == want && math.Signbit(g) == math.Signbit(want) || math.IsNaN(g) && math.IsNaN(want)) {
							mu.Lock()
							if fails < 5 {
								t.Errorf("code %#02x scale %#02x: %g, want %g", elems[i], s, g, want)
							}
							fails++
							mu.Unlock()
						}
					})
					if st.NaNBlocks != nan {
						t.Errorf("NaNBlocks %d, want %d", st.NaNBlocks, nan)
					}
				})
			}
		}
	}
}

// ratOf is v as a big.Rat (v finite).
func ratOf(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// TestRCEILMatchesTorchao compares the exact RCEIL rule with torchao's
// float32 arithmetic for it (_to_mx_rceil, eager: descale = amax *
// float32(1/max), then rounded up to a power of two, _f32_to_e8m0_rceil)
// on every float32 mantissa of one binade (the product's rounding is the
// same in every binade where it stays normal) and every exponent with some
// mantissas. The float32 product could in principle round across a power
// of two; this shows that it never does for these five maxima.
func TestRCEILMatchesTorchao(t *testing.T) {
	torchao := func(amax float32, max float32) uint8 {
		d := amax * (1 / max)
		b := math.Float32bits(d)
		be, man := b>>23&0xff, b&0x7fffff
		up := man != 0
		if be == 0 {
			up = man > 0x400000
		}
		if be == 0xff {
			return 0xff
		}
		return uint8(be + b2u(up))
	}
	subnormal := 0
	var mx float32 // minifloatMax of the format being checked
	check := func(f *Format, b uint32) {
		a := math.Float32frombits(b)
		if got, want := SharedExp(f, RCEIL, float64(a)).Code, torchao(a, mx); got != want {
			// Where amax / max is below 2^-126 torchao's product is a
			// float32 subnormal, rounded to a multiple of 2^-149, and
			// just above 2^-127 it can round to 2^-127 (code 0 where
			// the exact rule gives 1).
			if d := a * (1 / mx); d < 0x1p-126 && got == 1 && want == 0 {
				subnormal++
				return
			}
			t.Fatalf("%s: amax %#08x: RCEIL %#02x, torchao %#02x", f, b, got, want)
		}
	}
	for _, f := range mxFormats {
		mx, _ = minifloatMax(f)
		for m := uint32(0); m < 1<<23; m++ {
			if testing.Short() && m%7 != 0 {
				continue
			}
			check(f, 100<<23|m)
		}
		for e := uint32(1); e < 255; e++ {
			for _, m := range []uint32{0, 1, 0x7fffff, 0x400000, 0x600000, 0x700000, 0x5fffff, 0x600001} {
				check(f, e<<23|m)
			}
		}
		// Every amax whose quotient lies just above 2^-127.
		lo := math.Float32bits(float32(0x1p-127 * float64(func() float32 { m, _ := minifloatMax(f); return m }())))
		for b := lo - 64; b < lo+1<<16; b++ {
			check(f, b)
		}
	}
	if subnormal == 0 {
		t.Error("expected torchao's subnormal rounding to differ somewhere")
	}
	t.Logf("torchao's float32 RCEIL differs from the exact rule on %d amax values, all with amax / max below 2^-126", subnormal)
}

func minifloatMax(f *Format) (float32, bool) {
	return math.Float32frombits(minifloat.ToFloat32Bits(f.Elem, f.Elem.MaxBits())), true
}
