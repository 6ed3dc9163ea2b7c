package mx_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/mx"
)

// TestUnknownFormat: a *Format that is not one of the package's (built
// field by field, copied, or one of them with a field changed) is refused
// by every entry point with ErrUnknownFormat, instead of being quantized by
// the tables of another format (a literal's hidden id is E4M3's).
func TestUnknownFormat(t *testing.T) {
	copied := *mx.MXFP4
	bad := map[string]*mx.Format{
		"nil": nil,
		"literal with MXFP4's fields": {Name: mx.MXFP4.Name, Elem: mx.MXFP4.Elem, BlockSize: mx.MXFP4.BlockSize,
			Scale: mx.MXFP4.Scale, TensorScale: mx.MXFP4.TensorScale},
		"copy of MXFP4":              &copied,
		"literal, block size 16":     {Name: "mxfp4-16", Elem: minifloat.E2M1, BlockSize: 16, Scale: minifloat.E8M0},
		"literal, E5M2 elements":     {Name: "mxfp8-e5m2", Elem: minifloat.E5M2, BlockSize: 32, Scale: minifloat.E8M0},
		"literal of MXFP8E4M3's":     {Name: "mxfp8-e4m3", Elem: minifloat.E4M3, BlockSize: 32, Scale: minifloat.E8M0},
		"zero Format":                {},
		"NVFP4 without its scale":    {Name: "nvfp4", Elem: minifloat.E2M1, BlockSize: 16, Scale: minifloat.E4M3},
		"literal with E8M0 elements": {Name: "x", Elem: minifloat.E8M0, BlockSize: 32, Scale: minifloat.E8M0},
	}
	src := make([]float32, 64)
	for i := range src {
		src[i] = float32(i) - 20.5
	}
	for name, f := range bad {
		elems, scales := make([]byte, 64), make([]byte, 4)
		_, err := mx.Quantize(f, elems, scales, src, 64, mx.Options{})
		checkUnknown(t, name, "Quantize", err)
		for i, b := range append(elems, scales...) {
			if b != 0 {
				t.Fatalf("%s: Quantize wrote byte %d = %#x before refusing the format", name, i, b)
			}
		}
		dst := make([]float32, 64)
		_, err = mx.Dequantize(f, dst, elems, scales, 64, mx.Options{TensorScale: 1})
		checkUnknown(t, name, "Dequantize", err)
		func() {
			defer func() { checkUnknown(t, name, "SharedExp", recover()) }()
			mx.SharedExp(f, mx.Floor, 7)
		}()
	}
}

// TestChangedFormat: a package format whose fields were changed is refused
// too (its tables are those of the format as made).
func TestChangedFormat(t *testing.T) {
	f := mx.MXFP4
	saved := *f
	defer func() { *f = saved }()
	f.BlockSize = 16
	elems, scales := make([]byte, 64), make([]byte, 4)
	_, err := mx.Quantize(f, elems, scales, make([]float32, 64), 64, mx.Options{})
	checkUnknown(t, "MXFP4 with BlockSize 16", "Quantize", err)
	if !strings.Contains(err.Error(), "was changed") {
		t.Errorf("%v: want it to say the fields were changed", err)
	}
	*f = saved
	if _, err := mx.Quantize(f, make([]byte, 64), make([]byte, 2), make([]float32, 64), 64, mx.Options{}); err != nil {
		t.Errorf("MXFP4 restored: %v", err)
	}
}

// TestKnownFormats: every format of the package, as the variables,
// Formats and ParseFormat give it, is accepted.
func TestKnownFormats(t *testing.T) {
	for _, f := range mx.Formats {
		g, err := mx.ParseFormat(f.Name)
		if err != nil || g != f {
			t.Fatalf("ParseFormat(%q) = %v, %v", f.Name, g, err)
		}
		blocks := 64 / f.BlockSize
		elems, scales := make([]byte, 64), make([]byte, blocks)
		src := make([]float32, 64)
		for i := range src {
			src[i] = float32(i) / 8
		}
		if _, err := mx.Quantize(f, elems, scales, src, 64, mx.Options{}); err != nil {
			t.Errorf("Quantize %s: %v", f, err)
		}
		if _, err := mx.Dequantize(f, make([]float32, 64), elems, scales, 64, mx.Options{TensorScale: 1}); err != nil {
			t.Errorf("Dequantize %s: %v", f, err)
		}
		mx.SharedExp(f, mx.RCEIL, 3)
	}
}

func checkUnknown(t *testing.T, name, op string, got any) {
	t.Helper()
	err, _ := got.(error)
	var me *mx.Error
	if !errors.Is(err, mx.ErrUnknownFormat) || !errors.As(err, &me) {
		t.Errorf("%s: %s = %v; want an *mx.Error wrapping ErrUnknownFormat", name, op, got)
		return
	}
	if strings.Contains(err.Error(), "mx: unknown format") {
		t.Errorf("%s: %s: %q repeats the sentinel", name, op, err)
	}
}
