package convert

import (
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// TestBitsFunc holds kernels.BitsFunc to Bits for every pair of kinds Bits
// converts, every mode and both saturations, on each source kind's edges (or first patterns)
// and random values.
func TestBitsFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 2))
	var kinds []cltype.Kind
	for k := range cltype.Kind(cltype.NumKinds) {
		if k.Convertible() {
			kinds = append(kinds, k)
		}
	}
	n := 0
	for _, sk := range kinds {
		var in []uint64
		if sk.Valid() {
			in = testvals.Edges(sk)
			for range 200 {
				in = append(in, testvals.Random(r, sk))
			}
		} else { // the storage formats: their first 256 patterns and random ones
			for b := range uint64(256) {
				in = append(in, b&(1<<(8*sk.Size())-1))
			}
			for range 200 {
				in = append(in, r.Uint64()&(1<<(8*sk.Size())-1))
			}
		}
		for _, dk := range kinds {
			for m := range round.RTN + 1 {
				for _, sat := range []bool{false, true} {
					f := kernels.BitsFunc(dk, sk, m, sat)
					for _, b := range in {
						got, gimpl := f(b)
						want, wimpl := Bits(dk, sk, b, m, sat)
						if got != want || gimpl != wimpl {
							t.Fatalf("%v -> %v, %v, sat %v, %#x: BitsFunc gives %#x, %v; Bits %#x, %v", sk, dk, m, sat, b, got, gimpl, want, wimpl)
						}
						n++
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no conversions")
	}
}
