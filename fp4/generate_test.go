package fp4_test

import (
	"testing"

	"github.com/clconv/clconv/internal/gencheck"
)

// TestGeneratedUpToDate fails when zfp4.go differs from what the generator
// writes now: edit the table in internal/gen/small.go and run go generate
// ./fp4, never the output.
func TestGeneratedUpToDate(t *testing.T) {
	gencheck.UpToDate(t, "..", "./internal/gen", []string{"-small", "fp4", "-o", "{zfp4.go}"}, []string{"zfp4.go"}, "go generate ./fp4")
}
