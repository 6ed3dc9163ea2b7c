package checkpoint

import (
	"sort"

	"github.com/clconv/clconv/safetensors"
)

// Layout is one block-scaled weight of a checkpoint as Layouts finds it.
type Layout struct {
	// Kind names the layout: "fp8" (DeepSeek-V3 or compressed-tensors),
	// "mxfp4" (gpt-oss; another MX format when __metadata__ says so),
	// "nvfp4" (ModelOpt), or "incomplete".
	Kind string `json:"kind"`
	// Weight is the weight's tensor (the blocks tensor for MX), Scales its
	// scale tensors.
	Weight string   `json:"weight"`
	Scales []string `json:"scales,omitempty"`
	// Block is the block each scale covers, rows x columns, where the
	// shapes (and config.json) give it.
	Block []int `json:"block,omitempty"`
	// Problem says what is wrong with an incomplete layout: converting it
	// is an error (Options.KeepRaw keeps it byte for byte).
	Problem string `json:"problem,omitempty"`
	// Dequantized is the range of the dequantized weight, where the caller
	// asked for it (DequantizedRanges; clconv inspect --stats).
	Dequantized *Range `json:"dequantized,omitempty"`
}

// Layouts lists the block-scaled weights of the checkpoint made of files,
// as a conversion sees them: each weight with its scales and block size,
// and each incomplete layout with its problem. configDir, if not "", is
// the directory whose config.json gives the FP8 block size.
func Layouts(files []*safetensors.File, configDir string) ([]Layout, error) {
	var opt Options
	if configDir != "" {
		if err := readConfig(configDir, &opt); err != nil {
			return nil, err
		}
	}
	all, err := index(files)
	if err != nil {
		return nil, err
	}
	roles, probs := layouts(all, opt.fp8Config)
	var out []Layout
	for name, m := range roles {
		if m.weight != name {
			continue
		}
		t := all[name].t
		var l Layout
		l.Weight = name
		switch m.role {
		case roleFP8:
			s, _ := fp8Scale(all, name)
			l.Kind, l.Scales = "fp8", []string{s.t.Name}
			if blk, err := fp8Block(t, s.t, opt.WeightBlockSize); err == nil {
				l.Block = blk[:]
			} else {
				l.Kind, l.Problem = "incomplete", err.Error()
			}
		case roleMX:
			sc, base, _ := mxPair(all, t)
			l.Kind, l.Scales, l.Block = "mxfp4", []string{sc.t.Name}, []int{1, 32}
			if f, _, err := mxShape(all[name], sc.t, base); err == nil {
				l.Kind, l.Block = f.Name, []int{1, f.BlockSize}
			} else {
				l.Kind, l.Problem = "incomplete", err.Error()
			}
		case roleNV:
			l.Kind, l.Scales, l.Block = "nvfp4", []string{name + "_scale", name + "_scale_2"}, []int{1, 16}
		default:
			continue
		}
		out = append(out, l)
	}
	for _, p := range probs {
		out = append(out, Layout{Kind: "incomplete", Weight: p.tensor, Scales: []string{p.partner}, Problem: p.why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Weight < out[j].Weight })
	return out, nil
}
