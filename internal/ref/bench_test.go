package ref_test

import (
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/ref"
	"github.com/clconv/clconv/round"
)

var sink uint64

// BenchmarkRefFloatToInt measures float->int over all modes and both sat
// flags, with inputs spread over the whole float range.
func BenchmarkRefFloatToInt(b *testing.B) {
	var acc uint64
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + 1442695040888963407
		out, _ := ref.Convert(cltype.Int, cltype.Float, x>>32, round.Mode(i&3), i&4 != 0)
		acc += out
	}
	sink = acc
}

// BenchmarkRefIntToFloat measures long->float over all modes.
func BenchmarkRefIntToFloat(b *testing.B) {
	var acc uint64
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + 1442695040888963407
		out, _ := ref.Convert(cltype.Float, cltype.Long, x>>(i&63), round.Mode(i&3), false)
		acc += out
	}
	sink = acc
}

// BenchmarkRefDoubleToHalf measures the narrowing path with the widest shifts.
func BenchmarkRefDoubleToHalf(b *testing.B) {
	var acc uint64
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + 1442695040888963407
		out, _ := ref.Convert(cltype.Half, cltype.Double, x, round.Mode(i&3), false)
		acc += out
	}
	sink = acc
}

// BenchmarkRefIntToHalf measures a 32-bit integer source to the narrowest
// format over all modes: most inputs overflow half's range.
func BenchmarkRefIntToHalf(b *testing.B) {
	var acc uint64
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + 1442695040888963407
		out, _ := ref.Convert(cltype.Half, cltype.Int, x>>(32+i&31), round.Mode(i&3), false)
		acc += out
	}
	sink = acc
}

// BenchmarkRefFloatToHalf measures float->half over all modes, with inputs
// spread over the whole float range (overflow, normal and subnormal results).
func BenchmarkRefFloatToHalf(b *testing.B) {
	var acc uint64
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; b.Loop(); i++ {
		x = x*6364136223846793005 + 1442695040888963407
		out, _ := ref.Convert(cltype.Half, cltype.Float, x>>32, round.Mode(i&3), false)
		acc += out
	}
	sink = acc
}
