package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// request sends one request to h with the Host header host (and an Origin,
// if not empty) and returns the answer.
func request(h http.Handler, method, path, host, origin, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
	req.Host = host
	if body != "" {
		req.Header.Set("Content-Type", jsonType)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// TestServeHosts checks the answer to each Host: 200 for loopback names
// and addresses (any port) and for the bound host, 421 with a plain-text
// body for any other, before anything else is looked at (the API too).
func TestServeHosts(t *testing.T) {
	hostname, _ := os.Hostname()
	cases := []struct {
		bound []string // newServeHandler's
		host  string
		ok    bool
	}{
		{nil, "localhost", true},
		{nil, "localhost:8080", true},
		{nil, "LOCALHOST:8080", true},
		{nil, "localhost.", true},
		{nil, "app.localhost:9000", true},
		{nil, "127.0.0.1", true},
		{nil, "127.0.0.1:8080", true},
		{nil, "127.8.9.10:1", true},
		{nil, "[::1]", true},
		{nil, "[::1]:8080", true},
		{nil, "[::ffff:127.0.0.1]:8080", true},
		{nil, "evil.example.com", false},
		{nil, "evil.example.com:8080", false},
		{nil, "localhost.evil.example.com", false},
		{nil, "evillocalhost", false},
		{nil, "127.0.0.1.evil.example.com", false},
		{nil, "10.0.0.1:8080", false},
		{nil, "[2001:db8::1]:8080", false},
		{nil, "0.0.0.0:8080", false},
		{nil, "", false},
		// The bound host, by name or address, with any port.
		{[]string{"192.0.2.7", "192.0.2.7:8080"}, "192.0.2.7:8080", true},
		{[]string{"192.0.2.7", "192.0.2.7:8080"}, "192.0.2.7", true},
		{[]string{"192.0.2.7", "192.0.2.7:8080"}, "192.0.2.8:8080", false},
		{[]string{"192.0.2.7", "192.0.2.7:8080"}, "evil.example.com", false},
		{[]string{"[2001:db8::7]:80"}, "[2001:DB8:0::7]:80", true},
		{[]string{"MyBox.example"}, "mybox.example:8080", true},
		{[]string{"MyBox.example"}, "mybox.example.evil.example.com", false},
		// Every interface: any IP literal and the machine's name.
		{[]string{"0.0.0.0", "0.0.0.0:8080"}, "10.1.2.3:8080", true},
		{[]string{"", "[::]:8080"}, "[2001:db8::1]:8080", true},
		{[]string{"0.0.0.0"}, hostname, hostname != ""},
		{[]string{"0.0.0.0"}, "evil.example.com", false},
	}
	for _, c := range cases {
		h := newServeHandler(testLimits, c.bound...)
		for _, req := range [][3]string{
			{"GET", "/", ""},
			{"POST", "/api/explain", `{"expr":"convert_half(65520.0f)"}`},
		} {
			w := request(h, req[0], req[1], c.host, "", req[2])
			switch {
			case c.ok && w.Code != http.StatusOK:
				t.Errorf("bound %q, Host %q: %s %s: %d %.200s; want 200", c.bound, c.host, req[0], req[1], w.Code, w.Body)
			case !c.ok && (w.Code != http.StatusMisdirectedRequest ||
				!strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") ||
				!strings.Contains(w.Body.String(), "does not answer for host")):
				t.Errorf("bound %q, Host %q: %s %s: %d %s %.200s; want 421 in plain text", c.bound, c.host, req[0], req[1], w.Code, w.Header().Get("Content-Type"), w.Body)
			}
		}
	}
}

// TestServeOrigin checks that a POST from a page of another site (its
// Origin) gets 403, and one from serve's own page, or without an Origin,
// is answered; GET is not checked.
func TestServeOrigin(t *testing.T) {
	h := newServeHandler(testLimits, "192.0.2.7")
	body := `{"expr":"convert_half(65520.0f)"}`
	for _, c := range []struct {
		origin string
		status int
	}{
		{"", 200},
		{"http://127.0.0.1:8080", 200},
		{"http://localhost:8080", 200},
		{"https://localhost", 200},
		{"http://[::1]:8080", 200},
		{"http://192.0.2.7:8080", 200},
		{"http://evil.example.com", 403},
		{"http://evil.example.com:8080", 403},
		{"https://127.0.0.1.evil.example.com", 403},
		{"null", 403},
		{"file://", 403},
		{"ftp://localhost", 403},
		{"http://user@localhost", 403},
		{"http://localhost/path", 403},
		{"://", 403},
	} {
		w := request(h, "POST", "/api/explain", "127.0.0.1:8080", c.origin, body)
		if w.Code != c.status || c.status == 403 && !strings.Contains(w.Body.String(), "origin") {
			t.Errorf("Origin %q: %d %.200s; want %d", c.origin, w.Code, w.Body, c.status)
		}
	}
	if w := request(h, "GET", "/", "127.0.0.1:8080", "http://evil.example.com", ""); w.Code != 200 {
		t.Errorf("GET with a foreign Origin: %d", w.Code)
	}
}

// TestServeBound runs serve itself on a free loopback port: the address it
// prints answers, by that address and by localhost, and another Host gets
// 421 over a real connection.
func TestServeBound(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- serve(ctx, "127.0.0.1:0", pw, io.Discard) }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	if err != nil {
		t.Fatal(err)
	}
	u, _, ok := strings.Cut(strings.TrimPrefix(line, "clconv serve: "), " ")
	if !ok || !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("serve printed %q", line)
	}
	port := u[strings.LastIndexByte(u, ':')+1 : len(u)-1]
	c := &http.Client{Timeout: 10 * time.Second}
	for _, tc := range []struct {
		host   string
		status int
	}{
		{"", 200}, // the URL's own: 127.0.0.1:port
		{"localhost:" + port, 200},
		{"evil.example.com:" + port, 421},
		{"evil.example.com", 421},
	} {
		req, _ := http.NewRequest("POST", u+"api/lane", strings.NewReader(`{"from":"float","to":"half","bits":"0x477ff000"}`))
		req.Header.Set("Content-Type", jsonType)
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("Host %q: %d %.200s; want %d", tc.host, resp.StatusCode, b, tc.status)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
