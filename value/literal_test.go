package value

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

func TestParseInt(t *testing.T) {
	tests := []struct {
		in   string
		want string // Format(v, true)
	}{
		{"0", "(int)0x00000000"},
		{"42", "(int)0x0000002a"},
		{"2147483647", "(int)0x7fffffff"},
		{"2147483648", "(long)0x0000000080000000"}, // decimal: int, then long
		{"4294967295", "(long)0x00000000ffffffff"},
		{"9223372036854775807", "(long)0x7fffffffffffffff"},
		{"0x7fffffff", "(int)0x7fffffff"},
		{"0x80000000", "(uint)0x80000000"}, // hex: int, uint, long, ulong
		{"0xffffffff", "(uint)0xffffffff"},
		{"0x100000000", "(long)0x0000000100000000"},
		{"0x8000000000000000", "(ulong)0x8000000000000000"},
		{"0xFFFFFFFFFFFFFFFF", "(ulong)0xffffffffffffffff"},
		{"017", "(int)0x0000000f"},
		{"020000000000", "(uint)0x80000000"}, // octal follows the hex rule
		{"1u", "(uint)0x00000001"},
		{"4294967296U", "(ulong)0x0000000100000000"},
		{"1l", "(long)0x0000000000000001"},
		{"0x8000000000000000L", "(ulong)0x8000000000000000"},
		{"1ul", "(ulong)0x0000000000000001"},
		{"1LU", "(ulong)0x0000000000000001"},
		{"18446744073709551615u", "(ulong)0xffffffffffffffff"},
	}
	for _, tt := range tests {
		v, err := ParseLiteral(tt.in)
		if err != nil {
			t.Errorf("ParseLiteral(%q): %v", tt.in, err)
			continue
		}
		if got := Format(v, true); got != tt.want {
			t.Errorf("ParseLiteral(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseLiteralErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1f", `invalid suffix "f" on integer constant "1f"`},
		{"08", `invalid digit "8" in octal constant "08"`},
		{"0x", `invalid hexadecimal constant "0x": no digits after 0x`},
		{"1ll", `long long is reserved`},
		{"1uu", `invalid suffix "uu"`},
		{"9223372036854775808", `too large for long; add a u suffix`},
		{"99999999999999999999u", `too large for any integer type`},
		{"0x1.8", `needs a binary exponent`},
		{"1.2.3", `invalid suffix ".3" on floating constant`},
		{"1e", `exponent has no digits`},
		{"1e+", `exponent has no digits`},
		{"1.0l", `long double`},
		{"1.0x", `invalid suffix "x"`},
		{"1.0ff", `invalid suffix "ff"`},
		{"0x1e+5", `invalid suffix "+5" on integer constant`}, // one pp-number, as in C
		{"1_000.0", `invalid suffix "_000.0"`},
	}
	for _, tt := range tests {
		v, err := ParseLiteral(tt.in)
		if err == nil {
			t.Errorf("ParseLiteral(%q) = %v, want an error", tt.in, v)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseLiteral(%q): %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestParseFloat(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1.0", "(double)0x3ff0000000000000"},
		{"1.", "(double)0x3ff0000000000000"},
		{".5f", "(float)0x3f000000"},
		{"0.1f", "(float)0x3dcccccd"},
		{"1e10f", "(float)0x501502f9"},
		{"1.2e9F", "(float)0x4e8f0d18"},
		{"0x1.8p3f", "(float)0x41400000"},
		{"0X1P-149f", "(float)0x00000001"},
		{"0x1p-150f", "(float)0x00000000"}, // a tie with 0: even
		{"0x1.000001p-149f", "(float)0x00000001"},
		{"0x1.fffffep127f", "(float)0x7f7fffff"},
		{"1e39f", "(float)0x7f800000"}, // beyond the range: inf, as compilers do
		{"0x1.fffffffffffffp1023", "(double)0x7fefffffffffffff"},
		{"1e-400", "(double)0x0000000000000000"},
		{"65504.0h", "(half)0x7bff"},
		{"65519.99h", "(half)0x7bff"},
		{"65520.0h", "(half)0x7c00"},
		{"0.1h", "(half)0x2e66"},
		{"0x1p-24h", "(half)0x0001"},
		{"0x1p-25h", "(half)0x0000"},
		{"0x1.0000000000001p-25h", "(half)0x0001"},
		{"2049.0h", "(half)0x6800"},                 // tie: even (2048)
		{"2049.0000000000000001h", "(half)0x6801"},  // the double is 2049, the literal is above
		{"2050.9999999999999999h", "(half)0x6801"},  // the double is 2051, a tie to 2052; the literal is below
		{"65519.9999999999999999h", "(half)0x7bff"}, // the double is 65520 (overflow threshold); the literal is below
		{"0x1.002p0h", "(half)0x3c00"},              // tie: even
		{"0x1.0020000000000000001p0h", "(half)0x3c01"},
		{"0x8011p-4h", "(half)0x6801"}, // 2049.0625: above the midpoint
	}
	for _, tt := range tests {
		v, err := ParseLiteral(tt.in)
		if err != nil {
			t.Errorf("ParseLiteral(%q): %v", tt.in, err)
			continue
		}
		if got := Format(v, true); got != tt.want {
			t.Errorf("ParseLiteral(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// refHalf rounds the exact non-negative x to binary16, to nearest even, by
// integer arithmetic on the quotient of x by the spacing of halves there.
func refHalf(x *big.Rat) half.Half {
	if x.Cmp(big.NewRat(65520, 1)) >= 0 {
		return half.PosInf
	}
	e := -24 // exponent of the spacing
	for b := 15; b >= -14; b-- {
		p := new(big.Rat).SetFloat64(math.Ldexp(1, b))
		if x.Cmp(p) >= 0 {
			e = b - 10
			break
		}
	}
	q := new(big.Rat).Mul(x, new(big.Rat).SetFloat64(math.Ldexp(1, -e))) // x / 2^e
	n, r := new(big.Int).QuoRem(q.Num(), q.Denom(), new(big.Int))
	c := new(big.Int).Lsh(r, 1).Cmp(q.Denom())
	if c > 0 || c == 0 && n.Bit(0) == 1 {
		n.Add(n, big.NewInt(1))
	}
	return half.FromFloat64(math.Ldexp(float64(n.Int64()), e), round.RTE) // exact
}

// TestHalfLiteralsNearMidpoints parses decimal and hex literals at, just
// above and just below midpoints between adjacent halves — where rounding
// through double goes wrong — and compares with refHalf.
func TestHalfLiteralsNearMidpoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(40), nil))
	check := func(s string, x *big.Rat) {
		t.Helper()
		v, err := ParseLiteral(s)
		if err != nil {
			t.Fatalf("ParseLiteral(%q): %v", s, err)
		}
		if got, want := half.Half(v.Lanes[0]), refHalf(x); got != want {
			t.Errorf("ParseLiteral(%q) = %#04x, want %#04x", s, uint16(got), uint16(want))
		}
	}
	for range testvals.Sample(20000, 5) {
		lo := half.Half(rng.IntN(0x7bff))
		hiF := 65536.0
		if lo+1 != half.PosInf {
			hiF = (lo + 1).Float64()
		}
		mid := new(big.Rat).SetFloat64((lo.Float64() + hiF) / 2)
		for _, d := range []int{-1, 0, 1} {
			x := new(big.Rat).Set(mid)
			if d != 0 {
				x.Add(x, new(big.Rat).Mul(big.NewRat(int64(d), 1), tiny))
			}
			check(x.FloatString(70)+"h", x)
			// The same value as a hex float: x * 2^160 is an integer for
			// d == 0; perturb by 2^-160 otherwise.
			y := new(big.Rat).Set(mid)
			y.Add(y, new(big.Rat).SetFrac(big.NewInt(int64(d)), new(big.Int).Lsh(big.NewInt(1), 160)))
			n := new(big.Int).Quo(new(big.Int).Lsh(y.Num(), 160), y.Denom())
			check("0x"+n.Text(16)+"p-160h", y)
		}
	}
	// Random decimal literals with few digits, far from and near halves.
	for range 20000 {
		s := strconv.FormatFloat(rng.Float64()*70000, 'g', 1+rng.IntN(8), 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		x, _ := new(big.Rat).SetString(s)
		check(s+"h", x)
	}
}

// TestFloatLiteralsMatchStrconv checks that float and double literals are
// strconv's correctly rounded results, via random bit patterns printed both
// in shortest form and with extra digits.
func TestFloatLiteralsMatchStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		f := math.Float32frombits(rng.Uint32() & 0x7fffffff)
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			continue
		}
		for _, s := range []string{
			strconv.FormatFloat(float64(f), 'e', -1, 32),
			strconv.FormatFloat(float64(f), 'e', 20, 64),
			strconv.FormatFloat(float64(f), 'x', -1, 32),
		} {
			v, err := ParseLiteral(s + "f")
			if err != nil {
				t.Fatalf("ParseLiteral(%q): %v", s+"f", err)
			}
			want, _ := strconv.ParseFloat(s, 32)
			if uint32(v.Lanes[0]) != math.Float32bits(float32(want)) {
				t.Errorf("ParseLiteral(%q) = %#x, want %#x", s+"f", v.Lanes[0], math.Float32bits(float32(want)))
			}
		}
		d := math.Float64frombits(rng.Uint64() & 0x7fffffffffffffff)
		if math.IsNaN(d) || math.IsInf(d, 0) {
			continue
		}
		s := strconv.FormatFloat(d, 'e', -1, 64)
		v, err := ParseLiteral(s)
		if err != nil || v.Lanes[0] != math.Float64bits(d) || v.Type != cltype.Scalar(cltype.Double) {
			t.Errorf("ParseLiteral(%q) = %v, %v; want %v", s, v, err, d)
		}
	}
}

func ExampleParseLiteral() {
	for _, s := range []string{"42", "0xffffffff", "2147483648", "0x1.8p3f", "0.1h"} {
		v, _ := ParseLiteral(s)
		fmt.Println(s, "=", v)
	}
	// Output:
	// 42 = (int)42
	// 0xffffffff = (uint)4294967295
	// 2147483648 = (long)2147483648
	// 0x1.8p3f = (float)12
	// 0.1h = (half)0.1
}
