package half

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format implements [fmt.Formatter]. The float verbs format h as fmt formats
// a float64 of the same value, honouring the flags + - space 0 #, width and
// precision:
//
//	%v, %g, %G  without a precision, the shortest decimal that reads back to
//	            h (0x2e66 prints as 0.1, not 0.0999755859375); with one, as
//	            for float64
//	%e %E %f %F exact value rounded to the precision, 6 by default
//	%x %X       hexadecimal mantissa and binary exponent, 0x1.8p+00
//	%b          binary16 integer mantissa and power of two, 1536p-10
//	            (as %b prints float32 with its 24-bit mantissa)
//
// Infinities and NaNs print as "+Inf", "-Inf" and "NaN", as fmt prints
// floats. %s and %q format [Half.String] ("inf", "-nan") as a string, %#v
// prints the bit pattern in Go syntax (0x3c00), and other verbs, %d
// included, are errors as for a float64: %!d(half.Half=1). Use h.Bits() to
// format the bit pattern as an integer.
func (h Half) Format(s fmt.State, verb rune) {
	switch verb {
	case 'v', 'g', 'G':
		if verb == 'v' && s.Flag('#') {
			fmt.Fprintf(s, fmt.FormatString(s, verb), uint16(h))
			return
		}
		if _, ok := s.Precision(); !ok && h.IsFinite() {
			fmt.Fprintf(s, fmt.FormatString(s, verb), h.shortest())
			return
		}
		fmt.Fprintf(s, fmt.FormatString(s, verb), h.Float64())
	case 'e', 'E', 'f', 'F', 'x', 'X':
		fmt.Fprintf(s, fmt.FormatString(s, verb), h.Float64())
	case 'b':
		if !h.IsFinite() {
			fmt.Fprintf(s, fmt.FormatString(s, verb), h.Float64())
			return
		}
		exp := int(h>>10) & 0x1f
		mant := int(h & 0x3ff)
		if exp == 0 {
			exp = 1 // subnormal
		} else {
			mant |= 0x400
		}
		var buf [16]byte
		num := append(buf[:0], '+')
		if h.Signbit() {
			num[0] = '-'
		}
		num = strconv.AppendInt(num, int64(mant), 10)
		num = append(num, 'p')
		if exp -= 15 + 10; exp >= 0 {
			num = append(num, '+')
		}
		num = strconv.AppendInt(num, int64(exp), 10)
		padNumber(s, num)
	case 's', 'q':
		fmt.Fprintf(s, fmt.FormatString(s, verb), h.String())
	default:
		// As fmt reports a bad verb for a float64, the value formatted
		// with %v under the same flags.
		out := fmt.Sprintf(fmt.FormatString(s, verb), h.shortestOrNaN())
		io.WriteString(s, strings.Replace(out, "(float64=", "(half.Half=", 1))
	}
}

// shortestOrNaN is h.shortest() for a finite h and h.Float64() otherwise.
func (h Half) shortestOrNaN() float64 {
	if h.IsFinite() {
		return h.shortest()
	}
	return h.Float64()
}

// padNumber writes num, a finite number behind a '+' or '-', with the sign,
// width and zero padding rules fmt applies to floats.
func padNumber(s fmt.State, num []byte) {
	plus, minus := s.Flag('+'), s.Flag('-')
	zero := s.Flag('0') && !minus
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
