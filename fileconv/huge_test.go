package fileconv

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// TestHugeSparseFile converts a .npy file of more than 4 GiB (2^30 + 2^12
// float32 elements, a sparse file: zeros but for a few values placed around
// the 4 GiB boundary and at the ends) to uchar with _sat_rte and statistics,
// into a real 1 GiB output file. It checks the values at those places, the
// exact statistics, and that the heap stays under 64 MiB throughout. On a
// file system without sparse files it uses 2^28 + 2^12 elements (> 1 GiB).
// It takes 30-40 s on a busy 2-core machine (-short skips it).
func TestHugeSparseFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 1 GiB file and reads a 4 GiB sparse one; skipped with -short")
	}
	dir := t.TempDir()
	inPath, outPath := filepath.Join(dir, "huge.npy"), filepath.Join(dir, "huge_u8.npy")
	n := int64(1<<30 + 1<<12)
	hdr := EncodeHeader(cltype.Float, false, []int64{n}, 0)
	f, err := os.Create(inPath)
	mustNoErr(t, err)
	defer f.Close()
	_, err = f.Write(hdr)
	mustNoErr(t, err)
	mustNoErr(t, f.Truncate(int64(len(hdr))+4*n))
	var st syscall.Stat_t
	mustNoErr(t, syscall.Stat(inPath, &st))
	if st.Blocks*512 > 1<<30 {
		t.Logf("no sparse files here (%d bytes allocated): using 2^28 + 2^12 elements", st.Blocks*512)
		n = 1<<28 + 1<<12
		mustNoErr(t, f.Truncate(0))
		hdr = EncodeHeader(cltype.Float, false, []int64{n}, 0)
		_, err = f.WriteAt(hdr, 0)
		mustNoErr(t, err)
		mustNoErr(t, f.Truncate(int64(len(hdr))+4*n))
	}
	t.Logf("input: %d elements, %d bytes", n, int64(len(hdr))+4*n)

	// Values at element indices around byte 2^32 of the data and at both ends.
	place := map[int64]float32{
		0: 254.5, 1: -3, n/2 - 1: float32(math.NaN()), n / 2: 255.5,
		(1 << 30) - 1: 1.25, 1 << 30: 300, (1 << 30) + 1: 2.5, n - 1: float32(math.Inf(1)),
	}
	want := map[int64]byte{0: 254, 1: 0, n/2 - 1: 0, n / 2: 255, (1 << 30) - 1: 1, 1 << 30: 255, (1 << 30) + 1: 2, n - 1: 255}
	for i, x := range place {
		if i >= n {
			continue
		}
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
		_, err := f.WriteAt(b[:], int64(len(hdr))+4*i)
		mustNoErr(t, err)
	}

	// Watch the heap while converting.
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
		}
	}()
	in, err := os.Open(inPath)
	mustNoErr(t, err)
	defer in.Close()
	out, err := CreateAtomic(outPath, false)
	mustNoErr(t, err)
	start := time.Now()
	res, err := Convert(context.Background(), out, in, Options{Dst: cltype.Uchar, Sat: true, Mode: round.RTE, Stats: true})
	close(stop)
	if err != nil {
		out.Abort()
		t.Fatal(err)
	}
	mustNoErr(t, out.Commit())
	t.Logf("converted in %v, peak heap in use %d MiB", time.Since(start), peak.Load()>>20)
	if peak.Load() > 64<<20 {
		t.Errorf("peak heap %d MiB: not constant memory", peak.Load()>>20)
	}

	o, err := os.Open(outPath)
	mustNoErr(t, err)
	defer o.Close()
	h, err := ReadHeader(o)
	mustNoErr(t, err)
	if h.Kind != cltype.Uchar || h.Count() != n {
		t.Fatalf("output header %+v", h)
	}
	fi, err := o.Stat()
	mustNoErr(t, err)
	if fi.Size() != h.DataOffset+n {
		t.Errorf("output has %d bytes, want %d", fi.Size(), h.DataOffset+n)
	}
	var got [1]byte
	for i, w := range want {
		if i >= n {
			continue
		}
		_, err := o.ReadAt(got[:], h.DataOffset+i)
		mustNoErr(t, err)
		if got[0] != w {
			t.Errorf("element %d: got %d, want %d", i, got[0], w)
		}
	}
	wantStats := Stats{Count: n, ClampedHigh: 3, ClampedLow: 1, NaNToZero: 1, Inexact: 3}
	if n < 1<<30 {
		wantStats = Stats{Count: n, ClampedHigh: 2, ClampedLow: 1, NaNToZero: 1, Inexact: 1}
	}
	if res.Stats != wantStats {
		t.Errorf("stats %+v, want %+v", res.Stats, wantStats)
	}
}
