package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The element conversions: float32 -> E2M1, E2M3, E3M2 (mxe{E2M1,E2M3,E3M2}{RTE,RTZ,RTP,RTN})
// and float32 -> E8M0 (mxeE8M0{,Sat}{RTE,RTZ,RTP}; E8M0 has no sign, so
// RTN is RTZ), one code a byte, 64 elements an iteration: the bits of
// fp4.E2M1FromFloat32, fp6.E2M3FromFloat32, fp6.E3M2FromFloat32 (the _sat
// forms give the same) and fp8.E8M0FromFloat32{,Sat} (mx/elemconv.go).
// Registers are allocated by avo.

// smallElem is what an element conversion bakes in of E2M1, E2M3 or E3M2.
type smallElem struct {
	name                    string
	mant, bias, width, maxC int
}

var smallElems = []smallElem{{"E2M1", 1, 1, 4, 7}, {"E2M3", 3, 1, 6, 0x1f}, {"E3M2", 2, 3, 6, 0x1f}}

const eSig = "func(dst *byte, src *uint32, n int) int"

// bcastD returns a new register holding v in every dword.
func bcastD(v uint32) VecVirtual {
	r, z := GP32(), ZMM()
	MOVL(U32(v), r)
	VPBROADCASTD(r, z)
	return z
}

// elemLoop writes the loop of an element conversion: body turns the 16
// float32 patterns in its argument into 16 codes (dwords below 256); four
// such are packed to 64 bytes in element order and stored.
func elemLoop(name, doc string, setup func(), body func(b VecVirtual) VecVirtual) {
	text(name, eSig, doc)
	dst, src, n := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("n"), GP64())
	ANDQ(I8(-64), n)
	i := GP64()
	XORQ(i, i)
	setup()
	perm := ZMM()
	VMOVDQU32(bytePairPerm, perm)
	Label("loop")
	CMPQ(i, n)
	JAE(LabelRef("done"))
	for d := 0; d < 256; d += 64 {
		PREFETCHT0(Mem{Base: src, Disp: prefetch + d})
	}
	var t [4]VecVirtual
	for j := range t {
		b := ZMM()
		VMOVDQU32(Mem{Base: src, Disp: 64 * j}, b)
		t[j] = body(b)
	}
	// Codes to bytes, as the quantization kernels' pair loop narrows: two
	// word packs and a byte pack leave lane k with four codes of each
	// quarter; bytePairPerm puts the dwords in element order.
	VPACKUSDW(t[1], t[0], t[0])
	VPACKUSDW(t[3], t[2], t[2])
	VPACKUSWB(t[2], t[0], t[0])
	VPERMD(t[0], perm, t[0])
	VMOVDQU32(t[0], Mem{Base: dst})
	ADDQ(U32(256), src)
	ADDQ(U8(64), dst)
	ADDQ(U8(64), i)
	JMP(LabelRef("loop"))
	Label("done")
	Store(n, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// smallElemKernel writes float32 -> E2M1, E2M3 or E3M2 in mode md, as
// smallfast.Round and fp4/fp6's e*From32 do: |x|, clamped to the grid
// point above MAX, plus c = 1.5 * 2^23 * q (q the format's quantum at |x|'s
// binade, at least the smallest one) in one addition rounded in the mode
// (the directed modes round |x| up or toward zero by x's sign); the sum's
// pattern minus c's, plus the binade's first code, is the code, clamped to
// MAX (these formats saturate with or without _sat; an infinity lands on
// the grid point above MAX). A NaN gives +0, any other value its sign.
// No binary32 subnormal is produced; a subnormal operand is exact.
func smallElemKernel(f smallElem, md string) {
	shift := 23 - f.mant
	qmin := 1 - f.bias - f.mant
	eminBits := uint32(qmin+f.mant+127) << 23
	cAdd := uint32(shift)<<23 | 1<<22
	zk := cAdd + eminBits>>shift
	limit := uint32(f.maxC+1)<<shift + uint32(127-f.bias)<<23
	name := "mxe" + f.name + md
	var abs, lim, exp, emin, add, zkr, maxc, low, inf, sign VecVirtual
	setup := func() {
		abs, lim, exp = bcastD(0x7fffffff), bcastD(limit), bcastD(0x7f800000)
		emin, add, zkr = bcastD(eminBits), bcastD(cAdd), bcastD(zk)
		maxc, low, inf = bcastD(uint32(f.maxC)), bcastD(uint32(1)<<(f.width-1)-1), bcastD(0x7f800000)
		if md == "RTP" || md == "RTN" {
			sign = bcastD(0x80000000)
		}
	}
	body := func(b VecVirtual) VecVirtual {
		ab, y, u, cb, z, o, t, s := ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM(), ZMM()
		VPANDD(abs, b, ab)
		VPMINUD(lim, ab, y)
		VPANDD(exp, y, u)
		VPMAXUD(emin, u, u)
		VPADDD(add, u, cb)
		VPADDD(zkr, u, z)
		VPSRLD(U8(uint8(shift)), u, o)
		VPSUBD(o, z, z)
		switch md {
		case "RTE":
			VADDPS_RN_SAE(cb, y, t)
		case "RTZ":
			VADDPS_RZ_SAE(cb, y, t)
		default:
			away := K()
			if md == "RTP" {
				VPTESTNMD(sign, b, away) // positive: |x| up
			} else {
				VPTESTMD(sign, b, away) // negative: |x| up
			}
			VADDPS_RZ_SAE(cb, y, t)
			VADDPS_RU_SAE(cb, y, away, t)
		}
		VPSUBD(z, t, t)
		VPMINUD(maxc, t, t)
		// The sign from x's top bits; a NaN's lane zeroed.
		num := K()
		VPCMPUD(U8(2), inf, ab, num) // |x| <= inf
		VPSRLD(U8(uint8(32-f.width)), b, s)
		VPTERNLOGD_Z(U8(0xe4), low, s, num, t) // t where low is set, else s
		return t
	}
	elemLoop(name, fmt.Sprintf("%s converts the first n &^ 63 float32 at src to %s codes, one a byte, in %s, as the package's Go code does, and returns how many it converted.", name, f.name, md), setup, body)
}

// e8m0Kernel writes float32 -> E8M0 in mode md (RTE, RTZ or RTP), with
// _sat if sat, as fp8's e8m0From32 does, on the bits alone. A positive
// pattern a at least 2^-126 rounds to (a + r) >> 23, r = 0x400000 (rte: a
// tie 1.5 * 2^k goes up), 0x7fffff (rtp) or 0 (rtz). A subnormal one, a in
// [0x400000, 0x800000) (2^-127 up), rounds as if its mantissa were 2a -
// 0x800000, and everything below 2^-127 as 2^-127 itself: with a' =
// max(a, 0x400000), the code is (a' + min(a', 0x800000) - 0x800000 + r)
// >> 23 for every positive pattern. Beyond 2^127, the infinity and the
// NaNs give 0xFF (0x100 for some NaNs, hence the clamp), or under _sat
// 0xFE but 0xFF for the NaNs; zero, the negative values and -infinity give
// 0xFF, or 0x00 under _sat.
func e8m0Kernel(md string, sat bool) {
	r := map[string]uint32{"RTE": 0x400000, "RTZ": 0, "RTP": 0x7fffff}[md]
	name := "mxeE8M0" + md
	if sat {
		name = "mxeE8M0Sat" + md
	}
	var lo, mid, bias, top, ff, zero VecVirtual
	setup := func() {
		lo, mid, bias = bcastD(0x400000), bcastD(0x800000), bcastD(r-0x800000)
		ff, zero = bcastD(0xff), ZMM()
		VPXORD(zero, zero, zero)
		top = ff
		if sat {
			top = bcastD(0xfe)
		}
	}
	body := func(b VecVirtual) VecVirtual {
		a, m, pos := ZMM(), ZMM(), K()
		// Negative patterns go through too (their lanes are replaced).
		VPMAXUD(lo, b, a)
		VPMINUD(mid, a, m)
		VPADDD(m, a, a)
		VPADDD(bias, a, a)
		VPSRLD(U8(23), a, a)
		VPMINUD(top, a, a)
		if !sat {
			VPCMPD(U8(2), zero, b, pos) // b <= 0 as int32: zero, negative, -NaN
			VMOVDQA32(ff, pos, a)
			return a
		}
		VPCMPD(U8(6), zero, b, pos) // b > 0 as int32: positive, +NaN included
		nan := K()
		VMOVDQA32_Z(a, pos, a)
		VFPCLASSPSZ(U8(0x81), b, nan) // QNaN or SNaN
		VMOVDQA32(ff, nan, a)
		return a
	}
	s := ""
	if sat {
		s = " with _sat"
	}
	elemLoop(name, fmt.Sprintf("%s converts the first n &^ 63 float32 at src to E8M0 codes in %s%s, as the package's Go code does, and returns how many it converted.", name, md, s), setup, body)
}

// elemKernels writes every element conversion.
func elemKernels() {
	for _, f := range smallElems {
		for _, md := range modes {
			smallElemKernel(f, md)
		}
	}
	for _, sat := range []bool{false, true} {
		for _, md := range []string{"RTE", "RTZ", "RTP"} {
			e8m0Kernel(md, sat)
		}
	}
}
