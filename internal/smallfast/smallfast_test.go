package smallfast

import (
	"math"
	"testing"

	"github.com/clconv/clconv/internal/minifloat"
)

// The constants New derives from a row, against the formats' definitions.
func TestNew(t *testing.T) {
	for _, c := range []struct {
		r                *minifloat.Format
		limit, minNormal float32
		max, over        uint8
	}{
		{minifloat.E4M3, 480, 0x1p-6, 0x7e, 0x7f},
		{minifloat.E5M2, 65536, 0x1p-14, 0x7b, 0x7c},
		{minifloat.E2M3, 8, 1, 0x1f, 0x1f},
		{minifloat.E3M2, 32, 0.25, 0x1f, 0x1f},
		{minifloat.E2M1, 8, 1, 0x7, 0x7},
	} {
		f := New(c.r)
		if math.Float32frombits(f.limit) != c.limit || f.minNormal != c.minNormal || f.max != c.max || f.over != c.over ||
			f.subScale*math.Float32frombits(minifloat.ToFloat32Bits(c.r, 1)) != 1 {
			t.Errorf("%s: %+v", c.r, f)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("New(e8m0) did not panic")
		}
	}()
	New(minifloat.E8M0)
}

// Tables ignores the bits above a code's width.
func TestTables(t *testing.T) {
	t32, t64 := Tables(4, 1, 1, false, func(uint8) bool { return false })
	for i := range 256 {
		want := minifloat.ToFloat32Bits(minifloat.E2M1, uint64(i&0xf))
		if t32[i] != want || t64[i] != minifloat.ToFloat64Bits(minifloat.E2M1, uint64(i&0xf)) {
			t.Errorf("%#x: %#x, want %#x", i, t32[i], want)
		}
	}
}
