package checkpoint

// A converted model directory is a model: the files beside the weights
// (config.json, generation_config.json, the tokenizer, chat templates,
// README and LICENSE) are copied, and config.json says what the weights
// now are (issue 42).

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clconv/clconv/cltype"
)

// weightExts are the extensions of weight files of other formats, which a
// conversion of the safetensors weights does not copy.
var weightExts = map[string]bool{
	".bin": true, ".pt": true, ".pth": true, ".ckpt": true, ".gguf": true, ".h5": true,
	".msgpack": true, ".onnx": true, ".npz": true, ".npy": true, ".safetensors": true, ".tflite": true,
}

// modelFiles lists the files of dir that a conversion copies: every regular
// file that is not a weight file (by extension), the index, or hidden
// (temporary files among them). skipped lists what was left out and why.
func modelFiles(dir, index string) (files, skipped []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, "."), index != "" && n == filepath.Base(index):
			continue
		case weightExts[strings.ToLower(filepath.Ext(n))]:
			if !strings.HasSuffix(strings.ToLower(n), ".safetensors") {
				skipped = append(skipped, n+" (weights in another format)")
			}
			continue
		}
		fi, err := os.Stat(filepath.Join(dir, n))
		switch {
		case err != nil:
			return nil, nil, err
		case fi.IsDir():
			skipped = append(skipped, n+"/ (a directory)")
		case !fi.Mode().IsRegular():
			skipped = append(skipped, n+" (not a regular file)")
		default:
			files = append(files, n)
		}
	}
	sort.Strings(files)
	return files, skipped, nil
}

// copyModelFiles copies names from dir into out, config.json rewritten by
// newConfig.
func copyModelFiles(ctx context.Context, out, dir string, names []string, rep *Report, opt *Options) error {
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		src := filepath.Join(dir, n)
		if n == "config.json" {
			b, err := readSmall(src, maxIndexBytes)
			if err != nil {
				return err
			}
			nb, note, err := newConfig(b, rep, opt)
			if err != nil {
				return dataErrorf("%s: %v", src, err)
			}
			if note != "" {
				rep.Warnings = append(rep.Warnings, note)
			}
			if err := os.WriteFile(filepath.Join(out, n), nb, 0o666); err != nil {
				return err
			}
			rep.BytesOut += int64(len(nb))
			continue
		}
		nw, err := copyFile(ctx, filepath.Join(out, n), src)
		if err != nil {
			return err
		}
		rep.BytesOut += nw
	}
	return nil
}

// copyFile copies the regular file src to the new file dst.
func copyFile(ctx context.Context, dst, src string) (int64, error) {
	if err := regularFile(src); err != nil {
		return 0, err
	}
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return 0, err
	}
	n, err := io.CopyBuffer(out, ctxReader{ctx, in}, make([]byte, 1<<20))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}

// ctxReader stops reading once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, context.Cause(c.ctx)
	}
	return c.r.Read(p)
}

// torchDTypes are config.json's names of the destinations a loader reads
// ("torch_dtype", "dtype").
var torchDTypes = map[cltype.Kind]string{
	cltype.BFloat16: "bfloat16", cltype.Half: "float16", cltype.Float: "float32", cltype.Double: "float64",
}

// newConfig returns config.json b made to describe the converted weights:
//
//   - after dequantizing, quantization_config is removed (the weights are
//     plain), as DeepSeek-V3's fp8_cast_bf16.py does;
//   - after quantizing, the layout's row writes its loaders' config
//     (layoutRow.config: FP8 blocks the quantization_config of transformers'
//     FineGrainedFP8 and DeepSeek-V3, configFP8);
//   - torch_dtype and dtype, where present, name the destination when
//     floating tensors were converted to bf16, f16, f32 or f64 (Options.Rest
//     when quantizing).
//
// Every other field is kept (keys sorted, as save_pretrained writes them).
// note says what the caller should know (a quantization whose config
// clconv does not write).
func newConfig(b []byte, rep *Report, opt *Options) ([]byte, string, error) {
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, "", err
	}
	counts := map[string]int{}
	for _, t := range rep.Tensors {
		counts[t.Action]++
	}
	dequant := counts[ActDequantFP8.String()] + counts[ActDequantMX.String()] + counts[ActDequantNV.String()]
	note := ""
	quant := 0
	for _, a := range []Action{ActQuantFP8, ActQuantMX, ActQuantNV} {
		quant += counts[a.String()]
	}
	switch r := quantRow(opt); {
	case r != nil && quant > 0:
		note = r.config(cfg, rep, opt)
	case dequant > 0:
		delete(cfg, "quantization_config")
	}
	dest := opt.To // what converted tensors became
	if opt.quantizing() {
		dest = opt.Rest
	}
	if name, ok := torchDTypes[dest]; ok && counts[ActConvert.String()]+dequant > 0 {
		for _, key := range []string{"torch_dtype", "dtype"} {
			if _, ok := cfg[key]; ok {
				cfg[key], _ = json.Marshal(name)
			}
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cfg); err != nil {
		return nil, "", err
	}
	return out.Bytes(), note, nil
}
