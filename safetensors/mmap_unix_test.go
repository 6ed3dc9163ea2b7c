//go:build unix

package safetensors

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
)

// TestTruncatedWhileMapped truncates a file that Open has mapped, as
// another process could while it is converted: every read of the lost
// pages must return a *FormatError wrapping ErrChanged that names the
// tensor and the offset, not crash the program with SIGBUS.
func TestTruncatedWhileMapped(t *testing.T) {
	const n = 1 << 19 // 2 MiB of F32
	f32 := make([]float32, n)
	for i := range f32 {
		f32[i] = float32(i) / 3
	}
	bf := make([]bfloat16.BFloat16, n/2)
	for i := range bf {
		bf[i] = bfloat16.FromFloat64(float64(i), 0)
	}
	var infos []TensorInfo
	var datas [][]byte
	add := func(info TensorInfo, b []byte, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		infos, datas = append(infos, info), append(datas, b)
	}
	add(Encode("first", []int64{n}, f32))
	add(Encode("second", []int64{n / 2, 2}, f32[:n]))
	add(Encode("bf16", []int64{n / 2}, bf))
	f4 := TensorInfo{Name: "f4", DType: F4, Shape: []int64{n}}
	infos, datas = append(infos, f4), append(datas, bytes.Repeat([]byte{0x21}, n/2))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, infos, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range datas {
		w.Write(d)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.data == nil {
		t.Skip("Open did not map the file")
	}
	// Read before the truncation: all is well.
	if _, err := ReadTensor[float32](f, "second", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	const keep = 64 << 10
	if err := os.Truncate(path, keep); err != nil {
		t.Fatal(err)
	}
	for _, old := range []bool{false, true} {
		prev := debug.SetPanicOnFault(old)
		for _, tc := range []struct {
			name string
			read func(t *TensorInfo) error
		}{
			{"float32 (a copy)", func(ti *TensorInfo) error {
				return ReadInto(f, ti, make([]float32, ti.Count()), ReadOptions{})
			}},
			{"float64", func(ti *TensorInfo) error { return ReadInto(f, ti, make([]float64, ti.Count()), ReadOptions{}) }},
			{"half", func(ti *TensorInfo) error { return ReadInto(f, ti, make([]half.Half, ti.Count()), ReadOptions{}) }},
			{"int8 checked", func(ti *TensorInfo) error {
				return ReadInto(f, ti, make([]int8, ti.Count()), ReadOptions{Checked: true})
			}},
			{"bfloat16", func(ti *TensorInfo) error {
				return ReadInto(f, ti, make([]bfloat16.BFloat16, ti.Count()), ReadOptions{})
			}},
			{"section", func(ti *TensorInfo) error {
				_, err := io.Copy(io.Discard, f.Section(ti))
				return err
			}},
		} {
			for i := range f.Tensors {
				ti := &f.Tensors[i]
				err := tc.read(ti)
				var fe *FormatError
				if !errors.As(err, &fe) || !errors.Is(err, ErrChanged) || !fe.IO() {
					t.Errorf("%s of %s after truncation: %v; want a *FormatError wrapping ErrChanged", tc.name, ti.Name, err)
					continue
				}
				begin := f.DataOffset() + ti.Begin
				lost := max(keep, begin)
				if !exactFault {
					lost = begin // the read's start, where the fault's address is unknown
				}
				if fe.Offset < lost || fe.Offset >= f.DataOffset()+ti.End {
					t.Errorf("%s of %s: error at byte %d, want the lost data of the tensor, [%d, %d): %v", tc.name, ti.Name, fe.Offset, max(keep, begin), f.DataOffset()+ti.End, err)
				}
				if tc.name != "section" && (!fe.HasTensor || fe.Tensor != ti.Name) {
					t.Errorf("%s of %s: %v does not name the tensor", tc.name, ti.Name, err)
				}
			}
		}
		if got := debug.SetPanicOnFault(prev); got != old {
			t.Errorf("SetPanicOnFault was %v before the reads and %v after", old, got)
		}
	}
	t.Logf("e.g. %v", ReadInto(f, &f.Tensors[1], make([]float64, n), ReadOptions{}))
}

// exactFault: the fault's address, hence the byte lost, is exact where the
// tests run natively (amd64 here); under qemu-user (the other ports) the
// signal may carry a wrong address or none, and the error then names the
// read's first byte.
var exactFault = runtime.GOARCH == "amd64"

// TestTruncatedBeforeParse maps a file whose header spans several pages and
// truncates it before ReadBytes parses the header in place, as another
// process could between Open's mmap and its parse: an error wrapping
// ErrChanged, not a crash.
func TestTruncatedBeforeParse(t *testing.T) {
	meta := map[string]string{"pad": strings.Repeat("x", 3*os.Getpagesize())}
	info, data, err := Encode("w", []int64{4}, []float32{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, []TensorInfo{info}, meta)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "h.safetensors")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, keep := range []int64{0, 100, int64(os.Getpagesize()) + 10} {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		mem, unmap, err := mmapFile(fh, int64(buf.Len()))
		fh.Close()
		if err != nil {
			t.Skip("no mmap:", err)
		}
		if err := os.Truncate(path, keep); err != nil {
			t.Fatal(err)
		}
		f, err := ReadBytes(mem)
		var fe *FormatError
		if f != nil || !errors.As(err, &fe) || !errors.Is(err, ErrChanged) || exactFault && fe.Offset < keep {
			t.Errorf("truncated to %d: ReadBytes = %v, %v; want an error wrapping ErrChanged at or after byte %d", keep, f, err, keep)
		} else if strings.Count(err.Error(), "safetensors:") != 1 {
			t.Errorf("truncated to %d: %q", keep, err)
		}
		unmap()
	}
}
