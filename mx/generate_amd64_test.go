//go:build gc && !purego

package mx

import (
	"testing"

	"github.com/clconv/clconv/internal/gencheck"
)

// TestGeneratedUpToDate fails when zmx_amd64.s or its stubs differ from what
// _asm/mx writes now.
func TestGeneratedUpToDate(t *testing.T) {
	gencheck.UpToDate(t, "../_asm", "./mx", []string{"-out", "{zmx_amd64.s}", "-stubs", "{zmx_amd64.go}", "-pkg", "mx"},
		[]string{"zmx_amd64.s", "zmx_amd64.go"}, "go generate ./mx")
}
