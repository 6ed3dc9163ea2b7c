// Package testvals provides the inputs that clconv's tests push through every
// conversion: each type's edge values and a biased random generator. The
// reference's own tests and the fast paths' tests share them.
package testvals

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"

	"github.com/clconv/clconv/cltype"
)

// Edges returns the edge values of a source type, each with its neighbours
// and (for signed types) its negation.
func Edges(k cltype.Kind) []uint64 {
	set := map[uint64]bool{}
	if k.IsInteger() {
		intEdges(k, set)
	} else {
		floatEdges(k, set)
	}
	out := make([]uint64, 0, len(set))
	for b := range set {
		out = append(out, b)
	}
	slices.Sort(out)
	return out
}

func intEdges(k cltype.Kind, set map[uint64]bool) {
	w := k.Bits()
	add := func(v uint64) {
		for d := uint64(0); d <= 2; d++ {
			set[(v+d)&k.Mask()] = true
			set[(v-d)&k.Mask()] = true
			// Negation wraps for unsigned types, giving values near MAX.
			set[(-v+d)&k.Mask()] = true
			set[(-v-d)&k.Mask()] = true
		}
	}
	for _, v := range []uint64{0, 3, 44, 127, 128, 200, 255, 256, 300, 32767, 32768, 65504, 65519, 65520, 65535,
		16777217, 1<<53 + 1, 0x7fffffffffffffff, 0xffffffffffffffff, k.MaxUint(), uint64(k.MinInt())} {
		add(v)
	}
	for e := range w {
		add(1 << e)
	}
	// Exact ties and their neighbours for each floating precision: 2^e + 2^(e-p)
	// lies halfway between two values with p significant bits; 2^e + 3*2^(e-p)
	// too, but rounds the other way under rte.
	for _, p := range []int{11, 24, 53} {
		for e := p; e < w; e++ {
			add(1<<e + 1<<(e-p))
			add(1<<e + 3<<(e-p))
			add(1<<(e+1) - 1<<(e-p)) // just below the next power of two
		}
	}
}

func floatEdges(k cltype.Kind, set map[uint64]bool) {
	f := k.Format()
	fracBits := uint(f.Prec - 1)
	signBit := uint64(1) << (k.Bits() - 1)
	infBits := (uint64(1)<<f.ExpBits() - 1) << fracBits
	quiet := uint64(1) << (fracBits - 1)
	payloadMask := quiet - 1
	add := func(b uint64) {
		for d := uint64(0); d <= 2; d++ {
			for _, v := range []uint64{b + d, b - d} {
				v &= signBit - 1
				set[v] = true
				set[v|signBit] = true
			}
		}
	}
	// Zeros, subnormals, the smallest normal, the largest finite, infinity.
	for _, b := range []uint64{0, 1, 2, 3, 1<<fracBits - 1, 1 << fracBits, 1<<fracBits + 1, infBits - 1, infBits} {
		add(b)
	}
	// NaNs: quiet and signalling, with payloads in the high, low and all bits.
	for _, p := range []uint64{1, 2, payloadMask, payloadMask >> 1, quiet >> 1, 0x5555555555555555 & payloadMask,
		0xaaaaaaaaaaaaaaaa & payloadMask, 1 << (fracBits / 2)} {
		set[infBits|p] = true
		set[infBits|p|signBit] = true
		set[infBits|quiet|p] = true
		set[infBits|quiet|p|signBit] = true
	}
	set[infBits|quiet] = true
	set[infBits|quiet|signBit] = true
	if k == cltype.Half {
		// Half is also tested exhaustively; these are the values named in
		// the rules: 0.5, 1, 1.5, 2.5, 3.5, 127.5, 254.5, 255.5, 32767
		// rounded, 0x1p-14, 0x1p-24.
		for _, b := range []uint64{0x3800, 0x3c00, 0x3e00, 0x4100, 0x4300, 0x57f8, 0x5bf4, 0x5bfc, 0x7800, 0x0400, 0x0001} {
			add(b)
		}
		return
	}
	for _, x := range floatAnchors {
		if k == cltype.Float {
			if x32 := float32(x); float64(x32) == x && !math.IsInf(float64(x32), 0) {
				add(uint64(math.Float32bits(x32)))
			}
		} else {
			add(math.Float64bits(x))
		}
	}
}

// floatAnchors are exact values at the edges of the conversions: ties at .5,
// integer-type limits, powers of two at each precision limit, the half and
// float overflow thresholds and the subnormal boundaries of each format.
var floatAnchors = []float64{
	0.5, 1, 1.5, 2.5, 3.5, 4.5, 127.5, 128.5, 254.5, 255.5, 256.5, 32767.5, 32768.5, 65535.5, 65536.5,
	-128.5, -129.5, -32768.5, -32769.5, -2147483648.5, 2147483647.5, 4294967295.5, 254.6, 1.2e9, 1e-300,
	0x1p7, 0x1p8, 0x1p15, 0x1p16, 0x1p23, 0x1p24, 0x1p25, 0x1p31, 0x1p32, 0x1p52, 0x1p53, 0x1p54,
	0x1p62, 0x1p63, 0x1p64, 0x1p65, 0x1p-1, 0x1p-2,
	65504, 65519, 65520, 65536, 0x1.ffep15, 0x1.ffdp15, 0x1.ffefp15, 0x1.ffe8p15,
	0x1p-14, 0x1p-15, 0x1p-24, 0x1p-25, 0x1p-26, 0x1.8p-24, 0x1.8p-25, 0x1.000002p-25, 0x1.ff8p-15, 0x1.ffcp-15,
	0x1p-126, 0x1p-127, 0x1p-149, 0x1p-150, 0x1p-151, 0x1.8p-149, 0x1.8p-150, 0x1.fffffep-127, 0x1.fffffcp-127,
	math.MaxFloat32, 0x1.ffffffp127, 0x1.fffffe8p127, 0x1.ffffff8p127, 0x1p128,
	math.MaxFloat64, 0x1p-1022, 0x1p-1023, 0x1p-1074, 0x1.fffffffffffffp-1023,
	0x1.000001p0, 0x1.000003p0, 0x1.0000000000001p53, 0x1.fffffffffffffp63, 0x1.fffffffffffffp62,
}

// Random returns a random bit pattern of kind k: a quarter uniformly
// random, the rest biased toward the values where conversions go wrong.
func Random(r *rand.Rand, k cltype.Kind) uint64 {
	if r.IntN(4) == 0 {
		return r.Uint64() & k.Mask()
	}
	if k.IsInteger() {
		return randomInt(r, k)
	}
	return randomFloat(r, k)
}

func randomInt(r *rand.Rand, k cltype.Kind) uint64 {
	w := k.Bits()
	delta := uint64(r.IntN(9)) - 4
	var v uint64
	switch r.IntN(4) {
	case 0:
		// A random magnitude of any bit length.
		v = r.Uint64() >> r.IntN(64)
	case 1:
		// Near a power of two.
		v = 1<<r.IntN(w) + delta
	case 2:
		// A tie (or a neighbour of one) at a random bit position: after the
		// top bits, a 1 followed by zeros.
		v = r.Uint64() >> r.IntN(w)
		s := 1 + r.IntN(min(w, 62))
		v = v&^(1<<s-1) | 1<<(s-1) + delta%2
	default:
		// Near MIN and MAX.
		v = k.MaxUint() - uint64(r.IntN(300))
		if r.IntN(2) == 0 {
			v = uint64(k.MinInt()) + uint64(r.IntN(300))
		}
	}
	if k.IsSigned() && r.IntN(2) == 0 {
		v = -v
	}
	return v & k.Mask()
}

// interestingExps are unbiased exponents where some conversion changes
// behaviour: integer-type and precision limits, half and float overflow and
// subnormal boundaries, and the ends of double's range.
var interestingExps = []int{
	-1, 0, 1, 7, 8, 10, 11, 15, 16, 23, 24, 25, 31, 32, 52, 53, 54, 63, 64,
	-14, -15, -24, -25, -26, -126, -127, -149, -150, -151, 127, 128,
	-1022, -1023, -1074, -1075, 1023,
}

func randomFloat(r *rand.Rand, k cltype.Kind) uint64 {
	f := k.Format()
	fracBits := f.Prec - 1
	fracMask := uint64(1)<<fracBits - 1
	expAll := 1<<f.ExpBits() - 1
	var sign uint64
	if r.IntN(2) == 0 {
		sign = 1 << (k.Bits() - 1)
	}
	// The mantissa field: random, or a pattern that lands on or next to a
	// tie for some narrower precision.
	var frac uint64
	switch r.IntN(6) {
	case 0, 1:
		frac = r.Uint64() & fracMask
	case 2:
		frac = fracMask - uint64(r.IntN(4))
	case 3:
		frac = uint64(r.IntN(4))
	default:
		s := 1 + r.IntN(fracBits)
		frac = (r.Uint64()&^(1<<s-1) | 1<<(s-1) + uint64(r.IntN(3)) - 1) & fracMask
	}
	var biased int
	switch r.IntN(8) {
	case 0:
		biased = 0 // subnormal or zero
		frac >>= r.IntN(fracBits)
	case 1:
		biased = expAll // infinity or NaN
	case 2, 3:
		biased = 1 + r.IntN(expAll-1)
	default:
		biased = interestingExps[r.IntN(len(interestingExps))] + r.IntN(5) - 2 + f.Bias
		if biased < 0 || biased > expAll {
			biased = 1 + r.IntN(expAll-1)
		}
	}
	return sign | uint64(biased)<<fracBits | frac
}

// Sampled reports whether the heaviest sweeps check a sample of their
// inputs: when the environment sets CLCONV_SAMPLE=1 (scripts/ports.sh does,
// under qemu-user and node, where code runs 10 to 30 times slower, and
// .ci/run for its purego and GOAMD64=v3 reruns of the ported packages), and
// under the race detector (which slows them 5 to 10 times, and whose
// concern, the concurrent code, they do not touch). Every test still runs;
// the full sweeps run in the plain `go test ./...`.
func Sampled() bool { return raceEnabled || os.Getenv("CLCONV_SAMPLE") != "" }

// Race reports whether the race detector is on.
func Race() bool { return raceEnabled }

// Stride returns 1, or k when Sampled: a sweep that steps by it checks every
// k-th input then.
func Stride(k int) int {
	if Sampled() {
		return k
	}
	return 1
}

// Sample returns n, or n/div (at least 1) when Sampled.
func Sample(n, div int) int {
	if Sampled() {
		return max(n/div, 1)
	}
	return n
}
