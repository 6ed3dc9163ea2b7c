package mx

// An independent reference for the package, written with math/big from the
// formulas of doc.go: its own table of element values (from each format's
// exponent and mantissa widths and bias, not minifloat's), the scale rules
// as their formulas (math.Frexp for floor(log2), big.Rat comparisons for
// RCEIL, big.Float rounding to nearest even for Even), and rounding of
// exact rationals by finding the two neighbours and comparing with their
// midpoint. Nothing here calls the package's quantizer or minifloat.
//
// The tests' hot loops use the integer reference of refint_test.go (the same
// rules without math/big, which is slow under emulation);
// TestIntRefMatchesBig shows that the two agree. roundDest, refScale,
// refSharedX, refElem.code and refElemValue are this reference's side of
// that comparison.

import (
	"math"
	"math/big"
	"sort"

	"github.com/clconv/clconv/round"
)

// refElem is an element format as the reference sees it.
type refElem struct {
	name      string
	ebits     int
	mbits     int
	bias      int
	maxCode   int // the largest finite code
	nanOver   int // the code a non-saturated overflow gives (-1: MAX)
	vals      []*big.Rat
	maxVal    *big.Rat
	emax      int // floor(log2(MAX))
	signShift uint
	// grid: the values of codes 0 .. maxCode and the grid point above MAX
	// (MAX + the quantum of MAX's binade), as exact big.Floats, and the
	// midpoints between neighbours.
	grid, mids []*big.Float
}

// exactPrec is enough bits for every value the reference handles exactly
// (float64 values times powers of two, and their sums with grid points).
const exactPrec = 256

func newRefElem(name string, ebits, mbits, bias, maxCode, nanOver int) *refElem {
	r := &refElem{name: name, ebits: ebits, mbits: mbits, bias: bias, maxCode: maxCode, nanOver: nanOver}
	r.signShift = uint(ebits + mbits)
	for c := 0; c <= maxCode; c++ {
		field := c >> mbits
		mant := int64(c & (1<<mbits - 1))
		var v *big.Rat
		if field == 0 {
			v = ratPow2(mant, 1-bias-mbits)
		} else {
			v = ratPow2(1<<mbits+mant, field-bias-mbits)
		}
		r.vals = append(r.vals, v)
	}
	r.maxVal = r.vals[maxCode]
	f, _ := r.maxVal.Float64()
	_, e := math.Frexp(f)
	r.emax = e - 1
	for _, v := range r.vals {
		r.grid = append(r.grid, new(big.Float).SetPrec(exactPrec).SetRat(v))
	}
	limit := new(big.Rat).Add(r.maxVal, ratPow2(1, r.emax-r.mbits))
	r.grid = append(r.grid, new(big.Float).SetPrec(exactPrec).SetRat(limit))
	for i := 0; i+1 < len(r.grid); i++ {
		m := new(big.Float).SetPrec(exactPrec).Add(r.grid[i], r.grid[i+1])
		r.mids = append(r.mids, m.SetMantExp(m, -1))
	}
	return r
}

// ratPow2 returns m * 2^e.
func ratPow2(m int64, e int) *big.Rat {
	r := new(big.Rat).SetInt64(m)
	p := new(big.Int).Lsh(big.NewInt(1), uint(absInt(e)))
	if e >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(p))
	}
	return r.Quo(r, new(big.Rat).SetInt(p))
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var (
	refE4M3 = newRefElem("e4m3", 4, 3, 7, 0x7e, 0x7f)
	refE5M2 = newRefElem("e5m2", 5, 2, 15, 0x7b, 0x7c)
	refE2M3 = newRefElem("e2m3", 2, 3, 1, 0x1f, -1)
	refE3M2 = newRefElem("e3m2", 3, 2, 3, 0x1f, -1)
	refE2M1 = newRefElem("e2m1", 2, 1, 1, 0x7, -1)
)

func refElemOf(f *Format) *refElem {
	switch f {
	case MXFP8E4M3:
		return refE4M3
	case MXFP8E5M2:
		return refE5M2
	case MXFP6E2M3:
		return refE2M3
	case MXFP6E3M2:
		return refE3M2
	}
	return refE2M1
}

// round rounds the exact non-zero magnitude a of a value of sign neg into
// the element grid in mode m, as if the exponent range had no top: it
// returns the magnitude's code, maxCode+1 standing for any value beyond
// MAX.
func (r *refElem) round(a *big.Float, neg bool, m round.Mode) int {
	g := r.grid
	top := len(g) - 1
	if c := a.Cmp(g[top]); c >= 0 {
		return top // at or beyond the point above MAX: overflows in every mode
	}
	// lo: the largest grid point at most a.
	lo := sort.Search(len(g), func(k int) bool { return g[k].Cmp(a) > 0 }) - 1
	if g[lo].Cmp(a) == 0 {
		return lo
	}
	hi := lo + 1
	up := false
	switch m {
	case round.RTZ:
	case round.RTP:
		up = !neg
	case round.RTN:
		up = neg
	default:
		c := a.Cmp(r.mids[lo])
		up = c > 0 || c == 0 && lo%2 == 1
	}
	if up {
		return hi
	}
	return lo
}

// code returns the element code of the exact value v * 2^-x (zero keeps
// v's sign) and whether it overflowed.
func (r *refElem) code(v float64, x int, m round.Mode, sat bool) (int, bool) {
	signNeg := math.Signbit(v)
	sign := 0
	if signNeg {
		sign = 1 << r.signShift
	}
	if v == 0 {
		return sign, false
	}
	a := new(big.Float).SetPrec(exactPrec).SetFloat64(math.Abs(v))
	a.SetMantExp(a, -x)
	c := r.round(a, signNeg, m)
	if c <= r.maxCode {
		return sign | c, false
	}
	towardZero := m == round.RTZ || m == round.RTP && signNeg || m == round.RTN && !signNeg
	if sat || towardZero || r.nanOver < 0 {
		return sign | r.maxCode, true
	}
	return sign | r.nanOver, true
}

// refFloorLog2 returns floor(log2(a)) for a finite a > 0, from math.Frexp.
func refFloorLog2(a float64) int {
	_, e := math.Frexp(a)
	return e - 1
}

// refSharedX returns the rule's unclamped shared exponent for amax > 0
// finite, from the rule's formula.
func refSharedX(r *refElem, rule ScaleRule, amax float64) int {
	fl := refFloorLog2(amax)
	switch rule {
	case Ceil: // ceil(log2(amax)) - emax
		if frac, _ := math.Frexp(amax); frac != 0.5 {
			fl++
		}
		return fl - r.emax
	case RCEIL: // the least k with amax / max <= 2^k
		ratio := new(big.Rat).SetFloat64(amax)
		ratio.Quo(ratio, r.maxVal)
		k := fl - r.emax - 2
		for ratio.Cmp(ratPow2(1, k)) > 0 {
			k++
		}
		return k
	case Even: // floor(log2(amax rounded to mbits+1 significant bits, ties to even)) - emax
		b := new(big.Float).SetPrec(uint(r.mbits + 1)).SetMode(big.ToNearestEven)
		b.SetFloat64(amax)
		return b.MantExp(nil) - 1 - r.emax
	}
	return fl - r.emax
}

// refScale returns the E8M0 code of the rule for the block's amax (which
// may be NaN, infinite or zero), whether X was clamped, and X.
func refScale(r *refElem, rule ScaleRule, amax float64) (code int, clamped bool, x int) {
	switch {
	case math.IsNaN(amax) || math.IsInf(amax, 0):
		return 0xFF, false, 0
	case amax == 0:
		return 0, false, -127
	}
	x = refSharedX(r, rule, amax)
	switch {
	case x < -127:
		return 0, true, -127
	case x > 127:
		return 254, true, 127
	}
	return x + 127, false, x
}

// refBlock is the reference's quantization of one MX block of exact values.
type refStats struct {
	clamped, flushed, nanIn, infIn, zeroBlocks, nanBlocks, scaleClamped int
}

func refQuantBlock(f *Format, rule ScaleRule, m round.Mode, sat bool, vals []float64, st *refStats) (scale int, codes []int) {
	r := refElemOf(f)
	amax := 0.0
	for _, v := range vals {
		switch {
		case math.IsNaN(v):
			st.nanIn++
			amax = math.NaN()
		case math.IsInf(v, 0):
			st.infIn++
			if !math.IsNaN(amax) {
				amax = math.Inf(1)
			}
		case !math.IsNaN(amax):
			if a := math.Abs(v); a > amax { // math.Max: the same here, slower under emulation
				amax = a
			}
		}
	}
	codes = make([]int, len(vals))
	scale, clamped, x := refScaleInt(r, rule, amax)
	switch {
	case scale == 0xFF:
		st.nanBlocks++
		return scale, codes
	case amax == 0:
		st.zeroBlocks++
	case clamped:
		st.scaleClamped++
	}
	for i, v := range vals {
		c, over := r.codeInt(v, x, m, sat)
		if over {
			st.clamped++
		}
		if v != 0 && c&(1<<r.signShift-1) == 0 {
			st.flushed++
		}
		codes[i] = c
	}
	return scale, codes
}

// refDest is a binary floating-point destination: precision p (with the
// leading bit), the smallest normal exponent emin and the largest exponent
// emax.
type refDest struct {
	name       string
	p          int
	emin, emax int
}

var (
	refF32  = refDest{"float32", 24, -126, 127}
	refF64  = refDest{"float64", 53, -1022, 1023}
	refHalf = refDest{"half", 11, -14, 15}
	refBF16 = refDest{"bfloat16", 8, -126, 127}
)

// roundDest rounds the exact finite value v into d in mode m and returns
// the result as a float64 (infinite on overflow, as IEEE 754 7.4 says:
// ±MAX when the mode rounds the value toward zero).
func roundDest(v *big.Float, d refDest, m round.Mode) float64 {
	if v.Sign() == 0 {
		return 0
	}
	neg := v.Sign() < 0
	a := new(big.Float).SetPrec(exactPrec).Abs(v)
	e := a.MantExp(nil) - 1 // a in [2^e, 2^(e+1))
	qe := max(e, d.emin) - (d.p - 1)
	n := new(big.Float).SetPrec(exactPrec).SetMantExp(a, -qe) // a in quanta
	fl, _ := n.Int(nil)                                       // truncated
	rem := new(big.Float).SetPrec(exactPrec).Sub(n, new(big.Float).SetInt(fl))
	up := false
	if rem.Sign() != 0 {
		switch m {
		case round.RTZ:
		case round.RTP:
			up = !neg
		case round.RTN:
			up = neg
		default:
			c := rem.Cmp(big.NewFloat(0.5))
			up = c > 0 || c == 0 && fl.Bit(0) == 1
		}
	}
	if up {
		fl.Add(fl, big.NewInt(1))
	}
	// MAX = (2^p - 1) * 2^(emax-p+1); the result overflows beyond it.
	maxInt := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(d.p)), big.NewInt(1))
	res := new(big.Float).SetPrec(exactPrec).SetMantExp(new(big.Float).SetInt(fl), qe)
	maxv := new(big.Float).SetPrec(exactPrec).SetMantExp(new(big.Float).SetInt(maxInt), d.emax-d.p+1)
	var out float64
	if res.Cmp(maxv) > 0 {
		towardZero := m == round.RTZ || m == round.RTP && neg || m == round.RTN && !neg
		if towardZero {
			out, _ = maxv.Float64()
		} else {
			out = math.Inf(1)
		}
	} else {
		out, _ = res.Float64() // exact: at most 53 bits, in range
	}
	if neg {
		out = -out
	}
	return out
}

// refElemValue is the exact value of an element code (bits above the
// width ignored) and whether it is NaN, infinite (E5M2) or finite.
func refElemValue(r *refElem, code int) (v *big.Float, nan, inf bool, neg bool) {
	code &= 1<<(r.signShift+1) - 1
	neg = code>>r.signShift&1 == 1
	mag := code & (1<<r.signShift - 1)
	if mag > r.maxCode {
		if r == refE5M2 && mag == 0x7c {
			return nil, false, true, neg
		}
		return nil, true, false, neg
	}
	v = new(big.Float).SetPrec(exactPrec).Set(r.grid[mag])
	if neg {
		v.Neg(v)
	}
	return v, false, false, neg
}
