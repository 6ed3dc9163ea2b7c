package difftest

import (
	"fmt"
	"io"
	"strings"
)

// Verdicts says, for each class, what a finding of it means when it
// matches no Known difference.
var Verdicts = map[Class]string{
	NaNBits:    "only the sign or the payload of NaNs differs: IEEE 754 and OpenCL C leave them open, and clconv's NaN rules (docs/RULES.md) decide its own",
	Value:      "a value that differs with canonical NaNs: a bug of clconv or of the device, to be judged against the spec",
	BuildError: "the device's compiler rejects a program clconv runs: a checker that accepts too much, or a compiler that rejects too much",
	Crash:      "the device's compiler or runtime died: a device bug",
	RunError:   "the kernel could not be created or run",
}

// Unjudged returns the findings that need a person's judgement: neither
// NaNBits nor Known.
func (r *Report) Unjudged() []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if !f.Judged() {
			out = append(out, f)
		}
	}
	return out
}

// WriteText writes the report for people: the counts, then every finding by
// class and known difference, with the minimised programs.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "seed %d: %d programs on %s in %v (%d child processes); %s\n",
		r.Seed, r.Programs, r.Device, r.Elapsed.Round(100_000_000), r.Children, countLine(r.Counts))
	for _, d := range r.Dropped {
		fmt.Fprintf(w, "  dropped: %s\n", d)
	}
	type group struct {
		class Class
		known string
		list  []*Finding
	}
	var groups []*group
	for _, f := range r.Findings {
		var g *group
		for _, x := range groups {
			if x.class == f.Class && x.known == f.Known {
				g = x
			}
		}
		if g == nil {
			g = &group{class: f.Class, known: f.Known}
			groups = append(groups, g)
		}
		g.list = append(g.list, f)
	}
	for _, g := range groups {
		verdict := Verdicts[g.class]
		name := string(g.class)
		if g.known != "" {
			name += ", " + g.known
			for _, k := range KnownDifferences {
				if k.Name == g.known {
					verdict = k.Verdict
				}
			}
		}
		fmt.Fprintf(w, "\n%s: %d program(s)\n  %s\n", name, len(g.list), verdict)
		for _, f := range g.list {
			fmt.Fprintf(w, "  program %d (seed %#x)", f.Index, f.Seed)
			if f.Detail != "" {
				fmt.Fprintf(w, ": %s", firstLine(strings.TrimSpace(f.Detail)))
			}
			fmt.Fprintln(w)
			io.WriteString(w, indent(diffList(f.Diffs, 3), "  "))
			if f.Minimal == nil {
				continue
			}
			fmt.Fprintf(w, "    minimised (clconv's copy):\n%s", indent(f.MinimalSource, "      "))
			if len(f.MinimalDiffs) > 0 {
				io.WriteString(w, indent(diffList(f.MinimalDiffs, 3), "    "))
			}
			if f.MinimalDetail != "" {
				fmt.Fprintf(w, "    %s\n", firstLine(strings.TrimSpace(f.MinimalDetail)))
			}
			fmt.Fprintf(w, "    the device's copy:\n%s", indent(f.MinimalKernel, "      "))
		}
	}
}

func indent(s, prefix string) string {
	if s == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
