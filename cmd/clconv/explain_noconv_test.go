package main

import (
	"strings"
	"testing"
)

// explain's "no conversion" message names as_ only where the expression
// has it.
func TestExplainNoConversionMessage(t *testing.T) {
	_, stderr, status := clconv(t, "", "explain", "1 + 2")
	if status == 0 || !strings.Contains(stderr, "1 + 2 performs no conversion") || strings.Contains(stderr, "as_") {
		t.Errorf("explain 1 + 2: status %d, stderr %q", status, stderr)
	}
	_, stderr, status = clconv(t, "", "explain", "as_float(1)")
	if status == 0 || !strings.Contains(stderr, "as_ reinterprets bits") {
		t.Errorf("explain as_float(1): status %d, stderr %q", status, stderr)
	}
}
