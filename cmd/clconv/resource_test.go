//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clconv/clconv/safetensors"
)

// resourceBound is the peak resident memory allowed to a conversion below
// (the mapped input pages it touches included).
const resourceBound = 256 << 20

// writeST streams a safetensors file of infos whose data fill writes.
func writeST(t *testing.T, path string, infos []safetensors.TensorInfo, fill func(w *bufio.Writer)) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	sw, err := safetensors.NewWriter(bw, infos, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = sw // the header is written; the data follow as raw bytes
	fill(bw)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestResourceBounds converts the shapes that took gigabytes (issue 41):
// an FP8 weight [1, 100M] with its block scales, a [5000, 5000] F32 tensor
// quantized with one 5000x5000 block, and a million one-element tensors;
// each must peak below resourceBound resident, and the million tensors
// must take seconds, not minutes (logged, not asserted).
func TestResourceBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of MB of input; skipped with -short")
	}
	bin := convBuild(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(41, 41))

	// FP8 [1, 100M], scales [1, 781250] of 0.5, blocks of 128x128.
	const cols = 100_000_000
	fp8dir := filepath.Join(dir, "fp8")
	os.Mkdir(fp8dir, 0o777)
	nsc := int64((cols + 127) / 128)
	writeST(t, filepath.Join(fp8dir, "model.safetensors"), []safetensors.TensorInfo{
		{Name: "w.weight", DType: safetensors.F8_E4M3, Shape: []int64{1, cols}},
		{Name: "w.weight_scale_inv", DType: safetensors.F32, Shape: []int64{1, nsc}},
	}, func(w *bufio.Writer) {
		row := make([]byte, 1<<16)
		for i := range row {
			row[i] = byte(rng.Uint32()) & 0x77
		}
		for n := 0; n < cols; n += len(row) {
			w.Write(row[:min(len(row), cols-n)])
		}
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(0.5))
		for range nsc {
			w.Write(b[:])
		}
	})
	os.WriteFile(filepath.Join(fp8dir, "config.json"), []byte(`{"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}`), 0o666)

	// F32 [5000, 5000] of normal values.
	block := filepath.Join(dir, "block.safetensors")
	writeST(t, block, []safetensors.TensorInfo{{Name: "w", DType: safetensors.F32, Shape: []int64{5000, 5000}}}, func(w *bufio.Writer) {
		var b [4]byte
		for range 5000 * 5000 {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(float32(rng.NormFloat64())))
			w.Write(b[:])
		}
	})

	// A million one-element F32 tensors.
	tiny := filepath.Join(dir, "tiny.safetensors")
	infos := make([]safetensors.TensorInfo, 1_000_000)
	for i := range infos {
		infos[i] = safetensors.TensorInfo{Name: "t" + strconv.Itoa(i), DType: safetensors.F32, Shape: []int64{1}}
	}
	writeST(t, tiny, infos, func(w *bufio.Writer) {
		var b [4]byte
		for i := range infos {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(float32(i)))
			w.Write(b[:])
		}
	})

	for _, c := range []struct {
		name  string
		args  []string
		bound int64
	}{
		{"fp8 [1, 100M] to bf16", []string{"convert", "-q", "--to", "bf16", fp8dir, filepath.Join(dir, "fp8-out")}, resourceBound},
		{"e4m3 --block-size 5000x5000", []string{"convert", "-q", "--to", "e4m3", "--block-size", "5000x5000", block, filepath.Join(dir, "block-out.safetensors")}, resourceBound},
		// A million tensors keep about 0.7 KB of bookkeeping each (the
		// parsed header, the plan, the report): bounded by the header's
		// size, not by the data's (docs/SAFETENSORS.md). Before: 6.7 GB.
		{"1M tiny tensors to bf16", []string{"convert", "-q", "--to", "bf16", tiny, filepath.Join(dir, "tiny-out.safetensors")}, 2 << 30},
		{"inspect 1M tiny tensors", []string{"inspect", tiny}, 512 << 20},
	} {
		cmd := exec.Command(bin, c.args...)
		if c.bound == resourceBound {
			// Under a limit of address space too: Go's runtime
			// reserves about 0.8 GiB at start, the input's mapping
			// 0.1 GiB; before issue 41 these took 0.8-2 GB of heap.
			cmd = exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 2097152 && exec "$0" "$@"`, bin}, c.args...)...)
		}
		start := time.Now()
		rss, out, err := peakRSS(cmd)
		if err != nil {
			t.Errorf("%s: %v\n%.2000s", c.name, err, out)
			continue
		}
		t.Logf("%s: %.2f s, peak RSS %d MiB", c.name, time.Since(start).Seconds(), rss>>20)
		if rss > c.bound {
			t.Errorf("%s: peak RSS %d MiB, bound %d MiB", c.name, rss>>20, c.bound>>20)
		}
	}
}

// peakRSS runs cmd (which may exec the measured program from a shell) and returns its peak resident set (VmHWM, polled from
// /proc while it runs: rusage's ru_maxrss would include the test process's
// own, which a vfork'd child inherits across exec), and its output.
func peakRSS(cmd *exec.Cmd) (int64, []byte, error) {
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		return 0, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	var peak int64
	for {
		if b, err := os.ReadFile(status); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
					peak = max(peak, kb<<10)
				}
			}
		}
		select {
		case err := <-done:
			return peak, buf.Bytes(), err
		case <-time.After(5 * time.Millisecond):
		}
	}
}
