//go:build !amd64 || purego || !gc

package convert

// Without assembly the generated Go loops flag every element.

func flagFloat32(src []float32, bad []bool, lo, hi float32) (done, count int) { return 0, 0 }
func flagFloat64(src []float64, bad []bool, lo, hi float64) (done, count int) { return 0, 0 }
