package fileconv

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// listDir returns the names in dir.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	mustNoErr(t, err)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestAtomicFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.npy")

	// Commit gives the file its name and leaves no temporary file.
	a, err := CreateAtomic(out, false)
	mustNoErr(t, err)
	if !IsTempName(filepath.Base(a.Name())) || filepath.Dir(a.Name()) != dir {
		t.Errorf("temporary file %s", a.Name())
	}
	a.Write([]byte("hello"))
	a.WriteAt([]byte("J"), 0)
	a.Sync = true
	mustNoErr(t, a.Commit())
	if b, _ := os.ReadFile(out); string(b) != "Jello" {
		t.Errorf("committed %q", b)
	}
	if names := listDir(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v", names)
	}
	if err := a.Commit(); err == nil {
		t.Error("second Commit succeeded")
	}
	mustNoErr(t, a.Abort()) // after Commit: nothing to do

	// An existing file needs replace.
	if _, err := CreateAtomic(out, false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateAtomic over an existing file: %v", err)
	}
	if _, err := CreateAtomic(dir, true); err == nil {
		t.Error("CreateAtomic over a directory succeeded")
	}

	// Abort removes the temporary file and leaves the existing one.
	mustNoErr(t, os.Chmod(out, 0o640))
	a, err = CreateAtomic(out, true)
	mustNoErr(t, err)
	a.Write([]byte("partial"))
	mustNoErr(t, a.Abort())
	mustNoErr(t, a.Abort())
	if b, _ := os.ReadFile(out); string(b) != "Jello" {
		t.Errorf("after Abort: %q", b)
	}
	if names := listDir(t, dir); len(names) != 1 {
		t.Errorf("after Abort the directory holds %v", names)
	}

	// replace keeps the old file's permissions.
	a, err = CreateAtomic(out, true)
	mustNoErr(t, err)
	a.Write([]byte("new"))
	mustNoErr(t, a.Commit())
	fi, err := os.Stat(out)
	mustNoErr(t, err)
	if b, _ := os.ReadFile(out); string(b) != "new" || fi.Mode().Perm() != 0o640 {
		t.Errorf("replaced: %q, mode %v", b, fi.Mode())
	}

	// A file created after CreateAtomic is not replaced without replace.
	other := filepath.Join(dir, "other")
	a, err = CreateAtomic(other, false)
	mustNoErr(t, err)
	a.Write([]byte("mine"))
	mustNoErr(t, os.WriteFile(other, []byte("theirs"), 0o644))
	if err := a.Commit(); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Commit over a new file: %v", err)
	}
	if b, _ := os.ReadFile(other); string(b) != "theirs" {
		t.Errorf("the other file became %q", b)
	}
	if names := listDir(t, dir); len(names) != 2 {
		t.Errorf("after a failed Commit the directory holds %v", names)
	}
}
