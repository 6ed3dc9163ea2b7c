package fileconv

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// numpyPython returns a Python interpreter that can import numpy, or skips the
// test. Debian's python3-numpy installs into /usr/bin/python3, which may not
// be the first python3 on PATH. It is the only place fileconv's tests start
// another program, and it skips under qemu-i386 (emulated386).
func numpyPython(t *testing.T) string {
	t.Helper()
	if why, ok := emulated386(); ok {
		t.Skipf("linux/386 under user-mode emulation (%s): qemu-i386 (7.2) crashes the Go runtime when a signal reaches a thread "+
			"blocked in a system call, and the child process this test starts sends SIGCHLD while Go waits for it "+
			"(\"exitsyscall: syscall frame is no longer valid\" after waitid, or \"bad g in signal handler\"); "+
			"docs/PORTS.md. Run it on an amd64 kernel with 32-bit emulation to test it on 386", why)
	}
	var tried []string
	for _, py := range []string{"python3", "/usr/bin/python3", "python"} {
		path, err := exec.LookPath(py)
		if err != nil {
			continue
		}
		tried = append(tried, path)
		if exec.Command(path, "-c", "import numpy").Run() == nil {
			return path
		}
	}
	t.Skipf("no Python with numpy (tried %v): install python3-numpy to run the NumPy round trip", tried)
	return ""
}

func runPython(t *testing.T, py, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	return string(out)
}

// numpyGen writes NumPy arrays of every supported dtype in both byte orders,
// C and Fortran order, and header versions 1.0, 2.0 and 3.0, each with a .bin
// file of its elements, little-endian, in memory order. It prints the names.
const numpyGen = `
import sys, numpy as np
from numpy.lib import format as fmt
d = sys.argv[1]
rng = np.random.default_rng(5)
codes = ['i1','u1','i2','u2','i4','u4','i8','u8','f2','f4','f8']
for code in codes:
    dt = np.dtype('<' + code)
    if dt.kind == 'f':
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 0.5, 1.5, 2.5, -2.5, 255.5, 65504, 65519, 65520,
                            1e-8, 6e-8, 3e38, 1e300, -1e-300, 2**31, 2**63, 2**64], dtype=np.float64)
        with np.errstate(over='ignore'):
            special = special.astype(dt)
        bits = rng.integers(0, 2**(8*dt.itemsize), size=500, dtype=np.uint64).astype('u%d' % dt.itemsize).view(dt)
        vals = np.concatenate([special, bits, (rng.standard_normal(479) * 300).astype(dt)])
    else:
        info = np.iinfo(dt)
        vals = np.concatenate([np.array([info.min, info.max, 0, 1, -1 if info.min < 0 else 2], dtype=dt),
                               rng.integers(info.min, info.max, size=995, endpoint=True, dtype=dt)])
    vals = vals[:1000].reshape(10, 100)
    for bo in '<>':
        for order in 'CF':
            for ver in [(1, 0), (2, 0), (3, 0)]:
                if ver != (1, 0) and (bo, order) != ('<', 'C'):
                    continue
                a = vals.astype(np.dtype(bo + code), order=order)
                name = '%s_%s_%s_v%d' % (code, 'le' if bo == '<' else 'be', order, ver[0])
                with open('%s/%s.npy' % (d, name), 'wb') as f:
                    fmt.write_array(f, a, version=ver)
                with open('%s/%s.bin' % (d, name), 'wb') as f:
                    f.write(a.astype(np.dtype('<' + code)).tobytes(order='A'))
                print(name)
`

// numpyCheck loads each converted file, checks its dtype, shape and memory
// order against the source array, and writes its elements (memory order)
// to a .bin file; with a NumPy cast that is correctly rounded or modular
// (float->float rte, integer->integer, int->float/double rte), it also
// writes NumPy's own result to a .np file.
const numpyCheck = `
import sys, numpy as np
d = sys.argv[1]
for line in sys.stdin:
    src, out, code = line.split()
    a, b = np.load('%s/%s.npy' % (d, src)), np.load('%s/%s.npy' % (d, out))
    dt = np.dtype('<' + code)
    assert b.dtype == dt, (out, b.dtype)
    assert b.shape == a.shape, (out, b.shape, a.shape)
    assert b.flags['F_CONTIGUOUS'] == a.flags['F_CONTIGUOUS'] and b.flags['C_CONTIGUOUS'] == a.flags['C_CONTIGUOUS'], out
    with open('%s/%s.bin' % (d, out), 'wb') as f:
        f.write(b.tobytes(order='A'))
    sk, dk = a.dtype.kind, dt.kind
    ok = (sk == 'f' and dk == 'f') or (sk in 'iu' and dk in 'iu') or (sk in 'iu' and code in ('f4', 'f8'))
    if ok:
        with np.errstate(all='ignore'):
            c = a.astype(dt, order='A')
        with open('%s/%s.np' % (d, out), 'wb') as f:
            f.write(c.tobytes(order='A'))
`

// TestNumPyRoundTrip converts files written by NumPy (every dtype, both byte
// orders, C and Fortran order, header versions 1-3) to every type and has
// NumPy read the results back: dtype, shape and order must survive, the
// elements must be convert.Bits' results, and where NumPy's own cast is
// well-defined (float->float to nearest even, integer->integer wrapping,
// integer->float/double) they must equal NumPy's.
func TestNumPyRoundTrip(t *testing.T) {
	py := numpyPython(t)
	dir := t.TempDir()
	names := strings.Fields(runPython(t, py, numpyGen, dir))
	if len(names) != 11*6 {
		t.Fatalf("numpy wrote %d files", len(names))
	}
	dsts := cltype.Scalars
	if testing.Short() {
		dsts = []cltype.Kind{cltype.Uchar, cltype.Half, cltype.Float}
	}
	var list strings.Builder
	type job struct {
		src, out string
		sk, dk   cltype.Kind
	}
	var jobs []job
	for _, name := range names {
		sk, _ := kindOfCode(name[:2])
		in, err := os.Open(filepath.Join(dir, name+".npy"))
		mustNoErr(t, err)
		for _, dk := range dsts {
			out := fmt.Sprintf("%s_to_%s", name, dk)
			a, err := CreateAtomic(filepath.Join(dir, out+".npy"), false)
			mustNoErr(t, err)
			in.Seek(0, 0)
			if _, err := Convert(context.Background(), a, in, Options{Dst: dk, Mode: round.RTE, Workers: 2, ChunkBytes: 1024}); err != nil {
				t.Fatalf("%s: %v", out, err)
			}
			mustNoErr(t, a.Commit())
			fmt.Fprintf(&list, "%s %s %s\n", name, out, npyCodes[dk])
			jobs = append(jobs, job{name, out, sk, dk})
		}
		in.Close()
	}
	cmd := exec.Command(py, "-c", numpyCheck, dir)
	cmd.Stdin = strings.NewReader(list.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("numpy check: %v\n%s", err, out)
	}
	compared := 0
	for _, j := range jobs {
		src, err := os.ReadFile(filepath.Join(dir, j.src+".bin"))
		mustNoErr(t, err)
		want := encodeBits(j.dk, expected(j.dk, j.sk, decodeBits(j.sk, src), round.RTE, false), false)
		got, err := os.ReadFile(filepath.Join(dir, j.out+".bin"))
		mustNoErr(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: NumPy reads other values than convert.Bits gives", j.out)
		}
		np, err := os.ReadFile(filepath.Join(dir, j.out+".np"))
		if err != nil {
			continue
		}
		compared++
		if j.dk.IsFloat() && j.sk.IsFloat() {
			// NumPy canonicalises some NaN payloads; compare NaNs as NaNs.
			g, w := decodeBits(j.dk, got), decodeBits(j.dk, np)
			for i := range g {
				if g[i] != w[i] && !(isNaNBits(j.dk, g[i]) && isNaNBits(j.dk, w[i])) {
					t.Errorf("%s element %d: clconv %#x, NumPy %#x", j.out, i, g[i], w[i])
					break
				}
			}
		} else if !bytes.Equal(got, np) {
			t.Errorf("%s: clconv and NumPy's astype differ", j.out)
		}
	}
	t.Logf("%d NumPy files, %d conversions read back by NumPy, %d compared with NumPy's astype", len(names), len(jobs), compared)
}

func isNaNBits(k cltype.Kind, v uint64) bool {
	f := floatOf(k, v)
	return f != f
}

// emulated386 reports whether this is a linux/386 process run by a user-mode
// emulator such as qemu-i386-static on a 64-bit host, rather than by an x86
// kernel, and the evidence. qemu rewrites /proc/self/maps into the guest's
// view, but not the same file under task/, where the host process shows: the
// emulator's own mappings, at addresses beyond 32 bits, which a 386 process
// on a kernel cannot have. Natively (on an amd64 kernel with 32-bit emulation,
// or a 32-bit kernel) every address fits in 32 bits.
func emulated386() (string, bool) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "386" {
		return "", false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/maps", os.Getpid()))
	if err != nil {
		return "", false
	}
	why := ""
	for _, line := range strings.Split(string(b), "\n") {
		start, _, _ := strings.Cut(line, "-")
		if len(start) <= 8 {
			continue
		}
		what := "memory"
		if f := strings.Fields(line); len(f) >= 6 {
			what = f[5]
		}
		if why == "" || strings.Contains(what, "qemu") {
			why = "the host maps " + what + " at 0x" + start
		}
	}
	return why, why != ""
}
