package gguf

import (
	"errors"
	"github.com/clconv/clconv/ggml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileCase is a file that Read must refuse, with where and why.
type hostileCase struct {
	name string
	is   error
	msg  string // a part of the message
	// build returns the file and the offset the error must give.
	build func() ([]byte, int64)
}

// kvFile is a file with one pair whose value is written by val, and no
// tensors; val returns the offset the error must give.
func kvFile(key string, val func(f *fb) int64) func() ([]byte, int64) {
	return func() ([]byte, int64) {
		f := (&fb{}).header(3, 0, 1).str(key)
		off := val(f)
		return f.b, off
	}
}

// tensorFile is a file with the pairs kvs and the tensors that infos
// writes, then the data section: the header padded to 32 and dataLen
// bytes; infos returns the offset the error must give.
func tensorFile(nt uint64, dataLen int, infos func(f *fb) int64, kvs ...func(f *fb)) func() ([]byte, int64) {
	return func() ([]byte, int64) {
		f := (&fb{}).header(3, nt, uint64(len(kvs)))
		for _, kv := range kvs {
			kv(f)
		}
		off := infos(f)
		f.pad(32).zeros(dataLen)
		return f.b, off
	}
}

// at records the current offset into *p and returns f, for builders.
func at(f *fb, p *int64) *fb { *p = f.off(); return f }

var hostileCases = []hostileCase{
	{"empty", ErrTruncated, "inside the magic", func() ([]byte, int64) { return nil, 0 }},
	{"short-magic", ErrTruncated, "magic", func() ([]byte, int64) { return []byte("GGU"), 0 }},
	{"bad-magic", ErrMagic, `"GGML"`, func() ([]byte, int64) { return (&fb{}).raw('G', 'G', 'M', 'L').u32(3).u64(0).u64(0).b, 0 }},
	{"short-version", ErrTruncated, "version", func() ([]byte, int64) { return []byte("GGUF\x03\x00"), 4 }},
	{"version-0", ErrVersion, "version 0", func() ([]byte, int64) { return (&fb{}).header(0, 0, 0).b, 4 }},
	{"version-1", ErrVersion, "GGUFv1", func() ([]byte, int64) { return (&fb{}).header(1, 0, 0).b, 4 }},
	{"version-4", ErrVersion, "newer than 3", func() ([]byte, int64) { return (&fb{}).header(4, 0, 0).b, 4 }},
	{"version-big-endian", ErrVersion, "other byte order", func() ([]byte, int64) { return (&fb{}).header(0x03000000, 0, 0).b, 4 }},
	{"short-tensor-count", ErrTruncated, "tensor count", func() ([]byte, int64) { return (&fb{}).raw('G', 'G', 'U', 'F').u32(3).u32(0).b, 8 }},
	{"short-kv-count", ErrTruncated, "metadata count", func() ([]byte, int64) { return (&fb{}).raw('G', 'G', 'U', 'F').u32(3).u64(0).b, 16 }},
	{"negative-tensor-count", ErrBadValue, "negative", func() ([]byte, int64) { return (&fb{}).header(3, 1<<63, 0).b, 8 }},
	{"negative-kv-count", ErrBadValue, "negative", func() ([]byte, int64) { return (&fb{}).header(3, 0, 1<<63+5).b, 16 }},
	{"huge-tensor-count", ErrTruncated, "tensor infos need", func() ([]byte, int64) { return (&fb{}).header(3, 1<<40, 0).zeros(100).b, 8 }},
	{"huge-kv-count", ErrTruncated, "metadata pairs need", func() ([]byte, int64) { return (&fb{}).header(3, 0, 1<<60).zeros(100).b, 16 }},
	{"counts-exceed-together", ErrTruncated, "after the tensor infos", func() ([]byte, int64) { return (&fb{}).header(3, 4, 1).zeros(100).b, 16 }},
	{"key-over-limit", ErrBadValue, "limit of 1073741824", func() ([]byte, int64) { return (&fb{}).header(3, 0, 1).u64(1 << 60).zeros(20).b, 24 }},
	{"key-past-end", ErrTruncated, "key length 1000 exceeds", func() ([]byte, int64) { return (&fb{}).header(3, 0, 1).u64(1000).zeros(20).b, 24 }},
	{"empty-key", ErrBadValue, "empty key", func() ([]byte, int64) { return (&fb{}).header(3, 0, 1).str("").u32(0).raw(1).zeros(8).b, 24 }},
	{"duplicate-key", ErrBadValue, "duplicate key: pairs 0 and 1", func() ([]byte, int64) {
		f := (&fb{}).header(3, 0, 2).str("k").u32(0).raw(1)
		off := f.off()
		return f.str("k").u32(0).raw(2).b, off
	}},
	{"value-type-13", ErrBadValue, "value type 13", kvFile("k", func(f *fb) int64 { o := f.off(); f.u32(13).zeros(8); return o })},
	{"value-type-negative", ErrBadValue, "value type -1", kvFile("k", func(f *fb) int64 { o := f.off(); f.u32(0xffffffff).zeros(8); return o })},
	{"short-value", ErrTruncated, "u64 value", kvFile("k", func(f *fb) int64 { f.u32(10); o := f.off(); f.zeros(7); return o })},
	{"short-value-type", ErrTruncated, "value type", kvFile("key.long", func(f *fb) int64 { o := f.off(); f.raw(4, 0); return o })},
	{"string-past-end", ErrTruncated, "string length 50", kvFile("k", func(f *fb) int64 { f.u32(8); o := f.off(); f.u64(50).zeros(49); return o })},
	{"string-over-limit", ErrBadValue, "limit", kvFile("k", func(f *fb) int64 { f.u32(8); o := f.off(); f.u64(1<<30 + 1); return o })},
	{"array-elem-type-13", ErrBadValue, "element type 13", kvFile("k", func(f *fb) int64 { f.u32(9); o := f.off(); f.u32(13).u64(0); return o })},
	{"array-over-limit", ErrBadValue, "limit of 1073741824", kvFile("k", func(f *fb) int64 { f.u32(9).u32(0); o := f.off(); f.u64(1 << 60).zeros(50); return o })},
	{"array-2^60-in-small-file", ErrBadValue, "exceeds ggml's limit", kvFile("k", func(f *fb) int64 { f.u32(9).u32(10); o := f.off(); f.u64(1 << 60); return o })},
	{"array-past-end", ErrTruncated, "array of 268435456 u32 elements", kvFile("k", func(f *fb) int64 { f.u32(9).u32(4); o := f.off(); f.u64(1 << 28).zeros(64); return o })},
	{"string-array-past-end", ErrTruncated, "array of 10 str elements", kvFile("k", func(f *fb) int64 { f.u32(9).u32(8); o := f.off(); f.u64(10).zeros(72); return o })},
	{"string-in-array-past-end", ErrTruncated, "string length 9", kvFile("k", func(f *fb) int64 { f.u32(9).u32(8).u64(1); o := f.off(); f.u64(9).zeros(8); return o })},
	{"nested-past-end", ErrTruncated, "array of 3 arr elements", kvFile("k", func(f *fb) int64 { f.u32(9).u32(9); o := f.off(); f.u64(3).zeros(30); return o })},
	{"nested-too-deep", ErrBadValue, "nested more than 64", kvFile("k", func(f *fb) int64 {
		f.u32(9)
		var o int64
		for i := 0; i < MaxNesting; i++ {
			o = f.off()
			f.u32(9).u64(1)
		}
		f.zeros(12)
		return o
	})},
	{"alignment-u64", ErrBadValue, "must be of type u32, not u64", func() ([]byte, int64) {
		return (&fb{}).header(3, 0, 1).str(AlignmentKey).u32(10).u64(32).b, 24
	}},
	{"alignment-array", ErrBadValue, "not arr", func() ([]byte, int64) {
		return (&fb{}).header(3, 0, 1).str(AlignmentKey).u32(9).u32(4).u64(1).u32(32).b, 24
	}},
	{"alignment-0", ErrBadValue, "alignment 0 is not a power of two", func() ([]byte, int64) {
		return (&fb{}).header(3, 0, 1).str(AlignmentKey).u32(4).u32(0).b, 24
	}},
	{"alignment-48", ErrBadValue, "alignment 48", func() ([]byte, int64) {
		return (&fb{}).header(3, 0, 2).str("x").u32(0).raw(0).str(AlignmentKey).u32(4).u32(48).b, 38
	}},
	{"name-64-bytes", ErrBadValue, "name of 64 bytes", tensorFile(1, 0, func(f *fb) int64 {
		o := f.off()
		f.info(strings.Repeat("n", 64), ggml.F32, 0, 1)
		return o
	})},
	{"name-past-end", ErrTruncated, "tensor name length 100", func() ([]byte, int64) {
		return (&fb{}).header(3, 1, 0).u64(100).zeros(40).b, 24
	}},
	{"duplicate-tensor", ErrBadValue, "duplicate tensor name: tensors 0 and 1", tensorFile(2, 64, func(f *fb) int64 {
		f.info("w", ggml.F32, 0, 4)
		o := f.off()
		f.info("w", ggml.F32, 32, 4)
		return o
	})},
	{"duplicate-tensor-after-nul", ErrBadValue, "duplicate tensor name", tensorFile(2, 64, func(f *fb) int64 {
		f.info("w\x00a", ggml.F32, 0, 4)
		o := f.off()
		f.info("w\x00b", ggml.F32, 32, 4)
		return o
	})},
	{"5-dims", ErrBadValue, "5 dimensions", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t"), &o).u32(5)
		f.zeros(60)
		return o
	})},
	{"negative-dim", ErrBadValue, "negative", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(2).u64(4), &o).u64(1 << 63).u32(0).u64(0)
		return o
	})},
	{"element-count-overflow", ErrBadValue, "element count does not fit", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t"), &o).u32(3).u64(1 << 21).u64(1 << 21).u64(1 << 21).u32(0).u64(0)
		return o
	})},
	{"element-count-wraps", ErrBadValue, "element count does not fit", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t"), &o).u32(2).u64(1 << 32).u64(1 << 32).u32(0).u64(0)
		return o
	})},
	{"element-count-max", ErrBadValue, "element count does not fit", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t"), &o).u32(1).u64(1<<63 - 1).u32(24).u64(0)
		return o
	})},
	{"size-overflow", ErrBadValue, "size in bytes", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(1).u64(1<<62), &o).u32(uint32(ggml.F64)).u64(0)
		return o
	})},
	{"type-99", ErrType, "type id 99", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(1).u64(4), &o).u32(99).u64(0)
		return o
	})},
	{"type-removed-q4_2", ErrType, "type id 4", tensorFile(1, 32, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(1).u64(32), &o).u32(4).u64(0)
		return o
	})},
	{"partial-block", ErrBadValue, "not a whole number of q8_0 blocks of 32", tensorFile(1, 64, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(2).u64(33).u64(1), &o).u32(uint32(ggml.Q8_0)).u64(0)
		return o
	})},
	{"scalar-q8_0", ErrBadValue, "rows of 1 elements", tensorFile(1, 64, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(0), &o).u32(uint32(ggml.Q8_0)).u64(0)
		return o
	})},
	{"short-tensor-offset", ErrTruncated, "tensor offset", func() ([]byte, int64) {
		return (&fb{}).header(3, 1, 0).str("t").u32(1).u64(4).u32(0).zeros(3).b, 49
	}},
	{"unaligned-offset", ErrLayout, "offset 4 not a multiple of the alignment 32", tensorFile(1, 64, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(1).u64(4).u32(0), &o).u64(4)
		return o
	})},
	{"first-offset-gap", ErrLayout, "offset 32, expected 0", tensorFile(1, 64, func(f *fb) int64 {
		var o int64
		at(f.str("t").u32(1).u64(4).u32(0), &o).u64(32)
		return o
	})},
	{"overlap", ErrLayout, `offset 0 overlaps tensor "a", which ends at 32`, tensorFile(2, 64, func(f *fb) int64 {
		f.info("a", ggml.F32, 0, 4)
		var o int64
		at(f.str("b").u32(1).u64(4).u32(0), &o).u64(0)
		return o
	})},
	{"gap", ErrLayout, `leaves a gap after tensor "a": ggml expects 32`, tensorFile(2, 128, func(f *fb) int64 {
		f.info("a", ggml.F32, 0, 4)
		var o int64
		at(f.str("b").u32(1).u64(4).u32(0), &o).u64(64)
		return o
	})},
	{"unaligned-alignment-64", ErrLayout, "not a multiple of the alignment 64", tensorFile(2, 128, func(f *fb) int64 {
		f.info("a", ggml.F32, 0, 4)
		var o int64
		at(f.str("b").u32(1).u64(4).u32(0), &o).u64(32)
		return o
	}, func(f *fb) { f.str(AlignmentKey).u32(4).u32(64) })},
	{"data-past-end", ErrTruncated, "data [64, 80) of 16 bytes is past the end of the file at 79", func() ([]byte, int64) {
		f := (&fb{}).header(3, 1, 0)
		var o int64
		at(f.str("t").u32(1).u64(4).u32(0), &o).u64(0)
		return f.pad(32).zeros(15).b, o
	}},
	{"second-tensor-past-end", ErrTruncated, "past the end of the file", tensorFile(2, 40, func(f *fb) int64 {
		f.info("a", ggml.F32, 0, 4)
		var o int64
		at(f.str("b").u32(1).u64(4).u32(0), &o).u64(32)
		return o
	})},
	{"data-section-past-end", ErrTruncated, "data section would begin at byte 64", func() ([]byte, int64) {
		f := (&fb{}).header(3, 1, 0).info("t", ggml.F32, 0, 0)
		return f.b, f.off()
	}},
}

func TestHostile(t *testing.T) {
	for _, c := range hostileCases {
		b, off := c.build()
		f, err := readBytes(b)
		var fe *FormatError
		switch {
		case err == nil:
			t.Errorf("%s: Read accepted it: %+v", c.name, f)
		case !errors.As(err, &fe):
			t.Errorf("%s: not a *FormatError: %v", c.name, err)
		case !errors.Is(err, c.is) || fe.Offset != off || !strings.Contains(err.Error(), c.msg):
			t.Errorf("%s: err = %v (offset %d)\nwant %v at offset %d, containing %q", c.name, err, fe.Offset, c.is, off, c.msg)
		}
	}
}

// Files that look hostile and that ggml accepts, and so does Read.
var acceptedOddities = []struct {
	name  string
	build func() []byte
	check func(t *testing.T, f *File)
}{
	{"bool-2", func() []byte {
		return (&fb{}).header(3, 0, 2).str("b").u32(7).raw(2).str("a").u32(9).u32(7).u64(2).raw(0, 0xff).b
	}, func(t *testing.T, f *File) {
		// ggml reads a bool as int8 != 0; a rewrite writes 1, as ggml's does.
		if b, _ := f.KV[0].Value.Bool(); !b || f.KV[1].Value.String() != "[2]bool{false, true}" {
			t.Errorf("%v %v", f.KV[0].Value, f.KV[1].Value)
		}
	}},
	{"no-dims", func() []byte {
		return (&fb{}).header(3, 1, 0).info("s", ggml.F32, 0).pad(32).zeros(4).b
	}, func(t *testing.T, f *File) {
		if ti := f.Tensors[0]; len(ti.Dims) != 0 || ti.Elements() != 1 || ti.Bytes() != 4 {
			t.Errorf("%+v", ti)
		}
	}},
	{"zero-dim", func() []byte {
		return (&fb{}).header(3, 2, 0).info("z", ggml.Q4_K, 0, 0, 1<<40).info("a", ggml.F32, 0, 1).pad(32).zeros(4).b
	}, func(t *testing.T, f *File) {
		if f.Tensors[0].Bytes() != 0 || f.Tensors[1].Offset != 0 {
			t.Errorf("%+v", f.Tensors)
		}
	}},
	{"empty-name-and-nul", func() []byte {
		return (&fb{}).header(3, 2, 0).info("", ggml.F32, 0, 1).info("a\x00b", ggml.F32, 32, 1).pad(32).zeros(36).b
	}, func(t *testing.T, f *File) {
		if f.Tensors[0].Name != "" || f.Tensors[1].Name != "a\x00b" {
			t.Errorf("%q", f.Tensors[1].Name)
		}
	}},
	{"no-final-padding", func() []byte {
		return (&fb{}).header(3, 1, 0).info("t", ggml.F16, 0, 3).pad(32).zeros(6).b
	}, func(t *testing.T, f *File) {}},
	{"v2", func() []byte {
		return (&fb{}).header(2, 0, 1).str("k").u32(8).str("v").b
	}, func(t *testing.T, f *File) {
		if f.Version != 2 {
			t.Error(f.Version)
		}
	}},
	{"nonzero-padding", func() []byte {
		f := (&fb{}).header(3, 1, 0).info("t", ggml.F32, 0, 1)
		for len(f.b)%32 != 0 {
			f.raw(0xaa)
		}
		return f.zeros(4).b
	}, func(t *testing.T, f *File) {}},
	{"alignment-1", func() []byte {
		return (&fb{}).header(3, 2, 1).str(AlignmentKey).u32(4).u32(1).info("a", ggml.I8, 0, 3).info("b", ggml.I8, 3, 1).zeros(4).b
	}, func(t *testing.T, f *File) {
		if f.Alignment != 1 || f.Tensors[1].Offset != 3 {
			t.Errorf("%d %+v", f.Alignment, f.Tensors)
		}
	}},
}

func TestAcceptedOddities(t *testing.T) {
	for _, c := range acceptedOddities {
		f, err := readBytes(c.build())
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		c.check(t, f)
	}
}

// TestOracleFiles writes the hostile and odd files, and files of every
// value type, alignment and many tensor types, for scripts/gguf-oracle to
// give to ggml. It runs only with GGUF_ORACLE_DIR set.
func TestOracleFiles(t *testing.T) {
	dir := os.Getenv("GGUF_ORACLE_DIR")
	if dir == "" {
		t.Skip("GGUF_ORACLE_DIR not set")
	}
	for _, sub := range []string{"hostile", "odd", "ok"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put := func(sub, name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, sub, name+".gguf"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range hostileCases {
		b, _ := c.build()
		put("hostile", c.name, b)
	}
	for _, c := range acceptedOddities {
		put("odd", c.name, c.build())
	}
	// What ggml's writer would write the same (see run.sh's ggml rewrite):
	// canonical dims, no string with a NUL (gguf_set_kv copies strings as C
	// strings).
	ts, data := someTensors()
	for i := range ts {
		ts[i].Dims = CanonicalDims(ts[i].Dims)
	}
	values := func(nested bool) []KV {
		kv := allValues(nested)
		for i := range kv {
			if s, ok := kv[i].Value.Str(); ok {
				kv[i].Value = NewString(strings.ReplaceAll(s, "\x00", "0"))
			}
		}
		return kv
	}
	// Every type.
	var all []TensorInfo
	var allData [][]byte
	for _, ty := range ggml.KnownTypes() {
		ti := TensorInfo{Name: "t." + ty.String(), Type: ty, Dims: []uint64{uint64(ty.BlockSize()) * 2, 3}}
		all = append(all, ti)
		allData = append(allData, counter(int(ty), int(ti.Bytes())))
	}
	for _, c := range []struct {
		name    string
		align   uint32
		version uint32
		nested  bool
		ts      []TensorInfo
		data    [][]byte
	}{
		{"values-tensors", 0, 0, false, ts, data},
		{"align1", 1, 0, false, ts, data},
		{"align64", 64, 0, false, ts, data},
		{"v2", 0, 2, false, ts, data},
		{"all-types", 0, 0, false, all, allData},
		{"nested", 0, 0, true, ts[:1], data[:1]},
		{"empty", 0, 0, false, nil, nil},
	} {
		f := &File{Version: c.version, Tensors: c.ts}
		if c.name != "empty" {
			f.KV = values(c.nested)
		}
		if c.align != 0 {
			f.SetAlignment(c.align)
		}
		put("ok", c.name, writeAll(t, f, c.data))
	}
}
