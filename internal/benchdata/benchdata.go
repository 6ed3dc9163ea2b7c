// Package benchdata holds what clconv's two speed measurements share: the
// benchmarks of package convert (go test -bench) and clconv bench. Both
// convert the same inputs in the same variants and compare with a copy split
// the same way, so their figures can be set side by side.
package benchdata

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// Input returns n elements of kind k, the same on every call: normally
// distributed values around 0 with a spread of 1000 (in and out of the 8- and
// 16-bit ranges), scaled by 1e5 for int and uint and by 1e15 for long and
// ulong (so that most of these round to float and double in every mode).
func Input(k cltype.Kind, n int) []byte {
	b := make([]byte, n*k.Size())
	r := rand.New(rand.NewPCG(1, 2))
	p := unsafe.Pointer(unsafe.SliceData(b))
	for i := range n {
		x := r.NormFloat64() * 1000
		switch k.Size() {
		case 1:
			*(*int8)(unsafe.Add(p, i)) = int8(int(x))
		case 2:
			v := int16(x)
			if k == cltype.Half {
				v = int16(half.FromFloat64(x, round.RTE))
			}
			*(*int16)(unsafe.Add(p, 2*i)) = v
		case 4:
			v := uint32(int32(x * 1e5))
			if k == cltype.Float {
				v = math.Float32bits(float32(x))
			}
			*(*uint32)(unsafe.Add(p, 4*i)) = v
		default:
			v := uint64(int64(x * 1e15))
			if k == cltype.Double {
				v = math.Float64bits(x)
			}
			*(*uint64)(unsafe.Add(p, 8*i)) = v
		}
	}
	return b
}

// Variant is one benchmarked form of a conversion.
type Variant struct {
	Short string     // "rte", "sat-rtz", "exact", "wrap", "sat"
	Mode  round.Mode // the rounding mode (RTE where nothing rounds)
	Sat   bool
	// Rounds is set for float destinations and float -> integer, where the
	// mode is part of the OpenCL name.
	Rounds bool
}

// Name is the variant's OpenCL function for destination dst
// ("convert_uchar_sat_rte").
func (v Variant) Name(dst cltype.Kind) string {
	r := convert.NoSuffix
	if v.Rounds {
		r = convert.SuffixOf(v.Mode)
	}
	return convert.Op{Dst: cltype.Scalar(dst), Sat: v.Sat, Round: r}.Name()
}

// Variants lists the forms of src -> dst worth measuring: integer narrowing
// wrapped and saturated, exact conversions once, and everything that rounds
// in every mode (and with _sat for integer destinations).
func Variants(src, dst cltype.Kind) []Variant {
	switch {
	case src.IsInteger() && dst.IsInteger():
		if src.Size() < dst.Size() {
			return []Variant{{Short: "exact"}}
		}
		return []Variant{{Short: "wrap"}, {Short: "sat", Sat: true}}
	case src.IsInteger() && src.Size() <= 2, src == cltype.Half:
		return []Variant{{Short: "exact"}} // exact in every mode
	}
	var vs []Variant
	for _, sat := range []bool{false, true} {
		if sat && dst.IsFloat() {
			continue
		}
		for _, m := range round.Modes {
			short := m.String()
			if sat {
				short = "sat-" + short
			}
			vs = append(vs, Variant{Short: short, Mode: m, Sat: sat, Rounds: true})
		}
	}
	return vs
}

// ParallelCopy copies src to dst in GOMAXPROCS parts at once, as
// convert.BytesParallel splits its work.
func ParallelCopy(dst, src []byte) {
	w := runtime.GOMAXPROCS(0)
	part := (len(src)/w + 63) &^ 63
	var wg sync.WaitGroup
	for lo := 0; lo < len(src); lo += part {
		hi := min(lo+part, len(src))
		wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
	}
	wg.Wait()
}
