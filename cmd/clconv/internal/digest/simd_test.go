package digest

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/gencheck"
	"github.com/clconv/clconv/internal/kernels"
)

// TestSumKernels checks the term kernels (AVX-512 where the CPU has it)
// against the pure-Go loops and against digestspec's definition written out,
// for every output size and kind, on outputs full of NaN patterns, flags and
// boundary values, at every length from 0 to 80 and at a full batch, at odd
// bases.
func TestSumKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dst := make([]uint64, batch)
	bad := make([]bool, batch)
	kinds := []cltype.Kind{cltype.Uchar, cltype.Ushort, cltype.Uint, cltype.Ulong,
		cltype.E4M3, cltype.E5M2, cltype.E8M0, cltype.E2M1, cltype.Half, cltype.BFloat16, cltype.Float, cltype.Double}
	lengths := []int{batch, batch - 1, batch - 15}
	for n := 0; n <= 80; n++ {
		lengths = append(lengths, n)
	}
	ran := 0
	for _, k := range kinds {
		size := k.Size()
		a, m, isFloat := digestspec.NaNMasks(k)
		for _, flag := range []bool{false, true} {
			if flag && isFloat {
				continue
			}
			kind := termsInt
			switch {
			case flag:
				kind = termsFlag
			case isFloat:
				kind = termsNaN
			}
			for _, n := range lengths {
				b := asBytes(dst, n*size)
				for i := range b {
					b[i] = byte(rng.Uint32())
					if rng.IntN(4) == 0 { // all-ones bytes make NaNs, infinities and the extremes
						b[i] = 0xff
					}
				}
				for i := range bad[:n] {
					bad[i] = rng.IntN(3) == 0
				}
				base := rng.Uint64()
				p := unsafe.Pointer(unsafe.SliceData(dst))
				sum, nan, done := sumSIMD(kind, size, p, bad, base, n, a, m)
				if done%16 != 0 || done > n {
					t.Fatalf("%v n=%d: the kernel did %d", k, n, done)
				}
				if done > 0 {
					ran++
				}
				t1, n1 := sumTerms(kind, size, p, bad, base, done, n, a, m)
				sum, nan = sum+t1, nan+n1
				gs, gn := sumTerms(kind, size, p, bad, base, 0, n, a, m)
				var ws, wn uint64
				for j := 0; j < n; j++ {
					o := loadHost(b, size, j)
					if digestspec.IsNaN(k, o) {
						wn++
					}
					ws += digestspec.Term(base+uint64(j), digestspec.Canonical(k, o, flag && bad[j]))
				}
				if gs != ws || gn != wn {
					t.Fatalf("%v flag=%v n=%d: pure Go %#x %d, definition %#x %d", k, flag, n, gs, gn, ws, wn)
				}
				if sum != ws || nan != wn {
					t.Fatalf("%v flag=%v n=%d: kernel+Go %#x %d, definition %#x %d", k, flag, n, sum, nan, ws, wn)
				}
			}
		}
	}
	if simdOK() && ran == 0 {
		t.Fatal("no kernel ran")
	}
	t.Logf("tier %v: %d kernel calls checked", kernels.Level(), ran)
}

// TestFillKernels checks the input kernels against digestspec.Input.
func TestFillKernels(t *testing.T) {
	buf := make([]uint64, batch)
	for _, k := range []cltype.Kind{cltype.Uchar, cltype.Short, cltype.Float, cltype.Int, cltype.Long, cltype.Ulong, cltype.Double} {
		for _, n := range []int{batch, 1, 7, 8, 15, 16, 17, 33} {
			for _, base := range []uint64{0, 1<<32 - 5, 0xfffffff0, 12345} {
				for i := range buf {
					buf[i] = 0x5555555555555555
				}
				fill(buf, k, base, n)
				b := asBytes(buf, n*k.Size())
				for j := 0; j < n; j++ {
					want := digestspec.Input(k, base+uint64(j))
					if k.Size() < 8 {
						want &= 1<<(8*k.Size()) - 1
					}
					if got := loadHost(b, k.Size(), j); got != want {
						t.Fatalf("%v base %#x n %d: input %d = %#x, want %#x", k, base, n, j, got, want)
					}
				}
			}
		}
	}
}

// loadHost reads element j of the given size in the host's byte order, as
// the kernels and the Go loops read outputs.
func loadHost(b []byte, size, j int) uint64 {
	p := unsafe.Pointer(unsafe.SliceData(b))
	switch size {
	case 1:
		return uint64(*(*uint8)(unsafe.Add(p, j)))
	case 2:
		return uint64(*(*uint16)(unsafe.Add(p, 2*j)))
	case 4:
		return uint64(*(*uint32)(unsafe.Add(p, 4*j)))
	}
	return *(*uint64)(unsafe.Add(p, 8*j))
}

// TestTiersAgree computes digests that run every kernel kind in the pure-Go
// tier and in the best tier: the chunk sums must be equal.
func TestTiersAgree(t *testing.T) {
	cases := []struct{ conv, src, chunks string }{
		{"convert_int_sat_rte", "float", "127"},
		{"convert_uchar", "float", "67"},
		{"convert_half", "float", "255"},
		{"convert_double", "float", "255"},
		{"convert_float_rtz", "double", "0"},
		{"convert_long_sat_rtp", "double", "2"},
		{"convert_half", "long", "3"},
		{"convert_e4m3", "float", "127"},
		{"convert_int", "ushort", "0"},
	}
	if kernels.Best() == kernels.Go {
		t.Skip("only the pure-Go tier here: nothing to compare")
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		conv, err := Parse(c.conv, c.src)
		if err != nil {
			t.Fatal(err)
		}
		ch, _ := ParseChunks(c.chunks, digestspec.Chunks(conv.Src))
		best := Compute(conv, Options{Chunks: ch})
		prev, _ := kernels.SetSIMD("go")
		gold := Compute(conv, Options{Chunks: ch})
		kernels.SetSIMD(prev)
		if best.Line() != gold.Line() || best.Impl != gold.Impl || best.NaN != gold.NaN {
			t.Errorf("%s %s: tier %s\n  %s\npure Go\n  %s", c.conv, c.src, prev, best.Line(), gold.Line())
		}
	}
}

// TestGeneratedUpToDate fails when the kernels differ from what _asm/digest
// writes now (edit the generator and run go generate, never the output).
func TestGeneratedUpToDate(t *testing.T) {
	gencheck.UpToDate(t, "../../../../_asm", "./digest", []string{"-out", "{zdigest_amd64.s}", "-stubs", "{zdigest_amd64.go}", "-pkg", "digest"},
		[]string{"zdigest_amd64.s", "zdigest_amd64.go"}, "go generate ./cmd/clconv/internal/digest")
}
