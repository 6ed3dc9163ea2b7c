package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/mx"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// Bounded resources (issue 41, item 3): memory bounded by the workers
// whatever the shapes and the number of tensors, cancellation inside one
// tensor, checked scale values, and pieces that give the same bytes as
// whole tensors.

// rsWrite streams a safetensors file of infos to path, fill writing each
// tensor's bytes (in as many calls as it likes), so that a large test input
// never sits in memory.
func rsWrite(t *testing.T, path string, infos []safetensors.TensorInfo, fill func(i int, w io.Writer) error) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := safetensors.NewWriter(f, infos, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range infos {
		if err := fill(i, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// rsRepeat writes n bytes of the pattern p (repeated) to w.
func rsRepeat(w io.Writer, p []byte, n int64) error {
	buf := bytes.Repeat(p, max(1, (1<<20)/len(p)))
	for n > 0 {
		k := min(n, int64(len(buf)))
		if _, err := w.Write(buf[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// rsDiscard is an output that keeps nothing and counts the bytes written.
type rsDiscard struct {
	n       atomic.Int64
	onWrite func() // called before each write, if set
}

func (d *rsDiscard) WriteAt(p []byte, off int64) (int, error) {
	if d.onWrite != nil {
		d.onWrite()
	}
	d.n.Add(int64(len(p)))
	return len(p), nil
}

// rsAllocated returns the bytes that fn allocated (runtime.MemStats
// TotalAlloc): a bound on how much the heap can grow while fn runs,
// however short-lived a buffer (sampling the heap could miss a peak).
func rsAllocated(fn func()) uint64 {
	runtime.GC()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// rsConvert converts the file at path into a discarding output with opt and
// returns the bytes it allocated; the output must have at least least
// bytes (the header and the data).
func rsConvert(t *testing.T, path string, opt Options, least int64) uint64 {
	t.Helper()
	f, err := safetensors.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cerr error
	d := &rsDiscard{}
	alloc := rsAllocated(func() {
		_, cerr = Convert(context.Background(), d, f, nil, opt)
	})
	if cerr != nil {
		t.Fatal(cerr)
	}
	if d.n.Load() < least {
		t.Fatalf("%d bytes written, want at least %d", d.n.Load(), least)
	}
	return alloc
}

// rsBound is the most a conversion on two workers may allocate: a few
// pieces' buffers per worker, whatever the size of the tensor (before the
// pieces, a [1, N] FP8 weight allocated 19 bytes per element).
const rsBound = 16 << 20

func rsCheck(t *testing.T, what string, alloc, bound uint64) {
	t.Helper()
	t.Logf("%s: allocated %.1f MiB", what, float64(alloc)/(1<<20))
	if alloc > bound {
		t.Errorf("%s allocated %.1f MiB, more than %.1f MiB", what, float64(alloc)/(1<<20), float64(bound)/(1<<20))
	}
}

// TestResourceFP8LongRow dequantizes an FP8 weight of one long row.
func TestResourceFP8LongRow(t *testing.T) {
	n := int64(64 << 20)
	if testing.Short() {
		n = 8 << 20
	}
	path := filepath.Join(t.TempDir(), "fp8.safetensors")
	infos := []safetensors.TensorInfo{
		{Name: "w.weight", DType: safetensors.F8_E4M3, Shape: []int64{1, n}},
		{Name: "w.weight_scale_inv", DType: safetensors.F32, Shape: []int64{1, n / 128}},
	}
	rsWrite(t, path, infos, func(i int, w io.Writer) error {
		if i == 0 {
			return rsRepeat(w, []byte{0x38, 0xb9, 0x01, 0x7e, 0x44}, n)
		}
		return rsRepeat(w, binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.75)), 4*(n/128))
	})
	rsCheck(t, fmt.Sprintf("FP8 [1, %d] to bfloat16", n), rsConvert(t, path, Options{To: cltype.BFloat16, Workers: 2}, 2*n), rsBound)
}

// TestResourceQuantFP8HugeBlock quantizes to e4m3 with one block that
// covers the whole tensor, which no longer sits in memory as float64.
func TestResourceQuantFP8HugeBlock(t *testing.T) {
	rows, cols := int64(5000), int64(6000)
	if testing.Short() {
		rows, cols = 1000, 1200
	}
	path := filepath.Join(t.TempDir(), "f32.safetensors")
	infos := []safetensors.TensorInfo{{Name: "w", DType: safetensors.F32, Shape: []int64{rows, cols}}}
	var pat []byte
	for i := range 97 {
		pat = binary.LittleEndian.AppendUint32(pat, math.Float32bits(float32(i-48)*0.37))
	}
	rsWrite(t, path, infos, func(_ int, w io.Writer) error { return rsRepeat(w, pat, 4*rows*cols) })
	alloc := rsConvert(t, path, Options{To: cltype.E4M3, BlockSize: [2]int{5000, 5000}, Workers: 2, Tensors: all}, rows*cols)
	rsCheck(t, fmt.Sprintf("e4m3 blocks of 5000x5000 of [%d, %d] F32", rows, cols), alloc, rsBound)
}

// TestResourceMXFP4LongRow dequantizes gpt-oss MXFP4 blocks of one long
// row.
func TestResourceMXFP4LongRow(t *testing.T) {
	b := int64(3_100_000)
	if testing.Short() {
		b = 256 << 10
	}
	path := filepath.Join(t.TempDir(), "mxfp4.safetensors")
	infos := []safetensors.TensorInfo{
		{Name: "m.blocks", DType: safetensors.U8, Shape: []int64{1, b, 16}},
		{Name: "m.scales", DType: safetensors.U8, Shape: []int64{1, b}},
	}
	rsWrite(t, path, infos, func(i int, w io.Writer) error {
		if i == 0 {
			return rsRepeat(w, []byte{0x12, 0x9f, 0x70, 0x35, 0xe1}, 16*b)
		}
		return rsRepeat(w, []byte{127, 120, 130}, b)
	})
	rsCheck(t, fmt.Sprintf("MXFP4 [1, %d, 16] to bfloat16", b), rsConvert(t, path, Options{To: cltype.BFloat16, Workers: 2}, 2*32*b), rsBound)
}

// TestResourceQuantMXLongRow quantizes one long row to MXFP4 and to NVFP4.
func TestResourceQuantMXLongRow(t *testing.T) {
	n := int64(16 << 20)
	if testing.Short() {
		n = 4 << 20
	}
	path := filepath.Join(t.TempDir(), "f32.safetensors")
	infos := []safetensors.TensorInfo{{Name: "w", DType: safetensors.F32, Shape: []int64{1, n}}}
	var pat []byte
	for i := range 61 {
		pat = binary.LittleEndian.AppendUint32(pat, math.Float32bits(float32(i-30)*1.3))
	}
	rsWrite(t, path, infos, func(_ int, w io.Writer) error { return rsRepeat(w, pat, 4*n) })
	for _, f := range []*mx.Format{mx.MXFP4, mx.NVFP4} {
		rsCheck(t, fmt.Sprintf("[1, %d] F32 to %s", n, f.Name), rsConvert(t, path, Options{Block: f, Workers: 2, Tensors: all}, n/2), rsBound)
	}
}

// TestResourceTinyTensors converts many one-element tensors: no buffer and
// no pipeline per tensor (each took 1 MiB or more, and half a millisecond).
func TestResourceTinyTensors(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	path := filepath.Join(t.TempDir(), "tiny.safetensors")
	infos := make([]safetensors.TensorInfo, n)
	for i := range infos {
		d := []safetensors.DType{safetensors.F32, safetensors.U8, safetensors.BF16, safetensors.F16}[i%4]
		infos[i] = safetensors.TensorInfo{Name: fmt.Sprintf("model.layers.%d.t%d", i/64, i), DType: d, Shape: []int64{1}}
	}
	rsWrite(t, path, infos, func(i int, w io.Writer) error {
		_, err := w.Write([]byte{0x00, 0x00, 0xc0, 0x3f}[:infos[i].DType.Bits()/8])
		return err
	})
	for _, stats := range []bool{false, true} {
		alloc := rsConvert(t, path, Options{To: cltype.BFloat16, Stats: stats}, int64(n))
		perTensor := alloc / uint64(n)
		t.Logf("%d tensors, Stats %v: %d bytes allocated per tensor", n, stats, perTensor)
		// The plan, the report and the output header take a few
		// kilobytes per tensor (fileconv's pipeline, with Stats, a few
		// more); a buffer per tensor was a megabyte.
		if perTensor > 32<<10 {
			t.Errorf("Stats %v: %d bytes allocated per tensor", stats, perTensor)
		}
	}
}

// TestWorkersCapped: a huge Options.Workers runs at most MaxWorkers()
// goroutines, each with its buffers.
func TestWorkersCapped(t *testing.T) {
	limit := max(64, 4*runtime.GOMAXPROCS(0))
	for _, w := range []int{0, 1, limit, limit + 1, 100_000, math.MaxInt} {
		o := Options{Workers: w}
		if got := o.workers(); got < 1 || got > limit || (w > 0 && got != min(w, limit)) {
			t.Errorf("Workers %d: %d goroutines, want at most %d", w, got, limit)
		}
	}
	var running, peak atomic.Int64
	var mu sync.Mutex
	err := parallel(context.Background(), 10*limit, &Options{Workers: 100_000}, func(*scratch, int) error {
		r := running.Add(1)
		mu.Lock()
		peak.Store(max(peak.Load(), r))
		mu.Unlock()
		runtime.Gosched()
		running.Add(-1)
		return nil
	})
	if err != nil || peak.Load() > int64(limit) {
		t.Errorf("parallel with Workers 100000: %v, %d at once (limit %d)", err, peak.Load(), limit)
	}
}

// TestCancelInsideTensor cancels a conversion at its first write: a copy,
// an FP8 dequantization and a quantization with one huge block each stop
// within a few pieces of the one tensor, with the cancellation's cause.
func TestCancelInsideTensor(t *testing.T) {
	n := int64(64 << 20)
	if testing.Short() {
		n = 16 << 20
	}
	dir := t.TempDir()
	side := int64(math.Sqrt(float64(n / 4)))
	cases := []struct {
		name  string
		infos []safetensors.TensorInfo
		opt   Options
	}{
		{"copy", []safetensors.TensorInfo{{Name: "ids", DType: safetensors.I32, Shape: []int64{n / 4}}}, Options{To: cltype.BFloat16}},
		{"convert", []safetensors.TensorInfo{{Name: "x", DType: safetensors.F32, Shape: []int64{n / 4}}}, Options{To: cltype.BFloat16}},
		{"dequantize", []safetensors.TensorInfo{
			{Name: "w.weight", DType: safetensors.F8_E4M3, Shape: []int64{1, n}},
			{Name: "w.weight_scale_inv", DType: safetensors.F32, Shape: []int64{}},
		}, Options{To: cltype.BFloat16}},
		{"quantize", []safetensors.TensorInfo{{Name: "x", DType: safetensors.F32, Shape: []int64{side, side}}}, Options{To: cltype.E4M3, BlockSize: [2]int{1 << 20, 1 << 20}, Tensors: all}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name+".safetensors")
			rsWrite(t, path, c.infos, func(i int, w io.Writer) error {
				return rsRepeat(w, []byte{0, 0, 0x80, 0x3f}, c.infos[i].Count()*int64(c.infos[i].DType.Bits()/8))
			})
			f, err := safetensors.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for _, workers := range []int{1, 3} {
				cause := fmt.Errorf("interrupted by the test (%d workers)", workers)
				ctx, cancel := context.WithCancelCause(context.Background())
				defer cancel(nil)
				var writes, after atomic.Int64 // all writes; those once cancelled
				d := &rsDiscard{}
				d.onWrite = func() {
					if ctx.Err() != nil {
						after.Add(1)
					}
					if writes.Add(1) == 2 { // the first write after the header
						cancel(cause)
					}
				}
				opt := c.opt
				opt.Workers = workers
				_, err := Convert(ctx, d, f, nil, opt)
				if !errors.Is(err, cause) {
					t.Fatalf("workers %d: %v, want the cause %v", workers, err, cause)
				}
				// The other workers finish the piece they are converting:
				// at most a MiB each.
				if after.Load() > int64(workers) || d.n.Load() > int64(workers+1)<<20+4096 {
					t.Errorf("workers %d: %d writes after the cancellation, %d bytes in all", workers, after.Load(), d.n.Load())
				}
			}
		})
	}
}

// TestBadScales: a scale value that is NaN, infinite or zero is a data
// error naming the weight, its scale, the value and its index; so are an
// NVFP4 tensor scale that is not finite and positive and a negative NVFP4
// block scale.
func TestBadScales(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(41, 4))
	w := rawTensor("model.layers.0.mlp.up_proj.weight", safetensors.F8_E4M3, []int64{300, 260}, rng)
	// Each case runs with one worker and whole rows, and with three workers
	// and pieces of 100 elements, the bad values in several of them: the
	// first bad value is named either way.
	run := func(t *testing.T, name string, want []string, ts ...tensor) {
		t.Helper()
		in := writeFile(t, dir, name+".safetensors", nil, ts...)
		defer func(c int64) { chunkElems = c }(chunkElems)
		for _, workers := range []int{1, 3} {
			if workers > 1 {
				chunkElems = 100
			}
			_, err := ConvertFile(context.Background(), filepath.Join(dir, name+".out.safetensors"), in, false, Options{To: cltype.BFloat16, Workers: workers})
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("%s: %v, want a data error", name, err)
			}
			for _, s := range want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: %q lacks %q", name, err, s)
				}
			}
		}
	}
	for _, d := range []safetensors.DType{safetensors.F32, safetensors.BF16, safetensors.F16} {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), -2.5} {
			sc := tensor{safetensors.TensorInfo{Name: w.info.Name + "_scale_inv", DType: d, Shape: []int64{3, 3}}, nil}
			put := func(v float64) {
				switch d {
				case safetensors.F32:
					sc.data = binary.LittleEndian.AppendUint32(sc.data, math.Float32bits(float32(v)))
				default:
					bits := uint16(half.FromFloat64(v, round.RTE))
					if d == safetensors.BF16 {
						bits = uint16(math.Float32bits(float32(v)) >> 16)
					}
					sc.data = binary.LittleEndian.AppendUint16(sc.data, bits)
				}
			}
			for i := range 9 {
				switch i {
				case 5, 7: // [1, 2] and a later one: the first is reported
					put(bad)
				default:
					put(0.5 + float64(i))
				}
			}
			name := fmt.Sprintf("%s-%v", d, bad)
			run(t, name, []string{`tensor "model.layers.0.mlp.up_proj.weight"`, `its scale "model.layers.0.mlp.up_proj.weight_scale_inv"`, fmt.Sprintf("holds %v at [1, 2];", bad), "finite and positive"}, w, sc)
		}
	}
	// A scalar scale: no index.
	scalar := tensor{safetensors.TensorInfo{Name: "x.weight_scale", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(math.Inf(1))))}
	xw := rawTensor("x.weight", safetensors.F8_E5M2, []int64{4, 4}, rng)
	run(t, "scalar", []string{`tensor "x.weight": its scale "x.weight_scale" holds +Inf; a block scale`}, xw, scalar)

	// NVFP4: the tensor scale, then a negative block scale.
	nw := rawTensor("l.weight", safetensors.U8, []int64{3, 16}, rng)
	ns := rawTensor("l.weight_scale", safetensors.F8_E4M3, []int64{3, 2}, rng)
	for i := range ns.data {
		ns.data[i] &= 0x7e
	}
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), -0.5, float32(math.Copysign(0, -1))} {
		ns2 := tensor{safetensors.TensorInfo{Name: "l.weight_scale_2", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(v))}
		run(t, fmt.Sprintf("nv-%v", v), []string{`tensor "l.weight": its scale "l.weight_scale_2" holds ` + fmt.Sprint(float64(v)) + "; an NVFP4 tensor scale must be finite and positive (or +0)"}, nw, ns, ns2)
	}
	ns2 := tensor{safetensors.TensorInfo{Name: "l.weight_scale_2", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.01))}
	neg := tensor{ns.info, bytes.Clone(ns.data)}
	neg.data[3] = 0xb8 // -1 at [1, 1]
	run(t, "nv-negative", []string{`tensor "l.weight": its scale "l.weight_scale" holds -1 at [1, 1]; an NVFP4 block scale must not be negative`}, nw, neg, ns2)
}

// TestPiecesEqualWhole converts every layout with pieces of a few elements
// (rows split into parts, scales read a part at a time, huge FP8 blocks read
// twice) and compares the output bytes and the reports with the default
// pieces, which hold whole rows of these small tensors as the conversions
// always did, on several workers.
func TestPiecesEqualWhole(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(41, 3))
	f8 := rawTensor("f8.weight", safetensors.F8_E4M3, []int64{37, 300}, rng)
	f8s := tensor{safetensors.TensorInfo{Name: "f8.weight_scale_inv", DType: safetensors.F32, Shape: []int64{1, 3}}, nil}
	for i := range 3 {
		f8s.data = binary.LittleEndian.AppendUint32(f8s.data, math.Float32bits(float32(i)+0.3))
	}
	e5 := rawTensor("e5.weight", safetensors.F8_E5M2, []int64{5, 70}, rng)
	e5s := tensor{safetensors.TensorInfo{Name: "e5.weight_scale", DType: safetensors.BF16, Shape: []int64{5, 3}}, nil}
	for i := range 15 {
		e5s.data = binary.LittleEndian.AppendUint16(e5s.data, uint16(math.Float32bits(float32(i)*0.7+0.1)>>16))
	}
	mxb := rawTensor("m.blocks", safetensors.U8, []int64{2, 10, 16}, rng)
	mxs := rawTensor("m.scales", safetensors.U8, []int64{2, 10}, rng)
	mxs.data[7] = 0xff
	nw := rawTensor("l.weight", safetensors.U8, []int64{3, 64}, rng)
	ns := rawTensor("l.weight_scale", safetensors.F8_E4M3, []int64{3, 8}, rng)
	for i := range ns.data {
		ns.data[i] &= 0x7f
	}
	ns2 := tensor{safetensors.TensorInfo{Name: "l.weight_scale_2", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.0123))}
	deq := writeFile(t, dir, "deq.safetensors", nil, f8, f8s, e5, e5s, mxb, mxs, nw, ns, ns2,
		f32Tensor("plain", 3, 333, rng), rawTensor("ids", safetensors.I64, []int64{1000}, rng))
	quant := writeFile(t, dir, "quant.safetensors", nil,
		f32Tensor("a", 50, 70, rng),
		qmxTensor("b", safetensors.F64, []int64{7, 100}, qmxValues(rng, 700, true)),
		qmxTensor("c", safetensors.BF16, []int64{3, 1, 256}, qmxValues(rng, 768, true)),
		qmxTensor("h", safetensors.F16, []int64{2, 96}, qmxValues(rng, 192, false)),
	)
	// Finite values for the FP8 quantization (an infinity has no scale).
	quantFP := writeFile(t, dir, "quantfp8.safetensors", nil,
		qmxTensor("a", safetensors.F32, []int64{50, 70}, qmxValues(rng, 3500, false)),
		qmxTensor("b", safetensors.F64, []int64{7, 100}, qmxValues(rng, 700, false)),
		qmxTensor("c", safetensors.BF16, []int64{30, 1}, qmxValues(rng, 30, false)),
	)
	type run struct {
		name string
		in   string
		opt  Options
	}
	var runs []run
	for _, to := range []cltype.Kind{cltype.BFloat16, cltype.Half, cltype.Float, cltype.Double} {
		runs = append(runs, run{"dequant-" + to.String(), deq, Options{To: to}})
	}
	runs = append(runs, run{"dequant-stats", deq, Options{To: cltype.Half, Stats: true}})
	for _, b := range [][2]int{{16, 16}, {3, 100}, {64, 64}, {1, 1}, {5000, 5000}, {1, 7}} {
		runs = append(runs, run{fmt.Sprintf("e4m3-%dx%d", b[0], b[1]), quantFP, Options{To: cltype.E4M3, BlockSize: b, Tensors: all}})
	}
	runs = append(runs, run{"e5m2-rtz", quantFP, Options{To: cltype.E5M2, BlockSize: [2]int{8, 32}, Mode: round.RTZ, Tensors: all}})
	for _, f := range mx.Formats {
		runs = append(runs, run{"mx-" + f.Name, quant, Options{Block: f, Pad: true, Tensors: all}})
	}
	convertTo := func(r run, chunk int64, workers int) ([]byte, string) {
		defer func(c int64) { chunkElems = c }(chunkElems)
		chunkElems = chunk
		out := filepath.Join(dir, "out.safetensors")
		opt := r.opt
		opt.Workers = workers
		rep, err := ConvertFile(context.Background(), out, r.in, true, opt)
		if err != nil {
			t.Fatalf("%s, pieces of %d: %v", r.name, chunk, err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var reps []string
		for _, tr := range rep.Tensors {
			st, ms := tr.Stats, tr.MX
			tr.Stats, tr.MX = nil, nil // pointers: their values below
			s := fmt.Sprintf("%+v", tr)
			if st != nil {
				s += fmt.Sprintf(" %+v", *st)
			}
			if ms != nil {
				s += fmt.Sprintf(" %+v", *ms)
			}
			reps = append(reps, s)
		}
		return b, strings.Join(reps, "\n")
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			want, wantRep := convertTo(r, chunkElems, 1)
			for _, chunk := range []int64{1, 7, 64, 100, 1000} {
				got, gotRep := convertTo(r, chunk, 3)
				if !bytes.Equal(got, want) {
					t.Errorf("pieces of %d elements: the output differs", chunk)
				}
				if gotRep != wantRep {
					t.Errorf("pieces of %d elements: report\n%s\nwant\n%s", chunk, gotRep, wantRep)
				}
			}
		})
	}
}

// TestFirstErrorWins: whatever the timing, parallel returns the error of
// the lowest failing index, and every index below it has run.
func TestFirstErrorWins(t *testing.T) {
	for range 50 {
		var ran [200]atomic.Bool
		err := parallel(context.Background(), len(ran), &Options{Workers: 4}, func(_ *scratch, i int) error {
			ran[i].Store(true)
			if i%37 == 36 {
				return fmt.Errorf("piece %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "piece 36" {
			t.Fatalf("got %v, want piece 36", err)
		}
		for i := range 36 {
			if !ran[i].Load() {
				t.Fatalf("piece %d did not run", i)
			}
		}
	}
}

// TestNVFP4ZeroTensor: a tensor of zeros quantized to NVFP4 has the tensor
// scale +0 (ModelOpt's amax / 2688) and dequantizes back to zeros; an NVFP4
// weight with the tensor scale +0 dequantizes to element x block scale x 0
// exactly: zeros of the product's sign, NaN for a NaN block scale.
func TestNVFP4ZeroTensor(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "zeros.safetensors", nil, qmxTensor("z", safetensors.F32, []int64{2, 32}, make([]float64, 64)))
	q := filepath.Join(dir, "q.safetensors")
	if _, err := ConvertFile(context.Background(), q, in, false, Options{Block: mx.NVFP4, Tensors: all}); err != nil {
		t.Fatal(err)
	}
	_, got := readBack(t, q)
	if ts := got["z_scale_2"]; len(ts) != 4 || binary.LittleEndian.Uint32(ts) != 0 {
		t.Fatalf("tensor scale %x, want +0", ts)
	}
	back := filepath.Join(dir, "back.safetensors")
	if _, err := ConvertFile(context.Background(), back, q, false, Options{To: cltype.Float}); err != nil {
		t.Fatal(err)
	}
	_, got = readBack(t, back)
	if z := got["z"]; !bytes.Equal(z, make([]byte, 4*64)) {
		t.Errorf("dequantized zeros: %x", z)
	}

	// By hand: elements 1 and -1.5 (low nibble first), block scales 2,
	// -0 and NaN.
	w := tensor{safetensors.TensorInfo{Name: "l.weight", DType: safetensors.U8, Shape: []int64{1, 24}}, bytes.Repeat([]byte{0xb2}, 24)}
	sc := tensor{safetensors.TensorInfo{Name: "l.weight_scale", DType: safetensors.F8_E4M3, Shape: []int64{1, 3}}, []byte{0x40, 0x80, 0x7f}}
	ts := tensor{safetensors.TensorInfo{Name: "l.weight_scale_2", DType: safetensors.F32, Shape: []int64{}}, make([]byte, 4)}
	in = writeFile(t, dir, "nv0.safetensors", nil, w, sc, ts)
	out := filepath.Join(dir, "nv0.out.safetensors")
	if _, err := ConvertFile(context.Background(), out, in, false, Options{To: cltype.Float}); err != nil {
		t.Fatal(err)
	}
	_, got = readBack(t, out)
	for i := range 48 {
		g := math.Float32frombits(binary.LittleEndian.Uint32(got["l.weight"][4*i:]))
		neg := i%2 == 1 // -1.5
		switch blk := i / 16; {
		case blk == 2:
			if !math.IsNaN(float64(g)) {
				t.Errorf("element %d (NaN scale) = %v", i, g)
			}
		case g != 0 || math.Signbit(float64(g)) != (neg != (blk == 1)):
			t.Errorf("element %d (block %d) = %v, want a zero of the product's sign", i, blk, g)
		}
	}
}

// TestNonFiniteCounted: the inline conversion counts the finite values that
// became NaN or infinite as fileconv does (with Stats), and so does an FP8
// dequantization whose products overflow the destination.
func TestNonFiniteCounted(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(41, 5))
	w := rawTensor("w.weight", safetensors.F8_E4M3, []int64{2, 4}, rng)
	copy(w.data, []byte{0x7e, 0xfe, 0x38, 0x00, 0x7f, 0x10, 0x7e, 0x01}) // 448, -448, 1, 0, NaN, 2^-5, 448, 2^-9
	sc := tensor{safetensors.TensorInfo{Name: "w.weight_scale_inv", DType: safetensors.F32, Shape: []int64{}}, binary.LittleEndian.AppendUint32(nil, math.Float32bits(1e5))}
	in := writeFile(t, dir, "in.safetensors", nil, f32Tensor("x", 40, 300, rng), w, sc)
	counts := map[bool]int64{}
	for _, stats := range []bool{false, true} {
		rep, err := ConvertFile(context.Background(), filepath.Join(dir, fmt.Sprint(stats)+".safetensors"), in, false, Options{To: cltype.Half, Stats: stats})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range rep.Tensors {
			switch tr.Name {
			case "x":
				counts[stats] = tr.NonFinite
			case "w.weight":
				// 448e5 (twice), -448e5 and 1e5 overflow half (65504);
				// 2^-5 * 1e5 does not, and NaN is no finite value.
				if tr.NonFinite != 4 {
					t.Errorf("dequantized weight: NonFinite %d, want 4", tr.NonFinite)
				}
			}
		}
	}
	if counts[false] == 0 || counts[false] != counts[true] {
		t.Errorf("NonFinite %d without Stats, %d with", counts[false], counts[true])
	}
}
