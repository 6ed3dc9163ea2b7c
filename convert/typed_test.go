package convert_test

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/byteorder"
	"github.com/clconv/clconv/round"
)

// typed runs the generic API for one pair of kinds on values given as bit
// patterns (zero-extended, as Bits takes them), so that tests and
// benchmarks can loop over every pair at run time.
type typed struct {
	toChecked    func(x uint64, m round.Mode) (uint64, error)
	toSat        func(x uint64, m round.Mode) uint64
	sliceChecked func(src []uint64, m round.Mode) ([]uint64, error)
	// isValue reports whether v is the source value with bit pattern x, of
	// the source's Go type.
	isValue func(v any, x uint64) bool
	// scan puts each of vals, alone among zeros, at a position that moves
	// through a slice of 131 elements (two AVX-512 blocks and a tail) and requires SliceChecked to report it
	// exactly when ToChecked does.
	scan func(t *testing.T, vals []uint64, m round.Mode)
	// bench measures SliceSat and SliceChecked on src (bit patterns) in the
	// same run.
	bench func(b *testing.B, src []uint64, m round.Mode)
}

// fromBits returns the value of T with bit pattern v, toBits the reverse.
func fromBits[T convert.Number](v uint64) T {
	var x T
	byteorder.Store(unsafe.Pointer(&x), int(unsafe.Sizeof(x)), 0, v)
	return x
}

func toBits[T convert.Number](x T) uint64 {
	return byteorder.Load(unsafe.Pointer(&x), int(unsafe.Sizeof(x)), 0)
}

func typedFor[D, S convert.Number]() typed {
	return typed{
		toChecked: func(x uint64, m round.Mode) (uint64, error) {
			d, err := convert.ToChecked[D](fromBits[S](x), m)
			return toBits(d), err
		},
		toSat: func(x uint64, m round.Mode) uint64 {
			return toBits(convert.ToSat[D](fromBits[S](x), m))
		},
		sliceChecked: func(bits []uint64, m round.Mode) ([]uint64, error) {
			src := make([]S, len(bits))
			for i, v := range bits {
				src[i] = fromBits[S](v)
			}
			dst := make([]D, len(src))
			n, err := convert.SliceChecked(dst, src, m)
			out := make([]uint64, n)
			for i := range out {
				out[i] = toBits(dst[i])
			}
			return out, err
		},
		isValue: func(v any, x uint64) bool {
			s, ok := v.(S)
			return ok && toBits(s) == x
		},
		scan: func(t *testing.T, vals []uint64, m round.Mode) {
			t.Helper()
			const n = 131
			src := make([]S, n)
			dst := make([]D, n)
			for i, v := range vals {
				j := i * 37 % n
				x := fromBits[S](v)
				src[j] = x
				_, want := convert.ToChecked[D](x, m)
				_, err := convert.SliceChecked(dst, src, m)
				var re *convert.RangeError
				if want == nil && err != nil || want != nil && (!errors.As(err, &re) || re.Index != j || toBits(re.Value.(S)) != v) {
					t.Fatalf("%s at %d in %s: SliceChecked gives %v, ToChecked %v", convert.KindOf[S](), j, m, err, want)
				}
				if got, want := toBits(dst[j]), toBits(convert.ToSat[D](x, m)); got != want {
					t.Fatalf("%s %#x at %d in %s: SliceChecked converted to %#x, ToSat gives %#x", convert.KindOf[S](), v, j, m, got, want)
				}
				src[j] = 0
			}
		},
		bench: func(b *testing.B, bits []uint64, m round.Mode) {
			src := make([]S, len(bits))
			for i, v := range bits {
				src[i] = fromBits[S](v)
			}
			dst := make([]D, len(src))
			b.Run("check=sat", func(b *testing.B) {
				b.SetBytes(int64(len(src)) * int64(unsafe.Sizeof(src[0])+unsafe.Sizeof(dst[0])))
				for b.Loop() {
					convert.SliceSat(dst, src, m)
				}
			})
			b.Run("check=checked", func(b *testing.B) {
				b.SetBytes(int64(len(src)) * int64(unsafe.Sizeof(src[0])+unsafe.Sizeof(dst[0])))
				for b.Loop() {
					if _, err := convert.SliceChecked(dst, src, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		},
	}
}

// typedPair returns the generic API of the pair src -> dst.
func typedPair(src, dst cltype.Kind) typed {
	switch src {
	case cltype.Char:
		return typedFrom[int8](dst)
	case cltype.Uchar:
		return typedFrom[uint8](dst)
	case cltype.Short:
		return typedFrom[int16](dst)
	case cltype.Ushort:
		return typedFrom[uint16](dst)
	case cltype.Int:
		return typedFrom[int32](dst)
	case cltype.Uint:
		return typedFrom[uint32](dst)
	case cltype.Long:
		return typedFrom[int64](dst)
	case cltype.Ulong:
		return typedFrom[uint64](dst)
	case cltype.Half:
		return typedFrom[half.Half](dst)
	case cltype.Float:
		return typedFrom[float32](dst)
	case cltype.Double:
		return typedFrom[float64](dst)
	}
	panic("bad kind " + src.String())
}

func typedFrom[S convert.Number](dst cltype.Kind) typed {
	switch dst {
	case cltype.Char:
		return typedFor[int8, S]()
	case cltype.Uchar:
		return typedFor[uint8, S]()
	case cltype.Short:
		return typedFor[int16, S]()
	case cltype.Ushort:
		return typedFor[uint16, S]()
	case cltype.Int:
		return typedFor[int32, S]()
	case cltype.Uint:
		return typedFor[uint32, S]()
	case cltype.Long:
		return typedFor[int64, S]()
	case cltype.Ulong:
		return typedFor[uint64, S]()
	case cltype.Half:
		return typedFor[half.Half, S]()
	case cltype.Float:
		return typedFor[float32, S]()
	case cltype.Double:
		return typedFor[float64, S]()
	}
	panic("bad kind " + dst.String())
}
