package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
)

// convBuild builds the clconv binary into a temporary directory.
func convBuild(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("signals")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	bin := filepath.Join(t.TempDir(), "clconv")
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// convRunning is a started command: its stderr, a channel closed when it
// has exited, and then its Wait error.
type convRunning struct {
	stderr bytes.Buffer
	exited chan struct{}
	err    error
}

// convStart starts cmd with its stderr captured.
func convStart(t *testing.T, cmd *exec.Cmd) *convRunning {
	t.Helper()
	r := &convRunning{exited: make(chan struct{})}
	cmd.Stderr = &r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.err = cmd.Wait(); close(r.exited) }()
	return r
}

// convWaitTemp waits until dir holds a temporary output file with data.
func convWaitTemp(t *testing.T, dir string, exited <-chan struct{}) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for _, n := range convDirNames(t, dir) {
			if fileconv.IsTempName(n) {
				if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.Size() > 0 {
					return
				}
			}
		}
		select {
		case <-exited:
			t.Fatal("clconv exited before it was interrupted")
		case <-time.After(5 * time.Millisecond):
		}
	}
	t.Fatal("no temporary output appeared")
}

// TestInterrupt starts the built binary, interrupts it while it is writing
// its output, and checks that it exits with 128+signal, leaves no partial
// output and no temporary file, and does not touch an existing OUT. The
// input is a pipe that delivers part of a .npy file and then stalls (so the
// interrupt lands mid-way for certain), and a 2 GiB sparse file (a real
// interrupt of a busy conversion).
func TestInterrupt(t *testing.T) {
	bin := convBuild(t)
	for _, tc := range []struct {
		name   string
		sig    syscall.Signal
		status int
		pipe   bool
		force  bool
	}{
		{"pipe SIGINT", syscall.SIGINT, 130, true, false},
		{"pipe SIGTERM existing OUT", syscall.SIGTERM, 143, true, true},
		{"file SIGINT existing OUT", syscall.SIGINT, 130, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.pipe && testing.Short() {
				t.Skip("2 GiB sparse file; skipped with -short")
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out.npy")
			if tc.force {
				convWrite(t, dir, "out.npy", []byte("precious"))
			}
			args := []string{"convert", "--to", "uchar", "--sat", "--stats"}
			if tc.force {
				args = append(args, "--force")
			}
			var pw *os.File
			var in string
			cmd := exec.Command(bin)
			if tc.pipe {
				pr, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer pr.Close()
				defer w.Close()
				cmd.Stdin, pw, in = pr, w, "-"
			} else {
				in = filepath.Join(t.TempDir(), "in.npy")
				f, err := os.Create(in)
				if err != nil {
					t.Fatal(err)
				}
				n := int64(1 << 29)
				hdr := fileconv.EncodeHeader(cltype.Float, false, []int64{n}, 0)
				f.Write(hdr)
				if err := f.Truncate(int64(len(hdr)) + 4*n); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			cmd.Args = append(append([]string{bin}, args...), in, out)
			r := convStart(t, cmd)
			stderr, exited := &r.stderr, r.exited
			if tc.pipe {
				hdr := fileconv.EncodeHeader(cltype.Float, false, []int64{1 << 24}, 0)
				if _, err := pw.Write(append(hdr, make([]byte, 4<<20)...)); err != nil {
					t.Fatal(err)
				}
			}
			convWaitTemp(t, dir, exited)
			cmd.Process.Signal(tc.sig)
			select {
			case <-exited:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("clconv did not exit after the signal")
			}
			var ee *exec.ExitError
			if !errors.As(r.err, &ee) || ee.ExitCode() != tc.status {
				t.Errorf("exit: %v; want status %d (stderr %q)", r.err, tc.status, stderr.String())
			}
			if !bytes.Contains(stderr.Bytes(), []byte("no output written")) {
				t.Errorf("stderr %q", stderr.String())
			}
			want := []string(nil)
			if tc.force {
				want = []string{"out.npy"}
				if b, _ := os.ReadFile(out); string(b) != "precious" {
					t.Errorf("existing OUT became %.20q", b)
				}
			}
			if names := convDirNames(t, dir); !slices.Equal(names, want) {
				t.Errorf("directory after the interrupt: %v, want %v", names, want)
			}
		})
	}
}
