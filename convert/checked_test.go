package convert_test

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// The checked conversions' rule (package documentation, "Checked
// conversions") decided independently with math/big: oracleCause returns 0
// when value v (bits of src) converts to dst in mode m without an error, and
// otherwise the Cause that ToChecked must report.
func oracleCause(src, dst cltype.Kind, v uint64, m round.Mode) convert.Cause {
	x, nan, inf := bigValue(src, v)
	switch {
	case nan && dst.IsFloat(), inf && dst.IsFloat():
		return 0 // NaN stays NaN, infinities stay infinite
	case nan:
		return convert.CauseNaN
	case inf && x.Sign() > 0:
		return convert.CauseTooLarge
	case inf:
		return convert.CauseTooSmall
	}
	if dst.IsFloat() {
		// IEEE 754 overflow: round to the destination's precision with an
		// unbounded exponent (big.Float's range is practically unbounded)
		// and compare with the largest finite value.
		prec, maxF := map[cltype.Kind]uint{cltype.Half: 11, cltype.Float: 24, cltype.Double: 53}[dst], map[cltype.Kind]float64{cltype.Half: 65504, cltype.Float: math.MaxFloat32, cltype.Double: math.MaxFloat64}[dst]
		mode := map[round.Mode]big.RoundingMode{round.RTE: big.ToNearestEven, round.RTZ: big.ToZero, round.RTP: big.ToPositiveInf, round.RTN: big.ToNegativeInf}[m]
		r := new(big.Float).SetPrec(prec).SetMode(mode).Set(x)
		if r.Abs(r).Cmp(big.NewFloat(maxF)) > 0 {
			return convert.CauseOverflow
		}
		return 0
	}
	r := roundToInt(x, m)
	switch {
	case r.Cmp(new(big.Int).SetUint64(dst.MaxUint())) > 0:
		return convert.CauseTooLarge
	case r.Cmp(big.NewInt(dst.MinInt())) < 0:
		return convert.CauseTooSmall
	}
	return 0
}

// bigValue returns the exact value of v (bits of kind k).
func bigValue(k cltype.Kind, v uint64) (x *big.Float, nan, inf bool) {
	var f float64
	switch k {
	case cltype.Half:
		f = half.Half(v).Float64()
	case cltype.Float:
		f = float64(math.Float32frombits(uint32(v)))
	case cltype.Double:
		f = math.Float64frombits(v)
	default:
		x = new(big.Float).SetPrec(64)
		if k.IsSigned() {
			sh := 64 - k.Bits()
			return x.SetInt64(int64(v<<sh) >> sh), false, false
		}
		return x.SetUint64(v), false, false
	}
	if f != f {
		return nil, true, false
	}
	return new(big.Float).SetFloat64(f), false, math.IsInf(f, 0)
}

// roundToInt rounds finite x to an integer in mode m.
func roundToInt(x *big.Float, m round.Mode) *big.Int {
	t, acc := x.Int(nil) // toward zero
	if acc == big.Exact {
		return t
	}
	one := big.NewInt(int64(x.Sign()))
	switch m {
	case round.RTZ:
	case round.RTN:
		if x.Sign() < 0 {
			t.Add(t, one)
		}
	case round.RTP:
		if x.Sign() > 0 {
			t.Add(t, one)
		}
	default:
		d := new(big.Float).SetPrec(2200).Sub(x, new(big.Float).SetInt(t))
		c := d.Abs(d).Cmp(big.NewFloat(0.5))
		if c > 0 || c == 0 && t.Bit(0) == 1 {
			t.Add(t, one)
		}
	}
	return t
}

// step returns the neighbour of v (bits of kind k) one unit above (dir 1) or
// below (dir -1), stopping at the type's limits (infinities for floats).
func step(k cltype.Kind, v uint64, dir int) uint64 {
	if k.IsInteger() {
		sh := 64 - k.Bits()
		if k.IsSigned() {
			x := int64(v<<sh) >> sh
			if dir > 0 && x < int64(k.MaxUint()) || dir < 0 && x > k.MinInt() {
				x += int64(dir)
			}
			return uint64(x) & k.Mask()
		}
		if dir > 0 && v < k.MaxUint() || dir < 0 && v > 0 {
			v += uint64(dir)
		}
		return v
	}
	// Floats: an ordered key, -magnitude for negative values.
	sign := uint64(1) << (k.Bits() - 1)
	inf := map[cltype.Kind]uint64{cltype.Half: 0x7c00, cltype.Float: 0x7f800000, cltype.Double: 0x7ff0000000000000}[k]
	key := int64(v &^ sign)
	if v&sign != 0 {
		key = -key
	}
	key += int64(dir)
	switch {
	case key > int64(inf):
		key = int64(inf)
	case key < -int64(inf):
		key = -int64(inf)
	case key < 0:
		return uint64(-key) | sign
	}
	return uint64(key)
}

// nearest returns the value of kind k nearest to c, and false when c is
// outside an integer kind's range.
func nearest(k cltype.Kind, c float64) (uint64, bool) {
	switch k {
	case cltype.Half:
		return uint64(half.FromFloat64(c, round.RTE)), true
	case cltype.Float:
		return uint64(math.Float32bits(float32(c))), true
	case cltype.Double:
		return math.Float64bits(c), true
	}
	c = math.Floor(c)
	if c < float64(k.MinInt()) || c > float64(k.MaxUint()) {
		return 0, false
	}
	if c < 0 {
		return uint64(int64(c)) & k.Mask(), true
	}
	if c >= 0x1p63 {
		return uint64(c), true // 2^63 .. 2^64-2048
	}
	return uint64(int64(c)), true
}

// checkCandidates returns the inputs of the table test for src -> dst: each
// critical point of the destination (MIN, MAX, MIN-0.5, MAX+0.5, MIN-1,
// MAX+1 for integers; +-MAX, +-(MAX+ulp/2), +-(MAX+ulp) for floats) with
// four neighbours in the source type on each side, the source's own
// extremes, zeros and ones, and for floating sources NaN and infinities.
func checkCandidates(src, dst cltype.Kind) []uint64 {
	var crit []float64
	if dst.IsInteger() {
		lo, hi := float64(dst.MinInt()), float64(dst.MaxUint())
		crit = []float64{lo, hi, lo - 0.5, hi + 0.5, lo - 1, hi + 1}
	} else {
		maxF, ulp := map[cltype.Kind][2]float64{cltype.Half: {65504, 32}, cltype.Float: {math.MaxFloat32, 0x1p104}, cltype.Double: {math.MaxFloat64, 0x1p971}}[dst][0], map[cltype.Kind][2]float64{cltype.Half: {65504, 32}, cltype.Float: {math.MaxFloat32, 0x1p104}, cltype.Double: {math.MaxFloat64, 0x1p971}}[dst][1]
		for _, c := range []float64{maxF, maxF + ulp/2, maxF + ulp} { // maxF+ulp is +inf for double
			crit = append(crit, c, -c)
		}
	}
	set := map[uint64]bool{}
	for _, c := range crit {
		v, ok := nearest(src, c)
		if !ok {
			continue
		}
		set[v] = true
		for _, dir := range []int{1, -1} {
			w := v
			for range 4 {
				w = step(src, w, dir)
				set[w] = true
			}
		}
	}
	for _, c := range []float64{0, 1, -1, math.Inf(1), math.Inf(-1)} {
		if v, ok := nearest(src, c); ok {
			set[v] = true
		}
	}
	if src.IsFloat() {
		top := uint64(1) << (src.Bits() - 1)
		inf, _ := nearest(src, math.Inf(1))
		set[top] = true              // -0
		set[inf-1] = true            // MAX
		set[inf-1|top] = true        // -MAX
		set[inf|inf>>1] = true       // a quiet NaN
		set[(inf|inf>>1)|top] = true // a negative quiet NaN
		set[inf|1] = true            // a signalling NaN
		set[1] = true                // the smallest subnormal
	} else {
		set[src.MaxUint()] = true
		set[uint64(src.MinInt())&src.Mask()] = true
	}
	out := make([]uint64, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// TestCheckedTable holds the checked conversions to their rule for every
// pair of the eleven types in every mode: NaN, infinities, the extremes of the
// source, and the largest value that converts without an error next to the
// smallest that does not, at every limit of the destination. ToChecked and
// SliceChecked must report exactly the oracle's inputs, with its Cause, the
// RangeError's fields and ToSat's value; the boundaries must be neighbours
// in the source type.
func TestCheckedTable(t *testing.T) {
	boundaries := 0
	for _, src := range cltype.Scalars {
		for _, dst := range cltype.Scalars {
			tp := typedPair(src, dst)
			cands := checkCandidates(src, dst)
			for _, m := range round.Modes {
				firstBad := -1
				verdict := map[uint64]convert.Cause{}
				for i, v := range cands {
					want := oracleCause(src, dst, v, m)
					verdict[v] = want
					if want != 0 && firstBad < 0 {
						firstBad = i
					}
					got, err := tp.toChecked(v, m)
					if sat := tp.toSat(v, m); got != sat {
						t.Errorf("ToChecked[%s](%s %#x) in %s = %#x, ToSat gives %#x", dst, src, v, m, got, sat)
					}
					if want == 0 {
						if err != nil {
							t.Errorf("ToChecked[%s](%s %#x) in %s: unexpected error %v", dst, src, v, m, err)
						}
						continue
					}
					var re *convert.RangeError
					switch {
					case !errors.Is(err, convert.ErrRange) || !errors.As(err, &re):
						t.Errorf("ToChecked[%s](%s %#x) in %s: error %v, want a %s RangeError", dst, src, v, m, err, want)
					case re.Cause != want || re.Index != -1 || re.Src != src || re.Dst != dst || re.Mode != m || !tp.isValue(re.Value, v):
						t.Errorf("ToChecked[%s](%s %#x) in %s: %+v, want cause %s", dst, src, v, m, *re, want)
					}
				}
				// The same inputs as one slice.
				out, err := tp.sliceChecked(cands, m)
				for i, v := range cands {
					if sat := tp.toSat(v, m); out[i] != sat {
						t.Errorf("SliceChecked %s->%s %s: element %d (%#x) = %#x, ToSat gives %#x", src, dst, m, i, v, out[i], sat)
					}
				}
				var re *convert.RangeError
				if firstBad < 0 && err != nil || firstBad >= 0 && (!errors.As(err, &re) || re.Index != firstBad || re.Cause != verdict[cands[firstBad]]) {
					t.Errorf("SliceChecked %s->%s %s: error %v, want the element %d", src, dst, m, err, firstBad)
				}
				boundaries += checkBoundaries(t, src, dst, m, cands, verdict)
			}
		}
	}
	t.Logf("%d boundaries between neighbours", boundaries)
}

// checkBoundaries requires, on each side of zero, that the finite candidates
// pass up to a largest magnitude and fail beyond it, and that the last to
// pass and the first to fail are neighbours in the source type. It returns
// the number of boundaries found.
func checkBoundaries(t *testing.T, src, dst cltype.Kind, m round.Mode, cands []uint64, verdict map[uint64]convert.Cause) int {
	t.Helper()
	type cand struct {
		v uint64
		x *big.Float
	}
	var pos, neg []cand
	for _, v := range cands {
		x, nan, inf := bigValue(src, v)
		if nan || inf {
			continue
		}
		if x.Sign() >= 0 {
			pos = append(pos, cand{v, x})
		} else {
			neg = append(neg, cand{v, x})
		}
	}
	found := 0
	for _, side := range []struct {
		cs  []cand
		dir int
	}{{pos, 1}, {neg, -1}} {
		// Order by magnitude, outward from zero.
		slices.SortFunc(side.cs, func(a, b cand) int { return new(big.Float).Abs(a.x).Cmp(new(big.Float).Abs(b.x)) })
		last := -1
		for i, c := range side.cs {
			if verdict[c.v] != 0 {
				break
			}
			last = i
		}
		for _, c := range side.cs[last+1:] {
			if verdict[c.v] == 0 {
				t.Errorf("%s->%s %s: %s %#x passes beyond a value that fails", src, dst, m, src, c.v)
			}
		}
		if last < 0 || last == len(side.cs)-1 {
			continue // no boundary on this side
		}
		ok, bad := side.cs[last].v, side.cs[last+1].v
		if step(src, ok, side.dir) != bad {
			t.Errorf("%s->%s %s: the largest passing %s %#x and the smallest failing %#x are not neighbours", src, dst, m, src, ok, bad)
		}
		found++
	}
	return found
}

// TestCheckedRule spells out the rule's cases the issue names.
func TestCheckedRule(t *testing.T) {
	hb := func(h half.Half, err error) string { return fmt.Sprintf("%#04x %v", uint16(h), err != nil) }
	for _, c := range []struct {
		name, got, want string
	}{
		{"1e6 -> half rte", hb(convert.ToChecked[half.Half](float32(1e6), round.RTE)), "0x7c00 true"},
		{"1e6 -> half rtz", hb(convert.ToChecked[half.Half](float32(1e6), round.RTZ)), "0x7bff true"},
		{"65519 -> half rte", hb(convert.ToChecked[half.Half](float32(65519), round.RTE)), "0x7bff false"},
		{"65520 -> half rte", hb(convert.ToChecked[half.Half](float32(65520), round.RTE)), "0x7c00 true"},
		{"65535 -> half rtz", hb(convert.ToChecked[half.Half](float32(65535), round.RTZ)), "0x7bff false"},
		{"65536 -> half rtz", hb(convert.ToChecked[half.Half](float32(65536), round.RTZ)), "0x7bff true"},
		{"-65535 -> half rtp", hb(convert.ToChecked[half.Half](float32(-65535), round.RTP)), "0xfbff false"},
		{"65505 -> half rtp", hb(convert.ToChecked[half.Half](float32(65505), round.RTP)), "0x7c00 true"},
		{"(ushort)65535 -> half rte", hb(convert.ToChecked[half.Half](uint16(65535), round.RTE)), "0x7c00 true"},
		{"inf -> half", hb(convert.ToChecked[half.Half](float32(math.Inf(-1)), round.RTE)), "0xfc00 false"},
		// The NaN by its bits: Go's float32(math.NaN()) is the hardware's
		// conversion, which gives MIPS's legacy default NaN 0x7fbfffff there.
		{"NaN -> half", hb(convert.ToChecked[half.Half](math.Float32frombits(0x7fc00000), round.RTE)), "0x7e00 false"},
		{"1e-10 -> half (underflow)", hb(convert.ToChecked[half.Half](1e-10, round.RTE)), "0x0000 false"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, c.got, c.want)
		}
	}
	if v, err := convert.ToChecked[float32](math.NaN(), round.RTE); err != nil || v == v {
		t.Errorf("NaN -> float: %v, %v; want NaN and no error", v, err)
	}
	if _, err := convert.ToChecked[float32](math.MaxFloat64, round.RTZ); err == nil {
		t.Error("DBL_MAX -> float rtz: no error")
	}
	if v, err := convert.ToChecked[float32](-math.MaxFloat32*(1+0x1p-25), round.RTP); err != nil || v != -math.MaxFloat32 {
		t.Errorf("just below -FLT_MAX -> float rtp: %v, %v; want -FLT_MAX without an error", v, err)
	}
}

func TestRangeErrorMessages(t *testing.T) {
	_, err := convert.ToChecked[int8](float32(300), round.RTZ)
	want := "convert: float 300 is too large for char (max 127) in rtz"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	dst := make([]int8, 8)
	_, err = convert.SliceChecked(dst, []float32{0, 1, 2, 3, 4, float32(math.NaN()), 6, 7}, round.RTE)
	want = "convert: element 5: float NaN has no char value (1 of 8 elements fails)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{second(convert.ToChecked[half.Half](float32(1e6), round.RTZ)), "convert: float 1e+06 overflows half (max 65504) in rtz"},
		{second(convert.ToChecked[uint8](int32(-5), round.RTE)), "convert: int -5 is too small for uchar (min 0)"},
		{second(convert.ToChecked[int32](math.Inf(-1), round.RTN)), "convert: double -Inf is too small for int (min -2147483648) in rtn"},
		{second(convert.ToChecked[uint64](float32(-0.75), round.RTN)), "convert: float -0.75 is too small for ulong (min 0) in rtn"},
		{second(convert.ToChecked[half.Half](uint32(70000), round.RTE)), "convert: uint 70000 overflows half (max 65504) in rte"},
		{second(convert.ToChecked[float32](1e300, round.RTE)), "convert: double 1e+300 overflows float (max 3.4028235e+38) in rte"},
	} {
		if c.err == nil || c.err.Error() != c.want {
			t.Errorf("got %v, want %s", c.err, c.want)
		}
	}
	if s := fmt.Sprint(convert.CauseNaN, convert.CauseTooLarge, convert.CauseTooSmall, convert.CauseOverflow, convert.Cause(0)); s != "NaN too large too small overflow Cause(0)" {
		t.Errorf("Cause strings: %s", s)
	}
	if errors.Is(errors.New("other"), convert.ErrRange) || !errors.Is(fmt.Errorf("wrapped: %w", err), convert.ErrRange) {
		t.Error("errors.Is and ErrRange disagree")
	}
}

func second[T any](_ T, err error) error { return err }

// TestSliceCheckedTiers puts each input, alone among zeros, at a position that
// moves through the blocks of the SIMD kernels and their Go tail, and
// requires SliceChecked to report it exactly when ToChecked does, in every
// SIMD tier: the range scans must agree with the scalar check on every 8-
// and 16-bit source value and on the edges, the boundary candidates and
// random values of the wider ones.
// scannedPairs are the conversions whose SliceChecked starts with a SIMD
// range scan (internal/gen's scanPairs that can fail).
var scannedPairs = map[kernels.Pair]bool{
	{Src: cltype.Float, Dst: cltype.Char}: true, {Src: cltype.Float, Dst: cltype.Uchar}: true,
	{Src: cltype.Float, Dst: cltype.Short}: true, {Src: cltype.Float, Dst: cltype.Ushort}: true,
	{Src: cltype.Float, Dst: cltype.Int}: true, {Src: cltype.Float, Dst: cltype.Uint}: true,
	{Src: cltype.Float, Dst: cltype.Half}: true, {Src: cltype.Double, Dst: cltype.Float}: true,
	{Src: cltype.Double, Dst: cltype.Int}: true, {Src: cltype.Double, Dst: cltype.Uint}: true,
	{Src: cltype.Int, Dst: cltype.Char}: true, {Src: cltype.Int, Dst: cltype.Uchar}: true,
	{Src: cltype.Int, Dst: cltype.Short}: true, {Src: cltype.Int, Dst: cltype.Ushort}: true,
}

func TestSliceCheckedTiers(t *testing.T) {
	nRandom := 5000
	if testing.Short() {
		nRandom = 1000
	}
	for _, p := range kernels.SIMDPairs() {
		if !scannedPairs[p] {
			continue // no scan kernels: TestRandomChecked checks their SliceChecked
		}
		tp := typedPair(p.Src, p.Dst)
		cands := checkCandidates(p.Src, p.Dst)
		if !slices.ContainsFunc(cands, func(v uint64) bool { _, err := tp.toChecked(v, round.RTE); return err != nil }) {
			continue // never fails: SliceChecked is SliceSat (TestCheckedTable)
		}
		vals := append(simdInputs(p.Src, nRandom), cands...)
		t.Run(fmt.Sprintf("%s-%s", p.Src, p.Dst), func(t *testing.T) {
			forTiers(t, func(t *testing.T) {
				for _, m := range round.Modes {
					tp.scan(t, vals, m)
				}
			})
		})
	}
}

// TestSliceCheckedChunks places one bad value before, at and after the
// boundaries of SliceChecked's chunks and at the very end of a long slice.
func TestSliceCheckedChunks(t *testing.T) {
	const n = 3*4096 + 77
	src := make([]float32, n)
	for i := range src {
		src[i] = float32(i%200) + 0.25
	}
	for _, at := range []int{0, 1, 63, 64, 4095, 4096, 4097, 8191, 8192, 3 * 4096, n - 1} {
		s := slices.Clone(src)
		s[at] = 300
		dst := make([]uint8, n)
		k, err := convert.SliceChecked(dst, s, round.RTE)
		var re *convert.RangeError
		if k != n || !errors.As(err, &re) || re.Index != at || re.Value != float32(300) {
			t.Errorf("bad value at %d: %d, %v", at, k, err)
		}
		for i, x := range s {
			if want := convert.ToSat[uint8](x, round.RTE); dst[i] != want {
				t.Fatalf("bad value at %d: dst[%d] = %d, want %d", at, i, dst[i], want)
			}
		}
	}
}

// SliceChecked reports the source value even when dst is src's memory.
func TestSliceCheckedInPlace(t *testing.T) {
	buf := make([]float32, 1000)
	for i := range buf {
		buf[i] = float32(i) - 0.5
	}
	buf[700] = 3e9
	ints := unsafe.Slice((*int32)(unsafe.Pointer(&buf[0])), len(buf))
	_, err := convert.SliceChecked(ints, buf, round.RTE)
	var re *convert.RangeError
	if !errors.As(err, &re) || re.Index != 700 || re.Value != float32(3e9) || re.Cause != convert.CauseTooLarge {
		t.Fatalf("in place: %v", err)
	}
	if ints[1] != 0 || ints[2] != 2 || ints[700] != math.MaxInt32 || ints[999] != 998 {
		t.Errorf("in place: %v", ints[:3])
	}
}

// Named numeric types work as their underlying types, and half.Half as half,
// next to a type defined on uint16.
type (
	Sample  uint16
	Celsius float32
	MyHalf  half.Half // underlying type uint16: ushort, not half
)

func TestNamedTypes(t *testing.T) {
	kinds := []cltype.Kind{convert.KindOf[Sample](), convert.KindOf[Celsius](), convert.KindOf[half.Half](), convert.KindOf[MyHalf](), convert.KindOf[uint16]()}
	if fmt.Sprint(kinds) != "[ushort float half ushort ushort]" {
		t.Errorf("KindOf: %v", kinds)
	}
	if got := convert.To[int16](Celsius(2.5), round.RTE); got != 2 {
		t.Errorf("To[int16](Celsius(2.5)) = %d", got)
	}
	if got := convert.To[Celsius](Sample(65535), round.RTE); got != 65535 {
		t.Errorf("To[Celsius](Sample(65535)) = %v", got)
	}
	if got := convert.To[half.Half](Sample(65535), round.RTE); got != 0x7c00 {
		t.Errorf("To[half.Half](Sample(65535)) = %#x, want inf", uint16(got))
	}
	if got := convert.To[Sample](half.FromFloat64(1000.5, round.RTE), round.RTZ); got != 1000 {
		t.Errorf("To[Sample](half 1000.5) = %d", got)
	}
	temps := []Celsius{-40, 21.5, 1e6}
	samples := make([]Sample, 3)
	halves := make([]half.Half, 3)
	convert.SliceSat(samples, temps, round.RTE)
	convert.SliceSat(halves, temps, round.RTE)
	if fmt.Sprint(samples) != "[0 22 65535]" || halves[0].Float64() != -40 || halves[1].Float64() != 21.5 || !halves[2].IsInf() {
		t.Errorf("SliceSat: %v %v", samples, halves)
	}
	_, err := convert.SliceChecked(samples, temps, round.RTE)
	var re *convert.RangeError
	if !errors.As(err, &re) || re.Index != 0 || re.Value != Celsius(-40) || re.Src != cltype.Float || re.Dst != cltype.Ushort {
		t.Errorf("SliceChecked: %v", err)
	}
	if _, err := convert.ToChecked[half.Half](Celsius(1e6), round.RTZ); !errors.Is(err, convert.ErrRange) {
		t.Errorf("ToChecked[half.Half](Celsius(1e6)) = %v", err)
	}
}

// The checked conversions allocate only for an error.
func TestCheckedAllocations(t *testing.T) {
	src := make([]float32, 10000)
	dst := make([]uint8, len(src))
	if a := testing.AllocsPerRun(100, func() {
		if _, err := convert.SliceChecked(dst, src, round.RTE); err != nil {
			t.Fatal(err)
		}
		if _, err := convert.ToChecked[half.Half](src[7], round.RTZ); err != nil {
			t.Fatal(err)
		}
	}); a != 0 {
		t.Errorf("%v allocations per run, want 0", a)
	}
}

func TestRandomChecked(t *testing.T) {
	// Random inputs of every pair through ToChecked and the oracle.
	r := rand.New(rand.NewPCG(3, 3))
	n := 2000
	if testing.Short() {
		n = 300
	}
	for _, src := range cltype.Scalars {
		vals := make([]uint64, n)
		for i := range vals {
			vals[i] = testvals.Random(r, src)
		}
		for _, dst := range cltype.Scalars {
			tp := typedPair(src, dst)
			for _, m := range round.Modes {
				for _, v := range vals {
					_, err := tp.toChecked(v, m)
					want := oracleCause(src, dst, v, m)
					var re *convert.RangeError
					if want == 0 && err != nil || want != 0 && (!errors.As(err, &re) || re.Cause != want) {
						t.Fatalf("ToChecked[%s](%s %#x) in %s: %v, want cause %v", dst, src, v, m, err, want)
					}
				}
			}
		}
	}
}
