package half_test

import (
	"fmt"
	"slices"

	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// A float32 rounded to half in each mode and widened back, exactly. %v prints
// the shortest decimal that reads back to the same half; %f shows the value.
func Example_roundTrip() {
	x := float32(0.1)
	for _, m := range round.Modes {
		h := half.FromFloat32(x, m)
		back := h.Float32()
		fmt.Printf("%s: %#04x %v %.10f %v\n", m, h.Bits(), h, h, back)
	}
	// Output:
	// rte: 0x2e66 0.1 0.0999755859 0.099975586
	// rtz: 0x2e66 0.1 0.0999755859 0.099975586
	// rtp: 0x2e67 0.10004 0.1000366211 0.10003662
	// rtn: 0x2e66 0.1 0.0999755859 0.099975586
}

// Half formats as Go formats floats, with flags, width and precision.
// Println uses %v; String keeps OpenCL's spelling of infinities and NaNs.
func ExampleHalf_Format() {
	h := half.FromFloat64(1.5, round.RTE)
	fmt.Printf("%v %.2f %e %g %x %b\n", h, h, h, h, h, h)
	fmt.Printf("[%8.3f] [%-8v] [%+08.2f]\n", h, h, -h.Float64())
	fmt.Printf("%v %.3v\n", half.Half(0x2e66), half.Half(0x2e66))
	fmt.Println(half.MaxHalf, half.MinSub, half.NegInf, half.QNaN)
	fmt.Println(half.NegInf.String(), half.QNaN.String())
	fmt.Printf("%d %#v %#04x\n", h, h, h.Bits())
	// Output:
	// 1.5 1.50 1.500000e+00 1.5 0x1.8p+00 1536p-10
	// [   1.500] [1.5     ] [-0001.50]
	// 0.1 0.1
	// 65500 6e-08 -Inf NaN
	// -inf nan
	// %!d(half.Half=1.5) 0x3e00 0x3e00
}

// == compares bit patterns; Compare and Less compare numbers, as
// cmp.Compare and cmp.Less do for floats.
func ExampleCompare() {
	pz, nz := half.Half(0x0000), half.Half(0x8000)
	one, minusOne := half.Half(0x3c00), half.Half(0xbc00)
	fmt.Println(pz == nz, half.Compare(pz, nz), pz.Float64() == nz.Float64())
	fmt.Println(minusOne < one, half.Less(minusOne, one))
	fmt.Println(half.QNaN == half.QNaN, half.Compare(half.QNaN, half.QNaN), half.Less(half.QNaN, half.NegInf))

	hs := []half.Half{one, half.QNaN, nz, minusOne, half.PosInf, pz}
	slices.SortFunc(hs, half.Compare)
	fmt.Println(hs)
	// Output:
	// false 0 true
	// false true
	// true 0 true
	// [NaN -1 -0 0 1 +Inf]
}

func ExampleHalf_IsFinite() {
	for _, h := range []half.Half{half.MaxHalf, half.MinSub, half.PosInf, half.QNaN} {
		fmt.Printf("%-6v finite=%-5v inf=%-5v nan=%v\n", h, h.IsFinite(), h.IsInf(), h.IsNaN())
	}
	// Output:
	// 65500  finite=true  inf=false nan=false
	// 6e-08  finite=true  inf=false nan=false
	// +Inf   finite=false inf=true  nan=false
	// NaN    finite=false inf=false nan=true
}
