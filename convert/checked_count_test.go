package convert_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// countCase checks SliceChecked's Failed, Index and Len, and CheckSlice's
// indices, against a per-element ToChecked loop on a random slice of
// good values with bad ones at random positions.
func countCase[D, S convert.Number](t *testing.T, name string, r *rand.Rand, good, bad func(*rand.Rand) S) {
	t.Helper()
	for trial := range 40 {
		n := r.IntN(10000) + 1
		if trial < 4 {
			n = trial + 1
		}
		src := make([]S, n)
		for i := range src {
			src[i] = good(r)
		}
		nbad := r.IntN(min(n, 50) + 1)
		if trial%5 == 0 {
			nbad = r.IntN(n + 1) // sometimes many
		}
		for range nbad {
			src[r.IntN(n)] = bad(r)
		}
		for _, m := range []round.Mode{round.RTE, round.RTZ, round.RTN} {
			var want []int
			for i, x := range src {
				if _, err := convert.ToChecked[D](x, m); err != nil {
					want = append(want, i)
				}
			}
			if got := convert.CheckSlice[D](src, m); !slices.Equal(got, want) {
				t.Fatalf("%s n=%d %v: CheckSlice = %d indices, want %d (%v...)", name, n, m, len(got), len(want), want[:min(len(want), 5)])
			}
			dst := make([]D, n)
			_, err := convert.SliceChecked(dst, src, m)
			if len(want) == 0 {
				if err != nil {
					t.Fatalf("%s n=%d %v: unexpected %v", name, n, m, err)
				}
				continue
			}
			var re *convert.RangeError
			if !errors.As(err, &re) {
				t.Fatalf("%s n=%d %v: err %v, want a RangeError", name, n, m, err)
			}
			if re.Index != want[0] || re.Failed != len(want) || re.Len != n {
				t.Fatalf("%s n=%d %v: Index %d Failed %d Len %d, want %d %d %d", name, n, m, re.Index, re.Failed, re.Len, want[0], len(want), n)
			}
		}
	}
}

func TestSliceCheckedCount(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 7))
	countCase[uint8](t, "float-uchar", r,
		func(r *rand.Rand) float32 { return r.Float32() * 255 },
		func(r *rand.Rand) float32 {
			return []float32{-5, 300, float32(math.NaN()), float32(math.Inf(1)), -1e9}[r.IntN(5)]
		})
	countCase[int32](t, "double-int", r,
		func(r *rand.Rand) float64 { return (r.Float64() - 0.5) * 4e9 },
		func(r *rand.Rand) float64 { return []float64{3e9, -3e9, math.NaN(), math.Inf(-1)}[r.IntN(4)] })
	countCase[int8](t, "int-char", r,
		func(r *rand.Rand) int32 { return int32(r.IntN(256)) - 128 },
		func(r *rand.Rand) int32 { return []int32{128, -129, math.MaxInt32, math.MinInt32}[r.IntN(4)] })
	countCase[int64](t, "ulong-long", r,
		func(r *rand.Rand) uint64 { return r.Uint64() >> 1 },
		func(r *rand.Rand) uint64 { return 1<<63 + r.Uint64()>>1 })
	countCase[half.Half](t, "float-half", r,
		func(r *rand.Rand) float32 { return (r.Float32() - 0.5) * 1e5 },
		func(r *rand.Rand) float32 { return []float32{1e6, -1e6, 65520}[r.IntN(3)] })
	countCase[uint16](t, "half-ushort", r,
		func(r *rand.Rand) half.Half { return half.FromFloat32(r.Float32()*60000, round.RTE) },
		func(r *rand.Rand) half.Half { return half.FromFloat32([]float32{-1, -60000}[r.IntN(2)], round.RTE) })
	countCase[fp8.E4M3](t, "float-e4m3", r,
		func(r *rand.Rand) float32 { return (r.Float32() - 0.5) * 800 },
		func(r *rand.Rand) float32 { return []float32{1e4, -1e4, float32(math.Inf(1))}[r.IntN(3)] })
}

func unsafeUint32(s []int32) []uint32 { return unsafe.Slice((*uint32)(unsafe.Pointer(&s[0])), len(s)) }

// The count is taken before the conversion overwrites a source that is
// also the destination.
func TestSliceCheckedCountInPlace(t *testing.T) {
	src := []int32{-1, 5, -7, 1 << 31 >> 1, -2}
	// int to uint in place: the same memory, the same element size.
	u := unsafeUint32(src)
	_, err := convert.SliceChecked(u, src, round.RTE)
	var re *convert.RangeError
	if !errors.As(err, &re) || re.Index != 0 || re.Failed != 3 || re.Len != 5 {
		t.Fatalf("in place: %v", err)
	}
	if want := "convert: element 0: int -1 is too small for uint (min 0) (3 of 5 elements fail)"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}
