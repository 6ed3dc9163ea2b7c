// Command gen writes convert/zconv.go, the per-type-pair conversion code, from
// one table of the eleven OpenCL C scalar types, and with -small fp8, fp6 or
// fp4 that package's zfp*.go, the small formats' method sets, from the
// table of small types in small.go. Run it with go generate.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

type kind struct {
	cl     string // OpenCL name
	fn     string // name fragment in generated identifiers
	goT    string // Go type
	bits   int
	signed bool
	float  bool
	min    string // integer MIN as a Go constant expression
	max    string // integer MAX
	hiExcl string // MAX+1 as an exact float64 constant
	lo     string // MIN as a float64 constant
}

var kinds = []kind{
	{"char", "Char", "int8", 8, true, false, "math.MinInt8", "math.MaxInt8", "0x1p7", "-0x1p7"},
	{"uchar", "Uchar", "uint8", 8, false, false, "0", "math.MaxUint8", "0x1p8", "0"},
	{"short", "Short", "int16", 16, true, false, "math.MinInt16", "math.MaxInt16", "0x1p15", "-0x1p15"},
	{"ushort", "Ushort", "uint16", 16, false, false, "0", "math.MaxUint16", "0x1p16", "0"},
	{"int", "Int", "int32", 32, true, false, "math.MinInt32", "math.MaxInt32", "0x1p31", "-0x1p31"},
	{"uint", "Uint", "uint32", 32, false, false, "0", "math.MaxUint32", "0x1p32", "0"},
	{"long", "Long", "int64", 64, true, false, "math.MinInt64", "math.MaxInt64", "0x1p63", "-0x1p63"},
	{"ulong", "Ulong", "uint64", 64, false, false, "0", "math.MaxUint64", "0x1p64", "0"},
	{"half", "Half", "half.Half", 16, true, true, "", "", "", ""},
	{"float", "Float", "float32", 32, true, true, "", "", "", ""},
	{"double", "Double", "float64", 64, true, true, "", "", "", ""},
}

func (k kind) minI() int64 {
	if !k.signed {
		return 0
	}
	return -1 << (k.bits - 1)
}

func (k kind) maxU() uint64 {
	if k.signed {
		return 1<<(k.bits-1) - 1
	}
	return 1<<(k.bits-1) - 1 + 1<<(k.bits-1)
}

// Every conversion between two different types has SIMD kernels (see _asm):
// its slice kernel first calls the hook simd<S>To<D>, which converts a
// leading part of the slice with the best available tier and returns its
// length (0 in purego builds and on other architectures). Identities copy.
func hasSIMD(s, d kind) bool { return s.cl != d.cl }

// scanPairs are the conversions whose checked form has a SIMD range scan.
var scanPairs = map[string]bool{
	"FloatToChar": true, "FloatToUchar": true, "FloatToShort": true,
	"FloatToUshort": true, "FloatToInt": true, "FloatToUint": true,
	"IntToFloat": true, "UintToFloat": true, "DoubleToFloat": true,
	"FloatToHalf": true, "HalfToFloat": true,
	"CharToInt": true, "UcharToInt": true, "ShortToInt": true, "UshortToInt": true,
	"CharToFloat": true, "UcharToFloat": true, "ShortToFloat": true, "UshortToFloat": true,
	"IntToChar": true, "IntToUchar": true, "IntToShort": true, "IntToUshort": true,
	"DoubleToInt": true, "DoubleToUint": true,
	"LongToFloat": true, "LongToDouble": true, "UlongToFloat": true, "UlongToDouble": true,
}

var buf bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&buf, format+"\n", args...) }

// f64 returns the Go expression for float source x widened exactly to float64.
func f64(s kind, x string) string {
	switch s.cl {
	case "half":
		return x + ".Float64()"
	case "float":
		return "float64(" + x + ")"
	}
	return x
}

// toFloat returns the Go expression converting x of kind s to floating kind d in mode m.
func toFloat(s, d kind, x, m string) string {
	if s.cl == d.cl {
		return x
	}
	if s.float {
		switch {
		case s.cl == "half" && d.cl == "float":
			return x + ".Float32()"
		case s.cl == "half" && d.cl == "double":
			return x + ".Float64()"
		case s.cl == "float" && d.cl == "double":
			return "round.Float32ToFloat64(" + x + ")"
		case d.cl == "float":
			return "round.Float64ToFloat32(" + x + ", " + m + ")"
		case s.cl == "float" && d.cl == "half":
			return "half.FromFloat32(" + x + ", " + m + ")"
		default:
			return "half.FromFloat64(" + x + ", " + m + ")"
		}
	}
	switch d.cl {
	case "double":
		switch {
		case s.bits <= 32:
			return "float64(" + x + ")" // exact
		case s.signed:
			return "round.Int64ToFloat64(" + x + ", " + m + ")"
		default:
			return "round.Uint64ToFloat64(" + x + ", " + m + ")"
		}
	case "float":
		switch {
		case s.bits <= 16:
			return "float32(" + x + ")" // exact
		case s.bits == 32:
			return "round.Float64ToFloat32(float64(" + x + "), " + m + ")"
		case s.signed:
			return "round.Int64ToFloat32(" + x + ", " + m + ")"
		default:
			return "round.Uint64ToFloat32(" + x + ", " + m + ")"
		}
	}
	// half: an integer of at most 32 bits is exact in float64; a wider one is
	// either exact too or so large that every mode gives the overflow result,
	// which depends only on the sign, so float64's own rounding cannot change it.
	if s.bits == 64 && !s.signed {
		// Go's uint64 -> float64 branches on the top bit.
		return "half.FromFloat64(permode.U64ToF64RTE(" + x + "), " + m + ")"
	}
	return "half.FromFloat64(float64(" + x + "), " + m + ")"
}

// satInt returns statements that set v to the saturated conversion of integer x.
func satInt(s, d kind) string {
	// min and max of integers compile to conditional moves: the clamp has
	// no branch to mispredict on data that straddles the range. Go compiles
	// those of 8- and 16-bit integers to branches, so a narrower source is
	// widened to 32 bits first.
	v := "x"
	if s.bits < 32 {
		v = "int32(x)"
		if !s.signed {
			v = "uint32(x)"
		}
	}
	if s.signed && s.minI() < d.minI() {
		if d.signed {
			v = fmt.Sprintf("max(%s, %s)", v, d.min)
		} else {
			v = fmt.Sprintf("max(%s, 0)", v)
		}
	}
	if s.maxU() > d.maxU() {
		v = fmt.Sprintf("min(%s, %s)", v, d.max)
	}
	return fmt.Sprintf("return %s(%s)", d.goT, v)
}

// inRangeInt returns a boolean expression: integer x fits in d.
func inRangeInt(s, d kind) string {
	var conds []string
	if s.signed && s.minI() < d.minI() {
		if d.signed {
			conds = append(conds, "x >= "+d.min)
		} else {
			conds = append(conds, "x >= 0")
		}
	}
	if s.maxU() > d.maxU() {
		conds = append(conds, "x <= "+d.max)
	}
	if len(conds) == 0 {
		return "true"
	}
	r := conds[0]
	for _, c := range conds[1:] {
		r += " && " + c
	}
	return r
}

func main() {
	out := flag.String("o", "zconv.go", "output file")
	small := flag.String("small", "", "write the small formats' method sets of package `pkg` (fp8, fp6, fp4) instead")
	flag.Parse()
	if *small != "" {
		writeSmall(*small, *out)
		return
	}
	p("// Code generated by go run ../internal/gen; DO NOT EDIT.")
	p("")
	p("package convert")
	p("")
	p("import (")
	p(`"math"`)
	p(`"math/bits"`)
	p(`"sync"`)
	p(`"sync/atomic"`)
	p(`"unsafe"`)
	p("")
	p(`"github.com/clconv/clconv/cltype"`)
	p(`"github.com/clconv/clconv/half"`)
	p(`"github.com/clconv/clconv/internal/permode"`)
	p(`"github.com/clconv/clconv/round"`)
	p(")")
	p("")
	p("var _ = math.MaxInt8")
	p("")
	helpers()

	// Clamp helpers for float -> integer: r is integral, +-inf or NaN.
	for _, d := range kinds {
		if d.float {
			continue
		}
		p("// clamp%s saturates an integral float64 to %s; NaN gives 0.", d.fn, d.cl)
		p("func clamp%s(r float64) %s {", d.fn, d.goT)
		if d.bits < 64 {
			// Both limits are doubles: clamp with MINSD/MAXSD instead of
			// branches that random inputs mispredict (BenchmarkBranchFree,
			// docs/PERFORMANCE.md).
			p("if r != r { // NaN: rare, so a predictable branch")
			p("return 0")
			p("}")
			p("return %s(min(max(r, %s), %s-1))", d.goT, d.lo, d.hiExcl)
		} else {
			// 2^63-1 and 2^64-1 are not doubles.
			p("if r >= %s { return %s }", d.hiExcl, d.max)
			p("if r >= %s { return %s(r) }", d.lo, d.goT)
			p("if r < %s { return %s }", d.lo, d.min)
			p("return 0 // NaN")
		}
		p("}")
		p("")
		p("// fits%s reports whether integral r is in the range of %s (false for NaN).", d.fn, d.cl)
		p("func fits%s(r float64) bool { return r >= %s && r < %s }", d.fn, d.lo, d.hiExcl)
		p("")
		if d.bits < 64 {
			// The slice loops clamp before they round: MIN and MAX are
			// integers and rounding is monotonic, so this equals rounding
			// then clamping, and the rounding's result (ROUNDSD writes only
			// the low half of its register) no longer waits on the
			// previous element's clamp. rtz needs no rounding at all: the
			// conversion truncates (BenchmarkBranchFree).
			for _, mm := range []struct{ m, fn string }{{"RTZ", ""}, {"RTN", "math.Floor"}, {"RTP", "math.Ceil"}, {"RTE", "math.RoundToEven"}} {
				p("// to%s%s converts float64 x to %s in mode %s, saturating; NaN gives 0.", d.fn, mm.m, d.cl, strings.ToLower(mm.m))
				p("func to%s%s(x float64) %s {", d.fn, mm.m, d.goT)
				p("if x != x { // NaN: rare, so a predictable branch")
				p("return 0")
				p("}")
				clamped := fmt.Sprintf("min(max(x, %s), %s-1)", d.lo, d.hiExcl)
				if mm.fn != "" {
					clamped = mm.fn + "(" + clamped + ")"
				}
				p("return %s(%s)", d.goT, clamped)
				p("}")
				p("")
			}
			// The flagging kernels test the source against the open
			// interval of the values whose rounded value fits: exact
			// comparisons in binary64, and NaN fails both.
			lo, hi := float64(d.minI()), float64(d.maxU())
			hex := func(v float64) string { return strconv.FormatFloat(v, 'x', -1, 64) }
			p("// fitBounds%s returns the open interval (lo, hi) of the float64 values that", d.fn)
			p("// round to a value in the range of %s in mode m.", d.cl)
			p("func fitBounds%s(m round.Mode) (lo, hi float64) {", d.fn)
			p("switch m {")
			p("case round.RTZ:")
			p("return %s, %s // MIN-1, MAX+1", hex(lo-1), hex(hi+1))
			p("case round.RTN:")
			p("return %s, %s // below MIN, MAX+1", hex(math.Nextafter(lo, math.Inf(-1))), hex(hi+1))
			p("case round.RTP:")
			p("return %s, %s // MIN-1, above MAX", hex(lo-1), hex(math.Nextafter(hi, math.Inf(1))))
			p("}")
			p("return %s, %s // below MIN-0.5 (a tie to even MIN), MAX+0.5 (a tie to even MAX+1)", hex(math.Nextafter(lo-0.5, math.Inf(-1))), hex(hi+0.5))
			p("}")
			p("")
			// The same intervals for float sources, whose SIMD range scans
			// compare in binary32: x > lo64 is x > lo32 for the largest
			// float32 lo32 <= lo64, and x < hi64 is x < hi32 for the
			// smallest float32 hi32 >= hi64.
			p("// fitBounds%sF32 is fitBounds%s for float32 sources: x > lo && x < hi", d.fn, d.fn)
			p("// in binary32 exactly when float64(x) lies in fitBounds%s's interval.", d.fn)
			p("func fitBounds%sF32(m round.Mode) (lo, hi float32) {", d.fn)
			hex32 := func(v float32) string { return strconv.FormatFloat(float64(v), 'x', -1, 32) }
			p("switch m {")
			for _, mm := range []string{"RTZ", "RTN", "RTP", "RTE"} {
				l, h := fitBoundsOf(d, mm)
				if mm == "RTE" {
					p("}")
				} else {
					p("case round.%s:", mm)
				}
				p("return %s, %s", hex32(down32(l)), hex32(up32(h)))
			}
			p("}")
			p("")
		}
	}

	// Overflow bounds of the floating destinations: the source values that
	// convert without IEEE 754 overflow (the value rounded in the mode with an
	// unbounded exponent is at most MAX in magnitude). Only pairs whose source
	// reaches that far have them.
	for _, s := range kinds {
		for _, d := range kinds {
			if !d.float || !overflows(s, d) {
				continue
			}
			lo, hi := finiteBoundsOf(d)
			if s.float {
				conv := func(v float64) string { return strconv.FormatFloat(v, 'x', -1, 64) }
				next := func(v float64) float64 { return math.Nextafter(v, math.Inf(1)) }
				if s.cl == "float" {
					conv = func(v float64) string { return strconv.FormatFloat(v, 'x', -1, 32) }
					next = func(v float64) float64 { return float64(math.Nextafter32(float32(v), float32(math.Inf(1)))) }
				}
				p("// finiteBounds%sTo%s returns the open interval (lo, hi) of the finite %s values", s.fn, d.fn, s.cl)
				p("// that convert to %s in mode m without overflow.", d.cl)
				p("func finiteBounds%sTo%s(m round.Mode) (lo, hi %s) {", s.fn, d.fn, s.goT)
				p("switch m {")
				p("case round.RTZ:")
				p("return -%s, %s // -(MAX+ulp), MAX+ulp", conv(hi["RTZ"]), conv(hi["RTZ"]))
				p("case round.RTN:")
				p("return -%s, %s // at least -MAX, MAX+ulp", conv(next(lo["RTN"])), conv(hi["RTN"]))
				p("case round.RTP:")
				p("return -%s, %s // -(MAX+ulp), at most MAX", conv(lo["RTP"]), conv(next(hi["RTP"])))
				p("}")
				p("return -%s, %s // MAX+ulp/2, a tie to even MAX+ulp", conv(hi["RTE"]), conv(hi["RTE"]))
				p("}")
			} else {
				// Integers: the closed interval [lo, hi].
				ilo := map[string]int64{}
				ihi := map[string]int64{}
				for _, mm := range []string{"RTE", "RTZ", "RTP", "RTN"} {
					ihi[mm] = int64(math.Ceil(hi[mm]) - 1) // the largest integer below the open bound
					if mm == "RTP" {
						ihi[mm] = int64(hi[mm]) // at most MAX
					}
					ilo[mm] = -int64(math.Ceil(lo[mm]) - 1)
					if mm == "RTN" {
						ilo[mm] = -int64(lo[mm])
					}
				}
				p("// finiteBounds%sTo%s returns the closed interval [lo, hi] of the %s values", s.fn, d.fn, s.cl)
				p("// that convert to %s in mode m without overflow.", d.cl)
				p("func finiteBounds%sTo%s(m round.Mode) (lo, hi %s) {", s.fn, d.fn, s.goT)
				loS := func(mm string) string {
					if !s.signed {
						return "0"
					}
					return strconv.FormatInt(ilo[mm], 10)
				}
				p("switch m {")
				for _, mm := range []string{"RTZ", "RTN", "RTP"} {
					p("case round.%s:", mm)
					p("return %s, %d", loS(mm), ihi[mm])
				}
				p("}")
				p("return %s, %d", loS("RTE"), ihi["RTE"])
				p("}")
			}
			p("")
		}
	}
	p("// nonFinite reports whether v is an infinity or NaN: v-v is NaN for")
	p("// both and +0 for every finite v.")
	p("func nonFinite(v float64) bool { return v-v != 0 }")
	p("")

	for _, s := range kinds {
		for _, d := range kinds {
			name := s.fn + "To" + d.fn
			// Scalar conversion.
			p("// %s converts %s to %s (convert_%s from %s).", lower(name), s.cl, d.cl, d.cl, s.cl)
			switch {
			case !s.float && !d.float:
				p("func %s(x %s, _ round.Mode, sat bool) %s {", lower(name), s.goT, d.goT)
				if inRangeInt(s, d) != "true" {
					p("if sat {")
					p("%s", satInt(s, d))
					p("}")
				}
				p("return %s(x)", d.goT)
				p("}")
			case s.float && !d.float:
				p("func %s(x %s, m round.Mode, _ bool) %s {", lower(name), s.goT, d.goT)
				p("return clamp%s(round.Integral(%s, m))", d.fn, f64(s, "x"))
				p("}")
			default:
				p("func %s(x %s, m round.Mode, _ bool) %s {", lower(name), s.goT, d.goT)
				p("return %s", toFloat(s, d, "x", "m"))
				p("}")
			}
			p("")

			// Checked: reports whether x (after rounding) fits: see convert's
			// package documentation for the rule.
			p("func check%s(x %s, m round.Mode) (%s, bool) {", name, s.goT, d.goT)
			switch {
			case !s.float && !d.float:
				p("return %s(x, m, true), %s", lower(name), inRangeInt(s, d))
			case s.float && !d.float:
				p("r := round.Integral(%s, m)", f64(s, "x"))
				p("return clamp%s(r), fits%s(r)", d.fn, d.fn)
			case overflows(s, d) && s.float:
				p("lo, hi := finiteBounds%s(m)", name)
				p("return %s(x, m, false), x > lo && x < hi || nonFinite(%s)", lower(name), f64(s, "x"))
			case overflows(s, d):
				p("lo, hi := finiteBounds%s(m)", name)
				p("return %s(x, m, false), x >= lo && x <= hi", lower(name))
			default:
				p("return %s(x, m, false), true", lower(name))
			}
			p("}")
			p("")

			if canFail(s, d) {
				firstBad(s, d)
			}

			// Slice kernel with the mode decisions hoisted out of the loop.
			p("func slice%s(dst []%s, src []%s, m round.Mode, sat bool) {", name, d.goT, s.goT)
			p("dst = dst[:len(src)]")
			if hasSIMD(s, d) {
				// The SIMD kernels (convert/zsimd_*) convert a leading part;
				// the Go loops below do the rest, or all of it without them.
				p("n := simd%s(dst, src, m, sat)", name)
				p("dst, src = dst[n:], src[n:]")
			}
			switch {
			case fastSlice(s, d):
				// A pure Go plan of its own: see fastSlice.
			case s.cl == d.cl && !s.float:
				p("_, _ = m, sat")
				p("copy(dst, src)")
			case !s.float && !d.float:
				if inRangeInt(s, d) != "true" {
					p("if sat {")
					p("for i, x := range src { dst[i] = %s(x, m, true) }", lower(name))
					p("return")
					p("}")
				} else {
					p("_ = sat")
				}
				p("for i, x := range src { dst[i] = %s(x) }", d.goT)
			case s.float && !d.float:
				p("_ = sat // clconv's out-of-range result is the saturated one either way")
				p("switch m {")
				if d.bits < 64 {
					for _, mm := range []string{"RTZ", "RTN", "RTP"} {
						p("case round.%s:", mm)
						p("for i, x := range src { dst[i] = to%s%s(%s) }", d.fn, mm, f64(s, "x"))
					}
					p("default:")
					p("for i, x := range src { dst[i] = to%sRTE(%s) }", d.fn, f64(s, "x"))
				} else {
					for _, mm := range []struct{ m, fn string }{{"RTZ", "math.Trunc"}, {"RTN", "math.Floor"}, {"RTP", "math.Ceil"}} {
						p("case round.%s:", mm.m)
						p("for i, x := range src { dst[i] = clamp%s(%s(%s)) }", d.fn, mm.fn, f64(s, "x"))
					}
					p("default:")
					p("for i, x := range src { dst[i] = clamp%s(round.Integral(%s, round.RTE)) }", d.fn, f64(s, "x"))
				}
				p("}")
			default:
				p("_ = sat")
				if s.cl == d.cl {
					p("_ = m")
					p("copy(dst, src)")
				} else {
					e := toFloat(s, d, "x", "m")
					// The mode-taking primitive in e and the prefix of its
					// per-mode forms (permode.F64ToF32RTZ, ...).
					prim, perMode := "", ""
					for _, pm := range [][2]string{
						{"half.FromFloat32", "half.FromFloat32"}, {"round.Float64ToFloat32", "permode.F64ToF32"},
						{"half.FromFloat64", "half.FromFloat64"}, {"round.Int64ToFloat64", "permode.I64ToF64"},
						{"round.Int64ToFloat32", "permode.I64ToF32"}, {"round.Uint64ToFloat64", "permode.U64ToF64"},
						{"round.Uint64ToFloat32", "permode.U64ToF32"},
					} {
						if strings.Contains(e, pm[0]+"(") {
							prim, perMode = pm[0]+"(", pm[1]
							break
						}
					}
					if prim != "" {
						// One loop per mode, each calling its own branch-free primitive.
						p("switch m {")
						for _, mm := range []string{"RTZ", "RTP", "RTN", "RTE"} {
							if mm == "RTE" {
								p("default:")
							} else {
								p("case round.%s:", mm)
							}
							e2 := strings.Replace(e, prim, perMode+mm+"(", 1)
							e2 = strings.Replace(e2, ", m)", ")", 1)
							p("for i, x := range src { dst[i] = %s }", e2)
						}
						p("}")
					} else {
						p("for i, x := range src { dst[i] = %s }", e)
					}
				}
			}
			p("}")
			p("")
		}
	}

	// Flagging kernels for float -> integer: like the slice kernel, and they
	// mark the elements whose rounded value is NaN or out of range.
	p("// convertSliceFlag converts n values like convertSlice and, for a floating")
	p("// source and an integer destination, sets bad[i] for every element whose")
	p("// rounded value is NaN or out of range; it returns how many there were.")
	p("func convertSliceFlag(dst, src cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat bool, bad []bool) int {")
	p("if src.IsSmallFloat() || dst.IsSmallFloat() {")
	p("return smallSliceFlag(dst, src, d, s, n, m, sat, bad)")
	p("}")
	p("if !src.IsFloat() || dst.IsFloat() {")
	p("convertSlice(dst, src, d, s, n, m, sat)")
	p("return 0")
	p("}")
	p("bad = bad[:n]")
	p("count := 0")
	p("switch src {")
	for _, s := range kinds {
		if !s.float {
			continue
		}
		p("case cltype.%s:", s.fn)
		p("ss := unsafe.Slice((*%s)(s), n)", s.goT)
		p("switch dst {")
		for _, d := range kinds {
			if d.float {
				continue
			}
			p("case cltype.%s:", d.fn)
			p("dd := unsafe.Slice((*%s)(d), n)", d.goT)
			if d.bits < 64 {
				// Convert with the slice kernel (SIMD where there is one),
				// then flag by comparing the source with fitBounds.
				// float and double sources flag a leading part with a
				// SIMD kernel where there is one (flag_amd64.go).
				p("slice%sTo%s(dd, ss, m, sat)", s.fn, d.fn)
				p("lo, hi := fitBounds%s(m)", d.fn)
				switch s.fn {
				case "Float":
					p("lo32, hi32 := fitBounds%sF32(m)", d.fn)
					p("k, count := flagFloat32(ss, bad, lo32, hi32)")
				case "Double":
					p("k, count := flagFloat64(ss, bad, lo, hi)")
				default:
					p("k := 0")
				}
				p("for i := k; i < n; i++ {")
				p("x := ss[i]")
				p("v := %s", f64(s, "x"))
				p("f := !(v > lo && v < hi)")
				p("bad[i] = f")
				p("if f { count++ }")
				p("}")
				p("return count")
				continue
			}
			if name := s.fn + "To" + d.fn; hasSIMD(s, d) {
				// SIMD converts a leading part; flag it separately.
				p("k := simd%s(dd, ss, m, sat)", name)
				p("for i, x := range ss[:k] {")
				p("f := !fits%s(round.Integral(%s, m))", d.fn, f64(s, "x"))
				p("bad[i] = f")
				p("if f { count++ }")
				p("}")
				p("for i := k; i < n; i++ {")
				p("x := ss[i]")
			} else {
				p("for i, x := range ss {")
			}
			p("r := round.Integral(%s, m)", f64(s, "x"))
			p("dd[i] = clamp%s(r)", d.fn)
			p("f := !fits%s(r)", d.fn)
			p("bad[i] = f")
			p("if f { count++ }")
			p("}")
			p("return count")
		}
		p("}")
	}
	p("}")
	p("panic(\"convert: invalid kind \" + src.String() + \" -> \" + dst.String())")
	p("}")
	p("")

	// Dynamic dispatch by kinds.
	p("// convertBits converts the bits of one src value to dst; impl reports a")
	p("// non-saturated float->integer conversion whose rounded value is NaN or out")
	p("// of range (implementation-defined in OpenCL; clconv returns the saturated value).")
	p("func convertBits(dst, src cltype.Kind, b uint64, m round.Mode, sat bool) (out uint64, impl bool) {")
	p("switch src {")
	for _, s := range kinds {
		p("case cltype.%s:", s.fn)
		p("x := %s", fromBits(s, "b"))
		p("switch dst {")
		for _, d := range kinds {
			name := s.fn + "To" + d.fn
			p("case cltype.%s:", d.fn)
			if s.float && !d.float {
				p("v, ok := check%s(x, m)", name)
				p("return %s, !ok && !sat", toBits(d, "v"))
			} else {
				p("return %s, false", toBits(d, lower(name)+"(x, m, sat)"))
			}
		}
		p("}")
	}
	p("}")
	p("return smallBits(dst, src, b, m, sat)")
	p("}")
	p("")

	p("// convertChecked converts one value through pointers; ok is false when the")
	p("// value (after rounding) is NaN or outside dst's range.")
	p("func convertChecked(dst, src cltype.Kind, d, s unsafe.Pointer, m round.Mode) (ok bool) {")
	p("switch src {")
	for _, s := range kinds {
		p("case cltype.%s:", s.fn)
		p("switch dst {")
		for _, d := range kinds {
			p("case cltype.%s:", d.fn)
			p("*(*%s)(d), ok = check%sTo%s(*(*%s)(s), m)", d.goT, s.fn, d.fn, s.goT)
			p("return ok")
		}
		p("}")
	}
	p("}")
	p("return smallChecked(dst, src, d, s, m)")
	p("}")
	p("")

	p("// mayFail[src][dst] reports whether convertChecked can reject a value of src")
	p("// converted to dst.")
	p("var mayFail = [cltype.NumKinds][cltype.NumKinds]bool{")
	for _, s := range kinds {
		var ds []string
		for _, d := range kinds {
			if canFail(s, d) {
				ds = append(ds, "cltype."+d.fn+": true")
			}
		}
		if len(ds) > 0 {
			p("cltype.%s: {%s},", s.fn, strings.Join(ds, ", "))
		}
	}
	p("}")
	p("")

	p("// firstBad returns the index of the first of the n src values at s that")
	p("// convertChecked rejects, or -1 when there is none.")
	p("func firstBad(dst, src cltype.Kind, s unsafe.Pointer, n int, m round.Mode) int {")
	p("switch src {")
	for _, s := range kinds {
		p("case cltype.%s:", s.fn)
		p("switch dst {")
		for _, d := range kinds {
			if !canFail(s, d) {
				continue
			}
			p("case cltype.%s:", d.fn)
			p("return firstBad%sTo%s(unsafe.Slice((*%s)(s), n), m)", s.fn, d.fn, s.goT)
		}
		p("}")
	}
	p("}")
	p("return -1")
	p("}")
	p("")

	p("// convertOne converts one value through pointers.")
	p("func convertOne(dst, src cltype.Kind, d, s unsafe.Pointer, m round.Mode, sat bool) {")
	p("switch src {")
	for _, s := range kinds {
		p("case cltype.%s:", s.fn)
		p("switch dst {")
		for _, d := range kinds {
			p("case cltype.%s:", d.fn)
			p("*(*%s)(d) = %sTo%s(*(*%s)(s), m, sat)", d.goT, lower(s.fn), d.fn, s.goT)
			p("return")
		}
		p("}")
	}
	p("}")
	p("smallOne(dst, src, d, s, m, sat)")
	p("}")
	p("")

	p("// convertSlice converts n values from s to d.")
	p("func convertSlice(dst, src cltype.Kind, d, s unsafe.Pointer, n int, m round.Mode, sat bool) {")
	p("switch src {")
	for _, s := range kinds {
		p("case cltype.%s:", s.fn)
		p("ss := unsafe.Slice((*%s)(s), n)", s.goT)
		p("switch dst {")
		for _, d := range kinds {
			p("case cltype.%s:", d.fn)
			p("slice%sTo%s(unsafe.Slice((*%s)(d), n), ss, m, sat)", s.fn, d.fn, d.goT)
			p("return")
		}
		p("}")
	}
	p("}")
	p("smallSlice(dst, src, d, s, n, m, sat)")
	p("}")

	src, err := format.Source(buf.Bytes())
	if err != nil {
		os.WriteFile(*out+".broken", buf.Bytes(), 0o644)
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// bitsLen returns the number of bits of x.
func bitsLen(x int) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

func lower(s string) string { return string(s[0]-'A'+'a') + s[1:] }

func fromBits(k kind, b string) string {
	switch k.cl {
	case "half":
		return "half.Half(" + b + ")"
	case "float":
		return "math.Float32frombits(uint32(" + b + "))"
	case "double":
		return "math.Float64frombits(" + b + ")"
	}
	return k.goT + "(" + b + ")"
}

func toBits(k kind, v string) string {
	switch k.cl {
	case "half":
		return "uint64(" + v + ")"
	case "float":
		return "uint64(math.Float32bits(" + v + "))"
	case "double":
		return "math.Float64bits(" + v + ")"
	}
	if k.bits == 64 {
		return "uint64(" + v + ")"
	}
	u := map[int]string{8: "uint8", 16: "uint16", 32: "uint32"}[k.bits]
	return "uint64(" + u + "(" + v + "))"
}

// overflows reports whether a value of s can overflow floating kind d: a
// wider floating format, or an integer beyond half's range.
func overflows(s, d kind) bool {
	if !d.float {
		return false
	}
	if s.float {
		return s.bits > d.bits
	}
	return d.cl == "half" && s.maxU() > 65504
}

// canFail reports whether a checked conversion from s to d can fail.
func canFail(s, d kind) bool {
	switch {
	case d.float:
		return overflows(s, d)
	case s.float:
		return true
	}
	return inRangeInt(s, d) != "true"
}

// fitBoundsOf returns the open interval of the float64 values that round to
// integer kind d's range in mode mm, as the generated fitBounds functions.
func fitBoundsOf(d kind, mm string) (lo, hi float64) {
	l, h := float64(d.minI()), float64(d.maxU())
	switch mm {
	case "RTZ":
		return l - 1, h + 1
	case "RTN":
		return math.Nextafter(l, math.Inf(-1)), h + 1
	case "RTP":
		return l - 1, math.Nextafter(h, math.Inf(1))
	}
	return math.Nextafter(l-0.5, math.Inf(-1)), h + 0.5
}

// down32 returns the largest float32 <= v, up32 the smallest >= v.
func down32(v float64) float32 {
	f := float32(v)
	if float64(f) > v {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

func up32(v float64) float32 {
	f := float32(v)
	if float64(f) < v {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// finiteBoundsOf returns, per mode, the magnitudes that bound the finite
// values converting to floating kind d without overflow: hi[m] for the
// positive side and lo[m] for the negative one (an open bound, or for rtp's
// positive and rtn's negative side MAX itself, which is allowed). With an
// unbounded exponent, rte rounds below MAX+ulp/2 to at most MAX (the tie goes
// to the even MAX+ulp), rtz below MAX+ulp, rtp and rtn toward their infinity
// only from at most MAX and toward zero from below MAX+ulp.
func finiteBoundsOf(d kind) (lo, hi map[string]float64) {
	var max, ulp float64
	switch d.cl {
	case "half":
		max, ulp = 65504, 32
	case "float":
		max, ulp = math.MaxFloat32, 0x1p104
	default:
		panic("no overflow into " + d.cl)
	}
	hi = map[string]float64{"RTE": max + ulp/2, "RTZ": max + ulp, "RTP": max, "RTN": max + ulp}
	lo = map[string]float64{"RTE": max + ulp/2, "RTZ": max + ulp, "RTP": max + ulp, "RTN": max}
	return lo, hi
}

// scanHook names the SIMD range scan that firstBad<S>To<D> runs first for a
// pair with SIMD kernels, and whether its interval is open (floats) or
// closed (integers); "" for the others.
func scanHook(s, d kind) string {
	if !scanPairs[s.fn+"To"+d.fn] {
		return ""
	}
	switch {
	case s.cl == "float" && !d.float && d.bits < 64:
		return "scanFloat32"
	case s.cl == "double" && !d.float && d.bits < 64:
		return "scanFloat64"
	case s.cl == "float" && d.float:
		return "scanFloat32Finite"
	case s.cl == "double" && d.float:
		return "scanFloat64Finite"
	case s.cl == "int" && !d.float:
		return "scanInt32"
	}
	return ""
}

// firstBad writes firstBad<S>To<D>, which returns the index of the first
// element that check<S>To<D> rejects, or -1. A pair with SIMD kernels first
// skips the whole blocks that its range scan finds good; the Go loop then
// tests the rest with the check's own comparison.
func firstBad(s, d kind) {
	name := s.fn + "To" + d.fn
	p("// firstBad%s returns the index of the first element of src that", name)
	p("// check%s rejects, or -1.", name)
	p("func firstBad%s(src []%s, m round.Mode) int {", name, s.goT)
	hook := scanHook(s, d)
	var bad string
	switch {
	case !d.float && s.float && d.bits < 64:
		if s.cl == "float" {
			p("lo, hi := fitBounds%sF32(m)", d.fn)
			bad = "!(x > lo && x < hi)"
		} else {
			p("lo, hi := fitBounds%s(m)", d.fn)
			bad = "v := " + f64(s, "x") + "; !(v > lo && v < hi)"
		}
	case !d.float && s.float:
		bad = "_, ok := check" + name + "(x, m); !ok"
	case !d.float:
		if hook != "" {
			p("lo, hi := %s(%s), %s(%s)", s.goT, orZero(d.min), s.goT, d.max)
		}
		bad = "!(" + inRangeInt(s, d) + ")"
	case s.float:
		p("lo, hi := finiteBounds%s(m)", name)
		bad = "!(x > lo && x < hi) && !nonFinite(" + f64(s, "x") + ")"
	default:
		p("lo, hi := finiteBounds%s(m)", name)
		bad = "x < lo || x > hi"
	}
	start := "0"
	if hook != "" {
		start = hook + "(src, lo, hi)"
	}
	p("for i := %s; i < len(src); i++ {", start)
	p("x := src[i]")
	p("if %s {", bad)
	p("return i")
	p("}")
	p("}")
	p("return -1")
	p("}")
	p("")
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// Pure Go plans. The generic slice loops above call the scalar conversions of
// packages half and round (or their one-mode forms in internal/permode). For
// the conversions below those loops ran 5 to 20 times slower than the median
// variant (BenchmarkPureGoAll): the functions are too large for Go's inliner,
// branch on the sign or on where a value lies (which random data
// mispredicts), or go through instructions that write only part of a
// register (float32 <-> float64 conversions and ROUNDSD on amd64, and the
// SETcc of a comparison turned into a value), so that where Go's register
// allocator picks a register last written by the previous element, each
// element waits for the previous one. fastSlice writes their loops with the
// work inline, one loop per rounding mode, without those:
//
//   - half to every other type, and every integer to half: lookup tables
//     computed from the scalar conversion itself (half -> D: all 2^16 inputs
//     per mode, 64 to 512 KiB; the integers of 16 bits or more -> half: every
//     value in [-65535, 65535] per mode, 256 KiB, a wider magnitude converting
//     as 65535 does, selected after the load (intToHalfLoop); char and uchar
//     -> half: 256 entries per mode);
//   - float and double to a narrower floating type in the directed modes: a
//     table per sign and exponent of the source, in columns, gives the
//     result's exponent field, the shift that drops the extra significand
//     bits and the addend that rounds them in the mode (with the implicit
//     bit and less the index's own bits, so that b plus it needs no
//     masking), so that one addition and one shift round (narrowRow,
//     narrow32, narrow64); to half in rte, one addition of a constant of the
//     row in the source's format rounds to half's spacing, and the sum's low
//     bits plus the row's base are the half (halfRTELoop; double -> float
//     rte is the hardware's conversion);
//   - float and double to long and ulong, float to int and uint, and rtn to
//     the narrower signed types: a table per sign and exponent (wide32,
//     wide64) says whether the row is in range and what it saturates to;
//     the value is rounded in floating point (rte: plus and minus 2^p with
//     its sign; rtp, rtn: plus the row's addend of rowAdd, so that the
//     truncation rounds in the mode) and converted once (wideLoop);
//   - float and double to the other integer types and modes: the bit
//     pattern, loaded as an integer, clamped with one signed and one
//     unsigned integer min, rounded by 1.5*2^p (rte), truncated (rtz), or
//     plus the addend of its row of rtpRows and truncated (rtp)
//     (floatToIntLoop);
//   - int and uint to float in the directed modes, long to double in rtz
//     and rtp, and long to float in rtp where Go's float32(int64) is one
//     instruction (hwInt64ToFloat32): Go's conversion rounds to nearest, and
//     an exact integer comparison of that result with the source steps it
//     by one unit where the mode wants the other neighbour (stepBody); long
//     to float in rtz, and in rtp on the other ports: an exact float64 (x,
//     or x rounded to odd at bit 11 from 2^53 up) whose bit pattern is
//     rounded to float's 24 bits by an addition and a mask (clearBody); long
//     to float in rtn, ulong to float and ulong to double in the directed
//     modes, and long to double in rtn: the value shifted right to the
//     precision, rounding as it shifts, converts exactly and is scaled by a
//     power of two from a table (shiftBody); long and ulong to float and
//     ulong to double in rte: an exact float64 step, or one rounded to odd,
//     and one rounding by the hardware or Go's softfloat (jamBody).
//
// Every table is computed once, the first time a slice long enough to repay
// it needs it (lazyTable): nothing at init, and a short conversion takes the
// scalar path until then. No loop branches on its values: NaN, infinities
// and saturation are conditional moves or table rows, since the benchmark's
// random input (internal/benchdata) has a few percent of NaNs and
// infinities, and a branch taken at random costs a misprediction each time.
// Every result stays bit-identical: the
// tests compare the slice kernels with the scalar conversions (convert's
// TestPureGoKernels, every rounding position of every exponent; with
// CLCONV_PUREGO_EXHAUSTIVE=1 every input of the 32-bit sources) and with the
// reference, every 8- and 16-bit input included.

// srcFormat is float or double as the source of the table-driven loops:
// its width, rows (sign and exponent), stored significand bits, exponent
// bias, name, and the lazyTable threshold of its tables.
type srcFormat struct {
	bits, rows, sm, sb int
	name, min          string
}

var srcFormats = []srcFormat{{32, 512, 23, 127, "float", "1 << 12"}, {64, 4096, 52, 1023, "double", "1 << 14"}}

// srcFormatOf returns the srcFormat of width bits.
func srcFormatOf(bits int) srcFormat {
	if bits == 32 {
		return srcFormats[0]
	}
	return srcFormats[1]
}

// fmtInfo describes a binary floating-point format.
type fmtInfo struct {
	w, mant, bias int // width, stored significand bits, exponent bias
}

func fmtOf(k kind) fmtInfo {
	switch k.cl {
	case "half":
		return fmtInfo{16, 10, 15}
	case "float":
		return fmtInfo{32, 23, 127}
	}
	return fmtInfo{64, 52, 1023}
}

var modeNamesGen = []string{"RTZ", "RTP", "RTN", "RTE"}

// modeOrder lists the modes in round.Mode order, the index of the [4]
// tables of tables.
var modeOrder = []string{"RTE", "RTZ", "RTP", "RTN"}

// lazyTables writes a [4] array of lazyTables, one per mode, of type typ
// ("[256]half.Half"), built by build (MODE stands for the mode) on first use
// by a slice of at least min elements.
func lazyTables(name, typ, min, build string) { modeTables(name, typ, min, build, true) }

// directedTables is lazyTables without a table for rte: its entry is
// empty, and nothing asks for it.
func directedTables(name, typ, min, build string) { modeTables(name, typ, min, build, false) }

func modeTables(name, typ, min, build string, rte bool) {
	p("var %s = [4]lazyTable[%s]{", name, typ)
	for _, mm := range modeOrder {
		if mm == "RTE" && !rte {
			p("{}, // rte: none")
			continue
		}
		p("{min: %s, build: func() *%s { return %s }},", min, typ, strings.ReplaceAll(build, "MODE", "round."+mm))
	}
	p("}")
	p("")
}

// helpers writes the small functions and tables that the plans use.
func helpers() {
	p("// The plans' comparisons are arithmetic: Go compiles a comparison that")
	p("// yields a value to SETcc, which writes the low byte of a register and so,")
	p("// on AMD processors, waits for that register's previous value, in a loop")
	p("// often the previous element's result: every element would wait for the")
	p("// previous one.")
	p("")
	p("// negative64 returns 1 if x < 0, else 0; positive64 returns 1 if x > 0")
	p("// (for x above math.MinInt64), else 0.")
	p("func negative64(x int64) uint64 { return uint64(x) >> 63 }")
	p("")
	p("func positive64(x int64) uint64 { return uint64(-x) >> 63 }")
	p("")
	p("// hide returns x, which the compiler cannot see through: a constant")
	p("// passed through it before a loop is loaded into a register once, where")
	p("// Go's compiler would materialize it again in every iteration.")
	p("//")
	p("//go:noinline")
	p("func hide[T any](x T) T { return x }")
	p("")
	p("// scale24[l] and scale53[l] are 2^(l-24) and 2^(l-53) (1 below): the")
	p("// scales of an integer of l significant bits shifted to float's and")
	p("// double's precision.")
	for _, w := range []struct{ bits, prec int }{{32, 24}, {64, 53}} {
		var vs []string
		for l := range 65 {
			vs = append(vs, fmt.Sprintf("0x1p%d", max(l-w.prec, 0)))
		}
		p("var scale%d = [65]float%d{%s}", w.prec, w.bits, strings.Join(vs, ", "))
		p("")
	}
	p("// u64Bias[x>>63] is what a ulong x loses when converted as an int64.")
	p("var u64Bias = [2]float64{0, 0x1p64}")
	p("")
	p("// lazyTable is a table computed once, when the elements that asked for it")
	p("// add up to min: until then the conversions take the scalar path, so that")
	p("// a program that converts a few values never computes a table (which costs")
	p("// about as much as converting min values one by one), and one that")
	p("// converts many, in slices short or long, spends at most as much on the")
	p("// scalar path as on the table. Nothing is computed when the package is")
	p("// initialized.")
	p("type lazyTable[T any] struct {")
	p("min   int64")
	p("build func() *T")
	p("seen  atomic.Int64 // elements converted on the scalar path so far")
	p("once  sync.Once")
	p("t     atomic.Pointer[T]")
	p("}")
	p("")
	p("// get returns the table, computing it first once the elements asked for")
	p("// add up to l.min; nil means: take the scalar path for these n elements.")
	p("func (l *lazyTable[T]) get(n int) *T {")
	p("if t := l.t.Load(); t != nil { return t }")
	p("if n == 0 || l.seen.Add(int64(n)) < l.min { return nil }")
	p("l.once.Do(func() { l.t.Store(l.build()) })")
	p("return l.t.Load()")
	p("}")
	p("")
	p("// modeIndex is m as an index of the [4] tables below: an invalid mode")
	p("// rounds to nearest, as everywhere.")
	p("func modeIndex(m round.Mode) int {")
	p("if m > round.RTN { return int(round.RTE) }")
	p("return int(m)")
	p("}")
	p("")

	// Lookup tables from the scalar conversions.
	p("// halfTable returns conv of every half bit pattern in mode m.")
	p("func halfTable[D any](conv func(half.Half, round.Mode, bool) D, m round.Mode) *[1 << 16]D {")
	p("t := new([1 << 16]D)")
	p("for b := range t { t[b] = conv(half.Half(b), m, false) }")
	p("return t")
	p("}")
	p("")
	for _, d := range kinds {
		if d.cl == "half" {
			continue
		}
		typ := fmt.Sprintf("[1 << 16]%s", d.goT)
		if d.float {
			p("// halfTo%sTable is halfTo%s of every half (exact: the same in every", d.fn, d.fn)
			p("// mode).")
			p("var halfTo%sTable = lazyTable[%s]{min: 1 << 15, build: func() *%s { return halfTable(halfTo%s, round.RTE) }}", d.fn, typ, typ, d.fn)
			p("")
			continue
		}
		p("// halfTo%sTables[modeIndex(m)] is halfTo%s of every half in mode m.", d.fn, d.fn)
		lazyTables("halfTo"+d.fn+"Tables", typ, "1 << 15", "halfTable(halfTo"+d.fn+", MODE)")
	}
	p("// intToHalfTable returns intToHalf(x, m) at index x+65535 for every x in")
	p("// [-65535, 65536]. Every integer of larger magnitude converts as -65535 or")
	p("// 65535: to infinity (rte, and the directed modes away from zero) or to")
	p("// the largest finite half (rtz, and the others toward zero).")
	p("func intToHalfTable(m round.Mode) *[1 << 17]half.Half {")
	p("t := new([1 << 17]half.Half)")
	p("for i := range t { t[i] = intToHalf(int32(i-65535), m, false) }")
	p("return t")
	p("}")
	p("")
	p("// intToHalfTables[modeIndex(m)] is intToHalfTable(m).")
	lazyTables("intToHalfTables", "[1 << 17]half.Half", "1 << 16", "intToHalfTable(MODE)")
	for _, s := range kinds {
		if s.float || s.bits != 8 {
			continue
		}
		p("// %sToHalfTables[modeIndex(m)] is %sToHalf of every %s (at its bit", lower(s.fn), lower(s.fn), s.cl)
		p("// pattern) in mode m.")
		build := fmt.Sprintf("func() *[256]half.Half { t := new([256]half.Half); for b := range t { t[b] = %sToHalf(%s(uint8(b)), MODE, false) }; return t }()", lower(s.fn), s.goT)
		lazyTables(lower(s.fn)+"ToHalfTables", "[256]half.Half", "0", build)
	}

	// Rounding tables for the narrowing float conversions.
	p("// narrowRow returns the table entry of narrowTable32 and narrowTable64 for")
	p("// the values of sign sign and biased exponent e of a binary floating format")
	p("// with sm stored significand bits and exponent bias sb, rounded in mode m to")
	p("// a narrower format with dm stored significand bits, exponent bias db and")
	p("// its sign at bit ds, in a directed mode (rte is halfRTE's, or the")
	p("// hardware's for double -> float). The rounding of such a value with")
	p("// significand sig (its stored bits with the implicit bit at sm) is")
	p("// base + (sig+add)>>sh, whose")
	p("// significand's implicit bit and any carry out of it add to the exponent")
	p("// field in base:")
	p("//   - e at or above d's smallest normal exponent: base holds the sign and")
	p("//     the exponent field less one, and sh drops sm-dm bits;")
	p("//   - below: base holds the sign, and sh drops as many more bits as e is")
	p("//     below, up to sm+2 (at which every value rounds as the smallest does);")
	p("//   - e 0 (zero and subnormals, which have no implicit bit): sh is sm+2;")
	p("//   - e all ones (infinities and NaNs): base holds the sign and d's")
	p("//     largest exponent field less one, sh drops sm-dm bits and add is 0, so")
	p("//     that an infinity stays one and a NaN keeps the payload bits that fit")
	p("//     (the loops then set the quiet bit);")
	p("//   - at or above 2^(emax+1) (overflow): base is the largest finite value")
	p("//     with sh sm+2, so that only a mode that rounds away from zero adds")
	p("//     one unit (to infinity).")
	p("// add is 2^sh-1 where the mode rounds away from zero on this side, else 0.")
	p("// The loops give every significand the implicit bit,")
	p("// which for e 0 makes zero 2^sm and a subnormal 2^sm plus its stored bits:")
	p("// there, rounding away from zero adds 2^sh-1-2^sm, which carries a")
	p("// subnormal to one unit and leaves zero at 0.")
	p("func narrowRow(sign, e, sm, sb, dm, db, ds int, m round.Mode) (base uint64, sh int, add uint64) {")
	p("cap := sm + 2")
	p("e0 := sb + 1 - db // the source exponent of d's smallest normal")
	p("switch {")
	p("case e == 0:")
	p("sh = cap")
	p("case e == 2*sb+1: // infinity or NaN")
	p("sh = sm - dm")
	p("base = uint64(2*db) << dm")
	p("case e > db+sb: // 2^(emax+1) or more")
	p("sh = cap")
	p("base = uint64(2*db)<<dm | (1<<dm - 1)")
	p("case e >= e0:")
	p("sh = sm - dm")
	p("base = uint64(e-e0) << dm")
	p("default:")
	p("sh = min(sm-dm+e0-e, cap)")
	p("}")
	p("base |= uint64(sign) << ds")
	p("switch {")
	p("case e == 2*sb+1:")
	p("add = 0")
	p("case m == round.RTP && sign == 0, m == round.RTN && sign == 1:")
	p("add = 1<<sh - 1")
	p("if e == 0 {")
	p("add -= 1 << sm // zero rounds to zero, a subnormal up: see above")
	p("}")
	p("}")
	p("return base, sh, add")
	p("}")
	p("")
	// The tables in columns, one array per field, so that every field is
	// one load at the same index (no scaling of the index, and the field's
	// own width).
	for _, w := range srcFormats {
		p("// narrow%d holds narrowRow for a %s at every index b>>%d (sign and", w.bits, w.name, w.sm)
		p("// exponent) of its bit pattern b. The loops compute, with")
		p("// j = b>>%d and s = b + add[j],", w.sm)
		p("//")
		p("//	base[j] + (b + add[j]) >> sh[j]")
		p("//")
		p("// in a directed mode (rte is halfRTE's, or the hardware's for double ->")
		p("// float) and set the destination's quiet bit")
		p("// where (b + nan[j]) has its top bit set (shifted to it by a constant and")
		p("// masked: one shift fewer than a shift down and back up, where the Xeon's")
		p("// shifts share two ports with its conditional moves and branches):")
		p("//   - add is narrowRow's add plus the implicit bit, less j's own bits")
		p("//     (j<<%d, wrapping), so that s is the significand with the implicit", w.sm)
		p("//     bit plus add, without masking b;")
		p("//   - nan is 2^%d-1 less j's bits for the NaN exponent, so that b + nan", w.bits-1)
		p("//     reaches 2^%d exactly when the significand is not 0, and less j's", w.bits-1)
		p("//     bits elsewhere (b + nan is then the significand).")
		if w.bits == 64 {
			p("//")
			p("// For a double the fields are rows of 32 bytes (narrowEntry64), one cache")
			p("// line and one page per element: from memory, where the streams take")
			p("// the L1 cache and the TLB, columns 32 KiB apart ran 20-50%% slower")
			p("// (double -> half 0.46-0.62 -> 0.70-0.91 G elements/s on the AMD EPYC,")
			p("// a noisy run), and in L2 about 4%% faster. The unused word keeps the rows")
			p("// at 32 bytes, so that one shift scales the index (it held rte's")
			p("// tie-breaking bit until session 38).")
			p("type narrow64 [%d]narrowEntry64", w.rows)
			p("")
			p("// narrowEntry64 is a row of narrow64.")
			p("type narrowEntry64 struct {")
			p("add, _, nan uint64")
			p("base        uint32")
			p("sh          uint8")
			p("}")
		} else {
			p("type narrow%d struct {", w.bits)
			p("add, nan [%d]uint%d", w.rows, w.bits)
			p("base     [%d]uint32", w.rows)
			p("sh       [%d]uint8", w.rows)
			p("}")
		}
		p("")
		p("// narrowTable%d returns narrow%d for a destination with dm stored", w.bits, w.bits)
		p("// significand bits, exponent bias db and its sign at bit ds, in directed")
		p("// mode m.")
		p("func narrowTable%d(dm, db, ds int, m round.Mode) *narrow%d {", w.bits, w.bits)
		p("t := new(narrow%d)", w.bits)
		p("for j := range %d {", w.rows)
		p("e := j & %#x", w.rows/2-1)
		p("base, sh, add := narrowRow(j>>%d, e, %d, %d, dm, db, ds, m)", bitsLen(w.rows/2-1), w.sm, w.sb)
		p("add += 1<<%d - uint64(j)<<%d", w.sm, w.sm)
		p("nan := -uint64(j) << %d", w.sm)
		p("if e == %#x { nan += 1<<%d - 1 }", w.rows/2-1, w.bits-1)
		if w.bits == 64 {
			p("t[j] = narrowEntry64{add: add, nan: nan, base: uint32(base), sh: uint8(sh)}")
		} else {
			p("t.add[j], t.nan[j] = uint%d(add), uint%d(nan)", w.bits, w.bits)
			p("t.base[j], t.sh[j] = uint32(base), uint8(sh)")
		}
		p("}")
		p("return t")
		p("}")
		p("")
	}
	p("// floatToHalfTables, doubleToHalfTables and doubleToFloatTables hold the")
	p("// narrowing tables per directed mode (modeIndex); rte has none.")
	directedTables("floatToHalfTables", "narrow32", srcFormats[0].min, "narrowTable32(10, 15, 15, MODE)")
	directedTables("doubleToHalfTables", "narrow64", srcFormats[1].min, "narrowTable64(10, 15, 15, MODE)")
	directedTables("doubleToFloatTables", "narrow64", srcFormats[1].min, "narrowTable64(23, 127, 31, MODE)")
	halfRTETables()

	// Rows for float and double -> long and ulong.
	for _, w := range srcFormats {
		F := fmt.Sprintf("float%d", w.bits)
		src := w.name
		rowAdds(w)
		p("// wide%d holds, for every index j = b>>%d (sign and exponent) of a %s's", w.bits, w.sm, src)
		p("// bit pattern b, what the loops that convert it to an integer type in one")
		p("// mode need (internal/gen's wideLoop). With v the %s, a loop computes q,", src)
		p("// the rounded value as an int64 (garbage where the row is out of range),")
		p("// and stores q&keep[j] | sat[j], or 0 for a NaN (a comparison of b<<1):")
		p("//   - q is int64(v) (rtz), int64(v+f[j]) (rtp, rtn: f is rowAdd%d's", w.bits)
		p("//     addend in the rows of the sign that the mode rounds away from zero,")
		p("//     so that truncating the sum rounds v in the mode), or")
		p("//     int64(v+f[j]-g[j]) (rte: f and g are 2^%d with the row's sign below", w.sm)
		p("//     2^%d, where adding and subtracting it rounds to an integer, ties to", w.sm)
		p("//     even, and 0 from there up); to ulong, from 2^63 up, v+f[j] with f =")
		p("//     -2^63 in every mode (exact), and sat adds the 2^63 back (an OR: q is")
		p("//     below 2^63);")
		p("//   - keep is all ones where q is the result (the rounded value is in")
		p("//     range), else 0, and sat is then the saturated result (MIN or MAX;")
		p("//     to an unsigned type 0 for every negative row, which rounds to 0 or")
		p("//     below). In rtp and rtn, row 0 (or 0x%x) adds 1 (or -1): a", w.rows/2)
		p("//     subnormal rounds to it, but zero does not, and the loop's test for")
		p("//     a NaN takes zero too (b<<1-1 above the NaNs' bound less one).")
		p("//")
		p("// Each column starts a cache line and 8 bytes after the one before, so")
		p("// that a row's entries do not all fall into one set of the L1 cache:")
		p("// columns a multiple of 4 KiB apart ran 20%% slower in L2 (double -> long")
		p("// rte 1.01 -> 1.25 G elements/s with the padding, on the AMD EPYC). Rows")
		p("// of 32 bytes instead, as narrow64 has, measured 10-25%% slower in L2 and")
		p("// mixed from memory, and one more operation (scaling the index).")
		paddedColumns(fmt.Sprintf("wide%d", w.bits), w.rows, "f", F, "g", F, "keep", "uint64", "sat", "uint64")
		p("")
		p("// wideTable%d returns wide%d for a destination of bits bits, signed or not,", w.bits, w.bits)
		p("// in mode m.")
		p("func wideTable%d(bits int, signed bool, m round.Mode) *wide%d {", w.bits, w.bits)
		p("t := new(wide%d)", w.bits)
		p("for j := range %d {", w.rows)
		p("neg, e := j>>%d == 1, j&%#x", bitsLen(w.rows/2-1), w.rows/2-1)
		p("sg := %s(1)", F)
		p("if neg { sg = -1 }")
		p("if m == round.RTE && e < %d { // below 2^%d: rte rounds by adding and subtracting 2^%d", w.sb+w.sm, w.sm, w.sm)
		p("t.f[j] = sg * 0x1p%d", w.sm)
		p("t.g[j] = t.f[j]")
		p("}")
		p("if m == round.RTP && !neg || m == round.RTN && neg && signed {")
		p("t.f[j] = sg * rowAdd%d(e)", w.bits)
		p("}")
		p("t.keep[j] = math.MaxUint64")
		p("switch {")
		p("case signed && e >= %d+bits-1: // from 2^(bits-1) up (-2^(bits-1) saturates to itself)", w.sb)
		p("t.keep[j], t.sat[j] = 0, 1<<(bits-1)-1")
		p("if neg { // MIN, as an int64")
		p("t.sat[j] = -(1 << (bits - 1))")
		p("}")
		p("case signed:")
		p("case neg: // rounds to 0 or below")
		p("t.keep[j] = 0")
		p("case e >= %d+bits: // from 2^bits up", w.sb)
		p("t.keep[j], t.sat[j] = 0, 1<<(bits-1)-1+1<<(bits-1)")
		p("case e == %d: // [2^63, 2^64): v-2^63, and 2^63 back", w.sb+63)
		p("t.f[j], t.g[j], t.sat[j] = -0x1p63, 0, 1<<63")
		p("}")
		p("}")
		p("return t")
		p("}")
		p("")
	}
	for _, s := range kinds {
		for _, d := range kinds {
			if usesWide(s, d) && (d.signed || d.bits >= 32 && (s.cl == "float" || d.bits == 64)) {
				sf := fmtOf(s)
				lazyTables(lower(s.fn)+"To"+d.fn+"Tables", fmt.Sprintf("wide%d", sf.w), srcFormatOf(sf.w).min, fmt.Sprintf("wideTable%d(%d, %v, MODE)", sf.w, d.bits, d.signed))
			}
		}
	}
}

// paddedColumns writes struct type name with one array of rows entries per
// column (name and element type in pairs), the k-th column after 9*k
// words of padding: each column starts 8 bytes further into its cache line
// than the one before, so that a row's entries do not all fall into one set
// of the L1 cache (the comment on the wide tables has the measurement).
func paddedColumns(name string, rows int, cols ...string) {
	p("type %s struct {", name)
	for k := 0; k < len(cols); k += 2 {
		if k > 0 {
			p("_ [%d]uint64", 9*k/2)
		}
		p("%s [%d]%s", cols[k], rows, cols[k+1])
	}
	p("}")
}

// halfRTETables writes halfRTE32 and halfRTE64, the rows of halfRTELoop.
func halfRTETables() {
	for _, w := range srcFormats {
		F := fmt.Sprintf("float%d", w.bits)
		src := w.name
		p("// halfRTE%d holds, for every index j = b>>%d (sign and exponent) of a", w.bits, w.sm)
		p("// %s's bit pattern b, what halfRTELoop needs to convert it to half,", src)
		p("// rounding to nearest with ties to even by the hardware's own addition:")
		p("//   - c is 1.5 times 2^(E+%d) with the row's sign, E = j's exponent less", w.sm-10)
		p("//     %d, in half's normal range, where half's spacing, 2^(E-10), is that", w.sb)
		p("//     of the %ss around c: v+c rounds v to half's spacing (below 2^-14,", src)
		p("//     to 2^-24, half's subnormal spacing: E = -14 there), and the low 16")
		p("//     bits of the sum's pattern are the rounded magnitude in half's")
		p("//     spacings (below 2^11: c's own low bits are 0, and the sum stays in")
		p("//     c's binade). Above half's range, and for the infinities, c is the")
		p("//     infinity of the row's sign: the sum is that infinity, whose low bits")
		p("//     are 0;")
		p("//   - base is what the low 16 bits add up with to the half: the sign and")
		p("//     the exponent less one (the rounded magnitude holds the implicit")
		p("//     bit, and carries into the exponent where it rounds up to the next")
		p("//     binade, or to infinity above 65520), or the infinity;")
		p("//   - nan is what half(b>>%d) with the quiet bit adds up with to the half", w.sm-10)
		p("//     of a NaN (its sign, its quiet bit and the top 10 bits of its")
		p("//     payload): 0x8000 in the positive NaNs' row, else 0. A NaN's sum,")
		p("//     whose bits differ between processors, is replaced by that.")
		paddedColumns(fmt.Sprintf("halfRTE%d", w.bits), w.rows, "c", F, "base", "uint16", "nan", "uint16")
		p("")
		p("// halfRTETable%d returns halfRTE%d.", w.bits, w.bits)
		p("func halfRTETable%d() *halfRTE%d {", w.bits, w.bits)
		p("t := new(halfRTE%d)", w.bits)
		p("for j := range %d {", w.rows)
		p("sign, e := uint16(j>>%d)<<15, j&%#x", bitsLen(w.rows/2-1), w.rows/2-1)
		p("sg := 1.0")
		p("if sign != 0 { sg = -1 }")
		p("switch E := e - %d; {", w.sb)
		p("case E > 15: // above half's range, and the infinities")
		p("t.c[j], t.base[j] = %s(math.Inf(int(sg))), sign|0x7c00", F)
		p("if e == %#x && sign == 0 {", w.rows/2-1)
		p("t.nan[j] = 0x8000")
		p("}")
		p("default:")
		p("E = max(E, -14) // below: half's subnormals, and values that round to 0 or to them")
		p("t.c[j] = %s(sg * math.Ldexp(1.5, E+%d))", F, w.sm-10)
		p("t.base[j] = sign | uint16(E+14)<<10")
		p("}")
		p("}")
		p("return t")
		p("}")
		p("")
		p("var %sToHalfRTE = lazyTable[halfRTE%d]{min: %s, build: halfRTETable%d}", src, w.bits, w.min, w.bits)
		p("")
	}
}

// rowAdds writes rowAdd<bits>, the addend that rounds up by truncation in
// one row of a float or double, and the shifted rows of floatToIntLoop's
// rtp (rtpRows<bits>).
func rowAdds(w srcFormat) {
	bits, rows, sm, sb, src := w.bits, w.rows, w.sm, w.sb, w.name
	F := fmt.Sprintf("float%d", bits)
	p("// rowAdd%d returns c for the positive %ss of exponent field e, [2^E,", bits, src)
	p("// 2^(E+1)) with E = e-%d (every subnormal for e = 0): for every such v", sb)
	p("// but zero, truncating v+c (rounded to nearest) gives v rounded up to an")
	p("// integer, and truncating -v-c gives -v rounded down. c is 1 less one unit")
	p("// in the last place of the row (v+c is then exact, or rounds within the")
	p("// integer it truncates to), 1-2^E below 1 (v+c lies in [1, 1.5)), 1 where")
	p("// 1-2^E is not a %s (v+c rounds to 1, or just above), and 0 from 2^%d up,", src, sm)
	p("// where every value is an integer. Zero, in the subnormals' row, would")
	p("// round to 1; the loops send zero elsewhere.")
	p("func rowAdd%d(e int) %s {", bits, F)
	p("switch E := e - %d; {", sb)
	p("case E >= %d:", sm)
	p("return 0")
	p("case E >= 0:")
	p("return %s(1 - math.Ldexp(1, E-%d))", F, sm)
	p("case E >= -%d:", sm+1)
	p("return %s(1 - math.Ldexp(1, E))", F)
	p("}")
	p("return 1")
	p("}")
	p("")
	p("// rtpRows%d holds, for every index j = (b-1)>>%d of a %s's bit pattern b,", bits, sm, src)
	p("// what floatToIntLoop adds to a %s v (b, or b clamped to the", src)
	p("// destination's range) before truncating it, so that the truncation rounds")
	p("// v up. Row j holds the values above 2^E and up to 2^(E+1), E = j-%d, and", sb)
	p("// their negations in row j+%d; row 0 the subnormals and 2^-%d. The rows'", rows/2, sb-1)
	p("// offset by one puts both zeros with the NaNs: +0 in row %d (with the", rows-1)
	p("// negative NaNs), -0 in row %d (with the positive ones), where the addend", rows/2-1)
	p("// is 0 (a NaN is clamped to zero before the addition). The addend is 0 in")
	p("// the negative rows (truncation rounds them up) and 1 in the rows below 1")
	p("// where 1-2^E is not a %s; below 1, 1-2^E, so that v plus it lies in", src)
	p("// [1, 1.5]. From 1 up it is 1 less one unit in the last place of [2^E,")
	p("// 2^(E+1)), u, and less 2^-%d: for v of that binade, an integer n plus", sm+1)
	p("// k units, v plus it is n+1-2^-%d (rounds to n+1) and more for k > 0, or", sm+1)
	p("// n+1-u-2^-%d (rounds to n+1-u) for k = 0; for v = 2^(E+1), whose unit is 2u,", sm+1)
	p("// 2^(E+1)+1-u-2^-%d rounds down to 2^(E+1)+1-2u, below the halfway point", sm+1)
	p("// where rounding to even would give 2^(E+1)+1. A clamped v (MAX, or MIN)")
	p("// is an integer: any addend of a row at or above its own leaves it there.")
	p("func rtpRowTable%d() *[%d]%s {", bits, rows, F)
	p("t := new([%d]%s)", rows, F)
	p("for j := range %d { // the positive rows but the NaNs'", rows/2-1)
	p("t[j] = rowAdd%d(j)", bits)
	p("if E := j - %d; E >= 0 && E < %d {", sb, sm)
	p("t[j] -= 0x1p-%d // for 2^(E+1), the row's top", sm+1)
	p("}")
	p("}")
	p("return t")
	p("}")
	p("")
	p("var rtpRows%d = lazyTable[[%d]%s]{min: %s, build: rtpRowTable%d}", bits, rows, F, w.min, bits)
	p("")
}

// perModeExpr returns the generic loops' expression for floating
// destinations in mode mm (the one-mode primitive where there is one).
func perModeExpr(s, d kind, mm string) string {
	e := toFloat(s, d, "x", "m")
	for _, pm := range [][2]string{
		{"half.FromFloat32", "half.FromFloat32"}, {"round.Float64ToFloat32", "permode.F64ToF32"},
		{"half.FromFloat64", "half.FromFloat64"}, {"round.Int64ToFloat64", "permode.I64ToF64"},
		{"round.Int64ToFloat32", "permode.I64ToF32"}, {"round.Uint64ToFloat64", "permode.U64ToF64"},
		{"round.Uint64ToFloat32", "permode.U64ToF32"},
	} {
		if strings.Contains(e, pm[0]+"(") {
			e = strings.Replace(e, pm[0]+"(", pm[1]+mm+"(", 1)
			return strings.Replace(e, ", m)", ")", 1)
		}
	}
	return e
}

// code collects the lines of a loop body.
type code struct{ strings.Builder }

func (c *code) w(format string, args ...any) { fmt.Fprintf(&c.Builder, format+"\n", args...) }

// modeLoops writes one loop per mode, body(mm) giving each loop's body.
func modeLoops(body func(mm string) string) {
	p("switch m {")
	for _, mm := range modeNamesGen {
		if mm == "RTE" {
			p("default:")
		} else {
			p("case round.%s:", mm)
		}
		p("%s", strings.TrimSpace(body(mm)))
	}
	p("}")
}

// rangeLoop is a loop over src whose body converts x into dst[i].
func rangeLoop(body string) string {
	return "for i, x := range src {\n" + strings.TrimSpace(body) + "\n}"
}

// rangeLoop2 is rangeLoop unrolled by two, then the last element alone
// (bitsLoop2's form, over src).
func rangeLoop2(body string) string { return unroll2("src", "x", body) }

// bitsView writes bs, src as its bit patterns: loaded straight into an
// integer register, without a move from a floating-point one.
func bitsView(s kind) {
	p("bs := unsafe.Slice((*uint%d)(unsafe.Pointer(unsafe.SliceData(src))), len(src))", s.bits)
}

// bitsLoop is a loop over the bit patterns b of float or double src.
func bitsLoop(body string) string {
	return "for i, b := range bs {\n" + strings.TrimSpace(body) + "\n}"
}

// bitsLoop2 is bitsLoop unrolled by two, then the last element alone: one
// loop branch per two elements. On the GPU machine's Xeon the loop's
// compare-and-branch takes port 0 or 6, which the clamps' conditional moves
// and the shifts of the loops that are bound there share (rtp of float ->
// 8/16-bit and double -> 8..32-bit, then the rounded sum stepped: 5-9%
// faster unrolled in a sitting of 7 clconv bench runs against 7, s07 of
// docs/device/issue30-session36-xeon-go-l2). wideLoop, narrowLoop and
// halfRTELoop are unrolled too, and over src the int -> float loops of the
// directed modes (rangeLoop2; session 38, once stepBody's constants left the
// loop); long -> half measured no faster unrolled (s08 of session 36), and
// stays rolled.
func bitsLoop2(body string) string { return unroll2("bs", "b", body) }

// unroll2 is a loop over slice whose body converts the element named v into
// dst[i], unrolled by two, then the last element alone. Go's compiler proves
// every index of the unrolled body in range (dst is dst[:len(src)]), so it
// keeps no bounds check; the tail keeps one.
func unroll2(slice, v, body string) string {
	body = strings.TrimSpace(body)
	return fmt.Sprintf(`i := 0
for ; i < len(%[1]s)-1; i += 2 {
{
%[2]s := %[1]s[i]
%[3]s
}
{
i := i + 1
%[2]s := %[1]s[i]
%[3]s
}
}
for ; i < len(%[1]s); i++ {
%[2]s := %[1]s[i]
%[3]s
}`, slice, v, body)
}

// fastSlice writes the loops of slice<S>To<D> when the pair has a plan of its
// own, and reports whether it did.
func fastSlice(s, d kind) bool {
	existing := func(mm string) string { return rangeLoop("dst[i] = " + perModeExpr(s, d, mm)) }
	switch {
	case s.cl == d.cl:
		return false
	case s.cl == "half" && d.float:
		p("t := halfTo%sTable.get(len(src))", d.fn)
		scalarPath(s, d)
		p("for i, x := range src { dst[i] = t[x] }")
	case s.cl == "half":
		p("t := halfTo%sTables[modeIndex(m)].get(len(src))", d.fn)
		scalarPath(s, d)
		p("for i, x := range src { dst[i] = t[x] }")
	case !s.float && d.cl == "half":
		if s.bits == 8 {
			p("_ = sat")
			p("t := %sToHalfTables[modeIndex(m)].get(len(src))", lower(s.fn))
			p("for i, x := range src { dst[i] = t[uint8(x)] }")
			return true
		}
		p("t := intToHalfTables[modeIndex(m)].get(len(src))")
		scalarPath(s, d)
		intToHalfLoop(s)
	case s.float && d.float && s.bits > d.bits:
		p("_ = sat")
		if s.cl == "double" && d.cl == "float" {
			p("if m == round.RTE || m > round.RTN { // the hardware's own rounding")
			p("%s", existing("RTE"))
			p("return")
			p("}")
		}
		bitsView(s)
		modeLoops(func(mm string) string {
			if s.cl == "double" && d.cl == "float" && mm == "RTE" {
				return "" // above
			}
			return narrowLoop(s, d, mm)
		})
	case s.float && !d.float:
		p("_ = sat")
		bitsView(s)
		modeLoops(func(mm string) string { return floatToIntLoop(s, d, mm) })
	case !s.float && d.float:
		p("_ = sat")
		switch {
		case s.bits >= 32 && !(s.bits == 32 && d.cl == "double"):
			modeLoops(func(mm string) string {
				switch {
				case mm == "RTE" && s.bits == 64 && !(s.cl == "long" && d.cl == "double"):
					pre := "p := u64Bias\n"
					if d.cl == "double" {
						pre = "p := [2]float64{1, 2}\n"
					} else if s.signed {
						pre = longExactLim
					} else {
						pre += "lim := hide(uint64(1 << 53))\n"
					}
					return pre + rangeLoop2(jamBody(s, d))
				case mm == "RTE":
					// Go's conversion (int, uint -> float; long -> double)
					// rounds to nearest already.
					return existing(mm)
				case s.cl == "long" && d.cl == "float" && mm != "RTN":
					// rtn stays a shift (shiftBody), which is its rounding:
					// 42% slower this way on the GPU machine's Xeon.
					pre := longExactLim + "high := hide(^uint64(1<<29 - 1))\n"
					if mm == "RTZ" {
						pre = "lim35 := hide(int64(1 << 35))\nhigh := hide(^uint64(1<<29 - 1))\n"
					}
					if mm == "RTP" {
						pre += "low := hide(uint64(1<<29 - 1))\n"
						// Where Go's float32(x) is one instruction, a step
						// from it is 7 instructions shorter (docs/PERFORMANCE.md).
						return "if hwInt64ToFloat32 {\n" + stepConsts(s, d) + rangeLoop2(stepBody(s, d, mm)) +
							"} else {\n" + pre + rangeLoop2(clearBody(mm)) + "}\n"
					}
					return pre + rangeLoop2(clearBody(mm))
				case s.bits == 64 && !(s.cl == "long" && d.cl == "double" && mm != "RTN"):
					// p, a copy of the table on the stack: indexed there
					// without a nil check of a pointer.
					return fmt.Sprintf("p := scale%d\n", fmtOf(d).mant+1) + rangeLoop2(shiftBody(s, d, mm))
				}
				return stepConsts(s, d) + rangeLoop2(stepBody(s, d, mm))
			})
		default:
			return false // exact
		}
	default:
		return false
	}
	return true
}

// scalarPath writes the scalar loop that a slice kernel with a lazyTable t
// takes while t is nil.
func scalarPath(s, d kind) {
	p("if t == nil { // a short slice, and no table yet")
	p("for i, x := range src { dst[i] = %sTo%s(x, m, sat) }", lower(s.fn), d.fn)
	p("return")
	p("}")
}

// intToHalfLoop writes the loop that converts integer x through
// intToHalfTable, at index x+65535. A short or ushort is always in the
// table. A wider x is looked up at its low 17 bits, and where it is outside
// [-65535, 65535] the result is then replaced by that of -65535 or 65535
// (every integer of larger magnitude converts as these do). The selects
// come after the load, so Go's compiler makes them conditional moves (it
// keeps branches, and these are random, in a value that indexes a load):
// long -> half's loop is 15 instructions, against 20 with the branch-free
// clamp of the index that it replaced, and 1.8-2.7x below the median on the
// GPU machine's Xeon, was 2.7-3.7x (docs/PERFORMANCE.md, session 37).
func intToHalfLoop(s kind) {
	switch s.cl {
	case "short":
		p("for i, x := range src { dst[i] = t[uint32(int32(x)+65535)] }")
		return
	case "ushort":
		p("for i, x := range src { dst[i] = t[uint32(x)+65535] }")
		return
	}
	if s.signed {
		p("neg, pos := t[0], t[2*65535] // -65535 and 65535")
	} else {
		p("pos := t[2*65535] // 65535")
	}
	p("for i, x := range src {")
	p("k := uint64(x) + 65535")
	p("h := t[k&(1<<17-1)]")
	if s.signed {
		p("ov := pos")
		p("if x < 0 { ov = neg }")
		p("// outside [-65535, 65535]")
		p("if k > 2*65535 { h = ov }")
	} else {
		p("if x > 65535 { h = pos }")
	}
	p("dst[i] = h")
	p("}")
}

// halfRTELoop rounds float or double src (bit patterns bs) to half, to
// nearest with ties to even, by one addition in the source's format (the
// hardware's rounding, or Go's softfloat) and the low bits of the sum
// (halfRTE32, halfRTE64). Only a NaN's result is taken from its pattern by
// integer operations, and replaced after: a NaN's sum differs between
// processors. Go's compiler makes that a branch (its block loads), taken by
// the NaNs alone: 0.8% of the benchmark's input. Against the integer
// rounding of narrow64's rows it has no shift by CL and no tie fix-up:
// about 11 instructions an element for double, one of them a shift, against
// 18 with six micro-operations on the Xeon's shift ports (0 and 6). Double
// -> half rte 3.35x -> 1.94x below the median (s05 of
// docs/device/issue30-session38-xeon-go-l2).
func halfRTELoop(s kind) string {
	var c code
	sf := fmtOf(s)
	F := fmt.Sprintf("float%d", sf.w)
	c.w("j := b >> %d", sf.mant)
	c.w("h := uint16(math.Float%dbits(%s(src[i] + t.c[j]))) + t.base[j]", sf.w, F)
	c.w("if b<<1 > nan { h = (uint16(b>>%d) | 0x200) + t.nan[j] } // NaN", sf.mant-10)
	c.w("dst[i] = half.Half(h)")
	return fmt.Sprintf(`t := %sToHalfRTE.get(len(src))
if t == nil { // a short slice, and no table yet
for i, x := range src { dst[i] = %sToHalf(x, round.RTE, false) }
return
}
src := src[:len(bs)]
nan := hide(uint%d(%#x)) // above it, b<<1 is a NaN's
`, lower(s.fn), lower(s.fn), sf.w, uint64(1<<(sf.w-1-sf.mant)-1)<<(sf.mant+1)) + bitsLoop2(c.String())
}

// narrowLoop rounds float or double x (bit pattern b) to the narrower
// floating type d in directed mode mm with the columns of narrow32 or the
// rows of narrow64; rte to half is halfRTELoop's.
func narrowLoop(s, d kind, mm string) string {
	if mm == "RTE" { // to half: double -> float rte is the hardware's
		return halfRTELoop(s)
	}
	var c code
	tables := lower(s.fn) + "To" + d.fn + "Tables"
	sf, df := fmtOf(s), fmtOf(d)
	f := func(name string) string { return "t." + name + "[j]" } // a column
	if sf.w == 64 {
		f = func(name string) string { return "e." + name } // a row
		c.w("e := &t[b>>%d]", sf.mant)
	} else {
		c.w("j := b >> %d", sf.mant)
	}
	c.w("sh := %s & %d", f("sh"), sf.w-1)
	c.w("r := b + %s", f("add"))
	q := fmt.Sprintf("uint32((b+%s)>>%d)&%#x", f("nan"), sf.w-df.mant, 1<<(df.mant-1))
	e := fmt.Sprintf("%s + uint32(r>>sh) | %s", f("base"), q)
	if sf.w == 32 {
		e = fmt.Sprintf("%s + r>>sh | %s", f("base"), q)
	}
	if d.cl == "half" {
		c.w("dst[i] = half.Half(%s)", e)
	} else {
		c.w("dst[i] = math.Float32frombits(%s)", e)
	}
	// Unrolled by two (session 38; docs/device/issue30-session38-xeon-go-l2
	// has the sittings).
	loop := bitsLoop2(c.String())
	// The table is loaded once per loop, outside the inner loop.
	return fmt.Sprintf(`t := %s[%d].get(len(src))
if t == nil { // a short slice, and no table yet
for i, x := range src { dst[i] = %sTo%s(x, round.%s, false) }
return
}
`, tables, slices.Index(modeOrder, mm), lower(s.fn), d.fn, mm) + loop
}

// stepBody converts int or uint x to float, or long x to double, in directed
// mode mm: Go's conversion to nearest gives f, an exact comparison of that integral f with x tells on
// which side of x it lies, and a step of one unit of the bit pattern moves to
// the other neighbour where the mode wants it (toward zero is -1 and away
// from zero +1 for either sign, as float bits are sign and magnitude).
func stepBody(s, d kind, mm string) string {
	var c code
	w := fmtOf(d).w
	u := fmt.Sprintf("uint%d", w)
	// f and its bits in one statement: on a line of its own the inlined
	// math.Float%dbits, which compiles to nothing, left a NOP in the loop
	// (its inlining mark).
	F := "float64"
	if d.cl == "float" {
		F = "float32"
	}
	c.w("f, fb := %s(x), math.Float%dbits(%s(x))", F, w, F)
	// The comparison: int64(f) is exact below 2^63 in magnitude; f is 2^63
	// (above every long) only for x within half a unit of it (two63, from
	// stepConsts).
	above, below := "positive64(df)", "negative64(df)"
	if s.bits < 64 {
		c.w("df := int64(f) - int64(x) // exact: f is an integer below 2^33")
	} else {
		c.w("df := int64(f) - x")
		c.w("if fb == two63 { df = one } // 2^63")
	}
	if !s.signed {
		switch mm {
		case "RTP":
			c.w("fb += %s(%s)", u, below)
		default: // toward zero, which is toward -infinity too
			c.w("fb -= %s(%s)", u, above)
		}
	} else {
		c.w("sg := int64(x) >> 63 // 0 or -1")
		switch mm {
		case "RTZ": // |f| > |x|: toward zero
			c.w("fb -= %s(positive64((df ^ sg) - sg))", u)
		case "RTP": // f < x: toward +infinity, +1 above zero and -1 below
			c.w("fb += %s((negative64(df) ^ uint64(sg)) - uint64(sg))", u)
		case "RTN": // f > x: toward -infinity, -1 above zero and +1 below
			c.w("fb -= %s((positive64(df) ^ uint64(sg)) - uint64(sg))", u)
		}
	}
	c.w("dst[i] = math.Float%dfrombits(fb)", w)
	return c.String()
}

// stepConsts writes the constants of stepBody for a long or ulong source,
// loaded before the loop (hide): Go's compiler materializes them in every
// iteration otherwise.
func stepConsts(s, d kind) string {
	if s.bits < 64 {
		return ""
	}
	two63 := fmt.Sprintf("uint64(%#x)", math.Float64bits(0x1p63))
	if d.cl == "float" {
		two63 = fmt.Sprintf("uint32(%#x)", math.Float32bits(0x1p63))
	}
	return "two63 := hide(" + two63 + ")\none := hide(int64(1))\n"
}

// floatToIntLoop writes the loop that converts float or double src (bit
// patterns bs) to integer type d in mode mm: the rows of wideLoop where
// wideMode says so, and for the rest (float -> 8/16-bit and double ->
// 8..32-bit in rtz, rtp and rte, and rtn to the unsigned ones, which is rtz
// there) the bit pattern clamped and rounded by a sum, with the constants it
// uses loaded before the loop (hide: Go's compiler otherwise materializes
// every constant again in every iteration, one instruction each). NaN gives
// 0, by a conditional move: a branch on NaN costs a misprediction per NaN,
// and random input has them.
//
// The bit pattern is clamped first, which, rounding being monotonic, gives
// the same result as clamping after rounding: to a signed type with one
// signed min (the positive side, where the bits of larger values are larger
// integers; +NaN too) and one unsigned min (the negative side, -NaN too); to
// an unsigned type with one unsigned min, every negative pattern and NaN
// (above +inf as unsigned) going to 0. The limits are MAX and MIN as floats.
//
// Rounding, measured form by form (docs/PERFORMANCE.md, "Pure Go,
// 2026-11-26 (later)"): rtz is the conversion itself. Below 2^(p-1) in
// magnitude (p the stored significand bits), s = v + 1.5*2^p holds v
// rounded to nearest, ties to even, in its low bits (rte: one addition),
// and rtp steps that by one where the sign of s - 1.5*2^p - v says: that
// difference is exact or rounds away from zero, never to zero, so its sign
// is exact. Measured and not kept (docs/device/issue30-session36-xeon-go-l2,
// sittings s01 and s03): a comparison of s - 1.5*2^p with v, one
// instruction fewer, ran 4-9% slower on the GPU machine's Xeon (its SETcc
// and the compare take ports 0 and 6, which the clamp's conditional moves
// and the loop's branch already share); math.Ceil, exact on every port and
// one ROUNDSD on amd64 with SSE4.1, ran 25-50% slower there (double ->
// ulong rtp 3.5x -> 5.4x below the median): Go's compiler leaves ROUNDSD's
// merge into its destination register, a dependence from one iteration to
// the next, and ROUNDSD's latency is 8 cycles there.
func floatToIntLoop(s, d kind, mm string) string {
	if wideMode(s, d, mm) {
		return wideLoop(s, d, mm)
	}
	var pre, c code
	sf := fmtOf(s)
	w := sf.w
	if mm == "RTN" && !d.signed {
		mm = "RTZ"
	}
	if d.bits >= 64 || w == 32 && d.bits > 16 || mm == "RTN" {
		panic(fmt.Sprintf("floatToIntLoop: no plan for %s -> %s %s", s.cl, d.cl, mm))
	}
	U, I, F := fmt.Sprintf("uint%d", w), fmt.Sprintf("int%d", w), fmt.Sprintf("float%d", w)
	inf := uint64(1<<(w-1-sf.mant)-1) << sf.mant
	bitsOf := func(v float64) string {
		if w == 32 {
			return fmt.Sprintf("%#x", math.Float32bits(float32(v)))
		}
		return fmt.Sprintf("%#x", math.Float64bits(v))
	}
	tobits := fmt.Sprintf("math.Float%dbits", w)
	konst := func(name, typ, val string) { pre.w("%s := hide(%s(%s))", name, typ, val) }
	konst("hi", U, bitsOf(float64(d.maxU())))
	// 0 in a register: a constant 0 is set again in every iteration.
	konst("zero", U, "0")
	if d.signed {
		konst("lo", U, bitsOf(float64(d.minI())))
		konst("nan", U, fmt.Sprintf("%#x", inf<<1))
		c.w("c := %s(min(%s(b), %s(hi))) // above MAX, and +NaN: MAX", U, I, I)
		c.w("c = min(c, lo) // below MIN, and -NaN: MIN")
		c.w("// NaN gives 0")
		c.w("if b<<1 > nan { c = zero }")
	} else {
		konst("inf", U, fmt.Sprintf("%#x", inf))
		c.w("c := min(b, hi)")
		c.w("// NaN, or below zero, gives 0")
		c.w("if b > inf { c = zero }")
	}
	c.w("v := math.Float%dfrombits(c)", w)
	if mm == "RTZ" {
		c.w("dst[i] = %s(v)", d.goT)
		return pre.String() + bitsLoop(c.String())
	}
	if mm == "RTP" {
		// The row of b, not of c: an index computed by the conditional
		// moves would make Go's compiler branch instead (it keeps branches
		// in a value that indexes a load).
		c.w("dst[i] = %s(%s(v + t[(b-1)>>%d])) // truncated: rounded up", d.goT, F, sf.mant)
		return fmt.Sprintf(`t := rtpRows%d.get(len(src))
if t == nil { // a short slice, and no table yet
for i, x := range src { dst[i] = %sTo%s(x, round.RTP, false) }
return
}
`, w, lower(s.fn), d.fn) + pre.String() + bitsLoop2(c.String())
	}
	konst("mg", F, fmt.Sprintf("0x1.8p%d", sf.mant))
	c.w("s := v + mg // v rounded to nearest in the low bits")
	c.w("dst[i] = %s(%s(s))", d.goT, tobits)
	return pre.String() + bitsLoop(c.String())
}

// usesWide reports whether a conversion from s to d has wideLoop loops:
// float and double to every integer type.
func usesWide(s, d kind) bool {
	return (s.cl == "float" || s.cl == "double") && !d.float
}

// wideMode reports whether mode mm of the conversion from s to d is a
// wideLoop: every mode to long and ulong, and from float to int and uint,
// where every value of a row (sign and exponent) rounds into the range or
// lies out of it (float has no fraction from 2^23 up); and rtn to the
// narrower signed types, which rounds no value up past MAX (below MIN the
// row saturates to MIN, which rounding toward zero or up from there gives
// too). Their other modes keep floatToIntLoop's clamped bit pattern and
// 1.5*2^p sum: fewer operations than the rows and a clamp of what rounds
// up to MAX+1 (rtp 1.05 -> 0.93 G elements/s that way, measured).
func wideMode(s, d kind, mm string) bool {
	if !usesWide(s, d) {
		return false
	}
	return d.bits == 64 || s.cl == "float" && d.bits == 32 || mm == "RTN" && d.signed
}

// wideLoop converts float or double src (bit patterns bs) to long or ulong
// in mode mm with the rows of wide32 or wide64: the value is rounded in
// floating point (rte), or plus the row's addend (rtp, rtn: rowAdd), and
// converted once, truncating; the row's keep and sat and the NaN test (with
// zero in rtp and rtn, whose row adds 1) put the saturated results in
// without a branch. Every
// conversion is of a value in range; where the row is out of range the
// conversion's result, which Go leaves to the hardware, is masked away.
func wideLoop(s, d kind, mm string) string {
	var c code
	sf := fmtOf(s)
	w := sf.w
	tables := lower(s.fn) + "To" + d.fn + "Tables"
	mode := mm
	c.w("j := b >> %d", sf.mant)
	c.w("v := src[i]")
	if mm == "RTN" && !d.signed {
		mm = "RTZ" // the negative rows saturate to 0
	}
	F := fmt.Sprintf("float%d", w)
	nan := uint64(1<<(w-1-sf.mant)-1) << (sf.mant + 1) // above it, b<<1 is a NaN's
	switch mm {
	case "RTZ":
		if d.signed {
			c.w("q := int64(v)")
		} else {
			c.w("q := int64(%s(v + t.f[j]))", F)
		}
	case "RTP", "RTN":
		c.w("q := int64(%s(v + t.f[j])) // truncated: rounded in the mode", F)
	default:
		c.w("q := int64(v + t.f[j] - t.g[j]) // rounded to nearest, ties to even")
	}
	c.w("q = q&int64(t.keep[j]) | int64(t.sat[j])")
	test := "nan := hide(uint%d(%#x)) // above it, b<<1 is a NaN's"
	if mm == "RTP" || mm == "RTN" {
		// Zero's row adds 1 (or -1): zero is sent with the NaNs. Written
		// so, Go's compiler tests the carry flag alone (CMOVCS, where
		// b<<1-1 >= nan took CMOVLS: two micro-operations on Intel).
		c.w("if x := b<<1 - 1; nan < x { q = zero } // NaN, and ±0")
		nan--
		test = "nan := hide(uint%d(%#x)) // above it, b<<1-1 is a NaN's or a zero's"
	} else {
		c.w("if b<<1 > nan { q = zero }")
	}
	c.w("dst[i] = %s(q)", d.goT)
	return fmt.Sprintf(`t := %s[%d].get(len(src))
if t == nil { // a short slice, and no table yet
for i, x := range src { dst[i] = %sTo%s(x, round.%s, false) }
return
}
src := src[:len(bs)]
`+test+`
zero := hide(int64(0)) // in a register, not set again for every element
`, tables, slices.Index(modeOrder, mode), lower(s.fn), d.fn, mode, w, nan) + bitsLoop2(c.String())
}

// shiftBody converts long or ulong x to float or double in directed mode mm
// by shifting it right by sh = l-p (l the length of its magnitude, p the
// precision, when positive) so that it converts exactly, and scaling the
// conversion by 2^sh: a multiplication by a power of two, exact, by the
// entry l of scale24 or scale53 (one load and one multiplication, where
// putting sh into the result's exponent field took a move out of the
// floating-point register, a shift and an addition; indexed by l, whose
// range Go's compiler knows, the load needs no bounds check or mask). A
// signed x takes only rtn here, the arithmetic shift's own rounding for
// either sign (its rtz and rtp are clearBody's and stepBody's). An unsigned
// x shifts as it is, and rounds up as ((x-1)>>sh)+1 (0 for x = 0).
//
// The length l is that of x^(x>>63), |x|-1 below zero, which is one less
// where |x| is a power of two 2^j: then the shifted value is -2^p, which
// converts exactly. Bit p-1 is set in the operand of the length, so that l
// is at least p and the shift needs no max, and so that Go's compiler knows
// the operand is not zero and leaves out the conditional move for that
// case (for double, whose 1<<52 is no 32-bit immediate, the operand is
// shifted right by 22 and ORed with 1<<30: an OR with a 64-bit constant
// becomes BTS, after which the compiler no longer knows). BSR keeps its
// destination where the source is zero, so it waits for that register's
// previous value: of bits.Len64(a) the compiler wrote the result into the
// register of the previous element's shift, and each element waited for the
// one before (ulong -> float rtz 2.65 ns per element, 1.33 with the bit set,
// on the project's 2-core Xeon); the temporary dies at BSR, which then
// writes its own register.
func shiftBody(s, d kind, mm string) string {
	var c code
	df := fmtOf(d)
	prec := df.mant + 1
	conv := "float32(int32(t))" // exact: |t| <= 2^24
	length := func(v string) string { return fmt.Sprintf("bits.Len64(%s | 1<<23)", v) }
	if d.cl == "double" {
		conv = "float64(t)" // exact: |t| <= 2^53
		length = func(v string) string { return fmt.Sprintf("bits.Len64(%s>>22|1<<30) + 22", v) }
	}
	if s.signed {
		c.w("m := x >> 63 // 0 or -1")
		c.w("l := %s", length("uint64(x ^ m)"))
		c.w("sh := uint(l - %d)", prec)
		if mm != "RTN" {
			// long -> float rtz and rtp are clearBody's and stepBody's.
			panic("shiftBody: a signed source rounds only toward -infinity here")
		}
		c.w("t := x >> sh")
	} else {
		c.w("l := %s", length("x"))
		c.w("sh := uint(l - %d)", prec)
		if mm == "RTP" {
			c.w("t := int64((x-1)>>sh + 1)")
		} else {
			c.w("t := int64(x >> sh)")
		}
	}
	c.w("dst[i] = %s * p[l]", conv)
	return c.String()
}

// clearBody converts long x to float in directed mode mm through an exact
// float64: x itself below 2^53 in magnitude, from there x rounded to odd at
// bit 11 (jamBody: 2^13 times finer than float's spacing, so the directed
// rounding to float is the same); for rtz x itself below 2^35, from there x
// truncated toward zero at bit 11 (float keeps bits from 12 up there). The float64's bit pattern, sign and
// magnitude, is rounded to float's 24 bits by clearing its low 29 bits
// (rtz: toward zero in magnitude), after adding 2^29-1 above zero for rtp
// (a carry into the exponent is the next power of two); the result converts
// to float exactly. Against shiftBody's shift by the length: no bits.Len64,
// no shift by CL and no table, fewer of the operations that the Xeon's
// ports 0 and 6 share (shifts, conditional moves, branches). On the GPU
// machine's Xeon, sittings of 7 runs against 7: on an H100's host rtz
// 3.61x -> 3.04x below the median and rtp 3.95x -> 3.66x; on an H200's
// host rtz 3.41x -> 3.42x and rtp 3.62x -> 4.02x. Code placement alone
// moves these loops by 10-20% there (an unsigned comparison in place of
// the select's shift and exclusive or, three instructions fewer, measured
// rtp 3.88x -> 4.71x, and loops it did not touch 8-12% slower), so the two
// forms are not told apart; this one has fewer instructions. rtn, a shift
// alone in shiftBody, went 2.60x -> 3.70x this way and stays there.
func clearBody(mm string) string {
	var c code
	if mm == "RTZ" {
		// Truncated toward zero at bit 11 from 2^35 up, where float keeps
		// bits from 12 up: exact in float64, and no sticky bit to keep (the
		// mask truncates). One operation fewer than rounding to odd: 5%
		// faster on the AMD EPYC (session 38).
		c.w("m := x >> 63 // 0 or -1")
		c.w("w := (x + m&0x7ff) &^ 0x7ff // toward zero at bit 11")
		c.w("if x^m < lim35 { w = x }")
	} else {
		longExact(&c)
	}
	c.w("db := math.Float64bits(float64(w))")
	switch mm {
	case "RTP":
		c.w("db += low &^ uint64(m) // the magnitude up above zero")
	}
	c.w("dst[i] = float32(math.Float64frombits(db & high)) // exact")
	return c.String()
}

// longExact writes w, long x made exact in float64 for a rounding to
// float (jamBody, clearBody): x below 2^53 in magnitude, from there x
// rounded to odd at bit 11; and m, x's sign as 0 or -1. The loop's
// prelude holds lim (longExactLim).
func longExact(c *code) {
	c.w("w := (x | (x&0x7ff + 0x7ff)) &^ 0x7ff // rounded to odd at bit 11")
	c.w("m := x >> 63 // 0 or -1")
	c.w("// below 2^53 in magnitude x is exact")
	c.w("if x^m < lim { w = x }")
}

// longExactLim is the prelude of longExact's loops.
const longExactLim = "lim := hide(int64(1 << 53))\n"

// jamBody converts long or ulong x to float, or ulong x to double, rounding
// to nearest (ties to even) with one correctly rounded float64 -> float32
// conversion or one int64 -> float64 conversion in hardware (or Go's
// softfloat), after integer steps that make the value exact in float64 or
// round it to odd, which makes the final rounding the direct one (Boldo and
// Melquiond, IEEE TC 2008: the odd grid must be at least two bits finer than
// the result's):
//   - to float: below 2^53 in magnitude x is exact in float64; from 2^53 up
//     its bits below 11 are cleared and bit 11 ORed with their sticky bit
//     (rounding to odd at 2^11, which is exact in float64 below 2^64, and 2^13
//     times finer than float's spacing there; for negative x in two's
//     complement that is the floor with the odd bit set, the same
//     magnitude). A ulong from 2^63 up converts as int64, 2^64 less, exactly,
//     and adds 2^64 back in float64, exactly;
//   - ulong to double: from 2^63 up, x/2 rounded to odd at bit 0 (10 bits
//     below double's spacing there) converts, and doubles exactly.
func jamBody(s, d kind) string {
	var c code
	if d.cl == "double" {
		c.w("w := x>>1 | x&1 // halved, rounded to odd")
		c.w("k := x >> 63")
		c.w("if k == 0 { w = x }")
		c.w("dst[i] = float64(int64(w)) * p[k] // 2^k")
		return c.String()
	}
	if s.signed {
		longExact(&c)
		c.w("dst[i] = float32(float64(w))")
	} else {
		c.w("w := (x | (x&0x7ff + 0x7ff)) &^ 0x7ff // rounded to odd at bit 11")
		c.w("// below 2^53 x is exact")
		c.w("if x < lim { w = x }")
		c.w("dst[i] = float32(float64(int64(w)) + p[x>>63]) // 2^64 back from 2^63 up")
	}
	return c.String()
}
