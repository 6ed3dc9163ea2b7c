package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var screenshots = flag.String("screenshots", "", "TestServeBrowser writes serve-explain.png and serve-snippet.png to this folder (scripts/screenshots.sh)")

// chromium returns the path of a Chromium or Chrome, or "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestServeBrowser drives serve's page in a real headless Chromium: typing
// an expression updates the explanation, flipping a bit changes the
// results, and a bad snippet shows its error on its line.
func TestServeBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("chromium is not installed (Debian: apt-get install chromium); the browser test needs it")
	}
	if testing.Short() && *screenshots == "" {
		t.Skip("-short: the browser test runs without -short")
	}
	srv := startServer(t)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox refuses to start
		chromedp.DisableGPU,
		chromedp.WindowSize(1100, 1000),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	defer cancel()
	// The first action starts the browser, which lives as long as the
	// context of that call: it gets no deadline, the later ones do.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	ctx, cancel := context.WithTimeout(bctx, 30*time.Second)
	defer cancel()

	// waitJS polls a JavaScript condition until it holds.
	waitJS := func(cond string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(10*time.Second))
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("reading %s: %v", sel, err)
		}
		return s
	}
	// setValue sets a field's text as a paste would, input event included.
	setValue := func(sel, v string) chromedp.Action[chromedp.Void] {
		js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); return true; })()`, sel, v)
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Evaluate[bool](js)(ctx, tg)
			return chromedp.Void{}, err
		}
	}
	// typeExpr empties the expression box and types expr, key by key.
	typeExpr := func(expr string) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			return chromedp.Void{}, chromedp.Do(ctx, setValue("#expr", ""), chromedp.SendKeys(chromedp.CSS("#expr"), expr))
		}
	}

	// The page explains its example on load: convert_half(65520.0f).
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/"),
		waitJS(`document.querySelector("#results0") !== null`),
	); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	if first := text("#results0"); !strings.Contains(first, "0x7c00") || !strings.Contains(first, "0x7bff") || !strings.Contains(first, "overflow-inf") {
		t.Fatalf("the first explanation lacks inf/65504: %q", first)
	}

	// Typing an expression updates the view.
	if err := chromedp.Do(ctx,
		typeExpr("convert_int_rte(2.5f)"),
		waitJS(`document.getElementById("explain").textContent.includes("convert_int_rte: float")`),
	); err != nil {
		t.Fatalf("typing an expression: %v", err)
	}
	if typed := text("#results0"); !strings.Contains(typed, "tie-even") || !strings.Contains(typed, "ties to even gives 2") {
		t.Fatalf("after typing, the results are %q", typed)
	}

	// A vector shows every mode side by side, one column per lane.
	if err := chromedp.Do(ctx,
		typeExpr("convert_uchar4_sat_rte((float4)(-5.0f, 254.5f, 254.6f, 1.2e9f))"),
		waitJS(`document.querySelectorAll("#conv0 table.modes th.lane").length === 4`),
	); err != nil {
		t.Fatalf("a vector: %v", err)
	}
	if *screenshots != "" {
		shot(t, ctx, "#explain-section", filepath.Join(*screenshots, "serve-vector.png"))
	}

	// Flipping a bit changes the results: the sign bit of 65520.0f gives
	// -65520, which rte takes to -inf (0xfc00).
	if err := chromedp.Do(ctx,
		typeExpr("convert_half(65520.0f)"),
		waitJS(`(document.querySelector("#results0") || {}).textContent?.includes("0x7c00")`),
	); err != nil {
		t.Fatalf("retyping: %v", err)
	}
	if *screenshots != "" {
		shot(t, ctx, "#explain-section", filepath.Join(*screenshots, "serve-explain.png"))
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#bits0 button[data-bit="31"]`)),
		waitJS(`document.querySelector("#results0").textContent.includes("0xfc00")`),
	); err != nil {
		t.Fatalf("flipping the sign bit: %v", err)
	}
	if flipped := text("#results0"); !strings.Contains(flipped, "0xfbff") || strings.Contains(flipped, "0x7c00") {
		t.Fatalf("after flipping the sign bit, the results are %q", flipped)
	}

	// A bad snippet shows its error on its line (line 3 here).
	if err := chromedp.Do(ctx,
		setValue("#src", "float4 f = (float4)(-5.0f, 254.5f, 254.6f, 1.2e9f);\nuchar4 c = convert_uchar4_sat_rte(f);\nushort4 d = convert_uchar4_sat_rte(f);\nint x = 1;"),
		chromedp.Click(chromedp.CSS("#run")),
		waitJS(`document.querySelector('#gutter div.err[data-line="3"]') !== null`),
	); err != nil {
		t.Fatalf("running a bad snippet: %v", err)
	}
	if errs := text("#errors"); !strings.Contains(errs, "line 3:") || !strings.Contains(errs, "implicit conversion") {
		t.Fatalf("the snippet's errors read %q", errs)
	}
	marked, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#gutter div.err").length`))
	if err != nil || marked != 1 {
		t.Fatalf("%d lines marked (%v), want 1", marked, err)
	}
	if *screenshots != "" {
		shot(t, ctx, "#snippet-section", filepath.Join(*screenshots, "serve-snippet.png"))
	}
}

// shot writes a PNG of the element sel.
func shot(t *testing.T, ctx context.Context, sel, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("screenshot %s: %v", sel, err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
