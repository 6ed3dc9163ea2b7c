package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
)

// SliceCache is an on-disk cache of the CPU reference digests of slices
// shorter than a chunk (a quick run's 1024 slices of 2^14 inputs per 32- or
// 64-bit source), one file per class of equivalent conversions
// (digest.Conversion.Representative) and list of slices. Whole chunks need
// no cache: they come from the shipped reference. An entry is keyed by the
// SHA-256 of the running executable, so a rebuilt clconv (whose library may
// compute other results) never reads an older one's digests; a corrupt entry
// is recomputed with a notice. Safe for concurrent use.
type SliceCache struct {
	Dir string

	once    sync.Once
	exe     string // hex SHA-256 of the executable, "" if unknown (then nothing is cached)
	mu      sync.Mutex
	notices []string
}

// NewSliceCache returns the slice reference cache in dir/reference, or nil
// where dir is "" (caches off).
func NewSliceCache(dir string) *SliceCache {
	if dir == "" {
		return nil
	}
	return &SliceCache{Dir: filepath.Join(dir, "reference")}
}

// DefaultSliceCache returns the slice reference cache CacheEnv places, or nil
// when it is off.
func DefaultSliceCache() *SliceCache { return NewSliceCache(CacheDir()) }

const sliceMagic = "clconv slice reference v1\n"

func (c *SliceCache) exeSum() string {
	c.once.Do(func() {
		p, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(p)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			c.exe = hex.EncodeToString(h.Sum(nil))
		}
	})
	return c.exe
}

func (c *SliceCache) key(conv digest.Conversion, sl []Slice) string {
	h := sha256.New()
	for _, s := range sl {
		binary.Write(h, binary.LittleEndian, [2]uint64{s.Start, s.Len})
	}
	return fmt.Sprintf("exe %s\nclass %s\nslices %d %x\n", c.exeSum(), classKey(conv), len(sl), h.Sum(nil))
}

func (c *SliceCache) path(key string) string {
	h := sha256.Sum256([]byte(key))
	return filepath.Join(c.Dir, hex.EncodeToString(h[:])[:40]+".ref")
}

// reference returns the reference digests of the slices (see reference),
// from the cache where it has them.
func (c *SliceCache) reference(conv digest.Conversion, sl []Slice, cache *RefCache) ([]uint64, uint64) {
	whole := true
	for _, s := range sl {
		if s.Start%digestspec.ChunkSize != 0 || s.Len != min(digestspec.ChunkSize, digestspec.N(conv.Src)) {
			whole = false
		}
	}
	if c == nil || whole || c.exeSum() == "" {
		return reference(conv, sl, cache)
	}
	key := c.key(conv, sl)
	if sums, impl, ok := c.get(key, len(sl)); ok {
		return sums, impl
	}
	sums, impl := reference(conv, sl, cache)
	c.put(key, sums, impl)
	return sums, impl
}

func (c *SliceCache) get(key string, n int) ([]uint64, uint64, bool) {
	p := c.path(key)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false
	}
	bad := func(why string) ([]uint64, uint64, bool) {
		c.notice("reference cache: %s: %s; recomputing", filepath.Base(p), why)
		os.Remove(p)
		return nil, 0, false
	}
	if err != nil {
		return bad(err.Error())
	}
	head := sliceMagic + key
	want := len(head) + 8*(n+1) + 32
	if len(data) != want || !bytes.HasPrefix(data, []byte(head)) {
		return bad("corrupt or stale")
	}
	body := data[:len(data)-32]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], data[len(data)-32:]) {
		return bad("checksum does not match")
	}
	v := body[len(head):]
	impl := binary.LittleEndian.Uint64(v)
	sums := make([]uint64, n)
	for i := range sums {
		sums[i] = binary.LittleEndian.Uint64(v[8*(i+1):])
	}
	return sums, impl, true
}

func (c *SliceCache) put(key string, sums []uint64, impl uint64) {
	var b bytes.Buffer
	b.WriteString(sliceMagic + key)
	binary.Write(&b, binary.LittleEndian, impl)
	binary.Write(&b, binary.LittleEndian, sums)
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	if err := (&BinCache{}).write(c.path(key), b.Bytes()); err != nil {
		c.notice("reference cache: not stored: %v", err)
	}
}

func (c *SliceCache) notice(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notices = append(c.notices, fmt.Sprintf(format, args...))
}

func (c *SliceCache) takeNotices() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.notices
	c.notices = nil
	return n
}
