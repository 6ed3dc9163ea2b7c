package value_test

import (
	"fmt"
	"math"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

// A vector conversion by its OpenCL C name: the book's convert_uchar4_sat_rte.
func ExampleConvert() {
	op, _ := convert.ParseName("convert_uchar4_sat_rte")
	f := value.New(cltype.Vec(cltype.Float, 4),
		uint64(math.Float32bits(-5)), uint64(math.Float32bits(254.5)),
		uint64(math.Float32bits(254.6)), uint64(math.Float32bits(1.2e9)))
	v, _ := value.Convert(f, op, round.RTE)
	fmt.Println(v)
	fmt.Println(value.Format(v, true))
	// Output:
	// (uchar4)(0, 254, 255, 255)
	// (uchar4)(0x00, 0xfe, 0xff, 0xff)
}

// as_type reinterprets bits; sizes must match.
func ExampleAs() {
	v, _ := value.As(value.FromInt64(cltype.Int, 0x04030201), cltype.Vec(cltype.Char, 4))
	fmt.Println(v)
	_, err := value.As(value.New(cltype.Vec(cltype.Float, 4)), cltype.Vec(cltype.Double, 4))
	fmt.Println(err)
	// Output:
	// (char4)(1, 2, 3, 4)
	// as_double4 needs an operand of 32 bytes, got float4 (16 bytes)
}

// Vector arithmetic lane by lane, correctly rounded in the mode a
// SELECT_ROUNDING_MODE pragma would select: 1/3 in rtn and rtp brackets the
// exact value.
func ExampleBinary() {
	one, _ := value.Broadcast(value.FromFloat64(cltype.Float, 1), 2)
	three, _ := value.Broadcast(value.FromFloat64(cltype.Float, 3), 2)
	lo, _ := value.Binary(value.Div, one, three, round.RTN)
	hi, _ := value.Binary(value.Div, one, three, round.RTP)
	fmt.Println(lo, value.Format(lo, true))
	fmt.Println(hi, value.Format(hi, true))
	// Output:
	// (float2)(0.3333333, 0.3333333) (float2)(0x3eaaaaaa, 0x3eaaaaaa)
	// (float2)(0.33333334, 0.33333334) (float2)(0x3eaaaaab, 0x3eaaaaab)
}
