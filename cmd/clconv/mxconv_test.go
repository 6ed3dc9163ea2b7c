package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// mxTestValues returns n float64 values that every source type holds
// after rounding (the tests quantize what the file holds).
func mxTestValues(seed uint64, n int) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	v := make([]float64, n)
	for i := range v {
		if r.IntN(6) == 0 {
			v[i] = float64(r.IntN(13)-6) * 0.5
		} else {
			v[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(12)-6)
		}
	}
	return v
}

// mxEncode returns v in kind k's little-endian bytes and the values as
// the element type mx.Quantize reads.
func mxEncode(k cltype.Kind, v []float64) []byte {
	var b []byte
	for _, x := range v {
		switch k {
		case cltype.Float:
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x)))
		case cltype.Double:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		case cltype.Half:
			b = binary.LittleEndian.AppendUint16(b, uint16(half.FromFloat64(x, round.RTE)))
		case cltype.BFloat16:
			b = binary.LittleEndian.AppendUint16(b, uint16(bfloat16.FromFloat64(x, round.RTE)))
		}
	}
	return b
}

// mxDirect quantizes raw data of kind k with one mx.Quantize call, packed.
func mxDirect(t *testing.T, f *mx.Format, k cltype.Kind, raw []byte, rowLen int, mo mx.Options) ([]byte, []byte, mx.Stats) {
	t.Helper()
	n := len(raw) / k.Size()
	blocks := n / rowLen * ((rowLen + f.BlockSize - 1) / f.BlockSize)
	elems := make([]byte, f.ElemBytes(blocks*f.BlockSize, true))
	scales := make([]byte, blocks)
	mo.Packed = true
	var st mx.Stats
	var err error
	switch k {
	case cltype.Float:
		v := make([]float32, n)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	case cltype.Double:
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	case cltype.Half:
		v := make([]half.Half, n)
		for i := range v {
			v[i] = half.FromBits(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		st, err = mx.Quantize(f, elems, scales, v, rowLen, mo)
	case cltype.BFloat16:
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

// mxTensorBytes returns the data of tensor name of the safetensors file at path.
func mxTensorBytes(t *testing.T, path, name string) ([]byte, *safetensors.TensorInfo, map[string]string) {
	t.Helper()
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ti, ok := f.Lookup(name)
	if !ok {
		t.Fatalf("%s: no tensor %q", path, name)
	}
	b := make([]byte, ti.Bytes())
	if _, err := f.Section(ti).ReadAt(b, 0); err != nil && len(b) > 0 {
		t.Fatal(err)
	}
	c := *ti
	return b, &c, f.Metadata
}

// TestMXConvertNPY quantizes .npy files of every source type to every
// block format and compares with mx.Quantize.
func TestMXConvertNPY(t *testing.T) {
	dir := t.TempDir()
	kinds := []cltype.Kind{cltype.Float, cltype.Double, cltype.Half, cltype.BFloat16}
	shape := []int64{3, 2, 64}
	v := mxTestValues(1, 384)
	type cfg struct{ rule, mode string }
	cfgs := []cfg{{"floor", "rte"}, {"rceil", "rtz"}}
	for ki, k := range kinds {
		raw := mxEncode(k, v)
		in := convWrite(t, dir, "w"+k.String()+".npy", append(fileconv.EncodeHeader(k, false, shape, 0), raw...))
		for _, f := range mx.Formats {
			for ci, c := range cfgs {
				if ki > 0 && ci > 0 && f != mx.MXFP4 {
					continue // keep the matrix small: every type once per format
				}
				out := filepath.Join(dir, f.Name+k.String()+c.rule+c.mode+".safetensors")
				args := []string{"convert", "--to", f.Name, "--round", c.mode, in, out}
				if !f.TensorScale {
					args = append(args, "--scale-rule", c.rule)
				}
				stdout, stderr, st := convRun(t, nil, args...)
				if st != 0 {
					t.Fatalf("%v: status %d: %s", args, st, stderr)
				}
				if stdout != "" {
					t.Errorf("%v: stdout %q", args, stdout)
				}
				rule, _ := mx.ParseScaleRule(c.rule)
				mode, _ := round.ParseMode(c.mode)
				elems, scales, ms := mxDirect(t, f, k, raw, 64, mx.Options{Rule: rule, Mode: mode})
				name := "w" + k.String()
				en, sn := name+".blocks", name+".scales"
				if f.TensorScale {
					en, sn = name, name+"_scale"
					ts, ti, _ := mxTensorBytes(t, out, name+"_scale_2")
					if ti.DType != safetensors.F32 || math.Float32frombits(binary.LittleEndian.Uint32(ts)) != ms.TensorScale {
						t.Errorf("%v: tensor scale", args)
					}
				}
				ge, eti, meta := mxTensorBytes(t, out, en)
				gs, _, _ := mxTensorBytes(t, out, sn)
				if !bytes.Equal(ge, elems) || !bytes.Equal(gs, scales) {
					t.Errorf("%v: output differs from mx.Quantize", args)
				}
				if !f.TensorScale {
					if want := []int64{3, 2, 2, int64(f.ElemBytes(32, true))}; !equalInts(eti.Shape, want) {
						t.Errorf("%v: blocks shape %v, want %v", args, eti.Shape, want)
					}
					if meta["clconv.mx_format."+name] != f.Name {
						t.Errorf("%v: metadata %v", args, meta)
					}
				}
			}
		}
	}
}

func equalInts(a, b []int64) bool {
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

// TestMXConvertSafetensors quantizes a safetensors file (a tensor left out
// with --skip, an integer tensor kept), checks --stats and --json, and
// dequantizes the output again with convert --to double.
func TestMXConvertSafetensors(t *testing.T) {
	dir := t.TempDir()
	v := mxTestValues(2, 64)
	v[40] = math.NaN()
	in := stFile(t, dir, func() []float32 {
		x := make([]float32, len(v))
		for i := range v {
			x[i] = float32(v[i])
		}
		return x
	}()...)
	raw := mxEncode(cltype.Float, v)
	for _, f := range mx.Formats {
		out := filepath.Join(dir, f.Name+".safetensors")
		stdout, stderr, st := convRun(t, nil, "convert", "--to", f.Name, "--tensors", "*", "--json", in, out)
		if st != 0 {
			t.Fatalf("%s: status %d: %s", f.Name, st, stderr)
		}
		var rep struct {
			Format  string `json:"format"`
			Tensors []struct {
				Name    string `json:"name"`
				Action  string `json:"action"`
				Outputs []struct {
					Name  string  `json:"name"`
					DType string  `json:"dtype"`
					Shape []int64 `json:"shape"`
				} `json:"outputs"`
				Stats map[string]any `json:"stats"`
			} `json:"tensors"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", f.Name, err, stdout)
		}
		_, _, ms := mxDirect(t, f, cltype.Float, raw, 64, mx.Options{})
		if rep.Format != f.Name || len(rep.Tensors) != 2 || rep.Tensors[0].Name != "w" || rep.Tensors[1].Action != "keep" {
			t.Fatalf("%s: report %s", f.Name, stdout)
		}
		s := rep.Tensors[0].Stats
		if s["nan_inputs"] != 1.0 || s["nan_blocks"] != 1.0 || s["first_nan_block"] != float64(ms.FirstNaN) || s["elements"] != 64.0 {
			t.Errorf("%s: stats %v, want %+v", f.Name, s, ms)
		}
		if n := len(rep.Tensors[0].Outputs); n != map[bool]int{false: 2, true: 3}[f.TensorScale] {
			t.Errorf("%s: outputs %+v", f.Name, rep.Tensors[0].Outputs)
		}
		n, _, _ := mxTensorBytes(t, out, "n")
		if !bytes.Equal(n, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}) {
			t.Errorf("%s: integer tensor not copied", f.Name)
		}

		// Back to double with convert's dequantization.
		back := filepath.Join(dir, f.Name+".back.safetensors")
		if _, stderr, st := convRun(t, nil, "convert", "--to", "double", out, back); st != 0 {
			t.Fatalf("%s: dequantize: %s", f.Name, stderr)
		}
		got, ti, _ := mxTensorBytes(t, back, "w")
		elems, scales, ms2 := mxDirect(t, f, cltype.Float, raw, 64, mx.Options{})
		want := make([]float64, 64)
		if _, err := mx.Dequantize(f, want, elems, scales, 64, mx.Options{Packed: true, TensorScale: ms2.TensorScale}); err != nil {
			t.Fatal(err)
		}
		if ti.DType != safetensors.F64 {
			t.Fatalf("%s: dequantized dtype %v", f.Name, ti.DType)
		}
		for i, w := range want {
			g := math.Float64frombits(binary.LittleEndian.Uint64(got[8*i:]))
			if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("%s[%d]: %v, mx.Dequantize %v", f.Name, i, g, w)
			}
		}
	}

	// --stats text, and --skip.
	out := filepath.Join(dir, "stats.safetensors")
	stdout, stderr, st := convRun(t, nil, "convert", "--to", "mxfp4", "--tensors", "*", "--scale-rule", "rceil", "--stats", in, out)
	if st != 0 {
		t.Fatal(stderr)
	}
	for _, want := range []string{"mxfp4 (rceil, rte)", "w: quantize-mx F32 -> w.blocks U8 [2, 16], w.scales U8 [2]", "NaN inputs 1", "NaN blocks 1 (first: block 1)", "n: keep I32"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--stats output lacks %q:\n%s", want, stdout)
		}
	}
	out2 := filepath.Join(dir, "skip.safetensors")
	if _, stderr, st := convRun(t, nil, "convert", "--to", "nvfp4", "--skip", "w", in, out2); st != 0 {
		t.Fatal(stderr)
	}
	if _, ti, _ := mxTensorBytes(t, out2, "w"); ti.DType != safetensors.F32 {
		t.Errorf("--skip w: w is %v", ti.DType)
	}
}

// TestMXConvertErrors checks the messages, the exit status and that no
// output is left.
func TestMXConvertErrors(t *testing.T) {
	dir := t.TempDir()
	npy40 := convWrite(t, dir, "odd.npy", convNPY([]int64{2, 20}, false, make([]float32, 40)...))
	npy64 := convWrite(t, dir, "ok.npy", convNPY([]int64{64}, false, make([]float32, 64)...))
	ints := convWrite(t, dir, "ints.npy", append(fileconv.EncodeHeader(cltype.Int, false, []int64{32}, 0), make([]byte, 128)...))
	out := filepath.Join(dir, "out.safetensors")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--to", "mxfp5", npy64, out}, []string{"mxfp5", "mxfp4, mxfp6-e2m3, mxfp6-e3m2, mxfp8-e4m3, mxfp8-e5m2, nvfp4"}},
		{[]string{"--to", "mxfp4", "--scale-rule", "up", npy64, out}, []string{`"up"`, "floor, rceil, ceil, even"}},
		{[]string{"--to", "mxfp4", "--round", "near", npy64, out}, []string{`"near"`, "rte, rtz, rtp or rtn"}},
		{[]string{"--to", "mxfp4", npy40, out}, []string{`"odd"`, "length 20", "32-element mxfp4 blocks", "--pad"}},
		{[]string{"--to", "nvfp4", npy40, out}, []string{`"odd"`, "length 20", "16-element nvfp4"}},
		{[]string{"--to", "nvfp4", "--scale-rule", "ceil", npy64, out}, []string{"no shared exponent"}},
		{[]string{"--to", "float", "--pad", npy64, out}, []string{"--pad applies to the block formats"}},
		{[]string{"--to", "mxfp4", "--sat", npy64, out}, []string{"--sat"}},
		{[]string{"--to", "mxfp4", npy64, "-"}, []string{"not '-'"}},
		{[]string{"--to", "mxfp4", ints, out}, []string{"<i4", "float32, float64, float16 or bfloat16"}},
	} {
		_, stderr, st := convRun(t, nil, append([]string{"convert"}, c.args...)...)
		want := 2 // usage
		if c.args[2] == npy40 {
			want = 1 // the input's data does not fit the format
		}
		if st != want {
			t.Errorf("%v: status %d, want %d (%s)", c.args, st, want, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, stderr, w)
			}
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: output left", c.args)
		}
	}
	if names := convDirNames(t, dir); len(names) != 3 {
		t.Errorf("temporary files left: %v", names)
	}
	// --pad quantizes the odd file.
	if _, stderr, st := convRun(t, nil, "convert", "--to", "mxfp4", "--pad", npy40, out); st != 0 {
		t.Fatal(stderr)
	}
	if _, ti, _ := mxTensorBytes(t, out, "odd.blocks"); !equalInts(ti.Shape, []int64{2, 1, 16}) {
		t.Errorf("padded shape %v", ti.Shape)
	}
	// An existing OUT needs --force.
	if _, stderr, st := convRun(t, nil, "convert", "--to", "mxfp4", npy64, out); st != 2 || !strings.Contains(stderr, "--force") {
		t.Errorf("existing OUT: %d %s", st, stderr)
	}
}
