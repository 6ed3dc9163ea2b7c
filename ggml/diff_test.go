package ggml

import (
	"bytes"
	"flag"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/clconv/clconv/internal/testvals"
)

// Differential tests: the optimized row functions against the reference
// copies in ref_test.go, on random and adversarial rows (quantization) and
// random and adversarial blocks (dequantization). With -short a sample runs;
// the long test runs -diffrows rows of 256 elements per type (default 1<<20,
// about 4 to 5 minutes here; 1<<18 took 67 s).

var (
	diffRows = flag.Int("diffrows", 0, "rows of 256 elements per type for the differential test (0: 1<<15, or 1<<20 with -long)")
	long     = flag.Bool("long", false, "run the differential test on 1<<20 rows per type and the converters on all 2^32 inputs")
)

// refRow is the reference row function pair of each supported type.
func refFuncs(t Type) (func([]byte, []float32), func([]float32, []byte)) {
	switch t {
	case F32:
		return quantF32, dequantF32
	case F16:
		return quantF16, refDequantF16
	case Q4_0:
		return quantQ4_0, refDequantQ4_0
	case Q4_1:
		return quantQ4_1, refDequantQ4_1
	case Q5_0:
		return quantQ5_0, refDequantQ5_0
	case Q5_1:
		return quantQ5_1, refDequantQ5_1
	case Q8_0:
		return quantQ8_0, refDequantQ8_0
	case Q2_K:
		return refQuantQ2_K, refDequantQ2_K
	case Q3_K:
		return refQuantQ3_K, refDequantQ3_K
	case Q4_K:
		return refQuantQ4_K, refDequantQ4_K
	case Q5_K:
		return refQuantQ5_K, refDequantQ5_K
	case Q6_K:
		return refQuantQ6_K, refDequantQ6_K
	case Q8_K:
		return quantQ8_K, refDequantQ8_K
	case BF16:
		return quantBF16, refDequantBF16
	case MXFP4:
		return quantMXFP4, refDequantMXFP4
	case NVFP4:
		return quantNVFP4, refDequantNVFP4
	}
	panic("no reference for " + t.String())
}

const diffRow = 256

// diffGen fills one 256-element row from generator g (of nGen) with rng r;
// prev is the previous row's quantized-then-dequantized values (on the grid
// of the type under test), for the generators that perturb grid points.
const nGen = 16

func diffGen(g int, r *rng, x []float32, grid []float32) {
	x = x[:diffRow]
	switch g {
	case 0, 1, 2, 3, 4, 5, 6: // the golden distributions
		dist(dists[g], r.next(), x)
	case 7: // on the type's own grid (exact ties in every search)
		copy(x, grid)
	case 8: // grid points moved by -1, 0 or +1 ulp
		for i, v := range grid[:diffRow] {
			b := math.Float32bits(v)
			switch r.intn(3) {
			case 0:
				b--
			case 1:
				b++
			}
			if v == 0 {
				b = math.Float32bits(v)
			}
			x[i] = math.Float32frombits(b)
		}
	case 9: // few distinct values per 16: small ints times a per-sub-block scale
		for s := 0; s < diffRow; s += 16 {
			sc := float32(pow2(r.intn(41) - 20))
			k := 1 + r.intn(8)
			for i := s; i < s+16; i++ {
				x[i] = float32(r.intn(2*k+1)-k) * sc
			}
		}
	case 10: // constant sub-blocks, zero sub-blocks, one outlier
		for s := 0; s < diffRow; s += 16 {
			c := float32(r.gauss())
			switch r.intn(4) {
			case 0:
				c = 0
			case 1:
				c = -c
			}
			for i := s; i < s+16; i++ {
				x[i] = c
			}
			if r.intn(2) == 0 {
				x[s+r.intn(16)] = float32(r.gauss() * pow2(r.intn(30)-10))
			}
		}
	case 11: // any float32 bits, NaN and infinities included, sparsely
		dist("gauss", r.next(), x)
		for range 1 + r.intn(4) {
			x[r.intn(diffRow)] = math.Float32frombits(uint32(r.next()))
		}
		if r.intn(4) == 0 {
			x[r.intn(diffRow)] = float32(math.Inf(1 - 2*r.intn(2)))
		}
		if r.intn(4) == 0 {
			x[r.intn(diffRow)] = math.Float32frombits(0x7f800000 | uint32(r.next())&0x807fffff | 1)
		}
	case 12: // subnormals and tiny values around the group_max_eps cutoff
		for i := range x {
			x[i] = float32(r.gauss() * pow2(-r.intn(40)-110))
		}
	case 13: // huge values (scale overflow in fp16 and float32 sums)
		for i := range x {
			x[i] = float32(r.gauss() * pow2(r.intn(120)+8))
		}
	case 14: // all positive or all negative sub-blocks (min at 0 in the affine fits)
		dist("uniform", r.next(), x)
		for s := 0; s < diffRow; s += 32 {
			neg := r.intn(3)
			for i := s; i < s+32; i++ {
				a := absf(x[i])
				switch neg {
				case 0:
					x[i] = a
				case 1:
					x[i] = -a
				}
			}
		}
	case 15: // few random values repeated (exact sums, ties between candidate scales)
		var vals [4]float32
		for i := range vals {
			vals[i] = float32(r.intn(33)-16) * float32(pow2(r.intn(9)-4))
		}
		for i := range x {
			x[i] = vals[r.intn(4)]
		}
	}
}

// diffQuant compares quantization of nRows rows of type t.
func diffQuant(t *testing.T, typ Type, nRows int, seed uint64) {
	ti := typ.info()
	refQ, refD := refFuncs(typ)
	rs, _ := typ.RowSize(diffRow)
	batch := min(256, nRows) // rows per batch
	workers := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var fails int
	var wg sync.WaitGroup
	nb := (nRows + batch - 1) / batch
	next := make(chan int, nb)
	for b := range nb {
		next <- b
	}
	close(next)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := make([]float32, batch*diffRow)
			got, want := make([]byte, batch*rs), make([]byte, batch*rs)
			grid := make([]float32, diffRow)
			gridQ := make([]byte, rs)
			for b := range next {
				r := &rng{seed ^ uint64(b)*0x9e3779b97f4a7c15}
				for i := range batch {
					row := x[i*diffRow : (i+1)*diffRow]
					g := (b*batch + i) % nGen
					if g == 7 || g == 8 {
						// grid of the type from a random row's quantization
						dist(dists[r.intn(len(dists)-1)], r.next(), grid)
						refQ(gridQ, grid)
						refD(grid, gridQ)
					}
					diffGen(g, r, row, grid)
				}
				ti.quantize(got, x)
				refQ(want, x)
				if !bytes.Equal(got, want) {
					mu.Lock()
					for i := range batch {
						g, w := got[i*rs:(i+1)*rs], want[i*rs:(i+1)*rs]
						if !bytes.Equal(g, w) && fails < 5 {
							fails++
							t.Errorf("%s: batch %d row %d (generator %d): quantize differs\n got  %x\n want %x\n row %v", typ, b, i, (b*batch+i)%nGen, g, w, x[i*diffRow:(i+1)*diffRow])
						}
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}

// diffDequant compares dequantization of nBlocks random blocks (with
// adversarial scale fields) of type t.
func diffDequant(t *testing.T, typ Type, nBlocks int, seed uint64) {
	ti := typ.info()
	_, refD := refFuncs(typ)
	blocks := randomBlocks(typ, nBlocks, seed)
	// Every third block gets a scale field from a small set of specials.
	r := &rng{seed + 1}
	sz := typ.TypeSize()
	specials := []uint16{0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0x3c00}
	for b := 0; b < nBlocks; b += 3 {
		blk := blocks[b*sz : (b+1)*sz]
		var off []int
		switch typ {
		case Q4_0, Q5_0, Q8_0, Q4_1, Q5_1, Q4_K, Q5_K:
			off = []int{0, 2}
		case Q2_K:
			off = []int{80, 82}
		case Q3_K:
			off = []int{108}
		case Q6_K:
			off = []int{208}
		}
		for _, o := range off {
			if r.intn(2) == 0 {
				h := specials[r.intn(len(specials))]
				blk[o], blk[o+1] = byte(h), byte(h>>8)
			}
		}
	}
	n := nBlocks * typ.BlockSize()
	got, want := make([]float32, n), make([]float32, n)
	ti.dequantize(got, blocks)
	refD(want, blocks)
	fails := 0
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Errorf("%s: dequantize element %d (block %x): got %#08x want %#08x", typ, i, blocks[i/typ.BlockSize()*sz:][:sz], math.Float32bits(got[i]), math.Float32bits(want[i]))
			if fails++; fails > 5 {
				return
			}
		}
	}
}

func TestDiffRef(t *testing.T) {
	rows := 1 << 15
	if *long {
		rows = 1 << 20
	}
	if *diffRows > 0 {
		rows = *diffRows
	}
	if testing.Short() {
		rows = 1 << 11
	}
	// Sampled (emulated ports): 1/16 of the rows, in one batch that still
	// cycles through all nGen generators (8 rows each for -short).
	rows = testvals.Sample(rows, 16)
	for _, typ := range Types() {
		t.Run(typ.String(), func(t *testing.T) {
			seed := uint64(typ)*1000 + 12345
			diffQuant(t, typ, rows, seed)
			nb := rows * diffRow / typ.BlockSize()
			if typ.BlockSize() == 1 {
				nb = rows
			}
			diffDequant(t, typ, nb, seed)
		})
	}
}

// TestDiffAdversarial runs the golden adversarial rows, every float32
// pattern in edgeFloats and the sweep blocks through both implementations.
func TestDiffAdversarial(t *testing.T) {
	adv := adversarial()
	edge := edgeFloats()
	edge = edge[:len(edge)/diffRow*diffRow]
	// Sampled: every adversarial row, every 16th row of edge patterns and
	// every 8th sweep block.
	edge = sampleRows(edge, diffRow, 16)
	for _, typ := range Types() {
		t.Run(typ.String(), func(t *testing.T) {
			ti := typ.info()
			refQ, refD := refFuncs(typ)
			for _, in := range [][]float32{adv, edge} {
				rs, _ := typ.RowSize(diffRow)
				got, want := make([]byte, len(in)/diffRow*rs), make([]byte, len(in)/diffRow*rs)
				ti.quantize(got, in)
				refQ(want, in)
				for i := 0; i < len(got); i += rs {
					if !bytes.Equal(got[i:i+rs], want[i:i+rs]) {
						t.Fatalf("row %d: quantize differs\n got  %x\n want %x", i/rs, got[i:i+rs], want[i:i+rs])
					}
				}
				yg, yw := make([]float32, len(in)), make([]float32, len(in))
				ti.dequantize(yg, want)
				refD(yw, want)
				for i := range yg {
					if math.Float32bits(yg[i]) != math.Float32bits(yw[i]) {
						t.Fatalf("element %d: dequantize %#08x, want %#08x", i, math.Float32bits(yg[i]), math.Float32bits(yw[i]))
					}
				}
			}
			if sw := sampleBlocks(sweepBlocks(typ), typ.TypeSize(), 8); len(sw) > 0 {
				n := len(sw) / typ.TypeSize() * typ.BlockSize()
				yg, yw := make([]float32, n), make([]float32, n)
				ti.dequantize(yg, sw)
				refD(yw, sw)
				for i := range yg {
					if math.Float32bits(yg[i]) != math.Float32bits(yw[i]) {
						t.Fatalf("sweep element %d: %#08x, want %#08x", i, math.Float32bits(yg[i]), math.Float32bits(yw[i]))
					}
				}
			}
		})
	}
}

// BenchmarkRef times the reference (pre-optimization) row functions on the
// inputs of BenchmarkQuantize and BenchmarkDequantize, so that old and new
// can be compared in one run on a noisy machine.
func BenchmarkRef(b *testing.B) {
	x := benchInput()
	for _, typ := range Types() {
		refQ, refD := refFuncs(typ)
		rs, _ := typ.RowSize(4096)
		q := make([]byte, rs*benchN/4096)
		b.Run("quantize/"+typ.String(), func(b *testing.B) {
			b.SetBytes(4 * benchN)
			for b.Loop() {
				refQ(q, x)
			}
		})
		b.Run("dequantize/"+typ.String(), func(b *testing.B) {
			refQ(q, x)
			y := make([]float32, benchN)
			b.SetBytes(4 * benchN)
			for b.Loop() {
				refD(y, q)
			}
		})
	}
}

// sampleRows returns x (rows of n elements), or when testvals.Sampled every
// k-th row of it, from the first.
func sampleRows(x []float32, n, k int) []float32 {
	if !testvals.Sampled() {
		return x
	}
	var out []float32
	for r := 0; r+n <= len(x); r += k * n {
		out = append(out, x[r:r+n]...)
	}
	return out
}

// sampleBlocks returns b (blocks of size bytes), or when testvals.Sampled
// every k-th block of it, from the first, plus the last.
func sampleBlocks(b []byte, size, k int) []byte {
	if !testvals.Sampled() || len(b) == 0 {
		return b
	}
	var out []byte
	n := len(b) / size
	for i := 0; i < n; i += k {
		out = append(out, b[i*size:(i+1)*size]...)
	}
	if (n-1)%k != 0 {
		out = append(out, b[(n-1)*size:]...)
	}
	return out
}
