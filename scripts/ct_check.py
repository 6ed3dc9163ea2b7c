#!/usr/bin/env python3
"""clconv's --recipe compressed-tensors against compressed-tensors itself
(issue 42, item 3), and a model it writes loaded by transformers through
compressed-tensors.

  PYTHONPATH=CT_SRC:SHIM python3 scripts/ct_check.py CLCONV WORKDIR LLMC_OBSERVERS

CT_SRC is compressed-tensors' src/ (the GPU machine has no network and no
compressed-tensors: its source is carried there, with a dist-info naming its
version so that transformers finds it); SHIM holds a stand-in for loguru when
that is missing; LLMC_OBSERVERS holds llm-compressor's observers/helpers.py and
min_max.py (the observer that computes a weight's block minima and maxima).

1. recipes: BF16, F16 and F32 weights built to bite (scripts/fp8_recipes_check.py's
   weights: narrow and wide normals, Student-t tails, blocks 2^-20..2^15
   apart, powers of two, a zero block, a 300x260 weight of partial blocks)
   are quantized by clconv (--to e4m3 --block-size 128x128 --recipe
   compressed-tensors) and by the code llm-compressor runs for its FP8_BLOCK
   scheme: llm-compressor's flatten_for_calibration and its min-max
   observer's amin/amax, compressed-tensors' calculate_qparams, then its
   FloatQuantizationCompressor.compress (the bytes a checkpoint holds), on
   the CPU and on the GPU. Every code and scale is compared, bit for bit.
2. load: a tiny random Llama saved by transformers (bf16) is quantized by
   clconv with that recipe; transformers loads the directory as written
   through compressed-tensors (quant_method "compressed-tensors"), both
   compressed and decompressed (run_compressed=False); the decompressed
   weights are compared with clconv's own dequantization of its output (to
   bf16) bit for bit, and the logits with that bf16 model's.
Prints JSON lines.
"""
import importlib.util
import json
import os
import subprocess
import sys

import torch
from safetensors.torch import load_file, save_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fp8_recipes_check import weights, same  # noqa: E402

FP8 = torch.float8_e4m3fn
BLK = 128


def load_observers(d):
    """llm-compressor's observer helpers and min-max, without the package
    (whose __init__ pulls in the whole library)."""
    spec = importlib.util.spec_from_file_location("llmc_observer_helpers", os.path.join(d, "observer_helpers.py"))
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    # min_max.py's _get_min_max, read from its source and run as it is.
    src = open(os.path.join(d, "min_max.py")).read()
    start = src.index("def _get_min_max")
    ns = {"torch": torch, "MinMaxTuple": tuple}
    exec(src[start:], ns)
    return helpers.flatten_for_calibration, ns["_get_min_max"], src[start:]


def ct_reference(w, dev, flatten, get_min_max):
    """What llm-compressor's FP8_BLOCK writes for weight w: the observer's
    block minima and maxima, calculate_qparams, then the float-quantized
    compressor."""
    from compressed_tensors.quantization import preset_name_to_scheme
    from compressed_tensors.quantization.utils import calculate_qparams
    from compressed_tensors.compressors import FloatQuantizationCompressor
    scheme = preset_name_to_scheme("FP8_BLOCK", ["Linear"])
    args = scheme.weights
    w = w.to(dev)
    observed = flatten(w, "weight", args)
    mn, mx = get_min_max(observed)
    scale, zp = calculate_qparams(mn, mx, args)
    out = FloatQuantizationCompressor.compress({"weight": w, "weight_scale": scale, "weight_zero_point": zp}, scheme)
    return out["weight"].cpu(), out["weight_scale"].cpu(), sorted(out)


def same_bits(a, b):
    if a.dtype != b.dtype:
        return f"dtypes {a.dtype} and {b.dtype}"
    if a.dtype == FP8:
        return int((a.view(torch.uint8) != b.view(torch.uint8)).sum())
    if a.element_size() == 2:
        return int((a.view(torch.int16) != b.view(torch.int16)).sum())
    return int((a.view(torch.int32) != b.view(torch.int32)).sum())


def recipes(clconv, work, flatten, get_min_max):
    gen = torch.Generator().manual_seed(7)
    ws = weights(gen)
    devs = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for dt in (torch.bfloat16, torch.float16, torch.float32):
        tag = str(dt)[6:]
        src = {k: v.to(dt).contiguous() for k, v in ws.items()}
        path = os.path.join(work, f"src-{tag}.safetensors")
        save_file(src, path)
        out = os.path.join(work, f"ct-{tag}.safetensors")
        subprocess.run([clconv, "convert", "-q", "-f", "--to", "e4m3", "--block-size", f"{BLK}x{BLK}",
                        "--recipe", "compressed-tensors", "--tensors", "*", path, out], check=True)
        got = load_file(out)
        for name, x in src.items():
            gq, gs = got[name], got[name + "_scale"]
            row = {"check": "recipe compressed-tensors", "source": tag, "tensor": name, "shape": list(x.shape),
                   "elements": x.numel(), "blocks": gs.numel(), "scale_dtype": str(gs.dtype)}
            for dev in devs:
                rq, rs, keys = ct_reference(x, dev, flatten, get_min_max)
                row[dev] = {"codes_differ": same_bits(gq, rq), "scales_differ": same_bits(gs, rs.reshape(gs.shape)),
                            "compressed_keys": keys}
            print(json.dumps(row), flush=True)


def load(clconv, work):
    import transformers
    from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=1024, hidden_size=256, intermediate_size=512, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128,
                      tie_word_embeddings=False)
    src = os.path.join(work, "llama-src")
    LlamaForCausalLM(cfg).to(torch.bfloat16).save_pretrained(src)
    ct = os.path.join(work, "llama-ct")
    back = os.path.join(work, "llama-ct-bf16")
    subprocess.run([clconv, "convert", "-q", "-f", "--to", "e4m3", "--block-size", "128x128",
                    "--recipe", "compressed-tensors", src, ct], check=True)
    subprocess.run([clconv, "convert", "-q", "-f", "--to", "bf16", ct, back], check=True)
    with open(os.path.join(ct, "config.json")) as f:
        qc = json.load(f).get("quantization_config")
    res = {"check": "load", "transformers": transformers.__version__, "torch": torch.__version__,
           "quantization_config": qc}
    import compressed_tensors
    res["compressed_tensors"] = compressed_tensors.__version__
    ids = torch.randint(0, cfg.vocab_size, (2, 16), generator=torch.Generator().manual_seed(1))
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    ref = AutoModelForCausalLM.from_pretrained(back, device_map=dev)
    with torch.no_grad():
        lr = ref(ids.to(dev)).logits.cpu()
    # Compressed, as written (the modules it makes, and whether it runs).
    try:
        q = AutoModelForCausalLM.from_pretrained(ct, device_map=dev)
        kinds = {}
        for _, m in q.named_modules():
            kinds[type(m).__name__] = kinds.get(type(m).__name__, 0) + 1
        res["compressed_modules"] = kinds
        fp8 = {k: v for k, v in q.state_dict().items() if v.dtype == FP8}
        res["compressed_fp8_tensors"] = len(fp8)
        disk = load_file(os.path.join(ct, "model.safetensors"))
        res["compressed_fp8_equal_to_file"] = sum(1 for k, v in fp8.items() if k in disk and torch.equal(v.cpu().view(torch.uint8), disk[k].view(torch.uint8)))
        try:
            with torch.no_grad():
                lc = q(ids.to(dev)).logits.cpu()
            res["compressed_logits_max_abs_diff_vs_dequantized"] = float((lc.float() - lr.float()).abs().max())
            res["compressed_logits_equal"] = bool(torch.equal(lc, lr))
        except Exception as e:
            res["compressed_forward_error"] = repr(e)[:600]
    except Exception as e:
        res["compressed_load_error"] = repr(e)[:1500]
    # Decompressed by compressed-tensors while loading.
    try:
        from transformers import CompressedTensorsConfig
        d = AutoModelForCausalLM.from_pretrained(ct, device_map=dev, quantization_config=CompressedTensorsConfig(run_compressed=False))
        ds, rs = d.state_dict(), ref.state_dict()
        differ = [k for k in rs if k not in ds or same_bits(ds[k].cpu(), rs[k].cpu()) != 0]
        res["decompressed"] = {"tensors": len(rs), "dtypes": sorted({str(v.dtype) for v in ds.values()}),
                               "differing_from_clconv_dequantization": differ,
                               "extra_keys": sorted(k for k in ds if k not in rs)[:10]}
        with torch.no_grad():
            ld = d(ids.to(dev)).logits.cpu()
        res["decompressed_logits_equal"] = bool(torch.equal(ld, lr))
    except Exception as e:
        res["decompressed_error"] = repr(e)[:1500]
    print(json.dumps(res), flush=True)


def main():
    clconv, work, obs = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    flatten, get_min_max, mm_src = load_observers(obs)
    print(json.dumps({"check": "oracle", "torch": torch.__version__, "min_max_source": mm_src}), flush=True)
    which = sys.argv[4] if len(sys.argv) > 4 else "all"
    if which in ("all", "recipes"):
        recipes(clconv, work, flatten, get_min_max)
    if which in ("all", "load"):
        load(clconv, work)


if __name__ == "__main__":
    main()
