package checkpoint

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// The FNUZ re-encoding of block-scaled FP8 weights (issue 44): what vLLM and
// sglang do by hand when they load an OCP E4M3 checkpoint on AMD's MI300
// (normalize_e4m3fn_to_e4m3fnuz), done to the file. E4M3FNUZ's bias is one
// larger than E4M3's, so that the same bits mean half the value: the
// weight's bytes are kept, reinterpreted as E4M3FNUZ, and its block scale is
// doubled, which keeps every product weight * scale exactly. Two bytes have
// no such counterpart:
//
//   - 0x80, OCP's -0, is E4M3FNUZ's NaN: it becomes 0x00 (+0), as the
//     loaders do;
//   - 0x7f and 0xff, OCP's NaNs, would be E4M3FNUZ's +-240: they become the
//     NaN 0x80 (the loaders leave them, turning a NaN into 240; a NaN
//     weight means a corrupt checkpoint either way).
//
// The inverse (an E4M3FNUZ checkpoint to e4m3) keeps the bytes and halves
// the scale: the FNUZ NaN 0x80 becomes OCP's NaN 0x7f, and +-240 (0x7f and
// 0xff), whose doubled value 480 is beyond E4M3's 448, cannot be kept: they
// are an error, or with _sat (Options.Sat) they become +-448 (0x7e, 0xfe),
// which changes those weights by 1/15. A checkpoint quantized for MI300
// directly (scale amax/240) has +-240 in nearly every block: convert it by
// dequantizing and quantizing again (Options.BlockSize) instead.
//
// The scale is doubled or halved in its own dtype (F32, BF16 or F16),
// exactly: a scale whose double overflows, or whose half is not exact (a
// subnormal's last bit), is an error.

// reencodeDir returns +1 when the FP8 weight of dtype d is re-encoded from
// E4M3 to E4M3FNUZ by opt, -1 for the inverse, and 0 otherwise.
func reencodeDir(d safetensors.DType, opt *Options) int {
	switch {
	case d == safetensors.F8_E4M3 && opt.To == cltype.E4M3FNUZ && opt.Block == nil && opt.BlockSize == [2]int{}:
		return 1
	case d == safetensors.F8_E4M3FNUZ && opt.To == cltype.E4M3 && opt.Block == nil && opt.BlockSize == [2]int{}:
		return -1
	}
	return 0
}

// planReencode makes j the re-encoding of an FP8 weight or its scale (m is
// the tensor's role), and reports whether it applies.
func planReencode(j *job, m member, all map[string]source, opt *Options) bool {
	if m.role != roleFP8 && m.role != roleFP8Scale || !opt.selected(m.weight) {
		return false
	}
	w, ok := all[m.weight]
	if !ok {
		return false
	}
	dir := reencodeDir(w.t.DType, opt)
	if dir == 0 {
		return false
	}
	j.act, j.reencode = ActReencode, dir
	if m.role == roleFP8 {
		j.out.DType = safetensors.F8_E4M3FNUZ
		if dir < 0 {
			j.out.DType = safetensors.F8_E4M3
		}
	}
	return true
}

// E4M3ToFNUZ returns the E4M3FNUZ byte that re-encodes the OCP E4M3 byte b
// with the block scale doubled: b itself, except that -0 (0x80) gives +0
// and the NaNs (0x7f, 0xff) give the NaN 0x80.
func E4M3ToFNUZ(b uint8) uint8 {
	switch {
	case b == 0x80:
		return 0
	case b&0x7f == 0x7f:
		return 0x80
	}
	return b
}

// FNUZToE4M3 returns the OCP E4M3 byte that re-encodes the E4M3FNUZ byte b
// with the block scale halved, and false for +-240 (0x7f, 0xff), which have
// none; with sat those give +-448 (0x7e, 0xfe) and true. The NaN 0x80 gives
// 0x7f.
func FNUZToE4M3(b uint8, sat bool) (uint8, bool) {
	switch {
	case b == 0x80:
		return 0x7f, true
	case b&0x7f == 0x7f:
		return b - 1, sat
	}
	return b, true
}

// reencodeTensor writes job j's re-encoded weight bytes or scaled scale.
func reencodeTensor(ctx context.Context, dst io.WriterAt, off int64, j *job, opt *Options) error {
	t := j.src.t
	size := int64(t.DType.Bits() / 8)
	n := t.Count()
	if n*size != t.Bytes() {
		return tensorErr(t.Name, fmt.Errorf("%d bytes hold %d elements of %s, not %d", t.Bytes(), t.Bytes()/size, t.DType, n))
	}
	return parallel(ctx, int(ceilDiv(n, chunkElems)), opt, func(s *scratch, i int) error {
		e0 := int64(i) * chunkElems
		cnt := min(chunkElems, n-e0)
		b := s.buf(0, cnt*size)
		if err := readAt(j.src, b, e0*size); err != nil {
			return err
		}
		if t.DType == safetensors.F8_E4M3 || t.DType == safetensors.F8_E4M3FNUZ {
			for k, x := range b {
				if j.reencode > 0 {
					b[k] = E4M3ToFNUZ(x)
					continue
				}
				y, ok := FNUZToE4M3(x, opt.Sat)
				if !ok {
					return tensorErr(t.Name, dataErrorf("element %s is %v in E4M3FNUZ: with its scale halved it would be %v, beyond E4M3's 448 (with --sat it becomes %v; or dequantize and quantize again with --block-size)",
						indexString(t.Shape, e0+int64(k)), fnuzValue(x), 2*fnuzValue(x), math.Copysign(448, fnuzValue(x))))
				}
				b[k] = y
			}
			return writeAt(dst, b, off+e0*size)
		}
		if err := scaleBy(t.DType.Kind(), b, j.reencode); err != nil {
			return tensorErr(t.Name, dataErrorf("its scale %s", err))
		}
		return writeAt(dst, b, off+e0*size)
	})
}

// fnuzValue returns the value of E4M3FNUZ byte b.
func fnuzValue(b uint8) float64 {
	v, _ := convert.Bits(cltype.Double, cltype.E4M3FNUZ, uint64(b), round.RTE, false)
	return math.Float64frombits(v)
}

// scaleBy multiplies the little-endian scale values of kind k in b by 2
// (dir > 0) or 1/2 (dir < 0) in place, exactly: through float32, in which
// every value of F32, BF16 and F16 is exact, and back, checking that the
// result is the exact product.
func scaleBy(k cltype.Kind, b []byte, dir int) error {
	size := k.Size()
	f := 2.0
	if dir < 0 {
		f = 0.5
	}
	for i := 0; i < len(b); i += size {
		var in uint64
		for c := size - 1; c >= 0; c-- {
			in = in<<8 | uint64(b[i+c])
		}
		x32, _ := convert.Bits(cltype.Float, k, in, round.RTE, false)
		x := float64(math.Float32frombits(uint32(x32)))
		want := x * f // exact in float64
		out, _ := convert.Bits(k, cltype.Double, math.Float64bits(want), round.RTE, false)
		back, _ := convert.Bits(cltype.Double, k, out, round.RTE, false)
		if got := math.Float64frombits(back); got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			return fmt.Errorf("%v at %d times %v is %v, which %s cannot hold exactly", x, i/size, f, want, k)
		}
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], out)
		copy(b[i:i+size], w[:size])
	}
	return nil
}
