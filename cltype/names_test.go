package cltype_test

import (
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
)

func TestLookup(t *testing.T) {
	for name, want := range map[string]cltype.Kind{
		"uchar": cltype.Uchar, "half": cltype.Half, "bfloat16": cltype.BFloat16,
		"float16": cltype.Half, "float32": cltype.Float, "float64": cltype.Double,
		"int8": cltype.Char, "uint8": cltype.Uchar, "int16": cltype.Short, "uint16": cltype.Ushort,
		"int32": cltype.Int, "uint32": cltype.Uint, "int64": cltype.Long, "uint64": cltype.Ulong,
		"bf16": cltype.BFloat16, "BF16": cltype.BFloat16, "F16": cltype.Half, "F32": cltype.Float,
		"F64": cltype.Double, "I8": cltype.Char, "U8": cltype.Uchar, "U64": cltype.Ulong,
		"float8_e4m3fn": cltype.E4M3, "float8_e5m2": cltype.E5M2, "F8_E4M3": cltype.E4M3,
		"F8_E5M2": cltype.E5M2, "f8_e4m3": cltype.E4M3, "torch.bfloat16": cltype.BFloat16,
		"np.float16": cltype.Half, "Float16": cltype.Half, "fp32": cltype.Float,
		"e4m3fnuz": cltype.E4M3FNUZ, "float8_e4m3fnuz": cltype.E4M3FNUZ, "torch.float8_e4m3fnuz": cltype.E4M3FNUZ,
		"F8_E4M3FNUZ": cltype.E4M3FNUZ, "e5m2fnuz": cltype.E5M2FNUZ, "float8_e5m2fnuz": cltype.E5M2FNUZ,
		"F8_E5M2FNUZ": cltype.E5M2FNUZ,
	} {
		got, err := cltype.Lookup(name)
		if err != nil || got != want {
			t.Errorf("Lookup(%q) = %v, %v; want %v", name, got, err, want)
		}
		// Every alias keeps the width its name says.
		if got.Size() != want.Size() {
			t.Errorf("Lookup(%q): size %d, want %d", name, got.Size(), want.Size())
		}
	}
}

func TestLookupErrors(t *testing.T) {
	for name, want := range map[string]string{
		"float4":             `unknown type "float4"`, // an OpenCL vector, not a scalar
		"f4":                 `unknown type "f4"`,     // NumPy's float32 or safetensors' F4: refused, not guessed
		"i8":                 `unknown type "i8"`,
		"flaot":              `did you mean "float"`,
		"uchr":               `did you mean "uchar"`,
		"bfloat61":           `did you mean "bfloat16"`,
		"float8_e4m3b11fnuz": "bias 11",
		"bool":               "bool takes no part",
		"":                   "empty type name",
	} {
		_, err := cltype.Lookup(name)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Lookup(%q) = %v, want an error containing %q", name, err, want)
		}
	}
}

func TestNames(t *testing.T) {
	n := cltype.Names(cltype.Half)
	if n[0] != "half" || !strings.Contains(strings.Join(n, " "), "float16") {
		t.Errorf("Names(half) = %v", n)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"flaot", "float", 1}, {"conver_int", "convert_int", 1}, {"", "abc", 3}, {"abc", "abc", 0}, {"kitten", "sitting", 3}} {
		if d := cltype.EditDistance(c.a, c.b); d != c.d {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}
