package syntax

import (
	"fmt"
	"sync"

	"github.com/clconv/clconv/cltype"
)

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
	near := cltype.Nearest(name, TypeNames())
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
	return cltype.DidYouMean("", TypeSuggestions(t.Text))
}
