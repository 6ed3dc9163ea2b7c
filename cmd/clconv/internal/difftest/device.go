package difftest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
)

// The device side. PoCL compiles in the calling process (the program's
// module at clBuildProgram, each kernel when it first runs), and a compiler
// crash would take the harness down with it, so every build and run
// happens in a child process: the harness's own binary started again with
// ChildEnv set, which must call ServeChild (the tests' TestMain does). A
// child serves request after request, so that starting the OpenCL driver
// (seconds with PoCL) is paid once per child.
//
// A child answers a request with a header (the build's outcome) and then
// one result per kernel as each kernel has run, so that when it dies the
// harness knows the kernel that killed it: it records the crash against
// that program and runs the rest of the batch in a new child. A child
// that dies while building is answered by splitting the batch until the
// program that kills it is alone.

// ChildEnv is the environment variable that makes a process a child.
const ChildEnv = "CLCONV_DIFFTEST_CHILD"

// BuildOptions are the options every kernel file is built with: division
// correctly rounded, as clconv's is (OpenCL C allows 2.5 ulp otherwise).
const BuildOptions = "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt"

// request is a child's work: one file of kernels to build, and the kernels
// to run, each in a single work-item.
type request struct {
	Source  string
	Kernels []kernelRun
}

type kernelRun struct {
	Name    string
	In      []byte
	OutSize int
}

// header is a child's first answer to a request.
type header struct {
	Device   string `json:",omitempty"`
	BuildLog string `json:",omitempty"` // set when the build failed
	Setup    string `json:",omitempty"` // no device, no context
}

// result is one kernel's outcome.
type result struct {
	Out []byte `json:",omitempty"`
	Err string `json:",omitempty"` // the kernel could not be created or run
}

// ServeChild answers requests read from r, one JSON object per line, on w,
// until r ends. It builds and runs each on the first OpenCL device, in one
// context kept from one request to the next.
func ServeChild(r io.Reader, w io.Writer) error {
	dec := json.NewDecoder(r)
	enc := json.NewEncoder(w)
	var dev *device
	for {
		var req request
		if err := dec.Decode(&req); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		if dev == nil {
			dev = openDevice()
		}
		if err := dev.serve(&req, enc); err != nil {
			return err
		}
	}
}

// device is a child's OpenCL context, or why it has none.
type device struct {
	ctx   *opencl.Context
	name  string
	setup string
}

func openDevice() *device {
	d, err := opencl.FirstDevice()
	if err == nil && d == nil {
		err = errors.New("no OpenCL device")
	}
	if err != nil {
		return &device{setup: err.Error()}
	}
	ctx, err := opencl.NewContext(d)
	if err != nil {
		return &device{setup: err.Error()}
	}
	return &device{ctx: ctx, name: d.Name}
}

func (d *device) serve(req *request, enc *json.Encoder) error {
	hdr := header{Device: d.name, Setup: d.setup}
	if d.ctx == nil {
		return enc.Encode(hdr)
	}
	prog, err := d.ctx.Build(req.Source, BuildOptions)
	if err != nil {
		var be *opencl.BuildError
		if errors.As(err, &be) {
			hdr.BuildLog = strings.TrimSpace(be.Log)
			if hdr.BuildLog == "" {
				hdr.BuildLog = be.Err.Error()
			}
		} else {
			hdr.Setup = err.Error()
		}
		return enc.Encode(hdr)
	}
	defer prog.Release()
	if err := enc.Encode(hdr); err != nil {
		return err
	}
	for _, k := range req.Kernels {
		out, err := runKernel(d.ctx, prog, k)
		r := result{Out: out}
		if err != nil {
			r.Err = err.Error()
		}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

func runKernel(ctx *opencl.Context, prog *opencl.Program, k kernelRun) ([]byte, error) {
	kern, err := prog.Kernel(k.Name)
	if err != nil {
		return nil, err
	}
	defer kern.Release()
	out, err := ctx.NewBuffer(max(k.OutSize, 1))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	in, err := ctx.NewBuffer(max(len(k.In), 1))
	if err != nil {
		return nil, err
	}
	defer in.Release()
	if err := ctx.Write(in, k.In); err != nil {
		return nil, err
	}
	// Bytes the kernel does not store (the padding between variables) are
	// zero, so that outputs compare whole.
	buf := make([]byte, k.OutSize)
	if err := ctx.Write(out, buf); err != nil {
		return nil, err
	}
	if err := kern.SetArgs(out, in); err != nil {
		return nil, err
	}
	if err := ctx.Run(kern, 1, 1); err != nil {
		return nil, err
	}
	if err := ctx.Read(out, buf); err != nil {
		return nil, err
	}
	return buf, nil
}

// errAllRead ends the answers to a request.
var errAllRead = errors.New("all answers read")

// errCrash is a child that died (or ran past its time) without answering.
type errCrash struct{ detail string }

func (e *errCrash) Error() string { return "the OpenCL child process died: " + e.detail }

// child is a running child process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *json.Encoder
	dec    *json.Decoder
	stderr *tailWriter
}

func startChild(exe string) (*child, error) {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), ChildEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, stdin: stdin, enc: json.NewEncoder(stdin), dec: json.NewDecoder(stdout), stderr: &tailWriter{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return c, nil
}

// tailWriter keeps the last 4 KiB written to it (a child's standard
// error, read after the child has exited).
type tailWriter struct{ b []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = append(t.b[:0], t.b[len(t.b)-4096:]...)
	}
	return len(p), nil
}

// do sends req and reads the answers: the header, then one result per
// kernel. A child that dies, or gives no answer within buildTimeout (the
// header) or kernelTimeout (each result), is killed and reported as
// errCrash with the answers read before it; a nil header means that it
// died before the build was done.
func (c *child) do(ctx context.Context, req *request, buildTimeout, kernelTimeout time.Duration) (*header, []result, error) {
	var hdr *header
	var results []result
	// The reader sends nil for each answer read, then the error that ends
	// it (errAllRead when all were read; a child that died ends it with
	// io.EOF).
	progress := make(chan error, len(req.Kernels)+2)
	go func() {
		if err := c.enc.Encode(req); err != nil {
			progress <- err
			return
		}
		var h header
		if err := c.dec.Decode(&h); err != nil {
			progress <- err
			return
		}
		hdr = &h
		progress <- nil
		if h.BuildLog != "" || h.Setup != "" {
			progress <- errAllRead
			return
		}
		for range req.Kernels {
			var r result
			if err := c.dec.Decode(&r); err != nil {
				progress <- err
				return
			}
			results = append(results, r)
			progress <- nil
		}
		progress <- errAllRead
	}()
	timer := time.NewTimer(buildTimeout)
	defer timer.Stop()
	for {
		select {
		case err := <-progress:
			switch {
			case err == errAllRead:
				return hdr, results, nil
			case err == nil:
				timer.Reset(kernelTimeout)
				continue
			}
			c.cmd.Process.Kill()
			werr := c.cmd.Wait()
			detail := fmt.Sprint(werr)
			if s := strings.TrimSpace(lastLines(string(c.stderr.b), 6)); s != "" {
				detail += ": " + s
			}
			return hdr, results, &errCrash{detail}
		case <-timer.C:
			c.kill(progress)
			wait := buildTimeout
			if hdr != nil {
				wait = kernelTimeout
			}
			return hdr, results, &errCrash{fmt.Sprintf("no answer in %v (hung)", wait)}
		case <-ctx.Done():
			c.kill(progress)
			return nil, nil, ctx.Err()
		}
	}
}

// kill ends the child and waits for its reader to stop.
func (c *child) kill(progress chan error) {
	c.cmd.Process.Kill()
	for err := range progress {
		if err != nil {
			break
		}
	}
	c.cmd.Wait()
}

// stop ends a child that is idle.
func (c *child) stop() {
	c.stdin.Close()
	c.cmd.Wait()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
