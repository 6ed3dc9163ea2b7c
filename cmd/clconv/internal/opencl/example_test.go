package opencl_test

import (
	"errors"
	"fmt"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
)

// FirstDevice is the quickest way to a device; clconv devices lists them all.
func ExampleFirstDevice() {
	d, err := opencl.FirstDevice()
	switch {
	case errors.Is(err, opencl.ErrNotBuilt):
		fmt.Println("build with -tags opencl")
	case err != nil:
		fmt.Println(err)
	case d == nil:
		fmt.Println("no OpenCL device")
	default:
		fmt.Println(d.Name, d.OpenCLCVersion)
	}
}
