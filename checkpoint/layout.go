package checkpoint

// Which tensors belong to a block-scaled layout, and which layouts are
// incomplete. A weight whose scale is missing, or a scale whose weight is,
// is never converted as if it were plain data: that would write wrong values
// without a word (docs/SAFETENSORS.md).

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clconv/clconv/safetensors"
)

// role is what a tensor is in a block-scaled layout.
type role uint8

const (
	rolePlain    role = iota
	roleFP8           // an FP8 weight with its scale
	roleFP8Scale      // the scale of an FP8 weight
	roleMX            // MX blocks with their scales
	roleMXScales      // the scales of MX blocks
	roleNV            // an NVFP4 weight with its two scales
	roleNVScale       // an NVFP4 block scale or tensor scale
)

// member is a tensor's place in a layout: its role and the name of the
// layout's weight (the blocks tensor for MX).
type member struct {
	role   role
	weight string
}

// problem is an incomplete layout: tensor is a part of it whose partner
// (missing, or of the wrong dtype) is partner.
type problem struct {
	tensor, partner string
	why             string
}

// scale reports whether member m is a scale.
func (m member) scale() bool {
	r := rowOf(m.role)
	return r != nil && r.scale == m.role
}

// layouts classifies every tensor of all, row by row of layoutRows, and
// lists the incomplete layouts. fp8Config names the config.json that says
// the checkpoint's FP8 weights are block-quantized ("" when none does): an
// FP8 tensor without a scale is then a problem, as it is when any other FP8
// weight of the checkpoint has one.
func layouts(all map[string]source, fp8Config string) (map[string]member, []problem) {
	roles := map[string]member{}
	var probs []problem
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	for i := range layoutRows {
		probs = append(probs, layoutRows[i].find(names, all, roles, fp8Config)...)
	}
	return roles, probs
}

// findMX finds MX blocks and their scales (gpt-oss): "X.blocks" and
// "X.scales" (or "_blocks", "_scales"), both U8.
func findMX(names []string, all map[string]source, roles map[string]member, _ string) []problem {
	var probs []problem
	for _, n := range names {
		t := all[n].t
		for _, sep := range []string{".", "_"} {
			if base, ok := strings.CutSuffix(n, sep+"blocks"); ok && t.DType == safetensors.U8 {
				sc := base + sep + "scales"
				if s, ok := all[sc]; ok && s.t.DType == safetensors.U8 {
					roles[n] = member{roleMX, n}
					roles[sc] = member{roleMXScales, n}
				} else {
					probs = append(probs, problem{n, sc, fmt.Sprintf("is MXFP4 blocks (U8 %s) but its scales %q %s", ShapeString(t.Shape), sc, missingOr(all, sc, "U8"))})
				}
			}
		}
	}
	for _, n := range names {
		t := all[n].t
		for _, sep := range []string{".", "_"} {
			if base, ok := strings.CutSuffix(n, sep+"scales"); ok && t.DType == safetensors.U8 {
				if _, paired := roles[n]; !paired {
					bl := base + sep + "blocks"
					probs = append(probs, problem{n, bl, fmt.Sprintf("is MX scales (U8 %s) but its blocks %q %s", ShapeString(t.Shape), bl, missingOr(all, bl, "U8"))})
				}
			}
		}
	}
	return probs
}

// findNV finds NVFP4 weights (ModelOpt): a U8 weight X with X_scale
// (F8_E4M3) and X_scale_2 (F32).
func findNV(names []string, all map[string]source, roles map[string]member, _ string) []problem {
	var probs []problem
	for _, n := range names {
		t := all[n].t
		if t.DType != safetensors.U8 {
			continue
		}
		if _, done := roles[n]; done {
			continue
		}
		s, ok1 := all[n+"_scale"]
		s2, ok2 := all[n+"_scale_2"]
		ok1 = ok1 && s.t.DType == safetensors.F8_E4M3
		ok2 = ok2 && s2.t.DType == safetensors.F32
		switch {
		case ok1 && ok2:
			roles[n] = member{roleNV, n}
			roles[n+"_scale"] = member{roleNVScale, n}
			roles[n+"_scale_2"] = member{roleNVScale, n}
		case ok1:
			probs = append(probs, problem{n, n + "_scale_2", fmt.Sprintf("is an NVFP4 weight (U8 with the E4M3 block scales %q) but its tensor scale %q %s", n+"_scale", n+"_scale_2", missingOr(all, n+"_scale_2", "F32"))})
			roles[n+"_scale"] = member{roleNVScale, n}
		case ok2:
			probs = append(probs, problem{n, n + "_scale", fmt.Sprintf("is an NVFP4 weight (U8 with the tensor scale %q) but its block scales %q %s", n+"_scale_2", n+"_scale", missingOr(all, n+"_scale", "F8_E4M3"))})
			roles[n+"_scale_2"] = member{roleNVScale, n}
		}
	}
	return probs
}

// findFP8 finds FP8 weights and their scales (DeepSeek-V3's _scale_inv,
// compressed-tensors' _scale).
func findFP8(names []string, all map[string]source, roles map[string]member, fp8Config string) []problem {
	var probs []problem
	anyScaled := false
	var bare []string
	for _, n := range names {
		t := all[n].t
		if !isFP8(t.DType) {
			continue
		}
		if _, done := roles[n]; done {
			continue // an NVFP4 block scale
		}
		if s, ok := fp8Scale(all, n); ok {
			roles[n] = member{roleFP8, n}
			roles[s.t.Name] = member{roleFP8Scale, n}
			anyScaled = true
		} else {
			bare = append(bare, n)
		}
	}
	if anyScaled || fp8Config != "" {
		why := "other FP8 weights of the checkpoint have scales"
		if fp8Config != "" {
			why = fp8Config + " says the FP8 weights are block-quantized"
		}
		for _, n := range bare {
			probs = append(probs, problem{n, n + "_scale_inv", fmt.Sprintf("is an FP8 weight (%s %s) without a scale (%q or %q) and %s", all[n].t.DType, ShapeString(all[n].t.Shape), n+"_scale_inv", n+"_scale", why)})
		}
	}
	return probs
}

// missingOr says why partner p does not complete a layout.
func missingOr(all map[string]source, p, dtype string) string {
	s, ok := all[p]
	if !ok {
		return "is missing"
	}
	return fmt.Sprintf("is %s, not %s", s.t.DType, dtype)
}
