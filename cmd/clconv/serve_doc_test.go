package main

import (
	"net/http"
	"strings"
	"testing"
)

// docs/EXPLAIN.md's serve section: mode (and sat) are optional with the
// defaults it names; a request without a required field gets 400; the
// step-limit error names serve's fixed limit, not run's --max-steps.
func TestServeDocRequiredFields(t *testing.T) {
	srv := startServer(t)
	c := srv.Client()
	for _, tc := range []struct {
		path, body string
		status     int
		want       string
	}{
		// mode is optional: rte.
		{"/api/explain", `{"expr": "convert_half(65520.0f)"}`, http.StatusOK, `"mode"`},
		{"/api/lane", `{"from": "float", "to": "half", "bits": "0x477ff000"}`, http.StatusOK, ""},
		{"/api/run", `{"src": "float f = 1;"}`, http.StatusOK, `"vars"`},
		{"/api/run", `{"src": ""}`, http.StatusOK, `"vars"`},
		// Required fields missing.
		{"/api/explain", `{"mode": "rte"}`, http.StatusBadRequest, "expr is missing"},
		{"/api/explain", `{}`, http.StatusBadRequest, "expr is missing"},
		{"/api/lane", `{"to": "half", "bits": "0x1"}`, http.StatusBadRequest, "from is missing"},
		{"/api/lane", `{"from": "float", "bits": "0x1"}`, http.StatusBadRequest, "to is missing"},
		{"/api/lane", `{"from": "float", "to": "half"}`, http.StatusBadRequest, "bits is missing"},
		{"/api/run", `{"mode": "rtz"}`, http.StatusBadRequest, "src is missing"},
	} {
		status, body := do(t, c, "POST", srv.URL+tc.path, jsonType, tc.body)
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s: %d %s; want %d with %q", tc.path, tc.body, status, body, tc.status, tc.want)
		}
	}
}

func TestServeStepLimitMessage(t *testing.T) {
	srv := startServer(t)
	status, body := do(t, srv.Client(), "POST", srv.URL+"/api/run", jsonType, `{"src": "int i = 0; while (1) { i++; }"}`)
	if status != http.StatusUnprocessableEntity || strings.Contains(body, "raise it with --max-steps") ||
		!strings.Contains(body, "serve's limit is fixed at 200,000 steps") {
		t.Errorf("step limit: %d %s", status, body)
	}
	// run keeps its advice.
	_, stderr, _ := clconv(t, "int i = 0; while (1) { i++; }", "run", "--max-steps", "100", "-")
	if !strings.Contains(stderr, "raise it with --max-steps") {
		t.Errorf("run: %q", stderr)
	}
}
