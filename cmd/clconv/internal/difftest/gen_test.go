package difftest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/value"
)

var (
	programsOnce    sync.Once
	programs        []*Program
	programsDropped []string
)

// testPrograms returns the programs the pure-Go tests look at: every kind,
// half included (the interpreter runs it; PoCL 3.1 has no cl_khr_fp16).
func testPrograms(t *testing.T) []*Program {
	t.Helper()
	n := 300
	if testing.Short() {
		n = 60
	}
	programsOnce.Do(func() {
		for i := range n {
			p, err := Make(ProgramSeed(7, i), Config{Half: true})
			if err != nil {
				programsDropped = append(programsDropped, firstLine(err.Error()))
				continue
			}
			programs = append(programs, p)
		}
	})
	if len(programsDropped)*100 > n {
		t.Errorf("%d of %d programs could not be freed of undefined behaviour: %q", len(programsDropped), n, programsDropped)
	}
	return programs
}

// TestPrograms checks what the harness relies on: clconv runs every
// program without an error or a warning (nothing undefined, nothing
// implementation-defined that it warns of), the same seed gives the same
// program, the kernel stores every top-level variable where the harness
// reads it, and the rewrites of known.go keep every value.
func TestPrograms(t *testing.T) {
	for i, p := range testPrograms(t) {
		src := Print(p, Form{}).Src
		var warns []string
		vars, err := Interpret(src, func(w *clc.Error) { warns = append(warns, w.Error()) })
		if err != nil || len(warns) > 0 {
			t.Fatalf("program %d: %v %q\n%s", i, err, warns, src)
		}
		k := Print(p, Form{Kernel: true, Name: "p", Loads: true})
		if len(k.Slots) != len(vars) {
			t.Fatalf("program %d: %d slots for %d variables", i, len(k.Slots), len(vars))
		}
		end := 0
		for j, s := range k.Slots {
			if s.Name != vars[j].Name || s.T != vars[j].Type || s.Offset%s.T.Size() != 0 || s.Offset < end {
				t.Fatalf("program %d: slot %+v for %s %v after byte %d", i, s, vars[j].Name, vars[j].Type, end)
			}
			end = s.Offset + s.T.Size()
		}
		if end != k.OutSize || strings.Contains(k.Src, "#pragma") || !strings.Contains(k.Src, "__kernel void p(") {
			t.Fatalf("program %d: kernel of %d bytes, variables end at %d:\n%s", i, k.OutSize, end, k.Src)
		}
		for _, f := range []Form{{Canon: true}, {Avoid: AvoidSatNaN | AvoidNarrowRTE | AvoidConstLogical | AvoidBitcastSign | AvoidRTZFold}} {
			w, err := Interpret(Print(p, f).Src, nil)
			if err != nil {
				t.Fatalf("program %d in form %+v: %v", i, f, err)
			}
			if f.Canon {
				continue
			}
			for j := range vars {
				if !w[j].Value.Equal(vars[j].Value) || w[j].Value.Lanes != vars[j].Value.Lanes {
					t.Fatalf("program %d: the rewrites change %s from %v to %v", i, vars[j].Name, vars[j].Value, w[j].Value)
				}
			}
		}
	}
	a, _ := Make(ProgramSeed(7, 3), Config{})
	b, _ := Make(ProgramSeed(7, 3), Config{})
	if x, y := Print(a, Form{}).Src, Print(b, Form{}).Src; x != y {
		t.Errorf("one seed, two programs:\n%s\n%s", x, y)
	}
	if c, _ := Make(ProgramSeed(7, 4), Config{}); Print(c, Form{}).Src == Print(a, Form{}).Src {
		t.Error("two seeds, one program")
	}
}

// TestCoverage checks that the programs use what docs/LANGUAGE.md says the
// generator covers.
func TestCoverage(t *testing.T) {
	seen := map[string]int{}
	for _, p := range testPrograms(t) {
		for f := range features(p) {
			seen[f]++
		}
	}
	var want []string
	for _, k := range cltype.Scalars {
		for _, w := range cltype.Widths {
			want = append(want, "var "+cltype.Vec(k, w).String())
		}
	}
	for _, sat := range []string{"", "_sat"} {
		for _, r := range []string{"", "_rte", "_rtz", "_rtp", "_rtn"} {
			want = append(want, "convert"+sat+r)
		}
	}
	for _, m := range []string{"rte", "rtz", "rtp", "rtn"} {
		want = append(want, "pragma "+m, "pragma "+m+" conversion")
	}
	want = append(want, "as same count", "as other count", "as 4 to 3", "as to 3",
		"loop for", "loop while", "loop do", "break", "continue", "if", "else", "block", "shadow", "const",
		"function", "call", "return in block", "?: scalar", "?: vector", "select", "any", "all",
		"++ post", "++ pre", "-- post", "-- pre", "swizzle assign", "swizzle lo/hi/even/odd", "swizzle rgba",
		"vector literal parts", "broadcast", "cast", "implicit", "comparison vector", "logical vector", "!",
		"~", "unary -", "shift vector count", "literal hex", "literal octal", "literal decimal float",
		"literal hex float", "literal inf", "literal -0")
	for _, op := range compoundOps {
		want = append(want, op)
	}
	for _, op := range append(append(slices.Clone(arithOps), intOps...), cmpOps...) {
		want = append(want, "op "+op)
	}
	for _, f := range want {
		if seen[f] == 0 {
			t.Errorf("no program has %q", f)
		}
	}
	if testing.Verbose() {
		var lines []string
		for f, n := range seen {
			lines = append(lines, fmt.Sprintf("%6d %s", n, f))
		}
		slices.Sort(lines)
		t.Logf("programs with each feature:\n%s", strings.Join(lines, "\n"))
	}
}

// features returns what p uses, by names TestCoverage looks for.
func features(p *Program) map[string]bool {
	f := map[string]bool{}
	var stmts func(list []Stmt, mode round.Mode, pragma, inFunc bool, nest int, names map[string]bool)
	var expr func(e Expr, pragma bool, mode round.Mode)
	expr = func(e Expr, pragma bool, mode round.Mode) {
		walkExpr(e, func(n any) {
			switch n := n.(type) {
			case *Lit:
				s := LitText(n)
				switch {
				case strings.Contains(s, "INFINITY") || strings.Contains(s, "HUGE_VAL"):
					f["literal inf"] = true
				case n.T.Kind.IsFloat() && n.Bits == 1<<(n.T.Kind.Bits()-1):
					f["literal -0"] = true
				case n.T.Kind.IsFloat() && strings.Contains(s, "0x"):
					f["literal hex float"] = true
				case n.T.Kind.IsFloat():
					f["literal decimal float"] = true
				case strings.Contains(s, "0x"):
					f["literal hex"] = true
				case strings.HasPrefix(strings.TrimLeft(s, "(-"), "0") && len(strings.TrimLeft(s, "(-")) > 1:
					f["literal octal"] = true
				}
			case *Conv:
				name := "convert"
				if n.Op.Sat {
					name += "_sat"
				}
				if n.Op.Round != convert.NoSuffix {
					name += "_" + n.Op.Round.String()
				}
				f[name] = true
				if pragma && n.Op.Round == convert.NoSuffix && n.Op.Dst.Kind.IsFloat() {
					f["pragma "+mode.String()+" conversion"] = true
				}
			case *As:
				src := n.X.Type()
				switch {
				case src.N == n.T.N:
					f["as same count"] = true
				case src.N == 4 && n.T.N == 3:
					f["as 4 to 3"] = true
				default:
					f["as other count"] = true
				}
				if n.T.N == 3 {
					f["as to 3"] = true
				}
			case *Imp:
				f["implicit"] = true
				if pragma && n.T.Kind.IsFloat() && n.X.Type().Kind != n.T.Kind {
					f["pragma "+mode.String()+" conversion"] = true
				}
			case *Cast:
				f["cast"] = true
			case *Cond:
				if n.C.Type().N > 1 {
					f["?: vector"] = true
				} else {
					f["?: scalar"] = true
				}
			case *Select:
				f["select"] = true
			case *AnyAll:
				if n.All {
					f["all"] = true
				} else {
					f["any"] = true
				}
			case *Call:
				f["call"] = true
			case *Unary:
				if n.Op == "-" {
					f["unary -"] = true
				} else {
					f[n.Op] = true
				}
			case *Bin:
				f["op "+n.Op] = true
				if n.T.N > 1 && (n.Op == "&&" || n.Op == "||") {
					f["logical vector"] = true
				}
				if n.T.N > 1 && slices.Contains(cmpOps, n.Op) {
					f["comparison vector"] = true
				}
				if (n.Op == "<<" || n.Op == ">>") && n.T.N > 1 {
					f["shift vector count"] = true
				}
			case *Swz:
				switch n.Sel {
				case "lo", "hi", "even", "odd":
					f["swizzle lo/hi/even/odd"] = true
				}
				if strings.ContainsAny(n.Sel, "rgba") {
					f["swizzle rgba"] = true
				}
			case *VecLit:
				if len(n.Elems) == 1 {
					f["broadcast"] = true
				} else if len(n.Elems) < n.T.N {
					f["vector literal parts"] = true
				}
			}
		})
	}
	stmts = func(list []Stmt, mode round.Mode, pragma, inFunc bool, nest int, names map[string]bool) {
		for _, s := range list {
			switch s := s.(type) {
			case *Decl:
				f["var "+s.V.T.String()] = true
				if names[s.V.Name] {
					f["shadow"] = true
				}
				names[s.V.Name] = true
				if s.V.Const {
					f["const"] = true
				}
				expr(s.Init, pragma, mode)
			case *Assign:
				if s.Op != "=" {
					f[s.Op] = true
				}
				if _, ok := s.LHS.(*Swz); ok {
					f["swizzle assign"] = true
				}
				expr(s.RHS, pragma, mode)
			case *IncDec:
				if s.Post {
					f[s.Op+" post"] = true
				} else {
					f[s.Op+" pre"] = true
				}
			case *If:
				f["if"] = true
				expr(s.Cond, pragma, mode)
				stmts(s.Then.Stmts, mode, pragma, inFunc, nest+1, names)
				if s.Else != nil {
					f["else"] = true
					stmts(s.Else.Stmts, mode, pragma, inFunc, nest+1, names)
				}
			case *Loop:
				f["loop "+s.Kind] = true
				stmts(s.Body.Stmts, mode, pragma, inFunc, nest+1, names)
			case *Jump:
				if s.Break {
					f["break"] = true
				} else {
					f["continue"] = true
				}
			case *Block:
				f["block"] = true
				m, pr := mode, pragma
				if s.Pragma {
					m, pr = s.Mode, true
					f["pragma "+m.String()] = true
				}
				stmts(s.Stmts, m, pr, inFunc, nest+1, names)
			case *Return:
				if nest > 0 {
					f["return in block"] = true
				}
				expr(s.X, pragma, mode)
			}
		}
	}
	for _, fn := range p.Funcs {
		f["function"] = true
		names := map[string]bool{}
		for _, a := range fn.Params {
			names[a.Name] = true
		}
		stmts(fn.Body, round.RTE, false, true, 0, names)
	}
	stmts(p.Body, round.RTE, false, false, 0, map[string]bool{})
	return f
}

// TestFixUB builds statements that compute what OpenCL C leaves undefined
// and checks that FixUB rewrites each of them, and nothing else.
func TestFixUB(t *testing.T) {
	i32 := scalar(cltype.Int)
	f32 := scalar(cltype.Float)
	intLit := func(v int64) *Lit { return &Lit{T: i32, Bits: uint64(v) & 0xffffffff} }
	max := &Var{Name: "g0", T: i32}
	zero := &Var{Name: "g1", T: i32}
	big := &Var{Name: "g2", T: f32}
	ok := &Var{Name: "g3", T: i32}
	overflow := &Bin{Op: "+", X: &Ref{max}, Y: intLit(1), T: i32}
	div := &Bin{Op: "/", X: intLit(7), Y: &Ref{zero}, T: i32}
	minDiv := &Bin{Op: "/", X: intLit(math.MinInt32), Y: intLit(-1), T: i32}
	neg := &Unary{Op: "-", X: intLit(math.MinInt32), T: i32}
	cast := &Cast{T: i32, X: &Ref{big}}
	imp := &Imp{T: i32, X: &Ref{big}}
	conv := &Conv{Op: convert.Op{Dst: i32, Round: convert.SuffixRTP}, X: &Ref{big}}
	inc := &IncDec{LHS: &Ref{max}, Op: "++", Post: true}
	comp := &Assign{LHS: &Ref{ok}, Op: "+=", RHS: &Ref{big}}
	fine := &Bin{Op: "*", X: intLit(3), Y: intLit(5), T: i32}
	p := &Program{Body: []Stmt{
		&Decl{V: max, Init: intLit(math.MaxInt32)},
		&Decl{V: zero, Init: intLit(0)},
		&Decl{V: big, Init: &Lit{T: f32, Bits: uint64(math.Float32bits(3e9))}},
		&Decl{V: ok, Init: fine},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: overflow},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: div},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: minDiv},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: neg},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: cast},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: imp},
		&Assign{LHS: &Ref{ok}, Op: "=", RHS: conv},
		inc,
		comp,
	}}
	if err := FixUB(p); err != nil {
		t.Fatal(err)
	}
	if overflow.Fix != 2 || div.Fix != 1 || minDiv.Fix != 2 || neg.Fix != 1 || !cast.Sat || !imp.Sat || !conv.Op.Sat || inc.Fix != 1 || !comp.Sat || fine.Fix != 0 {
		t.Errorf("rewrites: + %d, /0 %d, MIN/-1 %d, -MIN %d, cast %v, implicit %v, convert %v, ++ %d, += %v, 3*5 %d",
			overflow.Fix, div.Fix, minDiv.Fix, neg.Fix, cast.Sat, imp.Sat, conv.Op.Sat, inc.Fix, comp.Sat, fine.Fix)
	}
	src := Print(p, Form{}).Src
	for _, want := range []string{"g3 = (g0 ^ 1);", "g3 = (7 / ((int)(g1 | (int)1)));", "g3 = ((-2147483647 - 1) ^ (-1));", "g3 = (~(-2147483647 - 1));",
		"g3 = convert_int_sat(g2);", "g3 = convert_int_sat_rtp(g2);", "g0 ^= (int)1;", "g3 = convert_int_sat(g3 + g2);"} {
		if !strings.Contains(src, want) {
			t.Errorf("no %q in\n%s", want, src)
		}
	}
}

// TestKernelMode checks that the kernel spells out a pragma block's mode
// on each conversion to a floating type without a suffix (PoCL has no
// rounding pragma), and leaves other conversions alone.
func TestKernelMode(t *testing.T) {
	i := &Var{Name: "g0", T: scalar(cltype.Int)}
	f := &Var{Name: "g1", T: scalar(cltype.Float)}
	v := &Var{Name: "g2", T: cltype.Vec(cltype.Float, 4)}
	d := &Var{Name: "l0", T: scalar(cltype.Double)}
	p := &Program{Body: []Stmt{
		&Decl{V: i, Init: &Lit{T: scalar(cltype.Int), Bits: 16777217}},
		&Decl{V: f, Init: &Imp{T: scalar(cltype.Float), X: &Ref{i}}},
		&Decl{V: v, Init: &VecLit{T: v.T, Elems: []Expr{&Imp{T: scalar(cltype.Float), X: &Ref{i}}}}},
		&Block{Pragma: true, Mode: round.RTP, Stmts: []Stmt{
			&Assign{LHS: &Ref{f}, Op: "=", RHS: &Imp{T: scalar(cltype.Float), X: &Ref{i}}},
			&Assign{LHS: &Ref{v}, Op: "=", RHS: &VecLit{T: v.T, Elems: []Expr{&Cast{T: scalar(cltype.Float), X: &Ref{i}}}}},
			&Decl{V: d, Init: &Conv{Op: convert.Op{Dst: scalar(cltype.Double)}, X: &Ref{i}}},
			&Assign{LHS: &Ref{i}, Op: "=", RHS: &Conv{Op: convert.Op{Dst: scalar(cltype.Int)}, X: &Ref{f}}},
		}},
	}}
	src := Print(p, Form{}).Src
	k := Print(p, Form{Kernel: true, Name: "k"}).Src
	for _, want := range []string{"#pragma OPENCL EXTENSION cl_khr_select_fprounding_mode : enable\n", "#pragma OPENCL SELECT_ROUNDING_MODE rtp\n", "g1 = g0;", "(float)g0"} {
		if !strings.Contains(src, want) {
			t.Errorf("clconv's copy lacks %q:\n%s", want, src)
		}
	}
	for _, want := range []string{"float g1 = g0;", "g1 = convert_float_rtp(g0);", "(float4)(convert_float_rtp(g0))", "convert_double_rtp(g0)", "g0 = convert_int(g1);"} {
		if !strings.Contains(k, want) {
			t.Errorf("the kernel lacks %q:\n%s", want, k)
		}
	}
	vars, err := Interpret(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := value.Format(vars[1].Value, true); got != "(float)0x4b800001" {
		t.Errorf("g1 = %s, want 16777218 (rtp)", got)
	}
}

// TestAvoid checks the rewrites of the known PoCL bugs on one program: the
// ones that clconv runs keep its values (TestPrograms holds every program
// to it), the kernel-only ones change the kernel alone.
func TestAvoid(t *testing.T) {
	f4 := cltype.Vec(cltype.Float, 4)
	f := &Var{Name: "g0", T: f4}
	c := &Var{Name: "g1", T: cltype.Vec(cltype.Char, 16), Const: true}
	i := &Var{Name: "g2", T: scalar(cltype.Int)}
	h := &Var{Name: "g3", T: cltype.Vec(cltype.Uchar, 2)}
	nan := &Bin{Op: "/", X: &Lit{T: scalar(cltype.Float)}, Y: &Lit{T: scalar(cltype.Float)}, T: scalar(cltype.Float)}
	p := &Program{Body: []Stmt{
		&Decl{V: f, Init: &VecLit{T: f4, Elems: []Expr{&Lit{T: scalar(cltype.Float), Bits: uint64(math.Float32bits(7))}}}},
		&Decl{V: c, Init: &Bin{Op: "||", X: &As{T: c.T, X: &Ref{f}}, Y: &VecLit{T: c.T, Elems: []Expr{&Lit{T: scalar(cltype.Char)}}}, T: c.T}},
		&Decl{V: i, Init: &Conv{Op: convert.Op{Dst: scalar(cltype.Int), Sat: true, Round: convert.SuffixRTE}, X: nan}},
		&Decl{V: h, Init: &Conv{Op: convert.Op{Dst: h.T, Sat: true, Round: convert.SuffixRTE}, X: &Swz{X: &Ref{f}, Sel: "xy", T: cltype.Vec(cltype.Float, 2), Idx: []int{0, 1}}}},
		&Block{Pragma: true, Mode: round.RTZ, Stmts: []Stmt{
			&Assign{LHS: &Ref{f}, Op: "=", RHS: &Imp{T: f4, X: &Ref{i}}},
			&Assign{LHS: &Ref{f}, Op: "=", RHS: &Conv{Op: convert.Op{Dst: f4}, X: &VecLit{T: cltype.Vec(cltype.Int, 4), Elems: []Expr{&Ref{i}}}}},
		}},
	}}
	all := AvoidSatNaN | AvoidNarrowRTE | AvoidConstLogical | AvoidBitcastSign | AvoidRTZFold
	k := Print(p, Form{Kernel: true, Name: "k", Avoid: all}).Src
	for _, want := range []string{
		"float k_nz_float(float x) { return x != x ? (float)0 : x; }",
		"  char16 g1 = (as_char16(as_uint4(g0) ^ (uint)get_global_id(0)) || (char16)(((char)0)));",
		"  int g2 = convert_int4_sat_rte((float4)(k_nz_float((0x0p+00f / 0x0p+00f)))).s0;",
		"  uchar2 g3 = convert_uchar4_sat_rte((float4)(k_nz_float2(g0.xy), k_nz_float2(g0.xy))).s01;",
		"    g0 = convert_float_rtz((g2 ^ (int)get_global_id(0)));",
		"    g0 = convert_float4_rtz(((int4)(g2) ^ (int)get_global_id(0)));",
	} {
		if !strings.Contains(k, want) {
			t.Errorf("the rewritten kernel lacks %q:\n%s", want, k)
		}
	}
	src := Print(p, Form{Avoid: all}).Src
	if !strings.Contains(src, "const char16 g1 = (as_char16(g0) ||") || strings.Contains(src, "get_global_id") {
		t.Errorf("clconv's copy has a kernel-only rewrite:\n%s", src)
	}
	want, err := Interpret(Print(p, Form{}).Src, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Interpret(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if got[j].Value.Lanes != want[j].Value.Lanes {
			t.Errorf("%s: %v rewritten, %v as written", want[j].Name, got[j].Value, want[j].Value)
		}
	}
}

// TestMinimize minimises generated programs for a property clconv alone
// decides (a variable keeps its value), as the harness does for a device's
// finding, and checks that what remains is smaller, valid and still has it.
func TestMinimize(t *testing.T) {
	for i := range 4 {
		p, err := Make(ProgramSeed(11, i), Config{})
		if err != nil {
			t.Fatal(err)
		}
		globals := p.Globals()
		target := globals[len(globals)-1]
		vars, _ := Interpret(Print(p, Form{}).Src, nil)
		want := vars[len(vars)-1].Value
		has := func(q *Program) bool {
			vs, err := Interpret(Print(q, Form{}).Src, nil)
			if err != nil {
				return false
			}
			for _, v := range vs {
				if v.Name == target.Name && v.Value.Lanes == want.Lanes {
					return true
				}
			}
			return false
		}
		batch := func(qs []*Program) []bool {
			ok := make([]bool, len(qs))
			for j, q := range qs {
				ok[j] = has(q)
			}
			return ok
		}
		for name, m := range map[string]*Program{"Minimize": Minimize(p, batch), "MinimizeEach": MinimizeEach(p, has)} {
			if !has(m) || !valid(m) || Size(m) >= Size(p) {
				t.Errorf("program %d, %s: %d nodes, valid %v, keeps the value %v:\n%s", i, name, Size(m), valid(m), has(m), Print(m, Form{}).Src)
			}
			if len(m.Body) > len(p.Body)/2 {
				t.Errorf("program %d, %s: %d of %d statements left:\n%s", i, name, len(m.Body), len(p.Body), Print(m, Form{}).Src)
			}
		}
	}
}

// TestCompare checks the comparison of the interpreter's values with a
// kernel's bytes, and the NaN equality the classes rest on.
func TestCompare(t *testing.T) {
	src := "float4 g0 = (float4)(1.0f, NAN, -NAN, 2.0f); uint3 g1 = (uint3)(1u, 2u, 3u); double g2 = 0.0 / 0.0;"
	vars, err := Interpret(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	slots := []Slot{{"g0", cltype.Vec(cltype.Float, 4), 0}, {"g1", cltype.Vec(cltype.Uint, 3), 16}, {"g2", scalar(cltype.Double), 32}}
	out := []byte{
		0, 0, 0x80, 0x3f, 1, 0, 0xc0, 0x7f, 0, 0, 0xc0, 0xff, 0, 0, 0, 0x40, // 1, NaN payload 1, -NaN, 2
		1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 0xee, 0xee, 0xee, 0xee, // 1, 2, 4 and the hidden lane
		0, 0, 0, 0, 0, 0, 0xf8, 0xff, // -NaN
	}
	d, err := compare(vars, slots, out, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range d {
		got = append(got, x.String())
	}
	want := []string{
		"g0.s1 (float4): clconv 0x7fc00000, device 0x7fc00001",
		"g1.s2 (uint3): clconv 0x00000003, device 0x00000004",
		"g2 (double): clconv 0x7ff8000000000000, device 0xfff8000000000000",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if allNaN(d) {
		t.Error("allNaN with a uint difference")
	}
	if d, _ := compare(vars, slots, out, true); len(d) != 1 || d[0].Var != "g1" {
		t.Errorf("with NaNs equal: %v", d)
	}
	if _, err := compare(vars, slots[:2], out, false); err == nil {
		t.Error("no error for a missing slot")
	}
}

// FuzzMake holds Make to its contract for any seed: a program that clconv
// runs without an error or a warning, or an error, never a panic.
func FuzzMake(f *testing.F) {
	for _, s := range []uint64{0, 1, 19, 1 << 63} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		p, err := Make(seed, Config{Half: seed&1 == 0})
		if err != nil {
			return
		}
		src := Print(p, Form{}).Src
		var warns []string
		if _, err := Interpret(src, func(w *clc.Error) { warns = append(warns, w.Error()) }); err != nil || len(warns) > 0 {
			t.Fatalf("%v %q\n%s", err, warns, src)
		}
		Print(p, Form{Kernel: true, Name: "k", Loads: true, Canon: true, Avoid: AvoidSatNaN | AvoidNarrowRTE})
	})
}
