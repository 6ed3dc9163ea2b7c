package minifloat

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/clconv/clconv/round"
)

// Mismatch is an input on which a conversion under test differs from the
// reference.
type Mismatch struct {
	Bits      uint64 // the source pattern
	Mode      round.Mode
	Sat       bool
	Got, Want uint64
}

// SweepFloat32 compares fast, a conversion from binary32 patterns to f,
// with the reference on the n patterns input(0) .. input(n-1), in all four
// modes with and without _sat, on every core. It stops after the first
// limit mismatches and returns them (in no particular order).
func SweepFloat32(f *Format, n uint64, input func(i uint64) uint32, fast func(b uint32, m round.Mode, sat bool) uint64, limit int) []Mismatch {
	const chunk = 1 << 16
	var (
		next  atomic.Uint64
		mu    sync.Mutex
		found []Mismatch
		stop  atomic.Bool
		wg    sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for !stop.Load() {
				start := next.Add(chunk) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					b := input(i)
					r := f.Prepare(Binary32.Decode(uint64(b)))
					for _, m := range round.Modes {
						for _, sat := range [2]bool{false, true} {
							want := r.Result(m, sat)
							if got := fast(b, m, sat); got != want {
								mu.Lock()
								found = append(found, Mismatch{uint64(b), m, sat, got, want})
								if len(found) >= limit {
									stop.Store(true)
								}
								mu.Unlock()
							}
						}
					}
				}
			}
		})
	}
	wg.Wait()
	return found
}
