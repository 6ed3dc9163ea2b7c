package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	src := "float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);\nuchar4 c = convert_uchar4_sat_rte(f);\nint n;\n"
	stdout, stderr, status := clconv(t, src, "run", "-")
	if status != 0 || stderr != "" || stdout != "f = (float4)(-5, 254.5, 254.6, 1.2e+09)\nc = (uchar4)(0, 254, 255, 255)\nn = (int)0\n" {
		t.Errorf("run -: %d %q %q", status, stdout, stderr)
	}
	stdout, _, _ = clconv(t, src, "run", "--bits", "-")
	if !strings.Contains(stdout, "c = (uchar4)(0x00, 0xfe, 0xff, 0xff)\n") {
		t.Errorf("run --bits: %q", stdout)
	}
	_, stderr, _ = clconv(t, src, "run", "--warn", "-")
	if stderr != "<stdin>:3:5: warning: n is declared without an initializer: clconv gives it 0 (in OpenCL C its value is indeterminate)\nint n;\n    ^\n" {
		t.Errorf("run --warn: %q", stderr)
	}

	stdout, _, status = clconv(t, src, "run", "--json", "-")
	var vars []struct {
		Name  string   `json:"name"`
		Type  string   `json:"type"`
		Line  int      `json:"line"`
		Value []string `json:"value"`
		Bits  []string `json:"bits"`
	}
	if err := json.Unmarshal([]byte(stdout), &vars); err != nil || status != 0 {
		t.Fatalf("run --json: %v, %d\n%s", err, status, stdout)
	}
	if len(vars) != 3 || vars[1].Name != "c" || vars[1].Type != "uchar4" || vars[1].Line != 2 ||
		strings.Join(vars[1].Value, ",") != "0,254,255,255" || strings.Join(vars[1].Bits, ",") != "0x00,0xfe,0xff,0xff" ||
		len(vars[2].Value) != 1 || vars[2].Value[0] != "0" || vars[2].Bits[0] != "0x00000000" {
		t.Errorf("run --json: %+v", vars)
	}
	if stdout, _, _ = clconv(t, "", "run", "--json", "-"); stdout != "[]\n" {
		t.Errorf("run --json of nothing: %q", stdout)
	}
}

func TestRunErrors(t *testing.T) {
	src := "float4 f = 1;\nushort4 c = convert_uchar4_sat_rte(f);\nint k = nope;\n"
	stdout, stderr, status := clconv(t, src, "run", "-")
	want := "<stdin>:2:13: initializing c: implicit conversion from uchar4 to ushort4 is not allowed: OpenCL C has no implicit conversions between vector types (use convert_ushort4() to convert the elements, or declare c as uchar4)\n" +
		"ushort4 c = convert_uchar4_sat_rte(f);\n" +
		"            ^\n" +
		"<stdin>:3:9: unknown identifier \"nope\"\n" +
		"int k = nope;\n" +
		"        ^\n"
	if status != 1 || stdout != "" || stderr != want {
		t.Errorf("status %d, stdout %q, stderr:\n%s\nwant:\n%s", status, stdout, stderr, want)
	}
	// A runtime error: nothing printed but the error.
	stdout, stderr, status = clconv(t, "int a = 1;\nint b = a / (a - 1);\n", "run", "-")
	if status != 1 || stdout != "" || !strings.HasPrefix(stderr, "<stdin>:2:11: integer division by zero\n") {
		t.Errorf("division by zero: %d %q %q", status, stdout, stderr)
	}
	_, stderr, status = clconv(t, "int i = 0; while (1) i++;", "run", "--max-steps", "1000", "-")
	if status != 1 || !strings.Contains(stderr, "execution limit reached") {
		t.Errorf("--max-steps: %d %q", status, stderr)
	}
	_, stderr, status = clconv(t, "", "run", filepath.Join(t.TempDir(), "missing.cl"))
	if status != 2 || !strings.Contains(stderr, "no such file") {
		t.Errorf("missing file: %d %q", status, stderr)
	}
	_, stderr, status = clconv(t, "", "run")
	if status != 2 || !strings.Contains(stderr, "accepts 1 arg") {
		t.Errorf("no file: %d %q", status, stderr)
	}
	for _, flag := range []string{"--mode=rtx", "--max-steps=0"} {
		if _, stderr, status = clconv(t, "", "run", flag, "-"); status != 2 || stderr == "" {
			t.Errorf("%s: %d %q", flag, status, stderr)
		}
	}
}

func TestRunModeFlag(t *testing.T) {
	stdout, _, _ := clconv(t, "float f = (float)16777217; float g = 1.0f / 3.0f;", "run", "--bits", "--mode", "rtp", "-")
	if stdout != "f = (float)0x4b800001\ng = (float)0x3eaaaaab\n" {
		t.Errorf("--mode rtp: %q", stdout)
	}
}

func TestRunFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.cl")
	if err := os.WriteFile(path, []byte("int x = 1 +\n  y;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, status := clconv(t, "", "run", path)
	if status != 1 || stderr != path+":2:3: unknown identifier \"y\"\n  y;\n  ^\n" {
		t.Errorf("%d %q", status, stderr)
	}
}
