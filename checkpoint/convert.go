package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// Convert converts the safetensors file src to dst, which receives the whole
// output file from offset 0 (an *os.File or a fileconv.AtomicFile; ConvertFile
// does the atomic part). others are further files of the same checkpoint in
// which a scale may live (nil for a single file). It returns what it did per
// tensor.
func Convert(ctx context.Context, dst io.WriterAt, src *safetensors.File, others []*safetensors.File, opt Options) (*Report, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	all, err := index(append([]*safetensors.File{src}, others...))
	if err != nil {
		return nil, err
	}
	jobs, err := plan(src, all, &opt)
	if err != nil {
		return nil, err
	}
	rep := &Report{Shards: 1}
	var done atomic.Int64
	total := src.Size
	n, err := write(ctx, dst, src, jobs, &opt, &done, total)
	if err != nil {
		return nil, err
	}
	for _, j := range jobs {
		rep.Tensors = append(rep.Tensors, *j.report)
	}
	rep.BytesIn, rep.BytesOut = src.Size, n
	return rep, nil
}

// index maps every tensor name of files to its source; a name in two files
// is an error.
func index(files []*safetensors.File) (map[string]source, error) {
	all := map[string]source{}
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

// write writes the header of jobs' output and then every tensor, and
// returns the number of bytes written.
func write(ctx context.Context, dst io.WriterAt, src *safetensors.File, jobs []*job, opt *Options, done *atomic.Int64, total int64) (int64, error) {
	var infos []safetensors.TensorInfo
	var live []*job
	for _, j := range jobs {
		if j.act == ActDropScale {
			continue
		}
		infos = append(infos, j.out)
		live = append(live, j)
	}
	var hdr bytes.Buffer
	w, err := safetensors.NewWriter(&hdr, infos, outMetadata(src.Metadata, jobs))
	if err != nil {
		return 0, fmt.Errorf("checkpoint: %w", err)
	}
	if _, err := dst.WriteAt(hdr.Bytes(), 0); err != nil {
		return 0, &fileconv.WriteError{Err: err}
	}
	base := int64(hdr.Len())
	placed := w.Tensors()
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
	for _, j := range live {
		if err := ctx.Err(); err != nil {
			return 0, context.Cause(ctx)
		}
		out := io.NewOffsetWriter(dst, base+j.out.Begin)
		switch j.act {
		case ActKeep:
			err = copyTensor(out, j.src)
		case ActConvert:
			err = convertTensor(ctx, out, j, opt)
		case ActDequantFP8:
			err = dequantFP8(ctx, dst, base, j, opt)
		case ActQuantFP8:
			err = quantFP8(ctx, dst, base, j, opt)
		case ActDequantMX, ActDequantNV:
			err = dequantBlocks(ctx, dst, base, j, opt)
		case ActQuantMX, ActQuantNV:
			err = quantMX(ctx, dst, base, j, j.extra, opt)
		case ActScaleOut:
			// Written by its QuantFP8 job.
		}
		if err != nil {
			return 0, err
		}
		if j.act != ActScaleOut {
			progress(j.src.t.Bytes())
		}
	}
	return size, nil
}

// copyTensor copies a tensor's bytes unchanged.
func copyTensor(out io.Writer, s source) error {
	buf := make([]byte, 1<<20)
	_, err := io.CopyBuffer(struct{ io.Writer }{out}, struct{ io.Reader }{s.f.Section(s.t)}, buf)
	if err != nil {
		return tensorErr(s.t.Name, err)
	}
	return nil
}

// convertTensor converts a tensor element by element through fileconv's
// streaming engine (all cores, constant memory, the same statistics as
// .npy conversion).
func convertTensor(ctx context.Context, out io.Writer, j *job, opt *Options) error {
	t := j.src.t
	res, err := fileconv.Convert(ctx, out, j.src.f.Section(t), fileconv.Options{
		Dst: opt.To, Sat: opt.Sat, Mode: opt.Mode,
		From: t.DType.Kind(), In: fileconv.FormatRaw, Out: fileconv.FormatRaw,
		Workers: opt.Workers, Stats: opt.Stats, Size: t.Bytes(),
	})
	if err != nil {
		return tensorErr(t.Name, err)
	}
	if res.Stats.Count != t.Count() {
		return tensorErr(t.Name, fmt.Errorf("converted %d elements, want %d", res.Stats.Count, t.Count()))
	}
	if opt.Stats {
		st := res.Stats
		j.report.Stats = &st
	}
	return nil
}

// tensorErr names the tensor in err.
func tensorErr(name string, err error) error {
	var we *fileconv.WriteError
	if errors.As(err, &we) {
		return err
	}
	return fmt.Errorf("tensor %q: %w", name, err)
}

// workers returns the number of goroutines to use.
func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// parallel runs fn(i) for i in [0, n) on opt's workers, stopping at the
// first error.
func parallel(ctx context.Context, n int, opt *Options, fn func(i int) error) error {
	var (
		next     atomic.Int64
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	for range min(opt.workers(), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				mu.Lock()
				stop := firstErr != nil
				mu.Unlock()
				if stop {
					return
				}
				if err := fn(i); err != nil {
					mu.Lock()
					if firstErr == nil {
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
