// Package floatfmt formats clconv's narrow floating types (half.Half,
// bfloat16.BFloat16, fp8.E4M3, fp8.E5M2, fp8.E8M0, fp6.E2M3, fp6.E3M2,
// fp4.E2M1) as fmt formats a float64 of the same value, finds the shortest
// decimal that reads back to one, and writes a value's exact decimal. The
// types differ only in their width and rounding, which they pass in.
package floatfmt

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Value is a narrow float as the formatter sees it.
type Value struct {
	Type   string  // the Go type's name in bad-verb messages: "half.Half"
	Bits   any     // the bit pattern as an unsigned integer of the type's width (%#v)
	Float  float64 // the exact value, infinities and NaNs included
	Finite bool
	Neg    bool // the sign bit
	// For %b of a finite value: the integer significand, implicit bit
	// included, and the exponent of its last bit (half's 1.5 is 1536p-10).
	Mant uint64
	Exp  int
	// Shortest returns the float64 nearest the shortest decimal that reads
	// back to the value (see Shortest); called for finite values only.
	Shortest func() float64
	// String returns the type's String (for %s and %q).
	String func() string
	// StringV makes %v without a precision print String, padded and
	// signed as fmt pads a number, infinities and NaNs included: the 8-bit
	// and smaller types, whose String is the exact value.
	StringV bool
}

// Format implements [fmt.Formatter] for v. The float verbs format v as fmt
// formats a float64 of the same value, honouring the flags + - space 0 #,
// width and precision: %v, %g and %G without a precision print the shortest
// decimal that reads back to v (%v prints v.String() instead when StringV is
// set, infinities and NaNs too, padded and signed as a number); %e %E %f %F
// %x %X print the exact value
// rounded to the precision; %b prints the type's integer significand and
// power of two. Infinities and NaNs print as "+Inf", "-Inf" and "NaN", as fmt
// prints floats. %s and %q format v.String(), %#v prints the bit pattern in
// Go syntax, and other verbs are errors as for a float64, naming the type.
func Format(s fmt.State, verb rune, v Value) {
	switch verb {
	case 'v', 'g', 'G':
		if verb == 'v' && s.Flag('#') {
			fmt.Fprintf(s, fmt.FormatString(s, verb), v.Bits)
			return
		}
		if _, ok := s.Precision(); !ok && verb == 'v' && v.StringV {
			str := v.String()
			num := str
			if !strings.HasPrefix(str, "-") {
				num = "+" + str
			}
			padNumber(s, []byte(num), v.Finite)
			return
		}
		if _, ok := s.Precision(); !ok && v.Finite {
			fmt.Fprintf(s, fmt.FormatString(s, verb), v.Shortest())
			return
		}
		fmt.Fprintf(s, fmt.FormatString(s, verb), v.Float)
	case 'e', 'E', 'f', 'F', 'x', 'X':
		fmt.Fprintf(s, fmt.FormatString(s, verb), v.Float)
	case 'b':
		if !v.Finite {
			fmt.Fprintf(s, fmt.FormatString(s, verb), v.Float)
			return
		}
		var buf [32]byte
		num := append(buf[:0], '+')
		if v.Neg {
			num[0] = '-'
		}
		num = strconv.AppendUint(num, v.Mant, 10)
		num = append(num, 'p')
		if v.Exp >= 0 {
			num = append(num, '+')
		}
		num = strconv.AppendInt(num, int64(v.Exp), 10)
		PadNumber(s, num)
	case 's', 'q':
		fmt.Fprintf(s, fmt.FormatString(s, verb), v.String())
	default:
		// As fmt reports a bad verb for a float64: the value formatted
		// with %v under the same flags.
		f := v.Float
		if v.Finite {
			f = v.Shortest()
		}
		out := fmt.Sprintf(fmt.FormatString(s, verb), f)
		io.WriteString(s, strings.Replace(out, "(float64=", "("+v.Type+"=", 1))
	}
}

// Shortest returns, for a finite non-zero f, the float64 nearest the
// shortest decimal d for which readsBack(d) holds (readsBack reports
// whether a float64 rounds to nearest even to the same narrow value); of two
// such decimals, the one nearer f (the even one on a tie). pow2 says that f
// is a power of two whose pattern has mantissa 0, below which the narrow
// values lie twice as densely as above it. Zero returns itself. The float64
// nearest a decimal of at most 17 digits prints as those digits, so
// formatting the result with 'g' and precision -1 gives d.
func Shortest(f float64, pow2 bool, readsBack func(float64) bool) float64 {
	if f == 0 {
		return f
	}
	var buf [32]byte
	for prec := 1; prec < 17; prec++ {
		e := strconv.AppendFloat(buf[:0], f, 'e', prec-1, 64)
		v, _ := strconv.ParseFloat(string(e), 64)
		if readsBack(v) {
			return v
		}
		// Below a power of two the values lie half as far apart as
		// above it, so where the nearest decimal falls short towards
		// zero, the next one out may still read back (half's 0.015625 =
		// 0x2400 reads back from 0.01563 but not from 0.01562).
		if pow2 && math.Abs(v) < math.Abs(f) {
			if w, ok := NextOut(e); ok && readsBack(w) {
				return w
			}
		}
	}
	return f
}

// NextOut parses the decimal [-]d.ddd…e±x written by strconv's 'e' format
// with its last digit one unit further from zero.
func NextOut(e []byte) (float64, bool) {
	mant, exp, ok := strings.Cut(string(e), "e")
	x, err := strconv.Atoi(exp)
	if !ok || err != nil {
		return 0, false
	}
	neg := strings.HasPrefix(mant, "-")
	digits := strings.Replace(strings.TrimPrefix(mant, "-"), ".", "", 1)
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	d := strconv.FormatUint(n+1, 10) + "e" + strconv.Itoa(x-(len(digits)-1))
	if neg {
		d = "-" + d
	}
	v, err := strconv.ParseFloat(d, 64)
	return v, err == nil
}

// PadNumber writes num, a finite number behind a '+' or '-', with the sign,
// width and zero padding rules fmt applies to floats.
func PadNumber(s fmt.State, num []byte) { padNumber(s, num, true) }

// padNumber is PadNumber; without zeros it pads with spaces whatever the
// flags, as fmt pads an infinity or a NaN.
func padNumber(s fmt.State, num []byte, zeros bool) {
	plus, minus := s.Flag('+'), s.Flag('-')
	zero := s.Flag('0') && !minus && zeros
	if s.Flag(' ') && num[0] == '+' && !plus {
		num[0] = ' '
	}
	if !plus && num[0] == '+' {
		num = num[1:]
	} else if wid, ok := s.Width(); zero && ok && wid > len(num) {
		// The sign goes before the zeros.
		s.Write(num[:1])
		writePadding(s, wid-len(num), '0')
		s.Write(num[1:])
		return
	}
	wid, ok := s.Width()
	if !ok || wid <= len(num) {
		s.Write(num)
		return
	}
	switch {
	case minus:
		s.Write(num)
		writePadding(s, wid-len(num), ' ')
	case zero:
		writePadding(s, wid-len(num), '0')
		s.Write(num)
	default:
		writePadding(s, wid-len(num), ' ')
		s.Write(num)
	}
}

func writePadding(w io.Writer, n int, c byte) {
	var buf [32]byte
	for i := range buf {
		buf[i] = c
	}
	for n > 0 {
		k := min(n, len(buf))
		w.Write(buf[:k])
		n -= k
	}
}

// AppendExact appends the exact decimal value of the finite f, in
// numfmt.AppendShortest's layout: plain for decimal exponents from -4 up to
// below max(digits, 6), exponent notation otherwise ("448", "0.001953125",
// "1.52587890625e-05", "-0"). Every float64 is a dyadic rational, so its
// decimal expansion ends; strconv writes it correctly rounded to any
// precision, and the precision asked for here is at least the expansion's
// length. Infinities and NaNs are written as strconv writes them.
func AppendExact(b []byte, f float64) []byte {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	// f = ±m·2^e with m odd: m·2^e has at most about (len(m)+e)·log10(2)
	// significant digits, and m·2^-n = m·5^n/10^n at most about
	// len(m)·log10(2) + n·log10(5).
	u := math.Float64bits(f)
	m, e := u&(1<<52-1), int(u>>52&0x7ff)
	if e == 0 {
		e = 1
	} else {
		m |= 1 << 52
	}
	e -= 1075
	tz := bits.TrailingZeros64(m)
	m >>= uint(tz)
	e += tz
	n := bits.Len64(m)
	digits := (n+max(e, 0))*30103/100000 + max(-e, 0)*69898/100000 + 2
	var buf [64]byte
	d := strconv.AppendFloat(buf[:0], f, 'e', digits-1, 64)
	i := strings.LastIndexByte(string(d), 'e')
	mant := strings.TrimRight(string(d[:i]), "0")
	mant = strings.TrimSuffix(mant, ".")
	x, _ := strconv.Atoi(string(d[i+1:]))
	count := 0
	for _, c := range mant {
		if c >= '0' && c <= '9' {
			count++
		}
	}
	if x >= -4 && x < max(count, 6) {
		return strconv.AppendFloat(b, f, 'f', max(count-1-x, 0), 64)
	}
	b = append(b, mant...)
	return append(b, d[i:]...)
}
