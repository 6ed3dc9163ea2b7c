package checkpoint

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/clconv/clconv/fileconv"
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
func mxPair(all map[string]source, t *safetensors.TensorInfo) (source, string, bool) {
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
func nvScales(all map[string]source, t *safetensors.TensorInfo) (source, source, bool) {
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
func mxShape(b source, s *safetensors.TensorInfo, name string) (*mx.Format, []int64, error) {
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
func nvShape(w, s, s2 *safetensors.TensorInfo) ([]int64, error) {
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

// readRange reads n bytes of t at offset off.
func readRange(s source, off, n int64) ([]byte, error) {
	b := make([]byte, n)
	if _, err := s.f.Section(s.t).ReadAt(b, off); err != nil && !(err == io.EOF && n == 0) {
		return nil, tensorErr(s.t.Name, &fileconv.ReadError{Err: err})
	}
	return b, nil
}

// dequantBlocks writes an MXFP4 (gpt-oss) or NVFP4 (ModelOpt) tensor
// dequantized into opt.To, rows in parallel.
func dequantBlocks(ctx context.Context, dst io.WriterAt, base int64, j *job, opt *Options) error {
	f := j.mxf
	mo := mx.Options{Packed: true, Nibbles: mx.LowFirst, FP6: mx.FP6LittleEndian, Mode: round.RTE}
	shape := j.out.Shape
	rowLen := shape[len(shape)-1]
	rows := j.out.Count() / max(rowLen, 1)
	if j.act == ActDequantNV {
		f = mx.NVFP4
		ts, err := readAll(j.scale2)
		if err != nil {
			return err
		}
		mo.TensorScale = float32(ts[0])
	}
	bs := int64(f.BlockSize)
	blocksPerRow := rowLen / bs
	rowBytes := rowLen * int64(f.ElemBits()) / 8
	size := int64(opt.To.Size())
	rowsPer := max(1, chunkElems/max(rowLen, 1))
	n := int(ceilDiv(rows, rowsPer))
	return parallel(ctx, n, opt, func(c int) error {
		r0 := int64(c) * rowsPer
		r1 := min(rows, r0+rowsPer)
		elems, err := readRange(j.src, r0*rowBytes, (r1-r0)*rowBytes)
		if err != nil {
			return err
		}
		scales, err := readRange(j.scale, r0*blocksPerRow, (r1-r0)*blocksPerRow)
		if err != nil {
			return err
		}
		vals := make([]float64, (r1-r0)*rowLen)
		// float64 holds every element * scale exactly: this call does not
		// round, and encodeTo below is the one rounding.
		if _, err := mx.Dequantize(f, vals, elems, scales, int(rowLen), mo); err != nil {
			return tensorErr(j.src.t.Name, err)
		}
		out, err := encodeTo(vals, opt.To, opt.Mode, opt.Sat)
		if err != nil {
			return tensorErr(j.src.t.Name, err)
		}
		if _, err := dst.WriteAt(out, base+j.out.Begin+r0*rowLen*size); err != nil {
			return &fileconv.WriteError{Err: err}
		}
		return nil
	})
}
