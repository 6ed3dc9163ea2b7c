package digest

import (
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/internal/minifloat"
)

// The digests of the conversions between the small formats and the
// floating and integer kinds of at most 16 bits, against the digest
// definition computed from internal/minifloat's reference, input by input:
// NaN outputs are canonical, and so are the NaN and implementation-defined
// counts.
func TestSmallFormatDigests(t *testing.T) {
	srcs := append([]cltype.Kind{cltype.Half, cltype.Short, cltype.Uchar}, cltype.SmallFloats...)
	for _, src := range srcs {
		for _, dst := range append([]cltype.Kind{cltype.Half, cltype.Float}, cltype.SmallFloats...) {
			if !src.IsSmallFloat() && !dst.IsSmallFloat() {
				continue
			}
			for _, c := range PairOps(src, dst) {
				r := Compute(c, Options{})
				m := c.Mode()
				var sum, nans uint64
				for i := range digestspec.N(src) {
					b := digestspec.Input(src, i)
					var out uint64
					switch {
					case src.IsInteger() && src.IsSigned():
						out = minifloat.FromInt64(minifloat.OfKind(dst), int64(int16(b)), m, c.Op.Sat)
					case src.IsInteger():
						out = minifloat.FromUint64(minifloat.OfKind(dst), b, m, c.Op.Sat)
					default:
						out = minifloat.Convert(minifloat.OfKind(dst), minifloat.OfKind(src), b, m, c.Op.Sat && dst.IsSmallFloat())
					}
					o := digestspec.Canonical(dst, out, false)
					if o == digestspec.NaN {
						nans++
					}
					sum += digestspec.Term(i, o)
				}
				if r.Digest() != sum || r.NaN != nans {
					t.Errorf("%s %s: digest %016x (%d NaN), reference %016x (%d NaN)", c.Op.Name(), src, r.Digest(), r.NaN, sum, nans)
				}
			}
		}
	}
	// To integers, implementation-defined results are counted as for float.
	c, err := Parse("convert_int", "bfloat16")
	if err != nil {
		t.Fatal(err)
	}
	if r := Compute(c, Options{}); r.Impl != 25087 {
		t.Errorf("convert_int bfloat16: %d implementation-defined, want 25087 (the NaNs and the values beyond 2^31)", r.Impl)
	}
	// The MX element formats have one input per code; e8m0's NaN output is
	// canonical.
	for _, c := range []struct {
		conv, src string
		n, nan    uint64
	}{{"convert_float", "e2m1", 16, 0}, {"convert_float", "e3m2", 64, 0}, {"convert_half", "e8m0", 256, 1}, {"convert_e8m0", "short", 65536, 32769}} {
		conv, err := Parse(c.conv, c.src)
		if err != nil {
			t.Fatal(err)
		}
		if r := Compute(conv, Options{}); r.N != c.n || r.NaN != c.nan {
			t.Errorf("%s %s: N %d, %d NaN; want %d, %d", c.conv, c.src, r.N, r.NaN, c.n, c.nan)
		}
	}
}
