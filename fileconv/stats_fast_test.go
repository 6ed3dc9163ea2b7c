package fileconv

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// fastInputs returns source patterns of kind sk that reach every branch of
// classifyWide for a conversion to dk: every pattern of a kind of one or
// two bytes (every step-th), the edges, random and ML-like values of float
// and double, and each value of dk (every pattern, or random ones) taken
// back to sk with its two neighbours there (ties, limits, the largest
// magnitude and the subnormal range). They are shuffled so that the rare
// elements fall anywhere in countWide's groups and blocks.
func fastInputs(dk, sk cltype.Kind, step int, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, uint64(sk)<<8|uint64(dk)))
	var vals []uint64
	if sk.Size() <= 2 {
		for v := 0; v < 1<<sk.Bits(); v += step {
			vals = append(vals, uint64(v))
		}
	} else {
		vals = append(vals, testvals.Edges(sk)...)
		for range 4000 / step {
			vals = append(vals, testvals.Random(r, sk))
		}
		vals = append(vals, mlValues(sk, 4000/step, true, seed)...)
	}
	var pats []uint64
	if dk.Size() <= 2 {
		for v := 0; v < 1<<dk.Bits(); v += step {
			pats = append(pats, uint64(v))
		}
	} else {
		for range 8000 / step {
			pats = append(pats, r.Uint64()&dk.Mask())
		}
	}
	for _, p := range pats {
		v, _ := convert.Bits(sk, dk, p, round.RTE, false)
		vals = append(vals, v, (v+1)&sk.Mask(), (v-1)&sk.Mask())
	}
	r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	return vals
}

// hostBytes returns vals as elements of kind k in the host's byte order, in
// a buffer aligned to 8.
func hostBytes(k cltype.Kind, vals []uint64) []byte {
	b := alignedBytes(len(vals) * k.Size())
	for i, v := range vals {
		storeHost(b, k.Size(), i, v)
	}
	return b
}

func storeHost(b []byte, size, i int, v uint64) {
	switch size {
	case 1:
		b[i] = byte(v)
	case 2:
		*(*uint16)(unsafe.Pointer(&b[2*i])) = uint16(v)
	case 4:
		*(*uint32)(unsafe.Pointer(&b[4*i])) = uint32(v)
	default:
		*(*uint64)(unsafe.Pointer(&b[8*i])) = v
	}
}

// TestClassifyWide compares classify's fast path (classifyWide) with
// classifyRef, element by element in exact arithmetic, on every pair of
// floating kinds that it takes, in every mode, with and without _sat where
// that is allowed, on fastInputs, whose length is no multiple of a block
// or a group.
func TestClassifyWide(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 7
	}
	pairs := 0
	for _, sk := range cltype.AllScalars {
		for _, dk := range cltype.AllScalars {
			if wideDomain(dk, sk) == cltype.Invalid {
				continue
			}
			pairs++
			vals := fastInputs(dk, sk, step, 3)
			// Little-endian, as Convert hands classify its buffers.
			src := alignedBytes(len(vals) * sk.Size())
			copy(src, encodeBits(sk, vals, false))
			dst := alignedBytes(len(vals) * dk.Size())
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					if sat && dk.IsFloat() {
						continue
					}
					if err := convert.Bytes(dk, sk, dst, src, m, sat); err != nil {
						t.Fatal(err)
					}
					for _, n := range []int{len(vals), len(vals)*2/3 | 1, 37} {
						var got, want Stats
						got.classify(dk, sk, dst, src, n, m, sat)
						sb, db := hostBytes(sk, vals[:n]), hostBytes(dk, decodeBits(dk, dst[:n*dk.Size()]))
						want.Count = int64(n)
						want.classifyRef(dk, sk, db, sb, n, m, sat)
						if got != want {
							t.Errorf("%s->%s %s sat=%v, %d elements:\n got %+v\nwant %+v", sk, dk, m, sat, n, got, want)
						}
					}
				}
			}
		}
	}
	if pairs != 72 {
		t.Errorf("classifyWide takes %d pairs, want 72 (the floating kinds but e8m0)", pairs)
	}
}

// TestWiden checks widen's two ways (convert.Bytes, and widenHost's loops
// and tables) against convert.Bits on every pattern of the kinds of one
// and two bytes and on edge and random floats, into every domain: the same
// bits for every finite value, magnitudes in the order of the values, and
// infinities and NaNs from the limit classifyWide puts on the source up.
func TestWiden(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, dom := range []cltype.Kind{cltype.Half, cltype.BFloat16, cltype.Float, cltype.Double} {
		for _, k := range cltype.AllScalars {
			// e8m0 only to float, as classifyRef widens the small formats.
			if k == dom || !k.IsFloating() || k.Size() > dom.Size() || dom.Size() == 2 && k.Size() == 2 ||
				k == cltype.E8M0 && dom != cltype.Float {
				continue
			}
			var vals []uint64
			if k.Size() <= 2 {
				for v := range 1 << k.Bits() {
					vals = append(vals, uint64(v))
				}
			} else {
				vals = append(testvals.Edges(k), r.Uint64()&k.Mask(), 0x7f800001, 0x7fbfffff)
			}
			name := fmt.Sprintf("%s to %s", k, dom)
			switch dom.Size() {
			case 2:
				checkWiden[uint16](t, name, dom, k, vals)
			case 4:
				checkWiden[uint32](t, name, dom, k, vals)
			default:
				checkWiden[uint64](t, name, dom, k, vals)
			}
		}
	}
}

func checkWiden[W wideBits](t *testing.T, name string, dom, k cltype.Kind, vals []uint64) {
	t.Helper()
	b := hostBytes(k, vals)
	n := len(vals)
	fast := widen(dom, k, b, 0, n, make([]W, n))
	host := widenHost(dom, k, b, 0, n, make([]W, n))
	abs := ^W(0) >> 1
	lim := abs
	if nf := nonFiniteMask(k); nf != 0 {
		lim = widenOne[W](dom, k, nf) // the first non-finite magnitude
	}
	bad := 0
	for i, v := range vals {
		want, _ := convert.Bits(dom, k, v, round.RTE, false)
		wv := wideValue(dom, want)
		if finite := !math.IsNaN(wv) && !math.IsInf(wv, 0); finite && fast[i] == W(want) && host[i] == W(want) && want&uint64(abs) < uint64(lim) ||
			!finite && fast[i]&abs >= lim && host[i]&abs >= lim {
			continue
		}
		if bad++; bad < 5 {
			t.Errorf("%s: %#x: convert.Bytes %#x, widenHost %#x; want %#x (limit %#x)", name, v, fast[i], host[i], want, lim)
		}
	}
	// Magnitudes in the order of the values.
	for i := range vals {
		j := r2(i, n)
		x, y := wideValue(dom, uint64(host[i]&abs)), wideValue(dom, uint64(host[j]&abs))
		xv, _ := convert.Bits(cltype.Double, k, vals[i], round.RTE, false)
		yv, _ := convert.Bits(cltype.Double, k, vals[j], round.RTE, false)
		a, b := math.Abs(math.Float64frombits(xv)), math.Abs(math.Float64frombits(yv))
		if a == a && b == b && (a < b) != (x < y) && !(math.IsInf(a, 0) && math.IsInf(b, 0)) {
			t.Errorf("%s: %#x and %#x widen out of order", name, vals[i], vals[j])
			return
		}
	}
}

// r2 returns a deterministic other index for i among n.
func r2(i, n int) int { return (i*7919 + 13) % n }

// wideValue returns the value of bits of domain dom.
func wideValue(dom cltype.Kind, bits uint64) float64 {
	out, _ := convert.Bits(cltype.Double, dom, bits, round.RTE, false)
	return math.Float64frombits(out)
}
