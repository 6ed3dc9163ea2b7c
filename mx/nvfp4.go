package mx

import (
	"math"
	"math/big"
	"sort"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

// NVFP4's constants: E2M1's and E4M3's largest values, and the E4M3 codes
// of the block scale's clamp bounds and of the scale of an all-zero block.
const (
	nvElemMax  = 6
	nvScaleMax = 448
	nvDivisor  = nvElemMax * nvScaleMax // 2688
	e4m3Min    = 0x01                   // 2^-9, the smallest subnormal
	e4m3Max    = 0x7e                   // 448
	e4m3One    = 0x38                   // 1.0
	e4m3NaN    = 0x7f
)

// NVFP4TensorScale returns the tensor scale ModelOpt derives from a
// tensor's largest magnitude amax: the float32 quotient amax / 2688 (6 *
// 448), rounded to nearest even (get_weights_scaling_factor_2). With
// reciprocal set it returns amax * float32(1/2688) instead, which is what
// PyTorch computes for a float32 tensor divided by a Python number on a
// CUDA device (it multiplies by the reciprocal, which "may lose one bit of
// precision"); on the CPU it divides.
func NVFP4TensorScale(amax float32, reciprocal bool) float32 {
	if reciprocal {
		r := float32(1) / float32(nvDivisor)
		return amax * r
	}
	return amax / float32(nvDivisor)
}

// NVFP4BlockScale returns the E4M3 code of the scale of an NVFP4 block
// whose largest magnitude is amax, under the tensor scale ts, as Quantize
// computes it with recipe and scale rounding mode m: 0x7F (NaN) for a NaN
// or infinite amax, 0x38 (1.0) for zero, else amax / (6 * ts) rounded into
// E4M3 and clamped to [2^-9, 448] (clamped reports the clamp).
func NVFP4BlockScale(amax float64, ts float32, recipe NVRecipe, m round.Mode) (code uint8, clamped bool) {
	a := math.Abs(amax)
	switch {
	case math.IsNaN(a) || math.IsInf(a, 0):
		return e4m3NaN, false
	case a == 0:
		return e4m3One, false
	}
	m = normMode(m)
	if recipe == Exact {
		c, _ := roundQuot(elemInfos[idE4M3], a, 6*float64(ts), m)
		switch {
		case c == 0:
			return e4m3Min, true
		case c > e4m3Max:
			return e4m3Max, true
		}
		return c, false
	}
	d := float32(6) * ts
	s := float32(a) / d
	switch {
	case s == 0:
		s = 1
	case s < 0x1p-9:
		s, clamped = 0x1p-9, true
	case s > nvScaleMax:
		s, clamped = nvScaleMax, true
	}
	return uint8(minifloat.FromFloat32Bits(minifloat.E4M3, math.Float32bits(s), m, true)), clamped
}

// roundQuot rounds the magnitude a / d (a >= 0 and d > 0 finite, both
// float64) into the element format of e in mode m for a positive value,
// exactly: it compares a with the products of d and the format's values and
// midpoints, which are exact in float64 for the formats used here (E2M1
// and E4M3 values have at most 4 significant bits and their midpoints 5,
// and d has at most 28: a product has at most 33 < 53 bits). It returns the
// magnitude's code, maxCode+1 when the rounded value lies beyond MAX, and
// whether the quotient was exact.
func roundQuot(e *elemInfo, a, d float64, m round.Mode) (uint8, bool) {
	return roundQuotSign(e, a, d, m, false)
}

func roundQuotSign(e *elemInfo, a, d float64, m round.Mode, neg bool) (uint8, bool) {
	v := e.vals // v[0] = 0 .. v[maxCode] = MAX, v[maxCode+1] the next grid point
	n := len(v)
	// i: the largest code whose value times d is at most a.
	i := sort.Search(n, func(k int) bool { return v[k]*d > a }) - 1
	if v[i]*d == a {
		return uint8(i), true
	}
	if i == n-1 {
		// Beyond the grid point above MAX: beyond MAX in every mode.
		return uint8(n - 1), false
	}
	lo, hi := i, i+1
	up := false
	switch m {
	case round.RTZ:
	case round.RTP:
		up = !neg
	case round.RTN:
		up = neg
	default:
		mid := (v[lo] + v[hi]) / 2 * d
		up = a > mid || a == mid && lo&1 == 1
	}
	if up {
		return uint8(hi), false
	}
	return uint8(lo), false
}

// quantizeNV is Quantize for NVFP4.
func quantizeNV[T Source](l *layout, dst, scales []byte, src []T, opt Options, st Stats) (Stats, error) {
	val := func(i int) float64 { return 0 }
	is64 := false
	switch kindOf[T]() {
	case kF32:
		s := as[float32](src)
		val = func(i int) float64 { return float64(s[i]) }
	case kF64:
		s := as[float64](src)
		val = func(i int) float64 { return s[i] }
		is64 = true
	case kHalf:
		s := as[half.Half](src)
		val = func(i int) float64 { return s[i].Float64() }
	case kBF16:
		s := as[bfloat16.BFloat16](src)
		val = func(i int) float64 { return s[i].Float64() }
	}
	f := l.f
	n := len(src)
	// The tensor's largest finite magnitude (NaN and infinities are left
	// to their blocks, which get the NaN scale).
	var amax float64
	for i := range n {
		a := math.Abs(val(i))
		switch {
		case math.IsNaN(a):
			st.NaNInputs++
		case math.IsInf(a, 0):
			st.InfInputs++
		default:
			amax = max(amax, a)
		}
	}
	ts := opt.TensorScale
	switch {
	case ts != 0:
		if !(ts > 0) || math.IsInf(float64(ts), 0) {
			return st, errorf("quantize", f, "tensor scale %v is not a positive finite float32 (Options.TensorScale)", ts)
		}
	case opt.Recipe == Exact:
		// amax / 2688 rounded once to float32, to nearest even.
		r := new(big.Rat).SetFloat64(amax)
		r.Quo(r, big.NewRat(nvDivisor, 1))
		ts, _ = r.Float32()
	default:
		ts = NVFP4TensorScale(float32(amax), opt.Recipe == ModelOptCUDA)
	}
	st.TensorScale = ts
	if ts == 0 && amax != 0 {
		return st, errorf("quantize", f, "the tensor scale %g / %d underflows to 0; pass Options.TensorScale", amax, nvDivisor)
	}

	e := elemInfos[idE2M1]
	B := f.BlockSize
	var codes [32]byte
	for r := range l.rows {
		for j := range l.bpr {
			blk := r*l.bpr + j
			i0 := r*l.rowLen + j*B
			k := min(B, l.rowLen-j*B)
			var bmax float64
			for i := range k {
				bmax = max(bmax, math.Abs(val(i0+i))) // NaN propagates in max
			}
			c := codes[:B]
			clear(c)
			switch {
			case math.IsNaN(bmax) || math.IsInf(bmax, 0):
				st.nanBlock(blk)
				scales[blk] = e4m3NaN
				l.emit(dst, blk, c, &opt)
				continue
			case bmax == 0:
				st.zeroBlock(blk)
			}
			if is64 && opt.Recipe != Exact {
				bmax = float64(float32(bmax)) // per_block_amax.float()
			}
			sc, clamped := NVFP4BlockScale(bmax, ts, opt.Recipe, opt.ScaleMode)
			if clamped {
				st.ScaleClamped++
			}
			scales[blk] = sc
			sv := math.Float64frombits(minifloat.ToFloat64Bits(minifloat.E4M3, uint64(sc)))
			for i := range k {
				x := val(i0 + i)
				var code uint8
				var over bool
				if opt.Recipe == Exact {
					neg := math.Signbit(x)
					if x != 0 { // (the all-zero tensor has ts = 0)
						code, _ = roundQuotSign(e, math.Abs(x), sv*float64(ts), opt.Mode, neg)
					}
					if over = uint32(code) > e.maxCode; over {
						code = uint8(e.maxCode)
					}
					if neg {
						code |= uint8(e.signBit)
					}
				} else {
					code, over = modelOptElem(e, x, float32(sv), ts, is64, opt.Mode)
				}
				if over {
					st.Clamped++
				}
				if x != 0 && code&0x7 == 0 {
					st.Flushed++
				}
				c[i] = code
			}
			l.emit(dst, blk, c, &opt)
		}
	}
	return st, nil
}

// modelOptElem is ModelOpt's element step: q = x / (scale * ts), each
// operation a float32 one (float64 for a float64 source, as PyTorch
// promotes), then q rounded into E2M1 in mode m and clamped to ±6; it
// reports whether q rounded beyond 6. The sign is that of q < 0, as
// _cast_fp4 takes it, so -0 gives +0.
func modelOptElem(e *elemInfo, x float64, s, ts float32, is64 bool, m round.Mode) (uint8, bool) {
	d := s * ts
	var a uint32 // |q| as a binary32 pattern, rounded to odd from float64
	var neg bool
	if is64 {
		q := x / float64(d)
		if math.IsNaN(q) {
			return 0, false
		}
		neg = q < 0
		a = minifloat.Float64ToOdd32(math.Float64bits(math.Abs(q)))
	} else {
		q := float32(x) / d
		if q != q {
			return 0, false
		}
		neg = q < 0
		a = math.Float32bits(q) &^ (1 << 31)
	}
	c, over := e.finish(e.fromFloat32(tiny32(a), neg, m), neg, m, true)
	return c, over
}
