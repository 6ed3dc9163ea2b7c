//go:build gc && !purego

package convert

import "unsafe"

// simdKernel converts the first n &^ (block-1) elements from src to dst and
// returns that count (block is the kernel's unrolled width, 8 to 64).
type simdKernel func(dst, src *byte, n int) int

// simdKernels holds one pair's kernels by tier and variant (rounding mode in
// round.Mode order, or wrap/sat, or one exact kernel); tierGo has none.
type simdKernels [numTiers][4]simdKernel

func simdRun(k *simdKernels, variant int, dst, src *byte, n int) int {
	f := k[simdLevel()][variant]
	if f == nil {
		return 0
	}
	return f(dst, src, n)
}

// simdStreamBytes is the destination size from which the hooks use the
// streaming kernels (non-temporal stores, and the source prefetched ahead).
// Below it the destination is likely to be read again soon from cache;
// above it, bypassing the cache saves the read of every destination line
// before it is written (as memmove does for copies of more than about 1 MiB).
var simdStreamBytes = 1 << 21 // a variable so that TestSIMDStream -short can lower it

// amdCPU reports whether the processor is AMD's (or Hygon's, the same
// cores), from CPUID's vendor string.
func amdCPU() bool {
	b, d, c := cpuidVendor()
	return b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163 || // "AuthenticAMD"
		b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975 // "HygonGenuine"
}

// On AMD's processors the streaming kernels from 8-byte sources do without
// software prefetch: on Zen 5 their PREFETCHT1 4 KiB ahead cost the
// narrowings from double about a quarter of their speed from memory, which
// the hardware prefetchers reach alone, while the kernels from narrower
// sources (half -> char) need it (issue 32, docs/PERFORMANCE.md). Intel's
// keep it everywhere (the Xeon lost up to a third without it).
func init() {
	if amdCPU() {
		simdPrefetchDist8 = 0
	}
}

// simdStream returns the streaming kernel of the selected tier for the
// variant, when the hook should stream n elements of the given size to dst,
// and how many leading elements it must convert in Go to reach 64-byte
// alignment.
func simdStream(k *simdKernels, variant int, dst unsafe.Pointer, n, size int) (f simdKernel, head int, ok bool) {
	if n*size < simdStreamBytes || uintptr(dst)%uintptr(size) != 0 {
		return nil, 0, false
	}
	if f = k[simdLevel()][variant]; f == nil {
		return nil, 0, false
	}
	return f, int(-uintptr(dst)&63) / size, true
}
