package clc

import (
	"sort"
	"strings"

	"github.com/clconv/clconv/clc/internal/syntax"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
)

// The "did you mean" suggestions the checker appends to an unknown
// identifier, an undeclared function or a bad conversion name: known names
// within cltype.MaxEdits edits (1 for names of up to 4 runes, 2 above), at
// most three, nearest first.

// convModifiers are the suffixes of a convert_ name.
var convModifiers = []string{"sat", "rte", "rtz", "rtp", "rtn"}

// otherBuiltins are the built-in functions that are not conversions.
var otherBuiltins = []string{"select", "any", "all"}

// scopeNames returns the names of the variables (when vars is set) and the
// functions visible from the current scope.
func (c *checker) scopeNames(vars bool) []string {
	var out []string
	add := func(objs map[string]any) {
		for name, o := range objs {
			if _, isVar := o.(*variable); isVar && !vars {
				continue
			}
			out = append(out, name)
		}
	}
	for s := c.scope; s != nil; s = s.parent {
		add(s.objs)
	}
	add(c.globals)
	sort.Strings(out)
	return out
}

// identHint returns the suggestion for an unknown identifier, or "".
func (c *checker) identHint(name string) string {
	return cltype.DidYouMean("", cltype.Nearest(name, c.scopeNames(true)))
}

// callHint returns the suggestion for a call to an undeclared function:
// the functions in scope, the built-in ones and the conversion names that
// a corrected prefix or type makes of name.
func (c *checker) callHint(fun *syntax.Ident) string {
	name := fun.Name
	if fun.Macro != "" { // made by a macro, not typed
		return ""
	}
	cands := append(c.scopeNames(false), otherBuiltins...)
	return cltype.DidYouMean("", nearestOf(name, append(cltype.Nearest(name, cands), conversionSuggestions(name)...)))
}

// conversionHint returns the suggestion for a convert_ or as_ name that
// does not parse, or "".
func conversionHint(name string) string {
	return cltype.DidYouMean("", conversionSuggestions(name))
}

// nearestOf orders names by their distance from name (ties
// alphabetically), drops duplicates and keeps three.
func nearestOf(name string, names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] && n != name {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		di, dj := cltype.EditDistance(name, out[i]), cltype.EditDistance(name, out[j])
		if di != dj {
			return di < dj
		}
		return out[i] < out[j]
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// conversionSuggestions returns valid conversion names (convert_... and
// as_...) that name becomes when its prefix ("conver_", "covert_", "as")
// is corrected, its type part ("flaot4") or its modifiers ("sta") are, or
// both: each part is corrected on its own, within cltype.MaxEdits of it.
// It returns nil for a name that is no near miss of a conversion.
func conversionSuggestions(name string) []string {
	var out []string
	for _, pre := range []string{"convert", "as"} {
		near := func(head string) bool {
			return head != "" && cltype.EditDistance(head, pre) <= cltype.MaxEdits(pre)
		}
		for i := 0; i < len(name); i++ {
			if name[i] == '_' {
				// "conver_int", "convert_flaot4_sta".
				if head := name[:i]; near(head) {
					out = append(out, fixConversionRest(pre, name[i+1:])...)
				}
				break
			}
			// "convertint", "asfloat": a missing underscore.
			if head, rest := name[:i+1], name[i+1:]; rest != "" && near(head) && validConversion(pre+"_"+rest) {
				out = append(out, pre+"_"+rest)
			}
		}
	}
	return nearestOf(name, out)
}

// fixConversionRest returns the valid names pre_X for X rest or rest with
// its type part and modifiers corrected.
func fixConversionRest(pre, rest string) []string {
	parts := strings.Split(rest, "_")
	opts := make([][]string, len(parts))
	for i, p := range parts {
		var known []string
		if i == 0 {
			if _, err := cltype.ParseType(p); err == nil {
				known = []string{p}
			} else {
				known = syntax.TypeSuggestions(p)
			}
		} else if pre == "as" {
			return nil
		} else {
			known = []string{p}
			if !contains(convModifiers, p) {
				// Only a single nearest modifier: "rtx" is as near
				// rte, rtz, rtp and rtn, which the error lists.
				known = cltype.Nearest(p, convModifiers)
				if len(known) > 1 && cltype.EditDistance(p, known[0]) == cltype.EditDistance(p, known[1]) {
					return nil
				}
				known = known[:min(len(known), 1)]
			}
		}
		if len(known) == 0 {
			return nil
		}
		opts[i] = known
	}
	var out []string
	var walk func(i int, acc string)
	walk = func(i int, acc string) {
		if i == len(opts) {
			if validConversion(acc) {
				out = append(out, acc)
			}
			return
		}
		for _, o := range opts[i] {
			walk(i+1, acc+"_"+o)
		}
	}
	walk(0, pre)
	return out
}

func validConversion(name string) bool {
	if strings.HasPrefix(name, "as_") {
		_, err := convert.ParseAsName(name)
		return err == nil
	}
	_, err := convert.ParseName(name)
	return err == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
