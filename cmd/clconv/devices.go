package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
	"github.com/clconv/clconv/cmd/clconv/internal/verify"
)

func init() { subcommands = append(subcommands, newDevicesCmd) }

func newDevicesCmd() *cobra.Command {
	var asJSON, verbose bool
	cmd := &cobra.Command{
		Use:   "devices",
		Short: "List OpenCL platforms and devices with their conversion-relevant facts",
		Long: `devices lists every OpenCL platform and device with the facts that decide
what clconv verify can check there: the OpenCL C version, double (cl_khr_fp64)
and half (cl_khr_fp16) support, and the single and double precision
floating-point configuration (denormals, round to nearest / zero / infinity).
Device numbers are those of clconv verify --platform P --device N.

Needs a build with OpenCL: go build -tags opencl ./cmd/clconv.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ps, err := opencl.Platforms()
			if err != nil {
				return err
			}
			if asJSON {
				return writeDevicesJSON(cmd.OutOrStdout(), ps)
			}
			return writeDevices(cmd.OutOrStdout(), ps, verbose)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also list every extension")
	return cmd
}

// testable counts the conversions verify can check on d.
func testable(d *opencl.Device) (n, total int) {
	caps := verify.Caps{FP64: d.FP64(), FP16: d.FP16()}
	for _, c := range verify.All() {
		total++
		if verify.PathOf(c, caps).Testable {
			n++
		}
	}
	return n, total
}

func writeDevices(w io.Writer, ps []*opencl.Platform, verbose bool) error {
	var b strings.Builder
	if len(ps) == 0 {
		b.WriteString("no OpenCL platform found (is an ICD installed in /etc/OpenCL/vendors?)\n")
	}
	for _, p := range ps {
		fmt.Fprintf(&b, "platform %d: %s (%s)\n    %s, %s\n", p.Index, p.Name, p.Vendor, p.Version, p.Profile)
		ds, err := p.Devices()
		if err != nil {
			fmt.Fprintf(&b, "    error listing devices: %v\n", err)
			continue
		}
		if len(ds) == 0 {
			b.WriteString("    no devices\n")
		}
		for _, d := range ds {
			fmt.Fprintf(&b, "  device %d: %s (%s, %s)\n", d.Index, d.Name, d.Type, d.Vendor)
			fmt.Fprintf(&b, "    version:     %s\n", d.Version)
			fmt.Fprintf(&b, "    driver:      %s\n", d.DriverVersion)
			fmt.Fprintf(&b, "    OpenCL C:    %s\n", d.OpenCLCVersion)
			fmt.Fprintf(&b, "    float:       %s\n", d.Single)
			fp64 := "no"
			if d.FP64() {
				fp64 = "yes: " + d.Double.String()
			}
			fmt.Fprintf(&b, "    double:      %s\n", fp64)
			fp16 := "no (half only through vload_half/vstore_half)"
			if d.FP16() {
				fp16 = "yes: " + d.Half.String()
			}
			fmt.Fprintf(&b, "    half:        %s\n", fp16)
			fmt.Fprintf(&b, "    resources:   %d compute units, work-groups up to %d, %s global memory (buffers up to %s)\n",
				d.ComputeUnits, d.MaxWorkGroup, gib(d.GlobalMem), gib(d.MaxAlloc))
			if !d.Available || !d.Compiler {
				fmt.Fprintf(&b, "    state:       available %v, compiler available %v\n", d.Available, d.Compiler)
			}
			n, total := testable(d)
			fmt.Fprintf(&b, "    verify:      %d of %d scalar conversions testable\n", n, total)
			if verbose {
				fmt.Fprintf(&b, "    extensions:  %s\n", strings.Join(d.Extensions, " "))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func gib(n uint64) string {
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}

// deviceJSON is one device (or a platform whose devices could not be listed)
// in clconv devices --json.
type deviceJSON struct {
	Platform        int    `json:"platform"`
	PlatformName    string `json:"platform_name"`
	PlatformVersion string `json:"platform_version"`
	Device          int    `json:"device"`
	verify.DeviceFacts
	ComputeUnits int      `json:"compute_units"`
	GlobalMem    uint64   `json:"global_mem"`
	Testable     int      `json:"testable_conversions"`
	Extensions   []string `json:"extensions"`
	Error        string   `json:"error,omitempty"`
}

func writeDevicesJSON(w io.Writer, ps []*opencl.Platform) error {
	out := []deviceJSON{}
	for _, p := range ps {
		ds, err := p.Devices()
		if err != nil {
			out = append(out, deviceJSON{Platform: p.Index, PlatformName: p.Name, PlatformVersion: p.Version, Device: -1, Error: err.Error()})
			continue
		}
		for _, d := range ds {
			n, _ := testable(d)
			out = append(out, deviceJSON{Platform: p.Index, PlatformName: p.Name, PlatformVersion: p.Version,
				Device: d.Index, DeviceFacts: verify.FactsOf(d), ComputeUnits: d.ComputeUnits, GlobalMem: d.GlobalMem,
				Testable: n, Extensions: d.Extensions})
		}
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

// pickDevice finds the device of --platform and --device: the platform by
// number or by a case-insensitive part of its name; without --platform, the
// first platform that has devices.
func pickDevice(platform string, device int) (*opencl.Device, error) {
	ps, err := opencl.Platforms()
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("no OpenCL platform found (is an ICD installed in /etc/OpenCL/vendors?)")
	}
	var cands []*opencl.Platform
	if platform == "" {
		cands = ps
	} else if i, err := strconv.Atoi(platform); err == nil {
		if i < 0 || i >= len(ps) {
			return nil, fmt.Errorf("--platform %d: there are %d platforms (see clconv devices)", i, len(ps))
		}
		cands = ps[i : i+1]
	} else {
		for _, p := range ps {
			if strings.Contains(strings.ToLower(p.Name+" "+p.Vendor), strings.ToLower(platform)) {
				cands = append(cands, p)
			}
		}
		if len(cands) == 0 {
			return nil, fmt.Errorf("--platform %q: no platform's name contains it (see clconv devices)", platform)
		}
	}
	for _, p := range cands {
		ds, err := p.Devices()
		if err != nil {
			return nil, err
		}
		if len(ds) == 0 && platform == "" {
			continue
		}
		if device < 0 || device >= len(ds) {
			return nil, fmt.Errorf("--device %d: platform %d (%s) has %d devices (see clconv devices)", device, p.Index, p.Name, len(ds))
		}
		return ds[device], nil
	}
	return nil, fmt.Errorf("no OpenCL device found (see clconv devices)")
}
