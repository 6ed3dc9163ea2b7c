package mx

import (
	"github.com/clconv/clconv/fp4"
	"github.com/clconv/clconv/fp6"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/round"
)

// Elem names an MX element format, or the MX scale format E8M0, for
// ElemsFromFloat32.
type Elem uint8

// The formats of ElemsFromFloat32.
const (
	ElemE2M1 Elem = iota // FP4: fp4.E2M1FromFloat32
	ElemE2M3             // FP6: fp6.E2M3FromFloat32
	ElemE3M2             // FP6: fp6.E3M2FromFloat32
	ElemE8M0             // the scale: fp8.E8M0FromFloat32, or E8M0FromFloat32Sat
)

// ElemsFromFloat32 converts every element of src to format e in mode m, with
// _sat if sat, one code a byte into dst (which must be at least as long as
// src): the bits of the scalar conversions named at Elem (E2M1, E2M3 and
// E3M2 saturate with or without _sat), for every input. On amd64 with
// AVX-512 the bulk goes through kernels of zmx_amd64.s (see
// docs/MX.md for their speed); the rest, and every element elsewhere, goes
// through the scalar conversions.
func ElemsFromFloat32(e Elem, dst []byte, src []float32, m round.Mode, sat bool) {
	dst = dst[:len(src)]
	i := simdElems(e, dst, src, normMode(m), sat)
	dst, src = dst[i:], src[i:]
	switch {
	case e == ElemE2M1:
		for j, x := range src {
			dst[j] = byte(fp4.E2M1FromFloat32(x, m))
		}
	case e == ElemE2M3:
		for j, x := range src {
			dst[j] = byte(fp6.E2M3FromFloat32(x, m))
		}
	case e == ElemE3M2:
		for j, x := range src {
			dst[j] = byte(fp6.E3M2FromFloat32(x, m))
		}
	case e == ElemE8M0 && sat:
		for j, x := range src {
			dst[j] = byte(fp8.E8M0FromFloat32Sat(x, m))
		}
	case e == ElemE8M0:
		for j, x := range src {
			dst[j] = byte(fp8.E8M0FromFloat32(x, m))
		}
	default:
		panic("mx: ElemsFromFloat32 of an unknown Elem")
	}
}
