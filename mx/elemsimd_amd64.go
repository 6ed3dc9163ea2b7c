//go:build gc && !purego

package mx

import (
	"unsafe"

	"github.com/clconv/clconv/round"
)

type ekernel func(dst *byte, src *uint32, n int) int

// eKernels holds the element conversions of zmx_amd64.s by Elem and mode
// (E8M0 has no sign: RTN is RTZ); eKernelsSat E8M0's _sat ones (the other
// formats saturate anyway).
var (
	eKernels = [4][4]ekernel{
		ElemE2M1: {mxeE2M1RTE, mxeE2M1RTZ, mxeE2M1RTP, mxeE2M1RTN},
		ElemE2M3: {mxeE2M3RTE, mxeE2M3RTZ, mxeE2M3RTP, mxeE2M3RTN},
		ElemE3M2: {mxeE3M2RTE, mxeE3M2RTZ, mxeE3M2RTP, mxeE3M2RTN},
		ElemE8M0: {mxeE8M0RTE, mxeE8M0RTZ, mxeE8M0RTP, mxeE8M0RTZ},
	}
	eKernelsSat = [4]ekernel{mxeE8M0SatRTE, mxeE8M0SatRTZ, mxeE8M0SatRTP, mxeE8M0SatRTZ}
)

// simdElems converts the leading multiple of 64 elements of src with the
// kernels and returns how many (0 without AVX-512).
func simdElems(e Elem, dst []byte, src []float32, m round.Mode, sat bool) int {
	if !useSIMD() || len(src) < 64 || e > ElemE8M0 {
		return 0
	}
	k := eKernels[e][m]
	if e == ElemE8M0 && sat {
		k = eKernelsSat[m]
	}
	return k(&dst[0], (*uint32)(unsafe.Pointer(&src[0])), len(src))
}
