package convert_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeProgram does what a new user does: it pastes the README's first Go
// block into a fresh module outside the repository, which requires clconv
// through a replace directive, runs it, and compares what it prints with the
// text block that follows it in the README.
func TestReadmeProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module with the go command; runs without -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```go\n(.*?)```\n+[^`]*?```text\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no ```go block followed by a ```text block of its output")
	}
	program, want := m[1], string(m[2])
	if !bytes.Contains(program, []byte("package main")) {
		t.Fatal("the README's first Go block is not a whole program (package main)")
	}
	dir := t.TempDir()
	gomod := "module readme\n\ngo 1.26\n\nrequire github.com/clconv/clconv v0.0.0\n\nreplace github.com/clconv/clconv => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "main.go": program} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	// Offline: the module cache already holds clconv's dependencies.
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run of the README's program: %v\n%s", err, stderr.String())
	}
	if got := string(out); strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("the README's program prints\n%s\nthe README says\n%s", got, want)
	}
}
