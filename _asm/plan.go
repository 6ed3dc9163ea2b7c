package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Plans: the AVX-512 kernels of every conversion that the families above do
// not cover. A plan converts in three steps, each a row of the tables below:
//
//  1. an exact widening of the source into lanes that hold every source value
//     exactly (sign or zero extension, VCVTPH2PS, VCVTPS2PD, VCVTDQ2PD);
//  2. exactly one step that rounds or clamps, in the conversion's mode
//     (embedded rounding or VCVTPS2PH's immediate) or to the destination's
//     range (integer min/max, or float min/max before an exact conversion);
//  3. an exact narrowing (truncation of values already in range) and a store.
//
// A block is four units; a unit is as many elements as fill one zmm register
// in the widest lanes the plan uses. Units narrow into registers; the store
// writes them, or in the streaming kernels first combines them into 32- or
// 64-byte registers for VMOVNTDQ.

// isF reports whether k is a floating type.
func isF(k kind) bool { return k == kHalf || k == kFloat || k == kDouble }

// irange is the value range of integer kind k.
func irange(k kind) (lo, hi int64, uhi uint64) {
	bits := 8 * k.size
	if k.signed {
		return -1 << (bits - 1), 1<<(bits-1) - 1, 1<<(bits-1) - 1
	}
	if bits == 64 {
		return 0, math.MaxInt64, math.MaxUint64
	}
	return 0, 1<<bits - 1, 1<<bits - 1
}

// vecOf returns a new vector register of the given byte width (8 and 16 use
// an xmm).
func vecOf(bytes int) reg.VecVirtual {
	switch bytes {
	case 64:
		return ZMM()
	case 32:
		return YMM()
	}
	return XMM()
}

// as returns v viewed at the given byte width.
func as(v reg.VecVirtual, bytes int) reg.VecVirtual {
	switch bytes {
	case 64:
		return v.AsZ().(reg.VecVirtual)
	case 32:
		return v.AsY().(reg.VecVirtual)
	}
	return v.AsX().(reg.VecVirtual)
}

// rep replicates the low size bytes of v over a dword.
func rep(v uint64, size int) uint64 {
	switch size {
	case 1:
		v &= 0xff
		return v * 0x01010101
	case 2:
		v &= 0xffff
		return v * 0x00010001
	}
	return v
}

// Integer lane operations by lane size.
var (
	minS  = map[int]op{1: VPMINSB, 2: VPMINSW, 4: VPMINSD, 8: VPMINSQ}
	maxS  = map[int]op{1: VPMAXSB, 2: VPMAXSW, 4: VPMAXSD, 8: VPMAXSQ}
	minU  = map[int]op{1: VPMINUB, 2: VPMINUW, 4: VPMINUD, 8: VPMINUQ}
	extSX = map[[2]int]op{{1, 2}: VPMOVSXBW, {1, 4}: VPMOVSXBD, {1, 8}: VPMOVSXBQ, {2, 4}: VPMOVSXWD, {2, 8}: VPMOVSXWQ, {4, 8}: VPMOVSXDQ}
	extZX = map[[2]int]op{{1, 2}: VPMOVZXBW, {1, 4}: VPMOVZXBD, {1, 8}: VPMOVZXBQ, {2, 4}: VPMOVZXWD, {2, 8}: VPMOVZXWQ, {4, 8}: VPMOVZXDQ}
	trunc = map[[2]int]op{{2, 1}: VPMOVWB, {4, 1}: VPMOVDB, {4, 2}: VPMOVDW, {8, 1}: VPMOVQB, {8, 2}: VPMOVQW, {8, 4}: VPMOVQD}

	cvtps2qqZ  = map[string]func(a, k, b Op){"RTE": VCVTPS2QQ_RN_SAE_Z, "RTZ": VCVTPS2QQ_RZ_SAE_Z, "RTP": VCVTPS2QQ_RU_SAE_Z, "RTN": VCVTPS2QQ_RD_SAE_Z}
	cvtps2uqqZ = map[string]func(a, k, b Op){"RTE": VCVTPS2UQQ_RN_SAE_Z, "RTZ": VCVTPS2UQQ_RZ_SAE_Z, "RTP": VCVTPS2UQQ_RU_SAE_Z, "RTN": VCVTPS2UQQ_RD_SAE_Z}
	cvtpd2qqZ  = map[string]func(a, k, b Op){"RTE": VCVTPD2QQ_RN_SAE_Z, "RTZ": VCVTPD2QQ_RZ_SAE_Z, "RTP": VCVTPD2QQ_RU_SAE_Z, "RTN": VCVTPD2QQ_RD_SAE_Z}
	cvtpd2uqqZ = map[string]func(a, k, b Op){"RTE": VCVTPD2UQQ_RN_SAE_Z, "RTZ": VCVTPD2UQQ_RZ_SAE_Z, "RTP": VCVTPD2UQQ_RU_SAE_Z, "RTN": VCVTPD2UQQ_RD_SAE_Z}
	cvtpd2dq   = map[string]op{"RTE": VCVTPD2DQ_RN_SAE, "RTZ": VCVTPD2DQ_RZ_SAE, "RTP": VCVTPD2DQ_RU_SAE, "RTN": VCVTPD2DQ_RD_SAE}
)

// cmpNEQ is VCMPPD's NEQ_OQ: ordered and not equal (false for NaN).
const cmpNEQ = 0x0c

// A plan is one pair's three steps. unit returns the elements per unit;
// setup broadcasts the constants of a variant; conv converts the unit at
// input m into a register of unit*d.size bytes.
type plan struct {
	doc   string
	unit  int
	setup func(variant string)
	conv  func(variant string, m Mem) reg.VecVirtual
	store func(rs []reg.VecVirtual, ub int, out func(int) Mem) // nil: storeUnits
}

// planConsts are the registers a plan's setup fills.
var pk struct {
	lo, hi, c63, max, zero, one reg.VecVirtual
}

// planFor returns the plan of s -> d and its variants (rounding modes, wrap
// and sat, or the one exact variant ""), or nil for an identity.
func planFor(s, d kind) (*plan, []string, bool) {
	switch {
	case s == d:
		return nil, nil, false
	case !isF(s) && !isF(d):
		return intToIntPlan(s, d)
	case isF(s) && !isF(d):
		return floatToIntPlan(s, d), modes, false
	case !isF(s):
		return intToFloatPlan(s, d)
	}
	return floatToFloatPlan(s, d)
}

// intToIntPlan: load the source lanes, clamp them to the destination's range
// in the source's own width (sat only), then sign- or zero-extend (by the
// source's signedness) or truncate to the destination's width. Clamping
// before the width change is exact: the clamped value fits both types.
func intToIntPlan(s, d kind) (*plan, []string, bool) {
	slo, _, suhi := irange(s)
	dlo, _, duhi := irange(d)
	needLo := dlo > slo   // only a signed source can be below the range
	needHi := duhi < suhi // compared as unsigned maxima
	wide := max(s.size, d.size)
	p := &plan{unit: 64 / wide}
	sb := p.unit * s.size // source bytes per unit
	p.doc = fmt.Sprintf("%d-bit lanes", 8*s.size)
	lo, hi := rep(uint64(dlo), s.size), rep(duhi, s.size)
	p.setup = func(v string) {
		if v != "Sat" {
			return
		}
		elem := 4
		if s.size == 8 {
			elem = 8
		}
		if needLo {
			pk.lo = bcst(lo, elem, 64)
		}
		if needHi {
			pk.hi = bcst(hi, elem, 64)
		}
	}
	p.conv = func(v string, m Mem) reg.VecVirtual {
		x := vecOf(sb)
		switch {
		case v == "Sat" && (needLo || needHi):
			loadBytes(m, x, sb)
			if needLo {
				maxS[s.size](as(pk.lo, max(sb, 16)), x, x)
			}
			if needHi {
				if s.signed {
					minS[s.size](as(pk.hi, max(sb, 16)), x, x)
				} else {
					minU[s.size](as(pk.hi, max(sb, 16)), x, x)
				}
			}
		case d.size > s.size:
			// Extend straight from memory.
			o := vecOf(p.unit * d.size)
			ext(s, d.size)(m, o)
			return o
		default:
			loadBytes(m, x, sb)
		}
		switch {
		case d.size > s.size:
			o := vecOf(p.unit * d.size)
			ext(s, d.size)(as(x, max(sb, 16)), o)
			return o
		case d.size < s.size:
			o := vecOf(max(p.unit*d.size, 16))
			trunc[[2]int{s.size, d.size}](x, o)
			return o
		}
		return x
	}
	if needLo || needHi {
		p.doc += ", clamped to " + d.name + "'s range when saturating"
	}
	if d.size > s.size {
		p.doc += ", extended to " + fmt.Sprint(8*d.size)
	} else if d.size < s.size {
		p.doc += ", truncated to " + fmt.Sprint(8*d.size)
	}
	if needLo || needHi {
		return p, []string{"Wrap", "Sat"}, true
	}
	return p, []string{""}, false
}

// ext is the extension of s to size bytes per lane.
func ext(s kind, size int) op {
	if s.signed {
		return extSX[[2]int{s.size, size}]
	}
	return extZX[[2]int{s.size, size}]
}

// loadBytes loads n bytes (8 to 64) from m into x.
func loadBytes(m Mem, x reg.VecVirtual, n int) {
	switch n {
	case 8:
		VMOVQ(m, x)
	case 16, 32:
		VMOVDQU(m, x)
	default:
		VMOVDQU64(m, x)
	}
}

// floatToIntPlan: widen half exactly to float (or take float or double as
// they are), then round in the mode with the destination's clamp, then
// truncate the in-range integer to the destination's width.
//
//   - 8- and 16-bit destinations: clamp to [MIN, MAX] in the source's float
//     format (exact: the bounds are integers, and rounding is monotonic),
//     convert with the mode embedded, truncate (NaN: see below).
//   - int and long: convert where the value is ordered (NaN gives 0); the
//     values at or above 2^31 (2^63) gave the indefinite and become MAX; below
//     the range the indefinite is MIN.
//   - uint and ulong: convert only where 0 < x (NaN, -0 and negatives give 0);
//     above the range the unsigned conversion gives all ones, which is MAX.
func floatToIntPlan(s, d kind) *plan {
	p := &plan{}
	f64 := s == kDouble
	lanes := 4 // the source's lanes after widening
	if f64 {
		lanes = 8
	}
	out := d.size
	if d.size < 4 {
		out = 4 // the conversion's result lanes before truncation
	}
	p.unit = 64 / max(lanes, out)
	p.doc = "exact float lanes, rounded in the mode with the clamp"
	if s == kHalf {
		p.doc = "half widened exactly to float, rounded in the mode with the clamp"
	}
	dlo, dhi, _ := irange(d)
	bits := func(x float64) uint64 {
		if f64 {
			return math.Float64bits(x)
		}
		return f32(float32(x))
	}
	p.setup = func(string) {
		switch {
		case d.size <= 2:
			pk.lo = bcst(bits(float64(dlo)), lanes, 64)
			pk.hi = bcst(bits(float64(dhi)), lanes, 64)
		case d.signed:
			pk.c63 = bcst(bits(math.Ldexp(1, 8*d.size-1)), lanes, 64)
			if d.size == 8 {
				pk.max = bcst(math.MaxInt64, 8, 64)
			} else {
				pk.max = bcst(math.MaxInt32, 4, 64)
			}
		default:
			pk.zero = ZMM()
			VPXORD(pk.zero, pk.zero, pk.zero)
		}
	}
	p.conv = func(m string, in Mem) reg.VecVirtual {
		xb := p.unit * lanes // bytes of the widened source
		x := vecOf(xb)
		switch s {
		case kHalf:
			VCVTPH2PS(in, x)
		case kFloat:
			VMOVUPS(in, x)
		default:
			VMOVUPD(in, x)
		}
		rb := p.unit * out // bytes of the converted lanes
		r := vecOf(rb)
		switch {
		case d.size <= 2:
			// A NaN passes both bounds (each returns its second operand,
			// x, for NaN) and converts to the indefinite 0x80000000, whose
			// low 8 or 16 bits are the 0 that clconv gives NaN.
			lo, hi := as(pk.lo, xb), as(pk.hi, xb)
			if f64 {
				VMINPD(x, hi, x)
				VMAXPD(x, lo, x)
				cvtpd2dq[m](x, r)
			} else {
				VMINPS(x, hi, x)
				VMAXPS(x, lo, x)
				cvtps2dq[m](x, r)
			}
			o := vecOf(max(p.unit*d.size, 16))
			trunc[[2]int{4, d.size}](r, o)
			return o
		case d.signed:
			k, kb := K(), K()
			c63 := as(pk.c63, xb)
			if f64 {
				VCMPPD(U8(cmpORD), x, x, k)
				cvtpd2qqZ[m](x, k, r)
				VCMPPD(U8(cmpGE), c63, x, kb)
			} else {
				VCMPPS(U8(cmpORD), x, x, k)
				if d.size == 8 {
					cvtps2qqZ[m](x, k, r)
				} else {
					cvtps2dqZ[m](x, k, r)
				}
				VCMPPS(U8(cmpGE), c63, x, kb)
			}
			if d.size == 8 {
				VMOVDQA64(pk.max, kb, r)
			} else {
				VMOVDQA32(as(pk.max, rb), kb, r)
			}
			return r
		default:
			k := K()
			zero := as(pk.zero, xb)
			if f64 {
				VCMPPD(U8(cmpLT), x, zero, k)
				cvtpd2uqqZ[m](x, k, r)
			} else {
				VCMPPS(U8(cmpLT), x, zero, k)
				if d.size == 8 {
					cvtps2uqqZ[m](x, k, r)
				} else {
					cvtps2udq[m](x, k, r)
				}
			}
			return r
		}
	}
	return p
}

// intToFloatPlan: integers to double are exact (VCVTDQ2PD after extension to
// dwords). To half: clamp to [-2^24, 2^24] in the source's width (every value
// beyond 65520 rounds like 2^24 in every mode: to infinity, or to 65504),
// convert exactly to float, then round once to half with VCVTPS2PH.
func intToFloatPlan(s, d kind) (*plan, []string, bool) {
	p := &plan{}
	if d == kDouble {
		p.unit = 8
		p.doc = "extended to dwords, then exactly to double"
		p.setup = func(string) {}
		p.conv = func(_ string, m Mem) reg.VecVirtual {
			o := ZMM()
			cvt := VCVTDQ2PD
			if s == kUint {
				cvt = VCVTUDQ2PD
			}
			if s.size == 4 {
				cvt(m, o)
				return o
			}
			x := YMM()
			ext(s, 4)(m, x)
			cvt(x, o)
			return o
		}
		return p, []string{""}, false
	}
	// d == kHalf
	p.unit = 64 / max(4, s.size)
	exact := s.size == 1
	p.doc = "exactly to float, then once to half in the mode"
	if !exact && s.size >= 4 {
		p.doc = "clamped to [-2^24, 2^24], " + p.doc
	}
	elem := max(4, s.size)
	p.setup = func(string) {
		if s.size >= 4 {
			if s.signed {
				pk.lo = bcst(uint64(1<<64-1<<24), elem, 64)
			}
			pk.hi = bcst(1<<24, elem, 64)
		}
	}
	p.conv = func(m string, in Mem) reg.VecVirtual {
		imm := U8(roundImm[m])
		if m == "" {
			imm = U8(0)
		}
		fb := p.unit * 4 // bytes of the float lanes
		f := vecOf(fb)
		switch {
		case s.size <= 2:
			ext(s, 4)(in, f)
		case s.size == 4:
			VMOVDQU32(in, f)
			if s.signed {
				VPMAXSD(pk.lo, f, f)
				VPMINSD(pk.hi, f, f)
			} else {
				VPMINUD(pk.hi, f, f)
			}
		default:
			q := ZMM()
			VMOVDQU64(in, q)
			if s.signed {
				VPMAXSQ(pk.lo, q, q)
				VPMINSQ(pk.hi, q, q)
			} else {
				VPMINUQ(pk.hi, q, q)
			}
			VPMOVQD(q, f)
		}
		VCVTDQ2PS(f, f)
		h := vecOf(p.unit * 2)
		VCVTPS2PH(imm, f, h)
		return h
	}
	if exact {
		return p, []string{""}, false
	}
	return p, modes, false
}

// floatToFloatPlan: half and float widen exactly to double (VCVTPH2PS,
// VCVTPS2PD; both quiet a signalling NaN and keep its payload). double ->
// half rounds to float to odd (toward zero, then the lowest bit set where the
// result is inexact: float keeps 13 more bits than half, so the second
// rounding cannot be a double rounding), then once to half with VCVTPS2PH.
func floatToFloatPlan(s, d kind) (*plan, []string, bool) {
	p := &plan{unit: 8}
	if d == kDouble {
		p.doc = "exactly to double"
		p.setup = func(string) {}
		p.conv = func(_ string, m Mem) reg.VecVirtual {
			o := ZMM()
			if s == kHalf {
				f := YMM()
				VCVTPH2PS(m, f)
				VCVTPS2PD(f, o)
				return o
			}
			VCVTPS2PD(m, o)
			return o
		}
		return p, []string{""}, false
	}
	if s != kDouble || d != kHalf {
		panic("no plan for " + s.name + " -> " + d.name)
	}
	p.doc = "to float rounded to odd, then once to half in the mode"
	p.setup = func(string) { pk.one = bcst(1, 4, 32) }
	p.conv = func(m string, in Mem) reg.VecVirtual {
		x, f, b, k := ZMM(), YMM(), ZMM(), K()
		VMOVUPD(in, x)
		VCVTPD2PS_RZ_SAE(x, f)
		VCVTPS2PD(f, b)
		VCMPPD(U8(cmpNEQ), x, b, k)
		VPORD(pk.one, f, k, f)
		h := XMM()
		VCVTPS2PH(U8(roundImm[m]), f, h)
		return h
	}
	return p, modes, false
}

// planPair wraps the plan of s -> d as a pair with AVX-512 kernels, and AVX2
// kernels where avx2Plan has a plan: four units per block, converted into
// registers, then stored.
func planPair(s, d kind) *pair {
	pl, variants, bySat := planFor(s, d)
	p := &pair{s: s, d: d, variants: variants, bySat: bySat, plan: pl.doc,
		block: map[string]int{"AVX512": 4 * pl.unit}, gen: map[string]func(string, func(int) Mem, func(int) Mem){}, setup: map[string]func(string){}}
	p.setup["AVX512"] = pl.setup
	p.gen["AVX512"] = planGen(pl, s, d)
	addAVX2Plan(p)
	return p
}

// addAVX2Plan gives pair p AVX2 kernels from avx2Plan where it has none and
// avx2Plan has a plan (the families of simd.go without AVX2 kernels, and the
// planned pairs).
func addAVX2Plan(p *pair) {
	if p.gen["AVX2"] != nil || avx2Plan == nil {
		return
	}
	pl := avx2Plan(p.s, p.d)
	if pl == nil {
		return
	}
	p.block["AVX2"] = 4 * pl.unit
	p.setup["AVX2"] = pl.setup
	p.gen["AVX2"] = planGen(pl, p.s, p.d)
}

// avx2Plan returns the AVX2 plan of s -> d (its units fill a ymm register in
// the widest lanes; conv's result register holds unit*d.size bytes, 4 to 32),
// with the same variants as planFor's, or nil where AVX2 has none. It is set
// by plan_avx2.go.
var avx2Plan func(s, d kind) *plan

// planGen is the block body of plan pl: four units, then their stores.
func planGen(pl *plan, s, d kind) func(string, func(int) Mem, func(int) Mem) {
	return func(v string, in, out func(int) Mem) {
		rs := make([]reg.VecVirtual, 4)
		for j := range rs {
			rs[j] = pl.conv(v, in(j*pl.unit*s.size))
		}
		store := storeUnits
		if pl.store != nil {
			store = pl.store
		}
		store(rs, pl.unit*d.size, out)
	}
}

// storeUnits writes four unit results of ub bytes each to out(0),
// out(ub), ... With plain stores each goes out as it is; the streaming
// kernels combine them into registers of up to 64 bytes (32 in the AVX2
// tier) for VMOVNTDQ (dst is 64-byte aligned, and the block's output is a
// multiple of the combined size).
func storeUnits(rs []reg.VecVirtual, ub int, out func(int) Mem) {
	if !nt {
		for j, r := range rs {
			m := out(j * ub)
			switch ub {
			case 4:
				VMOVD(as(r, 16), m)
			case 8:
				VMOVQ(as(r, 16), m)
			case 16:
				VMOVDQU(as(r, 16), m)
			case 32:
				VMOVDQU(as(r, 32), m)
			default:
				VMOVDQU64(r, m)
			}
		}
		return
	}
	most := 64
	if curTier == "AVX2" {
		most = 32
	}
	for ub < most && len(rs) > 1 {
		var next []reg.VecVirtual
		for j := 0; j+1 < len(rs); j += 2 {
			a, b := rs[j], rs[j+1]
			o := vecOf(2 * ub)
			switch ub {
			case 4:
				VPUNPCKLDQ(as(b, 16), as(a, 16), o)
			case 8:
				VPUNPCKLQDQ(as(b, 16), as(a, 16), o)
			case 16:
				VINSERTI128(U8(1), as(b, 16), as(a, 32), o)
			default:
				VINSERTI64X4(U8(1), as(b, 32), as(a, 64), o)
			}
			next = append(next, o)
		}
		rs, ub = next, 2*ub
	}
	for j, r := range rs {
		VMOVNTDQ(as(r, ub), out(j*ub))
	}
}

// planPairs returns a planned pair for every conversion between different
// types that has no family above.
func planPairs(have map[string]bool) []*pair {
	var ps []*pair
	for _, s := range allKinds {
		for _, d := range allKinds {
			if s == d || have[(&pair{s: s, d: d}).name()] {
				continue
			}
			ps = append(ps, planPair(s, d))
		}
	}
	return ps
}
