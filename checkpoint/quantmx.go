package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/safetensors"
)

// Quantization to the block-scaled formats of package mx (Options.Block).
//
// Every selected F32, F64, F16 or BF16 tensor is quantized along its last
// axis (a scalar counts as one element) and written in the layout that
// published checkpoints use:
//
//   - MX formats (mxfp4, mxfp6-*, mxfp8-*), as gpt-oss ships MXFP4: NAME of
//     shape [..., C] becomes "NAME.blocks" U8 [..., C/32, b] (b = 16 packed
//     FP4 bytes, the first element in the low nibble; 24 packed FP6 bytes,
//     mx.FP6LittleEndian; 32 FP8 bytes) and "NAME.scales" U8 [..., C/32]
//     (E8M0). The format is also recorded in __metadata__ under
//     MXFormatKey(NAME), since the shapes cannot tell E2M3 from E3M2 or
//     E4M3 from E5M2.
//   - NVFP4, as ModelOpt exports it: "NAME" U8 [..., C/2] (packed, low
//     nibble first), "NAME_scale" F8_E4M3 [..., C/16] and "NAME_scale_2"
//     F32 [] (the tensor scale, from the tensor's largest finite magnitude,
//     found in a first pass).
//
// Both are streamed a chunk of rows at a time on all workers; each chunk is
// one mx.Quantize call, so the output equals a single mx.Quantize of the
// whole tensor (with NVFP4's tensor scale passed in).

// mxMetaPrefix starts the __metadata__ key that records an MX tensor's format.
const mxMetaPrefix = "clconv.mx_format."

// MXFormatKey returns the __metadata__ key under which a quantized MX
// tensor NAME ("NAME.blocks", "NAME.scales") records its format's name
// ("mxfp6-e2m3", ...). Dequantization reads it; without it a blocks tensor
// of 16 bytes per block is taken as MXFP4, the gpt-oss layout.
func MXFormatKey(name string) string { return mxMetaPrefix + name }

// validateMX checks the options of a quantization to Options.Block.
func (o *Options) validateMX() error {
	if b := o.BlockSize; b != [2]int{} {
		return fmt.Errorf("checkpoint: %s quantization takes no block size (BlockSize %dx%d quantizes to e4m3 or e5m2 with float32 block scales): leave it out", o.Block.Name, b[0], b[1])
	}
	// readConfig sets WeightBlockSize from the config.json of an FP8
	// checkpoint (fp8Config): its block-scaled FP8 weights are kept byte
	// for byte with their scales (plan), so that block size only
	// describes them. One that the caller gives has nothing to apply to.
	if w := o.WeightBlockSize; w != [2]int{} && o.fp8Config == "" {
		return fmt.Errorf("checkpoint: %s quantization takes no FP8 weight block size (WeightBlockSize %dx%d): block-scaled FP8 weights are kept as they are, with their scales; to quantize them to %s, dequantize the checkpoint first (To: cltype.Double, exact; clconv convert --to double) and quantize that",
			o.Block.Name, w[0], w[1], o.Block.Name)
	}
	if _, err := mx.ParseFormat(o.Block.Name); err != nil {
		return fmt.Errorf("checkpoint: %v", err)
	}
	if _, err := mx.ParseScaleRule(o.Rule.String()); err != nil {
		return fmt.Errorf("checkpoint: %v", err)
	}
	return nil
}

// mxSourceOK reports whether mx.Quantize reads dtype d.
func mxSourceOK(d safetensors.DType) bool {
	switch d {
	case safetensors.F32, safetensors.F64, safetensors.F16, safetensors.BF16:
		return true
	}
	return false
}

// planMX plans the quantization of tensor j.src to opt.Block: it sets j
// and returns the jobs of the tensors written beside it (the scales), or
// leaves j a keep.
func planMX(j *job, all map[string]source, opt *Options) ([]*job, error) {
	t := j.src.t
	f := opt.Block
	if !t.DType.IsFloat() || !opt.selected(t.Name) {
		j.act = ActKeep
		return nil, nil
	}
	if !mxSourceOK(t.DType) {
		return nil, dataErrorf("checkpoint: tensor %q: quantizing %s to %s is not supported (F32, F64, F16 and BF16 are); leave it out with --skip", t.Name, t.DType, f.Name)
	}
	shape := t.Shape
	if len(shape) == 0 {
		shape = []int64{1}
	}
	lead, rowLen := shape[:len(shape)-1], shape[len(shape)-1]
	blocksName, scalesName := t.Name+".blocks", t.Name+".scales"
	if opt.gptOssExpert(t) {
		// gpt-oss's layout: the experts [E, in, out] quantized along
		// "in", as [E, out, in/32] blocks named X_blocks, X_scales.
		j.transpose, j.report.Transposed = true, true
		lead, rowLen = []int64{shape[0], shape[2]}, shape[1]
		blocksName, scalesName = t.Name+"_blocks", t.Name+"_scales"
	}
	bs := int64(f.BlockSize)
	if rowLen%bs != 0 && !opt.Pad {
		return nil, dataErrorf("checkpoint: tensor %q (shape %s): its last axis of length %d is not a whole number of %d-element %s blocks (remainder %d); pad each row's last block with zeros (Options.Pad, clconv --pad) or leave it out with --skip",
			t.Name, ShapeString(t.Shape), rowLen, bs, f.Name, rowLen%bs)
	}
	bpr := ceilDiv(rowLen, bs)
	with := func(last ...int64) []int64 { return append(append([]int64(nil), lead...), last...) }
	scale := func(name string, d safetensors.DType, shape []int64) *job {
		sj := &job{act: ActScaleOut, src: j.src, out: safetensors.TensorInfo{Name: name, DType: d, Shape: shape}}
		sj.report = &TensorReport{Name: name, Action: ActScaleOut.String(), To: d.String(), Shape: shape, Block: []int{1, f.BlockSize}, Format: f.Name}
		return sj
	}
	rep := j.report
	rep.Block, rep.Format = []int{1, f.BlockSize}, f.Name
	j.mxf = f
	var extra []*job
	if f.TensorScale {
		j.act = ActQuantNV
		j.out = safetensors.TensorInfo{Name: t.Name, DType: safetensors.U8, Shape: with(bpr * bs / 2)}
		extra = []*job{
			scale(t.Name+"_scale", safetensors.F8_E4M3, with(bpr)),
			scale(t.Name+"_scale_2", safetensors.F32, []int64{}),
		}
	} else {
		j.act = ActQuantMX
		j.out = safetensors.TensorInfo{Name: blocksName, DType: safetensors.U8, Shape: with(bpr, int64(f.ElemBytes(f.BlockSize, true)))}
		extra = []*job{scale(scalesName, safetensors.U8, with(bpr))}
	}
	rep.Name, rep.Shape = j.out.Name, j.out.Shape
	if rep.Name != t.Name {
		rep.Source = t.Name
	}
	var names string
	for _, e := range extra {
		if _, clash := all[e.out.Name]; clash {
			return nil, dataErrorf("checkpoint: tensor %q: its %s scale %q would replace a tensor of that name", t.Name, f.Name, e.out.Name)
		}
		if names != "" {
			names += ", "
		}
		names += e.out.Name
	}
	if _, clash := all[j.out.Name]; clash && j.out.Name != t.Name {
		return nil, dataErrorf("checkpoint: tensor %q: its %s elements %q would replace a tensor of that name", t.Name, f.Name, j.out.Name)
	}
	rep.Scale = names
	return extra, nil
}

// outMetadata returns the __metadata__ of the output of jobs: src's, with
// the format of every MX tensor quantized added and that of every MX
// tensor dequantized removed.
func outMetadata(src map[string]string, jobs []*job) map[string]string {
	var m map[string]string
	edit := func() {
		if m == nil {
			m = make(map[string]string, len(src)+1)
			for k, v := range src {
				m[k] = v
			}
		}
	}
	for _, j := range jobs {
		switch j.act {
		case ActQuantMX:
			edit()
			m[MXFormatKey(j.src.t.Name)] = j.mxf.Name
		case ActDequantMX:
			if _, ok := src[MXFormatKey(j.out.Name)]; ok {
				edit()
				delete(m, MXFormatKey(j.out.Name))
			}
		}
	}
	if m == nil {
		return src
	}
	return m
}

// quantRaw decodes raw little-endian elements of dtype d into buffers of
// s and quantizes them with mx.Quantize.
func quantRaw(s *scratch, f *mx.Format, elems, scales, raw []byte, d safetensors.DType, rowLen int, mo mx.Options) (mx.Stats, error) {
	switch d {
	case safetensors.F32:
		v := grow(&s.f32, int64(len(raw)/4))
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		return mx.Quantize(f, elems, scales, v, rowLen, mo)
	case safetensors.F64:
		v := grow(&s.f64, int64(len(raw)/8))
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		return mx.Quantize(f, elems, scales, v, rowLen, mo)
	case safetensors.F16:
		v := grow(&s.hf, int64(len(raw)/2))
		for i := range v {
			v[i] = half.FromBits(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		return mx.Quantize(f, elems, scales, v, rowLen, mo)
	default: // BF16
		v := grow(&s.bf, int64(len(raw)/2))
		for i := range v {
			v[i] = bfloat16.FromBits(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		return mx.Quantize(f, elems, scales, v, rowLen, mo)
	}
}

// finiteAmax returns the largest finite magnitude of raw little-endian
// elements of dtype d, exactly.
func finiteAmax(raw []byte, d safetensors.DType) float64 {
	var a float64
	take := func(x float64) {
		x = math.Abs(x)
		if x > a && !math.IsInf(x, 0) { // NaN compares false
			a = x
		}
	}
	switch d {
	case safetensors.F32:
		for i := 0; i+4 <= len(raw); i += 4 {
			take(float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[i:]))))
		}
	case safetensors.F64:
		for i := 0; i+8 <= len(raw); i += 8 {
			take(math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
		}
	case safetensors.F16:
		for i := 0; i+2 <= len(raw); i += 2 {
			take(half.FromBits(binary.LittleEndian.Uint16(raw[i:])).Float64())
		}
	default:
		for i := 0; i+2 <= len(raw); i += 2 {
			take(bfloat16.FromBits(binary.LittleEndian.Uint16(raw[i:])).Float64())
		}
	}
	return a
}

// mergeStats adds the statistics c of a chunk whose first block is blk0
// to s.
func mergeStats(s *mx.Stats, c mx.Stats, blk0 int) {
	if c.ZeroBlocks > 0 && (s.ZeroBlocks == 0 || blk0+c.FirstZero < s.FirstZero) {
		s.FirstZero = blk0 + c.FirstZero
	}
	if c.NaNBlocks > 0 && (s.NaNBlocks == 0 || blk0+c.FirstNaN < s.FirstNaN) {
		s.FirstNaN = blk0 + c.FirstNaN
	}
	s.Elements += c.Elements
	s.Blocks += c.Blocks
	s.Clamped += c.Clamped
	s.Flushed += c.Flushed
	s.NaNInputs += c.NaNInputs
	s.InfInputs += c.InfInputs
	s.ZeroBlocks += c.ZeroBlocks
	s.ScaleClamped += c.ScaleClamped
	s.NaNBlocks += c.NaNBlocks
}

// quantMX writes tensor j.src quantized to j.mxf: its elements (j) and
// its scales (the jobs after j), in pieces of whole rows or of whole blocks
// of one row, on all workers. Blocks are quantized independently, so each
// piece is one mx.Quantize call with the piece's length as its row length
// (the last piece of a row ends with the row's padded block).
func quantMX(ctx context.Context, dst io.WriterAt, base int64, j *job, extra []*job, opt *Options) error {
	f, t := j.mxf, j.src.t
	rowLen := int64(1)
	if len(t.Shape) > 0 {
		rowLen = t.Shape[len(t.Shape)-1]
	}
	if j.transpose {
		rowLen = t.Shape[1] // [E, in, out] quantized as [E, out, in]
	}
	st := mx.Stats{FirstZero: -1, FirstNaN: -1}
	defer func() { j.report.MX = &st }()
	if t.Count() == 0 || rowLen == 0 {
		if f.TensorScale { // an empty tensor: tensor scale 0, as for all zeros
			return writeAt(dst, make([]byte, 4), base+extra[1].out.Begin)
		}
		return nil
	}
	rows := t.Count() / rowLen
	esz := int64(t.DType.Bits() / 8)
	bs := int64(f.BlockSize)
	bpr := ceilDiv(rowLen, bs)
	blockBytes := int64(f.ElemBytes(f.BlockSize, true))
	mo := mx.Options{Rule: opt.Rule, Mode: opt.Mode, Pad: opt.Pad, Packed: true, Nibbles: mx.LowFirst, FP6: mx.FP6LittleEndian}
	p := splitRows(rows, rowLen, bs)
	chunk := func(s *scratch, c int) (piece, []byte, error) {
		pc := p.at(c)
		raw := s.buf(0, pc.len()*esz)
		if j.transpose {
			return pc, raw, readTransposed(j.src, raw, s.buf(5, 0), pc, esz)
		}
		return pc, raw, readAt(j.src, raw, pc.start(rowLen)*esz)
	}
	var mu sync.Mutex
	if f.TensorScale {
		var amax float64
		err := parallel(ctx, p.n(), opt, func(s *scratch, c int) error {
			_, raw, err := chunk(s, c)
			if err != nil {
				return err
			}
			a := finiteAmax(raw, t.DType)
			mu.Lock()
			amax = max(amax, a)
			mu.Unlock()
			return nil
		})
		if err != nil {
			return err
		}
		// ModelOpt's get_weights_scaling_factor_2 on the float32 amax, as
		// mx.Quantize computes it when given no tensor scale.
		ts := mx.NVFP4TensorScale(float32(amax), false)
		if amax != 0 && !(ts > 0 && !math.IsInf(float64(ts), 0)) {
			return tensorErr(t.Name, dataErrorf("the NVFP4 tensor scale %g / 2688 is not a positive finite float32", amax))
		}
		mo.TensorScale = ts
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(ts))
		if err := writeAt(dst, b[:], base+extra[1].out.Begin); err != nil {
			return err
		}
	}
	err := parallel(ctx, p.n(), opt, func(s *scratch, c int) error {
		pc, raw, err := chunk(s, c)
		if err != nil {
			return err
		}
		blk0 := pc.r0*bpr + pc.c0/bs
		nb := (pc.r1 - pc.r0) * ceilDiv(pc.c1-pc.c0, bs)
		elems := s.buf(1, nb*blockBytes)
		scales := s.buf(2, nb)
		cs, err := quantRaw(s, f, elems, scales, raw, t.DType, int(pc.c1-pc.c0), mo)
		if err != nil {
			return tensorErr(t.Name, err)
		}
		if err := writeAt(dst, elems, base+j.out.Begin+blk0*blockBytes); err != nil {
			return err
		}
		if err := writeAt(dst, scales, base+extra[0].out.Begin+blk0); err != nil {
			return err
		}
		mu.Lock()
		mergeStats(&st, cs, int(blk0))
		mu.Unlock()
		return nil
	})
	st.TensorScale = mo.TensorScale
	return err
}

func writeAt(dst io.WriterAt, b []byte, off int64) error {
	if _, err := dst.WriteAt(b, off); err != nil {
		return &fileconv.WriteError{Err: err}
	}
	return nil
}

// readTransposed reads piece pc of the transpose [E, out, in] of the
// three-dimensional tensor src [E, in, out] into raw (row-major, esz bytes
// an element): for each expert the piece touches and each "in" index, one
// read of the piece's run of "out" elements, scattered into raw's rows.
func readTransposed(src source, raw, tmp []byte, pc piece, esz int64) error {
	in, out := src.t.Shape[1], src.t.Shape[2]
	w := pc.c1 - pc.c0
	for vr := pc.r0; vr < pc.r1; {
		e, o0 := vr/out, vr%out
		n := min(pc.r1-vr, out-o0) // rows of this expert
		tmp = grow(&tmp, n*esz)
		for h := pc.c0; h < pc.c1; h++ {
			if err := readAt(src, tmp, ((e*in+h)*out+o0)*esz); err != nil {
				return err
			}
			for i := range n {
				d := ((vr-pc.r0+i)*w + h - pc.c0) * esz
				copy(raw[d:d+esz], tmp[i*esz:(i+1)*esz])
			}
		}
		vr += n
	}
	return nil
}
