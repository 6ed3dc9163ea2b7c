package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/safetensors"
)

// TestConvertMaxShardSize: --max-shard-size cuts a checkpoint's output as
// save_pretrained does; on a single file, or with a bad size, it is a
// usage error (exit 2).
func TestConvertMaxShardSize(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "model")
	if err := os.Mkdir(model, 0o777); err != nil {
		t.Fatal(err)
	}
	var infos []safetensors.TensorInfo
	for _, n := range []string{"a.weight", "b.weight", "c.weight"} {
		infos = append(infos, safetensors.TensorInfo{Name: n, DType: safetensors.F32, Shape: []int64{16, 16}})
	}
	var buf bytes.Buffer
	w, err := safetensors.NewWriter(&buf, infos, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(make([]byte, 3*16*16*4))
	w.Close()
	in := convWrite(t, model, "model.safetensors", buf.Bytes())
	out := filepath.Join(dir, "out")
	// Each BF16 tensor is 512 bytes: one per shard of 1 KB.
	if _, stderr, st := convRun(t, nil, "convert", "-q", "--to", "bf16", "--max-shard-size", "1KB", model, out); st != 0 {
		t.Fatalf("status %d: %s", st, stderr)
	}
	for _, n := range []string{"model-00001-of-00003.safetensors", "model-00002-of-00003.safetensors", "model-00003-of-00003.safetensors", "model.safetensors.index.json"} {
		if _, err := os.Stat(filepath.Join(out, n)); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	for _, args := range [][]string{
		{"--max-shard-size", "1KB", in, filepath.Join(dir, "o.safetensors")},
		{"--max-shard-size", "lots", model, filepath.Join(dir, "o2")},
	} {
		_, stderr, st := convRun(t, nil, append([]string{"convert", "-q", "--to", "bf16"}, args...)...)
		if st != 2 || !strings.Contains(stderr, "--max-shard-size") {
			t.Errorf("%v: status %d, stderr %q", args, st, stderr)
		}
	}
}
