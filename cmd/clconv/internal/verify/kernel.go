package verify

import (
	"fmt"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/cmd/clconv/internal/digest"
	"github.com/clconv/clconv/convert"
)

// A pair program holds the kernels for the conversions from one source kind
// to one destination kind. For conversion number K (its index in the
// program's list) a device function convK(ulong bits) -> ulong bits runs the
// conversion on one input and canonK makes its result canonical
// (ORACLES.md). Kernel conv(op, mode, in, base, wps, per, out) runs
// conversion op in one of three modes:
//
//	modeDigest: per work-item, the digest of per consecutive inputs starting
//	            at in[g / wps] + (g % wps) * per, the input indices generated
//	            on the device exactly as ORACLES.md defines them;
//	modeRaw:    out[g] = the raw result bits for input index base + g;
//	modeList:   out[g] = the raw result bits for the input bit pattern in[g].
//
// One kernel for all, switching on the uniform arguments outside the loops,
// because compiling kernels is what costs most on a CPU device: PoCL
// compiles each kernel of a program separately, at its first launch (ten
// kernels of one conversion each took ten times as long as this one). The
// kernel vec runs every conversion of the program on n-element vectors
// (vloadn, convert_<dst>n..., vstoren) for the vector width checks.
const (
	modeDigest = 0
	modeRaw    = 1
	modeList   = 2
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

/* The digest's term for input index i with canonical result o. */
ulong term(ulong i, ulong o) { return fmix(fmix(i + GOLDEN) ^ o); }

/* The body of kernel conv for conversion K in each mode. */
#define CONV_CASE(K) \
	case K: \
		if (mode == 0) { \
			ulong lo = in[g / wps] + (ulong)(g % wps) * per; \
			ulong s = 0; \
			for (uint j = 0; j < per; j++) { \
				ulong i = lo + j; \
				ulong ib = input_of(i); \
				s += term(i, canon##K(ib, conv##K(ib))); \
			} \
			out[g] = s; \
		} else if (mode == 1) { \
			out[g] = conv##K(input_of(base + g)); \
		} else { \
			out[g] = conv##K(in[g]); \
		} \
		break;
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

// pairSource returns the OpenCL C source of the program for convs, which all
// have the same source and destination kinds and are testable with caps.
// widths are the vector widths kernel vec handles (none: no vec kernel).
func pairSource(convs []digest.Conversion, caps Caps, fault *Fault, widths []int) string {
	src, dst := convs[0].Src, convs[0].Op.Dst.Kind
	var b strings.Builder
	fmt.Fprintf(&b, "/* clconv verify: conversions from %s to %s */\n", src, dst)
	if src == cltype.Double || dst == cltype.Double {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	if caps.FP16 && (src == cltype.Half || dst == cltype.Half) {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n")
	}
	b.WriteString(kernelPrelude)
	b.WriteString(inputFunc(src))
	for k, c := range convs {
		fmt.Fprintf(&b, "\n/* %d: %s(%s)", k, c.Op.Name(), src)
		if p := PathOf(c, caps); p.Via != "" {
			fmt.Fprintf(&b, " through %s", p.Via)
		}
		b.WriteString(" */\n")
		fmt.Fprintf(&b, "ulong conv%d(ulong ib) {\n\t%s\n\t%s%s\n\treturn o;\n}\n", k,
			loadScalar(src, caps), convScalar(c, caps), faultCode(c, fault))
		fmt.Fprintf(&b, "ulong canon%d(ulong ib, ulong o) {\n\t%s\n}\n", k, canonScalar(c))
	}
	b.WriteString("\n__kernel void conv(uint op, uint mode, __global const ulong *in, ulong base, uint wps, uint per, __global ulong *out) {\n")
	b.WriteString("\tsize_t g = get_global_id(0);\n\tswitch (op) {\n")
	for k := range convs {
		fmt.Fprintf(&b, "\tCONV_CASE(%d)\n", k)
	}
	b.WriteString("\t}\n}\n")
	if len(widths) > 0 {
		b.WriteString(vecKernel(convs, caps, widths))
	}
	return b.String()
}

// vecKernel returns kernel vec(n, in, out, nvec): for each conversion K,
// nvec vectors of n elements loaded with vloadn from in are converted with
// convert_<dst>n... and stored with vstoren at out + K*nvec*n (3-vectors
// packed, as vload3 and vstore3 do).
func vecKernel(convs []digest.Conversion, caps Caps, widths []int) string {
	src, dst := convs[0].Src, convs[0].Op.Dst.Kind
	var b strings.Builder
	fmt.Fprintf(&b, "\n__kernel void vec(uint n, __global const %s *in, __global %s *out, uint nvec) {\n", src, dst)
	b.WriteString("\tsize_t g = get_global_id(0);\n\tswitch (n) {\n")
	for _, n := range widths {
		fmt.Fprintf(&b, "\tcase %d: {\n", n)
		if src == cltype.Half && !caps.FP16 {
			fmt.Fprintf(&b, "\t\tfloat%d x = vload_half%d(g, in);\n", n, n)
		} else {
			fmt.Fprintf(&b, "\t\t%s%d x = vload%d(g, in);\n", src, n, n)
		}
		for k, c := range convs {
			at := fmt.Sprintf("out + (size_t)%d * nvec * %d", k, n)
			if dst == cltype.Half && !caps.FP16 {
				st := "vstore_half" + fmt.Sprint(n)
				if c.Op.Round != convert.NoSuffix {
					st += "_" + c.Op.Round.String()
				}
				fmt.Fprintf(&b, "\t\t%s(x, g, %s);\n", st, at)
				continue
			}
			op := c.Op
			op.Dst.N = n
			fmt.Fprintf(&b, "\t\tvstore%d(%s(x), g, %s);\n", n, op.Name(), at)
		}
		b.WriteString("\t\tbreak;\n\t}\n")
	}
	b.WriteString("\t}\n}\n")
	return b.String()
}
