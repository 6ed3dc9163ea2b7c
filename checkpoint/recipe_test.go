package checkpoint

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
	"github.com/clconv/clconv/safetensors"
)

// rn24 rounds x to 24 significant bits, to nearest even: a float32
// operation's result when it is normal, computed by math/big.
func rn24(x *big.Float) *big.Float {
	return new(big.Float).SetPrec(24).SetMode(big.ToNearestEven).Set(x)
}

func bigF32(v float32) *big.Float { return bigOf(float64(v)) }

// recipeRef computes, by math/big, a block's stored scale and the codes of
// its elements under recipe r, for FP8 format f of largest value fmax. The
// test data keeps every float32 intermediate normal, where a 24-bit
// rounding is float32's.
func recipeRef(r Recipe, f *minifloat.Format, fmax float64, block []float32) (float32, []uint64) {
	amax := float32(0)
	for _, v := range block {
		amax = max(amax, float32(math.Abs(float64(v))))
	}
	codes := make([]uint64, len(block))
	if amax == 0 {
		for i := range codes {
			codes[i] = exactRound(f, bigOf(0), round.RTE, false)
		}
		return 1, codes
	}
	prec := func() *big.Float { return new(big.Float).SetPrec(200) }
	switch r {
	case RecipeDeepSeek:
		s := rn24(prec().Quo(bigF32(amax), bigOf(fmax)))
		for i, v := range block {
			codes[i] = exactRound(f, rn24(prec().Quo(bigF32(v), s)), round.RTE, false)
		}
		sf, _ := s.Float32()
		return sf, codes
	case RecipeTransformers:
		// (1/amax)*M, each rounded: torch's 448.0 / t.
		m := rn24(prec().Mul(rn24(prec().Quo(bigOf(1), bigF32(amax))), bigOf(fmax)))
		for i, v := range block {
			p := rn24(prec().Mul(bigF32(v), m))
			if p.Cmp(bigOf(fmax)) > 0 {
				p = bigOf(fmax)
			} else if p.Cmp(bigOf(-fmax)) < 0 {
				p = bigOf(-fmax)
			}
			codes[i] = exactRound(f, p, round.RTE, false)
		}
		inv, _ := rn24(prec().Quo(bigOf(1), m)).Float32()
		return inv, codes
	}
	panic("recipeRef: " + r.String())
}

// TestRecipes checks the DeepSeek and transformers recipes against their
// formulas computed by math/big, on BF16 weights whose blocks span many
// magnitudes (the scales' and quotients' roundings differ from block to
// block), with blocks that do not divide the shape and an all-zero block.
func TestRecipes(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(42, 43))
	const rows, cols, br, bc = 40, 72, 16, 32
	vals := make([]float32, rows*cols)
	data := make([]byte, 2*rows*cols)
	for i := range vals {
		r, c := i/cols, i%cols
		blk := (r/br)*3 + c/bc
		// Each block its own magnitude, 2^-60 .. 2^60; some elements tiny.
		e := float64(blk*13%121 - 60)
		v := rng.NormFloat64() * math.Exp2(e)
		if rng.IntN(16) == 0 {
			v *= 1e-3
		}
		if r/br == 1 && c/bc == 1 {
			v = 0 // an all-zero block
		}
		h := bfloat16.FromFloat32(float32(v), round.RTE)
		vals[i] = h.Float32()
		binary.LittleEndian.PutUint16(data[2*i:], h.Bits())
	}
	in := writeFile(t, dir, "w.safetensors", nil, tensor{safetensors.TensorInfo{Name: "w", DType: safetensors.BF16, Shape: []int64{rows, cols}}, data})
	for _, to := range []cltype.Kind{cltype.E4M3, cltype.E5M2} {
		f := minifloat.OfKind(to)
		fmax := fp8Max(to)
		for _, r := range []Recipe{RecipeDeepSeek, RecipeTransformers} {
			out := filepath.Join(dir, "out.safetensors")
			rep, err := ConvertFile(context.Background(), out, in, true, Options{To: to, BlockSize: [2]int{br, bc}, Recipe: r, Tensors: []string{"*"}})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Tensors[0].Recipe != r.String() {
				t.Errorf("report's recipe %q, want %q", rep.Tensors[0].Recipe, r)
			}
			_, got := readBack(t, out)
			nb := 0
			for b0 := 0; b0 < rows; b0 += br {
				for c0 := 0; c0 < cols; c0 += bc {
					var block []float32
					var at []int
					for i := b0; i < min(rows, b0+br); i++ {
						for j := c0; j < min(cols, c0+bc); j++ {
							block = append(block, vals[i*cols+j])
							at = append(at, i*cols+j)
						}
					}
					s, codes := recipeRef(r, f, fmax, block)
					gs := math.Float32frombits(binary.LittleEndian.Uint32(got["w_scale_inv"][4*nb:]))
					if gs != s {
						t.Fatalf("%v %v block %d: scale %g (%#x), want %g (%#x)", to, r, nb, gs, math.Float32bits(gs), s, math.Float32bits(s))
					}
					for k, i := range at {
						if g := uint64(got["w"][i]); g != codes[k] {
							t.Fatalf("%v %v element %d (%g, block scale %g): code %#x, want %#x", to, r, i, block[k], s, g, codes[k])
						}
					}
					nb++
				}
			}
		}
	}
}

// TestRecipesDiffer: the three recipes are three formulas. On blocks of
// random BF16 weights their scales differ (by an ulp, in most blocks) while
// most codes agree.
func TestRecipesDiffer(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 256
	data := make([]byte, 2*n*n)
	for i := range n * n {
		binary.LittleEndian.PutUint16(data[2*i:], bfloat16.FromFloat32(float32(rng.NormFloat64()*0.02), round.RTE).Bits())
	}
	in := writeFile(t, dir, "w.safetensors", nil, tensor{safetensors.TensorInfo{Name: "w", DType: safetensors.BF16, Shape: []int64{n, n}}, data})
	scales := map[Recipe][]byte{}
	for _, r := range []Recipe{RecipeExact, RecipeDeepSeek, RecipeTransformers} {
		out := filepath.Join(dir, r.String()+".safetensors")
		if _, err := ConvertFile(context.Background(), out, in, false, Options{To: cltype.E4M3, BlockSize: [2]int{32, 32}, Recipe: r, Tensors: []string{"*"}}); err != nil {
			t.Fatal(err)
		}
		_, got := readBack(t, out)
		scales[r] = got["w_scale_inv"]
	}
	for _, r := range []Recipe{RecipeDeepSeek, RecipeTransformers} {
		same := 0
		for b := 0; b < 64; b++ {
			if binary.LittleEndian.Uint32(scales[r][4*b:]) == binary.LittleEndian.Uint32(scales[RecipeExact][4*b:]) {
				same++
			}
		}
		if same == 64 {
			t.Errorf("recipe %v: every scale equals clconv's exact recipe's: the recipe is not applied", r)
		}
	}
}

// TestRecipeErrors: the named recipes refuse what their formulas cannot
// write (a NaN would spread to its whole block; a scale that is 0 or a
// multiplier that is infinite in float32), and options they do not take.
func TestRecipeErrors(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, v ...float32) string {
		data := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(x))
		}
		return writeFile(t, dir, name, nil, tensor{safetensors.TensorInfo{Name: "w", DType: safetensors.F32, Shape: []int64{1, int64(len(v))}}, data})
	}
	nan := mk("nan.safetensors", 1, float32(math.NaN()), 2, 3)
	tiny := mk("tiny.safetensors", 1e-44, 0, 0, 0)
	for _, c := range []struct {
		in   string
		r    Recipe
		want string
	}{
		{nan, RecipeDeepSeek, "NaN"},
		{nan, RecipeTransformers, "NaN"},
		{tiny, RecipeDeepSeek, "0 in float32"},
		{tiny, RecipeTransformers, "beyond float32"},
	} {
		_, err := ConvertFile(context.Background(), filepath.Join(dir, "o.safetensors"), c.in, false, Options{To: cltype.E4M3, BlockSize: [2]int{1, 4}, Recipe: c.r, Tensors: []string{"*"}})
		var de *DataError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &de) {
			t.Errorf("%s %v: err %v, want a DataError with %q", filepath.Base(c.in), c.r, err, c.want)
		}
	}
	// clconv's own recipe quantizes both (the NaN stays in its element).
	for _, in := range []string{nan, tiny} {
		if _, err := ConvertFile(context.Background(), filepath.Join(dir, "o.safetensors"), in, true, Options{To: cltype.E4M3, BlockSize: [2]int{1, 4}, Tensors: []string{"*"}}); err != nil {
			t.Errorf("%s exact: %v", filepath.Base(in), err)
		}
	}
	for _, o := range []Options{
		{To: cltype.E4M3, Recipe: RecipeDeepSeek},
		{To: cltype.E4M3, BlockSize: [2]int{1, 4}, Recipe: RecipeDeepSeek, Mode: round.RTZ},
		{To: cltype.E4M3, BlockSize: [2]int{1, 4}, Recipe: RecipeTransformers, Sat: true},
		{To: cltype.E4M3, BlockSize: [2]int{1, 4}, Recipe: Recipe(9)},
	} {
		if _, err := ConvertFile(context.Background(), filepath.Join(dir, "o.safetensors"), tiny, true, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	for _, n := range []string{"exact", "DeepSeek", " transformers ", "Compressed-Tensors", "llm-compressor"} {
		if _, err := ParseRecipe(n); err != nil {
			t.Error(err)
		}
	}
	// compressed-tensors' FP8 is e4m3 only.
	if _, err := ConvertFile(context.Background(), filepath.Join(dir, "o.safetensors"), tiny, true, Options{To: cltype.E5M2, BlockSize: [2]int{1, 4}, Recipe: RecipeCompressedTensors}); err == nil || !strings.Contains(err.Error(), "e4m3") {
		t.Errorf("compressed-tensors to e5m2: %v", err)
	}
	if _, err := ParseRecipe("torchao"); err == nil || !strings.Contains(err.Error(), "exact, deepseek, transformers, compressed-tensors") {
		t.Errorf("ParseRecipe: %v", err)
	}
}

// bigRound rounds x to a binary format of prec significant bits whose
// smallest normal is 2^emin, to nearest even, subnormals included (by
// math/big and integers, not by Go's conversions).
func bigRound(x *big.Float, prec uint, emin int) *big.Float {
	if x.Sign() == 0 {
		return new(big.Float).Set(x)
	}
	if x.MantExp(nil)-1 >= emin { // normal
		return new(big.Float).SetPrec(prec).SetMode(big.ToNearestEven).Set(x)
	}
	// A multiple of the subnormal step 2^(emin-prec+1), rounded to nearest even.
	step := emin - int(prec) + 1
	q := new(big.Float).SetPrec(400).SetMantExp(x, -step)
	i, _ := q.Int(nil) // truncated toward zero
	rem := new(big.Float).SetPrec(400).Sub(q, new(big.Float).SetInt(i))
	rem.Abs(rem)
	switch c := rem.Cmp(big.NewFloat(0.5)); {
	case c > 0 || (c == 0 && i.Bit(0) == 1):
		if x.Sign() > 0 {
			i.Add(i, big.NewInt(1))
		} else {
			i.Sub(i, big.NewInt(1))
		}
	}
	if i.Sign() == 0 {
		z := new(big.Float)
		if x.Sign() < 0 {
			z.Neg(z)
		}
		return z
	}
	return new(big.Float).SetMantExp(new(big.Float).SetInt(i), step)
}

// ctFormat is the precision and smallest normal exponent of dtype d.
func ctFormat(d safetensors.DType) (uint, int) {
	switch d {
	case safetensors.BF16:
		return 8, -126
	case safetensors.F16:
		return 11, -14
	case safetensors.F64:
		return 53, -1022
	}
	return 24, -126
}

// ctRef computes, by math/big, compressed-tensors' scale (a value of dtype
// d) and codes of a block: s = amax/448 in float32 (float64 for F64), then
// rounded to d, eps(d) for 0; each element x/s likewise, -0 made +0,
// clamped to 448, rounded to float32 and to nearest even in E4M3.
func ctRef(d safetensors.DType, f *minifloat.Format, block []float64) (float64, []uint64) {
	prec, emin := ctFormat(d)
	toD := func(x *big.Float) *big.Float {
		if d != safetensors.F64 {
			x = bigRound(x, 24, -126) // the float32 operation
		}
		return bigRound(x, prec, emin)
	}
	amax := 0.0
	for _, v := range block {
		amax = max(amax, math.Abs(v))
	}
	p := func() *big.Float { return new(big.Float).SetPrec(300) }
	s := toD(p().Quo(bigOf(amax), bigOf(448)))
	if s.Sign() == 0 {
		s = new(big.Float).SetMantExp(big.NewFloat(1), 1-int(prec))
	}
	codes := make([]uint64, len(block))
	for i, v := range block {
		q := toD(p().Quo(bigOf(v), s))
		if q.Sign() == 0 {
			q = bigOf(0)
		}
		if q.Cmp(bigOf(448)) > 0 {
			q = bigOf(448)
		} else if q.Cmp(bigOf(-448)) < 0 {
			q = bigOf(-448)
		}
		codes[i] = exactRound(f, bigRound(q, 24, -126), round.RTE, false)
	}
	sf, _ := s.Float64()
	return sf, codes
}

// TestRecipeCompressedTensors checks recipe compressed-tensors against its
// formula computed by math/big, for weights of each floating dtype: the
// scale is written in the weight's dtype as X.weight_scale, each quotient
// is rounded to that dtype (bfloat16's 8 bits make most codes differ from
// the float32 quotient's), -0 becomes +0, an all-zero block gets eps, and
// blocks of tiny magnitudes reach the dtypes' subnormals.
func TestRecipeCompressedTensors(t *testing.T) {
	dir := t.TempDir()
	f := minifloat.OfKind(cltype.E4M3)
	const rows, cols, br, bc = 40, 72, 16, 32
	for _, d := range []safetensors.DType{safetensors.BF16, safetensors.F16, safetensors.F32, safetensors.F64} {
		rng := rand.New(rand.NewPCG(7, uint64(d)))
		vals := make([]float64, rows*cols)
		data := make([]byte, d.Bits()/8*rows*cols)
		lo, hi := -60, 60
		if d == safetensors.F16 {
			lo, hi = -20, 12 // scales down to f16's subnormals and their underflow
		}
		for i := range vals {
			r, c := i/cols, i%cols
			blk := (r/br)*3 + c/bc
			e := float64(lo + blk*13%(hi-lo+1))
			v := rng.NormFloat64() * math.Exp2(e)
			switch rng.IntN(16) {
			case 0:
				v *= 1e-6 // quotients of subnormal size
			case 1:
				v = math.Copysign(0, -1)
			}
			if r/br == 1 && c/bc == 1 {
				v = 0 // an all-zero block
			}
			switch d {
			case safetensors.BF16:
				h := bfloat16.FromFloat64(v, round.RTE)
				v = float64(h.Float32())
				binary.LittleEndian.PutUint16(data[2*i:], h.Bits())
			case safetensors.F16:
				h := half.FromFloat64(v, round.RTE)
				v = h.Float64()
				binary.LittleEndian.PutUint16(data[2*i:], h.Bits())
			case safetensors.F32:
				v = float64(float32(v))
				binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(v)))
			default:
				binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(v))
			}
			vals[i] = v
		}
		in := writeFile(t, dir, "w.safetensors", nil, tensor{safetensors.TensorInfo{Name: "w", DType: d, Shape: []int64{rows, cols}}, data})
		out := filepath.Join(dir, "out.safetensors")
		if _, err := ConvertFile(context.Background(), out, in, true, Options{To: cltype.E4M3, BlockSize: [2]int{br, bc}, Recipe: RecipeCompressedTensors, Tensors: []string{"*"}}); err != nil {
			t.Fatal(err)
		}
		file, got := readBack(t, out)
		if n := len(file.Tensors); n != 2 || file.Tensors[1].Name != "w_scale" || file.Tensors[1].DType != d {
			t.Fatalf("%v: tensors %+v, want w and w_scale of dtype %v", d, file.Tensors, d)
		}
		prec, _ := ctFormat(d)
		sc := got["w_scale"]
		nb, eps, negZero := 0, 0, 0
		for b0 := 0; b0 < rows; b0 += br {
			for c0 := 0; c0 < cols; c0 += bc {
				var block []float64
				var at []int
				for i := b0; i < min(rows, b0+br); i++ {
					for j := c0; j < min(cols, c0+bc); j++ {
						block = append(block, vals[i*cols+j])
						at = append(at, i*cols+j)
					}
				}
				s, codes := ctRef(d, f, block)
				var gs float64
				switch d {
				case safetensors.BF16:
					gs = float64(bfloat16.FromBits(binary.LittleEndian.Uint16(sc[2*nb:])).Float32())
				case safetensors.F16:
					gs = half.FromBits(binary.LittleEndian.Uint16(sc[2*nb:])).Float64()
				case safetensors.F32:
					gs = float64(math.Float32frombits(binary.LittleEndian.Uint32(sc[4*nb:])))
				default:
					gs = math.Float64frombits(binary.LittleEndian.Uint64(sc[8*nb:]))
				}
				if gs != s {
					t.Fatalf("%v block %d: scale %g, want %g", d, nb, gs, s)
				}
				if s == math.Ldexp(1, 1-int(prec)) {
					eps++
				}
				for k, i := range at {
					if g := uint64(got["w"][i]); g != codes[k] {
						t.Fatalf("%v element %d (%g, block scale %g): code %#x, want %#x", d, i, block[k], s, g, codes[k])
					}
					if math.Signbit(block[k]) && block[k] == 0 {
						negZero++
						if got["w"][i] != 0 {
							t.Fatalf("%v element %d: -0 gave code %#x, want +0", d, i, got["w"][i])
						}
					}
				}
				nb++
			}
		}
		if eps == 0 || negZero == 0 {
			t.Errorf("%v: %d eps scales, %d negative zeros: the data misses the cases", d, eps, negZero)
		}
	}
}
