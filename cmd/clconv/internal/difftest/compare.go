package difftest

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/clconv/clconv/clc"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/digestspec"
	"github.com/clconv/clconv/value"
)

// Class is what comparing a program's run in clconv with its run on the
// device found.
type Class string

// The classes.
const (
	// Agree: every top-level variable has the same bits.
	Agree Class = "agree"
	// NaNBits: only the sign or payload of NaNs differs (the difference
	// disappears when every NaN is made canonical before as_ reads it and
	// NaNs compare equal). IEEE 754 and OpenCL C leave those bits open;
	// clconv's rules (docs/RULES.md) decide its own.
	NaNBits Class = "nan-bits"
	// Value: a difference that remains with canonical NaNs: a bug of
	// clconv or of the device, to be decided by hand against the spec.
	Value Class = "value"
	// BuildError: the device's compiler rejected a program clconv runs.
	BuildError Class = "build-error"
	// Crash: the child process died (or hung) building or running it.
	Crash Class = "crash"
	// RunError: the kernel could not be created or run.
	RunError Class = "run-error"
)

// Diff is one element whose bits differ.
type Diff struct {
	Var    string
	T      Type
	Lane   int
	Clconv uint64
	Device uint64
}

// String returns "g3.s2 (float4): clconv 0x7fc00000, device 0xffc00000".
func (d Diff) String() string {
	name := d.Var
	if d.T.N > 1 {
		name += fmt.Sprintf(".s%x", d.Lane)
	}
	k := d.T.Kind
	return fmt.Sprintf("%s (%v): clconv %s, device %s", name, d.T,
		value.Format(value.New(cltype.Scalar(k), d.Clconv), true)[len(k.String())+2:],
		value.Format(value.New(cltype.Scalar(k), d.Device), true)[len(k.String())+2:])
}

// compare returns the elements of the interpreter's variables whose bits
// differ from the kernel's output, which Print laid out as slots. With
// nanEqual, two NaNs of a floating kind are equal whatever their bits.
func compare(vars []clc.Var, slots []Slot, out []byte, nanEqual bool) ([]Diff, error) {
	if len(vars) != len(slots) {
		return nil, fmt.Errorf("clconv has %d top-level variables, the kernel stores %d", len(vars), len(slots))
	}
	var diffs []Diff
	for i, s := range slots {
		v := vars[i]
		if v.Name != s.Name || v.Type != s.T {
			return nil, fmt.Errorf("variable %d: clconv has %s %v, the kernel %s %v", i, v.Type, v.Name, s.T, s.Name)
		}
		k := s.T.Kind
		size := k.Size()
		for lane := range s.T.N {
			off := s.Offset + lane*size
			if off+size > len(out) {
				return nil, fmt.Errorf("output of %d bytes, %s needs %d", len(out), s.Name, off+size)
			}
			var b [8]byte
			copy(b[:], out[off:off+size])
			dev := binary.LittleEndian.Uint64(b[:])
			got := v.Value.Lanes[lane]
			if got == dev || nanEqual && digestspec.IsNaN(k, got) && digestspec.IsNaN(k, dev) {
				continue
			}
			diffs = append(diffs, Diff{Var: s.Name, T: s.T, Lane: lane, Clconv: got, Device: dev})
		}
	}
	return diffs, nil
}

// allNaN reports whether every difference is between two NaNs.
func allNaN(diffs []Diff) bool {
	for _, d := range diffs {
		if !digestspec.IsNaN(d.T.Kind, d.Clconv) || !digestspec.IsNaN(d.T.Kind, d.Device) {
			return false
		}
	}
	return true
}

func diffList(diffs []Diff, max int) string {
	var b strings.Builder
	for i, d := range diffs {
		if i == max {
			fmt.Fprintf(&b, "  ... and %d more\n", len(diffs)-max)
			break
		}
		b.WriteString("  " + d.String() + "\n")
	}
	return b.String()
}
