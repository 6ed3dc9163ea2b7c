#!/usr/bin/env python3
"""clconv's --recipe compressed-tensors against compressed-tensors' own code
(issue 42, item 3).

  python3 scripts/ct_check.py CLCONV WORKDIR CT_SRC LLMC_OBSERVERS

CT_SRC is compressed-tensors' src/ (0.18.0, vllm-project/compressed-tensors
ac8e2ba), LLMC_OBSERVERS a folder holding llm-compressor's observers/helpers.py
and observers/min_max.py (vllm-project/llm-compressor ab1ba3e). The GPU machine
has neither package, no network, and no pydantic 2 (whose compiled core
compressed-tensors needs to import); compressed-tensors' arithmetic does not
use pydantic, so its functions are taken from its files as they are (only
their type annotations dropped) and run (load_ct, CT_FUNCS); the scheme's
arguments are FP8_BLOCK's as QuantizationArgs' validators leave them (ct_args).

1. recipes: BF16, F16 and F32 weights built to bite (scripts/fp8_recipes_check.py's
   weights: narrow and wide normals, Student-t tails, blocks 2^-20..2^15
   apart, powers of two, a zero block, a 300x260 weight of partial blocks)
   are quantized by clconv (--to e4m3 --block-size 128x128 --recipe
   compressed-tensors) and by the code llm-compressor runs for FP8_BLOCK:
   its flatten_for_calibration and memoryless min-max observer,
   compressed-tensors' calculate_qparams, then NaiveQuantizationCompressor.
   compress (the float-quantized format's compressor: the bytes a checkpoint
   holds), on the CPU and on the GPU. Every code and scale is compared, bit
   for bit.
2. decompress: a model clconv quantized with that recipe is decompressed by
   compressed-tensors' NaiveQuantizationCompressor.decompress (what its
   loaders run) and compared with clconv's own dequantization to bf16.
Prints JSON lines.
"""
import ast
import importlib.util
import json
import types
import os
import subprocess
import sys

import torch
from safetensors.torch import load_file, save_file

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fp8_recipes_check import weights, same  # noqa: E402

FP8 = torch.float8_e4m3fn
BLK = 128


def load_observers(d, ns):
    """llm-compressor's weight observer, from its source as it is:
    flatten_for_calibration and _flatten_weight (observers/helpers.py) into
    ns, and min_max.py's _get_min_max (the memoryless min-max observer's
    statistics)."""
    tree = ast.parse(open(os.path.join(d, "observer_helpers.py")).read())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in ("flatten_for_calibration", "_flatten_weight"):
            exec(compile(ast.unparse(strip_annotations(ast.Module(body=[node], type_ignores=[]))), "observers/helpers.py", "exec"), ns)
    src = open(os.path.join(d, "min_max.py")).read()
    start = src.index("def _get_min_max")
    exec(src[start:], ns)
    return ns["flatten_for_calibration"], ns["_get_min_max"], src[start:]


# compressed-tensors' functions, run from its own source text. The package
# itself cannot be imported on the GPU machine: it needs pydantic 2, whose
# compiled core is not there and cannot be fetched (no network). Its
# arithmetic does not depend on pydantic: the functions below are taken from
# its files as they are (ast: only their type annotations dropped, since
# those name pydantic models) and run with the scheme's arguments as
# QuantizationArgs' validators leave them for FP8_BLOCK (CT_ARGS).
CT_FUNCS = {
    "compressed_tensors/quantization/quant_args.py": ["FloatArgs", "FP8_E4M3_DATA", "FP4_E2M1_DATA", "QuantizationType", "QuantizationStrategy",
                                                    "DynamicType", "round_to_quantized_type_dtype", "round_to_quantized_type_args"],
    "compressed_tensors/quantization/utils/mxfp_utils.py": ["should_generate_mx_scales", "maybe_convert_from_mx_exp"],
    "compressed_tensors/quantization/utils/helpers.py": ["calculate_qparams", "calculate_range", "strategy_cdiv", "_get_dtype_eps",
                                                       "calculate_block_padding", "maybe_pad_tensor_for_block_quant"],
    "compressed_tensors/quantization/lifecycle/forward_helpers.py": ["_apply_quantize_op", "_process_block", "_quantize_dequantize",
                                                                   "_quantize", "_dequantize"],
    "compressed_tensors/quantization/lifecycle/forward.py": ["quantize", "dequantize", "_process_quantization"],
}


def strip_annotations(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
            for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs:
                a.annotation = None
            if node.args.vararg:
                node.args.vararg.annotation = None
            if node.args.kwarg:
                node.args.kwarg.annotation = None
    return tree


def load_ct(ct_src):
    """The namespace of compressed-tensors' functions named in CT_FUNCS, and
    the source of each (printed, so the record says what ran)."""
    import enum
    import math
    import warnings

    class ImplBackend:  # the eager path: no backend is registered for _quantize
        @staticmethod
        def entrypoint(name):
            return lambda f: f

        @staticmethod
        def register(name, req, priority):
            return lambda f: f

    def QuantizationArgs(**kw):  # what dequantize infers when not given args
        a = dict(num_bits=8, type="int", symmetric=True, group_size=None, strategy=None, block_structure=None,
                 dynamic=False, actorder=None, scale_dtype=None, zp_dtype=None, observer=None)
        a.update({k: getattr(v, "value", v) for k, v in kw.items()})
        return types.SimpleNamespace(**a)

    ns = {"torch": torch, "Enum": enum.Enum, "math": math, "warnings": warnings, "ImplBackend": ImplBackend,
          "QuantizationArgs": QuantizationArgs, "MinMaxTuple": tuple,
          "logger": types.SimpleNamespace(warning=print, info=print, debug=lambda *a, **k: None)}
    used = {}
    for rel, names in CT_FUNCS.items():
        path = os.path.join(ct_src, rel)
        tree = ast.parse(open(path).read())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
                code = ast.unparse(strip_annotations(ast.Module(body=[node], type_ignores=[])))
                exec(compile(code, f"{rel}:{node.name}", "exec"), ns)
                used[f"{rel}:{node.name}"] = len(code)
    # NaiveQuantizationCompressor.compress (the float-quantized compressor's),
    # run as a function of (cls, state_dict, scheme).
    rel = "compressed_tensors/compressors/naive_quantized/base.py"
    tree = ast.parse(open(os.path.join(ct_src, rel)).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "NaiveQuantizationCompressor":
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name in ("compress", "decompress"):
                    f.decorator_list = []
                    code = ast.unparse(strip_annotations(ast.Module(body=[f], type_ignores=[])))
                    exec(compile(code, f"{rel}:{f.name}", "exec"), ns)
                    used[f"{rel}:NaiveQuantizationCompressor.{f.name}"] = len(code)
    missing = [n for names in CT_FUNCS.values() for n in names if n not in ns]
    if missing:
        raise SystemExit(f"compressed-tensors functions not found: {missing}")
    return ns, used


def ct_args(ns):
    """FP8_BLOCK's weight arguments (quant_scheme.py) as QuantizationArgs'
    validate_model_after leaves them: observer memoryless_minmax, zp_dtype
    float8_e4m3fn (pytorch_dtype), enum values as strings."""
    return types.SimpleNamespace(
        num_bits=8, type="float", symmetric=True, group_size=None, strategy="block",
        block_structure=[BLK, BLK], dynamic=False, actorder=None, scale_dtype=None,
        zp_dtype=FP8, observer="memoryless_minmax", observer_kwargs={},
        pytorch_dtype=lambda: FP8)


def ct_reference(w, dev, flatten, get_min_max, ns):
    """What llm-compressor's FP8_BLOCK writes for weight w: the observer's
    block minima and maxima, calculate_qparams, then the float-quantized
    compressor."""
    args = ct_args(ns)
    scheme = types.SimpleNamespace(weights=args, input_activations=None)
    cls = types.SimpleNamespace(_remove_symmetric_zp=lambda sd, sc: {k: v for k, v in sd.items() if k != "weight_zero_point"})
    w = w.to(dev)
    observed = flatten(w, "weight", args)
    mn, mx = get_min_max(observed)
    scale, zp = ns["calculate_qparams"](mn, mx, args)
    out = ns["compress"](cls, {"weight": w, "weight_scale": scale, "weight_zero_point": zp}, scheme)
    return out["weight"].cpu(), out["weight_scale"].cpu(), sorted(out)


def same_bits(a, b):
    if a.dtype != b.dtype:
        return f"dtypes {a.dtype} and {b.dtype}"
    if a.dtype == FP8:
        return int((a.view(torch.uint8) != b.view(torch.uint8)).sum())
    if a.element_size() == 2:
        return int((a.view(torch.int16) != b.view(torch.int16)).sum())
    return int((a.view(torch.int32) != b.view(torch.int32)).sum())


def recipes(clconv, work, flatten, get_min_max, ns):
    gen = torch.Generator().manual_seed(7)
    ws = weights(gen)
    devs = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for dt in (torch.bfloat16, torch.float16, torch.float32):
        tag = str(dt)[6:]
        # F16 holds at most 65504: its weights are the others scaled by
        # 2^-8 (the smallest blocks then reach F16's subnormals, where the
        # scale underflows to 0 and becomes eps).
        f = 2.0 ** -8 if dt == torch.float16 else 1.0
        src = {k: (v * f).to(dt).contiguous() for k, v in ws.items()}
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
                rq, rs, keys = ct_reference(x, dev, flatten, get_min_max, ns)
                row[dev] = {"codes_differ": same_bits(gq, rq), "scales_differ": same_bits(gs, rs.reshape(gs.shape)),
                            "compressed_keys": keys}
            print(json.dumps(row), flush=True)


def decompress(clconv, work, ns):
    """compressed-tensors' own decompression (NaiveQuantizationCompressor.
    decompress, as a loader runs it) of a model clconv quantized with the
    recipe, against clconv's dequantization of the same files to bf16."""
    gen = torch.Generator().manual_seed(3)
    src = os.path.join(work, "model-src")
    os.makedirs(src, exist_ok=True)
    shapes = {"model.layers.0.self_attn.q_proj.weight": (256, 256), "model.layers.0.mlp.up_proj.weight": (512, 256),
              "model.layers.0.mlp.down_proj.weight": (256, 512), "model.layers.1.self_attn.o_proj.weight": (384, 256)}
    ws = {k: (torch.randn(*v, generator=gen) * 0.02).to(torch.bfloat16) for k, v in shapes.items()}
    ws["model.embed_tokens.weight"] = (torch.randn(64, 256, generator=gen) * 0.02).to(torch.bfloat16)
    save_file(ws, os.path.join(src, "model.safetensors"))
    with open(os.path.join(src, "config.json"), "w") as f:
        json.dump({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "torch_dtype": "bfloat16"}, f)
    ct, back = os.path.join(work, "model-ct"), os.path.join(work, "model-ct-bf16")
    subprocess.run([clconv, "convert", "-q", "-f", "--to", "e4m3", "--block-size", f"{BLK}x{BLK}",
                    "--recipe", "compressed-tensors", src, ct], check=True)
    subprocess.run([clconv, "convert", "-q", "-f", "--to", "bf16", ct, back], check=True)
    with open(os.path.join(ct, "config.json")) as f:
        qc = json.load(f).get("quantization_config")
    q, d = load_file(os.path.join(ct, "model.safetensors")), load_file(os.path.join(back, "model.safetensors"))
    cls = types.SimpleNamespace()
    res = {"check": "decompress", "quantization_config": qc, "tensors": {}}
    for name in shapes:
        out = ns["decompress"](cls, {"weight": q[name], "weight_scale": q[name + "_scale"]}, None)
        w = out["weight"]
        res["tensors"][name] = {"dtype": str(w.dtype), "differ_from_clconv_bf16": same_bits(w, d[name]),
                                "elements": w.numel()}
    print(json.dumps(res), flush=True)


def main():
    clconv, work, ct_src, obs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    os.makedirs(work, exist_ok=True)
    ns, used = load_ct(ct_src)
    flatten, get_min_max, mm_src = load_observers(obs, ns)
    print(json.dumps({"check": "oracle", "torch": torch.__version__, "compressed_tensors_functions": used,
                      "min_max_source": mm_src}), flush=True)
    recipes(clconv, work, flatten, get_min_max, ns)
    decompress(clconv, work, ns)


if __name__ == "__main__":
    main()
