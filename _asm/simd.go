// Command _asm generates clconv's SIMD conversion kernels with avo:
// convert/zsimd_amd64.s, their Go declarations (convert/zsimd_amd64.go) and
// the per-pair hooks that the generated slice kernels of convert/zconv.go call
// (convert/zsimd_hooks_amd64.go, and convert/zsimd_hooks_other.go, whose hooks
// convert nothing, for purego builds and other architectures).
//
// Run it from this directory with go generate (see gen.go); it lives in its
// own module so that users of clconv never download avo.
//
// Every kernel converts n &^ (block-1) elements, returns that count and leaves
// the rest to the Go loop of the slice kernel. Two tiers are generated:
//
//   - AVX512 (F+BW; 512-bit registers): directed rounding is embedded in the
//     conversion instruction ({rn,rz,ru,rd}-sae), so every mode costs the same.
//   - AVX2 (+F16C): VROUNDPS with the mode in its immediate for float->integer,
//     VCVTPS2PH's immediate for float->half, and for int/uint/double->float a
//     round-to-nearest conversion corrected by one unit after an exact
//     comparison in binary64 (the method of package round).
//
// Neither tier reads or writes MXCSR: the only instructions that round by
// MXCSR are used in round-to-nearest, which is Go's (and the ABI's) fixed mode,
// or are exact. DAZ and FTZ are off in Go programs, so subnormals are kept.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Modes in the order of round.Mode: RTE, RTZ, RTP, RTN.
var modes = []string{"RTE", "RTZ", "RTP", "RTN"}

// roundImm is the rounding-control immediate of VROUNDPS and VCVTPS2PH for
// each mode (00 nearest, 01 down, 10 up, 11 toward zero).
var roundImm = map[string]uint8{"RTE": 0, "RTZ": 3, "RTP": 2, "RTN": 1}

type op = func(...Op)

// Embedded-rounding forms, by mode.
var (
	cvtps2dqZ  = map[string]func(a, k, b Op){"RTE": VCVTPS2DQ_RN_SAE_Z, "RTZ": VCVTPS2DQ_RZ_SAE_Z, "RTP": VCVTPS2DQ_RU_SAE_Z, "RTN": VCVTPS2DQ_RD_SAE_Z}
	cvtps2dq   = map[string]op{"RTE": VCVTPS2DQ_RN_SAE, "RTZ": VCVTPS2DQ_RZ_SAE, "RTP": VCVTPS2DQ_RU_SAE, "RTN": VCVTPS2DQ_RD_SAE}
	cvtps2udq  = map[string]func(a, k, b Op){"RTE": VCVTPS2UDQ_RN_SAE_Z, "RTZ": VCVTPS2UDQ_RZ_SAE_Z, "RTP": VCVTPS2UDQ_RU_SAE_Z, "RTN": VCVTPS2UDQ_RD_SAE_Z}
	cvtdq2ps   = map[string]op{"RTE": VCVTDQ2PS_RN_SAE, "RTZ": VCVTDQ2PS_RZ_SAE, "RTP": VCVTDQ2PS_RU_SAE, "RTN": VCVTDQ2PS_RD_SAE}
	cvtudq2ps  = map[string]op{"RTE": VCVTUDQ2PS_RN_SAE, "RTZ": VCVTUDQ2PS_RZ_SAE, "RTP": VCVTUDQ2PS_RU_SAE, "RTN": VCVTUDQ2PS_RD_SAE}
	cvtpd2dqZ  = map[string]func(a, k, b Op){"RTE": VCVTPD2DQ_RN_SAE_Z, "RTZ": VCVTPD2DQ_RZ_SAE_Z, "RTP": VCVTPD2DQ_RU_SAE_Z, "RTN": VCVTPD2DQ_RD_SAE_Z}
	cvtpd2udqZ = map[string]func(a, k, b Op){"RTE": VCVTPD2UDQ_RN_SAE_Z, "RTZ": VCVTPD2UDQ_RZ_SAE_Z, "RTP": VCVTPD2UDQ_RU_SAE_Z, "RTN": VCVTPD2UDQ_RD_SAE_Z}
	cvtqq2ps   = map[string]op{"RTE": VCVTQQ2PS_RN_SAE, "RTZ": VCVTQQ2PS_RZ_SAE, "RTP": VCVTQQ2PS_RU_SAE, "RTN": VCVTQQ2PS_RD_SAE}
	cvtqq2pd   = map[string]op{"RTE": VCVTQQ2PD_RN_SAE, "RTZ": VCVTQQ2PD_RZ_SAE, "RTP": VCVTQQ2PD_RU_SAE, "RTN": VCVTQQ2PD_RD_SAE}
	cvtuqq2ps  = map[string]op{"RTE": VCVTUQQ2PS_RN_SAE, "RTZ": VCVTUQQ2PS_RZ_SAE, "RTP": VCVTUQQ2PS_RU_SAE, "RTN": VCVTUQQ2PS_RD_SAE}
	cvtuqq2pd  = map[string]op{"RTE": VCVTUQQ2PD_RN_SAE, "RTZ": VCVTUQQ2PD_RZ_SAE, "RTP": VCVTUQQ2PD_RU_SAE, "RTN": VCVTUQQ2PD_RD_SAE}
	cvtpd2ps   = map[string]op{"RTE": VCVTPD2PS_RN_SAE, "RTZ": VCVTPD2PS_RZ_SAE, "RTP": VCVTPD2PS_RU_SAE, "RTN": VCVTPD2PS_RD_SAE}
)

// Comparison predicates of VCMPPS/VCMPPD (ordered, quiet: false for NaN).
const (
	cmpLT  = 0x11 // LT_OQ
	cmpORD = 0x07 // ORD_Q
	cmpGE  = 0x1d // GE_OQ
	cmpGT  = 0x1e // GT_OQ
)

// kind is one OpenCL scalar type as the kernels see it.
type kind struct {
	name   string // name fragment: "Uchar"
	goT    string // Go element type in the hooks
	size   int
	signed bool
	hi     float32 // MAX, for 8- and 16-bit types
}

var (
	allKinds = []kind{kChar, kUchar, kShort, kUshort, kInt, kUint, kLong, kUlong, kHalf, kFloat, kDouble}

	kChar   = kind{"Char", "int8", 1, true, 127}
	kUchar  = kind{"Uchar", "uint8", 1, false, 255}
	kShort  = kind{"Short", "int16", 2, true, 32767}
	kUshort = kind{"Ushort", "uint16", 2, false, 65535}
	kInt    = kind{"Int", "int32", 4, true, 0}
	kUint   = kind{"Uint", "uint32", 4, false, 0}
	kHalf   = kind{"Half", "half.Half", 2, true, 0}
	kFloat  = kind{"Float", "float32", 4, true, 0}
	kDouble = kind{"Double", "float64", 8, true, 0}
	kLong   = kind{"Long", "int64", 8, true, 0}
	kUlong  = kind{"Ulong", "uint64", 8, false, 0}
)

// pair is one hot conversion: its kernels per tier and variant. A variant is
// a rounding mode (indexed like round.Mode), a saturation (0 wrap, 1 sat) or,
// for exact conversions, the single variant 0.
type pair struct {
	s, d     kind
	variants []string
	bySat    bool
	block    map[string]int // elements per loop iteration, per tier
	gen      map[string]func(variant string, in, out func(int) Mem)
	setup    map[string]func(variant string)
	plan     string // the plan's steps, for planned pairs (plan.go)
}

func (p *pair) name() string { return p.s.name + "To" + p.d.name }

func kernelName(p *pair, tier, variant string) string {
	return scalarName(p) + variant + tier
}

// scalarName is the name of the pair's generated Go scalar function.
func scalarName(p *pair) string {
	return strings.ToLower(p.s.name[:1]) + p.s.name[1:] + "To" + p.d.name
}

// nt is set while the streaming kernels are generated: their stores are
// non-temporal (VMOVNTDQ), which write whole lines to memory without first
// reading them into the cache (a third less traffic for float->int), and
// need dst aligned to 64 bytes. The hooks use them for destinations of at
// least simdStreamBytes, as memmove does for large copies, after converting
// the unaligned head in Go.
var nt bool

// curTier is the tier of the kernel being generated ("AVX2" or "AVX512"),
// for the store helpers: AVX2's streaming stores combine at most 32 bytes.
var curTier string

// streamDist is how far ahead of the block the streaming kernels prefetch
// their source, into L2 (PREFETCHT1). On a quiet Intel Xeon (the GPU
// machine, one core, 8 Mi elements, against copy in the same run) a
// double -> uchar loop reached 0.77-0.80x copy without it and 1.09-1.13x
// with PREFETCHT1 4 KiB ahead (PREFETCHT2 the same, PREFETCHT0 2 KiB
// 0.95-1.06x): with a few instructions per loaded line the out-of-order
// window holds too few loads to keep memory busy. PREFETCHNTA is a clear
// loss there (0.50x for the bare loop, float->uchar 0.33x against 1.15x):
// it loads into L1 only, and the hardware prefetchers stop helping.
//
// On this project's AMD EPYC (Zen 5) the same PREFETCHT1 costs the
// narrowings from double up to a quarter of their speed from memory
// (double -> char 35 GB/s with it, 44.5 without, 48 with PREFETCHT0; copy
// 52), where the Xeon loses up to a quarter with PREFETCHT0 instead, and
// where the kernels from 2-byte sources (half -> char) lose a tenth without
// it (issue 32, docs/PERFORMANCE.md). So the distance is a variable of the
// kernels from 8-byte sources take their distance from a variable of the
// package, simdPrefetchDist8, loaded once per call: streamDist by default,
// 0 on AMD's processors, where the prefetches then name the lines the loop
// is loading and do nothing. The other kernels keep streamDist as a
// constant displacement.
var streamDist = 4096

// store writes vector register v to m: a plain unaligned store, or a
// non-temporal one in the streaming kernels.
func store(v reg.VecVirtual, m Mem) {
	if nt {
		VMOVNTDQ(v, m)
		return
	}
	switch v.Size() {
	case 64:
		VMOVDQU64(v, m)
	default:
		VMOVDQU(v, m)
	}
}

// kernel emits one function: a loop over n &^ (block-1) elements.
func kernel(p *pair, tier, variant string) {
	block := p.block[tier]
	curTier = tier
	name := kernelName(p, tier, variant)
	if nt {
		name += "NT"
	}
	TEXT(name, NOSPLIT, "func(dst, src *byte, n int) int")
	what := ""
	if nt {
		what = " with non-temporal stores to a 64-byte aligned dst"
	}
	Doc(fmt.Sprintf("%s converts the first n &^ %d elements (%s %s)%s and returns their count.", name, block-1, strings.ToLower(p.s.name)+"->"+strings.ToLower(p.d.name), variant, what))
	if p.plan != "" {
		Comment("Plan: " + p.plan + ".")
	}
	Pragma("noescape")
	dst := Load(Param("dst"), GP64())
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	i := GP64()
	XORQ(i, i)
	ANDQ(I32(-int32(block)), n)
	Store(n, ReturnIndex(0))
	JZ(LabelRef("done"))
	if f := p.setup[tier]; f != nil {
		f(variant)
	}
	var pf reg.GPVirtual
	if nt && p.s.size == 8 {
		// From 8-byte sources the prefetch base is src plus
		// simdPrefetchDist8, a variable of the package (streamDist, or 0
		// where the prefetches then name the lines being loaded and do
		// nothing); the loop's instructions are the same either way.
		pf = GP64()
		MOVQ(NewDataAddr(Symbol{Name: "·simdPrefetchDist8"}, 0), pf)
		ADDQ(src, pf)
	}
	Label("loop")
	in := func(disp int) Mem { return Mem{Base: src, Index: i, Scale: uint8(p.s.size), Disp: disp} }
	if nt {
		for off := 0; off < block*p.s.size; off += 64 {
			if pf != nil {
				PREFETCHT1(Mem{Base: pf, Index: i, Scale: uint8(p.s.size), Disp: off})
			} else {
				PREFETCHT1(in(off + streamDist))
			}
		}
	}
	out := func(disp int) Mem { return Mem{Base: dst, Index: i, Scale: uint8(p.d.size), Disp: disp} }
	p.gen[tier](variant, in, out)
	ADDQ(U32(block), i)
	CMPQ(i, n)
	JB(LabelRef("loop"))
	Label("done")
	if nt {
		SFENCE() // order the streaming stores before any later store
	}
	VZEROUPPER()
	RET()
}

// Constants. The kernels keep them in registers, broadcast before the loop.

// f32 is the bit pattern of x, for bcst.
func f32(x float32) uint64 { return uint64(math.Float32bits(x)) }

// bcst broadcasts v, an element of elem bytes (4 or 8), to every lane of a
// new register of width bytes (16, 32 or 64). AVX-512 broadcasts from a
// general register; the narrower forms go through an xmm.
func bcst(v uint64, elem, width int) reg.VecVirtual {
	var r reg.GPVirtual
	if elem == 4 {
		r = GP32()
		MOVL(U32(uint32(v)), r)
	} else {
		r = GP64()
		MOVQ(U64(v), r)
	}
	broadcast := VPBROADCASTD
	if elem == 8 {
		broadcast = VPBROADCASTQ
	}
	if width == 64 {
		z := ZMM()
		broadcast(r, z)
		return z
	}
	x := XMM()
	if elem == 4 {
		VMOVD(r, x)
	} else {
		VMOVQ(r, x)
	}
	if width == 16 {
		broadcast(x, x)
		return x
	}
	y := YMM()
	broadcast(x, y)
	return y
}

// Permutations that put the lanes of VPACK* results back in element order.
var (
	permB512 Mem // dwords: after two pack steps on four zmm
	permQ512 Mem // qwords: after one pack step on two zmm
	permB256 Mem // dwords: after two pack steps on four ymm
)

func permData() {
	permB512 = GLOBL("permB512", RODATA|NOPTR)
	for k, v := range []uint32{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15} {
		DATA(4*k, U32(v))
	}
	permQ512 = GLOBL("permQ512", RODATA|NOPTR)
	for k, v := range []uint64{0, 2, 4, 6, 1, 3, 5, 7} {
		DATA(8*k, U64(v))
	}
	permB256 = GLOBL("permB256", RODATA|NOPTR)
	for k, v := range []uint32{0, 4, 1, 5, 2, 6, 3, 7} {
		DATA(4*k, U32(v))
	}
}

// Registers set up before the loop, shared by a kernel's setup and body.
var c struct {
	hi, perm, zero, c31, c32, cmax, sign, abs, c31d, mask, fix reg.VecVirtual
}

// narrow packs dword vectors into d's elements, in element order, and
// returns the result: four vectors to bytes (a dword-to-word pack, a
// word-to-byte pack, then VPERMD by c.perm), two to words (one pack, then a
// qword permutation: c.perm in zmm, an immediate in ymm). The signed packs
// saturate to the signed range, the unsigned ones to the unsigned range;
// sw and sb choose them for the word and the byte step.
func narrow(x []reg.VecVirtual, d kind, sw, sb bool) reg.VecVirtual {
	vec := YMM
	if x[0].Size() == 64 {
		vec = ZMM
	}
	packW, packB := VPACKUSDW, VPACKUSWB
	if sw {
		packW = VPACKSSDW
	}
	if sb {
		packB = VPACKSSWB
	}
	o, a := vec(), vec()
	packW(x[1], x[0], a)
	if d.size == 1 {
		b, w := vec(), vec()
		packW(x[3], x[2], b)
		packB(b, a, w)
		VPERMD(w, c.perm, o)
	} else if a.Size() == 64 {
		VPERMQ(a, c.perm, o)
	} else {
		VPERMQ(U8(0xd8), a, o)
	}
	return o
}

// fixNaNToZero is the VFIXUPIMMPS table that maps QNaN and SNaN (token
// classes 0 and 1) to +0 (response 8) and every other class to the source
// unchanged (response 1).
const fixNaNToZero = 0x11111188

// float -> char, uchar, short, ushort, int, uint.

func floatToIntPair(d kind) *pair {
	p := &pair{s: kFloat, d: d, variants: modes, block: map[string]int{}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	switch d.size {
	case 1:
		p.block["AVX512"], p.block["AVX2"] = 64, 32
	case 2:
		p.block["AVX512"], p.block["AVX2"] = 32, 16
	default:
		p.block["AVX512"], p.block["AVX2"] = 32, 16
	}
	p.setup["AVX512"] = func(string) {
		switch d.size {
		case 1:
			c.hi = bcst(f32(d.hi), 4, 64)
			c.perm = ZMM()
			VMOVDQU32(permB512, c.perm)
		case 2:
			c.hi = bcst(f32(d.hi), 4, 64)
			c.perm = ZMM()
			VMOVDQU64(permQ512, c.perm)
		}
		if d.signed && d.size <= 2 {
			c.fix = bcst(fixNaNToZero, 4, 64)
		}
		switch d.size {
		case 1, 2:
		default:
			if d.signed {
				c.c31 = bcst(f32(0x1p31), 4, 64)
				c.cmax = bcst(math.MaxInt32, 4, 64)
			} else {
				c.zero = ZMM()
				VPXORD(c.zero, c.zero, c.zero)
			}
		}
	}
	// Clamping above in binary32 before converting is exact because MAX is an
	// integer: rounding is monotonic, so clamp-then-round equals
	// round-then-clamp. VMINPS(x, hi) with hi first returns x when x is NaN;
	// the NaN then converts to the integer indefinite 0x80000000, which the
	// signed packs saturate to MIN and the unsigned ones to 0. For char and
	// short VFIXUPIMMPS first turns a NaN into +0 (one instruction on the
	// loaded value; a compare into a mask register and a masked conversion
	// measured 10% slower from memory); for int the ordered mask zeroes it.
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		switch d.size {
		case 1, 2:
			nv := 4 / d.size
			v := make([]reg.VecVirtual, nv)
			for j := range v {
				t := ZMM()
				v[j] = ZMM()
				if d.signed {
					VMINPS(in(64*j), c.hi, t)
					VFIXUPIMMPS(U8(0), c.fix, t, t) // NaN -> +0
					cvtps2dq[m](t, v[j])
				} else {
					VMINPS(in(64*j), c.hi, t)
					cvtps2dq[m](t, v[j])
				}
			}
			// Bytes: the signed word pack keeps the sign for the byte pack.
			store(narrow(v, d, d.signed || d.size == 1, d.signed), out(0))
		default:
			for j := 0; j < 2; j++ {
				x, v, k := ZMM(), ZMM(), K()
				VMOVUPS(in(64*j), x)
				if d.signed {
					// NaN -> 0 by the ordered mask; x >= 2^31 gave the
					// indefinite 0x80000000 and becomes MAX; below -2^31 the
					// indefinite is already MIN.
					VCMPPS(U8(cmpORD), x, x, k)
					cvtps2dqZ[m](x, k, v)
					kb := K()
					VCMPPS(U8(cmpGE), c.c31, x, kb)
					VMOVDQA32(c.cmax, kb, v)
				} else {
					// Only x > 0 converts (NaN and negatives give 0); above
					// the range VCVTPS2UDQ gives 0xffffffff, which is MAX.
					VCMPPS(U8(cmpLT), x, c.zero, k)
					cvtps2udq[m](x, k, v)
				}
				store(v, out(64*j))
			}
		}
	}
	p.setup["AVX2"] = func(string) {
		switch d.size {
		case 1:
			c.hi = bcst(f32(d.hi), 4, 32)
			c.perm = YMM()
			VMOVDQU(permB256, c.perm)
		case 2:
			c.hi = bcst(f32(d.hi), 4, 32)
		default:
			c.c31 = bcst(f32(0x1p31), 4, 32)
			if !d.signed {
				c.c32 = bcst(f32(0x1p32), 4, 32)
				c.sign = bcst(0x80000000, 4, 32)
				c.zero = YMM()
				VPXOR(c.zero, c.zero, c.zero)
			}
		}
	}
	// VROUNDPS rounds exactly in the immediate's mode (bit 3 suppresses the
	// inexact exception); the integral result then converts exactly with
	// truncation.
	p.gen["AVX2"] = func(m string, in, out func(int) Mem) {
		imm := U8(roundImm[m] | 8)
		switch d.size {
		case 1, 2:
			nv := 4 / d.size
			v := make([]reg.VecVirtual, nv)
			for j := range v {
				r, t := YMM(), YMM()
				v[j] = YMM()
				VROUNDPS(imm, in(32*j), r)
				VMINPS(r, c.hi, t)
				if d.signed {
					ord := YMM()
					VCMPPS(U8(cmpORD), r, r, ord)
					VANDPS(ord, t, t)
				}
				VCVTTPS2DQ(t, v[j])
			}
			store(narrow(v, d, d.signed || d.size == 1, d.signed), out(0))
		default:
			for j := 0; j < 2; j++ {
				r, v := YMM(), YMM()
				VROUNDPS(imm, in(32*j), r)
				if d.signed {
					// Out of range and NaN give 0x80000000: flip it to MAX
					// where r >= 2^31, clear it where r is NaN.
					VCVTTPS2DQ(r, v)
					big, ord := YMM(), YMM()
					VCMPPS(U8(cmpGE), c.c31, r, big)
					VPXOR(big, v, v)
					VCMPPS(U8(cmpORD), r, r, ord)
					VPAND(ord, v, v)
				} else {
					// t = max(r, 0) (NaN -> 0); values >= 2^31 convert
					// after subtracting 2^31 (exact) and get the top bit
					// back; values >= 2^32 become MAX.
					t, hi, big, sub := YMM(), YMM(), YMM(), YMM()
					VMAXPS(c.zero, r, t)
					VCMPPS(U8(cmpGE), c.c31, t, hi)
					VCMPPS(U8(cmpGE), c.c32, t, big)
					VANDPS(hi, c.c31, sub)
					VSUBPS(sub, t, t)
					VCVTTPS2DQ(t, v)
					VANDPS(hi, c.sign, sub)
					VPXOR(sub, v, v)
					VPOR(big, v, v)
				}
				store(v, out(32*j))
			}
		}
	}
	return p
}

// d2f rounds four binary64 values to binary32 in mode m (AVX2): the
// hardware's round-to-nearest result, stepped by one unit of its bit pattern
// where the exact comparison of its widened value with the source says the
// mode rounds the other way (as permode.F64ToF32RTZ and friends do).
func d2f(d reg.VecVirtual, m string) reg.VecVirtual {
	f := XMM()
	VCVTPD2PSY(d, f)
	if m == "RTE" {
		return f
	}
	b, mk := YMM(), YMM()
	VCVTPS2PD(f, b)
	switch m {
	case "RTZ":
		ab, ad := YMM(), YMM()
		VANDPD(c.abs, b, ab)
		VANDPD(c.abs, d, ad)
		VCMPPD(U8(cmpGT), ad, ab, mk) // |f| > |x|
	case "RTP":
		VCMPPD(U8(cmpLT), d, b, mk) // f < x
	case "RTN":
		VCMPPD(U8(cmpGT), d, b, mk) // f > x
	}
	hi, m32 := XMM(), XMM()
	VEXTRACTF128(U8(1), mk, hi)
	VSHUFPS(U8(0x88), hi, mk.AsX(), m32) // the low halves of the four 64-bit masks
	if m == "RTZ" {
		VPADDD(m32, f, f) // toward zero: one step down in magnitude
		return f
	}
	// A step toward +inf is +1 on a positive pattern and -1 on a negative
	// one: delta = (one ^ s) - s with s the sign mask. rtn steps the other way.
	one, s := XMM(), XMM()
	VPSRLD(U8(31), m32, one)
	VPSRAD(U8(31), f, s)
	VPXOR(s, one, one)
	VPSUBD(s, one, one)
	if m == "RTP" {
		VPADDD(one, f, f)
	} else {
		VPSUBD(one, f, f)
	}
	return f
}

func d2fSetup(m string) {
	if m == "RTZ" {
		c.abs = bcst(0x7fffffffffffffff, 8, 32)
	}
}

// int, uint -> float.
func intToFloatPair(s kind) *pair {
	p := &pair{s: s, d: kFloat, variants: modes, block: map[string]int{"AVX512": 32, "AVX2": 16}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x, f := ZMM(), ZMM()
			VMOVDQU32(in(64*j), x)
			if s.signed {
				cvtdq2ps[m](x, f)
			} else {
				cvtudq2ps[m](x, f)
			}
			store(f, out(64*j))
		}
	}
	p.setup["AVX2"] = func(m string) {
		d2fSetup(m)
		if !s.signed {
			c.sign = bcst(0x80000000, 4, 16)
			c.c31d = bcst(math.Float64bits(0x1p31), 8, 32)
		}
	}
	// Every int and uint is exact in binary64, so rounding it once to
	// binary32 is the correctly rounded conversion. VCVTDQ2PS rounds to
	// nearest directly.
	p.gen["AVX2"] = func(m string, in, out func(int) Mem) {
		if s.signed && m == "RTE" {
			for j := 0; j < 2; j++ {
				f := YMM()
				VCVTDQ2PS(in(32*j), f)
				store(f, out(32*j))
			}
			return
		}
		for h := 0; h < 4; h++ {
			d := YMM()
			if s.signed {
				VCVTDQ2PD(in(16*h), d)
			} else {
				// u = (u ^ 2^31) as a signed value, plus 2^31.
				x := XMM()
				VPXOR(in(16*h), c.sign, x)
				VCVTDQ2PD(x, d)
				VADDPD(c.c31d, d, d)
			}
			store(d2f(d, m), out(16*h))
		}
	}
	return p
}

// double -> float. VCVTPD2PS keeps the sign and the high payload bits of a NaN
// and sets its quiet bit, which is clconv's rule.
func doubleToFloatPair() *pair {
	p := &pair{s: kDouble, d: kFloat, variants: modes, block: map[string]int{"AVX512": 16, "AVX2": 8}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x, f := ZMM(), YMM()
			VMOVUPD(in(64*j), x)
			cvtpd2ps[m](x, f)
			store(f, out(32*j))
		}
	}
	p.setup["AVX2"] = d2fSetup
	p.gen["AVX2"] = func(m string, in, out func(int) Mem) {
		for h := 0; h < 2; h++ {
			d := YMM()
			VMOVUPD(in(32*h), d)
			store(d2f(d, m), out(16*h))
		}
	}
	return p
}

// double -> int, uint. Clamping above in binary64 before rounding is exact
// because MAX is an integer (rounding is monotonic), and it keeps values
// just below MAX + 1 that round up to it (2147483647.5 in rtp) in range.
// Below the range the conversions give the integer indefinite, which is MIN
// for int; uint converts only where 0 < x, so NaN, -0 and negatives give 0.
func doubleToIntPair(d kind) *pair {
	p := &pair{s: kDouble, d: d, variants: modes, block: map[string]int{"AVX512": 16, "AVX2": 8}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	p.setup["AVX512"] = func(string) {
		if d.signed {
			c.hi = bcst(math.Float64bits(math.MaxInt32), 8, 64)
		} else {
			c.zero = ZMM()
			VPXORD(c.zero, c.zero, c.zero)
		}
	}
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x, v, k := ZMM(), YMM(), K()
			if d.signed {
				// VMINPD with hi first returns x when x is NaN; the
				// ordered mask then gives it 0.
				VMINPD(in(64*j), c.hi, x)
				VCMPPD(U8(cmpORD), x, x, k)
				cvtpd2dqZ[m](x, k, v)
			} else {
				// Above the range VCVTPD2UDQ gives 0xffffffff, which is MAX.
				VMOVUPD(in(64*j), x)
				VCMPPD(U8(cmpLT), x, c.zero, k)
				cvtpd2udqZ[m](x, k, v)
			}
			store(v, out(32*j))
		}
	}
	p.setup["AVX2"] = func(string) {
		if d.signed {
			c.hi = bcst(math.Float64bits(math.MaxInt32), 8, 32)
		} else {
			c.hi = bcst(math.Float64bits(math.MaxUint32), 8, 32)
			c.c31d = bcst(math.Float64bits(0x1p31), 8, 32)
			c.sign = bcst(0x80000000, 4, 16)
			c.zero = YMM()
			VPXOR(c.zero, c.zero, c.zero)
		}
	}
	// VROUNDPD rounds exactly in the immediate's mode; the clamped integral
	// value then converts exactly with truncation.
	p.gen["AVX2"] = func(m string, in, out func(int) Mem) {
		imm := U8(roundImm[m] | 8)
		for h := 0; h < 2; h++ {
			r, t, v := YMM(), YMM(), XMM()
			VROUNDPD(imm, in(32*h), r)
			if d.signed {
				// t = min(r, MAX), NaN cleared to +0 by the ordered mask;
				// below -2^31 the indefinite 0x80000000 is already MIN.
				ord := YMM()
				VMINPD(r, c.hi, t)
				VCMPPD(U8(cmpORD), r, r, ord)
				VANDPD(ord, t, t)
				VCVTTPD2DQY(t, v)
			} else {
				// t = min(max(r, 0), MAX) (NaN -> 0), converted as the
				// signed t - 2^31 (exact) with the top bit flipped back.
				VMAXPD(c.zero, r, t)
				VMINPD(t, c.hi, t)
				VSUBPD(c.c31d, t, t)
				VCVTTPD2DQY(t, v)
				VPXOR(c.sign, v, v)
			}
			store(v, out(16*h))
		}
	}
	return p
}

// long, ulong -> float, double: AVX-512 DQ converts 64-bit integers with the
// mode embedded, and 0 gives +0 in every mode, which is clconv's rule. AVX2
// has no 64-bit integer conversion: its kernels for these pairs come from
// plan_avx2.go (exact through 32-bit halves, then one rounding).
func longToFloatPair(s, d kind) *pair {
	p := &pair{s: s, d: d, variants: modes, block: map[string]int{"AVX512": 16}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	cvt := map[[2]bool]map[string]op{
		{true, false}: cvtqq2ps, {false, false}: cvtuqq2ps, // to float
		{true, true}: cvtqq2pd, {false, true}: cvtuqq2pd, // to double
	}[[2]bool{s.signed, d.size == 8}]
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x, f := ZMM(), YMM() // 8 floats fill a ymm, 8 doubles a zmm
			if d.size == 8 {
				f = ZMM()
			}
			VMOVDQU64(in(64*j), x)
			cvt[m](x, f)
			store(f, out(8*d.size*j))
		}
	}
	return p
}

// float -> half: VCVTPS2PH rounds in the immediate's mode, keeps subnormals
// (DAZ is off) and turns a NaN into sign | quiet | the high payload bits.
func floatToHalfPair() *pair {
	p := &pair{s: kFloat, d: kHalf, variants: modes, block: map[string]int{"AVX512": 32, "AVX2": 16}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}}
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := ZMM()
			VMOVUPS(in(64*j), x)
			if nt {
				y := YMM()
				VCVTPS2PH(U8(roundImm[m]), x, y)
				store(y, out(32*j))
			} else {
				VCVTPS2PH(U8(roundImm[m]), x, out(32*j))
			}
		}
	}
	p.gen["AVX2"] = func(m string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := YMM()
			VMOVUPS(in(32*j), x)
			VCVTPS2PH(U8(roundImm[m]), x, out(16*j))
		}
	}
	return p
}

// half -> float is exact; VCVTPH2PS quiets a signalling NaN and keeps its
// payload, as half.Half.Float32 does.
func halfToFloatPair() *pair {
	p := &pair{s: kHalf, d: kFloat, variants: []string{""}, block: map[string]int{"AVX512": 32, "AVX2": 16}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}}
	p.gen["AVX512"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := ZMM()
			VCVTPH2PS(in(32*j), x)
			store(x, out(64*j))
		}
	}
	p.gen["AVX2"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := YMM()
			VCVTPH2PS(in(16*j), x)
			store(x, out(32*j))
		}
	}
	return p
}

// char, uchar, short, ushort -> int, float: widening, exact in every mode.
func smallToPair(s, d kind) *pair {
	p := &pair{s: s, d: d, variants: []string{""}, block: map[string]int{"AVX512": 32, "AVX2": 16}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}}
	ext := map[kind]op{kChar: VPMOVSXBD, kUchar: VPMOVZXBD, kShort: VPMOVSXWD, kUshort: VPMOVZXWD}[s]
	p.gen["AVX512"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := ZMM()
			ext(in(16*s.size*j), x)
			if d == kFloat {
				VCVTDQ2PS(x, x)
			}
			store(x, out(64*j))
		}
	}
	p.gen["AVX2"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := YMM()
			ext(in(8*s.size*j), x)
			if d == kFloat {
				VCVTDQ2PS(x, x)
			}
			store(x, out(32*j))
		}
	}
	return p
}

// int -> char, uchar, short, ushort: wrap (keep the low bits) or saturate.
func intToSmallPair(d kind) *pair {
	p := &pair{s: kInt, d: d, variants: []string{"Wrap", "Sat"}, bySat: true, block: map[string]int{"AVX512": 32, "AVX2": 32 / d.size}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	p.setup["AVX512"] = func(v string) {
		if v == "Sat" && !d.signed {
			c.zero = ZMM()
			VPXORD(c.zero, c.zero, c.zero)
		}
	}
	p.gen["AVX512"] = func(v string, in, out func(int) Mem) {
		var down op
		switch {
		case v == "Wrap":
			down = map[int]op{1: VPMOVDB, 2: VPMOVDW}[d.size]
		case d.signed:
			down = map[int]op{1: VPMOVSDB, 2: VPMOVSDW}[d.size]
		default:
			down = map[int]op{1: VPMOVUSDB, 2: VPMOVUSDW}[d.size]
		}
		for j := 0; j < 2; j++ {
			x := ZMM()
			if v == "Sat" && !d.signed {
				VPMAXSD(in(64*j), c.zero, x) // negatives to 0 before unsigned saturation
			} else {
				VMOVDQU32(in(64*j), x)
			}
			if nt {
				r := XMM()
				if d.size == 2 {
					r = YMM()
				}
				down(x, r)
				store(r, out(16*d.size*j))
			} else {
				down(x, out(16*d.size*j))
			}
		}
	}
	p.setup["AVX2"] = func(v string) {
		if v == "Wrap" {
			c.mask = bcst(1<<(8*d.size)-1, 4, 32)
		}
		if d.size == 1 {
			c.perm = YMM()
			VMOVDQU(permB256, c.perm)
		}
	}
	// Wrapping masks each value to its low bits, after which the unsigned
	// packs cannot saturate. Saturation: signed packs clamp to the signed
	// range; for uchar the word pack is signed and the byte pack unsigned.
	p.gen["AVX2"] = func(v string, in, out func(int) Mem) {
		nv := 4 / d.size
		x := make([]reg.VecVirtual, nv)
		for j := range x {
			x[j] = YMM()
			if v == "Wrap" {
				VPAND(in(32*j), c.mask, x[j])
			} else {
				VMOVDQU(in(32*j), x[j])
			}
		}
		sat := v == "Sat"
		store(narrow(x, d, sat && (d.signed || d.size == 1), sat && d.signed), out(0))
	}
	return p
}

func pairs() []*pair {
	var ps []*pair
	for _, d := range []kind{kChar, kUchar, kShort, kUshort, kInt, kUint} {
		ps = append(ps, floatToIntPair(d))
	}
	ps = append(ps, intToFloatPair(kInt), intToFloatPair(kUint), doubleToFloatPair(), floatToHalfPair(), halfToFloatPair())
	ps = append(ps, doubleToIntPair(kInt), doubleToIntPair(kUint))
	for _, src := range []kind{kLong, kUlong} {
		ps = append(ps, longToFloatPair(src, kFloat), longToFloatPair(src, kDouble))
	}
	for _, s := range []kind{kChar, kUchar, kShort, kUshort} {
		ps = append(ps, smallToPair(s, kInt), smallToPair(s, kFloat))
	}
	for _, d := range []kind{kChar, kUchar, kShort, kUshort} {
		ps = append(ps, intToSmallPair(d))
	}
	return ps
}

var tiers = []string{"AVX2", "AVX512"}

func main() {
	hooks := flag.String("hooks", "", "write the amd64 hooks to this file")
	other := flag.String("other", "", "write the fallback hooks to this file")
	flag.Parse()
	ps := pairs()
	have := map[string]bool{}
	for _, p := range ps {
		have[p.name()] = true
	}
	for _, p := range ps {
		addAVX2Plan(p)
	}
	ps = append(ps, planPairs(have)...)
	mps := miniPairs() // mini.go
	if *hooks != "" {
		writeHooks(ps, mps, *hooks, *other)
	}
	ConstraintExpr("gc,!purego")
	permData()
	for _, p := range ps {
		for _, t := range tiers {
			if p.gen[t] == nil {
				continue // no kernels in this tier: the Go loop converts
			}
			for _, v := range p.variants {
				kernel(p, t, v)
			}
		}
	}
	nt = true
	for _, p := range ps {
		for _, t := range tiers {
			if p.gen[t] == nil {
				continue
			}
			for _, v := range p.variants {
				kernel(p, t, v)
			}
		}
	}
	nt = false
	for _, sc := range scans {
		for _, t := range tiers {
			scanKernel(sc, t)
		}
	}
	miniKernels(mps)
	flagKernelsAll() // flag.go
	cpuidVendor()
	Generate()
}

// writeHooks writes, for each pair, the table of its kernels and the hook
// simd<S>To<D> called by the generated slice kernel, and the fallback hooks.
func writeHooks(ps, mps []*pair, amd64, other string) {
	var b, o bytes.Buffer
	hdr := "// Code generated by command: go run ./_asm (in convert: go generate). DO NOT EDIT.\n\n"
	b.WriteString(hdr + "//go:build gc && !purego\n\npackage convert\n\nimport (\n\"unsafe\"\n\n\"github.com/clconv/clconv/half\"\n\"github.com/clconv/clconv/round\"\n)\n\nvar _ half.Half\n\n")
	o.WriteString(hdr + "//go:build !amd64 || purego || !gc\n\npackage convert\n\nimport (\n\"unsafe\"\n\n\"github.com/clconv/clconv/half\"\n\"github.com/clconv/clconv/round\"\n)\n\nvar _ half.Half\n\n")
	o.WriteString("// Without assembly the hooks convert nothing and the slice kernels' Go loops do all the work.\n\n")
	fmt.Fprintf(&b, "// simdPrefetchDist8 is how many bytes ahead of a block the streaming kernels\n")
	fmt.Fprintf(&b, "// from 8-byte sources prefetch their source (PREFETCHT1), loaded once per\n")
	fmt.Fprintf(&b, "// call: 0 names the block's own lines, which makes the prefetches no-ops\n")
	fmt.Fprintf(&b, "// (simd_amd64.go sets it on AMD's processors). The other streaming kernels\n")
	fmt.Fprintf(&b, "// prefetch %d bytes ahead, a constant.\n", streamDist)
	fmt.Fprintf(&b, "var simdPrefetchDist8 = %d\n\n", streamDist)
	for _, p := range ps {
		kn := "simd" + p.name() + "Kernels"
		fmt.Fprintf(&b, "var %s = simdKernels{\n", kn)
		minBlock := 0
		for ti, t := range tiers {
			if p.gen[t] == nil {
				continue
			}
			if minBlock == 0 || p.block[t] < minBlock {
				minBlock = p.block[t]
			}
			fmt.Fprintf(&b, "%d: {", ti+1)
			for _, v := range p.variants {
				fmt.Fprintf(&b, "%s, ", kernelName(p, t, v))
			}
			fmt.Fprintf(&b, "}, // %s\n", t)
		}
		fmt.Fprintf(&b, "}\n\n")
		fmt.Fprintf(&b, "var %sNT = simdKernels{\n", kn)
		for ti, t := range tiers {
			if p.gen[t] == nil {
				continue
			}
			fmt.Fprintf(&b, "%d: {", ti+1)
			for _, v := range p.variants {
				fmt.Fprintf(&b, "%sNT, ", kernelName(p, t, v))
			}
			fmt.Fprintf(&b, "}, // %s, streaming\n", t)
		}
		fmt.Fprintf(&b, "}\n\n")
		idx := "0"
		switch {
		case len(p.variants) == 4:
			idx = "simdMode(m)"
		case p.bySat:
			idx = "simdSat(sat)"
		}
		fmt.Fprintf(&b, "// simd%s converts a leading part of src with the selected tier and returns its length.\n", p.name())
		fmt.Fprintf(&b, "func simd%s(dst []%s, src []%s, m round.Mode, sat bool) int {\n", p.name(), p.d.goT, p.s.goT)
		fmt.Fprintf(&b, "if len(src) < %d { // shorter than any tier's block\nreturn 0\n}\n", minBlock)
		fmt.Fprintf(&b, "if k, h, ok := simdStream(&%sNT, %s, unsafe.Pointer(unsafe.SliceData(dst)), len(src), %d); ok {\n", kn, idx, p.d.size)
		fmt.Fprintf(&b, "for i := range h { dst[i] = %s(src[i], m, sat) }\n", scalarName(p))
		fmt.Fprintf(&b, "return h + k((*byte)(unsafe.Pointer(&dst[h])), (*byte)(unsafe.Pointer(&src[h])), len(src)-h)\n}\n")
		fmt.Fprintf(&b, "return simdRun(&%s, %s, (*byte)(unsafe.Pointer(unsafe.SliceData(dst))), (*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src))\n}\n\n", kn, idx)
		fmt.Fprintf(&o, "func simd%s(dst []%s, src []%s, m round.Mode, sat bool) int { return 0 }\n\n", p.name(), p.d.goT, p.s.goT)
	}
	have := map[string]bool{}
	for _, p := range ps {
		have[p.name()] = true
	}
	for _, s := range allKinds {
		for _, d := range allKinds {
			p := &pair{s: s, d: d}
			if s == d || have[p.name()] {
				continue
			}
			fmt.Fprintf(&b, "func simd%s(dst []%s, src []%s, m round.Mode, sat bool) int { return 0 }\n\n", p.name(), p.d.goT, p.s.goT)
			fmt.Fprintf(&o, "func simd%s(dst []%s, src []%s, m round.Mode, sat bool) int { return 0 }\n\n", p.name(), p.d.goT, p.s.goT)
		}
	}
	fmt.Fprintf(&b, "// simdPairKernels names every pair's kernels, for the tests.\n")
	fmt.Fprintf(&b, "var simdPairKernels = map[string]*simdKernels{\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "%q: &simd%sKernels,\n", p.name(), p.name())
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// simdPairNTKernels names every pair's streaming kernels, for the tests.\n")
	fmt.Fprintf(&b, "var simdPairNTKernels = map[string]*simdKernels{\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "%q: &simd%sKernelsNT,\n", p.name(), p.name())
	}
	fmt.Fprintf(&b, "}\n\n")
	writeMiniHooks(&b, &o, mps)
	for _, f := range []struct {
		name string
		buf  *bytes.Buffer
	}{{amd64, &b}, {other, &o}} {
		src, err := format.Source(f.buf.Bytes())
		if err != nil {
			log.Fatalf("%s: %v\n%s", f.name, err, f.buf.Bytes())
		}
		if err := os.WriteFile(f.name, src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// A scan is a range scan of convert.SliceChecked: a read-only pass that
// finds the first block of a source slice holding an element outside a
// closed interval [lo, hi]. Its kernels take the bounds as arguments (convert
// computes them per conversion and mode) and return the count of leading
// elements in whole blocks that lie inside; they stop at the first block with
// one outside, which the Go code then searches.
//
// They test an element by clamping it to the interval and comparing the bits
// of the result with the element's: VMAXPS(lo, x) then VMINPS(., hi), OR-ing
// x ^ clamped into an accumulator that must stay zero. Two min/max and one
// ternary logic instruction per vector, where two compares into mask
// registers ran at half the speed of the conversion kernels. x is the second
// operand of VMAXPS, which returns it for NaN and for equal zeros (so +0 and
// -0 are both inside an interval from -0); VMINPS then returns hi for a NaN,
// whose bits differ.
type scan struct {
	name   string // name fragment: "F32", "F64Finite", "I32"
	goT    string // Go type of the bounds
	size   int    // element size in bytes
	float  bool   // compare as floats (NaN is outside)
	finite bool   // also admit infinities and NaN (floating destinations: only finite values overflow)
}

var scans = []scan{
	{"F32", "float32", 4, true, false},
	{"F32Finite", "float32", 4, true, true},
	{"F64", "float64", 8, true, false},
	{"F64Finite", "float64", 8, true, true},
	{"I32", "int32", 4, false, false},
}

// fixNonFiniteToZero is the VFIXUPIMMPS/PD table that maps QNaN, SNaN, -inf
// and +inf (token classes 0, 1, 4 and 5) to +0 (response 8) and every other
// class to the source unchanged (response 1).
const fixNonFiniteToZero = 0x11881188

// ternOrXor is the VPTERNLOGD immediate of a | (b ^ c).
const ternOrXor = 0xf6

// scanKernel emits scan<name><tier>: four vectors per iteration, their
// differences from the clamped values OR-ed together and tested once.
func scanKernel(sc scan, tier string) {
	width := 64
	if tier == "AVX2" {
		width = 32
	}
	lanes := width / sc.size
	block := 4 * lanes
	name := "scan" + sc.name + tier
	TEXT(name, NOSPLIT, fmt.Sprintf("func(src *byte, n int, lo, hi %s) int", sc.goT))
	what := "lo <= x <= hi"
	if sc.finite {
		what += " or x is infinite or NaN"
	}
	Doc(fmt.Sprintf("%s returns the count of the leading elements of the first n &^ %d, in blocks of %d, for which %s; it stops at the first block with an element outside.", name, block-1, block, what))
	Pragma("noescape")
	src := Load(Param("src"), GP64())
	n := Load(Param("n"), GP64())
	i := GP64()
	XORQ(i, i)
	ANDQ(I32(-int32(block)), n)
	JZ(LabelRef("done"))
	vec := func() reg.VecVirtual {
		if width == 64 {
			return ZMM()
		}
		return YMM()
	}
	lo, hi := vec(), vec()
	for _, b := range []struct {
		name string
		v    reg.VecVirtual
	}{{"lo", lo}, {"hi", hi}} {
		switch {
		case sc.size == 8:
			x := Load(Param(b.name), XMM())
			VBROADCASTSD(x, b.v)
		case sc.float:
			x := Load(Param(b.name), XMM())
			VBROADCASTSS(x, b.v)
		case width == 64:
			r := Load(Param(b.name), GP32())
			VPBROADCASTD(r, b.v)
		default:
			r := Load(Param(b.name), GP32())
			x := XMM()
			VMOVD(r, x)
			VPBROADCASTD(x, b.v)
		}
	}
	var fix, inf, abs reg.VecVirtual
	if sc.finite {
		if tier == "AVX512" {
			fix = bcst(fixNonFiniteToZero, sc.size, 64)
		} else if sc.size == 8 {
			inf = bcst(math.Float64bits(math.Inf(1)), 8, 32)
			abs = bcst(math.MaxInt64, 8, 32)
		} else {
			inf = bcst(f32(float32(math.Inf(1))), 4, 32)
			abs = bcst(math.MaxInt32, 4, 32)
		}
	}
	maxOp, minOp := VMAXPS, VMINPS
	switch {
	case !sc.float:
		maxOp, minOp = VPMAXSD, VPMINSD
	case sc.size == 8:
		maxOp, minOp = VMAXPD, VMINPD
	}
	Label("loop")
	in := func(j int) Mem { return Mem{Base: src, Index: i, Scale: uint8(sc.size), Disp: j * width} }
	acc := vec()
	for j := 0; j < 4; j++ {
		x, t := vec(), vec()
		if width == 64 {
			VMOVDQU64(in(j), x)
		} else {
			VMOVDQU(in(j), x)
		}
		if sc.finite {
			// Infinities and NaN become +0, which is inside.
			if tier == "AVX512" {
				if sc.size == 8 {
					VFIXUPIMMPD(U8(0), fix, x, x)
				} else {
					VFIXUPIMMPS(U8(0), fix, x, x)
				}
			} else {
				and, cmp := VANDPS, VCMPPS
				if sc.size == 8 {
					and, cmp = VANDPD, VCMPPD
				}
				f := YMM()
				and(abs, x, f)
				cmp(U8(cmpLT), inf, f, f) // |x| < inf: finite
				and(f, x, x)
			}
		}
		maxOp(x, lo, t) // max(lo, x): x for NaN and equal zeros
		minOp(hi, t, t) // min(t, hi): hi for NaN
		switch {
		case j == 0:
			if width == 64 {
				VPXORD(t, x, acc)
			} else {
				VPXOR(t, x, acc)
			}
		case width == 64:
			VPTERNLOGD(U8(ternOrXor), t, x, acc) // acc |= x ^ t
		default:
			VPXOR(t, x, t)
			VPOR(t, acc, acc)
		}
	}
	if width == 64 {
		k := K()
		VPTESTMD(acc, acc, k)
		KORTESTW(k, k)
	} else {
		VPTEST(acc, acc)
	}
	JNZ(LabelRef("done"))
	ADDQ(U32(block), i)
	CMPQ(i, n)
	JB(LabelRef("loop"))
	Label("done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// cpuidVendor emits cpuidVendor, CPUID's leaf 0: the vendor string's three
// words (EBX, EDX, ECX: "Genu" "ineI" "ntel", "Auth" "enti" "cAMD").
func cpuidVendor() {
	TEXT("cpuidVendor", NOSPLIT, "func() (b, d, c uint32)")
	Doc("cpuidVendor returns the vendor words of CPUID leaf 0 (EBX, EDX, ECX).")
	XORL(reg.EAX, reg.EAX)
	XORL(reg.ECX, reg.ECX)
	CPUID()
	Store(reg.EBX, ReturnIndex(0))
	Store(reg.EDX, ReturnIndex(1))
	Store(reg.ECX, ReturnIndex(2))
	RET()
}
