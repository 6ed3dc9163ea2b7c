package difftest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/round"
)

// Form says which copy of a program Print writes.
type Form struct {
	// Kernel prints the OpenCL C kernel: its functions prefixed with Name,
	// then __kernel void Name(__global uchar *out, __global const uchar *in)
	// whose body is the top-level statements followed by a store of every
	// top-level variable's bytes into out. Without it, Print writes the
	// snippet clconv runs.
	Kernel bool
	Name   string
	// Loads (kernel only) reads the constants of the kernel's body from in
	// (Printed.In), so that the compiler cannot fold them.
	Loads bool
	// Canon makes every NaN canonical before as_ reads its bits: what the
	// harness compares to tell a difference of NaN bits, which OpenCL C
	// leaves open, from any other.
	Canon bool
	// Avoid rewrites the program around known device bugs in ways that
	// keep every value clconv computes (known.go): a finding that the
	// rewrite makes disappear is that bug.
	Avoid Avoid
}

// Avoid is a set of value-preserving rewrites.
type Avoid uint8

// The rewrites.
const (
	// AvoidSatNaN gives a _sat conversion from a floating type 0 instead of
	// a NaN operand (the result is 0 either way).
	AvoidSatNaN Avoid = 1 << iota
	// AvoidNarrowRTE converts a scalar or a 2-vector floating operand to
	// an integer type with _rte as the first lanes of a 4-vector.
	AvoidNarrowRTE
	// AvoidConstLogical (kernel only) declares without const a variable
	// whose initializer holds a vector && or ||.
	AvoidConstLogical
	// AvoidBitcastSign (kernel only) reinterprets a floating value as
	// narrower integer elements through an XOR with get_global_id(0),
	// which is 0 but unknown to the compiler.
	AvoidBitcastSign
	// AvoidRTZFold (kernel only) passes the int or long operand of a
	// conversion to a floating type toward zero through an XOR with
	// get_global_id(0), so that the compiler cannot fold it.
	AvoidRTZFold
	// AvoidSelectDivisor (kernel only) passes the divisor of a vector / or
	// % through an XOR with get_global_id(0), so that the compiler cannot
	// see that it is a select() or ?: one of whose arms has a zero lane.
	AvoidSelectDivisor
)

// Printed is a printed program.
type Printed struct {
	Src string
	// Name is the kernel's name (Form.Name).
	Name string
	// Slots are the top-level variables, where the kernel stores them.
	Slots   []Slot
	OutSize int
	// In is the input buffer of a kernel printed with Loads.
	In []byte

	anchors map[[2]int][]any // clconv's copy: the nodes at a line and column
}

// Slot is a top-level variable's place in the kernel's output.
type Slot struct {
	Name   string
	T      Type
	Offset int
}

type printer struct {
	b         strings.Builder
	line, col int
	f         Form
	mode      round.Mode
	inBody    bool // printing the kernel's body (where Loads applies)
	out       *Printed
	indent    int
}

// Print writes a program in the form f.
func Print(p *Program, f Form) *Printed {
	pr := &printer{line: 1, col: 1, f: f, out: &Printed{Name: f.Name}}
	if !f.Kernel {
		pr.out.anchors = map[[2]int][]any{}
	}
	if !f.Kernel && usesPragma(p) {
		pr.write("#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n")
	}
	for _, h := range helpers(p, f) {
		pr.helper(h)
	}
	for _, fn := range p.Funcs {
		pr.function(fn)
	}
	globals := p.Globals()
	for _, v := range globals {
		size := v.T.Size()
		off := (pr.out.OutSize + size - 1) / size * size
		pr.out.Slots = append(pr.out.Slots, Slot{Name: v.Name, T: v.T, Offset: off})
		pr.out.OutSize = off + size
	}
	if f.Kernel {
		pr.write("__kernel void " + f.Name + "(__global uchar *out, __global const uchar *in) {\n")
		pr.indent++
		pr.inBody = true
	}
	for _, s := range p.Body {
		pr.stmt(s)
	}
	if f.Kernel {
		pr.inBody = false
		for _, s := range pr.out.Slots {
			if s.T.N == 3 {
				pr.line1(fmt.Sprintf("vstore3(%s, 0, (__global %v*)(out + %d));", s.Name, s.T.Kind, s.Offset))
			} else {
				pr.line1(fmt.Sprintf("*(__global %v*)(out + %d) = %s;", s.T, s.Offset, s.Name))
			}
		}
		pr.indent--
		pr.write("}\n")
	}
	pr.out.Src = pr.b.String()
	return pr.out
}

// KernelHeader is what a file of kernels starts with: double enabled, and
// contraction of a*b+c into fma turned off (OpenCL C allows it by default;
// clconv never fuses).
const KernelHeader = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n"

func usesPragma(p *Program) bool {
	found := false
	walk(p, func(n any) {
		if b, ok := n.(*Block); ok && b.Pragma {
			found = true
		}
	})
	return found
}

// helperFunc is a function a form adds: a NaN replaced by the canonical
// NaN (canon) or by 0 (zero), for a floating type.
type helperFunc struct {
	canon bool
	t     Type
}

// helpers returns the functions p printed in form f needs.
func helpers(p *Program, f Form) []helperFunc {
	var out []helperFunc
	seen := map[helperFunc]bool{}
	add := func(h helperFunc) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	walk(p, func(n any) {
		switch n := n.(type) {
		case *As:
			if t := n.X.Type(); f.Canon && t.Kind.IsFloat() {
				add(helperFunc{canon: true, t: t})
			}
		case *Conv:
			if t := n.X.Type(); f.Avoid&AvoidSatNaN != 0 && n.Op.Sat && t.Kind.IsFloat() {
				add(helperFunc{t: t})
			}
		case *Imp:
			if t := n.X.Type(); f.Avoid&AvoidSatNaN != 0 && n.Sat {
				add(helperFunc{t: t})
			}
		case *Cast:
			if t := n.X.Type(); f.Avoid&AvoidSatNaN != 0 && n.Sat {
				add(helperFunc{t: t})
			}
		}
	})
	return out
}

func (p *printer) helperName(h helperFunc) string {
	n := "nz_" + h.t.String()
	if h.canon {
		n = "cn_" + h.t.String()
	}
	if p.f.Kernel {
		n = p.f.Name + "_" + n
	}
	return n
}

// helper defines a function that returns its argument with every NaN
// replaced by the positive quiet NaN without payload, or by 0.
func (p *printer) helper(h helperFunc) {
	t := h.t
	var nan string
	switch {
	case !h.canon:
		nan = fmt.Sprintf("(%v)0", t.Kind)
	case t.Kind == cltype.Half:
		nan = "as_half((ushort)0x7e00)"
	case t.Kind == cltype.Float:
		nan = "as_float(0x7fc00000u)"
	default:
		nan = "as_double(0x7ff8000000000000ul)"
	}
	if t.N == 1 {
		p.line1(fmt.Sprintf("%v %s(%v x) { return x != x ? %s : x; }", t, p.helperName(h), t, nan))
		return
	}
	p.line1(fmt.Sprintf("%v %s(%v x) { return select(x, (%v)(%s), x != x); }", t, p.helperName(h), t, t, nan))
}

// rtzOperand writes the operand of a conversion to a floating type that
// rounds in mode m, through an XOR with get_global_id(0) under AvoidRTZFold
// when it rounds toward zero from int or long.
func (p *printer) rtzOperand(x Expr, m round.Mode) {
	k := x.Type().Kind
	if !p.f.Kernel || p.f.Avoid&AvoidRTZFold == 0 || m != round.RTZ || (k != cltype.Int && k != cltype.Long) {
		p.expr(x)
		return
	}
	p.write("(")
	p.expr(x)
	p.write(fmt.Sprintf(" ^ (%v)get_global_id(0))", k))
}

// satOperand writes the operand of a _sat conversion from a floating type,
// through the zero helper under AvoidSatNaN.
func (p *printer) satOperand(x Expr) {
	if t := x.Type(); p.f.Avoid&AvoidSatNaN != 0 && t.Kind.IsFloat() {
		p.call(p.helperName(helperFunc{t: t}), x)
		return
	}
	p.expr(x)
}

func (p *printer) write(s string) {
	p.b.WriteString(s)
	for _, c := range []byte(s) {
		if c == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++
		}
	}
}

func (p *printer) startLine() {
	p.write(strings.Repeat("  ", p.indent))
}

func (p *printer) line1(s string) {
	p.startLine()
	p.write(s + "\n")
}

// at records n at the current position (clconv's copy), where the
// interpreter reports what happens at n.
func (p *printer) at(n any) {
	if p.out.anchors != nil {
		k := [2]int{p.line, p.col}
		p.out.anchors[k] = append(p.out.anchors[k], n)
	}
}

func (p *printer) fname(f *Func) string {
	if p.f.Kernel {
		return p.f.Name + "_" + f.Name
	}
	return f.Name
}

func (p *printer) function(f *Func) {
	p.startLine()
	p.write(fmt.Sprintf("%v %s(", f.Result, p.fname(f)))
	for i, a := range f.Params {
		if i > 0 {
			p.write(", ")
		}
		p.write(fmt.Sprintf("%v %s", a.T, a.Name))
	}
	p.write(") {\n")
	p.indent++
	saved := p.mode
	p.mode = round.RTE
	for _, s := range f.Body {
		p.stmt(s)
	}
	p.mode = saved
	p.indent--
	p.line1("}")
}

func (p *printer) block(b *Block) {
	p.indent++
	saved := p.mode
	if b.Pragma {
		p.mode = b.Mode
		if !p.f.Kernel {
			p.write("#pragma OPENCL SELECT_ROUNDING_MODE " + b.Mode.String() + "\n")
		}
	}
	for _, s := range b.Stmts {
		p.stmt(s)
	}
	p.mode = saved
	p.indent--
}

func (p *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *Decl:
		p.startLine()
		if s.V.Const && !(p.f.Kernel && p.f.Avoid&AvoidConstLogical != 0 && hasVectorLogical(s.Init)) {
			p.write("const ")
		}
		p.write(fmt.Sprintf("%v %s = ", s.V.T, s.V.Name))
		p.expr(s.Init)
		p.write(";\n")
	case *Assign:
		p.startLine()
		p.assign(s)
		p.write(";\n")
	case *IncDec:
		p.startLine()
		if s.Fix > 0 {
			p.expr(s.LHS)
			p.write(" ")
			p.at(s)
			p.write(fmt.Sprintf("^= (%v)1", s.LHS.Type().Kind))
		} else if s.Post {
			p.expr(s.LHS)
			p.at(s)
			p.write(s.Op)
		} else {
			p.at(s)
			p.write(s.Op)
			p.expr(s.LHS)
		}
		p.write(";\n")
	case *If:
		p.startLine()
		p.write("if (")
		p.expr(s.Cond)
		p.write(") {\n")
		p.block(s.Then)
		if s.Else != nil {
			p.line1("} else {")
			p.block(s.Else)
		}
		p.line1("}")
	case *Loop:
		v, n := s.V.Name, s.N
		switch s.Kind {
		case "for":
			p.line1(fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", v, v, n, v))
			p.block(s.Body)
			p.line1("}")
		case "while":
			p.line1("{")
			p.indent++
			p.line1(fmt.Sprintf("int %s = 0;", v))
			p.line1(fmt.Sprintf("while (%s < %d) {", v, n))
			p.indent++
			p.line1(v + "++;")
			p.indent--
			p.block(s.Body)
			p.line1("}")
			p.indent--
			p.line1("}")
		default:
			p.line1("{")
			p.indent++
			p.line1(fmt.Sprintf("int %s = 0;", v))
			p.line1("do {")
			p.indent++
			p.line1(v + "++;")
			p.indent--
			p.block(s.Body)
			p.line1(fmt.Sprintf("} while (%s < %d);", v, n))
			p.indent--
			p.line1("}")
		}
	case *Jump:
		p.startLine()
		if s.Cond != nil {
			p.write("if (")
			p.expr(s.Cond)
			p.write(") ")
		}
		if s.Break {
			p.write("break;\n")
		} else {
			p.write("continue;\n")
		}
	case *Block:
		p.line1("{")
		p.block(s)
		p.line1("}")
	case *Return:
		p.startLine()
		p.write("return ")
		p.expr(s.X)
		p.write(";\n")
	default:
		panic(fmt.Sprintf("difftest: unknown statement %T", s))
	}
}

func (p *printer) assign(s *Assign) {
	op := s.Op
	switch {
	case s.Sat:
		// LHS = convert_K_sat(LHS op RHS): the conversion back saturates.
		p.expr(s.LHS)
		p.write(" ")
		p.at(s)
		p.write(fmt.Sprintf("= convert_%v_sat(", s.LHS.Type().Kind))
		p.expr(s.LHS)
		p.write(" " + op[:len(op)-1] + " ")
		p.expr(s.RHS)
		p.write(")")
		return
	case s.Fix >= 2:
		op = "^="
	}
	p.expr(s.LHS)
	p.write(" ")
	p.at(s)
	p.write(op + " ")
	if s.Fix == 1 {
		p.guard(s.RHS)
		return
	}
	p.expr(s.RHS)
}

// guard writes x | 1, a divisor that cannot be 0, of the type x is
// printed with (a scalar is cast back after the promotions).
func (p *printer) guard(x Expr) {
	t := x.Type()
	if imp, ok := x.(*Imp); ok {
		t = imp.X.Type()
		if imp.Sat {
			t = scalar(imp.T.Kind)
		}
	}
	if t.N > 1 {
		p.write("(")
		p.expr(x)
		p.write(fmt.Sprintf(" | (%v)1)", t.Kind))
		return
	}
	p.write(fmt.Sprintf("((%v)(", t))
	p.expr(x)
	p.write(fmt.Sprintf(" | (%v)1))", t))
}

// modeSuffix returns the rounding suffix the kernel's copy must spell out
// for a conversion to kind k that clconv rounds in the block's mode, or "".
func (p *printer) modeSuffix(k cltype.Kind) string {
	if !p.f.Kernel || p.mode == round.RTE || !k.IsFloat() {
		return ""
	}
	return "_" + p.mode.String()
}

func (p *printer) expr(e Expr) {
	switch e := e.(type) {
	case *Lit:
		p.lit(e)
	case *Ref:
		p.write(e.V.Name)
	case *Swz:
		switch e.X.(type) {
		case *Ref, *Swz:
			p.expr(e.X)
		default:
			p.write("(")
			p.expr(e.X)
			p.write(")")
		}
		p.write("." + e.Sel)
	case *Unary:
		p.write("(")
		p.at(e)
		if e.Fix > 0 {
			p.write("~")
		} else {
			p.write(e.Op)
		}
		p.expr(e.X)
		p.write(")")
	case *Bin:
		p.write("(")
		p.expr(e.X)
		p.write(" ")
		p.at(e)
		op := e.Op
		if e.Fix >= 2 {
			op = "^"
		}
		p.write(op + " ")
		opaque := p.f.Kernel && p.f.Avoid&AvoidSelectDivisor != 0 && (op == "/" || op == "%") && e.Y.Type().N > 1
		if opaque {
			p.write("(")
		}
		if e.Fix == 1 {
			p.guard(e.Y)
		} else {
			p.expr(e.Y)
		}
		if opaque {
			p.write(fmt.Sprintf(" ^ (%v)get_global_id(0))", e.Y.Type()))
		}
		p.write(")")
	case *Cond:
		p.write("(")
		p.expr(e.C)
		p.write(" ? ")
		p.expr(e.X)
		p.write(" : ")
		p.expr(e.Y)
		p.write(")")
	case *Cast:
		p.at(e)
		switch sfx := p.modeSuffix(e.T.Kind); {
		case e.Sat:
			p.write(fmt.Sprintf("convert_%v_sat(", e.T))
			p.satOperand(e.X)
			p.write(")")
		case sfx != "" && e.X.Type().Kind != e.T.Kind:
			p.write(fmt.Sprintf("convert_%v%s(", e.T, sfx))
			p.rtzOperand(e.X, p.mode)
			p.write(")")
		default:
			// No parentheses around the cast: clconv reports a cast at its
			// own parenthesis. X is a primary expression or parenthesized.
			p.write(fmt.Sprintf("(%v)", e.T))
			p.expr(e.X)
		}
	case *Conv:
		p.at(e)
		op := e.Op
		if sfx := p.modeSuffix(op.Dst.Kind); sfx != "" && op.Round == convert.NoSuffix {
			op.Round = convert.SuffixOf(p.mode)
		}
		src := e.X.Type()
		operand := p.expr
		if op.Sat {
			operand = p.satOperand
		}
		if m, ok := op.Round.Mode(); ok && op.Dst.Kind.IsFloat() {
			operand = func(x Expr) { p.rtzOperand(x, m) }
		}
		if p.f.Avoid&AvoidNarrowRTE != 0 && op.Round == convert.SuffixRTE && src.N <= 2 && src.Kind.IsFloat() && !op.Dst.Kind.IsFloat() {
			// The first lanes of the 4-vector conversion.
			op.Dst = cltype.Vec(op.Dst.Kind, 4)
			p.write(fmt.Sprintf("%s((%v4)(", op.Name(), src.Kind))
			operand(e.X)
			if src.N == 2 {
				p.write(", ")
				operand(e.X)
				p.write(")).s01")
			} else {
				p.write(")).s0")
			}
			return
		}
		p.write(op.Name() + "(")
		operand(e.X)
		p.write(")")
	case *As:
		src := e.X.Type()
		p.write(fmt.Sprintf("as_%v(", e.T))
		// Under AvoidBitcastSign, the bits pass through an XOR with a 0
		// the compiler cannot see: as_T(as_U(x) ^ (U)get_global_id(0)).
		opaque := p.f.Kernel && p.f.Avoid&AvoidBitcastSign != 0 && src.Kind.IsFloat() &&
			!e.T.Kind.IsFloat() && e.T.Kind.Size() < src.Kind.Size()
		u := cltype.Vec(cltype.Uint, src.N)
		if src.Kind == cltype.Double {
			u.Kind = cltype.Ulong
		}
		if opaque {
			p.write(fmt.Sprintf("as_%v(", u))
		}
		if p.f.Canon && src.Kind.IsFloat() {
			p.call(p.helperName(helperFunc{canon: true, t: src}), e.X)
		} else {
			p.expr(e.X)
		}
		if opaque {
			p.write(fmt.Sprintf(") ^ (%v)get_global_id(0)", u.Kind))
		}
		p.write(")")
	case *VecLit:
		p.write(fmt.Sprintf("(%v)(", e.T))
		for i, x := range e.Elems {
			if i > 0 {
				p.write(", ")
			}
			p.expr(x)
		}
		p.write(")")
	case *Call:
		p.write(p.fname(e.F) + "(")
		for i, x := range e.Args {
			if i > 0 {
				p.write(", ")
			}
			p.expr(x)
		}
		p.write(")")
	case *Select:
		p.write("select(")
		p.expr(e.A)
		p.write(", ")
		p.expr(e.B)
		p.write(", ")
		p.expr(e.C)
		p.write(")")
	case *AnyAll:
		if e.All {
			p.call("all", e.X)
		} else {
			p.call("any", e.X)
		}
	case *Imp:
		p.at(e)
		k := e.T.Kind
		switch sfx := p.modeSuffix(k); {
		case e.Sat:
			p.write(fmt.Sprintf("convert_%v_sat(", k))
			p.satOperand(e.X)
			p.write(")")
		case sfx != "" && e.X.Type().Kind != k:
			p.write(fmt.Sprintf("convert_%v%s(", k, sfx))
			p.rtzOperand(e.X, p.mode)
			p.write(")")
		default:
			p.expr(e.X)
		}
	default:
		panic(fmt.Sprintf("difftest: unknown expression %T", e))
	}
}

func (p *printer) call(name string, x Expr) {
	p.write(name + "(")
	p.expr(x)
	p.write(")")
}

// lit writes a constant: in the kernel's body with Loads, a read of in;
// otherwise one of the spellings its Style picks.
func (p *printer) lit(l *Lit) {
	k := l.T.Kind
	if p.f.Loads && p.inBody {
		size := k.Size()
		off := (len(p.out.In) + size - 1) / size * size
		for len(p.out.In) < off+size {
			p.out.In = append(p.out.In, 0)
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], l.Bits)
		copy(p.out.In[off:], b[:size])
		p.write(fmt.Sprintf("(*(__global const %v*)(in + %d))", k, off))
		return
	}
	p.write(LitText(l))
}

// LitText returns a constant's OpenCL C spelling.
func LitText(l *Lit) string {
	k := l.T.Kind
	switch k {
	case cltype.Char, cltype.Short:
		v := int64(l.Bits<<(64-k.Bits())) >> (64 - k.Bits())
		return fmt.Sprintf("((%v)%s)", k, intText(v, l.Style))
	case cltype.Uchar, cltype.Ushort:
		return fmt.Sprintf("((%v)%s)", k, intText(int64(l.Bits), l.Style))
	case cltype.Int:
		return intText(int64(int32(l.Bits)), l.Style)
	case cltype.Uint:
		v := l.Bits
		switch {
		case l.Style == 2 && v > math.MaxInt32:
			return fmt.Sprintf("0x%x", v) // a hex constant past INT_MAX is a uint
		case l.Style&1 == 1:
			return fmt.Sprintf("0x%XU", v)
		}
		return fmt.Sprintf("%du", v)
	case cltype.Long:
		v := int64(l.Bits)
		switch {
		case v == math.MinInt64:
			return "(-9223372036854775807L - 1L)"
		case v < 0:
			return fmt.Sprintf("(-%dL)", -v)
		case l.Style == 2 && v > math.MaxInt32:
			return fmt.Sprint(v) // a decimal constant past INT_MAX is a long
		case l.Style&1 == 1:
			return fmt.Sprintf("0x%xl", v)
		}
		return fmt.Sprintf("%dL", v)
	case cltype.Ulong:
		v := l.Bits
		switch {
		case l.Style == 2 && v > math.MaxInt64:
			return fmt.Sprintf("0x%x", v) // a hex constant past LONG_MAX is a ulong
		case l.Style&1 == 1:
			return fmt.Sprintf("0x%xUL", v)
		}
		return fmt.Sprintf("%dul", v)
	}
	var f float64
	var bits int
	var sfx string
	switch k {
	case cltype.Half:
		f, bits, sfx = half.Half(l.Bits).Float64(), 32, "h"
	case cltype.Float:
		f, bits, sfx = float64(math.Float32frombits(uint32(l.Bits))), 32, "f"
	default:
		f, bits = math.Float64frombits(l.Bits), 64
	}
	neg := math.Signbit(f)
	mag := math.Abs(f)
	var s string
	switch {
	case math.IsInf(mag, 1):
		switch k {
		case cltype.Float:
			s = "INFINITY"
		case cltype.Double:
			s = "HUGE_VAL"
		default:
			s = "((half)INFINITY)"
		}
	case l.Style >= 2 && k != cltype.Half:
		s = strconv.FormatFloat(mag, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		s += sfx
	default:
		s = strconv.FormatFloat(mag, 'x', -1, 64) + sfx
	}
	if neg {
		return "(-" + s + ")"
	}
	return s
}

// intText spells an int value (decimal, hex or octal); INT_MIN as an
// expression, since 2147483648 is not an int.
func intText(v int64, style int) string {
	switch {
	case v == math.MinInt32:
		return "(-2147483647 - 1)"
	case v < 0:
		return fmt.Sprintf("(-%d)", -v)
	case style == 1:
		return fmt.Sprintf("0x%x", v)
	case style == 2 && v > 0:
		return fmt.Sprintf("0%o", v)
	}
	return fmt.Sprint(v)
}

// hasVectorLogical reports whether e holds a vector && or ||.
func hasVectorLogical(e Expr) bool {
	found := false
	walkExpr(e, func(n any) {
		if b, ok := n.(*Bin); ok && b.T.N > 1 && (b.Op == "&&" || b.Op == "||") {
			found = true
		}
	})
	return found
}

// walk calls f on every statement and expression of p, parents first.
func walk(p *Program, f func(any)) {
	for _, fn := range p.Funcs {
		walkStmts(fn.Body, f)
	}
	walkStmts(p.Body, f)
}

func walkStmts(list []Stmt, f func(any)) {
	for _, s := range list {
		walkStmt(s, f)
	}
}

func walkStmt(s Stmt, f func(any)) {
	f(s)
	switch s := s.(type) {
	case *Decl:
		walkExpr(s.Init, f)
	case *Assign:
		walkExpr(s.LHS, f)
		walkExpr(s.RHS, f)
	case *IncDec:
		walkExpr(s.LHS, f)
	case *If:
		walkExpr(s.Cond, f)
		walkStmt(s.Then, f)
		if s.Else != nil {
			walkStmt(s.Else, f)
		}
	case *Loop:
		walkStmt(s.Body, f)
	case *Jump:
		if s.Cond != nil {
			walkExpr(s.Cond, f)
		}
	case *Block:
		walkStmts(s.Stmts, f)
	case *Return:
		walkExpr(s.X, f)
	}
}

func walkExpr(e Expr, f func(any)) {
	f(e)
	switch e := e.(type) {
	case *Swz:
		walkExpr(e.X, f)
	case *Unary:
		walkExpr(e.X, f)
	case *Bin:
		walkExpr(e.X, f)
		walkExpr(e.Y, f)
	case *Cond:
		walkExpr(e.C, f)
		walkExpr(e.X, f)
		walkExpr(e.Y, f)
	case *Cast:
		walkExpr(e.X, f)
	case *Conv:
		walkExpr(e.X, f)
	case *As:
		walkExpr(e.X, f)
	case *VecLit:
		for _, x := range e.Elems {
			walkExpr(x, f)
		}
	case *Call:
		for _, x := range e.Args {
			walkExpr(x, f)
		}
	case *Select:
		walkExpr(e.A, f)
		walkExpr(e.B, f)
		walkExpr(e.C, f)
	case *AnyAll:
		walkExpr(e.X, f)
	case *Imp:
		walkExpr(e.X, f)
	}
}
