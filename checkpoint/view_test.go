package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// int8Codec is a toy block type: blocks of 4 elements, a float32 scale
// and 4 int8 codes (8 bytes), decoding to scale * code.
var int8Codec = &Codec{Name: "toy4", BlockElems: 4, BlockBytes: 8, Decode: func(dst []float32, src []byte) error {
	for b := 0; 8*b < len(src); b++ {
		s := math.Float32frombits(binary.LittleEndian.Uint32(src[8*b:]))
		for i := range 4 {
			dst[4*b+i] = s * float32(int8(src[8*b+4+i]))
		}
	}
	return nil
}}

// toyTensor encodes rows x cols values (cols a multiple of 4) as int8Codec
// blocks and returns the tensor and its decoded float32 bytes.
func toyTensor(name string, rows, cols int) (Tensor, []byte) {
	var enc, dec []byte
	for i := 0; i < rows*cols; i += 4 {
		s := float32(i%13+1) / 8
		enc = binary.LittleEndian.AppendUint32(enc, math.Float32bits(s))
		for k := range 4 {
			c := int8((i+k)*37%255 - 127)
			enc = append(enc, byte(c))
			dec = binary.LittleEndian.AppendUint32(dec, math.Float32bits(s*float32(c)))
		}
	}
	return Tensor{Name: name, DType: safetensors.F32, Shape: []int64{int64(rows), int64(cols)},
		Data: io.NewSectionReader(bytes.NewReader(enc), 0, int64(len(enc))), Codec: int8Codec}, dec
}

// TestDecodedReadAt: an encoded tensor reads as its float32 bytes at every
// offset and length, whole blocks or not, element-aligned or not.
func TestDecodedReadAt(t *testing.T) {
	tt, dec := toyTensor("x", 3, 8)
	if tt.Bytes() != int64(len(dec)) || tt.stored() != 3*2*8 {
		t.Fatalf("Bytes %d stored %d", tt.Bytes(), tt.stored())
	}
	r := tt.values()
	for off := range len(dec) + 1 {
		for n := 0; off+n <= len(dec)+2; n++ {
			p := make([]byte, n)
			got, err := r.ReadAt(p, int64(off))
			want := min(n, len(dec)-off)
			if got != want || !bytes.Equal(p[:got], dec[off:off+want]) {
				t.Fatalf("ReadAt(%d bytes, %d): %d %v", n, off, got, err)
			}
			if n > 0 && (want < n) != (err == io.EOF) {
				t.Fatalf("ReadAt(%d bytes, %d): error %v", n, off, err)
			}
		}
	}
}

// TestConvertInput converts a view made by hand (encoded and plain
// tensors) with FP8 block quantization and to .npy, and compares with the
// same values as a safetensors file of F32 tensors.
func TestConvertInput(t *testing.T) {
	dir := t.TempDir()
	a, adec := toyTensor("l.weight", 6, 12)
	b, bdec := toyTensor("norm.weight", 1, 8)
	b.Shape = []int64{8}
	in := &Input{Path: filepath.Join(dir, "in.toy"), Tensors: []Tensor{a, b}, Metadata: map[string]string{"k": "v"}, Size: a.stored() + b.stored()}
	os.WriteFile(in.Path, nil, 0o666)

	ref := filepath.Join(dir, "ref.safetensors")
	var buf bytes.Buffer
	w, err := safetensors.NewWriter(&buf, []safetensors.TensorInfo{
		{Name: "l.weight", DType: safetensors.F32, Shape: a.Shape}, {Name: "norm.weight", DType: safetensors.F32, Shape: b.Shape},
	}, in.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(adec)
	w.Write(bdec)
	w.Close()
	os.WriteFile(ref, buf.Bytes(), 0o666)

	ctx := context.Background()
	for _, opt := range []Options{
		{To: cltype.E4M3, BlockSize: [2]int{4, 5}, Rest: cltype.BFloat16, Workers: 2},
		{To: cltype.Half, Stats: true},
		{To: cltype.Float},
	} {
		got, exp := filepath.Join(dir, "got.safetensors"), filepath.Join(dir, "exp.safetensors")
		rep, err := ConvertInput(ctx, got, in, true, opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ConvertFile(ctx, exp, ref, true, opt); err != nil {
			t.Fatal(err)
		}
		gb, _ := os.ReadFile(got)
		eb, _ := os.ReadFile(exp)
		if !bytes.Equal(gb, eb) {
			t.Errorf("%+v: the view's output differs from the safetensors file's", opt)
		}
		if rep.Tensors[0].From != "toy4" {
			t.Errorf("From %q", rep.Tensors[0].From)
		}
		if opt.To == cltype.Float && rep.Tensors[0].Action != ActDecode.String() {
			t.Errorf("to float: action %q", rep.Tensors[0].Action)
		}
	}
	// One tensor to .npy: the header of clconv's .npy conversion, then
	// the values.
	npy := filepath.Join(dir, "a.npy")
	if _, err := ConvertInput(ctx, npy, &Input{Path: in.Path, Tensors: []Tensor{a}}, false, Options{To: cltype.Float}); err != nil {
		t.Fatal(err)
	}
	nb, _ := os.ReadFile(npy)
	hdr := fileconv.EncodeHeader(cltype.Float, false, a.Shape, 0)
	if !bytes.Equal(nb, append(hdr, adec...)) {
		t.Error(".npy output differs")
	}
	if _, err := ConvertInput(ctx, filepath.Join(dir, "two.npy"), in, false, Options{To: cltype.Float}); err == nil || !strings.Contains(err.Error(), ".npy") {
		t.Errorf("two tensors to .npy: %v", err)
	}
	if _, err := ConvertInput(ctx, in.Path, in, true, Options{To: cltype.Float}); err == nil {
		t.Error("output = input accepted")
	}
	// A codec without a decoder is refused by name, selected or not (its
	// blocks have no safetensors dtype to be copied as).
	c := *int8Codec
	c.Decode = nil
	u := a
	u.Codec = &c
	bad := &Input{Tensors: []Tensor{u, b}}
	if _, err := ConvertInput(ctx, filepath.Join(dir, "u.safetensors"), bad, false, Options{To: cltype.Half}); err == nil || !strings.Contains(err.Error(), "toy4") {
		t.Errorf("no decoder: %v", err)
	}
	if _, err := ConvertInput(ctx, filepath.Join(dir, "u.safetensors"), bad, false, Options{To: cltype.Half, Skip: []string{"l.*"}}); err == nil {
		t.Error("skipped tensor without a decoder accepted")
	}
	// Blocks that do not fill the shape are refused before anything is
	// written.
	short := a
	short.Shape = []int64{7, 12}
	if _, err := ConvertInput(ctx, filepath.Join(dir, "s.safetensors"), &Input{Tensors: []Tensor{short}}, false, Options{To: cltype.Half}); err == nil || !strings.Contains(err.Error(), "toy4 blocks") {
		t.Errorf("blocks short of the shape: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fileconv.IsTempName(e.Name()) {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
