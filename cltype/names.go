package cltype

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// aliases maps the names other ecosystems give clconv's kinds to clconv's
// own (OpenCL C's for the eleven kinds, clconv's for the small formats).
// Every alias names a type of the same width and kind of number as its
// target: NumPy's float16 is half, never a 16-lane float vector, and uint8
// is uchar, never uint. The sources:
//
//   - NumPy dtype names (numpy.dtype(...).name): int8 .. uint64, float16,
//     float32, float64 (not the one-letter codes such as f4, which would
//     collide with safetensors' F4, an FP4 format);
//   - ml_dtypes' names: bfloat16, float8_e4m3fn, float8_e5m2,
//     float4_e2m1fn, float6_e2m3fn, float6_e3m2fn, float8_e8m0fnu,
//     float8_e4m3fnuz, float8_e5m2fnuz;
//   - PyTorch's (torch.float16, torch.half, torch.bfloat16, ...);
//   - safetensors' dtype strings: I8 .. U64, F16, BF16, F32, F64, F8_E4M3,
//     F8_E5M2, F8_E8M0, F4, F6_E2M3, F6_E3M2, F8_E4M3FNUZ, F8_E5M2FNUZ;
//   - common shorthands: bf16, fp16, fp32, fp64, f16, f32, f64.
//
// Lookup is case-sensitive for clconv's and NumPy's lower-case names and
// also takes the upper-case safetensors spellings; "float16" is never read
// as an OpenCL vector type.
var aliases = map[string]string{
	// NumPy / PyTorch integer names.
	"int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort",
	"int32": "int", "uint32": "uint", "int64": "long", "uint64": "ulong",
	// Floating names.
	"float16": "half", "float32": "float", "float64": "double",
	"f16": "half", "f32": "float", "f64": "double",
	"fp16": "half", "fp32": "float", "fp64": "double",
	"bf16": "bfloat16",
	// ml_dtypes / PyTorch names of the small formats.
	"float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2",
	"float4_e2m1fn": "e2m1", "float6_e2m3fn": "e2m3", "float6_e3m2fn": "e3m2",
	"float8_e8m0fnu": "e8m0",
	"e4m3fn":         "e4m3", "e8m0fnu": "e8m0",
	"float8_e4m3fnuz": "e4m3fnuz", "float8_e5m2fnuz": "e5m2fnuz",
	// safetensors dtype strings.
	"I8": "char", "U8": "uchar", "I16": "short", "U16": "ushort",
	"I32": "int", "U32": "uint", "I64": "long", "U64": "ulong",
	"F16": "half", "BF16": "bfloat16", "F32": "float", "F64": "double",
	"F8_E4M3": "e4m3", "F8_E5M2": "e5m2", "F8_E8M0": "e8m0",
	"F4": "e2m1", "F6_E2M3": "e2m3", "F6_E3M2": "e3m2",
	"F8_E4M3FNUZ": "e4m3fnuz", "F8_E5M2FNUZ": "e5m2fnuz",
}

// unsupported names types that other ecosystems have and clconv does not
// convert, with the reason, so that a user gets an answer rather than a
// guess.
var unsupported = map[string]string{
	"bool":               "bool takes no part in conversions",
	"BOOL":               "bool takes no part in conversions",
	"float8_e4m3b11fnuz": "float8_e4m3b11fnuz (bias 11) is not supported; e4m3fnuz (float8_e4m3fnuz, bias 8) and e5m2fnuz are",
	"complex64":          "complex types are not supported",
	"complex128":         "complex types are not supported",
	"C64":                "complex types are not supported",
	"float128":           "float128 is not supported",
	"longdouble":         "long double is not supported",
	"int4":               "packed int4 is not supported",
	"uint4":              "packed uint4 is not supported",
}

// Lookup returns the convertible kind (Convertible) that name denotes:
// clconv's own name ("uchar", "half", "bfloat16", "e4m3") or an alias from
// NumPy, ml_dtypes, PyTorch or safetensors ("uint8", "float16", "bf16",
// "float8_e4m3fn", "F8_E4M3"). A name that is none of them gets an error
// that suggests the nearest known names, always of the same width when the
// name carries one.
func Lookup(name string) (Kind, error) {
	n := strings.TrimPrefix(strings.TrimSpace(name), "torch.")
	n = strings.TrimPrefix(n, "np.")
	n = strings.TrimPrefix(n, "numpy.")
	if n == "" {
		return Invalid, fmt.Errorf("empty type name")
	}
	if why, ok := unsupported[n]; ok {
		return Invalid, fmt.Errorf("type %q: %s", name, why)
	}
	// The exact spelling first ("F4" is safetensors' FP4), then the other
	// case ("Float16", "f8_e4m3"), but never for two-letter names: NumPy's
	// codes f4, i8 and u8 mean float32, int64 and uint64, while
	// safetensors' F4, I8 and U8 mean FP4, int8 and uint8.
	canon := n
	if a, ok := aliases[n]; ok {
		canon = a
	} else if a, ok := aliases[strings.ToLower(n)]; ok && len(n) > 2 {
		canon = a
	} else if a, ok := aliases[strings.ToUpper(n)]; ok && len(n) > 2 {
		canon = a
	}
	k, err := ParseKind(canon)
	if err == nil && k.Convertible() {
		return k, nil
	}
	return Invalid, fmt.Errorf("unknown type %q%s", name, suggest(n))
}

// Names returns every name Lookup accepts for k, clconv's own first, then
// the aliases in sorted order.
func Names(k Kind) []string {
	out := []string{k.String()}
	var al []string
	for a, c := range aliases {
		if c == k.String() {
			al = append(al, a)
		}
	}
	sort.Strings(al)
	return append(out, al...)
}

// suggest returns ` (did you mean "x"?)` for the known names nearest to
// n, or "".
func suggest(n string) string { return DidYouMean("", Nearest(n, knownNames())) }

// MaxEdits is the largest edit distance at which a known name is offered
// for name in a "did you mean" suggestion: 1 for names of up to 4 runes,
// 2 for longer ones, and 0 (none) for a one-rune name, which is one edit
// from every other one-rune name.
func MaxEdits(name string) int {
	switch n := utf8.RuneCountInString(name); {
	case n <= 1:
		return 0
	case n <= 4:
		return 1
	}
	return 2
}

// Nearest returns at most three of cands within MaxEdits(name) edits of
// name (EditDistance), nearest first, ties in alphabetical order.
// name itself and duplicates are left out.
func Nearest(name string, cands []string) []string {
	type hit struct {
		s string
		d int
	}
	var hits []hit
	seen := map[string]bool{name: true}
	limit := MaxEdits(name)
	for _, c := range cands {
		if seen[c] {
			continue
		}
		seen[c] = true
		if d := EditDistance(name, c); d <= limit {
			hits = append(hits, hit{c, d})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].d != hits[j].d {
			return hits[i].d < hits[j].d
		}
		return hits[i].s < hits[j].s
	})
	out := make([]string, 0, 3)
	for _, h := range hits {
		if len(out) == 3 {
			break
		}
		out = append(out, h.s)
	}
	return out
}

// DidYouMean formats names as ` (did you mean "a" or "b"?)`, or "" when
// there are none. what, if not empty, goes before the names ("the type").
func DidYouMean(what string, names []string) string {
	if len(names) == 0 {
		return ""
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if what != "" {
		what += " "
	}
	return fmt.Sprintf(" (did you mean %s%s?)", what, strings.Join(q, " or "))
}

// knownNames lists clconv's names of the convertible kinds and every alias
// whose target exists.
func knownNames() []string {
	var out []string
	for k := Char; k < numKinds; k++ {
		if k.Convertible() {
			out = append(out, k.String())
		}
	}
	for a, c := range aliases {
		if k, err := ParseKind(c); err == nil && k.Convertible() {
			out = append(out, a)
		}
	}
	return out
}

// EditDistance is the Levenshtein distance between a and b, counting a
// swap of two neighbours as one edit (so "flaot" is one edit from "float").
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
