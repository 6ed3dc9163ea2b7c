package fileconv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
)

// expected converts vals one by one with convert.Bits.
func expected(dk, sk cltype.Kind, vals []uint64, m round.Mode, sat bool) []uint64 {
	out := make([]uint64, len(vals))
	for i, v := range vals {
		out[i], _ = convert.Bits(dk, sk, v, m, sat)
	}
	return out
}

// checkNPY parses a converted .npy file and returns its header and elements.
func checkNPY(t *testing.T, b []byte) (*Header, []uint64) {
	t.Helper()
	h, err := ReadHeader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("output header: %v", err)
	}
	data := b[h.DataOffset:]
	if int64(len(data)) != h.DataLen() {
		t.Fatalf("output has %d data bytes, header says %d", len(data), h.DataLen())
	}
	return h, decodeBits(h.Kind, data)
}

// TestConvertAllPairs converts files of edge and random values (every half)
// for every pair of types, mode and saturation, in small chunks on several
// workers, and checks each element against convert.Bits and the statistics
// against refClassify, which derives them in math/big.
func TestConvertAllPairs(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	ctx := context.Background()
	for _, sk := range cltype.Scalars {
		vals := values(sk, n, !testing.Short(), 1)
		for _, dk := range cltype.Scalars {
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					if sat && dk.IsFloat() {
						continue
					}
					name := fmt.Sprintf("%s->%s/%s/sat=%v", sk, dk, m, sat)
					bigEndian := (int(sk)+int(dk)+int(m))%2 == 1
					shape := []int64{int64(len(vals))}
					in := npyFile(sk, vals, shape, false, bigEndian)
					var out bytes.Buffer
					res, err := Convert(ctx, &out, bytes.NewReader(in), Options{
						Dst: dk, Sat: sat, Mode: m, Stats: true, Workers: 3, ChunkBytes: 1000,
					})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					h, got := checkNPY(t, out.Bytes())
					if h.Kind != dk || !slices.Equal(h.Shape, shape) {
						t.Fatalf("%s: output header %+v", name, h)
					}
					want := expected(dk, sk, vals, m, sat)
					bad := 0
					for i := range vals {
						if got[i] != want[i] {
							if bad++; bad < 5 {
								t.Errorf("%s: element %d (%#x): got %#x, want %#x", name, i, vals[i], got[i], want[i])
							}
						}
					}
					var ref Stats
					for i, v := range vals {
						refClassify(&ref, dk, sk, v, want[i], m, sat)
					}
					if res.Stats != ref {
						t.Errorf("%s: stats\n got %+v\nwant %+v", name, res.Stats, ref)
					}
					if res.BytesIn != int64(len(in)) || res.BytesOut != int64(out.Len()) || res.In.BigEndian != (bigEndian && sk.Size() > 1) || res.Out.Count != int64(len(vals)) {
						t.Errorf("%s: result %+v", name, res)
					}
					// Without statistics the fast path must give the same bytes.
					var fast bytes.Buffer
					if _, err := Convert(ctx, &fast, bytes.NewReader(in), Options{Dst: dk, Sat: sat, Mode: m, Workers: 2, ChunkBytes: 4096}); err != nil || !bytes.Equal(fast.Bytes(), out.Bytes()) {
						t.Errorf("%s: without stats the output differs (%v)", name, err)
					}
				}
			}
		}
	}
}

// TestByteOrderLiterals pins the byte order of input and output with bytes
// written out by hand: a big-endian .npy ('>' descr) is read as such and the
// output is little-endian ('<' descr) on every host, and raw input and output
// are little-endian.
func TestByteOrderLiterals(t *testing.T) {
	ctx := context.Background()
	// 1.5 and -2 as big-endian float32, to double.
	in := append(rawHeader(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", true),
		0x3f, 0xc0, 0, 0, 0xc0, 0, 0, 0)
	var out bytes.Buffer
	res, err := Convert(ctx, &out, bytes.NewReader(in), Options{Dst: cltype.Double, Mode: round.RTE, Stats: true})
	mustNoErr(t, err)
	if !res.In.BigEndian || res.Out.BigEndian || res.Stats.Count != 2 || res.Stats.Inexact != 0 {
		t.Errorf("result %+v", res)
	}
	b := out.Bytes()
	if !bytes.Contains(b[:res.Out.DataOffset], []byte("'descr': '<f8'")) {
		t.Errorf("output header %q does not say '<f8'", b[:res.Out.DataOffset])
	}
	want := []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0}
	if got := b[res.Out.DataOffset:]; !bytes.Equal(got, want) {
		t.Errorf("data % x, want % x", got, want)
	}
	sum, err := Inspect(ctx, bytes.NewReader(in), InspectOptions{})
	mustNoErr(t, err)
	if !sum.HasRange || sum.Min.Float64() != -2 || sum.Max.Float64() != 1.5 {
		t.Errorf("Inspect: range %v..%v (has %v)", sum.Min, sum.Max, sum.HasRange)
	}

	// Raw little-endian shorts 0x0102 and -300 to int with statistics, and
	// 300 to uchar under _sat (clamped).
	raw := []byte{0x02, 0x01, 0xd4, 0xfe, 0x2c, 0x01}
	out.Reset()
	res, err = Convert(ctx, &out, bytes.NewReader(raw), Options{From: cltype.Short, Dst: cltype.Int, Stats: true})
	mustNoErr(t, err)
	if want := []byte{0x02, 0x01, 0, 0, 0xd4, 0xfe, 0xff, 0xff, 0x2c, 0x01, 0, 0}; !bytes.Equal(out.Bytes(), want) || res.Stats != (Stats{Count: 3}) {
		t.Errorf("short->int: % x (want % x), stats %+v", out.Bytes(), want, res.Stats)
	}
	out.Reset()
	res, err = Convert(ctx, &out, bytes.NewReader(raw), Options{From: cltype.Short, Dst: cltype.Uchar, Sat: true, Stats: true})
	mustNoErr(t, err)
	if want := []byte{0xff, 0x00, 0xff}; !bytes.Equal(out.Bytes(), want) || res.Stats.ClampedHigh != 2 || res.Stats.ClampedLow != 1 {
		t.Errorf("short->uchar sat: % x (want % x), stats %+v", out.Bytes(), want, res.Stats)
	}
	sum, err = Inspect(ctx, bytes.NewReader(raw), InspectOptions{From: cltype.Short})
	mustNoErr(t, err)
	if sum.Min.Float64() != -300 || sum.Max.Float64() != 300 {
		t.Errorf("Inspect raw shorts: range %v..%v", sum.Min, sum.Max)
	}
}

// TestStatsCases pins the statistics of a few hand-checked conversions.
func TestStatsCases(t *testing.T) {
	f32 := func(xs ...float32) []uint64 {
		var v []uint64
		for _, x := range xs {
			v = append(v, uint64(math.Float32bits(x)))
		}
		return v
	}
	inf := float32(math.Inf(1))
	nan := -inf + inf
	tests := []struct {
		dk   cltype.Kind
		m    round.Mode
		sat  bool
		vals []uint64
		want Stats
	}{
		// Seed 001: convert_uchar_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f)) == (0, 254, 255, 255).
		{cltype.Uchar, round.RTE, true, f32(-5, 254.5, 254.6, 1.2e9), Stats{Count: 4, ClampedLow: 1, ClampedHigh: 1, Inexact: 2}},
		{cltype.Uchar, round.RTE, false, f32(255.5, 255.4, nan, inf, -inf, -0.0, 3), Stats{Count: 7, ClampedHigh: 2, Inexact: 1, NaNToZero: 1, ClampedLow: 1}},
		{cltype.Half, round.RTE, false, f32(65519, 65520, 1e-8, 1e-5, 0x1p-24, -1e-30, nan, inf), Stats{Count: 8, Inexact: 4, OverflowInf: 1, Subnormal: 2, UnderflowZero: 2, NaN: 1}},
		{cltype.Half, round.RTZ, false, f32(65519, 65536, -1e30, 65504), Stats{Count: 4, Inexact: 1, ClampedHigh: 1, ClampedLow: 1}},
		{cltype.Half, round.RTP, false, f32(65505, -65536), Stats{Count: 2, OverflowInf: 1, ClampedLow: 1}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		res, err := Convert(context.Background(), &out, bytes.NewReader(encodeBits(cltype.Float, tt.vals, false)), Options{
			Dst: tt.dk, Sat: tt.sat, Mode: tt.m, From: cltype.Float, Stats: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats != tt.want {
			t.Errorf("float -> %s %s sat=%v %v:\n got %+v\nwant %+v", tt.dk, tt.m, tt.sat, tt.vals, res.Stats, tt.want)
		}
	}
	// Integers: wrapped without _sat, clamped with it.
	ints := encodeBits(cltype.Int, []uint64{300, 0xffffff00 /* -256 */, 5}, false)
	for _, sat := range []bool{false, true} {
		res, err := Convert(context.Background(), io.Discard, bytes.NewReader(ints), Options{Dst: cltype.Uchar, Sat: sat, From: cltype.Int, Stats: true})
		want := Stats{Count: 3, Wrapped: 2}
		if sat {
			want = Stats{Count: 3, ClampedHigh: 1, ClampedLow: 1}
		}
		if err != nil || res.Stats != want {
			t.Errorf("int -> uchar sat=%v: %+v, %v; want %+v", sat, res.Stats, err, want)
		}
	}
}

// TestFormats covers raw and .npy in and out, Fortran order, 0-d and empty
// arrays, streams of unknown length, and all three header versions.
func TestFormats(t *testing.T) {
	ctx := context.Background()
	vals := []uint64{0x3fc00000, 0xc0200000, 0x43960000, 0x7fc00000} // 1.5, -2.5, 300, NaN
	want := []uint64{2, 0, 255, 0}                                   // convert_uchar_sat_rte
	opt := Options{Dst: cltype.Uchar, Sat: true, Mode: round.RTE}
	data := encodeBits(cltype.Float, vals, false)

	// Fortran order and a 2-D shape are kept; big-endian input is swapped.
	in := npyFile(cltype.Float, vals, []int64{2, 2}, true, true)
	var out bytes.Buffer
	if _, err := Convert(ctx, &out, bytes.NewReader(in), opt); err != nil {
		t.Fatal(err)
	}
	h, got := checkNPY(t, out.Bytes())
	if !h.Fortran || !slices.Equal(h.Shape, []int64{2, 2}) || !slices.Equal(got, want) {
		t.Errorf("fortran: %+v %v", h, got)
	}

	// Version 2 and 3 headers.
	for _, major := range []int{2, 3} {
		in := append(rawHeader(major, dict("<f4", false, "(4,)"), true), data...)
		out.Reset()
		res, err := Convert(ctx, &out, bytes.NewReader(in), opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := checkNPY(t, out.Bytes()); !slices.Equal(got, want) || res.In.Version != fmt.Sprintf("%d.0", major) {
			t.Errorf("version %d: %v %+v", major, got, res.In)
		}
	}

	// .npy -> raw.
	out.Reset()
	o := opt
	o.Out = FormatRaw
	if _, err := Convert(ctx, &out, bytes.NewReader(in), o); err != nil || !slices.Equal(decodeBits(cltype.Uchar, out.Bytes()), want) {
		t.Errorf("npy -> raw: %v %v", out.Bytes(), err)
	}

	// raw -> raw, known and unknown length.
	o = opt
	o.From = cltype.Float
	for _, r := range []io.Reader{bytes.NewReader(data), onlyReader{bytes.NewReader(data)}} {
		out.Reset()
		res, err := Convert(ctx, &out, r, o)
		if err != nil || !slices.Equal(out.Bytes(), encodeBits(cltype.Uchar, want, false)) || res.Out.Count != 4 || res.Out.Format != FormatRaw {
			t.Errorf("raw -> raw: %v %+v %v", out.Bytes(), res, err)
		}
	}

	// raw -> npy: known length; unknown length into a WriterAt (placeholder
	// header rewritten); unknown length into a plain stream is an error.
	o.Out = FormatNPY
	out.Reset()
	if _, err := Convert(ctx, &out, bytes.NewReader(data), o); err != nil {
		t.Fatal(err)
	}
	if h, got := checkNPY(t, out.Bytes()); !slices.Equal(h.Shape, []int64{4}) || !slices.Equal(got, want) {
		t.Errorf("raw -> npy: %+v %v", h, got)
	}
	var wa writerAt
	if _, err := Convert(ctx, &wa, onlyReader{bytes.NewReader(data)}, o); err != nil {
		t.Fatal(err)
	}
	if h, got := checkNPY(t, wa.b); !slices.Equal(h.Shape, []int64{4}) || !slices.Equal(got, want) {
		t.Errorf("raw stream -> npy: %+v %v", h, got)
	}
	out.Reset()
	if _, err := Convert(ctx, &out, onlyReader{bytes.NewReader(data)}, o); err == nil || !strings.Contains(err.Error(), "before knowing the input's length") {
		t.Errorf("raw stream -> npy stream: %v", err)
	}

	// 0-d and empty arrays.
	for _, shape := range [][]int64{{}, {0}, {3, 0}} {
		n := 1
		for _, d := range shape {
			n *= int(d)
		}
		in := npyFile(cltype.Float, vals[:n], shape, false, false)
		out.Reset()
		res, err := Convert(ctx, &out, onlyReader{bytes.NewReader(in)}, opt)
		if err != nil {
			t.Fatalf("shape %v: %v", shape, err)
		}
		if h, got := checkNPY(t, out.Bytes()); !slices.Equal(h.Shape, shape) || !slices.Equal(got, want[:n]) || res.Stats.Count != int64(n) {
			t.Errorf("shape %v: %+v %v", shape, h, got)
		}
	}

	// --from must agree with a .npy header.
	o = opt
	o.From = cltype.Double
	if _, err := Convert(ctx, io.Discard, bytes.NewReader(in), o); err == nil || !strings.Contains(err.Error(), "header says float") {
		t.Errorf("from double on a float file: %v", err)
	}
	// Forcing raw on a .npy file reads the header as data.
	o = opt
	o.From, o.In = cltype.Uchar, FormatRaw
	res, err := Convert(ctx, io.Discard, bytes.NewReader(in), o)
	if err != nil || res.In.Count != int64(len(in)) {
		t.Errorf("--in-format raw: %+v %v", res, err)
	}
}

// TestBadInput checks the errors for bad input: each is a *FormatError with a
// clear message and the right byte offset, for seekable files and streams.
func TestBadInput(t *testing.T) {
	vals := []uint64{1, 2, 3, 4, 5, 6}
	good := npyFile(cltype.Float, vals, []int64{6}, false, false)
	hdrLen := int64(len(good) - 24)
	tests := []struct {
		name      string
		in        []byte
		opt       Options
		want      string
		offset    int64 // for a file whose size is known
		offStream int64 // for a stream
	}{
		{"raw leftover", make([]byte, 4*1000+3), Options{From: cltype.Float}, "3 bytes left over at byte offset 4000", 4000, 4000},
		{"raw leftover in 2nd chunk", make([]byte, 2000+1), Options{From: cltype.Short, ChunkBytes: 64}, "1 bytes left over at byte offset 2000", 2000, 2000},
		{"truncated npy", good[:len(good)-5], Options{}, "truncated .npy data", int64(len(good) - 5), int64(len(good) - 5)},
		{"truncated npy (no data)", good[:hdrLen], Options{}, "truncated .npy data", hdrLen, hdrLen},
		{"shape/size mismatch", append(slices.Clip(good), 1, 2, 3, 4, 5), Options{}, "shape/size mismatch", int64(len(good)), int64(len(good))},
		{"corrupt header", rawHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1}", true), Options{}, "unexpected key", 0, 0},
		{"unsupported dtype", rawHeader(1, dict("<c16", false, "(3,)"), true), Options{}, "complex", 0, 0},
		{"npy forced on raw", make([]byte, 100), Options{In: FormatNPY}, "not a .npy file", 0, 0},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		opt := tt.opt
		opt.Dst = cltype.Uchar
		path := filepath.Join(dir, "in")
		mustNoErr(t, os.WriteFile(path, tt.in, 0o644))
		f, err := os.Open(path)
		mustNoErr(t, err)
		for _, stream := range []bool{false, true} {
			f.Seek(0, io.SeekStart)
			var r io.Reader = f
			wantOff := tt.offset
			if stream {
				r, wantOff = onlyReader{f}, tt.offStream
			}
			_, err := Convert(context.Background(), io.Discard, r, opt)
			var fe *FormatError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s (stream %v): %v; want a *FormatError containing %q", tt.name, stream, err, tt.want)
				continue
			}
			if tt.offset != 0 && fe.Offset != wantOff {
				t.Errorf("%s (stream %v): error at byte %d, want %d: %v", tt.name, stream, fe.Offset, wantOff, err)
			}
		}
		f.Close()
	}
	// Raw input without its type.
	if _, err := Convert(context.Background(), io.Discard, bytes.NewReader(make([]byte, 8)), Options{Dst: cltype.Int}); !errors.Is(err, ErrNeedFrom) {
		t.Errorf("raw without From: %v", err)
	}
	// _sat with a floating destination, invalid types.
	for _, opt := range []Options{{Dst: cltype.Float, Sat: true}, {Dst: cltype.Bool}, {Dst: cltype.Int, From: cltype.Bool}} {
		if _, err := Convert(context.Background(), io.Discard, bytes.NewReader(good), opt); err == nil {
			t.Errorf("Convert with %+v succeeded", opt)
		}
	}
}

// TestWriteFailure injects a full disk: Convert stops with a *WriteError
// wrapping ENOSPC.
func TestWriteFailure(t *testing.T) {
	vals := values(cltype.Float, 100000, false, 2)
	in := npyFile(cltype.Float, vals, []int64{int64(len(vals))}, false, false)
	for _, limit := range []int{0, 10, 128, 5000, 50000} {
		w := &failWriter{n: limit, err: syscall.ENOSPC}
		_, err := Convert(context.Background(), w, bytes.NewReader(in), Options{Dst: cltype.Uchar, ChunkBytes: 4096})
		var we *WriteError
		if !errors.As(err, &we) || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("limit %d: %v; want a *WriteError wrapping ENOSPC", limit, err)
		}
	}
}

// TestCancel stops a conversion through its context, with a stream that
// blocks forever after the first bytes: an os.Pipe, whose read the
// conversion wakes with a deadline, or, where the platform has no pipes
// (js/wasm, wasip1), an in-memory pipe with the same SetReadDeadline.
func TestCancel(t *testing.T) {
	var pr interface {
		io.ReadCloser
		SetReadDeadline(time.Time) error
	}
	var pw io.WriteCloser
	if r, w, err := os.Pipe(); err == nil {
		pr, pw = r, w
	} else {
		r, w := io.Pipe()
		pr, pw = deadlinePipe{r}, w
	}
	defer pr.Close()
	defer pw.Close()
	hdr := EncodeHeader(cltype.Float, false, []int64{1 << 20}, 0)
	go pw.Write(append(hdr, make([]byte, 4096)...))
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := Convert(ctx, &out, pr, Options{Dst: cltype.Uchar, Progress: func(done, total int64) { cancel() }, ChunkBytes: 1024})
		done <- err
	}()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Convert: %v", err)
	}
}

// deadlinePipe is an io.PipeReader whose SetReadDeadline, as an expired
// deadline on a file does, makes the blocked and the later reads fail.
type deadlinePipe struct{ *io.PipeReader }

func (p deadlinePipe) SetReadDeadline(time.Time) error {
	return p.CloseWithError(os.ErrDeadlineExceeded)
}

// TestProgress checks that Progress sees every input byte.
func TestProgress(t *testing.T) {
	vals := values(cltype.Double, 10000, false, 3)
	in := npyFile(cltype.Double, vals, []int64{int64(len(vals))}, false, false)
	var last, calls int64
	_, err := Convert(context.Background(), io.Discard, bytes.NewReader(in), Options{
		Dst: cltype.Float, ChunkBytes: 8000, Size: int64(len(in)),
		Progress: func(done, total int64) {
			if done < last || total != int64(len(in)) {
				t.Errorf("progress %d of %d after %d", done, total, last)
			}
			last = done
			calls++
		},
	})
	if err != nil || last != int64(len(in)) || calls < 5 {
		t.Errorf("progress ended at %d of %d after %d calls (%v)", last, len(in), calls, err)
	}
}
