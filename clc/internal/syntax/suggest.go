package syntax

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clconv/clconv/cltype"
)

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
// name (cltype.EditDistance), nearest first, ties in alphabetical order.
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
		if d := cltype.EditDistance(name, c); d <= limit {
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

// TypeNames returns every OpenCL C type name clconv knows: the scalar
// kinds, their vectors and void.
var TypeNames = sync.OnceValue(func() []string {
	out := []string{"void"}
	for k := cltype.Char; int(k) < cltype.NumKinds; k++ {
		out = append(out, k.String())
		for _, n := range []int{2, 3, 4, 8, 16} {
			name := cltype.Vec(k, n).String()
			if _, err := cltype.ParseType(name); err == nil {
				out = append(out, name)
			}
		}
	}
	return out
})

// TypeSuggestions returns the type names nearest name (Nearest, and of
// those only the ones at the smallest distance, so that "flaot" gets
// "float" and not also "float2"), or nil when name is itself a type name.
func TypeSuggestions(name string) []string {
	if isTypeWord(name) {
		return nil
	}
	// "float5", "e4m34": ParseType's own message says what is wrong.
	if _, err := cltype.ParseType(name); err != nil && err.Error() != fmt.Sprintf("unknown type %q", name) {
		return nil
	}
	near := Nearest(name, TypeNames())
	for i := 1; i < len(near); i++ {
		if cltype.EditDistance(name, near[i]) > cltype.EditDistance(name, near[0]) {
			return near[:i]
		}
	}
	return near
}

// typeHint returns the suggestion for an identifier where a type was
// expected, or "".
func typeHint(t Token) string {
	if t.Kind != IDENT {
		return ""
	}
	return DidYouMean("", TypeSuggestions(t.Text))
}
