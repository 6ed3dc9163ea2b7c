package gguf

import "testing"

func TestTypeTable(t *testing.T) {
	seen := map[string]bool{}
	for _, ti := range typeTable {
		if seen[ti.name] || ti.blockSize <= 0 || ti.typeSize <= 0 {
			t.Errorf("bad row %+v", ti)
		}
		seen[ti.name] = true
		for _, s := range []string{ti.name, upper(ti.name)} {
			if got, err := ParseType(s); err != nil || got != ti.id {
				t.Errorf("ParseType(%q) = %v, %v", s, got, err)
			}
		}
		if ti.id.String() != ti.name || ti.id.BlockSize() != ti.blockSize || ti.id.TypeSize() != ti.typeSize {
			t.Errorf("%d: methods disagree with the table", ti.id)
		}
	}
	// The brief's and ggml-common.h's numbers for the common types.
	for _, c := range []struct {
		t          Type
		name       string
		block, siz int
	}{
		{F32, "f32", 1, 4}, {F16, "f16", 1, 2}, {Q4_0, "q4_0", 32, 18}, {Q8_0, "q8_0", 32, 34},
		{Q4_K, "q4_K", 256, 144}, {Q6_K, "q6_K", 256, 210}, {Q8_K, "q8_K", 256, 292},
		{BF16, "bf16", 1, 2}, {MXFP4, "mxfp4", 32, 17}, {NVFP4, "nvfp4", 64, 36},
	} {
		if c.t.String() != c.name || c.t.BlockSize() != c.block || c.t.TypeSize() != c.siz {
			t.Errorf("%v: %s %d %d", c.t, c.t, c.t.BlockSize(), c.t.TypeSize())
		}
	}
	for _, id := range []Type{4, 5, 31, 32, 33, 36, 37, 38, 43, 1 << 31} {
		if id.Known() || id.BlockSize() != 0 {
			t.Errorf("type %d should be unknown", uint32(id))
		}
	}
	if Type(99).String() != "type(99)" {
		t.Error(Type(99).String())
	}
	if _, err := ParseType("q4_2"); err == nil {
		t.Error("ParseType(q4_2) succeeded")
	}
	if len(Types()) != len(typeTable) {
		t.Error("Types() misses rows")
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

func TestTensorInfoSizes(t *testing.T) {
	for _, c := range []struct {
		ti    TensorInfo
		elems int64
		bytes int64
	}{
		{TensorInfo{Type: F32, Dims: []uint64{3, 5}}, 15, 60},
		{TensorInfo{Type: Q8_0, Dims: []uint64{64, 2}}, 128, 136},
		{TensorInfo{Type: Q4_K, Dims: []uint64{256}}, 256, 144},
		{TensorInfo{Type: F32}, 1, 4},                                // no dims: a scalar
		{TensorInfo{Type: Q8_0}, 1, -1},                              // ne[0] = 1 is not whole blocks
		{TensorInfo{Type: Q8_0, Dims: []uint64{33}}, 33, -1},         // not whole blocks
		{TensorInfo{Type: F32, Dims: []uint64{0, 1 << 62, 8}}, 0, 0}, // zero wins
		{TensorInfo{Type: F32, Dims: []uint64{1 << 32, 1 << 32}}, -1, -1},
		{TensorInfo{Type: F64, Dims: []uint64{1 << 61}}, 1 << 61, -1},
		{TensorInfo{Type: 4, Dims: []uint64{32}}, 32, -1},
	} {
		if e, b := c.ti.Elements(), c.ti.Bytes(); e != c.elems || b != c.bytes {
			t.Errorf("%v %v: Elements %d Bytes %d, want %d %d", c.ti.Type, c.ti.Dims, e, b, c.elems, c.bytes)
		}
	}
	ti := TensorInfo{Dims: []uint64{4, 3, 2}}
	if s := ti.Shape(); len(s) != 3 || s[0] != 2 || s[1] != 3 || s[2] != 4 {
		t.Errorf("Shape %v", s)
	}
}
