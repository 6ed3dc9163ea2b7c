// Package tally counts an oracle's agreements and disagreements with clconv,
// grouped so that each group of disagreements has one explanation.
package tally

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Key names one line of the table: a destination, a source kind and a mode.
type Key struct {
	Dst, Src, Mode string
}

type line struct {
	agree    int
	disagree map[string]*group
}

type group struct {
	n        int
	examples []string
}

// Tally is the table.
type Tally struct {
	lines map[Key]*line
}

// New returns an empty table.
func New() *Tally { return &Tally{lines: map[Key]*line{}} }

func (t *Tally) line(k Key) *line {
	l := t.lines[k]
	if l == nil {
		l = &line{disagree: map[string]*group{}}
		t.lines[k] = l
	}
	return l
}

// Agree counts one agreement.
func (t *Tally) Agree(k Key) { t.line(k).agree++ }

// Disagree counts one disagreement in the named group, keeping a few
// examples.
func (t *Tally) Disagree(k Key, why, example string) {
	l := t.line(k)
	g := l.disagree[why]
	if g == nil {
		g = &group{}
		l.disagree[why] = g
	}
	g.n++
	if len(g.examples) < 3 {
		g.examples = append(g.examples, example)
	}
}

// Totals returns the counts of agreements and disagreements.
func (t *Tally) Totals() (agree, disagree int) {
	for _, l := range t.lines {
		agree += l.agree
		for _, g := range l.disagree {
			disagree += g.n
		}
	}
	return agree, disagree
}

// Write prints the table in Markdown, then every group of disagreements
// with its examples.
func (t *Tally) Write(w io.Writer) {
	keys := make([]Key, 0, len(t.lines))
	for k := range t.lines {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		return strings.Compare(a.Dst+"\x00"+a.Src+"\x00"+a.Mode, b.Dst+"\x00"+b.Src+"\x00"+b.Mode)
	})
	fmt.Fprintln(w, "| destination | source | mode | agree | disagree |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|")
	for _, k := range keys {
		l := t.lines[k]
		n := 0
		for _, g := range l.disagree {
			n += g.n
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %d |\n", k.Dst, k.Src, k.Mode, l.agree, n)
	}
	fmt.Fprintln(w)
	for _, k := range keys {
		l := t.lines[k]
		whys := make([]string, 0, len(l.disagree))
		for why := range l.disagree {
			whys = append(whys, why)
		}
		slices.Sort(whys)
		for _, why := range whys {
			g := l.disagree[why]
			fmt.Fprintf(w, "- %s <- %s %s: %d x %s; e.g. %s\n", k.Dst, k.Src, k.Mode, g.n, why, strings.Join(g.examples, "; "))
		}
	}
	a, d := t.Totals()
	fmt.Fprintf(w, "\ntotal: %d agree, %d disagree\n", a, d)
}

// Merge adds the counts of u to t.
func (t *Tally) Merge(u *Tally) {
	for k, ul := range u.lines {
		l := t.line(k)
		l.agree += ul.agree
		for why, ug := range ul.disagree {
			g := l.disagree[why]
			if g == nil {
				g = &group{}
				l.disagree[why] = g
			}
			g.n += ug.n
			for _, e := range ug.examples {
				if len(g.examples) < 3 {
					g.examples = append(g.examples, e)
				}
			}
		}
	}
}

// Count returns the number of disagreements in groups named why.
func (t *Tally) Count(why string) int {
	n := 0
	for _, l := range t.lines {
		if g := l.disagree[why]; g != nil {
			n += g.n
		}
	}
	return n
}

// AgreeN counts n agreements.
func (t *Tally) AgreeN(k Key, n int) { t.line(k).agree += n }
