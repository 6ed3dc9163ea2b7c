package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

var modes = []round.Mode{round.RTE, round.RTZ, round.RTP, round.RTN}

// tensor is a test tensor: its header entry and its little-endian bytes.
type tensor struct {
	info safetensors.TensorInfo
	data []byte
}

// writeFile writes a safetensors file of the tensors with the package's
// writer and returns its path.
func writeFile(t *testing.T, dir, name string, meta map[string]string, ts ...tensor) string {
	t.Helper()
	b, err := stBytes(meta, ts...)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}

// f32Tensor makes an F32 tensor of values that exercise rounding: random
// bit patterns (NaNs, infinities and subnormals included) and values near
// bfloat16 ties.
func f32Tensor(name string, rows, cols int, rng *rand.Rand) tensor {
	data := make([]byte, 4*rows*cols)
	for i := 0; i < rows*cols; i++ {
		var b uint32
		switch i % 4 {
		case 0:
			b = rng.Uint32()
		case 1:
			b = rng.Uint32()&0xffff0000 | 0x8000 // a bfloat16 tie
		case 2:
			b = math.Float32bits(float32(rng.NormFloat64()))
		default:
			b = rng.Uint32() & 0x807fffff // subnormal or zero
		}
		binary.LittleEndian.PutUint32(data[4*i:], b)
	}
	return tensor{safetensors.TensorInfo{Name: name, DType: safetensors.F32, Shape: []int64{int64(rows), int64(cols)}}, data}
}

func rawTensor(name string, d safetensors.DType, shape []int64, rng *rand.Rand) tensor {
	n := int64(1)
	for _, s := range shape {
		n *= s
	}
	data := make([]byte, n*int64(d.Bits())/8)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	return tensor{safetensors.TensorInfo{Name: name, DType: d, Shape: shape}, data}
}

// readBack opens path and returns its tensors' infos and bytes.
func readBack(t *testing.T, path string) (*safetensors.File, map[string][]byte) {
	t.Helper()
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	out := map[string][]byte{}
	for i := range f.Tensors {
		ti := &f.Tensors[i]
		b := make([]byte, ti.Bytes())
		if _, err := f.Section(ti).ReadAt(b, 0); err != nil && len(b) > 0 {
			t.Fatal(err)
		}
		out[ti.Name] = b
	}
	return f, out
}

func TestConvertFileBF16(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	ts := []tensor{
		f32Tensor("model.embed.weight", 33, 17, rng),
		rawTensor("model.steps", safetensors.I64, []int64{5}, rng),
		rawTensor("model.norm.weight", safetensors.BF16, []int64{64}, rng),
		rawTensor("model.mask", safetensors.BOOL, []int64{0}, rng),
		f32Tensor("lm_head.weight", 7, 300, rng),
		rawTensor("model.half", safetensors.F16, []int64{4, 9}, rng),
	}
	meta := map[string]string{"format": "pt", "note": "kept"}
	in := writeFile(t, dir, "in.safetensors", meta, ts...)
	for _, m := range modes {
		for _, sat := range []bool{false, true} {
			out := filepath.Join(dir, "out.safetensors")
			rep, err := ConvertFile(context.Background(), out, in, true, Options{To: cltype.BFloat16, Mode: m, Sat: sat, Stats: true, Skip: []string{"lm_head.*"}})
			if err != nil {
				t.Fatal(err)
			}
			f, got := readBack(t, out)
			if len(f.Tensors) != len(ts) || f.Metadata["note"] != "kept" || f.Metadata["format"] != "pt" {
				t.Fatalf("%v: %d tensors, metadata %v", m, len(f.Tensors), f.Metadata)
			}
			for i, x := range ts {
				ti := f.Tensors[i]
				if ti.Name != x.info.Name {
					t.Fatalf("tensor %d is %q, want %q (order kept)", i, ti.Name, x.info.Name)
				}
				want := x.data
				wantType := x.info.DType
				if x.info.DType == safetensors.F32 && x.info.Name != "lm_head.weight" || x.info.DType == safetensors.F16 {
					wantType = safetensors.BF16
					want = make([]byte, len(x.data)/x.info.DType.Kind().Size()*2)
					if err := convert.Bytes(cltype.BFloat16, x.info.DType.Kind(), want, x.data, m, sat); err != nil {
						t.Fatal(err)
					}
				}
				if ti.DType != wantType || !bytes.Equal(got[ti.Name], want) {
					t.Errorf("%v sat=%v: tensor %q: dtype %v (want %v), bytes equal %v", m, sat, ti.Name, ti.DType, wantType, bytes.Equal(got[ti.Name], want))
				}
			}
			if rep.Tensors[0].Action != "convert" || rep.Tensors[0].Stats == nil || rep.Tensors[0].Stats.Count != 33*17 {
				t.Errorf("report %+v", rep.Tensors[0])
			}
			if rep.Tensors[4].Action != "keep" {
				t.Errorf("lm_head.weight: %s, want keep (--skip)", rep.Tensors[4].Action)
			}
		}
	}
}

// exactRound rounds the exact value x into format f by the integer-only
// reference.
func exactRound(f *minifloat.Format, x *big.Float, m round.Mode, sat bool) uint64 {
	switch {
	case x.IsInf():
		return f.Encode(minifloat.Value{Class: minifloat.ClassInf, Neg: x.Signbit()}, m, sat)
	case x.Sign() == 0:
		return f.Encode(minifloat.Value{Class: minifloat.ClassZero, Neg: x.Signbit()}, m, sat)
	}
	// x's significand truncated to 64 bits, with a sticky bit for the rest.
	mant := new(big.Float)
	exp := x.MantExp(mant) // x = mant * 2^exp, 0.5 <= |mant| < 1
	mant.Abs(mant)
	mant.SetMantExp(mant, 64)
	sig, acc := mant.Uint64()
	if acc != big.Exact {
		sig |= 1
	}
	return f.Encode(minifloat.Value{Class: minifloat.ClassFinite, Neg: x.Signbit(), Sig: sig, Exp: exp - 64}, m, sat)
}

func bigOf(v float64) *big.Float { return new(big.Float).SetPrec(0).SetFloat64(v) }

func TestDequantFP8(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, cols = 300, 260
	for _, wd := range []safetensors.DType{safetensors.F8_E4M3, safetensors.F8_E5M2, safetensors.F8_E4M3FNUZ, safetensors.F8_E5M2FNUZ} {
		for _, suffix := range []string{"_scale_inv", "_scale"} {
			w := rawTensor("layer.weight", wd, []int64{rows, cols}, rng)
			for i := range 256 { // every pattern at least once
				w.data[i*7] = byte(i)
			}
			sc := rawTensor("layer.weight"+suffix, safetensors.F32, []int64{3, 3}, rng)
			scales := []float32{1, 0x1p-149, 3.1e38, 0x1p-126, 2.5, 1e-20, 0.0123, 448, 7}
			for i, s := range scales {
				binary.LittleEndian.PutUint32(sc.data[4*i:], math.Float32bits(s))
			}
			in := writeFile(t, dir, "fp8.safetensors", nil, rawTensor("a", safetensors.I8, []int64{3}, rng), w, sc)
			elem := minifloat.OfKind(wd.Kind())
			for _, to := range []cltype.Kind{cltype.BFloat16, cltype.Half, cltype.Float} {
				dst := minifloat.OfKind(to)
				for _, m := range modes {
					out := filepath.Join(dir, "out.safetensors")
					rep, err := ConvertFile(context.Background(), out, in, true, Options{To: to, Mode: m})
					if err != nil {
						t.Fatal(err)
					}
					f, got := readBack(t, out)
					if len(f.Tensors) != 2 || f.Tensors[1].Name != "layer.weight" {
						t.Fatalf("tensors %v: want a and layer.weight (the scale dropped)", f.Tensors)
					}
					if rep.Tensors[1].Action != "dequantize" || rep.Tensors[1].Block[0] != 128 || rep.Tensors[2].Action != "drop" {
						t.Fatalf("report %+v", rep.Tensors)
					}
					data := got["layer.weight"]
					for i := 0; i < rows*cols; i += 1 + i%3 {
						r, c := i/cols, i%cols
						s := scales[(r/128)*3+c/128]
						ev := math.Float64frombits(minifloat.ToFloat64Bits(elem, uint64(w.data[i])))
						var want uint64
						if math.IsNaN(ev) {
							want = dst.Encode(elem.Decode(uint64(w.data[i])), m, false)
						} else {
							want = exactRound(dst, new(big.Float).Mul(bigOf(ev), bigOf(float64(s))), m, false)
						}
						var gotBits uint64
						for b := to.Size() - 1; b >= 0; b-- {
							gotBits = gotBits<<8 | uint64(data[i*to.Size()+b])
						}
						if gotBits != want {
							t.Fatalf("%v %s -> %v %v: element (%d, %d) = %#x * %g: got %#x, want %#x", wd, suffix, to, m, r, c, w.data[i], s, gotBits, want)
						}
					}
				}
			}
		}
	}
}

// quotientRef rounds the exact x/s into f.
func quotientRef(f *minifloat.Format, x, s float64, m round.Mode, sat bool) uint64 {
	if math.IsNaN(x) {
		return f.Encode(minifloat.Value{Class: minifloat.ClassNaN, Neg: math.Signbit(x), Sig: 1 << 63}, m, sat)
	}
	q := new(big.Float).SetPrec(300).Quo(bigOf(x), bigOf(s))
	return exactRound(f, q, m, sat)
}

func TestQuotient(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range []*minifloat.Format{minifloat.E4M3, minifloat.E5M2, minifloat.E2M1, minifloat.E2M3, minifloat.E3M2} {
		for n := 0; n < 20000; n++ {
			// A boundary of f's grid (a value or a midpoint) times s, moved
			// by a few float64 units: the quotient rounded to nearest lands
			// on the boundary while the exact one is off it.
			code := uint64(rng.IntN(int(f.MaxBits()) + 1))
			b := math.Float64frombits(minifloat.ToFloat64Bits(f, code))
			if rng.IntN(2) == 0 {
				b += math.Float64frombits(minifloat.ToFloat64Bits(f, 1)) / 2 // a midpoint (in the subnormal step)
			}
			s := float64(float32(math.Ldexp(1+rng.Float64(), rng.IntN(60)-30)))
			x := b * s
			for range rng.IntN(3) {
				x = math.Nextafter(x, math.Inf(2*rng.IntN(2)-1))
			}
			if rng.IntN(4) == 0 {
				x = -x
			}
			q := Quotient(x, s)
			for _, m := range modes {
				want := quotientRef(f, x, s, m, true)
				got := minifloat.FromFloat64Bits(f, math.Float64bits(q), m, true)
				if got != want {
					t.Fatalf("%s %v: x=%v s=%v: Quotient %v rounds to %#x, the exact quotient to %#x", f.Name, m, x, s, q, got, want)
				}
			}
		}
	}
}

func TestQuantFP8(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	const rows, cols = 70, 90
	src := f32Tensor("w", rows, cols, rng)
	// No infinities or NaNs in the quantized tensor: they have no finite scale.
	for i := 0; i < rows*cols; i++ {
		v := math.Float32frombits(binary.LittleEndian.Uint32(src.data[4*i:]))
		if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
			binary.LittleEndian.PutUint32(src.data[4*i:], math.Float32bits(float32(rng.NormFloat64())))
		}
	}
	// One block all zero.
	for r := 0; r < 32; r++ {
		for c := 0; c < 32; c++ {
			binary.LittleEndian.PutUint32(src.data[4*(r*cols+c):], 0)
		}
	}
	in := writeFile(t, dir, "q.safetensors", nil, src, rawTensor("b", safetensors.F16, []int64{3}, rng))
	for _, to := range []cltype.Kind{cltype.E4M3, cltype.E5M2} {
		f := minifloat.OfKind(to)
		maxv := fp8Max(to)
		for _, m := range modes {
			out := filepath.Join(dir, "out.safetensors")
			_, err := ConvertFile(context.Background(), out, in, true, Options{To: to, Mode: m, BlockSize: [2]int{32, 32}, Tensors: []string{"w"}})
			if err != nil {
				t.Fatal(err)
			}
			file, got := readBack(t, out)
			if len(file.Tensors) != 3 || file.Tensors[1].Name != "w_scale_inv" || file.Tensors[1].Shape[0] != 3 || file.Tensors[1].Shape[1] != 3 {
				t.Fatalf("tensors %+v", file.Tensors)
			}
			for br := 0; br < 3; br++ {
				for bc := 0; bc < 3; bc++ {
					amax := 0.0
					for r := br * 32; r < min(rows, br*32+32); r++ {
						for c := bc * 32; c < min(cols, bc*32+32); c++ {
							amax = math.Max(amax, math.Abs(float64(math.Float32frombits(binary.LittleEndian.Uint32(src.data[4*(r*cols+c):])))))
						}
					}
					s := math.Float32frombits(binary.LittleEndian.Uint32(got["w_scale_inv"][4*(br*3+bc):]))
					// The scale is the least float32 >= amax/max (1 for zeros).
					exact := new(big.Float).SetPrec(300).Quo(bigOf(amax), bigOf(maxv))
					below := math.Nextafter32(s, 0)
					if amax == 0 && s != 1 || amax != 0 && (bigOf(float64(s)).Cmp(exact) < 0 || bigOf(float64(below)).Cmp(exact) >= 0) {
						t.Fatalf("%v block (%d,%d): amax %g, scale %g", to, br, bc, amax, s)
					}
					for r := br * 32; r < min(rows, br*32+32); r++ {
						for c := bc * 32; c < min(cols, bc*32+32); c++ {
							x := float64(math.Float32frombits(binary.LittleEndian.Uint32(src.data[4*(r*cols+c):])))
							want := quotientRef(f, x, float64(s), m, false)
							if g := uint64(got["w"][r*cols+c]); g != want {
								t.Fatalf("%v %v (%d,%d): %g / %g: got %#x, want %#x", to, m, r, c, x, s, g, want)
							}
						}
					}
				}
			}
		}
	}
}

func TestSharded(t *testing.T) {
	in := t.TempDir()
	rng := rand.New(rand.NewPCG(9, 10))
	w := rawTensor("x.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	sc := rawTensor("x.weight_scale_inv", safetensors.F32, []int64{2, 3}, rng)
	for i := range 6 {
		binary.LittleEndian.PutUint32(sc.data[4*i:], math.Float32bits(float32(i+1)/8))
	}
	writeFile(t, in, "model-00001-of-00002.safetensors", map[string]string{"format": "pt"}, w, f32Tensor("y", 2, 2, rng))
	writeFile(t, in, "model-00002-of-00002.safetensors", nil, sc, rawTensor("z", safetensors.I32, []int64{2}, rng))
	idx := `{"metadata": {"total_size": 1234, "other": "x"}, "weight_map": {"x.weight": "model-00001-of-00002.safetensors", "y": "model-00001-of-00002.safetensors", "x.weight_scale_inv": "model-00002-of-00002.safetensors", "z": "model-00002-of-00002.safetensors"}}`
	os.WriteFile(filepath.Join(in, "model.safetensors.index.json"), []byte(idx), 0o666)
	os.WriteFile(filepath.Join(in, "config.json"), []byte(`{"quantization_config": {"weight_block_size": [2, 2]}}`), 0o666)
	out := filepath.Join(t.TempDir(), "out")
	rep, err := ConvertCheckpoint(context.Background(), out, in, false, Options{To: cltype.BFloat16, Mode: round.RTE})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Shards != 2 {
		t.Errorf("shards %d", rep.Shards)
	}
	var got struct {
		Metadata  map[string]any    `json:"metadata"`
		WeightMap map[string]string `json:"weight_map"`
	}
	b, err := os.ReadFile(filepath.Join(out, "model.safetensors.index.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &got)
	if _, ok := got.WeightMap["x.weight_scale_inv"]; ok || len(got.WeightMap) != 3 || got.Metadata["other"] != "x" {
		t.Errorf("index %s", b)
	}
	// total_size: x.weight 4*6*2 + y 4*2 + z 2*4.
	if got.Metadata["total_size"] != float64(48+8+8) {
		t.Errorf("total_size %v, want 64", got.Metadata["total_size"])
	}
	f, data := readBack(t, filepath.Join(out, "model-00001-of-00002.safetensors"))
	if f.Tensors[0].DType != safetensors.BF16 || f.Metadata["format"] != "pt" {
		t.Errorf("shard 1: %+v", f.Tensors)
	}
	for i := range 24 {
		r, c := i/6, i%6
		s := float64(r/2*3+c/2+1) / 8
		ev := math.Float64frombits(minifloat.ToFloat64Bits(minifloat.E4M3, uint64(w.data[i])))
		want := minifloat.FromFloat64Bits(minifloat.BFloat16, math.Float64bits(ev*s), round.RTE, false)
		if g := uint64(binary.LittleEndian.Uint16(data["x.weight"][2*i:])); g != want {
			t.Errorf("x.weight[%d] = %#x, want %#x", i, g, want)
		}
	}
	// An existing output is refused without replace, and nothing changes.
	if _, err := ConvertCheckpoint(context.Background(), out, in, false, Options{To: cltype.BFloat16}); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("existing output: %v", err)
	}
}

func TestErrorsLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(11, 12))
	w := rawTensor("l.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	cases := []struct {
		name  string
		ts    []tensor
		opt   Options
		error string
	}{
		{"scale shape", []tensor{w, rawTensor("l.weight_scale_inv", safetensors.F32, []int64{3, 5}, rng)}, Options{To: cltype.BFloat16},
			`tensor "l.weight" (shape [4, 6]) and its scale "l.weight_scale_inv" (shape [3, 5])`},
		{"F64 scale", []tensor{w, rawTensor("l.weight_scale_inv", safetensors.F64, []int64{2, 2}, rng)}, Options{To: cltype.BFloat16},
			"the scale must be F32, BF16 or F16"},
		{"integer destination", []tensor{w}, Options{To: cltype.Int}, "must be a floating type"},
		{"infinite block", []tensor{{safetensors.TensorInfo{Name: "q", DType: safetensors.F32, Shape: []int64{1, 2}}, []byte{0, 0, 0x80, 0x7f, 0, 0, 0, 0}}},
			Options{To: cltype.E4M3, BlockSize: [2]int{1, 2}, Tensors: all}, `tensor "q": block (0, 0): the block holds +Inf`},
		{"bad glob", []tensor{w}, Options{To: cltype.BFloat16, Tensors: []string{"["}}, "bad glob"},
	}
	for _, c := range cases {
		in := writeFile(t, dir, "in.safetensors", nil, c.ts...)
		out := filepath.Join(dir, "out.safetensors")
		_, err := ConvertFile(context.Background(), out, in, false, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.error)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%s: the directory holds %d entries after the error", c.name, len(ents))
		}
	}
}

func TestDequantFP4Layouts(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(13, 14))
	// gpt-oss MXFP4: blocks [2, 3, 16] bytes, scales [2, 3] E8M0 (one NaN).
	blocks := rawTensor("m.experts.w_blocks", safetensors.U8, []int64{2, 3, 16}, rng)
	scales := rawTensor("m.experts.w_scales", safetensors.U8, []int64{2, 3}, rng)
	copy(scales.data, []byte{127, 0, 254, 0xff, 100, 140})
	// ModelOpt NVFP4: weight [3, 16] bytes = [3, 32] elements, scales [3, 2], a tensor scale.
	nw := rawTensor("l.weight", safetensors.U8, []int64{3, 16}, rng)
	ns := rawTensor("l.weight_scale", safetensors.F8_E4M3, []int64{3, 2}, rng)
	for i := range ns.data {
		ns.data[i] &= 0x7e // positive, not NaN
	}
	ns2 := tensor{safetensors.TensorInfo{Name: "l.weight_scale_2", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.0123))}
	in := writeFile(t, dir, "fp4.safetensors", nil, blocks, scales, nw, ns, ns2, rawTensor("l.input_scale", safetensors.F32, []int64{}, rng))
	e2m1 := func(c byte) float64 {
		return math.Float64frombits(minifloat.ToFloat64Bits(minifloat.E2M1, uint64(c&15)))
	}
	for _, to := range []cltype.Kind{cltype.BFloat16, cltype.Half, cltype.Float} {
		dst := minifloat.OfKind(to)
		for _, m := range modes {
			out := filepath.Join(dir, "out.safetensors")
			rep, err := ConvertFile(context.Background(), out, in, true, Options{To: to, Mode: m})
			if err != nil {
				t.Fatal(err)
			}
			f, got := readBack(t, out)
			var names []string
			for _, ti := range f.Tensors {
				names = append(names, ti.Name+":"+ti.DType.String()+ShapeString(ti.Shape))
			}
			// ModelOpt's activation scale means nothing to dequantized
			// weights: it is dropped with the weight's scales.
			want := []string{"m.experts.w:" + mustDType(to).String() + "[2, 96]", "l.weight:" + mustDType(to).String() + "[3, 32]"}
			if strings.Join(names, " ") != strings.Join(want, " ") {
				t.Fatalf("tensors %v, want %v (report %+v)", names, want, rep.Tensors)
			}
			read := func(name string, i int) uint64 {
				var v uint64
				for b := to.Size() - 1; b >= 0; b-- {
					v = v<<8 | uint64(got[name][i*to.Size()+b])
				}
				return v
			}
			for i := range 2 * 96 {
				row, col := i/96, i%96
				byt := blocks.data[row*48+col/2]
				code := byt >> (4 * (col % 2)) // the first element in the low nibble
				s := scales.data[row*3+col/32]
				var w uint64
				if s == 0xff {
					w, _ = dst.NaNBits()
				} else {
					x := new(big.Float).SetMantExp(bigOf(e2m1(code)), int(s)-127)
					w = exactRound(dst, x, m, false)
				}
				if g := read("m.experts.w", i); g != w {
					t.Fatalf("MXFP4 %v %v element %d: code %d scale %d: got %#x, want %#x", to, m, i, code&15, s, g, w)
				}
			}
			for i := range 3 * 32 {
				row, col := i/32, i%32
				code := nw.data[row*16+col/2] >> (4 * (col % 2))
				sc := math.Float64frombits(minifloat.ToFloat64Bits(minifloat.E4M3, uint64(ns.data[row*2+col/16])))
				x := new(big.Float).Mul(bigOf(e2m1(code)), bigOf(sc))
				x.Mul(x, bigOf(float64(float32(0.0123))))
				if g, w := read("l.weight", i), exactRound(dst, x, m, false); g != w {
					t.Fatalf("NVFP4 %v %v element %d: got %#x, want %#x", to, m, i, g, w)
				}
			}
		}
	}
}
