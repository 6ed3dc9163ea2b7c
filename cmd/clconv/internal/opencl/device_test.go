//go:build opencl && cgo

package opencl

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// firstDevice returns the first device of the first platform that has one,
// skipping the test where no OpenCL platform is installed.
func firstDevice(t *testing.T) *Device {
	t.Helper()
	d, err := FirstDevice()
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Skip("no OpenCL platform with a device (install pocl-opencl-icd)")
	}
	return d
}

func TestDeviceInfo(t *testing.T) {
	d := firstDevice(t)
	if d.Name == "" || !strings.HasPrefix(d.Version, "OpenCL ") || !strings.HasPrefix(d.OpenCLCVersion, "OpenCL C ") {
		t.Errorf("device info: %+v", d)
	}
	if !d.Single.Has(RoundToNearest) || !d.Single.Has(InfNaN) {
		t.Errorf("single precision config %v lacks rte or inf-nan, which every device has", d.Single)
	}
	if d.FP64() != (d.Double != 0) {
		t.Logf("fp64 extension %v but double config %v", d.FP64(), d.Double)
	}
	t.Logf("%s: %s, %s, fp64 %v fp16 %v, float %v, double %v", d, d.Version, d.OpenCLCVersion, d.FP64(), d.FP16(), d.Single, d.Double)
}

func TestRunKernel(t *testing.T) {
	d := firstDevice(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	p, err := c.Build(`__kernel void k(ulong add, __global const ulong *in, __global ulong *out) {
		size_t g = get_global_id(0);
		out[g] = in[g] + add + (ulong)convert_int_sat_rte(2.5f);
	}`, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	k, err := p.Kernel("k")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Release()
	const n = 1000
	in, out := make([]byte, 8*n), make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(in[8*i:], uint64(i)*3)
	}
	ib, err := c.NewBuffer(len(in))
	if err != nil {
		t.Fatal(err)
	}
	defer ib.Release()
	ob, err := c.NewBuffer(len(out))
	if err != nil {
		t.Fatal(err)
	}
	defer ob.Release()
	if err := c.Write(ib, in); err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgs(uint64(7), ib, ob); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(k, n, 0); err != nil {
		t.Fatal(err)
	}
	if err := c.Read(ob, out); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if got, want := binary.LittleEndian.Uint64(out[8*i:]), uint64(i)*3+7+2; got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
	if err := k.SetArgs(struct{}{}); err == nil {
		t.Error("SetArgs accepted a struct")
	}
	if _, err := p.Kernel("nope"); err == nil || !strings.Contains(err.Error(), "CL_INVALID_KERNEL_NAME") {
		t.Errorf("Kernel(nope) error = %v, want CL_INVALID_KERNEL_NAME", err)
	}
	if err := c.Read(ob, make([]byte, 2*len(out))); err == nil {
		t.Error("reading past a buffer's end succeeded")
	}
}

func TestBuildError(t *testing.T) {
	d := firstDevice(t)
	c, err := NewContext(d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	_, err = c.Build("__kernel void k(__global int *p) { p[0] = undefined_thing; }", "")
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build error = %v, want a *BuildError", err)
	}
	var ce *Error
	if !errors.As(err, &ce) || CodeName(ce.Code) != "CL_BUILD_PROGRAM_FAILURE" {
		t.Errorf("error code: %v", err)
	}
	if !strings.Contains(be.Log, "undefined_thing") {
		t.Errorf("build log does not name the error:\n%s", be.Log)
	}
}
