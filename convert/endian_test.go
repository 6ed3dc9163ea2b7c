package convert

import (
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// The tests of byte order. Bytes, BytesFlag and BytesParallel read and write
// little-endian elements on every host: TestBytesLittleEndian checks them
// against buffers encoded explicitly with binary.LittleEndian, so it fails on
// a big-endian host whose swap is wrong. TestConvertSwapped runs the
// big-endian hosts' path (convertSwapped, and parallel with swap) on every
// host, on elements stored in the byte order opposite to the host's.

// endianPairs are the pairs the byte order tests convert: 1-byte <-> 8-byte,
// half, float and double both ways, and floating -> integer ones that flag.
var endianPairs = [][2]cltype.Kind{ // {src, dst}
	{cltype.Char, cltype.Long}, {cltype.Long, cltype.Char},
	{cltype.Uchar, cltype.Ulong}, {cltype.Ulong, cltype.Uchar},
	{cltype.Char, cltype.Double}, {cltype.Double, cltype.Uchar},
	{cltype.Half, cltype.Float}, {cltype.Float, cltype.Half},
	{cltype.Half, cltype.Double}, {cltype.Double, cltype.Half},
	{cltype.Float, cltype.Double}, {cltype.Double, cltype.Float},
	{cltype.Half, cltype.Short}, {cltype.Float, cltype.Int},
	{cltype.Double, cltype.Long}, {cltype.Int, cltype.Half},
	{cltype.Ushort, cltype.Float}, {cltype.Float, cltype.Float},
	{cltype.Short, cltype.Ushort}, {cltype.Uint, cltype.Float},
}

// nonHost is the byte order opposite to the host's: what convertSwapped reads
// and writes.
var nonHost = func() binary.ByteOrder {
	if byteorder.BigEndian {
		return binary.LittleEndian
	}
	return binary.BigEndian
}()

// putElem writes the low bits of v as element j of kind k in b in byte order o.
func putElem(o binary.ByteOrder, b []byte, k cltype.Kind, j int, v uint64) {
	switch k.Size() {
	case 1:
		b[j] = uint8(v)
	case 2:
		o.PutUint16(b[2*j:], uint16(v))
	case 4:
		o.PutUint32(b[4*j:], uint32(v))
	default:
		o.PutUint64(b[8*j:], v)
	}
}

// getElem reads element j of kind k from b in byte order o, zero-extended.
func getElem(o binary.ByteOrder, b []byte, k cltype.Kind, j int) uint64 {
	switch k.Size() {
	case 1:
		return uint64(b[j])
	case 2:
		return uint64(o.Uint16(b[2*j:]))
	case 4:
		return uint64(o.Uint32(b[4*j:]))
	}
	return o.Uint64(b[8*j:])
}

// alignedBuf returns n bytes aligned to 8.
func alignedBuf(n int) []byte {
	w := make([]uint64, n/8+1)
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), n)
}

// endianInputs returns n bit patterns of kind k: its edge values, then random ones.
func endianInputs(r *rand.Rand, k cltype.Kind, n int) []uint64 {
	vals := testvals.Edges(k)
	for len(vals) < n {
		vals = append(vals, testvals.Random(r, k))
	}
	return vals[:n]
}

// encode returns vals as elements of kind k in byte order o, in an aligned buffer.
func encode(o binary.ByteOrder, k cltype.Kind, vals []uint64) []byte {
	b := alignedBuf(len(vals) * k.Size())
	for j, v := range vals {
		putElem(o, b, k, j, v)
	}
	return b
}

// endianCase is one conversion of endianPairs in one mode and saturation.
type endianCase struct {
	src, dst cltype.Kind
	m        round.Mode
	sat      bool
}

// forEndianCases calls f for every pair, mode and saturation.
func forEndianCases(f func(c endianCase)) {
	for _, p := range endianPairs {
		for _, m := range round.Modes {
			for _, sat := range []bool{false, true} {
				if !sat || p[1].IsInteger() {
					f(endianCase{p[0], p[1], m, sat})
				}
			}
		}
	}
}

// check compares out (elements of c.dst in byte order o) and, when bad is not
// nil, the flags and their count with convert.Bits on vals.
func (c endianCase) check(t *testing.T, what string, o binary.ByteOrder, vals []uint64, out []byte, bad []bool, count int) {
	t.Helper()
	flags := 0
	for j, v := range vals {
		want, _ := Bits(c.dst, c.src, v, c.m, c.sat)
		if got := getElem(o, out, c.dst, j); got != want {
			t.Fatalf("%s %s->%s %s sat=%v: element %d (%#x): got %#x, want %#x", what, c.src, c.dst, c.m, c.sat, j, v, got, want)
		}
		if bad == nil {
			continue
		}
		_, outOfRange := Bits(c.dst, c.src, v, c.m, false)
		outOfRange = outOfRange && c.src.IsFloat() && c.dst.IsInteger()
		if outOfRange {
			flags++
		}
		if c.src.IsFloat() && c.dst.IsInteger() && bad[j] != outOfRange {
			t.Fatalf("%s %s->%s %s sat=%v: element %d (%#x): flag %v, want %v", what, c.src, c.dst, c.m, c.sat, j, v, bad[j], outOfRange)
		}
	}
	if bad != nil && count != flags {
		t.Fatalf("%s %s->%s %s sat=%v: count %d, want %d", what, c.src, c.dst, c.m, c.sat, count, flags)
	}
}

// Known little-endian encodings, written out byte by byte.
func TestBytesLittleEndianLiterals(t *testing.T) {
	for _, tt := range []struct {
		src, dst cltype.Kind
		in, want []byte
	}{
		{cltype.Char, cltype.Short, []byte{0xff, 0x01}, []byte{0xff, 0xff, 0x01, 0x00}},
		{cltype.Uchar, cltype.Ulong, []byte{0x80}, []byte{0x80, 0, 0, 0, 0, 0, 0, 0}},
		{cltype.Long, cltype.Char, []byte{0x7f, 0x01, 0, 0, 0, 0, 0, 0x80}, []byte{0x7f}},
		{cltype.Float, cltype.Double, []byte{0, 0, 0x80, 0x3f}, []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}},  // 1.0
		{cltype.Half, cltype.Float, []byte{0x00, 0xc0}, []byte{0, 0, 0, 0xc0}},                         // -2.0
		{cltype.Double, cltype.Half, []byte{0, 0, 0, 0, 0, 0, 0xe0, 0x3f}, []byte{0x00, 0x38}},         // 0.5
		{cltype.Int, cltype.Uint, []byte{0x01, 0x02, 0x03, 0x04}, []byte{0x01, 0x02, 0x03, 0x04}},      // same bits
		{cltype.Double, cltype.Int, []byte{0, 0, 0, 0, 0, 0x40, 0x8f, 0x40}, []byte{0xe8, 0x03, 0, 0}}, // 1000.0
	} {
		in := alignedBuf(len(tt.in))
		copy(in, tt.in)
		for _, mode := range []string{"Bytes", "BytesFlag", "BytesParallel"} {
			out := alignedBuf(len(tt.want))
			var err error
			switch mode {
			case "Bytes":
				err = Bytes(tt.dst, tt.src, out, in, round.RTE, false)
			case "BytesFlag":
				_, err = bytesFlag(tt.dst, tt.src, out, in, round.RTE, false, make([]bool, len(tt.in)/tt.src.Size()))
			default:
				err = BytesParallel(tt.dst, tt.src, out, in, round.RTE, false)
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != string(tt.want) {
				t.Errorf("%s %s->%s of % x: got % x, want % x", mode, tt.src, tt.dst, tt.in, out, tt.want)
			}
		}
	}
}

// Bytes, BytesFlag and BytesParallel on little-endian buffers, over more than
// one chunk of the swapping path, and in place where the sizes agree.
func TestBytesLittleEndian(t *testing.T) {
	const n = 2*swapChunk + 77
	le := binary.LittleEndian
	r := rand.New(rand.NewPCG(5, 7))
	inputs := map[cltype.Kind][]uint64{}
	forEndianCases(func(c endianCase) {
		if inputs[c.src] == nil {
			inputs[c.src] = endianInputs(r, c.src, n)
		}
		vals := inputs[c.src]
		in := encode(le, c.src, vals)
		out := alignedBuf(n * c.dst.Size())
		if err := Bytes(c.dst, c.src, out, in, c.m, c.sat); err != nil {
			t.Fatal(err)
		}
		c.check(t, "Bytes", le, vals, out, nil, 0)

		clear(out)
		bad := make([]bool, n)
		count, err := bytesFlag(c.dst, c.src, out, in, c.m, c.sat, bad)
		if err != nil {
			t.Fatal(err)
		}
		c.check(t, "BytesFlag", le, vals, out, bad, count)

		clear(out)
		if err := BytesParallel(c.dst, c.src, out, in, c.m, c.sat); err != nil {
			t.Fatal(err)
		}
		c.check(t, "BytesParallel", le, vals, out, nil, 0)

		if c.src.Size() == c.dst.Size() {
			buf := encode(le, c.src, vals)
			if err := Bytes(c.dst, c.src, buf, buf, c.m, c.sat); err != nil {
				t.Fatal(err)
			}
			c.check(t, "Bytes in place", le, vals, buf, nil, 0)
		}
	})
}

// BytesParallel split over several goroutines, on little-endian buffers.
func TestBytesParallelLittleEndian(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(3, 3))
	le := binary.LittleEndian
	for _, c := range []endianCase{{cltype.Char, cltype.Long, round.RTZ, false}, {cltype.Double, cltype.Half, round.RTN, false}} {
		n := 3*parallelMinBytes/(c.src.Size()+c.dst.Size()) + 99
		vals := endianInputs(r, c.src, n)
		out := alignedBuf(n * c.dst.Size())
		if err := BytesParallel(c.dst, c.src, out, encode(le, c.src, vals), c.m, c.sat); err != nil {
			t.Fatal(err)
		}
		c.check(t, "BytesParallel", le, vals, out, nil, 0)
	}
}

// The swapping path of big-endian hosts, run on every host: convertSwapped
// and parallel with swap convert elements stored in the byte order opposite
// to the host's, with flags, in place, and split over goroutines.
func TestConvertSwapped(t *testing.T) {
	const n = 2*swapChunk + 77
	r := rand.New(rand.NewPCG(8, 1))
	inputs := map[cltype.Kind][]uint64{}
	forEndianCases(func(c endianCase) {
		if inputs[c.src] == nil {
			inputs[c.src] = endianInputs(r, c.src, n)
		}
		vals := inputs[c.src]
		in := encode(nonHost, c.src, vals)
		out := alignedBuf(n * c.dst.Size())
		d, s := unsafe.Pointer(&out[0]), unsafe.Pointer(&in[0])
		convertSwapped(c.dst, c.src, d, s, n, c.m, c.sat, nil)
		c.check(t, "convertSwapped", nonHost, vals, out, nil, 0)

		clear(out)
		bad := make([]bool, n)
		count := convertSwapped(c.dst, c.src, d, s, n, c.m, c.sat, bad)
		c.check(t, "convertSwapped with flags", nonHost, vals, out, bad, count)

		if c.src.Size() == c.dst.Size() {
			buf := encode(nonHost, c.src, vals)
			p := unsafe.Pointer(&buf[0])
			convertSwapped(c.dst, c.src, p, p, n, c.m, c.sat, nil)
			c.check(t, "convertSwapped in place", nonHost, vals, buf, nil, 0)
		}
	})

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range []endianCase{{cltype.Uchar, cltype.Ulong, round.RTZ, false}, {cltype.Float, cltype.Half, round.RTP, false}} {
		n := 3*parallelMinBytes/(c.src.Size()+c.dst.Size()) + 99
		vals := endianInputs(r, c.src, n)
		in := encode(nonHost, c.src, vals)
		out := alignedBuf(n * c.dst.Size())
		parallel(c.dst, c.src, unsafe.Pointer(&out[0]), unsafe.Pointer(&in[0]), n, c.m, c.sat, true)
		c.check(t, "parallel with swap", nonHost, vals, out, nil, 0)
	}
}
