package round_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/clconv/clconv/round"
)

func TestParseMode(t *testing.T) {
	for _, m := range round.Modes {
		if p, err := round.ParseMode(m.String()); err != nil || p != m {
			t.Errorf("ParseMode(%s) = %v, %v", m, p, err)
		}
	}
	if _, err := round.ParseMode("rtx"); err == nil {
		t.Error("rtx accepted")
	}
}

// Directed double->float results bracket the exact value and are adjacent.
func TestFloat64ToFloat32Bracket(t *testing.T) {
	for _, x := range []float64{1 + 0x1p-30, -1 - 0x1p-30, 0x1p-140 + 0x1p-160, math.MaxFloat64, -math.MaxFloat64, 0x1p-1074, -0x1p-1074, 3.4028235677973366e+38} {
		lo, hi := round.Float64ToFloat32(x, round.RTN), round.Float64ToFloat32(x, round.RTP)
		if !(float64(lo) <= x && x <= float64(hi)) || math.Nextafter32(lo, float32(math.Inf(1))) != hi {
			t.Errorf("%v: rtn %v rtp %v", x, lo, hi)
		}
		z := round.Float64ToFloat32(x, round.RTZ)
		if (x > 0 && z != lo) || (x < 0 && z != hi) {
			t.Errorf("%v: rtz %v", x, z)
		}
	}
}

func TestIntegral(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want [4]float64 // rte rtz rtp rtn
	}{
		{2.5, [4]float64{2, 2, 3, 2}}, {-2.5, [4]float64{-2, -2, -2, -3}}, {3.5, [4]float64{4, 3, 4, 3}}, {-0.5, [4]float64{0, 0, 0, -1}},
	} {
		for i, m := range round.Modes {
			if got := round.Integral(c.x, m); got != c.want[i] {
				t.Errorf("Integral(%v, %s) = %v, want %v", c.x, m, got, c.want[i])
			}
		}
	}
}

func ExampleInt64ToFloat32() {
	fmt.Println(round.Int64ToFloat32(16777217, round.RTZ), round.Int64ToFloat32(16777217, round.RTP))
	// Output: 1.6777216e+07 1.6777218e+07
}
