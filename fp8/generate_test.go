package fp8_test

import (
	"testing"

	"github.com/clconv/clconv/internal/gencheck"
)

// TestGeneratedUpToDate fails when zfp8.go differs from what the generator
// writes now: edit the table in internal/gen/small.go and run go generate
// ./fp8, never the output.
func TestGeneratedUpToDate(t *testing.T) {
	gencheck.UpToDate(t, "..", "./internal/gen", []string{"-small", "fp8", "-o", "{zfp8.go}"}, []string{"zfp8.go"}, "go generate ./fp8")
}
