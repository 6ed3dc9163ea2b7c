// Package nanrule states clconv's NaN rules for floating arithmetic
// (docs/PORTS.md) from operand bits alone, for the tests of the packages that
// implement them (round for float and double, half for half). Computing the
// expected NaN from bits, not from hardware arithmetic, is the point: on a
// port whose hardware makes other NaNs (RISC-V's canonical NaN, MIPS's legacy
// encoding, x86's negative default NaN) a test built on it fails unless the
// package makes its NaNs itself.
package nanrule

// Format is a binary interchange format by its widths.
type Format struct {
	Name     string
	Bits     uint // total width
	FracBits uint // trailing significand width
}

// The formats clconv computes in.
var (
	Half   = Format{"half", 16, 10}
	Float  = Format{"float", 32, 23}
	Double = Format{"double", 64, 52}
)

// Quiet is the quiet bit, the top bit of the trailing significand.
func (f Format) Quiet() uint64 { return 1 << (f.FracBits - 1) }

// Sign is the sign bit.
func (f Format) Sign() uint64 { return 1 << (f.Bits - 1) }

// ExpAll is the all-ones exponent field.
func (f Format) ExpAll() uint64 { return (1<<(f.Bits-1-f.FracBits) - 1) << f.FracBits }

// Default is the NaN of an invalid operation on NaN-free operands: positive,
// quiet, empty payload.
func (f Format) Default() uint64 { return f.ExpAll() | f.Quiet() }

// IsNaN reports whether b is a NaN of f.
func (f Format) IsNaN(b uint64) bool {
	return b&f.ExpAll() == f.ExpAll() && b&(f.Quiet()<<1-1) != 0
}

func (f Format) isInf(b uint64) bool  { return b&^f.Sign() == f.ExpAll() }
func (f Format) isZero(b uint64) bool { return b&^f.Sign() == 0 }
func (f Format) neg(b uint64) bool    { return b&f.Sign() != 0 }

// Classes returns one operand of each class, by bits: quiet and signaling
// NaNs of both signs with payloads, infinities, zeros, 1, -1.5, the smallest
// subnormal and the largest finite value.
func (f Format) Classes() []uint64 {
	e, q, s := f.ExpAll(), f.Quiet(), f.Sign()
	one := (e >> 1) &^ (1 << f.FracBits) // the exponent field of 1.0
	return []uint64{
		e | q | 0x15, s | e | q | 0x2a, // ±qNaN with payloads
		e | 0x5, s | e | 0x3, // ±sNaN
		e, s | e, // ±inf
		0, s, // ±0
		one, s | one | q, // 1, -1.5
		1, e - 1, // the smallest subnormal, the largest finite value
	}
}

// Op is an operation by its name in OpenCL C: "+", "-", "*", "/", "sqrt" or
// "fma".
type Op struct {
	Name  string
	Arity int
}

// Ops are the operations the rules cover.
var Ops = []Op{{"+", 2}, {"-", 2}, {"*", 2}, {"/", 2}, {"sqrt", 1}, {"fma", 3}}

// Invalid reports whether op is invalid (IEEE 754 7.2) on the NaN-free
// operands ops.
func (f Format) Invalid(op Op, ops []uint64) bool {
	a := ops[0]
	switch op.Name {
	case "+", "-":
		b := ops[1]
		return f.isInf(a) && f.isInf(b) && (f.neg(a) != f.neg(b)) == (op.Name == "+")
	case "*":
		b := ops[1]
		return f.isZero(a) && f.isInf(b) || f.isInf(a) && f.isZero(b)
	case "/":
		b := ops[1]
		return f.isZero(a) && f.isZero(b) || f.isInf(a) && f.isInf(b)
	case "sqrt":
		return f.neg(a) && !f.isZero(a)
	case "fma":
		b, c := ops[1], ops[2]
		if f.isZero(a) && f.isInf(b) || f.isInf(a) && f.isZero(b) {
			return true
		}
		return (f.isInf(a) || f.isInf(b)) && f.isInf(c) && f.neg(a) != f.neg(b) != f.neg(c)
	}
	panic("nanrule: unknown operation " + op.Name)
}

// Want returns the NaN that op on ops must give, and whether it gives one: the
// first NaN operand in argument order (for "-" the subtrahend as given, not
// negated) with its quiet bit set and its sign and payload kept; else, when
// the operation is invalid, the default NaN; else no NaN.
func (f Format) Want(op Op, ops []uint64) (uint64, bool) {
	for _, b := range ops {
		if f.IsNaN(b) {
			return b | f.Quiet(), true
		}
	}
	if f.Invalid(op, ops) {
		return f.Default(), true
	}
	return 0, false
}

// Each calls fn for every combination of op's operands from f's classes.
func (f Format) Each(op Op, fn func(ops []uint64)) {
	cls := f.Classes()
	ops := make([]uint64, op.Arity)
	var rec func(i int)
	rec = func(i int) {
		if i == op.Arity {
			fn(ops)
			return
		}
		for _, c := range cls {
			ops[i] = c
			rec(i + 1)
		}
	}
	rec(0)
}
