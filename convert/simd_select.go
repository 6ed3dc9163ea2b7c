package convert

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

//go:generate go run -C ../_asm . -pkg convert -out ../convert/zsimd_amd64.s -stubs ../convert/zsimd_amd64.go -hooks ../convert/zsimd_hooks_amd64.go -other ../convert/zsimd_hooks_other.go

// The hot conversions (float <-> the integer types, int/uint/double -> float,
// double -> int/uint, long/ulong -> float/double, float <-> half, the 8- and
// 16-bit integers <-> int and float) have SIMD kernels on amd64, generated with avo from _asm/ into
// zsimd_amd64.s. The generated slice kernels of zconv.go call a per-pair hook
// (zsimd_hooks_*.go) that converts a leading part of the slice with the
// selected tier; the Go loop converts the rest. Every tier gives the same bits as the pure Go code
// and the reference (internal/ref); the tests force each tier in turn.

// simdTier is an instruction-set tier of the slice kernels.
type simdTier int32

const (
	tierGo     simdTier = iota // pure Go
	tierAVX2                   // AVX2 + F16C (+ FMA) with 256-bit registers
	tierAVX512                 // AVX-512 F, BW, DQ and VL with 512-bit registers
	numTiers
)

var tierNames = [numTiers]string{"go", "avx2", "avx512"}

func (t simdTier) String() string { return tierNames[t] }

// simdLevel is the tier in use: the best one the CPU and the build support,
// unless SetSIMD chose another. It is read on every slice conversion.
var simdLevel atomic.Int32

func init() { simdLevel.Store(int32(simdBest())) }

// SIMD returns the name of the instruction-set tier that the slice
// conversions use: "avx512", "avx2" or "go" (pure Go: purego builds, other
// architectures and CPUs without AVX2).
func SIMD() string { return simdTier(simdLevel.Load()).String() }

// SIMDTiers lists the tiers this CPU and build can use, fastest first; "go" is
// always last.
func SIMDTiers() []string {
	var out []string
	for t := simdBest(); t >= tierGo; t-- {
		out = append(out, t.String())
	}
	return out
}

// SetSIMD selects the tier by name (one of SIMDTiers) and returns the previous
// one. Every tier gives bit-identical results, so this only changes speed: it
// exists for benchmarks (clconv bench compares the tiers) and tests. It is safe
// to call concurrently with conversions; each slice call uses one tier.
func SetSIMD(name string) (previous string, err error) {
	for t := tierGo; t <= simdBest(); t++ {
		if t.String() == strings.ToLower(name) {
			return simdTier(simdLevel.Swap(int32(t))).String(), nil
		}
	}
	return SIMD(), fmt.Errorf("convert: SIMD tier %q not available (have %s)", name, strings.Join(SIMDTiers(), ", "))
}

// simdMode is the kernel index of mode m (kernels are listed in round.Mode
// order; an invalid mode rounds to nearest, as the Go loops do).
func simdMode(m round.Mode) int {
	if m > round.RTN {
		return 0
	}
	return int(m)
}

// simdSat is the kernel index of integer->integer kernels: wrap, then sat.
func simdSat(sat bool) int {
	if sat {
		return 1
	}
	return 0
}

// Pair is a conversion's source and destination kinds.
type Pair struct{ Src, Dst cltype.Kind }

// SIMDPairs lists the conversions that have SIMD kernels (on amd64, outside
// purego builds): float to and from the 8-, 16- and 32-bit integers, int,
// uint and double to float, float to and from half, int to the 8- and 16-bit
// integers, double to int and uint, and long and ulong to float and double
// (AVX-512 only: AVX2 has no 64-bit integer conversions). Every other
// conversion runs the pure Go kernel.
func SIMDPairs() []Pair {
	F, D, H, I := cltype.Float, cltype.Double, cltype.Half, cltype.Int
	small := []cltype.Kind{cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort}
	var ps []Pair
	for _, k := range append(small, I, cltype.Uint) {
		ps = append(ps, Pair{F, k})
	}
	ps = append(ps, Pair{I, F}, Pair{cltype.Uint, F}, Pair{D, F}, Pair{F, H}, Pair{H, F}, Pair{D, I}, Pair{D, cltype.Uint})
	for _, k := range []cltype.Kind{cltype.Long, cltype.Ulong} {
		ps = append(ps, Pair{k, F}, Pair{k, D})
	}
	for _, k := range small {
		ps = append(ps, Pair{k, I}, Pair{k, F}, Pair{I, k})
	}
	return ps
}
