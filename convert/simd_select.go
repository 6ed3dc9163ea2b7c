package convert

import (
	"github.com/clconv/clconv/internal/kernels"
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
//
// The tier in use, its selection and the list of pairs with kernels live in
// internal/kernels, for clconv's own packages (clconv bench, the tests): they
// are no part of the library's API.

// simdTier is an instruction-set tier of the slice kernels.
type simdTier = kernels.Tier

const (
	tierGo     = kernels.Go     // pure Go
	tierAVX2   = kernels.AVX2   // AVX2 + F16C (+ FMA) with 256-bit registers
	tierAVX512 = kernels.AVX512 // AVX-512 F, BW, DQ and VL with 512-bit registers
	numTiers   = kernels.NumTiers
)

// simdBest is the best tier the CPU and the build support.
func simdBest() simdTier { return kernels.Best() }

// simdLevel returns the tier in use, read on every slice conversion.
func simdLevel() simdTier { return kernels.Level() }

func init() { kernels.BytesFlag = bytesFlag }

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
