// Package opencl is clconv's small host layer over the OpenCL API: just what
// the device checker (package verify) needs. It lists platforms and devices
// with the facts that matter for conversions (OpenCL C version, cl_khr_fp64,
// cl_khr_fp16, denormal and rounding-mode support), builds programs (returning
// the build log on failure), and runs kernels over buffers on one in-order
// queue.
//
// The binding to the OpenCL library uses cgo and is compiled only with the
// build tag opencl (go build -tags opencl), linking -lOpenCL (the ICD loader,
// Debian's ocl-icd-opencl-dev). Without the tag every function returns
// ErrNotBuilt, so the default build of clconv stays pure Go.
//
// Every failing OpenCL call is returned as an *Error that names the call and
// the OpenCL error code (CL_OUT_OF_RESOURCES, ...); nothing here panics on a
// device's error.
package opencl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// ErrNotBuilt is returned by every function of a build without OpenCL.
var ErrNotBuilt = errors.New("built without OpenCL: rebuild with -tags opencl " +
	"(go build -tags opencl ./cmd/clconv); needs cgo and ocl-icd-opencl-dev " +
	"(the OpenCL ICD loader, libOpenCL.so) and opencl-c-headers")

// Error is a failed OpenCL call.
type Error struct {
	Op   string // the API function, e.g. "clEnqueueNDRangeKernel"
	Code int32  // the OpenCL error code
}

// Error returns "clEnqueueNDRangeKernel: CL_OUT_OF_RESOURCES (-5)".
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s (%d)", e.Op, CodeName(e.Code), e.Code)
}

// CodeName returns the name of an OpenCL error code ("CL_INVALID_VALUE").
func CodeName(code int32) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	return fmt.Sprintf("CL_UNKNOWN_ERROR_%d", code)
}

// BuildError is a program that failed to build, with the compiler's log.
type BuildError struct {
	Err error  // the failing call's *Error
	Log string // the device's build log
}

// Error returns the failing call followed by the build log.
func (e *BuildError) Error() string {
	return e.Err.Error() + "\n" + strings.TrimSpace(e.Log)
}

// Unwrap returns the failing call's error.
func (e *BuildError) Unwrap() error { return e.Err }

// FPConfig is a device's floating-point capability bit field
// (CL_DEVICE_SINGLE_FP_CONFIG, ..._DOUBLE_..., ..._HALF_...).
type FPConfig uint64

// The FPConfig bits (cl_device_fp_config).
const (
	Denorm                     FPConfig = 1 << 0 // denormals are supported (not flushed)
	InfNaN                     FPConfig = 1 << 1
	RoundToNearest             FPConfig = 1 << 2
	RoundToZero                FPConfig = 1 << 3
	RoundToInf                 FPConfig = 1 << 4 // both rtp and rtn
	FMA                        FPConfig = 1 << 5
	SoftFloat                  FPConfig = 1 << 6
	CorrectlyRoundedDivideSqrt FPConfig = 1 << 7
)

var fpNames = []struct {
	bit  FPConfig
	name string
}{
	{Denorm, "denorm"}, {InfNaN, "inf-nan"}, {RoundToNearest, "rte"}, {RoundToZero, "rtz"},
	{RoundToInf, "rtp-rtn"}, {FMA, "fma"}, {SoftFloat, "soft-float"},
	{CorrectlyRoundedDivideSqrt, "correctly-rounded-div-sqrt"},
}

// Has reports whether every bit of b is set in c.
func (c FPConfig) Has(b FPConfig) bool { return c&b == b }

// String lists the set bits ("denorm inf-nan rte rtz rtp-rtn fma"), or "-" when none is.
func (c FPConfig) String() string {
	var s []string
	for _, f := range fpNames {
		if c.Has(f.bit) {
			s = append(s, f.name)
		}
	}
	if len(s) == 0 {
		return "-"
	}
	return strings.Join(s, " ")
}

// Platform is an OpenCL platform (an installed driver).
type Platform struct {
	Index      int // position in Platforms' list
	Name       string
	Vendor     string
	Version    string
	Profile    string
	Extensions []string

	id unsafe.Pointer // cl_platform_id
}

// Device is an OpenCL device and the facts about it that matter to conversions.
type Device struct {
	Platform       *Platform
	Index          int    // position in its platform's device list
	Name           string // CL_DEVICE_NAME
	Vendor         string
	Type           string // "CPU", "GPU", "ACCELERATOR", "CUSTOM" or "DEFAULT"
	Version        string // CL_DEVICE_VERSION ("OpenCL 3.0 ...")
	DriverVersion  string
	OpenCLCVersion string // CL_DEVICE_OPENCL_C_VERSION ("OpenCL C 1.2 ...")
	Extensions     []string
	ComputeUnits   int
	MaxWorkGroup   int    // CL_DEVICE_MAX_WORK_GROUP_SIZE
	GlobalMem      uint64 // bytes
	MaxAlloc       uint64 // largest buffer, bytes
	Available      bool
	Compiler       bool // a compiler is available (programs can be built from source)
	Single         FPConfig
	Double         FPConfig // 0 without double support
	Half           FPConfig // 0 without half support

	id unsafe.Pointer // cl_device_id
}

// HasExtension reports whether the device lists the extension.
func (d *Device) HasExtension(name string) bool { return slices.Contains(d.Extensions, name) }

// FP64 reports whether the device supports double (cl_khr_fp64).
func (d *Device) FP64() bool { return d.HasExtension("cl_khr_fp64") || d.Double != 0 }

// FP16 reports whether the device supports half arithmetic (cl_khr_fp16);
// without it, half exists only in memory, through vload_half and vstore_half.
func (d *Device) FP16() bool { return d.HasExtension("cl_khr_fp16") }

// String returns "platform P device N: name".
func (d *Device) String() string {
	p := 0
	if d.Platform != nil {
		p = d.Platform.Index
	}
	return fmt.Sprintf("platform %d device %d: %s", p, d.Index, d.Name)
}

func splitExtensions(s string) []string { return strings.Fields(s) }

// FirstDevice returns the first device of the first platform that has one,
// or nil and no error where no platform has a device.
func FirstDevice() (*Device, error) {
	ps, err := Platforms()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		ds, err := p.Devices()
		if err != nil {
			return nil, err
		}
		if len(ds) > 0 {
			return ds[0], nil
		}
	}
	return nil, nil
}
