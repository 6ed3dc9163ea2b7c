package fileconv

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// refScan is the per-element summary that scanIEEE replaces: scanFloats
// on each element's exact float64 value.
func refScan(k cltype.Kind, vals []uint64) summary {
	var s summary
	if len(vals) == 0 {
		return s
	}
	scanFloats(&s, k, len(vals), func(i int) float64 {
		out, _ := convert.Bits(cltype.Double, k, vals[i], round.RTE, false)
		return math.Float64frombits(out)
	}, func(i int) uint64 { return vals[i] })
	return s
}

// TestScanIEEE compares scanIEEE (through summary.scan) with refScan: every
// pattern of half and bfloat16, shuffled, and edge, random and ML-like
// floats and doubles, whole and in pieces that start and end anywhere in
// its groups, some with a single special value, no finite one, or only
// zeros of both signs.
func TestScanIEEE(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range []cltype.Kind{cltype.Half, cltype.BFloat16, cltype.Float, cltype.Double} {
		var vals []uint64
		if k.Size() == 2 {
			for v := range 1 << 16 {
				vals = append(vals, uint64(v))
			}
		} else {
			vals = append(vals, testvals.Edges(k)...)
			for range 20000 {
				vals = append(vals, testvals.Random(r, k))
			}
			vals = append(vals, mlValues(k, 20000, true, 9)...)
		}
		r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		inf := nonFiniteMask(k)
		sign := uint64(1) << (k.Bits() - 1)
		ml := mlValues(k, 3000, false, 10)
		cases := map[string][]uint64{
			"all":        vals,
			"zeros":      {0, sign, 0, sign, 0},
			"nan":        {inf | 1, sign | inf | 3},
			"ml":         ml,
			"ml+nan":     append(append(append([]uint64{}, ml[:1000]...), inf|5), ml[1000:]...),
			"ml+inf":     append(append(append([]uint64{}, ml[:2999]...), sign|inf), ml[2999]),
			"ml+-0":      append(append([]uint64{}, ml...), sign),
			"one":        {ml[0]},
			"nan+finite": {inf | 2, 0, inf | 2},
		}
		for name, v := range cases {
			for _, lo := range []int{0, 1, 255, 257} {
				for _, hi := range []int{len(v), len(v) - 1, len(v) - 300} {
					if lo > hi || hi < 0 {
						continue
					}
					w := v[lo:hi]
					var got summary
					if len(w) > 0 {
						got.scan(k, hostBytes(k, w), len(w))
					}
					if want := refScan(k, w); got != want {
						t.Errorf("%s %s [%d:%d]: got %+v, want %+v", k, name, lo, hi, got, want)
					}
				}
			}
		}
	}
}
