//go:build gc && !purego

package mx

import (
	"bytes"

	"github.com/clconv/clconv/internal/kernels"
)

//go:generate go run -C ../_asm ./mx -out ../mx/zmx_amd64.s -stubs ../mx/zmx_amd64.go -pkg mx

// The AVX-512 kernels of zmx_amd64.s (generated with avo by _asm/mx, with
// their declarations in zmx_amd64.go). Each does what the Go code does for whole
// MX blocks of float32 (block32, and the float32 path of Dequantize), 16
// lanes at a time, and stops at the first block it leaves to the Go code: a
// block whose amax is NaN or infinite, or whose shared exponent is so small
// that float32 subnormal inputs matter (quantize); a NaN scale or one that
// takes some element out of float32's normal range (dequantize). They
// return the number of blocks done. The tests compare them with the Go code
// bit for bit (TestSIMDQuantize, TestSIMDDequantize).

// qparams is what a quantization kernel needs of the element format and
// rule (the fields of elemInfo, as 32-bit words). The kernels take a pointer
// to its first field and read the others at their offsets (_asm/mx).
type qparams struct {
	eminBits, k0, k1, maxCode, signMask uint32
	ruleT                               uint32 // the rule's threshold on amax's 23-bit fraction
	off                                 uint32 // 127 + emax
	xsub                                int32
	// The 16-block loop's forms of ruleT, off and xsub: amax + ruleAdd
	// carries into the exponent exactly when the fraction exceeds ruleT,
	// and it compares the scale X + 127 with scaleMin.
	ruleAdd  uint32 // 0x7fffff - ruleT
	emax     int32  // off - 127
	scaleMin int32  // xsub + 127
}

type qkernel func(dst, scales *byte, src *uint32, n int, p *uint32) (done, clamped, flushed int)

// qBytes holds the kernels writing one code per byte, by element format
// and mode; qNib those writing FP4 two per byte, by mode.
var (
	qBytes = [numElems][4]qkernel{
		idE4M3: {mxqE4M3BytesRTE, mxqE4M3BytesRTZ, mxqE4M3BytesRTP, mxqE4M3BytesRTN},
		idE5M2: {mxqE5M2BytesRTE, mxqE5M2BytesRTZ, mxqE5M2BytesRTP, mxqE5M2BytesRTN},
		idE2M3: {mxqE2M3BytesRTE, mxqE2M3BytesRTZ, mxqE2M3BytesRTP, mxqE2M3BytesRTN},
		idE3M2: {mxqE3M2BytesRTE, mxqE3M2BytesRTZ, mxqE3M2BytesRTP, mxqE3M2BytesRTN},
		idE2M1: {mxqE2M1BytesRTE, mxqE2M1BytesRTZ, mxqE2M1BytesRTP, mxqE2M1BytesRTN},
	}
	qNib = [4]qkernel{mxqE2M1NibRTE, mxqE2M1NibRTZ, mxqE2M1NibRTP, mxqE2M1NibRTN}
)

// qparamTab holds the kernel parameters by element format and rule.
var qparamTab [numElems][numRules]qparams

// fp4Tab is E2M1's 16 float32 patterns.
var fp4Tab [16]uint32

func init() {
	for id, e := range elemInfos {
		for r := range numRules {
			var t uint32
			switch ScaleRule(r) {
			case Floor:
				t = 0x7fffff // never exceeded
			case RCEIL:
				t = uint32(e.maxFrac52 >> 29)
			case Ceil:
				t = 0
			case Even:
				t = uint32(e.evenFrac52>>29) - 1
			}
			qparamTab[id][r] = qparams{
				eminBits: e.eminBits, k0: e.k0, k1: e.k1, maxCode: e.maxCode, signMask: e.signBit,
				ruleT: t, off: uint32(127 + e.emax), xsub: int32(e.xsub),
				ruleAdd: 0x7fffff - t, emax: int32(e.emax), scaleMin: int32(e.xsub + 127),
			}
		}
	}
	copy(fp4Tab[:], elemInfos[idE2M1].dec32[:16])
}

func useSIMD() bool { return kernels.Level() >= kernels.AVX512 }

// simd32 quantizes the whole blocks of src, which start at block blk, with
// the kernels, until one declines a block, and returns the number done.
func (q *mxQuant) simd32(src []uint32, blk int) int {
	B := q.l.f.BlockSize
	n := len(src) / B
	if !useSIMD() || B != 32 || !q.sat || n == 0 {
		return 0
	}
	mode := int(q.opt.Mode)
	p := &qparamTab[q.l.f.id][q.opt.Rule].eminBits
	var done, clamped, flushed int
	switch {
	case !q.l.packed:
		done, clamped, flushed = qBytes[q.l.f.id][mode](&q.dst[blk*B], &q.scales[blk], &src[0], n, p)
	case q.l.f.ElemBits() == 4 && q.opt.Nibbles == LowFirst:
		done, clamped, flushed = qNib[mode](&q.dst[blk*B/2], &q.scales[blk], &src[0], n, p)
	default:
		// Other packings: codes into a buffer, then packed.
		var buf [64 * 32]byte
		for done < n {
			k := min(n-done, 64)
			d, c, f := qBytes[q.l.f.id][mode](&buf[0], &q.scales[blk+done], &src[done*B], k, p)
			clamped += c
			flushed += f
			for i := range d {
				q.l.emit(q.dst, blk+done+i, buf[i*B:(i+1)*B], q.opt)
			}
			done += d
			if d < k {
				break
			}
		}
	}
	q.st.Clamped += clamped
	q.st.Flushed += flushed
	// The kernels write the scale 0 only for all-zero blocks (a non-zero
	// amax whose X would be that small is left to the Go code).
	for i, sc := 0, q.scales[blk:blk+done]; ; {
		j := bytes.IndexByte(sc[i:], 0)
		if j < 0 {
			break
		}
		q.st.zeroBlock(blk + i + j)
		i += j + 1
	}
	return done
}

// simdDeq32 decodes the whole blocks from blk on into float32 patterns
// with the kernels, until one declines a block, and returns the number
// done.
func (d *deq) simdDeq32(out []uint32, blk, n int) int {
	if !useSIMD() || d.l.f.TensorScale || n == 0 {
		return 0
	}
	e := &d.elems[blk*d.l.blockBytes]
	s := &d.scales[blk]
	switch {
	case d.l.f == MXFP8E4M3:
		return mxdE4M3(&out[0], e, s, n, nil)
	case d.l.f == MXFP8E5M2:
		return mxdE5M2(&out[0], e, s, n, nil)
	case d.l.f == MXFP4 && !d.l.packed:
		return mxdFP4(&out[0], e, s, n, &fp4Tab[0])
	case d.l.f == MXFP4 && d.opt.Nibbles == LowFirst:
		return mxdFP4Nib(&out[0], e, s, n, &fp4Tab[0])
	}
	return 0
}
