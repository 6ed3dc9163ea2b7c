package minifloat

// The math/big oracle that the reference is proven against, written apart
// from it: it shares no helper with convert.go. A source becomes an exact
// big.Float; a destination is the sorted list of all its finite
// non-negative values, extended by the points that the unbounded-exponent
// grid puts just outside it (the first point above the largest finite
// value, and for E8M0 the zero it lacks). Rounding finds the two list
// entries around the exact value by binary search and picks one by the
// mode, deciding ties by an exact comparison with their midpoint and then by
// the parity of the pattern. The special cases follow docs/FORMATS.md, case
// by case.

import (
	"math/big"
	"sort"
	"sync"

	"github.com/clconv/clconv/round"
)

const bigPrec = 256 // far above any sum or midpoint of these formats' values

// bigSrc is a decoded source.
type bigSrc struct {
	nan, inf bool
	neg      bool       // the sign bit
	payload  uint64     // a NaN's mantissa field, left-aligned at bit 63
	x        *big.Float // a finite value's magnitude (0 for a zero)
}

func newFloat() *big.Float { return new(big.Float).SetPrec(bigPrec) }

// bigPow2 returns 2^k.
func bigPow2(k int) *big.Float { return newFloat().SetMantExp(newFloat().SetInt64(1), k) }

// bigDecode reads pattern b of f, field by field.
func bigDecode(f *Format, b uint64) bigSrc {
	w := f.ExpBits + f.MantBits
	var s bigSrc
	if f.Signed {
		s.neg = b>>w&1 == 1
	}
	mant := b & (1<<f.MantBits - 1)
	field := int(b>>f.MantBits) & (1<<f.ExpBits - 1)
	top := field == 1<<f.ExpBits-1
	switch {
	case f.NaN == NaNIEEE && top && mant == 0:
		s.inf = true
		return s
	case f.NaN == NaNIEEE && top:
		s.nan = true
		s.payload = mant << (64 - f.MantBits)
		return s
	case f.NaN == NaNNegZero && b == 1<<w:
		// FNUZ: the pattern of -0 is the one NaN, and it has no sign.
		s.nan = true
		s.neg = false
		s.payload = 1 << 63
		return s
	case f.NaN == NaNAllOnes && top && mant == 1<<f.MantBits-1:
		// The one NaN counts as quiet, its mantissa bits as the payload
		// (a shift by 64 gives 0: E8M0 has none).
		s.nan = true
		s.payload = 1<<63 | mant<<(64-f.MantBits)
		return s
	}
	// 1.mant * 2^(field-bias), or 0.mant * 2^(1-bias) for the field 0 of a
	// format with zero.
	m := newFloat().SetUint64(mant)
	m.SetMantExp(m, -f.MantBits)
	e := field - f.Bias
	if field == 0 && f.Zero {
		e = 1 - f.Bias
	} else {
		m.Add(m, newFloat().SetInt64(1))
	}
	s.x = m.SetMantExp(m, e)
	return s
}

// bigInt is an integer source.
func bigInt(v int64) bigSrc {
	x := newFloat().SetInt64(v)
	neg := x.Sign() < 0
	return bigSrc{neg: neg, x: x.Abs(x)}
}

func bigUint(v uint64) bigSrc { return bigSrc{x: newFloat().SetUint64(v)} }

// grid is a destination's finite non-negative values in increasing order,
// with the pattern of each; the last entry is the first grid point above the
// largest finite value.
type grid struct {
	vals  []*big.Float
	codes []int64
	max   int64 // the largest finite pattern
}

var grids sync.Map // *Format -> *grid

func gridOf(f *Format) *grid {
	if g, ok := grids.Load(f); ok {
		return g.(*grid)
	}
	g := &grid{}
	var last int64 = -1
	for c := uint64(0); c < 1<<(f.ExpBits+f.MantBits); c++ {
		s := bigDecode(f, c)
		if s.nan || s.inf {
			break
		}
		if n := len(g.vals); n > 0 && g.vals[n-1].Cmp(s.x) >= 0 {
			panic("grid out of order")
		}
		g.vals = append(g.vals, s.x)
		g.codes = append(g.codes, int64(c))
		last = int64(c)
	}
	g.max = last
	// The next point of the unbounded grid: the largest value plus one unit
	// of its binade.
	top := g.vals[len(g.vals)-1]
	ulp := bigPow2(top.MantExp(nil) - 1 - f.MantBits)
	g.vals = append(g.vals, newFloat().Add(top, ulp))
	g.codes = append(g.codes, last+1)
	grids.Store(f, g)
	return g
}

// bigResults converts s to f in all four modes, without and with _sat,
// indexed [mode][sat].
func bigResults(f *Format, s bigSrc) (out [4][2]uint64) {
	for _, m := range round.Modes {
		for si, sat := range []bool{false, true} {
			out[m][si] = bigEncode(f, s, m, sat)
		}
	}
	return out
}

func bigEncode(f *Format, s bigSrc, m round.Mode, sat bool) uint64 {
	w := f.ExpBits + f.MantBits
	var sign uint64
	if s.neg && f.Signed {
		sign = 1 << w
	}
	allOnes := uint64(1)<<w - 1
	g := gridOf(f)
	maxCode := uint64(g.max)
	nanCode := func() uint64 {
		switch f.NaN {
		case NaNIEEE:
			return (1<<f.ExpBits-1)<<f.MantBits | 1<<(f.MantBits-1)
		case NaNAllOnes:
			return allOnes
		case NaNNegZero:
			return 1 << w
		}
		panic("no NaN")
	}
	// Below E8M0's range: its NaN, or under _sat its smallest value.
	below := func() uint64 {
		if sat {
			return 0
		}
		return nanCode()
	}
	// Beyond the largest finite value.
	beyond := func(towardZero bool) uint64 {
		switch {
		case towardZero, sat, f.NaN == NaNNone:
			return sign | maxCode
		case f.Inf:
			return sign | (1<<f.ExpBits-1)<<f.MantBits
		case f.NaN == NaNNegZero:
			return nanCode()
		}
		return sign | allOnes
	}
	// FNUZ formats have no -0: every zero result is +0.
	zero := func() uint64 {
		if f.NaN == NaNNegZero {
			return 0
		}
		return sign
	}
	towardZero := m == round.RTZ || m == round.RTP && s.neg || m == round.RTN && !s.neg
	switch {
	case s.nan:
		switch f.NaN {
		case NaNIEEE:
			return sign | (1<<f.ExpBits-1)<<f.MantBits | s.payload>>(64-f.MantBits) | 1<<(f.MantBits-1)
		case NaNAllOnes:
			return sign | allOnes
		case NaNNegZero:
			return nanCode()
		}
		return 0
	case s.inf:
		if s.neg && !f.Signed {
			return below()
		}
		return beyond(false)
	case s.x.Sign() == 0:
		if !f.Zero {
			return below()
		}
		return zero()
	case s.neg && !f.Signed:
		return below()
	}
	i := sort.Search(len(g.vals), func(i int) bool { return g.vals[i].Cmp(s.x) >= 0 })
	if i == 0 && g.vals[0].Cmp(s.x) != 0 {
		// Below the smallest value of a format without zero: rounding
		// has nothing below, so the smallest value, in every mode.
		return 0
	}
	if i == len(g.vals) {
		// Beyond the first grid point above MAX: every mode overflows.
		return beyond(towardZero)
	}
	pick := i
	if g.vals[i].Cmp(s.x) != 0 {
		lo, hi := i-1, i
		switch {
		case towardZero:
			pick = lo
		case m == round.RTE:
			mid := newFloat().Add(g.vals[lo], g.vals[hi])
			mid.SetMantExp(mid, -1)
			switch s.x.Cmp(mid) {
			case -1:
				pick = lo
			case 1:
				pick = hi
			default:
				// A tie: the candidate that is an even multiple of
				// the unit of lo's binade.
				pick = hi
				if evenOnGrid(f, g.vals[lo]) {
					pick = lo
				}
			}
		default:
			pick = hi
		}
	}
	c := g.codes[pick]
	if c > g.max {
		return beyond(towardZero)
	}
	if c == 0 {
		return zero()
	}
	return sign | uint64(c)
}

// evenOnGrid reports whether x >= 0 is an even multiple of the unit of its
// binade in f: 2^(e-MantBits) for x in [2^e, 2^(e+1)), e no lower than the
// smallest normal exponent (the subnormals' unit is the smallest normal
// binade's).
func evenOnGrid(f *Format, x *big.Float) bool {
	if x.Sign() == 0 {
		return true
	}
	e := x.MantExp(nil) - 1
	emin := 1 - f.Bias
	if !f.Zero {
		emin = -f.Bias
	}
	q := newFloat().SetMantExp(x, -(max(e, emin) - f.MantBits))
	n, acc := q.Int(nil)
	if acc != big.Exact {
		panic("not on the grid")
	}
	return n.Bit(0) == 0
}
