package value

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// TestBinaryOverflow holds BinaryOverflow's and NegOverflow's lanes to the
// exact results (in int64 up to 32 bits, with math/big for long): every pair
// of char operands, and the boundaries and random values of the wider signed
// kinds. Unsigned kinds never overflow.
func TestBinaryOverflow(t *testing.T) {
	exact := func(op BinaryOp, k cltype.Kind, a, b int64) bool {
		if k.Bits() <= 32 {
			// |a op b| <= 2^62: exact in int64.
			var r int64
			switch op {
			case Add:
				r = a + b
			case Sub:
				r = a - b
			case Mul:
				r = a * b
			default:
				r = a / b
			}
			return r < k.MinInt() || r > int64(k.MaxUint())
		}
		x, y := big.NewInt(a), big.NewInt(b)
		var r big.Int
		switch op {
		case Add:
			r.Add(x, y)
		case Sub:
			r.Sub(x, y)
		case Mul:
			r.Mul(x, y)
		default:
			if b == 0 {
				return false
			}
			r.Quo(x, y) // MIN % -1 overflows where MIN / -1 does
		}
		lo := new(big.Int).Lsh(big.NewInt(-1), uint(k.Bits()-1))
		hi := new(big.Int).Sub(new(big.Int).Neg(lo), big.NewInt(1))
		return r.Cmp(lo) < 0 || r.Cmp(hi) > 0
	}
	check := func(op BinaryOp, k cltype.Kind, a, b int64) {
		t.Helper()
		if (op == Div || op == Rem) && b == 0 {
			return
		}
		_, over, err := BinaryOverflow(op, FromInt64(k, a), FromInt64(k, b), round.RTE)
		if err != nil {
			t.Fatalf("%v %d %v %d: %v", k, a, op, b, err)
		}
		if want := exact(op, k, a, b); over.Has(0) != want {
			t.Errorf("%v: %d %v %d: overflow %v, want %v", k, a, op, b, over.Has(0), want)
		}
	}
	ops := []BinaryOp{Add, Sub, Mul, Div, Rem}
	for a := int64(-128); a < 128; a++ {
		for b := int64(-128); b < 128; b++ {
			for _, op := range ops {
				check(op, cltype.Char, a, b)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []cltype.Kind{cltype.Short, cltype.Int, cltype.Long} {
		lo := int64(-1) << (k.Bits() - 1)
		hi := -(lo + 1)
		edges := []int64{lo, lo + 1, lo / 2, -3, -2, -1, 0, 1, 2, 3, hi / 2, hi/2 + 1, hi - 1, hi}
		for _, a := range edges {
			for _, b := range edges {
				for _, op := range ops {
					check(op, k, a, b)
				}
			}
		}
		n := 20000
		if testing.Short() {
			n = 2000
		}
		for range n {
			a := signExtend(k, rng.Uint64()>>rng.IntN(64))
			b := signExtend(k, rng.Uint64()>>rng.IntN(64))
			for _, op := range ops {
				check(op, k, a, b)
			}
		}
	}
	// Unsigned kinds, shifts and floating operations never overflow.
	if _, over, _ := BinaryOverflow(Add, FromUint64(cltype.Uint, 1<<32-1), FromUint64(cltype.Uint, 1), round.RTE); over != 0 {
		t.Error("uint overflow flagged")
	}
	if _, over, _ := BinaryOverflow(Shl, FromInt64(cltype.Int, 1<<30), FromInt64(cltype.Int, 3), round.RTE); over != 0 {
		t.Error("shift flagged")
	}
	if _, over, _ := BinaryOverflow(Mul, f32(0x1p100), f32(0x1p100), round.RTE); over != 0 {
		t.Error("float overflow flagged")
	}
	// Lanes of a vector are flagged one by one.
	v := New(cltype.Vec(cltype.Char, 4), 0x7f, 1, 0x80, 0)
	if _, over, _ := BinaryOverflow(Add, v, New(cltype.Vec(cltype.Char, 4), 1, 1, 0xff, 0xff), round.RTE); over != 0b0101 {
		t.Errorf("char4 overflow lanes %04b, want 0101", over)
	}
	if _, over, _ := NegOverflow(v); over != 0b0100 {
		t.Errorf("-char4 overflow lanes %04b, want 0100", over)
	}
	if _, over, _ := NegOverflow(FromInt64(cltype.Long, -1<<63)); over != 1 {
		t.Error("-LONG_MIN not flagged")
	}
	if _, over, _ := NegOverflow(FromUint64(cltype.Uint, 1<<31)); over != 0 {
		t.Error("-(uint)0x80000000 flagged")
	}
}
