package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// chunkElems is about how many elements a worker converts at a time.
const chunkElems = 1 << 17

// readAll reads a small tensor (a scale) as float64 values, exactly.
func readAll(s source) ([]float64, error) {
	t := s.t
	raw := make([]byte, t.Bytes())
	if _, err := s.f.Section(t).ReadAt(raw, 0); err != nil && !(err == io.EOF && len(raw) == 0) {
		return nil, tensorErr(t.Name, &fileconv.ReadError{Err: err})
	}
	return toFloat64(t, raw)
}

// toFloat64 decodes raw little-endian elements of t's dtype into float64
// values, exactly (every floating dtype but F64 widens exactly; F64 is
// copied).
func toFloat64(t *safetensors.TensorInfo, raw []byte) ([]float64, error) {
	k := t.DType.Kind()
	n := len(raw) / k.Size()
	le := make([]byte, 8*n)
	if err := convert.Bytes(cltype.Double, k, le, raw, round.RTE, false); err != nil {
		return nil, tensorErr(t.Name, err)
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(le[8*i:]))
	}
	return out, nil
}

// fp8Values returns the float64 value of every pattern of an FP8 dtype.
func fp8Values(d safetensors.DType) *[256]float64 {
	f := minifloat.E4M3
	if d == safetensors.F8_E5M2 {
		f = minifloat.E5M2
	}
	var lut [256]float64
	for b := range lut {
		lut[b] = math.Float64frombits(minifloat.ToFloat64Bits(f, uint64(b)))
	}
	return &lut
}

// encodeTo rounds float64 values once into opt.To and returns the
// little-endian output bytes.
func encodeTo(vals []float64, to cltype.Kind, m round.Mode, sat bool) ([]byte, error) {
	le := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(le[8*i:], math.Float64bits(v))
	}
	out := make([]byte, len(vals)*to.Size())
	if err := convert.Bytes(to, cltype.Double, out, le, m, sat); err != nil {
		return nil, err
	}
	return out, nil
}

// dequantFP8 writes an FP8 weight times its block scales, each product
// rounded once into opt.To. The product of an FP8 value (at most 4
// significant bits) and an F32/BF16/F16 scale (at most 24) has at most 28
// significant bits and an exponent within float64's normal range (2^-158 at
// the least), so it is exact in float64 and the conversion to the
// destination is the only rounding.
func dequantFP8(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	w := j.src.t
	rows, cols := w.Shape[0], w.Shape[1]
	scales, err := readAll(j.scale)
	if err != nil {
		return err
	}
	br, bc := int64(j.block[0]), int64(j.block[1])
	scaleCols := ceilDiv(cols, bc)
	lut := fp8Values(w.DType)
	size := int64(opt.To.Size())
	rowsPer := max(1, chunkElems/max(cols, 1))
	n := int(ceilDiv(rows, rowsPer))
	sec := j.src.f.Section(w)
	return parallel(ctx, n, opt, func(c int) error {
		r0 := int64(c) * rowsPer
		r1 := min(rows, r0+rowsPer)
		raw := make([]byte, (r1-r0)*cols)
		if _, err := sec.ReadAt(raw, r0*cols); err != nil {
			return tensorErr(w.Name, &fileconv.ReadError{Err: err})
		}
		vals := make([]float64, len(raw))
		for r := r0; r < r1; r++ {
			srow := scales[(r/br)*scaleCols:]
			off := (r - r0) * cols
			for col := int64(0); col < cols; col++ {
				vals[off+col] = product(lut[raw[off+col]], srow[col/bc])
			}
		}
		out, err := encodeTo(vals, opt.To, opt.Mode, opt.Sat)
		if err != nil {
			return tensorErr(w.Name, err)
		}
		if _, err := dst.WriteAt(out, base+j.out.Begin+r0*cols*size); err != nil {
			return &fileconv.WriteError{Err: err}
		}
		return nil
	})
}

// canonicalNaN is the quiet NaN that 0 x inf gives, the same on every
// port (hardware gives 0xfff8... on amd64 and 0x7ff8... on arm64 and
// riscv64; docs/PORTS.md, rule 3).
var canonicalNaN = math.Float64frombits(0x7ff8000000000000)

// product returns v*s, with a NaN operand passed through by its bits (the
// hardware would set or keep bits by its own rules, differently on mips and
// riscv64) and 0 x inf giving canonicalNaN.
func product(v, s float64) float64 {
	switch {
	case v != v:
		return v
	case s != s:
		return s
	}
	p := v * s
	if p != p {
		return canonicalNaN
	}
	return p
}

// fp8Max returns the largest finite value of the FP8 destination.
func fp8Max(k cltype.Kind) float64 {
	f := minifloat.OfKind(k)
	return math.Float64frombits(minifloat.ToFloat64Bits(f, f.MaxBits()))
}

// BlockScale returns the float32 scale clconv gives a block whose largest
// magnitude is amax when quantizing to a format of largest finite value
// max: amax / max rounded up to a float32, so that no element's quotient
// exceeds max; 1 for an all-zero block. It fails for an infinite amax and
// for one so large that the scale overflows float32.
func BlockScale(amax, max float64) (float32, error) {
	switch {
	case math.IsInf(amax, 0) || math.IsNaN(amax):
		return 0, fmt.Errorf("the block holds %v: no finite scale", amax)
	case amax == 0:
		return 1, nil
	}
	q := amax / max
	// q is amax/max rounded to nearest; the exact quotient lies above q
	// when q*max < amax, which the fused multiply-add tells exactly.
	if math.FMA(q, max, -amax) < 0 {
		q = math.Nextafter(q, math.Inf(1))
	}
	s := convert.To[float32](q, round.RTP)
	if math.IsInf(float64(s), 0) {
		return 0, fmt.Errorf("its largest magnitude %g needs a scale beyond float32", amax)
	}
	return s, nil
}

// Quotient returns x/s as a float64 that rounds to the same value as the
// exact quotient in every mode, to any format whose rounding boundaries (its
// values and the midpoints between them) have at most 5 significant bits:
// the FP8 formats and every smaller one. x/s rounded to nearest can land on
// such a boundary while the exact quotient lies just off it; the fused
// multiply-add tells on which side, and the result is moved one unit
// toward it, off the boundary and onto the exact quotient's side.
func Quotient(x, s float64) float64 {
	if x != x {
		return x // by its bits, not through the hardware's NaN rules
	}
	q := x / s
	if math.IsNaN(q) || math.IsInf(q, 0) || math.Float64bits(q)&(1<<48-1) != 0 {
		return q // not on a boundary (more than 5 significant bits)
	}
	r := math.FMA(q, s, -x) // the sign of q*s - x, exactly
	switch {
	case r == 0:
		return q
	case (r > 0) == (s > 0):
		return math.Nextafter(q, math.Inf(-1)) // q is above the exact quotient
	}
	return math.Nextafter(q, math.Inf(1))
}

// quantFP8 quantizes a two-dimensional tensor to FP8 with one float32 scale
// per block (BlockScale), each element the exact quotient rounded once.
func quantFP8(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	t := j.src.t
	sj := j.quantScale
	rows, cols := t.Shape[0], t.Shape[1]
	br, bc := int64(j.block[0]), int64(j.block[1])
	scaleCols := ceilDiv(cols, bc)
	max := fp8Max(opt.To)
	esize := int64(t.DType.Bits() / 8)
	sec := j.src.f.Section(t)
	n := int(ceilDiv(rows, br))
	return parallel(ctx, n, opt, func(bi int) error {
		r0 := int64(bi) * br
		r1 := min(rows, r0+br)
		raw := make([]byte, (r1-r0)*cols*esize)
		if _, err := sec.ReadAt(raw, r0*cols*esize); err != nil {
			return tensorErr(t.Name, &fileconv.ReadError{Err: err})
		}
		vals, err := toFloat64(t, raw)
		if err != nil {
			return err
		}
		scales := make([]byte, 4*scaleCols)
		for bj := int64(0); bj < scaleCols; bj++ {
			c0, c1 := bj*bc, min(cols, (bj+1)*bc)
			amax := 0.0
			for r := int64(0); r < r1-r0; r++ {
				for _, v := range vals[r*cols+c0 : r*cols+c1] {
					if a := math.Abs(v); a > amax || math.IsInf(v, 0) {
						amax = a
					}
				}
			}
			s, err := BlockScale(amax, max)
			if err != nil {
				return tensorErr(t.Name, dataErrorf("block (%d, %d): %v", bi, bj, err))
			}
			binary.LittleEndian.PutUint32(scales[4*bj:], math.Float32bits(s))
			s64 := float64(s)
			for r := int64(0); r < r1-r0; r++ {
				row := vals[r*cols+c0 : r*cols+c1]
				for i, v := range row {
					row[i] = Quotient(v, s64)
				}
			}
		}
		out, err := encodeTo(vals, opt.To, opt.Mode, opt.Sat)
		if err != nil {
			return tensorErr(t.Name, err)
		}
		if _, err := dst.WriteAt(out, base+j.out.Begin+r0*cols); err != nil {
			return &fileconv.WriteError{Err: err}
		}
		if _, err := dst.WriteAt(scales, base+sj.out.Begin+int64(bi)*scaleCols*4); err != nil {
			return &fileconv.WriteError{Err: err}
		}
		return nil
	})
}
