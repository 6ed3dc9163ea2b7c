package verify

import (
	"sync/atomic"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/kernels"
)

// Slice is a run of consecutive input indices [Start, Start+Len) of a
// conversion's digest input space (ORACLES.md).
type Slice struct {
	Start uint64 `json:"start"`
	Len   uint64 `json:"len"`
}

// quickSlice is the length of each slice of a --quick run of a source with
// 2^32 inputs: four slices per chunk, 256 chunks, 2^24 inputs in all.
const quickSlice = 1 << 14

// Slices returns the input slices checked for a source kind. A full run
// checks every chunk of 2^24 inputs (every input of an 8-, 16- or 32-bit
// source; 2^32 samples of a 64-bit one). A quick run checks every input of an
// 8- or 16-bit source, and of a 32- or 64-bit source 2^24 inputs spread over
// the whole space: in each of the 256 chunks, the first and last 2^14 inputs
// of each half. For a float source a chunk's halves are binades, so this
// takes the 2^14 smallest and largest significands of every binade: every
// power of two, its neighbours on both sides (where the integer, half and
// float limits lie), infinity and the first NaNs. For an int source it takes
// the values nearest 0, -1, +-2^23, +-2^24 and every multiple of 2^23.
func Slices(src cltype.Kind, quick bool) []Slice {
	n := digestspec.N(src)
	if n <= digestspec.ChunkSize {
		return []Slice{{0, n}}
	}
	var out []Slice
	const half = digestspec.ChunkSize / 2
	for k := uint64(0); k < n/digestspec.ChunkSize; k++ {
		base := k * digestspec.ChunkSize
		if !quick {
			out = append(out, Slice{base, digestspec.ChunkSize})
			continue
		}
		for _, off := range []uint64{0, half - quickSlice, half, digestspec.ChunkSize - quickSlice} {
			out = append(out, Slice{base + off, quickSlice})
		}
	}
	return out
}

// reference returns the CPU reference digest of each slice and the number of
// implementation-defined inputs in them. Whole chunks come from the cache
// or digest.Compute (a complete digest goes into the cache); shorter slices
// are summed here from the same definition (digestspec.Input,
// kernels.BytesFlag, digestspec.Canonical, digestspec.Term).
func reference(c digest.Conversion, slices []Slice, cache *RefCache) (sums []uint64, impl uint64) {
	sums = make([]uint64, len(slices))
	whole := true
	for _, s := range slices {
		if s.Start%digestspec.ChunkSize != 0 || s.Len != min(digestspec.ChunkSize, digestspec.N(c.Src)) {
			whole = false
		}
	}
	if whole {
		chunks := make([]int, len(slices))
		for i, s := range slices {
			chunks[i] = int(s.Start / digestspec.ChunkSize)
		}
		r := cache.get(c)
		if r == nil || len(chunks) != len(r.Chunks) { // the cache's counts are over all chunks
			r = digest.Compute(c, digest.Options{Chunks: chunks})
			cache.put(r)
		}
		for i, k := range chunks {
			sums[i] = r.Chunks[k]
		}
		return sums, r.Impl
	}
	var total atomic.Uint64
	parallel(len(slices), func(next func() (int, bool)) {
		b := batchPool.Get().(*batch)
		defer batchPool.Put(b)
		for i, ok := next(); ok; i, ok = next() {
			var sum, n uint64
			s := slices[i]
			for lo := s.Start; lo < s.Start+s.Len; lo += batchLen {
				cnt := int(min(batchLen, s.Start+s.Len-lo))
				n += b.expect(c, lo, cnt)
				for j := 0; j < cnt; j++ {
					sum += digestspec.Term(lo+uint64(j), b.canon[j])
				}
			}
			sums[i] = sum
			total.Add(n)
		}
	})
	return sums, total.Load()
}

// batchLen is the number of inputs the host converts per call.
const batchLen = 1 << 14

// batch holds the host's expected results for up to batchLen consecutive inputs.
type batch struct {
	in    [batchLen]uint64 // input bit patterns
	src   [batchLen]uint64 // inputs as packed elements of the source kind
	dst   [batchLen]uint64 // results as packed elements of the destination kind
	out   [batchLen]uint64 // results' bits, zero-extended
	canon [batchLen]uint64 // canonical results (digestspec.Canonical)
	impl  [batchLen]bool   // implementation-defined
}

// expect fills b with inputs lo..lo+cnt-1 of c and the library's results
// and returns how many are implementation-defined.
func (b *batch) expect(c digest.Conversion, lo uint64, cnt int) uint64 {
	in := b.in[:cnt]
	switch c.Src {
	case cltype.Double:
		for j := range in {
			in[j] = digestspec.DoubleInput(lo + uint64(j))
		}
	case cltype.Long, cltype.Ulong:
		for j := range in {
			in[j] = digestspec.IntInput(lo + uint64(j))
		}
	default:
		for j := range in {
			in[j] = digestspec.Input(c.Src, lo+uint64(j))
		}
	}
	return b.convert(c, cnt)
}

// convert computes the results of c for b.in[:cnt].
func (b *batch) convert(c digest.Conversion, cnt int) uint64 {
	sk, dk := c.Src, c.Op.Dst.Kind
	pack(sk, b.src[:], b.in[:cnt])
	src := unsafe.Slice((*byte)(unsafe.Pointer(&b.src[0])), cnt*sk.Size())
	dst := unsafe.Slice((*byte)(unsafe.Pointer(&b.dst[0])), cnt*dk.Size())
	clear(b.impl[:cnt])
	if byteorder.BigEndian { // pack and unpack use host order, convert's byte API little-endian
		byteorder.Swap(src, sk.Size())
		defer byteorder.Swap(src, sk.Size())
	}
	var n int
	if hasImplDefined(c) {
		n, _ = kernels.BytesFlag(dk, sk, dst, src, c.Mode(), false, b.impl[:cnt])
	} else if err := convert.Bytes(dk, sk, dst, src, c.Mode(), c.Op.Sat); err != nil {
		panic(err) // our own buffers: cannot happen
	}
	if byteorder.BigEndian {
		byteorder.Swap(dst, dk.Size())
	}
	unpack(dk, b.out[:cnt], b.dst[:])
	canonical(dk, b.canon[:cnt], b.out[:cnt], b.impl[:cnt])
	return uint64(n)
}

// pack stores the low bits of each of in as consecutive elements of kind k
// (little-endian, as the host and every OpenCL device here are) into buf.
// (The element size is looked up once: Kind.Size per element cost a third
// of a warm run's host time on the GPU machine.)
func pack(k cltype.Kind, buf, in []uint64) {
	if len(in) == 0 {
		return
	}
	p := unsafe.Pointer(&buf[0])
	switch k.Size() {
	case 1:
		b := unsafe.Slice((*uint8)(p), len(in))
		for j, v := range in {
			b[j] = uint8(v)
		}
	case 2:
		b := unsafe.Slice((*uint16)(p), len(in))
		for j, v := range in {
			b[j] = uint16(v)
		}
	case 4:
		b := unsafe.Slice((*uint32)(p), len(in))
		for j, v := range in {
			b[j] = uint32(v)
		}
	default:
		copy(buf[:len(in)], in)
	}
}

// unpack is the inverse of pack: len(out) elements of kind k, zero-extended.
func unpack(k cltype.Kind, out, buf []uint64) {
	if len(out) == 0 {
		return
	}
	p := unsafe.Pointer(&buf[0])
	switch k.Size() {
	case 1:
		for j, v := range unsafe.Slice((*uint8)(p), len(out)) {
			out[j] = uint64(v)
		}
	case 2:
		for j, v := range unsafe.Slice((*uint16)(p), len(out)) {
			out[j] = uint64(v)
		}
	case 4:
		for j, v := range unsafe.Slice((*uint32)(p), len(out)) {
			out[j] = uint64(v)
		}
	default:
		copy(out, buf[:len(out)])
	}
}

// canonical sets canon[j] = digestspec.Canonical(k, out[j], impl[j]), with
// the kind's NaN test looked up once.
func canonical(k cltype.Kind, canon, out []uint64, impl []bool) {
	if !k.IsFloating() {
		for j, o := range out {
			canon[j] = o
			if impl[j] {
				canon[j] = digestspec.ImplDefined
			}
		}
		return
	}
	for j, o := range out {
		canon[j] = digestspec.Canonical(k, o, impl[j])
	}
}
