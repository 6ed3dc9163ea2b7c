//go:build gc && !purego

package convert

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// avx2Without lists the pairs expected to have no AVX2 kernels, each with
// the reason; every other pair has an AVX2 kernel for each of its AVX-512
// variants. Since _asm/plan_avx2.go every pair has them.
var avx2Without = map[string]string{}

// Every pair has a kernel for each variant in each assembly tier (AVX2: except
// the pairs of avx2Without), and the kernel converts whole blocks: all of 512
// elements, and a multiple of its block (at least 256) of 511. The AVX2
// kernels use no AVX-512 instruction or register.
func TestSIMDKernelsWired(t *testing.T) {
	t.Run("AVX2 has no AVX-512", testAVX2NoAVX512)
	for name := range avx2Without {
		if simdPairKernels[name] == nil {
			t.Errorf("avx2Without lists %s, which is no pair", name)
		}
	}
	if simdBest() == tierGo {
		t.Skip("no SIMD tier in this build or on this CPU")
	}
	if len(simdPairKernels) != len(kernels.SIMDPairs()) {
		t.Errorf("%d pairs with SIMD kernels, kernels.SIMDPairs lists %d", len(simdPairKernels), len(kernels.SIMDPairs()))
	}
	for _, p := range kernels.SIMDPairs() {
		name := strings.ToUpper(p.Src.String()[:1]) + p.Src.String()[1:] + "To" + strings.ToUpper(p.Dst.String()[:1]) + p.Dst.String()[1:]
		if simdPairKernels[name] == nil {
			t.Errorf("kernels.SIMDPairs lists %s, which has no kernels", name)
		}
	}
	for name, ks := range simdPairKernels {
		for v := range ks[tierAVX512] {
			has, want := ks[tierAVX2][v] != nil, ks[tierAVX512][v] != nil && avx2Without[name] == ""
			if has != want {
				t.Errorf("%s variant %d: AVX2 kernel %v, want %v (AVX-512 kernel %v, avx2Without %q)", name, v, has, want, ks[tierAVX512][v] != nil, avx2Without[name])
			}
		}
	}
	dst := make([]byte, 512*8+64)
	src := make([]byte, 512*8)
	for name, ks := range simdPairKernels {
		for tier := tierAVX2; tier <= simdBest(); tier++ {
			n := 0
			for v, k := range ks[tier] {
				if k == nil {
					continue
				}
				n++
				// Blocks are 8 to 256 elements.
				if got := k(&dst[0], &src[0], 512); got != 512 {
					t.Errorf("%s %s variant %d: converted %d of 512", name, tier, v, got)
				}
				if got := k(&dst[0], &src[0], 511); got < 256 || 511-got >= 256 || got%8 != 0 {
					t.Errorf("%s %s variant %d: converted %d of 511", name, tier, v, got)
				}
				if got := k(&dst[0], &src[0], 0); got != 0 {
					t.Errorf("%s %s variant %d: converted %d of 0", name, tier, v, got)
				}
			}
			if n == 0 && tier == tierAVX2 && avx2Without[name] != "" {
				continue // a pair with AVX-512 kernels only
			}
			if n != 1 && n != 2 && n != 4 {
				t.Errorf("%s %s: %d variants", name, tier, n)
			}
		}
		// Streaming kernels need dst aligned to 64 bytes.
		d := dst[64-int(uintptr(unsafe.Pointer(&dst[0]))&63):]
		for tier := tierAVX2; tier <= simdBest(); tier++ {
			for v, k := range simdPairNTKernels[name][tier] {
				if k == nil != (ks[tier][v] == nil) {
					t.Errorf("%s %s variant %d: streaming kernel and kernel disagree on existence", name, tier, v)
				} else if k != nil {
					if got := k(&d[0], &src[0], 512); got != 512 {
						t.Errorf("%s %s streaming variant %d: converted %d of 512", name, tier, v, got)
					}
				}
			}
		}
		for _, k := range ks[tierGo] {
			if k != nil {
				t.Errorf("%s: the pure Go tier has kernels", name)
			}
		}
	}
}

// testAVX2NoAVX512 reads the generated assembly: every AVX2 kernel requires
// no AVX-512 extension and names no zmm, mask or X16-X31 register (avo
// allocates those when more than 16 vector registers are live, and the
// assembler then encodes the instruction with EVEX: AVX-512VL).
func testAVX2NoAVX512(t *testing.T) {
	asm, err := os.ReadFile("zsimd_amd64.s")
	if err != nil {
		t.Skip(err)
	}
	bad := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	n := 0
	for _, fn := range strings.Split(string(asm), "\n// func ")[1:] {
		head, _, _ := strings.Cut(fn, "(")
		if !strings.HasSuffix(head, "AVX2") && !strings.HasSuffix(head, "AVX2NT") {
			continue
		}
		n++
		if i := strings.Index(fn, "// Requires: "); i >= 0 {
			req, _, _ := strings.Cut(fn[i:], "\n")
			if strings.Contains(req, "AVX512") {
				t.Errorf("%s: %s", head, req)
			}
		}
		_, body, _ := strings.Cut(fn, "TEXT ")
		if r := bad.FindString(body); r != "" {
			t.Errorf("%s uses %s", head, r)
		}
	}
	if n == 0 {
		t.Error("no AVX2 kernels in zsimd_amd64.s")
	}
}

// The hooks convert nothing in the pure Go tier and a multiple of the block
// otherwise.
func TestSIMDHookTiers(t *testing.T) {
	defer kernels.SetLevel(simdLevel())
	src := make([]float32, 1000)
	dst := make([]uint8, 1000)
	for tier := tierGo; tier <= simdBest(); tier++ {
		kernels.SetLevel(tier)
		n := simdFloatToUchar(dst, src, 0, true)
		if want := map[simdTier]int{tierGo: 0, tierAVX2: 992, tierAVX512: 960}[tier]; n != want {
			t.Errorf("%s: hook converted %d of 1000, want %d", tier, n, want)
		}
	}
}

var (
	simdExhaustive = flag.Bool("simd.exhaustive", false, "compare every SIMD kernel of a 32-bit source with the Go scalar path on all 2^32 inputs")
	simdPairs      = flag.String("simd.pairs", "", "with -simd.exhaustive, only the pairs whose name (e.g. DoubleToUchar) matches this regular expression")
)

// TestSIMDExhaustive (with -simd.exhaustive; minutes on two cores) runs every
// kernel of every tier whose source is float, int or uint over all 2^32
// inputs, and every kernel of a 64-bit source (double, long, ulong) over 2^32
// inputs that take every value of the top 32 bits (for double: every sign,
// exponent and 20 leading fraction bits) with hashed low bits, in every variant, and requires the bits of the pure
// Go slice kernels (which TestEdges, TestRandom and the recorded exhaustive digests tie
// to the reference). Kernels are called directly, so all tiers, the AVX-512
// streaming kernels included, are compared in one pass; the Go kernels run
// with the pure Go tier selected for the whole test.
func TestSIMDExhaustive(t *testing.T) {
	if !*simdExhaustive {
		t.Skip("needs -simd.exhaustive")
	}
	defer kernels.SetLevel(simdLevel())
	kernels.SetLevel(tierGo)
	type run struct {
		name     string
		src, dst cltype.Kind
		m        round.Mode
		sat      bool
		k        [2 * numTiers]simdKernel // by tier, then by tier + numTiers the streaming kernels
	}
	only, err := regexp.Compile(*simdPairs)
	if err != nil {
		t.Fatalf("-simd.pairs: %v", err)
	}
	var runs []run
	for name, ks := range simdPairKernels {
		if !only.MatchString(name) {
			continue
		}
		i := strings.Index(name, "To")
		src, err1 := cltype.ParseKind(strings.ToLower(name[:i]))
		dst, err2 := cltype.ParseKind(strings.ToLower(name[i+2:]))
		if err1 != nil || err2 != nil {
			t.Fatal(name, err1, err2)
		}
		if src.Bits() != 32 && src.Bits() != 64 {
			continue
		}
		variants := ks[tierAVX2]
		if variants[0] == nil {
			variants = ks[tierAVX512] // an AVX-512-only pair
		}
		for v := range 4 {
			r := run{name: name, src: src, dst: dst, m: round.RTE, sat: true}
			switch {
			case variants[3] != nil:
				// float->integer kernels serve _sat and plain alike.
				r.m = round.Mode(v)
				r.sat = dst.IsInteger()
			case variants[1] != nil && v < 2:
				r.sat = v == 1
			case v > 0:
				continue
			}
			for tier := tierAVX2; tier <= simdBest(); tier++ {
				r.k[tier] = ks[tier][v]
			}
			for tier := tierAVX2; tier <= simdBest(); tier++ {
				r.k[numTiers+tier] = simdPairNTKernels[name][tier][v]
			}
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		t.Fatalf("no kernels match -simd.pairs %q (names like %q)", *simdPairs, "DoubleToUchar")
	}
	const batch = 1 << 16
	var next atomic.Int64
	var fails atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := make([]uint32, batch)
			in64 := make([]uint64, batch)
			want := make([]byte, 8*batch)
			out := make([]byte, 8*batch) // 512 KiB: page-aligned, as the streaming kernels need
			for {
				base := next.Add(batch) - batch
				if base >= 1<<32 || fails.Load() > 20 {
					return
				}
				if base%(1<<28) == 0 {
					t.Logf("%d/16 after %v", base>>28, time.Since(start).Round(time.Second))
				}
				for j := range in {
					in[j] = uint32(base) + uint32(j)
					in64[j] = uint64(in[j])<<32 | uint64(in[j]*0x9e3779b9^in[j]>>7)
				}
				for _, r := range runs {
					size := batch * r.dst.Size()
					src, input := unsafe.Pointer(&in[0]), func(j int) uint64 { return uint64(in[j]) }
					if r.src.Bits() == 64 {
						src, input = unsafe.Pointer(&in64[0]), func(j int) uint64 { return in64[j] }
					}
					convertSlice(r.dst, r.src, unsafe.Pointer(&want[0]), src, batch, r.m, r.sat)
					for tier, k := range r.k {
						if k == nil {
							continue
						}
						if n := k(&out[0], (*byte)(src), batch); n != batch {
							t.Errorf("%s %d: converted %d of %d", r.name, tier, n, batch)
						}
						if bytes.Equal(out[:size], want[:size]) {
							continue
						}
						for j := range batch {
							got, w := LoadBits(out, r.dst, j), LoadBits(want, r.dst, j)
							if got != w && fails.Add(1) <= 20 {
								t.Errorf("%s tier %d %s sat=%v: input %#x: got %#x, Go %#x", r.name, tier, r.m, r.sat, input(j), got, w)
							}
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d kernels (AVX2, AVX-512 and their streaming forms) x 2^32 inputs in %v", len(runs), time.Since(start).Round(time.Second))
}

// Destinations of simdStreamBytes and more go through the streaming kernels
// after a head converted in Go up to 64-byte alignment: at every element
// offset 0..3 (so every head length), every pair and variant gives the Go
// scalar path's bits, and the count converted is all of the slice, in
// every SIMD tier.
func TestSIMDStream(t *testing.T) {
	if simdBest() < tierAVX2 {
		t.Skip("no AVX2")
	}
	defer kernels.SetLevel(simdLevel())
	if testing.Short() {
		// 16 KiB destinations: the same kernels and heads, 1/128 of the work.
		defer func(b int) { simdStreamBytes = b }(simdStreamBytes)
		simdStreamBytes = 1 << 14
	}
	// The prefetch distance of the 8-byte sources (4096, or 0 on AMD's
	// processors) alternates between pairs, so that each run streams with
	// both: a prefetch never changes a result or faults, but its address is
	// computed differently.
	defer func(d int) { simdPrefetchDist8 = d }(simdPrefetchDist8)
	k := 0
	for tier := tierAVX2; tier <= simdBest(); tier++ {
		kernels.SetLevel(tier)
		r := rand.New(rand.NewPCG(5, 5))
		for name := range simdPairKernels {
			simdPrefetchDist8 = []int{0, 4096}[k%2]
			k++
			i := strings.Index(name, "To")
			src, _ := cltype.ParseKind(strings.ToLower(name[:i]))
			dst, _ := cltype.ParseKind(strings.ToLower(name[i+2:]))
			n := simdStreamBytes/dst.Size() + 77
			in := make([]uint64, n+4)
			for j := range in {
				in[j] = testvals.Random(r, src)
			}
			inB := make([]byte, (n+4)*src.Size())
			for j, x := range in {
				StoreBits(inB, src, j, x)
			}
			outB := make([]byte, (n+4)*dst.Size())
			offs := []int{0, 1, 2, 3}
			modes := round.Modes
			if testing.Short() {
				offs, modes = []int{3}, []round.Mode{round.RTN}
			}
			for _, off := range offs {
				for _, m := range modes {
					sat := m == round.RTP
					if _, h, ok := simdStream(simdPairNTKernels[name], 0, unsafe.Pointer(&outB[off*dst.Size()]), n, dst.Size()); !ok || h > 63 {
						t.Fatalf("%s %s: simdStream = %d, %v", name, tier, h, ok)
					}
					convertSlice(dst, src, unsafe.Pointer(&outB[off*dst.Size()]), unsafe.Pointer(&inB[off*src.Size()]), n, m, sat)
					fails := 0
					for j := range n {
						if j >= 256 && j < n-256 && j%31 != 0 {
							continue // the head, the tail and a sample of the rest
						}
						want, _ := convertBits(dst, src, in[off+j], m, sat)
						if got := LoadBits(outB[off*dst.Size():], dst, j); got != want {
							if fails++; fails <= 3 {
								t.Errorf("%s %s %s sat=%v off=%d element %d: input %#x: got %#x, Go %#x", name, tier, m, sat, off, j, in[off+j], got, want)
							}
						}
					}
				}
			}
		}
	}
}
