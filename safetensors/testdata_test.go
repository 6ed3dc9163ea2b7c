package safetensors

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestdata reads the committed files: golden and ok_* are valid (their
// values checked where they are small), bad_* are rejected.
func TestTestdata(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.safetensors"))
	if len(paths) < 5 {
		t.Fatalf("testdata has %d files", len(paths))
	}
	for _, p := range paths {
		f, err := Open(p)
		base := filepath.Base(p)
		if strings.HasPrefix(base, "bad_") {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Errorf("%s: %v, want a *FormatError", base, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", base, err)
			continue
		}
		f.Close()
	}

	f, err := Open(filepath.Join("testdata", "ok_subbyte.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, want := range map[string]string{
		"f6": "[0.125 0.25 0.375 0.5 -7.5 -7.5 -7.5 -7.5]",
		"e8": "[1 NaN]",
		"f4": "[1 -6 6 0]",
		"z":  "[]",
	} {
		got, err := ReadTensor[float64](f, name, ReadOptions{})
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("%s: %v %v, want %s", name, got, err, want)
		}
	}
	if f.Metadata["format"] != "mx" {
		t.Errorf("metadata %v", f.Metadata)
	}
	g, err := Open(filepath.Join("testdata", "ok_hf_serialization.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got, err := ReadTensor[int32](g, "attn.0", ReadOptions{}); err != nil || fmt.Sprint(got) != "[0 1 2 3 4 5]" {
		t.Errorf("attn.0: %v %v", got, err)
	}
	// The FNUZ dtypes (issue 44): 0x40 is 1 (bias 8 and 16), 0x80 the NaN,
	// 0xff the most negative value, 0x01 the smallest subnormal.
	z, err := Open(filepath.Join("testdata", "ok_fnuz.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for name, want := range map[string]string{"w": "[1 NaN -240 0.0009765625]", "v": "[1 NaN -57344 7.62939453125e-06]"} {
		if got, err := ReadTensor[float64](z, name, ReadOptions{}); err != nil || fmt.Sprint(got) != want {
			t.Errorf("ok_fnuz %s: %v %v, want %s", name, got, err, want)
		}
	}
	// To float the checked read keeps the NaN (a NaN to a floating type is
	// no error); to an integer it is one.
	if _, err := ReadTensor[int32](z, "w", ReadOptions{Checked: true}); err == nil {
		t.Error("ok_fnuz w to int32, checked: no error for the NaN")
	}
}
