package clc

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/value"
)

// FuzzEval checks that the lexer, preprocessor, parser and evaluator never
// panic, always answer a value or an *Error with a valid position, answer the
// same way twice, and take bounded time.
func FuzzEval(f *testing.F) {
	for _, s := range []string{
		"convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))",
		"convert_half_rtz((short)32767)",
		"as_float(0x3dcccccd)",
		"as_char4(0x04030201)",
		"as_double4((float4)(1.0f))",
		"convert_int2((int4)(1))",
		"(float4)((float2)(1.0f, 2.0f), 3.0f, 4.0f)",
		"convert_double_rtp((long)(1L<<53) + 1)",
		"-0x1.000002p-25f",
		"2049.0000000000000001h",
		"(unsigned long int)-1 / 0",
		"INT_MIN % -1",
		"as_int4(as_float3((int4)(1, 2, 3, 4)))",
		"1 /* c */ + // d\n 2",
		"(char16)(1) << (char16)(9)",
		"convert_ulong_sat_rtp(-INFINITY)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<12 {
			return
		}
		start := time.Now()
		var ev Evaluator
		ev.Warn = func(w *Error) {
			if !w.Warning || !w.Pos.IsValid() {
				t.Errorf("bad warning %#v", w)
			}
		}
		v, err := ev.EvalString("f", src)
		if d := time.Since(start); d > time.Second {
			t.Errorf("%q took %v", src, d)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: error %T is not an *Error: %v", src, err, err)
			}
			if !e.Pos.IsValid() || e.Pos.Offset > len(src) || e.Msg == "" {
				t.Fatalf("%q: bad error %#v", src, e)
			}
			_ = e.Detail()
			return
		}
		s := value.Format(v, false)
		if !strings.HasPrefix(s, "("+v.Type.String()+")") {
			t.Fatalf("%q: Format = %s for type %v", src, s, v.Type)
		}
		for i := range v.Type.Storage() {
			if v.Type.Kind.IsInteger() || v.Type.Kind.IsFloat() {
				if v.Lanes[i]&^v.Type.Kind.Mask() != 0 {
					t.Fatalf("%q = %v: lane %d = %#x is wider than %v", src, s, i, v.Lanes[i], v.Type.Kind)
				}
			}
		}
		for i := v.Type.Storage(); i < value.MaxLanes; i++ {
			if v.Lanes[i] != 0 {
				t.Fatalf("%q = %v: lane %d past the storage is %#x", src, s, i, v.Lanes[i])
			}
		}
		var again Evaluator
		w, err := again.EvalString("f", src)
		if err != nil || !w.Equal(v) {
			t.Fatalf("%q: %v, then %v, %v", src, v, w, err)
		}
	})
}
