package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// Convert converts the safetensors file src to dst, which receives the whole
// output file from offset 0 (an *os.File or a fileconv.AtomicFile; ConvertFile
// does the atomic part). others are further files of the same checkpoint in
// which a scale may live (nil for a single file). It returns what it did per
// tensor.
func Convert(ctx context.Context, dst io.WriterAt, src *safetensors.File, others []*safetensors.File, opt Options) (*Report, error) {
	return convertInputs(ctx, dst, FromSafetensors(src, ""), inputsOf(others, nil), opt)
}

// convertInputs is Convert on the views of the input files.
func convertInputs(ctx context.Context, dst io.WriterAt, src *Input, others []*Input, opt Options) (*Report, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	all, err := index(append([]*Input{src}, others...))
	if err != nil {
		return nil, err
	}
	jobs, err := plan(src, all, &opt)
	if err != nil {
		return nil, err
	}
	// The reports move into rep, where the conversion completes them: no
	// second copy of a report per tensor.
	rep := &Report{Shards: 1, Tensors: make([]TensorReport, len(jobs))}
	for i, j := range jobs {
		rep.Tensors[i] = *j.report
		j.report = &rep.Tensors[i]
	}
	var done atomic.Int64
	total := src.Size
	n, err := write(ctx, dst, src.Metadata, jobs, &opt, &done, total)
	if err != nil {
		return nil, err
	}
	rep.BytesIn, rep.BytesOut = src.Size, n
	rep.Warnings = tensorWarnings(rep, &opt)
	return rep, nil
}

// index maps every tensor name of files to its source; a name in two files
// is an error.
func index(files []*Input) (map[string]source, error) {
	n := 0
	for _, f := range files {
		n += len(f.Tensors)
	}
	all := make(map[string]source, n)
	for _, f := range files {
		for i := range f.Tensors {
			t := &f.Tensors[i]
			if _, dup := all[t.Name]; dup {
				return nil, dataErrorf("checkpoint: tensor %q is in two shards", t.Name)
			}
			all[t.Name] = source{f, t}
		}
	}
	return all, nil
}

// write writes the header of jobs' output (with the input's __metadata__
// meta, edited by outMetadata) and then every tensor, and returns the
// number of bytes written.
func write(ctx context.Context, dst io.WriterAt, meta map[string]string, jobs []*job, opt *Options, done *atomic.Int64, total int64) (int64, error) {
	infos := make([]safetensors.TensorInfo, 0, len(jobs))
	live := make([]*job, 0, len(jobs))
	for _, j := range jobs {
		if j.act == ActDropScale {
			continue
		}
		infos = append(infos, j.out)
		live = append(live, j)
	}
	hw := &headerWriter{dst: dst}
	var placed []safetensors.TensorInfo
	if opt.npy {
		// One tensor, after a .npy header: the header clconv's .npy
		// conversion writes.
		if len(live) != 1 {
			return 0, fmt.Errorf("checkpoint: a .npy output holds one tensor, and this conversion writes %d (select one with Tensors)", len(live))
		}
		t := live[0].out
		hw.Write(fileconv.EncodeHeader(t.DType.Kind(), false, t.Shape, 0))
		placed = []safetensors.TensorInfo{{Begin: 0, End: outBytes(&t)}}
	} else {
		w, err := safetensors.NewWriter(hw, infos, outMetadata(meta, jobs))
		if hw.err == nil && err != nil {
			return 0, fmt.Errorf("checkpoint: %w", err)
		}
		if err == nil {
			placed = w.Tensors()
		}
	}
	if hw.err != nil {
		return 0, &fileconv.WriteError{Err: hw.err}
	}
	base := hw.n
	size := base
	for i, j := range live {
		j.out.Begin, j.out.End = placed[i].Begin, placed[i].End
		size = max(size, base+j.out.End)
	}
	progress := func(n int64) {
		d := done.Add(n)
		if opt.Progress != nil {
			opt.Progress(d, total)
		}
	}
	small := &batch{dst: dst, buf: make([]byte, 0, batchBytes)}
	var err error
	for _, j := range live {
		if err := ctx.Err(); err != nil {
			return 0, context.Cause(ctx)
		}
		if opt.ranges != nil && kernel(j.act) == nil {
			// DequantizedRanges discards the output: only the
			// dequantizations, whose values it counts, are run.
			continue
		}
		switch j.act {
		case ActKeep, ActDecode:
			err = copyTensor(ctx, small.of(j), base+j.out.Begin, j.src, opt)
		case ActConvert:
			err = convertTensor(ctx, small.of(j), base+j.out.Begin, j, opt)
		case ActReencode:
			err = reencodeTensor(ctx, small.of(j), base+j.out.Begin, j, opt)
		case ActDequantFP8, ActDequantMX, ActDequantNV:
			err = kernel(j.act)(ctx, rangeDst(dst, base, j, opt), base, j, opt)
		case ActQuantFP8, ActQuantMX, ActQuantNV:
			err = kernel(j.act)(ctx, dst, base, j, opt)
		case ActScaleOut:
			// Written by its QuantFP8 job.
		}
		if err != nil {
			return 0, err
		}
		if j.act != ActScaleOut {
			progress(j.src.t.stored())
		}
	}
	if err := small.flush(); err != nil {
		return 0, &fileconv.WriteError{Err: err}
	}
	return size, nil
}

// rangeDst returns dst, or, when the conversion gathers the dequantized
// ranges of float64 outputs, dst wrapped to count job j's values.
func rangeDst(dst io.WriterAt, base int64, j *job, opt *Options) io.WriterAt {
	if opt.ranges == nil || j.out.DType != safetensors.F64 {
		return dst
	}
	return &rangeWriter{dst: dst, begin: base + j.out.Begin, set: opt.ranges, name: j.src.t.Name}
}

// batchBytes is the size of the batch of small outputs, and smallBytes the
// size up to which a kept or converted tensor's output goes into it.
const batchBytes, smallBytes = 1 << 20, 64 << 10

// batch gathers the outputs of consecutive small tensors into one write: a
// million one-element tensors make a few writes, not a million. A small
// tensor is one piece, written from the calling goroutine (parallel), so
// that the batch needs no lock.
type batch struct {
	dst io.WriterAt
	off int64 // where buf goes
	buf []byte
}

// of returns the output for job j: the batch for a small tensor (of one
// piece), dst for the others.
func (b *batch) of(j *job) io.WriterAt {
	if j.out.Bytes() <= smallBytes && j.src.t.Bytes() <= smallBytes && j.src.t.Count() <= chunkElems {
		return b
	}
	return b.dst
}

func (b *batch) WriteAt(p []byte, off int64) (int, error) {
	if off != b.off+int64(len(b.buf)) || len(b.buf)+len(p) > cap(b.buf) {
		if err := b.flush(); err != nil {
			return 0, err
		}
		b.off = off
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// flush writes what the batch holds.
func (b *batch) flush() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.dst.WriteAt(b.buf, b.off)
	b.off += int64(len(b.buf))
	b.buf = b.buf[:0]
	return err
}

// headerWriter writes the output's header straight into dst from offset 0
// (a header of a million tensors is tens of MB: no copy of it in a buffer).
type headerWriter struct {
	dst io.WriterAt
	n   int64 // bytes written
	err error // the first error of dst
}

func (h *headerWriter) Write(p []byte) (int, error) {
	n, err := h.dst.WriteAt(p, h.n)
	h.n += int64(n)
	if err != nil && h.err == nil {
		h.err = err
	}
	return n, err
}

// copyPiece is the most bytes a worker copies at once.
const copyPiece = 1 << 20

// copyTensor copies a tensor's bytes unchanged to dst at off (an encoded
// tensor's decoded float32 values), a piece of copyPiece bytes at a time
// (on the workers for a larger tensor), through reused buffers.
func copyTensor(ctx context.Context, dst io.WriterAt, off int64, s source, opt *Options) error {
	n := s.t.Bytes()
	return parallel(ctx, int(ceilDiv(n, copyPiece)), opt, func(sc *scratch, i int) error {
		at := int64(i) * copyPiece
		b := sc.buf(0, min(copyPiece, n-at))
		if err := readAt(s, b, at); err != nil {
			return err
		}
		return writeAt(dst, b, off+at)
	})
}

// convertTensor converts a tensor element by element into dst at off, with
// the kernels of package convert, in pieces of chunkElems elements through
// reused buffers: a small tensor on the calling goroutine, a large one on
// the workers. It counts the finite values that became NaN or infinite
// (fileconv.CountNonFinite). With Options.Stats it goes through fileconv's streaming
// engine, which counts the same statistics as .npy conversion (fileconv
// exports no counting of a single buffer), with no more workers and chunks
// than the tensor fills.
func convertTensor(ctx context.Context, dst io.WriterAt, off int64, j *job, opt *Options) error {
	t := j.src.t
	from := t.DType.Kind()
	// The destination is the tensor's own: opt.To, or Options.Rest for
	// a tensor that a quantization converts instead (never saturated).
	to, sat := j.out.DType.Kind(), opt.Sat && !j.rest
	ssize, dsize := int64(from.Size()), int64(to.Size())
	n := t.Count()
	if t.Codec == nil && n*ssize != t.Bytes() {
		return tensorErr(t.Name, fmt.Errorf("%d bytes hold %d elements of %s, not %d", t.Bytes(), t.Bytes()/ssize, t.DType, n))
	}
	// fileconv.Convert's checks, which the fast path must keep.
	if sat && to.IsFloat() {
		return tensorErr(t.Name, fmt.Errorf("_sat is not allowed with a floating destination (%s)", to))
	}
	if opt.Mode > round.RTN {
		return tensorErr(t.Name, fmt.Errorf("invalid rounding mode %v", opt.Mode))
	}
	if opt.Stats {
		var st fileconv.Stats
		if n > 0 {
			// fileconv allocates 2*workers+2 chunks per call: one worker
			// per MiB of the tensor at most, and chunks no larger than
			// the tensor's share, so that a small tensor costs what it
			// holds.
			esize := max(ssize, dsize)
			workers := int(min(int64(opt.workers()), ceilDiv(n*esize, fileconv.DefaultChunkBytes)))
			chunk := int(min(fileconv.DefaultChunkBytes, ceilDiv(n, int64(workers))*esize))
			res, err := fileconv.Convert(ctx, io.NewOffsetWriter(dst, off), t.values(), fileconv.Options{
				Dst: to, Sat: sat, Mode: opt.Mode,
				From: from, In: fileconv.FormatRaw, Out: fileconv.FormatRaw,
				Workers: workers, ChunkBytes: chunk, Stats: true, Size: t.Bytes(),
			})
			if err != nil {
				return tensorErr(t.Name, err)
			}
			if res.Stats.Count != n {
				return tensorErr(t.Name, fmt.Errorf("converted %d elements, want %d", res.Stats.Count, n))
			}
			st = res.Stats
			j.report.NonFinite = res.NonFinite
		}
		j.report.Stats = &st
		return nil
	}
	var nonFinite atomic.Int64
	defer func() { j.report.NonFinite = nonFinite.Load() }()
	return parallel(ctx, int(ceilDiv(n, chunkElems)), opt, func(s *scratch, i int) error {
		e0 := int64(i) * chunkElems
		m := min(chunkElems, n-e0)
		raw, out := s.buf(0, m*ssize), s.buf(1, m*dsize)
		if err := readAt(j.src, raw, e0*ssize); err != nil {
			return err
		}
		if err := convert.Bytes(to, from, out, raw, opt.Mode, sat); err != nil {
			return tensorErr(t.Name, err)
		}
		if c := fileconv.CountNonFinite(to, from, sat, out, raw, int(m)); c > 0 {
			nonFinite.Add(c)
		}
		return writeAt(dst, out, off+e0*dsize)
	})
}

// tensorErr names the tensor in err.
func tensorErr(name string, err error) error {
	var we *fileconv.WriteError
	if errors.As(err, &we) {
		return err
	}
	return fmt.Errorf("tensor %q: %w", name, err)
}

// MaxWorkers caps Options.Workers (and clconv's --workers): 4 goroutines
// per GOMAXPROCS, or 64 on a small machine. The conversions are bound
// by the CPU, and more goroutines than cores only hide the latency of
// reading the mapped input and writing the output, which a few per core do;
// each worker holds its buffers (a few MiB at most), so that a huge Workers
// cannot exhaust memory.
func MaxWorkers() int { return max(64, 4*runtime.GOMAXPROCS(0)) }

// workers returns the number of goroutines to use: Options.Workers, at
// most MaxWorkers(), or GOMAXPROCS when it is not set.
func (o *Options) workers() int {
	if o.Workers > 0 {
		return min(o.Workers, MaxWorkers())
	}
	return runtime.GOMAXPROCS(0)
}

// parallel runs fn(s, i) for i in [0, n) on opt's workers, each with its
// own scratch buffers, and stops at the first error or when ctx is done,
// between two calls. The error returned is that of the lowest i that failed,
// whatever the timing: every i below it has run (the workers take the
// indices in order and skip only those above a failure). A single worker
// (one piece, or Workers 1) runs on the calling goroutine.
func parallel(ctx context.Context, n int, opt *Options, fn func(s *scratch, i int) error) error {
	if n <= 0 {
		return context.Cause(ctx)
	}
	workers := min(opt.workers(), n)
	if workers == 1 {
		s := scratchPool.Get().(*scratch)
		defer scratchPool.Put(s)
		for i := range n {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			if err := fn(s, i); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next     atomic.Int64
		failed   atomic.Int64 // the lowest index that failed, n while none has
		mu       sync.Mutex
		firstErr error // the error of index failed
		wg       sync.WaitGroup
	)
	failed.Store(int64(n))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := scratchPool.Get().(*scratch)
			defer scratchPool.Put(s)
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || i > failed.Load() || ctx.Err() != nil {
					return
				}
				if err := fn(s, int(i)); err != nil {
					mu.Lock()
					if i < failed.Load() {
						failed.Store(i)
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}
