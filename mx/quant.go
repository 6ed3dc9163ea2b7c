package mx

import (
	"math"
	"unsafe"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// Source is the set of element types Quantize reads: float32, float64 and
// the types defined on them, half.Half and bfloat16.BFloat16.
type Source interface {
	~float32 | ~float64 | half.Half | bfloat16.BFloat16
}

// Dest is the set of element types Dequantize writes; the same as Source.
type Dest interface {
	Source
}

// The source and destination kinds.
const (
	kF32 = iota
	kF64
	kHalf
	kBF16
)

func kindOf[T Source]() int {
	var z T
	switch any(z).(type) {
	case half.Half:
		return kHalf
	case bfloat16.BFloat16:
		return kBF16
	}
	if unsafe.Sizeof(z) == 8 {
		return kF64
	}
	return kF32
}

// as reinterprets a slice of a Source type as a slice of its layout twin.
func as[D, S any](s []S) []D {
	return unsafe.Slice((*D)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// layout is the shape of a call: rows of rowLen elements, each cut into
// bpr blocks (the last one padded when Pad is set).
type layout struct {
	f          *Format
	rows       int
	rowLen     int
	bpr        int // blocks per row
	blocks     int
	elemBytes  int // bytes of the element buffer
	blockBytes int // bytes of one block in the element buffer
	packed     bool
}

func newLayout(op string, f *Format, n, rowLen int, opt *Options) (layout, error) {
	var l layout
	if err := checkFormat(op, f); err != nil {
		return l, err
	}
	l.f = f
	switch {
	case rowLen <= 0:
		return l, errorf(op, f, "row length %d is not positive", rowLen)
	case n%rowLen != 0:
		return l, errorf(op, f, "%d elements are not a whole number of rows of %d", n, rowLen)
	case rowLen%f.BlockSize != 0 && !opt.Pad:
		return l, errorf(op, f, "row length %d is not a whole number of %d-element blocks (remainder %d); set Options.Pad to pad each row's last block with zeros", rowLen, f.BlockSize, rowLen%f.BlockSize)
	case opt.Rule >= numRules:
		return l, errorf(op, f, "unknown scale rule %d (valid: floor, rceil, ceil, even)", opt.Rule)
	case opt.Recipe >= numRecipes:
		return l, errorf(op, f, "unknown NVFP4 recipe %d (valid: modelopt, modelopt-cuda, exact)", opt.Recipe)
	case opt.Nibbles > HighFirst:
		return l, errorf(op, f, "unknown nibble order %d", opt.Nibbles)
	case opt.FP6 >= numFP6Orders:
		return l, errorf(op, f, "unknown FP6 order %d (valid: le, be, torchao-split)", opt.FP6)
	}
	l.rows = n / rowLen
	l.rowLen = rowLen
	l.bpr = (rowLen + f.BlockSize - 1) / f.BlockSize
	l.blocks = l.rows * l.bpr
	l.packed = opt.Packed && f.ElemBits() < 8
	l.blockBytes = f.ElemBytes(f.BlockSize, l.packed)
	l.elemBytes = l.blocks * l.blockBytes
	return l, nil
}

// emit writes one block's codes into the element buffer.
func (l *layout) emit(dst []byte, blk int, codes []byte, opt *Options) {
	d := dst[blk*l.blockBytes : (blk+1)*l.blockBytes]
	switch {
	case !l.packed:
		copy(d, codes)
	case l.f.ElemBits() == 4:
		packFP4(d, codes, opt.Nibbles)
	default:
		packFP6(d, codes, opt.FP6)
	}
}

// load reads one block's codes from the element buffer.
func (l *layout) load(codes []byte, src []byte, blk int, opt *Options) {
	s := src[blk*l.blockBytes : (blk+1)*l.blockBytes]
	switch {
	case !l.packed:
		copy(codes, s)
	case l.f.ElemBits() == 4:
		unpackFP4(codes, s, opt.Nibbles)
	default:
		unpackFP6(codes, s, opt.FP6)
	}
}

// Quantize quantizes src, rows of rowLen elements along the last axis, to
// the block-scaled format f: one scale per block of f.BlockSize
// consecutive elements of a row into scales (E8M0 codes for MX, E4M3 codes
// for NVFP4), and the elements into dst: one code per byte in the low bits,
// or packed (Options.Packed). len(src) must be a multiple of rowLen, and
// rowLen of the block size unless Options.Pad; dst must hold
// f.ElemBytes(blocks*BlockSize, Packed) bytes and scales one byte per
// block, where blocks = rows * ceil(rowLen/BlockSize).
//
// MX: each block's shared exponent X comes from its largest magnitude by
// Options.Rule (SharedExp), and each element is x / 2^X, an exact value,
// rounded once into the element format in Options.Mode and clamped to
// ±max (FP8 may overflow instead, Options.NoSat). A block whose amax is NaN
// or infinite gets the NaN scale 0xFF, which makes the whole block NaN, and
// elements 0. NVFP4: see Options.Recipe and package documentation.
//
// Quantize reports what happened in Stats; it returns an error, and writes
// nothing, only when the arguments do not fit together.
func Quantize[T Source](f *Format, dst, scales []byte, src []T, rowLen int, opt Options) (Stats, error) {
	st := newStats()
	l, err := newLayout("quantize", f, len(src), rowLen, &opt)
	if err != nil {
		return st, err
	}
	if err := checkLen("quantize", f, "element buffer", len(dst), l.elemBytes); err != nil {
		return st, err
	}
	if err := checkLen("quantize", f, "scale buffer", len(scales), l.blocks); err != nil {
		return st, err
	}
	opt.Mode = normMode(opt.Mode)
	opt.ScaleMode = normMode(opt.ScaleMode)
	st.Elements = len(src)
	st.Blocks = l.blocks
	if f.TensorScale {
		return quantizeNV(&l, dst, scales, src, opt, st)
	}
	q := mxQuant{l: &l, e: elemInfos[f.id], opt: &opt, st: &st, dst: dst, scales: scales}
	q.sat = !opt.NoSat || f.ElemBits() < 8
	switch kindOf[T]() {
	case kF32:
		q.run32(as[uint32](src))
	case kF64:
		q.run64(as[uint64](src))
	case kHalf:
		h := as[half.Half](src)
		q.runWide(len(src), func(d []uint32, i int) {
			for j, x := range h[i : i+len(d)] {
				d[j] = math.Float32bits(x.Float32())
			}
		})
	case kBF16:
		b := as[uint16](src)
		q.runWide(len(src), func(d []uint32, i int) {
			for j, x := range b[i : i+len(d)] {
				d[j] = uint32(x) << 16
			}
		})
	}
	return st, nil
}

func checkLen(op string, f *Format, what string, got, want int) error {
	if got != want {
		return errorf(op, f, "%s has %d bytes, want %d", what, got, want)
	}
	return nil
}

// mxQuant is one MX Quantize call.
type mxQuant struct {
	l           *layout
	e           *elemInfo
	opt         *Options
	st          *Stats
	dst, scales []byte
	sat         bool
	codes       [32]byte
}

// run32 quantizes float32 patterns.
func (q *mxQuant) run32(src []uint32) { q.range32(src, 0) }

// range32 quantizes the float32 patterns src, which start at element i of
// the call's source and are whole rows, or whole blocks when rows are.
// Rows of whole blocks are one stream of blocks; with padding each row
// ends in a padded block.
func (q *mxQuant) range32(src []uint32, i int) {
	B := q.l.f.BlockSize
	if q.l.rowLen%B == 0 {
		q.blocks32(src, i/B, len(src)/B)
		return
	}
	full := q.l.rowLen / B
	var pad [32]uint32
	r0 := i / q.l.rowLen
	for r := range len(src) / q.l.rowLen {
		row := src[r*q.l.rowLen : (r+1)*q.l.rowLen]
		blk := (r0 + r) * q.l.bpr
		q.blocks32(row[:full*B], blk, full)
		k := copy(pad[:B], row[full*B:])
		clear(pad[k:B])
		q.block32(pad[:B], blk+full)
	}
}

// blocks32 quantizes n whole blocks of src, the first of which is block
// blk: as many as the SIMD kernel takes, each block it declines in Go.
func (q *mxQuant) blocks32(src []uint32, blk, n int) {
	B := q.l.f.BlockSize
	for i := 0; i < n; {
		i += q.simd32(src[i*B:n*B], blk+i)
		if i < n {
			q.block32(src[i*B:(i+1)*B], blk+i)
			i++
		}
	}
}

// runWide quantizes a 16-bit source of n elements by widening it exactly
// to float32 in chunks of whole blocks, or of whole rows when padding.
func (q *mxQuant) runWide(n int, widen func(d []uint32, i int)) {
	chunk := 64 * q.l.f.BlockSize
	if q.l.rowLen%q.l.f.BlockSize != 0 {
		chunk = q.l.rowLen * max(1, chunk/q.l.rowLen)
	}
	buf := make([]uint32, min(chunk, n))
	for i := 0; i < n; i += chunk {
		m := min(chunk, n-i)
		widen(buf[:m], i)
		q.range32(buf[:m], i)
	}
}

// block32 quantizes one block of float32 patterns (padded to the block
// size) in Go.
func (q *mxQuant) block32(src []uint32, blk int) {
	e, st, mode := q.e, q.st, q.opt.Mode
	var amax uint32
	for _, b := range src {
		amax = max(amax, b&0x7fffffff)
	}
	codes := q.codes[:len(src)]
	if amax >= 0x7f800000 {
		for _, b := range src {
			switch a := b & 0x7fffffff; {
			case a > 0x7f800000:
				st.NaNInputs++
			case a == 0x7f800000:
				st.InfInputs++
			}
		}
		st.nanBlock(blk)
		clear(codes)
		q.scales[blk] = e8m0NaN
		q.l.emit(q.dst, blk, codes, q.opt)
		return
	}
	x := 0
	if amax == 0 {
		st.zeroBlock(blk)
		q.scales[blk] = 0
	} else {
		var clamped bool
		x, clamped = clampX(sharedX(e, q.opt.Rule, math.Float64bits(float64(math.Float32frombits(amax)))))
		if clamped {
			st.ScaleClamped++
		}
		q.scales[blk] = uint8(x + e8m0Bias)
	}
	for i, b := range src {
		a := b & 0x7fffffff
		neg := b>>31 != 0
		var y uint32
		switch ex := int(a >> 23); {
		case a == 0:
		case ex > x && ex != 0:
			// x / 2^X is a normal float32: move the exponent.
			y = a - uint32(x)<<23
		case ex != 0:
			y = 0x00800000 // below 2^-126: tiny
		default:
			// A subnormal: scale it exactly in float64.
			y = tiny32(minifloat.Float64ToOdd32(math.Float64bits(math.Ldexp(float64(a), -149-x))))
		}
		c, over := e.finish(e.fromFloat32(y, neg, mode), neg, mode, q.sat)
		if over {
			st.Clamped++
		}
		if a != 0 && c&^uint8(e.signBit) == 0 {
			st.Flushed++
		}
		codes[i] = c
	}
	q.l.emit(q.dst, blk, codes, q.opt)
}

// tiny32 replaces a binary32 subnormal magnitude by 2^-126 (see
// elemInfo.fromFloat32); other patterns pass unchanged.
func tiny32(a uint32) uint32 {
	if a != 0 && a < 0x00800000 {
		return 0x00800000
	}
	return a
}

// run64 quantizes float64 patterns.
func (q *mxQuant) run64(src []uint64) {
	B := q.l.f.BlockSize
	var pad [32]uint64
	for r := range q.l.rows {
		row := src[r*q.l.rowLen : (r+1)*q.l.rowLen]
		for j := range q.l.bpr {
			blk := r*q.l.bpr + j
			b := row[j*B : min((j+1)*B, len(row))]
			if len(b) < B {
				k := copy(pad[:B], b)
				clear(pad[k:B])
				b = pad[:B]
			}
			q.block64(b, blk)
		}
	}
}

// block64 quantizes one block of float64 patterns. x / 2^X is exact in
// binary64 (or below 2^-1022, where it is tiny); it is rounded to binary32
// by rounding to odd, which never changes the rounding into the element
// format (see minifloat.Float64ToOdd32), and then as a float32.
func (q *mxQuant) block64(src []uint64, blk int) {
	e, st, mode := q.e, q.st, q.opt.Mode
	var amax uint64
	for _, b := range src {
		amax = max(amax, b&^(1<<63))
	}
	codes := q.codes[:len(src)]
	if amax >= 0x7ff0000000000000 {
		for _, b := range src {
			switch a := b &^ (1 << 63); {
			case a > 0x7ff0000000000000:
				st.NaNInputs++
			case a == 0x7ff0000000000000:
				st.InfInputs++
			}
		}
		st.nanBlock(blk)
		clear(codes)
		q.scales[blk] = e8m0NaN
		q.l.emit(q.dst, blk, codes, q.opt)
		return
	}
	x := 0
	if amax == 0 {
		st.zeroBlock(blk)
		q.scales[blk] = 0
	} else {
		var clamped bool
		x, clamped = clampX(sharedX(e, q.opt.Rule, amax))
		if clamped {
			st.ScaleClamped++
		}
		q.scales[blk] = uint8(x + e8m0Bias)
	}
	for i, b := range src {
		a := b &^ (1 << 63)
		neg := b>>63 != 0
		var y uint32
		switch ex := int(a >> 52); {
		case a == 0:
		case ex > x && ex != 0:
			y = tiny32(minifloat.Float64ToOdd32(a - uint64(int64(x))<<52))
		default:
			y = 0x00800000 // below 2^-1022
		}
		c, over := e.finish(e.fromFloat32(y, neg, mode), neg, mode, q.sat)
		if over {
			st.Clamped++
		}
		if a != 0 && c&^uint8(e.signBit) == 0 {
			st.Flushed++
		}
		codes[i] = c
	}
	q.l.emit(q.dst, blk, codes, q.opt)
}

// Dequantize decodes elems and scales, as Quantize writes them for f, into
// dst: rows of rowLen values (len(dst) a multiple of rowLen; the padding of
// a padded last block is dropped). Each value element * scale (MX: element
// * 2^X; NVFP4: element * E4M3 scale * Options.TensorScale) is exact in
// float64 and is rounded once into T in Options.Mode. A NaN scale (MX 0xFF;
// E4M3 S.1111.111) makes its whole block the positive quiet NaN; an
// element that is NaN or infinite (E4M3, E5M2) stays so. Bits of an
// unpacked element code above its width are ignored.
func Dequantize[T Dest](f *Format, dst []T, elems, scales []byte, rowLen int, opt Options) (Stats, error) {
	st := newStats()
	l, err := newLayout("dequantize", f, len(dst), rowLen, &opt)
	if err != nil {
		return st, err
	}
	if err := checkLen("dequantize", f, "element buffer", len(elems), l.elemBytes); err != nil {
		return st, err
	}
	if err := checkLen("dequantize", f, "scale buffer", len(scales), l.blocks); err != nil {
		return st, err
	}
	ts := 1.0
	if f.TensorScale {
		t := opt.TensorScale
		if !(t > 0) || math.IsInf(float64(t), 0) {
			return st, errorf("dequantize", f, "tensor scale %v is not a positive finite float32 (Options.TensorScale)", t)
		}
		ts = float64(t)
		st.TensorScale = t
	}
	opt.Mode = normMode(opt.Mode)
	st.Elements = len(dst)
	st.Blocks = l.blocks
	d := deq{l: &l, e: elemInfos[f.id], opt: &opt, st: &st, elems: elems, scales: scales, ts: ts}
	switch kindOf[T]() {
	case kF32:
		d.run(as[uint32](dst), nil)
	case kF64:
		out := as[float64](dst)
		d.run(nil, func(i int, vals []float64) { copy(out[i:], vals) })
	case kHalf:
		out := as[half.Half](dst)
		d.run(nil, func(i int, vals []float64) {
			for j, v := range vals {
				h := half.FromFloat64(v, opt.Mode)
				out[i+j] = h
				d.count(v, h.Float64(), 0x1p16)
			}
		})
	case kBF16:
		out := as[bfloat16.BFloat16](dst)
		d.run(nil, func(i int, vals []float64) {
			for j, v := range vals {
				b := bfloat16.FromFloat64(v, opt.Mode)
				out[i+j] = b
				d.count(v, b.Float64(), 0x1p128)
			}
		})
	}
	return st, nil
}

// nan64 is the quiet NaN a NaN scale gives (positive, empty payload).
var nan64 = math.Float64frombits(0x7ff8000000000000)

// deq is one Dequantize call.
type deq struct {
	l             *layout
	e             *elemInfo
	opt           *Options
	st            *Stats
	elems, scales []byte
	ts            float64
	codes         [32]byte
	vals          [32]float64
	v32           [32]uint32
}

// count records the rounding of the exact value v to r in a destination
// whose first grid point above its largest finite value is limit: a
// finite value overflows when its rounding, as if the exponent range had
// no top, exceeds that largest value (IEEE 754 7.4).
func (d *deq) count(v, r, limit float64) {
	if r == v || math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	d.st.Inexact++
	if math.IsInf(r, 0) || math.Abs(v) >= limit {
		d.st.Overflow++
	}
}

// run decodes every block into out32 (float32 patterns) when it is not
// nil, else through put64, which gets exact float64 values; rows' padding
// is dropped.
func (d *deq) run(out32 []uint32, put64 func(i int, v []float64)) {
	B := d.l.f.BlockSize
	if d.l.rowLen%B == 0 {
		d.blocks(out32, put64, 0, d.l.blocks)
		return
	}
	full := d.l.rowLen / B
	for r := range d.l.rows {
		blk := r * d.l.bpr
		d.blocks(out32, put64, blk, full)
		d.block(out32, put64, blk+full, r*d.l.rowLen+full*B, d.l.rowLen-full*B)
	}
}

// blocks decodes n whole blocks from blk on, which are consecutive in the
// destination (rows of whole blocks, or one row's): as many as the SIMD
// kernels take, each block they decline in Go.
func (d *deq) blocks(out32 []uint32, put64 func(i int, v []float64), blk, n int) {
	B := d.l.f.BlockSize
	i0 := blk / d.l.bpr * d.l.rowLen // the first block's row starts here
	i0 += (blk % d.l.bpr) * B
	for k := 0; k < n; {
		if out32 != nil {
			k += d.simdDeq32(out32[i0+k*B:], blk+k, n-k)
			if k == n {
				return
			}
		}
		d.block(out32, put64, blk+k, i0+k*B, B)
		k++
	}
}

// block decodes block blk's first k values to destination index i.
func (d *deq) block(out32 []uint32, put64 func(i int, v []float64), blk, i, k int) {
	d.l.load(d.codes[:d.l.f.BlockSize], d.elems, blk, d.opt)
	if out32 != nil && d.block32(blk, d.v32[:k]) {
		copy(out32[i:], d.v32[:k])
		return
	}
	d.block64(blk, d.vals[:k])
	if out32 != nil {
		for j, v := range d.vals[:k] {
			r := round.Float64ToFloat32(v, d.opt.Mode)
			out32[i+j] = math.Float32bits(r)
			d.count(v, float64(r), 0x1p128)
		}
		return
	}
	put64(i, d.vals[:k])
}

// block32 decodes block blk into float32 patterns when every value is
// exactly a float32 (MX with a shared exponent in the element format's
// normal range; a NaN scale), and reports whether it did.
func (d *deq) block32(blk int, out []uint32) bool {
	if d.l.f.TensorScale {
		return false
	}
	s := d.scales[blk]
	if s == e8m0NaN {
		d.st.nanBlock(blk)
		for i := range out {
			out[i] = 0x7fc00000
		}
		return true
	}
	x := int(s) - e8m0Bias
	e := d.e
	if x < e.f32lo || x > e.f32hi {
		return false
	}
	for i := range out {
		c := d.codes[i]
		v := e.dec32[c]
		if e.live[c] {
			v += uint32(x) << 23
		}
		out[i] = v
	}
	return true
}

// block64 decodes block blk into exact float64 values.
func (d *deq) block64(blk int, out []float64) {
	e := d.e
	s := d.scales[blk]
	if d.l.f.TensorScale {
		sv := math.Float64frombits(minifloat.ToFloat64Bits(minifloat.E4M3, uint64(s)))
		if math.IsNaN(sv) {
			d.st.nanBlock(blk)
			for i := range out {
				out[i] = nan64
			}
			return
		}
		for i := range out {
			// element (2 significant bits) * scale (4) * tensor scale (24):
			// at most 30 bits, exact in float64.
			out[i] = math.Float64frombits(e.dec64[d.codes[i]]) * sv * d.ts
		}
		return
	}
	if s == e8m0NaN {
		d.st.nanBlock(blk)
		for i := range out {
			out[i] = math.NaN()
		}
		return
	}
	x := int(s) - e8m0Bias
	for i := range out {
		c := d.codes[i]
		v := e.dec64[c]
		if e.live[c] {
			v += uint64(int64(x)) << 52 // stays normal: |x| <= 127, elements within 2^±17
		}
		out[i] = math.Float64frombits(v)
	}
}
