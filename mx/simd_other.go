//go:build !amd64 || purego || !gc

package mx

// Without the assembly kernels the Go loops do all the work.

func (q *mxQuant) simd32(src []uint32, blk int) int { return 0 }

func (d *deq) simdDeq32(out []uint32, blk, n int) int { return 0 }
