package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/clc"
)

// exampleFiles returns the runnable examples (examples/*.cl but seeds.cl)
// and the error examples (examples/errors/*.cl), relative to the
// repository root.
func exampleFiles(t *testing.T) (legal, bad []string) {
	t.Helper()
	legal, err := filepath.Glob("examples/*.cl")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range legal {
		if f == filepath.Join("examples", "seeds.cl") {
			legal = append(legal[:i], legal[i+1:]...)
			break
		}
	}
	bad, err = filepath.Glob("examples/errors/*.cl")
	if err != nil {
		t.Fatal(err)
	}
	if len(legal) < 10 || len(bad) < 5 {
		t.Fatalf("found only %d examples and %d error examples", len(legal), len(bad))
	}
	return legal, bad
}

// TestExamples runs each example with clconv run --warn (seeds.cl without
// --warn) and compares what it prints (standard output, then standard error)
// with the .golden file beside it; go test -update rewrites the golden files. Error examples must fail,
// the others succeed.
func TestExamples(t *testing.T) {
	t.Chdir("../..")
	legal, bad := exampleFiles(t)
	files := append(append(legal, filepath.Join("examples", "seeds.cl")), bad...)
	for _, f := range files {
		args := []string{"run", "--warn", f}
		if f == filepath.Join("examples", "seeds.cl") {
			args = []string{"run", f} // its repeated names would fill the page
		}
		stdout, stderr, status := clconv(t, "", args...)
		wantStatus := 0
		if strings.HasPrefix(f, filepath.Join("examples", "errors")) {
			wantStatus = 1
		}
		if status != wantStatus {
			t.Errorf("clconv run %s: status %d, want %d\n%s", f, status, wantStatus, stderr)
		}
		checkGolden(t, strings.TrimSuffix(f, ".cl")+".golden", stdout+stderr)
	}
}

// checkGolden compares got with the golden file (or rewrites it with -update).
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

const seedsHeader = `// Every legal example of the seed documents in one file, in order:
//
//     go run ./cmd/clconv run examples/seeds.cl
//
// prints every variable they declare at top level with its final value.
// The examples reuse names (f, i, c, ...); each declaration at top level is a
// new variable, and all are printed (run --warn points the repeats out).
//
// This file is the concatenation of examples/*.cl; go test ./cmd/clconv
// -run TestSeedsFile -update rewrites it. Do not edit it by hand.
`

// TestSeedsFile checks that examples/seeds.cl is the concatenation of the
// legal examples.
func TestSeedsFile(t *testing.T) {
	t.Chdir("../..")
	legal, _ := exampleFiles(t)
	var b strings.Builder
	b.WriteString(seedsHeader)
	for _, f := range legal {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n// ==== " + filepath.ToSlash(f) + " ====\n")
		b.Write(src)
	}
	checkGolden(t, filepath.Join("examples", "seeds.cl"), b.String())
}

// TestSeedsAsWritten runs the seed documents' examples exactly as they are
// printed (the reference pages put some on one line; comments broken across
// lines are joined): the legal ones run, with uninitialized inputs at 0,
// and the ones the spec calls errors fail with the expected message.
func TestSeedsAsWritten(t *testing.T) {
	legal := []string{
		"uchar4 u;\nint4 c = convert_int4(u);",
		"float f;\nint i = convert_int(f);",
		"short4 s;\n// negative values clamped to 0\nushort4 u = convert_ushort4_sat( s );\n// values > CHAR_MAX converted to CHAR_MAX\n// values < CHAR_MIN converted to CHAR_MIN\nchar4 c = convert_char4_sat( s );",
		"float4 f;\nint4 i = convert_int4( f );\nint4 i2 = convert_int4_sat( f );\nint4 i3 = convert_int4_rte( f );\nint4 i4 = convert_int4_sat_rte( f );",
		"int4 i;\n// convert ints to floats using the default rounding mode.\nfloat4 f = convert_float4( i );\nfloat4 f = convert_float4_rtp( i );",
		"float x;\nint   i = (int)x;",
		"float x;\nint   i = (int)(x + 0.5f);",
		"short4 s; // negative values clamped to 0 ushort4 u = convert_ushort4_sat( s ); // values > CHAR_MAX converted to CHAR_MAX // values < CHAR_MIN converted to CHAR_MIN char4 c = convert_char4_sat( s ); ",
		"uchar4 u; int4 c = convert_int4(u); ",
		"float f = 1.0f; uint u = as_uint(f); // Legal. Contains: 0x3f800000",
		"float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f); // Legal. Contains: (int4)\n// (0x3f800000, 0x40000000, 0x40400000, 0x40800000)\nint4 i = as_int4(f);",
		"float4 f, g; int4 is_less = f < g; // Legal. f[i] = f[i] < g[i] ? f[i] : 0.0f\nf = as_float4(as_int4(f) & is_less);",
		"int i; // Legal. Result is implementation-defined.\nshort2 j = as_short2(i);",
		"int4 i; // Legal. Result is implementation-defined.\nshort8 j = as_short8(i);",
		"float4 f; // Legal. g.xyz will have same values as f.xyz. g.w is undefined\nfloat3 g = as_float3(f);",
		"float4 f  = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);\n\nuchar4 c = convert_uchar4_sat_rte(f);",
	}
	for _, src := range legal {
		var in clc.Interp
		if err := in.Run("seed", src); err != nil {
			t.Errorf("%s:\n%v", src, err)
		}
	}
	bad := []struct{ src, err string }{
		{"float4  f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);\n\nushort4 c = convert_uchar4_sat_rte(f);",
			"seed:3:13: initializing c: implicit conversion from uchar4 to ushort4 is not allowed"},
		{"float4 f; //Error. result and operand have different size\ndouble4 g = as_double4(f); // Only if double is supported.",
			"seed:2:24: as_double4 needs an operand of 32 bytes, got float4 (16 bytes)"},
		// Seed 004 as printed: the pragma needs the extension, b and c are
		// never declared.
		{"#pragma OPENCL SELECT_ROUNDING_MODE rtz\nfloat4 a = b * c; // uses round to zero rounding mode.",
			"seed:1:16: #pragma OPENCL SELECT_ROUNDING_MODE needs the extension"},
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n#pragma OPENCL SELECT_ROUNDING_MODE rtz\nfloat4 a = b * c; // uses round to zero rounding mode.",
			`seed:3:12: unknown identifier "b"`},
	}
	for _, tt := range bad {
		var in clc.Interp
		err := in.Run("seed", tt.src)
		if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
			t.Errorf("%s:\n got %v\nwant %s...", tt.src, err, tt.err)
		}
	}
}
