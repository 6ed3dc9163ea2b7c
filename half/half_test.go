package half_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// Every binary16 value survives the round trip through float32 and float64
// in every mode (widening is exact); NaNs come back quiet with their payload.
func TestRoundTripAll(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := half.Half(b)
		for _, m := range round.Modes {
			want := h
			if h.IsNaN() {
				want |= 0x0200
			}
			if got := half.FromFloat64(h.Float64(), m); got != want {
				t.Fatalf("%#04x via float64 %s -> %#04x", b, m, uint16(got))
			}
			if got := half.FromFloat32(h.Float32(), m); got != want {
				t.Fatalf("%#04x via float32 %s -> %#04x", b, m, uint16(got))
			}
		}
		if !h.IsNaN() && float64(h.Float32()) != h.Float64() {
			t.Fatalf("%#04x: Float32 %v != Float64 %v", b, h.Float32(), h.Float64())
		}
	}
}

// String is the shortest decimal that reads back to the same half.
func TestStringShortest(t *testing.T) {
	for b := 0; b < 1<<16; b++ {
		h := half.Half(b)
		s := h.String()
		if h.IsNaN() || h.IsInf() {
			continue
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%#04x: %q: %v", b, s, err)
		}
		if got := half.FromFloat64(v, round.RTE); got != h {
			t.Fatalf("%#04x prints as %q, which reads back as %#04x", b, s, uint16(got))
		}
		// No shorter precision reads back.
		if sig := significantDigits(s); sig > 1 {
			short := strconv.FormatFloat(h.Float64(), 'g', sig-1, 64)
			w, _ := strconv.ParseFloat(short, 64)
			if half.FromFloat64(w, round.RTE) == h {
				t.Fatalf("%#04x prints as %q but %q also reads back", b, s, short)
			}
		}
	}
}

// significantDigits counts the significant digits of a decimal string.
func significantDigits(s string) int {
	v, _ := strconv.ParseFloat(s, 64)
	e := strconv.FormatFloat(v, 'e', -1, 64) // d.ddde±x
	n := 0
	for _, c := range e {
		if c == 'e' {
			break
		}
		if c >= '0' && c <= '9' {
			n++
		}
	}
	return n
}

func TestSpecialStrings(t *testing.T) {
	for h, want := range map[half.Half]string{half.PosInf: "inf", half.NegInf: "-inf", half.QNaN: "nan", 0xfe00: "-nan",
		0x8000: "-0", 0: "0", half.MaxHalf: "65500", half.MinSub: "6e-08", 0x3c00: "1", 0x2e66: "0.1",
		// 2^-6 = 0.015625 reads back from 0.01563 but not from 0.01562.
		0x2400: "0.01563", 0xa400: "-0.01563"} {
		if got := h.String(); got != want {
			t.Errorf("%#04x.String() = %q, want %q", uint16(h), got, want)
		}
	}
}

func TestPredicates(t *testing.T) {
	if !half.QNaN.IsNaN() || half.PosInf.IsNaN() || !half.NegInf.IsInf() || !half.NegInf.Signbit() || half.MaxHalf.IsInf() {
		t.Error("predicates wrong")
	}
	if half.FromBits(0x3c00).Bits() != 0x3c00 {
		t.Error("bits round trip")
	}
	if math.Float64bits(half.Half(0x8000).Float64()) != 1<<63 {
		t.Error("-0 lost its sign")
	}
}

func ExampleFromFloat64() {
	for _, m := range round.Modes {
		h := half.FromFloat64(65519, m)
		fmt.Printf("%s: %#04x %v\n", m, uint16(h), h)
	}
	// Output:
	// rte: 0x7bff 65500
	// rtz: 0x7bff 65500
	// rtp: 0x7c00 +Inf
	// rtn: 0x7bff 65500
}
