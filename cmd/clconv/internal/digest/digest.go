// Package digest computes clconv's exhaustive conversion fingerprint, defined
// in ORACLES.md so that every tool (clconv, a device kernel) gets the same
// numbers: a sum over all inputs of a conversion of a mix of the input index
// and the canonical output, split into chunks of 2^24 inputs so that a
// mismatch narrows to a chunk and then to inputs. The definition itself
// (inputs, canonical outputs, terms, chunks) is package internal/digestspec,
// which convert's exhaustive test shares; this package computes digests from
// the conversion kernels, for clconv digest and clconv verify.
package digest

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

// Conversion is one scalar convert_ function applied to one source type.
type Conversion struct {
	Op  convert.Op // Op.Dst.N must be 1
	Src cltype.Kind
}

// Parse parses a conversion name and a source type name ("convert_int_sat_rte", "float").
func Parse(name, src string) (Conversion, error) {
	op, err := convert.ParseName(name)
	if err != nil {
		return Conversion{}, err
	}
	if op.Dst.N != 1 {
		return Conversion{}, fmt.Errorf("%s: digests are defined for scalar conversions", name)
	}
	k, err := cltype.ParseKind(src)
	if err != nil || !k.Convertible() {
		return Conversion{}, fmt.Errorf("source type %q is not one of char, uchar, short, ushort, int, uint, long, ulong, half, float, double, bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0", src)
	}
	return Conversion{op, k}, nil
}

// Mode returns the rounding mode the conversion uses (no suffix: rtz to
// integers, rte to floating types).
func (c Conversion) Mode() round.Mode { return c.Op.Mode(round.RTE) }

// Result is a digest, whole or in part.
type Result struct {
	Conversion
	N      uint64
	Chunks []uint64 // per-chunk sums
	Done   []bool   // which chunks were computed
	Impl   uint64   // implementation-defined outputs in the computed chunks
	NaN    uint64   // NaN outputs in the computed chunks
}

// Digest returns the sum of the computed chunks (the full digest when all are done).
func (r *Result) Digest() uint64 {
	var s uint64
	for k, c := range r.Chunks {
		if r.Done[k] {
			s += c
		}
	}
	return s
}

// Complete reports whether every chunk was computed.
func (r *Result) Complete() bool {
	for _, d := range r.Done {
		if !d {
			return false
		}
	}
	return true
}

// Line formats r as the tab-separated line of `clconv digest`: conversion,
// source, N, digest, impl count, NaN count, chunk digests ("-" when not computed).
func (r *Result) Line() string {
	cs := make([]string, len(r.Chunks))
	for k, c := range r.Chunks {
		if r.Done[k] {
			cs[k] = fmt.Sprintf("%016x", c)
		} else {
			cs[k] = "-"
		}
	}
	return strings.Join([]string{r.Op.Name(), r.Src.String(), strconv.FormatUint(r.N, 10),
		fmt.Sprintf("%016x", r.Digest()), strconv.FormatUint(r.Impl, 10), strconv.FormatUint(r.NaN, 10),
		strings.Join(cs, ",")}, "\t")
}

// ParseChunks parses a chunk list such as "63-95,127" for a source with n chunks.
func ParseChunks(s string, n int) ([]int, error) {
	var out []int
	seen := make([]bool, n)
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, fmt.Errorf("chunk list %q: %q is not a number", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil {
				return nil, fmt.Errorf("chunk list %q: %q is not a number", s, hi)
			}
		}
		if a < 0 || b >= n || a > b {
			return nil, fmt.Errorf("chunk list %q: %q is outside 0-%d", s, part, n-1)
		}
		for k := a; k <= b; k++ {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// Options control Compute.
type Options struct {
	Chunks   []int                 // chunks to compute; nil means all
	Workers  int                   // goroutines; 0 means GOMAXPROCS
	Progress func(done, total int) // called after each chunk (from any goroutine, serialised)
}

//go:generate go run -C ../../../../_asm ./digest -out ../cmd/clconv/internal/digest/zdigest_amd64.s -stubs ../cmd/clconv/internal/digest/zdigest_amd64.go -pkg digest

// batch is the number of inputs converted per call of the conversion kernel.
const batch = 1 << 14

// Compute computes the digest of c over the chosen chunks, using the fast
// conversion kernels of package convert.
func Compute(c Conversion, o Options) *Result {
	n := digestspec.N(c.Src)
	nc := digestspec.Chunks(c.Src)
	r := &Result{Conversion: c, N: n, Chunks: make([]uint64, nc), Done: make([]bool, nc)}
	todo := o.Chunks
	if todo == nil {
		todo = make([]int, nc)
		for k := range todo {
			todo[k] = k
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, len(todo))
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	finished := 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newScratch()
			for {
				t := int(next.Add(1)) - 1
				if t >= len(todo) {
					return
				}
				k := todo[t]
				lo := uint64(k) * digestspec.ChunkSize
				hi := min(lo+digestspec.ChunkSize, n)
				sum, impl, nan := s.run(c, lo, hi)
				mu.Lock()
				r.Chunks[k], r.Done[k] = sum, true
				r.Impl += impl
				r.NaN += nan
				finished++
				if o.Progress != nil {
					o.Progress(finished, len(todo))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return r
}

type scratch struct {
	src, dst []uint64 // 8-byte aligned storage viewed as bytes
	bad      []bool
}

func newScratch() *scratch {
	return &scratch{src: make([]uint64, batch), dst: make([]uint64, batch), bad: make([]bool, batch)}
}

func asBytes(u []uint64, n int) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(u))), n)
}

// run computes the sum over inputs [lo, hi).
func (s *scratch) run(c Conversion, lo, hi uint64) (sum, impl, nan uint64) {
	sk, dk := c.Src, c.Op.Dst.Kind
	m := c.Mode()
	flag := sk.IsFloating() && dk.IsInteger() && !c.Op.Sat
	for base := lo; base < hi; base += batch {
		cnt := int(min(batch, hi-base))
		fill(s.src, sk, base, cnt)
		src := asBytes(s.src, cnt*sk.Size())
		dst := asBytes(s.dst, cnt*dk.Size())
		// fill and accumulate work in host order, convert's byte API in
		// little-endian: big-endian hosts swap on the way in and out (the
		// branch is a constant, compiled away elsewhere).
		if byteorder.BigEndian {
			byteorder.Swap(src, sk.Size())
		}
		if flag {
			k, _ := kernels.BytesFlag(dk, sk, dst, src, m, false, s.bad)
			impl += uint64(k)
		} else if err := convert.Bytes(dk, sk, dst, src, m, c.Op.Sat); err != nil {
			panic(err) // buffers are ours: cannot happen
		}
		if byteorder.BigEndian {
			byteorder.Swap(dst, dk.Size())
		}
		t, nn := s.accumulate(dk, base, cnt, flag)
		sum += t
		nan += nn
	}
	return sum, impl, nan
}

// fill writes the inputs base..base+cnt-1 as elements of kind k.
func fill(buf []uint64, k cltype.Kind, base uint64, cnt int) {
	from := fillSIMD(k.Size(), k == cltype.Double, buf, base, cnt)
	switch k.Size() {
	case 1:
		b := unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(buf))), cnt)
		for j := from; j < cnt; j++ {
			b[j] = uint8(base + uint64(j))
		}
	case 2:
		b := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(buf))), cnt)
		for j := from; j < cnt; j++ {
			b[j] = uint16(base + uint64(j))
		}
	case 4:
		b := unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(buf))), cnt)
		for j := from; j < cnt; j++ {
			b[j] = uint32(base + uint64(j))
		}
	default:
		b := buf[:cnt]
		if k == cltype.Double {
			for j := from; j < cnt; j++ {
				b[j] = digestspec.DoubleInput(base + uint64(j))
			}
		} else {
			for j := from; j < cnt; j++ {
				b[j] = digestspec.IntInput(base + uint64(j))
			}
		}
	}
}

// termKind tells how outputs become canonical (digestspec.Canonical).
type termKind int

const (
	termsInt  termKind = iota // integer outputs: as they are
	termsFlag                 // integer outputs, ImplDefined where flagged in bad
	termsNaN                  // floating outputs: every NaN the canonical NaN
)

// accumulate sums the terms of cnt outputs of kind k starting at input base.
// It also returns how many outputs were NaN. The AVX-512 kernels sum a
// leading part (sumSIMD) and the loops of sumTerms the rest.
func (s *scratch) accumulate(k cltype.Kind, base uint64, cnt int, flag bool) (sum, nan uint64) {
	p := unsafe.Pointer(unsafe.SliceData(s.dst))
	a, m, isFloat := digestspec.NaNMasks(k)
	kind := termsInt
	switch {
	case flag:
		kind = termsFlag
	case isFloat:
		kind = termsNaN
	}
	sum, nan, done := sumSIMD(kind, k.Size(), p, s.bad, base, cnt, a, m)
	t, nn := sumTerms(kind, k.Size(), p, s.bad, base, done, cnt, a, m)
	return sum + t, nan + nn
}

// sumTerms sums the terms of outputs from..cnt-1 (inputs base+from on) of
// the given byte size, the pure-Go path of every tier and port. With
// termsNaN, an output o is a NaN when o&a == a and o&m != 0.
func sumTerms(kind termKind, size int, p unsafe.Pointer, bad []bool, base uint64, from, cnt int, a, m uint64) (sum, nan uint64) {
	switch kind {
	case termsFlag:
		for j := from; j < cnt; j++ {
			o := byteorder.Load(p, size, j)
			if bad[j] {
				o = digestspec.ImplDefined
			}
			sum += digestspec.Term(base+uint64(j), o)
		}
	case termsNaN:
		for j := from; j < cnt; j++ {
			o := byteorder.Load(p, size, j)
			if o&a == a && o&m != 0 {
				o = digestspec.NaN
				nan++
			}
			sum += digestspec.Term(base+uint64(j), o)
		}
	default:
		sum = sumInts(size, p, base, from, cnt)
	}
	return sum, nan
}

// sumInts sums the terms of integer outputs from..cnt-1 of the given byte
// size, with one loop per size so that the element load is not a
// per-element switch.
func sumInts(size int, p unsafe.Pointer, base uint64, from, cnt int) uint64 {
	var sum uint64
	switch size {
	case 1:
		for j, b := range unsafe.Slice((*uint8)(p), cnt)[from:] {
			sum += digestspec.Term(base+uint64(from+j), uint64(b))
		}
	case 2:
		for j, b := range unsafe.Slice((*uint16)(p), cnt)[from:] {
			sum += digestspec.Term(base+uint64(from+j), uint64(b))
		}
	case 4:
		for j, b := range unsafe.Slice((*uint32)(p), cnt)[from:] {
			sum += digestspec.Term(base+uint64(from+j), uint64(b))
		}
	default:
		for j, b := range unsafe.Slice((*uint64)(p), cnt)[from:] {
			sum += digestspec.Term(base+uint64(from+j), b)
		}
	}
	return sum
}
