package verify

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
)

// ImplSummary says what a device returns for the inputs of one conversion
// whose result OpenCL leaves implementation-defined (a floating input
// converted to an integer without _sat that is NaN or rounds out of range).
// These are never failures.
type ImplSummary struct {
	Conversion string `json:"conversion"`
	Source     string `json:"source"`
	// Inputs is the number of implementation-defined inputs among those the
	// digest checked (their results are excluded from the digest).
	Inputs uint64 `json:"inputs"`
	// Observed counts the implementation-defined results the device returned
	// in the edge and vector checks, which the behaviours classify.
	Observed   int         `json:"observed"`
	Behaviours []Behaviour `json:"behaviours"`
}

// Behaviour is one kind of implementation-defined result for one class of input.
type Behaviour struct {
	Inputs string `json:"inputs"` // "NaN", "+inf", "-inf", "> MAX", "< MIN"
	// Result is "0", "MIN", "MAX", "low bits of the rounded value" or
	// "other", followed by " (as clconv)" when it is the saturated value.
	Result string `json:"result"`
	Count  int    `json:"count"`
	Widths []int  `json:"widths"` // where it was seen: 1 for scalars, else the vector width
	Input  string `json:"example_input"`
	Device string `json:"example_device"`
	Clconv string `json:"example_clconv"`
}

// implTracker accumulates one conversion's implementation-defined results.
// A vector check meets millions of such inputs, one at a time, so the
// behaviours are kept by number (class and result), not by name.
type implTracker struct {
	c      digest.Conversion
	byCode [len(implClasses)][len(implResults)]*Behaviour
	widths [len(implClasses)][len(implResults)]uint32 // bit w: seen at width w
	n      int
}

func newImplTracker(c digest.Conversion) *implTracker {
	return &implTracker{c: c}
}

// implClasses are the classes of implementation-defined inputs, in the
// report's order.
var implClasses = [...]string{"NaN", "+inf", "-inf", "> MAX", "< MIN"}

var inputClassOrder = map[string]int{"NaN": 0, "+inf": 1, "-inf": 2, "> MAX": 3, "< MIN": 4}

// implResults are the kinds of results: where it is clconv's saturated
// value, named by the special value it is (implSpecial), then the low bits of
// the rounded value, a special value, other.
var implResults = [...]string{" (as clconv)", "0 (as clconv)", "MIN (as clconv)", "MAX (as clconv)",
	"low bits of the rounded value", "", "0", "MIN", "MAX", "other"}

const (
	implAsClconv = 0 // + the special value's number
	implLowBits  = 4
	implSpecial  = 5 // + the special value's number (1-3)
	implOther    = 9
)

// add records the device's result got for the implementation-defined input
// in, seen in a vector of width elements (1: a scalar).
func (t *implTracker) add(in, got uint64, width int) {
	c := t.c
	sk, dk, m := c.Src, c.Op.Dst.Kind, c.Mode()
	got &= dk.Mask()
	f := floatValue(sk, in)
	var class int
	switch {
	case math.IsNaN(f):
		class = 0
	case math.IsInf(f, 1):
		class = 1
	case math.IsInf(f, -1):
		class = 2
	case f > 0:
		class = 3
	default:
		class = 4
	}
	sat, _ := convert.Bits(dk, sk, in, m, true)
	// Name the result by what it is; where it is also clconv's saturated
	// value, by the special value (the low bits of 1258367 are also 127).
	special := 0 // none
	switch {
	case got == 0:
		special = 1
	case got == uint64(dk.MinInt())&dk.Mask():
		special = 2
	case got == dk.MaxUint():
		special = 3
	}
	var result int
	switch r := roundInt(f, m); {
	case got == sat:
		result = implAsClconv + special
	case !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(r) < 0x1p63 && got == lowBits(r, dk.Bits()):
		// What a conversion through a wider integer register gives
		// (x86 converts to int32 or int64, then keeps the low bits).
		result = implLowBits
	case special != 0:
		result = implSpecial + special
	default:
		result = implOther
	}
	b := t.byCode[class][result]
	if b == nil {
		b = &Behaviour{Inputs: implClasses[class], Result: implResults[result],
			Input: hexBits(sk, in) + " = " + FormatValue(sk, in), Device: hexBits(dk, got) + " = " + FormatValue(dk, got),
			Clconv: hexBits(dk, sat) + " = " + FormatValue(dk, sat)}
		t.byCode[class][result] = b
	}
	if w := &t.widths[class][result]; *w&(1<<width) == 0 {
		*w |= 1 << width
		b.Widths = append(b.Widths, width)
		slices.Sort(b.Widths)
	}
	b.Count++
	t.n++
}

// lowBits returns an integral float's value, |f| < 2^63, modulo 2^bits.
func lowBits(f float64, bits int) uint64 {
	v := uint64(int64(f)) // exact: f is integral and in int64's range
	if bits < 64 {
		v &= 1<<bits - 1
	}
	return v
}

// summary returns the behaviours by input class, the most frequent first.
func (t *implTracker) summary(inputs uint64) *ImplSummary {
	s := &ImplSummary{Conversion: t.c.Op.Name(), Source: t.c.Src.String(), Inputs: inputs, Observed: t.n}
	for _, bs := range t.byCode {
		for _, b := range bs {
			if b != nil {
				s.Behaviours = append(s.Behaviours, *b)
			}
		}
	}
	sort.Slice(s.Behaviours, func(i, j int) bool {
		a, b := s.Behaviours[i], s.Behaviours[j]
		if a.Inputs != b.Inputs {
			return inputClassOrder[a.Inputs] < inputClassOrder[b.Inputs]
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Result < b.Result
	})
	return s
}

// Pattern describes the behaviours without counts ("NaN: 0 (as clconv) | +inf: 0, MIN"),
// so that conversions that behave alike can be listed together.
func (s *ImplSummary) Pattern() string {
	var classes []string
	var cur []string
	last := ""
	flush := func() {
		if last != "" {
			sort.Strings(cur)
			classes = append(classes, last+": "+strings.Join(cur, ", "))
		}
	}
	for _, b := range s.Behaviours {
		if b.Inputs != last {
			flush()
			last, cur = b.Inputs, nil
		}
		cur = append(cur, b.Result)
	}
	flush()
	return strings.Join(classes, " | ")
}
