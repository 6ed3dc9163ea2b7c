package convert_test

import (
	"encoding/binary"
	"errors"
	"fmt"
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
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
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
	if k := convert.KindOf[fp4.E2M1](); k != cltype.E2M1 {
		t.Errorf("KindOf[fp4.E2M1] = %s", k)
	}
	if k := convert.KindOf[fp6.E2M3](); k != cltype.E2M3 {
		t.Errorf("KindOf[fp6.E2M3] = %s", k)
	}
	if k := convert.KindOf[fp6.E3M2](); k != cltype.E3M2 {
		t.Errorf("KindOf[fp6.E3M2] = %s", k)
	}
	if k := convert.KindOf[fp8.E8M0](); k != cltype.E8M0 {
		t.Errorf("KindOf[fp8.E8M0] = %s", k)
	}
	if k := convert.KindOf[fp8.E4M3FNUZ](); k != cltype.E4M3FNUZ {
		t.Errorf("KindOf[fp8.E4M3FNUZ] = %s", k)
	}
	if k := convert.KindOf[fp8.E5M2FNUZ](); k != cltype.E5M2FNUZ {
		t.Errorf("KindOf[fp8.E5M2FNUZ] = %s", k)
	}
	// FNUZ: overflow without _sat is the NaN 0x80, and -0 is +0.
	if got := convert.To[fp8.E4M3FNUZ](float32(-248), convert.RTE); got != 0x80 {
		t.Errorf("-248 -> e4m3fnuz rte = %#x, want NaN 0x80", got)
	}
	if got := convert.To[fp8.E4M3FNUZ](math.Copysign(0, -1), convert.RTE); got != 0 {
		t.Errorf("-0 -> e4m3fnuz = %#x, want +0", got)
	}
	if got := convert.To[fp8.E5M2FNUZ](fp8.E5M2(0xfc), convert.RTE); got != 0x80 {
		t.Errorf("e5m2 -inf -> e5m2fnuz = %#x, want NaN 0x80", got)
	}
	if got, err := convert.ToChecked[fp8.E4M3FNUZ](float32(300), convert.RTE); got != 0x7f || err == nil {
		t.Errorf("checked 300 -> e4m3fnuz = %#x, %v; want 240 and an overflow", got, err)
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

// lostCause is the definition of a checked conversion's failure to a small
// or half destination, and its cause, computed apart from package convert:
// IEEE 754 overflow (overflows), an infinity to a format without
// infinities, a NaN to a format without NaNs, and zero or a negative value
// to e8m0, which has neither.
func lostCause(dst, src cltype.Kind, v uint64, m round.Mode) (bool, convert.Cause) {
	row := minifloat.OfKind(dst)
	var x minifloat.Value
	switch {
	case src.IsInteger() && src.IsSigned():
		i := signExtend(src, v)
		x = minifloat.Value{Class: minifloat.ClassFinite, Neg: i < 0}
		if i == 0 {
			x.Class = minifloat.ClassZero
		}
	case src.IsInteger():
		x = minifloat.Value{Class: minifloat.ClassFinite}
		if v&src.Mask() == 0 {
			x.Class = minifloat.ClassZero
		}
	default:
		x = minifloat.OfKind(src).Decode(v)
	}
	switch {
	case x.Class == minifloat.ClassNaN:
		return !row.HasNaN(), convert.CauseNaN
	case dst == cltype.E8M0 && (x.Neg || x.Class == minifloat.ClassZero):
		return true, convert.CauseTooSmall
	case x.Class == minifloat.ClassInf:
		return !row.Inf, convert.CauseOverflow
	}
	return overflows(dst, src, v, m), convert.CauseOverflow
}

// Checked conversions to the small formats report IEEE 754 overflow,
// infinities that a format cannot hold, NaNs to the formats without NaNs and
// zero and negative values to e8m0; the value returned is ToSat's then and
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
					wantErr, cause := lostCause(dst, src, v, m)
					want, _ := smallRef(dst, src, v, m, wantErr)
					if (err != nil) != wantErr || got != want {
						t.Fatalf("%s -> %s %s %#x: got %#x err=%v, want %#x error=%v", src, dst, m, v, got, err, want, wantErr)
					}
					if err != nil {
						var re *convert.RangeError
						if !errors.As(err, &re) || re.Cause != cause || !errors.Is(err, convert.ErrRange) {
							t.Fatalf("%s -> %s %#x: error %v, want cause %v", src, dst, v, err, cause)
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
	// The MX formats: NaN, infinity and overflow are errors; e8m0 has no
	// zero and no negative values.
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(convert.ToChecked[fp4.E2M1](float32(math.NaN()), convert.RTE)), "convert: float NaN has no e2m1 value"},
		{second(convert.ToChecked[fp4.E2M1](float32(7), convert.RTE)), "convert: float 7 overflows e2m1 (max 6) in rte"},
		{second(convert.ToChecked[fp4.E2M1](float32(7), convert.RTZ)), ""},
		{second(convert.ToChecked[fp6.E3M2](math.Inf(-1), convert.RTZ)), "convert: double -Inf overflows e3m2 (max 28) in rtz"},
		{second(convert.ToChecked[fp6.E2M3](int64(8), convert.RTN)), "convert: long 8 overflows e2m3 (max 7.5) in rtn"},
		{second(convert.ToChecked[fp8.E8M0](0.0, convert.RTE)), "convert: double 0 is too small for e8m0 (min 2^-127) in rte"},
		{second(convert.ToChecked[fp8.E8M0](int8(-3), convert.RTE)), "convert: char -3 is too small for e8m0 (min 2^-127) in rte"},
		{second(convert.ToChecked[fp8.E8M0](float32(3.4e38), convert.RTE)), "convert: float 3.4e+38 overflows e8m0 (max 2^127) in rte"},
		{second(convert.ToChecked[fp8.E8M0](float32(3.4e38), convert.RTZ)), ""}, // rtz rounds it to 2^127: no overflow
		{second(convert.ToChecked[fp8.E8M0](1e-300, convert.RTZ)), ""},
		{second(convert.ToChecked[fp8.E8M0](math.NaN(), convert.RTZ)), ""},
	} {
		if got := fmt.Sprint(c.err); c.err == nil && c.want != "" || c.err != nil && got != c.want {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
	e2m1 := make([]fp4.E2M1, 3)
	n, err = convert.SliceChecked(e2m1, []float32{1, float32(math.NaN()), 100}, convert.RTE)
	if n != 3 || !errors.As(err, &re) || re.Index != 1 || re.Cause != convert.CauseNaN || e2m1[1] != 0 || e2m1[2] != 0x7 {
		t.Errorf("SliceChecked e2m1: n=%d err=%v dst=%#x", n, err, e2m1)
	}
}

// Doubles far below e8m0's smallest value (and below every binary32) still
// give 2^-127 in every mode after the round-to-odd step, and the rounding
// boundaries of e8m0 (2^k, 1.5 * 2^k, 2^128) are decided as the reference
// decides them from the double itself.
func TestE8M0DoubleEdges(t *testing.T) {
	var xs []float64
	for _, x := range []float64{0x1p-1074, 0x1p-1000, 0x1p-150, 0x1p-149, 0x1.8p-149, 0x1p-128, 0x1p-127, 0x1.8p-127,
		0x1p-126, 0x1.8p-126, 1, 1.5, 0x1p127, 0x1.8p127, 0x1p128, 1e300, math.MaxFloat64} {
		b := math.Float64bits(x)
		for _, u := range []uint64{b, b + 1, b - 1} {
			xs = append(xs, math.Float64frombits(u), -math.Float64frombits(u))
		}
	}
	for _, x := range xs {
		b := math.Float64bits(x)
		for _, m := range round.Modes {
			for _, sat := range []bool{false, true} {
				want := minifloat.FromFloat64Bits(minifloat.E8M0, b, m, sat)
				got, _ := convert.Bits(cltype.E8M0, cltype.Double, b, m, sat)
				var one fp8.E8M0
				if sat {
					one = convert.ToSat[fp8.E8M0](x, m)
				} else {
					one = convert.To[fp8.E8M0](x, m)
				}
				sl := make([]fp8.E8M0, 1)
				if sat {
					convert.SliceSat(sl, []float64{x}, m)
				} else {
					convert.Slice(sl, []float64{x}, m)
				}
				if got != want || uint64(one) != want || uint64(sl[0]) != want {
					t.Errorf("e8m0(double %g) %s sat=%v: Bits %#x, To %#x, Slice %#x; reference %#x", x, m, sat, got, one, sl[0], want)
				}
			}
		}
	}
	if got := convert.To[fp8.E8M0](0x1p-1074, convert.RTP); got != fp8.E8M0Min {
		t.Errorf("2^-1074 -> e8m0 rtp = %#x, want 2^-127", got)
	}
}

// fromFloat64 rounds f to small kind k with the format's own Go type.
func fromFloat64(k cltype.Kind, f float64, m round.Mode, sat bool) uint64 {
	switch {
	case k == cltype.BFloat16 && sat:
		return uint64(bfloat16.FromFloat64Sat(f, m))
	case k == cltype.BFloat16:
		return uint64(bfloat16.FromFloat64(f, m))
	case k == cltype.E4M3 && sat:
		return uint64(fp8.E4M3FromFloat64Sat(f, m))
	case k == cltype.E4M3:
		return uint64(fp8.E4M3FromFloat64(f, m))
	case k == cltype.E5M2 && sat:
		return uint64(fp8.E5M2FromFloat64Sat(f, m))
	case k == cltype.E5M2:
		return uint64(fp8.E5M2FromFloat64(f, m))
	case k == cltype.E2M1 && sat:
		return uint64(fp4.E2M1FromFloat64Sat(f, m))
	case k == cltype.E2M1:
		return uint64(fp4.E2M1FromFloat64(f, m))
	case k == cltype.E2M3 && sat:
		return uint64(fp6.E2M3FromFloat64Sat(f, m))
	case k == cltype.E2M3:
		return uint64(fp6.E2M3FromFloat64(f, m))
	case k == cltype.E3M2 && sat:
		return uint64(fp6.E3M2FromFloat64Sat(f, m))
	case k == cltype.E3M2:
		return uint64(fp6.E3M2FromFloat64(f, m))
	case k == cltype.E8M0 && sat:
		return uint64(fp8.E8M0FromFloat64Sat(f, m))
	case k == cltype.E4M3FNUZ && sat:
		return uint64(fp8.E4M3FNUZFromFloat64Sat(f, m))
	case k == cltype.E4M3FNUZ:
		return uint64(fp8.E4M3FNUZFromFloat64(f, m))
	case k == cltype.E5M2FNUZ && sat:
		return uint64(fp8.E5M2FNUZFromFloat64Sat(f, m))
	case k == cltype.E5M2FNUZ:
		return uint64(fp8.E5M2FNUZFromFloat64(f, m))
	case k != cltype.E8M0:
		panic("fromFloat64 to " + k.String())
	}
	return uint64(fp8.E8M0FromFloat64(f, m))
}

// Every int and uint to every small format, in every mode with and
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
						want := fromFloat64(j.dst, f, j.m, j.sat)
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

// Every float to the MX formats e2m1, e2m3, e3m2 and e8m0 and the FNUZ
// formats e4m3fnuz and e5m2fnuz, in every mode
// with and without _sat, through the slice path (convert.Bytes), against the
// integer-only reference internal/minifloat. 2^32 inputs x 4 formats x 8
// variants: set CLCONV_SMALL_EXHAUSTIVE=1 (CLCONV_SMALL_LIMIT samples a
// spread prefix). bfloat16, e4m3 and e5m2 are checked on every float by the
// SIMD kernels' -long test and their packages' -long tests.
func TestSmallFloatSourceExhaustive(t *testing.T) {
	if os.Getenv("CLCONV_SMALL_EXHAUSTIVE") == "" {
		t.Skip("set CLCONV_SMALL_EXHAUSTIVE=1 to check all 2^32 float inputs")
	}
	const chunk = 1 << 16
	limit := uint64(1) << 32
	if s := os.Getenv("CLCONV_SMALL_LIMIT"); s != "" {
		if n, err := strconv.ParseUint(s, 0, 64); err == nil {
			limit = min(max(n, chunk), limit)
		}
	}
	for _, dst := range []cltype.Kind{cltype.E2M1, cltype.E2M3, cltype.E3M2, cltype.E8M0, cltype.E4M3FNUZ, cltype.E5M2FNUZ} {
		row := minifloat.OfKind(dst)
		var fails atomic.Int64
		var wg sync.WaitGroup
		next := atomic.Uint64{}
		for range runtime.NumCPU() {
			wg.Go(func() {
				in := make([]byte, 4*chunk)
				out := make([][]byte, 8)
				for i := range out {
					out[i] = make([]byte, chunk)
				}
				for {
					base := next.Add(chunk) - chunk
					if base >= limit || fails.Load() > 20 {
						return
					}
					for i := range chunk {
						binary.LittleEndian.PutUint32(in[4*i:], spread(base+uint64(i)))
					}
					for v, m := range round.Modes {
						for s, sat := range []bool{false, true} {
							if err := convert.Bytes(dst, cltype.Float, out[2*v+s], in, m, sat); err != nil {
								t.Error(err)
								return
							}
						}
					}
					for i := range chunk {
						b := spread(base + uint64(i))
						r := row.Prepare(minifloat.Binary32.Decode(uint64(b)))
						for v, m := range round.Modes {
							for s, sat := range []bool{false, true} {
								if got, want := uint64(out[2*v+s][i]), r.Result(m, sat); got != want && fails.Add(1) <= 20 {
									t.Errorf("float %#08x -> %s %s sat=%v: got %#x, want %#x", b, dst, m, sat, got, want)
								}
							}
						}
					}
				}
			})
		}
		wg.Wait()
		t.Logf("float -> %s: %d inputs x 8 variants", dst, limit)
	}
}
