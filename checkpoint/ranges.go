package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/safetensors"
)

// Range is what a block-scaled weight holds once dequantized exactly (to
// float64, where the products of these layouts are exact): its least and
// greatest finite values, and how many values are NaN or infinite.
type Range struct {
	Count int64 `json:"count"`
	// Min and Max are the least and greatest finite values (0 and 0 when
	// there is none: see Finite).
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Finite int64   `json:"finite"`
	NaN    int64   `json:"nan,omitempty"`
	PosInf int64   `json:"pos_inf,omitempty"`
	NegInf int64   `json:"neg_inf,omitempty"`
}

// add counts the float64 values of le (little-endian) into r.
func (r *Range) add(le []byte) {
	for i := 0; i+8 <= len(le); i += 8 {
		v := math.Float64frombits(binary.LittleEndian.Uint64(le[i:]))
		r.Count++
		switch {
		case v != v:
			r.NaN++
		case math.IsInf(v, 1):
			r.PosInf++
		case math.IsInf(v, -1):
			r.NegInf++
		default:
			if r.Finite == 0 || v < r.Min {
				r.Min = v
			}
			if r.Finite == 0 || v > r.Max {
				r.Max = v
			}
			r.Finite++
		}
	}
}

// merge adds o's counts into r.
func (r *Range) merge(o *Range) {
	if o.Finite > 0 {
		if r.Finite == 0 || o.Min < r.Min {
			r.Min = o.Min
		}
		if r.Finite == 0 || o.Max > r.Max {
			r.Max = o.Max
		}
	}
	r.Count += o.Count
	r.Finite += o.Finite
	r.NaN += o.NaN
	r.PosInf += o.PosInf
	r.NegInf += o.NegInf
}

// rangeSet gathers the ranges of a conversion's dequantized weights, by the
// name of the weight's input tensor.
type rangeSet struct {
	mu sync.Mutex
	m  map[string]*Range
}

// rangeWriter passes the writes of one dequantization (float64 values) to
// dst and counts them into the weight's range.
type rangeWriter struct {
	dst   io.WriterAt
	begin int64 // the tensor's first byte in dst
	set   *rangeSet
	name  string
}

func (w *rangeWriter) WriteAt(p []byte, off int64) (int, error) {
	if (off-w.begin)%8 != 0 || len(p)%8 != 0 {
		return 0, fmt.Errorf("checkpoint: a dequantized write of %d bytes at %d is not whole float64 values", len(p), off-w.begin)
	}
	var r Range
	r.add(p)
	w.set.mu.Lock()
	acc := w.set.m[w.name]
	if acc == nil {
		acc = new(Range)
		w.set.m[w.name] = acc
	}
	acc.merge(&r)
	w.set.mu.Unlock()
	return w.dst.WriteAt(p, off)
}

// DequantizedRanges dequantizes every complete block-scaled weight of the
// checkpoint made of files exactly (to float64, where the products of
// FP8, MXFP4 and NVFP4 weights and their scales are exact), discarding the
// values, and returns each weight's Range by the name of its weight
// tensor (Layout.Weight). configDir, if not "", is the directory whose
// config.json gives the FP8 block size. It reads the weights and their
// scales only (once each), not the checkpoint's other tensors.
func DequantizedRanges(ctx context.Context, files []*safetensors.File, configDir string, workers int) (map[string]Range, error) {
	ls, err := Layouts(files, configDir)
	if err != nil {
		return nil, err
	}
	set := &rangeSet{m: map[string]*Range{}}
	byFile := map[*safetensors.File][]string{}
	for _, l := range ls {
		if l.Kind == "incomplete" {
			continue
		}
		for _, f := range files {
			if _, ok := f.Lookup(l.Weight); ok {
				byFile[f] = append(byFile[f], globEscape(l.Weight))
			}
		}
	}
	for _, f := range files {
		if len(byFile[f]) == 0 {
			continue
		}
		var others []*safetensors.File
		for _, g := range files {
			if g != f {
				others = append(others, g)
			}
		}
		opt := Options{To: cltype.Double, Workers: workers, Tensors: byFile[f], ranges: set}
		if configDir != "" {
			if err := readConfig(configDir, &opt); err != nil {
				return nil, err
			}
		}
		if _, err := Convert(ctx, discardWriter{}, f, others, opt); err != nil {
			return nil, err
		}
	}
	out := make(map[string]Range, len(set.m))
	for k, v := range set.m {
		out[k] = *v
	}
	return out, nil
}

// globEscape quotes the characters path.Match gives a meaning to.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// discardWriter is an io.WriterAt that discards.
type discardWriter struct{}

func (discardWriter) WriteAt(p []byte, _ int64) (int, error) { return len(p), nil }
