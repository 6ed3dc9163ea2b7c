package verify

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
)

// RefCache holds complete reference digests, one line of `clconv digest`
// per class of equivalent conversions (digest.Conversion.Representative), so
// that a second full run (another platform, or a rerun) needs no CPU-side
// exhaustive work. Safe for concurrent use.
type RefCache struct {
	mu    sync.Mutex
	m     map[string]*digest.Result
	dirty bool
	base  *RefCache // consulted for what m lacks (the shipped digests)
}

// NewRefCache returns an empty cache.
func NewRefCache() *RefCache { return &RefCache{m: map[string]*digest.Result{}} }

// LoadRefCache reads a cache file; a missing file is an empty cache. Lines
// starting with '#' and incomplete digests are ignored.
func LoadRefCache(path string) (*RefCache, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return NewRefCache(), nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRefCache(f, path)
}

// readRefCache reads cache lines from r; name is used in errors.
func readRefCache(r io.Reader, name string) (*RefCache, error) {
	rc := NewRefCache()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := ParseDigestLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if r.Complete() {
			rc.m[classKey(r.Conversion)] = r
		}
	}
	return rc, sc.Err()
}

// ParseDigestLine parses a line of `clconv digest` (digest.Result.Line).
func ParseDigestLine(line string) (*digest.Result, error) {
	f := strings.Split(line, "\t")
	if len(f) != 7 {
		return nil, fmt.Errorf("want 7 tab-separated fields (conversion, source, N, digest, impl, NaN, chunks), got %d", len(f))
	}
	c, err := digest.Parse(f[0], f[1])
	if err != nil {
		return nil, err
	}
	r := &digest.Result{Conversion: c, N: digestspec.N(c.Src)}
	if n, err := strconv.ParseUint(f[2], 10, 64); err != nil || n != r.N {
		return nil, fmt.Errorf("%s %s: N is %q, want %d", f[0], f[1], f[2], r.N)
	}
	if r.Impl, err = strconv.ParseUint(f[4], 10, 64); err != nil {
		return nil, fmt.Errorf("%s %s: bad implementation-defined count %q", f[0], f[1], f[4])
	}
	if r.NaN, err = strconv.ParseUint(f[5], 10, 64); err != nil {
		return nil, fmt.Errorf("%s %s: bad NaN count %q", f[0], f[1], f[5])
	}
	cs := strings.Split(f[6], ",")
	if len(cs) != digestspec.Chunks(c.Src) {
		return nil, fmt.Errorf("%s %s: %d chunk digests, want %d", f[0], f[1], len(cs), digestspec.Chunks(c.Src))
	}
	r.Chunks, r.Done = make([]uint64, len(cs)), make([]bool, len(cs))
	for k, s := range cs {
		if s == "-" {
			continue
		}
		if r.Chunks[k], err = strconv.ParseUint(s, 16, 64); err != nil {
			return nil, fmt.Errorf("%s %s: chunk %d: bad digest %q", f[0], f[1], k, s)
		}
		r.Done[k] = true
	}
	if d, err := strconv.ParseUint(f[3], 16, 64); err != nil || d != r.Digest() {
		return nil, fmt.Errorf("%s %s: digest %q is not the sum of the chunk digests (%016x)", f[0], f[1], f[3], r.Digest())
	}
	return r, nil
}

// get returns the cached complete digest of c.
func (rc *RefCache) get(c digest.Conversion) *digest.Result {
	if rc == nil {
		return nil
	}
	rc.mu.Lock()
	r := rc.m[classKey(c)]
	rc.mu.Unlock()
	if r == nil && rc.base != nil {
		return rc.base.get(c)
	}
	return r
}

// classKey is the key of c's class: the Key of its representative.
func classKey(c digest.Conversion) string { return Key(c.Representative()) }

// put adds a complete digest.
func (rc *RefCache) put(r *digest.Result) {
	if rc == nil || !r.Complete() {
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.m[classKey(r.Conversion)] = r
	rc.dirty = true
}

// Has reports whether the cache (or what it falls back to) has c's class.
func (rc *RefCache) Has(c digest.Conversion) bool { return rc.get(c) != nil }

// Put adds a complete digest for its conversion's class; an incomplete one is
// ignored.
func (rc *RefCache) Put(r *digest.Result) { rc.put(r) }

// Len returns the number of cached digests (not counting the shipped ones).
func (rc *RefCache) Len() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.m)
}

// Save writes the cache, in the order of All, if anything was added since
// it was loaded. The file is replaced atomically.
func (rc *RefCache) Save(path string) error {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if !rc.dirty {
		return nil
	}
	var b strings.Builder
	b.WriteString("# clconv reference digests (clconv digest lines; see docs/VERIFY.md)\n")
	all := All()
	order := make(map[string]int, len(all))
	for i, c := range all {
		if _, ok := order[classKey(c)]; !ok {
			order[classKey(c)] = i
		}
	}
	keys := make([]string, 0, len(rc.m))
	for k := range rc.m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return order[a] - order[b] })
	for _, k := range keys {
		b.WriteString(rc.m[k].Line())
		b.WriteByte('\n')
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".refcache-*")
	if err != nil {
		return err
	}
	if _, err := tmp.WriteString(b.String()); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	rc.dirty = false
	return nil
}
