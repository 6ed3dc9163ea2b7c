// Command ptx checks clconv's bfloat16 and FP8 conversions against an
// NVIDIA GPU's cvt instructions (PTX ISA, "cvt"), run by the ptxgpu program
// built from gpu/ptxgpu.c (the first argument): for float32 sources every
// one of the 2^32 patterns, for half sources all 2^16, for FP8 sources all
// 2^8. PTX's FP8 conversions exist only with .rn and .satfinite, which are
// clconv's rte with _sat; bfloat16 is checked in each mode the GPU offers,
// with and without .satfinite. It prints the table of agreements and every
// group of disagreements; docs/FORMATS.md explains them.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"

	"github.com/clconv/clconv/_oracle/internal/tally"
	"github.com/clconv/clconv/bfloat16"
	"github.com/clconv/clconv/fp8"
	"github.com/clconv/clconv/internal/minifloat"
	"github.com/clconv/clconv/round"
)

type check struct {
	name  string
	dst   *minifloat.Format
	src   *minifloat.Format
	mode  round.Mode
	sat   bool
	n     uint64 // inputs 0 .. n-1
	bytes int
	want  func(b uint64) uint64
}

func f32(b uint64) float32 { return math.Float32frombits(uint32(b)) }

var checks = []check{
	{"e4m3.rn.satfinite.f32", minifloat.E4M3, minifloat.Binary32, round.RTE, true, 1 << 32, 1, func(b uint64) uint64 { return uint64(fp8.E4M3FromFloat32Sat(f32(b), round.RTE)) }},
	{"e5m2.rn.satfinite.f32", minifloat.E5M2, minifloat.Binary32, round.RTE, true, 1 << 32, 1, func(b uint64) uint64 { return uint64(fp8.E5M2FromFloat32Sat(f32(b), round.RTE)) }},
	{"bf16.rn.f32", minifloat.BFloat16, minifloat.Binary32, round.RTE, false, 1 << 32, 2, func(b uint64) uint64 { return uint64(bfloat16.FromFloat32(f32(b), round.RTE)) }},
	{"bf16.rz.f32", minifloat.BFloat16, minifloat.Binary32, round.RTZ, false, 1 << 32, 2, func(b uint64) uint64 { return uint64(bfloat16.FromFloat32(f32(b), round.RTZ)) }},
	{"bf16.rm.f32", minifloat.BFloat16, minifloat.Binary32, round.RTN, false, 1 << 32, 2, func(b uint64) uint64 { return uint64(bfloat16.FromFloat32(f32(b), round.RTN)) }},
	{"bf16.rp.f32", minifloat.BFloat16, minifloat.Binary32, round.RTP, false, 1 << 32, 2, func(b uint64) uint64 { return uint64(bfloat16.FromFloat32(f32(b), round.RTP)) }},
	{"bf16.rn.satfinite.f32", minifloat.BFloat16, minifloat.Binary32, round.RTE, true, 1 << 32, 2, func(b uint64) uint64 { return uint64(bfloat16.FromFloat32Sat(f32(b), round.RTE)) }},
	{"bf16.rz.satfinite.f32", minifloat.BFloat16, minifloat.Binary32, round.RTZ, true, 1 << 32, 2, func(b uint64) uint64 { return uint64(bfloat16.FromFloat32Sat(f32(b), round.RTZ)) }},
	{"e4m3.rn.satfinite.f16", minifloat.E4M3, minifloat.Binary16, round.RTE, true, 1 << 16, 1, func(b uint64) uint64 {
		return minifloat.Convert(minifloat.E4M3, minifloat.Binary16, b, round.RTE, true)
	}},
	{"e5m2.rn.satfinite.f16", minifloat.E5M2, minifloat.Binary16, round.RTE, true, 1 << 16, 1, func(b uint64) uint64 {
		return minifloat.Convert(minifloat.E5M2, minifloat.Binary16, b, round.RTE, true)
	}},
	{"f16.rn.e4m3", minifloat.Binary16, minifloat.E4M3, round.RTE, false, 1 << 8, 2, func(b uint64) uint64 {
		return minifloat.Convert(minifloat.Binary16, minifloat.E4M3, b, round.RTE, false)
	}},
	{"f16.rn.e5m2", minifloat.Binary16, minifloat.E5M2, round.RTE, false, 1 << 8, 2, func(b uint64) uint64 {
		return minifloat.Convert(minifloat.Binary16, minifloat.E5M2, b, round.RTE, false)
	}},
}

func main() {
	gpu := os.Args[1]
	t := tally.New()
	for _, c := range checks {
		if len(os.Args) > 2 && os.Args[2] != c.name {
			continue
		}
		if err := run(gpu, c, t); err != nil {
			fmt.Printf("%s: not run: %v\n", c.name, err)
		}
	}
	fmt.Println()
	t.Write(os.Stdout)
}

func run(gpu string, c check, t *tally.Tally) error {
	cmd := exec.Command(gpu, c.name, "0", strconv.FormatUint(c.n, 10))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	rd := bufio.NewReaderSize(out, 1<<22)
	const chunk = 1 << 24
	buf := make([]byte, chunk*c.bytes)
	mode := c.mode.String()
	if c.sat {
		mode += " _sat"
	}
	k := tally.Key{Dst: c.dst.Name, Src: c.src.Name, Mode: mode}
	for lo := uint64(0); lo < c.n; lo += chunk {
		n := min(chunk, c.n-lo)
		if _, err := io.ReadFull(rd, buf[:n*uint64(c.bytes)]); err != nil {
			cmd.Wait()
			return fmt.Errorf("after %d results: %v", lo, err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		workers := uint64(runtime.GOMAXPROCS(0))
		for w := range workers {
			wg.Go(func() {
				local := tally.New()
				agree := 0
				for i := w; i < n; i += workers {
					b := lo + i
					var got uint64
					if c.bytes == 1 {
						got = uint64(buf[i])
					} else {
						got = uint64(binary.LittleEndian.Uint16(buf[2*i:]))
					}
					want := c.want(b)
					if got == want {
						agree++
						continue
					}
					local.Disagree(k, classify(c, b, got, want), fmt.Sprintf("%#x: ptx %#x, clconv %#x", b, got, want))
				}
				local.AgreeN(k, agree)
				mu.Lock()
				t.Merge(local)
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	if err := cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			return errors.New("the driver does not compile this instruction")
		}
		return err
	}
	return nil
}

// classify groups a disagreement by the source's class and what each side
// gave.
func classify(c check, b, got, want uint64) string {
	v := c.src.Decode(b)
	cls := v.Class.String()
	if v.Class == minifloat.ClassNaN && v.Sig>>63 == 0 {
		cls = "signalling nan"
	}
	if v.Neg {
		cls = "negative " + cls
	}
	g, w := c.dst.Classify(got), c.dst.Classify(want)
	if g == minifloat.ClassNaN && w == minifloat.ClassNaN {
		return fmt.Sprintf("%s source: both nan, ptx gives %#x", cls, got)
	}
	return fmt.Sprintf("%s source: ptx gives %s, clconv %s", cls, g, w)
}
