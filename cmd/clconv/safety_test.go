package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// convTree lists every path under dir, relative, sorted.
func convTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != dir {
			r, _ := filepath.Rel(dir, p)
			out = append(out, r)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// stCheckpoint writes a two-shard checkpoint directory (F32 tensors, an
// index) at dir.
func stCheckpoint(t *testing.T, dir string) {
	t.Helper()
	os.MkdirAll(dir, 0o777)
	for i, name := range []string{"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"} {
		var buf bytes.Buffer
		w, err := safetensors.NewWriter(&buf, []safetensors.TensorInfo{{Name: string(rune('a' + i)), DType: safetensors.F32, Shape: []int64{2}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(convFloats(1.5, -2))
		w.Close()
		convWrite(t, dir, name, buf.Bytes())
	}
	convWrite(t, dir, "model.safetensors.index.json", []byte(`{"weight_map": {"a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}}`))
}

// TestConvertNeverLosesFiles: the attacks of issue 41 on --force.
func TestConvertNeverLosesFiles(t *testing.T) {
	root := t.TempDir()
	model := filepath.Join(root, "parent", "model")
	stCheckpoint(t, model)
	precious := filepath.Join(root, "precious")
	os.Mkdir(precious, 0o777)
	convWrite(t, precious, "notes.txt", []byte("mine"))
	before := convTree(t, root)
	for _, c := range []struct{ out, want string }{
		{precious, `holds "notes.txt"`},
		{filepath.Join(root, "parent"), "contains the input"},
		{model, "is the input"},
		{filepath.Join(model, "sub"), "inside the input directory"},
	} {
		_, stderr, st := convRun(t, nil, "convert", "--force", "--to", "bf16", model, c.out)
		if st != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("OUT %s: status %d, stderr %q; want 2 and %q", c.out, st, stderr, c.want)
		}
	}
	if after := convTree(t, root); !slices.Equal(after, before) {
		t.Errorf("files now %v, were %v", after, before)
	}
	// .npy: OUT's directory must exist, and is named.
	in := filepath.Join(model, "model-00001-of-00002.safetensors")
	_, stderr, st := convRun(t, nil, "convert", "--to", "bf16", in, filepath.Join(root, "missing", "o.safetensors"))
	if st != 2 || !strings.Contains(stderr, "does not exist") || strings.Contains(stderr, fileconv.TempPrefix) {
		t.Errorf("missing OUT directory: %d %q", st, stderr)
	}
}

// TestConvertWarnsAndRefuses: silent wrong weights become errors or
// warnings; statuses follow the convention.
func TestConvertWarnsAndRefuses(t *testing.T) {
	dir := t.TempDir()
	in := stFile(t, dir, 1, 1000, -1e30)
	out := filepath.Join(dir, "o.safetensors")
	_, stderr, st := convRun(t, nil, "convert", "--to", "e4m3", "--skip", "nomatch", in, out)
	for _, w := range []string{"warning: 2 finite value(s) became NaN", `--skip "nomatch" matches no tensor`, "--sat"} {
		if st != 0 || !strings.Contains(stderr, w) {
			t.Errorf("status %d, stderr %q lacks %q", st, stderr, w)
		}
	}
	stdout, _, _ := convRun(t, nil, "inspect", "--stats", "--to", "e4m3", in)
	if !strings.Contains(stdout, "e4m3") {
		t.Errorf("inspect: %s", stdout)
	}
	// --workers is capped.
	_, stderr, st = convRun(t, nil, "convert", "--workers", "100000", "--to", "bf16", in, filepath.Join(dir, "w.safetensors"))
	if st != 2 || !strings.Contains(stderr, "--workers 100000") {
		t.Errorf("--workers: %d %q", st, stderr)
	}
	// A bad index reached through its directory gets the index's message.
	ck := filepath.Join(dir, "ck")
	stCheckpoint(t, ck)
	convWrite(t, ck, "model.safetensors.index.json", []byte(`{"weight_map": `))
	_, stderr, st = convRun(t, nil, "convert", "--to", "bf16", ck, filepath.Join(dir, "ck2"))
	if st != 1 || !strings.Contains(stderr, "model.safetensors.index.json") || strings.Contains(stderr, "is a directory") {
		t.Errorf("bad index: %d %q", st, stderr)
	}
	// A FIFO as a shard is refused, not opened.
	fifo := filepath.Join(dir, "fifo.safetensors")
	if err := syscall.Mkfifo(fifo, 0o666); err == nil {
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, stderr, st := convRun(t, nil, "inspect", fifo)
			if st != 2 || !strings.Contains(stderr, "not a regular file") {
				t.Errorf("FIFO: %d %q", st, stderr)
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("inspect of a FIFO blocked")
		}
	}
}

// TestInspectEscapesNames: names reach the terminal escaped.
func TestInspectEscapesNames(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w, err := safetensors.NewWriter(&buf, []safetensors.TensorInfo{{Name: "evil\x1b[2J\x00name", DType: safetensors.F32, Shape: []int64{1}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(convFloats(1))
	w.Close()
	in := convWrite(t, dir, "e.safetensors", buf.Bytes())
	stdout, _, st := convRun(t, nil, "inspect", in)
	if st != 0 || strings.ContainsAny(stdout, "\x1b\x00") || !strings.Contains(stdout, `evil\x1b[2J\x00name`) {
		t.Errorf("inspect: %d %q", st, stdout)
	}
}

// TestInterruptSafetensors interrupts the built binary in the middle of
// converting a 1 GiB safetensors file (and a checkpoint directory), and
// checks that it exits 130/143, leaves no temporary file, and keeps an
// existing output.
func TestInterruptSafetensors(t *testing.T) {
	if testing.Short() {
		t.Skip("1 GiB input; skipped with -short")
	}
	bin := convBuild(t)
	src := t.TempDir()
	// One F32 tensor of 1 GiB, sparse on disk.
	n := int64(1 << 28)
	var hdr bytes.Buffer
	// The writer writes the header at once; the data is a hole.
	if _, err := safetensors.NewWriter(&hdr, []safetensors.TensorInfo{{Name: "w", DType: safetensors.F32, Shape: []int64{n}}}, nil); err != nil {
		t.Fatal(err)
	}
	hb := hdr.Bytes()
	in := filepath.Join(src, "big.safetensors")
	f, _ := os.Create(in)
	f.Write(hb)
	f.Truncate(int64(len(hb)) + 4*n)
	f.Close()
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		dir  bool
	}{
		{"file SIGINT", syscall.SIGINT, false},
		{"file SIGTERM", syscall.SIGTERM, false},
		{"checkpoint SIGINT", syscall.SIGINT, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outDir := t.TempDir()
			out := filepath.Join(outDir, "out.safetensors")
			input := in
			if tc.dir {
				out = filepath.Join(outDir, "ck")
				input = src
			}
			convWrite(t, outDir, "keep.txt", []byte("mine"))
			cmd := exec.Command(bin, "convert", "--to", "bf16", "--workers", "1", input, out)
			r := convStart(t, cmd)
			stderr, exited := &r.stderr, r.exited
			deadline := time.Now().Add(60 * time.Second)
			for found := false; !found; {
				if time.Now().After(deadline) {
					t.Fatal("no temporary output appeared")
				}
				for _, p := range convTree(t, outDir) {
					if strings.Contains(p, fileconv.TempPrefix) {
						found = true
					}
				}
				select {
				case <-exited:
					t.Fatalf("exited before the signal: %s", stderr.String())
				case <-time.After(2 * time.Millisecond):
				}
			}
			time.Sleep(50 * time.Millisecond)
			cmd.Process.Signal(tc.sig)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("clconv did not exit after the signal")
			}
			want := 130
			if tc.sig == syscall.SIGTERM {
				want = 143
			}
			var ee *exec.ExitError
			if !errors.As(r.err, &ee) || ee.ExitCode() != want {
				t.Errorf("exit %v, want %d (stderr %q)", r.err, want, stderr.String())
			}
			if got := convTree(t, outDir); !slices.Equal(got, []string{"keep.txt"}) {
				t.Errorf("after the signal the directory holds %v", got)
			}
		})
	}
}

// TestTruncatedWhileMapped truncates a safetensors input while it is being
// converted: a clean error with status 1 (the input is no longer a valid
// file), no stack dump, no temporary file.
func TestTruncatedWhileMapped(t *testing.T) {
	if testing.Short() {
		t.Skip("256 MiB input; skipped with -short")
	}
	bin := convBuild(t)
	dir := t.TempDir()
	n := int64(1 << 26)
	var hdr bytes.Buffer
	safetensors.NewWriter(&hdr, []safetensors.TensorInfo{{Name: "w", DType: safetensors.F32, Shape: []int64{n}}}, nil)
	in := filepath.Join(dir, "in.safetensors")
	data := make([]byte, 4*n)
	for i := int64(0); i < n; i += 1024 {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i)))
	}
	os.WriteFile(in, append(hdr.Bytes(), data...), 0o666)
	outDir := t.TempDir()
	cmd := exec.Command(bin, "convert", "--to", "bf16", "--workers", "1", in, filepath.Join(outDir, "o.safetensors"))
	r := convStart(t, cmd)
	stderr, exited := &r.stderr, r.exited
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		if len(convTree(t, outDir)) > 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	os.Truncate(in, int64(hdr.Len())+4096)
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no exit")
	}
	if r.err == nil {
		t.Skip("the conversion finished before the truncation")
	}
	var ee *exec.ExitError
	if !errors.As(r.err, &ee) || ee.ExitCode() != 1 || strings.Contains(stderr.String(), "goroutine ") {
		t.Errorf("exit %v, stderr %q", r.err, stderr.String())
	}
	if got := convTree(t, outDir); len(got) != 0 {
		t.Errorf("left %v", got)
	}
}

// TestErrorsNameTheFile: a corrupt shard, a single-file error and a bad
// index each name their file, with the documented status.
func TestErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "ck")
	stCheckpoint(t, ck)
	shard := filepath.Join(ck, "model-00002-of-00002.safetensors")
	b, _ := os.ReadFile(shard)
	os.WriteFile(shard, b[:len(b)-3], 0o666) // truncated data
	_, stderr, st := convRun(t, nil, "convert", "--to", "bf16", ck, filepath.Join(dir, "o"))
	if st != 1 || !strings.Contains(stderr, shard) {
		t.Errorf("corrupt shard: %d %q", st, stderr)
	}
	_, stderr, st = convRun(t, nil, "convert", "--to", "bf16", shard, filepath.Join(dir, "o.safetensors"))
	if st != 1 || !strings.Contains(stderr, shard) {
		t.Errorf("corrupt file: %d %q", st, stderr)
	}
	_, stderr, st = convRun(t, nil, "inspect", ck)
	if st != 1 || !strings.Contains(stderr, shard) {
		t.Errorf("inspect corrupt shard: %d %q", st, stderr)
	}
	if got := convTree(t, dir); slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, "o") || strings.Contains(p, fileconv.TempPrefix) }) {
		t.Errorf("left %v", got)
	}
}

// TestInspectLayouts: inspect groups a block-scaled weight with its scale
// and names the layout and block size, and names an incomplete one.
func TestInspectLayouts(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	w, err := safetensors.NewWriter(&buf, []safetensors.TensorInfo{
		{Name: "x.weight", DType: safetensors.F8_E4M3, Shape: []int64{4, 6}},
		{Name: "x.weight_scale_inv", DType: safetensors.F32, Shape: []int64{2, 3}},
		{Name: "e.blocks", DType: safetensors.U8, Shape: []int64{2, 1, 16}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(make([]byte, 24))
	w.Write(convFloats(1, 1, 1, 1, 1, 1))
	w.Write(make([]byte, 32))
	w.Close()
	in := convWrite(t, dir, "m.safetensors", buf.Bytes())
	convWrite(t, dir, "config.json", []byte(`{"quantization_config": {"quant_method": "fp8", "weight_block_size": [2, 2]}}`))
	stdout, stderr, st := convRun(t, nil, "inspect", in)
	for _, want := range []string{"layouts:", "x.weight  fp8  blocks 2x2  scales x.weight_scale_inv", `e.blocks  incomplete: is MXFP4 blocks`} {
		if st != 0 || !strings.Contains(stdout, want) {
			t.Errorf("inspect: %d %q lacks %q (%s)", st, stdout, want, stderr)
		}
	}
	stdout, _, _ = convRun(t, nil, "inspect", "--json", in)
	if !strings.Contains(stdout, `"layouts"`) || !strings.Contains(stdout, `"kind": "fp8"`) {
		t.Errorf("inspect --json: %s", stdout)
	}
	// --stats: the dequantized range of each complete layout (the weight's
	// codes are all zero, so all its values are).
	stdout, stderr, st = convRun(t, nil, "inspect", "--stats", in)
	if st != 0 || !strings.Contains(stdout, "dequantized: [0, 0] over 24 values") {
		t.Errorf("inspect --stats: %d %q (%s)", st, stdout, stderr)
	}
	stdout, _, _ = convRun(t, nil, "inspect", "--stats", "--json", in)
	if !strings.Contains(stdout, `"dequantized": {`) || !strings.Contains(stdout, `"count": 24`) {
		t.Errorf("inspect --stats --json: %s", stdout)
	}
}
