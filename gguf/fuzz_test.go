package gguf

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// FuzzRead checks that Read never panics, that every error is a
// *FormatError with an offset inside the file, and that a file it accepts
// is written back (with its data) into a file that reads the same.
func FuzzRead(f *testing.F) {
	golden, err := os.ReadFile("testdata/ggml-written.gguf")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	for _, n := range []int{0, 3, 4, 8, 23, 24, 100, 500, 1000, 1087, 1088, 1500, len(golden) - 1} {
		f.Add(golden[:n])
	}
	ts, data := someTensors()
	var buf bytes.Buffer
	if err := Write(&buf, &File{KV: allValues(true), Tensors: ts}, func(i int) (io.Reader, error) { return bytes.NewReader(data[i]), nil }); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	for _, c := range hostileCases[:10] {
		b, _ := c.build()
		f.Add(b)
	}
	for _, c := range acceptedOddities {
		f.Add(c.build())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := readBytes(b)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > int64(len(b)) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		var out bytes.Buffer
		err = Write(&out, g, func(i int) (io.Reader, error) { return g.Section(bytes.NewReader(b), i), nil })
		if err != nil {
			t.Fatalf("Write of a file Read accepted: %v", err)
		}
		h, err := readBytes(out.Bytes())
		if err != nil {
			t.Fatalf("Read of the rewrite: %v", err)
		}
		if !sameFile(g, h) && !(len(g.Tensors) == 0 && sameKV(g, h)) {
			t.Fatalf("rewrite reads differently")
		}
		for i := range g.Tensors {
			x, _ := io.ReadAll(g.Section(bytes.NewReader(b), i))
			y, _ := io.ReadAll(h.Section(bytes.NewReader(out.Bytes()), i))
			if !bytes.Equal(x, y) {
				t.Fatalf("tensor %d data differs", i)
			}
		}
	})
}

// sameKV compares the metadata only: with no tensors the data offset is
// the header's end, padded in a rewrite and maybe not in the original.
func sameKV(a, b *File) bool {
	a2, b2 := *a, *b
	a2.DataOffset, b2.DataOffset = 0, 0
	return sameFile(&a2, &b2)
}
