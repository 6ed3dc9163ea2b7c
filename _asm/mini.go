package main

import (
	"bytes"
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Minis: the kernels of convert/simd_mini.go, float <-> bfloat16, OCP E4M3
// and OCP E5M2, which give the bits of packages bfloat16 and fp8 (rules R1-R7
// of docs/FORMATS.md). Their hooks take a miniKind rather than being per-pair
// hooks of the generated slice kernels, since these formats are not OpenCL C
// types: convert's own code calls them.
//
// No instruction of either tier rounds to these formats in the four modes
// (AVX512_BF16's VCVTNEPS2BF16 rounds to nearest only, and flushes
// subnormals), so the kernels round on the float's bits:
//
//   - float -> bfloat16 adds a mode-dependent bias below bit 16 and keeps the
//     top half, as bfloat16.FromFloat32 does: the carry walks into the
//     exponent, from the largest subnormal to the smallest normal and from
//     MAX to infinity. _sat clamps the rounded pattern below infinity with
//     one unsigned and one signed minimum; a NaN gets its quiet bit instead.
//   - float -> E4M3 (AVX-512 every mode, AVX2 rte) rounds |x|, clamped to
//     the grid point just above MAX, to a multiple of the format's quantum q
//     at that magnitude by adding c = 1.5 * 2^23 * q, whose binary32 spacing
//     is q: one binary32 addition that rounds in the mode (AVX-512's
//     embedded rounding; AVX2 rounds to nearest), after which the code is
//     integer arithmetic on the sum's bits (floatToFP8Pair).
//   - float -> E5M2 (AVX-512) converts to half toward zero with VCVTPS2PH,
//     sets the half's low bit where that was inexact (rounding to odd), and
//     rounds the half at bit 8 as float -> bfloat16 rounds at bit 16
//     (floatToE5M2Half).
//   - float -> E5M2 (AVX2) and E4M3 (AVX2 rtz, rtp, rtn) go through
//     VCVTPS2PH in the mode, E4M3 scaled by 2^-8 (mini_avx2.go).
//   - bfloat16 -> float is a shift, with VFIXUPIMMPS (AVX2: a compare and an
//     OR) setting the quiet bit of a NaN; E5M2 -> float shifts each byte into
//     a half and converts that exactly with VCVTPH2PS, which quiets NaNs as
//     E5M2.Float32 does; E4M3 -> float makes a half of 2^-8 times the value,
//     converts it and scales by 2^8, then ORs the quiet NaN 0x7ff00000 into
//     the NaN S.1111.111.
//
// No kernel does binary32 arithmetic on subnormals, or produces one, other
// than exactly in conversion instructions: on Intel cores a subnormal
// operand or result of VMULPS costs a microcode assist of some hundred
// cycles (a first version, which scaled the rounded value by 2^(bias-127) as
// fp8.fromFinite32 does, ran at a fortieth of copy's speed on inputs near
// the formats' subnormal ranges). VCVTPS2PH and VCVTPH2PS handle subnormal
// halves at full speed.
//
// Every variant is a kernel of its own, so the loops have no branches.

// fp8 is what the kernels need of E4M3 or E5M2 (package fp8's format).
type fp8 struct {
	name  string
	mant  int     // mantissa bits
	qmin  int     // exponent of the smallest subnormal
	limit float32 // the grid point just above MAX; its code is the overflow code
	scale float32 // 2^(bias-127), which maps the format's values onto binary32's bottom exponents
	max   float32 // MAX
	// e5 marks E5M2, whose NaNs keep a payload bit and whose infinity is
	// the overflow code (E4M3's NaN is).
	e5 bool
}

var (
	fE4M3 = fp8{name: "E4m3", mant: 3, qmin: -9, limit: 480, scale: 0x1p-120, max: 448}
	fE5M2 = fp8{name: "E5m2", mant: 2, qmin: -16, limit: 65536, scale: 0x1p-112, max: 57344, e5: true}
)

func (f fp8) shift() int { return 23 - f.mant }

// eminBits is the binary32 exponent field below which the quantum stops
// shrinking: that of 2^(qmin+mant), the smallest normal.
func (f fp8) eminBits() uint32 { return uint32(f.qmin+127+f.mant) << 23 }

// cAdd turns an exponent field E (of |x|) into c's bits: 1.5 * 2^(E-127+23-mant).
func (f fp8) cAdd() uint32 { return uint32(23-f.mant)<<23 | 1<<22 }

// Mini kinds, named so that the kernels read floatToE4m3SatRTNAVX512 and
// e4m3ToFloatAVX2.
var (
	kBf16    = kind{name: "Bf16", goT: "uint16", size: 2}
	kBf16Sat = kind{name: "Bf16Sat", goT: "uint16", size: 2}
	kE4m3    = kind{name: "E4m3", goT: "uint8", size: 1}
	kE4m3Sat = kind{name: "E4m3Sat", goT: "uint8", size: 1}
	kE5m2    = kind{name: "E5m2", goT: "uint8", size: 1}
	kE5m2Sat = kind{name: "E5m2Sat", goT: "uint8", size: 1}
)

// Embedded-rounding additions, by mode.
var addps = map[string]op{"RTE": VADDPS_RN_SAE, "RTZ": VADDPS_RZ_SAE, "RTP": VADDPS_RU_SAE, "RTN": VADDPS_RD_SAE}

// VPCMPD/VPCMPUD predicates and VCMPPS's UNORD_Q.
const (
	pEQ      = 0
	cmpNEQUQ = 0x04
	pLT      = 1
	pLE      = 2
	cmpUNORD = 0x03
)

// VPTERNLOGD immediates (A is the destination, B and C the sources).
const (
	ternAOrBAndC = 0xf8 // A | (B & C)
	ternSelect   = 0xe4 // (A & C) | (B & ~C): A where C is set, else B
)

// fixQuietSNaN is the VFIXUPIMMPS table that quiets an SNaN (response 2,
// QNaN(src), which keeps sign and payload) and returns every other class
// unchanged (response 1).
const fixQuietSNaN = 0x11111121

// Registers set up before a mini kernel's loop.
var mk struct {
	abs, limit, exp, emin, add, sign, inf, ninf, c7f, perm                           reg.VecVirtual
	one, c7fff, cffff, negMax, posMax, quiet, fix, mag, c2p8, nanCode, zk, maxc, two reg.VecVirtual
}

// miniK is the AVX2 kernels' table of constants, 32 bytes each, which they
// read as memory operands (AVX2 has 16 registers); miniOff gives each
// constant's offset.
var (
	miniK   Mem
	miniOff = map[uint32]int{}
)

// miniConstants lists every constant of the AVX2 kernels: bfloat16's, the
// decoders', then float -> E4M3 and E5M2's (mini_avx2.go; the 16-bit and
// 8-bit ones repeated over a dword).
func miniConstants() []uint32 {
	vs := []uint32{0x7fffffff, 0x7f800000, 0x7f7fffff, 0xff7fffff, 1, 0x7fff, 0xffff, 0x00400000, 0xbfffbfff, f32bits(0x1p8), f32bits(480) << 1, 0x7ff00000}
	vs = append(vs, f32bits(fE4M3.limit), f32bits(fE4M3.max), fE4M3.eminBits(), fE4M3.cAdd(), fE4M3.cAdd()+fE4M3.eminBits()>>fE4M3.shift(), 9<<23, f32bits(0x1p-8))
	return append(vs, 0x80808080, 0x7f7f7f7f, 0x7c7c7c7c, 0x7fff7fff, 0x7c007c00, 0x7bff7bff, 0xfc00fc00, 0x00010001, 0x007e007e, 0x007f007f, 0x00800080, 0x00ff00ff,
		0x407f407f, 0x04000400, 0x84008400, 0x3f813f81, 0xbf80bf80, 0x3f803f80, 0xbf00bf00, 0x3f003f00, 0x3f7f3f7f, 0xbf7fbf7f, 0x437f437f)
}

// maxCode is MAX's pattern: the code below the overflow code.
func maxCode(f fp8) uint32 { return f32code(f, f.max) }

// f32code is the code of the value v of f (positive, normal in binary32).
func f32code(f fp8, v float32) uint32 {
	return math.Float32bits(v*f.scale) >> f.shift()
}

func f32bits(x float32) uint32 { return math.Float32bits(x) }

func miniData() {
	miniK = GLOBL("miniK", RODATA|NOPTR)
	off := 0
	for _, v := range miniConstants() {
		if _, ok := miniOff[v]; ok {
			continue
		}
		miniOff[v] = off
		for j := 0; j < 8; j++ {
			DATA(off+4*j, U32(v))
		}
		off += 32
	}
}

// km is the AVX2 constant v, as a memory operand.
func km(v uint32) Mem {
	off, ok := miniOff[v]
	if !ok {
		panic(fmt.Sprintf("miniK lacks %#x", v))
	}
	return miniK.Offset(off)
}

// kr loads the AVX2 constant v into a register.
func kr(v uint32) reg.VecVirtual {
	r := YMM()
	VMOVDQU(km(v), r)
	return r
}

func newMiniPair(s, d kind, variants []string, block512, block256 int) *pair {
	return &pair{s: s, d: d, variants: variants,
		block: map[string]int{"AVX512": block512, "AVX2": block256},
		gen:   map[string]func(string, func(int) Mem, func(int) Mem){},
		setup: map[string]func(string){}}
}

// miniPairs returns the mini kernels' pairs in the order of the hooks'
// tables: float -> bfloat16, E4M3, E5M2 (each without, then with _sat), then
// bfloat16, E4M3, E5M2 -> float.
func miniPairs() []*pair {
	var ps []*pair
	for _, sat := range []bool{false, true} {
		d := kBf16
		if sat {
			d = kBf16Sat
		}
		ps = append(ps, floatToBf16Pair(d, sat))
	}
	for _, f := range []fp8{fE4M3, fE5M2} {
		for _, sat := range []bool{false, true} {
			d := kE4m3
			switch {
			case f.e5 && sat:
				d = kE5m2Sat
			case f.e5:
				d = kE5m2
			case sat:
				d = kE4m3Sat
			}
			p := floatToFP8Pair(f, d, sat)
			if f.e5 {
				p.setup["AVX512"], p.gen["AVX512"] = floatToE5M2Half(sat)
			}
			ps = append(ps, p)
		}
	}
	ps = append(ps, bf16ToFloatPair(), e4m3ToFloatPair(), e5m2ToFloatPair())
	return ps
}

// float -> bfloat16: the rounded pattern is x + bias, kept for its top half.
// The bias is 0x7fff plus the last kept bit (rte), 0 (rtz), 0xffff for a
// positive x (rtp) or a negative one (rtn). No finite x + bias carries into
// the sign bit (0x7f7fffff + 0xffff < 2^31), and an infinity stays one.
func floatToBf16Pair(d kind, sat bool) *pair {
	p := newMiniPair(kFloat, d, modes, 32, 16)
	p.setup["AVX512"] = func(m string) {
		switch m {
		case "RTE":
			mk.one = bcst(1, 4, 64)
			mk.c7fff = bcst(0x7fff, 4, 64)
		case "RTP":
			mk.cffff = bcst(0xffff, 4, 64)
		}
		if sat {
			mk.negMax = bcst(0xff7fffff, 4, 64)
			mk.posMax = bcst(0x7f7fffff, 4, 64)
		}
		mk.quiet = bcst(0x00400000, 4, 64)
		mk.perm = ZMM()
		VMOVDQU64(permQ512, mk.perm)
	}
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		v := make([]reg.VecVirtual, 2)
		for j := range v {
			b := ZMM()
			VMOVDQU32(in(64*j), b)
			r := bf16Round(m, b)
			if sat {
				// Infinities (and so overflow) to +-MAX: an unsigned
				// minimum for negative patterns, a signed one for positive
				// (into a new register: in rtz, r is b).
				c := ZMM()
				VPMINUD(mk.negMax, r, c)
				VPMINSD(mk.posMax, c, c)
				r = c
			}
			k := K()
			VCMPPS(U8(cmpUNORD), b, b, k)
			VPORD(mk.quiet, b, k, r) // NaN: quiet, payload kept
			VPSRLD(U8(16), r, r)
			v[j] = r
		}
		o := ZMM()
		VPACKUSDW(v[1], v[0], o)
		VPERMQ(o, mk.perm, o)
		store(o, out(0))
	}
	p.gen["AVX2"] = func(m string, in, out func(int) Mem) {
		v := make([]reg.VecVirtual, 2)
		for j := range v {
			b := YMM()
			VMOVDQU(in(32*j), b)
			r := bf16Round(m, b)
			if sat {
				c := YMM()
				VPMINUD(km(0xff7fffff), r, c)
				VPMINSD(km(0x7f7fffff), c, c)
				r = c
			}
			nan, q := YMM(), YMM()
			VCMPPS(U8(cmpUNORD), b, b, nan)
			VPOR(km(0x00400000), b, q)
			VBLENDVPS(nan, q, r, r)
			VPSRLD(U8(16), r, r)
			v[j] = r
		}
		o := YMM()
		VPACKUSDW(v[1], v[0], o)
		VPERMQ(U8(0xd8), o, o)
		store(o, out(0))
	}
	return p
}

// bf16Round returns b plus the bias of mode m: a new register, or b itself in
// rtz. AVX-512 takes the constants from mk's registers, AVX2 from miniK.
func bf16Round(m string, b reg.VecVirtual) reg.VecVirtual {
	avx512 := b.Size() == 64
	vec := YMM
	and := func(a, b, c Op) { VPAND(a, b, c) }
	andn := func(a, b, c Op) { VPANDN(a, b, c) }
	var one, c7fff, cffff Op = km(1), km(0x7fff), km(0xffff)
	if avx512 {
		vec = ZMM
		and = func(a, b, c Op) { VPANDD(a, b, c) }
		andn = func(a, b, c Op) { VPANDND(a, b, c) }
		one, c7fff, cffff = mk.one, mk.c7fff, mk.cffff
	}
	r, t := vec(), vec()
	switch m {
	case "RTE":
		VPSRLD(U8(16), b, t)
		and(one, t, t)
		VPADDD(c7fff, t, t)
	case "RTZ":
		return b
	case "RTP":
		VPSRAD(U8(31), b, t)
		andn(cffff, t, t) // ~sign mask & 0xffff
	case "RTN":
		VPSRAD(U8(31), b, t)
		VPSRLD(U8(16), t, t)
	}
	VPADDD(t, b, r)
	return r
}

// float -> E4M3, E5M2.
//
// y = |x| clamped (unsigned, on the bits) to limit, the grid point just above
// MAX (E5M2 _sat: to MAX, after which nothing overflows); an infinity and a
// NaN clamp to limit too. u is y's exponent field, at least that of the
// smallest normal, so that c = 1.5 * 2^23 * q has the bits u + cAdd; q is the
// quantum of y's binade. t = y + c is rounded once, to a multiple of q, and
// lies in c's binade, whose spacing is q: so t's bits minus c's are the
// rounded |x| in units of q; the code is that plus (u - emin) >> (23-mant),
// which is 0 for a subnormal result and, for a normal one, the exponent
// field less one in its place (the rounded significand counts the hidden
// bit; u - emin is a multiple of 2^23, so the shift is exact). So
//
//	code = bits(t) - z,  z = u + cAdd + (emin >> (23-mant)) - (u >> (23-mant))
//
// in integers: no binary32 subnormal is produced or consumed (see above).
//
// AVX-512 rounds the magnitude in the mode, with embedded rounding: toward
// zero (rtz; rtp for a negative x, rtn for a positive one) or away from it
// (rtp for a positive x, rtn for a negative one, merged by a mask). AVX2
// rounds to nearest and steps the code by one where the nearest value
// r = t - c lies on the wrong side of y, as fp8.fromFinite32 does.
//
// Then the lanes whose overflow gives MAX (R3, R4: every non-NaN lane under
// _sat; without, the finite lanes that the mode rounds toward zero) take
// min(code, MAX's code); the overflow code of the other lanes is E4M3's NaN
// or E5M2's infinity, which is also what infinite sources give without
// _sat. An E4M3 NaN gives the NaN code too; an E5M2 NaN takes x >> 21, whose
// low bits are 0x7c | x's top payload bit, with the quiet bit 2. The sign
// comes from x.
func floatToFP8Pair(f fp8, d kind, sat bool) *pair {
	p := newMiniPair(kFloat, d, modes, 64, 32)
	limit := f.limit
	if f.e5 && sat {
		limit = f.max
	}
	zk := f.cAdd() + f.eminBits()>>f.shift()
	// clamp reports whether mode m has lanes clamped to MAX after rounding.
	clamp := func(m string) bool { return (sat && !f.e5) || (!sat && m != "RTE") }
	p.setup["AVX512"] = func(m string) {
		mk.abs = bcst(0x7fffffff, 4, 64)
		mk.limit = bcst(uint64(f32bits(limit)), 4, 64)
		mk.exp = bcst(0x7f800000, 4, 64)
		mk.emin = bcst(uint64(f.eminBits()), 4, 64)
		mk.add = bcst(uint64(f.cAdd()), 4, 64)
		mk.zk = bcst(uint64(zk), 4, 64)
		if m == "RTP" || m == "RTN" {
			mk.sign = bcst(0x80000000, 4, 64)
		}
		if clamp(m) {
			mk.maxc = bcst(uint64(maxCode(f)), 4, 64)
			if m == "RTP" && !sat {
				mk.ninf = bcst(0xff800000, 4, 64)
			} else {
				mk.inf = bcst(0x7f800000, 4, 64)
			}
		}
		if f.e5 {
			mk.two = bcst(2, 4, 64)
		}
		mk.c7f = bcst(0x7f, 4, 64)
		c.perm = ZMM() // narrow's
		VMOVDQU32(permB512, c.perm)
	}
	p.gen["AVX512"] = func(m string, in, out func(int) Mem) {
		v := make([]reg.VecVirtual, 4)
		for j := range v {
			b, ab, y, u, cb, z, o, t := ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
			VMOVDQU32(in(64*j), b)
			VPANDD(mk.abs, b, ab)
			VPMINUD(mk.limit, ab, y)
			VPANDD(mk.exp, y, u)
			VPMAXUD(mk.emin, u, u)
			VPADDD(mk.add, u, cb)
			VPADDD(mk.zk, u, z)
			VPSRLD(U8(f.shift()), u, o)
			VPSUBD(o, z, z)
			switch m {
			case "RTE":
				VADDPS_RN_SAE(cb, y, t)
			case "RTZ":
				VADDPS_RZ_SAE(cb, y, t)
			default:
				away := K()
				if m == "RTP" {
					VPTESTNMD(mk.sign, b, away) // positive
				} else {
					VPTESTMD(mk.sign, b, away) // negative
				}
				VADDPS_RZ_SAE(cb, y, t)
				VADDPS_RU_SAE(cb, y, away, t)
			}
			VPSUBD(z, t, t) // the code
			if clamp(m) {
				k := K()
				switch {
				case sat: // not NaN
					VPCMPUD(U8(pLE), mk.inf, ab, k)
				case m == "RTZ": // finite
					VPCMPUD(U8(pLT), mk.inf, ab, k)
				case m == "RTP": // negative finite: below -inf as int32
					VPCMPD(U8(pLT), mk.ninf, b, k)
				case m == "RTN": // positive finite
					VPCMPUD(U8(pLT), mk.inf, b, k)
				}
				VPMINUD(mk.maxc, t, k, t)
			}
			if f.e5 {
				k, s := K(), ZMM()
				VCMPPS(U8(cmpUNORD), b, b, k)
				VPSRLD(U8(21), b, s)
				VPORD(mk.two, s, k, t) // NaN: 0x7e | payload bit (bits above 6 go below)
			}
			s := ZMM()
			VPSRLD(U8(24), b, s)
			VPTERNLOGD(U8(ternSelect), mk.c7f, s, t) // code | x's sign at bit 7
			v[j] = t
		}
		store(narrow(v, kUchar, false, false), out(0))
	}
	p.setup["AVX2"] = func(string) {
		mk.perm = YMM()
		VMOVDQU(permB256, mk.perm)
	}
	p.gen["AVX2"] = floatToFP8AVX2(f, sat) // mini_avx2.go
	return p
}

// floatToE5M2Half is the AVX-512 body of float -> E5M2, which is the top byte
// of a half: VCVTPS2PH rounds toward zero (exponent rebias, subnormals and
// overflow to 0x7bff in hardware, with no binary32 subnormal arithmetic),
// the low bit of the half is set where that was inexact (rounding to odd,
// which leaves the second rounding correct: the half keeps 8 more bits
// than E5M2, everywhere in E5M2's range), and the half is then rounded at
// bit 8 by adding a bias, as float -> bfloat16 rounds at bit 16 (the carry
// gives IEEE's overflow to infinity in the modes that round up; rtz never
// carries, so every mode gives R3 without a clamp). A NaN half (sign |
// 0x7e00 | payload, from VCVTPS2PH) takes no bias, so its top byte is 0x7e
// | the payload's top bit. _sat clamps the biased halves of non-NaN lanes
// to +-0x7bff.
func floatToE5M2Half(sat bool) (setup func(string), gen func(string, func(int) Mem, func(int) Mem)) {
	setup = func(m string) {
		mk.one = bcst(0x00010001, 4, 64)
		mk.c7fff = bcst(0x7fff7fff, 4, 64)
		mk.inf = bcst(0x7c007c00, 4, 64)
		switch m {
		case "RTE":
			mk.cffff = bcst(0x007f007f, 4, 64)
		case "RTP":
			mk.cffff = bcst(0x00ff00ff, 4, 64)
		}
		if sat {
			mk.negMax = bcst(0xfbfffbff, 4, 64)
			mk.posMax = bcst(0x7bff7bff, 4, 64)
		}
		c.perm = ZMM()
		VMOVDQU64(permQ512, c.perm)
	}
	gen = func(m string, in, out func(int) Mem) {
		w := make([]reg.VecVirtual, 2)
		for i := range w {
			var hs [2]reg.VecVirtual
			for j := range hs {
				x, h := ZMM(), ZMM()
				VMOVUPS(in(64*(2*i+j)), x)
				VCVTPS2PH(U8(roundImm["RTZ"]), x, h.AsY())
				if m != "RTZ" {
					back, odd := ZMM(), YMM()
					k := K()
					VCVTPH2PS(h.AsY(), back)
					VCMPPS(U8(cmpNEQUQ), back, x, k) // inexact (or NaN)
					VPORD(mk.one.AsY(), h.AsY(), odd)
					VMOVDQU16(odd, k, h.AsY()) // sticky bit
				}
				hs[j] = h
			}
			h := hs[0]
			VINSERTI64X4(U8(1), hs[1].AsY(), h, h)
			var ord reg.Register
			if m != "RTZ" || sat {
				a := ZMM()
				ord = K()
				VPANDD(mk.c7fff, h, a)
				VPCMPUW(U8(pLE), mk.inf, a, ord) // not NaN
			}
			t := ZMM()
			switch m {
			case "RTE":
				VPSRLW(U8(8), h, t)
				VPANDD(mk.one, t, t)
				VPADDW(mk.cffff, t, t) // 0x7f + the last kept bit
				VPADDW(t, h, ord, h)
			case "RTP":
				VPSRAW(U8(15), h, t)
				VPANDND(mk.cffff, t, t) // 0xff for a positive half
				VPADDW(t, h, ord, h)
			case "RTN":
				VPSRAW(U8(15), h, t)
				VPSRLW(U8(8), t, t) // 0xff for a negative half
				VPADDW(t, h, ord, h)
			}
			if sat {
				VPMINUW(mk.negMax, h, ord, h)
				VPMINSW(mk.posMax, h, ord, h)
			}
			VPSRLW(U8(8), h, h)
			w[i] = h
		}
		o := ZMM()
		VPACKUSWB(w[1], w[0], o)
		VPERMQ(o, c.perm, o)
		store(o, out(0))
	}
	return setup, gen
}

// bfloat16 -> float.
func bf16ToFloatPair() *pair {
	p := newMiniPair(kBf16, kFloat, []string{""}, 32, 16)
	p.setup["AVX512"] = func(string) { mk.fix = bcst(fixQuietSNaN, 4, 64) }
	p.gen["AVX512"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x := ZMM()
			VPMOVZXWD(in(32*j), x)
			VPSLLD(U8(16), x, x)
			VFIXUPIMMPS(U8(0), mk.fix, x, x)
			store(x, out(64*j))
		}
	}
	p.gen["AVX2"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 2; j++ {
			x, nan := YMM(), YMM()
			VPMOVZXWD(in(16*j), x)
			VPSLLD(U8(16), x, x)
			VCMPPS(U8(cmpUNORD), x, x, nan)
			VPAND(km(0x00400000), nan, nan)
			VPOR(nan, x, x)
			store(x, out(32*j))
		}
	}
	return p
}

// E5M2 -> float: each byte is the top byte of a half.
func e5m2ToFloatPair() *pair {
	p := newMiniPair(kE5m2, kFloat, []string{""}, 64, 32)
	p.gen["AVX512"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 4; j++ {
			h, x := YMM(), ZMM()
			VPMOVZXBW(in(16*j), h)
			VPSLLW(U8(8), h, h)
			VCVTPH2PS(h, x)
			store(x, out(64*j))
		}
	}
	p.gen["AVX2"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 4; j++ {
			h, x := XMM(), YMM()
			VPMOVZXBW(in(8*j), h)
			VPSLLW(U8(8), h, h)
			VCVTPH2PS(h, x)
			store(x, out(32*j))
		}
	}
	return p
}

// E4M3 -> float: the sign-extended byte shifted left by 7, with bit 14
// cleared, is a half whose value is the E4M3's times 2^-8 (E4M3's exponent
// field as half's, a subnormal E4M3 a subnormal half); VCVTPH2PS converts it
// exactly (subnormal halves at full speed, unlike binary32 subnormal
// arithmetic) and the product by 2^8 of that normal float is exact. The NaN
// S.1111.111, which gave +-480, becomes +-0x7ff00000, as E4M3.Float32 gives.
func e4m3ToFloatPair() *pair {
	p := newMiniPair(kE4m3, kFloat, []string{""}, 64, 32)
	p.setup["AVX512"] = func(string) {
		mk.mag = bcst(0xbfffbfff, 4, 32)
		mk.c2p8 = bcst(f32(0x1p8), 4, 64)
		mk.nanCode = bcst(uint64(f32bits(480)<<1), 4, 64)
		mk.quiet = bcst(0x7ff00000, 4, 64)
	}
	p.gen["AVX512"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 4; j++ {
			h, x, u := YMM(), ZMM(), ZMM()
			k := K()
			VPMOVSXBW(in(16*j), h)
			VPSLLW(U8(7), h, h)
			VPAND(mk.mag, h, h)
			VCVTPH2PS(h, x)
			VMULPS(mk.c2p8, x, x)
			VPSLLD(U8(1), x, u) // |x|'s bits, shifted
			VPCMPUD(U8(pEQ), mk.nanCode, u, k)
			VPORD(mk.quiet, x, k, x)
			store(x, out(64*j))
		}
	}
	p.gen["AVX2"] = func(_ string, in, out func(int) Mem) {
		for j := 0; j < 4; j++ {
			h, x, u := XMM(), YMM(), YMM()
			VPMOVSXBW(in(8*j), h)
			VPSLLW(U8(7), h, h)
			VPAND(km(0xbfffbfff), h, h)
			VCVTPH2PS(h, x)
			VMULPS(km(f32bits(0x1p8)), x, x)
			VPSLLD(U8(1), x, u)
			VPCMPEQD(km(f32bits(480)<<1), u, u)
			VPAND(km(0x7ff00000), u, u)
			VPOR(u, x, x)
			store(x, out(32*j))
		}
	}
	return p
}

// miniKernels emits every mini kernel, then their streaming forms.
func miniKernels(ps []*pair) {
	miniData()
	for _, stream := range []bool{false, true} {
		nt = stream
		for _, p := range ps {
			for _, t := range tiers {
				for _, v := range p.variants {
					kernel(p, t, v)
				}
			}
		}
	}
	nt = false
}

// writeMiniHooks writes the tables of the mini kernels and the hooks that
// convert/simd_mini.go calls, and their fallbacks.
func writeMiniHooks(b, o *bytes.Buffer, ps []*pair) {
	b.WriteString("// The kernels of simd_mini.go, by pair: float -> bfloat16, E4M3, E5M2 (each\n// without and with _sat), and back.\n\n")
	var to, toNT, from, fromNT []string
	for _, p := range ps {
		kn := "simd" + p.name() + "Kernels"
		for _, nts := range []string{"", "NT"} {
			fmt.Fprintf(b, "var %s%s = simdKernels{\n", kn, nts)
			for ti, t := range tiers {
				fmt.Fprintf(b, "%d: {", ti+1)
				for _, v := range p.variants {
					fmt.Fprintf(b, "%s%s, ", kernelName(p, t, v), nts)
				}
				fmt.Fprintf(b, "}, // %s\n", t)
			}
			b.WriteString("}\n\n")
		}
		if p.s == kFloat {
			to, toNT = append(to, "&"+kn), append(toNT, "&"+kn+"NT")
		} else {
			from, fromNT = append(from, "&"+kn), append(fromNT, "&"+kn+"NT")
		}
	}
	row := func(xs []string, i int) string { return xs[i] + ", " + xs[i+1] }
	b.WriteString("// simdFloatToMiniKernels holds the float -> mini kernels by miniKind, then\n// without and with _sat; NT the streaming ones.\n")
	fmt.Fprintf(b, "var simdFloatToMiniKernels = [3][2]*simdKernels{{%s}, {%s}, {%s}}\n\n", row(to, 0), row(to, 2), row(to, 4))
	fmt.Fprintf(b, "var simdFloatToMiniKernelsNT = [3][2]*simdKernels{{%s}, {%s}, {%s}}\n\n", row(toNT, 0), row(toNT, 2), row(toNT, 4))
	b.WriteString("// simdMiniToFloatKernels holds the mini -> float kernels by miniKind.\n")
	fmt.Fprintf(b, "var simdMiniToFloatKernels = [3]*simdKernels{%s, %s, %s}\n\n", from[0], from[1], from[2])
	fmt.Fprintf(b, "var simdMiniToFloatKernelsNT = [3]*simdKernels{%s, %s, %s}\n\n", fromNT[0], fromNT[1], fromNT[2])
	minTo, minFrom := 0, 0
	for _, p := range ps {
		for _, t := range tiers {
			if p.s == kFloat && (minTo == 0 || p.block[t] < minTo) {
				minTo = p.block[t]
			}
			if p.s != kFloat && (minFrom == 0 || p.block[t] < minFrom) {
				minFrom = p.block[t]
			}
		}
	}
	fmt.Fprintf(b, `// simdFloatToMiniHook is simdFloatToMini: destinations of simdStreamBytes and
// more go through the streaming kernels after a head converted in Go up to
// 64-byte alignment.
func simdFloatToMiniHook(k miniKind, dst unsafe.Pointer, src []float32, m round.Mode, sat bool) int {
	if k > miniE5M2 || len(src) < %d { // shorter than any tier's block
		return 0
	}
	size := k.size()
	if f, h, ok := simdStream(simdFloatToMiniKernelsNT[k][simdSat(sat)], simdMode(m), dst, len(src), size); ok {
		for i := range h {
			miniStore(k, dst, i, miniFromFloat32(k, src[i], m, sat))
		}
		return h + f((*byte)(unsafe.Add(dst, h*size)), (*byte)(unsafe.Pointer(&src[h])), len(src)-h)
	}
	return simdRun(simdFloatToMiniKernels[k][simdSat(sat)], simdMode(m), (*byte)(dst), (*byte)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
}

// simdMiniToFloatHook is simdMiniToFloat, streaming as simdFloatToMiniHook does.
func simdMiniToFloatHook(k miniKind, dst []float32, src unsafe.Pointer) int {
	if k > miniE5M2 || len(dst) < %d {
		return 0
	}
	if f, h, ok := simdStream(simdMiniToFloatKernelsNT[k], 0, unsafe.Pointer(unsafe.SliceData(dst)), len(dst), 4); ok {
		for i := range h {
			dst[i] = miniToFloat32(k, miniLoad(k, src, i))
		}
		return h + f((*byte)(unsafe.Pointer(&dst[h])), (*byte)(unsafe.Add(src, h*k.size())), len(dst)-h)
	}
	return simdRun(simdMiniToFloatKernels[k], 0, (*byte)(unsafe.Pointer(unsafe.SliceData(dst))), (*byte)(src), len(dst))
}

`, minTo, minFrom)
	o.WriteString(`// simdFloatToMiniHook converts nothing without assembly.
func simdFloatToMiniHook(k miniKind, dst unsafe.Pointer, src []float32, m round.Mode, sat bool) int {
	return 0
}

// simdMiniToFloatHook converts nothing without assembly.
func simdMiniToFloatHook(k miniKind, dst []float32, src unsafe.Pointer) int { return 0 }

`)
}
