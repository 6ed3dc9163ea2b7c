package checkpoint

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/safetensors"
)

// TestDequantizedRanges: each layout's range is that of its weight
// converted to double by ConvertFile, counted here from the output file;
// the FP8 weight's also from its codes times its scales.
func TestDequantizedRanges(t *testing.T) {
	dir := t.TempDir()
	fp8 := fp8BlockCheckpoint(t, dir)
	rng := rand.New(rand.NewPCG(5, 6))
	blocks := rawTensor("m.experts.w_blocks", safetensors.U8, []int64{2, 3, 16}, rng)
	scales := rawTensor("m.experts.w_scales", safetensors.U8, []int64{2, 3}, rng)
	copy(scales.data, []byte{127, 0, 254, 0xff, 100, 140}) // one NaN scale
	mxPath := writeFile(t, t.TempDir(), "mx.safetensors", nil, blocks, scales)
	for _, c := range []struct {
		path, cfg string
		weights   map[string]string // layout weight -> its dequantized name
	}{
		{fp8, dir, map[string]string{"x.weight": "x.weight"}},
		{mxPath, "", map[string]string{"m.experts.w_blocks": "m.experts.w"}},
	} {
		f, err := Open(c.path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, err := DequantizedRanges(context.Background(), []*safetensors.File{f}, c.cfg, 2)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "d.safetensors")
		opt := Options{To: cltype.Double}
		if c.cfg != "" {
			opt.WeightBlockSize = [2]int{2, 2}
		}
		if _, err := ConvertFile(context.Background(), out, c.path, false, opt); err != nil {
			t.Fatal(err)
		}
		_, data := readBack(t, out)
		for w, deq := range c.weights {
			var want Range
			want.add(data[deq])
			if got[w] != want {
				t.Errorf("%s: range %+v, want %+v", w, got[w], want)
			}
			if want.Finite == 0 || w == "m.experts.w_blocks" && want.NaN != 32 {
				t.Errorf("%s: test data: %+v", w, want)
			}
		}
		if len(got) != len(c.weights) {
			t.Errorf("ranges %v", got)
		}
	}
	// The FP8 weight's range from its codes and scales.
	f, _ := Open(fp8)
	defer f.Close()
	got, _ := DequantizedRanges(context.Background(), []*safetensors.File{f}, dir, 1)
	_, raw := readBack(t, fp8)
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := range 4 {
		for col := range 64 {
			s := float64(math.Float32frombits(binary.LittleEndian.Uint32(raw["x.weight_scale_inv"][4*((r/2)*32+col/2):])))
			v := fp8Values(safetensors.F8_E4M3)[raw["x.weight"][r*64+col]] * s
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if r := got["x.weight"]; r.Min != lo || r.Max != hi || r.Count != 256 {
		t.Errorf("x.weight: %+v, want min %g max %g of 256", r, lo, hi)
	}
}
