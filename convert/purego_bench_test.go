package convert_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/convert"
	"github.com/clconv/clconv/internal/kernels"
	"github.com/clconv/clconv/round"
)

// pureGoInput returns n random elements of kind k as little-endian bytes,
// different for every element so that no branch predictor learns them:
// uniformly random bit patterns for the integers and half (every half value,
// NaNs and infinities included), and for float and double a random sign and
// significand with a binary exponent uniform in [-10, 70), which straddles
// the ranges of every integer type and of half, plus one value in 64 of
// random bits (NaNs, infinities, subnormals and huge values).
func pureGoInput(k cltype.Kind, n int) []byte {
	r := rand.New(rand.NewPCG(uint64(k), 12))
	b := make([]byte, n*k.Size())
	p := unsafe.Pointer(unsafe.SliceData(b))
	for i := range n {
		u := r.Uint64()
		switch k {
		case cltype.Float:
			if u&63 != 0 {
				e := uint64(127-10) + r.Uint64N(80)
				u = u&(1<<63) | e<<52 | u>>6&(1<<52-1) // a float64 ...
				u = uint64(math.Float32bits(float32(math.Float64frombits(u))))
			}
			*(*uint32)(unsafe.Add(p, 4*i)) = uint32(u)
		case cltype.Double:
			if u&63 != 0 {
				e := uint64(1023-10) + r.Uint64N(80)
				u = u&(1<<63) | e<<52 | u>>6&(1<<52-1)
			}
			*(*uint64)(unsafe.Add(p, 8*i)) = u
		default:
			switch k.Size() {
			case 1:
				*(*uint8)(unsafe.Add(p, i)) = uint8(u)
			case 2:
				*(*uint16)(unsafe.Add(p, 2*i)) = uint16(u)
			case 4:
				*(*uint32)(unsafe.Add(p, 4*i)) = uint32(u)
			default:
				*(*uint64)(unsafe.Add(p, 8*i)) = u
			}
		}
	}
	return b
}

// pureGoVariant is one of the 836 variants: every ordered pair of the eleven
// kinds in every rounding mode, and with _sat for integer destinations.
type pureGoVariant struct {
	src, dst cltype.Kind
	m        round.Mode
	sat      bool
}

func (v pureGoVariant) String() string {
	s := fmt.Sprintf("%s->%s %s", v.src, v.dst, v.m)
	if v.sat {
		s += " sat"
	}
	return s
}

func pureGoVariants() []pureGoVariant {
	var vs []pureGoVariant
	for _, s := range cltype.Scalars {
		for _, d := range cltype.Scalars {
			for _, sat := range []bool{false, true} {
				if sat && d.IsFloat() {
					continue
				}
				for _, m := range round.Modes {
					vs = append(vs, pureGoVariant{s, d, m, sat})
				}
			}
		}
	}
	return vs
}

// BenchmarkPureGoAll measures all 836 variants through convert.Bytes with the
// pure Go kernels on random inputs of 2 Mi elements (2 to 16 MiB per buffer),
// each timed after one untimed call, the median of several rounds over all variants (so that a noisy moment
// of the machine spreads over many variants instead of ruining one), and
// reports the median speed in G elem/s and the worst variant's factor below
// it. On Linux each call is timed by the thread's CPU time, which leaves out
// the time it waited for a CPU on a busy machine. Run it with -benchtime=1x; CLCONV_PUREGO_ROUNDS sets the number of
// rounds (5), CLCONV_PUREGO_STAT=min takes each variant's fastest round
// instead of its median, and CLCONV_PUREGO_TABLE names a file for the whole
// table, worst first.
//
//	go test ./convert -run '^$' -bench PureGoAll -benchtime=1x
func BenchmarkPureGoAll(b *testing.B) {
	prev, err := kernels.SetSIMD("go")
	if err != nil {
		b.Fatal(err)
	}
	defer kernels.SetSIMD(prev)
	const n = 2 << 20
	rounds := 5
	if s := os.Getenv("CLCONV_PUREGO_ROUNDS"); s != "" {
		if rounds, err = strconv.Atoi(s); err != nil || rounds < 1 {
			b.Fatalf("CLCONV_PUREGO_ROUNDS=%q", s)
		}
	}
	in := map[cltype.Kind][]byte{}
	out := map[cltype.Kind][]byte{}
	for _, k := range cltype.Scalars {
		in[k] = pureGoInput(k, n)
		out[k] = make([]byte, n*k.Size())
	}
	vs := pureGoVariants()
	if len(vs) != 836 {
		b.Fatalf("%d variants, want 836", len(vs))
	}
	times := make([][]time.Duration, len(vs))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for b.Loop() {
		for range rounds {
			for i, v := range vs {
				src, dst := in[v.src], out[v.dst]
				// One untimed call first, so that every variant starts
				// with its buffers equally warm.
				if err := convert.Bytes(v.dst, v.src, dst, src, v.m, v.sat); err != nil {
					b.Fatal(err)
				}
				t0, c0 := time.Now(), threadTime()
				if err := convert.Bytes(v.dst, v.src, dst, src, v.m, v.sat); err != nil {
					b.Fatal(err)
				}
				d := time.Since(t0)
				if c0 != 0 {
					d = threadTime() - c0
				}
				times[i] = append(times[i], d)
			}
		}
	}
	speed := make([]float64, len(vs)) // G elem/s
	for i, ts := range times {
		slices.Sort(ts)
		t := ts[len(ts)/2]
		if os.Getenv("CLCONV_PUREGO_STAT") == "min" {
			t = ts[0] // the least disturbed round, for a busy machine
		}
		speed[i] = n / float64(t.Nanoseconds())
	}
	sorted := slices.Clone(speed)
	slices.Sort(sorted)
	median := (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	order := make([]int, len(vs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, c int) int { return cmp.Compare(speed[a], speed[c]) })
	var table strings.Builder
	stat := "median"
	if os.Getenv("CLCONV_PUREGO_STAT") == "min" {
		stat = "fastest"
	}
	fmt.Fprintf(&table, "# pure Go, %d elements, %s of %d rounds; median variant %.3f G elem/s\n", n, stat, rounds, median)
	fmt.Fprintf(&table, "%-28s %10s %8s\n", "variant", "G elem/s", "median/x")
	for _, i := range order {
		fmt.Fprintf(&table, "%-28s %10.3f %8.2f\n", vs[i], speed[i], median/speed[i])
	}
	if path := os.Getenv("CLCONV_PUREGO_TABLE"); path != "" {
		if err := os.WriteFile(path, []byte(table.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var slow []string
	for _, i := range order {
		if median/speed[i] > 4 {
			slow = append(slow, fmt.Sprintf("%s (%.2fx)", vs[i], median/speed[i]))
		}
	}
	worst := order[0]
	b.Logf("median %.3f G elem/s; worst %s at %.3f G elem/s, %.2fx below the median; %d variants more than 4x below: %s",
		median, vs[worst], speed[worst], median/speed[worst], len(slow), strings.Join(slow, ", "))
	var lines []string
	for _, i := range order[:min(15, len(order))] {
		lines = append(lines, fmt.Sprintf("%s %.3f", vs[i], speed[i]))
	}
	b.Logf("15 slowest: %s", strings.Join(lines, "; "))
	b.ReportMetric(median, "median-Gelem/s")
	b.ReportMetric(median/speed[worst], "worst-factor")
	b.ReportMetric(float64(len(slow)), "over-4x")
}

// BenchmarkPureGo measures each variant of BenchmarkPureGoAll on its own, as a
// sub-benchmark named like "float-half-rte" or "char-uchar-sat-rtz", for
// looking at a few with -bench 'PureGo/float-half'.
func BenchmarkPureGo(b *testing.B) {
	prev, err := kernels.SetSIMD("go")
	if err != nil {
		b.Fatal(err)
	}
	defer kernels.SetSIMD(prev)
	const n = 2 << 20
	in := map[cltype.Kind][]byte{}
	for _, v := range pureGoVariants() {
		name := fmt.Sprintf("%s-%s-%s", v.src, v.dst, v.m)
		if v.sat {
			name = fmt.Sprintf("%s-%s-sat-%s", v.src, v.dst, v.m)
		}
		b.Run(name, func(b *testing.B) {
			if in[v.src] == nil {
				in[v.src] = pureGoInput(v.src, n)
			}
			src, dst := in[v.src], make([]byte, n*v.dst.Size())
			for b.Loop() {
				if err := convert.Bytes(v.dst, v.src, dst, src, v.m, v.sat); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gelem/s")
		})
	}
}
