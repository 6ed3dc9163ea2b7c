package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/explain"
	"github.com/clconv/clconv/round"
)

func init() { subcommands = append(subcommands, newServeCmd) }

// The page: HTML, CSS and a small script, embedded so that serve needs no
// network and no files at run time.
//
//go:embed web
var webFS embed.FS

// serveLimits bound what one request may cost.
type serveLimits struct {
	maxBody    int64         // request body bytes
	maxSteps   int64         // interpreter steps of one run
	timeout    time.Duration // one request's computation
	concurrent int           // computations at once; the others wait up to timeout
	maxConv    int           // conversions explained per expression
}

var defaultLimits = serveLimits{
	maxBody:    64 << 10,
	maxSteps:   10_000_000,
	timeout:    3 * time.Second,
	concurrent: 4,
	maxConv:    64,
}

func newServeCmd() *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080]",
		Short: "Serve a local page that explains conversions live, flips bits and runs snippets",
		Long: `serve answers on a local address with a page (embedded in the binary: no network, no
files, no external script) that shows clconv explain as you type, lets you click a
source bit to flip it and watch every mode's result change, shows vectors' results
side by side per mode and lane, and runs OpenCL C snippets (clconv run) with errors
marked on their lines.

It binds to 127.0.0.1:8080 unless --addr says otherwise (a non-loopback address is
served with a warning: anyone who reaches it can run snippets). Each request may send
64 KiB, a snippet may take 10,000,000 steps, and a computation 3 seconds.

It answers only requests whose Host is a loopback name or address (localhost,
*.localhost, 127.0.0.0/8, [::1], with any port) or the host --addr names (with
--addr 0.0.0.0:PORT or [::]:PORT: any IP address and the machine's host name), so that
a web page cannot reach it through DNS rebinding; another Host gets 421 Misdirected
Request. A POST whose Origin header names another host gets 403.

The page talks JSON to these endpoints (POST, Content-Type: application/json):

  /api/explain  {"expr": "convert_half(65520.0f)", "mode": "rte"}
                -> explain --json's object (docs/EXPLAIN.md)
  /api/lane     {"from": "float", "to": "half", "bits": "0x477ff000", "mode": "rte", "sat": false}
                -> one lane of it, for the bit editor ("mode"/"sat": the result to mark)
  /api/run      {"src": "float f = 1;", "mode": "rte"}
                -> {"vars": [run --json's objects], "warnings": [DIAGNOSTIC]}

An expression or snippet that does not compile or run is answered 422 with
{"error": MESSAGE, "errors": [DIAGNOSTIC]}, a DIAGNOSTIC being {"line", "col",
"message", "detail"}; a malformed request 400, a body over the limit 413, another
content type 415, a wrong method 405, an unknown path 404, all with {"error": MESSAGE}.`,
		Example: `  clconv serve
  clconv serve --addr 127.0.0.1:9000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return serve(ctx, addr, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the address to listen on (host:port)")
	return cmd
}

// serve listens on addr until ctx ends.
func serve(ctx context.Context, addr string, stdout, stderr io.Writer) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: --addr %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(stderr, "clconv serve: warning: %s is not a loopback address; anyone who reaches it can use the page\n", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %v", err)
	}
	srv := newHTTPServer(newServeHandler(defaultLimits, host, ln.Addr().String()))
	fmt.Fprintf(stdout, "clconv serve: http://%s/ (Ctrl-C stops)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %v", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// newHTTPServer wraps h with timeouts on every phase of a connection, so
// that slow or idle clients cannot hold it.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
}

// serveHandler answers the page and its API.
type serveHandler struct {
	lim   serveLimits
	sem   chan struct{}
	files fs.FS
	hosts hostPolicy
}

// newServeHandler returns the handler of the page and its API. It answers
// requests for loopback hosts and for bound, the hosts or host:port
// addresses serve was told to listen on (see hostPolicy).
func newServeHandler(lim serveLimits, bound ...string) http.Handler {
	files, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return &serveHandler{lim: lim, sem: make(chan struct{}, lim.concurrent), files: files, hosts: newHostPolicy(bound...)}
}

// hostPolicy says which hosts a request may name, in its Host header and in
// its Origin. A page of another site can reach a server on loopback
// through DNS rebinding: its own name, resolved again, now points at
// 127.0.0.1, and the browser sends the requests with Host: that name. So
// serve answers only loopback names and addresses (localhost, *.localhost,
// 127.0.0.0/8, ::1; RFC 6761 keeps .localhost on loopback) and the host it
// was told to bind: its name or address, and when that is the unspecified
// address (0.0.0.0, ::, or none), any IP literal (no rebinding gives one)
// and the machine's host name. Ports are not compared.
type hostPolicy struct {
	names map[string]bool // lower-case names and canonical IP literals
	anyIP bool
}

func newHostPolicy(bound ...string) hostPolicy {
	p := hostPolicy{names: make(map[string]bool)}
	for _, b := range bound {
		h := hostOnly(b)
		ip := net.ParseIP(h)
		switch {
		case h == "" || ip != nil && ip.IsUnspecified():
			p.anyIP = true
			if name, err := os.Hostname(); err == nil && name != "" {
				p.names[hostOnly(name)] = true
			}
		case ip != nil:
			p.names[ip.String()] = true
		default:
			p.names[h] = true
		}
	}
	return p
}

// hostOnly returns the host of a Host header or an address, without its
// port and brackets, lower-case and without a final dot.
func hostOnly(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	} else if len(h) >= 2 && h[0] == '[' && h[len(h)-1] == ']' {
		h = h[1 : len(h)-1]
	}
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// allows reports whether a request may name hostport.
func (p hostPolicy) allows(hostport string) bool {
	h := hostOnly(hostport)
	if h == "" {
		return false
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.IsLoopback() || p.anyIP || p.names[ip.String()]
	}
	return p.names[h]
}

// allowsOrigin reports whether a request with that Origin header may
// change anything: no Origin (not a browser, or a same-origin GET), or an
// http or https origin on an allowed host. "null" (a sandboxed frame, a
// file: page) is refused.
func (p hostPolicy) allowsOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.Path != "" && u.Path != "/" || u.User != nil {
		return false
	}
	return p.allows(u.Host)
}

// writeText answers a short plain-text error: those of the host checks,
// which come before anything else the server does.
func writeText(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	io.WriteString(w, msg+"\n")
}

// apiError is the body of every error answer.
type apiError struct {
	Error  string       `json:"error"`
	Errors []diagnostic `json:"errors,omitempty"`
}

// diagnostic is one interpreter error or warning with its position.
type diagnostic struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Detail  string `json:"detail"` // file:line:col: message, the line and a caret
}

func (h *serveHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		// A panic is a bug; the client still gets an answer and the server
		// goes on (the fuzz test calls the handler directly and sees it).
		if v := recover(); v != nil {
			writeJSONStatus(w, http.StatusInternalServerError, apiError{Error: fmt.Sprint("internal error: ", v)})
		}
	}()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
	if !h.hosts.allows(r.Host) {
		writeText(w, http.StatusMisdirectedRequest, fmt.Sprintf("421 misdirected request: clconv serve does not answer for host %q (only localhost, a loopback address or the address it listens on; DNS rebinding?)", truncate(r.Host, 100)))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if o := r.Header.Get("Origin"); !h.hosts.allowsOrigin(o) {
			writeText(w, http.StatusForbidden, fmt.Sprintf("403 forbidden: a request from origin %q (another site's page?) cannot use clconv serve", truncate(o, 100)))
			return
		}
	}
	switch r.URL.Path {
	case "/", "/index.html", "/app.js", "/style.css":
		h.static(w, r)
	case "/api/explain":
		h.api(w, r, h.explain)
	case "/api/lane":
		h.api(w, r, h.lane)
	case "/api/run":
		h.api(w, r, h.run)
	default:
		writeJSONStatus(w, http.StatusNotFound, apiError{Error: "no such page: " + r.URL.Path})
	}
}

func (h *serveHandler) static(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeJSONStatus(w, http.StatusMethodNotAllowed, apiError{Error: r.Method + " is not allowed here (GET)"})
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/")
	if name == "" {
		name = "index.html"
	}
	b, err := fs.ReadFile(h.files, name)
	if err != nil {
		writeJSONStatus(w, http.StatusNotFound, apiError{Error: "no such page: " + r.URL.Path})
		return
	}
	ext := name[strings.LastIndexByte(name, '.'):]
	w.Header().Set("Content-Type", mime.TypeByExtension(ext))
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	if r.Method == http.MethodGet {
		w.Write(b)
	}
}

// statusError is an answer other than 200.
type statusError struct {
	status int
	body   apiError
}

func (e *statusError) Error() string { return e.body.Error }

func badRequest(format string, args ...any) error {
	return &statusError{http.StatusBadRequest, apiError{Error: fmt.Sprintf(format, args...)}}
}

// api checks the method, the content type and the body's size, decodes the
// body, waits for a free slot and runs f with a deadline.
func (h *serveHandler) api(w http.ResponseWriter, r *http.Request, f func(ctx context.Context, body []byte) (any, error)) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		writeJSONStatus(w, http.StatusMethodNotAllowed, apiError{Error: r.Method + " is not allowed here (POST)"})
		return
	}
	// Requiring JSON also makes a browser ask before sending a request
	// from another site (a CORS preflight, which is never granted).
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeJSONStatus(w, http.StatusUnsupportedMediaType, apiError{Error: "the body must be application/json"})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.lim.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSONStatus(w, http.StatusRequestEntityTooLarge, apiError{Error: fmt.Sprintf("the body is larger than %d KiB", h.lim.maxBody>>10)})
		} else {
			writeJSONStatus(w, http.StatusBadRequest, apiError{Error: "reading the body: " + err.Error()})
		}
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.lim.timeout)
	defer cancel()
	select {
	case h.sem <- struct{}{}:
		defer func() { <-h.sem }()
	case <-ctx.Done():
		writeJSONStatus(w, http.StatusTooManyRequests, apiError{Error: "busy: too many requests at once"})
		return
	}
	out, err := f(ctx, body)
	if err != nil {
		var se *statusError
		if !errors.As(err, &se) {
			se = &statusError{http.StatusUnprocessableEntity, apiError{Error: err.Error()}}
		}
		writeJSONStatus(w, se.status, se.body)
		return
	}
	writeJSONStatus(w, http.StatusOK, out)
}

// decodeStrict decodes one JSON object into v, refusing unknown fields and
// anything after it.
func decodeStrict(body []byte, v any) error {
	if t := strings.TrimSpace(string(body)); !strings.HasPrefix(t, "{") {
		return badRequest("bad JSON: the body must be an object")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("bad JSON: %v", err)
	}
	if dec.More() {
		return badRequest("bad JSON: more than one value")
	}
	return nil
}

func parseMode(s string) (round.Mode, error) {
	if s == "" {
		return round.RTE, nil
	}
	m, err := round.ParseMode(s)
	if err != nil {
		return 0, badRequest("mode: %v", err)
	}
	return m, nil
}

// interpError turns an interpreter error into a 422 with its diagnostics.
func interpError(err error) error {
	se := &statusError{status: http.StatusUnprocessableEntity, body: apiError{Error: err.Error()}}
	var list clc.ErrorList
	var one *clc.Error
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			se.body.Errors = append(se.body.Errors, diagnosticOf(e))
		}
	case errors.As(err, &one):
		se.body.Errors = []diagnostic{diagnosticOf(one)}
	}
	if len(se.body.Errors) > 0 {
		se.body.Error = se.body.Errors[0].Detail
	}
	return se
}

// runStepAdvice is the end of the interpreter's step-limit message, which
// names run's flag; serve has no such flag.
const runStepAdvice = "; raise it with --max-steps"

// serveStepLimit rewrites the step-limit error's advice for serve, whose
// limit is fixed: it names the limit and the command that can raise it.
func serveStepLimit(err error, steps int64) error {
	fix := func(e *clc.Error) {
		if msg, ok := strings.CutSuffix(e.Msg, runStepAdvice); ok {
			e.Msg = fmt.Sprintf("%s; serve's limit is fixed at %s steps per snippet (clconv run --max-steps can raise it)", msg, groupThousands(steps))
		}
	}
	var list clc.ErrorList
	var one *clc.Error
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			fix(e)
		}
	case errors.As(err, &one):
		fix(one)
	}
	return err
}

// truncate shortens s, a header's value quoted in a message, to n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// groupThousands writes n with commas: 10,000,000.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func diagnosticOf(e *clc.Error) diagnostic {
	return diagnostic{Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg, Detail: e.Detail()}
}

func (h *serveHandler) explain(ctx context.Context, body []byte) (any, error) {
	var req struct {
		Expr string `json:"expr"`
		Mode string `json:"mode"`
	}
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	m, err := parseMode(req.Mode)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Expr) == "" {
		return nil, badRequest("expr is missing or empty")
	}
	// An expression has no loops: its cost is bounded by its size, which
	// the body limit bounds.
	rep, err := explain.Expression("<expr>", req.Expr, m, h.lim.maxConv)
	if err != nil {
		return nil, interpError(err)
	}
	return rep, nil
}

func (h *serveHandler) lane(ctx context.Context, body []byte) (any, error) {
	var req struct {
		From string `json:"from"`
		To   string `json:"to"`
		Bits string `json:"bits"`
		Mode string `json:"mode"`
		Sat  bool   `json:"sat"`
	}
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	kind := func(what, s string) (cltype.Kind, error) {
		if s == "" {
			return 0, badRequest("%s is missing", what)
		}
		k, err := cltype.ParseKind(s)
		if err != nil || !k.Convertible() {
			return 0, badRequest("%s: %q is not a scalar type of convert_", what, s)
		}
		return k, nil
	}
	src, err := kind("from", req.From)
	if err != nil {
		return nil, err
	}
	dst, err := kind("to", req.To)
	if err != nil {
		return nil, err
	}
	m, err := parseMode(req.Mode)
	if err != nil {
		return nil, err
	}
	if req.Bits == "" {
		return nil, badRequest("bits is missing")
	}
	b, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(req.Bits), "0x"), 16, 64)
	if w := explain.Width(src); err != nil || b>>w != 0 {
		return nil, badRequest("bits: %q is not a %d-bit hex pattern", req.Bits, w)
	}
	if req.Sat && dst.IsFloat() {
		return nil, badRequest("sat: _sat is not allowed with a floating destination (%v)", dst)
	}
	return explain.LaneOf(0, src, b, dst, m, req.Sat), nil
}

// runResult is /api/run's answer.
type runResult struct {
	Vars     []jsonVar    `json:"vars"`
	Warnings []diagnostic `json:"warnings"`
}

func (h *serveHandler) run(ctx context.Context, body []byte) (any, error) {
	var req struct {
		Src  *string `json:"src"`
		Mode string  `json:"mode"`
	}
	if err := decodeStrict(body, &req); err != nil {
		return nil, err
	}
	if req.Src == nil {
		return nil, badRequest("src is missing")
	}
	m, err := parseMode(req.Mode)
	if err != nil {
		return nil, err
	}
	res := runResult{Vars: []jsonVar{}, Warnings: []diagnostic{}}
	in := &clc.Interp{Mode: m, MaxSteps: h.lim.maxSteps, Cancel: ctx.Done()}
	in.Warn = func(e *clc.Error) {
		if len(res.Warnings) < 100 {
			res.Warnings = append(res.Warnings, diagnosticOf(e))
		}
	}
	if err := in.Run("snippet.cl", *req.Src); err != nil {
		return nil, interpError(serveStepLimit(err, h.lim.maxSteps))
	}
	for _, v := range in.Vars() {
		res.Vars = append(res.Vars, jsonVar{Name: v.Name, Type: v.Type.String(), Line: v.Pos.Line,
			Value: elements(v.Value, false), Bits: elements(v.Value, true)})
	}
	return res, nil
}

// writeJSONStatus answers v as JSON with the status.
func writeJSONStatus(w http.ResponseWriter, status int, v any) {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // positions such as <expr>:1:1 stay readable; the type is JSON, nosniff
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"internal error: encoding the answer"}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, buf.String())
}
