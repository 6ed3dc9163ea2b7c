package verify

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
)

// All returns every scalar conversion the checker knows (digest.All): each
// of the eleven source kinds with each convert_ function of the eleven
// destination kinds, in the order source, destination, _sat, rounding.
func All() []digest.Conversion { return digest.All() }

// pairOps returns the conversions from src to dst.
func pairOps(src, dst cltype.Kind) []digest.Conversion { return digest.PairOps(src, dst) }

// Key returns "name source", the string --only patterns match
// ("convert_int_sat_rte float").
func Key(c digest.Conversion) string { return c.Op.Name() + " " + c.Src.String() }

// Filter selects conversions by a pattern on Key. The pattern is a
// comma-separated list of alternatives. An alternative containing one of the
// characters ^ $ ( ) | + \ { } . is a regular expression (Go syntax, matched
// anywhere in the key); any other is a glob (*, ?, [...]) that must match the
// whole key, or, when it contains no space, the whole name or the whole
// source type. So "convert_int*_sat* float", "float" (every conversion from
// float) and "^convert_u?char_sat_rt[pn] (half|float)$" all work.
type Filter struct {
	globs []string
	res   []*regexp.Regexp
}

// ParseFilter parses a pattern; the empty pattern selects everything.
func ParseFilter(pattern string) (*Filter, error) {
	f := &Filter{}
	for _, alt := range strings.Split(pattern, ",") {
		alt = strings.TrimSpace(alt)
		if alt == "" {
			continue
		}
		if strings.ContainsAny(alt, `^$()|+\{}.`) {
			re, err := regexp.Compile(alt)
			if err != nil {
				return nil, fmt.Errorf("--only: %q: %v", alt, err)
			}
			f.res = append(f.res, re)
			continue
		}
		if _, err := path.Match(alt, ""); err != nil {
			return nil, fmt.Errorf("--only: %q: bad glob: %v", alt, err)
		}
		f.globs = append(f.globs, alt)
	}
	return f, nil
}

// Match reports whether the filter selects c.
func (f *Filter) Match(c digest.Conversion) bool {
	if f == nil || len(f.globs)+len(f.res) == 0 {
		return true
	}
	key := Key(c)
	for _, re := range f.res {
		if re.MatchString(key) {
			return true
		}
	}
	for _, g := range f.globs {
		if ok, _ := path.Match(g, key); ok {
			return true
		}
		if !strings.Contains(g, " ") {
			if ok, _ := path.Match(g, c.Op.Name()); ok {
				return true
			}
			if ok, _ := path.Match(g, c.Src.String()); ok {
				return true
			}
		}
	}
	return false
}

// Caps are the device facts that decide which conversions can be tested and how.
type Caps struct {
	FP64 bool // cl_khr_fp64: double exists
	FP16 bool // cl_khr_fp16: half is an arithmetic type with convert_half*
}

// Path describes how the device computes a conversion, or why it cannot.
type Path struct {
	Testable bool
	Via      string // how, when not the plain convert_ call: "vstore_half_rtp(float)"
	Reason   string // why not testable
}

// PathOf decides how a device with caps runs c. Without cl_khr_fp16 a half
// source is read with vload_half (half -> float is exact, so converting that
// float in the conversion's mode gives the half's result) and a half
// destination is written with vstore_half_<mode> from float or double; an
// integer -> half conversion would need two roundings (integer -> float ->
// half), which is not exact, so it is not testable there.
func PathOf(c digest.Conversion, caps Caps) Path {
	src, dst := c.Src, c.Op.Dst.Kind
	if (src == cltype.Double || dst == cltype.Double) && !caps.FP64 {
		return Path{Reason: "needs cl_khr_fp64 (double)"}
	}
	if caps.FP16 || (src != cltype.Half && dst != cltype.Half) {
		return Path{Testable: true}
	}
	var via []string
	if src == cltype.Half {
		via = append(via, "vload_half")
	}
	if dst == cltype.Half {
		if src.IsInteger() {
			return Path{Reason: "needs cl_khr_fp16: without it half is written only by vstore_half from float or double, and integer -> float -> half rounds twice"}
		}
		arg := src.String()
		if src == cltype.Half {
			arg = "float"
		}
		via = append(via, vstoreHalf(c.Op.Round)+"("+arg+")")
	}
	return Path{Testable: true, Via: strings.Join(via, " + ")}
}

// vstoreHalf returns the vstore_half function for a rounding suffix: no
// suffix is the current rounding mode, rte by default, like convert_half.
func vstoreHalf(r convert.RoundingSuffix) string {
	if r == convert.NoSuffix {
		return "vstore_half"
	}
	return "vstore_half_" + r.String()
}
