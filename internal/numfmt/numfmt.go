// Package numfmt lays out clconv's shortest decimal forms of floating values.
package numfmt

import (
	"math"
	"strconv"
)

// AppendShortest appends the shortest decimal that reads back to f as a
// float of bitSize bits (32 or 64). Like Go's 'g' it uses exponent notation
// for decimal exponents below -4 or from 6 up, except that a number whose
// significant digits reach its units digit stays plain: 16777216 and
// 9007199254740994 rather than 1.6777216e+07, but 1e+10 and 9.2233715e+18.
func AppendShortest(b []byte, f float64, bitSize int) []byte {
	if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.AppendFloat(b, f, 'g', -1, bitSize)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, bitSize)
	i := len(e) - 1
	for e[i] != 'e' {
		i--
	}
	exp, _ := strconv.Atoi(string(e[i+1:]))
	digits := 0
	for _, c := range e[:i] {
		if c >= '0' && c <= '9' {
			digits++
		}
	}
	if exp >= -4 && exp < max(digits, 6) {
		return strconv.AppendFloat(b, f, 'f', -1, bitSize)
	}
	return append(b, e...)
}
