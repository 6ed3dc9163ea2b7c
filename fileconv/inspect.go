package fileconv

import (
	"context"
	"io"
	"math"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/floatfmt"
	"github.com/clconv/clconv/value"
)

// Value is one element: its kind and bit pattern (zero-extended).
type Value struct {
	Kind cltype.Kind
	Bits uint64
}

// String formats v: integers in decimal; half, bfloat16 and the 8-bit and
// smaller formats in their exact value ("65504", not half's shortest
// "65500"; e8m0's longest as a hex float, "0x1p-127"); float and double in
// the shortest decimal that reads back to the same value (their exact
// decimals run to hundreds of digits); "inf", "-inf", "nan".
func (v Value) String() string {
	k := v.Kind
	if k == cltype.Half || k == cltype.BFloat16 {
		if f := v.Float64(); !math.IsInf(f, 0) && f == f {
			return string(floatfmt.AppendExact(nil, f))
		}
	}
	// The 8-bit and smaller formats print their exact values already.
	return string(value.AppendScalar(nil, v.Bits, v.Kind))
}

// Float64 returns v as a float64 (exact for every floating kind and for
// integers below 2^53 in magnitude).
func (v Value) Float64() float64 {
	k := v.Kind
	switch k {
	case cltype.Half:
		return half.FromBits(uint16(v.Bits)).Float64()
	case cltype.BFloat16:
		return bfloat16.FromBits(uint16(v.Bits)).Float64()
	case cltype.E4M3:
		return fp8.E4M3(v.Bits).Float64()
	case cltype.E5M2:
		return fp8.E5M2(v.Bits).Float64()
	case cltype.E2M1:
		return fp4.E2M1(v.Bits).Float64()
	case cltype.E2M3:
		return fp6.E2M3(v.Bits).Float64()
	case cltype.E3M2:
		return fp6.E3M2(v.Bits).Float64()
	case cltype.E8M0:
		return fp8.E8M0(v.Bits).Float64()
	case cltype.E4M3FNUZ:
		return fp8.E4M3FNUZ(v.Bits).Float64()
	case cltype.E5M2FNUZ:
		return fp8.E5M2FNUZ(v.Bits).Float64()
	case cltype.Float:
		return float64(math.Float32frombits(uint32(v.Bits)))
	case cltype.Double:
		return math.Float64frombits(v.Bits)
	case cltype.Ulong:
		return float64(v.Bits)
	}
	sh := 64 - k.Bits()
	if k.IsSigned() {
		return float64(int64(v.Bits<<sh) >> sh)
	}
	return float64(v.Bits)
}

// less reports whether a < b (same kind; no NaNs), ordering -0 before +0.
func less(a, b Value) bool {
	k := a.Kind
	switch {
	case k.IsFloating():
		x, y := a.Float64(), b.Float64()
		return x < y || x == y && math.Signbit(x) && !math.Signbit(y)
	case k.IsSigned():
		sh := 64 - k.Bits()
		return int64(a.Bits<<sh)>>sh < int64(b.Bits<<sh)>>sh
	}
	return a.Bits < b.Bits
}

// Summary describes an array's contents: Inspect's result.
type Summary struct {
	Info
	Bytes    int64 // input bytes (header included)
	NaN      int64 // NaN elements
	PosInf   int64 // +inf elements
	NegInf   int64 // -inf elements
	HasRange bool  // Min and Max are set: some element is not NaN
	Min, Max Value // least and greatest non-NaN elements
}

// summary is the per-chunk part of a Summary.
type summary struct {
	nan, posInf, negInf int64
	has                 bool
	min, max            Value
}

func (s *summary) merge(o *summary) {
	s.nan += o.nan
	s.posInf += o.posInf
	s.negInf += o.negInf
	if !o.has {
		return
	}
	if !s.has || less(o.min, s.min) {
		s.min = o.min
	}
	if !s.has || less(s.max, o.max) {
		s.max = o.max
	}
	s.has = true
}

func scanInts[T integer](s *summary, k cltype.Kind, b []byte, n int) {
	v := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	lo, hi := v[0], v[0]
	for _, x := range v[1:] {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	s.has = true
	s.min = Value{k, uint64(lo) & k.Mask()}
	s.max = Value{k, uint64(hi) & k.Mask()}
}

// scanFloats summarises floating elements through their exact float64 values
// (at reads element i) and bit patterns (bitsAt).
func scanFloats(s *summary, k cltype.Kind, n int, at func(i int) float64, bitsAt func(i int) uint64) {
	lo, hi := -1, -1
	var fl, fh float64
	for i := range n {
		x := at(i)
		switch {
		case x != x:
			s.nan++
			continue
		case math.IsInf(x, 1):
			s.posInf++
		case math.IsInf(x, -1):
			s.negInf++
		}
		if lo < 0 || x < fl || x == fl && math.Signbit(x) && !math.Signbit(fl) {
			lo, fl = i, x
		}
		if hi < 0 || x > fh || x == fh && !math.Signbit(x) && math.Signbit(fh) {
			hi, fh = i, x
		}
	}
	if lo >= 0 {
		s.has = true
		s.min = Value{k, bitsAt(lo)}
		s.max = Value{k, bitsAt(hi)}
	}
}

// scanIEEE summarises elements of an IEEE 754 layout (half, bfloat16,
// float, double) given as their bits, from the bits alone:
// x ^ (x>>(b-1) &^ sign), read as a signed integer, orders the patterns as
// their values, -0 before +0 (the two's complement of the sign-magnitude
// form), with infinities beyond every finite value and NaNs beyond them. A
// group of elements is summarised with no branch (keyRange: a min and a max
// a key); only a group whose least or greatest key is an infinity's or a
// NaN's is looked at again, element by element, to count those.
func scanIEEE[T int16 | int32 | int64](s *summary, k cltype.Kind, v []T) {
	const group = 64
	bits := 8 * unsafe.Sizeof(T(0))
	sign := T(-1) << (bits - 1)
	inf := T(nonFiniteMask(k))
	lo, hi := ^sign, sign // over the groups done
	for g := 0; g < len(v); g += group {
		w := v[g:min(g+group, len(v))]
		glo, ghi := keyRange(w)
		if glo > ieeeKey(sign|inf) && ghi < inf {
			lo, hi = min(lo, glo), max(hi, ghi)
			continue
		}
		var nan, posInf, negInf int64
		for _, x := range w {
			// A NaN is in neither: its keys become lo's and hi's starts.
			isNaN := b2i(x&^sign > inf)
			m := T(-isNaN)
			kx := ieeeKey(x)
			lo, hi = min(lo, kx^(kx^^sign)&m), max(hi, kx^(kx^sign)&m)
			nan += isNaN
			posInf += b2i(x == inf)
			negInf += b2i(x == sign|inf)
		}
		s.nan, s.posInf, s.negInf = s.nan+nan, s.posInf+posInf, s.negInf+negInf
	}
	if lo <= hi { // some element is not NaN
		s.has = true
		// ieeeKey is its own inverse.
		s.min = Value{k, uint64(ieeeKey(lo)) & k.Mask()}
		s.max = Value{k, uint64(ieeeKey(hi)) & k.Mask()}
	}
}

// keyRange returns the least and greatest ieeeKey of the elements of w (at
// least one).
func keyRange[T int16 | int32 | int64](w []T) (lo, hi T) {
	// Four pairs of accumulators, so that each min and max waits for the
	// one four elements before it.
	lo0, hi0 := ieeeKey(w[0]), ieeeKey(w[0])
	lo1, lo2, lo3, hi1, hi2, hi3 := lo0, lo0, lo0, hi0, hi0, hi0
	var quads [][4]T
	if len(w) >= 4 { // a *[4]T must point at four elements (checkptr)
		quads = unsafe.Slice((*[4]T)(unsafe.Pointer(unsafe.SliceData(w))), len(w)/4)
	}
	for i := range quads {
		q := &quads[i]
		k0, k1, k2, k3 := ieeeKey(q[0]), ieeeKey(q[1]), ieeeKey(q[2]), ieeeKey(q[3])
		lo0, hi0 = min(lo0, k0), max(hi0, k0)
		lo1, hi1 = min(lo1, k1), max(hi1, k1)
		lo2, hi2 = min(lo2, k2), max(hi2, k2)
		lo3, hi3 = min(lo3, k3), max(hi3, k3)
	}
	for _, x := range w[len(quads)*4:] {
		lo0, hi0 = min(lo0, ieeeKey(x)), max(hi0, ieeeKey(x))
	}
	return min(lo0, lo1, lo2, lo3), max(hi0, hi1, hi2, hi3)
}

// ieeeKey returns scanIEEE's key of the bits x; it is its own inverse.
func ieeeKey[T int16 | int32 | int64](x T) T {
	sh := 8*unsafe.Sizeof(x) - 1
	return x ^ (x >> sh &^ (T(-1) << sh))
}

// scan summarises the n elements of kind k in b, which hold them in the
// host's byte order (Inspect swaps little- or big-endian input to it first).
func (s *summary) scan(k cltype.Kind, b []byte, n int) {
	if n == 0 {
		return
	}
	p := unsafe.Pointer(unsafe.SliceData(b))
	switch k {
	case cltype.Char:
		scanInts[int8](s, k, b, n)
	case cltype.Uchar:
		scanInts[uint8](s, k, b, n)
	case cltype.Short:
		scanInts[int16](s, k, b, n)
	case cltype.Ushort:
		scanInts[uint16](s, k, b, n)
	case cltype.Int:
		scanInts[int32](s, k, b, n)
	case cltype.Uint:
		scanInts[uint32](s, k, b, n)
	case cltype.Long:
		scanInts[int64](s, k, b, n)
	case cltype.Ulong:
		scanInts[uint64](s, k, b, n)
	case cltype.Half, cltype.BFloat16:
		scanIEEE(s, k, unsafe.Slice((*int16)(p), n))
	case cltype.Float:
		scanIEEE(s, k, unsafe.Slice((*int32)(p), n))
	case cltype.Double:
		scanIEEE(s, k, unsafe.Slice((*int64)(p), n))
	case cltype.E4M3:
		v := unsafe.Slice((*fp8.E4M3)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i]) })
	case cltype.E5M2:
		v := unsafe.Slice((*fp8.E5M2)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i]) })
	case cltype.E2M1:
		v := unsafe.Slice((*fp4.E2M1)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i].Bits()) })
	case cltype.E2M3:
		v := unsafe.Slice((*fp6.E2M3)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i].Bits()) })
	case cltype.E3M2:
		v := unsafe.Slice((*fp6.E3M2)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i].Bits()) })
	case cltype.E8M0:
		v := unsafe.Slice((*fp8.E8M0)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i]) })
	case cltype.E4M3FNUZ:
		v := unsafe.Slice((*fp8.E4M3FNUZ)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i]) })
	case cltype.E5M2FNUZ:
		v := unsafe.Slice((*fp8.E5M2FNUZ)(p), n)
		scanFloats(s, k, n, func(i int) float64 { return v[i].Float64() }, func(i int) uint64 { return uint64(v[i]) })
	}
}

// InspectOptions configure Inspect.
type InspectOptions struct {
	From       cltype.Kind // element type of raw input (see Options.From)
	In         Format      // input format (FormatAuto detects .npy)
	Workers    int         // goroutines (0: GOMAXPROCS)
	ChunkBytes int         // chunk size (0: DefaultChunkBytes)
	Progress   func(done, total int64)
	Size       int64 // input size when known and src is not an *os.File
}

// Inspect reads the array in src and returns its description and the range
// of its values. Like Convert it streams in constant memory on all cores, and
// it reports the same errors for bad input.
func Inspect(ctx context.Context, src io.Reader, opt InspectOptions) (*Summary, error) {
	in, err := openInput(src, opt.In, opt.From, opt.Size)
	if err != nil {
		return nil, err
	}
	k := in.info.Kind
	sum := &Summary{Info: in.info, Bytes: in.info.DataOffset}
	var all summary
	var count int64
	p := &pipeline{
		in:         in,
		workers:    opt.Workers,
		chunkElems: chunkElems(opt.ChunkBytes, k.Size(), 0),
		ssize:      k.Size(),
		work: func(c *chunk) {
			if in.info.BigEndian != byteorder.BigEndian {
				// scan reads the elements in the host's byte order.
				byteorder.Swap(c.src, k.Size())
			}
			c.sum = summary{}
			c.sum.scan(k, c.src, c.n)
		},
		sink: func(c *chunk) error {
			all.merge(&c.sum)
			count += int64(c.n)
			sum.Bytes = c.done
			if opt.Progress != nil {
				opt.Progress(c.done, in.total)
			}
			return nil
		},
	}
	if err := p.run(ctx); err != nil {
		return nil, err
	}
	if sum.Count < 0 {
		sum.Count, sum.Shape = count, []int64{count}
	}
	sum.NaN, sum.PosInf, sum.NegInf = all.nan, all.posInf, all.negInf
	sum.HasRange, sum.Min, sum.Max = all.has, all.min, all.max
	return sum, nil
}
