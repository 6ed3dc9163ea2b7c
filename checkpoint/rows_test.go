package checkpoint

import "testing"

// TestLayoutRows: every row is complete, its roles are its own, and every
// action of a layout has its kernel.
func TestLayoutRows(t *testing.T) {
	seen := map[role]string{}
	for i := range layoutRows {
		r := &layoutRows[i]
		if r.kind == "" || r.find == nil || r.describe == nil || r.planDequant == nil || r.dequant == nil ||
			r.quantizes == nil || r.planQuant == nil || r.quantize == nil || r.config == nil || len(r.quantActs) == 0 {
			t.Errorf("row %d (%s) is incomplete: %+v", i, r.kind, r)
		}
		for _, ro := range []role{r.weight, r.scale} {
			if ro == rolePlain || seen[ro] != "" {
				t.Errorf("row %s: role %d is plain or also %s's", r.kind, ro, seen[ro])
			}
			seen[ro] = r.kind
			if rowOf(ro) != r {
				t.Errorf("rowOf(%d) is not row %s", ro, r.kind)
			}
		}
		if kernel(r.dequantAct) == nil {
			t.Errorf("row %s: no kernel for %v", r.kind, r.dequantAct)
		}
		for _, a := range r.quantActs {
			if kernel(a) == nil {
				t.Errorf("row %s: no kernel for %v", r.kind, a)
			}
		}
	}
	for _, a := range []Action{ActKeep, ActConvert, ActScaleOut, ActDropScale} {
		if kernel(a) != nil {
			t.Errorf("%v has a layout kernel", a)
		}
	}
	if rowOf(rolePlain) != nil {
		t.Error("a plain tensor has a layout row")
	}
}
