package ggufconv

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
	"github.com/clconv/clconv/safetensors"
)

// integerKinds maps ggml's integer tensor types to their kinds.
var integerKinds = map[ggml.Type]cltype.Kind{
	ggml.I8: cltype.Char, ggml.I16: cltype.Short, ggml.I32: cltype.Int, ggml.I64: cltype.Long,
}

// stPlan is what ToSafetensors does with one selected tensor.
type stPlan struct {
	in     int
	info   gguf.TensorInfo
	kind   cltype.Kind // the output's element kind
	copy   bool        // bytes as they are (integers, or a float already of the kind)
	double bool        // an F64 tensor, converted from double directly
}

// ToSafetensors converts the GGUF file src into the safetensors file dst
// (or, when dst ends in ".npy" and the selection is one tensor, into a
// .npy file of it). Every selected tensor of a block type package ggml
// dequantizes, or F32, F16 or BF16, becomes float32 bit for bit as ggml's
// dequantize_row_* gives it, then kind to (cltype.Float, Half, BFloat16,
// Double, or another floating kind safetensors stores) rounded once to
// nearest even by package convert; F64 tensors convert from double;
// integer tensors (I8 to I64) keep their values and dtype. The shape is
// ggml's ne reversed (row-major, outermost first). A tensor of a type with
// no dequantizer here (the IQ types, TQ, Q1_0 ...) is an error naming it,
// unless opt.Skip or opt.Tensors leaves it out. The GGUF metadata goes
// into __metadata__ as "gguf.<key>": strings as they are (invalid UTF-8
// replaced by U+FFFD, which safetensors requires), numbers as their
// shortest decimal, bools as true or false, arrays as JSON arrays (NaN and
// infinities as the strings "NaN", "Infinity", "-Infinity"). The tensors
// keep the GGUF file's order.
//
// It streams as ConvertGGUF does, and dst appears only once complete and
// re-read (safetensors.Open or fileconv.ReadHeader).
func ToSafetensors(ctx context.Context, dst, src string, to cltype.Kind, opt Options) (*Report, error) {
	if err := checkpoint.CheckOutput(dst, []string{src}, false, opt.Replace); err != nil {
		return nil, err
	}
	if err := checkGlobs(opt.Tensors); err != nil {
		return nil, err
	}
	if err := checkGlobs(opt.Skip); err != nil {
		return nil, err
	}
	_, ok := safetensors.DTypeOf(to)
	if !ok || !to.IsFloating() {
		return nil, fmt.Errorf("ggufconv: cannot write tensors as %v: not a floating kind safetensors stores", to)
	}
	r, err := gguf.Open(src)
	if err != nil {
		return nil, err
	}
	defer r.Close()

	var plans []stPlan
	for i, t := range r.Tensors {
		if ok, _ := opt.selected(t.Name); !ok {
			continue
		}
		p := stPlan{in: i, info: t, kind: to}
		switch {
		case integerKinds[t.Type] != cltype.Invalid:
			p.kind, p.copy = integerKinds[t.Type], true
		case t.Type == ggml.F64:
			p.double, p.copy = true, to == cltype.Double
		case t.Type.Supported():
			p.copy = t.Type == ggml.F32 && to == cltype.Float
		default:
			return nil, fmt.Errorf("%s: tensor %q: type %v has no dequantizer here (Skip it to leave it out)", src, t.Name, t.Type)
		}
		plans = append(plans, p)
	}
	npy := strings.HasSuffix(strings.ToLower(dst), ".npy")
	if npy && len(plans) != 1 {
		return nil, fmt.Errorf("ggufconv: a .npy output holds one tensor, and %d are selected (use Tensors)", len(plans))
	}

	rep := &Report{Src: src, Dst: dst}
	var total int64
	infos := make([]safetensors.TensorInfo, len(plans))
	for k, p := range plans {
		total += p.info.Bytes()
		dtk, _ := safetensors.DTypeOf(p.kind)
		shape := make([]int64, 0, len(p.info.Dims))
		for _, d := range p.info.Shape() {
			shape = append(shape, int64(d))
		}
		infos[k] = safetensors.TensorInfo{Name: p.info.Name, DType: dtk, Shape: shape}
	}

	af, err := fileconv.CreateAtomic(dst, opt.Replace)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			af.Abort()
		}
	}()
	bw := bufio.NewWriterSize(af, 1<<20)
	var out io.Writer
	var sw *safetensors.Writer
	if npy {
		hdr := fileconv.EncodeHeader(plans[0].kind, false, infos[0].Shape, 0)
		if _, err := bw.Write(hdr); err != nil {
			return nil, err
		}
		out = bw
	} else {
		sw, err = safetensors.NewWriter(bw, infos, metadata(r.File))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dst, err)
		}
		out = sw
	}
	pool := newPool(ctx, opt.workers())
	defer pool.close()
	prog := &progress{fn: opt.Progress, total: total}
	var written int64
	for k, p := range plans {
		tr := TensorReport{Name: p.info.Name, From: p.info.Type, To: p.info.Type, DType: infos[k].DType.String(),
			Dims: p.info.Dims, BytesIn: p.info.Bytes(), Action: Keep}
		sec := r.TensorData(p.in)
		var n int64
		switch {
		case p.copy:
			n, err = io.Copy(out, &ctxReader{ctx: ctx, r: sec, prog: prog})
		case p.double:
			tr.Action = Convert
			n, err = io.Copy(out, &kindReader{ctx: ctx, r: sec, from: cltype.Double, to: p.kind, prog: prog})
		default:
			tr.Action, tr.To = Convert, ggml.F32
			if isQuantized(p.info.Type) {
				tr.Action = Requantize
			}
			size := int64(p.kind.Size())
			kind := p.kind
			conv := func(dst []byte, f []float32) error {
				tmp := make([]byte, 4*len(f))
				for i, v := range f {
					putF32(tmp[4*i:], v)
				}
				if kind == cltype.Float {
					copy(dst, tmp)
					return nil
				}
				return convert.Bytes(kind, cltype.Float, dst, tmp, convert.RTE, false)
			}
			cr := newChunkReader(pool, sec, p.info, ggml.F32, conv, size, prog)
			n, err = io.Copy(out, cr)
			tr.Stats = cr.stats
			cr.stop()
		}
		if err != nil {
			return nil, tensorErr(ctx, src, p.info.Name, err)
		}
		tr.BytesOut = n
		written += n
		rep.BytesIn += tr.BytesIn
		rep.Tensors = append(rep.Tensors, tr)
	}
	if sw != nil {
		if err := sw.Close(); err != nil {
			return nil, fmt.Errorf("%s: %w", dst, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("%s: %w", dst, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if npy {
		af.Verify = func(tmp string) error { return verifyNPY(tmp, infos[0]) }
	} else {
		want := sw.Tensors()
		af.Verify = func(tmp string) error { return verifySafetensors(tmp, want) }
	}
	if err := af.Commit(); err != nil {
		return nil, err
	}
	committed = true
	rep.BytesOut = written
	return rep, nil
}

func putF32(b []byte, v float32) {
	u := math.Float32bits(v)
	b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
}

// kindReader converts a stream of elements of one kind to another, in
// pieces, checking ctx between them.
type kindReader struct {
	ctx      context.Context
	r        io.Reader
	from, to cltype.Kind
	prog     *progress
	in, out  []byte
}

func (k *kindReader) Read(p []byte) (int, error) {
	for len(k.out) == 0 {
		if err := k.ctx.Err(); err != nil {
			return 0, err
		}
		if k.in == nil {
			k.in = make([]byte, 1<<20/k.from.Size()*k.from.Size())
		}
		n, err := io.ReadFull(k.r, k.in)
		if n%k.from.Size() != 0 {
			return 0, io.ErrUnexpectedEOF
		}
		if n == 0 {
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return 0, err
		}
		buf := make([]byte, n/k.from.Size()*k.to.Size())
		if cerr := convert.Bytes(k.to, k.from, buf, k.in[:n], convert.RTE, false); cerr != nil {
			return 0, cerr
		}
		k.prog.add(int64(n))
		k.out = buf
	}
	n := copy(p, k.out)
	k.out = k.out[n:]
	return n, nil
}

func verifySafetensors(tmp string, want []safetensors.TensorInfo) error {
	f, err := safetensors.Open(tmp)
	if err != nil {
		return fmt.Errorf("ggufconv: the output does not read back: %w", err)
	}
	defer f.Close()
	if len(f.Tensors) != len(want) {
		return fmt.Errorf("ggufconv: the output reads back with %d tensors, not %d", len(f.Tensors), len(want))
	}
	for i, t := range f.Tensors {
		w := want[i]
		if t.Name != w.Name || t.DType != w.DType || t.Begin != w.Begin || t.End != w.End || fmt.Sprint(t.Shape) != fmt.Sprint(w.Shape) {
			return fmt.Errorf("ggufconv: the output's tensor %q reads back as %v %v, not %v %v", w.Name, t.DType, t.Shape, w.DType, w.Shape)
		}
	}
	return nil
}

func verifyNPY(tmp string, want safetensors.TensorInfo) error {
	f, err := openFile(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	h, err := fileconv.ReadHeader(f)
	if err != nil {
		return fmt.Errorf("ggufconv: the output does not read back: %w", err)
	}
	if k := want.DType.Kind(); h.Kind != k || fmt.Sprint(h.Shape) != fmt.Sprint(want.Shape) {
		return fmt.Errorf("ggufconv: the output reads back as %v %v, not %v %v", h.Kind, h.Shape, k, want.Shape)
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != h.DataOffset+h.DataLen() {
		return fmt.Errorf("ggufconv: the output has %d bytes, not %d", st.Size(), h.DataOffset+h.DataLen())
	}
	return nil
}

// metadata renders the GGUF metadata as safetensors' string map.
func metadata(f *gguf.File) map[string]string {
	m := make(map[string]string, len(f.KV))
	for _, kv := range f.KV {
		m["gguf."+kv.Key] = renderValue(kv.Value)
	}
	return m
}

// renderValue renders a metadata value as text: a string as it is, a
// number in shortest decimal, an array as JSON.
func renderValue(v gguf.Value) string {
	if s, ok := v.Str(); ok {
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	if _, ok := v.Array(); ok {
		var b bytes.Buffer
		writeJSON(&b, v)
		return b.String()
	}
	return scalarText(v, false)
}

// scalarText renders a number or bool; in JSON, non-finite floats become
// strings.
func scalarText(v gguf.Value, inJSON bool) string {
	if b, ok := v.Bool(); ok {
		return strconv.FormatBool(b)
	}
	var f float64
	var bits int
	switch v.Type() {
	case gguf.ValueFloat32:
		x, _ := v.Float()
		f, bits = x, 32
	case gguf.ValueFloat64:
		x, _ := v.Float()
		f, bits = x, 64
	default:
		if i, ok := v.Int(); ok {
			return strconv.FormatInt(i, 10)
		}
		u, _ := v.Uint()
		return strconv.FormatUint(u, 10)
	}
	switch {
	case math.IsNaN(f):
		if inJSON {
			return `"NaN"`
		}
		return "NaN"
	case math.IsInf(f, 1):
		if inJSON {
			return `"Infinity"`
		}
		return "Infinity"
	case math.IsInf(f, -1):
		if inJSON {
			return `"-Infinity"`
		}
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

func writeJSON(b *bytes.Buffer, v gguf.Value) {
	if s, ok := v.Str(); ok {
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		if !utf8.ValidString(s) {
			s = strings.ToValidUTF8(s, "\uFFFD")
		}
		enc.Encode(s)
		b.Truncate(b.Len() - 1) // Encode's newline
		return
	}
	if a, ok := v.Array(); ok {
		b.WriteByte('[')
		for i, e := range a {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, e)
		}
		b.WriteByte(']')
		return
	}
	b.WriteString(scalarText(v, true))
}

func openFile(name string) (*os.File, error) { return os.Open(name) }
