package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"--version"}, strings.NewReader(""), &out, &errb); st != 0 {
		t.Fatalf("--version: status %d, stderr %q", st, errb.String())
	}
	if !strings.HasPrefix(out.String(), "clconv ") || !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("--version printed %q", out.String())
	}
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-27T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}
	got := formatVersion(bi, true)
	if !strings.HasPrefix(got, "clconv v1.2.3 (revision 0123456789ab+dirty, 2026-11-27T10:00:00Z) go") {
		t.Errorf("formatVersion = %q", got)
	}
	if got := formatVersion(nil, false); !strings.HasPrefix(got, "clconv unknown go") {
		t.Errorf("formatVersion without build info = %q", got)
	}
}
