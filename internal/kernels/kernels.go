// Package kernels holds the controls of package convert's slice kernels that
// only clconv's own packages use (the command: clconv bench, and its digest
// and verify packages under cmd/clconv/internal; and the tests), so that
// convert's public API is the library user's alone: which SIMD tier
// the kernels run (SetSIMD, SIMD, SIMDTiers, Level), which conversions have
// SIMD kernels (SIMDPairs), and BytesFlag, the byte conversion that flags
// implementation-defined inputs.
//
// Every tier gives bit-identical results, so the tier only changes speed.
package kernels

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// Tier is an instruction-set tier of convert's slice kernels.
type Tier int32

// The tiers, slowest first.
const (
	Go       Tier = iota // pure Go
	AVX2                 // AVX2 + F16C (+ FMA) with 256-bit registers
	AVX512               // AVX-512 F, BW, DQ and VL with 512-bit registers
	NumTiers             // the number of tiers
)

var tierNames = [NumTiers]string{"go", "avx2", "avx512"}

// String returns the tier's name: "go", "avx2" or "avx512".
func (t Tier) String() string { return tierNames[t] }

// Best returns the best tier this CPU and build support: AVX512 or AVX2 on
// amd64 with the assembly kernels (gc, not purego), Go everywhere else.
func Best() Tier { return best }

var best = detect()

// level is the tier in use: Best unless SetSIMD or SetLevel chose another.
// convert reads it on every slice conversion.
var level atomic.Int32

func init() { level.Store(int32(best)) }

// Level returns the tier in use.
func Level() Tier { return Tier(level.Load()) }

// SetLevel selects tier t (which must be at most Best) and returns the
// previous one; it is SetSIMD for tests that iterate over tiers.
func SetLevel(t Tier) (previous Tier) {
	if t < Go || t > best {
		panic(fmt.Sprintf("kernels: tier %d not available", t))
	}
	return Tier(level.Swap(int32(t)))
}

// SIMD returns the name of the tier that the slice conversions use:
// "avx512", "avx2" or "go" (pure Go: purego builds, other architectures and
// CPUs without AVX2).
func SIMD() string { return Level().String() }

// SIMDTiers lists the tiers this CPU and build can use, fastest first; "go" is
// always last.
func SIMDTiers() []string {
	var out []string
	for t := best; t >= Go; t-- {
		out = append(out, t.String())
	}
	return out
}

// SetSIMD selects the tier by name (one of SIMDTiers) and returns the previous
// one. Every tier gives bit-identical results, so this only changes speed: it
// exists for benchmarks (clconv bench compares the tiers) and tests. It is safe
// to call concurrently with conversions; each slice call uses one tier.
func SetSIMD(name string) (previous string, err error) {
	for t := Go; t <= best; t++ {
		if t.String() == strings.ToLower(name) {
			return Tier(level.Swap(int32(t))).String(), nil
		}
	}
	return SIMD(), fmt.Errorf("convert: SIMD tier %q not available (have %s)", name, strings.Join(SIMDTiers(), ", "))
}

// Pair is a conversion's source and destination kinds.
type Pair struct{ Src, Dst cltype.Kind }

// SIMDPairs lists the conversions that have SIMD kernels (on amd64, outside
// purego builds): every conversion between two different types. An identity
// is a copy. In the AVX2 tier some pairs have no kernels (see convert's
// simd_select.go); their hooks convert nothing there and the Go loops do it.
func SIMDPairs() []Pair {
	var ps []Pair
	for _, s := range cltype.Scalars {
		for _, d := range cltype.Scalars {
			if s != d {
				ps = append(ps, Pair{s, d})
			}
		}
	}
	return ps
}

// BytesFlag is convert.Bytes that also, for a floating source and an integer
// destination, sets bad[i] for each element whose rounded value is NaN or out
// of range (the implementation-defined inputs of a non-saturated conversion)
// and returns their count. bad must have one entry per element. Its buffers
// are little-endian on every host, as Bytes'.
//
// Package convert sets it when it is initialized; every package that calls it
// imports convert too, and Go initializes convert first.
var BytesFlag func(dk, sk cltype.Kind, dst, src []byte, m round.Mode, sat bool, bad []bool) (int, error)

// BitsFunc returns convert.Bits for the kinds dst and src, mode m and
// saturation sat, resolved once, for code that converts one pair many
// times (the interpreter's compiled code). Package convert sets it when it
// is initialized, as it sets BytesFlag.
var BitsFunc func(dst, src cltype.Kind, m round.Mode, sat bool) func(uint64) (uint64, bool)
