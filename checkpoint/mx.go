package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// The block-scaled FP4 layouts of published checkpoints.
//
//   - MXFP4 as gpt-oss ships it (openai/gpt-oss, gpt_oss/torch/weights.py;
//     transformers' GptOss conversion): "<name>.blocks" (or
//     "<name>_blocks") U8 of shape [..., B, 16], each byte two E2M1
//     elements, the first in the low nibble, 16 bytes = one block of 32;
//     "<name>.scales" (or "_scales") U8 of shape [..., B], each an E8M0
//     scale 2^(s-127). The dequantized tensor is "<name>", shape
//     [..., 32*B].
//   - NVFP4 as NVIDIA ModelOpt exports it (TensorRT-Model-Optimizer,
//     NVFP4QTensor; the "nvfp4" quant_algo of hf_quant_config.json):
//     "X.weight" U8 of shape [R, C/2] (two E2M1 per byte, the first in the
//     low nibble), "X.weight_scale" F8_E4M3 of shape [R, C/16] (one scale
//     per block of 16) and "X.weight_scale_2" F32 holding the tensor scale.
//     The dequantized "X.weight" is [R, C].
//
// Both dequantize exactly once: element * scale (* tensor scale) is exact in
// float64 (package mx), and only that value is rounded into the
// destination.

// mxPair returns the scales of an MX blocks tensor named name, and the
// name of the tensor they make: "a.blocks" -> "a.scales", "a".
func mxPair(all map[string]source, t *Tensor) (source, string, bool) {
	for _, sep := range []string{".", "_"} {
		if base, ok := strings.CutSuffix(t.Name, sep+"blocks"); ok && t.DType == safetensors.U8 {
			if s, ok := all[base+sep+"scales"]; ok && s.t.DType == safetensors.U8 {
				return s, base, true
			}
		}
	}
	return source{}, "", false
}

// nvScales returns the block scale and tensor scale of an NVFP4 weight.
func nvScales(all map[string]source, t *Tensor) (source, source, bool) {
	if t.DType != safetensors.U8 {
		return source{}, source{}, false
	}
	s, ok1 := all[t.Name+"_scale"]
	s2, ok2 := all[t.Name+"_scale_2"]
	if !ok1 || !ok2 || s.t.DType != safetensors.F8_E4M3 || s2.t.DType != safetensors.F32 {
		return source{}, source{}, false
	}
	return s, s2, true
}

// mxShape checks an MX pair's shapes and returns its format and the output
// shape. The format is the one __metadata__ records under MXFormatKey(name)
// (clconv's quantization writes it), else MXFP4 (gpt-oss).
func mxShape(b source, s *Tensor, name string) (*mx.Format, []int64, error) {
	t := b.t
	f := mx.MXFP4
	if v, ok := b.f.Metadata[MXFormatKey(name)]; ok {
		g, err := mx.ParseFormat(v)
		if err != nil || g.TensorScale {
			return nil, nil, dataErrorf("checkpoint: %q: __metadata__ %q = %q is not an MX format", t.Name, MXFormatKey(name), v)
		}
		f = g
	}
	bpb := int64(f.ElemBytes(f.BlockSize, true))
	n := len(t.Shape)
	if n < 2 || t.Shape[n-1] != bpb || len(s.Shape) != n-1 {
		why := ""
		if f == mx.MXFP4 && n >= 2 && (t.Shape[n-1] == 24 || t.Shape[n-1] == 32) {
			why = fmt.Sprintf(" (MXFP6 and MXFP8 blocks need __metadata__ %q to name their format)", MXFormatKey(name))
		}
		return nil, nil, dataErrorf("checkpoint: %q (shape %s) and %q (shape %s): %s blocks are [..., B, %d] bytes with scales [..., B]%s",
			t.Name, ShapeString(t.Shape), s.Name, ShapeString(s.Shape), strings.ToUpper(f.Name), bpb, why)
	}
	for i := range n - 1 {
		if s.Shape[i] != t.Shape[i] {
			return nil, nil, dataErrorf("checkpoint: %q (shape %s) and %q (shape %s): the scales' shape must be the blocks' without its last axis",
				t.Name, ShapeString(t.Shape), s.Name, ShapeString(s.Shape))
		}
	}
	out := append(append([]int64(nil), t.Shape[:n-2]...), t.Shape[n-2]*int64(f.BlockSize))
	return f, out, nil
}

// nvShape checks an NVFP4 weight's shapes and returns the output shape:
// [..., C/2] bytes with [..., C/16] scales give [..., C] (ModelOpt's
// weights are two-dimensional; clconv's quantization writes any rank).
func nvShape(w, s, s2 *Tensor) ([]int64, error) {
	n := len(w.Shape)
	ok := n >= 1 && len(s.Shape) == n && s2.Count() == 1 && s.Shape[n-1]*16 == w.Shape[n-1]*2
	for i := 0; ok && i < n-1; i++ {
		ok = s.Shape[i] == w.Shape[i]
	}
	if !ok {
		return nil, dataErrorf("checkpoint: NVFP4 %q (shape %s) with %q (shape %s) and %q (shape %s): want [R, C/2] bytes, [R, C/16] E4M3 scales and one F32 tensor scale",
			w.Name, ShapeString(w.Shape), s.Name, ShapeString(s.Shape), s2.Name, ShapeString(s2.Shape))
	}
	return append(append([]int64(nil), w.Shape[:n-1]...), w.Shape[n-1]*2), nil
}

// nvTensorScale reads and checks the tensor scale (F32, one value) of the
// NVFP4 weight of j: finite and positive, or +0, which clconv's
// quantization (and ModelOpt's) write for a tensor of zeros.
func nvTensorScale(j *job) (float32, error) {
	var b [4]byte
	if err := readAt(j.scale2, b[:], 0); err != nil {
		return 0, err
	}
	ts := math.Float32frombits(binary.LittleEndian.Uint32(b[:]))
	if v := float64(ts); !(v > 0 || math.Float32bits(ts) == 0) || math.IsInf(v, 1) {
		return 0, badScale(j.src.t.Name, j.scale2.t, 0, v, "an NVFP4 tensor scale must be finite and positive (or +0)")
	}
	return ts, nil
}

// dequantBlocks writes an MXFP4 (gpt-oss) or NVFP4 (ModelOpt) tensor
// dequantized into opt.To, in pieces of whole rows or of whole blocks of
// one row, in parallel.
//
// An E8M0 scale of 0xFF (NaN) is read as the MX specification says, a
// block of NaNs: clconv's quantization writes it for a block holding a NaN
// or an infinity. An NVFP4 block scale that is NaN makes its block NaN
// alike (mx.Quantize writes it for the same blocks), and a zero makes it
// zeros (ModelOpt writes one when a block's scale underflows E4M3); a
// negative block scale, which neither writes, is an error.
func dequantBlocks(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	f := j.mxf
	mo := mx.Options{Packed: true, Nibbles: mx.LowFirst, FP6: mx.FP6LittleEndian, Mode: round.RTE}
	shape := j.out.Shape
	rowLen := shape[len(shape)-1]
	rows := j.out.Count() / max(rowLen, 1)
	var e4m3 *[256]float64
	zero := false // a tensor scale of +0
	if j.act == ActDequantNV {
		f = mx.NVFP4
		ts, err := nvTensorScale(j)
		if err != nil {
			return err
		}
		// mx.Dequantize takes a positive tensor scale: for +0, the
		// products with 1 (exact), each times 0 below.
		zero = ts == 0
		mo.TensorScale = ts
		if zero {
			mo.TensorScale = 1
		}
		e4m3 = fp8Values(safetensors.F8_E4M3)
	}
	bs := int64(f.BlockSize)
	blocksPerRow := rowLen / bs
	ebits := int64(f.ElemBits())
	size := int64(opt.To.Size())
	acc := &encodeAcc{stats: opt.Stats}
	defer acc.report(j.report)
	if j.transpose {
		return dequantTransposed(ctx, dst, base, j, opt, f, mo, acc)
	}
	p := splitRows(rows, rowLen, bs)
	return parallel(ctx, p.n(), opt, func(s *scratch, c int) error {
		pc := p.at(c)
		n := pc.len()
		blk0 := pc.r0*blocksPerRow + pc.c0/bs
		elems := s.buf(0, n*ebits/8)
		if err := readAt(j.src, elems, pc.start(rowLen)*ebits/8); err != nil {
			return err
		}
		scales := s.buf(1, n/bs)
		if err := readAt(j.scale, scales, blk0); err != nil {
			return err
		}
		if e4m3 != nil {
			for i, b := range scales {
				if v := e4m3[b]; v < 0 {
					return badScale(j.src.t.Name, j.scale.t, blk0+int64(i), v, "an NVFP4 block scale must not be negative")
				}
			}
		}
		vals := grow(&s.f64, n)
		// float64 holds every element * scale exactly: this call does not
		// round, and encodeTo below is the one rounding.
		if _, err := mx.Dequantize(f, vals, elems, scales, int(pc.c1-pc.c0), mo); err != nil {
			return tensorErr(j.src.t.Name, err)
		}
		le := s.buf(2, 8*n)
		for i, v := range vals {
			if zero {
				v = product(v, 0)
			}
			binary.LittleEndian.PutUint64(le[8*i:], math.Float64bits(v))
		}
		out := s.buf(3, n*size)
		if err := encodeTo(out, le, opt.To, opt.Mode, opt.Sat, acc); err != nil {
			return tensorErr(j.src.t.Name, err)
		}
		return writeAt(dst, out, base+j.out.Begin+pc.start(rowLen)*size)
	})
}

// dequantTransposed dequantizes MX blocks [E, R, G, bytes] into the
// transpose of their [E, R, G*block] values, [E, G*block, R] (gpt-oss's
// experts). A worker takes a tile of up to 1024 rows of one matrix and as
// many whole blocks of them as fit in chunkElems, and writes each of the
// tile's columns as one run of the output.
func dequantTransposed(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options, f *mx.Format, mo mx.Options, acc *encodeAcc) error {
	ts := j.src.t.Shape
	n := len(ts)
	lead := int64(1)
	for _, d := range ts[:n-3] {
		lead *= d
	}
	R, G, bb := ts[n-3], ts[n-2], ts[n-1] // rows, blocks per row, bytes per block
	bs := int64(f.BlockSize)
	K := G * bs // the dequantized row length, the output's rows
	size := int64(opt.To.Size())
	T := min(R, 1024)
	gb := max(1, min(G, chunkElems/(T*bs))) // blocks per tile
	tilesR, tilesG := ceilDiv(R, T), ceilDiv(G, gb)
	count := lead * tilesR * tilesG
	if R == 0 || G == 0 {
		count = 0
	}
	return parallel(ctx, int(count), opt, func(s *scratch, it int) error {
		e := int64(it) / (tilesR * tilesG)
		rt, gt := int64(it)/tilesG%tilesR, int64(it)%tilesG
		r0, b0 := rt*T, gt*gb
		h, g := min(R, r0+T)-r0, min(G, b0+gb)-b0
		w := g * bs
		elems := s.buf(0, h*g*bb)
		scales := s.buf(1, h*g)
		for i := range h {
			row := e*R + r0 + i
			if err := readAt(j.src, elems[i*g*bb:(i+1)*g*bb], (row*G+b0)*bb); err != nil {
				return err
			}
			if err := readAt(j.scale, scales[i*g:(i+1)*g], row*G+b0); err != nil {
				return err
			}
		}
		vals := grow(&s.f64, h*w)
		if _, err := mx.Dequantize(f, vals, elems, scales, int(w), mo); err != nil {
			return tensorErr(j.src.t.Name, err)
		}
		le := s.buf(2, 8*h*w)
		for i, v := range vals {
			binary.LittleEndian.PutUint64(le[8*i:], math.Float64bits(v))
		}
		out := s.buf(3, h*w*size)
		if err := encodeTo(out, le, opt.To, opt.Mode, opt.Sat, acc); err != nil {
			return tensorErr(j.src.t.Name, err)
		}
		col := s.buf(4, h*size)
		for k := range w {
			for i := range h {
				copy(col[i*size:(i+1)*size], out[(i*w+k)*size:(i*w+k+1)*size])
			}
			off := ((e*K+b0*bs+k)*R + r0) * size
			if err := writeAt(dst, col, base+j.out.Begin+off); err != nil {
				return err
			}
		}
		return nil
	})
}
