package main

import (
	"os"
	"path/filepath"
	"testing"
)

// clconv eval and clconv run show the checker's "did you mean"
// suggestions with the error's position and caret.
func TestSuggestEvalRun(t *testing.T) {
	stdout, stderr, status := clconv(t, "", "eval", "conver_int(1.5f)")
	want := "<arg1>:1:1: call to undeclared function \"conver_int\" (did you mean \"convert_int\"?)\nconver_int(1.5f)\n^\n"
	if stdout != "" || stderr != want || status == 0 {
		t.Errorf("eval: stdout %q, stderr %q, status %d; want stderr %q and a failure", stdout, stderr, status, want)
	}

	file := filepath.Join(t.TempDir(), "typo.cl")
	if err := os.WriteFile(file, []byte("int a = 1;\nflaot g = 1.0f;\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, status = clconv(t, "", "run", file)
	want = file + ":2:1: unknown type \"flaot\" (did you mean \"float\"?)\nflaot g = 1.0f;\n^\n"
	if stdout != "" || stderr != want || status == 0 {
		t.Errorf("run: stdout %q, stderr %q, status %d; want stderr %q and a failure", stdout, stderr, status, want)
	}

	// A far-off name: no suggestion.
	_, stderr, _ = clconv(t, "", "eval", "frobnicate(1)")
	if want := "<arg1>:1:1: call to undeclared function \"frobnicate\"\nfrobnicate(1)\n^\n"; stderr != want {
		t.Errorf("eval frobnicate: stderr %q, want %q", stderr, want)
	}
}
