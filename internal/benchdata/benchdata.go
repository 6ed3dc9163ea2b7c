// Package benchdata holds what clconv's two speed measurements share: the
// benchmarks of package convert (go test -bench) and clconv bench. Both
// convert the same inputs in the same variants and compare with a copy split
// the same way, so their figures can be set side by side.
//
// The inputs are random, element by element, and a measurement goes through
// at least PoolElements of them (1 to 8 MiB): a loop that branches on the
// values cannot learn them. That matters: a branchy float -> int loop over
// the same 16 Ki random floats, converted again and again, ran at 0.93 ns per
// element on the project's 2-core AMD EPYC, the same loop over 32 Ki at
// 3.3 ns and over 1 Mi or more at 6.6 ns; the branch predictor had learnt the
// shorter sequences. A buffer that must stay in L2 is therefore a Window:
// refilled from a pool of at least PoolElements random elements before every
// timed call, so the call converts values in L2 that it has not seen.
package benchdata

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// PoolElements is the least number of distinct random elements a measurement
// converts in turn (1 Mi: 1 MiB of char, 8 MiB of double).
const PoolElements = 1 << 20

// Input returns n elements of kind k, the same on every call, and Input(k, n)
// is the first n elements of Input(k, m) for m > n. Every element is drawn on
// its own from a generator with a fixed seed, so no part of the input repeats
// another, and the kind of value changes at random from one element to the
// next, so that no branch on it can be predicted:
//
//   - integers: a quarter of the elements are uniformly random bit patterns
//     (out of range for every narrower destination, and for int, uint, long
//     and ulong inexact in float); the rest have a magnitude below 2^L, L
//     uniform in [0, W] with W one of 8, 16, 32 and 64 at random (at most
//     the kind's bits), and for signed kinds a random sign, so that every
//     narrower destination sees values in and out of its range and float and
//     double exact and inexact ones.
//   - half, float and double: 3/8 nearly normally distributed around 0 with a
//     spread of 1000 (in and out of the 8-bit ranges; the sum of four
//     uniform draws, so never beyond ±3464); 5/16 a random significand times
//     2^e, e uniform in [-30, 70) (fractions, every integer range, beyond
//     long's range and half's; for half [-26, 16), every binade, subnormals
//     and some below); 1/16 uniformly random bit patterns of the kind (every
//     exponent); 3/16 multiples of 0.5 in
//     [-1024, 1024) (ties and exact integers, where the rounding modes
//     differ); and 1/16 special values: NaN (quiet or signalling, random sign
//     and payload), +inf, -inf, +0, -0, a subnormal of the kind, and the
//     largest finite value, each 1/128 of the input. A value that kind k
//     cannot hold rounds to nearest (half overflows to infinity).
//
// The elements are little-endian on every host, as convert.Bytes and
// BytesParallel (what clconv bench and package convert's benchmarks call)
// take them, so that every port converts the same values, described above.
// (Written in host order, they had been other values on big-endian hosts:
// on s390x and mips short was out of char's range in 0.86 of the input and
// half had no infinities.)
func Input(k cltype.Kind, n int) []byte {
	b := make([]byte, n*k.Size())
	r := rand.New(rand.NewPCG(1, 2+uint64(k)))
	for i := range n {
		var v uint64
		if k.IsSmallFloat() {
			v = r.Uint64() // every pattern of bfloat16, e4m3, e5m2: NaNs, infinities, subnormals
		} else if k.IsFloat() {
			v = floatBits(k, r)
		} else {
			v = intBits(k, r)
		}
		switch k.Size() {
		case 1:
			b[i] = uint8(v)
		case 2:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
		case 4:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
		default:
			binary.LittleEndian.PutUint64(b[8*i:], v)
		}
	}
	return b
}

// intBits returns one integer element of kind k (in the low bits).
func intBits(k cltype.Kind, r *rand.Rand) uint64 {
	u := r.Uint64()
	if u>>62 == 0 {
		return r.Uint64() // uniform bits
	}
	w := 8 << (u >> 32 % 4) // 8, 16, 32 or 64
	l := int(u>>8&0xffff) % (min(w, k.Bits()) + 1)
	m := r.Uint64() >> (64 - l) // below 2^l (0 for l = 0)
	if k.IsSigned() && u&1 != 0 {
		return -m
	}
	return m
}

// floatBits returns one element of floating kind k as its bits.
func floatBits(k cltype.Kind, r *rand.Rand) uint64 {
	u := r.Uint64()
	var x float64
	switch c := u >> 60; {
	case c < 6:
		x = spread(r)
	case c < 11:
		e := int(r.Uint64N(100)) - 30
		if k == cltype.Half {
			e = int(r.Uint64N(42)) - 26 // every binade of half, and below it
		}
		x = math.Float64frombits(u&(1<<63) | uint64(e+1023)<<52 | u&(1<<52-1))
	case c < 12:
		return r.Uint64() // every bit pattern, NaNs and infinities included
	case c < 15:
		x = float64(int(r.Uint64N(4096))-2048) / 2
	default:
		return special(k, u)
	}
	switch k {
	case cltype.Half:
		return uint64(half.FromFloat64(x, round.RTE).Bits())
	case cltype.Float:
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

// spread returns a value nearly normally distributed around 0 with a standard
// deviation of 1000, the same bits on every port: the sum of four uniform
// 32-bit integers (Irwin-Hall), centred and scaled in one rounding. It
// replaced rand's NormFloat64, whose rare tail values come from math.Log,
// which gives other last bits on s390x (its assembly) than elsewhere, and
// whose ziggurat compares results of math.Exp.
func spread(r *rand.Rand) float64 {
	a, b := r.Uint64(), r.Uint64()
	s := a>>32 + a&(1<<32-1) + b>>32 + b&(1<<32-1) // exact: below 2^34
	// Each draw has variance (2^64-1)/12, the sum 4 times that: scale by
	// 1000 over its deviation, 2^32/sqrt(3) to 1e-19, as a constant (Go's
	// exact constant arithmetic rounds it once); float64(s) and the
	// subtraction are exact, the product rounds once.
	const scale = 1000 * 1.7320508075688772935274463415058723669428052538103806 / (1 << 32)
	return (float64(s) - 2*(1<<32-1)) * scale
}

// special returns one of the special values of floating kind k, chosen and
// given a sign and payload by the bits of u.
func special(k cltype.Kind, u uint64) uint64 {
	frac := k.Bits() - 1 - map[cltype.Kind]int{cltype.Half: 5, cltype.Float: 8, cltype.Double: 11}[k]
	sign := uint64(1) << (k.Bits() - 1)
	inf := (sign - 1) &^ (1<<frac - 1)
	payload := u >> 3 & (1<<frac - 1)
	s := u >> 59 & 1 * sign // a random sign (bits 60 to 63 chose this case)
	switch u & 7 {
	case 0: // quiet NaN
		return s | inf | 1<<(frac-1) | payload
	case 1: // signalling NaN: the quiet bit clear, the payload not 0
		return s | inf | max(payload&^(1<<(frac-1)), 1)
	case 2:
		return inf
	case 3:
		return sign | inf
	case 4:
		return 0
	case 5:
		return sign
	case 6: // subnormal
		return s | max(payload, 1)
	}
	return s | (inf - 1) // the largest finite value
}

// A Window is the source buffer of a measurement that converts fewer than
// PoolElements elements per call, such as one sized for L2: Next refills Buf
// with the next elements of a pool of random input (Input) of at least
// PoolElements elements and at least 8 windows, so that successive calls
// convert different values and the values repeat only after the whole pool.
// Call Next before each timed call, outside the timing. For n of at least
// PoolElements, Buf is Input(k, n) itself and Next does nothing.
type Window struct {
	Buf  []byte
	pool []byte
	off  int
}

// NewWindow returns a Window of n elements of kind k, filled with the pool's
// first n elements.
func NewWindow(k cltype.Kind, n int) *Window {
	if n >= PoolElements {
		b := Input(k, n)
		return &Window{Buf: b, pool: b}
	}
	w := &Window{Buf: make([]byte, n*k.Size()), pool: Input(k, max(PoolElements, 8*n))}
	w.Next()
	return w
}

// Refills reports whether Next changes Buf: false when Buf holds the whole
// pool (n >= PoolElements), and for an empty window.
func (w *Window) Refills() bool { return len(w.Buf) > 0 && len(w.Buf) < len(w.pool) }

// Next copies the pool's next len(Buf) bytes into Buf, starting over at the
// beginning of the pool when fewer remain.
func (w *Window) Next() {
	if !w.Refills() {
		return
	}
	if w.off+len(w.Buf) > len(w.pool) {
		w.off = 0
	}
	w.off += copy(w.Buf, w.pool[w.off:])
}

// Variant is one benchmarked form of a conversion.
type Variant struct {
	Short string     // "rte", "sat-rtz", "exact", "wrap", "sat"
	Mode  round.Mode // the rounding mode (RTE where nothing rounds)
	Sat   bool
	// Rounds is set where the mode is part of the OpenCL name: for float
	// destinations and float -> integer in Variants, and in every variant of
	// AllVariants.
	Rounds bool
}

// Name is the variant's OpenCL function for destination dst
// ("convert_uchar_sat_rte").
func (v Variant) Name(dst cltype.Kind) string {
	r := convert.NoSuffix
	if v.Rounds {
		r = convert.SuffixOf(v.Mode)
	}
	return convert.Op{Dst: cltype.Scalar(dst), Sat: v.Sat, Round: r}.Name()
}

// Variants lists the forms of src -> dst worth measuring: integer narrowing
// wrapped and saturated, exact conversions once, and everything that rounds
// in every mode (and with _sat for integer destinations).
func Variants(src, dst cltype.Kind) []Variant {
	switch {
	case src.IsInteger() && dst.IsInteger():
		if src.Size() < dst.Size() {
			return []Variant{{Short: "exact"}}
		}
		return []Variant{{Short: "wrap"}, {Short: "sat", Sat: true}}
	case src.IsInteger() && src.Size() <= 2, src == cltype.Half:
		return []Variant{{Short: "exact"}} // exact in every mode
	}
	return AllVariants(src, dst)
}

// AllVariants lists every form of src -> dst that OpenCL C names: each of
// the four rounding modes, and each also with _sat for an integer
// destination, even where the conversion is exact and the modes give the
// same result (8 variants for an integer destination, 4 for half, float and
// double; 836 over the 121 pairs of the eleven kinds). Their names carry the
// mode ("convert_int_sat_rte" from char).
func AllVariants(src, dst cltype.Kind) []Variant {
	var vs []Variant
	for _, sat := range []bool{false, true} {
		if sat && dst.IsFloat() {
			continue
		}
		for _, m := range round.Modes {
			short := m.String()
			if sat {
				short = "sat-" + short
			}
			vs = append(vs, Variant{Short: short, Mode: m, Sat: sat, Rounds: true})
		}
	}
	return vs
}

// ParallelCopy copies src to dst in GOMAXPROCS parts at once, as
// convert.BytesParallel splits its work.
func ParallelCopy(dst, src []byte) {
	w := runtime.GOMAXPROCS(0)
	part := (len(src)/w + 63) &^ 63
	var wg sync.WaitGroup
	for lo := 0; lo < len(src); lo += part {
		hi := min(lo+part, len(src))
		wg.Go(func() { copy(dst[lo:hi], src[lo:hi]) })
	}
	wg.Wait()
}
