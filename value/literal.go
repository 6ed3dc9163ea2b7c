package value

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// ParseLiteral parses an OpenCL C integer or floating constant, the text of
// one preprocessing-number token without a sign ("42", "0x1fu", "017",
// "2.5f", "0x1.8p3f", "1e-3h"). A token is floating when it has a '.' or an
// exponent ('e' for decimal, 'p' for hexadecimal), as in C; see ParseInt and
// ParseFloat for the rest.
func ParseLiteral(s string) (Value, error) {
	if isFloatText(s) {
		return ParseFloat(s)
	}
	return ParseInt(s)
}

func hasHexPrefix(s string) bool { return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') }

func isFloatText(s string) bool {
	if hasHexPrefix(s) {
		return strings.ContainsAny(s, ".pP")
	}
	return strings.ContainsAny(s, ".eE")
}

func isDec(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool { return isDec(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

// ParseInt parses an OpenCL C integer constant: decimal, hexadecimal (0x) or
// octal (leading 0), with an optional suffix u, l, ul or lu in either case.
// Its type follows C99 6.4.4.1 with OpenCL's 32-bit int and 64-bit long: an
// unsuffixed decimal constant is the first of int, long that holds it; an
// unsuffixed hex or octal constant the first of int, uint, long, ulong; u
// selects uint, ulong; l selects long (decimal) or long, ulong (hex/octal); ul
// is ulong. A decimal constant too large for long without a u suffix is an
// error, as in C99.
func ParseInt(s string) (Value, error) {
	base, i := 10, 0
	switch {
	case hasHexPrefix(s):
		base, i = 16, 2
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	end := i
	if base == 16 {
		for end < len(s) && isHex(s[end]) {
			end++
		}
	} else {
		for end < len(s) && isDec(s[end]) {
			end++
		}
	}
	digits, suffix := s[i:end], s[end:]
	if digits == "" {
		if base == 16 {
			return Value{}, fmt.Errorf("invalid hexadecimal constant %q: no digits after 0x", s)
		}
		return Value{}, fmt.Errorf("invalid integer constant %q", s)
	}
	if base == 8 {
		if j := strings.IndexAny(digits, "89"); j >= 0 {
			return Value{}, fmt.Errorf("invalid digit %q in octal constant %q", digits[j:j+1], s)
		}
	}
	var unsigned, long bool
	switch strings.ToLower(suffix) {
	case "":
	case "u":
		unsigned = true
	case "l":
		long = true
	case "ul", "lu":
		unsigned, long = true, true
	default:
		if strings.EqualFold(suffix, "ll") || strings.EqualFold(suffix, "ull") || strings.EqualFold(suffix, "llu") {
			return Value{}, fmt.Errorf("invalid suffix %q on integer constant %q: long long is reserved in OpenCL C (long is 64 bits)", suffix, s)
		}
		return Value{}, fmt.Errorf("invalid suffix %q on integer constant %q", suffix, s)
	}
	x, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		return Value{}, fmt.Errorf("integer constant %q is too large for any integer type", s)
	}
	// Candidate types in C99's order; the first that holds x wins.
	var cands []cltype.Kind
	decimal := base == 10
	switch {
	case unsigned && long:
		cands = []cltype.Kind{cltype.Ulong}
	case unsigned:
		cands = []cltype.Kind{cltype.Uint, cltype.Ulong}
	case long && decimal:
		cands = []cltype.Kind{cltype.Long}
	case long:
		cands = []cltype.Kind{cltype.Long, cltype.Ulong}
	case decimal:
		cands = []cltype.Kind{cltype.Int, cltype.Long}
	default:
		cands = []cltype.Kind{cltype.Int, cltype.Uint, cltype.Long, cltype.Ulong}
	}
	for _, k := range cands {
		if x <= k.MaxUint() {
			return New(cltype.Scalar(k), x), nil
		}
	}
	return Value{}, fmt.Errorf("integer constant %q is too large for long; add a u suffix or write it in hex for ulong", s)
}

// ParseFloat parses an OpenCL C floating constant: decimal ("2.5", ".5",
// "1e10", "1.") or hexadecimal with a mandatory binary exponent ("0x1.8p3"),
// with suffix f (float), h (half) or none (double). The value is correctly
// rounded to nearest even; a magnitude beyond the type's range gives
// infinity, as C compilers do (with a warning).
func ParseFloat(s string) (Value, error) {
	body, suffix, err := splitFloat(s)
	if err != nil {
		return Value{}, err
	}
	switch strings.ToLower(suffix) {
	case "":
		d, err := strconv.ParseFloat(body, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Value{}, fmt.Errorf("invalid floating constant %q", s)
		}
		return New(cltype.Scalar(cltype.Double), math.Float64bits(d)), nil
	case "f":
		f, err := strconv.ParseFloat(body, 32)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Value{}, fmt.Errorf("invalid floating constant %q", s)
		}
		return New(cltype.Scalar(cltype.Float), uint64(math.Float32bits(float32(f)))), nil
	case "h":
		d, err := strconv.ParseFloat(body, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Value{}, fmt.Errorf("invalid floating constant %q", s)
		}
		return New(cltype.Scalar(cltype.Half), uint64(halfFromLiteral(d, body))), nil
	case "l":
		return Value{}, fmt.Errorf("invalid floating constant %q: long double is not an OpenCL C type", s)
	}
	return Value{}, fmt.Errorf("invalid suffix %q on floating constant %q", suffix, s)
}

// splitFloat checks the syntax of a C floating constant strictly (strconv
// alone would also take underscores, "inf" and hex mantissas without an
// exponent) and splits off its suffix.
func splitFloat(s string) (body, suffix string, err error) {
	bad := func(why string) (string, string, error) {
		return "", "", fmt.Errorf("invalid floating constant %q: %s", s, why)
	}
	hex := hasHexPrefix(s)
	digit, i := isDec, 0
	if hex {
		digit, i = isHex, 2
	}
	n, dot := 0, false
mantissa:
	for ; i < len(s); i++ {
		switch {
		case digit(s[i]):
			n++
		case s[i] == '.' && !dot:
			dot = true
		default:
			break mantissa
		}
	}
	if n == 0 {
		return bad("no digits")
	}
	exp := false
	if i < len(s) && (hex && s[i]|0x20 == 'p' || !hex && s[i]|0x20 == 'e') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := i
		for i < len(s) && isDec(s[i]) {
			i++
		}
		if i == j {
			return bad("exponent has no digits")
		}
		exp = true
	}
	if hex && !exp {
		return bad("a hexadecimal floating constant needs a binary exponent (p)")
	}
	if !exp && !dot { // the '.' or 'e' that made s look floating is in a suffix
		return "", "", fmt.Errorf("invalid suffix %q on integer constant %q", s[i:], s)
	}
	return s[:i], s[i:], nil
}

// halfFromLiteral rounds the exact value of the literal body (non-negative,
// already rounded to the nearest double d) to the nearest half, ties to even.
//
// Rounding twice — decimal to double, then double to half — can only go wrong
// when d lies exactly on a midpoint between two adjacent halves: the exact
// value may then lie on either side of it (or on it). When d is any other
// double, the exact value is within half a double ulp of d, far from every
// half midpoint, so it rounds the way d does. The midpoint case is settled by
// comparing the literal's exact rational value with the midpoint.
func halfFromLiteral(d float64, body string) half.Half {
	h := half.FromFloat64(d, round.RTE)
	if math.IsInf(d, 0) || math.IsNaN(d) {
		return h
	}
	lo := half.FromFloat64(d, round.RTZ)
	loF := lo.Float64()
	if loF == d {
		return h
	}
	hi := lo + 1 // the next half up in magnitude; past MaxHalf this is +inf
	hiF := 65536.0
	if hi != half.PosInf {
		hiF = hi.Float64()
	}
	mid := (loF + hiF) / 2 // exact: a half has 11 significant bits
	if d != mid {
		return h
	}
	exact, ok := new(big.Rat).SetString(body)
	if !ok { // exponent beyond what big.Rat accepts (|e| > 1e6): keep d's rounding
		return h
	}
	switch exact.Cmp(new(big.Rat).SetFloat64(mid)) {
	case 1:
		return hi
	case -1:
		return lo
	}
	return h
}
