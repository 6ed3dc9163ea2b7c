package convert_test

import (
	"flag"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

var simdFlag = flag.String("simd", "", "run every test with this SIMD tier (go, avx2, avx512; default: the best)")

func TestMain(m *testing.M) {
	flag.Parse()
	if *simdFlag != "" {
		if _, err := kernels.SetSIMD(*simdFlag); err != nil {
			println(err.Error())
			os.Exit(2)
		}
	}
	os.Exit(m.Run())
}

// simdPairs are the conversions with SIMD kernels (issue 4's hot pairs).
var simdPairs = func() (ps []simdPair) {
	for _, p := range kernels.SIMDPairs() {
		ps = append(ps, simdPair{p.Src, p.Dst})
	}
	return ps
}()

type simdPair struct{ src, dst cltype.Kind }

// skipGoOnlyShort skips a tier test in -short runs of builds without SIMD
// tiers (purego, other architectures, the ports under qemu): there it would
// only repeat, for every pair, what TestEdges, TestRandom and TestSliceLengths
// check of the pure Go slice kernels.
func skipGoOnlyShort(t *testing.T) {
	if testing.Short() && kernels.Best() == kernels.Go {
		t.Skip("no SIMD tier; -short leaves the pure Go kernels to ref_test.go")
	}
}

// forTiers runs f once with each SIMD tier this machine has, pure Go included.
func forTiers(t *testing.T, f func(t *testing.T)) {
	prev := kernels.SIMD()
	defer kernels.SetSIMD(prev)
	for _, tier := range kernels.SIMDTiers() {
		if *simdFlag != "" && tier != *simdFlag {
			continue
		}
		if _, err := kernels.SetSIMD(tier); err != nil {
			t.Fatal(err)
		}
		t.Run(tier, f)
	}
}

// simdInputs are the test inputs of a source type: every value of an 8- or
// 16-bit type; otherwise the edges, every pattern of the top 16 bits (with
// zero and with random low bits: every sign, exponent and NaN class), and
// random values.
func simdInputs(src cltype.Kind, nRandom int) []uint64 {
	if src.Bits() <= 16 {
		vals := make([]uint64, 1<<src.Bits())
		for i := range vals {
			vals[i] = uint64(i)
		}
		return vals
	}
	r := rand.New(rand.NewPCG(4, uint64(src)))
	vals := testvals.Edges(src)
	sh := src.Bits() - 16
	step := uint64(1)
	if testing.Short() {
		step = 61
	}
	for hi := uint64(0); hi < 1<<16; hi += step {
		vals = append(vals, hi<<sh, hi<<sh|r.Uint64()&(1<<sh-1))
	}
	for range nRandom {
		vals = append(vals, testvals.Random(r, src))
	}
	return vals
}

// variants lists the (mode, sat) combinations of a conversion: every mode,
// and for integer destinations with and without saturation.
func variants(dst cltype.Kind) (out []struct {
	m   round.Mode
	sat bool
}) {
	for _, m := range round.Modes {
		for _, sat := range []bool{false, true} {
			if sat && dst.IsFloat() {
				continue
			}
			out = append(out, struct {
				m   round.Mode
				sat bool
			}{m, sat})
		}
	}
	return out
}

// Each tier's kernels equal the reference on every input of the 8- and
// 16-bit sources and on edge and random inputs of the others, in every mode,
// with and without saturation; both through Bytes and through BytesFlag
// (which flags what the reference calls implementation-defined).
func TestSIMDReference(t *testing.T) {
	skipGoOnlyShort(t)
	nRandom := 100000
	if testing.Short() {
		nRandom = testvals.Sample(5000, 4)
	}
	inputs := map[cltype.Kind][]uint64{}
	for _, p := range simdPairs {
		if inputs[p.src] == nil {
			inputs[p.src] = simdInputs(p.src, nRandom)
		}
	}
	forTiers(t, func(t *testing.T) {
		for _, p := range simdPairs {
			vals := inputs[p.src]
			n := len(vals)
			inB := make([]byte, n*p.src.Size())
			outB := make([]byte, n*p.dst.Size())
			bad := make([]bool, n)
			for j, v := range vals {
				convert.StoreBits(inB, p.src, j, v)
			}
			for _, v := range variants(p.dst) {
				fails := 0
				for _, flagged := range []bool{false, true} {
					if flagged && !(p.src.IsFloat() && p.dst.IsInteger()) {
						continue
					}
					clear(outB)
					var err error
					if flagged {
						_, err = kernels.BytesFlag(p.dst, p.src, outB, inB, v.m, v.sat, bad)
					} else {
						err = convert.Bytes(p.dst, p.src, outB, inB, v.m, v.sat)
					}
					if err != nil {
						t.Fatal(err)
					}
					for j, x := range vals {
						want, impl := ref.Convert(p.dst, p.src, x, v.m, v.sat)
						_, outOfRange := ref.Convert(p.dst, p.src, x, v.m, false)
						got := convert.LoadBits(outB, p.dst, j)
						if got != want || (flagged && bad[j] != (outOfRange || impl)) {
							if fails++; fails <= 5 {
								t.Errorf("%s->%s %s sat=%v flag=%v: input %#x: got %#x (flag %v), reference %#x (out of range %v)",
									p.src, p.dst, v.m, v.sat, flagged, x, got, flagged && bad[j], want, outOfRange)
							}
						}
					}
				}
			}
		}
	})
}

// Slices of every length 0..130 at unaligned element offsets convert like the
// reference and write nothing outside their elements.
func TestSIMDLengths(t *testing.T) {
	skipGoOnlyShort(t)
	r := rand.New(rand.NewPCG(9, 9))
	forTiers(t, func(t *testing.T) {
		for _, p := range simdPairs {
			all := make([]uint64, 150)
			for i := range all {
				all[i] = testvals.Random(r, p.src)
			}
			// Sampled (race, qemu): every third length, a different third
			// for each mode, so that each length is still covered.
			s := testvals.Stride(3)
			for _, v := range variants(p.dst) {
				for n := int(v.m) % s; n <= 130; n += s {
					off := (n*7 + int(v.m)) % 17
					vals := all[off : off+n]
					inB := make([]byte, (off+n+20)*8)
					outB := make([]byte, (off+n+20)*8)
					for i := range outB {
						outB[i] = 0xa5
					}
					for j, x := range vals {
						convert.StoreBits(inB[off*p.src.Size():], p.src, j, x)
					}
					if err := convert.Bytes(p.dst, p.src, outB[off*p.dst.Size():(off+n)*p.dst.Size()], inB[off*p.src.Size():(off+n)*p.src.Size()], v.m, v.sat); err != nil {
						t.Fatal(err)
					}
					for j, x := range vals {
						want, _ := ref.Convert(p.dst, p.src, x, v.m, v.sat)
						if got := convert.LoadBits(outB[off*p.dst.Size():], p.dst, j); got != want {
							t.Fatalf("%s->%s %s sat=%v n=%d off=%d j=%d: input %#x: got %#x, reference %#x", p.src, p.dst, v.m, v.sat, n, off, j, x, got, want)
						}
					}
					for i, b := range outB {
						if (i < off*p.dst.Size() || i >= (off+n)*p.dst.Size()) && b != 0xa5 {
							t.Fatalf("%s->%s %s n=%d off=%d: wrote byte %d outside the slice", p.src, p.dst, v.m, n, off, i)
						}
					}
				}
			}
		}
	})
}

// The typed API (Slice, SliceSat) reaches the same kernels.
func TestSIMDTypedSlice(t *testing.T) {
	src := []float32{-5, 254.5, 254.6, 1.2e9, 255.5, -0.5, 2.5, 3.5}
	for len(src) < 200 {
		src = append(src, src[len(src)%8]*1.5)
	}
	forTiers(t, func(t *testing.T) {
		dst := make([]uint8, len(src))
		convert.SliceSat(dst, src, round.RTE)
		if dst[0] != 0 || dst[1] != 254 || dst[2] != 255 || dst[3] != 255 || dst[4] != 255 || dst[5] != 0 || dst[6] != 2 || dst[7] != 4 {
			t.Errorf("convert_uchar_sat_rte: got %v", dst[:8])
		}
		for i, x := range src {
			if want := convert.ToSat[uint8](x, round.RTE); dst[i] != want {
				t.Fatalf("element %d (%v): got %d, scalar %d", i, x, dst[i], want)
			}
		}
	})
}

func TestSetSIMD(t *testing.T) {
	tiers := kernels.SIMDTiers()
	if tiers[len(tiers)-1] != "go" {
		t.Errorf("SIMDTiers() = %v: the last is not go", tiers)
	}
	if kernels.SIMD() != tiers[0] && *simdFlag == "" {
		t.Errorf("SIMD() = %s, want the best tier %s", kernels.SIMD(), tiers[0])
	}
	if _, err := kernels.SetSIMD("avx9000"); err == nil {
		t.Error("SetSIMD accepted an unknown tier")
	}
}

// The parallel entry points give the same bits as the serial ones, at sizes
// on both sides of the threshold and at lengths that do not divide evenly.
func TestSliceParallel(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1<<18 + 13, 1<<20 + 77} {
		src := make([]float32, n)
		r := rand.New(rand.NewPCG(3, uint64(n)))
		for i := range src {
			src[i] = float32(r.NormFloat64() * 300)
		}
		want := make([]uint8, n)
		got := make([]uint8, n)
		convert.SliceSat(want, src, round.RTN)
		if k := convert.SliceSatParallel(got, src, round.RTN); k != n {
			t.Fatalf("n=%d: converted %d", n, k)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: SliceSatParallel differs from SliceSat", n)
		}
		h1 := make([]half.Half, n)
		h2 := make([]half.Half, n)
		convert.Slice(h1, src, round.RTP)
		convert.SliceParallel(h2, src, round.RTP)
		if !slices.Equal(h1, h2) {
			t.Fatalf("n=%d: SliceParallel differs from Slice", n)
		}
		b1 := make([]byte, 4*n)
		b2 := make([]byte, 4*n)
		sb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(src))), 4*n)
		if err := convert.Bytes(cltype.Int, cltype.Float, b1, sb, round.RTE, false); err != nil {
			t.Fatal(err)
		}
		if err := convert.BytesParallel(cltype.Int, cltype.Float, b2, sb, round.RTE, false); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(b1, b2) {
			t.Fatalf("n=%d: BytesParallel differs from Bytes", n)
		}
	}
}
