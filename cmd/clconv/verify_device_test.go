//go:build opencl

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
	"github.com/clconv/clconv/cmd/clconv/internal/verify"
)

func needDevice(t *testing.T) {
	t.Helper()
	ps, err := opencl.Platforms()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if ds, err := p.Devices(); err == nil && len(ds) > 0 {
			return
		}
	}
	t.Skip("no OpenCL platform with a device (install pocl-opencl-icd)")
}

func TestDevicesCmd(t *testing.T) {
	needDevice(t)
	stdout, stderr, status := clconv(t, "", "devices")
	if status != 0 || !strings.Contains(stdout, "platform 0: ") || !strings.Contains(stdout, "OpenCL C:") ||
		!strings.Contains(stdout, "scalar conversions testable") {
		t.Errorf("devices: status %d, stderr %q:\n%s", status, stderr, stdout)
	}
	stdout, _, status = clconv(t, "", "devices", "--json")
	var ds []map[string]any
	if status != 0 || json.Unmarshal([]byte(stdout), &ds) != nil || len(ds) == 0 || ds[0]["opencl_c"] == "" {
		t.Errorf("devices --json: status %d:\n%s", status, stdout)
	}
}

func TestVerifyCmd(t *testing.T) {
	needDevice(t)
	stdout, stderr, status := clconv(t, "", "verify", "--quick", "--only", "convert_uchar_sat_rte float,convert_short int", "--no-progress")
	if status != 0 || !strings.Contains(stdout, "PASS: 2 conversions passed") {
		t.Errorf("verify: status %d, stderr %q:\n%s", status, stderr, stdout)
	}
	// Programs built in build processes: this test binary, which TestMain
	// makes one (verify.IsWorker).
	stdout, stderr, status = clconv(t, "", "verify", "--quick", "--only", "convert_ushort_sat_rtz float,convert_char long",
		"--no-astype", "--no-progress", "--build-procs", "2")
	if status != 0 || !strings.Contains(stdout, "PASS: 2 conversions passed") || !strings.Contains(stdout, "2 built (2 in build processes)") {
		t.Errorf("verify --build-procs 2: status %d, stderr %q:\n%s", status, stderr, stdout)
	}
	// An injected device bug: exit status 1, the wrong inputs listed.
	stdout, stderr, status = clconv(t, "", "verify", "--quick", "--only", "convert_int_sat_rte float", "--no-astype",
		"--widths", "4", "--inject-fault", "convert_int_sat_rte float:nan")
	if status != 1 || !strings.Contains(stdout, "FAIL: 0 conversions passed, 1 failed") ||
		!strings.Contains(strings.Join(strings.Fields(stdout), " "), "NaN must convert to 0 under _sat: 1 conversions") ||
		!strings.Contains(strings.Join(strings.Fields(stdout), " "), "convert_int_sat_rte float edges 0x7f800001 nan 0x00000000 = 0 0x00000001 = 1") {
		t.Errorf("verify with a fault: status %d, stderr %q:\n%s", status, stderr, stdout)
	}
	stdout, _, status = clconv(t, "", "verify", "--quick", "--json", "--only", "convert_int_sat_rte float", "--no-astype",
		"--no-vectors", "--inject-fault", "convert_int_sat_rte float:nan")
	var rep verify.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || status != 1 || rep.Failed != 1 || len(rep.Failures) == 0 ||
		rep.Failures[0].Rule != "NaN must convert to 0 under _sat" {
		t.Errorf("verify --json with a fault: status %d, %v:\n%.2000s", status, err, stdout)
	}
	_, stderr, status = clconv(t, "", "verify", "--only", "convert_int_sat_rte flaot")
	if status != 2 || !strings.Contains(stderr, "matches no conversion") {
		t.Errorf("verify --only with a typo: status %d, stderr %q", status, stderr)
	}
	_, stderr, status = clconv(t, "", "verify", "--platform", "no-such-platform")
	if status != 2 || !strings.Contains(stderr, "no platform's name contains it") {
		t.Errorf("verify --platform no-such-platform: status %d, stderr %q", status, stderr)
	}
}
