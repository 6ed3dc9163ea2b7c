package fileconv

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// statsBenchN is the number of elements of the statistics benchmarks' inputs
// (4 MiB of float: four default chunks).
const statsBenchN = 1 << 20

// mlValues returns n values of kind k like an ML tensor's: normally
// distributed (sd 1 scaled by a random power of two from 2^-8 to 2^4, so
// that e4m3 and e5m2 see subnormals and the rounding varies). With mixed,
// about one element in 32 is a special: NaN, an infinity, a source
// subnormal, a value beyond e4m3's, e5m2's or half's range, or one near
// their smallest subnormals; positions and kinds are random so that
// branch prediction cannot learn them.
func mlValues(k cltype.Kind, n int, mixed bool, seed uint64) []uint64 {
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	vals := make([]uint64, n)
	for i := range vals {
		f := r.NormFloat64() * math.Ldexp(1, r.IntN(13)-8)
		if mixed && r.IntN(32) == 0 {
			switch r.IntN(8) {
			case 0:
				f = math.NaN()
			case 1:
				f = math.Inf(1 - 2*r.IntN(2))
			case 2:
				f = r.NormFloat64() * 0x1p-130 // float, bfloat16: subnormal; half: 0
			case 3:
				f = r.NormFloat64() * 0x1p-20 // half's subnormals
			case 4:
				f = r.NormFloat64() * 500 // e4m3's max 448
			case 5:
				f = r.NormFloat64() * 70000 // half's and e5m2's max ~65504, 57344
			case 6:
				f = r.NormFloat64() * 0x1p-9 // e4m3's subnormals, underflow
			case 7:
				f = r.NormFloat64() * 0x1p200 // beyond float
			}
		}
		vals[i], _ = convert.Bits(k, cltype.Double, math.Float64bits(f), round.RTE, false)
	}
	return vals
}

// mlInputs caches the benchmarks' .npy inputs by kind and mixed.
var mlInputs = map[[2]int][]byte{}

// mlInput returns a .npy file of statsBenchN mlValues of kind k.
func mlInput(k cltype.Kind, mixed bool) []byte {
	key := [2]int{int(k), 0}
	if mixed {
		key[1] = 1
	}
	if in, ok := mlInputs[key]; ok {
		return in
	}
	in := npyFile(k, mlValues(k, statsBenchN, mixed, 7), []int64{statsBenchN}, false, false)
	mlInputs[key] = in
	return in
}

var (
	statsBenchSrcs = []cltype.Kind{cltype.Float, cltype.BFloat16, cltype.Half, cltype.Double}
	statsBenchDsts = []cltype.Kind{cltype.BFloat16, cltype.Half, cltype.Float, cltype.E4M3, cltype.E5M2}
)

// BenchmarkStats converts ML-like inputs on one worker with and without
// statistics, for the common ML pairs ("plain" against "stats": their
// MB/s give the cost of Stats).
func BenchmarkStats(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		input := "normal"
		if mixed {
			input = "mixed"
		}
		for _, sk := range statsBenchSrcs {
			in := mlInput(sk, mixed)
			for _, dk := range statsBenchDsts {
				if dk == sk {
					continue
				}
				for _, stats := range []bool{false, true} {
					name := "plain"
					if stats {
						name = "stats"
					}
					b.Run(fmt.Sprintf("%s/%s-%s/%s", input, sk, dk, name), func(b *testing.B) {
						b.SetBytes(int64(len(in)))
						for b.Loop() {
							if _, err := Convert(context.Background(), io.Discard, bytes.NewReader(in), Options{Dst: dk, Mode: round.RTE, Stats: stats, Workers: 1}); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}

// BenchmarkInspectKinds runs Inspect on one worker over ML-like inputs.
func BenchmarkInspectKinds(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		input := "normal"
		if mixed {
			input = "mixed"
		}
		for _, k := range statsBenchSrcs {
			in := mlInput(k, mixed)
			b.Run(fmt.Sprintf("%s/%s", input, k), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					if _, err := Inspect(context.Background(), bytes.NewReader(in), InspectOptions{Workers: 1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkClassify measures classify alone (no pipeline) over statsBenchN
// converted ML-like elements, in chunks of DefaultChunkBytes; "convert"
// is convert.Bytes over the same chunks, for scale.
func BenchmarkClassify(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		input := "normal"
		if mixed {
			input = "mixed"
		}
		for _, sk := range statsBenchSrcs {
			vals := mlValues(sk, statsBenchN, mixed, 7)
			src := alignedBytes(statsBenchN * sk.Size())
			copy(src, encodeBits(sk, vals, false))
			for _, dk := range statsBenchDsts {
				if dk == sk {
					continue
				}
				dst := alignedBytes(statsBenchN * dk.Size())
				if err := convert.Bytes(dk, sk, dst, src, round.RTE, false); err != nil {
					b.Fatal(err)
				}
				per := chunkElems(0, sk.Size(), dk.Size())
				for _, op := range []string{"convert", "classify"} {
					b.Run(fmt.Sprintf("%s/%s-%s/%s", input, sk, dk, op), func(b *testing.B) {
						b.SetBytes(int64(len(src)))
						for b.Loop() {
							var s Stats
							for lo := 0; lo < statsBenchN; lo += per {
								n := min(per, statsBenchN-lo)
								d, sr := dst[lo*dk.Size():(lo+n)*dk.Size()], src[lo*sk.Size():(lo+n)*sk.Size()]
								if op == "convert" {
									convert.Bytes(dk, sk, d, sr, round.RTE, false)
								} else {
									s.classify(dk, sk, d, sr, n, round.RTE, false)
								}
							}
						}
					})
				}
			}
		}
	}
}

// BenchmarkScan measures Inspect's summary.scan alone over statsBenchN
// ML-like elements, in chunks of DefaultChunkBytes.
func BenchmarkScan(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		input := "normal"
		if mixed {
			input = "mixed"
		}
		for _, k := range statsBenchSrcs {
			src := alignedBytes(statsBenchN * k.Size())
			copy(src, encodeBits(k, mlValues(k, statsBenchN, mixed, 7), false))
			per := chunkElems(0, k.Size(), 0)
			b.Run(fmt.Sprintf("%s/%s", input, k), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					var all summary
					for lo := 0; lo < statsBenchN; lo += per {
						n := min(per, statsBenchN-lo)
						var s summary
						s.scan(k, src[lo*k.Size():(lo+n)*k.Size()], n)
						all.merge(&s)
					}
				}
			})
		}
	}
}
