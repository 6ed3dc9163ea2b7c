package round_test

import (
	"math"
	"testing"

	"github.com/clconv/clconv/internal/nanrule"
	"github.com/clconv/clconv/round"
)

// TestNaNRules checks the NaN rules of docs/PORTS.md for every operation,
// mode and combination of operand classes, float and double, bit for bit
// against nanrule, which computes the expected NaN from operand bits alone.
func TestNaNRules(t *testing.T) {
	f64 := map[string]func(a, b, c float64, m round.Mode) float64{
		"+":    func(a, b, _ float64, m round.Mode) float64 { return round.AddF64(a, b, m) },
		"-":    func(a, b, _ float64, m round.Mode) float64 { return round.SubF64(a, b, m) },
		"*":    func(a, b, _ float64, m round.Mode) float64 { return round.MulF64(a, b, m) },
		"/":    func(a, b, _ float64, m round.Mode) float64 { return round.DivF64(a, b, m) },
		"sqrt": func(a, _, _ float64, m round.Mode) float64 { return round.SqrtF64(a, m) },
		"fma":  round.FMAF64,
	}
	f32 := map[string]func(a, b, c float32, m round.Mode) float32{
		"+":    func(a, b, _ float32, m round.Mode) float32 { return round.AddF32(a, b, m) },
		"-":    func(a, b, _ float32, m round.Mode) float32 { return round.SubF32(a, b, m) },
		"*":    func(a, b, _ float32, m round.Mode) float32 { return round.MulF32(a, b, m) },
		"/":    func(a, b, _ float32, m round.Mode) float32 { return round.DivF32(a, b, m) },
		"sqrt": func(a, _, _ float32, m round.Mode) float32 { return round.SqrtF32(a, m) },
		"fma":  round.FMAF32,
	}
	eval := map[nanrule.Format]func(op string, ops [3]uint64, m round.Mode) uint64{
		nanrule.Double: func(op string, o [3]uint64, m round.Mode) uint64 {
			return math.Float64bits(f64[op](math.Float64frombits(o[0]), math.Float64frombits(o[1]), math.Float64frombits(o[2]), m))
		},
		nanrule.Float: func(op string, o [3]uint64, m round.Mode) uint64 {
			return uint64(math.Float32bits(f32[op](math.Float32frombits(uint32(o[0])), math.Float32frombits(uint32(o[1])), math.Float32frombits(uint32(o[2])), m)))
		},
	}
	checked, nans := 0, 0
	for f, ev := range eval {
		for _, op := range nanrule.Ops {
			f.Each(op, func(ops []uint64) {
				var o [3]uint64
				copy(o[:], ops)
				want, isNaN := f.Want(op, ops)
				for _, m := range []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN} {
					got := ev(op.Name, o, m)
					checked++
					switch {
					case isNaN && got != want:
						t.Errorf("%s %s%#x %v = %#x, want %#x", f.Name, op.Name, ops, m, got, want)
					case !isNaN && f.IsNaN(got):
						t.Errorf("%s %s%#x %v = NaN %#x, want a number", f.Name, op.Name, ops, m, got)
					}
					if isNaN {
						nans++
					}
				}
			})
		}
	}
	t.Logf("%d cases, %d NaN results", checked, nans)
	if nans < 1000 || checked < 10000 {
		t.Fatalf("only %d cases (%d NaN results) checked", checked, nans)
	}
}
