package convert_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// To is convert_<D>_<mode>: it rounds in the mode you give, and converts
// between integers by keeping the low bits. round.RTE and convert.RTE are
// the same constant.
func ExampleTo() {
	fmt.Println(convert.To[int32](float32(-2.5), round.RTE))
	fmt.Println(convert.To[int32](float32(-2.5), convert.RTN))
	fmt.Println(convert.To[uint8](int32(300), round.RTZ))
	fmt.Println(convert.To[float32](int32(16777217), round.RTP))
	// Output:
	// -2
	// -3
	// 44
	// 1.6777218e+07
}

// ToSat is convert_<D>_sat_<mode>: out-of-range values clamp to the limits,
// and NaN gives 0.
func ExampleToSat() {
	fmt.Println(convert.ToSat[uint8](int32(300), round.RTZ))
	fmt.Println(convert.ToSat[int8](float32(-128.5), round.RTN))
	fmt.Println(convert.ToSat[int32](math.NaN(), round.RTE))
	// Output:
	// 255
	// -128
	// 0
}

// ToChecked returns an error for NaN to an integer type, a value outside an
// integer type's range, and a finite value that overflows a floating type;
// the error matches ErrRange and holds a *RangeError.
func ExampleToChecked() {
	v, err := convert.ToChecked[uint8](float32(254.5), round.RTE)
	fmt.Println(v, err)

	_, err = convert.ToChecked[int8](float32(300), round.RTZ)
	fmt.Println(err)
	fmt.Println(errors.Is(err, convert.ErrRange))
	var re *convert.RangeError
	if errors.As(err, &re) {
		fmt.Println(re.Src, re.Dst, re.Cause, re.Value)
	}

	// In rtz a half overflows to its largest finite value, 65504: still an error.
	h, err := convert.ToChecked[half.Half](float32(1e6), round.RTZ)
	fmt.Printf("%#04x %v\n", uint16(h), err)
	// Output:
	// 254 <nil>
	// convert: float 300 is too large for char (max 127) in rtz
	// true
	// float char too large 300
	// 0x7bff convert: float 1e+06 overflows half (max 65504) in rtz
}

func ExampleSliceSat() {
	dst := make([]uint8, 4)
	convert.SliceSat(dst, []float32{-5.0, 254.5, 254.6, 1.2e9}, round.RTE)
	fmt.Println(dst)
	// Output: [0 254 255 255]
}

// SliceChecked converts every element, as SliceSat does, and names the
// first one that did not fit.
func ExampleSliceChecked() {
	samples := []float32{0.5, 12.25, float32(math.NaN()), 300, 7}
	dst := make([]uint8, len(samples))
	n, err := convert.SliceChecked(dst, samples, round.RTE)
	fmt.Println(n, dst)
	fmt.Println(err)
	var re *convert.RangeError
	if errors.As(err, &re) {
		fmt.Println("first bad element:", re.Index, re.Cause)
	}
	// Output:
	// 5 [0 12 0 255 7]
	// convert: element 2: float NaN has no uchar value (2 of 5 elements fail)
	// first bad element: 2 NaN
}

// Bytes converts little-endian buffers whose types are known only at run
// time, such as the contents of a file.
func ExampleBytes() {
	src := make([]byte, 8)
	binary.LittleEndian.PutUint32(src[0:], math.Float32bits(254.5))
	binary.LittleEndian.PutUint32(src[4:], math.Float32bits(1e9))
	dst := make([]byte, 2)
	err := convert.Bytes(cltype.Uchar, cltype.Float, dst, src, round.RTE, true)
	fmt.Println(dst, err)
	// Output: [254 255] <nil>
}

// Types defined on the numeric types convert as their underlying types;
// half.Half is half.
func Example_namedTypes() {
	type Celsius float32
	type Sample uint16

	fmt.Println(convert.To[int16](Celsius(2.5), round.RTE))
	fmt.Println(convert.KindOf[Celsius](), convert.KindOf[Sample](), convert.KindOf[half.Half]())

	temps := []Celsius{-40, 21.5, 1e6}
	samples := make([]Sample, len(temps))
	fmt.Println(convert.SliceChecked(samples, temps, round.RTZ))
	fmt.Println(samples)
	// Output:
	// 2
	// float ushort half
	// 3 convert: element 0: float -40 is too small for ushort (min 0) in rtz (2 of 3 elements fail)
	// [0 21 65535]
}

// The small floating formats convert like the other types; _sat is OCP's
// saturating mode for them, and a checked conversion reports an overflow.
func Example_smallFormats() {
	fmt.Printf("%#v\n", convert.To[fp8.E4M3](float32(464), convert.RTE)) // a tie: the even 448
	fmt.Printf("%#v\n", convert.To[fp8.E4M3](float32(480), convert.RTE)) // overflow: NaN
	fmt.Printf("%#v\n", convert.ToSat[fp8.E4M3](float32(480), convert.RTE))
	b := make([]bfloat16.BFloat16, 3)
	convert.Slice(b, []float32{0.1, 3.4e38, -1}, convert.RTZ) // rtz: overflow gives MAX
	fmt.Printf("%#v %#v %#v\n", b[0], b[1], b[2])
	i, err := convert.ToChecked[int8](fp8.E5M2(0x5c), convert.RTZ) // 256
	fmt.Println(i, err)
	// Output:
	// 0x7e
	// 0x7f
	// 0x7e
	// 0x3dcc 0x7f7f 0xbf80
	// 127 convert: e5m2 256 is too large for char (max 127) in rtz
}
