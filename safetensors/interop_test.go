package safetensors

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// torchDTypes maps PyTorch's dtype names to safetensors' (safetensors'
// bindings/python/src/lib.rs and py_src/safetensors/torch.py).
var torchDTypes = map[string]DType{
	"bool": BOOL, "uint8": U8, "int8": I8, "uint16": U16, "int16": I16, "uint32": U32, "int32": I32,
	"uint64": U64, "int64": I64, "float16": F16, "bfloat16": BF16, "float32": F32, "float64": F64,
	"float8_e4m3fn": F8_E4M3, "float8_e5m2": F8_E5M2, "float8_e8m0fnu": F8_E8M0, "float4_e2m1fn_x2": F4,
}

// TestInterop checks this package against PyTorch and safetensors when
// CLCONV_SAFETENSORS_INTEROP names a folder (testdata/make_fixtures.py says
// how to fill it; the device script runs: make_fixtures.py save DIR >
// DIR/torch_all.json; this test; make_fixtures.py load DIR/go_*.safetensors
// > DIR/go_loaded.json; this test again):
//
//   - DIR/torch_all.safetensors, written by safetensors.torch.save_file, must
//     read back with the bit patterns, shapes (F4's doubled) and hashes of
//     DIR/torch_all.json; NewWriter after SortTensors must rewrite it byte
//     for byte; and clconv's rte conversions of conv_src must give torch's
//     conv_* tensors;
//   - it writes DIR/go_all.safetensors (every dtype torch has),
//     DIR/go_f6.safetensors and DIR/go_expected.json;
//   - when DIR/go_loaded.json exists (make_fixtures.py load of those), torch
//     must have loaded go_all with the expected dtypes, shapes and bytes.
func TestInterop(t *testing.T) {
	dir := os.Getenv("CLCONV_SAFETENSORS_INTEROP")
	if dir == "" {
		t.Skip("CLCONV_SAFETENSORS_INTEROP is not set")
	}
	if _, err := os.Stat(filepath.Join(dir, "torch_all.json")); err == nil {
		checkTorchFile(t, dir)
	} else {
		t.Logf("no torch_all.json in %s: %v", dir, err)
	}
	expected := writeGoFiles(t, dir)
	if b, err := os.ReadFile(filepath.Join(dir, "go_loaded.json")); err == nil {
		checkLoaded(t, b, expected)
	}
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

func checkTorchFile(t *testing.T, dir string) {
	var desc struct {
		Torch   string
		Tensors map[string]struct {
			Skipped    string
			TorchDType string  `json:"torch_dtype"`
			TorchShape []int64 `json:"torch_shape"`
			Bits       []uint64
			SHA256     string
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "torch_all.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &desc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "torch_all.safetensors")
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	t.Logf("torch %s wrote %d tensors, header %d bytes, metadata %v", desc.Torch, len(f.Tensors), f.HeaderLen, f.Metadata)
	for name, d := range desc.Tensors {
		if d.Skipped != "" {
			t.Logf("%s: %s", name, d.Skipped)
			continue
		}
		ti, ok := f.Lookup(name)
		if !ok {
			t.Errorf("%s: not in the file", name)
			continue
		}
		want, ok := torchDTypes[d.TorchDType]
		if !ok || ti.DType != want {
			t.Errorf("%s: dtype %s for torch.%s", name, ti.DType, d.TorchDType)
		}
		shape := slices.Clone(d.TorchShape)
		if ti.DType == F4 && len(shape) > 0 {
			shape[len(shape)-1] *= 2 // safetensors stores F4 shapes in elements
		}
		if !slices.Equal(ti.Shape, shape) {
			t.Errorf("%s: shape %v, want %v (torch %v)", name, ti.Shape, shape, d.TorchShape)
		}
		raw, _ := io.ReadAll(f.Section(ti))
		if sha(raw) != d.SHA256 {
			t.Errorf("%s: bytes differ from torch's", name)
		}
		size := max(ti.DType.Bits()/8, 1)
		for i, bits := range d.Bits {
			var got uint64
			for k := range size {
				got |= uint64(raw[i*size+k]) << (8 * k)
			}
			if got != bits {
				t.Errorf("%s: element %d is %#x, torch says %#x", name, i, got, bits)
				break
			}
		}
		if ti.DType == F4 {
			codes := make([]uint8, ti.Count())
			UnpackF4(codes, raw)
			for i, c := range codes {
				if want := uint8(d.Bits[i/2]>>(4*(i%2))) & 15; c != want {
					t.Errorf("%s: F4 element %d is %d, want %d", name, i, c, want)
					break
				}
			}
		}
	}

	// torch's float32 -> float16, bfloat16, float8_e4m3fn, float8_e5m2
	// (round to nearest even) against clconv's rte.
	compare := func(name string, got []byte) {
		ti, ok := f.Lookup(name)
		if !ok {
			t.Errorf("%s: missing", name)
			return
		}
		want, _ := io.ReadAll(f.Section(ti))
		if !bytes.Equal(got, want) {
			src, _ := ReadTensor[float32](f, "conv_src", ReadOptions{})
			size := ti.DType.Bits() / 8
			for i := range src {
				if !bytes.Equal(got[i*size:(i+1)*size], want[i*size:(i+1)*size]) {
					t.Errorf("%s: %g: clconv gives % x, torch % x", name, src[i], got[i*size:(i+1)*size], want[i*size:(i+1)*size])
				}
			}
		}
	}
	rte := ReadOptions{Mode: round.RTE}
	h, err := ReadTensor[half.Half](f, "conv_src", rte)
	compare("conv_float16", leBytes(h))
	bf, err2 := ReadTensor[bfloat16.BFloat16](f, "conv_src", rte)
	compare("conv_bfloat16", leBytes(bf))
	e4, err3 := ReadTensor[fp8.E4M3](f, "conv_src", rte)
	compare("conv_float8_e4m3fn", leBytes(e4))
	e5, err4 := ReadTensor[fp8.E5M2](f, "conv_src", rte)
	compare("conv_float8_e5m2", leBytes(e5))
	for _, err := range []error{err, err2, err3, err4} {
		if err != nil {
			t.Error(err)
		}
	}

	// NewWriter, after SortTensors, writes what save_file wrote.
	orig, _ := os.ReadFile(path)
	ts := slices.Clone(f.Tensors)
	SortTensors(ts)
	var out bytes.Buffer
	w, err := NewWriter(&out, ts, f.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ts {
		ti, _ := f.Lookup(ts[i].Name)
		io.Copy(w, f.Section(ti))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), orig) {
		n := min(len(orig), out.Len(), int(f.DataOffset()))
		i := 0
		for i < n && orig[i] == out.Bytes()[i] {
			i++
		}
		t.Errorf("NewWriter's file differs from save_file's at byte %d:\n ours   %q\n theirs %q", i, out.Bytes()[i:min(i+80, out.Len())], orig[i:min(i+80, len(orig))])
	}
}

// goDesc is a tensor as make_fixtures.py load describes it.
type goDesc struct {
	DType  string  `json:"dtype"`
	Shape  []int64 `json:"shape"`
	SHA256 string  `json:"sha256"`
}

// goExpected is what torch should make of go_all.safetensors.
type goExpected map[string]goDesc

func writeGoFiles(t *testing.T, dir string) goExpected {
	torchName := map[DType]string{}
	for n, d := range torchDTypes {
		torchName[d] = n
	}
	exp := goExpected{}
	var ts, f6 []TensorInfo
	var data, f6data [][]byte
	for _, d := range DTypes {
		shape := []int64{3, 8}
		n := 24 * d.Bits() / 8
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*91 + 7*int(d))
			if d == BOOL {
				b[i] &= 1
			}
		}
		ti := TensorInfo{Name: "go_" + d.String(), DType: d, Shape: shape}
		if _, ok := torchName[d]; !ok {
			f6, f6data = append(f6, ti), append(f6data, b)
			continue
		}
		ts, data = append(ts, ti), append(data, b)
		tshape := slices.Clone(shape)
		if d == F4 {
			tshape[1] /= 2 // torch's float4_e2m1fn_x2 counts bytes
		}
		exp[ti.Name] = goDesc{"torch." + torchName[d], tshape, sha(b)}
	}
	// A scalar and an empty tensor too.
	ts = append(ts, TensorInfo{Name: "go_scalar", DType: F64, Shape: []int64{}}, TensorInfo{Name: "go_empty", DType: BF16, Shape: []int64{0, 5}})
	data = append(data, []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f}, nil)
	exp["go_scalar"] = goDesc{"torch.float64", []int64{}, sha(data[len(data)-2])}
	exp["go_empty"] = goDesc{"torch.bfloat16", []int64{0, 5}, sha(nil)}

	write := func(name string, ts []TensorInfo, data [][]byte) {
		if err := os.WriteFile(filepath.Join(dir, name), writeAll(t, ts, data, map[string]string{"format": "pt"}), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go_all.safetensors", ts, data)
	write("go_f6.safetensors", f6, f6data)
	b, _ := json.MarshalIndent(exp, "", " ")
	if err := os.WriteFile(filepath.Join(dir, "go_expected.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return exp
}

func checkLoaded(t *testing.T, b []byte, exp goExpected) {
	var loaded struct {
		Files map[string]map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &loaded); err != nil {
		t.Fatal(err)
	}
	all := loaded.Files["go_all.safetensors"]
	if all == nil {
		t.Fatal("go_loaded.json has no go_all.safetensors")
	}
	for loader, tensors := range all {
		for name, raw := range tensors {
			var got struct {
				DType  string  `json:"dtype"`
				Shape  []int64 `json:"shape"`
				SHA256 string  `json:"sha256"`
				Error  string  `json:"error"`
			}
			json.Unmarshal(raw, &got)
			want, ok := exp[name]
			switch {
			case !ok:
				t.Logf("%s: %s: %s", loader, name, raw)
			case loader != "torch":
				// numpy has no dtype for most ML formats: report, and
				// check what it did load.
				if got.Error == "" && (got.SHA256 != want.SHA256 || !slices.Equal(got.Shape, want.Shape) && want.DType != "torch.float4_e2m1fn_x2") {
					t.Errorf("%s: %s: %+v, want %+v", loader, name, got, want)
				}
				t.Logf("%s: %s: %s", loader, name, raw)
			case got.DType != want.DType || !slices.Equal(got.Shape, want.Shape) || got.SHA256 != want.SHA256:
				t.Errorf("torch: %s: %s, want %+v", name, raw, want)
			}
		}
		if loader == "torch" {
			for name := range exp {
				if _, ok := tensors[name]; !ok {
					t.Errorf("torch did not load %s", name)
				}
			}
		}
	}
	t.Logf("go_f6.safetensors: %s", fmt.Sprint(loaded.Files["go_f6.safetensors"]))
}
