package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clconv bench --json prints one object per row with exactly the keys of
// issue 4, and plausible values.
func TestBenchJSON(t *testing.T) {
	out, errOut, st := clconv(t, "", "bench", "--pairs", "float-uchar,int-float", "--size", "l2", "--repeat", "1", "--min-time", "1ms", "--json")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) != 8+4 {
		t.Fatalf("%d rows, want 12", len(rows))
	}
	keys := []string{"conversion", "source", "size", "gelem_per_s", "gb_per_s", "ratio_to_copy", "ratio_to_purego"}
	for _, r := range rows {
		if len(r) != len(keys) {
			t.Errorf("row %v: want exactly the keys %v", r, keys)
		}
		for _, k := range keys {
			if _, ok := r[k]; !ok {
				t.Errorf("row %v lacks %q", r, k)
			}
		}
		if r["size"] != "l2" || r["gelem_per_s"].(float64) <= 0 || r["ratio_to_copy"].(float64) <= 0 {
			t.Errorf("row %v", r)
		}
	}
	if rows[4]["conversion"] != "convert_uchar_sat_rte" || rows[4]["source"] != "float" {
		t.Errorf("row 4 is %v, want convert_uchar_sat_rte from float", rows[4])
	}
	if rows[8]["conversion"] != "convert_float_rte" || rows[8]["source"] != "int" {
		t.Errorf("row 8 is %v, want convert_float_rte from int", rows[8])
	}
}

func TestBenchTableAndPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "chart.png")
	out, errOut, st := clconv(t, "", "bench", "--pairs", "uchar-float", "--size", "l2", "--repeat", "1", "--min-time", "1ms", "--png", path, "--tier", "go")
	if st != 0 {
		t.Fatalf("status %d: %s", st, errOut)
	}
	if !strings.Contains(out, "uchar->float") || !strings.Contains(out, "convert_float") || !strings.Contains(out, "x pure Go") {
		t.Errorf("table:\n%s", out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
}

func TestBenchErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--pairs", "long-ulong"},
		{"bench", "--size", "l3"},
		{"bench", "--tier", "avx9000"},
		{"bench", "--repeat", "0"},
	} {
		if _, errOut, st := clconv(t, "", args...); st == 0 || errOut == "" {
			t.Errorf("%v: status %d, stderr %q", args, st, errOut)
		}
	}
}
