//go:build !amd64 || purego || !gc

package convert

// Without assembly the range scans skip nothing: the generated firstBad
// functions test every element in Go.

func scanFloat32(src []float32, lo, hi float32) int       { return 0 }
func scanFloat32Finite(src []float32, lo, hi float32) int { return 0 }
func scanFloat64(src []float64, lo, hi float64) int       { return 0 }
func scanFloat64Finite(src []float64, lo, hi float64) int { return 0 }
func scanInt32(src []int32, lo, hi int32) int             { return 0 }
