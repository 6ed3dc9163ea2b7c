package ref_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// TestHardware compares ref with Go's own conversions where the language
// pins them down: to float32/float64 they round to nearest even (IEEE 754,
// Go spec "Conversions"), and float->integer truncates when the result fits.
// It is a third opinion on what both references might misread alike (the
// decoding of bit patterns, for one). NaNs are left out: Go does not specify
// their payloads.
func TestHardware(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	f := &mismatches{t: t}
	expect := func(dst, src cltype.Kind, bits uint64, m round.Mode, want uint64) {
		if got, impl := ref.Convert(dst, src, bits, m, false); got != want || impl {
			f.fail(conv{dst, src, bits, m, false}.String() + ": ref disagrees with Go's conversion")
		}
	}
	for range 200_000 {
		i64 := int64(testvals.Random(r, cltype.Long))
		u64 := testvals.Random(r, cltype.Ulong)
		i32 := int32(testvals.Random(r, cltype.Int))
		expect(cltype.Float, cltype.Long, uint64(i64), round.RTE, f32(float32(i64)))
		expect(cltype.Double, cltype.Long, uint64(i64), round.RTE, f64(float64(i64)))
		expect(cltype.Float, cltype.Ulong, u64, round.RTE, f32(float32(u64)))
		expect(cltype.Double, cltype.Ulong, u64, round.RTE, f64(float64(u64)))
		expect(cltype.Float, cltype.Int, uint64(uint32(i32)), round.RTE, f32(float32(i32)))

		d := math.Float64frombits(testvals.Random(r, cltype.Double))
		if !math.IsNaN(d) {
			expect(cltype.Float, cltype.Double, f64(d), round.RTE, f32(float32(d)))
			if math.Abs(d) < 0x1p63 {
				expect(cltype.Long, cltype.Double, f64(d), round.RTZ, uint64(int64(d)))
			}
		}
		s := math.Float32frombits(uint32(testvals.Random(r, cltype.Float)))
		if !math.IsNaN(float64(s)) {
			expect(cltype.Double, cltype.Float, f32(s), round.RTE, f64(float64(s)))
			if math.Abs(float64(s)) < 0x1p31 {
				expect(cltype.Int, cltype.Float, f32(s), round.RTZ, uint64(uint32(int32(s))))
			}
		}
	}
}
