package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/clconv/clconv/cmd/clconv/internal/opencl"
)

// CacheEnv is the environment variable that places clconv's on-disk caches:
// "off" turns every one of them off (so that cold runs can be timed), a
// directory moves them there; unset or empty, they are in
// os.UserCacheDir()/clconv.
const CacheEnv = "CLCONV_CACHE"

// CacheDir returns the directory of clconv's on-disk caches as CacheEnv
// says, or "" when they are off (or no user cache directory is known).
func CacheDir() string {
	switch v := os.Getenv(CacheEnv); {
	case v == "off":
		return ""
	case v != "":
		return v
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "clconv")
}

// DriverSettings sets, before the first OpenCL call, what clconv asks of the
// drivers it knows (an environment variable already set is left as it is),
// and returns what undoes it at the end of the run:
//
//   - POCL_WORK_GROUP_SPECIALIZATION=0: PoCL compiles each kernel once, for
//     every work-group size, instead of once per size and grid; that one
//     compilation is what a program binary holds, so a cached binary needs
//     no compiling at all, and it happens where the binary is taken
//     (Program.Binary: in a build process, or in the run after the
//     program's kernels ran);
//   - with CLCONV_CACHE=off, DriverCachesOff.
//
// The build processes of a run (Options.Worker) inherit the settings.
func DriverSettings() (cleanup func()) {
	if _, ok := os.LookupEnv("POCL_WORK_GROUP_SPECIALIZATION"); !ok {
		os.Setenv("POCL_WORK_GROUP_SPECIALIZATION", "0")
	}
	return DriverCachesOff()
}

// DriverCachesOff makes the OpenCL drivers' own kernel caches that clconv
// knows of cold when CacheEnv is "off", so that such a run is cold, and
// returns what removes what it made (call it when the run is over). Each
// variable already set is left as it is:
//
//   - PoCL: POCL_KERNEL_CACHE=0 (the build processes hand PoCL's compiled
//     kernels over in the program binaries);
//   - NVIDIA: a CUDA kernel cache of the run's own, CUDA_CACHE_PATH set to
//     a new temporary directory that cleanup removes (unless
//     CUDA_CACHE_PATH or CUDA_CACHE_DISABLE is set). It is empty at the
//     start, so nothing from an earlier run is used, and it is what lets
//     the run load the program binaries (PTX) that its build processes
//     made without compiling each again: the driver finds the machine code
//     the build process compiled from the same PTX there. Without a cache
//     (CUDA_CACHE_DISABLE=1, or when no temporary directory can be made)
//     the run compiles every PTX again, one at a time (on the H100, a cold
//     quick run takes 31-33 s instead of 15).
//
// It must be called before the first OpenCL call: the drivers read their
// environment when they load.
func DriverCachesOff() (cleanup func()) {
	cleanup = func() {}
	if os.Getenv(CacheEnv) != "off" {
		return cleanup
	}
	if _, ok := os.LookupEnv("POCL_KERNEL_CACHE"); !ok {
		os.Setenv("POCL_KERNEL_CACHE", "0")
	}
	_, path := os.LookupEnv("CUDA_CACHE_PATH")
	_, disable := os.LookupEnv("CUDA_CACHE_DISABLE")
	if path || disable {
		return cleanup
	}
	dir, err := os.MkdirTemp("", "clconv-cuda-cache-")
	if err != nil {
		os.Setenv("CUDA_CACHE_DISABLE", "1")
		return cleanup
	}
	os.Setenv("CUDA_CACHE_PATH", dir)
	return func() {
		os.RemoveAll(dir)
		os.Unsetenv("CUDA_CACHE_PATH")
	}
}

// BinCache is an on-disk cache of program binaries (CL_PROGRAM_BINARIES), one
// file per program. An entry's name is the SHA-256 of its key: the platform
// (name, version), the device (name, version, driver version), clconv's
// version, the build options and the SHA-256 of the program's source. The
// file holds the key itself, the source's hash and the binary's SHA-256
// before the binary; an entry whose header, key, source hash or checksum does
// not match is reported (Notices) and rebuilt from source, never trusted,
// and so is one that the driver rejects. Safe for concurrent use.
type BinCache struct {
	Dir string

	mu      sync.Mutex
	notices []string
}

// NewBinCache returns the binary cache in dir/programs, or nil where dir is
// "" (caches off).
func NewBinCache(dir string) *BinCache {
	if dir == "" {
		return nil
	}
	return &BinCache{Dir: filepath.Join(dir, "programs")}
}

// DefaultBinCache returns the binary cache CacheEnv places, or nil when it
// is off.
func DefaultBinCache() *BinCache { return NewBinCache(CacheDir()) }

const binMagic = "clconv program binary v1\n"

// Version is clconv's version as the binary cache's key uses it: the main
// module's version and, where the build recorded it, its VCS revision.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v += " " + s.Value
		case "vcs.modified":
			if s.Value == "true" {
				v += "+modified"
			}
		}
	}
	return v
}

// binKey is the identity of a program binary, without the source.
func binKey(dev *opencl.Device, options string) string {
	var p string
	if dev.Platform != nil {
		p = dev.Platform.Name + " | " + dev.Platform.Version
	}
	return fmt.Sprintf("platform %s\ndevice %s | %s | driver %s\nclconv %s\noptions %q\n",
		p, dev.Name, dev.Version, dev.DriverVersion, Version(), options)
}

// entry is one cache file's content.
type binEntry struct {
	key    string
	srcSum [32]byte
	bin    []byte
}

func (e *binEntry) marshal() []byte {
	var b bytes.Buffer
	b.WriteString(binMagic)
	binary.Write(&b, binary.LittleEndian, uint32(len(e.key)))
	b.WriteString(e.key)
	b.Write(e.srcSum[:])
	sum := sha256.Sum256(e.bin)
	b.Write(sum[:])
	binary.Write(&b, binary.LittleEndian, uint64(len(e.bin)))
	b.Write(e.bin)
	return b.Bytes()
}

var errCorrupt = errors.New("corrupt")

func unmarshalBinEntry(data []byte) (*binEntry, error) {
	if !bytes.HasPrefix(data, []byte(binMagic)) {
		return nil, fmt.Errorf("%w: not a clconv program binary", errCorrupt)
	}
	data = data[len(binMagic):]
	if len(data) < 4 {
		return nil, fmt.Errorf("%w: truncated", errCorrupt)
	}
	n := binary.LittleEndian.Uint32(data)
	data = data[4:]
	if uint64(len(data)) < uint64(n)+32+32+8 {
		return nil, fmt.Errorf("%w: truncated", errCorrupt)
	}
	e := &binEntry{key: string(data[:n])}
	data = data[n:]
	copy(e.srcSum[:], data)
	var sum [32]byte
	copy(sum[:], data[32:])
	size := binary.LittleEndian.Uint64(data[64:])
	data = data[72:]
	if uint64(len(data)) != size {
		return nil, fmt.Errorf("%w: %d bytes of binary, the header says %d", errCorrupt, len(data), size)
	}
	if sha256.Sum256(data) != sum {
		return nil, fmt.Errorf("%w: the binary's checksum does not match", errCorrupt)
	}
	e.bin = data
	return e, nil
}

// path returns the file of the entry for key and source.
func (c *BinCache) path(key string, srcSum [32]byte) string {
	h := sha256.New()
	h.Write([]byte(key))
	h.Write(srcSum[:])
	return filepath.Join(c.Dir, hex.EncodeToString(h.Sum(nil))[:40]+".bin")
}

// has reports whether the cache has an entry for key and source (which get
// may still find corrupt).
func (c *BinCache) has(key string, srcSum [32]byte) bool {
	if c == nil {
		return false
	}
	_, err := os.Stat(c.path(key, srcSum))
	return err == nil
}

// get returns the cached binary for key and source, or nil. An entry that is
// unreadable, corrupt or for another key or source is removed and reported.
func (c *BinCache) get(key string, srcSum [32]byte, what string) []byte {
	if c == nil {
		return nil
	}
	p := c.path(key, srcSum)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		c.notice("program cache: %s: %v; rebuilding %s", p, err, what)
		return nil
	}
	e, err := unmarshalBinEntry(data)
	switch {
	case err != nil:
	case e.key != key:
		err = errors.New("stale: built for another device, driver or clconv version")
	case e.srcSum != srcSum:
		err = errors.New("stale: built from another source")
	}
	if err != nil {
		c.notice("program cache: %s: %v; rebuilding %s", filepath.Base(p), err, what)
		os.Remove(p)
		return nil
	}
	return e.bin
}

// reject removes an entry the driver did not accept.
func (c *BinCache) reject(key string, srcSum [32]byte, what string, err error) {
	p := c.path(key, srcSum)
	c.notice("program cache: %s: the driver rejected the cached binary (%s); rebuilding %s", filepath.Base(p), firstLine(err.Error()), what)
	os.Remove(p)
}

// put stores a binary and reports whether it did; a failure to write is a
// notice, never fatal.
func (c *BinCache) put(key string, srcSum [32]byte, bin []byte) bool {
	if c == nil || len(bin) == 0 {
		return false
	}
	if err := c.write(c.path(key, srcSum), (&binEntry{key: key, srcSum: srcSum, bin: bin}).marshal()); err != nil {
		c.notice("program cache: not stored: %v", err)
		return false
	}
	return true
}

func (c *BinCache) write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err1 := tmp.Close(); err == nil {
		err = err1
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func (c *BinCache) notice(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notices = append(c.notices, fmt.Sprintf(format, args...))
}

// takeNotices returns the notices since the last call.
func (c *BinCache) takeNotices() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.notices
	c.notices = nil
	return n
}

// Entries returns the paths of the cache's entries.
func (c *BinCache) Entries() []string {
	if c == nil {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(c.Dir, "*.bin"))
	return m
}

// describe is the cache's line in the report.
func (c *BinCache) describe() string {
	if c == nil {
		return "off"
	}
	return strings.TrimSpace(c.Dir)
}
