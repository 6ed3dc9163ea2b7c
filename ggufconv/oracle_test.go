package ggufconv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/clconv/clconv/ggml"
)

// oracleModels are the inputs scripts/ggufconv-oracle/run.sh gives both
// llama_model_quantize and ConvertGGUF.
var oracleModels = map[string]model{
	"tiny-f16":    {layers: 2, embd: 256, ff: 512, head: 8, headKV: 2, vocab: 256, rows: 8, wtype: ggml.F16, seed: 9},
	"gqa4-f16":    {layers: 4, embd: 256, ff: 512, head: 8, headKV: 2, vocab: 512, wtype: ggml.F16, seed: 1},
	"mha-f32":     {layers: 3, embd: 256, ff: 768, head: 8, headKV: 8, vocab: 256, wtype: ggml.F32, seed: 2},
	"tied-bf16":   {layers: 2, embd: 256, ff: 512, head: 4, headKV: 2, vocab: 256, wtype: ggml.BF16, tied: true, seed: 3},
	"extra-f16":   {layers: 2, embd: 256, ff: 512, head: 8, headKV: 2, vocab: 256, wtype: ggml.F16, extra: true, seed: 4},
	"shuffle-f16": {layers: 9, embd: 256, ff: 256, head: 8, headKV: 1, vocab: 256, wtype: ggml.F16, shuffle: true, seed: 5},
	"moe8-f16":    {layers: 2, embd: 256, ff: 256, head: 8, headKV: 8, vocab: 256, wtype: ggml.F16, experts: 8, seed: 6},
	"moe4-f16":    {layers: 8, embd: 256, ff: 256, head: 8, headKV: 2, vocab: 256, wtype: ggml.F16, experts: 4, shuffle: true, seed: 7},
	"llama70b-f16": {layers: 80, embd: 256, ff: 256, head: 8, headKV: 1, vocab: 256, wtype: ggml.F16, seed: 8,
		only: []FileType{Q2_K, Q3_K_S, Q3_K_M, Q4_K_S, Q4_K_M, Q5_K_M}},
}

// TestOracleFiles writes, when GGUFCONV_ORACLE_DIR is set, every oracle
// model (NAME.gguf) and ConvertGGUF's output for every file type
// (NAME.FTYPE.go.gguf, and NAME.FTYPE.pure.go.gguf), with LlamaLayout.
func TestOracleFiles(t *testing.T) {
	dir := os.Getenv("GGUFCONV_ORACLE_DIR")
	if dir == "" {
		t.Skip("GGUFCONV_ORACLE_DIR not set")
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for name, m := range oracleModels {
		src := filepath.Join(dir, name+".gguf")
		m.write(t, src)
		fts := m.only
		if len(fts) == 0 {
			fts = FileTypes()
		}
		for _, ft := range fts {
			for _, pure := range []bool{false, true} {
				suffix := ""
				if pure {
					suffix = ".pure"
				}
				dst := filepath.Join(dir, fmt.Sprintf("%s.%s%s.go.gguf", name, ft, suffix))
				_, err := ConvertGGUF(context.Background(), dst, src, Options{FileType: ft, Pure: pure, LlamaLayout: true, Replace: true})
				if err != nil {
					os.WriteFile(dst+".err", []byte(err.Error()+"\n"), 0o666)
				}
			}
		}
	}
}

// benchModel is the ~99M-parameter model of scripts/ggufconv-oracle/bench.sh.
var benchModel = model{layers: 10, embd: 768, ff: 3072, head: 12, headKV: 4, vocab: 8192, wtype: ggml.F16, seed: 10}

// TestBenchModel writes benchModel to GGUFCONV_BENCH_MODEL when it is set.
func TestBenchModel(t *testing.T) {
	path := os.Getenv("GGUFCONV_BENCH_MODEL")
	if path == "" {
		t.Skip("GGUFCONV_BENCH_MODEL not set")
	}
	benchModel.write(t, path)
}
