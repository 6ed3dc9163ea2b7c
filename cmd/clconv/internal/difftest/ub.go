package difftest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clconv/clconv/clc"
)

// A generated program must compute nothing that OpenCL C leaves undefined,
// or a difference would prove nothing. The generator cannot see values, so
// Make runs each program in the interpreter, which reports every place
// where a run computes such a result (signed integer overflow, a
// float->integer conversion of NaN or of a value out of range without _sat,
// integer division by zero), and rewrites the node there into one that
// cannot be undefined, then runs it again, until the interpreter reports
// nothing. Shift counts are not among them: OpenCL C takes them modulo the
// width (6.3.j).

// maxFixRounds bounds the rewriting; a program that needs more is dropped.
const maxFixRounds = 100

// event is a place where a run computed something undefined.
type event struct {
	line, col int
	kind      eventKind
	msg       string
}

type eventKind uint8

const (
	overflow   eventKind = iota // signed integer overflow
	conversion                  // float->integer of NaN or out of range
	division                    // integer division by zero
)

// File is the file name clconv's copy of a program runs under.
const File = "prog.cl"

// Interpret runs clconv's copy of a program in process, as clconv run --bits
// does (an Interp with the default mode and step limit, Run, Vars), and
// returns its top-level variables.
func Interpret(src string, warn func(*clc.Error)) ([]clc.Var, error) {
	in := &clc.Interp{Warn: warn}
	err := in.Run(File, src)
	return in.Vars(), err
}

// undefined runs src and returns the events of its run; an error means that
// clconv rejected the program or stopped it for another reason (a bug of
// the generator).
func undefined(src string) ([]event, error) {
	var evs []event
	var bad error
	_, err := Interpret(src, func(w *clc.Error) {
		e := event{line: w.Pos.Line, col: w.Pos.Col, msg: w.Msg}
		switch {
		case strings.Contains(w.Msg, "signed integer overflow"):
			e.kind = overflow
		case strings.Contains(w.Msg, "NaN or out of range"):
			e.kind = conversion
		default:
			bad = fmt.Errorf("unexpected warning %v", w)
			return
		}
		evs = append(evs, e)
	})
	if bad != nil {
		return nil, bad
	}
	if err != nil {
		var e *clc.Error
		if errors.As(err, &e) && strings.Contains(e.Msg, "division by zero") {
			return append(evs, event{line: e.Pos.Line, col: e.Pos.Col, kind: division, msg: e.Msg}), nil
		}
		return nil, err
	}
	return evs, nil
}

// Make returns the program of the given seed, free of undefined behaviour.
func Make(seed uint64, cfg Config) (*Program, error) {
	p := Generate(seed, cfg)
	if err := FixUB(p); err != nil {
		return nil, fmt.Errorf("seed %#x: %w", seed, err)
	}
	return p, nil
}

// FixUB rewrites the nodes of p where a run computes something undefined
// until none does.
func FixUB(p *Program) error {
	for range maxFixRounds {
		pr := Print(p, Form{})
		evs, err := undefined(pr.Src)
		if err != nil {
			return fmt.Errorf("clconv rejects the program: %v\n%s", err, pr.Src)
		}
		if len(evs) == 0 {
			return nil
		}
		for _, e := range evs {
			fixed := false
			for _, n := range pr.anchors[[2]int{e.line, e.col}] {
				fixed = fix(n, e.kind) || fixed
			}
			if !fixed {
				return fmt.Errorf("no node to rewrite at %d:%d (%s)\n%s", e.line, e.col, e.msg, pr.Src)
			}
		}
	}
	return fmt.Errorf("still undefined after %d rewrites", maxFixRounds)
}

// fix rewrites n against an event of kind k and reports whether it could.
func fix(n any, k eventKind) bool {
	switch n := n.(type) {
	case *Bin:
		switch {
		case k == overflow && isArith(n.Op) && n.Fix < 2:
			n.Fix = 2
		case k == division && (n.Op == "/" || n.Op == "%") && n.Fix < 2:
			n.Fix++
		default:
			return false
		}
	case *Unary:
		if k != overflow || n.Op != "-" || n.Fix > 0 {
			return false
		}
		n.Fix = 1
	case *IncDec:
		if k != overflow || n.Fix > 0 {
			return false
		}
		n.Fix = 1
	case *Assign:
		switch {
		case k == conversion && n.Op != "=" && !n.Sat:
			n.Sat = true
		case k == overflow && n.Op != "=" && n.Fix < 2:
			n.Fix = 2
		case k == division && (n.Op == "/=" || n.Op == "%=") && n.Fix < 2:
			n.Fix++
		default:
			return false
		}
	case *Imp:
		if k != conversion || !n.X.Type().Kind.IsFloat() || n.T.Kind.IsFloat() || n.Sat {
			return false
		}
		n.Sat = true
	case *Cast:
		if k != conversion || !n.X.Type().Kind.IsFloat() || n.T.Kind.IsFloat() || n.Sat {
			return false
		}
		n.Sat = true
	case *Conv:
		if k != conversion || !n.X.Type().Kind.IsFloat() || n.Op.Dst.Kind.IsFloat() || n.Op.Sat {
			return false
		}
		n.Op.Sat = true
	default:
		return false
	}
	return true
}

func isArith(op string) bool {
	switch op {
	case "+", "-", "*", "/", "%":
		return true
	}
	return false
}
