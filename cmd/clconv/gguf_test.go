package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ggufGolden is a GGUF file written by ggml itself (gguf/testdata).
const ggufGolden = "../../gguf/testdata/ggml-written.gguf"

// TestInspectGGUF: inspect lists a GGUF file's metadata and tensors (type,
// row-major shape, bytes), --stats the dequantized ranges, --json both; a
// bad file is exit 1 with the byte offset.
func TestInspectGGUF(t *testing.T) {
	stdout, stderr, st := convRun(t, nil, "inspect", ggufGolden)
	for _, want := range []string{"GGUF v3 (alignment 32, data at byte 1088", "general.architecture = \"llama\"", "test.f32 = 0.1 (f32)",
		"tokenizer.ggml.tokens = [str x 4] \"<s>\", \"</s>\", \"\", \"▁hello\"", "blk.0.attn_q.weight     q8_0   (2, 64)       136"} {
		if st != 0 || !strings.Contains(stdout, want) {
			t.Errorf("inspect: %d %q lacks %q (%s)", st, stdout, want, stderr)
		}
	}
	stdout, stderr, st = convRun(t, nil, "inspect", "--stats", ggufGolden)
	if st != 0 || !strings.Contains(stdout, "blk.0.attn_q.weight     q8_0   (2, 64)       136    0.0021743774    59880.5") {
		t.Errorf("inspect --stats: %d %q (%s)", st, stdout, stderr)
	}
	stdout, _, st = convRun(t, nil, "inspect", "--stats", "--json", ggufGolden)
	var rep ggufReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || st != 0 {
		t.Fatalf("inspect --json: %d %v\n%s", st, err, stdout)
	}
	if len(rep.Tensors) != 6 || rep.Tensors[1].Stats == nil || *rep.Tensors[1].Stats.Max != "59880.5" || len(rep.Metadata) != 20 {
		t.Errorf("inspect --json: %s", stdout)
	}
	// A truncated file: exit 1, its byte offset named.
	b, err := os.ReadFile(ggufGolden)
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.gguf")
	os.WriteFile(bad, b[:100], 0o666)
	_, stderr, st = convRun(t, nil, "inspect", bad)
	if st != 1 || !strings.Contains(stderr, "byte ") {
		t.Errorf("truncated: status %d, stderr %q", st, stderr)
	}
	if _, stderr, st = convRun(t, nil, "inspect", "--stats", "--to", "bf16", ggufGolden); st != 2 {
		t.Errorf("--to on GGUF: status %d, %q", st, stderr)
	}
}

// TestConvertGGUF: convert --to a llama-quantize file type gives
// llama-quantize's own bytes (ggufconv's golden, made by libllama); --to a
// tensor type and --to bf16 to safetensors work; bad arguments are exit 2.
func TestConvertGGUF(t *testing.T) {
	const tiny = "../../ggufconv/testdata/tiny-f16.gguf"
	dir := t.TempDir()
	for _, c := range []struct{ to, golden string }{
		{"Q4_K_M", "../../ggufconv/testdata/tiny-f16.Q4_K_M.llama.gguf"},
		{"q8_0", "../../ggufconv/testdata/tiny-f16.Q8_0.llama.gguf"},
	} {
		out := filepath.Join(dir, c.to+".gguf")
		if _, stderr, st := convRun(t, nil, "convert", "-q", "--to", c.to, tiny, out); st != 0 {
			t.Fatalf("--to %s: %d %s", c.to, st, stderr)
		}
		got, _ := os.ReadFile(out)
		want, err := os.ReadFile(c.golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("--to %s: %d bytes, not llama-quantize's %d", c.to, len(got), len(want))
		}
	}
	q4 := filepath.Join(dir, "q4k.gguf")
	if _, stderr, st := convRun(t, nil, "convert", "-q", "--to", "q4_K", tiny, q4); st != 0 {
		t.Fatalf("--to q4_K: %d %s", st, stderr)
	}
	stdout, _, _ := convRun(t, nil, "inspect", q4)
	if !strings.Contains(stdout, "blk.0.attn_q.weight") || !strings.Contains(stdout, "q4_K") {
		t.Errorf("inspect of the q4_K output: %s", stdout)
	}
	st16 := filepath.Join(dir, "deq.safetensors")
	if _, stderr, st := convRun(t, nil, "convert", "-q", "--to", "bf16", q4, st16); st != 0 {
		t.Fatalf("--to bf16: %d %s", st, stderr)
	}
	stdout, _, _ = convRun(t, nil, "inspect", st16)
	if !strings.Contains(stdout, "BF16") || !strings.Contains(stdout, "gguf.general.architecture") {
		t.Errorf("inspect of the safetensors output: %s", stdout)
	}
	// llama-quantize's overrides, as its flags: the bytes llama_model_quantize
	// writes given the same choices (ggufconv/testdata/llama-overrides-sha256.txt).
	hashes, err := os.ReadFile("../../ggufconv/testdata/llama-overrides-sha256.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key  string
		args []string
	}{
		{"tiny-f16 ov-out-q8_0", []string{"--to", "Q4_K_M", "--output-tensor-type", "Q8_0"}},
		{"tiny-f16 ov-rules-pure", []string{"--to", "q4_k_s", "--pure", "--tensor-type", "attn_(q|k)=q8_0"}},
	} {
		out := filepath.Join(dir, "ov.gguf")
		if _, stderr, st := convRun(t, nil, append(append([]string{"convert", "-q", "-f"}, c.args...), tiny, out)...); st != 0 {
			t.Fatalf("%v: %d %s", c.args, st, stderr)
		}
		b, _ := os.ReadFile(out)
		sum := sha256.Sum256(b)
		if !strings.Contains(string(hashes), c.key+" "+hex.EncodeToString(sum[:])) {
			t.Errorf("%v: not llama-quantize's bytes (%s)", c.args, c.key)
		}
	}
	for _, args := range [][]string{
		{"--to", "q4_K", "--output-tensor-type", "q8_0", tiny, filepath.Join(dir, "x.gguf")}, // needs a file type
		{"--to", "Q4_K_M", "--tensor-type", "attn_v", tiny, filepath.Join(dir, "x.gguf")},
		{"--to", "Q4_K_M", "--tensor-type", "attn_v=q9", tiny, filepath.Join(dir, "x.gguf")},
		{"--to", "Q4_K_M", "--token-embedding-type", "iq2_xxs", tiny, filepath.Join(dir, "x.gguf")},
		{"--to", "int4", tiny, filepath.Join(dir, "x.gguf")},
		{"--to", "q4_K", "--pure", tiny, filepath.Join(dir, "x.gguf")},
		{"--to", "q4_K", "--sat", tiny, filepath.Join(dir, "x.gguf")},
		{"--to", "Q4_K_M", tiny, q4}, // exists, no --force
		{"--to", "q8_0", tiny, tiny}, // the input itself
	} {
		if _, stderr, st := convRun(t, nil, append([]string{"convert", "-q"}, args...)...); st != 2 {
			t.Errorf("%v: status %d, stderr %q", args, st, stderr)
		}
	}
}

// TestGGUFFIFO: a FIFO named .gguf is refused, not opened (the open would
// block): inspect and convert answer at once, exit 2.
func TestGGUFFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo.gguf")
	if err := syscall.Mkfifo(fifo, 0o666); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{{"inspect", fifo}, {"convert", "--to", "q8_0", fifo, fifo + ".out.gguf"}} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, stderr, st := convRun(t, nil, args...)
			if st != 2 || !strings.Contains(stderr, "not a regular file") {
				t.Errorf("%v: %d %q", args, st, stderr)
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%v on a FIFO blocked", args)
		}
	}
}
