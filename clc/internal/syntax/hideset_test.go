package syntax

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/clconv/clconv/round"
)

// elems returns the names of a hide set, checking on the way that no node
// holds an empty subtree and that every child has its parent's level less 1.
func elems(t *testing.T, h *hideSet) []int {
	var out []int
	var walk func(h *hideSet, base int)
	walk = func(h *hideSet, base int) {
		if h.level == 0 {
			if h.bits == 0 {
				t.Fatal("an empty leaf")
			}
			for i := range 64 {
				if h.bits>>i&1 != 0 {
					out = append(out, base+i)
				}
			}
			return
		}
		empty := true
		for i, k := range h.kids {
			if k == nil {
				continue
			}
			empty = false
			if k.level != h.level-1 {
				t.Fatalf("a child of level %d under one of %d", k.level, h.level)
			}
			walk(k, base+i*span(h.level-1))
		}
		if empty {
			t.Fatal("an empty node")
		}
	}
	if h != nil {
		walk(h, 0)
	}
	return out
}

// TestHideSets compares the trie's operations with sorted lists, on sets
// of names numbered up to a few thousand (three levels).
func TestHideSets(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 1))
	random := func() (*hideSet, []int) {
		var h *hideSet
		var list []int
		limit := []int{4, 64, 300, 5000}[r.IntN(4)]
		for range r.IntN(40) {
			id := r.IntN(limit)
			h = h.add(id)
			if !slices.Contains(list, id) {
				list = append(list, id)
			}
		}
		slices.Sort(list)
		return h, list
	}
	for i := range 3000 {
		a, la := random()
		b, lb := random()
		if got := elems(t, a); !slices.Equal(got, la) {
			t.Fatalf("%d: add gives %v, want %v", i, got, la)
		}
		for id := range 5000 {
			if a.has(id) != slices.Contains(la, id) {
				t.Fatalf("%d: has(%d) = %v in %v", i, id, a.has(id), la)
			}
		}
		var union, inter []int
		for _, x := range la {
			if slices.Contains(lb, x) {
				inter = append(inter, x)
			}
		}
		union = append(append(union, la...), lb...)
		slices.Sort(union)
		union = slices.Compact(union)
		work := 1 << 30
		if got := elems(t, hideUnion(a, b, &work)); !slices.Equal(got, union) {
			t.Fatalf("%d: %v ∪ %v = %v, want %v", i, la, lb, got, union)
		}
		if got := elems(t, hideIntersect(a, b, &work)); !slices.Equal(got, inter) {
			t.Fatalf("%d: %v ∩ %v = %v, want %v", i, la, lb, got, inter)
		}
		if hideUnion(a, a, &work) != a || hideIntersect(a, a, &work) != a || hideUnion(a, nil, &work) != a || hideIntersect(a, nil, &work) != nil {
			t.Fatalf("%d: a set with itself or the empty set is not shortcut", i)
		}
	}
}

// TestMacroChains expands long chains of macros, which hide sets as lists
// of names made quadratic (object-like: 100,000 took over a minute) or
// cubic (function-like: 4,000 took nearly two minutes). They must expand,
// or stop at the token budget with its error.
func TestMacroChains(t *testing.T) {
	chain := func(n int, def, use string) string {
		var b strings.Builder
		fmt.Fprintf(&b, def, 0, "1")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, def, i, fmt.Sprintf(use, i-1))
		}
		fmt.Fprintf(&b, use+";\n", n)
		return b.String()
	}
	cases := []struct {
		name, src, want string
	}{
		{"100,000 object-like", chain(100_000, "#define D%d %s\n", "D%d"), "1 ;"},
		{"20,000 function-like", chain(20_000, "#define F%d(x) %s\n", "F%d(x)"), "1 ;"},
		// Four tokens a level: past the budget of 262,144.
		{"70,000 function-like", chain(70_000, "#define F%d(x) %s\n", "F%d(x)"), "t:70002:1: macro expansion too large (more than 262144 tokens)"},
	}
	for _, c := range cases {
		got, _, err := preprocess(c.src)
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %.200s, want %s", c.name, got, c.want)
		}
	}
}

// TestHideWorkLimit wants an input whose hide sets cost more than their
// budget to fail with the budget's error at the macro's use.
func TestHideWorkLimit(t *testing.T) {
	src := "#define A(x) x\n#define B(x) A(x)\n#define C(x) B(x) B(x)\nC(C(C(1)))"
	p := newPreprocessor("t", 1, src, NewState(round.RTE), nil)
	p.hideWork = 3
	var err *Error
	for err == nil {
		var tok Token
		if tok, err = p.next(); tok.Kind == EOF {
			break
		}
	}
	if err == nil || !strings.HasPrefix(err.Error(), "t:4:") || !strings.Contains(err.Msg, "macro expansion too complex") {
		t.Errorf("error %v, want the hide-set budget's", err)
	}
	// The same input under the real budget.
	if got, _, err := preprocess(src); err != nil || got != strings.TrimSpace(strings.Repeat("1 ", 8)) {
		t.Errorf("%q, %v", got, err)
	}
}
