package convert

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// RoundingSuffix is the rounding suffix of a convert_ function name:
// NoSuffix ("convert_int") or one of SuffixRTE .. SuffixRTN
// ("convert_int_rte"). It is what ParseName reads and Op.Name writes, not a
// rounding mode: a conversion without a suffix rounds toward zero to an
// integer type and in the current mode to a floating type (EffectiveMode
// resolves it). The functions that convert take a Mode (round.Mode), whose
// constants are RTE, RTZ, RTP and RTN.
type RoundingSuffix uint8

// The rounding suffixes.
const (
	NoSuffix  RoundingSuffix = iota // no suffix: rtz to integers, the current mode to floating types
	SuffixRTE                       // _rte
	SuffixRTZ                       // _rtz
	SuffixRTP                       // _rtp
	SuffixRTN                       // _rtn
)

// SuffixOf returns the suffix that names mode m (SuffixRTE for RTE).
func SuffixOf(m Mode) RoundingSuffix { return RoundingSuffix(m) + 1 }

// Mode returns the mode that suffix r names, and false for NoSuffix.
func (r RoundingSuffix) Mode() (Mode, bool) {
	if r == NoSuffix {
		return RTE, false
	}
	return Mode(r - 1), true
}

// String returns "" for NoSuffix and "rte".."rtn" otherwise.
func (r RoundingSuffix) String() string {
	if r == NoSuffix {
		return ""
	}
	return Mode(r - 1).String()
}

// Op is one convert_ function: destination type, saturation and rounding suffix.
type Op struct {
	Dst   cltype.Type
	Sat   bool
	Round RoundingSuffix
}

// Mode returns the rounding mode op uses when the current mode is cur:
// the suffix's mode if it has one, rtz to integers, cur to floating types.
func (op Op) Mode(cur Mode) Mode {
	return EffectiveMode(op.Dst.Kind, op.Round, cur)
}

// EffectiveMode resolves a rounding suffix for destination kind dst under the
// current mode cur (OpenCL: float->integer without a suffix is always rtz).
func EffectiveMode(dst cltype.Kind, r RoundingSuffix, cur Mode) Mode {
	if m, ok := r.Mode(); ok {
		return m
	}
	if dst.IsFloating() {
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
	if op.Round != NoSuffix {
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

// Error returns "NAME: REASON".
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
			op.Round = SuffixOf(m)
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
