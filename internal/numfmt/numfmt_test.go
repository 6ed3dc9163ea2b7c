package numfmt

import (
	"math"
	"strconv"
	"testing"
)

func TestAppendShortest(t *testing.T) {
	for _, c := range []struct {
		f    float64
		bits int
		want string
	}{
		{16777216, 32, "16777216"}, {0.1, 64, "0.1"}, {1e-7, 64, "1e-07"}, {1e21, 64, "1e+21"}, {1e20, 64, "1e+20"}, {1e10, 32, "1e+10"}, {9223371487098961920, 32, "9.2233715e+18"}, {9007199254740994, 64, "9007199254740994"}, {123456, 64, "123456"},
		{0.00001, 64, "1e-05"}, {0.0001, 64, "0.0001"}, {-2.5, 64, "-2.5"}, {math.MaxFloat32, 32, "3.4028235e+38"}, {0, 64, "0"}, {math.Copysign(0, -1), 64, "-0"},
		{float64(float32(0.1)), 32, "0.1"}, {123456789012, 64, "123456789012"},
	} {
		got := string(AppendShortest(nil, c.f, c.bits))
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.f, got, c.want)
		}
		if v, err := strconv.ParseFloat(got, c.bits); err != nil || v != c.f {
			t.Errorf("%q reads back as %v", got, v)
		}
	}
}
