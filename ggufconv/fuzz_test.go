package ggufconv

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/ggml"
)

// FuzzConvert runs every conversion on any bytes: a file gguf.Read
// refuses is an error, one it accepts is converted or refused with an
// error, never a panic, and no temporary file is left either way.
func FuzzConvert(f *testing.F) {
	tiny, err := os.ReadFile(filepath.Join("testdata", "tiny-f16.gguf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tiny)
	f.Add(tiny[:len(tiny)/2])
	q4, err := os.ReadFile(filepath.Join("testdata", "tiny-f16.Q4_K_M.llama.gguf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(q4)
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<20 {
			return
		}
		dir := t.TempDir()
		src := filepath.Join(dir, "in.gguf")
		if err := os.WriteFile(src, b, 0o666); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for i, opt := range []Options{
			{To: ggml.Q8_0, Workers: 2},
			{FileType: Q4_K_M, LlamaLayout: true},
			{To: ggml.Q4_K, Requantize: true},
		} {
			dst := filepath.Join(dir, "out"+string(rune('0'+i))+".gguf")
			ConvertGGUF(ctx, dst, src, opt)
		}
		ToSafetensors(ctx, filepath.Join(dir, "out.safetensors"), src, cltype.BFloat16, Options{})
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if n := e.Name(); n != "in.gguf" && filepath.Ext(n) != ".gguf" && filepath.Ext(n) != ".safetensors" {
				t.Errorf("left %s", n)
			}
		}
	})
}
