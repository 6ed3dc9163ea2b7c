package ggufconv

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/ggml"
)

// TestLlamaGolden checks ConvertGGUF against files llama_model_quantize
// wrote (scripts/ggufconv-oracle/run.sh): the tiny model's Q4_K_M and Q8_0
// quantizations byte for byte, and the input itself against the synthetic
// generator.
func TestLlamaGolden(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join("testdata", "tiny-f16.gguf")
	gen := filepath.Join(dir, "tiny.gguf")
	oracleModels["tiny-f16"].write(t, gen)
	a, _ := os.ReadFile(in)
	b, _ := os.ReadFile(gen)
	if !bytes.Equal(a, b) {
		t.Fatal("the synthetic generator no longer makes testdata/tiny-f16.gguf")
	}
	for _, ft := range []FileType{Q4_K_M, Q8_0} {
		for _, workers := range []int{1, 2} {
			dst := filepath.Join(dir, ft.String()+string(rune('0'+workers)))
			if _, err := ConvertGGUF(context.Background(), dst, in, Options{FileType: ft, LlamaLayout: true, Workers: workers}); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(dst)
			want, err := os.ReadFile(filepath.Join("testdata", "tiny-f16."+ft.String()+".llama.gguf"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%v: not llama-quantize's bytes", ft)
			}
		}
	}
}

// TestLlamaHashes regenerates every oracle model and checks ConvertGGUF's
// output for every file type against the SHA-256 of llama_model_quantize's
// (testdata/llama-sha256.txt).
func TestLlamaHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates 9 models and ~250 quantizations")
	}
	f, err := os.Open(filepath.Join("testdata", "llama-sha256.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		want[fs[0]+" "+fs[1]] = fs[2]
	}
	dir := t.TempDir()
	checked := 0
	for name, m := range oracleModels {
		src := filepath.Join(dir, name+".gguf")
		m.write(t, src)
		for _, ft := range FileTypes() {
			for _, pure := range []bool{false, true} {
				label := name + " " + ft.String()
				if pure {
					label += ".pure"
				}
				h, ok := want[label]
				if !ok || !*long && !oracleDefault(name, ft, pure) {
					continue
				}
				dst := filepath.Join(dir, "out.gguf")
				if _, err := ConvertGGUF(context.Background(), dst, src, Options{FileType: ft, PlanOptions: PlanOptions{Pure: pure}, LlamaLayout: true, Replace: true}); err != nil {
					t.Errorf("%s: %v", label, err)
					continue
				}
				b, _ := os.ReadFile(dst)
				sum := sha256.Sum256(b)
				if hex.EncodeToString(sum[:]) != h {
					t.Errorf("%s: not llama-quantize's bytes", label)
				}
				checked++
			}
		}
	}
	if min := map[bool]int{false: 150, true: 350}[*long]; checked < min {
		t.Errorf("only %d files checked", checked)
	}
}

// TestLlamaOverrideHashes checks ConvertGGUF with llama-quantize's
// overrides (oracleOverrides) against the SHA-256 of llama_model_quantize's
// files given the same choices (testdata/llama-overrides-sha256.txt,
// written by scripts/ggufconv-oracle/run.sh).
func TestLlamaOverrideHashes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "llama-overrides-sha256.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		fs := strings.Fields(line)
		want[fs[0]+" "+fs[1]] = fs[2]
	}
	dir := t.TempDir()
	written := map[string]bool{}
	for _, o := range oracleOverrides {
		if testing.Short() && o.name != "out-q8_0" && o.name != "tied-out-q5_K" {
			continue // two small cases (the ports run -short, under emulation)
		}
		h, ok := want[o.model+" ov-"+o.name]
		if !ok {
			t.Errorf("%s ov-%s: no hash of llama-quantize's file", o.model, o.name)
			continue
		}
		src := filepath.Join(dir, o.model+".gguf")
		if !written[src] {
			oracleModels[o.model].write(t, src)
			written[src] = true
		}
		dst := filepath.Join(dir, "out.gguf")
		opt := Options{FileType: o.ft, PlanOptions: o.po, LlamaLayout: true, Replace: true}
		if _, err := ConvertGGUF(context.Background(), dst, src, opt); err != nil {
			t.Errorf("%s ov-%s: %v", o.model, o.name, err)
			continue
		}
		got, _ := os.ReadFile(dst)
		if sum := sha256.Sum256(got); hex.EncodeToString(sum[:]) != h {
			t.Errorf("%s ov-%s: not llama-quantize's bytes", o.model, o.name)
		}
	}
}

// long checks every file of the oracle; without it, TestLlamaHashes checks
// the non-pure files of every model but the 80-layer one (its Q4_K_M only)
// and the pure files of the tiny model: about half the work, every rule.
var long = flag.Bool("long", false, "check all of llama-quantize's files (TestLlamaHashes), the pure ones and the 80-layer model included")

func oracleDefault(name string, ft FileType, pure bool) bool {
	switch {
	case name == "llama70b-f16":
		return ft == Q4_K_M && !pure
	case pure:
		return name == "tiny-f16"
	}
	return true
}

// TestPlanOptionsNeedFileType: llama-quantize's choices are refused with a
// tensor type (they refine a file type's rules).
func TestPlanOptionsNeedFileType(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "m.gguf")
	oracleModels["tiny-f16"].write(t, src)
	for _, po := range []PlanOptions{{Pure: true}, {LeaveOutput: true}, {OutputType: typ(ggml.Q8_0)}, {TensorTypes: []TensorTypeRule{{"attn", ggml.Q8_0}}}} {
		if _, err := ConvertGGUF(context.Background(), filepath.Join(dir, "o.gguf"), src, Options{To: ggml.Q8_0, PlanOptions: po}); err == nil || !strings.Contains(err.Error(), "give a FileType") {
			t.Errorf("%+v: %v", po, err)
		}
	}
}
