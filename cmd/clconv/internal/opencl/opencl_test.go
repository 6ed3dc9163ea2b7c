package opencl

import (
	"errors"
	"strings"
	"testing"
)

func TestCodeName(t *testing.T) {
	for code, want := range map[int32]string{0: "CL_SUCCESS", -5: "CL_OUT_OF_RESOURCES", -11: "CL_BUILD_PROGRAM_FAILURE",
		-1001: "CL_PLATFORM_NOT_FOUND_KHR", -9999: "CL_UNKNOWN_ERROR_-9999"} {
		if got := CodeName(code); got != want {
			t.Errorf("CodeName(%d) = %q, want %q", code, got, want)
		}
	}
	err := error(&BuildError{Err: &Error{Op: "clBuildProgram", Code: -11}, Log: "x.cl:1:1: error: oops\n"})
	if got := err.Error(); got != "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)\nx.cl:1:1: error: oops" {
		t.Errorf("BuildError = %q", got)
	}
	var e *Error
	if !errors.As(err, &e) || e.Code != -11 {
		t.Errorf("BuildError does not unwrap to its *Error")
	}
}

func TestFPConfig(t *testing.T) {
	if got := (Denorm | InfNaN | RoundToNearest | RoundToZero | RoundToInf | FMA).String(); got != "denorm inf-nan rte rtz rtp-rtn fma" {
		t.Errorf("String = %q", got)
	}
	if got := FPConfig(0).String(); got != "-" {
		t.Errorf("zero String = %q", got)
	}
	d := &Device{Extensions: []string{"cl_khr_fp64", "cl_khr_int64_base_atomics"}}
	if !d.FP64() || d.FP16() || !d.HasExtension("cl_khr_int64_base_atomics") {
		t.Errorf("extensions misread: fp64 %v fp16 %v", d.FP64(), d.FP16())
	}
}

func TestNotBuilt(t *testing.T) {
	if Built {
		t.Skip("built with OpenCL")
	}
	if _, err := Platforms(); !errors.Is(err, ErrNotBuilt) || !strings.Contains(err.Error(), "-tags opencl") {
		t.Errorf("Platforms() error = %v, want ErrNotBuilt", err)
	}
}
