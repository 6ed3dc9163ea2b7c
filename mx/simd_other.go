//go:build !amd64 || purego || !gc

package mx

import "github.com/clconv/clconv/round"

// Without the assembly kernels the Go loops do all the work.

func (q *mxQuant) simd32(src []uint32, blk int) int { return 0 }

func (d *deq) simdDeq32(out []uint32, blk, n int) int { return 0 }

func simdElems(e Elem, dst []byte, src []float32, m round.Mode, sat bool) int { return 0 }
