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
