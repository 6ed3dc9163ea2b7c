package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
