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
