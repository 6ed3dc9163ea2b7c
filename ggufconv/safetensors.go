package ggufconv

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
	"github.com/clconv/clconv/safetensors"
)

// plainDTypes are the ggml types whose bytes are a safetensors dtype's
// little-endian elements: the view gives them as they are. F16 and BF16
// are not among them: they decode through ggml as every other float type
// (ggml's fp16 widening quiets a NaN as it does; the planner's own
// conversion of an F16 tensor need not), so that the output is the one
// rounding of ggml's float32 for every float type.
var plainDTypes = map[ggml.Type]safetensors.DType{
	ggml.F32: safetensors.F32, ggml.F64: safetensors.F64,
	ggml.I8: safetensors.I8, ggml.I16: safetensors.I16, ggml.I32: safetensors.I32, ggml.I64: safetensors.I64,
}

// Input returns the GGUF file r, read from path, as the neutral view of
// package checkpoint (checkpoint.Tensor), so that its planner converts it
// as it converts a safetensors file. Each tensor keeps its name and the
// file's order; its shape is ggml's ne reversed (row-major, outermost
// first); F32, F64 and I8 to I64 tensors are those dtypes' bytes as they
// are; every other type is a checkpoint.Codec of ggml's blocks that decodes
// to float32 bit for bit as ggml's dequantize_row_* (ggml.Dequantize), with
// no decoder for the types package ggml does not dequantize (the IQ types,
// TQ, Q1_0 ...), which the planner then refuses by name. The metadata
// becomes __metadata__ entries "gguf.<key>" (see ToSafetensors); Size is
// the bytes of tensor data.
func Input(r *gguf.Reader, path string) *checkpoint.Input {
	in := &checkpoint.Input{Path: path, Metadata: metadata(r.File), Tensors: make([]checkpoint.Tensor, len(r.Tensors))}
	for i := range r.Tensors {
		t := &r.Tensors[i]
		shape := make([]int64, 0, len(t.Dims))
		for _, d := range t.Shape() {
			shape = append(shape, int64(d))
		}
		v := checkpoint.Tensor{Name: t.Name, Shape: shape, Data: r.TensorData(i)}
		if d, ok := plainDTypes[t.Type]; ok {
			v.DType = d
		} else {
			typ := t.Type
			c := &checkpoint.Codec{Name: typ.String(), BlockElems: typ.BlockSize(), BlockBytes: typ.TypeSize()}
			if typ.Supported() {
				c.Decode = func(dst []float32, src []byte) error { return ggml.Dequantize(typ, dst, src) }
			}
			v.DType, v.Codec = safetensors.F32, c
		}
		in.Tensors[i] = v
		in.Size += v.Data.Size()
	}
	return in
}

// IsLinearWeight is checkpoint.IsLinearWeight for llama.cpp's tensor
// names: what a quantization of a GGUF file's tensors takes by default,
// the 2-D weights "blk.N.X.weight" of the blocks' linear layers (attn_q,
// attn_k, attn_v, attn_qkv, attn_output, ffn_gate, ffn_up, ffn_down, the
// shared experts' and MLA's projections ...), not token_embd, output,
// the norms (X containing "norm") or the MoE router (ffn_gate_inp); with
// experts (the block formats), also the 3-D stacked experts
// "blk.N.ffn_*_exps.weight".
func IsLinearWeight(name string, shape []int64, experts bool) bool {
	rest, ok := strings.CutPrefix(name, "blk.")
	if !ok {
		return false
	}
	_, rest, ok = strings.Cut(rest, ".")
	if !ok {
		return false
	}
	module, ok := strings.CutSuffix(rest, ".weight")
	if !ok || strings.Contains(module, "norm") || strings.HasPrefix(module, "ffn_gate_inp") {
		return false
	}
	if experts && len(shape) == 3 && strings.HasSuffix(module, "_exps") {
		return true
	}
	return len(shape) == 2 && !strings.HasSuffix(module, "_exps")
}

// ConvertToSafetensors converts the GGUF file src into the safetensors file
// dst (a .npy file when dst ends in ".npy" and one tensor is written)
// through package checkpoint's planner, on the view Input gives: what
// checkpoint.ConvertInput does to a safetensors file it does to the GGUF
// file's tensors, decoded as ggml does. opt.To converts every tensor
// (float32 from ggml's dequantization, rounded once in opt.Mode, _sat with
// opt.Sat; integers kept), opt.BlockSize (e4m3 or e5m2, opt.Recipe,
// opt.ScaleSuffix) or opt.Block quantize the linear layers' weights
// (IsLinearWeight, unless opt.Linear says otherwise: "blk.N.attn_q.weight",
// ..., not token_embd, output or norms) from those float32 values, opt.Rest converts the others, opt.Stats counts. Unlike a
// safetensors input, opt.Tensors and opt.Skip choose which tensors the
// output holds, as ToSafetensors does (a tensor of a block type cannot be
// kept byte for byte in safetensors); the rest are left out. KeepRaw,
// WeightBlockSize (there are no block-scaled safetensors layouts in a GGUF
// file) and MaxShardSize (one output file) are refused.
//
// dst appears only once complete and read back; an error or a
// cancellation leaves neither it nor a temporary file, and dst is never
// src, nor replaced without replace (checkpoint.CheckOutput).
func ConvertToSafetensors(ctx context.Context, dst, src string, replace bool, opt checkpoint.Options) (*checkpoint.Report, error) {
	rep, _, err := convertToSafetensors(ctx, dst, src, replace, opt)
	return rep, err
}

// convertToSafetensors is ConvertToSafetensors, which also returns the
// GGUF file's header (its tensors' ggml types, for ToSafetensors' report).
func convertToSafetensors(ctx context.Context, dst, src string, replace bool, opt checkpoint.Options) (*checkpoint.Report, *gguf.File, error) {
	if err := checkpoint.CheckOutput(dst, []string{src}, false, replace); err != nil {
		return nil, nil, err
	}
	if len(opt.KeepRaw) > 0 {
		return nil, nil, errors.New("ggufconv: KeepRaw keeps incomplete block-scaled safetensors layouts byte for byte; a GGUF file has none (Skip leaves tensors out)")
	}
	if opt.WeightBlockSize != [2]int{} {
		return nil, nil, errors.New("ggufconv: a weight block size describes the FP8 weights of a safetensors checkpoint; a GGUF file's blocks are its tensor types")
	}
	if opt.MaxShardSize > 0 {
		return nil, nil, errors.New("ggufconv: MaxShardSize cuts a checkpoint directory's output into shards; a GGUF file converts to one file")
	}
	sel := Options{Tensors: opt.Tensors, Skip: opt.Skip}
	if err := checkGlobs(sel.Tensors); err != nil {
		return nil, nil, err
	}
	if err := checkGlobs(sel.Skip); err != nil {
		return nil, nil, err
	}
	r, err := gguf.Open(src)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	in := Input(r, src)
	kept := in.Tensors[:0]
	in.Size = 0
	for _, t := range in.Tensors {
		if ok, _ := sel.selected(t.Name); ok {
			kept = append(kept, t)
			in.Size += t.Data.Size()
		}
	}
	in.Tensors = kept
	if strings.HasSuffix(strings.ToLower(dst), ".npy") && len(kept) != 1 {
		return nil, nil, fmt.Errorf("ggufconv: a .npy output holds one tensor, and %d are selected (use Tensors)", len(kept))
	}
	opt.Tensors, opt.Skip = nil, nil
	if opt.Linear == nil {
		opt.Linear = IsLinearWeight
	}
	rep, err := checkpoint.ConvertInput(ctx, dst, in, replace, opt)
	if err != nil {
		return nil, nil, err
	}
	var warn []string
	for _, g := range sel.Tensors {
		if !slices.ContainsFunc(r.Tensors, func(t gguf.TensorInfo) bool { return matchAny([]string{g}, t.Name) }) {
			warn = append(warn, fmt.Sprintf("--tensors %q matches no tensor of %s", g, src))
		}
	}
	rep.Warnings = append(warn, rep.Warnings...)
	return rep, r.File, nil
}

// ToSafetensors converts the GGUF file src into the safetensors file dst
// (or, when dst ends in ".npy" and the selection is one tensor, into a
// .npy file of it): ConvertToSafetensors with opt.To = to and opt's
// Tensors, Skip, Workers, Progress and Replace. Every selected tensor of a
// block type package ggml dequantizes, or F32, F16 or BF16, becomes float32
// bit for bit as ggml's dequantize_row_* gives it, then kind to
// (cltype.Float, Half, BFloat16, Double, or another floating kind
// safetensors stores) rounded once to nearest even by package convert; F64
// tensors convert from double; integer tensors (I8 to I64) keep their
// values and dtype. The shape is ggml's ne reversed (row-major, outermost
// first). A tensor of a type with no dequantizer here (the IQ types, TQ,
// Q1_0 ...) is an error naming it, unless opt.Skip or opt.Tensors leaves it
// out. The GGUF metadata goes into __metadata__ as "gguf.<key>": strings as
// they are (invalid UTF-8 replaced by U+FFFD, which safetensors requires),
// numbers as their shortest decimal, bools as true or false, arrays as JSON
// arrays (NaN and infinities as the strings "NaN", "Infinity",
// "-Infinity"). The tensors keep the GGUF file's order.
//
// The Report gives each tensor's ggml type in and what it went through
// (To F32 for the tensors decoded to float32), the dtype written and its
// bytes; TensorReport.Stats stays zero here (ConvertToSafetensors with
// checkpoint.Options.Stats gives the full statistics of each conversion).
// BytesIn and BytesOut are the tensor data read and written.
func ToSafetensors(ctx context.Context, dst, src string, to cltype.Kind, opt Options) (*Report, error) {
	if err := checkpoint.CheckOutput(dst, []string{src}, false, opt.Replace); err != nil {
		return nil, err
	}
	if _, ok := safetensors.DTypeOf(to); !ok || !to.IsFloating() {
		return nil, fmt.Errorf("ggufconv: cannot write tensors as %v: not a floating kind safetensors stores", to)
	}
	crep, r, err := convertToSafetensors(ctx, dst, src, opt.Replace, checkpoint.Options{
		To: to, Tensors: opt.Tensors, Skip: opt.Skip, Workers: opt.Workers, Progress: opt.Progress,
	})
	if err != nil {
		return nil, err
	}
	// The input's ggml types and dims, by name (the report's tensors are
	// the selected ones, in the file's order).
	rep := &Report{Src: src, Dst: dst}
	for _, t := range crep.Tensors {
		i, ok := r.Lookup(t.Name)
		if !ok {
			return nil, fmt.Errorf("ggufconv: %s: tensor %q of the conversion is not in the file", src, t.Name)
		}
		info := r.Tensors[i]
		tr := TensorReport{Name: t.Name, From: info.Type, To: info.Type, DType: t.To, Dims: info.Dims,
			BytesIn: info.Bytes(), Action: Keep}
		if d, err := safetensors.ParseDType(t.To); err == nil {
			tr.BytesOut = info.Elements() * int64(d.Bits()/8)
		}
		if _, plain := plainDTypes[info.Type]; !plain {
			tr.To = ggml.F32
		}
		if t.Action != checkpoint.ActKeep.String() {
			tr.Action = Convert
			if isQuantized(info.Type) {
				tr.Action = Requantize
			}
		}
		rep.Tensors = append(rep.Tensors, tr)
		rep.BytesIn += tr.BytesIn
		rep.BytesOut += tr.BytesOut
	}
	return rep, nil
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
