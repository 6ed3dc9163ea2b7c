package benchdata

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
)

// elems returns the elements of b, of kind k, as uint64 bit patterns.
func elems(k cltype.Kind, b []byte) []uint64 {
	out := make([]uint64, len(b)/k.Size())
	for i := range out {
		e := b[i*k.Size():]
		switch k.Size() {
		case 1:
			out[i] = uint64(e[0])
		case 2:
			out[i] = uint64(binary.LittleEndian.Uint16(e))
		case 4:
			out[i] = uint64(binary.LittleEndian.Uint32(e))
		default:
			out[i] = binary.LittleEndian.Uint64(e)
		}
	}
	return out
}

func toFloat(k cltype.Kind, v uint64) float64 {
	switch k {
	case cltype.Half:
		return half.FromBits(uint16(v)).Float64()
	case cltype.Float:
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

func toInt(k cltype.Kind, v uint64) float64 {
	if k.IsSigned() {
		sh := 64 - k.Bits()
		return float64(int64(v<<sh) >> sh)
	}
	return float64(v)
}

func TestInputDeterministicPrefix(t *testing.T) {
	for _, k := range cltype.Scalars {
		a, b := Input(k, 1000), Input(k, 5000)
		if len(a) != 1000*k.Size() || len(b) != 5000*k.Size() {
			t.Fatalf("%s: lengths %d, %d", k, len(a), len(b))
		}
		if !bytes.Equal(a, b[:len(a)]) {
			t.Errorf("%s: Input(1000) is not the first 1000 elements of Input(5000)", k)
		}
		if !bytes.Equal(a, Input(k, 1000)) {
			t.Errorf("%s: not deterministic", k)
		}
	}
}

// TestInputMix checks that the values mix in and out of range for narrower
// destinations, exact and inexact, and (for floating kinds) special values
// in small fractions; and that the input does not repeat.
func TestInputMix(t *testing.T) {
	const n = 1 << 16
	for _, k := range cltype.Scalars {
		vs := elems(k, Input(k, n))
		frac := func(f func(x float64) bool, conv func(cltype.Kind, uint64) float64) float64 {
			c := 0
			for _, v := range vs {
				if f(conv(k, v)) {
					c++
				}
			}
			return float64(c) / n
		}
		between := func(lo, hi float64, f float64, what string) {
			t.Helper()
			if f < lo || f > hi {
				t.Errorf("%s: %s in %.3f of the input, want [%.3f, %.3f]", k, what, f, lo, hi)
			}
		}
		if k.IsFloat() {
			between(0.005, 0.03, frac(math.IsNaN, toFloat), "NaN")
			between(0.01, 0.05, frac(func(x float64) bool { return math.IsInf(x, 0) }, toFloat), "inf")
			between(0.2, 0.6, frac(func(x float64) bool { return math.Abs(x) < 128 }, toFloat), "in char's range")
			between(0.2, 0.9, frac(func(x float64) bool { return math.Abs(x) >= 256 }, toFloat), "out of uchar's range")
			between(0.1, 0.3, frac(func(x float64) bool { return x == math.Trunc(x)+0.5 }, toFloat), "ties (x.5)")
			between(0.1, 0.8, frac(func(x float64) bool { return x != math.Trunc(x) && !math.IsNaN(x) && !math.IsInf(x, 0) }, toFloat), "not integer")
			if k != cltype.Half {
				between(0.05, 0.5, frac(func(x float64) bool { return math.Abs(x) >= 1<<31 }, toFloat), "beyond int's range")
			}
		} else {
			if k.Size() > 1 {
				between(0.25, 0.8, frac(func(x float64) bool { return x < -128 || x > 127 }, toInt), "out of char's range")
				between(0.2, 0.75, frac(func(x float64) bool { return x >= 0 && x <= 255 }, toInt), "in uchar's range")
			}
			if k.IsSigned() {
				between(0.3, 0.7, frac(func(x float64) bool { return x < 0 }, toInt), "negative")
			} else {
				between(0.1, 0.4, frac(func(x float64) bool { return x >= math.Ldexp(1, k.Bits()-1) }, toInt), "top bit set")
			}
			if k.Size() >= 4 {
				between(0.2, 0.8, frac(func(x float64) bool { return math.Abs(x) > 1<<24 }, toInt), "inexact in float")
			}
		}
		// No repetition: every run of 8 elements of a wide kind, or of 64
		// of a narrow one, differs from every other.
		run := max(8, 64/k.Size())
		seen := map[string]int{}
		b := Input(k, n)
		for i := 0; i+run*k.Size() <= len(b); i += run * k.Size() {
			s := string(b[i : i+run*k.Size()])
			if j, ok := seen[s]; ok {
				t.Fatalf("%s: the elements at %d repeat those at %d", k, i/k.Size(), j)
			}
			seen[s] = i / k.Size()
		}
	}
}

func TestWindow(t *testing.T) {
	const n = 1 << 15
	w := NewWindow(cltype.Double, n)
	if !w.Refills() || len(w.Buf) != n*8 {
		t.Fatalf("Refills %v, len %d", w.Refills(), len(w.Buf))
	}
	pool := Input(cltype.Double, PoolElements)
	if !bytes.Equal(w.Buf, pool[:n*8]) {
		t.Error("the first window is not the pool's start")
	}
	seen := map[string]bool{}
	for i := range PoolElements / n * 2 {
		off := i % (PoolElements / n) * n * 8
		if !bytes.Equal(w.Buf, pool[off:off+n*8]) {
			t.Fatalf("window %d is not the pool at %d", i, off)
		}
		seen[string(w.Buf[:64])] = true
		w.Next()
	}
	if len(seen) != PoolElements/n {
		t.Errorf("%d distinct windows, want %d", len(seen), PoolElements/n)
	}
	// Large windows, and a pool of 8 windows for one just below PoolElements.
	if w := NewWindow(cltype.Char, PoolElements); w.Refills() || len(w.Buf) != PoolElements {
		t.Errorf("n = PoolElements: Refills %v, len %d", w.Refills(), len(w.Buf))
	}
	w = NewWindow(cltype.Char, PoolElements-1)
	first := string(w.Buf)
	for i := 1; i < 8; i++ {
		w.Next()
		if string(w.Buf) == first {
			t.Fatalf("window %d repeats the first", i)
		}
	}
	w.Next()
	if string(w.Buf) != first {
		t.Error("the ninth window is not the first")
	}
}

func TestAllVariants(t *testing.T) {
	total := 0
	names := map[string]bool{}
	for _, s := range cltype.Scalars {
		for _, d := range cltype.Scalars {
			vs := AllVariants(s, d)
			want := 8
			if d.IsFloat() {
				want = 4
			}
			if len(vs) != want {
				t.Errorf("%s -> %s: %d variants, want %d", s, d, len(vs), want)
			}
			for _, v := range vs {
				name := s.String() + " " + v.Name(d)
				if names[name] {
					t.Errorf("%s twice", name)
				}
				names[name] = true
			}
			total += len(vs)
		}
	}
	if total != 836 {
		t.Errorf("%d variants, want 836", total)
	}
	if got := AllVariants(cltype.Char, cltype.Int)[5].Name(cltype.Int); got != "convert_int_sat_rtz" {
		t.Errorf("variant 5 of char -> int is %s", got)
	}
}

// BenchmarkInput reports how long Input takes per element (clconv bench
// makes 16 Mi elements of each source kind for the mem size).
func BenchmarkInput(b *testing.B) {
	for _, k := range []cltype.Kind{cltype.Char, cltype.Long, cltype.Half, cltype.Double} {
		b.Run(k.String(), func(b *testing.B) {
			for b.Loop() {
				Input(k, 1<<16)
			}
		})
	}
}

// TestInputSameOnEveryPort checks the input's bytes against digests recorded
// on amd64 (SHA-256 of Input(k, 1<<16), its first 16 hex digits), so that every
// port benchmarks the same values: the elements are little-endian on every
// host, and the draws (math/rand/v2's PCG, integer arithmetic, exact or
// singly rounded float64 operations, Go's float64 -> float32 rounding,
// half.FromFloat64) give the same bits everywhere. (rand's NormFloat64 did
// not: its tail values on s390x differed in the last bit.)
// scripts/ports.sh runs it on big-endian s390x and mips, among others.
func TestInputSameOnEveryPort(t *testing.T) {
	want := map[cltype.Kind]string{
		cltype.Char: "9810c55462ec6a0c", cltype.Uchar: "55bfa313ef6bc3ce",
		cltype.Short: "2e7eb6fc5b3751c2", cltype.Ushort: "8902e1f69e6089ff",
		cltype.Int: "432304ee0cc2b84e", cltype.Uint: "622641edd0c64226",
		cltype.Long: "f5215c87c606491b", cltype.Ulong: "09dd66d3b209be8a",
		cltype.Half: "1f67a2fae1cb9829", cltype.Float: "9ce1e7b800342276",
		cltype.Double: "dd2318232a0b9a05", cltype.BFloat16: "14c6e38e0d9f67aa",
	}
	for _, k := range append(slices.Clone(cltype.Scalars), cltype.BFloat16) {
		sum := sha256.Sum256(Input(k, 1<<16))
		got := hex.EncodeToString(sum[:8])
		if w, ok := want[k]; !ok {
			t.Logf("%s: %s (not recorded)", k, got)
		} else if got != w {
			t.Errorf("%s: Input(%s, 1<<16) has SHA-256 %s..., recorded %s...: this port draws other inputs", k, k, got, w)
		}
	}
}
