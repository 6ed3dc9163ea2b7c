// Command digest generates the AVX-512 kernels of clconv's exhaustive
// conversion digest (cmd/clconv/internal/digest, defined in
// internal/digestspec) with avo:
//
//   - sum{Int,Flag,NaN}{1,2,4,8}: the sum over n outputs of
//     Term(base+j, canonical output j) = Fmix(Fmix(base+j+golden) ^ c), eight
//     lanes of 64 bits at a time, for integer outputs (Int), for the
//     non-saturated float->integer conversions whose implementation-defined
//     outputs are flagged in a []bool (Flag: the flag makes c ImplDefined),
//     and for floating outputs (NaN: c is the canonical NaN when
//     (o & a) == a and o & b != 0, and the NaNs are counted);
//   - fillIota32, fillInt64 and fillDouble64: the definition's inputs of the
//     32-bit and 64-bit sources (digestspec.Input).
//
// Every kernel handles n &^ 15 elements and returns; the Go code does the
// rest and is the pure-Go path of other tiers and ports. The package's tests
// compare both on random outputs and against the recorded digests.
//
// Run it with go generate in cmd/clconv/internal/digest.
package main

import (
	"flag"
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The constants of internal/digestspec.
const (
	golden  = 0x9E3779B97F4A7C15
	sampleC = 0x632BE59BD9B4E019
	mix1    = 0xbf58476d1ce4e5b9
	mix2    = 0x94d049bb133111eb
	nanC    = 0x7FF8000000000000
	implC   = 0xDEADDEADDEADDEAD
)

// bcst returns a new zmm register holding v in every 64-bit lane.
func bcst(v uint64) reg.VecVirtual {
	r := GP64()
	MOVQ(U64(v), r)
	z := ZMM()
	VPBROADCASTQ(r, z)
	return z
}

// fmix applies the definition's Fmix (SplitMix64's finalizer) to z in place.
func fmix(z, t, c1, c2 reg.VecVirtual) {
	VPSRLQ(U8(30), z, t)
	VPXORQ(t, z, z)
	VPMULLQ(c1, z, z)
	VPSRLQ(U8(27), z, t)
	VPXORQ(t, z, z)
	VPMULLQ(c2, z, z)
	VPSRLQ(U8(31), z, t)
	VPXORQ(t, z, z)
}

// load zero-extends eight outputs of the given byte size into a zmm register.
func load(size int, m Mem, z reg.VecVirtual) {
	switch size {
	case 1:
		VPMOVZXBQ(m, z)
	case 2:
		VPMOVZXWQ(m, z)
	case 4:
		VPMOVZXDQ(m, z)
	case 8:
		VMOVDQU64(m, z)
	}
}

// hsum adds the eight lanes of z into a GP register.
func hsum(z reg.VecVirtual) reg.GPVirtual {
	y := YMM()
	VEXTRACTI64X4(U8(1), z, y)
	VPADDQ(y, z.AsY(), y)
	x := XMM()
	VEXTRACTI128(U8(1), y, x)
	VPADDQ(x, y.AsX(), x)
	x2 := XMM()
	VPSHUFD(U8(0x4e), x, x2)
	VPADDQ(x2, x, x)
	r := GP64()
	VMOVQ(x, r)
	return r
}

// sumKernel writes sum<kind><size>(p *byte, bad *bool, n int, base, a, b
// uint64) (sum, nan uint64).
func sumKernel(kind string, size int) {
	TEXT(fmt.Sprintf("sum%s%d", kind, size), NOSPLIT, "func(p *byte, bad *bool, n int, base, a, b uint64) (sum, nan uint64)")
	Pragma("noescape")
	p := Load(Param("p"), GP64())
	bad := Load(Param("bad"), GP64())
	n := Load(Param("n"), GP64())
	base := Load(Param("base"), GP64())
	ANDQ(I32(-16), n)
	c1, c2 := bcst(mix1), bcst(mix2)
	// idx0 = base+golden+lane, idx1 = idx0+8; both step by 16.
	ADDQ(bcstGolden(), base)
	idx0 := ZMM()
	VPBROADCASTQ(base, idx0)
	VPADDQ(Mem{Base: iotaAddr()}, idx0, idx0)
	step8, step16 := bcst(8), bcst(16)
	idx1 := ZMM()
	VPADDQ(step8, idx0, idx1)
	sum0, sum1 := ZMM(), ZMM()
	VPXORQ(sum0, sum0, sum0)
	VPXORQ(sum1, sum1, sum1)
	nan := GP64()
	XORQ(nan, nan)
	var va, vb, vnan, vimpl reg.VecVirtual
	switch kind {
	case "NaN":
		a := Load(Param("a"), GP64())
		b := Load(Param("b"), GP64())
		va, vb = ZMM(), ZMM()
		VPBROADCASTQ(a, va)
		VPBROADCASTQ(b, vb)
		vnan = bcst(nanC)
	case "Flag":
		vimpl = bcst(implC)
	}
	i := GP64()
	XORQ(i, i)
	Label("loop")
	CMPQ(i, n)
	JAE(LabelRef("done"))
	for u, idx := range []reg.VecVirtual{idx0, idx1} {
		o, h, t := ZMM(), ZMM(), ZMM()
		load(size, Mem{Base: p, Index: i, Scale: uint8(size), Disp: 8 * size * u}, o)
		switch kind {
		case "NaN":
			k1, k2 := K(), K()
			VPANDQ(va, o, t)
			VPCMPEQQ(va, t, k1)
			VPTESTMQ(vb, o, k1, k2)
			VMOVDQA64(vnan, k2, o)
			c := GP32()
			KMOVB(k2, c)
			POPCNTL(c, c)
			ADDQ(c.As64(), nan)
		case "Flag":
			k := K()
			f := ZMM()
			VPMOVZXBQ(Mem{Base: bad, Index: i, Scale: 1, Disp: 8 * u}, f)
			VPTESTMQ(f, f, k)
			VMOVDQA64(vimpl, k, o)
		}
		VMOVDQA64(idx, h)
		fmix(h, t, c1, c2)
		VPXORQ(o, h, h)
		fmix(h, t, c1, c2)
		if u == 0 {
			VPADDQ(h, sum0, sum0)
		} else {
			VPADDQ(h, sum1, sum1)
		}
	}
	VPADDQ(step16, idx0, idx0)
	VPADDQ(step16, idx1, idx1)
	ADDQ(U8(16), i)
	JMP(LabelRef("loop"))
	Label("done")
	VPADDQ(sum1, sum0, sum0)
	s := hsum(sum0)
	Store(s, Return("sum"))
	Store(nan, Return("nan"))
	VZEROUPPER()
	RET()
}

func bcstGolden() reg.GPVirtual {
	r := GP64()
	MOVQ(U64(golden), r)
	return r
}

// iota64 holds the 64-bit lanes 0..7, iota8 the bytes 0..15.
var iota64, iota8 Mem

func iotaAddr() reg.GPVirtual {
	r := GP64()
	LEAQ(iota64, r)
	return r
}

// fillIota32 writes fillIota32(p *uint32, n int, base uint32): p[j] = base+j.
func fillIota32() {
	TEXT("fillIota32", NOSPLIT, "func(p *uint32, n int, base uint32)")
	Pragma("noescape")
	p := Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	base := Load(Param("base"), GP32())
	ANDQ(I32(-16), n)
	z := ZMM()
	VPBROADCASTD(base, z)
	io := ZMM()
	VPMOVZXBD(iota8, io) // bytes 0..15 widened to dwords
	VPADDD(io, z, z)
	r := GP32()
	MOVL(U32(16), r)
	step := ZMM()
	VPBROADCASTD(r, step)
	i := GP64()
	XORQ(i, i)
	Label("iota32loop")
	CMPQ(i, n)
	JAE(LabelRef("iota32done"))
	VMOVDQU32(z, Mem{Base: p, Index: i, Scale: 4})
	VPADDD(step, z, z)
	ADDQ(U8(16), i)
	JMP(LabelRef("iota32loop"))
	Label("iota32done")
	VZEROUPPER()
	RET()
}

// fill64 writes fill<name>(p *uint64, n int, base uint64): p[j] =
// digestspec.IntInput(base+j) (double false) or DoubleInput(base+j).
func fill64(name string, double bool) {
	TEXT(name, NOSPLIT, "func(p *uint64, n int, base uint64)")
	Pragma("noescape")
	p := Load(Param("p"), GP64())
	n := Load(Param("n"), GP64())
	base := Load(Param("base"), GP64())
	ANDQ(I32(-8), n)
	c1, c2 := bcst(mix1), bcst(mix2)
	vg, vs := bcst(golden), bcst(sampleC)
	idx := ZMM()
	VPBROADCASTQ(base, idx)
	VPADDQ(Mem{Base: iotaAddr()}, idx, idx)
	step := bcst(8)
	var c63, c100, c3, c7f, c72, c1019, cmask reg.VecVirtual
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	c3 = bcst(3)
	if double {
		c7f, c72, c1019, cmask = bcst(0x7f), bcst(72), bcst(1019), bcst(0x800FFFFFFFFFFFFF)
	} else {
		c63, c100 = bcst(63), bcst(0x100)
	}
	i := GP64()
	XORQ(i, i)
	Label(name + "loop")
	CMPQ(i, n)
	JAE(LabelRef(name + "done"))
	r, t, v := ZMM(), ZMM(), ZMM()
	VPMULLQ(vg, idx, r)
	VPADDQ(vs, r, r)
	fmix(r, t, c1, c2)
	if double {
		e := ZMM()
		VPSRLQ(U8(52), r, e)
		VPANDQ(c7f, e, e)
		k := K()
		VPCMPUQ(U8(5), c72, e, k) // e >= 72
		VPSUBQ(c72, e, k, e)
		VPADDQ(c1019, e, e)
		VPSLLQ(U8(52), e, e)
		VPANDQ(cmask, r, v)
		VPORQ(e, v, v)
	} else {
		VPSRLQ(U8(2), r, t)
		VPANDQ(c63, t, t)
		VPSRLVQ(t, r, v)
		k := K()
		VPTESTMQ(c100, r, k)
		VPSUBQ(v, zero, k, v)
	}
	k3 := K()
	VPTESTNMQ(c3, r, k3)
	VMOVDQA64(r, k3, v)
	VMOVDQU64(v, Mem{Base: p, Index: i, Scale: 8})
	VPADDQ(step, idx, idx)
	ADDQ(U8(8), i)
	JMP(LabelRef(name + "loop"))
	Label(name + "done")
	VZEROUPPER()
	RET()
}

func main() {
	flag.Parse()
	ConstraintExpr("gc,!purego")
	iota64 = GLOBL("digestIota", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(8*i, U64(uint64(i)))
	}
	iota8 = GLOBL("digestIota8", RODATA|NOPTR)
	for i := 0; i < 16; i++ {
		DATA(i, U8(uint8(i)))
	}
	for _, kind := range []string{"Int", "Flag", "NaN"} {
		for _, size := range []int{1, 2, 4, 8} {
			sumKernel(kind, size)
		}
	}
	fillIota32()
	fill64("fillInt64", false)
	fill64("fillDouble64", true)
	Generate()
}
