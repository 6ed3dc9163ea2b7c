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
	all, err := index(inputsOf(files, nil))
	if err != nil {
		return nil, err
	}
	roles, probs := layouts(all, opt.fp8Config)
	var out []Layout
	for name, m := range roles {
		if m.weight != name {
			continue
		}
		r := rowOf(m.role)
		if r == nil {
			continue
		}
		l := Layout{Weight: name}
		r.describe(&l, all, all[name], &opt)
		out = append(out, l)
	}
	for _, p := range probs {
		out = append(out, Layout{Kind: "incomplete", Weight: p.tensor, Scales: []string{p.partner}, Problem: p.why})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Weight < out[j].Weight })
	return out, nil
}
