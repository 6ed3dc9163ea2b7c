package fileconv

import (
	"bytes"
	"context"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// benchInput returns a float32 .npy file of n normally distributed values
// (mean 128, sd 80), like scripts/convert-bench.sh.
func benchInput(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = uint64(math.Float32bits(float32(r.NormFloat64()*80 + 128)))
	}
	return npyFile(cltype.Float, vals, []int64{int64(n)}, false, false)
}

// BenchmarkConvert measures Convert on 16 Mi float32 values (64 MiB) from
// memory to io.Discard, float -> uchar _sat_rte, with and without statistics.
func BenchmarkConvert(b *testing.B) {
	in := benchInput(1 << 24)
	for _, stats := range []bool{false, true} {
		name := "fast"
		if stats {
			name = "stats"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				if _, err := Convert(context.Background(), io.Discard, bytes.NewReader(in), Options{Dst: cltype.Uchar, Sat: true, Mode: round.RTE, Stats: stats}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
