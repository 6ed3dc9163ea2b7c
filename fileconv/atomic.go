package fileconv

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// AtomicFile is an output file that appears under its name only when Commit
// succeeds. It writes to a temporary file in the destination's directory (so
// that the final rename stays on one file system and is atomic); Abort, or a
// failed Commit, removes the temporary file and leaves any existing file of
// that name untouched.
type AtomicFile struct {
	f       *os.File
	path    string
	replace bool
	done    bool
	// Sync makes Commit flush the data and the directory entry to stable
	// storage (fsync) before reporting success.
	Sync bool
	// Verify, if not nil, is called by Commit with the temporary file's
	// name once it is written and closed, before the rename: an error
	// keeps the file from its name (it is removed, and Commit returns the
	// error). Writers use it to re-read what they wrote with their own
	// reader, so that a file they cannot read back is never put in place.
	Verify func(tmp string) error

	mu sync.Mutex
}

// TempPrefix starts the names of AtomicFile's temporary files: a hidden
// ".NAME.clconv-" followed by random hex and ".tmp".
const TempPrefix = ".clconv-"

// CreateAtomic starts writing the file path. Unless replace is true, an
// existing path is an error wrapping fs.ErrExist, checked now and again at
// Commit (which never replaces a file created in between).
func CreateAtomic(path string, replace bool) (*AtomicFile, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory", path)
	case err == nil && !replace:
		return nil, fmt.Errorf("%s: %w", path, fs.ErrExist)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for range 100 {
		var r [8]byte
		rand.Read(r[:])
		tmp := filepath.Join(dir, "."+base+TempPrefix+hex.EncodeToString(r[:])+".tmp")
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if fi != nil {
			// Replacing a file keeps its permissions.
			f.Chmod(fi.Mode().Perm())
		}
		return &AtomicFile{f: f, path: path, replace: replace}, nil
	}
	return nil, fmt.Errorf("%s: cannot create a temporary file beside it", path)
}

// Name returns the temporary file's name.
func (a *AtomicFile) Name() string { return a.f.Name() }

// Write writes to the temporary file.
func (a *AtomicFile) Write(p []byte) (int, error) { return a.f.Write(p) }

// WriteAt writes to the temporary file at offset off.
func (a *AtomicFile) WriteAt(p []byte, off int64) (int, error) { return a.f.WriteAt(p, off) }

// Commit closes the temporary file and gives it its final name. On failure
// the temporary file is removed.
func (a *AtomicFile) Commit() (err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done {
		return errors.New("fileconv: AtomicFile already committed or aborted")
	}
	a.done = true
	tmp := a.f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if a.Sync {
		if err := a.f.Sync(); err != nil {
			a.f.Close()
			return err
		}
	}
	if err := a.f.Close(); err != nil {
		return err
	}
	if a.Verify != nil {
		if err := a.Verify(tmp); err != nil {
			return err
		}
	}
	if a.replace {
		if err := os.Rename(tmp, a.path); err != nil {
			return err
		}
	} else {
		// A hard link fails if the name exists, so a file created since
		// CreateAtomic is never replaced.
		err := os.Link(tmp, a.path)
		switch {
		case errors.Is(err, fs.ErrExist):
			return fmt.Errorf("%s: %w", a.path, fs.ErrExist)
		case err != nil:
			// No hard links on this file system: check, then rename.
			if _, serr := os.Lstat(a.path); serr == nil {
				return fmt.Errorf("%s: %w", a.path, fs.ErrExist)
			}
			if err := os.Rename(tmp, a.path); err != nil {
				return err
			}
		default:
			os.Remove(tmp)
		}
	}
	if a.Sync {
		syncDir(filepath.Dir(a.path))
	}
	return nil
}

// Abort discards the temporary file. It may be called after Commit (it then
// does nothing), more than once, and from another goroutine than the
// writer's (a signal handler): writes after it fail.
func (a *AtomicFile) Abort() error {
	_, err := a.TryAbort()
	return err
}

// TryAbort is Abort that also reports whether it discarded the file: false
// when Commit (or an Abort) came first.
func (a *AtomicFile) TryAbort() (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done {
		return false, nil
	}
	a.done = true
	a.f.Close()
	return true, os.Remove(a.f.Name())
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// IsTempName reports whether name (a base name) is one of AtomicFile's
// temporary files.
func IsTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, TempPrefix) && strings.HasSuffix(name, ".tmp")
}
