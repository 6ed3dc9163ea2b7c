package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestReplPiped runs the REPL on a pipe: no prompts, results on standard
// output, errors and warnings on standard error.
func TestReplPiped(t *testing.T) {
	in := strings.Join([]string{
		"float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);",
		"convert_uchar4_sat_rte(f)",
		"ushort4 c = convert_uchar4_sat_rte(f);",
		"int x = 3",
		"x += 2;",
		"int sq(int v) {",
		"  return v * v;",
		"}",
		"sq(x)",
		"",
		"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable",
		"#pragma OPENCL SELECT_ROUNDING_MODE rtz",
		"1.0f / 3.0f",
		":mode",
		":bits",
		"1.0f / 3.0f",
		":vars",
		"int y;",
		":warn",
		"int z;",
		"1 +",
		"",
		":nope",
		":reset",
		"x",
		"(1 +",
	}, "\n")
	stdout, stderr, status := clconv(t, in, "repl")
	wantOut := `f = (float4)(-5, 254.5, 254.6, 1.2e+09)
(uchar4)(0, 254, 255, 255)
x = (int)3
x = (int)5
(int)25
(float)0.3333333
rounding mode rtz (cl_khr_select_fprounding_mode enabled)
bits on
(float)0x3eaaaaaa
f = (float4)(0xc0a00000, 0x437e8000, 0x437e999a, 0x4e8f0d18)
x = (int)0x00000005
y = (int)0x00000000
warnings off
z = (int)0x00000000
session reset
`
	wantErr := `<repl>:3:13: initializing c: implicit conversion from uchar4 to ushort4 is not allowed: OpenCL C has no implicit conversions between vector types (use convert_ushort4() to convert the elements, or declare c as uchar4)
ushort4 c = convert_uchar4_sat_rte(f);
            ^
<repl>:18:5: warning: y is declared without an initializer: clconv gives it 0 (in OpenCL C its value is indeterminate)
int y;
    ^
<repl>:22:1: expected an expression, found end of input
unknown command :nope (try :help)
<repl>:25:1: unknown identifier "x"
x
^
<repl>:26:5: expected an expression, found end of input
(1 +
    ^
`
	// Inputs failed: on a pipe the exit status is 1.
	if status != 1 || stdout != wantOut || stderr != wantErr {
		t.Errorf("status %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", status, stdout, wantOut, stderr, wantErr)
	}
	stdout, _, _ = clconv(t, "1\n:quit\n2\n", "repl")
	if stdout != "(int)1\n" {
		t.Errorf(":quit: %q", stdout)
	}
	if _, _, status := clconv(t, "1\n:quit\n", "repl"); status != 0 {
		t.Errorf("a session without errors: status %d", status)
	}
	_, stderr, status = clconv(t, "", "repl", "--mode", "rtx")
	if status != 2 || !strings.Contains(stderr, "--mode") {
		t.Errorf("--mode rtx: %d %q", status, stderr)
	}
}

func TestReplPrompt(t *testing.T) {
	var out bytes.Buffer
	s, err := newReplSession(&runOptions{mode: "rte", maxSteps: 1000}, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ line, prompt string }{
		{"", "clc> "},
		{"int f(void) {", "...> "},
		{"return 1; }", "clc> "},
		{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable", "clc> "},
		{"#pragma OPENCL SELECT_ROUNDING_MODE rtp", "clc[rtp]> "},
		{"(1 +", "...> "},
	} {
		s.feed(tt.line)
		if got := s.prompt(); got != tt.prompt {
			t.Errorf("after %q: prompt %q, want %q", tt.line, got, tt.prompt)
		}
	}
	s.cancel()
	if s.prompt() != "clc[rtp]> " {
		t.Errorf("after cancel: prompt %q", s.prompt())
	}
}

func TestHistory(t *testing.T) {
	var h history
	for _, l := range []string{"a", "", "b", "b", "  ", "c"} {
		h.Add(l)
	}
	if h.Len() != 3 || h.At(0) != "c" || h.At(2) != "a" {
		t.Errorf("history %q", h.lines)
	}
	for i := range maxHistory + 10 {
		h.Add(strings.Repeat("x", i%7) + string(rune('a'+i%26)))
	}
	if h.Len() != maxHistory {
		t.Errorf("history holds %d lines", h.Len())
	}
}

func TestCtrlCReader(t *testing.T) {
	c := &ctrlCReader{r: strings.NewReader("ab\x03cd")}
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "ab\x05\x15\rcd" || !c.hit {
		t.Errorf("read %q, %v, hit %v", got, err, c.hit)
	}
}
