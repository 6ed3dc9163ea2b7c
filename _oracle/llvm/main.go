// Command llvm checks clconv's conversions to and from bfloat16, the OCP
// FP8 and MX formats and the IEEE formats against LLVM's APFloat (the
// apfloat server built from server/apfloat.cpp, given as the first argument), and
// prints how many results agree and every group of disagreements.
//
// APFloat has no saturating conversions, so it is compared with clconv's
// conversions without _sat. Inputs: every float32 high half with the low
// halves that decide rounding (a float32's bfloat16, FP8 or MX result
// depends only on its top 16 bits, the next bit and whether any lower bit is
// set), random doubles, every pattern of every format of at most 16 bits
// (to every other format), and random integers.
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"

	"github.com/clconv/clconv/_oracle/internal/tally"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

const (
	kindPattern = 0
	kindInt64   = 1
	kindUint64  = 2
)

type req struct {
	dst, src, mode, kind uint8
	bits                 uint64
}

func index(f *minifloat.Format) uint8 {
	for i := range minifloat.Formats {
		if &minifloat.Formats[i] == f {
			return uint8(i)
		}
	}
	panic(f.Name)
}

var small = []*minifloat.Format{minifloat.BFloat16, minifloat.E4M3, minifloat.E5M2, minifloat.E2M3, minifloat.E3M2, minifloat.E2M1, minifloat.E8M0, minifloat.Binary16}

// apfloat runs the server over reqs.
func apfloat(server string, reqs []req) ([][2]uint64, error) {
	cmd := exec.Command(server)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		w := bufio.NewWriterSize(stdin, 1<<20)
		var rec [16]byte
		for _, r := range reqs {
			rec[0], rec[1], rec[2], rec[3] = r.dst, r.src, r.mode, r.kind
			binary.LittleEndian.PutUint64(rec[8:], r.bits)
			w.Write(rec[:])
		}
		w.Flush()
		stdin.Close()
	}()
	out := make([][2]uint64, len(reqs))
	rd := bufio.NewReaderSize(stdout, 1<<20)
	var rec [16]byte
	for i := range out {
		if _, err := io.ReadFull(rd, rec[:]); err != nil {
			return nil, fmt.Errorf("reply %d of %d: %v", i, len(reqs), err)
		}
		out[i] = [2]uint64{binary.LittleEndian.Uint64(rec[:]), binary.LittleEndian.Uint64(rec[8:])}
	}
	return out, cmd.Wait()
}

// undefined reports the inputs whose conversion APFloat does not define,
// which are counted apart, not sent: a NaN or an infinity into a format that
// has neither (its "FiniteOnly" formats have no encoding for them; a release
// build returns +-0 for an infinity, with no status flag), and a negative
// value into E8M0, which has no sign (a release build returns patterns such
// as 0xe7 for -2^-24).
func undefined(dst *minifloat.Format, v minifloat.Value) string {
	switch {
	case !dst.HasNaN() && (v.Class == minifloat.ClassNaN || v.Class == minifloat.ClassInf):
		return "nan-or-inf-to-finite-only"
	case dst == minifloat.E8M0 && v.Neg && (v.Class == minifloat.ClassFinite || v.Class == minifloat.ClassInf):
		return "negative-to-e8m0"
	}
	return ""
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: llvm APFLOAT_SERVER")
		os.Exit(2)
	}
	var reqs []req
	skipped := map[string]int{}
	add := func(dst, src *minifloat.Format, b uint64) {
		if why := undefined(dst, src.Decode(b)); why != "" {
			skipped[why] += 4
			return
		}
		for _, m := range round.Modes {
			reqs = append(reqs, req{index(dst), index(src), uint8(m), kindPattern, b})
		}
	}
	lows := []uint32{0, 1, 0x7fff, 0x8000, 0x8001, 0xffff}
	for _, dst := range small {
		for hi := uint32(0); hi < 1<<16; hi++ {
			for _, lo := range lows {
				add(dst, minifloat.Binary32, uint64(hi<<16|lo))
			}
		}
	}
	r := rand.New(rand.NewPCG(2026, 14))
	for range 200000 {
		b := r.Uint64()
		if r.IntN(2) == 0 {
			// Within the small formats' reach.
			b = b&(1<<63|1<<52-1) | uint64(1023-140+r.IntN(280))<<52
		}
		for _, dst := range small {
			add(dst, minifloat.Binary64, b)
		}
	}
	for _, src := range small {
		for b := uint64(0); b < 1<<src.Width(); b++ {
			for _, dst := range append(small, minifloat.Binary32, minifloat.Binary64) {
				if dst != src {
					add(dst, src, b)
				}
			}
		}
	}
	for range 50000 {
		v := r.Uint64() >> r.IntN(64)
		for _, dst := range small {
			for _, m := range round.Modes {
				reqs = append(reqs, req{index(dst), 0, uint8(m), kindUint64, v})
				if dst == minifloat.E8M0 && int64(v) < 0 {
					skipped["negative-to-e8m0"]++
				} else {
					reqs = append(reqs, req{index(dst), 0, uint8(m), kindInt64, v})
				}
			}
		}
	}
	res, err := apfloat(os.Args[1], reqs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t := tally.New()
	for i, q := range reqs {
		dst := &minifloat.Formats[q.dst]
		src := &minifloat.Formats[q.src]
		m := round.Mode(q.mode)
		var want uint64
		var srcName string
		switch q.kind {
		case kindPattern:
			want = minifloat.Convert(dst, src, q.bits, m, false)
			srcName = src.Name
		case kindInt64:
			want = minifloat.FromInt64(dst, int64(q.bits), m, false)
			srcName = "int64"
		default:
			want = minifloat.FromUint64(dst, q.bits, m, false)
			srcName = "uint64"
		}
		got := res[i][0]
		k := tally.Key{Dst: dst.Name, Src: srcName, Mode: m.String()}
		if got == want {
			t.Agree(k)
			continue
		}
		t.Disagree(k, classify(dst, src, q.kind, q.bits, got), fmt.Sprintf("%#x: llvm %#x, clconv %#x", q.bits, got, want))
	}
	t.Write(os.Stdout)
	fmt.Println()
	for why, n := range skipped {
		fmt.Printf("not sent (undefined in APFloat): %d x %s\n", n, why)
	}
	if t.Count("unexplained") > 0 {
		os.Exit(1)
	}
}

// classify names a disagreement by its explanation, or "unexplained".
func classify(dst, src *minifloat.Format, kind uint8, bits uint64, got uint64) string {
	inf, hasInf := dst.InfBits()
	switch {
	case kind == kindPattern && src == minifloat.E8M0 && bits == 0xff && hasInf && got&^dst.SignBit() == inf:
		return "E8M0's NaN 0xFF: APFloat gives infinity (its NaN has no significand bits to keep, and an IEEE NaN with none is infinity); NaN must stay NaN (IEEE 754 6.2; OCP MX 5.4.1: 0xFF is NaN)"
	case dst == minifloat.E8M0 && got == 0 && (kind != kindPattern && bits == 0 || kind == kindPattern && src.Classify(bits) == minifloat.ClassZero):
		return "zero to E8M0, which has no zero: APFloat gives its smallest value 2^-127; clconv gives NaN (2^-127 under _sat), as ml_dtypes does"
	}
	return "unexplained"
}
