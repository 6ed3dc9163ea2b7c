package checkpoint

// Output shards of a chosen size (Options.MaxShardSize), as transformers'
// save_pretrained(max_shard_size=...) cuts them.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/clconv/clconv/fileconv"
	"github.com/clconv/clconv/safetensors"
)

// sizeUnits are the units ParseSize reads: save_pretrained's (KB, MB, GB
// are powers of 1000, KiB, MiB, GiB powers of 1024).
var sizeUnits = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1},
}

// ParseSize reads a size as save_pretrained's max_shard_size: a number of
// bytes, or a number with a unit KB, MB, GB, TB (powers of 1000) or KiB,
// MiB, GiB, TiB (powers of 1024), in any case ("5GB", "500MiB", "2.5GB").
func ParseSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || v*float64(mult) >= 1<<62 {
		return 0, fmt.Errorf("size %q: want a positive number of bytes, or one with a unit (KB, MB, GB, KiB, MiB, GiB), e.g. 5GB", s)
	}
	n := int64(v * float64(mult))
	if n < 1 {
		return 0, fmt.Errorf("size %q is less than a byte", s)
	}
	return n, nil
}

// shardName returns save_pretrained's name of shard i (from 1) of n:
// "model-00001-of-00003.safetensors", or "model.safetensors" when n is 1.
func shardName(i, n int) string {
	if n == 1 {
		return "model.safetensors"
	}
	return fmt.Sprintf("model-%05d-of-%05d.safetensors", i, n)
}

// shardNameRE matches the names shardName gives.
var shardNameRE = regexp.MustCompile(`^model(-[0-9]{5}-of-[0-9]{5})?\.safetensors$`)

// reshard converts the tensors of files, in order, into new shards of at
// most opt.MaxShardSize bytes of tensor data each, in directory tmp: a
// tensor is added to the current shard unless that would pass the size
// and the shard holds something already (a larger tensor has a shard of
// its own), and the scales a quantization writes stay in their weight's
// shard. It returns the report (each tensor's Shard set), the shards'
// names and the bytes of tensor data written.
func reshard(ctx context.Context, tmp string, files []*Input, all map[string]source, opt *Options) (*Report, []string, int64, error) {
	var jobs []*job
	for _, f := range files {
		fj, err := plan(f, all, opt)
		if err != nil {
			return nil, nil, 0, nameErr(opt.fileOf(f), "", err)
		}
		jobs = append(jobs, fj...)
	}
	// Cut the live jobs into shards.
	var groups [][]*job
	var size int64
	for _, j := range jobs {
		if j.act == ActDropScale {
			continue
		}
		n := outBytes(&j.out)
		if len(groups) == 0 || j.act != ActScaleOut && size > 0 && size+n > opt.MaxShardSize {
			groups = append(groups, nil)
			size = 0
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], j)
		size += n
	}
	if len(groups) == 0 {
		groups = [][]*job{nil} // a checkpoint of no tensors is one empty shard
	}
	names := make([]string, len(groups))
	for i := range groups {
		names[i] = shardName(i+1, len(groups))
	}
	shardOf := map[*job]string{}
	for i, g := range groups {
		for _, j := range g {
			shardOf[j] = names[i]
		}
	}
	meta := mergedMetadata(files)
	var done atomic.Int64
	total := sumSizes(files)
	rep := &Report{Shards: len(groups)}
	var data int64
	for i, g := range groups {
		if err := ctx.Err(); err != nil {
			return nil, nil, 0, context.Cause(ctx)
		}
		path := filepath.Join(tmp, names[i])
		out, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err != nil {
			return nil, nil, 0, err
		}
		n, err := write(ctx, out, meta, g, opt, &done, total)
		if cerr := out.Close(); err == nil && cerr != nil {
			err = &fileconv.WriteError{Err: cerr}
		}
		sr := &Report{}
		for _, j := range g {
			sr.Tensors = append(sr.Tensors, *j.report)
		}
		if err == nil {
			err = VerifyFile(path, sr)
		}
		if err != nil {
			return nil, nil, 0, nameErr("", path, err)
		}
		rep.BytesOut += n
	}
	for _, j := range jobs {
		t := *j.report
		t.Shard = shardOf[j]
		rep.Tensors = append(rep.Tensors, t)
		if j.act != ActDropScale {
			data += outBytes(&j.out)
		}
	}
	rep.BytesIn = total
	return rep, names, data, nil
}

// mergedMetadata returns the __metadata__ of the input shards together
// (the first shard's value where two differ; clconv's MX format keys each
// come from one shard).
func mergedMetadata(files []*Input) map[string]string {
	var m map[string]string
	for _, f := range files {
		for k, v := range f.Metadata {
			if m == nil {
				m = map[string]string{}
			}
			if _, ok := m[k]; !ok {
				m[k] = v
			}
		}
	}
	return m
}

// outBytes is the size of an output tensor's data, from its dtype and
// shape (Begin and End are set only when its file's header is written).
func outBytes(t *safetensors.TensorInfo) int64 {
	return (t.Count()*int64(t.DType.Bits()) + 7) / 8
}
