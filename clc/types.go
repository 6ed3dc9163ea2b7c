package clc

import (
	"github.com/clconv/clconv/cltype"
)

// Type helpers for the checker. A cltype.Type with Kind Invalid stands for
// void. bool is a scalar arithmetic type of the lowest rank, as in C.

func isVoid(t cltype.Type) bool { return t.Kind == cltype.Invalid }

func typeString(t cltype.Type) string {
	if isVoid(t) {
		return "void"
	}
	return t.String()
}

// promoteKind applies C's integer promotions: char, uchar, short, ushort and
// bool become int.
func promoteKind(k cltype.Kind) cltype.Kind {
	switch k {
	case cltype.Char, cltype.Uchar, cltype.Short, cltype.Ushort, cltype.Bool:
		return cltype.Int
	}
	return k
}

// promoteType promotes a scalar type; vectors are not promoted in OpenCL C.
func promoteType(t cltype.Type) cltype.Type {
	if t.N == 1 {
		return cltype.Scalar(promoteKind(t.Kind))
	}
	return t
}

// intRank is C's integer conversion rank (bool lowest; signed and unsigned
// of one size share a rank).
func intRank(k cltype.Kind) int {
	if k == cltype.Bool {
		return 0
	}
	return k.Size()
}

// commonKind is the type the usual arithmetic conversions (C99 6.3.1.8) give
// two promoted scalar kinds: the wider floating kind if either is floating,
// else by rank, preferring the unsigned kind at equal rank and the signed
// kind when it is wider.
func commonKind(a, b cltype.Kind) cltype.Kind {
	for _, f := range []cltype.Kind{cltype.Double, cltype.Float, cltype.Half} {
		if a == f || b == f {
			return f
		}
	}
	if a == b {
		return a
	}
	if a.IsSigned() == b.IsSigned() {
		if a.Size() >= b.Size() {
			return a
		}
		return b
	}
	u, s := a, b
	if a.IsSigned() {
		u, s = b, a
	}
	if u.Size() >= s.Size() {
		return u
	}
	return s // the signed kind is wider, so it holds every value of u
}

// signedOfSize returns the signed integer kind of the given byte size: the
// element type of a vector comparison's result (half compares to short,
// float to int, double to long).
func signedOfSize(size int) cltype.Kind {
	switch size {
	case 1:
		return cltype.Char
	case 2:
		return cltype.Short
	case 8:
		return cltype.Long
	}
	return cltype.Int
}

// truthType is the type of a comparison's, a logical operator's or !'s
// result on operands of type t: int for scalars, the signed integer vector of
// t's element size for vectors.
func truthType(t cltype.Type) cltype.Type {
	if t.N == 1 {
		return cltype.Scalar(cltype.Int)
	}
	return cltype.Vec(signedOfSize(t.Kind.Size()), t.N)
}

// scalarRankTooHigh reports whether a scalar of kind s may not be widened to
// a vector with element kind e: OpenCL C 6.2.6 (2.0; Clang applies it in
// every version) forbids a scalar of greater rank than the element type, and
// a floating scalar with an integer vector. Clang compares integer kinds by
// its integer type order, in which an unsigned kind outranks the signed kind
// of its size (C99's rank makes them equal): short4 + (ushort)1 is an error
// in Clang, and so in every compiler built on it, so it is one here too
// (the differential harness found the difference, docs/LANGUAGE.md).
func scalarRankTooHigh(s, e cltype.Kind) bool {
	switch {
	case e.IsFloat() && s.IsFloat():
		return s.Size() > e.Size()
	case e.IsFloat():
		return false
	case s.IsFloat():
		return true
	case intRank(s) == intRank(e):
		return s != cltype.Bool && !s.IsSigned() && e.IsSigned()
	}
	return intRank(s) > intRank(e)
}
