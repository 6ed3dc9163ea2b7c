package safetensors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// mxValue decodes a code of an MX format from the OCP MX specification's
// definitions, independently of internal/minifloat.
func mxValue(d DType, code uint8) float64 {
	var e, m, bias int
	switch d {
	case F8_E8M0:
		if code == 0xff {
			// The quiet NaN with no payload, as minifloat (and the
			// package documentation of convert) decode E8M0's NaN.
			return math.Float64frombits(0x7ff8000000000000)
		}
		return math.Ldexp(1, int(code)-127)
	case F4:
		e, m, bias = 2, 1, 1
	case F6_E2M3:
		e, m, bias = 2, 3, 1
	case F6_E3M2:
		e, m, bias = 3, 2, 3
	}
	exp := int(code>>m) & (1<<e - 1)
	man := float64(int(code) & (1<<m - 1))
	var v float64
	if exp == 0 {
		v = math.Ldexp(man, 1-bias-m)
	} else {
		v = math.Ldexp(man+float64(int(1)<<m), exp-bias-m)
	}
	if code>>(e+m)&1 != 0 {
		v = -v
	}
	return v
}

// codes returns element i of raw data of an MX format.
func mxCodes(d DType, raw []byte, n int) []uint8 {
	c := make([]uint8, n)
	switch d {
	case F4:
		for i := range c {
			c[i] = raw[i/2] >> (4 * (i % 2)) & 0xf
		}
	case F6_E2M3, F6_E3M2:
		// Bit by bit from the little-endian bit string.
		for i := range c {
			for b := 0; b < 6; b++ {
				bit := 6*i + b
				c[i] |= (raw[bit/8] >> (bit % 8) & 1) << b
			}
		}
	default:
		copy(c, raw)
	}
	return c
}

// sample returns n elements of dtype d, little-endian: every bit pattern of
// the narrow types, edge values and random ones of the others.
func sample(d DType, n int, rng *rand.Rand) []byte {
	b := make([]byte, n*d.Bits()/8)
	switch d {
	case BOOL:
		for i := range b {
			b[i] = byte(rng.IntN(2))
		}
		return b
	case F4, F6_E2M3, F6_E3M2:
		codes := make([]uint8, n)
		for i := range codes {
			codes[i] = uint8(i * 7)
		}
		rng.Shuffle(n, func(i, j int) { codes[i], codes[j] = codes[j], codes[i] })
		if d == F4 {
			PackF4(b, codes)
		} else {
			PackF6(b, codes)
		}
		return b
	}
	size := d.Bits() / 8
	var edges []uint64
	switch d {
	case F16:
		edges = []uint64{0, 0x8000, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x0001, 0x3c00, 0x5bf8, 0x5bfc, 0xd800, 0x7a00}
	case BF16:
		edges = []uint64{0, 0x8000, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x0001, 0x437f, 0x4380, 0xc300, 0x4f00, 0x5f00, 0x477f}
	case F32:
		for _, f := range []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 1.5, 2.5, -2.5, 127.5, 128, -128.5, 255.5, 256, 65504, 65519, 65520, 448, 464, 57344, 61440, 1e10, -1e10, 3e38, 1e-45, 1e-40, 2147483520, 4294967040, 9.2233715e18, 1.8446743e19} {
			edges = append(edges, uint64(math.Float32bits(f)))
		}
		edges = append(edges, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001)
	case F64:
		for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 2.5, -2.5, 255.5, 65504, 65519.99, 1e300, -1e300, 5e-324, 2147483647.5, -2147483648.5, 4294967295.5, 9223372036854775807, 18446744073709551615, -9223372036854777856} {
			edges = append(edges, math.Float64bits(f))
		}
		edges = append(edges, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000001)
	case U16, I16, U32, I32, U64, I64:
		for _, v := range []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, 65535, 65536, 1 << 24, 1<<24 + 1, math.MaxInt32, math.MinInt32, math.MaxUint32, 1<<53 + 1, math.MaxInt64, math.MinInt64} {
			edges = append(edges, uint64(v))
		}
	}
	for i := range n {
		var v uint64
		switch {
		case size == 1:
			v = uint64(i)
		case i < len(edges):
			v = edges[i]
		case i%3 == 0 && d.IsFloat():
			// Small values with fractions, where rounding modes differ.
			f := float64(rng.IntN(1<<12)-1<<11) / 8
			switch d {
			case F16:
				v = uint64(half.FromFloat64RTE(f))
			case BF16:
				v = uint64(convert.To[bfloat16.BFloat16](f, round.RTE))
			case F32:
				v = uint64(math.Float32bits(float32(f)))
			default:
				v = math.Float64bits(f)
			}
		default:
			v = rng.Uint64()
			if i%2 == 0 && !d.IsFloat() {
				v = uint64(rng.Int64N(600) - 300) // near the small types' ranges
			}
		}
		for k := range size {
			b[i*size+k] = byte(v >> (8 * k))
		}
	}
	return b
}

// leBytes returns the little-endian bytes of xs.
func leBytes[T convert.Number](xs []T) []byte {
	_, b, err := Encode("", []int64{int64(len(xs))}, xs)
	if err != nil {
		panic(err)
	}
	return b
}

// checkedOne converts element i of raw (dtype d) to T with ToChecked, the
// scalar path, as the independent expectation for ReadInto's checked errors.
func checkedOne[T convert.Number](d DType, raw []byte, codes []uint8, i int, m round.Mode) error {
	var err error
	le := binary.LittleEndian
	switch d {
	case BOOL, U8:
		_, err = convert.ToChecked[T](raw[i], m)
	case I8:
		_, err = convert.ToChecked[T](int8(raw[i]), m)
	case U16:
		_, err = convert.ToChecked[T](le.Uint16(raw[2*i:]), m)
	case I16:
		_, err = convert.ToChecked[T](int16(le.Uint16(raw[2*i:])), m)
	case U32:
		_, err = convert.ToChecked[T](le.Uint32(raw[4*i:]), m)
	case I32:
		_, err = convert.ToChecked[T](int32(le.Uint32(raw[4*i:])), m)
	case U64:
		_, err = convert.ToChecked[T](le.Uint64(raw[8*i:]), m)
	case I64:
		_, err = convert.ToChecked[T](int64(le.Uint64(raw[8*i:])), m)
	case F16:
		_, err = convert.ToChecked[T](half.Half(le.Uint16(raw[2*i:])), m)
	case BF16:
		_, err = convert.ToChecked[T](bfloat16.BFloat16(le.Uint16(raw[2*i:])), m)
	case F32:
		_, err = convert.ToChecked[T](math.Float32frombits(le.Uint32(raw[4*i:])), m)
	case F64:
		_, err = convert.ToChecked[T](math.Float64frombits(le.Uint64(raw[8*i:])), m)
	case F8_E4M3:
		_, err = convert.ToChecked[T](fp8.E4M3(raw[i]), m)
	case F8_E5M2:
		_, err = convert.ToChecked[T](fp8.E5M2(raw[i]), m)
	case F8_E4M3FNUZ:
		_, err = convert.ToChecked[T](fp8.E4M3FNUZ(raw[i]), m)
	case F8_E5M2FNUZ:
		_, err = convert.ToChecked[T](fp8.E5M2FNUZ(raw[i]), m)
	default:
		_, err = convert.ToChecked[T](mxValue(d, codes[i]), m)
	}
	return err
}

// variant is how ReadInto converts: plain, _sat or checked.
type variant int

const (
	plain variant = iota
	sat
	checked
)

func (v variant) opts(m round.Mode) ReadOptions {
	return ReadOptions{Mode: m, Sat: v == sat, Checked: v == checked}
}

// expectation is what ReadInto must give for one tensor, T and options.
type expectation struct {
	bytes []byte // little-endian result
	bad   int    // the first element a checked conversion rejects, or -1
}

// expect computes the expectation independently of ReadInto: convert.Bytes
// on the whole raw buffer for the kinds, convert.Bits of each independently
// decoded value for the MX formats, ToChecked per element for the errors.
func expect[T convert.Number](d DType, raw []byte, n int, v variant, m round.Mode) expectation {
	dk := convert.KindOf[T]()
	size := dk.Size()
	conv := func(sat bool) []byte {
		out := make([]byte, n*size)
		if !isMX(d) {
			sk := d.Kind()
			if d == BOOL {
				sk = cltype.Uchar
			}
			if err := convert.Bytes(dk, sk, out, raw, m, sat); err != nil {
				panic(err)
			}
			return out
		}
		for i, c := range mxCodes(d, raw, n) {
			bits, _ := convert.Bits(dk, cltype.Double, math.Float64bits(mxValue(d, c)), m, sat)
			for k := range size {
				out[i*size+k] = byte(bits >> (8 * k))
			}
		}
		return out
	}
	e := expectation{bytes: conv(v != plain), bad: -1}
	if v == checked {
		// SliceChecked gives each element ToChecked's value: ToSat's for a
		// rejected element, To's otherwise (they differ for an infinity to
		// bfloat16 or FP8, which stays infinite or NaN without _sat).
		var codes []uint8
		if isMX(d) {
			codes = mxCodes(d, raw, n)
		}
		e.bytes = conv(false)
		satb := conv(true)
		for i := range n {
			if checkedOne[T](d, raw, codes, i, m) != nil {
				if e.bad < 0 {
					e.bad = i
				}
				copy(e.bytes[i*size:(i+1)*size], satb[i*size:])
			}
		}
	}
	return e
}

// roundTrip is one file of every dtype and the ways to open it.
type roundTrip struct {
	file []byte
	raw  map[string][]byte
	n    int
}

func makeRoundTrip(t testing.TB, n int, sorted bool) *roundTrip {
	rng := rand.New(rand.NewPCG(1, 2))
	rt := &roundTrip{raw: map[string][]byte{}, n: n}
	var ts []TensorInfo
	for _, d := range DTypes {
		name := "t." + d.String()
		ts = append(ts, TensorInfo{Name: name, DType: d, Shape: []int64{int64(n / 4), 2, 2}})
		rt.raw[name] = sample(d, n, rng)
	}
	if sorted {
		SortTensors(ts)
	}
	var data [][]byte
	for _, x := range ts {
		data = append(data, rt.raw[x.Name])
	}
	rt.file = writeAll(t, ts, data, map[string]string{"k": "v"})
	return rt
}

// openers are the ways TestRoundTrip opens a file: in memory (converting
// from it), through an io.ReaderAt (a chunk buffer), mapped by Open, and in
// memory at an odd address (misaligned: the buffer path again).
var openers = []struct {
	name string
	open func(t testing.TB, file []byte) *File
}{
	{"ReadBytes", func(t testing.TB, file []byte) *File {
		f, err := ReadBytes(file)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}},
	{"Read", func(t testing.TB, file []byte) *File {
		f, err := Read(bytes.NewReader(file), int64(len(file)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}},
	{"Open", func(t testing.TB, file []byte) *File {
		path := filepath.Join(t.TempDir(), "x.safetensors")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}},
	{"ReadBytes misaligned", func(t testing.TB, file []byte) *File {
		buf := make([]byte, len(file)+1)
		copy(buf[1:], file)
		f, err := ReadBytes(buf[1:])
		if err != nil {
			t.Fatal(err)
		}
		return f
	}},
}

// check reads every tensor of f into T with the options that pick chooses
// and compares the result with expect's.
func check[T convert.Number](t *testing.T, rt *roundTrip, f *File, pick func(di int) [][2]int) {
	t.Helper()
	var z T
	for di, d := range DTypes {
		ti, ok := f.Lookup("t." + d.String())
		if !ok {
			t.Fatalf("no tensor of %s", d)
		}
		raw := rt.raw[ti.Name]
		for _, p := range pick(di) {
			v, m := variant(p[0]), round.Mode(p[1])
			want := expect[T](d, raw, rt.n, v, m)
			dst := make([]T, rt.n)
			err := ReadInto(f, ti, dst, v.opts(m))
			what := fmt.Sprintf("%s -> %T %s variant %d", d, z, m, v)
			if got := leBytes(dst); !bytes.Equal(got, want.bytes) {
				i := 0
				for got[i] == want.bytes[i] {
					i++
				}
				i /= int(convert.KindOf[T]().Size())
				t.Fatalf("%s: element %d: got %v, want bytes % x", what, i, dst[i], want.bytes[i*convert.KindOf[T]().Size():][:convert.KindOf[T]().Size()])
			}
			if want.bad < 0 {
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				continue
			}
			var fe *FormatError
			var re *convert.RangeError
			if !errors.As(err, &fe) || !errors.As(err, &re) || !errors.Is(err, convert.ErrRange) {
				t.Fatalf("%s: error %v, want a range error at element %d", what, err, want.bad)
			}
			off := f.DataOffset() + ti.Begin + int64(want.bad*d.Bits()/8)
			if re.Index != want.bad || fe.Offset != off || fe.Tensor != ti.Name ||
				!strings.Contains(err.Error(), fmt.Sprintf("safetensors: offset %d: tensor %q: convert: element %d: ", off, ti.Name, want.bad)) {
				t.Fatalf("%s: error %v (index %d, offset %d), want element %d at offset %d", what, err, re.Index, fe.Offset, want.bad, off)
			}
		}
	}
}

// checkAll runs check for every destination type.
func checkAll(t *testing.T, rt *roundTrip, f *File, pick func(di, ti int) [][2]int) {
	p := func(ti int) func(int) [][2]int { return func(di int) [][2]int { return pick(di, ti) } }
	check[int8](t, rt, f, p(0))
	check[uint8](t, rt, f, p(1))
	check[int16](t, rt, f, p(2))
	check[uint16](t, rt, f, p(3))
	check[int32](t, rt, f, p(4))
	check[uint32](t, rt, f, p(5))
	check[int64](t, rt, f, p(6))
	check[uint64](t, rt, f, p(7))
	check[half.Half](t, rt, f, p(8))
	check[float32](t, rt, f, p(9))
	check[float64](t, rt, f, p(10))
	check[bfloat16.BFloat16](t, rt, f, p(11))
	check[fp8.E4M3](t, rt, f, p(12))
	check[fp8.E5M2](t, rt, f, p(13))
}

// TestRoundTrip writes one tensor of every dtype with Writer, reads the file
// back every way, and converts every tensor to every type, comparing
// bit-exactly with convert.Bytes (or convert.Bits of the MX formats'
// independently decoded values) and checked errors with convert.ToChecked
// element by element. The first pass runs every mode and variant; the
// others (other openers, small chunks) one combination per tensor and type,
// varied over the matrix.
func TestRoundTrip(t *testing.T) {
	const n = 1000
	every := func(di, ti int) [][2]int {
		var all [][2]int
		for v := range 3 {
			for m := range 4 {
				all = append(all, [2]int{v, m})
			}
		}
		return all
	}
	one := func(seed int) func(di, ti int) [][2]int {
		return func(di, ti int) [][2]int {
			k := di*14 + ti + seed
			return [][2]int{{k % 3, k / 3 % 4}}
		}
	}
	for _, sorted := range []bool{false, true} {
		rt := makeRoundTrip(t, n, sorted)
		for oi, o := range openers {
			for ci, chunk := range []int{64 << 10, 100} {
				name := fmt.Sprintf("sorted=%v/%s/chunk=%d", sorted, o.name, chunk)
				t.Run(name, func(t *testing.T) {
					defer func(c int) { chunkBytes = c }(chunkBytes)
					chunkBytes = chunk
					f := o.open(t, rt.file)
					for _, x := range f.Tensors {
						b, err := io.ReadAll(f.Section(&x))
						if err != nil || !bytes.Equal(b, rt.raw[x.Name]) {
							t.Fatalf("Section(%s): % x, %v", x.Name, b[:min(len(b), 8)], err)
						}
					}
					pick := one(oi*2 + ci)
					if !sorted && oi == 0 && ci == 0 {
						pick = every
					}
					checkAll(t, rt, f, pick)
				})
			}
		}
	}
}

func TestReadTensor(t *testing.T) {
	info, b, _ := Encode("w", []int64{2, 3}, []float32{1.5, -2.5, 3.25, 1e10, float32(math.NaN()), -0.5})
	file := writeAll(t, []TensorInfo{info}, [][]byte{b}, nil)
	f, err := ReadBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadTensor[int16](f, "w", ReadOptions{Mode: round.RTE, Checked: true})
	want := []int16{2, -2, 3, 32767, 0, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) || !errors.Is(err, convert.ErrRange) ||
		!strings.Contains(err.Error(), fmt.Sprintf("safetensors: offset %d: tensor \"w\": convert: element 3: float 1e+10 is too large for short (max 32767) in rte", f.DataOffset()+12)) {
		t.Errorf("ReadTensor checked: %v, %v", got, err)
	}
	got, err = ReadTensor[int16](f, "w", ReadOptions{Mode: round.RTZ})
	if fmt.Sprint(got) != "[1 -2 3 32767 0 0]" || err != nil {
		t.Errorf("ReadTensor rtz: %v, %v", got, err)
	}
	if _, err := ReadTensor[float32](f, "v", ReadOptions{}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `tensor "v": no tensor of that name`) {
		t.Errorf("ReadTensor of a missing name: %v", err)
	}
}

func TestReadIntoErrors(t *testing.T) {
	bools := []byte{1, 0, 1, 2, 1}
	e8 := []byte{127, 128, 0xff}
	ts := []TensorInfo{
		{Name: "b", DType: BOOL, Shape: []int64{5}},
		{Name: "e", DType: F8_E8M0, Shape: []int64{3}},
		{Name: "f", DType: F32, Shape: []int64{2}},
	}
	file := writeAll(t, ts, [][]byte{bools, e8, f32le(1, 2)}, nil)
	f, err := ReadBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := f.Lookup("b")
	e, _ := f.Lookup("e")
	fl, _ := f.Lookup("f")
	dst := make([]float32, 5)
	err = ReadInto(f, b, dst, ReadOptions{})
	if !strings.Contains(fmt.Sprint(err), fmt.Sprintf("offset %d: tensor \"b\": BOOL element 3 is 0x02, not 0 or 1", f.DataOffset()+3)) {
		t.Errorf("BOOL 2: %v", err)
	}
	u := make([]uint8, 3)
	err = ReadInto(f, e, u, ReadOptions{Checked: true})
	if fmt.Sprint(u) != "[1 2 0]" || !errors.Is(err, convert.ErrRange) || !strings.Contains(err.Error(), "element 2: double NaN has no uchar value") {
		t.Errorf("E8M0 NaN to uchar: %v %v", u, err)
	}
	for _, c := range []struct {
		name string
		ti   *TensorInfo
		dst  []float32
		opt  ReadOptions
		msg  string
	}{
		{"short destination", fl, make([]float32, 1), ReadOptions{}, `tensor "f": the destination holds 1 elements, the tensor 2`},
		{"bad mode", fl, make([]float32, 2), ReadOptions{Mode: 4}, "invalid rounding mode"},
		{"forged past the end", &TensorInfo{Name: "x", DType: F32, Shape: []int64{100}, Begin: 0, End: 400}, make([]float32, 100), ReadOptions{}, `tensor "x": data_offsets [0, 400) run past the end of the data`},
		{"forged size", &TensorInfo{Name: "x", DType: F32, Shape: []int64{2}, Begin: 0, End: 4}, make([]float32, 2), ReadOptions{}, "needs 8 bytes"},
		{"forged negative", &TensorInfo{Name: "x", DType: U8, Shape: []int64{2}, Begin: -2, End: 0}, make([]float32, 2), ReadOptions{}, "are negative"},
		{"forged dtype", &TensorInfo{Name: "x", Shape: []int64{2}, Begin: 0, End: 2}, make([]float32, 2), ReadOptions{}, "invalid dtype DType(0)"},
		{"forged shape", &TensorInfo{Name: "x", DType: U8, Shape: []int64{-1, -2}, Begin: 0, End: 2}, make([]float32, 2), ReadOptions{}, "negative dimension"},
		{"nil", nil, nil, ReadOptions{}, "nil TensorInfo"},
	} {
		err := ReadInto(f, c.ti, c.dst, c.opt)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
	}

	// A closed mapped file fails cleanly, Sections made before Close too.
	path := filepath.Join(t.TempDir(), "x.safetensors")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	of, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ofl, _ := of.Lookup("f")
	sec := of.Section(ofl)
	if err := of.Close(); err != nil {
		t.Fatal(err)
	}
	if err := of.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := ReadInto(of, ofl, make([]float64, 2), ReadOptions{}); !errors.Is(err, os.ErrClosed) {
		t.Errorf("ReadInto after Close: %v", err)
	}
	if err := ReadInto(of, ofl, make([]float32, 2), ReadOptions{}); !errors.Is(err, os.ErrClosed) {
		t.Errorf("ReadInto (copy) after Close: %v", err)
	}
	if _, err := io.ReadAll(sec); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Section after Close: %v", err)
	}
}

// faultyReader fails or comes up short after good bytes.
type faultyReader struct {
	data []byte
	good int64
	err  error
}

func (r *faultyReader) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) <= r.good {
		return copy(p, r.data[off:]), nil
	}
	n := 0
	if off < r.good {
		n = copy(p, r.data[off:r.good])
	}
	return n, r.err
}

func TestReaderFaults(t *testing.T) {
	info, b, _ := Encode("w", []int64{3}, []float32{1, 2, 3})
	file := writeAll(t, []TensorInfo{info}, [][]byte{b}, nil)
	dataOff := int64(len(file) - 12)
	boom := errors.New("I/O error")
	for _, c := range []struct {
		name string
		good int64
		err  error
		at   int64 // where the failure shows
		read bool  // Read succeeds and ReadInto fails
		is   error
	}{
		{"header length", 3, boom, 3, false, boom},
		{"header", 20, io.EOF, 20, false, ErrTruncated},
		{"data", dataOff + 5, boom, dataOff + 5, true, boom},
		{"data short", dataOff + 4, io.EOF, dataOff + 4, true, ErrTruncated},
	} {
		r := &faultyReader{data: file, good: c.good, err: c.err}
		f, err := Read(r, int64(len(file)))
		if c.read {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			err = ReadInto(f, &f.Tensors[0], make([]float64, 3), ReadOptions{})
		}
		var fe *FormatError
		if !errors.As(err, &fe) || !errors.Is(err, c.is) || fe.Offset != c.at {
			t.Errorf("%s: %v, want %v at %d", c.name, err, c.is, c.at)
		}
		if c.read && fe.Tensor != "w" {
			t.Errorf("%s: %v does not name the tensor", c.name, err)
		}
	}
}

// TestCheckedAcrossChunks puts the first bad element of a large tensor in a
// later chunk and checks its index and offset, and that every element is
// still converted.
func TestCheckedAcrossChunks(t *testing.T) {
	const n = 70_000
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i%200) - 100.25
	}
	xs[66_000] = float32(math.Inf(-1))
	xs[69_999] = float32(math.NaN())
	info, b, _ := Encode("big", []int64{n}, xs)
	file := writeAll(t, []TensorInfo{{Name: "pad", DType: U8, Shape: []int64{3}}, info}, [][]byte{{1, 2, 3}, b}, nil)
	for _, o := range openers {
		f := o.open(t, file)
		got, err := ReadTensor[int8](f, "big", ReadOptions{Mode: round.RTN, Checked: true})
		var re *convert.RangeError
		var fe *FormatError
		if !errors.As(err, &re) || !errors.As(err, &fe) || re.Index != 66_000 || fe.Offset != f.DataOffset()+3+4*66_000 || re.Cause != convert.CauseTooSmall {
			t.Errorf("%s: %v", o.name, err)
		}
		want := make([]int8, n)
		convert.SliceSat(want, xs, round.RTN)
		if !bytes.Equal(leBytes(got), leBytes(want)) {
			t.Errorf("%s: values differ from SliceSat's", o.name)
		}
	}
}
