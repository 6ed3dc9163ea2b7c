package clc_test

import (
	"errors"
	"fmt"

	"github.com/clconv/clconv/clc"
)

func ExampleInterp_Run() {
	src := `#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable
float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);
uchar4 c = convert_uchar4_sat_rte(f);
#pragma OPENCL SELECT_ROUNDING_MODE rtz
float third = 1.0f / 3.0f;
int4 less = f < 254.55f;
`
	var in clc.Interp
	if err := in.Run("example.cl", src); err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range in.Vars() {
		fmt.Println(v.Name, "=", v.Value)
	}
	// Output:
	// f = (float4)(-5, 254.5, 254.6, 1.2e+09)
	// c = (uchar4)(0, 254, 255, 255)
	// third = (float)0.3333333
	// less = (int4)(-1, -1, 0, 0)
}

func ExampleInterp_Run_error() {
	src := `float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);
ushort4 c = convert_uchar4_sat_rte(f);
`
	var in clc.Interp
	err := in.Run("book.cl", src)
	var list clc.ErrorList
	if errors.As(err, &list) {
		fmt.Println(list[0].Detail())
	}
	// Output:
	// book.cl:2:13: initializing c: implicit conversion from uchar4 to ushort4 is not allowed: OpenCL C has no implicit conversions between vector types (use convert_ushort4() to convert the elements, or declare c as uchar4)
	// ushort4 c = convert_uchar4_sat_rte(f);
	//             ^
}

func ExampleInterp_Exec() {
	var in clc.Interp
	for i, line := range []string{"int x = 6", "x *= 7", "x", "(float2)(x, 0.5f).yx"} {
		res, err := in.Exec("<repl>", i+1, line)
		if err != nil {
			fmt.Println(err)
		}
		for _, r := range res {
			if r.Name != "" {
				fmt.Print(r.Name, " = ")
			}
			fmt.Println(r.Value)
		}
	}
	// Output:
	// x = (int)6
	// x = (int)42
	// (int)42
	// (float2)(0.5, 42)
}

func ExampleEvaluator_EvalString() {
	var ev clc.Evaluator
	for _, src := range []string{
		"convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))",
		"as_float(0x3dcccccd)",
		"convert_int2((int4)(1))",
	} {
		v, err := ev.EvalString("<expr>", src)
		var e *clc.Error
		if errors.As(err, &e) {
			fmt.Println(e.Detail())
			continue
		}
		fmt.Println(v)
	}
	// Output:
	// (uchar4)(0, 254, 255, 255)
	// (float)0.1
	// <expr>:1:14: convert_int2 needs a 2-element operand, got int4
	// convert_int2((int4)(1))
	//              ^
}
