package ggml

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

func TestTable(t *testing.T) {
	want := map[Type][3]any{
		F32: {"f32", 1, 4}, F16: {"f16", 1, 2}, BF16: {"bf16", 1, 2},
		Q4_0: {"q4_0", 32, 18}, Q4_1: {"q4_1", 32, 20}, Q5_0: {"q5_0", 32, 22}, Q5_1: {"q5_1", 32, 24},
		Q8_0: {"q8_0", 32, 34}, MXFP4: {"mxfp4", 32, 17}, NVFP4: {"nvfp4", 64, 36},
		Q2_K: {"q2_K", 256, 84}, Q3_K: {"q3_K", 256, 110}, Q4_K: {"q4_K", 256, 144},
		Q5_K: {"q5_K", 256, 176}, Q6_K: {"q6_K", 256, 210}, Q8_K: {"q8_K", 256, 292},
	}
	if got := len(Types()); got != len(want) {
		t.Errorf("Types() has %d types, want %d", got, len(want))
	}
	for typ, w := range want {
		if typ.String() != w[0] || typ.BlockSize() != w[1] || typ.TypeSize() != w[2] {
			t.Errorf("%d: %s %d %d, want %v", uint32(typ), typ, typ.BlockSize(), typ.TypeSize(), w)
		}
		for _, s := range []string{w[0].(string), strings.ToUpper(w[0].(string))} {
			if p, err := ParseType(s); err != nil || p != typ {
				t.Errorf("ParseType(%q) = %v, %v", s, p, err)
			}
		}
	}
	if n, err := Q4_K.RowSize(4096); err != nil || n != 16*144 {
		t.Errorf("Q4_K.RowSize(4096) = %d, %v", n, err)
	}
	// Known but not quantized here: named, sized, refused by Quantize.
	if Q8_1.String() != "q8_1" || Q8_1.BlockSize() != 32 || Q8_1.Supported() || !Q8_1.Known() {
		t.Error("q8_1 is a known type this package does not quantize")
	}
	if _, err := Quantize(IQ2_XXS, make([]byte, 66), make([]float32, 256), 256, nil); err == nil || !strings.Contains(err.Error(), "does not quantize") {
		t.Errorf("Quantize(iq2_xxs): %v", err)
	}
	for _, id := range []Type{4, 5, 31, 32, 33, 36, 37, 38, 43, 1 << 31} {
		if id.Known() || id.BlockSize() != 0 || id.String() != "type("+strconv.FormatUint(uint64(id), 10)+")" {
			t.Errorf("type %d should be unknown", uint32(id))
		}
	}
	for _, s := range []string{"q4_2", "int4", ""} {
		if _, err := ParseType(s); err == nil {
			t.Errorf("ParseType(%q) succeeded", s)
		}
	}
	if len(KnownTypes()) != len(typeTable) {
		t.Error("KnownTypes() misses rows")
	}
}

func TestErrors(t *testing.T) {
	src := make([]float32, 64)
	dst := make([]byte, 100)
	cases := []struct {
		name string
		err  error
	}{
		{"unsupported", func() error { _, err := Quantize(Type(9), dst, src, 32, nil); return err }()},
		{"row not whole blocks", func() error { _, err := Quantize(Q8_0, dst, src, 16, nil); return err }()},
		{"zero row", func() error { _, err := Quantize(Q8_0, dst, src, 0, nil); return err }()},
		{"rows not whole", func() error { _, err := Quantize(Q8_0, dst, src[:48], 32, nil); return err }()},
		{"short dst", func() error { _, err := Quantize(Q8_0, dst[:67], src, 32, nil); return err }()},
		{"imatrix", func() error {
			_, err := Quantize(Q4_K, dst, src, 32, &Options{Imatrix: []float32{1}})
			return err
		}()},
		{"rowsize", func() error { _, err := Q4_K.RowSize(100); return err }()},
		{"deq unsupported", Dequantize(Type(9), nil, nil)},
		{"deq partial block", Dequantize(Q8_0, make([]float32, 32), make([]byte, 33))},
		{"deq dst length", Dequantize(Q8_0, make([]float32, 31), make([]byte, 34))},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if _, err := Quantize(Q4_K, dst, src, 32, &Options{Imatrix: []float32{1}}); !errors.Is(err, ErrImatrix) {
		t.Errorf("imatrix: %v", err)
	}
	if n, err := Quantize(Q8_0, dst, src, 32, &Options{}); err != nil || n != 68 {
		t.Errorf("Quantize = %d, %v", n, err)
	}
}

// TestConcurrent runs every quantizer from several goroutines on the same
// input; with -race it shows there is no shared state.
func TestConcurrent(t *testing.T) {
	x := make([]float32, 8*goldenRow)
	dist("weights", 5, x)
	for _, typ := range Types() {
		rs, _ := typ.RowSize(goldenRow)
		want := make([]byte, rs*8)
		Quantize(typ, want, x, goldenRow, nil)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got := make([]byte, len(want))
				Quantize(typ, got, x, goldenRow, nil)
				if string(got) != string(want) {
					t.Errorf("%s: concurrent result differs", typ)
				}
			}()
		}
		wg.Wait()
	}
}

// TestConverters checks the fp16 and bf16 conversions against packages half
// and bfloat16 (exact rte conversions, proven elsewhere), which differ from
// ggml only in the NaNs: ggml's fp32->fp16 drops the payload. -short checks
// 2^24 inputs, the default run 2^32/61, -long all 2^32.
func TestConverters(t *testing.T) {
	step := uint64(61)
	if *long {
		step = 1
	}
	if testing.Short() {
		step = 251
	}
	if testvals.Sampled() {
		step = 2039 // a prime: every residue class of the bits still moves
	}
	for b := uint64(0); b < 1<<32; b += step {
		f := math.Float32frombits(uint32(b))
		h := fp32ToFP16(f)
		wh := uint16(half.FromFloat32RTE(f))
		wb := uint16(bfloat16.FromFloat32(f, round.RTE))
		if f != f {
			wh = uint16(b>>16)&0x8000 | 0x7e00
		}
		if h != wh {
			t.Fatalf("fp32ToFP16(%#08x) = %#04x, want %#04x", b, h, wh)
		}
		if got := fp32ToBF16(f); got != wb {
			t.Fatalf("fp32ToBF16(%#08x) = %#04x, want %#04x", b, got, wb)
		}
	}
	for h := range 1 << 16 {
		f := fp16ToFP32(uint16(h))
		if w := half.Half(h).Float32(); math.Float32bits(f) != math.Float32bits(w) && w == w {
			t.Fatalf("fp16ToFP32(%#04x) = %v, want %v", h, f, w)
		}
	}
}

func TestFloorLog2f(t *testing.T) {
	for _, c := range []struct {
		b    uint32
		want int
	}{{0x3f800000, 0}, {0x3f7fffff, -1}, {0x3f7ffff0, -1}, {1, -149}, {0x7f7fffff, 128}, {0x40000000, 1}} {
		if got := floorLog2f(math.Float32frombits(c.b)); got != c.want {
			t.Errorf("floorLog2f(%#08x) = %d, want %d", c.b, got, c.want)
		}
	}
}

// TestTypeTable: every row of the table is whole and its own, and the
// methods read it (the numbers are checked against libggml-base by
// scripts/gguf-oracle, testdata there).
func TestTypeTable(t *testing.T) {
	seen := map[string]bool{}
	for i, ti := range typeTable {
		if seen[ti.name] || ti.block <= 0 || ti.size <= 0 || i > 0 && ti.id <= typeTable[i-1].id || (ti.quantize == nil) != (ti.dequantize == nil) {
			t.Errorf("bad row %+v", ti)
		}
		seen[ti.name] = true
		for _, s := range []string{ti.name, strings.ToUpper(ti.name)} {
			if got, err := ParseType(s); err != nil || got != ti.id {
				t.Errorf("ParseType(%q) = %v, %v", s, got, err)
			}
		}
		if ti.id.String() != ti.name || ti.id.BlockSize() != ti.block || ti.id.TypeSize() != ti.size || !ti.id.Known() {
			t.Errorf("%d: methods disagree with the table", ti.id)
		}
	}
}
