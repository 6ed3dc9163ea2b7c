package clc

import (
	"fmt"
	"testing"
)

// TestOnConversion checks that the Evaluator reports each conversion, in
// the order they run, with its kind, position, function, operand and result.
func TestOnConversion(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"convert_half(65520.0f)", []string{"convert 1:1 convert_half float 65520 -> half inf"}},
		{"(int)-2.5f", []string{"cast 1:1 convert_int float -2.5 -> int -2"}},
		{"1 + 2.5f", []string{"implicit 1:3 convert_float int 1 -> float 1"}},
		{"(float2)(1, 2.0f)", []string{"cast 1:10 convert_float int 1 -> float 1"}},
		{"convert_int2_sat_rte((float2)(2.5f, 1e10f))", []string{"convert 1:1 convert_int2_sat_rte float2 (2.5, 1e+10) -> int2 (2, 2147483647)"}},
		{"convert_int(convert_float(16777217))", []string{"convert 1:13 convert_float int 16777217 -> float 16777216", "convert 1:1 convert_int float 16777216 -> int 16777216"}},
		// Only what runs: the condition picks one branch.
		{"1 ? 2 : (char)3.5f", nil},
		{"0 ? 2 : (char)3.5f", []string{"cast 1:9 convert_char float 3.5 -> char 3", "implicit 1:3 convert_int char 3 -> int 3"}},
		{"(float)1.0f + (float4)(1.0f)", nil},
		{"as_float(1)", nil},
	} {
		var got []string
		ev := &Evaluator{OnConversion: func(c Conversion) {
			got = append(got, fmt.Sprintf("%v %d:%d %s %v %v -> %v %v", c.Kind, c.Pos.Line, c.Pos.Col, c.Op.Name(), c.Src.Type, elems(c.Src), c.Result.Type, elems(c.Result)))
		}}
		if _, err := ev.EvalString("", tt.src); err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

func elems(v interface{ String() string }) string {
	s := v.String()
	if i := len(s); i > 0 && s[0] == '(' {
		for j := 1; j < len(s); j++ {
			if s[j] == ')' {
				return s[j+1:]
			}
		}
	}
	return s
}

// TestInterpOnConversion checks that an Interp reports the conversions of a
// run as the Evaluator does, in functions and loops too.
func TestInterpOnConversion(t *testing.T) {
	var got []string
	in := &Interp{OnConversion: func(c Conversion) {
		got = append(got, fmt.Sprintf("%v %d:%d %s %v", c.Kind, c.Pos.Line, c.Pos.Col, c.Op.Name(), elems(c.Src)))
	}}
	src := "int f(float x) { return convert_int_sat_rte(x); }\nint a = 0; for (int i = 0; i < 2; i++) a += f(i);"
	if err := in.Run("t", src); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"implicit 2:47 convert_float 0", "convert 1:25 convert_int_sat_rte 0",
		"implicit 2:47 convert_float 1", "convert 1:25 convert_int_sat_rte 1",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
