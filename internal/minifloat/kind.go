package minifloat

import "github.com/clconv/clconv/cltype"

// OfKind returns the row of a floating kind: bfloat16, e4m3 and e5m2, and
// half, float and double as Binary16, Binary32 and Binary64; nil for any
// other kind.
func OfKind(k cltype.Kind) *Format {
	switch k {
	case cltype.BFloat16:
		return BFloat16
	case cltype.E4M3:
		return E4M3
	case cltype.E5M2:
		return E5M2
	case cltype.Half:
		return Binary16
	case cltype.Float:
		return Binary32
	case cltype.Double:
		return Binary64
	}
	return nil
}
