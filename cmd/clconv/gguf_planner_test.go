package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/safetensors"
)

// TestConvertGGUFPlanner: a GGUF input converted to safetensors takes the
// planner's flags: FP8 block quantization of the linear weights with
// --rest, a block format, --stats and --json; what does not apply is exit
// 2 and leaves nothing.
func TestConvertGGUFPlanner(t *testing.T) {
	const q4 = "../../ggufconv/testdata/tiny-f16.Q4_K_M.llama.gguf"
	dir := t.TempDir()
	fp8 := filepath.Join(dir, "fp8.safetensors")
	stdout, stderr, st := convRun(t, nil, "convert", "-q", "--stats", "--to", "e4m3", "--block-size", "32x32", "--rest", "bf16", q4, fp8)
	if st != 0 {
		t.Fatalf("--block-size: %d %s", st, stderr)
	}
	for _, want := range []string{"blk.0.attn_q.weight: quantize q4_K -> F8_E4M3 (8, 256) (scale blk.0.attn_q.weight_scale_inv, blocks 32x32)",
		"token_embd.weight: convert q4_K -> BF16", "output.weight: convert q6_K -> BF16", "blk.0.attn_norm.weight: convert F32 -> BF16"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--stats lacks %q:\n%s", want, stdout)
		}
	}
	f, err := safetensors.Open(fp8)
	if err != nil {
		t.Fatal(err)
	}
	if ti, ok := f.Lookup("blk.1.ffn_down.weight_scale_inv"); !ok || ti.DType != safetensors.F32 || f.Metadata["gguf.general.architecture"] != "llama" {
		t.Errorf("output: %v %v %q", ti, ok, f.Metadata["gguf.general.architecture"])
	}
	f.Close()
	stdout, stderr, st = convRun(t, nil, "convert", "-q", "--json", "--to", "mxfp4", q4, filepath.Join(dir, "mx.safetensors"))
	var rep struct {
		Tensors []struct{ Name, Action string } `json:"tensors"`
	}
	if st != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || len(rep.Tensors) == 0 {
		t.Fatalf("--to mxfp4: %d %s %s", st, stdout, stderr)
	}
	stdout, stderr, st = convRun(t, nil, "convert", "-q", "--json", "--to", "float", "--tensors", "blk.0.attn_q.weight", q4, filepath.Join(dir, "q.safetensors"))
	if st != 0 || !strings.Contains(stdout, `"action": "decode"`) || !strings.Contains(stdout, `"from": "q4_K"`) {
		t.Errorf("--to float --json: %d %s %s", st, stdout, stderr)
	}
	for _, args := range [][]string{
		{"--to", "bf16", "--keep-raw", "x"},
		{"--to", "bf16", "--weight-block-size", "128x128"},
		{"--to", "bf16", "--max-shard-size", "1MB"},
		{"--to", "bf16", "--from", "half"},
		{"--to", "int", "--block-size", "32x32"},
		{"--to", "bf16", "--block-size", "32x32"},
		{"--to", "e4m3", "--rest", "bf16"},
	} {
		out := filepath.Join(dir, "bad.safetensors")
		if _, stderr, st := convRun(t, nil, append(append([]string{"convert", "-q"}, args...), q4, out)...); st != 2 {
			t.Errorf("%v: status %d, %q", args, st, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: output written", args)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
