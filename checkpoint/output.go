package checkpoint

// Output safety: one rule for every conversion that writes (docs/SAFETENSORS.md,
// "What clconv never does").
//
//   - The output may not be an input, contain an input, or lie inside an
//     input directory.
//   - An existing output is replaced only when the caller says so, and then
//     only a file, or a directory that holds nothing but what this
//     conversion writes there (its shards, its index): anything else in it
//     is someone else's, and the conversion is refused before any work.
//   - Every file is written under a temporary name beside its final one,
//     re-read by this package's own reader and checked against what was
//     meant to be written, and only then renamed into place.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// ErrUnsafeOutput is the cause of every refusal of an output path: the
// output is an input, contains one or lies inside one, or exists and may
// not be replaced. Nothing has been read or written when it is returned.
var ErrUnsafeOutput = errors.New("unsafe output")

// unsafeOutput returns an error wrapping ErrUnsafeOutput.
func unsafeOutput(format string, args ...any) error {
	return &outputError{fmt.Sprintf(format, args...)}
}

type outputError struct{ msg string }

func (e *outputError) Error() string { return e.msg }
func (e *outputError) Unwrap() error { return ErrUnsafeOutput }

// resolve returns p made absolute with its symbolic links resolved; a path
// that does not exist yet is resolved through its directory, which must
// exist.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r, nil
	}
	if _, err := os.Lstat(abs); err == nil {
		return abs, nil // a dangling link: compared as it is
	}
	dir, base := filepath.Split(abs)
	rdir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: its directory %s does not exist", p, filepath.Clean(dir))
		}
		return "", err
	}
	return filepath.Join(rdir, base), nil
}

// within reports whether path p is dir or lies inside it (both resolved).
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// outputCheck describes an output about to be written.
type outputCheck struct {
	dst     string   // the output path as given
	files   []string // the input files (shards, index, config)
	dirs    []string // the input directories (a checkpoint's)
	isDir   bool     // the output is a directory
	replace bool     // an existing output may be replaced
	// owned reports whether a name in an existing output directory is one
	// that this conversion writes there.
	owned func(name string) bool
}

// CheckOutput applies the output rules to dst, an output file (isDir false)
// or directory, against the inputs (files or directories). It is what
// ConvertFile and ConvertCheckpoint do before any work; callers that write
// by other means (a .npy conversion) use it for the same rules. A refusal
// wraps ErrUnsafeOutput.
func CheckOutput(dst string, inputs []string, isDir, replace bool) error {
	c := outputCheck{dst: dst, isDir: isDir, replace: replace, owned: func(string) bool { return false }}
	for _, in := range inputs {
		if fi, err := os.Stat(in); err == nil && fi.IsDir() {
			c.dirs = append(c.dirs, in)
		} else {
			c.files = append(c.files, in)
		}
	}
	return c.check()
}

// check applies the rules.
func (c *outputCheck) check() error {
	out, err := resolve(c.dst)
	if err != nil {
		return err
	}
	ins := append(append([]string(nil), c.files...), c.dirs...)
	rins := make([]string, len(ins))
	for i, in := range ins {
		if rins[i], err = resolve(in); err != nil {
			return err
		}
		if out == rins[i] || same(c.dst, in) {
			return unsafeOutput("%s is the input %s: the output may not be the input", c.dst, in)
		}
	}
	for i, in := range ins {
		if within(rins[i], out) {
			return unsafeOutput("%s contains the input %s: write the output elsewhere", c.dst, in)
		}
	}
	for _, d := range c.dirs {
		rd, err := resolve(d)
		if err != nil {
			return err
		}
		if within(out, rd) {
			return unsafeOutput("%s lies inside the input directory %s: write the output elsewhere", c.dst, d)
		}
	}
	fi, err := os.Lstat(c.dst)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if fi, err = os.Stat(c.dst); err != nil {
			return unsafeOutput("%s is a symbolic link to nothing: remove it or write elsewhere", c.dst)
		}
	}
	if !c.replace {
		return unsafeOutput("%s exists: use --force to replace it", c.dst)
	}
	switch {
	case !c.isDir && fi.IsDir():
		return unsafeOutput("%s is a directory: --force replaces files, not directories", c.dst)
	case !c.isDir && !fi.Mode().IsRegular():
		return unsafeOutput("%s is not a regular file: clconv writes safetensors output to regular files only", c.dst)
	case c.isDir && !fi.IsDir():
		return unsafeOutput("%s exists and is not a directory: --force replaces only a directory of clconv's output", c.dst)
	case c.isDir:
		names, err := dirNames(c.dst)
		if err != nil {
			return err
		}
		for _, n := range names {
			efi, err := os.Lstat(filepath.Join(c.dst, n))
			if err != nil {
				return err
			}
			if !efi.Mode().IsRegular() || !c.owned(n) {
				return unsafeOutput("%s holds %q, which this conversion does not write: --force replaces only a directory that holds nothing but clconv's output (its shards and index); remove it yourself or write elsewhere", c.dst, n)
			}
		}
	}
	return nil
}

// dirNames lists the names in dir.
func dirNames(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// regularFile checks that path is a regular file (after links) before it is
// opened: a FIFO or a device would block or never end.
func regularFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s): clconv reads safetensors from regular files only", path, fi.Mode().Type())
	}
	return nil
}

// Open opens the safetensors file at path as safetensors.Open does, after
// checking that it is a regular file (a FIFO would block, a device never
// end), and names path in its errors.
func Open(path string) (*safetensors.File, error) {
	if err := regularFile(path); err != nil {
		return nil, err
	}
	f, err := safetensors.Open(path)
	if err != nil {
		return nil, fileErr(path, err)
	}
	return f, nil
}

// fileErr names the file path in err, unless err already starts with it.
func fileErr(path string, err error) error {
	if err == nil || strings.HasPrefix(err.Error(), path+":") {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// VerifyFile re-reads the safetensors file at path with package
// safetensors' reader and checks that it holds exactly the output tensors
// of rep, the Report of the conversion that wrote it (names, dtypes,
// shapes; the reader checks that their data tile the file): a file that
// clconv cannot read back is never renamed into place. ConvertFile and
// ConvertCheckpoint call it; a caller of Convert calls it before its own
// rename.
func VerifyFile(path string, rep *Report) error {
	if rep == nil {
		return errors.New("checkpoint: no report to check the output against")
	}
	f, err := safetensors.Open(path)
	if err != nil {
		return fmt.Errorf("checkpoint: the output written fails to read back (%v): it was not kept", err)
	}
	defer f.Close()
	want := 0
	for _, t := range rep.Tensors {
		if t.Action == ActDropScale.String() {
			continue
		}
		want++
		got, ok := f.Lookup(t.Name)
		if !ok {
			return fmt.Errorf("checkpoint: the output written lacks tensor %q on reading back: it was not kept", t.Name)
		}
		if got.DType.String() != t.To || !slices.Equal(got.Shape, t.Shape) {
			return fmt.Errorf("checkpoint: tensor %q reads back as %s %s, not %s %s: the output was not kept",
				t.Name, got.DType, ShapeString(got.Shape), t.To, ShapeString(t.Shape))
		}
	}
	if len(f.Tensors) != want {
		return fmt.Errorf("checkpoint: the output written holds %d tensors on reading back, not %d: it was not kept", len(f.Tensors), want)
	}
	return nil
}

// tempDir creates a hidden temporary directory beside dst
// (".NAME.clconv-RANDOM.tmp", a name fileconv.IsTempName knows).
func tempDir(dst string) (string, error) {
	dir, base := filepath.Split(filepath.Clean(dst))
	if dir == "" {
		dir = "."
	}
	for range 100 {
		tmp := filepath.Join(dir, "."+base+fileconv.TempPrefix+randomHex()+".tmp")
		err := os.Mkdir(tmp, 0o777)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return tmp, nil
	}
	return "", fmt.Errorf("%s: cannot create a temporary directory beside it", dst)
}
