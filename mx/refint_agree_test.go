package mx

// TestIntRefMatchesBig shows that the integer reference (refint_test.go)
// and the math/big reference (ref_test.go, nv_test.go) agree, part by part:
// rounding into every destination format and element format in every mode
// and sign, over every mantissa of a few bits more than the precision (for
// float and double: the last six bits in every pattern under random top
// bits) with the leading bit in every subnormal binade, the binades next to
// the smallest normal and the largest, beyond overflow, and about 32 normal
// binades between (agreeExps), wide random mantissas and quotients there;
// the element values and codes (saturation and overflow) around every grid
// point; the shared exponent of every rule; and the NVFP4 recipes on a fifth
// of TestQuantizeNVFP4's cases and extreme tensors. The plain run checks all
// of that (about 2 million cases); -short a sample of every part, format and
// mode, thinner when sampled (the ports).

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// agreeStride is the step through the exhaustive sweeps: 1 in the plain
// run, more with -short or sampled.
func agreeStride() int {
	switch {
	case testvals.Sampled():
		return 61
	case testing.Short():
		return 13
	}
	return 1
}

func bigOf(a xv) *big.Float {
	if a.d != 1 {
		panic("bigOf: not dyadic")
	}
	f := new(big.Float).SetPrec(exactPrec).SetUint64(a.n)
	f.SetMantExp(f, a.e)
	if a.neg {
		f.Neg(f)
	}
	return f
}

func ratOfX(a xv) *big.Rat {
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(a.n), new(big.Int).SetUint64(a.d))
	r.Mul(r, ratPow2(1, a.e))
	if a.neg {
		r.Neg(r)
	}
	return r
}

// agreeExps calls fn with the exponents from emin-p-2 (below half the
// smallest subnormal of a format of precision p and smallest normal
// exponent emin) to emax+2 (beyond overflow): all of the subnormal binades
// and those next to emin and emax, and about 32 of the normal binades
// between (their rounding is the same), fewer when sampled.
func agreeExps(p, emin, emax int, fn func(E int)) {
	mid := max(8, (emax-emin)/32) * agreeStride()
	for E := emin - p - 2; E <= emax+2; E++ {
		if E <= emin+2 || E >= emax-2 || E%mid == 0 {
			fn(E)
		}
	}
}

// agreeValues calls fn with values around the rounding edges of a format of
// precision p whose binades run from emin (smallest normal exponent) to
// emax: n * 2^e for every n of p+w bits (the leading bit, p-1 more, a
// rounding bit and w-1 sticky bits; every stride-th when sampled) with the
// leading bit at each exponent of agreeExps, random 64-bit mantissas and
// small integers there.
func agreeValues(p, emin, emax, w int, rng *rand.Rand, fn func(a xv)) {
	stride := agreeStride()
	lo, hi := uint64(1)<<(p+w-1), uint64(1)<<(p+w)
	agreeExps(p, emin, emax, func(E int) {
		for n := lo + uint64(E&7)%uint64(stride); n < hi; n += uint64(stride) {
			fn(xi(n, E-(p+w-1)))
		}
		for range 16 {
			n := rng.Uint64() | 1<<63
			fn(xi(n, E-63))
			k := rng.IntN(64)
			fn(xi(n>>k, E-63+k))
		}
		for n := uint64(1); n < 16; n++ {
			fn(xi(n, E))
		}
	})
}

// agreeQuotients calls fn with quotients n/d * 2^e of odd d (those of the
// tests: 3, 21 from 2688, float32 and float64 significands, and random
// ones), the quotient's leading bit at each exponent of agreeExps.
func agreeQuotients(p, emin, emax int, rng *rand.Rand, fn func(a xv)) {
	ds := []uint64{3, 5, 7, 21, 0xffffff, 0xfffffd, 1<<53 - 1, 3 * 7 * 11 * 13}
	for range 4 {
		ds = append(ds, rng.Uint64N(1<<24)|1, rng.Uint64N(1<<53)|1)
	}
	agreeExps(p, emin, emax, func(E int) {
		for i, d := range ds {
			if (i+E)%agreeStride() != 0 {
				continue
			}
			n := rng.Uint64N(1<<53) | 1<<52
			fn(xv{false, n, d, E - 52 + bits.Len64(d)}.norm())
			n = rng.Uint64N(1<<24) | 1
			fn(xv{false, n, d, E - 24 + bits.Len64(d)}.norm())
			k := rng.Uint64N(1<<10) | 1 // an exact quotient (k*d) / d
			fn(xv{false, k * d, d, E - 10}.norm())
		}
	})
}

// bigDest is the math/big reference's rounding of a into d: roundDest for
// a dyadic value, roundRat for a quotient.
func bigDest(a xv, d refDest, m round.Mode) float64 {
	if a.d == 1 {
		return roundDest(bigOf(a), d, m)
	}
	return roundRat(ratOfX(a), d, m)
}

// bigElem is the math/big reference's rounding of a into r's grid (the
// magnitude's code, maxCode+1 beyond MAX): refElem.round for a dyadic
// value, roundElemRat for a quotient.
func bigElem(r *refElem, a xv, m round.Mode) int {
	if a.d == 1 {
		return r.round(bigOf(a.abs()), a.neg, m)
	}
	return roundElemRat(r, ratOfX(a.abs()), a.neg, m)
}

// agreement counts the cases of one part and reports the first
// disagreements.
type agreement struct {
	t           *testing.T
	name        string
	n, failures int
}

func (g *agreement) check(ok bool, format string, args ...any) {
	g.t.Helper()
	g.n++
	if !ok {
		if g.failures++; g.failures <= 5 {
			g.t.Errorf(g.name+": "+format, args...)
		}
	}
}

func (g *agreement) done() {
	g.t.Helper()
	if g.n == 0 {
		g.t.Errorf("%s: no cases", g.name)
	}
	g.t.Logf("%s: %d cases", g.name, g.n)
}

func TestIntRefMatchesBig(t *testing.T) {
	for _, d := range []refDest{refF32, refF64, refHalf, refBF16} {
		t.Run("dest/"+d.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(d.p), 1))
			g := &agreement{t: t, name: d.name}
			check := func(a xv) {
				for _, neg := range []bool{false, true} {
					a.neg = neg
					for _, m := range round.Modes {
						got, want := roundDestInt(a, d, m), bigDest(a, d, m)
						g.check(math.Float64bits(got) == math.Float64bits(want), "%s: %d/%d * 2^%d (neg %v): integer %g, big %g", m, a.n, a.d, a.e, neg, got, want)
					}
				}
			}
			if d.p <= 11 {
				// half, bfloat16: every mantissa of p+2 bits.
				agreeValues(d.p, d.emin, d.emax, 2, rng, check)
			} else {
				// float32, float64: the top p-3 bits at random, the last 3
				// and the 3 below them in every pattern.
				agreeExps(d.p, d.emin, d.emax, func(E int) {
					for range 4 {
						top := rng.Uint64N(1<<(d.p-4)) | 1<<(d.p-4)
						for low := uint64(E&7) % uint64(agreeStride()); low < 1<<6; low += uint64(agreeStride()) {
							check(xi(top<<6|low, E-(d.p+2)))
						}
						check(xi(rng.Uint64()|1<<63, E-63))
					}
					for n := uint64(1); n < 16; n++ {
						check(xi(n, E))
					}
				})
			}
			agreeQuotients(d.p, d.emin, d.emax, rng, check)
			g.done()
		})
	}
	for _, r := range []*refElem{refE4M3, refE5M2, refE2M3, refE3M2, refE2M1} {
		t.Run("elem/"+r.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(r.signShift), 2))
			g := &agreement{t: t, name: r.name}
			check := func(a xv) {
				for _, neg := range []bool{false, true} {
					a.neg = neg
					for _, m := range round.Modes {
						got, want := roundElemInt(r, a, m), bigElem(r, a, m)
						g.check(got == want, "%s: %d/%d * 2^%d (neg %v): integer code %#x, big %#x", m, a.n, a.d, a.e, neg, got, want)
					}
				}
			}
			p, emin := r.mbits+1, 1-r.bias
			agreeValues(p, emin, r.emax+8, 4, rng, check)
			agreeQuotients(p, emin, r.emax+8, rng, check)
			// Every code's value, and code and codeInt (saturation and
			// overflow) on values v * 2^-x around every grid point.
			for c := range 256 {
				iv, inan, iinf, ineg := refElemInt(r, c)
				bv, bnan, binf, bneg := refElemValue(r, c)
				ok := inan == bnan && iinf == binf && ineg == bneg
				if ok && bv != nil {
					ok = ratOfX(iv).Cmp(func() *big.Rat { q, _ := bv.Rat(nil); return q }()) == 0
				}
				g.check(ok, "code %#x: integer %+v %v %v %v, big %v %v %v %v", c, iv, inan, iinf, ineg, bv, bnan, binf, bneg)
			}
			for i, gv := range r.vals {
				for k, x := range []int{-127, -3, 0, 1, 9, 127} {
					if (i+k)%agreeStride() != 0 {
						continue
					}
					base := xf(0)
					if i > 0 {
						f, _ := gv.Float64()
						base = xf(f)
					}
					for _, dn := range []int{-2, -1, 0, 1, 2} {
						// the grid point, and its neighbours at a quarter
						// and a half of the quantum of its binade
						q := xi(1, refFloorLog2(math.Max(0x1p-200, func() float64 { f, _ := gv.Float64(); return f }()))-r.mbits-2)
						v := base
						if dn != 0 && !base.isZero() {
							v = xadd(base, q, dn)
						}
						if v.isZero() && dn != 0 {
							continue
						}
						fv := f64Bits(v.n, v.e)
						for _, s := range []float64{1, -1} {
							for _, m := range round.Modes {
								for _, sat := range []bool{false, true} {
									gc, gover := r.codeInt(s*fv, 0, m, sat)
									bc, bover := r.code(s*fv, 0, m, sat)
									g.check(gc == bc && gover == bover, "code(%g, %s, sat %v): integer %#x %v, big %#x %v", s*fv, m, sat, gc, gover, bc, bover)
									v2 := s * f64Bits(v.n, v.e+x)
									gc, gover = r.codeInt(v2, x, m, sat)
									bc, bover = r.code(v2, x, m, sat)
									g.check(gc == bc && gover == bover, "code(%g, %d, %s, sat %v): integer %#x %v, big %#x %v", v2, x, m, sat, gc, gover, bc, bover)
								}
							}
						}
					}
				}
			}
			g.done()
		})
	}
	t.Run("sharedexp", func(t *testing.T) {
		t.Parallel()
		rng := rand.New(rand.NewPCG(5, 6))
		g := &agreement{t: t, name: "sharedexp"}
		for _, r := range []*refElem{refE4M3, refE5M2, refE2M3, refE3M2, refE2M1} {
			for _, rule := range Rules {
				try := func(a float64) {
					got, want := refSharedXInt(r, rule, a), refSharedX(r, rule, a)
					g.check(got == want, "%s %s: amax %g (%#x): integer %d, big %d", r.name, rule, a, math.Float64bits(a), got, want)
				}
				// float64's subnormal and top binades (every 7th when
				// sampled), and every 8th between (every 61st of those
				// when sampled).
				for e := -1074; e <= 1023; e++ {
					switch {
					case e > -1020 && e < 1020:
						if e%8 != 0 || (e/8)%agreeStride() != 0 {
							continue
						}
					case testvals.Sampled() && e%7 != 0:
						continue
					}
					for _, m := range []float64{1, 1.5, 1.75, 1.875, 1.9375, 1.96875, 1.25, 1.125, 1.0625, 1.4375, 1.5625, 1.8125} {
						v := math.Ldexp(m, e)
						if v == 0 || math.IsInf(v, 0) {
							continue
						}
						try(v)
						if u := math.Nextafter(v, 0); u > 0 {
							try(u)
						}
						if u := math.Nextafter(v, math.Inf(1)); !math.IsInf(u, 0) {
							try(u)
						}
					}
					// amax at MAX * 2^k and its neighbours (RCEIL's edges)
					mv, _ := r.maxVal.Float64()
					if v := math.Ldexp(mv, e); v > 0 && !math.IsInf(v, 0) {
						try(v)
						try(math.Nextafter(v, 0))
						try(math.Nextafter(v, math.Inf(1)))
					}
					try(math.Float64frombits(rng.Uint64N(0x7ff0000000000000-1) + 1))
				}
				try(math.MaxFloat64)
				try(5e-324)
			}
		}
		g.done()
	})
	for _, st := range srcTypes {
		t.Run("nvfp4/"+st.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, uint64(len(st.name))))
			tensors, rowLens := nvTensors(rng, st)
			// And tensors of extreme and random magnitudes.
			for k := range 8 {
				scale := math.Ldexp(1, []int{-140, -120, -60, -1, 0, 30, 60, 100}[k])
				v := make([]float64, 64)
				for i := range v {
					v[i] = st.exact(rng.NormFloat64() * scale * math.Ldexp(1, rng.IntN(24)-12))
				}
				tensors = append(tensors, v)
				rowLens = append(rowLens, 32)
			}
			g := &agreement{t: t, name: "nvfp4 " + st.name}
			var seen atomic.Int64
			for ti, vals := range tensors {
				rowLen := rowLens[ti]
				for _, recipe := range []NVRecipe{ModelOpt, ModelOptCUDA, Exact} {
					for _, m := range round.Modes {
						for _, sm := range round.Modes {
							for _, given := range []float32{0, 0.01, 1, 3e-5, 1e5} {
								// a fifth of the cases (each still met by
								// TestQuantizeNVFP4 against the package,
								// and their parts above), fewer when sampled
								if (ti+int(recipe)+int(m)+int(sm)+int(given*100))%(5*agreeStride()) != 0 {
									continue
								}
								if !nvFits(vals, recipe, given) {
									continue
								}
								seen.Add(1)
								is64 := st.name == "float64"
								c1, s1, ts1, st1 := refNVInt(vals, rowLen, recipe, m, sm, given, is64)
								c2, s2, ts2, st2 := refNV(vals, rowLen, recipe, m, sm, given, is64)
								ok := ts1 == ts2 && st1 == st2 && len(c1) == len(c2) && len(s1) == len(s2)
								for i := 0; ok && i < len(c1); i++ {
									ok = c1[i] == c2[i]
								}
								for i := 0; ok && i < len(s1); i++ {
									ok = s1[i] == s2[i]
								}
								g.check(ok, "tensor %d %s %s scale %s ts %g: integer (%v %v %g %+v), big (%v %v %g %+v)", ti, recipe, m, sm, given, s1, c1, ts1, st1, s2, c2, ts2, st2)
							}
						}
					}
				}
			}
			if seen.Load() == 0 {
				t.Error("no tensors")
			}
			g.done()
		})
	}
}

// nvFits reports whether the math/big reference can run on vals with the
// recipe and given tensor scale: a tensor scale of zero (from an amax below
// 2688 * 2^-150) divides by zero there, and a quotient beyond float32 is
// infinite, which it cannot round.
func nvFits(vals []float64, recipe NVRecipe, given float32) bool {
	amax := 0.0
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			amax = math.Max(amax, math.Abs(v))
		}
	}
	if given != 0 {
		return amax < 0x1p100*float64(given) // elements / (scale * ts) within float32
	}
	return amax == 0 || amax > 2688*0x1p-140 && amax < 0x1p120
}

// xadd returns the dyadic a + k*q for small k (a, q dyadic, a > 0, the
// result positive).
func xadd(a, q xv, k int) xv {
	e := min(a.e, q.e)
	an := a.n << (a.e - e)
	qn := q.n << (q.e - e)
	if k >= 0 {
		return xi(an+uint64(k)*qn, e)
	}
	return xi(an-uint64(-k)*qn, e)
}
