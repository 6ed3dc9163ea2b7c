package fileconv

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/round"
)

// Format is a file format: a NumPy .npy file or raw little-endian elements.
type Format uint8

// The formats. FormatAuto detects .npy input by its magic string and makes the
// output's format the input's.
const (
	FormatAuto Format = iota
	FormatNPY
	FormatRaw
)

// String returns "auto", "npy" or "raw".
func (f Format) String() string {
	switch f {
	case FormatNPY:
		return "npy"
	case FormatRaw:
		return "raw"
	}
	return "auto"
}

// ParseFormat parses "auto", "npy" or "raw".
func ParseFormat(s string) (Format, error) {
	for _, f := range []Format{FormatAuto, FormatNPY, FormatRaw} {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (want auto, npy or raw)", s)
}

// Info describes an array in a file or stream.
type Info struct {
	Format     Format
	Kind       cltype.Kind
	BigEndian  bool    // elements stored big-endian (input only; output is little-endian)
	Fortran    bool    // fortran_order (column-major)
	Shape      []int64 // a raw array is one-dimensional; nil while its length is unknown
	Count      int64   // number of elements; -1 while unknown (raw stream)
	Version    string  // .npy format version ("1.0"); "" for raw
	DataOffset int64   // bytes before the data (the .npy header's size)
}

// DefaultChunkBytes is the size of the chunks Convert and Inspect work on
// (counted in the larger of the source and destination element sizes).
const DefaultChunkBytes = 1 << 20

// Options configure Convert.
type Options struct {
	Dst  cltype.Kind // destination element type
	Sat  bool        // saturate (integer destinations only)
	Mode round.Mode  // rounding mode (pass round.RTZ for OpenCL's default to integers, RTE to floats)

	// From is the element type of raw input. For .npy input it may be left
	// Invalid; when set it must agree with the header.
	From cltype.Kind
	In   Format // input format: FormatAuto (detect), FormatNPY or FormatRaw
	Out  Format // output format: FormatAuto (the input's), FormatNPY or FormatRaw

	// Workers is the number of converting goroutines (0: GOMAXPROCS).
	Workers int
	// ChunkBytes is the chunk size (0: DefaultChunkBytes).
	ChunkBytes int
	// Stats asks for the per-value statistics in Result.Stats. It costs a
	// second pass over each chunk while it is in cache.
	Stats bool
	// Progress, if not nil, is called after each chunk is written with the
	// number of input bytes consumed so far (header included) and the total
	// input size (-1 when unknown).
	Progress func(done, total int64)
	// Size is the number of input bytes (header included) when the caller
	// knows it; 0 means unknown unless src is a regular *os.File (whose size
	// is read from the file system) or has a Len method (bytes.Reader).
	Size int64
}

// Result reports a conversion.
type Result struct {
	In, Out  Info
	BytesIn  int64 // input bytes read (header included)
	BytesOut int64 // output bytes written (header included)
	Stats    Stats // zero unless Options.Stats
	// NonFinite counts the finite values whose result is NaN or an
	// infinity: overflows to infinity, to e4m3's or e8m0's NaN (which have
	// no infinity), and zero and negative values to e8m0 without _sat. It
	// is counted whether or not Options.Stats is set, so that a caller can
	// warn that a conversion made good numbers into non-numbers (the only
	// cost is a scan of each output chunk, and only for the pairs of types
	// where it can happen).
	NonFinite int64
}

// input is an opened input: its description and a reader at the first data byte.
type input struct {
	r       io.Reader
	raw     io.Reader // the caller's reader, for read deadlines
	info    Info
	total   int64 // all input bytes when known, else -1
	dataLen int64 // data bytes expected, -1 when unknown
}

// sizeOf returns the number of bytes left in src when the caller said so, src
// is a regular file, or src tells its unread length (bytes.Reader,
// strings.Reader, bytes.Buffer), else -1.
func sizeOf(src io.Reader, hint int64) int64 {
	if hint > 0 {
		return hint
	}
	if l, ok := src.(interface{ Len() int }); ok {
		return int64(l.Len())
	}
	f, ok := src.(*os.File)
	if !ok {
		return -1
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return -1
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1
	}
	return max(fi.Size()-off, 0)
}

// openInput detects the input's format, reads a .npy header, and checks the
// data size against the header (or the raw size against the element size)
// when the input's size is known.
func openInput(src io.Reader, inFmt Format, from cltype.Kind, sizeHint int64) (*input, error) {
	if from != cltype.Invalid && !from.Convertible() {
		return nil, fmt.Errorf("invalid source type %s", from)
	}
	in := &input{raw: src, total: sizeOf(src, sizeHint), dataLen: -1}
	var magic [len(NPYMagic)]byte
	n, err := io.ReadFull(src, magic[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, &ReadError{err}
	}
	in.r = io.MultiReader(bytes.NewReader(magic[:n]), src)
	if inFmt == FormatAuto {
		inFmt = FormatRaw
		if n == len(magic) && string(magic[:]) == NPYMagic {
			inFmt = FormatNPY
		}
	}
	in.info.Format = inFmt
	switch inFmt {
	case FormatNPY:
		h, err := ReadHeader(in.r)
		if err != nil {
			// A *FormatError or, for a failure of the reader, a *ReadError.
			return nil, err
		}
		switch {
		case h.Void && from == cltype.Invalid:
			return nil, formatErr(0, ErrTypeMismatch, "the .npy header's dtype %s is raw %d-byte records, as np.save writes ml_dtypes' bfloat16 and float8 arrays: name the type with --from (%s)", h.Descr(), h.Kind.Size(), voidTypes(h.Kind.Size()))
		case h.Void && from.Size() != h.Kind.Size():
			return nil, formatErr(0, ErrTypeMismatch, "the .npy header's dtype %s has %d-byte elements but the source type given, %s, has %d", h.Descr(), h.Kind.Size(), from, from.Size())
		case h.Void:
			h.Kind, h.Void = from, false
		case from != cltype.Invalid && from != h.Kind:
			return nil, formatErr(0, ErrTypeMismatch, "the .npy header says %s (%s) but the source type given is %s", h.Kind, h.Descr(), from)
		}
		in.info = Info{Format: FormatNPY, Kind: h.Kind, BigEndian: h.BigEndian, Fortran: h.Fortran,
			Shape: h.Shape, Count: h.Count(), Version: fmt.Sprintf("%d.%d", h.Major, h.Minor), DataOffset: h.DataOffset}
		in.dataLen = h.DataLen()
		if in.total >= 0 {
			avail := in.total - h.DataOffset
			switch {
			case avail < in.dataLen:
				return nil, formatErr(in.total, ErrTruncated, "truncated .npy data: shape %s needs %d bytes of %s but the file has %d after the header",
					ShapeString(h.Shape), in.dataLen, h.Kind, max(avail, 0))
			case avail > in.dataLen:
				return nil, formatErr(h.DataOffset+in.dataLen, ErrSizeMismatch, "shape/size mismatch: shape %s needs %d bytes of %s but %d bytes follow the header (%d extra)",
					ShapeString(h.Shape), in.dataLen, h.Kind, avail, avail-in.dataLen)
			}
		}
	case FormatRaw:
		if from == cltype.Invalid {
			return nil, ErrNeedFrom
		}
		in.info = Info{Format: FormatRaw, Kind: from, Count: -1}
		if in.total >= 0 {
			size := int64(from.Size())
			if in.total%size != 0 {
				return nil, leftoverErr(in.total, from)
			}
			in.dataLen = in.total
			in.info.Count = in.total / size
			in.info.Shape = []int64{in.info.Count}
		}
	default:
		return nil, fmt.Errorf("invalid input format %v", inFmt)
	}
	return in, nil
}

// chunk is one piece of the input travelling through the pipeline.
type chunk struct {
	n     int    // elements
	src   []byte // input bytes (len n*srcSize), aligned to 8
	dst   []byte // output bytes (len n*dstSize), aligned to 8
	stats Stats
	sum   summary
	err   error
	ready chan struct{}
	done  int64 // input bytes consumed through this chunk
	// nonFinite counts finite sources whose result is NaN or infinite.
	nonFinite int64
}

// alignedBytes returns n bytes aligned to 8, as convert.Bytes requires.
func alignedBytes(n int) []byte {
	if n == 0 {
		return nil
	}
	w := make([]uint64, (n+7)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), n)
}

// pipeline runs read -> work (in parallel) -> sink (in order) over the data of
// in. chunkElems elements of ssize bytes (and dsize output bytes) form a chunk.
type pipeline struct {
	in         *input
	workers    int
	chunkElems int
	ssize      int
	dsize      int
	work       func(c *chunk)
	sink       func(c *chunk) error
}

func (p *pipeline) run(ctx context.Context) error {
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A reader blocked on a pipe or socket wakes up when its deadline passes;
	// regular files return quickly anyway.
	stop := context.AfterFunc(ctx, func() {
		if d, ok := p.in.raw.(interface{ SetReadDeadline(time.Time) error }); ok {
			d.SetReadDeadline(time.Unix(1, 0))
		}
	})
	defer stop()

	workers := p.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	slots := 2*workers + 2
	free := make(chan *chunk, slots)
	for range slots {
		free <- &chunk{
			src:   alignedBytes(p.chunkElems * p.ssize),
			dst:   alignedBytes(p.chunkElems * p.dsize),
			ready: make(chan struct{}, 1),
		}
	}
	work := make(chan *chunk, slots)
	order := make(chan *chunk, slots)

	var readErr error
	go func() {
		defer close(order)
		defer close(work)
		readErr = p.read(ctx, free, work, order)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				if ctx.Err() == nil {
					p.work(c)
				}
				c.ready <- struct{}{}
			}
		}()
	}
	var sinkErr error
	for c := range order {
		<-c.ready
		if sinkErr == nil && ctx.Err() == nil {
			if sinkErr = c.err; sinkErr == nil {
				sinkErr = p.sink(c)
			}
			if sinkErr != nil {
				cancel()
			}
		}
		free <- c
	}
	wg.Wait()
	switch {
	case sinkErr != nil:
		return sinkErr
	case parent.Err() != nil:
		return context.Cause(parent)
	}
	return readErr
}

// read fills chunks from the input and queues them for the workers and, in
// order, for the sink.
func (p *pipeline) read(ctx context.Context, free, work, order chan *chunk) error {
	in := p.in
	pos := in.info.DataOffset // input bytes consumed
	remaining := in.dataLen
	chunkBytes := p.chunkElems * p.ssize
	for {
		if remaining == 0 {
			break
		}
		var c *chunk
		select {
		case c = <-free:
		case <-ctx.Done():
			return ctx.Err()
		}
		want := chunkBytes
		if remaining > 0 && int64(want) > remaining {
			want = int(remaining)
		}
		got, err := io.ReadFull(in.r, c.src[:want])
		pos += int64(got)
		eof := false
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			eof = true
			if remaining > 0 {
				return p.truncated(pos)
			}
			if got%p.ssize != 0 {
				return leftoverErr(pos, in.info.Kind)
			}
		case err != nil:
			return p.readErr(ctx, err)
		}
		if got > 0 {
			c.n = got / p.ssize
			c.src = c.src[:got]
			c.dst = c.dst[:c.n*p.dsize]
			c.err = nil
			c.done = pos
			order <- c
			work <- c
		} else {
			free <- c
		}
		if remaining > 0 {
			remaining -= int64(got)
		}
		if eof {
			break
		}
	}
	if in.dataLen >= 0 {
		// The header (or the size seen at the start) promised dataLen bytes:
		// anything after them means the shape does not describe the data.
		var b [1]byte
		n, err := io.ReadFull(in.r, b[:])
		if n > 0 {
			extra, err := io.Copy(io.Discard, in.r)
			if err != nil {
				return p.readErr(ctx, err)
			}
			return formatErr(pos, ErrSizeMismatch, "shape/size mismatch: %d bytes of data expected, %d extra bytes follow them", in.dataLen, extra+1)
		}
		if err != nil && err != io.EOF {
			return p.readErr(ctx, err)
		}
	}
	return nil
}

func (p *pipeline) truncated(pos int64) error {
	in := p.in
	if in.info.Format == FormatNPY {
		return formatErr(pos, ErrTruncated, "truncated .npy data: shape %s needs %d bytes of %s but the data ends after %d",
			ShapeString(in.info.Shape), in.dataLen, in.info.Kind, pos-in.info.DataOffset)
	}
	return formatErr(pos, ErrTruncated, "truncated input: %d bytes expected, the data ends after %d", in.dataLen, pos-in.info.DataOffset)
}

// readErr returns the error of a reader that failed: the context's error
// when the pipeline was cancelled (a deadline set to wake the reader up makes
// it fail), else a *ReadError.
func (p *pipeline) readErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var re *ReadError
	if errors.As(err, &re) {
		return err
	}
	return &ReadError{err}
}

// chunkElems returns the chunk length in elements for element sizes a and b.
func chunkElems(chunkBytes, a, b int) int {
	if chunkBytes <= 0 {
		chunkBytes = DefaultChunkBytes
	}
	return max(chunkBytes/max(a, b, 1), 1)
}

// Convert converts the array read from src and writes it to dst: a .npy file
// keeps its shape and memory order, and raw input becomes a one-dimensional
// array. The output is little-endian. When the output is .npy and the input's
// length is unknown (a raw stream), dst must be an io.WriterAt: Convert then
// writes a placeholder header and rewrites it at the end.
//
// Convert stops at the first problem and returns a *FormatError for bad input,
// a *ReadError or *WriteError for I/O failures, or the context's cause when ctx
// is cancelled; dst may then hold partial output (AtomicFile discards it).
func Convert(ctx context.Context, dst io.Writer, src io.Reader, opt Options) (*Result, error) {
	dk := opt.Dst
	if !dk.Convertible() {
		return nil, fmt.Errorf("invalid destination type %s", dk)
	}
	if opt.Sat && dk.IsFloat() {
		return nil, fmt.Errorf("_sat is not allowed with a floating destination (%s)", dk)
	}
	if opt.Mode > round.RTN {
		return nil, fmt.Errorf("invalid rounding mode %v", opt.Mode)
	}
	in, err := openInput(src, opt.In, opt.From, opt.Size)
	if err != nil {
		return nil, err
	}
	sk := in.info.Kind
	res := &Result{In: in.info}
	res.Out = Info{Format: opt.Out, Kind: dk, Fortran: in.info.Fortran, Shape: in.info.Shape, Count: in.info.Count}
	if res.Out.Format == FormatAuto {
		res.Out.Format = in.info.Format
	}
	var placeholder int // header bytes to rewrite at the end, 0 for none
	if res.Out.Format == FormatNPY {
		res.Out.Version = "1.0"
		var hdr []byte
		if in.info.Count >= 0 {
			hdr = EncodeHeader(dk, in.info.Fortran, in.info.Shape, 0)
		} else {
			if _, ok := dst.(io.WriterAt); !ok {
				return nil, errors.New("cannot write a .npy header to a stream before knowing the input's length: write to a file or choose raw output")
			}
			hdr = EncodeHeader(dk, false, []int64{math.MaxInt64}, 0)
			placeholder = len(hdr)
			hdr = EncodeHeader(dk, false, []int64{0}, placeholder)
		}
		res.Out.DataOffset = int64(len(hdr))
		if _, err := dst.Write(hdr); err != nil {
			return nil, &WriteError{err}
		}
		res.BytesOut = int64(len(hdr))
	}
	ssize, dsize := sk.Size(), dk.Size()
	p := &pipeline{
		in:         in,
		workers:    opt.Workers,
		chunkElems: chunkElems(opt.ChunkBytes, ssize, dsize),
		ssize:      ssize,
		dsize:      dsize,
	}
	m, sat := opt.Mode, opt.Sat
	scan := mayBecomeNonFinite(dk, sk, sat)
	p.work = func(c *chunk) {
		if in.info.BigEndian {
			// convert.Bytes reads little-endian elements.
			byteorder.Swap(c.src, ssize)
		}
		c.stats, c.nonFinite = Stats{}, 0
		if c.err = convert.Bytes(dk, sk, c.dst, c.src, m, sat); c.err != nil {
			return
		}
		if scan {
			c.nonFinite = countNonFinite(dk, sk, c.dst, c.src, c.n)
		}
		if opt.Stats {
			c.stats.classify(dk, sk, c.dst, c.src, c.n, m, sat)
		}
	}
	var count int64
	p.sink = func(c *chunk) error {
		n, err := dst.Write(c.dst)
		res.BytesOut += int64(n)
		if err != nil {
			return &WriteError{err}
		}
		count += int64(c.n)
		res.NonFinite += c.nonFinite
		res.Stats.add(&c.stats)
		res.BytesIn = c.done
		if opt.Progress != nil {
			opt.Progress(c.done, in.total)
		}
		return nil
	}
	res.BytesIn = in.info.DataOffset
	if err := p.run(ctx); err != nil {
		return res, err
	}
	res.Stats.Count = count
	if res.In.Count < 0 {
		res.In.Count, res.In.Shape = count, []int64{count}
		res.Out.Count, res.Out.Shape = count, []int64{count}
	}
	if placeholder > 0 {
		hdr := EncodeHeader(dk, false, res.Out.Shape, placeholder)
		if _, err := dst.(io.WriterAt).WriteAt(hdr, 0); err != nil {
			return res, &WriteError{err}
		}
	}
	return res, nil
}

// voidTypes names the types of a raw record's size, for --from: only they
// fit it.
func voidTypes(size int) string {
	if size == 2 {
		return "bfloat16 or half; short or ushort for the bits"
	}
	return "e4m3, e5m2, e2m1, e2m3, e3m2 or e8m0; char or uchar for the bits"
}
