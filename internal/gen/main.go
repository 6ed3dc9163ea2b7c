// Command gen writes convert/zconv.go, the per-type-pair conversion code, from
// one table of the eleven OpenCL C scalar types. Run it with go generate.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math"
	"os"
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
	// no branch to mispredict on data that straddles the range.
	v := "x"
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
	flag.Parse()
	p("// Code generated by go run ../internal/gen; DO NOT EDIT.")
	p("")
	p("package convert")
	p("")
	p("import (")
	p(`"math"`)
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
				p("slice%sTo%s(dd, ss, m, sat)", s.fn, d.fn)
				p("lo, hi := fitBounds%s(m)", d.fn)
				p("for i, x := range ss {")
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
	p("panic(\"convert: invalid kind \" + src.String() + \" -> \" + dst.String())")
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
	p("panic(\"convert: invalid kind \" + src.String() + \" -> \" + dst.String())")
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
	p("panic(\"convert: invalid kind \" + src.String() + \" -> \" + dst.String())")
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
	p("panic(\"convert: invalid kind \" + src.String() + \" -> \" + dst.String())")
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
