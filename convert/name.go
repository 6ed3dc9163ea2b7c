package convert

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// Rounding is a conversion's rounding suffix: none (Default) or one of the four modes.
type Rounding uint8

// Rounding suffixes. Default means rtz to integer destinations and the current
// rounding mode (rte unless SELECT_ROUNDING_MODE chose another) to floating ones.
const (
	Default Rounding = iota
	RTE
	RTZ
	RTP
	RTN
)

// Suffix returns Rounding r for the explicit mode m.
func Suffix(m round.Mode) Rounding { return Rounding(m) + 1 }

// String returns "" for Default and "rte".."rtn" otherwise.
func (r Rounding) String() string {
	if r == Default {
		return ""
	}
	return round.Mode(r - 1).String()
}

// Op is one convert_ function: destination type, saturation and rounding suffix.
type Op struct {
	Dst   cltype.Type
	Sat   bool
	Round Rounding
}

// Mode returns the rounding mode op uses when the current mode is cur:
// the suffix's mode if it has one, rtz to integers, cur to floating types.
func (op Op) Mode(cur round.Mode) round.Mode {
	return EffectiveMode(op.Dst.Kind, op.Round, cur)
}

// EffectiveMode resolves a rounding suffix for destination kind dst under the
// current mode cur (OpenCL: float->integer without a suffix is always rtz).
func EffectiveMode(dst cltype.Kind, r Rounding, cur round.Mode) round.Mode {
	if r != Default {
		return round.Mode(r - 1)
	}
	if dst.IsFloat() {
		return cur
	}
	return round.RTZ
}

// Name returns the OpenCL C function name of op ("convert_uchar4_sat_rte").
func (op Op) Name() string {
	var b strings.Builder
	b.WriteString("convert_")
	b.WriteString(op.Dst.String())
	if op.Sat {
		b.WriteString("_sat")
	}
	if op.Round != Default {
		b.WriteString("_")
		b.WriteString(op.Round.String())
	}
	return b.String()
}

// String is Name.
func (op Op) String() string { return op.Name() }

// NameError reports an illegal convert_ or as_ name.
type NameError struct {
	Name   string
	Reason string
}

func (e *NameError) Error() string { return fmt.Sprintf("%s: %s", e.Name, e.Reason) }

// ParseName parses a convert_ function name such as "convert_uchar4_sat_rte".
// It rejects unknown types, bool, _sat with a floating destination, a repeated
// or misplaced modifier, and _sat after the rounding suffix.
func ParseName(name string) (Op, error) {
	bad := func(format string, args ...any) (Op, error) {
		return Op{}, &NameError{name, fmt.Sprintf(format, args...)}
	}
	rest, ok := strings.CutPrefix(name, "convert_")
	if !ok {
		return bad("not a convert_ function")
	}
	parts := strings.Split(rest, "_")
	t, err := cltype.ParseType(parts[0])
	if err != nil {
		return bad("%v", err)
	}
	if t.Kind == cltype.Bool {
		return bad("bool takes no part in convert_")
	}
	op := Op{Dst: t}
	seenRound := false
	for _, p := range parts[1:] {
		switch p {
		case "sat":
			if op.Sat {
				return bad("_sat given twice")
			}
			if seenRound {
				return bad("_sat must come before the rounding suffix")
			}
			if t.Kind.IsFloat() {
				return bad("_sat is not allowed with a floating destination (%s)", t)
			}
			op.Sat = true
		case "rte", "rtz", "rtp", "rtn":
			if seenRound {
				return bad("more than one rounding suffix")
			}
			m, _ := round.ParseMode(p)
			op.Round = Suffix(m)
			seenRound = true
		default:
			return bad("unknown modifier %q (want _sat, _rte, _rtz, _rtp or _rtn)", "_"+p)
		}
	}
	return op, nil
}

// ParseAsName parses an as_ operator name such as "as_float4" and returns the result type.
func ParseAsName(name string) (cltype.Type, error) {
	rest, ok := strings.CutPrefix(name, "as_")
	if !ok {
		return cltype.Type{}, &NameError{name, "not an as_ operator"}
	}
	t, err := cltype.ParseType(rest)
	if err != nil {
		return cltype.Type{}, &NameError{name, err.Error()}
	}
	if t.Kind == cltype.Bool {
		return cltype.Type{}, &NameError{name, "bool takes no part in as_"}
	}
	return t, nil
}
