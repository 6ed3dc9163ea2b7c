package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// testLimits keep the tests quick: a snippet's step limit is reached fast.
var testLimits = serveLimits{maxBody: 64 << 10, maxSteps: 200_000, timeout: 3 * time.Second, concurrent: 4, maxConv: 64}

// startServer serves the handler on a loopback port with serve's timeouts.
func startServer(t testing.TB) *httptest.Server {
	h := newServeHandler(testLimits)
	srv := httptest.NewUnstartedServer(h)
	srv.Config = newHTTPServer(h)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func do(t testing.TB, c *http.Client, method, u, ctype, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

const jsonType = "application/json"

func TestServeEndpoints(t *testing.T) {
	srv := startServer(t)
	c := srv.Client()
	tests := []struct {
		method, path, ctype, body string
		status                    int
		want                      string
	}{
		{"GET", "/", "", "", 200, "<title>clconv explain</title>"},
		{"HEAD", "/", "", "", 200, ""},
		{"GET", "/app.js", "", "", 200, "/api/explain"},
		{"GET", "/style.css", "", "", 200, ".bit"},
		{"POST", "/", jsonType, "{}", 405, "not allowed"},
		{"GET", "/nope", "", "", 404, "no such page"},
		{"GET", "/web/index.html", "", "", 404, "no such page"},
		{"GET", "/api/explain", "", "", 405, "POST"},
		{"POST", "/api/explain", jsonType, `{"expr":"convert_half(65520.0f)"}`, 200, `"bits":"0x7c00","value":"inf","exact":"inf","own":true`},
		{"POST", "/api/explain", jsonType, `{"expr":"convert_half(65520.0f)","mode":"rtz"}`, 200, `"mode":"rte"`},
		{"POST", "/api/explain", jsonType, `{"expr":"(float)16777217","mode":"rtz"}`, 200, `"result":"(float)16777216"`},
		{"POST", "/api/explain", jsonType, `{"expr":"as_float(1)"}`, 200, `"conversions":[]`},
		{"POST", "/api/explain", jsonType, `{"expr":"convert_int("}`, 422, `"line":1,"col":13`},
		{"POST", "/api/explain", jsonType, `{"expr":"  "}`, 400, "empty"},
		{"POST", "/api/explain", jsonType, `{"expr":"1","mode":"rtx"}`, 400, "mode"},
		{"POST", "/api/explain", jsonType, `{"expr":"1","extra":1}`, 400, "unknown field"},
		{"POST", "/api/explain", jsonType, `{"expr":"1"} {}`, 400, "more than one"},
		{"POST", "/api/explain", "text/plain", `{"expr":"1"}`, 415, "application/json"},
		{"POST", "/api/explain", jsonType, `{"expr":"` + strings.Repeat("1+", 40<<10) + `1"}`, 413, "larger than 64 KiB"},
		{"POST", "/api/lane", jsonType, `{"from":"float","to":"half","bits":"0xc77ff000"}`, 200, `"bits":"0xfc00"`},
		{"POST", "/api/lane", jsonType, `{"from":"float","to":"int","bits":"0x40200000","mode":"rte","sat":true}`, 200, `"name":"convert_int_sat_rte","bits":"0x00000002","value":"2","exact":"2","own":true`},
		{"POST", "/api/lane", jsonType, `{"from":"float","to":"half","bits":"0x1477ff000"}`, 400, "32-bit"},
		{"POST", "/api/lane", jsonType, `{"from":"bool","to":"half","bits":"0x1"}`, 400, "not a scalar type"},
		{"POST", "/api/lane", jsonType, `{"from":"int","to":"float","bits":"1","sat":true}`, 400, "_sat"},
		// The small formats: e4m3's NaN under rtp, a code of 4 bits.
		{"POST", "/api/lane", jsonType, `{"from":"float","to":"e4m3","bits":"0x43e80000","mode":"rtp"}`, 200, `"name":"convert_e4m3_rtp","bits":"0x7f","value":"nan"`},
		{"POST", "/api/lane", jsonType, `{"from":"e2m1","to":"e8m0","bits":"0xf","sat":true}`, 200, `"fields":{"class":"normal","sign":"1","exponent":"11","fraction":"1","exponent_value":2}`},
		{"POST", "/api/lane", jsonType, `{"from":"e2m1","to":"float","bits":"0x1f"}`, 400, "4-bit"},
		{"POST", "/api/run", jsonType, `{"src":"float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);\nuchar4 c = convert_uchar4_sat_rte(f);"}`, 200, `{"name":"c","type":"uchar4","line":2,"value":["0","254","255","255"]`},
		{"POST", "/api/run", jsonType, `{"src":"int x = 1;\nint y = 2;\nfloat z = q;"}`, 422, `"line":3,"col":11`},
		{"POST", "/api/run", jsonType, `{"src":"int i = 0; while (1) i++;"}`, 422, "execution limit"},
		{"POST", "/api/run", jsonType, `{"src":"int i = 1 / 0;"}`, 422, "division"},
		{"POST", "/api/run", jsonType, `{"src":"int x;"}`, 200, `"warnings":[{"line":1`},
	}
	for _, tt := range tests {
		status, body := do(t, c, tt.method, srv.URL+tt.path, tt.ctype, tt.body)
		if status != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s %.60s: %d %.300s; want %d containing %s", tt.method, tt.path, tt.body, status, body, tt.status, tt.want)
		}
		if status != 200 && tt.method != "HEAD" && !json.Valid([]byte(body)) {
			t.Errorf("%s %s: error answer is not JSON: %s", tt.method, tt.path, body)
		}
	}
}

// malformed returns the i-th of a varied stream of bad requests: method,
// path, content type, body.
func malformed(r *rand.Rand, i int) (string, string, string, string) {
	paths := []string{"/api/explain", "/api/lane", "/api/run"}
	p := paths[r.IntN(len(paths))]
	junk := func(n int) string {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(r.UintN(256))
		}
		return string(b)
	}
	switch i % 12 {
	case 0: // random bytes
		return "POST", p, jsonType, junk(r.IntN(200))
	case 1: // over the size limit
		return "POST", p, jsonType, `{"expr":"` + strings.Repeat("x", 64<<10+r.IntN(4096)) + `"}`
	case 2: // truncated JSON
		s := `{"expr":"convert_half(65520.0f)","src":"int x;","from":"float","to":"half","bits":"0x1"}`
		return "POST", p, jsonType, s[:r.IntN(len(s))]
	case 3: // wrong method
		return []string{"GET", "PUT", "DELETE", "PATCH", "OPTIONS"}[r.IntN(5)], p, jsonType, "{}"
	case 4: // unknown path
		return "POST", "/api/" + fmt.Sprint(r.Int()), jsonType, "{}"
	case 5: // wrong content type
		return "POST", p, []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"}[r.IntN(4)], `{"expr":"1"}`
	case 6: // wrong field types
		return "POST", p, jsonType, []string{`{"expr":1}`, `{"src":[1]}`, `{"bits":true}`, `[]`, `null`, `"x"`, `{"mode":{}}`}[r.IntN(7)]
	case 7: // expressions that do not compile
		return "POST", "/api/explain", jsonType, fmt.Sprintf(`{"expr":%q}`, []string{"convert_int(", "as_double4((float4)(1.0f))", "convert_float_sat(1)", "x", "1/0", "((((", junk(20)}[r.IntN(7)])
	case 8: // snippets that fail
		return "POST", "/api/run", jsonType, fmt.Sprintf(`{"src":%q}`, []string{"int x = ;", "#error no", "float f = 1; f(", "int i = 1 % 0;", "while (1) {}", "int f(int n) { return f(n); } int x = f(1);", junk(30)}[r.IntN(7)])
	case 9: // bad lanes
		return "POST", "/api/lane", jsonType, fmt.Sprintf(`{"from":%q,"to":"int","bits":%q}`, []string{"float", "bool", "float4", "", "void"}[r.IntN(5)], []string{"0x", "zz", "-1", "0x100000000", "0x1p3"}[r.IntN(5)])
	case 10: // bad modes
		return "POST", p, jsonType, `{"mode":"` + []string{"RTE", "rtx", "nearest", " "}[r.IntN(4)] + `"}`
	}
	// deeply nested JSON
	n := r.IntN(10000)
	return "POST", p, jsonType, strings.Repeat("[", n) + strings.Repeat("]", n)
}

// TestServeMalformed sends 1000 malformed or oversized requests, and some
// broken HTTP, and requires a 4xx for every one and a working server after.
func TestServeMalformed(t *testing.T) {
	srv := startServer(t)
	c := srv.Client()
	r := rand.New(rand.NewPCG(1, 1000))
	for i := range 1000 {
		method, path, ctype, body := malformed(r, i)
		status, resp := do(t, c, method, srv.URL+path, ctype, body)
		if status < 400 || status >= 500 {
			t.Fatalf("request %d: %s %s %q %.80q: got %d %.200s", i, method, path, ctype, body, status, resp)
		}
	}
	// Broken HTTP straight on the socket: net/http answers 4xx itself.
	for i, raw := range []string{
		"GARBAGE\r\n\r\n",
		"POST /api/explain HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 64<<10) + "\r\n\r\n",
		"POST /api/explain HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n",
	} {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(conn, raw)
		line, err := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if err != nil || !strings.HasPrefix(line, "HTTP/1.1 4") {
			t.Errorf("raw request %d: got %q, %v; want a 4xx", i, line, err)
		}
	}
	if status, body := do(t, c, "GET", srv.URL+"/", "", ""); status != 200 || !strings.Contains(body, "clconv") {
		t.Fatalf("after the bad requests, GET / gives %d", status)
	}
	if status, body := do(t, c, "POST", srv.URL+"/api/explain", jsonType, `{"expr":"convert_half(65520.0f)"}`); status != 200 || !strings.Contains(body, "0x7c00") {
		t.Fatalf("after the bad requests, explain gives %d %.200s", status, body)
	}
}

// FuzzServe drives the handler with arbitrary requests, Host and Origin
// headers included: it must never panic nor answer 5xx, and it must answer
// a Host that is not loopback (the handler is bound to none other) with
// 421 and a POST from another origin with 403 or 421.
func FuzzServe(f *testing.F) {
	for _, s := range [][4]string{
		{"POST", "/api/explain", jsonType, `{"expr":"convert_half(65520.0f)"}`},
		{"POST", "/api/explain", jsonType, `{"expr":"convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))","mode":"rtn"}`},
		{"POST", "/api/explain", jsonType, `{"expr":"(float4)(1, 2, 3, 16777217) + 1.0f"}`},
		{"POST", "/api/lane", jsonType, `{"from":"double","to":"ulong","bits":"0x7ff0000000000001","sat":true}`},
		{"POST", "/api/lane", jsonType, `{"from":"half","to":"char","bits":"0xfbff"}`},
		{"POST", "/api/run", jsonType, `{"src":"#define X(a) a##a\nint X(b) = 1;\nfloat f = X(b) / 3.0f;"}`},
		{"POST", "/api/run", jsonType, `{"src":"int f(int n) { return n ? f(n - 1) : 0; } int x = f(5000);"}`},
		{"GET", "/", "", ""},
		{"DELETE", "/api/run", jsonType, "{}"},
		{"POST", "/api/run", "text/plain", "int x;"},
	} {
		for _, hosts := range [][2]string{{"127.0.0.1", ""}, {"localhost:8080", "http://localhost:8080"}} {
			f.Add(s[0], s[1], s[2], s[3], hosts[0], hosts[1])
		}
	}
	f.Add("POST", "/api/run", jsonType, `{"src":"int x;"}`, "evil.example.com", "")
	f.Add("GET", "/", "", "", "[::1]:80", "")
	f.Add("POST", "/api/explain", jsonType, `{"expr":"1"}`, "127.0.0.1:8080", "http://evil.example.com")
	f.Add("POST", "/api/explain", jsonType, `{"expr":"1"}`, "127.0.0.1:8080", "null")
	h := newServeHandler(testLimits)
	f.Fuzz(func(t *testing.T, method, path, ctype, body, host, origin string) {
		req := &http.Request{
			Method: method, URL: &url.URL{Path: path}, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {ctype}}, Body: io.NopCloser(strings.NewReader(body)),
			ContentLength: int64(len(body)), Host: host,
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req.WithContext(ctx))
		if w.Code >= 500 {
			t.Fatalf("%s %s %q %q host %q origin %q: %d %s", method, path, ctype, body, host, origin, w.Code, w.Body)
		}
		loopback := false
		if hn := hostOnly(host); hn == "localhost" || strings.HasSuffix(hn, ".localhost") {
			loopback = true
		} else if ip := net.ParseIP(hn); ip != nil && ip.IsLoopback() {
			loopback = true
		}
		if !loopback && w.Code != http.StatusMisdirectedRequest {
			t.Fatalf("host %q: %d %s; want 421", host, w.Code, w.Body)
		}
		if loopback && method != "GET" && method != "HEAD" && origin != "" && !h.(*serveHandler).hosts.allowsOrigin(origin) && w.Code != http.StatusForbidden {
			t.Fatalf("host %q, origin %q: %d %s; want 403", host, origin, w.Code, w.Body)
		}
	})
}
