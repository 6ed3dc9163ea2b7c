package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The flag kernels of the non-saturated float->integer conversions
// (convert's bytesFlag, which clconv digest and clconv verify use): for each
// element x of the first n &^ (lanes-1), bad[i] = !(x > lo && x < hi), with
// lo and hi the open interval of the values whose rounding fits the
// destination (convert's fitBounds); NaN compares false, so it is flagged.
// They return the number of elements flagged. AVX-512 only: elsewhere the Go
// loop flags every element.
var flagKernels = []struct {
	name string // "F32", "F64"
	goT  string
	size int
}{
	{"F32", "float32", 4},
	{"F64", "float64", 8},
}

// cmpGTOQ and cmpLTOQ are VCMPPS/VCMPPD predicates: greater-than and
// less-than, ordered (false for NaN), quiet.
const (
	cmpGTOQ = 0x1e
	cmpLTOQ = 0x11
)

func flagKernel(size int, name, goT string) {
	lanes := 64 / size
	fn := "flag" + name + "AVX512"
	TEXT(fn, NOSPLIT, fmt.Sprintf("func(src *byte, bad *bool, n int, lo, hi %s) int", goT))
	Doc(fmt.Sprintf("%s sets bad[i] = !(lo < src[i] < hi) for the first n &^ %d elements and returns how many it set.", fn, lanes-1))
	Pragma("noescape")
	src := Load(Param("src"), GP64())
	bad := Load(Param("bad"), GP64())
	n := Load(Param("n"), GP64())
	ANDQ(I32(-int32(lanes)), n)
	lo, hi := ZMM(), ZMM()
	xl := Load(Param("lo"), XMM())
	xh := Load(Param("hi"), XMM())
	cmp := VCMPPS
	if size == 8 {
		VBROADCASTSD(xl, lo)
		VBROADCASTSD(xh, hi)
		cmp = VCMPPD
	} else {
		VBROADCASTSS(xl, lo)
		VBROADCASTSS(xh, hi)
	}
	// ones holds the byte 1 in every lane: masked into the flags.
	one := GP32()
	MOVL(U32(0x01010101), one)
	ones := XMM()
	VPBROADCASTD(one, ones)
	count := GP64()
	XORQ(count, count)
	i := GP64()
	XORQ(i, i)
	Label(fn + "loop")
	CMPQ(i, n)
	JAE(LabelRef(fn + "done"))
	x := ZMM()
	VMOVUPS(Mem{Base: src, Index: i, Scale: uint8(size)}, x)
	k1, k2 := K(), K()
	cmp(U8(cmpGTOQ), lo, x, k1)
	cmp(U8(cmpLTOQ), hi, x, k1, k2)
	var c reg.GPVirtual
	f := XMM()
	if size == 8 {
		KNOTB(k2, k2)
		VMOVDQU8_Z(ones, k2, f)
		VMOVQ(f, Mem{Base: bad, Index: i, Scale: 1})
		c = GP32()
		KMOVB(k2, c)
	} else {
		KNOTW(k2, k2)
		VMOVDQU8_Z(ones, k2, f)
		VMOVDQU(f, Mem{Base: bad, Index: i, Scale: 1})
		c = GP32()
		KMOVW(k2, c)
	}
	POPCNTL(c, c)
	ADDQ(c.As64(), count)
	ADDQ(U8(lanes), i)
	JMP(LabelRef(fn + "loop"))
	Label(fn + "done")
	Store(count, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

func flagKernelsAll() {
	for _, f := range flagKernels {
		flagKernel(f.size, f.name, f.goT)
	}
}
