package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The K-quant scale searches, 16 sub-blocks at a time, one in each 32-bit
// lane. ggml's make_qkx2_quants, make_qx_quants and make_q3_quants sum over
// a sub-block's elements in order, so their bits cannot come from a
// vectorization along the elements; across sub-blocks each lane runs
// exactly the scalar sequence of float32 operations of the Go kernels
// (kfast.go, the reference for finite elements): every product rounded on
// its own (VMULPS then VADDPS, never a fused multiply-add), sums in element
// order, nearest_int as ggml's bit trick (+12582912, the low 23 bits,
// -0x400000), comparisons ordered (false for NaN) as C's. The branches of
// the scalar code become masks. A kernel evaluates every candidate scale
// (the Go kernels skip the ones they prove change nothing) and remembers,
// per lane, the inverse scale and minimum of the adopted candidate instead
// of its codes, which it recomputes once at the end: the codes are a
// function of those and the elements alone.
//
// The inputs are finite (the Go driver sends a super-block holding a NaN or
// an infinity to the Go kernels), so every NaN that arises comes from an
// invalid operation and is x86's default NaN 0xffc00000, whose nearest_int
// is 0 by the bit trick, as ni and nearestIntK make every NaN.
//
// Work area (float32 rows of 16 lanes, 64 bytes each): the elements,
// transposed (row i holds element i of the 16 sub-blocks), then the weights
// (and, for make_qx_quants and make_q3_quants, w*x), then the codes of the
// candidate being evaluated.

// Predicates of VCMPPS (ordered, quiet, except NEQ_UQ, true for NaN as C's
// !=).
const qk = 256

const (
	cmpEQ   = 0x00
	cmpNEQ  = 0x04
	cmpLTOQ = 0x11
	cmpGTOQ = 0x1e
)

// kconst holds the constants every search kernel uses.
type kconst struct {
	abs, magic, mant, bias, zero reg.VecVirtual
}

func newKconst() kconst {
	c := kconst{abs: bcstD(0x7fffffff), magic: bcstD(0x4b400000), mant: bcstD(0x7fffff), bias: bcstD(0x400000), zero: ZMM()}
	VPXORD(c.zero, c.zero, c.zero)
	return c
}

// nearest sets t to nearest_int(t), clamped to [lo, hi] (int32 lanes), as
// float32 when asFloat.
func (c kconst) nearest(t, lo, hi reg.VecVirtual, asFloat bool) {
	VADDPS(c.magic, t, t)
	VPANDD(c.mant, t, t)
	VPSUBD(c.bias, t, t)
	VPMAXSD(lo, t, t)
	VPMINSD(hi, t, t)
	if asFloat {
		VCVTDQ2PS(t, t)
	}
}

// gatherRows loads element i of the 16 sub-blocks of n float32 at xp into
// row i of the work area (transposing them), calling each with the row: for
// each 16 elements, 16 loads and a 16x16 transpose in registers (32-bit,
// then 64-bit interleaves within 128-bit lanes, then two rounds of 128-bit
// lane shuffles), not 16 gathers.
func gatherRows(xp, wk reg.Register, n int, zero reg.VecVirtual, each func(i int, v reg.VecVirtual)) {
	for h := 0; h < n/16; h++ {
		var r, a [16]reg.VecVirtual
		for j := 0; j < 16; j++ {
			r[j] = ZMM()
			VMOVUPS(Mem{Base: xp, Disp: 4*n*j + 64*h}, r[j])
		}
		// a[2j], a[2j+1]: rows 2j and 2j+1 interleaved, elements 0,1 and
		// 2,3 of each 128-bit lane.
		for j := 0; j < 8; j++ {
			a[2*j], a[2*j+1] = ZMM(), ZMM()
			VUNPCKLPS(r[2*j+1], r[2*j], a[2*j])
			VUNPCKHPS(r[2*j+1], r[2*j], a[2*j+1])
		}
		// b[4j+c]: in 128-bit lane L, element 4L+c of rows 4j..4j+3.
		var bq [16]reg.VecVirtual
		for j := 0; j < 4; j++ {
			for k := 0; k < 2; k++ {
				lo, hi := ZMM(), ZMM()
				VUNPCKLPD(a[4*j+2+k], a[4*j+k], lo)
				VUNPCKHPD(a[4*j+2+k], a[4*j+k], hi)
				bq[4*j+2*k], bq[4*j+2*k+1] = lo, hi
			}
		}
		// Column 4L+c: lane L of b[c], b[4+c], b[8+c], b[12+c].
		for c := 0; c < 4; c++ {
			e0, e1, e2, e3 := ZMM(), ZMM(), ZMM(), ZMM()
			VSHUFF32X4(U8(0x44), bq[4+c], bq[c], e0)
			VSHUFF32X4(U8(0xee), bq[4+c], bq[c], e1)
			VSHUFF32X4(U8(0x44), bq[12+c], bq[8+c], e2)
			VSHUFF32X4(U8(0xee), bq[12+c], bq[8+c], e3)
			for L := 0; L < 4; L++ {
				v := ZMM()
				src1, src2, imm := e0, e2, uint8(0x88)
				if L >= 2 {
					src1, src2 = e1, e3
				}
				if L%2 == 1 {
					imm = 0xdd
				}
				VSHUFF32X4(U8(imm), src2, src1, v)
				VMOVUPS(v, Mem{Base: wk, Disp: 64 * (16*h + 4*L + c)})
			}
		}
	}
	// each in element order (sums over the rows run in it).
	if each != nil {
		for i := 0; i < n; i++ {
			v := ZMM()
			VMOVUPS(Mem{Base: wk, Disp: 64 * i}, v)
			each(i, v)
		}
	}
}

// bcstGP returns a new zmm register with the int32 in r in every lane.
func bcstGP(r reg.Register) reg.VecVirtual {
	z := ZMM()
	VPBROADCASTD(r, z)
	return z
}

// storeCodes stores the codes t (int32 lanes, plus bias) of row i as bytes
// at L + 16i, zero in the lanes of mask zero.
func storeCodes(t reg.VecVirtual, zmask reg.Register, zero reg.VecVirtual, L reg.Register, i int) {
	VMOVDQA32(zero, zmask, t)
	VPMOVDB(t, Mem{Base: L, Disp: 16 * i})
}

// kqx2 emits make_qkx2_quants over 16 sub-blocks of n elements (weights
// |x| when mad, the sum of absolute errors; else av_x + |x| with av_x =
// sqrtf(sum x^2 / n), squared errors: Q2_K and Q4_K/Q5_K). cs holds the nc
// numerators rmin + rdelta*is + nmax of the candidates.
func kqx2(name string, n int, mad bool) {
	TEXT(name, NOSPLIT, "func(x *float32, work *float32, cs *float32, nc int, nmax int32, scale *float32, mn *float32, L *byte)")
	Doc(name + " is make_qkx2_quants over the 16 sub-blocks of " + itoa(n) + " finite float32 at x, one in each lane: the scales to scale, -min to mn, the codes transposed (16 bytes per element index) to L; work holds " + itoa(3*n+7) + " rows of 16 float32, cs the nc candidates' numerators.")
	xp, wk, L := Load(Param("x"), GP64()), Load(Param("work"), GP64()), Load(Param("L"), GP64())
	c := newKconst()
	X := func(i int) Mem { return Mem{Base: wk, Disp: 64 * i} }
	W := func(i int) Mem { return Mem{Base: wk, Disp: 64 * (n + i)} }
	F := func(i int) Mem { return Mem{Base: wk, Disp: 64 * (2*n + i)} }
	// State kept in memory, rows 3n.. of the work area.
	S := func(k int) Mem { return Mem{Base: wk, Disp: 64 * (3*n + k)} }
	lo0, hiM, sumWM, sumXM, bestIsM, bestLoM, scaleM := S(0), S(1), S(2), S(3), S(4), S(5), S(6)

	var sumX2 reg.VecVirtual
	if !mad {
		sumX2 = ZMM()
		VMOVAPS(c.zero, sumX2)
	}
	gatherRows(xp, wk, n, c.zero, func(i int, v reg.VecVirtual) {
		if !mad {
			t := ZMM()
			VMULPS(v, v, t)
			VADDPS(t, sumX2, sumX2)
		}
	})
	var avX reg.VecVirtual
	if !mad {
		avX = ZMM()
		VDIVPS(bcstD(math.Float32bits(float32(n))), sumX2, avX) // sum_x2 / n
		VSQRTPS(avX, avX)
	}
	lo, hi, sumW, sumX := ZMM(), ZMM(), ZMM(), ZMM()
	for i := 0; i < n; i++ {
		v, w := ZMM(), ZMM()
		VMOVUPS(X(i), v)
		VPANDD(c.abs, v, w)
		if !mad {
			VADDPS(w, avX, w)
		}
		VMOVUPS(w, W(i))
		if i == 0 {
			VMOVAPS(v, lo)
			VMOVAPS(v, hi)
			VMOVAPS(w, sumW)
			VMULPS(v, w, sumX)
			continue
		}
		k := K()
		VCMPPS(U8(cmpLTOQ), lo, v, k) // v < lo
		VMOVAPS(v, k, lo)
		VCMPPS(U8(cmpGTOQ), hi, v, k) // v > hi
		VMOVAPS(v, k, hi)
		VADDPS(w, sumW, sumW)
		t := ZMM()
		VMULPS(v, w, t)
		VADDPS(t, sumX, sumX)
	}
	{
		k := K()
		VCMPPS(U8(cmpGTOQ), c.zero, lo, k) // lo > 0
		VMOVAPS(c.zero, k, lo)
	}
	flat := K()
	VCMPPS(U8(cmpEQ), lo, hi, flat) // hi == lo
	VMOVUPS(lo, lo0)
	VMOVUPS(hi, hiM)
	VMOVUPS(sumW, sumWM)
	VMOVUPS(sumX, sumXM)

	nmaxI := bcstGP(Load(Param("nmax"), GP32()))
	fn := ZMM()
	VCVTDQ2PS(nmaxI, fn)
	rg, isc, scale, bestErr := ZMM(), ZMM(), ZMM(), ZMM()
	VSUBPS(lo, hi, rg)
	VDIVPS(rg, fn, isc)
	VDIVPS(isc, bcstD(0x3f800000), scale) // 1 / iscale
	VMOVUPS(isc, bestIsM)
	VMOVUPS(lo, bestLoM)
	VMOVAPS(c.zero, bestErr)
	errTerm := func(d reg.VecVirtual, i int) {
		if mad {
			VPANDD(c.abs, d, d)
		} else {
			VMULPS(d, d, d)
		}
		VMULPS(W(i), d, d)
	}
	for i := 0; i < n; i++ {
		xv, t := ZMM(), ZMM()
		VMOVUPS(X(i), xv)
		VSUBPS(lo, xv, t)
		VMULPS(isc, t, t)
		c.nearest(t, c.zero, nmaxI, true)
		VMULPS(scale, t, t)
		VADDPS(lo, t, t)
		VSUBPS(xv, t, t)
		errTerm(t, i)
		VADDPS(t, bestErr, bestErr)
	}
	VMOVUPS(scale, scaleM)

	candidates(name, isc, rg, func() {
		sumL, sumL2, sumXL := ZMM(), ZMM(), ZMM()
		VMOVAPS(c.zero, sumL)
		VMOVAPS(c.zero, sumL2)
		VMOVAPS(c.zero, sumXL)
		for i := 0; i < n; i++ {
			xv, t, wl, u := ZMM(), ZMM(), ZMM(), ZMM()
			VMOVUPS(X(i), xv)
			VSUBPS(lo, xv, t)
			VMULPS(isc, t, t)
			c.nearest(t, c.zero, nmaxI, true)
			VMOVUPS(t, F(i))
			VMULPS(W(i), t, wl)
			VADDPS(wl, sumL, sumL)
			VMULPS(t, wl, u)
			VADDPS(u, sumL2, sumL2)
			VMULPS(xv, wl, u)
			VADDPS(u, sumXL, sumXL)
		}
		D, a, b := ZMM(), ZMM(), ZMM()
		// p*q - r*s, each product rounded on its own, into dst.
		mulSub := func(p, q, r, s Op, dst reg.VecVirtual) {
			VMULPS(p, q, a)
			VMULPS(r, s, b)
			VSUBPS(b, a, dst)
		}
		mulSub(sumWM, sumL2, sumL, sumL, D) // sum_w*sum_l2 - sum_l*sum_l
		ok := K()
		VCMPPS(U8(cmpGTOQ), c.zero, D, ok) // D > 0
		ts, tm := ZMM(), ZMM()
		mulSub(sumWM, sumXL, sumXM, sumL, ts) // sum_w*sum_xl - sum_x*sum_l
		VDIVPS(D, ts, ts)
		mulSub(sumXM, sumL2, sumXL, sumL, tm) // sum_l2*sum_x - sum_l*sum_xl
		VDIVPS(D, tm, tm)
		pos := K()
		VCMPPS(U8(cmpGTOQ), c.zero, tm, pos) // this_min > 0
		VMOVAPS(c.zero, pos, tm)
		VDIVPS(sumL2, sumXL, a)
		VMOVAPS(a, pos, ts)
		curErr := ZMM()
		VMOVAPS(c.zero, curErr)
		for i := 0; i < n; i++ {
			d := ZMM()
			VMULPS(F(i), ts, d)
			VADDPS(tm, d, d)
			VSUBPS(X(i), d, d)
			errTerm(d, i)
			VADDPS(d, curErr, curErr)
		}
		better := K()
		VCMPPS(U8(cmpLTOQ), bestErr, curErr, better) // cur_error < best_error
		KANDW(ok, better, better)
		VMOVAPS(curErr, better, bestErr)
		VMOVUPS(ts, better, scaleM)
		VMOVUPS(isc, better, bestIsM)
		VMOVUPS(lo, better, bestLoM)
		VMOVAPS(tm, better, lo)
		VMOVUPS(hiM, rg)
		VSUBPS(lo, rg, rg)
	})
	bestIs, bestLo := ZMM(), ZMM()
	VMOVUPS(bestIsM, bestIs)
	VMOVUPS(bestLoM, bestLo)
	for i := 0; i < n; i++ {
		t := ZMM()
		VMOVUPS(X(i), t)
		VSUBPS(bestLo, t, t)
		VMULPS(bestIs, t, t)
		c.nearest(t, c.zero, nmaxI, false)
		storeCodes(t, flat, c.zero, L, i)
	}
	VMOVUPS(scaleM, scale)
	VMOVAPS(c.zero, flat, scale)
	VMOVUPS(lo0, flat, lo)
	VPXORD(bcstD(0x80000000), lo, lo) // -min
	sp, mp := Load(Param("scale"), GP64()), Load(Param("mn"), GP64())
	VMOVUPS(scale, Mem{Base: sp})
	VMOVUPS(lo, Mem{Base: mp})
	VZEROUPPER()
	RET()
}

// candidates emits the loop over the nc candidate scales at cs (parameters
// cs and nc): isc = cs[is] / den, then body; the code after it follows the
// loop.
func candidates(name string, isc, den reg.VecVirtual, body func()) {
	cs, nc := Load(Param("cs"), GP64()), Load(Param("nc"), GP64())
	is := GP64()
	XORQ(is, is)
	Label(name + "cand")
	CMPQ(is, nc)
	JAE(LabelRef(name + "final"))
	VBROADCASTSS(Mem{Base: cs, Index: is, Scale: 4}, isc)
	VDIVPS(den, isc, isc)
	body()
	INCQ(is)
	JMP(LabelRef(name + "cand"))
	Label(name + "final")
}

// signedMaxLanes finds in each lane the element of largest magnitude (the
// first of equals; +0 when all are zeros) of the n rows from row 0, and
// writes w = x*x and wv = w*x to rows n+i and 2n+i.
func signedMaxLanes(wk reg.Register, n int, c kconst) (amax, mx reg.VecVirtual) {
	amax, mx = ZMM(), ZMM()
	VMOVAPS(c.zero, amax)
	VMOVAPS(c.zero, mx)
	for i := 0; i < n; i++ {
		v, a, w := ZMM(), ZMM(), ZMM()
		VMOVUPS(Mem{Base: wk, Disp: 64 * i}, v)
		VPANDD(c.abs, v, a)
		k := K()
		VCMPPS(U8(cmpGTOQ), amax, a, k) // a > amax
		VMOVAPS(a, k, amax)
		VMOVAPS(v, k, mx)
		VMULPS(v, v, w)
		VMOVUPS(w, Mem{Base: wk, Disp: 64 * (n + i)})
		VMULPS(v, w, w)
		VMOVUPS(w, Mem{Base: wk, Disp: 64 * (2*n + i)})
	}
	return
}

// sumsLX adds one element's terms of sum w*x*l and sum w*l*l, for the codes t
// (as float32) and rows w and wv (w*x), to sumlx and suml2.
func sumsLX(w, wv Mem, t, sumlx, suml2 reg.VecVirtual) {
	u := ZMM()
	VMULPS(wv, t, u)
	VADDPS(u, sumlx, sumlx)
	VMULPS(w, t, u)
	VMULPS(t, u, u)
	VADDPS(u, suml2, suml2)
}

// kqx emits make_qx_quants with rmse_type 1 and no weights over 16
// sub-blocks of 16 elements (Q6_K); cs holds the nc numerators
// -(nmax + 0.1*is) of the candidates.
func kqx(name string) {
	const n = 16
	TEXT(name, NOSPLIT, "func(x *float32, work *float32, cs *float32, nc int, nmax int32, scale *float32, L *byte)")
	Doc(name + " is make_qx_quants (rmse_type 1, no weights) over the 16 sub-blocks of 16 finite float32 at x, one in each lane: the scales to scale, the codes plus nmax transposed (16 bytes per element index) to L; work holds 48 rows of 16 float32, cs the nc candidates' numerators.")
	xp, wk, L := Load(Param("x"), GP64()), Load(Param("work"), GP64()), Load(Param("L"), GP64())
	c := newKconst()
	gatherRows(xp, wk, n, c.zero, nil)
	amax, mx := signedMaxLanes(wk, n, c)
	small := K()
	VCMPPS(U8(cmpLTOQ), bcstD(math.Float32bits(1e-15)), amax, small) // amax < GROUP_MAX_EPS
	nmax := Load(Param("nmax"), GP32())
	hiI := bcstGP(nmax)
	loI := ZMM()
	VPSUBD(hiI, c.zero, loI) // -nmax
	DECL(nmax)
	hiI1 := bcstGP(nmax) // nmax - 1
	isc, bestIs := ZMM(), ZMM()
	VCVTDQ2PS(loI, isc)
	VDIVPS(mx, isc, isc) // -nmax / max
	VMOVAPS(isc, bestIs)
	sums := func() (reg.VecVirtual, reg.VecVirtual) {
		sumlx, suml2 := ZMM(), ZMM()
		VMOVAPS(c.zero, sumlx)
		VMOVAPS(c.zero, suml2)
		for i := 0; i < n; i++ {
			t := ZMM()
			VMULPS(Mem{Base: wk, Disp: 64 * i}, isc, t)
			c.nearest(t, loI, hiI1, true)
			sumsLX(Mem{Base: wk, Disp: 64 * (n + i)}, Mem{Base: wk, Disp: 64 * (2*n + i)}, t, sumlx, suml2)
		}
		return sumlx, suml2
	}
	sumlx, suml2 := sums()
	scale, best := ZMM(), ZMM()
	{
		k := K()
		VCMPPS(U8(cmpNEQ), c.zero, suml2, k) // suml2 != 0
		VMOVAPS(c.zero, scale)
		VDIVPS_Z(suml2, sumlx, k, scale)
		VMULPS(sumlx, scale, best)
	}
	candidates(name, isc, mx, func() {
		sumlx, suml2 := sums()
		a, b := ZMM(), ZMM()
		VMULPS(sumlx, sumlx, a)
		VMULPS(suml2, best, b)
		k1, k2 := K(), K()
		VCMPPS(U8(cmpGTOQ), b, a, k1)          // sumlx*sumlx > best*suml2
		VCMPPS(U8(cmpGTOQ), c.zero, suml2, k2) // suml2 > 0
		KANDW(k2, k1, k1)
		VDIVPS(suml2, sumlx, a)
		VMULPS(sumlx, a, b)
		VMOVAPS(a, k1, scale)
		VMOVAPS(b, k1, best)
		VMOVAPS(isc, k1, bestIs)
	})
	for i := 0; i < n; i++ {
		t := ZMM()
		VMULPS(Mem{Base: wk, Disp: 64 * i}, bestIs, t)
		c.nearest(t, loI, hiI1, false)
		VPADDD(hiI, t, t)
		storeCodes(t, small, c.zero, L, i)
	}
	VMOVAPS(c.zero, small, scale)
	sp := Load(Param("scale"), GP64())
	VMOVUPS(scale, Mem{Base: sp})
	VZEROUPPER()
	RET()
}

// q3state is make_q3_quants' state over 16 lanes: the work area's rows of
// elements, w = x*x, w*x and codes (as float32), and the two sums.
type q3state struct {
	wk                  reg.Register
	c                   kconst
	loI, hiI, hiI1      reg.VecVirtual // -nmax, nmax, nmax-1
	sumlx, suml2, small reg.VecVirtual // small: amax < GROUP_MAX_EPS, as all-ones lanes
}

func (q *q3state) row(i int) Mem { return Mem{Base: q.wk, Disp: 64 * i} }

// step emits element i's update of a make_q3_quants pass (sqx holds
// sumlx*sumlx), adding the lanes whose code changed to changed.
func (q *q3state) step(i int, sqx reg.VecVirtual, changed reg.Register) {
	const n = 16
	c := q.c
	X, W, V, LF := q.row(i), q.row(n+i), q.row(2*n+i), q.row(3*n+i)
	li, slx, sl2, u := ZMM(), ZMM(), ZMM(), ZMM()
	VMOVUPS(LF, li)
	VMULPS(V, li, u)
	VSUBPS(u, q.sumlx, slx) // sumlx - w*x*l
	m := K()
	VCMPPS(U8(cmpGTOQ), c.zero, slx, m) // slx > 0
	VMULPS(W, li, u)
	VMULPS(li, u, u)
	VSUBPS(u, q.suml2, sl2)
	nl := ZMM()
	VMULPS(X, sl2, nl)
	VDIVPS(slx, nl, nl)
	c.nearest(nl, q.loI, q.hiI1, true)
	VCMPPS(U8(cmpNEQ), li, nl, m, m) // && new_l != L[i]
	VMULPS(V, nl, u)
	VADDPS(u, slx, slx)
	VMULPS(W, nl, u)
	VMULPS(nl, u, u)
	VADDPS(u, sl2, sl2)
	VCMPPS(U8(cmpGTOQ), c.zero, sl2, m, m) // && sl2 > 0
	a0, a := ZMM(), ZMM()
	VMULPS(slx, slx, a0)
	VMULPS(q.suml2, a0, a)
	VMULPS(sl2, sqx, u)
	VCMPPS(U8(cmpGTOQ), u, a, m, m) // && slx*slx*suml2 > sumlx*sumlx*sl2
	VMOVUPS(nl, m, LF)
	VMOVAPS(slx, m, q.sumlx)
	VMOVAPS(sl2, m, q.suml2)
	VMOVAPS(a0, m, sqx) // the new sumlx*sumlx
	KORW(m, changed, changed)
}

// passes emits up to the number in register np of make_q3_quants' passes
// (the do_rmse loop) over the states qs, their instructions interleaved
// element by element (each element's update waits on the sums the previous
// one left: independent streams fill that wait), stopping after a pass that
// changes no code (of a lane that is not small) in any of them, and leaves
// in r the lanes the last pass changed (bits 16*stream on).
func passes(name string, qs []*q3state, np, r reg.Register) {
	const n = 16
	sqx := make([]reg.VecVirtual, len(qs))
	for st, q := range qs {
		sqx[st] = ZMM()
		VMULPS(q.sumlx, q.sumlx, sqx[st]) // sumlx*sumlx, kept
	}
	MOVL(U32(0), r.(reg.GPVirtual).As32())
	TESTL(np.(reg.GPVirtual).As32(), np.(reg.GPVirtual).As32())
	JZ(LabelRef(name + "done"))
	zero := GP32()
	MOVL(U32(0), zero)
	Label(name + "iter")
	changed := make([]reg.Register, len(qs))
	for st := range qs {
		changed[st] = K()
		KMOVW(zero, changed[st])
	}
	for i := 0; i < n; i++ {
		for st, q := range qs {
			q.step(i, sqx[st], changed[st])
		}
	}
	MOVL(U32(0), r.(reg.GPVirtual).As32())
	for st, q := range qs {
		// Lanes of small blocks never keep the loop going.
		k := K()
		VPMOVD2M(q.small, k)
		KANDNW(changed[st], k, changed[st])
		t := GP32()
		KMOVW(changed[st], t)
		if st > 0 {
			SHLL(U8(16*st), t)
		}
		ORL(t, r.(reg.GPVirtual).As32())
	}
	TESTL(r.(reg.GPVirtual).As32(), r.(reg.GPVirtual).As32())
	JZ(LabelRef(name + "done"))
	DECL(np.(reg.GPVirtual).As32())
	JNZ(LabelRef(name + "iter"))
	Label(name + "done")
}

// finish stores the codes plus nmax (transposed bytes, 0 in small lanes),
// the scales sumlx/suml2 (0 where suml2 is not positive, and in small
// lanes) and the sums (sumlx, then suml2).
func (q *q3state) finish(L, sp, sums reg.Register, off int) {
	const n = 16
	c := q.c
	zs := K()
	VPMOVD2M(q.small, zs)
	for i := 0; i < n; i++ {
		t := ZMM()
		VCVTPS2DQ(q.row(3*n+i), t) // exact: the codes are integers
		VPADDD(q.hiI, t, t)
		storeCodes(t, zs, c.zero, L, 16*off+i)
	}
	scale := ZMM()
	k := K()
	VCMPPS(U8(cmpGTOQ), c.zero, q.suml2, k) // suml2 > 0
	VMOVAPS(c.zero, scale)
	VDIVPS_Z(q.suml2, q.sumlx, k, scale)
	VMOVAPS(c.zero, zs, scale)
	VMOVUPS(scale, Mem{Base: sp, Disp: 64 * off})
	VMOVUPS(q.sumlx, Mem{Base: sums, Disp: 128 * off})
	VMOVUPS(q.suml2, Mem{Base: sums, Disp: 128*off + 64})
}

// finishParams is finish with the kernel's parameters L, scale and sums.
func (q *q3state) finishParams(off int) {
	q.finish(Load(Param("L"), GP64()), Load(Param("scale"), GP64()), Load(Param("sums"), GP64()), off)
}

func newQ3state(wk reg.Register) *q3state {
	q := &q3state{wk: wk, c: newKconst()}
	q.setNmax()
	return q
}

func (q *q3state) setNmax() {
	nmax := Load(Param("nmax"), GP32())
	q.hiI = bcstGP(nmax)
	q.loI = ZMM()
	VPSUBD(q.hiI, q.c.zero, q.loI)
	DECL(nmax)
	q.hiI1 = bcstGP(nmax)
}

// kq3 emits make_q3_quants with do_rmse (Q3_K) in two kernels. The first,
// over the 16 sub-blocks of a super-block, one in each lane, computes the
// initial codes and runs up to np passes; the second takes 16 sub-blocks
// that still change (from any super-blocks, transposed into its work area
// with their codes and sums) for up to np more. A pass over a sub-block
// depends on the sums the previous element left, and ggml repeats it until
// no code changes: most sub-blocks stop after one pass, but a kernel runs
// as many as the slowest of its lanes, so the Go driver runs one pass
// in the first kernel and gathers the few sub-blocks that changed into full
// lanes of the second.
func kq3(name string) {
	const n, rows = 16, 64
	TEXT(name, NOSPLIT, "func(x0 *float32, x1 *float32, work *float32, nmax int32, scale *float32, L *byte, sums *float32) int")
	Doc(name + " is make_q3_quants (do_rmse) over the 16 sub-blocks of 16 float32 at x0 and those at x1, one in each lane of two streams, for one pass: the scales to scale (16 a stream), the codes plus nmax transposed (16 bytes per element index, 256 a stream) to L, sumlx and suml2 to sums (32 a stream); it returns the lanes the pass changed (bits 0-15 and 16-31), bit 32 (33) set when an element at x0 (x1) is not finite; work holds 128 rows of 16 float32.")
	wk := Load(Param("work"), GP64())
	c := newKconst()
	eps := bcstD(math.Float32bits(1e-15))
	expo := bcstD(0x7f800000)
	ret, zero := GP64(), GP32()
	MOVQ(U32(0), ret)
	MOVL(U32(0), zero)
	var qs [2]*q3state
	for st := 0; st < 2; st++ {
		q := &q3state{wk: wk, c: c}
		if st == 0 {
			q.setNmax()
		} else {
			q.loI, q.hiI, q.hiI1 = qs[0].loI, qs[0].hiI, qs[0].hiI1
			ADDQ(U32(64*rows), wk)
		}
		qs[st] = q
		xp := Load(Param("x"+itoa(st)), GP64())
		nf := K()
		KMOVW(zero, nf)
		gatherRows(xp, wk, n, c.zero, func(_ int, v reg.VecVirtual) {
			a, k := ZMM(), K()
			VPANDD(c.abs, v, a)
			VPCMPUD(U8(5), expo, a, k) // |x| bits >= 0x7f800000: NaN or infinity
			KORW(k, nf, nf)
		})
		KORTESTW(nf, nf)
		JZ(LabelRef(name + "fin" + itoa(st)))
		BTSQ(U8(32+st), ret)
		Label(name + "fin" + itoa(st))
		amax, mx := signedMaxLanes(wk, n, c)
		k := K()
		VCMPPS(U8(cmpLTOQ), eps, amax, k)
		q.small = ZMM()
		VPMOVM2D(k, q.small)
		isc := ZMM()
		VCVTDQ2PS(q.loI, isc)
		VDIVPS(mx, isc, isc) // -nmax / max
		q.sumlx, q.suml2 = ZMM(), ZMM()
		VMOVAPS(c.zero, q.sumlx)
		VMOVAPS(c.zero, q.suml2)
		for i := 0; i < n; i++ {
			t := ZMM()
			VMULPS(q.row(i), isc, t)
			c.nearest(t, q.loI, q.hiI1, true)
			VMOVUPS(t, q.row(3*n+i))
			sumsLX(q.row(n+i), q.row(2*n+i), t, q.sumlx, q.suml2)
		}
		if st == 1 {
			SUBQ(U32(64*rows), wk)
		}
	}
	// The second stream's rows are 64 further: a state of its own base.
	wk1 := GP64()
	LEAQ(Mem{Base: wk, Disp: 64 * rows}, wk1)
	qs[1].wk = wk1
	// One pass, the two streams' instructions interleaved: each element's
	// update waits on the sums the previous one left.
	var sqx [2]reg.VecVirtual
	var changed [2]reg.Register
	for st, q := range qs {
		sqx[st] = ZMM()
		VMULPS(q.sumlx, q.sumlx, sqx[st])
		changed[st] = K()
		KMOVW(zero, changed[st])
	}
	for i := 0; i < n; i++ {
		for st, q := range qs {
			q.step(i, sqx[st], changed[st])
		}
	}
	L, sp, sums := Load(Param("L"), GP64()), Load(Param("scale"), GP64()), Load(Param("sums"), GP64())
	for st, q := range qs {
		k := K()
		VPMOVD2M(q.small, k)
		KANDNW(changed[st], k, changed[st])
		r := GP64()
		KMOVW(changed[st], r.As32())
		if st == 1 {
			SHLQ(U8(16), r)
		}
		ORQ(r, ret)
		q.finish(L, sp, sums, st)
	}
	Store(ret, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// kq3more emits the second kernel of kq3: it gathers its lanes' elements,
// codes and sums from the first kernel's outputs by sub-block number, in two
// streams of 16 lanes whose passes interleave.
func kq3more(name string) {
	const n, rows = 16, 64
	TEXT(name, NOSPLIT, "func(x *float32, t *byte, sums *float32, sb *int32, nl int, work *float32, nmax int32, np int, scales *float32, L *byte) int")
	Doc(name + " runs up to np more passes of make_q3_quants (do_rmse) over nl (at most 32) sub-blocks, lane l taking sub-block sb[l] (16*super-block + sub-block) of the first kernel's batch: its elements from x (16*sb[l] on), its codes plus 4 from t (transposed, 256 bytes a super-block), its sums from sums (32 a super-block); it scatters the scales to scales[sb[l]] and the sums back to sums, and writes the codes plus nmax transposed (16 bytes per element index, lanes 16-31 256 bytes on) to L, returning the lanes the last pass changed; work holds 128 rows of 16 float32.")
	wk := Load(Param("work"), GP64())
	c := newKconst()
	xp, tp, sp := Load(Param("x"), GP64()), Load(Param("t"), GP64()), Load(Param("sums"), GP64())
	sbp, nlr := Load(Param("sb"), GP64()), GP64()
	Load(Param("nl"), nlr)
	byteMask, four, lo4 := bcstD(0xff), bcstD(4), bcstD(15)
	qs := make([]*q3state, 2)
	sbv, si := make([]reg.VecVirtual, 2), make([]reg.VecVirtual, 2)
	lanes := make([]reg.Register, 2)
	k := K()
	for st := range qs {
		q := &q3state{c: c}
		if st == 0 {
			q.wk = wk
			q.setNmax()
		} else {
			q.wk = GP64()
			LEAQ(Mem{Base: wk, Disp: 64 * rows}, q.wk)
			q.loI, q.hiI, q.hiI1 = qs[0].loI, qs[0].hiI, qs[0].hiI1
		}
		qs[st] = q
		// The lanes in use: min(nl - 16*st, 16), at least 0.
		m, one := GP64(), GP64()
		MOVQ(nlr, m)
		if st == 1 {
			SUBQ(U8(16), m)
			MOVQ(U32(0), one)
			CMOVQLT(one, m)
		}
		MOVQ(U32(16), one)
		CMPQ(m, one)
		CMOVQGT(one, m)
		MOVQ(U32(1), one)
		SHLXQ(m, one, one)
		DECQ(one)
		lanes[st] = K()
		KMOVW(one.As32(), lanes[st])
		sbv[st] = ZMM()
		VMOVDQU32_Z(Mem{Base: sbp, Disp: 64 * st}, lanes[st], sbv[st])
		// Element indexes 16*sb + i; code bytes at 256*(sb>>4) + (sb&15) +
		// 16*i; sums at 32*(sb>>4) + (sb&15) (+16 for suml2).
		xi, ti, hi := ZMM(), ZMM(), ZMM()
		si[st] = ZMM()
		VPSLLD(U8(4), sbv[st], xi)
		VPANDD(lo4, sbv[st], ti)
		VPSRLD(U8(4), sbv[st], hi)
		VPSLLD(U8(5), hi, si[st])
		VPORD(ti, si[st], si[st])
		VPSLLD(U8(8), hi, hi)
		VPORD(hi, ti, ti)
		for i := 0; i < n; i++ {
			v, w, cd := ZMM(), ZMM(), ZMM()
			VMOVAPS(c.zero, v)
			KMOVW(lanes[st], k)
			VGATHERDPS(Mem{Base: xp, Disp: 4 * i, Index: xi, Scale: 4}, k, v)
			VMOVUPS(v, q.row(i))
			VMULPS(v, v, w)
			VMOVUPS(w, q.row(n+i))
			VMULPS(v, w, w)
			VMOVUPS(w, q.row(2*n+i))
			VMOVAPS(c.zero, cd)
			KMOVW(lanes[st], k)
			VPGATHERDD(Mem{Base: tp, Disp: 16 * i, Index: ti, Scale: 1}, k, cd)
			VPANDD(byteMask, cd, cd)
			VPSUBD(four, cd, cd)
			VMOVDQA32_Z(cd, lanes[st], cd) // unused lanes: code 0
			VCVTDQ2PS(cd, cd)
			VMOVUPS(cd, q.row(3*n+i))
		}
		q.sumlx, q.suml2 = ZMM(), ZMM()
		VMOVAPS(c.zero, q.sumlx)
		VMOVAPS(c.zero, q.suml2)
		KMOVW(lanes[st], k)
		VGATHERDPS(Mem{Base: sp, Index: si[st], Scale: 4}, k, q.sumlx)
		KMOVW(lanes[st], k)
		VGATHERDPS(Mem{Base: sp, Disp: 64, Index: si[st], Scale: 4}, k, q.suml2)
		q.small = c.zero // the Go driver sends no small sub-block
	}
	np, ret := Load(Param("np"), GP64()), GP64()
	passes(name, qs, np, ret)
	L, scp := Load(Param("L"), GP64()), Load(Param("scales"), GP64())
	for st, q := range qs {
		for i := 0; i < n; i++ {
			t := ZMM()
			VCVTPS2DQ(q.row(3*n+i), t) // exact: the codes are integers
			VPADDD(q.hiI, t, t)
			VPMOVDB(t, Mem{Base: L, Disp: 256*st + 16*i})
		}
		scale := ZMM()
		VCMPPS(U8(cmpGTOQ), c.zero, q.suml2, k) // suml2 > 0
		VMOVAPS(c.zero, scale)
		VDIVPS_Z(q.suml2, q.sumlx, k, scale)
		KMOVW(lanes[st], k)
		VSCATTERDPS(scale, k, Mem{Base: scp, Index: sbv[st], Scale: 4})
		// The sums back, for the passes still to come.
		KMOVW(lanes[st], k)
		VSCATTERDPS(q.sumlx, k, Mem{Base: sp, Index: si[st], Scale: 4})
		KMOVW(lanes[st], k)
		VSCATTERDPS(q.suml2, k, Mem{Base: sp, Disp: 64, Index: si[st], Scale: 4})
	}
	Store(ret, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// kreq emits the K-quants' last pass: each group g of 16 elements whose
// scale d[g] is not zero gets the codes nearest_int((dm[g] + x)/d[g]),
// clamped to [lo, hi], plus bias.
func kreq(name string) {
	TEXT(name, NOSPLIT, "func(L *byte, x *float32, d *float32, dm *float32, ng int, lo int32, hi int32, bias int32)")
	Doc(name + " writes to L, for each of the ng groups of 16 float32 at x whose d is not zero, the codes clamp(nearest_int((dm + x)/d), lo, hi) + bias, as bytes; it leaves the other groups' bytes.")
	Lp, xp := Load(Param("L"), GP64()), Load(Param("x"), GP64())
	dp, mp, ng := Load(Param("d"), GP64()), Load(Param("dm"), GP64()), Load(Param("ng"), GP64())
	c := newKconst()
	loI := bcstGP(Load(Param("lo"), GP32()))
	hiI := bcstGP(Load(Param("hi"), GP32()))
	bias := bcstGP(Load(Param("bias"), GP32()))
	g := GP64()
	XORQ(g, g)
	Label(name + "loop")
	CMPQ(g, ng)
	JAE(LabelRef(name + "done"))
	{
		r := GP32()
		MOVL(Mem{Base: dp, Index: g, Scale: 4}, r)
		TESTL(U32(0x7fffffff), r)
		JZ(LabelRef(name + "next"))
		d, t := ZMM(), ZMM()
		VPBROADCASTD(r, d)
		VBROADCASTSS(Mem{Base: mp, Index: g, Scale: 4}, t)
		VADDPS(Mem{Base: xp}, t, t)
		VDIVPS(d, t, t)
		c.nearest(t, loI, hiI, false)
		VPADDD(bias, t, t)
		VPMOVDB(t, Mem{Base: Lp})
	}
	Label(name + "next")
	ADDQ(U8(64), xp)
	ADDQ(U8(16), Lp)
	INCQ(g)
	JMP(LabelRef(name + "loop"))
	Label(name + "done")
	VZEROUPPER()
	RET()
}

// kquantKernels emits the K-quant kernels.
func kquantKernels() {
	kqx2("kqx2n32AVX512", 32, false)
	kqx2("kqx2n16MADAVX512", 16, true)
	kqx("kqxAVX512")
	kq3("kq3AVX512")
	kq3more("kq3moreAVX512")
	kreq("kreqAVX512")
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
