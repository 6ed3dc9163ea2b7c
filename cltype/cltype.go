// Package cltype is clconv's type system: the OpenCL C scalar kinds that take
// part in explicit conversions, vector widths, their names, sizes and ranges.
//
// A Kind is a scalar type (char, uchar, ..., half, float, double, and bool for
// the interpreter), or one of the small floating formats bfloat16, e4m3,
// e5m2, e2m1, e2m3, e3m2, e8m0, e4m3fnuz and e5m2fnuz (docs/FORMATS.md),
// which convert_ and as_ accept as well. A Type is a Kind with an element count N (1 for a scalar,
// 2, 3, 4, 8 or 16 for a vector). A 3-vector occupies the storage of a
// 4-vector, as in OpenCL C.
package cltype

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is an OpenCL C scalar type.
type Kind uint8

// The scalar kinds. The order of the eleven conversion kinds (Char..Double) is
// fixed: generated tables index by it.
const (
	Invalid Kind = iota
	Char
	Uchar
	Short
	Ushort
	Int
	Uint
	Long
	Ulong
	Half
	Float
	Double
	Bool // only for the interpreter; bool takes no part in convert_ or as_
	// The small floating formats (docs/FORMATS.md): storage formats that
	// convert_ and as_ accept and that take part in no arithmetic. Their
	// order is fixed too.
	BFloat16 // bfloat16: 1 sign, 8 exponent and 7 mantissa bits
	E4M3     // OCP OFP8 E4M3 (E4M3FN): bias 7, largest 448, no infinities
	E5M2     // OCP OFP8 E5M2: bias 15, largest 57344, IEEE encodings
	E2M1     // OCP MX FP4 E2M1: bias 1, largest 6, no infinities or NaNs; one per byte
	E2M3     // OCP MX FP6 E2M3: bias 1, largest 7.5, no infinities or NaNs; one per byte
	E3M2     // OCP MX FP6 E3M2: bias 3, largest 28, no infinities or NaNs; one per byte
	E8M0     // OCP MX scale E8M0: unsigned powers of two 2^-127 .. 2^127, NaN 0xff, no zero
	E4M3FNUZ // FNUZ FP8 E4M3 (float8_e4m3fnuz): bias 8, largest 240, NaN only 0x80, no -0, no infinities
	E5M2FNUZ // FNUZ FP8 E5M2 (float8_e5m2fnuz): bias 16, largest 57344, NaN only 0x80, no -0, no infinities
	numKinds
)

// NumKinds is one more than the largest Kind value; arrays indexed by Kind use it.
const NumKinds = int(numKinds)

// Scalars lists the eleven kinds that convert_ and as_ accept, in Kind order.
var Scalars = []Kind{Char, Uchar, Short, Ushort, Int, Uint, Long, Ulong, Half, Float, Double}

// SmallFloats lists the small floating formats, in Kind order.
var SmallFloats = []Kind{BFloat16, E4M3, E5M2, E2M1, E2M3, E3M2, E8M0, E4M3FNUZ, E5M2FNUZ}

// AllScalars lists every kind that convert_ and as_ accept: the eleven
// OpenCL C kinds, then the small floating formats.
var AllScalars = []Kind{Char, Uchar, Short, Ushort, Int, Uint, Long, Ulong, Half, Float, Double, BFloat16, E4M3, E5M2, E2M1, E2M3, E3M2, E8M0, E4M3FNUZ, E5M2FNUZ}

// Widths lists the legal vector element counts, scalar first.
var Widths = []int{1, 2, 3, 4, 8, 16}

type kindInfo struct {
	name   string
	size   int // bytes
	signed bool
	float  bool
	small  bool // a small floating format
}

var kinds = [numKinds]kindInfo{
	Invalid: {"invalid", 0, false, false, false},
	Char:    {"char", 1, true, false, false},
	Uchar:   {"uchar", 1, false, false, false},
	Short:   {"short", 2, true, false, false},
	Ushort:  {"ushort", 2, false, false, false},
	Int:     {"int", 4, true, false, false},
	Uint:    {"uint", 4, false, false, false},
	Long:    {"long", 8, true, false, false},
	Ulong:   {"ulong", 8, false, false, false},
	Half:    {"half", 2, true, true, false},
	Float:   {"float", 4, true, true, false},
	Double:  {"double", 8, true, true, false},
	Bool:    {"bool", 1, false, false, false},
	// The small formats are floating formats, but not IsFloat: that names
	// the three IEEE types that take part in arithmetic. Every one but E8M0
	// has a sign bit. E2M1, E2M3 and E3M2 take one byte each, their code in
	// the low 4 or 6 bits, as ml_dtypes stores them.
	BFloat16: {"bfloat16", 2, true, false, true},
	E4M3:     {"e4m3", 1, true, false, true},
	E5M2:     {"e5m2", 1, true, false, true},
	E2M1:     {"e2m1", 1, true, false, true},
	E2M3:     {"e2m3", 1, true, false, true},
	E3M2:     {"e3m2", 1, true, false, true},
	E8M0:     {"e8m0", 1, false, false, true},
	E4M3FNUZ: {"e4m3fnuz", 1, true, false, true},
	E5M2FNUZ: {"e5m2fnuz", 1, true, false, true},
}

func (k Kind) info() kindInfo {
	if k >= numKinds {
		return kinds[Invalid]
	}
	return kinds[k]
}

// String returns the OpenCL C name of k ("uchar").
func (k Kind) String() string {
	if k >= numKinds {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kinds[k].name
}

// Valid reports whether k is one of the eleven OpenCL C conversion kinds
// (char .. double), the kinds that the generated per-pair tables index.
func (k Kind) Valid() bool { return k >= Char && k <= Double }

// IsSmallFloat reports whether k is one of the small floating formats:
// bfloat16, e4m3, e5m2, e2m1, e2m3, e3m2, e8m0, e4m3fnuz or e5m2fnuz.
func (k Kind) IsSmallFloat() bool { return k.info().small }

// Convertible reports whether convert_ and as_ accept k: one of the eleven
// OpenCL C kinds or a small floating format.
func (k Kind) Convertible() bool { return k.Valid() || k.IsSmallFloat() }

// IsFloating reports whether k is a floating type of any kind: half, float,
// double or a small floating format.
func (k Kind) IsFloating() bool { return k.IsFloat() || k.IsSmallFloat() }

// Size returns the size of k in bytes.
func (k Kind) Size() int { return k.info().size }

// Bits returns the size of k in bits.
func (k Kind) Bits() int { return 8 * k.info().size }

// IsFloat reports whether k is half, float or double.
func (k Kind) IsFloat() bool { return k.info().float }

// IsInteger reports whether k is one of the eight integer kinds.
func (k Kind) IsInteger() bool { return k >= Char && k <= Ulong }

// IsSigned reports whether k is a signed integer or a floating kind with a
// sign bit (every small format but e8m0, which has none).
func (k Kind) IsSigned() bool { return k.info().signed }

// MinInt returns the least value of an integer kind (0 for unsigned kinds).
func (k Kind) MinInt() int64 {
	if !k.IsInteger() || !k.IsSigned() {
		return 0
	}
	return -1 << (k.Bits() - 1)
}

// MaxUint returns the greatest value of an integer kind.
func (k Kind) MaxUint() uint64 {
	if !k.IsInteger() {
		return 0
	}
	b := k.Bits()
	if k.IsSigned() {
		b--
	}
	return math.MaxUint64 >> (64 - b)
}

// Mask returns the bit mask of k's width (0xff for char, ..., all ones for 64-bit kinds).
func (k Kind) Mask() uint64 {
	return math.MaxUint64 >> (64 - k.Bits())
}

// Format describes an IEEE 754 binary interchange format.
type Format struct {
	Prec int // significand precision in bits, including the implicit bit
	Emax int // exponent of the largest finite value
	Bias int
}

// Emin is the exponent of the smallest normal value.
func (f Format) Emin() int { return 1 - f.Emax }

// ExpBits is the width of the exponent field.
func (f Format) ExpBits() int {
	n := 0
	for v := 2*f.Emax + 1; v > 0; v >>= 1 {
		n++
	}
	return n
}

// The three binary formats.
var (
	Binary16 = Format{Prec: 11, Emax: 15, Bias: 15}
	Binary32 = Format{Prec: 24, Emax: 127, Bias: 127}
	Binary64 = Format{Prec: 53, Emax: 1023, Bias: 1023}
)

// Format returns the binary format of a floating kind.
func (k Kind) Format() Format {
	switch k {
	case Half:
		return Binary16
	case Float:
		return Binary32
	case Double:
		return Binary64
	}
	return Format{}
}

// ParseKind parses a scalar type name ("uchar", "half", "bfloat16", "e4m3";
// also "bool").
func ParseKind(name string) (Kind, error) {
	for k := Char; k < numKinds; k++ {
		if kinds[k].name == name {
			return k, nil
		}
	}
	return Invalid, fmt.Errorf("unknown type %q", name)
}

// Type is a scalar (N == 1) or vector type.
type Type struct {
	Kind Kind
	N    int
}

// Scalar returns the scalar Type of k.
func Scalar(k Kind) Type { return Type{k, 1} }

// Vec returns the vector type of n elements of k.
func Vec(k Kind, n int) Type { return Type{k, n} }

// IsVector reports whether t has more than one element.
func (t Type) IsVector() bool { return t.N > 1 }

// Storage returns the number of element slots t occupies: 4 for a 3-vector.
func (t Type) Storage() int {
	if t.N == 3 {
		return 4
	}
	return t.N
}

// Size returns the byte size of t (a 3-vector counts as 4 elements).
func (t Type) Size() int { return t.Storage() * t.Kind.Size() }

// String returns the OpenCL C name ("uchar4", "float"). A vector of a small
// floating format puts an x before the width ("bfloat16x4", "e4m3x2"), since
// those names end in a digit (docs/FORMATS.md, "Names in OpenCL C").
func (t Type) String() string {
	if t.N <= 1 {
		return t.Kind.String()
	}
	if t.Kind.IsSmallFloat() {
		return t.Kind.String() + "x" + strconv.Itoa(t.N)
	}
	return t.Kind.String() + strconv.Itoa(t.N)
}

// ValidWidth reports whether n is a legal element count.
func ValidWidth(n int) bool {
	switch n {
	case 1, 2, 3, 4, 8, 16:
		return true
	}
	return false
}

// ParseType parses a type name such as "float", "uchar4", "double16",
// "bfloat16" or "e4m3x4".
func ParseType(name string) (Type, error) {
	if k, err := ParseKind(name); err == nil {
		return Type{k, 1}, nil
	}
	for _, k := range SmallFloats {
		base := k.String()
		rest, ok := strings.CutPrefix(name, base)
		if !ok {
			continue
		}
		digits, ok := strings.CutPrefix(rest, "x")
		if !ok {
			if rest != "" && strings.Trim(rest, "0123456789") == "" {
				return Type{}, fmt.Errorf("unknown type %q: a vector of %s is written %sx%s", name, base, base, rest)
			}
			continue // "e4m3fnuzx2" starts with "e4m3" too
		}
		n, err := strconv.Atoi(digits)
		if err != nil || !ValidWidth(n) || n == 1 || strings.HasPrefix(digits, "0") || strings.HasPrefix(digits, "+") {
			return Type{}, fmt.Errorf("unknown type %q: vector width must be 2, 3, 4, 8 or 16", name)
		}
		return Type{k, n}, nil
	}
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	base, digits := name[:i], name[i:]
	k, err := ParseKind(base)
	if err != nil {
		return Type{}, fmt.Errorf("unknown type %q", name)
	}
	if digits == "" {
		return Type{k, 1}, nil
	}
	n, err := strconv.Atoi(digits)
	if err != nil || !ValidWidth(n) || n == 1 || strings.HasPrefix(digits, "0") {
		return Type{}, fmt.Errorf("unknown type %q: vector width must be 2, 3, 4, 8 or 16", name)
	}
	if k == Bool {
		return Type{}, fmt.Errorf("unknown type %q: there are no bool vectors", name)
	}
	return Type{k, n}, nil
}
