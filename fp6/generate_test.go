package fp6_test

import (
	"testing"

	"github.com/clconv/clconv/internal/gencheck"
)

// TestGeneratedUpToDate fails when zfp6.go differs from what the generator
// writes now: edit the table in internal/gen/small.go and run go generate
// ./fp6, never the output.
func TestGeneratedUpToDate(t *testing.T) {
	gencheck.UpToDate(t, "..", "./internal/gen", []string{"-small", "fp6", "-o", "{zfp6.go}"}, []string{"zfp6.go"}, "go generate ./fp6")
}
