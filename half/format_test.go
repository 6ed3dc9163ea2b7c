package half_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// fmtValue is the float64 that fmt must format in place of h for verb with
// or without a precision: the nearest double to h's shortest decimal, read
// back from String, for %v %g %G without one, h's exact value otherwise.
func fmtValue(h half.Half, verb byte, precision bool) float64 {
	if h.IsFinite() && !precision && (verb == 'v' || verb == 'g' || verb == 'G') {
		v, err := strconv.ParseFloat(h.String(), 64)
		if err != nil {
			panic(err)
		}
		return v
	}
	return h.Float64()
}

// interesting returns the halves the flag tests run over: every class and
// boundary, with their negatives, and a random sample.
func interesting() []half.Half {
	hs := []half.Half{0, 1, 2, 3, 0x3ff, 0x400, 0x401, 0x2e66, 0x3555, 0x3bff, 0x3c00, 0x3c01, 0x3e00,
		0x4000, 0x4248, 0x4900, 0x5640, 0x63d0, 0x7bfe, 0x7bff, 0x2400, 0x1400, 0x0200,
		0x7c00, 0x7c01, 0x7d00, 0x7e00, 0x7fff}
	r := rand.New(rand.NewPCG(7, 8))
	for range 60 {
		hs = append(hs, half.Half(r.Uint32()))
	}
	for _, h := range hs[:len(hs):len(hs)] {
		hs = append(hs, h^0x8000)
	}
	return hs
}

// Without flags, the common verbs agree with fmt on the float64 value for
// every half.
func TestFormatAllHalves(t *testing.T) {
	formats := []string{"%v", "%g", "%G", "%e", "%E", "%f", "%F", "%x", "%X",
		"%.0e", "%.3e", "%.12e", "%.0f", "%.3f", "%.30f", "%.3g", "%.5g", "%.17g", "%.1v", "%.0x", "%.2x", "%.10X"}
	// Under an emulator, every 7th pattern (every exponent, both signs).
	for b := 0; b < 1<<16; b += testvals.Stride(15) {
		h := half.Half(b)
		for _, f := range formats {
			want := fmt.Sprintf(f, fmtValue(h, f[len(f)-1], strings.Contains(f, ".")))
			if got := fmt.Sprintf(f, h); got != want {
				t.Fatalf("Sprintf(%q, %#04x) = %q, want %q", f, b, got, want)
			}
		}
	}
}

// With every combination of flags, a few widths and precisions, the float
// verbs agree with fmt on the float64 value.
func TestFormatFlags(t *testing.T) {
	var formats []string
	for flags := range 1 << 5 {
		fl := ""
		for i, c := range " +-#0" {
			if flags&(1<<i) != 0 {
				fl += string(c)
			}
		}
		for _, wid := range []string{"", "1", "9", "24"} {
			for _, prec := range []string{"", ".", ".0", ".1", ".3", ".12"} {
				for _, verb := range "vgGeEfFxX" {
					formats = append(formats, "%"+fl+wid+prec+string(verb))
				}
			}
		}
	}
	if testing.Short() {
		formats = formats[:len(formats)/4]
	}
	for _, h := range interesting() {
		for _, f := range formats {
			verb := f[len(f)-1]
			var want string
			if verb == 'v' && strings.Contains(f, "#") {
				want = fmt.Sprintf(f, uint16(h)) // Go syntax: the bits
			} else {
				want = fmt.Sprintf(f, fmtValue(h, verb, strings.Contains(f, ".")))
			}
			if got := fmt.Sprintf(f, h); got != want {
				t.Fatalf("Sprintf(%q, %#04x) = %q, want %q", f, uint16(h), got, want)
			}
		}
	}
}

// %b prints the binary16 mantissa and power of two: an integer mantissa
// with 11 bits, or fewer at the subnormal exponent -24.
func TestFormatB(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := half.Half(b)
		got := fmt.Sprintf("%b", h)
		if !h.IsFinite() {
			if want := fmt.Sprintf("%b", h.Float64()); got != want {
				t.Fatalf("%%b of %#04x = %q, want %q", b, got, want)
			}
			continue
		}
		s := strings.TrimPrefix(got, "-")
		if (s != got) != h.Signbit() {
			t.Fatalf("%%b of %#04x = %q: wrong sign", b, got)
		}
		ms, es, ok := strings.Cut(s, "p")
		m, err1 := strconv.ParseUint(ms, 10, 64)
		e, err2 := strconv.Atoi(es)
		if !ok || err1 != nil || err2 != nil || strings.HasPrefix(es, "+") != (e >= 0) {
			t.Fatalf("%%b of %#04x = %q: malformed", b, got)
		}
		if math.Ldexp(float64(m), e) != math.Abs(h.Float64()) ||
			!(m >= 1<<10 && m < 1<<11 && e >= -24 || m < 1<<10 && e == -24) {
			t.Fatalf("%%b of %#04x = %q", b, got)
		}
	}
	for _, c := range []struct {
		f    string
		h    half.Half
		want string
	}{
		{"%b", 0x3c00, "1024p-10"}, {"%b", 0x3e00, "1536p-10"}, {"%b", 0x7bff, "2047p+5"}, {"%b", 1, "1p-24"},
		{"%b", 0x3ff, "1023p-24"}, {"%b", 0, "0p-24"}, {"%b", 0x8000, "-0p-24"}, {"%b", 0xbc00, "-1024p-10"},
		{"%+b", 0x3c00, "+1024p-10"}, {"% b", 0x3c00, " 1024p-10"}, {"%+ b", 0x3c00, "+1024p-10"},
		{"%12b", 0x3c00, "    1024p-10"}, {"%-12b|", 0x3c00, "1024p-10    |"}, {"%012b", 0x3c00, "00001024p-10"},
		{"%+012b", 0x3c00, "+0001024p-10"}, {"%012b", 0xbc00, "-0001024p-10"}, {"%-012b|", 0xbc00, "-1024p-10   |"},
		{"% 012b", 0x3c00, " 0001024p-10"}, {"%3b", 0x3c00, "1024p-10"}, {"%#.3b", 0x3c00, "1024p-10"},
		{"%08b", half.NegInf, "    -Inf"}, {"%b", half.QNaN, "NaN"}, {"%+b", 0xfe00, "+NaN"}, {"%b", half.PosInf, "+Inf"},
	} {
		if got := fmt.Sprintf(c.f, c.h); got != c.want {
			t.Errorf("Sprintf(%q, %#04x) = %q, want %q", c.f, uint16(c.h), got, c.want)
		}
	}
}

// The remaining verbs: %s and %q format String, %#v the bits, others are
// errors that show the value as %v shows it.
func TestFormatOtherVerbs(t *testing.T) {
	for _, c := range []struct {
		f    string
		h    half.Half
		want string
	}{
		{"%s", 0x2e66, "0.1"}, {"%s", half.PosInf, "inf"}, {"%s", 0xfe00, "-nan"}, {"%6s|", half.QNaN, "   nan|"},
		{"%-6s|", half.NegInf, "-inf  |"}, {"%.2s", 0x2e66, "0."}, {"%q", 0x2e66, `"0.1"`},
		{"%#v", 0x3c00, "0x3c00"}, {"%#v", 1, "0x1"}, {"%#v", half.QNaN, "0x7e00"},
		{"%d", 0x3c00, "%!d(half.Half=1)"}, {"%z", 0x2e66, "%!z(half.Half=0.1)"}, {"%o", half.NegInf, "%!o(half.Half=-Inf)"},
		{"%c", 0xfe00, "%!c(half.Half=NaN)"}, {"%5d", 0x2e66, "%!d(half.Half=  0.1)"}, {"%+U", 0x3c00, "%!U(half.Half=+1)"},
		{"%v", 0x2e66, "0.1"}, {"%v", half.PosInf, "+Inf"}, {"%v", half.NegInf, "-Inf"}, {"%v", 0xfe00, "NaN"},
		{"%v", 0x8000, "-0"}, {"%v", half.MaxHalf, "65500"}, {"%v", half.MinSub, "6e-08"}, {"%v", 0x2400, "0.01563"},
		{"%.2f", 0x3c00 + 0x200, "1.50"}, {"%x", 0x3e00, "0x1.8p+00"}, {"%e", 0x2e66, "9.997559e-02"},
		{"%v", 0x3555, "0.3333"}, {"%+v", 0x3c00, "1"}, {"%+g", 0x3c00, "+1"}, {"%#g", 0x2e66, "0.100000"},
		{"%08.3f", 0xbc00, "-001.000"}, {"%08v", half.NegInf, "    -Inf"},
	} {
		if got := fmt.Sprintf(c.f, c.h); got != c.want {
			t.Errorf("Sprintf(%q, %#04x) = %q, want %q", c.f, uint16(c.h), got, c.want)
		}
	}
	for _, h := range interesting() {
		if got, want := fmt.Sprint(h), fmt.Sprintf("%v", h); got != want {
			t.Errorf("Sprint(%#04x) = %q, want %q", uint16(h), got, want)
		}
		if got, want := fmt.Sprintf("%s", h), h.String(); got != want {
			t.Errorf("%%s of %#04x = %q, want %q", uint16(h), got, want)
		}
	}
	if got, want := fmt.Sprintln([]half.Half{0x2e66, half.PosInf}, struct{ H half.Half }{0xbc00}), "[0.1 +Inf] {-1}\n"; got != want {
		t.Errorf("Sprintln = %q, want %q", got, want)
	}
}

// %v reads back as the same half, for every half but NaNs.
func TestFormatRoundTrip(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := half.Half(b)
		s := fmt.Sprint(h)
		if h.IsNaN() {
			if s != "NaN" {
				t.Fatalf("%#04x prints as %q", b, s)
			}
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%#04x prints as %q: %v", b, s, err)
		}
		if got := half.FromFloat64(v, round.RTE); got != h {
			t.Fatalf("%#04x prints as %q, which reads back as %#04x", b, s, uint16(got))
		}
	}
}

// %v and String print the shortest decimal that reads back, and of two the
// nearer to the half, checked against every decimal of each length near it.
func TestFormatShortest(t *testing.T) {
	for b := 0; b < 0x7c00; b++ {
		h := half.Half(b)
		f := h.Float64()
		if f == 0 {
			continue
		}
		// The decimals of p digits that read back as h lie in an
		// interval around f, so the nearest on each side are among the
		// nearest N·10^x and its neighbours N-1 and N+1.
		var best []float64
		p := 1
		for ; p <= 6 && best == nil; p++ {
			e := strconv.FormatFloat(f, 'e', p-1, 64)
			mant, exp, _ := strings.Cut(e, "e")
			n, _ := strconv.ParseInt(strings.Replace(mant, ".", "", 1), 10, 64)
			x, _ := strconv.Atoi(exp)
			dist := math.Inf(1)
			for _, c := range []int64{n - 1, n, n + 1} {
				v, _ := strconv.ParseFloat(fmt.Sprintf("%de%d", c, x-(p-1)), 64)
				if half.FromFloat64(v, round.RTE) != h {
					continue
				}
				switch d := math.Abs(v - f); {
				case d < dist:
					dist, best = d, []float64{v}
				case d == dist:
					best = append(best, v)
				}
			}
		}
		p--
		for _, s := range []string{fmt.Sprint(h), h.String()} {
			v, _ := strconv.ParseFloat(s, 64)
			if significantDigits(s) != p || (v != best[0] && (len(best) == 1 || v != best[1])) {
				t.Fatalf("%#04x = %v prints as %q, want %v", b, f, s, best)
			}
		}
	}
}
