package checkpoint

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// IndexSuffix ends the name of a sharded checkpoint's index
// ("model.safetensors.index.json").
const IndexSuffix = ".safetensors.index.json"

// ConvertFile converts the safetensors file src into the new file dst,
// atomically: dst appears only when every tensor is written, and an error
// leaves no partial file (an existing dst is replaced only when replace is
// set). A config.json beside src gives the FP8 weight block size unless
// opt.WeightBlockSize is set.
func ConvertFile(ctx context.Context, dst, src string, replace bool, opt Options) (*Report, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	if err := readConfig(filepath.Dir(src), &opt); err != nil {
		return nil, err
	}
	f, err := safetensors.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if same(dst, src) {
		return nil, fmt.Errorf("%s is the input file: the output may not be the input", dst)
	}
	out, err := fileconv.CreateAtomic(dst, replace)
	if err != nil {
		return nil, err
	}
	rep, err := Convert(ctx, out, f, nil, opt)
	if err == nil {
		err = out.Commit()
	}
	if err != nil {
		out.Abort()
		return nil, err
	}
	return rep, nil
}

// same reports whether the paths a and b name the same existing file.
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// Shards returns the shard files of the checkpoint at src, relative to dir:
// src is a directory (with one *.safetensors.index.json, or else its
// *.safetensors files) or an index file. index is the index's path, "" when
// there is none.
func Shards(src string) (dir, index string, shards []string, err error) {
	fi, err := os.Stat(src)
	if err != nil {
		return "", "", nil, err
	}
	dir = src
	if !fi.IsDir() {
		if !strings.HasSuffix(src, IndexSuffix) {
			return "", "", nil, fmt.Errorf("%s is neither a directory nor a %s file", src, IndexSuffix)
		}
		dir, index = filepath.Dir(src), src
	} else {
		idx, _ := filepath.Glob(filepath.Join(dir, "*"+IndexSuffix))
		switch len(idx) {
		case 0:
		case 1:
			index = idx[0]
		default:
			return "", "", nil, fmt.Errorf("%s holds %d index files (%s): give the one to convert", dir, len(idx), strings.Join(idx, ", "))
		}
	}
	if index == "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*.safetensors"))
		if len(files) == 0 {
			return "", "", nil, fmt.Errorf("%s holds no .safetensors files", dir)
		}
		for _, f := range files {
			shards = append(shards, filepath.Base(f))
		}
		sort.Strings(shards)
		return dir, "", shards, nil
	}
	var idx struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	b, err := os.ReadFile(index)
	if err != nil {
		return "", "", nil, err
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return "", "", nil, dataErrorf("%s: %v", index, err)
	}
	if len(idx.WeightMap) == 0 {
		return "", "", nil, dataErrorf("%s: no weight_map", index)
	}
	seen := map[string]bool{}
	for _, s := range idx.WeightMap {
		if s != filepath.Base(s) || !strings.HasSuffix(s, ".safetensors") {
			return "", "", nil, dataErrorf("%s: shard %q is not a .safetensors file of that directory", index, s)
		}
		if !seen[s] {
			seen[s] = true
			shards = append(shards, s)
		}
	}
	sort.Strings(shards)
	return dir, index, shards, nil
}

// ConvertCheckpoint converts the sharded checkpoint at src (see Shards) into
// the new directory dst, shard by shard, with the same shard names and, when
// src has one, its index with the weight map and total size updated. dst
// appears only when everything is written (it is built in a temporary
// directory beside it and renamed); an existing dst is replaced only when
// replace is set. Scales may live in another shard than their weights.
func ConvertCheckpoint(ctx context.Context, dst, src string, replace bool, opt Options) (*Report, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	dir, index, shards, err := Shards(src)
	if err != nil {
		return nil, err
	}
	if err := readConfig(dir, &opt); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dst); err == nil {
		if !replace {
			return nil, fmt.Errorf("%s exists: use --force to replace it", dst)
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s exists and is not a directory", dst)
		}
		if same(dst, dir) {
			return nil, fmt.Errorf("%s is the input directory: the output may not be the input", dst)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	files := make([]*safetensors.File, len(shards))
	for i, s := range shards {
		f, err := safetensors.Open(filepath.Join(dir, s))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		files[i] = f
	}
	var r [8]byte
	rand.Read(r[:])
	tmp := filepath.Clean(dst) + fileconv.TempPrefix + hex.EncodeToString(r[:]) + ".tmp"
	if err := os.Mkdir(tmp, 0o777); err != nil {
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
	for i, f := range files {
		others := append(append([]*safetensors.File(nil), files[:i]...), files[i+1:]...)
		o := opt
		if opt.Progress != nil {
			base := int64(0)
			for _, g := range files[:i] {
				base += g.Size
			}
			o.Progress = func(d, _ int64) { opt.Progress(base+d, sumSizes(files)) }
		}
		out, err := os.Create(filepath.Join(tmp, shards[i]))
		if err != nil {
			return nil, err
		}
		sr, err := Convert(ctx, out, f, others, o)
		if cerr := out.Close(); err == nil && cerr != nil {
			err = &fileconv.WriteError{Err: cerr}
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", shards[i], err)
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
	if index != "" {
		b, err := newIndex(index, rep, total)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.Base(index)), b, 0o666); err != nil {
			return nil, err
		}
		rep.BytesOut += int64(len(b))
	}
	if err := swapDir(tmp, dst, replace); err != nil {
		return nil, err
	}
	ok = true
	return rep, nil
}

func sumSizes(files []*safetensors.File) int64 {
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
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var idx map[string]json.RawMessage
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, dataErrorf("%s: %v", path, err)
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

// swapDir renames the finished directory tmp to dst, replacing an existing
// dst (moved aside first, removed after) when replace is set.
func swapDir(tmp, dst string, replace bool) error {
	if _, err := os.Stat(dst); err == nil {
		if !replace {
			return fmt.Errorf("%s exists: use --force to replace it", dst)
		}
		old := tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dst); err != nil {
			os.Rename(old, dst)
			return err
		}
		return os.RemoveAll(old)
	}
	return os.Rename(tmp, dst)
}

// readConfig sets opt.WeightBlockSize from dir/config.json's
// quantization_config.weight_block_size when the caller left it zero.
func readConfig(dir string, opt *Options) error {
	if opt.WeightBlockSize != [2]int{} {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil // no config: the block size is inferred from the shapes
	}
	var cfg struct {
		Q *struct {
			Block []int `json:"weight_block_size"`
		} `json:"quantization_config"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return dataErrorf("%s: %v", filepath.Join(dir, "config.json"), err)
	}
	if cfg.Q == nil || cfg.Q.Block == nil {
		return nil
	}
	if len(cfg.Q.Block) != 2 || cfg.Q.Block[0] <= 0 || cfg.Q.Block[1] <= 0 {
		return dataErrorf("%s: quantization_config.weight_block_size %v: want two positive sizes", filepath.Join(dir, "config.json"), cfg.Q.Block)
	}
	opt.WeightBlockSize = [2]int{cfg.Q.Block[0], cfg.Q.Block[1]}
	return nil
}
