package convert_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedUpToDate fails when zconv.go differs from what the generator
// writes now: edit internal/gen and run go generate, never the output.
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := filepath.Join(t.TempDir(), "zconv.go")
	cmd := exec.Command("go", "run", "../internal/gen", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator failed: %v\n%s", err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("zconv.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("zconv.go is stale: run go generate ./convert")
	}
	if !bytes.HasPrefix(got, []byte("// Code generated ")) || !bytes.Contains(got[:200], []byte("DO NOT EDIT.")) {
		t.Error("zconv.go lacks the standard generated-code header")
	}
}

// TestAssemblyUpToDate fails when the SIMD kernels and their hooks differ
// from what _asm writes now (edit _asm and run go generate ./convert). It
// needs avo in the module cache (.ci/run downloads _asm's modules); without
// it the test skips: no network at test time.
func TestAssemblyUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	dir := t.TempDir()
	files := []string{"zsimd_amd64.s", "zsimd_amd64.go", "zsimd_hooks_amd64.go", "zsimd_hooks_other.go"}
	cmd := exec.Command("go", "run", "-C", "../_asm", ".", "-pkg", "convert",
		"-out", filepath.Join(dir, files[0]), "-stubs", filepath.Join(dir, files[1]),
		"-hooks", filepath.Join(dir, files[2]), "-other", filepath.Join(dir, files[3]))
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod")
	if msg, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(msg, []byte("GOPROXY=off")) {
			first, _, _ := bytes.Cut(msg, []byte("\n"))
			t.Skipf("avo is not in the module cache (cd _asm && go mod download): %s", first)
		}
		t.Fatalf("generator failed: %v\n%s", err, msg)
	}
	for _, f := range files {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The first line names the command and its output paths.
		_, got, _ = bytes.Cut(got, []byte("\n"))
		_, want, _ = bytes.Cut(want, []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./convert", f)
		}
	}
}
