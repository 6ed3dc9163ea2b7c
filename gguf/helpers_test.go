package gguf

import (
	"bytes"
	"encoding/binary"
	"io"
	"testing"
)

// fb builds GGUF bytes by hand, for hostile files.
type fb struct{ b []byte }

func (f *fb) off() int64        { return int64(len(f.b)) }
func (f *fb) raw(p ...byte) *fb { f.b = append(f.b, p...); return f }
func (f *fb) u32(v uint32) *fb  { f.b = binary.LittleEndian.AppendUint32(f.b, v); return f }
func (f *fb) u64(v uint64) *fb  { f.b = binary.LittleEndian.AppendUint64(f.b, v); return f }
func (f *fb) str(s string) *fb  { return f.u64(uint64(len(s))).raw([]byte(s)...) }
func (f *fb) header(v uint32, nt, nkv uint64) *fb {
	return f.raw('G', 'G', 'U', 'F').u32(v).u64(nt).u64(nkv)
}

// padTo pads to a multiple of a with zeros.
func (f *fb) pad(a int) *fb {
	for len(f.b)%a != 0 {
		f.b = append(f.b, 0)
	}
	return f
}

// info appends a tensor info.
func (f *fb) info(name string, t Type, off uint64, dims ...uint64) *fb {
	f.str(name).u32(uint32(len(dims)))
	for _, d := range dims {
		f.u64(d)
	}
	return f.u32(uint32(t)).u64(off)
}

func (f *fb) zeros(n int) *fb { f.b = append(f.b, make([]byte, n)...); return f }

func readBytes(b []byte) (*File, error) { return Read(bytes.NewReader(b), int64(len(b))) }

// counter returns n bytes 0, 1, 2, ... (mod 256) from start.
func counter(start, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(start + i)
	}
	return b
}

// writeAll writes f with the data of each tensor from data[i].
func writeAll(t testing.TB, f *File, data [][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	err := Write(&buf, f, func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil })
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes()
}

// sameFile reports whether two Files hold the same header.
func sameFile(a, b *File) bool {
	if a.Version != b.Version || a.Alignment != b.Alignment || a.DataOffset != b.DataOffset ||
		len(a.KV) != len(b.KV) || len(a.Tensors) != len(b.Tensors) {
		return false
	}
	for i := range a.KV {
		if a.KV[i].Key != b.KV[i].Key || !a.KV[i].Value.Equal(b.KV[i].Value) {
			return false
		}
	}
	for i := range a.Tensors {
		x, y := &a.Tensors[i], &b.Tensors[i]
		if x.Name != y.Name || x.Type != y.Type || x.Offset != y.Offset || len(x.Dims) != len(y.Dims) {
			return false
		}
		for j := range x.Dims {
			if x.Dims[j] != y.Dims[j] {
				return false
			}
		}
	}
	return true
}
