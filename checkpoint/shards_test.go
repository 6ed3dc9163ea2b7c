package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/safetensors"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"5GB": 5e9, "500MiB": 500 << 20, "2.5gb": 2.5e9, "123": 123, " 1 KiB ": 1024, "10kb": 1e4, "7B": 7} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "GB", "-1GB", "0", "5XB", "1e30GB", "0.1", "NaNGB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}

// TestMaxShardSize: a checkpoint's output cut into shards of a chosen size,
// as save_pretrained cuts them, holds the same tensors with the same bytes
// as the conversion that keeps the input's shards; its index maps each
// tensor to the shard that holds it; a quantized weight's scale stays in
// its shard; a tensor larger than the size has a shard of its own.
func TestMaxShardSize(t *testing.T) {
	in := t.TempDir()
	rng := rand.New(rand.NewPCG(21, 22))
	bf := func(name string, shape ...int64) tensor { return rawFinite(name, safetensors.BF16, shape, rng) }
	writeFile(t, in, "model-00001-of-00002.safetensors", map[string]string{"format": "pt"},
		bf("model.embed_tokens.weight", 64, 32), bf("model.layers.0.self_attn.q_proj.weight", 32, 32), bf("model.layers.0.input_layernorm.weight", 32))
	writeFile(t, in, "model-00002-of-00002.safetensors", map[string]string{"format": "pt"},
		bf("model.layers.0.mlp.down_proj.weight", 32, 64), bf("model.norm.weight", 32), bf("lm_head.weight", 64, 32))
	idx := `{"metadata": {"total_size": 1, "kept": "yes"}, "weight_map": {"model.embed_tokens.weight": "model-00001-of-00002.safetensors", "model.layers.0.self_attn.q_proj.weight": "model-00001-of-00002.safetensors", "model.layers.0.input_layernorm.weight": "model-00001-of-00002.safetensors", "model.layers.0.mlp.down_proj.weight": "model-00002-of-00002.safetensors", "model.norm.weight": "model-00002-of-00002.safetensors", "lm_head.weight": "model-00002-of-00002.safetensors"}}`
	if err := os.WriteFile(filepath.Join(in, "model.safetensors.index.json"), []byte(idx), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		opt    Options
		max    int64
		shards []string
	}{
		// F32: embed 8192 | q 4096, ln 128 | down 8192 | norm 128 | lm_head 8192.
		{"f32-6KB", Options{To: cltype.Float}, 6000, []string{"model-00001-of-00005.safetensors", "model-00002-of-00005.safetensors", "model-00003-of-00005.safetensors", "model-00004-of-00005.safetensors", "model-00005-of-00005.safetensors"}},
		{"f32-one", Options{To: cltype.Float}, 1 << 30, []string{"model.safetensors"}},
		// FP8 with 16x16 scales: q 1024 + 16, down 2048 + 32 stay together.
		{"fp8-3KB", Options{To: cltype.E4M3, BlockSize: [2]int{16, 16}}, 3000, nil},
	} {
		ref := filepath.Join(t.TempDir(), "ref")
		if _, err := ConvertCheckpoint(context.Background(), ref, in, false, c.opt); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "out")
		o := c.opt
		o.MaxShardSize = c.max
		rep, err := ConvertCheckpoint(context.Background(), out, in, false, o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var shards []string
		names, _ := os.ReadDir(out)
		for _, e := range names {
			if strings.HasSuffix(e.Name(), ".safetensors") {
				shards = append(shards, e.Name())
			}
		}
		if c.shards != nil && !slices.Equal(shards, c.shards) {
			t.Errorf("%s: shards %v, want %v", c.name, shards, c.shards)
		}
		if rep.Shards != len(shards) {
			t.Errorf("%s: report says %d shards, %d written", c.name, rep.Shards, len(shards))
		}
		refData := map[string][]byte{}
		for _, n := range []string{"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"} {
			_, d := readBack(t, filepath.Join(ref, n))
			for k, v := range d {
				refData[k] = v
			}
		}
		holder := map[string]string{}
		for _, n := range shards {
			f, d := readBack(t, filepath.Join(out, n))
			var size int64
			for _, ti := range f.Tensors {
				holder[ti.Name] = n
				size += ti.Bytes()
				if !bytes.Equal(d[ti.Name], refData[ti.Name]) {
					t.Errorf("%s: %s in %s differs from the conversion with the input's shards", c.name, ti.Name, n)
				}
			}
			if size > c.max && len(f.Tensors) > 1 && !strings.HasSuffix(f.Tensors[len(f.Tensors)-1].Name, "_scale_inv") {
				t.Errorf("%s: %s holds %d bytes of %d tensors, over %d", c.name, n, size, len(f.Tensors), c.max)
			}
			if f.Metadata["format"] != "pt" {
				t.Errorf("%s: %s metadata %v", c.name, n, f.Metadata)
			}
		}
		if len(holder) != len(refData) {
			t.Errorf("%s: %d tensors written, want %d", c.name, len(holder), len(refData))
		}
		for name, n := range holder {
			if s, ok := strings.CutSuffix(name, "_scale_inv"); ok && holder[s] != n {
				t.Errorf("%s: scale %s in %s, its weight in %s", c.name, name, n, holder[s])
			}
		}
		b, err := os.ReadFile(filepath.Join(out, "model.safetensors.index.json"))
		if len(shards) == 1 {
			if err == nil {
				t.Errorf("%s: one shard with an index", c.name)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var ix struct {
			Metadata  map[string]any    `json:"metadata"`
			WeightMap map[string]string `json:"weight_map"`
		}
		if err := json.Unmarshal(b, &ix); err != nil {
			t.Fatal(err)
		}
		var total int64
		for _, n := range shards {
			f, _ := readBack(t, filepath.Join(out, n))
			for _, ti := range f.Tensors {
				total += ti.Bytes()
			}
		}
		if len(ix.WeightMap) != len(holder) || ix.Metadata["kept"] != "yes" || ix.Metadata["total_size"] != float64(total) {
			t.Errorf("%s: index %s", c.name, b)
		}
		for name, n := range ix.WeightMap {
			if holder[name] != n {
				t.Errorf("%s: index puts %s in %s, it is in %s", c.name, name, n, holder[name])
			}
		}
	}
	// --force replaces a resharded output (its names are clconv's); a
	// single file has no shards.
	out := filepath.Join(t.TempDir(), "out")
	for range 2 {
		if _, err := ConvertCheckpoint(context.Background(), out, in, true, Options{To: cltype.Float, MaxShardSize: 6000}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ConvertFile(context.Background(), filepath.Join(t.TempDir(), "o.safetensors"), filepath.Join(in, "model-00001-of-00002.safetensors"), false, Options{To: cltype.Float, MaxShardSize: 6000}); err == nil {
		t.Error("ConvertFile with MaxShardSize: no error")
	}
}
