package convert

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/round"
)

// parallelMinBytes is the work (bytes read plus written) below which one more
// goroutine does not pay: starting and joining one costs about a microsecond,
// in which one core converts some 20 KB in cache. With 1 MiB per goroutine a
// slice that small is converted on the calling goroutine, as by Slice.
const parallelMinBytes = 1 << 20

// SliceParallel is Slice using up to GOMAXPROCS goroutines for large slices
// (at least 1 MiB of source and destination per goroutine); smaller slices
// are converted on the calling goroutine, with no overhead beyond a division.
// Conversions out of cache are bound by memory bandwidth, which one core does
// not saturate on most machines.
func SliceParallel[D, S Number](dst []D, src []S, m Mode) int {
	n := min(len(dst), len(src))
	parallel(KindOf[D](), KindOf[S](), unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), n, m, false, false)
	return n
}

// SliceSatParallel is SliceSat using up to GOMAXPROCS goroutines, like SliceParallel.
func SliceSatParallel[D, S Number](dst []D, src []S, m Mode) int {
	n := min(len(dst), len(src))
	parallel(KindOf[D](), KindOf[S](), unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), n, m, true, false)
	return n
}

// BytesParallel is Bytes using up to GOMAXPROCS goroutines, like SliceParallel.
// Its buffers are little-endian on every host, as Bytes'.
func BytesParallel(dk, sk cltype.Kind, dst, src []byte, m Mode, sat bool) error {
	n, err := checkBuffers(dk, sk, dst, src)
	if err != nil || n == 0 {
		return err
	}
	parallel(dk, sk, unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), n, m, sat, byteorder.BigEndian)
	return nil
}

// parallel splits n elements into one run per goroutine, each a multiple of
// 64 elements (the widest SIMD block, and whole cache lines), and converts the
// first run itself. With swap the elements are stored in the byte order
// opposite to the host's and go through convertSwapped (BytesParallel passes
// byteorder.BigEndian; tests pass true to cover that path on any host).
func parallel(dk, sk cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat, swap bool) {
	if n == 0 {
		return
	}
	per := dk.Size() + sk.Size()
	workers := min(runtime.GOMAXPROCS(0), n*per/parallelMinBytes)
	if workers <= 1 {
		convertRun(dk, sk, d, s, n, m, sat, swap)
		return
	}
	run := ((n+workers-1)/workers + 63) &^ 63
	var wg sync.WaitGroup
	for lo := run; lo < n; lo += run {
		k := min(run, n-lo)
		dd, ss := unsafe.Add(d, lo*dk.Size()), unsafe.Add(s, lo*sk.Size())
		wg.Go(func() { convertRun(dk, sk, dd, ss, k, m, sat, swap) })
	}
	convertRun(dk, sk, d, s, run, m, sat, swap)
	wg.Wait()
}

// convertRun converts one of parallel's runs; swap is tested once per run,
// not per element.
func convertRun(dk, sk cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat, swap bool) {
	if swap {
		convertSwapped(dk, sk, d, s, n, m, sat, nil)
		return
	}
	convertSlice(dk, sk, d, s, n, m, sat)
}
