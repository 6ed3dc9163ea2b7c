package convert_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/clconv/clconv/internal/gencheck"
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
// from what _asm writes now (edit _asm and run go generate ./convert).
func TestAssemblyUpToDate(t *testing.T) {
	files := []string{"zsimd_amd64.s", "zsimd_amd64.go", "zsimd_hooks_amd64.go", "zsimd_hooks_other.go"}
	gencheck.UpToDate(t, "../_asm", ".", []string{"-pkg", "convert", "-out", "{zsimd_amd64.s}", "-stubs", "{zsimd_amd64.go}",
		"-hooks", "{zsimd_hooks_amd64.go}", "-other", "{zsimd_hooks_other.go}"}, files, "go generate ./convert")
}
