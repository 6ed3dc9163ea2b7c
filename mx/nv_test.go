package mx

import (
	"fmt"
	"github.com/clconv/clconv/internal/testvals"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// ratFloor2 returns floor(log2(a)) for a > 0.
func ratFloor2(a *big.Rat) int {
	f, _ := a.Float64()
	e := 0
	if f != 0 && !math.IsInf(f, 0) {
		e = refFloorLog2(f)
	}
	for ratPow2(1, e).Cmp(a) > 0 {
		e--
	}
	for ratPow2(1, e+1).Cmp(a) <= 0 {
		e++
	}
	return e
}

// roundRat rounds the exact value v into the binary format d in mode m (as
// roundDest, for a rational).
func roundRat(v *big.Rat, d refDest, m round.Mode) float64 {
	if v.Sign() == 0 {
		return 0
	}
	neg := v.Sign() < 0
	a := new(big.Rat).Abs(v)
	qe := max(ratFloor2(a), d.emin) - (d.p - 1)
	n := new(big.Rat).Mul(a, ratPow2(1, -qe))
	fl := new(big.Int).Quo(n.Num(), n.Denom())
	rem := new(big.Rat).Sub(n, new(big.Rat).SetInt(fl))
	up := false
	if rem.Sign() != 0 {
		switch m {
		case round.RTZ:
		case round.RTP:
			up = !neg
		case round.RTN:
			up = neg
		default:
			c := rem.Cmp(big.NewRat(1, 2))
			up = c > 0 || c == 0 && fl.Bit(0) == 1
		}
	}
	if up {
		fl.Add(fl, big.NewInt(1))
	}
	res := new(big.Rat).Mul(new(big.Rat).SetInt(fl), ratPow2(1, qe))
	maxv := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(d.p)), big.NewInt(1))), ratPow2(1, d.emax-d.p+1))
	var out float64
	if res.Cmp(maxv) > 0 {
		if m == round.RTZ || m == round.RTP && neg || m == round.RTN && !neg {
			out, _ = maxv.Float64()
		} else {
			out = math.Inf(1)
		}
	} else {
		out, _ = res.Float64()
	}
	if neg {
		out = -out
	}
	return out
}

// rn32 is a float32 operation's result: the exact value rounded to nearest
// even into binary32.
func rn32(v *big.Rat) float64 { return roundRat(v, refF32, round.RTE) }

var gridRats sync.Map // *refElem -> [2][]*big.Rat

// gridRat returns the element grid of r (codes 0 .. maxCode and the point
// above MAX) and its midpoints as rationals.
func gridRat(r *refElem) (g, mids []*big.Rat) {
	if v, ok := gridRats.Load(r); ok {
		gm := v.([2][]*big.Rat)
		return gm[0], gm[1]
	}
	defer func() { gridRats.Store(r, [2][]*big.Rat{g, mids}) }()
	for _, v := range r.vals {
		g = append(g, v)
	}
	g = append(g, new(big.Rat).Add(r.maxVal, ratPow2(1, r.emax-r.mbits)))
	for i := 0; i+1 < len(g); i++ {
		m := new(big.Rat).Add(g[i], g[i+1])
		mids = append(mids, m.Quo(m, big.NewRat(2, 1)))
	}
	return g, mids
}

// roundElemRat rounds the magnitude a of a value of sign neg into r's grid
// in mode m; maxCode+1 stands for beyond MAX.
func roundElemRat(r *refElem, a *big.Rat, neg bool, m round.Mode) int {
	g, mids := gridRat(r)
	top := len(g) - 1
	if a.Cmp(g[top]) >= 0 {
		return top
	}
	lo := sort.Search(len(g), func(k int) bool { return g[k].Cmp(a) > 0 }) - 1
	if g[lo].Cmp(a) == 0 {
		return lo
	}
	up := false
	switch m {
	case round.RTZ:
	case round.RTP:
		up = !neg
	case round.RTN:
		up = neg
	default:
		c := a.Cmp(mids[lo])
		up = c > 0 || c == 0 && lo%2 == 1
	}
	if up {
		return lo + 1
	}
	return lo
}

// castFP4 is ModelOpt's _cast_fp4, literally: searchsorted over the E2M1
// bounds, plus one at the odd bounds 0.75, 1.75 and 3.5, the sign from
// q < 0 (and no saturation needed: searchsorted stops at 7).
func castFP4(q float64) int {
	bounds := []float64{0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5}
	a := math.Abs(q)
	ord := sort.SearchFloat64s(bounds, a) // the first index with bounds[i] >= a
	for _, b := range []float64{0.75, 1.75, 3.5} {
		if a == b {
			ord++
		}
	}
	sign := 0
	if q < 0 {
		sign = 1
	}
	return sign<<3 + ord
}

type nvRefStats struct {
	clamped, flushed, nanIn, infIn, zeroBlocks, nanBlocks, scaleClamped int
}

// refNV quantizes vals (one row of rowLen) into NVFP4 codes and scales from
// the recipe's formulas.
func refNV(vals []float64, rowLen int, recipe NVRecipe, m, sm round.Mode, givenTS float32, is64 bool) (codes, scales []int, ts float64, st nvRefStats) {
	const B = 16
	amax := 0.0
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
			st.nanIn++
		case math.IsInf(v, 0):
			st.infIn++
		default:
			amax = math.Max(amax, math.Abs(v))
		}
	}
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	mul := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
	quo := func(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }
	switch {
	case givenTS != 0:
		ts = float64(givenTS)
	case recipe == Exact:
		ts = rn32(quo(rat(amax), big.NewRat(2688, 1)))
	case recipe == ModelOptCUDA:
		ts = rn32(mul(rat(rn32(rat(amax))), rat(rn32(big.NewRat(1, 2688)))))
	default:
		ts = rn32(quo(rat(rn32(rat(amax))), big.NewRat(2688, 1)))
	}
	rows := len(vals) / rowLen
	bpr := (rowLen + B - 1) / B
	for r := range rows {
		for j := range bpr {
			blk := vals[r*rowLen+j*B : r*rowLen+min((j+1)*B, rowLen)]
			bmax := 0.0
			bad := false
			for _, v := range blk {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad = true
				}
				bmax = math.Max(bmax, math.Abs(v))
			}
			bc := make([]int, B)
			if bad {
				st.nanBlocks++
				scales = append(scales, 0x7f)
				codes = append(codes, bc...)
				continue
			}
			var sc int
			switch {
			case bmax == 0:
				st.zeroBlocks++
				sc = 0x38
			case recipe == Exact:
				sc = roundElemRat(refE4M3, quo(rat(bmax), mul(big.NewRat(6, 1), rat(ts))), false, sm)
				switch {
				case sc == 0:
					sc = 1
					st.scaleClamped++
				case sc > 0x7e:
					sc = 0x7e
					st.scaleClamped++
				}
			default:
				b32 := rn32(rat(bmax))
				d := rn32(mul(big.NewRat(6, 1), rat(ts)))
				s32 := rn32(quo(rat(b32), rat(d)))
				switch {
				case s32 == 0:
					s32 = 1
				case s32 < 0x1p-9:
					s32 = 0x1p-9
					st.scaleClamped++
				case s32 > 448:
					s32 = 448
					st.scaleClamped++
				}
				sc = roundElemRat(refE4M3, rat(s32), false, sm)
				sc = min(sc, 0x7e)
			}
			scales = append(scales, sc)
			sv := new(big.Rat).Set(refE4M3.vals[sc])
			for i, x := range blk {
				var c int
				var over bool
				if recipe == Exact {
					neg := math.Signbit(x)
					if x != 0 {
						c = roundElemRat(refE2M1, quo(new(big.Rat).Abs(rat(x)), mul(sv, rat(ts))), neg, m)
					}
					if over = c > 7; over {
						c = 7
					}
					if neg {
						c |= 8
					}
				} else {
					svf, _ := sv.Float64()
					dd := rn32(mul(rat(svf), rat(ts)))
					var q float64
					if x == 0 {
						// 0 / d is ±0 (NaN for the all-zero tensor's d = 0): code 0.
					} else if is64 {
						q = roundRat(quo(rat(x), rat(dd)), refF64, round.RTE)
					} else {
						q = rn32(quo(rat(x), rat(dd)))
					}
					neg := q < 0
					if q == 0 {
						c = 0
					} else {
						c = roundElemRat(refE2M1, new(big.Rat).Abs(rat(q)), neg, m)
						if over = c > 7; over {
							c = 7
						}
						if neg {
							c |= 8
						}
					}
					if m == round.RTE {
						if lit := castFP4(q); lit != c {
							panic(fmt.Sprintf("castFP4(%g) = %#x, reference %#x", q, lit, c))
						}
					}
				}
				if over {
					st.clamped++
				}
				if x != 0 && c&7 == 0 {
					st.flushed++
				}
				bc[i] = c
			}
			codes = append(codes, bc...)
		}
	}
	return codes, scales, ts, st
}

// nvTensors returns test tensors (rows of rowLen) of exact values of st.
func nvTensors(rng *rand.Rand, st srcType) (out [][]float64, rowLens []int) {
	mk := func(n int, gen func(i int) float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = st.exact(gen(i))
		}
		return v
	}
	for t := range 12 {
		scale := math.Ldexp(1, rng.IntN(40)-20)
		n := 16 * 8
		v := mk(n, func(i int) float64 {
			bs := math.Ldexp(1, rng.IntN(12)-6)
			x := rng.NormFloat64() * scale * bs
			switch rng.IntN(40) {
			case 0:
				x = 0
			case 1:
				x = math.Copysign(0, -1)
			case 2:
				if t%3 == 0 {
					x = math.NaN()
				}
			case 3:
				if t%4 == 0 {
					x = math.Inf(-1)
				}
			}
			return x
		})
		// An all-zero block, and ties of E2M1 around the block's scale.
		if t%2 == 0 {
			for i := 16; i < 32; i++ {
				v[i] = 0
			}
		}
		out = append(out, v)
		rowLens = append(rowLens, 32)
	}
	// Elements at every E2M1 midpoint of a block whose scale is exact.
	for _, A := range []float64{6, 6 * 448, 3, 1e-3, 12, 7, 6.375, 13.5, 14.25} {
		var v []float64
		for _, g := range []float64{0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5, 7, 0.5, 6, 0.1} {
			v = append(v, st.exact(A), st.exact(g*A/6), st.exact(-g*A/6), st.exact(math.Nextafter(g*A/6, 0)), st.exact(math.Nextafter(g*A/6, 10)))
		}
		for len(v)%16 != 0 {
			v = append(v, 0)
		}
		out = append(out, v)
		rowLens = append(rowLens, len(v))
	}
	// A padded row (24 = 16 + 8) and an all-zero tensor.
	out = append(out, mk(48, func(i int) float64 { return rng.NormFloat64() }), make([]float64, 32))
	rowLens = append(rowLens, 24, 16)
	return out, rowLens
}

func TestQuantizeNVFP4(t *testing.T) {
	for _, st := range srcTypes {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, uint64(len(st.name))))
			tensors, rowLens := nvTensors(rng, st)
			for ti, vals := range tensors {
				rowLen := rowLens[ti]
				for _, recipe := range []NVRecipe{ModelOpt, ModelOptCUDA, Exact} {
					for _, m := range round.Modes {
						sms, givens := round.Modes, []float32{0, 0.01, 1}
						if testing.Short() {
							sms, givens = []round.Mode{round.RTE, round.RTP}, []float32{0, 1}
						}
						if testvals.Sampled() && (int(m)+int(recipe)+ti)%3 != 0 {
							continue // the ports and -race: a third of the cases, every mode and recipe still met
						}
						for _, sm := range sms {
							for _, given := range givens {
								opt := Options{Recipe: recipe, Mode: m, ScaleMode: sm, TensorScale: given, Pad: true}
								B := 16
								nb := len(vals) / rowLen * ((rowLen + B - 1) / B)
								dst := make([]byte, nb*B)
								scales := make([]byte, nb)
								got, err := st.quantize(NVFP4, dst, scales, vals, rowLen, opt)
								if err != nil {
									t.Fatalf("tensor %d: %v", ti, err)
								}
								codes, wscales, ts, rs := refNVInt(vals, rowLen, recipe, m, sm, given, st.name == "float64")
								if float64(got.TensorScale) != ts {
									t.Fatalf("tensor %d %s: tensor scale %g, want %g", ti, recipe, got.TensorScale, ts)
								}
								for i, s := range wscales {
									if int(scales[i]) != s {
										t.Fatalf("tensor %d %s %s scale %s: block %d scale %#02x, want %#02x", ti, recipe, m, sm, i, scales[i], s)
									}
								}
								for i, c := range codes {
									if int(dst[i]) != c {
										t.Fatalf("tensor %d %s %s scale %s: element %d: %#x, want %#x", ti, recipe, m, sm, i, dst[i], c)
									}
								}
								gs := nvRefStats{got.Clamped, got.Flushed, got.NaNInputs, got.InfInputs, got.ZeroBlocks, got.NaNBlocks, got.ScaleClamped}
								if gs != rs {
									t.Fatalf("tensor %d %s %s: stats %+v, want %+v", ti, recipe, m, gs, rs)
								}
							}
						}
					}
				}
			}
		})
	}
}

// TestDequantizeNVFP4 decodes every E2M1 code under every E4M3 scale and
// several tensor scales into every destination type and mode.
func TestDequantizeNVFP4(t *testing.T) {
	var elems, scales []byte
	for s := range 256 {
		for c := range 16 {
			elems = append(elems, byte(c))
		}
		scales = append(scales, byte(s))
	}
	tss := []float32{1, 0.01, math.MaxFloat32 / 2, 0x1p-149, 0x1p-126, 3.3e-5, 1.0000001, 5e20}
	for _, ts := range tss {
		for _, m := range round.Modes {
			t.Run(fmt.Sprintf("%g/%s", ts, m), func(t *testing.T) {
				opt := Options{Mode: m, TensorScale: ts}
				f32 := make([]float32, len(elems))
				f64 := make([]float64, len(elems))
				h := make([]half.Half, len(elems))
				b := make([]bfloat16.BFloat16, len(elems))
				for _, run := range []func() (Stats, error){
					func() (Stats, error) { return Dequantize(NVFP4, f32, elems, scales, 16, opt) },
					func() (Stats, error) { return Dequantize(NVFP4, f64, elems, scales, 16, opt) },
					func() (Stats, error) { return Dequantize(NVFP4, h, elems, scales, 16, opt) },
					func() (Stats, error) { return Dequantize(NVFP4, b, elems, scales, 16, opt) },
				} {
					if _, err := run(); err != nil {
						t.Fatal(err)
					}
				}
				for i, c := range elems {
					s := scales[i/16]
					ev, _, _, eneg := refElemInt(refE2M1, int(c))
					sv, snan, _, sneg := refElemInt(refE4M3, int(s))
					check := func(name string, d refDest, got float64) {
						var want float64
						if snan {
							want = math.NaN()
						} else {
							v := xmul(xmul(ev, sv), xf(float64(ts)))
							want = roundDestInt(v, d, m)
							if v.isZero() && eneg != sneg {
								want = math.Copysign(0, -1)
							}
						}
						if !(got == want && math.Signbit(got) == math.Signbit(want) || math.IsNaN(got) && math.IsNaN(want)) {
							t.Fatalf("%s: code %#x scale %#02x ts %g: %g, want %g", name, c, s, ts, got, want)
						}
					}
					check("float32", refF32, float64(f32[i]))
					check("float64", refF64, f64[i])
					check("half", refHalf, h[i].Float64())
					check("bfloat16", refBF16, b[i].Float64())
				}
			})
		}
	}
}
