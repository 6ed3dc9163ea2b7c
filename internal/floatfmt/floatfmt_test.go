package floatfmt

import (
	"fmt"
	"math"
	"strconv"
	"testing"
)

// b64 formats a float64 with %b through PadNumber.
type b64 float64

func (x b64) Format(s fmt.State, verb rune) {
	f := float64(x)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		fmt.Fprintf(s, fmt.FormatString(s, verb), f)
		return
	}
	num := []byte{'+'}
	if math.Signbit(f) {
		num[0] = '-'
		f = -f
	}
	PadNumber(s, strconv.AppendFloat(num, f, 'b', -1, 64))
}

// PadNumber pads %b output as fmt pads it for a float64.
func TestPadNumber(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0x1p-1074, -1e300, 12345.678} {
		for flags := range 1 << 5 {
			fl := ""
			for i, c := range " +-#0" {
				if flags&(1<<i) != 0 {
					fl += string(c)
				}
			}
			for _, wid := range []string{"", "0", "1", "22", "25", "40"} {
				for _, prec := range []string{"", ".3"} {
					format := "%" + fl + wid + prec + "b|"
					if got, want := fmt.Sprintf(format, b64(f)), fmt.Sprintf(format, f); got != want {
						t.Errorf("Sprintf(%q, %v) = %q, want %q", format, f, got, want)
					}
				}
			}
		}
	}
}

func TestAppendExact(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{448, "448"}, {57344, "57344"}, {0.001953125, "0.001953125"}, {0x1p-16, "1.52587890625e-05"},
		{-3.25, "-3.25"}, {0, "0"}, {math.Copysign(0, -1), "-0"}, {0x1p-24, "5.9604644775390625e-08"},
		{0x1p56, "72057594037927936"}, {0x1p60, "1152921504606846976"}, {1e6, "1e+06"}, {1048576, "1048576"}, {1e21, "1e+21"},
		{0.1, "0.1000000000000000055511151231257827021181583404541015625"}, {0.0001, "0.000100000000000000004792173602385929598312941379845142364501953125"},
		{float64(float32(0.1)), "0.100000001490116119384765625"}, {0x1p-133, "9.18354961579912115600575419704879435795832466228193376178712270530013483949005603790283203125e-41"},
		{math.Inf(-1), "-Inf"},
	} {
		if got := string(AppendExact(nil, c.f)); got != c.want {
			t.Errorf("AppendExact(%g) = %s, want %s", c.f, got, c.want)
		}
	}
}
