package verify

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/internal/digestspec"
)

// The reference of a quick run's slices, shipped like reference.tsv: for the
// representative of every class of conversions from a 32- or 64-bit source,
// the sum of the digests of its 1024 quick slices (Slices(src, true)) and
// the number of implementation-defined inputs in them, computed by reference
// (the same code as a run without them). A quick run compares the sum of the
// device's slice digests with it, so that a cold quick run does no CPU-side
// work for a conversion that passes (2^24 inputs per class: about 35 CPU
// seconds for the 190-odd classes); only a conversion whose sum differs gets
// its slices' reference computed, and is then narrowed slice by slice as
// before. Regenerate with `go run ./internal/mkref -quick quick.tsv` in this
// directory (half a minute on 2 cores); TestShippedQuick checks it.
//
//go:embed quick.tsv
var quickText string

// quickHeader is quick.tsv's first line: it names the slices the sums are
// over (quickSlicesID), so that sums of other slices are never used.
func quickHeader() string {
	return "# clconv quick-run reference: class representative, source, sum of the slice digests, implementation-defined inputs; slices " + quickSlicesID() + "\n"
}

// quickSlicesID identifies the quick slices of the 32- and 64-bit sources
// (the first 16 hex digits of the SHA-256 of their starts and lengths).
func quickSlicesID() string {
	h := sha256.New()
	for _, k := range []cltype.Kind{cltype.Int, cltype.Long} {
		for _, s := range Slices(k, true) {
			binary.Write(h, binary.LittleEndian, [2]uint64{s.Start, s.Len})
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// hasQuickLine reports whether a quick run's reference of c's class is a
// line of quick.tsv: the source has more inputs than a chunk.
func hasQuickLine(c digest.Conversion) bool { return digestspec.N(c.Src) > digestspec.ChunkSize }

// quickSum is one line of quick.tsv.
type quickSum struct {
	total, impl uint64
}

var shippedQuickSums struct {
	once sync.Once
	m    map[string]quickSum
	err  error
}

// shippedQuick returns the lines of quick.tsv by class (classKey). A file
// whose header names other slices is an error: its sums are not used.
func shippedQuick() (map[string]quickSum, error) {
	shippedQuickSums.once.Do(func() {
		shippedQuickSums.m, shippedQuickSums.err = readQuick(strings.NewReader(quickText))
	})
	return shippedQuickSums.m, shippedQuickSums.err
}

func readQuick(r io.Reader) (map[string]quickSum, error) {
	const name = "cmd/clconv/internal/verify/quick.tsv"
	m := map[string]quickSum{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 {
			if line+"\n" != quickHeader() {
				return nil, fmt.Errorf("%s: the header does not name this clconv's quick slices (regenerate it: go run ./internal/mkref -quick quick.tsv)", name)
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 fields", name, n)
		}
		c, err := digest.Parse(f[0], f[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		total, err1 := strconv.ParseUint(f[2], 16, 64)
		impl, err2 := strconv.ParseUint(f[3], 10, 64)
		if err1 != nil || err2 != nil || len(f[2]) != 16 {
			return nil, fmt.Errorf("%s:%d: bad number", name, n)
		}
		if !hasQuickLine(c) || c.Representative() != c {
			return nil, fmt.Errorf("%s:%d: %s is not a class representative with a 32- or 64-bit source", name, n, Key(c))
		}
		m[Key(c)] = quickSum{total, impl}
	}
	return m, sc.Err()
}

// QuickLine computes the line of quick.tsv of c's class (for mkref): the
// reference of the class representative's quick slices, summed.
func QuickLine(c digest.Conversion) string {
	r := c.Representative()
	sums, impl := reference(r, Slices(r.Src, true), nil)
	var total uint64
	for _, s := range sums {
		total += s
	}
	return fmt.Sprintf("%s\t%s\t%016x\t%d", r.Op.Name(), r.Src, total, impl)
}

// CheckQuickFile returns nil if the file at path is a quick.tsv of this
// clconv's quick slices with a line for every class (for mkref).
func CheckQuickFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	m, err := readQuick(f)
	if err != nil {
		return err
	}
	for _, c := range All() {
		if _, ok := m[classKey(c)]; hasQuickLine(c) && !ok {
			return fmt.Errorf("%s: no line for %s", path, classKey(c))
		}
	}
	return nil
}

// QuickHeader is the first line of quick.tsv (for mkref).
func QuickHeader() string { return quickHeader() }

// HasQuickLine reports whether c's class has a line in quick.tsv (for mkref).
func HasQuickLine(c digest.Conversion) bool { return hasQuickLine(c) }
