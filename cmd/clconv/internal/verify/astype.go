package verify

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/clconv/clconv/cltype"
)

// AsTypeResult is the as_type check: as_<T>(x) must keep the bits when T and
// x's type have the same number of elements, and as_<T>3 of a 4-vector must
// give its first three elements. With different element counts the result
// is implementation-defined; the check reports whether the device
// reinterprets memory little-endian, as clconv does.
type AsTypeResult struct {
	SamePairs          int      `json:"same_count_pairs"`
	SameValues         int      `json:"same_count_values"`
	FourToThreePairs   int      `json:"four_to_three_pairs"`
	Failing            int      `json:"failing_pairs"`
	FourToThreeFailing int      `json:"failing_four_to_three_pairs"`
	OtherPairs         int      `json:"different_count_pairs"`
	OtherLittleEndian  int      `json:"different_count_little_endian"`
	Failures           []string `json:"failures,omitempty"`
	OtherExamples      []string `json:"different_count_examples,omitempty"`
	Skipped            string   `json:"skipped,omitempty"`
	Error              string   `json:"error,omitempty"`
}

// asTest is one as_<to>(from) operation.
type asTest struct {
	to, from cltype.Type
	kind     int // asSame, asFourToThree, asOther
	offset   int // byte offset of its results in the output buffer
}

const (
	asSame = iota
	asFourToThree
	asOther
)

// asElems is the number of values each as_type operation is applied to;
// asStride the bytes between consecutive input values (the largest type, long16).
const (
	asElems  = 256
	asStride = 128
)

// asTests lists the operations checked for the given kinds.
func asTests(kinds []cltype.Kind) []asTest {
	var tests []asTest
	add := func(to, from cltype.Type, kind int) {
		off := 0
		if n := len(tests); n > 0 {
			off = tests[n-1].offset + asElems*tests[n-1].to.Size()
			off = (off + asStride - 1) / asStride * asStride
		}
		tests = append(tests, asTest{to, from, kind, off})
	}
	for _, n := range cltype.Widths {
		for _, t := range kinds {
			for _, f := range kinds {
				if t != f && t.Size() == f.Size() {
					add(cltype.Vec(t, n), cltype.Vec(f, n), asSame)
				}
			}
		}
	}
	for _, t := range kinds {
		for _, f := range kinds {
			if t.Size() == f.Size() {
				add(cltype.Vec(t, 3), cltype.Vec(f, 4), asFourToThree)
			}
		}
	}
	for _, tn := range cltype.Widths {
		for _, fn := range cltype.Widths {
			if tn == fn || tn == 3 || fn == 3 {
				continue
			}
			for _, t := range kinds {
				for _, f := range kinds {
					if to, from := cltype.Vec(t, tn), cltype.Vec(f, fn); to.Size() == from.Size() {
						add(to, from, asOther)
					}
				}
			}
		}
	}
	return tests
}

func asName(t cltype.Type) string { return "as_" + t.String() }

// asSource returns the as_type kernel: work-item g applies each operation to
// the value at in + g*asStride and stores the result at out + offset + g*size.
func asSource(tests []asTest, caps Caps) string {
	var b strings.Builder
	b.WriteString("/* clconv verify: as_type */\n")
	if caps.FP64 {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	if caps.FP16 {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n")
	}
	b.WriteString("__kernel void astype(__global const uchar *in, __global uchar *out) {\n")
	fmt.Fprintf(&b, "\tsize_t g = get_global_id(0);\n\t__global const uchar *p = in + g * %d;\n", asStride)
	for _, t := range tests {
		fmt.Fprintf(&b, "\t*(__global %s *)(out + %d + g * %d) = %s(*(__global const %s *)p);\n",
			t.to, t.offset, t.to.Size(), asName(t.to), t.from)
	}
	b.WriteString("}\n")
	return b.String()
}

// asInput returns the input bytes: random, with NaNs of every floating
// format planted (quiet and signalling, with payloads: as_type must keep them).
func asInput() []byte {
	rng := rand.New(rand.NewPCG(0x61735f74797065, 1))
	in := make([]byte, asElems*asStride)
	for i := 0; i < len(in); i += 8 {
		w := rng.Uint64()
		switch (i / 8) % 8 {
		case 0:
			w = 0x7ff0000000000001 // double, signalling
		case 1:
			w = 0xfff8000000000123 // double, quiet, negative, payload
		case 2:
			w = 0xff8000027f800001 // two float signalling NaNs
		case 3:
			w = 0x7e01fd007c017c02 // four half NaNs
		}
		binary.LittleEndian.PutUint64(in[i:], w)
	}
	return in
}

// asTypeKinds returns the kinds the as_type check covers with caps and a
// note on those it skips.
func asTypeKinds(caps Caps) (kinds []cltype.Kind, skippedNote string) {
	var skipped []cltype.Kind
	for _, k := range cltype.Scalars {
		switch {
		case k == cltype.Half && !caps.FP16:
			skipped = append(skipped, k)
		case k == cltype.Double && !caps.FP64:
			skipped = append(skipped, k)
		default:
			kinds = append(kinds, k)
		}
	}
	if len(skipped) > 0 {
		var s []string
		for _, k := range skipped {
			if k == cltype.Half {
				s = append(s, "half (a value type only with cl_khr_fp16)")
			} else {
				s = append(s, "double (needs cl_khr_fp64)")
			}
		}
		skippedNote = "not checked: " + strings.Join(s, ", ")
	}
	return kinds, skippedNote
}

// asTypeProgram returns the as_type check's program (built with the others).
func asTypeProgram(caps Caps) *program {
	kinds, _ := asTypeKinds(caps)
	return &program{name: "as_type", source: asSource(asTests(kinds), caps), built: make(chan struct{})}
}

// asType runs the as_type check with its built program.
func (r *runner) asType(p *program) *AsTypeResult {
	res := &AsTypeResult{}
	kinds, skipped := asTypeKinds(r.caps)
	res.Skipped = skipped
	tests := asTests(kinds)
	last := tests[len(tests)-1]
	outSize := last.offset + asElems*last.to.Size()
	in := asInput()

	out, err := r.runAsType(p, in, outSize)
	if err != nil {
		res.Error = err.Error()
		r.rep.Errors = append(r.rep.Errors, "as_type check: "+err.Error())
		return res
	}
	for _, t := range tests {
		esz := t.to.Kind.Size()
		cmpLen := t.to.N * esz // a 3-vector's fourth storage element is not compared
		if t.kind == asOther {
			cmpLen = t.to.Size()
		}
		bad := -1
		for g := 0; g < asElems; g++ {
			want := in[g*asStride : g*asStride+cmpLen]
			got := out[t.offset+g*t.to.Size() : t.offset+g*t.to.Size()+cmpLen]
			if !bytes.Equal(want, got) {
				bad = g
				break
			}
		}
		desc := fmt.Sprintf("%s(%s)", asName(t.to), t.from)
		switch t.kind {
		case asSame:
			res.SamePairs++
			res.SameValues += asElems * t.to.N
		case asFourToThree:
			res.FourToThreePairs++
		case asOther:
			res.OtherPairs++
			if bad < 0 {
				res.OtherLittleEndian++
			} else if len(res.OtherExamples) < 5 {
				res.OtherExamples = append(res.OtherExamples, fmt.Sprintf("%s: value %d: input bytes %x, device %x (not little-endian memory order)",
					desc, bad, in[bad*asStride:bad*asStride+cmpLen], out[t.offset+bad*t.to.Size():t.offset+bad*t.to.Size()+cmpLen]))
			}
			continue
		}
		if bad < 0 {
			continue
		}
		res.Failing++
		rule := "as_type must keep every bit (NaN payloads included)"
		if t.kind == asFourToThree {
			res.FourToThreeFailing++
			rule = "as_<type>3 of a 4-vector must give its first three elements' bits"
		}
		if len(res.Failures) < 20 {
			res.Failures = append(res.Failures, fmt.Sprintf("%s: value %d: input bytes %x, device %x: %s",
				desc, bad, in[bad*asStride:bad*asStride+cmpLen], out[t.offset+bad*t.to.Size():t.offset+bad*t.to.Size()+cmpLen], rule))
		}
	}
	return res
}

func (r *runner) runAsType(p *program, in []byte, outSize int) ([]byte, error) {
	prog, err := r.wait(p)
	if err != nil {
		return nil, err
	}
	defer r.done(p)
	ctx := r.dev.ctx
	k, err := prog.Kernel("astype")
	if err != nil {
		return nil, err
	}
	defer k.Release()
	ib, err := ctx.NewBuffer(len(in))
	if err != nil {
		return nil, err
	}
	defer ib.Release()
	ob, err := ctx.NewBuffer(outSize)
	if err != nil {
		return nil, err
	}
	defer ob.Release()
	d := r.dev
	if err := d.timed(&d.transfer, func() error { return ctx.Write(ib, in) }); err != nil {
		return nil, err
	}
	if err := k.SetArgs(ib, ob); err != nil {
		return nil, err
	}
	if err := d.timed(&d.run, func() error { return d.launch(k, asElems) }); err != nil {
		return nil, err
	}
	out := make([]byte, outSize)
	return out, d.timed(&d.transfer, func() error { return ctx.Read(ob, out) })
}
