package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// chunkElems is about how many elements a worker converts at a time. Every
// loop of the package works on pieces of at most chunkElems elements (and
// the scale values they use), a part of a row when a row is longer, so that
// memory is bounded by the workers times the buffers of one piece whatever
// the shapes, the block size or the number of tensors.
var chunkElems int64 = 1 << 17 // a variable so that tests can shrink it

// scratch holds one worker's buffers, reused from piece to piece and from
// tensor to tensor (scratchPool).
type scratch struct {
	b    [6][]byte
	f64  []float64
	aux  []float64
	nan  []bool
	coef []blockCoef
	f32  []float32
	hf   []half.Half
	bf   []bfloat16.BFloat16
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// buf returns buffer i resized to n bytes, aligned to 8 as convert.Bytes
// needs for every element type.
func (s *scratch) buf(i int, n int64) []byte {
	if int64(len(s.b[i])) < n {
		w := make([]uint64, (n+7)/8)
		s.b[i] = unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
	}
	return s.b[i][:n]
}

// grow returns *p resized to n elements, reallocated only when too small.
func grow[T any](p *[]T, n int64) []T {
	if int64(cap(*p)) < n {
		*p = make([]T, n)
	}
	return (*p)[:n]
}

// piece is what a worker converts at once of a tensor seen as rows x cols:
// whole rows [r0, r1) (c0 = 0, c1 = cols), or the columns [c0, c1) of row
// r0 (r1 = r0+1) when a row is longer than chunkElems.
type piece struct{ r0, r1, c0, c1 int64 }

// len returns the number of elements of p.
func (p piece) len() int64 { return (p.r1 - p.r0) * (p.c1 - p.c0) }

// start returns the index of p's first element in the flat tensor; p's
// elements follow it contiguously.
func (p piece) start(cols int64) int64 { return p.r0*cols + p.c0 }

// rowPieces splits rows x cols elements into pieces of at most chunkElems
// elements (at least one row, or unit columns): whole rows while a row
// fits, else parts of one row starting at multiples of unit, the number of
// elements that must stay together (a block).
type rowPieces struct{ rows, cols, rowsPer, colsPer, perRow int64 }

func splitRows(rows, cols, unit int64) rowPieces {
	p := rowPieces{rows: rows, cols: cols}
	switch {
	case rows <= 0 || cols <= 0:
	case cols <= chunkElems:
		p.rowsPer = chunkElems / cols
	default:
		p.colsPer = max(unit, chunkElems/unit*unit)
		p.perRow = ceilDiv(cols, p.colsPer)
	}
	return p
}

// n returns the number of pieces.
func (p rowPieces) n() int {
	switch {
	case p.rowsPer > 0:
		return int(ceilDiv(p.rows, p.rowsPer))
	case p.colsPer > 0:
		return int(p.rows * p.perRow)
	}
	return 0
}

// at returns piece i.
func (p rowPieces) at(i int) piece {
	if p.rowsPer > 0 {
		r0 := int64(i) * p.rowsPer
		return piece{r0, min(p.rows, r0+p.rowsPer), 0, p.cols}
	}
	r, c := int64(i)/p.perRow, int64(i)%p.perRow
	c0 := c * p.colsPer
	return piece{r, r + 1, c0, min(p.cols, c0+p.colsPer)}
}

// readAt reads len(b) bytes of tensor s's values at offset off (for an
// encoded tensor, of the float32 values it decodes to: every kernel reads
// it as the float32 tensor it is).
func readAt(s source, b []byte, off int64) error {
	if len(b) == 0 {
		return nil
	}
	var err error
	if s.t.Codec != nil {
		_, err = decoded{s.t}.ReadAt(b, off)
	} else {
		_, err = s.t.Data.ReadAt(b, off)
	}
	if err != nil {
		return tensorErr(s.t.Name, &fileconv.ReadError{Err: err})
	}
	return nil
}

// toFloat64 decodes raw little-endian elements of kind k into out (one per
// element) exactly, every floating kind but double widening exactly and
// double copied; le is scratch of 8 bytes per element.
func toFloat64(k cltype.Kind, out []float64, le, raw []byte) error {
	if err := convert.Bytes(cltype.Double, k, le, raw, round.RTE, false); err != nil {
		return err
	}
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(le[8*i:]))
	}
	return nil
}

// encodeAcc gathers what the pieces of one tensor's encodeTo calls report:
// the finite values that became NaN or infinite (TensorReport.NonFinite),
// and with Options.Stats the statistics of rounding each exact float64
// value into the destination, as fileconv counts them.
type encodeAcc struct {
	nonFinite atomic.Int64
	stats     bool
	mu        sync.Mutex
	st        fileconv.Stats
}

// report writes what acc gathered into r.
func (a *encodeAcc) report(r *TensorReport) {
	r.NonFinite = a.nonFinite.Load()
	if a.stats {
		st := a.st
		r.Stats = &st
	}
}

// encodeTo rounds the float64 values held little-endian in le once into
// to, into out, and adds what it did to acc.
func encodeTo(out, le []byte, to cltype.Kind, m round.Mode, sat bool, acc *encodeAcc) error {
	if err := convert.Bytes(to, cltype.Double, out, le, m, sat); err != nil {
		return err
	}
	n := len(le) / 8
	if c := fileconv.CountNonFinite(to, cltype.Double, sat, out, le, n); c > 0 {
		acc.nonFinite.Add(c)
	}
	if acc.stats {
		var st fileconv.Stats
		st.Classify(to, cltype.Double, out, le, n, m, sat)
		acc.mu.Lock()
		acc.st.Add(&st)
		acc.mu.Unlock()
	}
	return nil
}

// fp8Values returns the float64 value of every pattern of an FP8 dtype
// (F8_E4M3, F8_E5M2, F8_E4M3FNUZ or F8_E5M2FNUZ; the FNUZ NaN 0x80 is NaN).
func fp8Values(d safetensors.DType) *[256]float64 {
	f := minifloat.OfKind(d.Kind())
	var lut [256]float64
	for b := range lut {
		lut[b] = math.Float64frombits(minifloat.ToFloat64Bits(f, uint64(b)))
	}
	return &lut
}

// indexString formats the index of element i of a tensor of shape shape:
// [3, 7].
func indexString(shape []int64, i int64) string {
	idx := make([]int64, len(shape))
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] > 0 {
			idx[d] = i % shape[d]
			i /= shape[d]
		}
	}
	return ShapeString(idx)
}

// badScale returns the data error for value v, element i of the scale sc of
// the weight named weight.
func badScale(weight string, sc *Tensor, i int64, v float64, rule string) error {
	at := " at " + indexString(sc.Shape, i)
	if len(sc.Shape) == 0 {
		at = ""
	}
	return tensorErr(weight, dataErrorf("its scale %q holds %v%s; %s", sc.Name, v, at, rule))
}

// fp8ScaleOK reports whether v may scale an FP8 weight: a NaN, an infinity
// or a zero would make every weight of its block NaN, infinite or zero
// without a word, and a negative one would flip every sign: no published
// layout writes one (amax / MAX is positive), so it means a corrupt scale.
func fp8ScaleOK(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

const fp8ScaleRule = "a block scale must be finite and positive"

// dequantFP8 writes an FP8 weight times its block scales, each product
// rounded once into opt.To. The product of an FP8 value (at most 4
// significant bits) and an F32/BF16/F16 scale (at most 24) has at most 28
// significant bits and an exponent within float64's normal range (2^-166 at
// the least, E5M2FNUZ's 2^-17 times 2^-149), so it is exact in float64 and the conversion to the
// destination is the only rounding. Each piece reads only the scale values
// it uses (whole scale rows, or a part of one), and checks them.
func dequantFP8(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	w, st := j.src.t, j.scale.t
	rows, cols := w.Shape[0], w.Shape[1]
	br, bc := int64(j.block[0]), int64(j.block[1])
	scaleCols := ceilDiv(cols, bc)
	ssize := int64(st.DType.Bits() / 8)
	sk := st.DType.Kind()
	lut := fp8Values(w.DType)
	size := int64(opt.To.Size())
	p := splitRows(rows, cols, 1)
	acc := &encodeAcc{stats: opt.Stats}
	defer acc.report(j.report)
	return parallel(ctx, p.n(), opt, func(s *scratch, c int) error {
		pc := p.at(c)
		n := pc.len()
		raw := s.buf(0, n)
		if err := readAt(j.src, raw, pc.start(cols)); err != nil {
			return err
		}
		// The scales of the piece: whole rows [sr0, sr1) of the scale for
		// whole rows of the weight, else a part of one scale row; either
		// way contiguous.
		sr0, sr1 := pc.r0/br, (pc.r1-1)/br+1
		sc0, sc1 := pc.c0/bc, (pc.c1-1)/bc+1
		sw := sc1 - sc0
		sn := (sr1 - sr0) * sw
		sraw := s.buf(1, sn*ssize)
		first := sr0*scaleCols + sc0
		if err := readAt(j.scale, sraw, first*ssize); err != nil {
			return err
		}
		sv := grow(&s.f64, sn)
		if err := toFloat64(sk, sv, s.buf(2, 8*sn), sraw); err != nil {
			return tensorErr(st.Name, err)
		}
		for i, v := range sv {
			if !fp8ScaleOK(v) {
				return badScale(w.Name, st, first+int64(i)/sw*scaleCols+int64(i)%sw, v, fp8ScaleRule)
			}
		}
		le := s.buf(3, 8*n)
		k := 0
		for r := pc.r0; r < pc.r1; r++ {
			srow := sv[(r/br-sr0)*sw:]
			for col := pc.c0; col < pc.c1; {
				end := min(pc.c1, (col/bc+1)*bc)
				sc := srow[col/bc-sc0]
				for _, b := range raw[k : k+int(end-col)] {
					binary.LittleEndian.PutUint64(le[8*k:], math.Float64bits(product(lut[b], sc)))
					k++
				}
				col = end
			}
		}
		out := s.buf(4, n*size)
		if err := encodeTo(out, le, opt.To, opt.Mode, opt.Sat, acc); err != nil {
			return tensorErr(w.Name, err)
		}
		return writeAt(dst, out, base+j.out.Begin+pc.start(cols)*size)
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
// A worker takes a group of blocks of one block row that fit in chunkElems
// elements together; a block larger than that is a group of its own, read
// twice in pieces: once for its largest magnitude, once to quantize.
func quantFP8(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	t := j.src.t
	sj := j.quantScale
	rows, cols := t.Shape[0], t.Shape[1]
	br, bc := int64(j.block[0]), int64(j.block[1])
	scaleCols := ceilDiv(cols, bc)
	fmax := fp8Max(opt.To)
	esize := int64(t.DType.Bits() / 8)
	size := int64(opt.To.Size())
	k := t.DType.Kind()
	g := int64(1) // blocks per group
	if br <= chunkElems && bc <= chunkElems {
		g = max(1, chunkElems/(br*bc))
	}
	groups := ceilDiv(scaleCols, g)
	n := ceilDiv(rows, br) * groups
	if rows == 0 || cols == 0 {
		n = 0
	}
	acc := &encodeAcc{stats: opt.Stats}
	defer acc.report(j.report)
	return parallel(ctx, int(n), opt, func(s *scratch, it int) error {
		bi, b0 := int64(it)/groups, int64(it)%groups*g
		b1 := min(scaleCols, b0+g)
		r0, c0 := bi*br, b0*bc
		h, w := min(rows, r0+br)-r0, min(cols, b1*bc)-c0
		tiles := splitRows(h, w, 1)
		nt := tiles.n()
		// load reads tile tp of the group (relative to r0, c0) as float64.
		load := func(tp piece) ([]float64, []byte, error) {
			n, tw := tp.len(), tp.c1-tp.c0
			raw := s.buf(0, n*esize)
			if tw == cols {
				if err := readAt(j.src, raw, (r0+tp.r0)*cols*esize); err != nil {
					return nil, nil, err
				}
			} else {
				for r := tp.r0; r < tp.r1; r++ {
					if err := readAt(j.src, raw[(r-tp.r0)*tw*esize:(r-tp.r0+1)*tw*esize], ((r0+r)*cols+c0+tp.c0)*esize); err != nil {
						return nil, nil, err
					}
				}
			}
			vals, le := grow(&s.f64, n), s.buf(1, 8*n)
			if err := toFloat64(k, vals, le, raw); err != nil {
				return nil, nil, tensorErr(t.Name, err)
			}
			return vals, le, nil
		}
		// each calls fn(b, seg) for the segments of tile tp's values that
		// lie in one block, b counted from b0.
		each := func(tp piece, vals []float64, fn func(b int64, seg []float64, at int)) {
			i := 0
			for r := tp.r0; r < tp.r1; r++ {
				for col := c0 + tp.c0; col < c0+tp.c1; {
					end := min(c0+tp.c1, (col/bc+1)*bc)
					fn(col/bc-b0, vals[i:i+int(end-col)], i)
					i += int(end - col)
					col = end
				}
			}
		}
		sv := grow(&s.aux, b1-b0) // each block's amax, then its scale
		clear(sv)
		nans := grow(&s.nan, b1-b0) // whether the block holds a NaN
		clear(nans)
		var vals []float64
		var le []byte
		for ti := range nt {
			if ti > 0 && ctx.Err() != nil {
				return context.Cause(ctx)
			}
			tp := tiles.at(ti)
			var err error
			if vals, le, err = load(tp); err != nil {
				return err
			}
			each(tp, vals, func(b int64, seg []float64, _ int) {
				amax := sv[b]
				for _, v := range seg {
					if a := math.Abs(v); a > amax || math.IsInf(v, 0) {
						amax = a
					} else if v != v {
						nans[b] = true
					}
				}
				sv[b] = amax
			})
		}
		sd := opt.Recipe.scaleDType(t.DType)
		ssize := int64(sd.Bits() / 8)
		scales := s.buf(5, ssize*(b1-b0))
		coefs := grow(&s.coef, b1-b0)
		for b := range sv {
			c, err := opt.Recipe.scale(sv[b], fmax, nans[b], t.DType)
			if err != nil {
				return tensorErr(t.Name, dataErrorf("block (%d, %d): %v", bi, b0+int64(b), err))
			}
			putScale(scales[ssize*int64(b):], sd, c.stored)
			coefs[b] = c
		}
		for ti := range nt {
			tp := tiles.at(ti)
			if nt > 1 { // the single tile of a small group is still loaded
				if ctx.Err() != nil {
					return context.Cause(ctx)
				}
				var err error
				if vals, le, err = load(tp); err != nil {
					return err
				}
			}
			each(tp, vals, func(b int64, seg []float64, at int) {
				c, r := coefs[b], opt.Recipe
				if r == RecipeExact {
					for i, v := range seg {
						binary.LittleEndian.PutUint64(le[8*(at+i):], math.Float64bits(Quotient(v, c.coef)))
					}
					return
				}
				for i, v := range seg {
					binary.LittleEndian.PutUint64(le[8*(at+i):], math.Float64bits(r.element(v, c, fmax, t.DType)))
				}
			})
			tw := tp.c1 - tp.c0
			out := s.buf(2, tp.len()*size)
			if err := encodeTo(out, le, opt.To, opt.Mode, opt.Sat, acc); err != nil {
				return tensorErr(t.Name, err)
			}
			if tw == cols {
				if err := writeAt(dst, out, base+j.out.Begin+(r0+tp.r0)*cols*size); err != nil {
					return err
				}
				continue
			}
			for r := tp.r0; r < tp.r1; r++ {
				if err := writeAt(dst, out[(r-tp.r0)*tw*size:(r-tp.r0+1)*tw*size], base+j.out.Begin+((r0+r)*cols+c0+tp.c0)*size); err != nil {
					return err
				}
			}
		}
		return writeAt(dst, scales, base+sj.out.Begin+(bi*scaleCols+b0)*ssize)
	})
}

// putScale writes v, a value of dtype d (F32, BF16, F16 or F64), to b in
// little-endian order.
func putScale(b []byte, d safetensors.DType, v float64) {
	switch d {
	case safetensors.BF16:
		binary.LittleEndian.PutUint16(b, bfloat16.FromFloat32(float32(v), round.RTE).Bits())
	case safetensors.F16:
		binary.LittleEndian.PutUint16(b, half.FromFloat64(v, round.RTE).Bits())
	case safetensors.F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	default:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	}
}
