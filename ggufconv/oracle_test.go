package ggufconv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	"falcon-f16":  {layers: 32, embd: 256, ff: 1024, head: 8, headKV: 1, vocab: 256, wtype: ggml.F16, arch: "falcon", seed: 11},
	"qwen2-bf16":  {layers: 12, embd: 256, ff: 512, head: 8, headKV: 2, vocab: 512, wtype: ggml.BF16, arch: "qwen2", seed: 12},
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
				_, err := ConvertGGUF(context.Background(), dst, src, Options{FileType: ft, PlanOptions: PlanOptions{Pure: pure}, LlamaLayout: true, Replace: true})
				if err != nil {
					os.WriteFile(dst+".err", []byte(err.Error()+"\n"), 0o666)
				}
			}
		}
	}
	// NAME.ov-CASE.go.gguf, with NAME.ov-CASE.env for the oracle.
	for _, o := range oracleOverrides {
		src := filepath.Join(dir, o.model+".gguf")
		dst := filepath.Join(dir, fmt.Sprintf("%s.ov-%s.go.gguf", o.model, o.name))
		os.WriteFile(strings.TrimSuffix(dst, ".go.gguf")+".env", []byte(o.env()+"\n"), 0o666)
		opt := Options{FileType: o.ft, PlanOptions: o.po, LlamaLayout: true, Replace: true}
		if _, err := ConvertGGUF(context.Background(), dst, src, opt); err != nil {
			os.WriteFile(dst+".err", []byte(err.Error()+"\n"), 0o666)
		}
	}
}

// oracleOverride is a run of llama-quantize's choices beside the file type
// (PlanOptions), compared with llama_model_quantize given the same
// llama_model_quantize_params.
type oracleOverride struct {
	name, model string
	ft          FileType
	po          PlanOptions
}

func typ(t ggml.Type) *ggml.Type { return &t }

// oracleOverrides bite where the rules meet: the overrides before the mix,
// the tied output, rules that skip the mix's counters, rules with Pure,
// fallbacks of a rule's type, float types given as overrides.
var oracleOverrides = []oracleOverride{
	{"out-q8_0", "tiny-f16", Q4_K_M, PlanOptions{OutputType: typ(ggml.Q8_0)}},
	{"emb-q4_K", "gqa4-f16", Q4_K_M, PlanOptions{TokenEmbeddingType: typ(ggml.Q4_K)}},
	{"tied-out-q5_K", "tied-bf16", Q4_K_M, PlanOptions{OutputType: typ(ggml.Q5_K)}},
	{"tied-out-pure", "tied-bf16", Q4_K_S, PlanOptions{OutputType: typ(ggml.Q5_K), Pure: true}},
	{"tied-both", "tied-bf16", Q3_K_M, PlanOptions{OutputType: typ(ggml.Q5_K), TokenEmbeddingType: typ(ggml.Q8_0)}},
	{"leave-output", "gqa4-f16", Q4_K_M, PlanOptions{LeaveOutput: true}},
	{"leave-tied", "tied-bf16", Q5_K_M, PlanOptions{LeaveOutput: true}},
	{"rules", "gqa4-f16", Q4_K_M, PlanOptions{TensorTypes: []TensorTypeRule{{"attn_v", ggml.Q8_0}, {"ffn_down", ggml.Q4_K}, {"blk\\.3\\.", ggml.Q5_0}}}},
	{"rules-first-wins", "moe4-f16", Q3_K_M, PlanOptions{TensorTypes: []TensorTypeRule{{"blk\\.[0-3]\\.ffn", ggml.Q6_K}, {"ffn_down", ggml.Q2_K}}}},
	{"rules-pure", "tiny-f16", Q4_K_S, PlanOptions{Pure: true, TensorTypes: []TensorTypeRule{{"attn_(q|k)", ggml.Q8_0}}}},
	{"rules-fallback", "extra-f16", Q4_K_M, PlanOptions{TensorTypes: []TensorTypeRule{{"weight", ggml.Q6_K}}}},
	{"rules-f16", "mha-f32", Q8_0, PlanOptions{TensorTypes: []TensorTypeRule{{"ffn_up", ggml.F16}}, OutputType: typ(ggml.F16), TokenEmbeddingType: typ(ggml.F32)}},
	{"all", "shuffle-f16", Q5_K_S, PlanOptions{OutputType: typ(ggml.Q4_0), TokenEmbeddingType: typ(ggml.Q4_1), TensorTypes: []TensorTypeRule{{"attn_output", ggml.Q5_1}}}},
}

// env returns the overrides as the environment that scripts/ggufconv-oracle's
// oracle reads into llama_model_quantize_params (types by their ggml ids).
func (o oracleOverride) env() string {
	var s []string
	if o.po.OutputType != nil {
		s = append(s, fmt.Sprintf("ORACLE_OUT=%d", *o.po.OutputType))
	}
	if o.po.TokenEmbeddingType != nil {
		s = append(s, fmt.Sprintf("ORACLE_EMB=%d", *o.po.TokenEmbeddingType))
	}
	if o.po.LeaveOutput {
		s = append(s, "ORACLE_LEAVE=1")
	}
	if len(o.po.TensorTypes) > 0 {
		var r []string
		for _, tt := range o.po.TensorTypes {
			r = append(r, fmt.Sprintf("%s=%d", tt.Pattern, tt.Type))
		}
		s = append(s, "ORACLE_TT='"+strings.Join(r, ";")+"'")
	}
	pure := 0
	if o.po.Pure {
		pure = 1
	}
	return fmt.Sprintf("%s ORACLE_FTYPE=%d ORACLE_PURE=%d", strings.Join(s, " "), o.ft.ID(), pure)
}

// benchModel is the ~99M-parameter model of scripts/ggufconv-oracle/bench.sh;
// bench1B, with GGUFCONV_BENCH_SHAPE=1b, a model of Llama 3.2 1B's shape
// (16 layers, n_embd 2048, n_ff 8192, 32 heads and 8 KV heads, a vocabulary
// of 128256 tied to the output: 1.24G parameters).
var (
	benchModel = model{layers: 10, embd: 768, ff: 3072, head: 12, headKV: 4, vocab: 8192, wtype: ggml.F16, seed: 10}
	bench1B    = model{layers: 16, embd: 2048, ff: 8192, head: 32, headKV: 8, vocab: 128256, tied: true, wtype: ggml.F16, seed: 11}
)

// TestBenchModel writes benchModel (or bench1B) to GGUFCONV_BENCH_MODEL when
// it is set.
func TestBenchModel(t *testing.T) {
	path := os.Getenv("GGUFCONV_BENCH_MODEL")
	if path == "" {
		t.Skip("GGUFCONV_BENCH_MODEL not set")
	}
	m := benchModel
	if os.Getenv("GGUFCONV_BENCH_SHAPE") == "1b" {
		m = bench1B
	}
	m.write(t, path)
}
