package fileconv

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/half"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// putBits appends v (a bit pattern of kind k) to b in the given byte order.
func putBits(b []byte, k cltype.Kind, v uint64, bigEndian bool) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	switch k.Size() {
	case 1:
		return append(b, byte(v))
	case 2:
		return order.AppendUint16(b, uint16(v))
	case 4:
		return order.AppendUint32(b, uint32(v))
	}
	return order.AppendUint64(b, v)
}

// encodeBits returns vals as elements of kind k.
func encodeBits(k cltype.Kind, vals []uint64, bigEndian bool) []byte {
	b := make([]byte, 0, len(vals)*k.Size())
	for _, v := range vals {
		b = putBits(b, k, v, bigEndian)
	}
	return b
}

// decodeBits returns the little-endian elements of kind k in b.
func decodeBits(k cltype.Kind, b []byte) []uint64 {
	out := make([]uint64, len(b)/k.Size())
	for i := range out {
		e := b[i*k.Size():]
		switch k.Size() {
		case 1:
			out[i] = uint64(e[0])
		case 2:
			out[i] = uint64(binary.LittleEndian.Uint16(e))
		case 4:
			out[i] = uint64(binary.LittleEndian.Uint32(e))
		default:
			out[i] = binary.LittleEndian.Uint64(e)
		}
	}
	return out
}

// npyFile returns a .npy file of vals (kind k) with the given shape.
func npyFile(k cltype.Kind, vals []uint64, shape []int64, fortran, bigEndian bool) []byte {
	shp := ShapeString(shape)
	f := "False"
	if fortran {
		f = "True"
	}
	hdr := rawHeader(1, fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr(k, bigEndian), f, shp), true)
	return append(hdr, encodeBits(k, vals, bigEndian)...)
}

// values returns the test inputs of kind k: its edges and n biased random
// values (every half when all is set).
func values(k cltype.Kind, n int, all bool, seed uint64) []uint64 {
	if k == cltype.Half && all {
		v := make([]uint64, 1<<16)
		for i := range v {
			v[i] = uint64(i)
		}
		return v
	}
	v := testvals.Edges(k)
	r := rand.New(rand.NewPCG(seed, uint64(k)))
	for range n {
		v = append(v, testvals.Random(r, k))
	}
	return v
}

// floatOf returns the exact float64 value of the floating bits v of kind k.
func floatOf(k cltype.Kind, v uint64) float64 {
	switch k {
	case cltype.Half:
		return half.FromBits(uint16(v)).Float64()
	case cltype.Float:
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(v)
}

// intOf returns the integer bits v of kind k as a big.Int.
func intOf(k cltype.Kind, v uint64) *big.Int {
	if k.IsSigned() {
		sh := 64 - k.Bits()
		return big.NewInt(int64(v<<sh) >> sh)
	}
	return new(big.Int).SetUint64(v)
}

// roundBig rounds x to an integer in mode m with math/big alone.
func roundBig(x *big.Float, m round.Mode) *big.Int {
	t, _ := x.Int(nil) // toward zero
	frac := new(big.Float).SetPrec(2000).Sub(x, new(big.Float).SetInt(t))
	one := big.NewInt(1)
	away := func() *big.Int {
		if x.Sign() < 0 {
			return t.Sub(t, one)
		}
		return t.Add(t, one)
	}
	switch m {
	case round.RTZ:
		return t
	case round.RTP:
		if frac.Sign() > 0 {
			return t.Add(t, one)
		}
		return t
	case round.RTN:
		if frac.Sign() < 0 {
			return t.Sub(t, one)
		}
		return t
	}
	c := new(big.Float).Abs(frac).Cmp(big.NewFloat(0.5))
	if c > 0 || c == 0 && t.Bit(0) == 1 {
		return away()
	}
	return t
}

// refClassify classifies one element (source bits s of kind sk, result bits
// d of kind dk) from Stats' definitions, in exact big arithmetic.
func refClassify(st *Stats, dk, sk cltype.Kind, s, d uint64, m round.Mode, sat bool) {
	st.Count++
	var x *big.Float // the source value when finite
	nan, inf := false, 0
	if sk.IsFloat() {
		f := floatOf(sk, s)
		switch {
		case math.IsNaN(f):
			nan = true
		case math.IsInf(f, 0):
			inf = int(math.Copysign(1, f))
		default:
			x = new(big.Float).SetFloat64(f)
		}
	} else {
		x = new(big.Float).SetInt(intOf(sk, s))
	}
	if dk.IsInteger() {
		lo, hi := big.NewInt(dk.MinInt()), new(big.Int).SetUint64(dk.MaxUint())
		switch {
		case nan:
			st.NaNToZero++
		case inf > 0:
			st.ClampedHigh++
		case inf < 0:
			st.ClampedLow++
		case sk.IsFloat():
			r := roundBig(x, m)
			switch {
			case r.Cmp(hi) > 0:
				st.ClampedHigh++
			case r.Cmp(lo) < 0:
				st.ClampedLow++
			case new(big.Float).SetInt(r).Cmp(x) != 0:
				st.Inexact++
			}
		default:
			v := intOf(sk, s)
			out := v.Cmp(hi) > 0 || v.Cmp(lo) < 0
			switch {
			case out && !sat:
				st.Wrapped++
			case out && v.Sign() > 0:
				st.ClampedHigh++
			case out:
				st.ClampedLow++
			}
		}
		return
	}
	if nan {
		st.NaN++
		return
	}
	if inf != 0 {
		return
	}
	df := floatOf(dk, d)
	if math.IsInf(df, 0) {
		st.OverflowInf++
		return
	}
	f := dk.Format()
	absX := new(big.Float).Abs(x)
	if absX.Cmp(new(big.Float).SetMantExp(big.NewFloat(1), f.Emax+1)) >= 0 && math.Abs(df) == maxFinite(dk) {
		if x.Sign() < 0 {
			st.ClampedLow++
		} else {
			st.ClampedHigh++
		}
		return
	}
	dv := new(big.Float).SetFloat64(df)
	if dv.Cmp(x) != 0 {
		st.Inexact++
	}
	if df == 0 && x.Sign() != 0 {
		st.UnderflowZero++
	}
	if sk != dk && df != 0 && new(big.Float).Abs(dv).Cmp(new(big.Float).SetMantExp(big.NewFloat(1), f.Emin())) < 0 {
		st.Subnormal++
	}
}

// failWriter fails with err once more than n bytes have been written.
type failWriter struct {
	n   int
	err error
	buf bytes.Buffer
}

func (w *failWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.n {
		k := w.n - w.buf.Len()
		w.buf.Write(p[:k])
		return k, w.err
	}
	return w.buf.Write(p)
}

// writerAt is an in-memory io.WriterAt (and io.Writer).
type writerAt struct{ b []byte }

func (w *writerAt) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

func (w *writerAt) WriteAt(p []byte, off int64) (int, error) {
	if need := int(off) + len(p); need > len(w.b) {
		w.b = append(w.b, make([]byte, need-len(w.b))...)
	}
	copy(w.b[off:], p)
	return len(p), nil
}

// onlyReader hides everything but Read (a stream of unknown length).
type onlyReader struct {
	r interface{ Read([]byte) (int, error) }
}

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

func mustNoErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
