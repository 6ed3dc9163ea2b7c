package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// dirNamesT lists dir, sorted.
func dirNamesT(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

// noTemp fails if dir (recursively) holds a temporary file of clconv's.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && fileconv.IsTempName(d.Name()) {
			t.Errorf("temporary %s left behind", p)
		}
		return nil
	})
}

// fp8Checkpoint writes a two-shard FP8 checkpoint with an index and
// config.json into dir.
func fp8Checkpoint(t *testing.T, dir string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	w := rawTensor("x.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	for i := range w.data {
		w.data[i] &= 0x77 // finite
	}
	sc := tensor{safetensors.TensorInfo{Name: "x.weight_scale_inv", DType: safetensors.F32, Shape: []int64{2, 3}}, make([]byte, 24)}
	for i := range 6 {
		binary.LittleEndian.PutUint32(sc.data[4*i:], math.Float32bits(float32(i+1)/8))
	}
	writeFile(t, dir, "model-00001-of-00002.safetensors", nil, w, f32Tensor("y", 2, 2, rng))
	writeFile(t, dir, "model-00002-of-00002.safetensors", nil, sc)
	os.WriteFile(filepath.Join(dir, "model.safetensors.index.json"), []byte(`{"weight_map": {"x.weight": "model-00001-of-00002.safetensors", "y": "model-00001-of-00002.safetensors", "x.weight_scale_inv": "model-00002-of-00002.safetensors"}}`), 0o666)
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`), 0o666)
}

// TestForceNeverLosesFiles: --force replaces only clconv's own output;
// an output that is, contains or lies inside an input is refused before
// any work, and every input and unrelated file survives.
func TestForceNeverLosesFiles(t *testing.T) {
	root := t.TempDir()
	parent := filepath.Join(root, "parent")
	model := filepath.Join(parent, "model")
	os.MkdirAll(model, 0o777)
	fp8Checkpoint(t, model)
	before := dirNamesT(t, model)
	opt := Options{To: cltype.BFloat16}
	ctx := context.Background()

	precious := filepath.Join(root, "precious")
	os.Mkdir(precious, 0o777)
	os.WriteFile(filepath.Join(precious, "notes.txt"), []byte("mine"), 0o666)
	cases := []struct {
		name, dst, want string
	}{
		{"input's parent", parent, "contains the input"},
		{"input itself", model, "is the input"},
		{"inside the input", filepath.Join(model, "out"), "lies inside the input directory"},
		{"unrelated directory", precious, `holds "notes.txt"`},
		{"a file", filepath.Join(precious, "notes.txt"), "not a directory"},
	}
	for _, c := range cases {
		_, err := ConvertCheckpoint(ctx, c.dst, model, true, opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrUnsafeOutput) {
			t.Errorf("%s: %v, want %q (ErrUnsafeOutput)", c.name, err, c.want)
		}
	}
	if got := dirNamesT(t, model); !slices.Equal(got, before) {
		t.Errorf("input directory now %v, was %v", got, before)
	}
	if b, _ := os.ReadFile(filepath.Join(precious, "notes.txt")); string(b) != "mine" {
		t.Errorf("unrelated file: %q", b)
	}
	// A single file: its own directory as OUT, IN itself, a symlink to IN.
	single := filepath.Join(model, "model-00001-of-00002.safetensors")
	link := filepath.Join(root, "link.safetensors")
	os.Symlink(single, link)
	for _, dst := range []string{model, single, link} {
		if _, err := ConvertFile(ctx, dst, single, true, Options{To: cltype.BFloat16, KeepRaw: []string{"x.*"}}); err == nil || !errors.Is(err, ErrUnsafeOutput) {
			t.Errorf("ConvertFile to %s: %v", dst, err)
		}
	}
	// A missing parent directory is named, not a temporary file.
	_, err := ConvertFile(ctx, filepath.Join(root, "nowhere", "x.safetensors"), single, false, Options{To: cltype.BFloat16, KeepRaw: []string{"x.*"}})
	if err == nil || !strings.Contains(err.Error(), "does not exist") || strings.Contains(err.Error(), TempPrefixForTest) {
		t.Errorf("missing parent: %v", err)
	}

	// Replacing clconv's own earlier output works, twice.
	out := filepath.Join(root, "out")
	for range 2 {
		if _, err := ConvertCheckpoint(ctx, out, model, true, opt); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"config.json", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "model.safetensors.index.json"}
	if got := dirNamesT(t, out); !slices.Equal(got, want) {
		t.Errorf("output %v, want %v", got, want)
	}
	// ... but not once a user file is in it.
	os.WriteFile(filepath.Join(out, "eval.json"), []byte("{}"), 0o666)
	if _, err := ConvertCheckpoint(ctx, out, model, true, opt); err == nil || !strings.Contains(err.Error(), "eval.json") {
		t.Errorf("output with a user file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "eval.json")); err != nil {
		t.Error(err)
	}
	noTemp(t, root)
}

// TempPrefixForTest is what a temporary name holds.
const TempPrefixForTest = fileconv.TempPrefix

// TestHostileLayouts is the corpus of incomplete and conflicting
// block-scaled layouts: each is an error naming the tensors and the file,
// with nothing written; --keep-raw makes it a byte-for-byte copy.
func TestHostileLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	fp8 := rawTensor("m.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	other := rawTensor("n.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	oscale := rawTensor("n.weight_scale_inv", safetensors.F32, []int64{2, 3}, rng)
	for i := range 6 {
		binary.LittleEndian.PutUint32(oscale.data[4*i:], math.Float32bits(0.5))
	}
	blocks := rawTensor("e.blocks", safetensors.U8, []int64{2, 1, 16}, rng)
	scales := rawTensor("e.scales", safetensors.U8, []int64{2, 1}, rng)
	nv := rawTensor("v.weight", safetensors.U8, []int64{2, 8}, rng)
	nvs := rawTensor("v.weight_scale", safetensors.F8_E4M3, []int64{2, 1}, rng)
	nvs2 := rawTensor("v.weight_scale_2", safetensors.F32, []int64{}, rng)
	cases := []struct {
		name   string
		config string
		ts     []tensor
		opt    Options
		want   []string
	}{
		{"FP8 without scale, config says fp8", `{"quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`,
			[]tensor{fp8}, Options{}, []string{`"m.weight"`, "without a scale", "config.json"}},
		{"FP8 without scale, others scaled", "", []tensor{fp8, other, oscale}, Options{}, []string{`"m.weight"`, "other FP8 weights"}},
		{"MX blocks without scales", "", []tensor{blocks}, Options{}, []string{`"e.blocks"`, `"e.scales" is missing`}},
		{"MX scales without blocks", "", []tensor{scales}, Options{}, []string{`"e.scales"`, `"e.blocks" is missing`}},
		{"NVFP4 without tensor scale", "", []tensor{nv, nvs}, Options{}, []string{`"v.weight"`, `"v.weight_scale_2" is missing`}},
		{"NVFP4 without block scales", "", []tensor{nv, nvs2}, Options{}, []string{`"v.weight"`, `"v.weight_scale" is missing`}},
		{"block size against config.json", `{"quantization_config": {"weight_block_size": [2, 2]}}`,
			[]tensor{other, oscale}, Options{WeightBlockSize: [2]int{3, 2}}, []string{"3x2", "conflicts", "[2, 2]"}},
		{"scale of the wrong shape", "", []tensor{other, rawTensor("n.weight_scale_inv", safetensors.F32, []int64{3, 3}, rng)}, Options{},
			[]string{`"n.weight"`, `"n.weight_scale_inv"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeFile(t, dir, "in.safetensors", nil, c.ts...)
			if c.config != "" {
				os.WriteFile(filepath.Join(dir, "config.json"), []byte(c.config), 0o666)
			}
			out := filepath.Join(t.TempDir(), "out.safetensors")
			opt := c.opt
			opt.To = cltype.BFloat16
			_, err := ConvertFile(context.Background(), out, in, false, opt)
			var de *DataError
			if err == nil || !errors.As(err, &de) {
				t.Fatalf("error %v, want a DataError", err)
			}
			file := in
			if c.config != "" && c.opt.WeightBlockSize != [2]int{} {
				file = filepath.Join(dir, "config.json")
			}
			for _, w := range append(c.want, file) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if _, serr := os.Stat(out); serr == nil {
				t.Error("output written")
			}
			noTemp(t, filepath.Dir(out))
			if c.opt.WeightBlockSize != [2]int{} || strings.Contains(c.name, "shape") {
				return
			}
			// Kept byte for byte by choice.
			var keep []string
			for _, x := range c.ts {
				keep = append(keep, x.info.Name)
			}
			opt.KeepRaw = keep
			rep, err := ConvertFile(context.Background(), out, in, false, opt)
			if err != nil {
				t.Fatalf("--keep-raw: %v", err)
			}
			_, data := readBack(t, out)
			for _, x := range c.ts {
				if string(data[x.info.Name]) != string(x.data) {
					t.Errorf("--keep-raw: %s changed", x.info.Name)
				}
			}
			for _, tr := range rep.Tensors {
				if tr.Action != ActKeep.String() {
					t.Errorf("--keep-raw: %s: %s", tr.Name, tr.Action)
				}
			}
		})
	}
}

// TestWarnings: finite values that become NaN, a glob that matches
// nothing, a shard outside the index and layouts kept as they are are
// reported.
func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	x := tensor{safetensors.TensorInfo{Name: "big", DType: safetensors.F32, Shape: []int64{3}}, make([]byte, 12)}
	for i, v := range []float32{1, 1000, -3e38} {
		binary.LittleEndian.PutUint32(x.data[4*i:], math.Float32bits(v))
	}
	in := writeFile(t, dir, "in.safetensors", nil, x)
	out := filepath.Join(dir, "out.safetensors")
	rep, err := ConvertFile(context.Background(), out, in, false, Options{To: cltype.E4M3, Tensors: []string{"big", "nothing*"}})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(rep.Warnings, "\n")
	for _, w := range []string{`2 finite value(s) became NaN (e4m3 has no infinity)`, `"big"`, "--sat", "--block-size", `--tensors "nothing*" matches no tensor`} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings %q lack %q", all, w)
		}
	}
	// With --sat, no NaN and no warning of it.
	os.Remove(out)
	rep, err = ConvertFile(context.Background(), out, in, false, Options{To: cltype.E4M3, Sat: true})
	if err != nil || len(rep.Warnings) != 0 {
		t.Errorf("--sat: %v %q", err, rep.Warnings)
	}

	// A shard outside the index, and a layout kept by a non-dequantizing
	// destination.
	ck := filepath.Join(t.TempDir(), "ck")
	os.Mkdir(ck, 0o777)
	fp8Checkpoint(t, ck)
	writeFile(t, ck, "stray.safetensors", nil, f32Tensor("s", 1, 1, rand.New(rand.NewPCG(1, 1))))
	rep, err = ConvertCheckpoint(context.Background(), filepath.Join(t.TempDir(), "o"), ck, false, Options{To: cltype.E5M2, Sat: true})
	if err != nil {
		t.Fatal(err)
	}
	all = strings.Join(rep.Warnings, "\n")
	for _, w := range []string{"stray.safetensors is in", "left out", "2 block-scaled weight(s) and scale(s) were kept byte for byte"} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings %q lack %q", all, w)
		}
	}
	for _, tr := range rep.Tensors {
		if strings.HasPrefix(tr.Name, "x.") && tr.Action != ActKeep.String() {
			t.Errorf("%s: %s, want keep", tr.Name, tr.Action)
		}
	}
}

// TestHugeBlockSize: a block size near MaxInt64 is one block, not an
// overflow to an empty scale.
func TestHugeBlockSize(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.safetensors", nil, f32Tensor("w", 2, 2, rand.New(rand.NewPCG(5, 6))))
	out := filepath.Join(dir, "out.safetensors")
	b := math.MaxInt
	_, err := ConvertFile(context.Background(), out, in, false, Options{To: cltype.E4M3, Sat: true, BlockSize: [2]int{b, b}, Skip: nil, Tensors: all})
	if err != nil {
		// f32Tensor holds infinities and NaNs: a block with them has no
		// finite scale, and that is a clean error, not a broken file.
		var de *DataError
		if !errors.As(err, &de) {
			t.Fatal(err)
		}
		return
	}
	f, _ := readBack(t, out)
	sc, ok := f.Lookup("w_scale_inv")
	if !ok || !slices.Equal(sc.Shape, []int64{1, 1}) {
		t.Errorf("scale %+v", sc)
	}
}

// TestFIFORefused: a FIFO named like a shard is refused, not opened (which
// would block for ever).
func TestFIFORefused(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "model.safetensors")
	if err := mkfifo(p); err != nil {
		t.Skip(err)
	}
	for _, in := range []string{p, dir} {
		var err error
		if in == dir {
			_, err = ConvertCheckpoint(context.Background(), filepath.Join(t.TempDir(), "o"), in, false, Options{To: cltype.BFloat16})
		} else {
			_, err = ConvertFile(context.Background(), filepath.Join(t.TempDir(), "o.safetensors"), in, false, Options{To: cltype.BFloat16})
		}
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestDequantStats: the statistics of a dequantization are those of
// rounding the exact products, as fileconv counts them for a float64
// input holding the products (what inspect --stats --to reports).
func TestDequantStats(t *testing.T) {
	dir := t.TempDir()
	fp8Checkpoint(t, dir)
	in := filepath.Join(dir, "model-00001-of-00002.safetensors")
	sc := filepath.Join(dir, "model-00002-of-00002.safetensors")
	f1, _ := safetensors.Open(in)
	defer f1.Close()
	f2, _ := safetensors.Open(sc)
	defer f2.Close()
	for _, to := range []cltype.Kind{cltype.BFloat16, cltype.Half} {
		rep, err := Convert(context.Background(), discard{}, f1, []*safetensors.File{f2}, Options{To: to, Stats: true, WeightBlockSize: [2]int{2, 2}})
		if err != nil {
			t.Fatal(err)
		}
		var got *fileconv.Stats
		for _, tr := range rep.Tensors {
			if tr.Name == "x.weight" {
				got = tr.Stats
			}
		}
		// The products, by hand, as float64.
		w, _ := f1.Lookup("x.weight")
		raw := make([]byte, w.Bytes())
		f1.Section(w).ReadAt(raw, 0)
		s, _ := f2.Lookup("x.weight_scale_inv")
		sraw := make([]byte, s.Bytes())
		f2.Section(s).ReadAt(sraw, 0)
		lut := fp8Values(safetensors.F8_E4M3)
		prod := make([]byte, 8*len(raw))
		for i, b := range raw {
			r, c := i/6, i%6
			sv := float64(math.Float32frombits(binary.LittleEndian.Uint32(sraw[4*((r/2)*3+c/2):])))
			binary.LittleEndian.PutUint64(prod[8*i:], math.Float64bits(product(lut[b], sv)))
		}
		res, err := fileconv.Convert(context.Background(), io.Discard, bytes.NewReader(prod), fileconv.Options{Dst: to, Mode: 0, From: cltype.Double, In: fileconv.FormatRaw, Out: fileconv.FormatRaw, Stats: true})
		if err != nil {
			t.Fatal(err)
		}
		if got == nil || *got != res.Stats || got.Count != 24 {
			t.Errorf("%s: dequantization stats %+v, want %+v", to, got, res.Stats)
		}
	}
}

type discard struct{}

func (discard) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }

// TestEmptyTensorBlocks: an empty [4, 0] tensor quantized with a block
// size is an empty tensor and an empty scale, not an I/O error.
func TestEmptyTensorBlocks(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.safetensors", nil, tensor{safetensors.TensorInfo{Name: "e", DType: safetensors.F32, Shape: []int64{4, 0}}, nil},
		f32Tensor("w", 2, 2, rand.New(rand.NewPCG(1, 3))))
	out := filepath.Join(dir, "out.safetensors")
	_, err := ConvertFile(context.Background(), out, in, false, Options{To: cltype.E4M3, Sat: true, BlockSize: [2]int{2, 2}, Tensors: []string{"e"}})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := readBack(t, out)
	if sc, ok := f.Lookup("e_scale_inv"); !ok || !slices.Equal(sc.Shape, []int64{2, 0}) {
		t.Errorf("scale %+v", sc)
	}
}

// TestModelDirectory: a converted model directory holds the model's other
// files, config.json rewritten for what the weights now are.
func TestModelDirectory(t *testing.T) {
	in := filepath.Join(t.TempDir(), "m")
	os.Mkdir(in, 0o777)
	fp8Checkpoint(t, in)
	os.WriteFile(filepath.Join(in, "config.json"), []byte(`{"architectures": ["X"], "torch_dtype": "bfloat16", "quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`), 0o666)
	for _, n := range []string{"generation_config.json", "tokenizer.json", "README.md", "LICENSE", "chat_template.jinja", "pytorch_model.bin", ".hidden"} {
		os.WriteFile(filepath.Join(in, n), []byte(n), 0o666)
	}
	os.Mkdir(filepath.Join(in, "original"), 0o777)
	out := filepath.Join(t.TempDir(), "o")
	rep, err := ConvertCheckpoint(context.Background(), out, in, false, Options{To: cltype.Half})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"LICENSE", "README.md", "chat_template.jinja", "config.json", "generation_config.json", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "model.safetensors.index.json", "tokenizer.json"}
	if got := dirNamesT(t, out); !slices.Equal(got, want) {
		t.Errorf("output %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "tokenizer.json")); string(b) != "tokenizer.json" {
		t.Errorf("tokenizer.json: %q", b)
	}
	var cfg map[string]any
	b, _ := os.ReadFile(filepath.Join(out, "config.json"))
	if json.Unmarshal(b, &cfg) != nil || cfg["quantization_config"] != nil || cfg["torch_dtype"] != "float16" || cfg["architectures"] == nil {
		t.Errorf("config.json after dequantizing: %s", b)
	}
	if all := strings.Join(rep.Warnings, "\n"); !strings.Contains(all, "pytorch_model.bin (weights in another format)") || !strings.Contains(all, "original/ (a directory)") {
		t.Errorf("warnings %q", all)
	}
	// Replacing that output again is allowed: the copied files are
	// clconv's too.
	if _, err := ConvertCheckpoint(context.Background(), out, in, true, Options{To: cltype.Half}); err != nil {
		t.Fatal(err)
	}

	// Quantizing to FP8 blocks writes the config FineGrainedFP8 reads.
	src := filepath.Join(t.TempDir(), "f")
	os.Mkdir(src, 0o777)
	rng := rand.New(rand.NewPCG(9, 9))
	q := f32Tensor("l.q_proj.weight", 4, 4, rng)
	for i := 0; i < len(q.data); i += 4 {
		binary.LittleEndian.PutUint32(q.data[i:], math.Float32bits(float32(i)))
	}
	writeFile(t, src, "model.safetensors", nil, q, tensor{safetensors.TensorInfo{Name: "lm_head.weight", DType: safetensors.F32, Shape: []int64{2, 2}}, make([]byte, 16)})
	os.WriteFile(filepath.Join(src, "config.json"), []byte(`{"torch_dtype": "float32"}`), 0o666)
	out2 := filepath.Join(t.TempDir(), "o2")
	if _, err := ConvertCheckpoint(context.Background(), out2, src, false, Options{To: cltype.E4M3, BlockSize: [2]int{2, 2}, Skip: []string{"lm_head.*"}, Tensors: all}); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(out2, "config.json"))
	var cfg2 struct {
		Q struct {
			Method string   `json:"quant_method"`
			Block  []int    `json:"weight_block_size"`
			Act    string   `json:"activation_scheme"`
			Keep   []string `json:"modules_to_not_convert"`
		} `json:"quantization_config"`
		DType string `json:"torch_dtype"`
	}
	if err := json.Unmarshal(b, &cfg2); err != nil || cfg2.Q.Method != "fp8" || !slices.Equal(cfg2.Q.Block, []int{2, 2}) || cfg2.Q.Act != "dynamic" || !slices.Equal(cfg2.Q.Keep, []string{"lm_head"}) || cfg2.DType != "float32" {
		t.Errorf("config.json after quantizing: %s", b)
	}
}

// TestReferenceKeeps: dequantizing drops an FP8 or NVFP4 layer's
// input_scale (ModelOpt, compressed-tensors), and keeps DeepSeek-V3's
// e_score_correction_bias in float32, as fp8_cast_bf16.py does.
func TestReferenceKeeps(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(42, 42))
	w := rawTensor("l.weight", safetensors.F8_E4M3, []int64{4, 6}, rng)
	for i := range w.data {
		w.data[i] &= 0x77
	}
	sc := tensor{safetensors.TensorInfo{Name: "l.weight_scale", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.5))}
	is := tensor{safetensors.TensorInfo{Name: "l.input_scale", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(3))}
	bias := f32Tensor("model.layers.3.mlp.gate.e_score_correction_bias", 1, 8, rng)
	in := writeFile(t, dir, "in.safetensors", nil, w, sc, is, bias)
	out := filepath.Join(dir, "out.safetensors")
	rep, err := ConvertFile(context.Background(), out, in, false, Options{To: cltype.BFloat16})
	if err != nil {
		t.Fatal(err)
	}
	f, data := readBack(t, out)
	if _, ok := f.Lookup("l.input_scale"); ok {
		t.Error("input_scale kept after dequantizing")
	}
	if b, ok := f.Lookup(bias.info.Name); !ok || b.DType != safetensors.F32 || string(data[bias.info.Name]) != string(bias.data) {
		t.Errorf("e_score_correction_bias: %+v", b)
	}
	for _, tr := range rep.Tensors {
		if tr.Name == "l.input_scale" && tr.Action != ActDropScale.String() {
			t.Errorf("input_scale: %s", tr.Action)
		}
	}
}
