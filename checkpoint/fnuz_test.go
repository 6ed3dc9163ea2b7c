package checkpoint

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// dequantized converts the block-scaled checkpoint in to float64 values and
// returns the weight's.
func dequantized(t *testing.T, in string) []float64 {
	t.Helper()
	out := filepath.Join(t.TempDir(), "dq.safetensors")
	if _, err := ConvertFile(context.Background(), out, in, true, Options{To: cltype.Double}); err != nil {
		t.Fatal(err)
	}
	_, got := readBack(t, out)
	b := got["l.weight"]
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

// sameValues reports the first index at which a and b differ (NaN equal to
// NaN, -0 to +0), or -1.
func sameValues(a, b []float64) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return i
		}
	}
	return -1
}

// --to e4m3fnuz on an OCP E4M3 block-scaled checkpoint keeps the bytes
// (0x80 -> 0x00, NaN -> 0x80) and doubles the scales exactly, so that every
// dequantized value is the same; --to e4m3 takes it back.
func TestReencodeFNUZ(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(44, 1))
	const rows, cols = 300, 260
	for _, sd := range []safetensors.DType{safetensors.F32, safetensors.BF16, safetensors.F16} {
		w := rawTensor("l.weight", safetensors.F8_E4M3, []int64{rows, cols}, rng)
		for i := range 256 { // every byte, in every block
			w.data[i*7] = byte(i)
			w.data[rows*cols-1-i*5] = byte(i)
		}
		sc := rawTensor("l.weight_scale_inv", sd, []int64{3, 3}, rng)
		scales := []float64{1, 0x1p-20, 1e4, 0x1p-14, 2.5, 1e-3, 0.0123, 448, 7}
		for i, s := range scales {
			v, _ := safetensorsBits(sd, s)
			for c := range sd.Bits() / 8 {
				sc.data[i*sd.Bits()/8+c] = byte(v >> (8 * c))
			}
		}
		in := writeFile(t, dir, "ocp.safetensors", nil, rawTensor("norm", safetensors.BF16, []int64{4}, rng), w, sc)
		fnuz := filepath.Join(dir, "fnuz.safetensors")
		rep, err := ConvertFile(context.Background(), fnuz, in, true, Options{To: cltype.E4M3FNUZ, Tensors: []string{"l.*"}})
		if err != nil {
			t.Fatal(err)
		}
		f, got := readBack(t, fnuz)
		wi, _ := f.Lookup("l.weight")
		si, _ := f.Lookup("l.weight_scale_inv")
		if wi == nil || si == nil || wi.DType != safetensors.F8_E4M3FNUZ || si.DType != sd {
			t.Fatalf("%v: dtypes %v", sd, f.Tensors)
		}
		for _, r := range rep.Tensors {
			if strings.HasPrefix(r.Name, "l.") && r.Action != "reencode" {
				t.Errorf("%s: action %s", r.Name, r.Action)
			}
		}
		for i, x := range w.data {
			if want := E4M3ToFNUZ(x); got["l.weight"][i] != want {
				t.Fatalf("byte %d: %#x -> %#x, want %#x", i, x, got["l.weight"][i], want)
			}
		}
		for i := range scales {
			n := sd.Bits() / 8
			var in, out uint64
			for c := n - 1; c >= 0; c-- {
				in = in<<8 | uint64(sc.data[i*n+c])
				out = out<<8 | uint64(got["l.weight_scale_inv"][i*n+c])
			}
			if a, b := valueOf(sd, in), valueOf(sd, out); b != 2*a {
				t.Errorf("%v scale %d: %v -> %v, want twice", sd, i, a, b)
			}
		}
		before, after := dequantized(t, in), dequantized(t, fnuz)
		if i := sameValues(before, after); i >= 0 {
			t.Fatalf("%v: dequantized element %d: %v before, %v after the re-encoding", sd, i, before[i], after[i])
		}
		// Back: the inverse gives the same values (its bytes are the
		// input's, with -0 made +0 and the NaNs one).
		back := filepath.Join(dir, "back.safetensors")
		if _, err := ConvertFile(context.Background(), back, fnuz, true, Options{To: cltype.E4M3, Tensors: []string{"l.*"}}); err != nil {
			t.Fatal(err)
		}
		_, gb := readBack(t, back)
		for i, x := range w.data {
			want := x
			switch {
			case x == 0x80:
				want = 0
			case x&0x7f == 0x7f:
				want = 0x7f
			}
			if gb["l.weight"][i] != want {
				t.Fatalf("back: byte %d: %#x -> %#x, want %#x", i, x, gb["l.weight"][i], want)
			}
		}
		if i := sameValues(before, dequantized(t, back)); i >= 0 {
			t.Fatalf("%v: back: dequantized element %d differs", sd, i)
		}
	}
}

// The inverse cannot keep E4M3FNUZ's +-240: an error, or +-448 with _sat;
// a scale whose double overflows its dtype is an error.
func TestReencodeFNUZLimits(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(44, 2))
	w := rawTensor("l.weight", safetensors.F8_E4M3FNUZ, []int64{2, 4}, rng)
	copy(w.data, []byte{0x40, 0x7f, 0xff, 0x80, 0x00, 0x01, 0x3f, 0x81})
	sc := rawTensor("l.weight_scale_inv", safetensors.F32, []int64{1, 1}, rng)
	binary.LittleEndian.PutUint32(sc.data, math.Float32bits(0.5))
	in := writeFile(t, dir, "fnuz.safetensors", nil, w, sc)
	out := filepath.Join(dir, "out.safetensors")
	if _, err := ConvertFile(context.Background(), out, in, true, Options{To: cltype.E4M3}); err == nil || !strings.Contains(err.Error(), "beyond E4M3's 448") {
		t.Fatalf("FNUZ 240 to e4m3: %v, want an error", err)
	}
	if _, err := ConvertFile(context.Background(), out, in, true, Options{To: cltype.E4M3, Sat: true}); err != nil {
		t.Fatal(err)
	}
	_, got := readBack(t, out)
	if want := []byte{0x40, 0x7e, 0xfe, 0x7f, 0x00, 0x01, 0x3f, 0x81}; string(got["l.weight"]) != string(want) {
		t.Errorf("sat: %x, want %x", got["l.weight"], want)
	}
	if s := math.Float32frombits(binary.LittleEndian.Uint32(got["l.weight_scale_inv"])); s != 0.25 {
		t.Errorf("scale %v, want 0.25", s)
	}
	w.info.DType = safetensors.F8_E4M3
	binary.LittleEndian.PutUint32(sc.data, math.Float32bits(math.MaxFloat32))
	in = writeFile(t, dir, "ocp.safetensors", nil, w, sc)
	if _, err := ConvertFile(context.Background(), out, in, true, Options{To: cltype.E4M3FNUZ}); err == nil || !strings.Contains(err.Error(), "cannot hold exactly") {
		t.Fatalf("doubling FLT_MAX: %v, want an error", err)
	}
	for b := range 256 {
		x := uint8(b)
		y := E4M3ToFNUZ(x)
		if x != 0x80 && x&0x7f != 0x7f {
			if z, ok := FNUZToE4M3(y, false); !ok || z != x {
				t.Errorf("%#x -> %#x -> %#x %v", x, y, z, ok)
			}
		}
	}
}

// safetensorsBits returns the bits of v in scale dtype d (exact here).
func safetensorsBits(d safetensors.DType, v float64) (uint64, error) {
	return bitsOf(d.Kind(), v), nil
}

// bitsOf returns the pattern of v in floating kind k, rounded to nearest.
func bitsOf(k cltype.Kind, v float64) uint64 {
	b, _ := convert.Bits(k, cltype.Double, math.Float64bits(v), round.RTE, false)
	return b
}

// valueOf returns the value of pattern b of scale dtype d.
func valueOf(d safetensors.DType, b uint64) float64 {
	v, _ := convert.Bits(cltype.Double, d.Kind(), b, round.RTE, false)
	return math.Float64frombits(v)
}
