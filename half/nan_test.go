package half_test

import (
	"testing"

	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/nanrule"
	"github.com/clconv/clconv/round"
)

// TestNaNRules checks half arithmetic against the NaN rules of docs/PORTS.md
// for every operation, mode and combination of operand classes, bit for bit.
func TestNaNRules(t *testing.T) {
	ops := map[string]func(a, b, c half.Half, m round.Mode) half.Half{
		"+":    func(a, b, _ half.Half, m round.Mode) half.Half { return half.Add(a, b, m) },
		"-":    func(a, b, _ half.Half, m round.Mode) half.Half { return half.Sub(a, b, m) },
		"*":    func(a, b, _ half.Half, m round.Mode) half.Half { return half.Mul(a, b, m) },
		"/":    func(a, b, _ half.Half, m round.Mode) half.Half { return half.Div(a, b, m) },
		"sqrt": func(a, _, _ half.Half, m round.Mode) half.Half { return half.Sqrt(a, m) },
		"fma":  half.FMA,
	}
	f := nanrule.Half
	checked, nans := 0, 0
	for _, op := range nanrule.Ops {
		f.Each(op, func(o []uint64) {
			var h [3]half.Half
			for i, b := range o {
				h[i] = half.Half(b)
			}
			want, isNaN := f.Want(op, o)
			for _, m := range []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN} {
				got := uint64(ops[op.Name](h[0], h[1], h[2], m))
				checked++
				switch {
				case isNaN && got != want:
					t.Errorf("half %s%#x %v = %#x, want %#x", op.Name, o, m, got, want)
				case !isNaN && f.IsNaN(got):
					t.Errorf("half %s%#x %v = NaN %#x, want a number", op.Name, o, m, got)
				}
				if isNaN {
					nans++
				}
			}
		})
	}
	if nans < 500 || checked < 5000 {
		t.Fatalf("only %d cases (%d NaN results) checked", checked, nans)
	}
}
