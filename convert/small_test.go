package convert_test

import (
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// signExtend returns pattern b of integer kind k as an int64.
func signExtend(k cltype.Kind, b uint64) int64 {
	sh := 64 - k.Bits()
	return int64(b<<sh) >> sh
}

// smallRef is the reference for a pair with a small format, computed without
// any of package convert's code: internal/minifloat's integer-only rounding
// (itself checked against math/big) between floating rows and from integers,
// and to integers the exact double value through internal/ref's integer-only
// double -> integer conversion (R11).
func smallRef(dst, src cltype.Kind, b uint64, m round.Mode, sat bool) (uint64, bool) {
	switch {
	case src.IsSmallFloat() && dst.IsInteger():
		return ref.Convert(dst, cltype.Double, minifloat.ToFloat64Bits(minifloat.OfKind(src), b), m, sat)
	case src.IsInteger():
		if src.IsSigned() {
			return minifloat.FromInt64(minifloat.OfKind(dst), signExtend(src, b), m, sat), false
		}
		return minifloat.FromUint64(minifloat.OfKind(dst), b&src.Mask(), m, sat), false
	}
	return minifloat.Convert(minifloat.OfKind(dst), minifloat.OfKind(src), b, m, sat && dst.IsSmallFloat()), false
}

// smallInputs returns the source patterns to check for src: every pattern
// of a source of at most 16 bits; otherwise the kind's edges, random values
// and, for each small format, every value of it, its neighbours and the
// midpoints between consecutive values and their neighbours, in src.
func smallInputs(src cltype.Kind, nRandom int) []uint64 {
	if src.Bits() <= 16 {
		vals := make([]uint64, 1<<src.Bits())
		for i := range vals {
			vals[i] = uint64(i)
		}
		return vals
	}
	set := map[uint64]bool{}
	for _, v := range testvals.Edges(src) {
		set[v] = true
	}
	r := rand.New(rand.NewPCG(14, uint64(src)))
	for range nRandom {
		set[testvals.Random(r, src)] = true
	}
	add := func(x float64) {
		for _, v := range []float64{x, -x} {
			switch {
			case src == cltype.Float:
				f := float32(v)
				if float64(f) == v {
					b := math.Float32bits(f)
					set[uint64(b)], set[uint64(b+1)], set[uint64(b-1)] = true, true, true
				}
			case src == cltype.Double:
				b := math.Float64bits(v)
				set[b], set[b+1], set[b-1] = true, true, true
			case src.IsInteger():
				if math.Abs(v) < 0x1p62 {
					i := int64(math.Floor(v))
					for d := int64(-1); d <= 2; d++ {
						set[uint64(i+d)&src.Mask()] = true
					}
				}
			}
		}
	}
	for _, k := range cltype.SmallFloats {
		row := minifloat.OfKind(k)
		prev := 0.0
		for p := uint64(0); p < 1<<k.Bits(); p++ {
			v := math.Float64frombits(minifloat.ToFloat64Bits(row, p))
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || math.Signbit(v) {
				continue
			}
			add(v)
			add((prev + v) / 2)
			prev = v
		}
		// One unit beyond MAX (the overflow threshold), and the tie.
		add(prev * (1 + 1/float64(uint64(1)<<(row.MantBits+1))))
		add(prev * (1 + 1/float64(uint64(1)<<(row.MantBits))))
	}
	for e := range 64 {
		add(math.Ldexp(1, e))
	}
	vals := make([]uint64, 0, len(set))
	for v := range set {
		vals = append(vals, v&src.Mask())
	}
	slices.Sort(vals)
	return slices.Compact(vals)
}

// TestSmallFormats checks every conversion to and from bfloat16, e4m3 and
// e5m2, in every mode with and without _sat, against smallRef: through Bits
// (one value) and through the slice kernels (BytesFlag, whose flags are
// checked too); every pattern of the 8- and 16-bit sources.
func TestSmallFormats(t *testing.T) {
	nRandom := 20000
	if testing.Short() {
		nRandom = 2000
	}
	for _, src := range cltype.AllScalars {
		t.Run(src.String(), func(t *testing.T) {
			t.Parallel()
			vals := smallInputs(src, nRandom)
			if src.Bits() > 16 && testing.Short() {
				vals = thin(vals, 4) // every 8/16-bit pattern stays
			}
			if src.Bits() >= 16 && testvals.Sampled() {
				vals = thin(vals, 8) // every 8-bit pattern stays; natively every 16-bit one
			}
			in := make([]byte, len(vals)*src.Size())
			for j, v := range vals {
				convert.StoreBits(in, src, j, v)
			}
			out := make([]byte, len(vals)*8)
			bad := make([]bool, len(vals))
			fails, checks := 0, 0
			for _, dst := range cltype.AllScalars {
				if !src.IsSmallFloat() && !dst.IsSmallFloat() {
					continue
				}
				for _, m := range round.Modes {
					for _, sat := range []bool{false, true} {
						if sat && dst.IsFloat() {
							continue
						}
						n, err := kernels.BytesFlag(dst, src, out[:len(vals)*dst.Size()], in, m, sat, bad)
						if err != nil {
							t.Fatal(err)
						}
						flags := 0
						for j, v := range vals {
							want, wantImpl := smallRef(dst, src, v, m, sat)
							got, gotImpl := convert.Bits(dst, src, v, m, sat)
							sl := convert.LoadBits(out, dst, j)
							_, outOfRange := smallRef(dst, src, v, m, false)
							flagged := bad[j] && src.IsSmallFloat() && dst.IsInteger()
							if flagged {
								flags++
							}
							checks++
							if got != want || gotImpl != wantImpl || sl != want || flagged != (outOfRange && dst.IsInteger()) {
								fails++
								if fails <= 20 {
									t.Errorf("%s -> %s %s sat=%v: %#x: Bits %#x impl=%v, slice %#x flagged=%v; reference %#x impl=%v",
										src, dst, m, sat, v, got, gotImpl, sl, flagged, want, wantImpl)
								}
							}
						}
						if n != flags {
							t.Errorf("%s -> %s %s: BytesFlag counted %d, flagged %d", src, dst, m, n, flags)
						}
					}
				}
			}
			t.Logf("%d inputs, %d checks", len(vals), checks)
		})
	}
}

// The typed API knows the Go types of the small formats.
func TestSmallKindOf(t *testing.T) {
	if k := convert.KindOf[bfloat16.BFloat16](); k != cltype.BFloat16 {
		t.Errorf("KindOf[bfloat16.BFloat16] = %s", k)
	}
	if k := convert.KindOf[fp8.E4M3](); k != cltype.E4M3 {
		t.Errorf("KindOf[fp8.E4M3] = %s", k)
	}
	if k := convert.KindOf[fp8.E5M2](); k != cltype.E5M2 {
		t.Errorf("KindOf[fp8.E5M2] = %s", k)
	}
	type Mine uint8
	if k := convert.KindOf[Mine](); k != cltype.Uchar {
		t.Errorf("KindOf[Mine] = %s", k)
	}
	// The examples.
	if got := convert.To[fp8.E4M3](float32(464), convert.RTE); got != 0x7e {
		t.Errorf("464 -> e4m3 rte = %#x, want 0x7e (448)", got)
	}
	if got := convert.To[fp8.E4M3](float32(480), convert.RTE); got != 0x7f {
		t.Errorf("480 -> e4m3 rte = %#x, want NaN 0x7f", got)
	}
	if got := convert.ToSat[fp8.E4M3](float32(1e9), convert.RTE); got != 0x7e {
		t.Errorf("1e9 -> e4m3 sat = %#x, want 448", got)
	}
	if got := convert.To[fp8.E5M2](int64(math.MinInt64), convert.RTZ); got != 0xfb {
		t.Errorf("LONG_MIN -> e5m2 rtz = %#x, want -57344 (0xfb)", got)
	}
	if got := convert.To[int32](bfloat16.FromBits(0x4049), convert.RTZ); got != 3 {
		t.Errorf("bfloat16 3.140625 -> int = %d", got)
	}
	dst := make([]bfloat16.BFloat16, 3)
	convert.Slice(dst, []float32{1, float32(math.Inf(-1)), 3.4e38}, convert.RTZ)
	if dst[0] != 0x3f80 || dst[1] != 0xff80 || dst[2] != 0x7f7f {
		t.Errorf("Slice float -> bfloat16 rtz = %#x", dst)
	}
}

// overflows is the definition of CauseOverflow for a small or half
// destination, computed another way: the source rounded to a format with
// one more exponent bit (an exponent range that does not end near MAX) is
// beyond MAX.
func overflows(dst, src cltype.Kind, b uint64, m round.Mode) bool {
	row := *minifloat.OfKind(dst)
	wide := row
	wide.ExpBits++
	wide.Bias = row.Bias
	wide.Inf, wide.NaN = true, minifloat.NaNIEEE
	var w uint64
	switch {
	case src.IsInteger() && src.IsSigned():
		w = minifloat.FromInt64(&wide, signExtend(src, b), m, false)
	case src.IsInteger():
		w = minifloat.FromUint64(&wide, b, m, false)
	default:
		if c := minifloat.OfKind(src).Decode(b).Class; c != minifloat.ClassFinite {
			return false
		}
		w = minifloat.Convert(&wide, minifloat.OfKind(src), b, m, false)
	}
	mx := minifloat.ToFloat64Bits(&row, row.MaxBits())
	return math.Abs(math.Float64frombits(minifloat.ToFloat64Bits(&wide, w))) > math.Float64frombits(mx)
}

// Checked conversions to the small formats report IEEE 754 overflow, and
// infinities that E4M3 cannot hold; the value returned is ToSat's then and
// To's otherwise. From them to integers, NaN and range as for float.
func TestSmallChecked(t *testing.T) {
	for _, src := range cltype.AllScalars {
		var vals []uint64 // the source's inputs, made once
		for _, dst := range cltype.AllScalars {
			if !src.IsSmallFloat() && !dst.IsSmallFloat() {
				continue
			}
			if dst.IsInteger() || (dst.IsFloat() && dst != cltype.Half) {
				continue // to integers and float/double: below
			}
			if vals == nil {
				vals = smallInputs(src, 500)
				if testing.Short() {
					vals = thin(vals, 8*testvals.Stride(4))
				}
			}
			for _, m := range round.Modes {
				for _, v := range vals {
					got, err := convert.CheckedBits(dst, src, v, m)
					isInf := !src.IsInteger() && minifloat.OfKind(src).Decode(v).Class == minifloat.ClassInf
					wantErr := overflows(dst, src, v, m) || (isInf && dst == cltype.E4M3)
					want, _ := smallRef(dst, src, v, m, wantErr)
					if (err != nil) != wantErr || got != want {
						t.Fatalf("%s -> %s %s %#x: got %#x err=%v, want %#x error=%v", src, dst, m, v, got, err, want, wantErr)
					}
					if err != nil {
						var re *convert.RangeError
						if !errors.As(err, &re) || re.Cause != convert.CauseOverflow || !errors.Is(err, convert.ErrRange) {
							t.Fatalf("%s -> %s %#x: error %v", src, dst, v, err)
						}
					}
				}
			}
		}
	}
	// Small formats to integers: as double, whose checked conversions are
	// tested elsewhere.
	step := uint64(1)
	if testing.Short() {
		step = uint64(7 * testvals.Stride(4))
	}
	for _, src := range cltype.SmallFloats {
		for _, dst := range cltype.Scalars {
			for b := uint64(0); b < 1<<src.Bits(); b += step {
				for _, m := range round.Modes {
					got, err := convert.CheckedBits(dst, src, b, m)
					want, wantErr := convert.CheckedBits(dst, cltype.Double, minifloat.ToFloat64Bits(minifloat.OfKind(src), b), m)
					if got != want || (err == nil) != (wantErr == nil) {
						t.Fatalf("%s -> %s %s %#x: got %#x %v, double gives %#x %v", src, dst, m, b, got, err, want, wantErr)
					}
				}
			}
		}
	}
	_, err := convert.ToChecked[fp8.E4M3](float32(500), convert.RTZ)
	if want := "convert: float 500 overflows e4m3 (max 448) in rtz"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if v, err := convert.ToChecked[fp8.E4M3](float32(464), convert.RTE); err != nil || v != 0x7e {
		t.Errorf("464 -> e4m3: %#x %v", v, err)
	}
	if v, err := convert.ToChecked[bfloat16.BFloat16](float32(math.Inf(1)), convert.RTE); err != nil || v != 0x7f80 {
		t.Errorf("inf -> bfloat16: %#x %v", v, err)
	}
	dst := make([]fp8.E5M2, 3)
	n, err := convert.SliceChecked(dst, []float64{1, 1e6, math.Inf(-1)}, convert.RTE)
	var re *convert.RangeError
	if n != 3 || !errors.As(err, &re) || re.Index != 1 || dst[1] != 0x7b || dst[2] != 0xfc {
		t.Errorf("SliceChecked: n=%d err=%v dst=%#x", n, err, dst)
	}
}

// Every int and uint to bfloat16, e4m3 and e5m2, in every mode with and
// without _sat, through the slice path (convert.Bytes: integer rounding to
// odd, then the float32 kernels), against the double path computed another
// way (the exact double of the integer, rounded once by FromFloat64, which
// rounds to odd in floating point). 2^32 x 2 sources x 24 variants: set
// CLCONV_SMALL_EXHAUSTIVE=1 (a few minutes on 16 cores).
func TestSmallIntSourcesExhaustive(t *testing.T) {
	if os.Getenv("CLCONV_SMALL_EXHAUSTIVE") == "" {
		t.Skip("set CLCONV_SMALL_EXHAUSTIVE=1 to check all 2^32 int and uint inputs")
	}
	const chunk = 1 << 16
	limit := uint64(1) << 32
	if s := os.Getenv("CLCONV_SMALL_LIMIT"); s != "" { // a prefix of the inputs, for a quick run
		if n, err := strconv.ParseUint(s, 0, 64); err == nil {
			limit = min(max(n, chunk), limit)
		}
	}
	type job struct {
		src, dst cltype.Kind
		m        round.Mode
		sat      bool
	}
	var jobs []job
	for _, src := range []cltype.Kind{cltype.Int, cltype.Uint} {
		for _, dst := range cltype.SmallFloats {
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					jobs = append(jobs, job{src, dst, m, sat})
				}
			}
		}
	}
	var fails atomic.Int64
	for _, j := range jobs {
		var wg sync.WaitGroup
		next := atomic.Uint64{}
		for range runtime.NumCPU() {
			wg.Go(func() {
				in := make([]byte, 4*chunk)
				out := make([]byte, 2*chunk)
				for {
					base := next.Add(chunk) - chunk
					if base >= limit || fails.Load() > 20 {
						return
					}
					for i := range chunk {
						binary.LittleEndian.PutUint32(in[4*i:], spread(base+uint64(i)))
					}
					if err := convert.Bytes(j.dst, j.src, out[:chunk*j.dst.Size()], in, j.m, j.sat); err != nil {
						t.Error(err)
						return
					}
					for i := range chunk {
						v := spread(base + uint64(i))
						f := float64(v)
						if j.src == cltype.Int {
							f = float64(int32(v))
						}
						var want uint64
						switch j.dst {
						case cltype.BFloat16:
							if j.sat {
								want = uint64(bfloat16.FromFloat64Sat(f, j.m))
							} else {
								want = uint64(bfloat16.FromFloat64(f, j.m))
							}
						case cltype.E4M3:
							if j.sat {
								want = uint64(fp8.E4M3FromFloat64Sat(f, j.m))
							} else {
								want = uint64(fp8.E4M3FromFloat64(f, j.m))
							}
						default:
							if j.sat {
								want = uint64(fp8.E5M2FromFloat64Sat(f, j.m))
							} else {
								want = uint64(fp8.E5M2FromFloat64(f, j.m))
							}
						}
						if got := convert.LoadBits(out, j.dst, i); got != want {
							if fails.Add(1) <= 20 {
								t.Errorf("%s %#x -> %s %s sat=%v: got %#x, want %#x", j.src, v, j.dst, j.m, j.sat, got, want)
							}
						}
					}
				}
			})
		}
		wg.Wait()
		t.Logf("%s -> %s %s sat=%v: %d inputs", j.src, j.dst, j.m, j.sat, limit)
	}
}

// spread maps 0 .. 2^32-1 onto itself, one to one (an odd multiplier), so
// that any prefix of the inputs samples the whole range.
func spread(i uint64) uint32 { return uint32(i) * 0x9e3779b1 }

// thin keeps every k-th of vals (the -short runs, under qemu too).
func thin(vals []uint64, k int) []uint64 {
	var out []uint64
	for i := 0; i < len(vals); i += k {
		out = append(out, vals[i])
	}
	return out
}
