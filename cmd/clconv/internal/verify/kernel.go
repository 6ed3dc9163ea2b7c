package verify

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
)

// A program holds the code for some or all of the conversions from one
// source kind: one function per destination kind (a pair), pair_<dst>, and
// one kernel, pairs, that calls the pair's function given by its first
// argument. For conversion number K (its index in the program) a device
// function convK(ulong bits) -> ulong bits runs the conversion on one input
// and canonK makes its result canonical (ORACLES.md). Kernel pairs(pair,
// mode, op, in, base, wps, per, cnt, out) runs, for work-items g < cnt, the
// function of pair number pair (in the program's order) in one of the modes:
//
//	modeDigest: every conversion of the pair at once: the digest of per
//	            consecutive inputs starting at in[g / wps] + (g % wps) * per
//	            (the input indices generated on the device exactly as
//	            ORACLES.md defines them, the input and fmix(i + GOLDEN)
//	            computed once for all the pair's conversions), conversion k
//	            of the pair writing its sum to out[k*cnt + g]; from a
//	            floating source, its sum to out[2k*cnt + g] and the sum over
//	            the NaN inputs alone to out[(2k+1)*cnt + g] (digestParts);
//	modeRaw:    out[g] = the raw result bits of the pair's conversion op for
//	            input index base + g (the same code as modeList);
//	modeList:   out[k*cnt + g] = the raw result bits of the pair's conversion
//	            k for the input bit pattern in[g], every k;
//	modeVec:    the vector widths: op = n, cnt vectors of n elements loaded
//	            with vloadn from in, converted by every conversion of the
//	            pair (convert_<dst>n...) and stored with vstoren at
//	            out + k*cnt*n (3-vectors packed, as vload3 and vstore3 do);
//	modeReduce: (any pair) out[g] = the sum of in[g*per ... g*per+per-1]:
//	            the digest partial sums are reduced on the device and only a
//	            few per slice are read back.
//
// One kernel per program, the modes switched on uniform arguments outside
// the loops, and the pair functions not inlined into it (PAIRFN), because
// compiling kernels is what costs most on a CPU device: PoCL compiles each
// kernel of a program separately at its first launch (and again for every
// other work-group size, so every launch uses the same work-group size,
// localSize, with a guard g < cnt), at a fixed cost per kernel, and
// vectorises the loop over a work-group's work-items of each function the
// kernel inlines, which for the vector code costs more than everything else.
// A pair function is compiled once, as an ordinary function: the digest's
// loop over per inputs is vectorised as before (docs/VERIFY.md has the
// measurements).
const (
	modeDigest = 0
	modeRaw    = 1
	modeList   = 2
	modeVec    = 3
	modeReduce = 4
)

// Fault is a test-only device bug injected into the scalar kernel of one
// conversion, so that tests can show the checker finds and names wrong
// inputs. Kind "nan" makes every NaN input give 1 (like a _sat conversion
// that forgets NaN -> 0); kind "lsb" flips the lowest result bit of each
// input whose bit pattern ends in 0x5a.
type Fault struct {
	Key  string // "convert_int_sat float"
	Kind string // "nan" or "lsb"
}

// ParseFault parses "KEY:KIND", e.g. "convert_int_sat float:nan".
func ParseFault(s string) (*Fault, error) {
	key, kind, ok := strings.Cut(s, ":")
	if !ok || (kind != "nan" && kind != "lsb") {
		return nil, fmt.Errorf("fault %q: want \"CONVERSION SOURCE:nan\" or \"...:lsb\"", s)
	}
	f := strings.Fields(key)
	if len(f) != 2 {
		return nil, fmt.Errorf("fault %q: want \"CONVERSION SOURCE:KIND\"", s)
	}
	if _, err := digest.Parse(f[0], f[1]); err != nil {
		return nil, fmt.Errorf("fault %q: %v", s, err)
	}
	return &Fault{Key: f[0] + " " + f[1], Kind: kind}, nil
}

const kernelPrelude = `
#define GOLDEN    0x9E3779B97F4A7C15UL
#define SAMPLEC   0x632BE59BD9B4E019UL
#define CANON_NAN 0x7FF8000000000000UL
#define IMPL_DEF  0xDEADDEADDEADDEADUL

ulong fmix(ulong z) {
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9UL;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebUL;
	z ^= z >> 31;
	return z;
}

/* The digest's term for input index i with canonical result o is
   fmix(fmix(i + GOLDEN) ^ o); h = fmix(i + GOLDEN) is shared by a pair's conversions. */

/* A pair function is compiled as a function of its own, called by the
   kernel, rather than inlined into it: PoCL compiles it once (docs/VERIFY.md, Kernels). */
#if defined(__clang__) || defined(__GNUC__)
#define PAIRFN __attribute__((noinline))
#else
#define PAIRFN
#endif
`

// inputFunc is input_of: the input bit pattern of index i of a source kind (ORACLES.md).
func inputFunc(src cltype.Kind) string {
	switch {
	case src == cltype.Double:
		return `ulong input_of(ulong i) {
	ulong r = fmix(i * GOLDEN + SAMPLEC);
	ulong v = (r & 0x800FFFFFFFFFFFFFUL) | ((1019UL + ((r >> 52) & 0x7FUL) % 72UL) << 52);
	return (r & 3UL) == 0 ? r : v;
}
`
	case src.Bits() == 64:
		return `ulong input_of(ulong i) {
	ulong r = fmix(i * GOLDEN + SAMPLEC);
	ulong v = r >> ((r >> 2) & 63UL);
	if ((r >> 8) & 1UL)
		v = -v;
	return (r & 3UL) == 0 ? r : v;
}
`
	}
	return "ulong input_of(ulong i) { return i; }\n"
}

// unsignedName is the unsigned integer type of a kind's size.
func unsignedName(k cltype.Kind) string {
	return map[int]string{1: "uchar", 2: "ushort", 4: "uint", 8: "ulong"}[k.Size()]
}

// loadScalar declares x, the input of kind src from the bits ib. Without
// cl_khr_fp16 a half input is read by vload_half as a float (exactly).
func loadScalar(src cltype.Kind, caps Caps) string {
	u := unsignedName(src)
	switch {
	case src == cltype.Half && !caps.FP16:
		return "ushort hb = (ushort)ib;\n\tfloat x = vload_half(0, (const half *)&hb);"
	case src == cltype.Uchar || src == cltype.Ushort || src == cltype.Uint || src == cltype.Ulong:
		return fmt.Sprintf("%s x = (%s)ib;", src, src)
	case src.Bits() == 64:
		return fmt.Sprintf("%s x = as_%s(ib);", src, src)
	}
	return fmt.Sprintf("%s x = as_%s((%s)ib);", src, src, u)
}

// convScalar computes o, the result bits of c applied to x, zero-extended.
func convScalar(c digest.Conversion, caps Caps) string {
	dst := c.Op.Dst.Kind
	if dst == cltype.Half && !caps.FP16 {
		return fmt.Sprintf("ushort hr;\n\t%s(x, 0, (half *)&hr);\n\tulong o = hr;", vstoreHalf(c.Op.Round))
	}
	call := c.Op.Name() + "(x)"
	switch {
	case dst == cltype.Uchar || dst == cltype.Ushort || dst == cltype.Uint || dst == cltype.Ulong:
		return fmt.Sprintf("ulong o = %s;", call)
	case dst.Bits() == 64:
		return fmt.Sprintf("ulong o = as_ulong(%s);", call)
	}
	return fmt.Sprintf("ulong o = as_%s(%s);", unsignedName(dst), call)
}

// canonScalar is the body of canonK: the canonical result o of input ib.
func canonScalar(c digest.Conversion) string {
	dst := c.Op.Dst.Kind
	if dst.IsFloat() {
		_, mag, inf := floatLayout(dst)
		return fmt.Sprintf("return (o & %#xUL) > %#xUL ? CANON_NAN : o;", mag, inf)
	}
	if hasImplDefined(c) {
		sign, mag, inf := floatLayout(c.Src)
		hi, lo := implLimits(c)
		return fmt.Sprintf(`/* NaN, or rounded in %s out of range: implementation-defined */
	ulong m = ib & %#xUL;
	if (m > %#xUL || m >= ((ib & %#xUL) ? %#xUL : %#xUL))
		return IMPL_DEF;
	return o;`, c.Mode(), mag, inf, sign, lo, hi)
	}
	return "return o;"
}

// faultCode perturbs o for the injected fault, if it is for c.
func faultCode(c digest.Conversion, f *Fault) string {
	if f == nil || f.Key != Key(c) {
		return ""
	}
	switch f.Kind {
	case "nan":
		if !c.Src.IsFloat() {
			return ""
		}
		_, mag, inf := floatLayout(c.Src)
		return fmt.Sprintf("\n\tif ((ib & %#xUL) > %#xUL) o = 1; /* injected fault */", mag, inf)
	case "lsb":
		return "\n\tif ((ib & 0xffUL) == 0x5aUL) o ^= 1; /* injected fault */"
	}
	return ""
}

// programSource returns the OpenCL C source of the program for pairs: each
// a non-empty list of the conversions from one source kind to one
// destination kind, all from the same source and testable with caps, no two
// with the same destination. widths are the vector widths the pair kernels
// handle in modeVec (none: no vector code).
func programSource(pairs [][]digest.Conversion, caps Caps, fault *Fault, widths []int) string {
	src := pairs[0][0].Src
	var b strings.Builder
	dsts := make([]string, len(pairs))
	fp64 := src == cltype.Double
	half := src == cltype.Half
	for i, p := range pairs {
		dsts[i] = p[0].Op.Dst.Kind.String()
		fp64 = fp64 || p[0].Op.Dst.Kind == cltype.Double
		half = half || p[0].Op.Dst.Kind == cltype.Half
	}
	fmt.Fprintf(&b, "/* clconv verify: conversions from %s to %s */\n", src, strings.Join(dsts, ", "))
	if fp64 {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	if caps.FP16 && half {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n")
	}
	b.WriteString(kernelPrelude)
	b.WriteString(inputFunc(src))
	k := 0
	for _, p := range pairs {
		first := k
		for _, c := range p {
			fmt.Fprintf(&b, "\n/* %d: %s(%s)", k, c.Op.Name(), src)
			if p := PathOf(c, caps); p.Via != "" {
				fmt.Fprintf(&b, " through %s", p.Via)
			}
			b.WriteString(" */\n")
			fmt.Fprintf(&b, "ulong conv%d(ulong ib) {\n\t%s\n\t%s%s\n\treturn o;\n}\n", k,
				loadScalar(src, caps), convScalar(c, caps), faultCode(c, fault))
			fmt.Fprintf(&b, "ulong canon%d(ulong ib, ulong o) {\n\t%s\n}\n", k, canonScalar(c))
			k++
		}
		b.WriteString(pairFunction(p, first, caps, widths))
	}
	b.WriteString(mainKernel(pairs))
	return b.String()
}

// kernelName is the name of a program's kernel.
const kernelName = "pairs"

// pairFuncName is the name of the function of the pair of conversions to dst.
func pairFuncName(dst cltype.Kind) string { return "pair_" + dst.String() }

// mainKernel returns the program's kernel: the guard g < cnt, modeReduce,
// and a call of the function of pair number pair.
func mainKernel(pairs [][]digest.Conversion) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n__kernel void %s(uint pair, uint mode, uint op, __global const ulong *in, ulong base, uint wps, uint per, uint cnt, __global ulong *out) {\n", kernelName)
	b.WriteString("\tsize_t g = get_global_id(0);\n\tif (g >= cnt)\n\t\treturn;\n")
	fmt.Fprintf(&b, "\tif (mode == %d) {\n", modeReduce)
	b.WriteString("\t\t__global const ulong *p = in + g * per;\n\t\tulong s = 0;\n\t\tfor (uint j = 0; j < per; j++)\n\t\t\ts += p[j];\n\t\tout[g] = s;\n\t\treturn;\n\t}\n")
	b.WriteString("\tswitch (pair) {\n")
	for i, p := range pairs {
		fmt.Fprintf(&b, "\tcase %d:\n\t\t%s(g, mode, op, in, base, wps, per, cnt, out);\n\t\tbreak;\n", i, pairFuncName(p[0].Op.Dst.Kind))
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}

// digestParts is the number of sums modeDigest writes per conversion and
// work-item: for a floating source, the sum over every input and the sum over
// its NaN inputs alone, so that a slice whose digest differs only in its NaNs
// (a device that gets NaN wrong, like NVIDIA's under _sat) is narrowed by
// looking at its NaN inputs alone.
func digestParts(src cltype.Kind) int {
	if src.IsFloat() {
		return 2
	}
	return 1
}

// pairFunction returns the function of one pair whose conversions are
// numbered from first in the program.
func pairFunction(convs []digest.Conversion, first int, caps Caps, widths []int) string {
	src, dst := convs[0].Src, convs[0].Op.Dst.Kind
	var b strings.Builder
	fmt.Fprintf(&b, "\nPAIRFN void %s(size_t g, uint mode, uint op, __global const ulong *in, ulong base, uint wps, uint per, uint cnt, __global ulong *out) {\n", pairFuncName(dst))
	parts := digestParts(src)
	b.WriteString("\tif (mode == 0) {\n\t\tulong lo = in[g / wps] + (ulong)(g % wps) * per;\n\t\t")
	for k := range convs {
		if k > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "ulong s%d = 0;", k)
		if parts == 2 {
			fmt.Fprintf(&b, " ulong n%d = 0;", k)
		}
	}
	b.WriteString("\n\t\tfor (uint j = 0; j < per; j++) {\n\t\t\tulong i = lo + j;\n\t\t\tulong ib = input_of(i);\n\t\t\tulong h = fmix(i + GOLDEN);\n")
	if parts == 2 {
		_, mag, inf := floatLayout(src)
		fmt.Fprintf(&b, "\t\t\tulong isn = (ib & %#xUL) > %#xUL ? ~0UL : 0UL; /* NaN input */\n", mag, inf)
	}
	for k := range convs {
		if parts == 2 {
			fmt.Fprintf(&b, "\t\t\t{ ulong t = fmix(h ^ canon%d(ib, conv%d(ib))); s%d += t; n%d += t & isn; }\n", first+k, first+k, k, k)
			continue
		}
		fmt.Fprintf(&b, "\t\t\ts%d += fmix(h ^ canon%d(ib, conv%d(ib)));\n", k, first+k, first+k)
	}
	b.WriteString("\t\t}\n")
	for k := range convs {
		fmt.Fprintf(&b, "\t\tout[(size_t)%d * cnt + g] = s%d;\n", parts*k, k)
		if parts == 2 {
			fmt.Fprintf(&b, "\t\tout[(size_t)%d * cnt + g] = n%d;\n", parts*k+1, k)
		}
	}
	// modeRaw and modeList share one copy of the conversions' code: raw
	// writes conversion op's result alone, list every conversion's.
	b.WriteString("\t} else if (mode == 1 || mode == 2) {\n\t\tulong ib = mode == 1 ? input_of(base + g) : in[g];\n")
	for k := range convs {
		fmt.Fprintf(&b, "\t\tif (mode == 2 || op == %d)\n\t\t\tout[(mode == 2 ? (size_t)%d * cnt : 0) + g] = conv%d(ib);\n", k, k, first+k)
	}
	b.WriteString("\t}")
	if len(widths) > 0 {
		b.WriteString(" else {\n")
		b.WriteString(vecCode(convs, caps, widths))
		b.WriteString("\t}")
	}
	b.WriteString("\n}\n")
	return b.String()
}

// vecCode is modeVec of a pair kernel: for each conversion k of the pair,
// cnt vectors of op elements loaded with vloadn from in are converted with
// convert_<dst>n... and stored with vstoren at out + k*cnt*n (3-vectors
// packed, as vload3 and vstore3 do).
func vecCode(convs []digest.Conversion, caps Caps, widths []int) string {
	src, dst := convs[0].Src, convs[0].Op.Dst.Kind
	var b strings.Builder
	in := fmt.Sprintf("(__global const %s *)in", src)
	if src == cltype.Half && !caps.FP16 {
		in = "(__global const half *)in"
	}
	outT := dst.String()
	if dst == cltype.Half && !caps.FP16 {
		outT = "half"
	}
	fmt.Fprintf(&b, "\t\t__global %s *vout = (__global %s *)out;\n", outT, outT)
	b.WriteString("\t\tswitch (op) {\n")
	for _, n := range widths {
		fmt.Fprintf(&b, "\t\tcase %d: {\n", n)
		if src == cltype.Half && !caps.FP16 {
			fmt.Fprintf(&b, "\t\t\tfloat%d x = vload_half%d(g, %s);\n", n, n, in)
		} else {
			fmt.Fprintf(&b, "\t\t\t%s%d x = vload%d(g, %s);\n", src, n, n, in)
		}
		for k, c := range convs {
			at := fmt.Sprintf("vout + (size_t)%d * cnt * %d", k, n)
			if dst == cltype.Half && !caps.FP16 {
				st := "vstore_half" + fmt.Sprint(n)
				if c.Op.Round != convert.NoSuffix {
					st += "_" + c.Op.Round.String()
				}
				fmt.Fprintf(&b, "\t\t\t%s(x, g, %s);\n", st, at)
				continue
			}
			op := c.Op
			op.Dst.N = n
			fmt.Fprintf(&b, "\t\t\tvstore%d(%s(x), g, %s);\n", n, op.Name(), at)
		}
		b.WriteString("\t\t\tbreak;\n\t\t}\n")
	}
	b.WriteString("\t\t}\n")
	return b.String()
}
