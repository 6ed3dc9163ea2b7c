package safetensors

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// seedFiles returns the committed files of testdata, FuzzRead's seeds.
func seedFiles(f *testing.F) [][]byte {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.safetensors"))
	if err != nil || len(paths) == 0 {
		f.Fatalf("no seed files in testdata: %v", err)
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// FuzzRead checks that Read never panics, that every rejection is a
// *FormatError with an offset within the file, and that an accepted file's
// tensors are consistent and tile its data exactly, read back the same
// after NewWriter rewrites the header, and convert without failing.
func FuzzRead(f *testing.F) {
	for _, b := range seedFiles(f) {
		f.Add(b)
	}
	for _, c := range hostile {
		f.Add(c.file)
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		fl, err := ReadBytes(file)
		fr, err2 := Read(bytes.NewReader(file), int64(len(file)))
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("ReadBytes and Read disagree: %v / %v", err, err2)
		}
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if fe.Offset < 0 || fe.Offset > int64(len(file)) {
				t.Fatalf("error offset %d outside the file of %d bytes: %v", fe.Offset, len(file), err)
			}
			return
		}
		if !reflect.DeepEqual(fl.Tensors, fr.Tensors) || !reflect.DeepEqual(fl.Metadata, fr.Metadata) {
			t.Fatal("ReadBytes and Read read different headers")
		}
		if fl.Size != int64(len(file)) || fl.HeaderLen > MaxHeaderLen || fl.DataOffset() > fl.Size {
			t.Fatalf("sizes: %d %d", fl.Size, fl.HeaderLen)
		}
		pos := int64(0)
		names := map[string]bool{}
		for i := range fl.Tensors {
			ti := &fl.Tensors[i]
			if ti.Begin != pos || ti.End < ti.Begin || names[ti.Name] || ti.Name == "__metadata__" || !ti.DType.valid() {
				t.Fatalf("tensor %d %+v after %d", i, ti, pos)
			}
			names[ti.Name] = true
			bits := uint64(ti.Count()) * uint64(ti.DType.Bits())
			if bits%8 != 0 || int64(bits/8) != ti.Bytes() {
				t.Fatalf("tensor %+v: %d bits", ti, bits)
			}
			pos = ti.End
			if x, ok := fl.Lookup(ti.Name); !ok || x != ti {
				t.Fatalf("Lookup(%q)", ti.Name)
			}
		}
		if fl.DataOffset()+pos != fl.Size {
			t.Fatalf("the tensors end at %d, the file at %d", fl.DataOffset()+pos, fl.Size)
		}

		// Rewritten, the same tensors and metadata.
		data := file[fl.DataOffset():]
		var out bytes.Buffer
		w, err := NewWriter(&out, fl.Tensors, fl.Metadata)
		if err != nil {
			t.Fatalf("NewWriter of an accepted header: %v", err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		again, err := ReadBytes(out.Bytes())
		if err != nil {
			t.Fatalf("reading the rewritten file: %v", err)
		}
		if !reflect.DeepEqual(again.Tensors, fl.Tensors) || !reflect.DeepEqual(again.Metadata, fl.Metadata) {
			t.Fatalf("rewritten: %+v %v, was %+v %v", again.Tensors, again.Metadata, fl.Tensors, fl.Metadata)
		}

		// Every tensor converts; only a bad BOOL byte or (checked) a range
		// error may fail.
		for i := range fl.Tensors {
			ti := &fl.Tensors[i]
			if ti.Count() > 1<<16 {
				continue
			}
			dst := make([]float32, ti.Count())
			if err := ReadInto(fl, ti, dst, ReadOptions{}); err != nil && ti.DType != BOOL {
				t.Fatalf("ReadInto(%s): %v", ti.Name, err)
			}
			if _, err := ReadTensor[int8](fl, ti.Name, ReadOptions{Checked: true}); err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) || fe.Offset < fl.DataOffset()+ti.Begin || fe.Offset >= fl.DataOffset()+ti.End {
					t.Fatalf("ReadTensor(%s): %v", ti.Name, err)
				}
			}
		}
	})
}

// FuzzPackF4 checks that UnpackF4 and PackF4 are inverses.
func FuzzPackF4(f *testing.F) {
	f.Add([]byte{0x00, 0x21, 0xff, 0x7e}, []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, packed, codes []byte) {
		u := make([]uint8, 2*len(packed))
		if n := UnpackF4(u, packed); n != len(packed) {
			t.Fatalf("UnpackF4 used %d bytes of %d", n, len(packed))
		}
		p := make([]byte, len(packed))
		if n := PackF4(p, u); n != len(packed) || !bytes.Equal(p, packed) {
			t.Fatalf("pack(unpack(% x)) = % x", packed, p)
		}
		for i, c := range u {
			if c > 15 || c != packed[i/2]>>(4*(i%2))&15 {
				t.Fatalf("element %d = %d", i, c)
			}
		}
		c := make([]uint8, len(codes))
		for i := range codes {
			c[i] = codes[i] & 15
		}
		p = make([]byte, (len(c)+1)/2)
		PackF4(p, c)
		u = make([]uint8, len(c))
		UnpackF4(u, p)
		if !slices.Equal(u, c) {
			t.Fatalf("unpack(pack(%v)) = %v", c, u)
		}
		if len(c)%2 == 1 && p[len(p)-1]>>4 != 0 {
			t.Fatal("PackF4 left bits set after the last element")
		}
	})
}

// FuzzPackF6 checks that UnpackF6 and PackF6 are inverses and that element
// i is bits [6i, 6i+6) of the little-endian bit string.
func FuzzPackF6(f *testing.F) {
	f.Add([]byte{0xff, 0x00, 0xa5, 0x12, 0x34, 0x56}, []byte{1, 2, 3, 63, 5})
	f.Fuzz(func(t *testing.T, packed, codes []byte) {
		packed = packed[:len(packed)/3*3]
		u := make([]uint8, len(packed)/3*4)
		if n := UnpackF6(u, packed); n != len(packed) {
			t.Fatalf("UnpackF6 used %d bytes of %d", n, len(packed))
		}
		p := make([]byte, len(packed))
		if n := PackF6(p, u); n != len(packed) || !bytes.Equal(p, packed) {
			t.Fatalf("pack(unpack(% x)) = % x", packed, p)
		}
		for i, c := range u {
			var want uint8
			for b := 0; b < 6; b++ {
				bit := 6*i + b
				want |= (packed[bit/8] >> (bit % 8) & 1) << b
			}
			if c != want {
				t.Fatalf("element %d = %d, want %d", i, c, want)
			}
		}
		c := make([]uint8, len(codes))
		for i := range codes {
			c[i] = codes[i] & 63
		}
		p = make([]byte, f6Bytes(len(c))+1)
		for i := range p {
			p[i] = 0xee // PackF6 must write every bit of its bytes
		}
		if n := PackF6(p, c); n != f6Bytes(len(c)) || p[n] != 0xee {
			t.Fatalf("PackF6 wrote %d bytes, want %d", n, f6Bytes(len(c)))
		}
		u = make([]uint8, len(c))
		UnpackF6(u, p)
		if !slices.Equal(u, c) {
			t.Fatalf("unpack(pack(%v)) = %v", c, u)
		}
		if r := 6 * len(c) % 8; r != 0 && p[f6Bytes(len(c))-1]>>r != 0 {
			t.Fatal("PackF6 left bits set after the last element")
		}
	})
}

func TestPackExamples(t *testing.T) {
	// F4: 1.0 (0x2) then -6.0 (0xf) is the byte 0xf2.
	p := make([]byte, 1)
	PackF4(p, []uint8{0x2, 0xf})
	if p[0] != 0xf2 {
		t.Errorf("PackF4 = %#x", p[0])
	}
	// F6: codes 1, 2, 3, 4 are 0b000100_000011_000010_000001 = 0x1030_81.
	p = make([]byte, 3)
	PackF6(p, []uint8{1, 2, 3, 4})
	if !bytes.Equal(p, []byte{0x81, 0x30, 0x10}) {
		t.Errorf("PackF6 = % x", p)
	}
	defer func() {
		if recover() == nil {
			t.Error("UnpackF6 of too short a source did not panic")
		}
	}()
	UnpackF6(make([]uint8, 5), make([]byte, 3))
}
