package ggufconv

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"runtime"
	"sync"

	"github.com/clconv/clconv/checkpoint"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/ggml"
	"github.com/clconv/clconv/gguf"
)

// QuantizationVersion is the general.quantization_version written into
// every output: ggml's GGML_QNT_VERSION, as llama-quantize writes it.
const QuantizationVersion = 2

// chunkElements is the number of elements a chunk of rows aims at (whole
// rows, at least one): 4 MiB of float32, small enough that a bounded
// number in flight keeps memory flat, large enough to amortize the
// hand-offs between goroutines.
const chunkElements = 1 << 20

// maxRow is the longest row converted (a chunk holds at least one row, as
// float32 and as output): 2^26 elements, 256 MiB of float32, which every
// port's int can index.
const maxRow = 1 << 26

// Options tune ConvertGGUF and ToSafetensors (ConvertToSafetensors takes
// checkpoint.Options). The zero value converts
// every eligible tensor to F32 (To's zero value).
type Options struct {
	// To is the tensor type of ConvertGGUF's output: a type package ggml
	// quantizes (Supported). Ignored when FileType is set.
	To ggml.Type
	// FileType, when set, makes ConvertGGUF choose each tensor's type as
	// llama-quantize does for that file type (PlanTypesWith).
	FileType FileType
	// PlanOptions are llama-quantize's choices beside the file type (--pure,
	// --tensor-type, --output-tensor-type, --token-embedding-type,
	// --leave-output-tensor); they need FileType.
	PlanOptions
	// Requantize lets ConvertGGUF dequantize and quantize again a tensor
	// that is already of a block type (Q8_0 to Q4_K); without it such a
	// tensor is copied, and the report says why.
	Requantize bool
	// LlamaLayout writes the tensors in llama-quantize's order (LlamaOrder)
	// and with ggml_n_dims dimensions (no trailing 1s), so that with
	// FileType the output is llama-quantize's file byte for byte. Without
	// it the input's order and dimensions are kept.
	LlamaLayout bool
	// Tensors, when not empty, limits the conversion to the tensors whose
	// names match one of these path.Match patterns; Skip excludes those
	// matching one of its patterns. ConvertGGUF copies the others as they
	// are; ToSafetensors leaves them out of its output.
	Tensors, Skip []string
	// Workers is the number of goroutines that convert rows (default
	// GOMAXPROCS). The output does not depend on it.
	Workers int
	// Progress, if not nil, is called after each piece of work with the
	// bytes of input tensor data done and their total.
	Progress func(done, total int64)
	// Replace allows replacing an existing output file.
	Replace bool
}

// Action is what a conversion did with one tensor.
type Action uint8

// The actions.
const (
	Keep       Action = iota // copied byte for byte
	Convert                  // between F32, F16 and BF16
	Quantize                 // from F32, F16 or BF16 to a block type
	Requantize               // from a block type, dequantized first
)

func (a Action) String() string {
	switch a {
	case Keep:
		return "keep"
	case Convert:
		return "convert"
	case Quantize:
		return "quantize"
	case Requantize:
		return "requantize"
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// Stats counts the non-finite inputs of a converted tensor.
type Stats struct {
	NaN, Inf int64
}

// TensorReport says what happened to one tensor.
type TensorReport struct {
	Name string
	// From and To are the ggml types in and out (for ToSafetensors, To is
	// F32 when the tensor went through float32).
	From, To ggml.Type
	// DType is the safetensors dtype written (ToSafetensors only).
	DType string
	// Dims are ggml's ne, innermost first, as written.
	Dims     []uint64
	BytesIn  int64
	BytesOut int64
	Action   Action
	// Reason says why a tensor that could have been converted was kept
	// (not selected, rows not whole blocks, already quantized).
	Reason string
	// Stats counts NaN and infinite inputs of converted tensors.
	Stats Stats
}

// Report describes a whole conversion.
type Report struct {
	Src, Dst string
	// FileType is the general.file_type written (a llama_ftype), with
	// HasFileType false when none was.
	FileType    uint32
	HasFileType bool
	Tensors     []TensorReport
	BytesIn     int64 // tensor data read
	BytesOut    int64 // size of the output file
}

// tensorPlan is what will be done with one input tensor.
type tensorPlan struct {
	in     int // index in the input
	info   gguf.TensorInfo
	to     ggml.Type
	action Action
	reason string
}

func checkGlobs(pats []string) error {
	for _, p := range pats {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("ggufconv: bad tensor pattern %q: %w", p, err)
		}
	}
	return nil
}

func matchAny(pats []string, name string) bool {
	for _, p := range pats {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// selected applies Tensors and Skip; the reason says why not.
func (o *Options) selected(name string) (bool, string) {
	if len(o.Tensors) > 0 && !matchAny(o.Tensors, name) {
		return false, "not selected by Tensors"
	}
	if matchAny(o.Skip, name) {
		return false, "skipped"
	}
	return true, ""
}

func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func isFloat(t ggml.Type) bool { return t == ggml.F32 || t == ggml.F16 || t == ggml.BF16 }

// decide fills in a plan's action for a tensor of type from becoming to.
func (p *tensorPlan) decide(from, to ggml.Type, requantize bool) {
	p.to, p.action = from, Keep
	switch {
	case from == to:
		return
	case isFloat(from):
	case !isQuantized(from):
		p.reason = fmt.Sprintf("%v is not a float or block type", from)
		return
	case !requantize:
		p.reason = fmt.Sprintf("already %v (Requantize not set)", from)
		return
	case !from.Supported():
		p.reason = fmt.Sprintf("%v cannot be dequantized by package ggml", from)
		return
	}
	p.to = to
	switch {
	case isQuantized(from):
		p.action = Requantize
	case isQuantized(to):
		p.action = Quantize
	default:
		p.action = Convert
	}
}

// plan decides every tensor's fate. It returns the general.file_type to
// write.
func plan(f *gguf.File, opt *Options) ([]tensorPlan, uint32, bool, error) {
	plans := make([]tensorPlan, len(f.Tensors))
	var types []ggml.Type
	var ftype uint32
	var hasFtype bool
	if opt.FileType != NoFileType {
		if !opt.FileType.Valid() {
			return nil, 0, false, fmt.Errorf("ggufconv: invalid file type %v", opt.FileType)
		}
		m, err := ModelInfoOf(f)
		if err != nil {
			return nil, 0, false, err
		}
		if types, _, err = PlanTypesWith(opt.FileType, m, f.Tensors, opt.PlanOptions); err != nil {
			return nil, 0, false, err
		}
		ftype, hasFtype = opt.FileType.ID(), true
	} else {
		if !opt.PlanOptions.none() {
			return nil, 0, false, fmt.Errorf("ggufconv: Pure, tensor type rules, the output and token embedding types and LeaveOutput are llama-quantize's choices beside a file type: give a FileType")
		}
		if !opt.To.Supported() {
			return nil, 0, false, fmt.Errorf("ggufconv: cannot convert to %v: package ggml does not quantize it (supported: %v)", opt.To, ggml.Types())
		}
		ftype, hasFtype = FileTypeID(opt.To)
	}
	for i, t := range f.Tensors {
		p := &plans[i]
		p.in, p.info, p.to = i, t, t.Type
		if ok, why := opt.selected(t.Name); !ok {
			p.reason = why
			continue
		}
		if types != nil {
			p.decide(t.Type, types[i], opt.Requantize)
			if p.action != Keep && !p.to.Supported() {
				return nil, 0, false, fmt.Errorf("ggufconv: tensor %q: llama-quantize's type %v is not one package ggml quantizes", t.Name, p.to)
			}
			if p.action != Keep && len(t.Dims) > 0 && t.Dims[0]%uint64(p.to.BlockSize()) != 0 {
				// Only an output or token embedding type given as is
				// gets here (the rules fall back); llama-quantize aborts.
				return nil, 0, false, fmt.Errorf("ggufconv: tensor %q: rows of %d elements are not whole blocks of %v (%d)", t.Name, t.Dims[0], p.to, p.to.BlockSize())
			}
			continue
		}
		to := opt.To
		switch {
		case nDims(t.Dims) < 2:
			p.reason = "fewer than 2 dimensions"
		case len(t.Dims) > 0 && t.Dims[0]%uint64(to.BlockSize()) != 0:
			p.reason = fmt.Sprintf("rows of %d elements are not whole blocks of %v (%d)", t.Dims[0], to, to.BlockSize())
		default:
			p.decide(t.Type, to, opt.Requantize)
		}
	}
	return plans, ftype, hasFtype, nil
}

// outputHeader builds the output's header: the input's metadata with
// general.quantization_version and general.file_type set as llama-quantize
// sets them (removed, then appended in that order, as gguf_set_val_u32
// does), and the tensors with their new types, in output order.
func outputHeader(f *gguf.File, plans []tensorPlan, ftype uint32, hasFtype, llamaLayout bool) (*gguf.File, []int) {
	out := &gguf.File{Version: f.Version, Alignment: f.Alignment}
	for _, kv := range f.KV {
		if kv.Key == "general.quantization_version" || kv.Key == "general.file_type" {
			continue
		}
		out.KV = append(out.KV, kv)
	}
	out.KV = append(out.KV, gguf.KV{Key: "general.quantization_version", Value: gguf.NewUint32(QuantizationVersion)})
	if hasFtype {
		out.KV = append(out.KV, gguf.KV{Key: "general.file_type", Value: gguf.NewUint32(ftype)})
	}
	order := make([]int, len(plans))
	for i := range order {
		order[i] = i
	}
	if llamaLayout {
		order = LlamaOrder(f.Tensors)
	}
	for _, i := range order {
		t := plans[i].info
		dims := t.Dims
		if llamaLayout {
			dims = gguf.CanonicalDims(dims)
		}
		out.Tensors = append(out.Tensors, gguf.TensorInfo{Name: t.Name, Type: plans[i].to, Dims: append([]uint64(nil), dims...)})
	}
	return out, order
}

// ConvertGGUF converts the GGUF file src into the new GGUF file dst: each
// tensor of two or more dimensions of type F32, F16 or BF16 (or of a block
// type, with Requantize) whose rows are whole blocks of opt.To becomes
// opt.To, quantized as ggml_quantize_chunk does (package ggml); with
// opt.FileType, each tensor gets the type llama-quantize chooses for it
// (PlanTypes). Every other tensor is copied byte for byte. The metadata is
// kept but for general.quantization_version (2) and general.file_type (the
// llama_ftype of the file type, or of opt.To; removed when opt.To has
// none), which move to the end as llama-quantize moves them. Names,
// dimensions and order are kept (LlamaLayout changes the last two as
// llama-quantize does).
//
// It streams: each tensor goes through in chunks of whole rows, converted
// by opt.Workers goroutines with a bounded number of chunks in flight, and
// is written in order, so the output does not depend on the number of
// workers. dst appears only complete and read back (gguf.Read, with the
// tensors, types and dimensions meant); an error or a cancellation of ctx
// leaves neither it nor a temporary file. An existing dst is replaced only
// with opt.Replace, and never when it is src (checkpoint.CheckOutput).
func ConvertGGUF(ctx context.Context, dst, src string, opt Options) (*Report, error) {
	if err := checkpoint.CheckOutput(dst, []string{src}, false, opt.Replace); err != nil {
		return nil, err
	}
	if err := checkGlobs(opt.Tensors); err != nil {
		return nil, err
	}
	if err := checkGlobs(opt.Skip); err != nil {
		return nil, err
	}
	r, err := gguf.Open(src)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	plans, ftype, hasFtype, err := plan(r.File, &opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	hdr, order := outputHeader(r.File, plans, ftype, hasFtype, opt.LlamaLayout)

	rep := &Report{Src: src, Dst: dst, FileType: ftype, HasFileType: hasFtype}
	var total int64
	for _, t := range r.Tensors {
		total += t.Bytes()
	}

	af, err := fileconv.CreateAtomic(dst, opt.Replace)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			af.Abort()
		}
	}()
	bw := bufio.NewWriterSize(af, 1<<20)
	w, err := gguf.NewWriter(bw, hdr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dst, err)
	}
	pool := newPool(ctx, opt.workers())
	defer pool.close()
	prog := &progress{fn: opt.Progress, total: total}
	for k, i := range order {
		p := &plans[i]
		out := w.File().Tensors[k]
		tr := TensorReport{Name: p.info.Name, From: p.info.Type, To: p.to, Dims: out.Dims,
			BytesIn: p.info.Bytes(), BytesOut: out.Bytes(), Action: p.action, Reason: p.reason}
		sec := r.TensorData(p.in)
		if p.action == Keep {
			err = w.WriteTensorFrom(p.info.Name, &ctxReader{ctx: ctx, r: sec, prog: prog})
		} else {
			cr := newChunkReader(pool, sec, p.info, p.to, prog)
			err = w.WriteTensorFrom(p.info.Name, cr)
			tr.Stats = cr.stats
			cr.stop()
		}
		if err != nil {
			return nil, tensorErr(ctx, src, p.info.Name, err)
		}
		rep.Tensors = append(rep.Tensors, tr)
		rep.BytesIn += tr.BytesIn
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("%s: %w", dst, err)
	}
	if err := bw.Flush(); err != nil {
		return nil, fmt.Errorf("%s: %w", dst, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	want := w.File()
	af.Verify = func(tmp string) error { return verifyGGUF(tmp, want) }
	if err := af.Commit(); err != nil {
		return nil, err
	}
	committed = true
	rep.BytesOut = w.Size()
	return rep, nil
}

// tensorErr names the file and the tensor, and reports a cancellation as
// the context's error.
func tensorErr(ctx context.Context, file, name string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	var fe *gguf.FormatError
	if errors.As(err, &fe) {
		return err
	}
	return fmt.Errorf("%s: tensor %q: %w", file, name, err)
}

// verifyGGUF re-reads the written file and checks its tensors.
func verifyGGUF(tmp string, want *gguf.File) error {
	r, err := gguf.Open(tmp)
	if err != nil {
		return fmt.Errorf("ggufconv: the output does not read back: %w", err)
	}
	defer r.Close()
	if len(r.Tensors) != len(want.Tensors) || len(r.KV) != len(want.KV) {
		return fmt.Errorf("ggufconv: the output reads back with %d tensors and %d keys, not %d and %d",
			len(r.Tensors), len(r.KV), len(want.Tensors), len(want.KV))
	}
	for i, t := range r.Tensors {
		w := want.Tensors[i]
		if t.Name != w.Name || t.Type != w.Type || t.Offset != w.Offset || fmt.Sprint(t.Dims) != fmt.Sprint(w.Dims) {
			return fmt.Errorf("ggufconv: the output's tensor %d reads back as %q %v %v, not %q %v %v",
				i, t.Name, t.Type, t.Dims, w.Name, w.Type, w.Dims)
		}
	}
	return nil
}

// progress reports bytes of input done; it is called from one goroutine
// (the writer's).
type progress struct {
	fn          func(done, total int64)
	done, total int64
}

func (p *progress) add(n int64) {
	p.done += n
	if p.fn != nil && n > 0 {
		p.fn(p.done, p.total)
	}
}

// ctxReader copies a kept tensor in pieces, checking ctx between them.
type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	prog *progress
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) > 4<<20 {
		p = p[:4<<20]
	}
	n, err := c.r.Read(p)
	c.prog.add(int64(n))
	return n, err
}

// pool runs conversion jobs on a fixed number of goroutines.
type pool struct {
	ctx    context.Context
	jobs   chan func()
	wg     sync.WaitGroup
	window int
}

func newPool(ctx context.Context, n int) *pool {
	p := &pool{ctx: ctx, jobs: make(chan func()), window: 2 * n}
	for range n {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job()
			}
		}()
	}
	return p
}

func (p *pool) close() {
	close(p.jobs)
	p.wg.Wait()
}

// chunkResult is one converted chunk, or the error that stopped it.
type chunkResult struct {
	data  []byte
	stats Stats
	in    int64
	err   error
}

// chunkReader is the converted bytes of one tensor, read in order: a
// dispatcher hands chunks of rows to the pool and queues their results,
// at most pool.window at a time.
type chunkReader struct {
	results chan chan chunkResult
	cancel  context.CancelFunc
	done    chan struct{}
	cur     []byte
	stats   Stats
	prog    *progress
	err     error
}

// newChunkReader starts converting tensor t (its bytes in sec) to type to.
func newChunkReader(p *pool, sec *io.SectionReader, t gguf.TensorInfo, to ggml.Type, prog *progress) *chunkReader {
	ctx, cancel := context.WithCancel(p.ctx)
	cr := &chunkReader{results: make(chan chan chunkResult, p.window), cancel: cancel, done: make(chan struct{}), prog: prog}
	ne0 := int64(1)
	if len(t.Dims) > 0 {
		ne0 = int64(t.Dims[0])
	}
	elems := t.Elements()
	rows := int64(0)
	if ne0 > 0 {
		rows = elems / ne0
	}
	inRow := rowBytes(t.Type, ne0)
	outRow := rowBytes(to, ne0)
	chunkRows := int64(chunkElements) / max(ne0, 1)
	chunkRows = max(chunkRows, 1)
	go func() {
		defer close(cr.done)
		defer close(cr.results)
		for first := int64(0); first < rows; first += chunkRows {
			n := min(chunkRows, rows-first)
			res := make(chan chunkResult, 1)
			select {
			case cr.results <- res:
			case <-ctx.Done():
				return
			}
			job := func() {
				res <- convertChunk(ctx, sec, t.Type, to, first*inRow, n, ne0, inRow, outRow)
			}
			select {
			case p.jobs <- job:
			case <-ctx.Done():
				res <- chunkResult{err: ctx.Err()}
				return
			}
		}
	}()
	return cr
}

// rowBytes is the size of a row of n elements of t.
func rowBytes(t ggml.Type, n int64) int64 {
	b := int64(t.BlockSize())
	if b == 0 {
		return 0
	}
	return n / b * int64(t.TypeSize())
}

func convertChunk(ctx context.Context, sec *io.SectionReader, from, to ggml.Type, off, rows, ne0, inRow, outRow int64) chunkResult {
	if err := ctx.Err(); err != nil {
		return chunkResult{err: err}
	}
	if ne0 > maxRow {
		return chunkResult{err: fmt.Errorf("rows of %d elements: more than the %d this package converts at once", ne0, maxRow)}
	}
	in := make([]byte, rows*inRow)
	if _, err := sec.ReadAt(in, off); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return chunkResult{err: err}
	}
	f := make([]float32, rows*ne0)
	if err := ggml.Dequantize(from, f, in); err != nil {
		return chunkResult{err: err}
	}
	var st Stats
	for _, v := range f {
		if v != v {
			st.NaN++
		} else if math.IsInf(float64(v), 0) {
			st.Inf++
		}
	}
	out := make([]byte, rows*outRow)
	n, err := ggml.Quantize(to, out, f, int(ne0), nil)
	if err != nil {
		return chunkResult{err: err}
	}
	out = out[:n]
	return chunkResult{data: out, stats: st, in: int64(len(in))}
}

func (cr *chunkReader) Read(p []byte) (int, error) {
	for len(cr.cur) == 0 {
		if cr.err != nil {
			return 0, cr.err
		}
		res, ok := <-cr.results
		if !ok {
			return 0, io.EOF
		}
		r := <-res
		if r.err != nil {
			cr.err = r.err
			return 0, r.err
		}
		cr.cur = r.data
		cr.stats.NaN += r.stats.NaN
		cr.stats.Inf += r.stats.Inf
		cr.prog.add(r.in)
	}
	n := copy(p, cr.cur)
	cr.cur = cr.cur[n:]
	return n, nil
}

// stop ends the dispatcher and waits for the chunks in flight.
func (cr *chunkReader) stop() {
	cr.cancel()
	for res := range cr.results {
		<-res
	}
	<-cr.done
}
