package checkpoint

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/clconv/clconv/cltype"
	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// IndexSuffix ends the name of a sharded checkpoint's index
// ("model.safetensors.index.json").
const IndexSuffix = ".safetensors.index.json"

// ConvertFile converts the safetensors file src into the new file dst,
// atomically: dst appears only when every tensor is written and the file
// reads back as meant (re-read by package safetensors' reader), and an
// error or a cancellation leaves no partial file and no temporary one. An
// existing dst is replaced only when replace is set, and only when it is a
// regular file that is not src (CheckOutput). A config.json beside src
// gives the FP8 weight block size; Options.WeightBlockSize, when set, must
// agree with it.
func ConvertFile(ctx context.Context, dst, src string, replace bool, opt Options) (*Report, error) {
	if opt.MaxShardSize > 0 {
		return nil, fmt.Errorf("checkpoint: MaxShardSize cuts a checkpoint directory's output into shards (ConvertCheckpoint); %s is one file", src)
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	// Read as a safetensors file, an index's JSON would fail with a
	// meaningless header length.
	if fi, err := os.Stat(src); err == nil && (fi.IsDir() || strings.HasSuffix(src, IndexSuffix)) {
		return nil, fmt.Errorf("checkpoint: %s is a checkpoint directory or index, not a safetensors file: use ConvertCheckpoint", src)
	}
	if err := regularFile(src); err != nil {
		return nil, err
	}
	if err := CheckOutput(dst, []string{src}, false, replace); err != nil {
		return nil, err
	}
	if err := readConfig(filepath.Dir(src), &opt); err != nil {
		return nil, err
	}
	f, err := Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return writeAtomic(ctx, dst, FromSafetensors(f, src), replace, opt)
}

// writeAtomic converts in into the file dst through fileconv's atomic
// output: dst appears only once every tensor is written and the file reads
// back as meant (a .npy file when opt.npy), and an error or a cancellation
// leaves neither dst nor a temporary file.
func writeAtomic(ctx context.Context, dst string, in *Input, replace bool, opt Options) (*Report, error) {
	out, err := fileconv.CreateAtomic(dst, replace)
	if err != nil {
		return nil, err
	}
	var rep *Report
	out.Verify = func(tmp string) error {
		if opt.npy {
			return verifyNPY(tmp, rep)
		}
		return VerifyFile(tmp, rep)
	}
	rep, err = convertInputs(ctx, out, in, nil, opt)
	if err == nil {
		err = ctx.Err()
		if err != nil {
			err = context.Cause(ctx)
		}
	}
	if err == nil {
		err = out.Commit()
	}
	if err != nil {
		out.Abort()
		return nil, nameErr(in.Path, dst, err)
	}
	rep.Warnings = append(globWarnings(&opt, []*Input{in}), rep.Warnings...)
	return rep, nil
}

// same reports whether the paths a and b name the same existing file.
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// nameErr names the file an error concerns: dst for a failure to write,
// src for the rest (bad data, a failure to read).
func nameErr(src, dst string, err error) error {
	var we *fileconv.WriteError
	var oe *outputError
	switch {
	case errors.As(err, &oe), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &we):
		return fileErr(dst, err)
	}
	return fileErr(src, err)
}

// Shards returns the shard files of the checkpoint at src, relative to dir:
// src is a directory (with one *.safetensors.index.json, or else its
// *.safetensors files) or an index file. index is the index's path, "" when
// there is none.
func Shards(src string) (dir, index string, shards []string, err error) {
	l, err := listShards(src)
	if err != nil {
		return "", "", nil, err
	}
	return l.dir, l.index, l.shards, nil
}

// shardList is a checkpoint's files.
type shardList struct {
	dir, index string
	shards     []string
	// unindexed are the .safetensors files of dir that the index leaves
	// out (they are not converted); weightMap is the index's.
	unindexed []string
	weightMap map[string]string
}

func listShards(src string) (*shardList, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	l := &shardList{dir: src}
	if !fi.IsDir() {
		if !strings.HasSuffix(src, IndexSuffix) {
			return nil, fmt.Errorf("%s is neither a directory nor a %s file", src, IndexSuffix)
		}
		if !fi.Mode().IsRegular() {
			return nil, regularFile(src)
		}
		l.dir, l.index = filepath.Dir(src), src
	} else {
		idx, _ := filepath.Glob(filepath.Join(l.dir, "*"+IndexSuffix))
		switch len(idx) {
		case 0:
		case 1:
			l.index = idx[0]
		default:
			return nil, fmt.Errorf("%s holds %d index files (%s): give the one to convert", l.dir, len(idx), strings.Join(idx, ", "))
		}
	}
	files, _ := filepath.Glob(filepath.Join(l.dir, "*.safetensors"))
	if l.index == "" {
		if len(files) == 0 {
			return nil, fmt.Errorf("%s holds no .safetensors files", l.dir)
		}
		for _, f := range files {
			l.shards = append(l.shards, filepath.Base(f))
		}
		sort.Strings(l.shards)
		return l, nil
	}
	if err := regularFile(l.index); err != nil {
		return nil, err
	}
	var idx struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	b, err := readSmall(l.index, maxIndexBytes)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, dataErrorf("%s: %v", l.index, err)
	}
	if len(idx.WeightMap) == 0 {
		return nil, dataErrorf("%s: no weight_map", l.index)
	}
	seen := map[string]bool{}
	for name, s := range idx.WeightMap {
		if s != filepath.Base(s) || !strings.HasSuffix(s, ".safetensors") || s == ".safetensors" {
			return nil, dataErrorf("%s: weight_map: tensor %q: shard %q is not a .safetensors file of that directory", l.index, name, s)
		}
		if !seen[s] {
			seen[s] = true
			l.shards = append(l.shards, s)
		}
	}
	sort.Strings(l.shards)
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			l.unindexed = append(l.unindexed, filepath.Base(f))
		}
	}
	sort.Strings(l.unindexed)
	l.weightMap = idx.WeightMap
	return l, nil
}

// maxIndexBytes bounds an index or config.json read into memory.
const maxIndexBytes = 256 << 20

// readSmall reads the regular file path whole, refusing one above limit
// bytes.
func readSmall(path string, limit int64) ([]byte, error) {
	if err := regularFile(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, dataErrorf("%s: larger than %d MiB: not an index or config file", path, limit>>20)
	}
	return b, nil
}

// ConvertCheckpoint converts the sharded checkpoint at src (see Shards) into
// the new directory dst, shard by shard, with the same shard names and, when
// src has one, its index with the weight map and total size updated. dst
// appears only when everything is written and every shard reads back as
// meant (it is built in a hidden temporary directory beside it and renamed;
// an error or a cancellation leaves nothing). An existing dst is replaced
// only when replace is set, and only when it holds nothing but what this
// conversion writes (its shard names and index); an output that is an
// input, contains one or lies inside the input directory is refused
// (CheckOutput). Scales may live in another shard than their weights.
//
// The other files of the model directory are copied, so that the output is
// a model a loader opens: config.json (rewritten by what the conversion
// did: quantization_config removed after a dequantization, written after an
// FP8 block quantization, torch_dtype/dtype set to the destination),
// generation_config.json, the tokenizer, chat templates, README and
// LICENSE; weights of other formats (.bin, .pt, .gguf...), subdirectories
// and hidden files are not, and a warning names them.
func ConvertCheckpoint(ctx context.Context, dst, src string, replace bool, opt Options) (*Report, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	l, err := listShards(src)
	if err != nil {
		return nil, err
	}
	dir, indexPath, shards := l.dir, l.index, l.shards
	owned := map[string]bool{}
	inputs := []string{dir}
	for _, s := range shards {
		owned[s] = true
		inputs = append(inputs, filepath.Join(dir, s))
	}
	if indexPath != "" {
		owned[filepath.Base(indexPath)] = true
		inputs = append(inputs, indexPath)
	}
	extra, skipped, err := modelFiles(dir, indexPath)
	if err != nil {
		return nil, err
	}
	for _, n := range extra {
		owned[n] = true
	}
	isOwned := func(n string) bool {
		// With MaxShardSize the output's shards and index have
		// save_pretrained's names.
		return owned[n] || opt.MaxShardSize > 0 && (shardNameRE.MatchString(n) || n == "model"+IndexSuffix)
	}
	oc := outputCheck{dst: dst, files: inputs[1:], dirs: inputs[:1], isDir: true, replace: replace,
		owned: isOwned}
	if err := oc.check(); err != nil {
		return nil, err
	}
	if err := readConfig(dir, &opt); err != nil {
		return nil, err
	}
	files := make([]*Input, len(shards))
	for i, s := range shards {
		p := filepath.Join(dir, s)
		f, err := Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		files[i] = FromSafetensors(f, p)
	}
	all, err := index(files)
	if err != nil {
		return nil, err
	}
	// The layouts of the whole checkpoint, found once for every shard.
	opt.roles, opt.probs = layouts(all, opt.fp8Config)
	var warnings []string
	if l.weightMap != nil {
		for name, shard := range l.weightMap {
			s, ok := all[name]
			if !ok {
				return nil, dataErrorf("%s: weight_map names tensor %q in %s, which does not hold it", indexPath, name, shard)
			}
			if got := filepath.Base(opt.fileOf(s.f)); got != shard {
				return nil, dataErrorf("%s: weight_map puts tensor %q in %s, but it is in %s", indexPath, name, shard, got)
			}
		}
		if n := len(all) - len(l.weightMap); n > 0 {
			warnings = append(warnings, fmt.Sprintf("%d tensor(s) of the shards are not in %s's weight_map; they are converted and added to the output's", n, filepath.Base(indexPath)))
		}
	}
	for _, u := range l.unindexed {
		warnings = append(warnings, fmt.Sprintf("%s is in %s but not in %s: it was left out (not converted, not copied)", u, dir, filepath.Base(indexPath)))
	}
	tmp, err := tempDir(dst)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	rep := &Report{Shards: len(shards)}
	var total int64
	outIndex := indexPath // the input's index, rewritten
	if opt.MaxShardSize > 0 {
		r, names, data, err := reshard(ctx, tmp, files, all, &opt)
		if err != nil {
			return nil, err
		}
		rep, total = r, data
		if len(names) == 1 {
			outIndex = "" // one shard, model.safetensors, has no index
		} else if outIndex == "" {
			outIndex = "model" + IndexSuffix
		}
	}
	for i, f := range files {
		if opt.MaxShardSize > 0 {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, context.Cause(ctx)
		}
		others := append(append([]*Input(nil), files[:i]...), files[i+1:]...)
		o := opt
		if opt.Progress != nil {
			base := int64(0)
			for _, g := range files[:i] {
				base += g.Size
			}
			o.Progress = func(d, _ int64) { opt.Progress(base+d, sumSizes(files)) }
		}
		path := filepath.Join(tmp, shards[i])
		out, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return nil, err
		}
		sr, err := convertInputs(ctx, out, f, others, o)
		if cerr := out.Close(); err == nil && cerr != nil {
			err = &fileconv.WriteError{Err: cerr}
		}
		if err == nil {
			err = VerifyFile(path, sr)
		}
		if err != nil {
			return nil, nameErr(filepath.Join(dir, shards[i]), filepath.Join(dst, shards[i]), err)
		}
		for _, t := range sr.Tensors {
			t.Shard = shards[i]
			rep.Tensors = append(rep.Tensors, t)
			if t.Action != ActDropScale.String() {
				total += tensorBytes(t)
			}
		}
		rep.BytesIn += sr.BytesIn
		rep.BytesOut += sr.BytesOut
	}
	if outIndex != "" {
		in := indexPath
		if filepath.Base(outIndex) != filepath.Base(indexPath) {
			in = "" // a new index
		}
		b, err := newIndex(in, rep, total)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(outIndex)), b, 0o666); err != nil {
			return nil, err
		}
		rep.BytesOut += int64(len(b))
	}
	if err := copyModelFiles(ctx, tmp, dir, extra, rep, &opt); err != nil {
		return nil, err
	}
	if len(skipped) > 0 {
		warnings = append(warnings, fmt.Sprintf("not copied to the output: %s", strings.Join(skipped, ", ")))
	}
	if err := ctx.Err(); err != nil {
		return nil, context.Cause(ctx)
	}
	if err := swapDir(tmp, dst, replace, oc.owned); err != nil {
		return nil, err
	}
	ok = true
	rep.Warnings = append(append(append(globWarnings(&opt, files), warnings...), tensorWarnings(rep, &opt)...), rep.Warnings...)
	return rep, nil
}

// tensorWarnings returns the warnings of one file's conversion: finite
// values that became NaN or infinite, and block-scaled layouts kept as
// they are.
func tensorWarnings(rep *Report, opt *Options) []string {
	var out []string
	var nonFinite int64
	first, kept := "", 0
	for _, t := range rep.Tensors {
		if t.NonFinite > 0 {
			if first == "" {
				first = t.Name
			}
			nonFinite += t.NonFinite
		}
		if t.Layout {
			kept++
		}
	}
	if nonFinite > 0 {
		to := opt.To.String()
		what, hint := fileconv.NonFiniteAdvice(opt.To)
		if opt.To == cltype.E4M3 || opt.To == cltype.E5M2 {
			hint += ", --block-size 128x128 quantizes with a scale per block"
		}
		out = append(out, fmt.Sprintf("%d finite value(s) became %s converting to %s, the first in tensor %q: %s", nonFinite, what, to, first, hint))
	}
	if opt.quantizing() && len(opt.Tensors) == 0 {
		quant := 0
		for _, t := range rep.Tensors {
			switch t.Action {
			case ActQuantFP8.String(), ActQuantMX.String(), ActQuantNV.String():
				quant++
			}
		}
		if quant == 0 {
			out = append(out, fmt.Sprintf("no tensor was quantized to %s: by default a quantization takes the linear layers' 2-D weights (X.weight, not embeddings, lm_head, norms or routers); --tensors GLOB chooses others", opt.destName()))
		}
	}
	if kept > 0 {
		out = append(out, fmt.Sprintf("%d block-scaled weight(s) and scale(s) were kept byte for byte: converting to %s does not dequantize them (convert to bf16, f16 or float for that)", kept, opt.destName()))
	}
	return out
}

// destName names the destination in messages.
func (o *Options) destName() string {
	if o.Block != nil {
		return o.Block.Name
	}
	return o.To.String()
}

// globWarnings lists the globs of Tensors, Skip and KeepRaw that match no
// tensor of files.
func globWarnings(opt *Options, files []*Input) []string {
	var out []string
	for _, gs := range []struct {
		flag  string
		globs []string
	}{{"--tensors", opt.Tensors}, {"--skip", opt.Skip}, {"--keep-raw", opt.KeepRaw}} {
		for _, g := range gs.globs {
			hit := false
			for _, f := range files {
				for i := range f.Tensors {
					if ok, _ := path.Match(g, f.Tensors[i].Name); ok {
						hit = true
						break
					}
				}
				if hit {
					break
				}
			}
			if !hit {
				msg := fmt.Sprintf("%s %q matches no tensor", gs.flag, g)
				if gs.flag == "--tensors" && len(opt.Tensors) == 1 {
					msg += ": nothing was selected, every tensor was copied as it is"
				}
				out = append(out, msg)
			}
		}
	}
	return out
}

func sumSizes(files []*Input) int64 {
	var n int64
	for _, f := range files {
		n += f.Size
	}
	return n
}

// tensorBytes is the data size of a reported output tensor.
func tensorBytes(t TensorReport) int64 {
	d, err := safetensors.ParseDType(t.To)
	if err != nil {
		return 0
	}
	n := int64(1)
	for _, s := range t.Shape {
		n *= s
	}
	return n * int64(d.Bits()) / 8
}

// newIndex returns the index at path with its weight map and total size
// made those of rep; every other field is kept.
func newIndex(path string, rep *Report, total int64) ([]byte, error) {
	idx := map[string]json.RawMessage{}
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &idx); err != nil {
			return nil, dataErrorf("%s: %v", path, err)
		}
	}
	meta := map[string]json.RawMessage{}
	if m, ok := idx["metadata"]; ok {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, dataErrorf("%s: metadata: %v", path, err)
		}
	}
	meta["total_size"], _ = json.Marshal(total)
	wm := map[string]string{}
	for _, t := range rep.Tensors {
		if t.Action != ActDropScale.String() {
			wm[t.Name] = t.Shard
		}
	}
	idx["metadata"], _ = json.Marshal(meta)
	idx["weight_map"], _ = json.Marshal(wm)
	out, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// swapDir renames the finished directory tmp to dst. An existing dst
// (replace set, and checked to hold only owned names) is moved aside first
// and then only its owned files are removed: a file that appeared there
// meanwhile is never deleted (the moved directory is then kept, and named
// in the error).
func swapDir(tmp, dst string, replace bool, owned func(string) bool) error {
	if _, err := os.Lstat(dst); err == nil {
		if !replace {
			return unsafeOutput("%s exists: use --force to replace it", dst)
		}
		old := tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dst); err != nil {
			os.Rename(old, dst)
			return err
		}
		names, _ := dirNames(old)
		for _, n := range names {
			p := filepath.Join(old, n)
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && owned(n) {
				os.Remove(p)
			}
		}
		if err := os.Remove(old); err != nil {
			return fmt.Errorf("%s is written; the previous %s, moved to %s, holds files clconv did not write and was kept", dst, dst, old)
		}
		return nil
	}
	return os.Rename(tmp, dst)
}

// readConfig reads dir/config.json's quantization_config: its
// weight_block_size becomes opt.WeightBlockSize when the caller left that
// zero, and must equal it otherwise (a block size that conflicts with the
// checkpoint's own gives wrong values without any shape mismatch: 129x128
// scales 128x128 blocks with the same scale shape). A quant_method of
// "fp8", or a weight_block_size, says the FP8 weights are block-quantized:
// one without a scale is then an error.
func readConfig(dir string, opt *Options) error {
	path := filepath.Join(dir, "config.json")
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil // no config: the block size is inferred from the shapes
	}
	b, err := readSmall(path, maxIndexBytes)
	if err != nil {
		return err
	}
	type ctArgs struct {
		Type     string `json:"type"`
		NumBits  int    `json:"num_bits"`
		Strategy string `json:"strategy"`
		Block    []int  `json:"block_structure"`
	}
	var cfg struct {
		ModelType string `json:"model_type"`
		Q         *struct {
			Method string `json:"quant_method"`
			Block  []int  `json:"weight_block_size"`
			// compressed-tensors: config_groups.*.weights
			Groups map[string]struct {
				Weights *ctArgs `json:"weights"`
			} `json:"config_groups"`
		} `json:"quantization_config"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return dataErrorf("%s: %v", path, err)
	}
	opt.modelType = cfg.ModelType
	if cfg.Q == nil {
		return nil
	}
	what := "weight_block_size"
	if cfg.Q.Method == "compressed-tensors" && cfg.Q.Block == nil {
		// An 8-bit float block scheme's block_structure is the block size
		// (llm-compressor's FP8_BLOCK); groups must agree.
		names := make([]string, 0, len(cfg.Q.Groups))
		for n := range cfg.Q.Groups {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			w := cfg.Q.Groups[n].Weights
			if w == nil || w.Type != "float" || w.NumBits != 8 || w.Strategy != "block" {
				continue
			}
			if w.Block == nil {
				return dataErrorf("%s: quantization_config.config_groups.%s.weights: a block strategy without block_structure", path, n)
			}
			if cfg.Q.Block != nil && !slices.Equal(cfg.Q.Block, w.Block) {
				return dataErrorf("%s: quantization_config.config_groups: block structures %v and %v differ; clconv takes one block size per checkpoint", path, cfg.Q.Block, w.Block)
			}
			cfg.Q.Block, what = w.Block, "config_groups."+n+".weights.block_structure"
		}
	}
	if cfg.Q.Method == "fp8" || cfg.Q.Block != nil {
		opt.fp8Config = path
	}
	if cfg.Q.Block == nil {
		return nil
	}
	if len(cfg.Q.Block) != 2 || cfg.Q.Block[0] <= 0 || cfg.Q.Block[1] <= 0 {
		return dataErrorf("%s: quantization_config.%s %v: want two positive sizes", path, what, cfg.Q.Block)
	}
	blk := [2]int{cfg.Q.Block[0], cfg.Q.Block[1]}
	if w := opt.WeightBlockSize; w != [2]int{} && w != blk {
		return dataErrorf("%s: the weight block size %dx%d asked for conflicts with quantization_config.%s [%d, %d]: the scales would be applied to the wrong blocks (leave out --weight-block-size, or fix config.json)",
			path, w[0], w[1], what, blk[0], blk[1])
	}
	opt.WeightBlockSize = blk
	return nil
}

// randomHex returns 16 random hex digits.
func randomHex() string {
	var r [8]byte
	rand.Read(r[:])
	return hex.EncodeToString(r[:])
}
