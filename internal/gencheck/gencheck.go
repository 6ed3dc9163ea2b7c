// Package gencheck holds the staleness check of generated files (the
// avo-generated kernels, and the small formats' method sets that
// internal/gen writes): a test runs the generator into a temporary folder
// and compares its output with the files in the package (edit the generator
// and run go generate, never the output).
package gencheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// UpToDate runs `go run -C asmDir cmd args...`, in which each "{name}" of
// args stands for the path of the output file name in a temporary folder,
// and fails t for every file of names that differs from the package's own
// (after the first line, which names the command and its paths), or that
// lacks the standard generated-code header. regen is the command to name in
// the failure. It skips in -short mode (it builds the generator) and where
// avo is not in the module cache (no network at test time; .ci/run
// downloads _asm's modules).
func UpToDate(t *testing.T, asmDir, cmd string, args, names []string, regen string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the generator")
	}
	dir := t.TempDir()
	full := []string{"run", "-C", asmDir, cmd}
	for _, a := range args {
		for _, n := range names {
			if a == "{"+n+"}" {
				a = filepath.Join(dir, n)
			}
		}
		full = append(full, a)
	}
	c := exec.Command("go", full...)
	c.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
	if msg, err := c.CombinedOutput(); err != nil {
		if bytes.Contains(msg, []byte("GOPROXY=off")) || bytes.Contains(msg, []byte("module lookup disabled")) {
			first, _, _ := bytes.Cut(msg, []byte("\n"))
			t.Skipf("avo is not in the module cache (cd _asm && go mod download): %s", first)
		}
		t.Fatalf("generator failed: %v\n%s", err, msg)
	}
	for _, n := range names {
		want, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		first, g, _ := bytes.Cut(got, []byte("\n"))
		if !bytes.HasPrefix(first, []byte("// Code generated ")) || !bytes.HasSuffix(first, []byte(" DO NOT EDIT.")) {
			t.Errorf("%s lacks the standard generated-code header", n)
		}
		_, w, _ := bytes.Cut(want, []byte("\n"))
		if !bytes.Equal(g, w) {
			t.Errorf("%s is stale: run %s", n, regen)
		}
	}
}
