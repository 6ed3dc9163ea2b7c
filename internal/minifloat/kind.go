package minifloat

import "github.com/clconv/clconv/cltype"

// OfKind returns the row of a floating kind: the small formats bfloat16,
// e4m3, e5m2, e2m1, e2m3, e3m2, e8m0, e4m3fnuz and e5m2fnuz, and half, float and double as
// Binary16, Binary32 and Binary64; nil for any other kind.
func OfKind(k cltype.Kind) *Format {
	switch k {
	case cltype.BFloat16:
		return BFloat16
	case cltype.E4M3:
		return E4M3
	case cltype.E5M2:
		return E5M2
	case cltype.E2M1:
		return E2M1
	case cltype.E2M3:
		return E2M3
	case cltype.E3M2:
		return E3M2
	case cltype.E8M0:
		return E8M0
	case cltype.E4M3FNUZ:
		return E4M3FNUZ
	case cltype.E5M2FNUZ:
		return E5M2FNUZ
	case cltype.Half:
		return Binary16
	case cltype.Float:
		return Binary32
	case cltype.Double:
		return Binary64
	}
	return nil
}
