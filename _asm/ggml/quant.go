package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The quantizers (Q8_0, Q4_0, MXFP4) take 16 blocks of 32 float32 at a
// time: their largest magnitudes are reduced into the 16 lanes of one
// register (reduce16), the per-block scalar work (the divisions of the
// scales, the fp16 or E8M0 scale bytes) is done once for the 16 lanes, each
// lane the same float32 operation as the scalar code, and the elements are
// then quantized block by block against their lane's scale (broadcast from
// the stack). A batch holding a block the batch code does not handle (a
// NaN or an infinity, or a case left to the scalar path) is done block by
// block by the one-block code, which stops at a block the Go kernel defines;
// so are the last nb % 16 blocks.

// batchKernel emits the quantizer name: batch quantizes 16 blocks (of
// srcStep bytes to dstStep bytes) or jumps to bad, having stored nothing,
// when one of them is not for it; single quantizes one block or jumps to
// exit. The kernel returns the blocks done.
func batchKernel(name, doc string, srcStep, dstStep int, setup func(), batch func(dst, src reg.Register, bad string), single func(dst, src reg.Register, exit string)) {
	TEXT(name, NOSPLIT, "func(dst *byte, src *float32, nb int) int")
	Doc(doc)
	dst, src, nb := Load(Param("dst"), GP64()), Load(Param("src"), GP64()), Load(Param("nb"), GP64())
	setup()
	i, lim := GP64(), GP64()
	XORQ(i, i)
	Label(name + "batch")
	MOVQ(nb, lim)
	SUBQ(i, lim)
	CMPQ(lim, U8(16))
	JB(LabelRef(name + "tail"))
	batch(dst, src, name+"bad")
	ADDQ(U32(uint32(16*srcStep)), src)
	ADDQ(U32(uint32(16*dstStep)), dst)
	ADDQ(U8(16), i)
	JMP(LabelRef(name + "batch"))
	Label(name + "tail")
	MOVQ(nb, lim)
	JMP(LabelRef(name + "single"))
	Label(name + "bad") // one block at a time up to the end of this batch
	LEAQ(Mem{Base: i, Disp: 16}, lim)
	Label(name + "single")
	CMPQ(i, lim)
	JAE(LabelRef(name + "next"))
	single(dst, src, name+"done")
	ADDQ(U32(uint32(srcStep)), src)
	ADDQ(U32(uint32(dstStep)), dst)
	INCQ(i)
	JMP(LabelRef(name + "single"))
	Label(name + "next")
	CMPQ(i, nb)
	JB(LabelRef(name + "batch"))
	Label(name + "done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// reduce16 reduces, for each of len(ops) quantities, the 16 lanes of the
// register leaf(b)[q] of each block b of a batch to lane b of one register,
// with ops[q](a, b, dst) (dst = a op b, lanewise, commutative and
// associative). The blocks enter in the transposed order 4(v%4) + v/4,
// which the shuffles transpose back: halves of 256 bits, then 128, then
// quadwords, then dwords.
func reduce16(n int, leaf func(b int) []reg.VecVirtual, ops []func(a, b, dst reg.VecVirtual)) []reg.VecVirtual {
	step := func(u, v []reg.VecVirtual, shuf func(u, v, a, b reg.VecVirtual)) []reg.VecVirtual {
		r := make([]reg.VecVirtual, n)
		for q := range r {
			a, b := ZMM(), ZMM()
			shuf(u[q], v[q], a, b)
			ops[q](a, b, a)
			r[q] = a
		}
		return r
	}
	var w [4][]reg.VecVirtual
	for g := range w {
		var m [2][]reg.VecVirtual
		for p := range m {
			v0, v1 := 4*g+2*p, 4*g+2*p+1
			m[p] = step(leaf(4*(v0%4)+v0/4), leaf(4*(v1%4)+v1/4), func(u, v, a, b reg.VecVirtual) {
				VSHUFI64X2(U8(0x44), v, u, a) // [u.l0, u.l1, v.l0, v.l1]
				VSHUFI64X2(U8(0xee), v, u, b) // [u.l2, u.l3, v.l2, v.l3]
			})
		}
		w[g] = step(m[0], m[1], func(u, v, a, b reg.VecVirtual) {
			VSHUFI64X2(U8(0x88), v, u, a) // [u.l0, u.l2, v.l0, v.l2]
			VSHUFI64X2(U8(0xdd), v, u, b) // [u.l1, u.l3, v.l1, v.l3]
		})
	}
	var x [2][]reg.VecVirtual
	for p := range x {
		x[p] = step(w[2*p], w[2*p+1], func(u, v, a, b reg.VecVirtual) {
			VPUNPCKLQDQ(v, u, a)
			VPUNPCKHQDQ(v, u, b)
		})
	}
	return step(x[0], x[1], func(u, v, a, b reg.VecVirtual) {
		VSHUFPS(U8(0x88), v, u, a)
		VSHUFPS(U8(0xdd), v, u, b)
	})
}

// prefetchDist is how far ahead of the batch the batch kernels prefetch
// the elements (bytes).
const prefetchDist = 2048

// prefetch asks for the two cache lines of block b's elements
// prefetchDist bytes ahead: the loads of a batch come in a burst, which the
// hardware prefetchers alone do not keep fed.
func prefetch(src reg.Register, b int) {
	PREFETCHT0(Mem{Base: src, Disp: prefetchDist + 128*b})
	PREFETCHT0(Mem{Base: src, Disp: prefetchDist + 128*b + 64})
}

func maxU(a, b, dst reg.VecVirtual) { VPMAXUD(b, a, dst) }
func maxS(a, b, dst reg.VecVirtual) { VPMAXSD(b, a, dst) }

// absMax16 reduces the magnitudes (as bits) of the 16 blocks at src into
// the lanes of a new register.
func absMax16(src reg.Register, cabs reg.VecVirtual) reg.VecVirtual {
	return reduce16(1, func(b int) []reg.VecVirtual {
		a0, a1 := ZMM(), ZMM()
		VPANDD(Mem{Base: src, Disp: 128 * b}, cabs, a0)
		VPANDD(Mem{Base: src, Disp: 128*b + 64}, cabs, a1)
		VPMAXUD(a1, a0, a0)
		return []reg.VecVirtual{a0}
	}, []func(a, b, dst reg.VecVirtual){maxU})[0]
}

// scales16 stores the 16 fp16 scales d (round to nearest even) of a batch
// at dst+stride*b, and 1/d (0 where d is a zero) at ids.
func scales16(d, one, cabs reg.VecVirtual, dst reg.Register, stride int, ids, halves Mem) {
	k := K()
	VPTESTMD(cabs, d, k) // d is not a zero
	id := ZMM()
	VDIVPS_Z(d, one, k, id)
	VMOVUPS(id, ids)
	h := YMM()
	VCVTPS2PH(U8(0), d, h)
	VMOVDQU(h, halves)
	for b := 0; b < 16; b++ {
		g := GP32()
		MOVWLZX(halves.Offset(2*b), g)
		MOVW(g.As16(), Mem{Base: dst, Disp: stride * b})
	}
}

// quantQ8_0: 32 float32 a block, to an fp16 scale d = amax/127 and 32 int8
// codes roundf(x * id), id = 1/d (0 when d is 0), as quantize_row_q8_0_ref;
// it stops at a block whose largest magnitude is NaN or infinite. roundf
// (half away from zero) of p is trunc(p + copysign(0.5 - 2^-25, p)), the
// sum rounded to float32: equal for every float32 |p| < 2^31 (checked
// for all of them by ggml's TestRoundfTrick), and an infinite or NaN p
// truncates to the same indefinite integer either way. p's sign is x's
// (id >= 0), so the addend comes from x. A batch of 16: one VDIVPS for the
// 16 scales amax/127, one (masked) for their inverses, one VCVTPS2PH.
// lowBytesIdx holds the VPERMT2B indices of the low bytes of 32 dwords
// in two registers: 4i for i < 16, then 64 + 4(i-16), then zeros.
var lowBytesIdx Mem

func quantQ8_0() {
	const name = "quantQ8_0AVX512"
	lowBytesIdx = GLOBL("ggmlLowBytes", RODATA|NOPTR)
	for i := 0; i < 64; i++ {
		v := 0
		if i < 32 {
			v = 4 * i
		}
		DATA(i, U8(v))
	}
	var cabs, chalf, csign, c127v, onev, c7f8, lowBytes reg.VecVirtual
	var c127, one reg.VecVirtual
	var ids, halves Mem
	batchKernel(name,
		"quantQ8_0AVX512 quantizes the first blocks of nb blocks of 32 float32 at src to Q8_0 at dst, stopping at a block whose largest magnitude is not finite; it returns the blocks done.",
		128, 34, func() {
			ids, halves = AllocLocal(64), AllocLocal(32)
			cabs, chalf, csign = bcstD(0x7fffffff), bcstD(0x3effffff), bcstD(0x80000000) // 0.5 - 2^-25
			c127v, onev, c7f8 = bcstD(0x42fe0000), bcstD(0x3f800000), bcstD(0x7f800000)
			lowBytes = loadZMM(lowBytesIdx, 0)
			c127, one = scalarF(0x42fe0000), scalarF(0x3f800000) // 127, 1
		}, func(dst, src reg.Register, bad string) {
			am := absMax16(src, cabs)
			k := K()
			VPCMPUD(U8(5), c7f8, am, k) // amax >= inf: NaN or infinity
			KORTESTW(k, k)
			JNZ(LabelRef(bad))
			d := ZMM()
			VDIVPS(c127v, am, d)
			scales16(d, onev, cabs, dst, 34, ids, halves)
			for b := 0; b < 16; b++ {
				prefetch(src, b)
				var p [2]reg.VecVirtual
				for k := range p {
					p[k] = q8Ints(Mem{Base: src, Disp: 128*b + 64*k}, ids.Offset(4*b), nil, chalf, csign)
				}
				VPERMT2B(p[1], lowBytes, p[0]) // the low bytes of the 32 ints
				VMOVDQU(p[0].AsY(), Mem{Base: dst, Disp: 34*b + 2})
			}
		}, func(dst, src reg.Register, exit string) {
			x, _, am, _ := blockAbsMax(src, cabs, exit)
			zid := blockScaleOut(am, c127, one, dst, name)
			for k := 0; k < 2; k++ {
				q8Codes(Mem{}, Mem{Base: dst, Disp: 2 + 16*k}, Mem{}, []reg.VecVirtual{x[k], zid}, chalf, csign)
			}
		})
}

// q8Codes stores the 16 codes roundf(x * id) of the float32 at src (or of
// xz[0], with id xz[1]) at dst; id is the float32 at idm, broadcast.
func q8Codes(src, dst, idm Mem, xz []reg.VecVirtual, chalf, csign reg.VecVirtual) {
	VPMOVDB(q8Ints(src, idm, xz, chalf, csign), dst)
}

// q8Ints returns the codes of q8Codes as int32 lanes.
func q8Ints(src, idm Mem, xz []reg.VecVirtual, chalf, csign reg.VecVirtual) reg.VecVirtual {
	x, p := ZMM(), ZMM()
	if xz == nil {
		VMOVUPS(src, x)
		VMULPS_BCST(idm, x, p)
	} else {
		VMULPS(xz[1], xz[0], p)
		VMOVDQA32(xz[0], x)
	}
	VPTERNLOGD(U8(0xea), chalf, csign, x) // (x & sign) | (0.5 - 2^-25): copysign(0.5 - 2^-25, p)
	VADDPS(x, p, p)
	VCVTTPS2DQ(p, p)
	return p
}

// quantQ4_0: 32 float32 a block, to an fp16 scale d = max / -8, max the
// element of largest magnitude (the first of equals; +0 when all are
// zeros), and 32 4-bit codes MIN(15, (int8_t)(x * id + 8.5f)), id = 1/d (0
// when d is 0), element j in the low nibble of byte j and element j+16 in
// its high one, as quantize_row_q4_0_ref; it stops at a block whose largest
// magnitude is NaN or infinite. The (int8_t) cast changes nothing the
// MIN and the byte store keep: x * id + 8.5 lies in [-3.5, 20.5] whenever it
// is finite (|x * id| <= 8 |x / max| (1 + e), e < 1/2 even where d is a
// one-bit subnormal), where the int32 and the int8 agree; an infinite or
// NaN one (id infinite for a subnormal max) truncates to INT32_MIN, whose
// low byte, 0, is the C cast's.
//
// A batch of 16 finds max without its index: the unsigned maximum of the
// elements rotated left by one (|x| << 1 | sign) gives amax and whether a
// negative element has it, the signed maximum of the elements' bits (the
// largest positive one, if any) whether a positive one has it; a block
// where both do (and amax > 0), whose max is the first of them, goes to the
// one-block code, which looks up the index.
func quantQ4_0() {
	const name = "quantQ4_0AVX512"
	var cabs, c85, c15, c1, csign, cm8v, onev, c7f8 reg.VecVirtual
	var cm8, one reg.VecVirtual
	var ids, halves Mem
	batchKernel(name,
		"quantQ4_0AVX512 quantizes the first blocks of nb blocks of 32 float32 at src to Q4_0 at dst, stopping at a block whose largest magnitude is not finite; it returns the blocks done.",
		128, 18, func() {
			ids, halves = AllocLocal(64), AllocLocal(32)
			cabs, c85, c15 = bcstD(0x7fffffff), bcstD(0x41080000), bcstD(15) // 8.5
			c1, csign, c7f8 = bcstD(1), bcstD(0x80000000), bcstD(0x7f800000)
			cm8v, onev = bcstD(0xc1000000), bcstD(0x3f800000)
			cm8, one = scalarF(0xc1000000), scalarF(0x3f800000) // -8, 1
		}, func(dst, src reg.Register, bad string) {
			r := reduce16(2, func(b int) []reg.VecVirtual {
				x0, k0 := ZMM(), ZMM()
				VMOVUPS(Mem{Base: src, Disp: 128 * b}, x0)
				VPROLD(U8(1), x0, k0)
				k1 := ZMM()
				VPROLD(U8(1), Mem{Base: src, Disp: 128*b + 64}, k1)
				VPMAXUD(k1, k0, k0)
				VPMAXSD(Mem{Base: src, Disp: 128*b + 64}, x0, x0)
				return []reg.VecVirtual{k0, x0}
			}, []func(a, b, dst reg.VecVirtual){maxU, maxS})
			am := ZMM()
			VPSRLD(U8(1), r[0], am)
			kbad, kneg, kpos, knz, ks := K(), K(), K(), K(), K()
			VPCMPUD(U8(5), c7f8, am, kbad) // amax >= inf: NaN or infinity
			VPTESTMD(c1, r[0], kneg)       // a negative element has amax
			VPCMPEQD(r[1], am, kpos)       // a positive element has amax
			VPTESTMD(am, am, knz)
			KANDW(kneg, kpos, ks)
			KANDW(knz, ks, ks) // both: the first decides
			KORW(ks, kbad, kbad)
			KORTESTW(kbad, kbad)
			JNZ(LabelRef(bad))
			KANDNW(kneg, kpos, ks)
			KANDW(knz, ks, ks)       // max is -amax
			VPORD(csign, am, ks, am) // max
			d := ZMM()
			VDIVPS(cm8v, am, d) // max / -8
			scales16(d, onev, cabs, dst, 18, ids, halves)
			for b := 0; b < 16; b++ {
				prefetch(src, b)
				var q [2]reg.VecVirtual
				for k := range q {
					p := ZMM()
					VMOVUPS(Mem{Base: src, Disp: 128*b + 64*k}, p)
					VMULPS_BCST(ids.Offset(4*b), p, p)
					q[k] = q4Code(p, c85, c15)
				}
				VPSLLD(U8(4), q[1], q[1])
				VPORD(q[1], q[0], q[0])
				qb := XMM()
				VPMOVDB(q[0], qb)
				VMOVDQU(qb, Mem{Base: dst, Disp: 18*b + 2})
			}
		}, func(dst, src reg.Register, exit string) {
			x, a, am, g := blockAbsMax(src, cabs, exit)
			mx := XMM()
			VXORPS(mx, mx, mx) // +0 when every element is a zero
			TESTL(g, g)
			JZ(LabelRef(name + "max"))
			// The first element whose magnitude is amax.
			zam := ZMM()
			VPBROADCASTD(am, zam)
			k0, k1 := K(), K()
			VPCMPEQD(zam, a[0], k0)
			VPCMPEQD(zam, a[1], k1)
			r0, r1 := GP32(), GP32()
			KMOVW(k0, r0)
			KMOVW(k1, r1)
			SHLL(U8(16), r1)
			ORL(r1, r0)
			idx := GP32()
			TZCNTL(r0, idx)
			VMOVSS(Mem{Base: src, Index: idx.As64(), Scale: 4}, mx)
			Label(name + "max")
			zid := blockScaleOut(mx, cm8, one, dst, name) // max / -8
			var q [2]reg.VecVirtual
			for k := 0; k < 2; k++ {
				p := ZMM()
				VMULPS(zid, x[k], p)
				q[k] = q4Code(p, c85, c15)
			}
			VPSLLD(U8(4), q[1], q[1])
			VPORD(q[1], q[0], q[0])
			VPMOVDB(q[0], Mem{Base: dst, Disp: 2})
		})
}

// q4Code turns p = x * id into MIN(15, (int8_t)(p + 8.5f)), in place.
func q4Code(p, c85, c15 reg.VecVirtual) reg.VecVirtual {
	VADDPS(c85, p, p)
	VCVTTPS2DQ(p, p)
	VPMINSD(c15, p, p) // MIN(15, (int8_t)...): see quantQ4_0
	return p
}

// mxfp4Codes holds, for VPERMI2B, the E2M1 code of an element from the
// index t | 64 sign (t = ceil(2|x|/d)): bytes 0..127 for the low nibble,
// then the same shifted to the high one.
var mxfp4Codes Mem

// mxfp4Code is the code of t = ceil(2|x|/d) (d half the E8M0 scale): the
// count of midpoints 2{0.5, 1.5, 2.5, 3.5, 5, 7, 10} below 2|x|/d, that is
// below t, plus 8 for a negative x off zero.
func mxfp4Code(t int, neg bool) byte {
	var c byte
	for _, m := range []int{1, 3, 5, 7, 10, 14, 20} {
		if m < t {
			c++
		}
	}
	if neg && c > 0 {
		c |= 8
	}
	return c
}

func mxfp4CodeTable() {
	mxfp4Codes = GLOBL("ggmlMXFP4Codes", RODATA|NOPTR)
	for i := 0; i < 256; i++ {
		c := mxfp4Code(i&63, i&64 != 0)
		if i >= 128 {
			c <<= 4
		}
		DATA(i, U8(c))
	}
}

// quantMXFP4: 32 float32 a block, to an E8M0 byte e and 16 bytes of E2M1
// codes (element j in the low nibble of byte j, element j+16 in the high),
// as quantize_row_mxfp4_ref (ggml/fp4.go's quantMXFP4 and fp4Grid). For
// amax (as bits m) with a biased exponent E >= 1, floorf(log2f(amax)) is
// E - 127, plus one where glibc's log2f rounds up to the next integer: m at
// least log2fUp[E+22], ggml's own table (log2f_table.go), which the kernel
// reads (a gather for the 16 lanes of a batch); e is that minus 2 plus 127.
// The kernel takes blocks with e in [2, 252] (0x01ffffd4 <= m < 0x7f7fffd4,
// log2fUp's bounds for E = 3 and 254), where d = 2^(e-128) is normal and
// the grid values d{1, 2, 3, 4, 6, 8, 12} are finite, and all-zero blocks
// (e = 0, codes 0); it stops at any other block (a NaN, an infinity, amax
// nonzero below 0x1.ffffa8p-124 = 2^-123 less 44 ulp, or at least
// 0x1.ffffa8p+127 = 2^128 less 44 ulp). An element's code counts the
// midpoints d{0.5, 1.5, 2.5, 3.5, 5, 7, 10} strictly below |x| (ties go
// toward zero, fp4Grid's rule), plus 8 for a negative x off zero: with 2|x|/d = |x| * 2^(129-e), exact (a power of
// two; rounded only where the product is subnormal, far below the first
// midpoint), and t its ceiling (VCVTPS2DQ rounding up; t <= 32), the
// doubled midpoints {1, 3, 5, 7, 10, 14, 20} below 2|x|/d are the integers
// below t, and a table lookup by t and the sign (VPERMI2B) gives the code.
func quantMXFP4() {
	const name = "quantMXFP4AVX512"
	mxfp4CodeTable()
	var cabs, c64, clo, crange, c1, c2, c256 reg.VecVirtual
	var log2f reg.GPVirtual
	var tab [2][2]reg.VecVirtual
	var scales, ebytes Mem
	// block quantizes the elements of one block at src to dst with the
	// scale 2^(129-e) at sm, and stores e from em.
	block := func(dst, src reg.Register, do, so int, sm, em Mem) {
		eb := GP32()
		MOVBLZX(em, eb)
		MOVB(eb.As8(), Mem{Base: dst, Disp: do})
		var c [2]reg.VecVirtual
		for h := range c {
			x, y := ZMM(), ZMM()
			VMOVUPS(Mem{Base: src, Disp: so + 64*h}, x)
			VPANDD(cabs, x, y)
			VMULPS_BCST(sm, y, y) // 2|x|/d, exact
			VCVTPS2DQ_RU_SAE(y, y)
			VPSRLD(U8(25), x, x)
			VPTERNLOGD(U8(0xec), c64, y, x) // t | sign << 6
			VPERMI2B(tab[h][1], tab[h][0], x)
			c[h] = x
		}
		VPORD(c[1], c[0], c[0])
		cb := XMM()
		VPMOVDB(c[0], cb)
		VMOVDQU(cb, Mem{Base: dst, Disp: do + 1})
	}
	batchKernel(name,
		"quantMXFP4AVX512 quantizes the first blocks of nb blocks of 32 float32 at src to MXFP4 at dst, stopping at a block whose largest magnitude is not finite, nonzero below 0x1.ffffa8p-124, or at least 0x1.ffffa8p+127; it returns the blocks done.",
		128, 17, func() {
			scales, ebytes = AllocLocal(64), AllocLocal(16)
			cabs, c64 = bcstD(0x7fffffff), bcstD(64)
			clo, crange = bcstD(0x01ffffd4), bcstD(0x7f7fffd4-0x01ffffd4)
			c1, c2, c256 = bcstD(1), bcstD(2), bcstD(256)
			log2f = GP64()
			LEAQ(NewDataAddr(Symbol{Name: "·log2fUp"}, 4*(149-127)), log2f) // log2fUp[E + 22]
			for h := range tab {
				for k := range tab[h] {
					tab[h][k] = loadZMM(mxfp4Codes, 128*h+64*k)
				}
			}
		}, func(dst, src reg.Register, bad string) {
			am := absMax16(src, cabs)
			ok, nz := K(), K()
			t := ZMM()
			VPSUBD(clo, am, t)
			VPCMPUD(U8(1), crange, t, ok) // e in [2, 252]
			VPTESTMD(am, am, nz)
			KANDNW(nz, ok, nz) // out of range and not a zero block
			KORTESTW(nz, nz)
			JNZ(LabelRef(bad))
			e, thr := ZMM(), ZMM()
			VPSRLD(U8(23), am, e) // E
			kg := K()
			KMOVW(ok, kg)
			VPXORD(thr, thr, thr)
			VPGATHERDD(Mem{Base: log2f, Index: e, Scale: 4}, kg, thr)
			kb := K()
			VPCMPUD(U8(5), thr, am, kb) // m >= log2fUp: log2f rounds up
			VPSUBD(c2, e, e)
			VPADDD(c1, e, kb, e)
			eb := XMM()
			VPMOVDB_Z(e, ok, eb) // 0 for a zero block
			VMOVDQU(eb, ebytes)
			s := ZMM()
			VPSUBD(e, c256, s)
			VPSLLD(U8(23), s, s) // 2^(129-e); finite for a zero block
			VMOVUPS(s, scales)
			for b := 0; b < 16; b++ {
				prefetch(src, b)
				block(dst, src, 17*b, 128*b, scales.Offset(4*b), ebytes.Offset(b))
			}
		}, func(dst, src reg.Register, exit string) {
			_, _, _, g := blockAbsMax(src, cabs, exit)
			e := GP32()
			MOVL(g, e)
			TESTL(g, g)
			JZ(LabelRef(name + "zero"))
			SUBL(U32(0x01ffffd4), e)
			CMPL(e, U32(0x7f7fffd4-0x01ffffd4))
			JAE(LabelRef(exit))
			MOVL(g, e)
			Label(name + "zero")
			SHRL(U8(23), e) // E
			CMPL(g, Mem{Base: log2f, Index: e.As64(), Scale: 4})
			SBBL(U32(0xffffffff), e) // + 1 when g >= log2fUp[E + 22]
			SUBL(U8(2), e)
			s := GP32()
			MOVL(U32(256), s)
			SUBL(e, s)
			SHLL(U8(23), s)
			MOVL(s, scales)
			TESTL(g, g)
			JNZ(LabelRef(name + "e"))
			XORL(e, e)
			Label(name + "e")
			MOVB(e.As8(), ebytes)
			block(dst, src, 0, 0, scales, ebytes)
		})
}
