package verify

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
)

// TestBinCache stores and reads back an entry, and shows that a corrupt,
// truncated or stale entry is never returned: it is removed with a notice.
func TestBinCache(t *testing.T) {
	c := NewBinCache(t.TempDir())
	src := [32]byte{1, 2, 3}
	bin := []byte("a program binary \x00\x01\x02")
	if got := c.get("key", src, "p"); got != nil {
		t.Fatalf("empty cache returned %q", got)
	}
	c.put("key", src, bin)
	if got := c.get("key", src, "p"); string(got) != string(bin) {
		t.Fatalf("got %q, want %q", got, bin)
	}
	if n := c.takeNotices(); len(n) != 0 {
		t.Errorf("notices %q", n)
	}
	if got := c.get("key", [32]byte{9}, "p"); got != nil {
		t.Error("an entry for another source was returned")
	}
	path := c.path("key", src)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		data []byte
		note string
	}{
		{"binary byte flipped", func() []byte { b := []byte(string(good)); b[len(b)-3] ^= 0x40; return b }(), "checksum"},
		{"truncated", good[:len(good)-5], "corrupt"},
		{"not an entry", []byte("garbage"), "not a clconv program binary"},
		{"source hash changed", func() []byte { b := []byte(string(good)); b[len(binMagic)+4+len("key")] ^= 1; return b }(), "another source"},
		{"key changed", func() []byte {
			return (&binEntry{key: "kez", srcSum: src, bin: bin}).marshal()
		}(), "another device"},
	} {
		if err := os.WriteFile(path, tt.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := c.get("key", src, "p"); got != nil {
			t.Errorf("%s: returned %q", tt.name, got)
		}
		n := c.takeNotices()
		if len(n) != 1 || !strings.Contains(n[0], tt.note) || !strings.Contains(n[0], "rebuilding p") {
			t.Errorf("%s: notices %q, want one saying %q and rebuilding", tt.name, n, tt.note)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s: the entry was not removed", tt.name)
		}
	}
	if NewBinCache("") != nil || NewSliceCache("") != nil {
		t.Error("caches with no directory are not off")
	}
}

// TestCacheDir checks CLCONV_CACHE.
func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	if d := CacheDir(); d != "" || DefaultBinCache() != nil || DefaultSliceCache() != nil {
		t.Errorf("CLCONV_CACHE=off: dir %q", d)
	}
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	if c := DefaultBinCache(); c == nil || c.Dir != filepath.Join(dir, "programs") {
		t.Errorf("CLCONV_CACHE=%s: %+v", dir, c)
	}
	t.Setenv(CacheEnv, "")
	if d := CacheDir(); d != "" && filepath.Base(d) != "clconv" {
		t.Errorf("default cache dir %q", d)
	}
}

// TestDriverCachesOff: CLCONV_CACHE=off turns PoCL's kernel cache off and
// gives CUDA an empty one of the run's own, which cleanup removes; a
// variable already set is left as it is, and without CLCONV_CACHE=off
// nothing changes.
func TestDriverCachesOff(t *testing.T) {
	vars := []string{"POCL_KERNEL_CACHE", "CUDA_CACHE_PATH", "CUDA_CACHE_DISABLE"}
	unset := func() {
		for _, v := range vars {
			t.Setenv(v, "") // restored after the test
			os.Unsetenv(v)
		}
	}
	unset()
	t.Setenv(CacheEnv, t.TempDir())
	DriverCachesOff()()
	for _, v := range vars {
		if x, ok := os.LookupEnv(v); ok {
			t.Errorf("CLCONV_CACHE=DIR set %s=%q", v, x)
		}
	}

	t.Setenv(CacheEnv, "off")
	cleanup := DriverCachesOff()
	dir := os.Getenv("CUDA_CACHE_PATH")
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 || os.Getenv("POCL_KERNEL_CACHE") != "0" {
		t.Fatalf("CLCONV_CACHE=off: CUDA_CACHE_PATH=%q (%d entries, %v), POCL_KERNEL_CACHE=%q", dir, len(entries), err, os.Getenv("POCL_KERNEL_CACHE"))
	}
	if _, ok := os.LookupEnv("CUDA_CACHE_DISABLE"); ok {
		t.Error("CLCONV_CACHE=off set CUDA_CACHE_DISABLE as well")
	}
	cleanup()
	if _, err := os.Stat(dir); err == nil || os.Getenv("CUDA_CACHE_PATH") != "" {
		t.Errorf("cleanup left %s", dir)
	}

	unset()
	t.Setenv("CUDA_CACHE_DISABLE", "1")
	t.Setenv("POCL_KERNEL_CACHE", "1")
	DriverCachesOff()()
	if os.Getenv("CUDA_CACHE_PATH") != "" || os.Getenv("CUDA_CACHE_DISABLE") != "1" || os.Getenv("POCL_KERNEL_CACHE") != "1" {
		t.Errorf("variables already set were changed: CUDA_CACHE_PATH=%q CUDA_CACHE_DISABLE=%q POCL_KERNEL_CACHE=%q",
			os.Getenv("CUDA_CACHE_PATH"), os.Getenv("CUDA_CACHE_DISABLE"), os.Getenv("POCL_KERNEL_CACHE"))
	}
}

// TestSliceCache checks that the quick references come back from the cache
// equal to the computed ones, and that a corrupt entry is recomputed.
func TestSliceCache(t *testing.T) {
	c := NewSliceCache(t.TempDir())
	conv, err := digest.Parse("convert_int_sat_rte", "float")
	if err != nil {
		t.Fatal(err)
	}
	sl := Slices(cltype.Float, true)[:8]
	want, wantImpl := reference(conv, sl, nil)
	for i := 0; i < 2; i++ { // computed and stored, then read
		got, impl := c.reference(conv, sl, nil)
		if impl != wantImpl || !equalU64(got, want) {
			t.Fatalf("pass %d: %x %d, want %x %d", i, got, impl, want, wantImpl)
		}
	}
	files, _ := filepath.Glob(filepath.Join(c.Dir, "*.ref"))
	if len(files) != 1 {
		t.Fatalf("%d entries, want 1", len(files))
	}
	data, _ := os.ReadFile(files[0])
	data[len(data)-40] ^= 1 // a sum
	os.WriteFile(files[0], data, 0o644)
	got, impl := c.reference(conv, sl, nil)
	if impl != wantImpl || !equalU64(got, want) {
		t.Fatalf("after corruption: %x %d, want %x %d", got, impl, want, wantImpl)
	}
	if n := c.takeNotices(); len(n) != 1 || !strings.Contains(n[0], "recomputing") {
		t.Errorf("notices %q", n)
	}
	// An equivalent conversion (same class) shares the entry.
	eq, _ := digest.Parse("convert_int_sat_rte", "float")
	if _, _, ok := c.get(c.key(eq, sl), len(sl)); !ok {
		t.Error("the recomputed entry was not stored again")
	}
}

func equalU64(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGroupFailures checks the report's failures by rule and the compact
// listing of alike conversions.
func TestGroupFailures(t *testing.T) {
	rule := "NaN must convert to 0 under _sat"
	rep := &Report{}
	for _, src := range []string{"half", "float"} {
		for _, name := range []string{"convert_long_sat", "convert_long_sat_rte", "convert_long_sat_rtz", "convert_long_sat_rtp", "convert_long_sat_rtn"} {
			rep.Conversions = append(rep.Conversions, &ConvResult{Conversion: name, Source: src, Status: StatusFail,
				Failing: 100, Rules: map[string]uint64{rule: 100}})
			rep.Failed++
			for i := 0; i < 3; i++ {
				rep.Failures = append(rep.Failures, Failure{Conversion: name, Source: src, Check: "digest", Width: 1,
					Input: "0x7fc0000" + string(rune('0'+i)), Rule: rule})
			}
		}
	}
	rep.groupFailures()
	if len(rep.ByRule) != 1 {
		t.Fatalf("%d rules", len(rep.ByRule))
	}
	g := rep.ByRule[0]
	if g.Conversions != 10 || g.Inputs != 1000 || len(g.BySource) != 2 || len(g.Examples) != ruleExamples ||
		g.Examples[0].Source != "half" || g.Examples[ruleExamples-1].Source != "float" {
		t.Errorf("%+v", g)
	}
	var sb strings.Builder
	rep.WriteText(&sb)
	out := sb.String()
	for _, want := range []string{
		"NaN must convert to 0 under _sat: 10 conversions, 1000 failing inputs",
		"float    5: convert_long_sat* (500 inputs)",
		"float convert_long_sat*: 100 failing inputs each",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, rule); n != 1 {
		t.Errorf("the rule is named %d times, want once:\n%s", n, out)
	}
}

// TestLowBits checks lowBits against exact big-integer arithmetic.
func TestLowBits(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 255, 256, -129, 300, 1258367, -1258367, 0x1p31, -0x1p31, 0x1p40 + 3, -0x1p62, 0x1p63 - 1024, -0x1p63} {
		for _, bits := range []int{8, 16, 32, 64} {
			i, _ := new(big.Float).SetFloat64(f).Int(nil)
			want := i.Mod(i, new(big.Int).Lsh(big.NewInt(1), uint(bits))).Uint64()
			if got := lowBits(f, bits); got != want {
				t.Errorf("lowBits(%g, %d) = %#x, want %#x", f, bits, got, want)
			}
		}
	}
}
