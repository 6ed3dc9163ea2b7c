package value

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// TestIntLaneOps holds every integer operator's lanes to math/big: the
// result is the exact result reduced modulo 2^bits (C's truncating division;
// shifts by the count modulo the width, >> arithmetic on signed kinds), the
// overflow flag says whether a signed kind's exact result is out of range,
// and division by zero is an error. Every pair of char and uchar operands,
// and the boundaries and random values of the wider kinds.
func TestIntLaneOps(t *testing.T) {
	ops := []BinaryOp{Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor}
	check := func(op BinaryOp, k cltype.Kind, a, b uint64) {
		t.Helper()
		f, err := BinaryLaneOp(op, k, round.RTE)
		if err != nil {
			t.Fatalf("%v %v: %v", k, op, err)
		}
		r, over, err := f(a, b)
		bits := uint(k.Bits())
		val := func(x uint64) *big.Int {
			if k.IsSigned() {
				return big.NewInt(signExtend(k, x))
			}
			return new(big.Int).SetUint64(x)
		}
		x, y := val(a), val(b)
		var e big.Int
		switch op {
		case Add:
			e.Add(x, y)
		case Sub:
			e.Sub(x, y)
		case Mul:
			e.Mul(x, y)
		case Div, Rem:
			if b == 0 {
				if err == nil {
					t.Errorf("%v %#x %v 0: no error", k, a, op)
				}
				return
			}
			if op == Div {
				e.Quo(x, y)
			} else {
				// Quo truncates, so MIN % -1 is 0; the overflow flag
				// follows MIN / -1, which is out of range.
				e.Rem(x, y)
			}
		case Shl:
			e.Lsh(x, uint(b)&(bits-1))
		case Shr:
			e.Rsh(x, uint(b)&(bits-1)) // floor: arithmetic on negative values
		case And:
			e.And(x, y)
		case Or:
			e.Or(x, y)
		case Xor:
			e.Xor(x, y)
		}
		wantOver := false
		if k.IsSigned() && op <= Rem {
			q := &e
			if op == Rem {
				q = new(big.Int).Quo(x, y)
			}
			wantOver = q.Cmp(big.NewInt(k.MinInt())) < 0 || q.Cmp(new(big.Int).SetUint64(k.MaxUint())) > 0
		}
		mod := new(big.Int).Lsh(big.NewInt(1), bits)
		want := new(big.Int).Mod(&e, mod).Uint64() // Mod is Euclidean: in [0, 2^bits)
		if err != nil || r != want || over != wantOver {
			t.Errorf("%v %#x %v %#x = %#x, over %v, %v; want %#x, over %v", k, a, op, b, r, over, err, want, wantOver)
		}
	}
	for _, k := range []cltype.Kind{cltype.Char, cltype.Uchar} {
		for a := range uint64(256) {
			for b := range uint64(256) {
				for _, op := range ops {
					check(op, k, a, b)
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []cltype.Kind{cltype.Short, cltype.Ushort, cltype.Int, cltype.Uint, cltype.Long, cltype.Ulong} {
		m := k.Mask()
		edges := []uint64{0, 1, 2, 3, m, m - 1, m >> 1, m>>1 + 1, m>>1 - 1, m >> 2, m>>2 + 1, uint64(k.Bits() - 1), uint64(k.Bits())}
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
			a := rng.Uint64() >> rng.IntN(64) & m
			b := rng.Uint64() >> rng.IntN(64) & m
			if rng.IntN(2) == 0 {
				a = -a & m
			}
			for _, op := range ops {
				check(op, k, a, b)
			}
		}
	}
}

// TestBinaryLaneOpErrors: BinaryLaneOp refuses what Binary refuses.
func TestBinaryLaneOpErrors(t *testing.T) {
	for _, c := range []struct {
		op   BinaryOp
		k    cltype.Kind
		mode round.Mode
	}{
		{Add, cltype.Bool, round.RTE},
		{Rem, cltype.Float, round.RTE},
		{Add, cltype.BFloat16, round.RTE},
		{Add, cltype.Float, round.Mode(9)},
		{Xor + 1, cltype.Int, round.RTE},
	} {
		if _, err := BinaryLaneOp(c.op, c.k, c.mode); err == nil {
			t.Errorf("BinaryLaneOp(%v, %v, %v): no error", c.op, c.k, c.mode)
		}
	}
}
