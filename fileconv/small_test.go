package fileconv

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/internal/testvals"
	"github.com/clconv/clconv/round"
)

// refClassifySmall is refClassify for pairs with a small format, from the
// definitions of Stats and internal/minifloat's reference: a small source
// is classified as the double of its exact value; to a small destination,
// overflow is decided by rounding to a format with one more exponent bit.
func refClassifySmall(st *Stats, dk, sk cltype.Kind, s, d uint64, m round.Mode, sat bool) {
	same := sk == dk // identity: no result counts as subnormal
	if sk.IsSmallFloat() {
		s, sk = minifloat.ToFloat64Bits(minifloat.OfKind(sk), s), cltype.Double
		if !dk.IsSmallFloat() {
			refClassify(st, dk, sk, s, d, m, sat)
			return
		}
	}
	st.Count++
	row := *minifloat.OfKind(dk)
	wide := row
	wide.ExpBits++
	wide.Inf, wide.NaN = true, minifloat.NaNIEEE
	var x *big.Float
	var w uint64
	inf := 0
	if sk.IsInteger() {
		v := intOf(sk, s)
		if dk == cltype.E8M0 && v.Sign() <= 0 {
			st.ClampedLow++
			return
		}
		x = new(big.Float).SetInt(v)
		if v.Sign() < 0 {
			w = minifloat.FromInt64(&wide, v.Int64(), m, false)
		} else {
			w = minifloat.FromUint64(&wide, v.Uint64(), m, false)
		}
	} else {
		f := math.Float64frombits(minifloat.ToFloat64Bits(minifloat.Binary64, minifloat.Convert(minifloat.Binary64, minifloat.OfKind(sk), s, round.RTE, false)))
		switch {
		case math.IsNaN(f) && !row.HasNaN():
			st.NaNToZero++ // e2m1, e2m3, e3m2: +0
			return
		case math.IsNaN(f):
			st.NaN++
			return
		case dk == cltype.E8M0 && (f == 0 || f < 0):
			st.ClampedLow++ // below e8m0's range, -inf included
			return
		case math.IsInf(f, 0):
			inf = int(math.Copysign(1, f))
		default:
			x = new(big.Float).SetFloat64(f)
			w = minifloat.Convert(&wide, minifloat.OfKind(sk), s, m, false)
		}
	}
	mx := math.Float64frombits(minifloat.ToFloat64Bits(&row, row.MaxBits()))
	df := math.Float64frombits(minifloat.ToFloat64Bits(&row, d))
	clamp := func(neg bool) {
		if neg {
			st.ClampedLow++
		} else {
			st.ClampedHigh++
		}
	}
	if inf != 0 {
		switch {
		case math.IsNaN(df):
			st.OverflowInf++
		case math.Abs(df) == mx:
			clamp(inf < 0)
		}
		return
	}
	overflow := math.Abs(math.Float64frombits(minifloat.ToFloat64Bits(&wide, w))) > mx
	minNormal := math.Ldexp(1, row.Emin())
	switch {
	case !math.IsNaN(df) && !math.IsInf(df, 0) && new(big.Float).SetFloat64(df).Cmp(x) == 0:
		if !same && df != 0 && math.Abs(df) < minNormal {
			st.Subnormal++
		}
	case math.IsNaN(df) || math.IsInf(df, 0):
		st.OverflowInf++
	case overflow && math.Abs(df) == mx:
		clamp(x.Sign() < 0)
	default:
		st.Inexact++
		if df == 0 {
			st.UnderflowZero++
		} else if !same && math.Abs(df) < minNormal {
			st.Subnormal++
		}
	}
}

// TestSmallFormatFiles converts .npy files to and from the small formats in
// every mode, with and without _sat: every element against
// convert.Bits, the statistics against refClassifySmall, and the header's
// dtype names (ml_dtypes' names).
func TestSmallFormatFiles(t *testing.T) {
	ctx := context.Background()
	for _, sk := range cltype.AllScalars {
		var vals []uint64
		if sk.IsSmallFloat() || sk == cltype.Half {
			// Every pattern (convert's tests check each conversion on
			// every pattern too; -short, under qemu as well, every 8th).
			step := uint64(1)
			if testing.Short() && sk.Bits() == 16 {
				step = uint64(8 * testvals.Stride(4))
			}
			for b := uint64(0); b < 1<<sk.Bits(); b += step {
				vals = append(vals, b)
			}
		} else {
			vals = values(sk, 300, false, 14)
		}
		for _, dk := range cltype.AllScalars {
			if !sk.IsSmallFloat() && !dk.IsSmallFloat() {
				continue
			}
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					if sat && dk.IsFloat() {
						continue
					}
					name := fmt.Sprintf("%s->%s/%s/sat=%v", sk, dk, m, sat)
					in := npyFile(sk, vals, []int64{int64(len(vals))}, false, false)
					var out bytes.Buffer
					res, err := Convert(ctx, &out, bytes.NewReader(in), Options{Dst: dk, Sat: sat, Mode: m, Stats: true, Workers: 2, ChunkBytes: 512})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					h, got := checkNPY(t, out.Bytes())
					if h.Kind != dk {
						t.Fatalf("%s: output kind %s", name, h.Kind)
					}
					want := expected(dk, sk, vals, m, sat)
					var ref Stats
					for i := range vals {
						if got[i] != want[i] {
							t.Fatalf("%s: element %d (%#x): got %#x, want %#x", name, i, vals[i], got[i], want[i])
						}
						refClassifySmall(&ref, dk, sk, vals[i], want[i], m, sat)
					}
					if res.Stats != ref {
						t.Errorf("%s: stats\n got %+v\nwant %+v", name, res.Stats, ref)
					}
				}
			}
		}
	}
	for k, want := range map[cltype.Kind]string{cltype.BFloat16: "bfloat16", cltype.E4M3: "float8_e4m3fn", cltype.E5M2: "float8_e5m2",
		cltype.E2M1: "float4_e2m1fn", cltype.E2M3: "float6_e2m3fn", cltype.E3M2: "float6_e3m2fn", cltype.E8M0: "float8_e8m0fnu"} {
		var out bytes.Buffer
		in := npyFile(cltype.Float, []uint64{0x3f800000}, []int64{1}, false, false)
		if _, err := Convert(ctx, &out, bytes.NewReader(in), Options{Dst: k}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "'descr': '"+want+"'") {
			t.Errorf("%s: header %q", k, out.String()[:60])
		}
	}
}

// np.save writes ml_dtypes' bfloat16 and float8_e4m3fn as raw records
// ('<V2', '|V1') and float8_e5m2 as '<f1': the first need --from.
func TestSmallFormatDescr(t *testing.T) {
	for _, tc := range []struct {
		descr string
		kind  cltype.Kind
	}{{"bfloat16", cltype.BFloat16}, {"float8_e4m3fn", cltype.E4M3}, {"float8_e5m2", cltype.E5M2}, {"<f1", cltype.E5M2}, {"|f1", cltype.E5M2},
		{"float4_e2m1fn", cltype.E2M1}, {"float6_e2m3fn", cltype.E2M3}, {"float6_e3m2fn", cltype.E3M2}, {"float8_e8m0fnu", cltype.E8M0}} {
		k, be, err := ParseDescr(tc.descr)
		if err != nil || k != tc.kind || be {
			t.Errorf("ParseDescr(%q) = %s %v %v", tc.descr, k, be, err)
		}
	}
	file := func(descr string, data []byte) []byte {
		return append(rawHeader(1, fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (2,), }", descr), true), data...)
	}
	ctx := context.Background()
	_, err := Convert(ctx, &bytes.Buffer{}, bytes.NewReader(file("<V2", []byte{0x80, 0x3f, 0xc0, 0x3f})), Options{Dst: cltype.Float})
	if err == nil || !strings.Contains(err.Error(), "--from") {
		t.Errorf("<V2 without --from: %v", err)
	}
	_, err = Convert(ctx, &bytes.Buffer{}, bytes.NewReader(file("|V1", []byte{1, 2})), Options{Dst: cltype.Float, From: cltype.BFloat16})
	if err == nil || !strings.Contains(err.Error(), "1-byte") {
		t.Errorf("|V1 with --from bfloat16: %v", err)
	}
	var out bytes.Buffer
	res, err := Convert(ctx, &out, bytes.NewReader(file("<V2", []byte{0x80, 0x3f, 0xc0, 0x3f})), Options{Dst: cltype.Float, From: cltype.BFloat16})
	if err != nil || res.In.Kind != cltype.BFloat16 {
		t.Fatalf("<V2 with --from bfloat16: %v %+v", err, res)
	}
	if _, got := checkNPY(t, out.Bytes()); got[0] != 0x3f800000 || got[1] != 0x3fc00000 {
		t.Errorf("<V2 as bfloat16: %#x", got)
	}
	s, err := Inspect(ctx, bytes.NewReader(file("float8_e4m3fn", []byte{0x7e, 0xff})), InspectOptions{})
	if err != nil || s.NaN != 1 || s.Max.String() != "448" || s.Kind != cltype.E4M3 {
		t.Errorf("Inspect e4m3: %+v %v", s, err)
	}
	// The MX formats: one element per byte, the exact values.
	s, err = Inspect(ctx, bytes.NewReader(file("float4_e2m1fn", []byte{0x0f, 0x01})), InspectOptions{})
	if err != nil || s.NaN != 0 || s.Min.String() != "-6" || s.Max.String() != "0.5" || s.Kind != cltype.E2M1 {
		t.Errorf("Inspect e2m1: %+v %v", s, err)
	}
	s, err = Inspect(ctx, bytes.NewReader(file("float8_e8m0fnu", []byte{0x00, 0xff})), InspectOptions{})
	if err != nil || s.NaN != 1 || s.Min.String() != "0x1p-127" || s.Max.String() != "0x1p-127" {
		t.Errorf("Inspect e8m0: %+v %v", s, err)
	}
}
