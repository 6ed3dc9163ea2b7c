package fileconv

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/round"
)

// isNonFinite reports whether the bits v of kind k are NaN or an infinity
// (never, for an integer kind).
func isNonFinite(k cltype.Kind, v uint64) bool {
	if !k.IsFloating() {
		return false
	}
	f := Value{k, v}.Float64()
	return f != f || math.IsInf(f, 0)
}

// TestNonFiniteMask checks nonFiniteMask against decoding, on every code
// of the small kinds and half and on the edges of float and double.
func TestNonFiniteMask(t *testing.T) {
	for _, k := range cltype.AllScalars {
		m := nonFiniteMask(k)
		var codes []uint64
		if k.Size() <= 2 {
			for c := range uint64(1) << k.Bits() {
				codes = append(codes, c)
			}
		} else {
			codes = values(k, 1000, false, 3)
		}
		for _, c := range codes {
			if got, want := m != 0 && nonFinite(c, m), isNonFinite(k, c); got != want {
				t.Errorf("%s %#x: mask %#x says non-finite %v, its value %v", k, c, m, got, want)
			}
		}
	}
}

// TestAnyNonFinite checks the word-at-a-time scan against an element loop,
// one non-finite element at every position of buffers of every length.
func TestAnyNonFinite(t *testing.T) {
	for _, k := range []cltype.Kind{cltype.Half, cltype.Float, cltype.Double, cltype.BFloat16, cltype.E4M3, cltype.E5M2, cltype.E8M0, cltype.E4M3FNUZ} {
		m, size := nonFiniteMask(k), k.Size()
		for n := range 160 {
			b := alignedBytes(n * size)
			// Finite patterns that have all but one bit of m.
			for i := range n {
				v := m &^ (m & -m)
				if k == cltype.E8M0 {
					v = 0xfe
				}
				if k == cltype.E4M3FNUZ {
					v = 0x81 // all of the mask and more: -2^-10, finite
				}
				for j := range size {
					b[i*size+j] = byte(v >> (8 * j))
				}
			}
			if anyNonFinite(b, size, m) {
				t.Fatalf("%s n=%d: finite buffer reported non-finite", k, n)
			}
			for i := range n {
				save := append([]byte(nil), b[i*size:(i+1)*size]...)
				for j := range size {
					b[i*size+j] |= byte(m >> (8 * j))
				}
				if k == cltype.E4M3FNUZ {
					b[i] = fnuzNaN // the NaN is the byte itself, not its bits
				}
				if !anyNonFinite(b, size, m) {
					t.Fatalf("%s n=%d: non-finite element %d missed", k, n, i)
				}
				copy(b[i*size:], save)
			}
		}
	}
}

// TestNonFinite checks Result.NonFinite against a count element by element
// for every pair of kinds, mode and _sat, with and without statistics, in
// chunks small and large and from big-endian input, and that it is only
// non-zero where mayBecomeNonFinite allows.
func TestNonFinite(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	ctx := context.Background()
	for _, sk := range cltype.AllScalars {
		var vals []uint64
		switch {
		case sk.Bits() == 8:
			for c := range uint64(256) {
				vals = append(vals, c)
			}
		case sk.Bits() == 16 && sk.IsFloating():
			// Every 8th pattern (every one without -short) and every
			// pattern of the top binades.
			step := uint64(8)
			if !testing.Short() {
				step = 1
			}
			for c := uint64(0); c < 1<<16; c++ {
				if c%step == 0 || c&0x7fff >= 0x7b00 {
					vals = append(vals, c)
				}
			}
		default:
			vals = values(sk, n, false, 5)
		}
		for _, dk := range cltype.AllScalars {
			for _, m := range round.Modes {
				for _, sat := range []bool{false, true} {
					if sat && dk.IsFloat() {
						continue
					}
					name := fmt.Sprintf("%s->%s/%s/sat=%v", sk, dk, m, sat)
					var out bytes.Buffer
					// Big-endian input where the .npy descr can say so.
					in := npyFile(sk, vals, []int64{int64(len(vals))}, false, int(m)%2 == 1 && !sk.IsSmallFloat())
					res, err := Convert(ctx, &out, bytes.NewReader(in), Options{Dst: dk, Sat: sat, Mode: m, Out: FormatRaw, ChunkBytes: 64 + 8*int(m)})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got := decodeBits(dk, out.Bytes())
					var want int64
					for i, v := range vals {
						if !isNonFinite(sk, v) && isNonFinite(dk, got[i]) {
							want++
						}
					}
					if res.NonFinite != want {
						t.Errorf("%s: NonFinite %d, want %d", name, res.NonFinite, want)
					}
					if want > 0 && !mayBecomeNonFinite(dk, sk, sat) {
						t.Errorf("%s: %d finite values became non-finite, which mayBecomeNonFinite rules out", name, want)
					}
					if m != round.RTP {
						continue
					}
					res2, err := Convert(ctx, io.Discard, bytes.NewReader(in), Options{Dst: dk, Sat: sat, Mode: m, Stats: true})
					if err != nil || res2.NonFinite != want {
						t.Errorf("%s with stats, one chunk: NonFinite %d (%v), want %d", name, res2.NonFinite, err, want)
					}
				}
			}
		}
	}
}

// TestRowsFor checks the name of the overflow counter per destination.
func TestRowsFor(t *testing.T) {
	s := &Stats{OverflowInf: 3}
	want := map[cltype.Kind]string{
		cltype.Invalid: "overflow to inf", cltype.Half: "overflow to inf", cltype.Float: "overflow to inf",
		cltype.BFloat16: "overflow to inf", cltype.E5M2: "overflow to inf", cltype.Uchar: "overflow to inf",
		cltype.E4M3: "overflow to NaN", cltype.E8M0: "overflow to NaN",
		cltype.E2M1: "overflow", cltype.E2M3: "overflow", cltype.E3M2: "overflow",
	}
	for k, name := range want {
		rows := s.RowsFor(k)
		if len(rows) != len(s.Rows()) || rows[5].Name != name || rows[5].Value != 3 {
			t.Errorf("RowsFor(%s)[5] = %+v, want %q", k, rows[5], name)
		}
	}
	if s.Rows()[5].Name != "overflow to inf" {
		t.Errorf("Rows()[5] = %+v", s.Rows()[5])
	}
}

// BenchmarkConvertBF16 measures Convert of 16 Mi float32 values (64 MiB)
// to bfloat16 (RTE) from memory to io.Discard: a pair where a finite value
// can overflow, so that Result.NonFinite scans every output chunk.
func BenchmarkConvertBF16(b *testing.B) {
	in := benchInput(1 << 24)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		if _, err := Convert(context.Background(), io.Discard, bytes.NewReader(in), Options{Dst: cltype.BFloat16, Mode: round.RTE}); err != nil {
			b.Fatal(err)
		}
	}
}
