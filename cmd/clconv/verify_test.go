package main

import (
	"os"
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
	"github.com/clconv/clconv/cmd/clconv/internal/verify"
)

// TestMain points clconv's on-disk caches (CLCONV_CACHE) at a temporary
// directory, so that the tests never write to the user's cache directory.
func TestMain(m *testing.M) {
	if verify.IsWorker() { // a build process that clconv verify started (this test binary)
		os.Exit(verify.WorkerMain())
	}
	dir, err := os.MkdirTemp("", "clconv-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("CLCONV_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// In the default (pure-Go) build, devices and verify say how to get a build
// with OpenCL.
func TestVerifyWithoutOpenCL(t *testing.T) {
	if opencl.Built {
		t.Skip("built with -tags opencl")
	}
	for _, args := range [][]string{{"verify", "--quick"}, {"devices"}} {
		stdout, stderr, status := clconv(t, "", args...)
		if status != 2 || stdout != "" || !strings.Contains(stderr, "rebuild with -tags opencl") {
			t.Errorf("clconv %v: status %d, stdout %q, stderr %q", args, status, stdout, stderr)
		}
	}
}

func TestVerifyFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"verify", "--only", "(bad"}, "--only"},
		{[]string{"verify", "--widths", "2,x"}, "--widths"},
		{[]string{"verify", "--inject-fault", "nonsense"}, "fault"},
		{[]string{"verify", "extra"}, "unknown command"},
	} {
		_, stderr, status := clconv(t, "", tt.args...)
		if status != 2 || !strings.Contains(stderr, tt.err) {
			t.Errorf("clconv %v: status %d, stderr %q; want an error about %s", tt.args, status, stderr, tt.err)
		}
	}
	stdout, _, status := clconv(t, "", "verify", "--help")
	if status != 0 || !strings.Contains(stdout, "--quick") || strings.Contains(stdout, "inject-fault") {
		t.Errorf("verify --help: status %d:\n%s", status, stdout)
	}
}
