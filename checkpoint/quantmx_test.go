package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// qmxValues returns n values with a spread of magnitudes, blocks of zeros,
// ties and (when special) NaNs and infinities.
func qmxValues(r *rand.Rand, n int, special bool) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch k := r.IntN(40); {
		case k == 0 && special:
			v[i] = math.NaN()
		case k == 1 && special:
			v[i] = math.Inf(1 - 2*r.IntN(2))
		case k < 6:
			v[i] = float64(r.IntN(13)-6) * 0.5 // ties after scaling
		default:
			v[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(20)-10)
		}
	}
	if n >= 64 {
		clear(v[32:64]) // a zero block
	}
	return v
}

// qmxTensor encodes v as dtype d (which holds every value: F64, or values
// rounded to d first) and returns the tensor and the values it holds.
func qmxTensor(name string, d safetensors.DType, shape []int64, v []float64) tensor {
	var b []byte
	for _, x := range v {
		switch d {
		case safetensors.F32:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		case safetensors.F64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		case safetensors.F16:
			b = binary.LittleEndian.AppendUint16(b, uint16(half.FromFloat64(x, round.RTE)))
		case safetensors.BF16:
			b = binary.LittleEndian.AppendUint16(b, uint16(bfloat16.FromFloat64(x, round.RTE)))
		}
	}
	return tensor{safetensors.TensorInfo{Name: name, DType: d, Shape: shape}, b}
}

// qmxDirect quantizes tensor x with mx.Quantize in one call, packed as the
// checkpoint layouts are, and returns the elements, scales and stats.
func qmxDirect(t *testing.T, f *mx.Format, x tensor, mo mx.Options) ([]byte, []byte, mx.Stats) {
	t.Helper()
	rowLen := 1
	if n := len(x.info.Shape); n > 0 {
		rowLen = int(x.info.Shape[n-1])
	}
	n := int(x.info.Count())
	blocks := n / rowLen * ((rowLen + f.BlockSize - 1) / f.BlockSize)
	mo.Packed = true
	elems := make([]byte, f.ElemBytes(blocks*f.BlockSize, true))
	scales := make([]byte, blocks)
	var st mx.Stats
	var err error
	raw := x.data
	switch x.info.DType {
	case safetensors.F32:
		v := make([]float32, n)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	case safetensors.F64:
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	case safetensors.F16:
		v := make([]half.Half, n)
		for i := range v {
			v[i] = half.FromBits(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	case safetensors.BF16:
		v := make([]bfloat16.BFloat16, n)
		for i := range v {
			v[i] = bfloat16.FromBits(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	}
	if err != nil {
		t.Fatal(err)
	}
	return elems, scales, st
}

func qmxRead(t *testing.T, f *safetensors.File, name string) ([]byte, *safetensors.TensorInfo) {
	t.Helper()
	ti, ok := f.Lookup(name)
	if !ok {
		var names []string
		for _, x := range f.Tensors {
			names = append(names, x.Name)
		}
		t.Fatalf("no tensor %q in %v", name, names)
	}
	b := make([]byte, ti.Bytes())
	if _, err := f.Section(ti).ReadAt(b, 0); err != nil && len(b) > 0 {
		t.Fatal(err)
	}
	return b, ti
}

// TestQuantizeMX quantizes a checkpoint to every block format with several
// rules and modes, compares every output tensor with one mx.Quantize call
// on the whole tensor, and dequantizes the output with Convert, comparing
// with mx.Dequantize.
func TestQuantizeMX(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	big := 4100 // rows of 64: more than one chunk of chunkElems
	if testing.Short() {
		big = 40
	}
	bigV := qmxValues(r, big*64, false)
	bigV[len(bigV)-5] = math.NaN() // a NaN block in the last chunk
	ins := []tensor{
		qmxTensor("a.weight", safetensors.F32, []int64{3, 64}, qmxValues(r, 192, true)),
		qmxTensor("bf", safetensors.BF16, []int64{2, 2, 32}, qmxValues(r, 128, true)),
		qmxTensor("h", safetensors.F16, []int64{64}, qmxValues(r, 64, false)),
		qmxTensor("d", safetensors.F64, []int64{2, 96}, qmxValues(r, 192, true)),
		qmxTensor("big", safetensors.F32, []int64{int64(big), 64}, bigV),
		{safetensors.TensorInfo{Name: "n", DType: safetensors.I32, Shape: []int64{2}}, []byte{1, 0, 0, 0, 2, 0, 0, 0}},
		qmxTensor("skipped", safetensors.F32, []int64{3}, []float64{1, 2, 3}),
	}
	meta := map[string]string{"format": "pt"}
	in := writeFile(t, dir, "in.safetensors", meta, ins...)
	type cfg struct {
		rule mx.ScaleRule
		mode round.Mode
	}
	cfgs := []cfg{{mx.Floor, round.RTE}, {mx.RCEIL, round.RTZ}, {mx.Even, round.RTE}}
	if !testing.Short() {
		cfgs = append(cfgs, cfg{mx.Ceil, round.RTP}, cfg{mx.Floor, round.RTN})
	}
	for _, f := range mx.Formats {
		for _, c := range cfgs {
			if f.TensorScale && c.rule != mx.Floor {
				continue
			}
			name := f.Name + "-" + c.rule.String() + "-" + c.mode.String()
			t.Run(name, func(t *testing.T) {
				out := filepath.Join(dir, name+".safetensors")
				opt := Options{Block: f, Rule: c.rule, Mode: c.mode, Skip: []string{"skip*"}, Tensors: all, Workers: 3}
				rep, err := ConvertFile(context.Background(), out, in, false, opt)
				if err != nil {
					t.Fatal(err)
				}
				of, err := safetensors.Open(out)
				if err != nil {
					t.Fatal(err)
				}
				defer of.Close()
				if of.Metadata["format"] != "pt" {
					t.Errorf("metadata %v lost format=pt", of.Metadata)
				}
				for _, x := range ins {
					if x.info.DType == safetensors.I32 || x.info.Name == "skipped" {
						got, ti := qmxRead(t, of, x.info.Name)
						if !bytes.Equal(got, x.data) || ti.DType != x.info.DType {
							t.Errorf("%s: not copied", x.info.Name)
						}
						continue
					}
					mo := mx.Options{Rule: c.rule, Mode: c.mode}
					elems, scales, st := qmxDirect(t, f, x, mo)
					en, sn := x.info.Name+".blocks", x.info.Name+".scales"
					if f.TensorScale {
						en, sn = x.info.Name, x.info.Name+"_scale"
						ts, ti := qmxRead(t, of, x.info.Name+"_scale_2")
						if ti.DType != safetensors.F32 || len(ti.Shape) != 0 || math.Float32frombits(binary.LittleEndian.Uint32(ts)) != st.TensorScale {
							t.Errorf("%s: tensor scale %x %v %v, want %v", x.info.Name, ts, ti.DType, ti.Shape, st.TensorScale)
						}
					} else if of.Metadata[MXFormatKey(x.info.Name)] != f.Name {
						t.Errorf("%s: metadata %v", x.info.Name, of.Metadata)
					}
					ge, eti := qmxRead(t, of, en)
					gs, sti := qmxRead(t, of, sn)
					if !bytes.Equal(ge, elems) {
						t.Errorf("%s: elements differ from mx.Quantize", x.info.Name)
					}
					if !bytes.Equal(gs, scales) {
						t.Errorf("%s: scales differ from mx.Quantize", x.info.Name)
					}
					lead := x.info.Shape[:len(x.info.Shape)-1]
					c := x.info.Shape[len(x.info.Shape)-1]
					wantE := append(append([]int64(nil), lead...), c/32, int64(f.ElemBytes(32, true)))
					wantS := append(append([]int64(nil), lead...), c/32)
					if f.TensorScale {
						wantE = append(append([]int64(nil), lead...), c/2)
						wantS = append(append([]int64(nil), lead...), c/16)
					}
					if eti.DType != safetensors.U8 || !equalShape(eti.Shape, wantE) {
						t.Errorf("%s: elements %v %v, want U8 %v", x.info.Name, eti.DType, eti.Shape, wantE)
					}
					if sd := map[bool]safetensors.DType{false: safetensors.U8, true: safetensors.F8_E4M3}[f.TensorScale]; sti.DType != sd || !equalShape(sti.Shape, wantS) {
						t.Errorf("%s: scales %v %v, want %v %v", x.info.Name, sti.DType, sti.Shape, sd, wantS)
					}
					var rs *mx.Stats
					for _, tr := range rep.Tensors {
						if tr.Name == en {
							rs = tr.MX
						}
					}
					if rs == nil || *rs != st {
						t.Errorf("%s: stats %+v, want %+v", x.info.Name, rs, st)
					}
				}
				back := filepath.Join(dir, name+".back.safetensors")
				if _, err := ConvertFile(context.Background(), back, out, false, Options{To: cltype.Double}); err != nil {
					t.Fatal(err)
				}
				bf, err := safetensors.Open(back)
				if err != nil {
					t.Fatal(err)
				}
				defer bf.Close()
				for k := range bf.Metadata {
					if strings.HasPrefix(k, "clconv.mx_format.") {
						t.Errorf("dequantized output keeps %q", k)
					}
				}
				for _, x := range ins {
					if x.info.DType == safetensors.I32 || x.info.Name == "skipped" {
						continue
					}
					got, ti := qmxRead(t, bf, x.info.Name)
					if ti.DType != safetensors.F64 || !equalShape(ti.Shape, x.info.Shape) {
						t.Fatalf("%s: dequantized %v %v", x.info.Name, ti.DType, ti.Shape)
					}
					elems, scales, st := qmxDirect(t, f, x, mx.Options{Rule: c.rule, Mode: c.mode})
					rowLen := int(x.info.Shape[len(x.info.Shape)-1])
					want := make([]float64, x.info.Count())
					if _, err := mx.Dequantize(f, want, elems, scales, rowLen, mx.Options{Packed: true, TensorScale: st.TensorScale}); err != nil {
						t.Fatal(err)
					}
					for i, w := range want {
						g := math.Float64frombits(binary.LittleEndian.Uint64(got[8*i:]))
						if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
							t.Fatalf("%s[%d]: dequantized %v, mx.Dequantize %v", x.info.Name, i, g, w)
						}
					}
				}
			})
		}
	}
}

func equalShape(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestQuantizeMXPad checks --pad's layout against mx.Quantize with Pad, and
// the error without it.
func TestQuantizeMXPad(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	x := qmxTensor("w", safetensors.F32, []int64{3, 40}, qmxValues(r, 120, false))
	s := qmxTensor("s", safetensors.F32, []int64{}, []float64{5})
	in := writeFile(t, dir, "in.safetensors", nil, x, s)
	for _, f := range []*mx.Format{mx.MXFP4, mx.MXFP6E3M2, mx.NVFP4} {
		out := filepath.Join(dir, f.Name+".safetensors")
		_, err := ConvertFile(context.Background(), out, in, false, Options{Block: f, Tensors: all})
		if err == nil || !strings.Contains(err.Error(), `"w"`) || !strings.Contains(err.Error(), "length 40") ||
			!strings.Contains(err.Error(), "not a whole number") {
			t.Fatalf("%s without Pad: %v", f.Name, err)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: output left after an error", f.Name)
		}
		if _, err := ConvertFile(context.Background(), out, in, false, Options{Block: f, Pad: true, Tensors: all}); err != nil {
			t.Fatal(err)
		}
		of, err := safetensors.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		elems, scales, _ := qmxDirect(t, f, x, mx.Options{Pad: true})
		en, sn := "w.blocks", "w.scales"
		if f.TensorScale {
			en, sn = "w", "w_scale"
		}
		if ge, _ := qmxRead(t, of, en); !bytes.Equal(ge, elems) {
			t.Errorf("%s: padded elements differ", f.Name)
		}
		if gs, _ := qmxRead(t, of, sn); !bytes.Equal(gs, scales) {
			t.Errorf("%s: padded scales differ", f.Name)
		}
		of.Close()
		// The padded output dequantizes to whole blocks.
		back := filepath.Join(dir, f.Name+".back.safetensors")
		if _, err := ConvertFile(context.Background(), back, out, false, Options{To: cltype.Float}); err != nil {
			t.Fatal(err)
		}
		bf, _ := safetensors.Open(back)
		ti, _ := bf.Lookup("w")
		if want := (40 + int64(f.BlockSize) - 1) / int64(f.BlockSize) * int64(f.BlockSize); ti.Shape[1] != want {
			t.Errorf("%s: dequantized shape %v", f.Name, ti.Shape)
		}
		bf.Close()
	}
}

// TestQuantizeMXErrors checks the refusals.
func TestQuantizeMXErrors(t *testing.T) {
	dir := t.TempDir()
	x := qmxTensor("w", safetensors.F32, []int64{32}, make([]float64, 32))
	clash := qmxTensor("w.scales", safetensors.F32, []int64{1}, []float64{1})
	in := writeFile(t, dir, "in.safetensors", nil, x, clash)
	out := filepath.Join(dir, "out.safetensors")
	if _, err := ConvertFile(context.Background(), out, in, false, Options{Block: mx.MXFP4, Skip: []string{"w.scales"}, Tensors: all}); err == nil || !strings.Contains(err.Error(), "w.scales") {
		t.Errorf("clash: %v", err)
	}
	if _, err := ConvertFile(context.Background(), out, in, false, Options{Block: mx.MXFP4, To: cltype.Float, Tensors: all}); err == nil {
		t.Error("Block with To: no error")
	}
	if _, err := ConvertFile(context.Background(), out, in, false, Options{Block: mx.MXFP4, Rule: 9, Tensors: all}); err == nil || !strings.Contains(err.Error(), "floor, rceil, ceil, even") {
		t.Errorf("bad rule: %v", err)
	}
	e := tensor{safetensors.TensorInfo{Name: "e", DType: safetensors.F8_E4M3, Shape: []int64{32}}, make([]byte, 32)}
	in2 := writeFile(t, dir, "in2.safetensors", nil, e)
	if _, err := ConvertFile(context.Background(), out, in2, false, Options{Block: mx.MXFP8E4M3, Tensors: all}); err == nil || !strings.Contains(err.Error(), `"e"`) {
		t.Errorf("F8 source: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("output left after errors")
	}
}
