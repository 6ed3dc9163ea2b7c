//go:build opencl && cgo

package opencl

/*
#cgo LDFLAGS: -lOpenCL
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <stdlib.h>
#include <CL/cl.h>

#ifndef CL_DEVICE_HALF_FP_CONFIG
#define CL_DEVICE_HALF_FP_CONFIG 0x1033
#endif
#ifndef CL_DEVICE_DOUBLE_FP_CONFIG
#define CL_DEVICE_DOUBLE_FP_CONFIG 0x1032
#endif

static cl_int clconvBuild(cl_program p, cl_device_id d, const char *opts) {
	return clBuildProgram(p, 1, &d, opts, NULL, NULL);
}

static cl_program clconvProgram(cl_context c, const char *src, size_t len, cl_int *err) {
	return clCreateProgramWithSource(c, 1, &src, &len, err);
}

static cl_program clconvProgramBinary(cl_context c, cl_device_id d, const unsigned char *bin, size_t len, cl_int *status, cl_int *err) {
	return clCreateProgramWithBinary(c, 1, &d, &len, &bin, status, err);
}

static cl_int clconvBinary(cl_program p, unsigned char *buf, size_t len) {
	size_t size;
	cl_int err = clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL);
	if (err != CL_SUCCESS)
		return err;
	if (size != len)
		return CL_INVALID_VALUE;
	return clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(buf), &buf, NULL);
}

static cl_context clconvContext(cl_device_id d, cl_int *err) {
	return clCreateContext(NULL, 1, &d, NULL, NULL, err);
}
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"unsafe"
)

// Built reports whether this build has OpenCL support (build tag opencl).
const Built = true

func check(op string, code C.cl_int) error {
	if code == C.CL_SUCCESS {
		return nil
	}
	return &Error{Op: op, Code: int32(code)}
}

// Platforms lists the installed platforms. No platform (the ICD loader finds
// no driver) is an empty list, not an error.
func Platforms() ([]*Platform, error) {
	var n C.cl_uint
	code := C.clGetPlatformIDs(0, nil, &n)
	if code == -1001 || (code == C.CL_SUCCESS && n == 0) { // CL_PLATFORM_NOT_FOUND_KHR
		return nil, nil
	}
	if err := check("clGetPlatformIDs", code); err != nil {
		return nil, err
	}
	ids := make([]C.cl_platform_id, n)
	if err := check("clGetPlatformIDs", C.clGetPlatformIDs(n, &ids[0], nil)); err != nil {
		return nil, err
	}
	var out []*Platform
	for i, id := range ids {
		p := &Platform{Index: i, id: unsafe.Pointer(id)}
		var err error
		str := func(param C.cl_platform_info) string {
			if err != nil {
				return ""
			}
			var s string
			s, err = platformString(id, param)
			return s
		}
		p.Name = str(C.CL_PLATFORM_NAME)
		p.Vendor = str(C.CL_PLATFORM_VENDOR)
		p.Version = str(C.CL_PLATFORM_VERSION)
		p.Profile = str(C.CL_PLATFORM_PROFILE)
		p.Extensions = splitExtensions(str(C.CL_PLATFORM_EXTENSIONS))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func platformString(id C.cl_platform_id, param C.cl_platform_info) (string, error) {
	var size C.size_t
	if err := check("clGetPlatformInfo", C.clGetPlatformInfo(id, param, 0, nil, &size)); err != nil {
		return "", err
	}
	if size == 0 {
		return "", nil
	}
	buf := make([]byte, size)
	if err := check("clGetPlatformInfo", C.clGetPlatformInfo(id, param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
		return "", err
	}
	return cString(buf), nil
}

func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(string(b))
}

// Devices lists the platform's devices of every type.
func (p *Platform) Devices() ([]*Device, error) {
	pid := C.cl_platform_id(p.id)
	var n C.cl_uint
	code := C.clGetDeviceIDs(pid, C.CL_DEVICE_TYPE_ALL, 0, nil, &n)
	if code == C.CL_DEVICE_NOT_FOUND || (code == C.CL_SUCCESS && n == 0) {
		return nil, nil
	}
	if err := check("clGetDeviceIDs", code); err != nil {
		return nil, err
	}
	ids := make([]C.cl_device_id, n)
	if err := check("clGetDeviceIDs", C.clGetDeviceIDs(pid, C.CL_DEVICE_TYPE_ALL, n, &ids[0], nil)); err != nil {
		return nil, err
	}
	var out []*Device
	for i, id := range ids {
		d, err := deviceInfo(id)
		if err != nil {
			return nil, err
		}
		d.Platform, d.Index = p, i
		out = append(out, d)
	}
	return out, nil
}

func deviceInfo(id C.cl_device_id) (*Device, error) {
	d := &Device{id: unsafe.Pointer(id)}
	var err error
	raw := func(param C.cl_device_info) []byte {
		if err != nil {
			return nil
		}
		var size C.size_t
		if err = check("clGetDeviceInfo", C.clGetDeviceInfo(id, param, 0, nil, &size)); err != nil || size == 0 {
			return nil
		}
		buf := make([]byte, size)
		err = check("clGetDeviceInfo", C.clGetDeviceInfo(id, param, size, unsafe.Pointer(&buf[0]), nil))
		return buf
	}
	str := func(param C.cl_device_info) string { return cString(raw(param)) }
	num := func(param C.cl_device_info) uint64 {
		b := raw(param)
		var v uint64
		for i := len(b) - 1; i >= 0; i-- { // every host OpenCL runs on here is little-endian
			v = v<<8 | uint64(b[i])
		}
		return v
	}
	d.Name = str(C.CL_DEVICE_NAME)
	d.Vendor = str(C.CL_DEVICE_VENDOR)
	d.Version = str(C.CL_DEVICE_VERSION)
	d.DriverVersion = str(C.CL_DRIVER_VERSION)
	d.OpenCLCVersion = str(C.CL_DEVICE_OPENCL_C_VERSION)
	d.Extensions = splitExtensions(str(C.CL_DEVICE_EXTENSIONS))
	d.ComputeUnits = int(num(C.CL_DEVICE_MAX_COMPUTE_UNITS))
	d.MaxWorkGroup = int(num(C.CL_DEVICE_MAX_WORK_GROUP_SIZE))
	d.GlobalMem = num(C.CL_DEVICE_GLOBAL_MEM_SIZE)
	d.MaxAlloc = num(C.CL_DEVICE_MAX_MEM_ALLOC_SIZE)
	d.Available = num(C.CL_DEVICE_AVAILABLE) != 0
	d.Compiler = num(C.CL_DEVICE_COMPILER_AVAILABLE) != 0
	d.Single = FPConfig(num(C.CL_DEVICE_SINGLE_FP_CONFIG))
	switch t := num(C.CL_DEVICE_TYPE); {
	case t&C.CL_DEVICE_TYPE_GPU != 0:
		d.Type = "GPU"
	case t&C.CL_DEVICE_TYPE_CPU != 0:
		d.Type = "CPU"
	case t&C.CL_DEVICE_TYPE_ACCELERATOR != 0:
		d.Type = "ACCELERATOR"
	case t&(1<<4) != 0: // CL_DEVICE_TYPE_CUSTOM (OpenCL 1.2)
		d.Type = "CUSTOM"
	default:
		d.Type = "DEFAULT"
	}
	if err != nil {
		return nil, err
	}
	// The double and half configurations are optional queries: a driver
	// without the type may reject them, which means "not supported".
	var v C.cl_device_fp_config
	if C.clGetDeviceInfo(id, C.CL_DEVICE_DOUBLE_FP_CONFIG, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil) == C.CL_SUCCESS {
		d.Double = FPConfig(v)
	}
	if d.HasExtension("cl_khr_fp16") {
		if C.clGetDeviceInfo(id, C.CL_DEVICE_HALF_FP_CONFIG, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil) == C.CL_SUCCESS {
			d.Half = FPConfig(v)
		}
	}
	return d, nil
}

// Context is an OpenCL context on one device with one in-order command queue.
// Build and BuildBinary may be called from several goroutines at once (the
// OpenCL API is thread-safe; the driver may build in parallel); the queue's
// methods (Run, Read, Write, Finish) and a Kernel's SetArgs are not safe for
// concurrent use.
type Context struct {
	Device *Device
	ctx    C.cl_context
	queue  C.cl_command_queue
}

// NewContext creates a context and a command queue on d.
func NewContext(d *Device) (*Context, error) {
	var code C.cl_int
	ctx := C.clconvContext(C.cl_device_id(d.id), &code)
	if err := check("clCreateContext", code); err != nil {
		return nil, err
	}
	q := C.clCreateCommandQueue(ctx, C.cl_device_id(d.id), 0, &code)
	if err := check("clCreateCommandQueue", code); err != nil {
		C.clReleaseContext(ctx)
		return nil, err
	}
	return &Context{Device: d, ctx: ctx, queue: q}, nil
}

// Release frees the queue and the context (after the queue's work finished).
func (c *Context) Release() {
	if c == nil || c.ctx == nil {
		return
	}
	C.clFinish(c.queue)
	C.clReleaseCommandQueue(c.queue)
	C.clReleaseContext(c.ctx)
	c.ctx, c.queue = nil, nil
}

// Program is a built OpenCL program.
type Program struct {
	c    *Context
	prog C.cl_program
}

// Build compiles OpenCL C source for the context's device with the given
// options ("-cl-std=CL1.2", ...). A compilation failure is a *BuildError
// carrying the compiler's log.
func (c *Context) Build(src, options string) (*Program, error) {
	csrc := C.CString(src)
	defer C.free(unsafe.Pointer(csrc))
	copts := C.CString(options)
	defer C.free(unsafe.Pointer(copts))
	var code C.cl_int
	p := C.clconvProgram(c.ctx, csrc, C.size_t(len(src)), &code)
	if err := check("clCreateProgramWithSource", code); err != nil {
		return nil, err
	}
	if err := check("clBuildProgram", C.clconvBuild(p, C.cl_device_id(c.Device.id), copts)); err != nil {
		log := buildLog(p, C.cl_device_id(c.Device.id))
		C.clReleaseProgram(p)
		return nil, &BuildError{Err: err, Log: log}
	}
	return &Program{c: c, prog: p}, nil
}

// BuildBinary creates a program from a binary that Program.Binary returned
// for the same device and builds it with the given options. A binary the
// driver rejects (corrupt, or from another driver version) is an error,
// never a crash: CL_INVALID_BINARY, or a *BuildError.
func (c *Context) BuildBinary(bin []byte, options string) (*Program, error) {
	if len(bin) == 0 {
		return nil, &Error{Op: "clCreateProgramWithBinary", Code: C.CL_INVALID_BINARY}
	}
	cbin := C.CBytes(bin)
	defer C.free(cbin)
	copts := C.CString(options)
	defer C.free(unsafe.Pointer(copts))
	var code, status C.cl_int
	p := C.clconvProgramBinary(c.ctx, C.cl_device_id(c.Device.id), (*C.uchar)(cbin), C.size_t(len(bin)), &status, &code)
	if err := check("clCreateProgramWithBinary", code); err != nil {
		return nil, err
	}
	if err := check("clCreateProgramWithBinary (binary status)", status); err != nil {
		C.clReleaseProgram(p)
		return nil, err
	}
	if err := check("clBuildProgram", C.clconvBuild(p, C.cl_device_id(c.Device.id), copts)); err != nil {
		log := buildLog(p, C.cl_device_id(c.Device.id))
		C.clReleaseProgram(p)
		return nil, &BuildError{Err: err, Log: log}
	}
	return &Program{c: c, prog: p}, nil
}

// Binary returns the program's binary for the context's device
// (CL_PROGRAM_BINARIES): what the driver accepts back in BuildBinary. Its
// format is the driver's own (PTX text for NVIDIA's, an archive with the
// compiled kernels for PoCL's).
func (p *Program) Binary() ([]byte, error) {
	var size C.size_t
	if err := check("clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", C.clGetProgramInfo(p.prog, C.CL_PROGRAM_BINARY_SIZES,
		C.size_t(unsafe.Sizeof(size)), unsafe.Pointer(&size), nil)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, &Error{Op: "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", Code: C.CL_INVALID_PROGRAM_EXECUTABLE}
	}
	buf := C.malloc(size)
	defer C.free(buf)
	if err := check("clGetProgramInfo(CL_PROGRAM_BINARIES)", C.clconvBinary(p.prog, (*C.uchar)(buf), size)); err != nil {
		return nil, err
	}
	return C.GoBytes(buf, C.int(size)), nil
}

func buildLog(p C.cl_program, d C.cl_device_id) string {
	var size C.size_t
	if C.clGetProgramBuildInfo(p, d, C.CL_PROGRAM_BUILD_LOG, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.clGetProgramBuildInfo(p, d, C.CL_PROGRAM_BUILD_LOG, size, unsafe.Pointer(&buf[0]), nil) != C.CL_SUCCESS {
		return ""
	}
	return cString(buf)
}

// Release frees the program.
func (p *Program) Release() {
	if p != nil && p.prog != nil {
		C.clReleaseProgram(p.prog)
		p.prog = nil
	}
}

// Kernel is one kernel function of a program.
type Kernel struct {
	Name string
	c    *Context
	k    C.cl_kernel
}

// Kernel creates the kernel named name.
func (p *Program) Kernel(name string) (*Kernel, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var code C.cl_int
	k := C.clCreateKernel(p.prog, cname, &code)
	if err := check("clCreateKernel("+name+")", code); err != nil {
		return nil, err
	}
	return &Kernel{Name: name, c: p.c, k: k}, nil
}

// Release frees the kernel.
func (k *Kernel) Release() {
	if k != nil && k.k != nil {
		C.clReleaseKernel(k.k)
		k.k = nil
	}
}

// SetArgs sets the kernel's arguments in order. Each is a *Buffer or a value
// of a fixed-size Go numeric type (int8 ... uint64, float32, float64), passed
// with its own size, matching the kernel's char ... ulong, float, double.
func (k *Kernel) SetArgs(args ...any) error {
	for i, a := range args {
		var p unsafe.Pointer
		var size uintptr
		switch v := a.(type) {
		case *Buffer:
			p, size = unsafe.Pointer(&v.mem), unsafe.Sizeof(v.mem)
		case int8:
			p, size = unsafe.Pointer(&v), 1
		case uint8:
			p, size = unsafe.Pointer(&v), 1
		case int16:
			p, size = unsafe.Pointer(&v), 2
		case uint16:
			p, size = unsafe.Pointer(&v), 2
		case int32:
			p, size = unsafe.Pointer(&v), 4
		case uint32:
			p, size = unsafe.Pointer(&v), 4
		case float32:
			p, size = unsafe.Pointer(&v), 4
		case int64:
			p, size = unsafe.Pointer(&v), 8
		case uint64:
			p, size = unsafe.Pointer(&v), 8
		case float64:
			p, size = unsafe.Pointer(&v), 8
		default:
			return fmt.Errorf("kernel %s argument %d: unsupported Go type %T", k.Name, i, a)
		}
		code := C.clSetKernelArg(k.k, C.cl_uint(i), C.size_t(size), p)
		runtime.KeepAlive(a)
		if err := check(fmt.Sprintf("clSetKernelArg(%s, %d)", k.Name, i), code); err != nil {
			return err
		}
	}
	return nil
}

// WorkGroupSize returns the largest work-group size the kernel can run with
// on the context's device (CL_KERNEL_WORK_GROUP_SIZE).
func (k *Kernel) WorkGroupSize() (int, error) {
	var v C.size_t
	err := check("clGetKernelWorkGroupInfo", C.clGetKernelWorkGroupInfo(k.k, C.cl_device_id(k.c.Device.id),
		C.CL_KERNEL_WORK_GROUP_SIZE, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil))
	return int(v), err
}

// Run enqueues k over a one-dimensional range of global work-items in groups
// of local (0 lets the implementation choose; otherwise global must be a
// multiple of local). It does not wait: a following Read or Finish does.
func (c *Context) Run(k *Kernel, global, local int) error {
	if global <= 0 {
		return fmt.Errorf("kernel %s: global size %d", k.Name, global)
	}
	g := C.size_t(global)
	var lp *C.size_t
	l := C.size_t(local)
	if local > 0 {
		lp = &l
	}
	return check("clEnqueueNDRangeKernel("+k.Name+")", C.clEnqueueNDRangeKernel(c.queue, k.k, 1, nil, &g, lp, 0, nil, nil))
}

// Finish waits until every enqueued command has completed; a kernel that
// failed on the device reports its error here or at the next Read.
func (c *Context) Finish() error { return check("clFinish", C.clFinish(c.queue)) }

// Buffer is a device memory object.
type Buffer struct {
	Size int // bytes
	mem  C.cl_mem
}

// NewBuffer allocates size bytes of device memory (read-write).
func (c *Context) NewBuffer(size int) (*Buffer, error) {
	if size <= 0 || uint64(size) > math.MaxInt64 {
		return nil, fmt.Errorf("clCreateBuffer: bad size %d", size)
	}
	var code C.cl_int
	m := C.clCreateBuffer(c.ctx, C.CL_MEM_READ_WRITE, C.size_t(size), nil, &code)
	if err := check(fmt.Sprintf("clCreateBuffer(%d bytes)", size), code); err != nil {
		return nil, err
	}
	return &Buffer{Size: size, mem: m}, nil
}

// Release frees the buffer.
func (b *Buffer) Release() {
	if b != nil && b.mem != nil {
		C.clReleaseMemObject(b.mem)
		b.mem = nil
	}
}

// Write copies data to the start of b and waits for the copy.
func (c *Context) Write(b *Buffer, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if len(data) > b.Size {
		return fmt.Errorf("clEnqueueWriteBuffer: %d bytes into a %d-byte buffer", len(data), b.Size)
	}
	return check("clEnqueueWriteBuffer", C.clEnqueueWriteBuffer(c.queue, b.mem, C.CL_TRUE, 0,
		C.size_t(len(data)), unsafe.Pointer(&data[0]), 0, nil, nil))
}

// Read copies len(data) bytes from the start of b after every command
// enqueued before it has completed.
func (c *Context) Read(b *Buffer, data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if len(data) > b.Size {
		return fmt.Errorf("clEnqueueReadBuffer: %d bytes from a %d-byte buffer", len(data), b.Size)
	}
	return check("clEnqueueReadBuffer", C.clEnqueueReadBuffer(c.queue, b.mem, C.CL_TRUE, 0,
		C.size_t(len(data)), unsafe.Pointer(&data[0]), 0, nil, nil))
}
