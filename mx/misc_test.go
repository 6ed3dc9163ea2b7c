package mx

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clconv/clconv/round"
)

func TestParse(t *testing.T) {
	for _, f := range Formats {
		g, err := ParseFormat(strings.ToUpper(f.Name))
		if err != nil || g != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.Name, g, err)
		}
	}
	if f, err := ParseFormat("mxfp6_e2m3"); err != nil || f != MXFP6E2M3 {
		t.Errorf("underscores: %v %v", f, err)
	}
	_, err := ParseFormat("mxfp5")
	if err == nil || !strings.Contains(err.Error(), "mxfp4, mxfp6-e2m3, mxfp6-e3m2, mxfp8-e4m3, mxfp8-e5m2, nvfp4") {
		t.Errorf("ParseFormat(mxfp5): %v", err)
	}
	for _, r := range Rules {
		g, err := ParseScaleRule(strings.ToUpper(r.String()))
		if err != nil || g != r {
			t.Errorf("ParseScaleRule(%q) = %v, %v", r, g, err)
		}
	}
	if _, err := ParseScaleRule("round"); err == nil || !strings.Contains(err.Error(), "floor, rceil, ceil, even") {
		t.Errorf("ParseScaleRule(round): %v", err)
	}
	for _, o := range []NibbleOrder{LowFirst, HighFirst} {
		if g, err := ParseNibbleOrder(o.String()); err != nil || g != o {
			t.Errorf("ParseNibbleOrder(%q) = %v, %v", o, g, err)
		}
	}
	for o := range numFP6Orders {
		if g, err := ParseFP6Order(o.String()); err != nil || g != o {
			t.Errorf("ParseFP6Order(%q) = %v, %v", o, g, err)
		}
	}
	if _, err := ParseFP6Order("x"); err == nil || !strings.Contains(err.Error(), "le, be, torchao-split") {
		t.Errorf("ParseFP6Order(x): %v", err)
	}
	if _, err := ParseNibbleOrder("x"); err == nil {
		t.Error("ParseNibbleOrder(x)")
	}
	if r, err := ParseNVRecipe("Exact"); err != nil || r != Exact {
		t.Errorf("ParseNVRecipe: %v %v", r, err)
	}
	if _, err := ParseNVRecipe("x"); err == nil || !strings.Contains(err.Error(), "modelopt, modelopt-cuda, exact") {
		t.Errorf("ParseNVRecipe(x): %v", err)
	}
}

func TestErrors(t *testing.T) {
	src := make([]float32, 40)
	cases := []struct {
		f       *Format
		dst, sc int
		rowLen  int
		opt     Options
		want    string
	}{
		{MXFP4, 40, 2, 40, Options{}, "row length 40 is not a whole number of 32-element blocks (remainder 8)"},
		{MXFP4, 64, 1, 40, Options{Pad: true}, "scale buffer has 1 bytes, want 2"},
		{MXFP4, 40, 2, 40, Options{Pad: true}, "element buffer has 40 bytes, want 64"},
		{MXFP4, 32, 2, 40, Options{Pad: true, Packed: true}, ""},
		{MXFP6E2M3, 48, 2, 40, Options{Pad: true, Packed: true}, ""},
		{MXFP4, 40, 2, 0, Options{}, "row length 0 is not positive"},
		{MXFP4, 40, 2, 16, Options{Pad: true}, "40 elements are not a whole number of rows of 16"},
		{MXFP4, 64, 2, 40, Options{Pad: true, Rule: 9}, "unknown scale rule"},
		{MXFP4, 64, 2, 40, Options{Pad: true, FP6: 9}, "unknown FP6 order"},
		{NVFP4, 48, 3, 40, Options{Pad: true}, ""},
		{NVFP4, 48, 3, 40, Options{Pad: true, TensorScale: float32(math.Inf(1))}, "tensor scale +Inf is not a positive finite float32"},
		{nil, 1, 1, 1, Options{}, "no format"},
	}
	for _, c := range cases {
		_, err := Quantize(c.f, make([]byte, c.dst), make([]byte, c.sc), src, c.rowLen, c.opt)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.f, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %+v: error %v, want %q", c.f, c.opt, err, c.want)
		}
	}
	// Dequantize needs NVFP4's tensor scale.
	_, err := Dequantize(NVFP4, make([]float32, 16), make([]byte, 16), make([]byte, 1), 16, Options{})
	if err == nil || !strings.Contains(err.Error(), "tensor scale 0") {
		t.Errorf("Dequantize NVFP4 without a tensor scale: %v", err)
	}
	// Packing errors.
	if _, err := PackFP4(make([]byte, 1), []byte{1, 0x10}, LowFirst); err == nil || !strings.Contains(err.Error(), "code 0x10 at index 1") {
		t.Errorf("PackFP4: %v", err)
	}
	if _, err := PackFP4(make([]byte, 1), []byte{1}, LowFirst); err == nil {
		t.Error("PackFP4 of an odd count")
	}
	if _, err := PackFP6(make([]byte, 3), []byte{1, 2, 0x40, 3}, FP6LittleEndian); err == nil || !strings.Contains(err.Error(), "index 2") {
		t.Errorf("PackFP6: %v", err)
	}
	if _, err := UnpackFP6(make([]byte, 4), []byte{1, 2}, FP6LittleEndian); err == nil {
		t.Error("UnpackFP6 of 2 bytes")
	}
}

// TestPadPacked checks padding against explicit zero padding, and packed
// layouts against packing the unpacked codes, both ways.
func TestPadPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range Formats {
		B := f.BlockSize
		for _, rowLen := range []int{B, B + 3, 2*B - 1, 5} {
			rows := 3
			src := make([]float32, rows*rowLen)
			for i := range src {
				src[i] = float32(rng.NormFloat64() * math.Ldexp(1, rng.IntN(10)))
			}
			bpr := (rowLen + B - 1) / B
			padded := make([]float32, rows*bpr*B)
			for r := range rows {
				copy(padded[r*bpr*B:], src[r*rowLen:(r+1)*rowLen])
			}
			opt := Options{Pad: true, Rule: RCEIL, Mode: round.RTP}
			e1, s1 := make([]byte, rows*bpr*B), make([]byte, rows*bpr)
			st1, err := Quantize(f, e1, s1, src, rowLen, opt)
			if err != nil {
				t.Fatal(err)
			}
			e2, s2 := make([]byte, len(e1)), make([]byte, len(s1))
			st2, err := Quantize(f, e2, s2, padded, bpr*B, opt)
			if err != nil {
				t.Fatal(err)
			}
			st2.Elements = st1.Elements
			if !bytes.Equal(e1, e2) || !bytes.Equal(s1, s2) || st1 != st2 {
				t.Fatalf("%s rowLen %d: padding differs from explicit zeros (%+v, %+v)", f, rowLen, st1, st2)
			}
			orders := []Options{{}}
			switch f.ElemBits() {
			case 4:
				orders = []Options{{Nibbles: LowFirst}, {Nibbles: HighFirst}}
			case 6:
				orders = []Options{{FP6: FP6LittleEndian}, {FP6: FP6BigEndian}, {FP6: FP6TorchAOSplit}}
			}
			for _, o := range orders {
				o.Pad, o.Packed, o.Rule, o.Mode = true, true, RCEIL, round.RTP
				pe := make([]byte, f.ElemBytes(len(e1), true))
				ps := make([]byte, len(s1))
				if _, err := Quantize(f, pe, ps, src, rowLen, o); err != nil {
					t.Fatal(err)
				}
				want := make([]byte, len(pe))
				switch f.ElemBits() {
				case 4:
					_, err = PackFP4(want, e1, o.Nibbles)
				case 6:
					_, err = PackFP6(want, e1, o.FP6)
				default:
					copy(want, e1)
				}
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(pe, want) || !bytes.Equal(ps, s1) {
					t.Fatalf("%s %+v: packed quantization differs", f, o)
				}
				// Dequantize packed and unpacked alike; padding dropped.
				ts := st1.TensorScale
				o.TensorScale = ts
				d1 := make([]float32, len(src))
				d2 := make([]float32, len(src))
				if _, err := Dequantize(f, d1, pe, ps, rowLen, o); err != nil {
					t.Fatal(err)
				}
				if _, err := Dequantize(f, d2, e1, s1, rowLen, Options{Pad: true, Mode: round.RTP, TensorScale: ts}); err != nil {
					t.Fatal(err)
				}
				for i := range d1 {
					if math.Float32bits(d1[i]) != math.Float32bits(d2[i]) {
						t.Fatalf("%s %+v: dequantized packed %g, unpacked %g at %d", f, o, d1[i], d2[i], i)
					}
				}
			}
		}
	}
}

func TestPackRoundTrip(t *testing.T) {
	all := make([]byte, 256*3)
	for i := range all {
		all[i] = byte(i * 7)
	}
	for _, o := range []NibbleOrder{LowFirst, HighFirst} {
		codes := make([]byte, 2*len(all))
		UnpackFP4(codes, all, o)
		back := make([]byte, len(all))
		PackFP4(back, codes, o)
		if !bytes.Equal(back, all) {
			t.Errorf("FP4 %s does not round-trip", o)
		}
	}
	// The documented bit layouts, on a, b, c, d = 0x01, 0x02, 0x04, 0x3f.
	want := map[FP6Order][3]byte{
		FP6LittleEndian: {0x01 | 0x02<<6&0xff, 0x02>>2 | 0x04<<4, 0x04>>4 | 0x3f<<2&0xff},
		FP6BigEndian:    {0x01<<2 | 0x02>>4, 0x02<<4 | 0x04>>2, 0x04<<6&0xff | 0x3f},
		FP6TorchAOSplit: {0x01>>2<<4 | 0x02>>2, 0x3f>>2<<4 | 0x04>>2, 0x01<<6 | (0x02&3)<<4 | (0x3f&3)<<2 | 0x04&3},
	}
	for o, w := range want {
		got := make([]byte, 3)
		PackFP6(got, []byte{0x01, 0x02, 0x04, 0x3f}, o)
		if [3]byte(got) != w {
			t.Errorf("FP6 %s: %x, want %x", o, got, w)
		}
		codes := make([]byte, 4*len(all)/3)
		UnpackFP6(codes, all, o)
		back := make([]byte, len(all))
		PackFP6(back, codes, o)
		if !bytes.Equal(back, all) {
			t.Errorf("FP6 %s does not round-trip", o)
		}
	}
	got := make([]byte, 1)
	PackFP4(got, []byte{0x1, 0x2}, LowFirst)
	if got[0] != 0x21 {
		t.Errorf("LowFirst: %#x", got[0])
	}
	PackFP4(got, []byte{0x1, 0x2}, HighFirst)
	if got[0] != 0x12 {
		t.Errorf("HighFirst: %#x", got[0])
	}
}

func FuzzPackFP4(f *testing.F) {
	f.Add([]byte{0x12, 0xff, 0x00}, uint8(0))
	f.Add([]byte{0x7f}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, order uint8) {
		o := NibbleOrder(order % 2)
		codes := make([]byte, 2*len(data))
		if n, err := UnpackFP4(codes, data, o); err != nil || n != len(codes) {
			t.Fatal(n, err)
		}
		back := make([]byte, len(data))
		if n, err := PackFP4(back, codes, o); err != nil || n != len(data) {
			t.Fatal(n, err)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("%x -> %x", data, back)
		}
	})
}

func FuzzPackFP6(f *testing.F) {
	f.Add([]byte{0x12, 0xff, 0x00}, uint8(0))
	f.Add([]byte{1, 2, 3, 4, 5, 6}, uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, order uint8) {
		data = data[:len(data)/3*3]
		o := FP6Order(order % uint8(numFP6Orders))
		codes := make([]byte, len(data)/3*4)
		if n, err := UnpackFP6(codes, data, o); err != nil || n != len(codes) {
			t.Fatal(n, err)
		}
		for _, c := range codes {
			if c > 0x3f {
				t.Fatalf("code %#x", c)
			}
		}
		back := make([]byte, len(data))
		if n, err := PackFP6(back, codes, o); err != nil || n != len(data) {
			t.Fatal(n, err)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("%x -> %x", data, back)
		}
	})
}

// FuzzQuantize takes random bytes as float32 blocks, quantizes them with a
// format, rule and mode picked by the fuzzer, and checks the result with
// the reference, and the dequantized values with the exact value of the
// codes (element * 2^X rounded to float32 in the mode).
func FuzzQuantize(f *testing.F) {
	f.Add([]byte{0, 0, 0x80, 0x7f, 1, 2, 3, 4}, uint8(0), uint8(0))
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f}, uint8(3), uint8(7))
	f.Add(make([]byte, 128), uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, fsel, msel uint8) {
		fm := mxFormats[int(fsel)%len(mxFormats)]
		rule := Rules[int(fsel/8)%len(Rules)]
		m := round.Modes[int(msel)%4]
		sat := msel&4 == 0 || fm.ElemBits() < 8
		B := fm.BlockSize
		n := len(data) / 4
		if n == 0 {
			return
		}
		blocks := (n + B - 1) / B
		vals := make([]float64, blocks*B)
		src := make([]float32, blocks*B)
		for i := range n {
			src[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
			vals[i] = float64(src[i])
		}
		var bl [][]float64
		for b := range blocks {
			bl = append(bl, vals[b*B:(b+1)*B])
		}
		if !checkMX(t, fm, srcTypes[0], rule, m, sat, bl) {
			return
		}
		dst := make([]byte, len(src))
		sc := make([]byte, blocks)
		if _, err := Quantize(fm, dst, sc, src, B, Options{Rule: rule, Mode: m, NoSat: !sat}); err != nil {
			t.Fatal(err)
		}
		back := make([]float32, len(src))
		if _, err := Dequantize(fm, back, dst, sc, B, Options{Mode: m}); err != nil {
			t.Fatal(err)
		}
		r := refElemOf(fm)
		for i, g := range back {
			s := sc[i/B]
			if s == 0xFF {
				if !math.IsNaN(float64(g)) {
					t.Fatalf("NaN block gave %g", g)
				}
				continue
			}
			v, isNaN, isInf, _ := refElemInt(r, int(dst[i]))
			if isNaN || isInf {
				continue
			}
			want := roundDestInt(v.pow2(int(s)-127), refF32, m)
			if float64(g) != want {
				t.Fatalf("dequantized %g, want %g", g, want)
			}
		}
	})
}
