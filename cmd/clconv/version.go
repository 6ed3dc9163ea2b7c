package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionString returns what `clconv --version` prints: the module version
// (a tag, a pseudo-version, or "(devel)" for a build from a checkout), the
// VCS revision and time with "+dirty" for uncommitted changes, when the
// build recorded them, and the Go version and target.
func versionString() string {
	return formatVersion(debug.ReadBuildInfo())
}

func formatVersion(bi *debug.BuildInfo, ok bool) string {
	version, rev, when, dirty := "unknown", "", "", false
	if ok {
		version = bi.Main.Version
		if version == "" {
			version = "(devel)"
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "clconv %s", version)
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		fmt.Fprintf(&b, " (revision %s", rev)
		if dirty {
			b.WriteString("+dirty")
		}
		if when != "" {
			fmt.Fprintf(&b, ", %s", when)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s/%s", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return b.String()
}
