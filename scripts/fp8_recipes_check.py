#!/usr/bin/env python3
"""clconv's FP8 block recipes against the tools they name (issue 42, item 3).

  python3 scripts/fp8_recipes_check.py CLCONV WORKDIR

clconv quantizes BF16 and F32 weights to e4m3 with 128x128 blocks under
--recipe deepseek, transformers and exact; the same weights go through
  deepseek:      DeepSeek-V3's formula in torch (s = amax / 448 in float32,
                 (x / s).to(torch.float8_e4m3fn)), on the GPU and the CPU;
  transformers:  transformers' own Fp8Quantize (the class its save path
                 runs), on the GPU and the CPU;
and every scale and code is compared, bit for bit. Then the load-time path:
transformers loading the bf16 weights with FineGrainedFP8Config quantizes
them itself; its codes are compared with Fp8Quantize's, with the formula
computed in bfloat16, with Fp8Quantize of the transposed weight and with
Fp8Quantize of the weight first cast to float8_e4m3fn without a scale (the
explanation: 0 codes differ), and the source of the functions involved is
printed, so that the difference is named, not guessed. Last, torch's
division of a CUDA tensor by a Python scalar is compared with the CPU's and
with a multiplication by the scalar's float32 reciprocal. Prints JSON lines.
"""
import inspect
import json
import os
import subprocess
import sys
import types

import torch
from safetensors.torch import load_file, save_file

FP8 = torch.float8_e4m3fn
BLK = 128


def weights(gen):
    """Linear weights built to bite: narrow and wide normals, heavy tails,
    blocks of very different magnitudes, exact powers of two, a zero block,
    and shapes that are not whole blocks."""
    def n(*shape, std=0.02):
        return torch.randn(*shape, generator=gen) * std
    ws = {}
    ws["model.layers.0.self_attn.q_proj.weight"] = n(256, 512)
    ws["model.layers.0.self_attn.k_proj.weight"] = n(128, 512, std=1.0)
    t = torch.distributions.StudentT(2.0).sample((384, 256))
    ws["model.layers.0.mlp.up_proj.weight"] = t
    m = n(256, 384, std=1.0)
    for i in range(2):
        for j in range(3):
            m[i * BLK:(i + 1) * BLK, j * BLK:(j + 1) * BLK] *= 2.0 ** ((i * 3 + j) * 7 - 20)
    m[BLK:2 * BLK, 0:BLK] = 0
    ws["model.layers.0.mlp.down_proj.weight"] = m
    p = torch.ldexp(torch.ones(128, 256), torch.randint(-10, 10, (128, 256), generator=gen))
    ws["model.layers.1.self_attn.o_proj.weight"] = p * torch.sign(torch.randn(128, 256, generator=gen))
    ws["model.layers.1.mlp.gate_proj.weight"] = n(300, 260)  # partial blocks (deepseek, exact only)
    return ws


def deepseek_ref(x, dev):
    x = x.to(dev, torch.float32)
    r, c = x.shape
    q = torch.empty(r, c, dtype=FP8, device=dev)
    s = torch.empty((r + BLK - 1) // BLK, (c + BLK - 1) // BLK, dtype=torch.float32, device=dev)
    for i in range(s.shape[0]):
        for j in range(s.shape[1]):
            b = x[i * BLK:(i + 1) * BLK, j * BLK:(j + 1) * BLK]
            amax = b.abs().amax()
            sc = amax / 448.0
            if float(amax) == 0:
                sc = torch.ones((), device=dev)  # the formula's 0/0; clconv writes scale 1
            q[i * BLK:(i + 1) * BLK, j * BLK:(j + 1) * BLK] = (b / sc).to(FP8)
            s[i, j] = sc
    return q.cpu(), s.cpu()


def transformers_ref(x, dev, name):
    from transformers.integrations.finegrained_fp8 import Fp8Quantize
    from transformers import FineGrainedFP8Config
    hq = types.SimpleNamespace(quantization_config=FineGrainedFP8Config(weight_block_size=[BLK, BLK]))
    out = Fp8Quantize(hq).convert({name: x.to(dev)})
    sk = [k for k in out if k != name][0]
    return out[name].cpu(), out[sk].cpu()


def same(a, b):
    """Elements whose bits differ."""
    if a.dtype == FP8:
        a, b = a.view(torch.uint8), b.view(torch.uint8)
    else:
        a, b = a.view(torch.int32), b.view(torch.int32)
    return int((a != b).sum())


def main():
    clconv, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    gen = torch.Generator().manual_seed(7)
    ws = weights(gen)
    devs = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for src_dtype in (torch.bfloat16, torch.float32):
        src = {k: v.to(src_dtype).contiguous() for k, v in ws.items()}
        path = os.path.join(work, f"src-{str(src_dtype)[6:]}.safetensors")
        save_file(src, path)
        outs = {}
        for recipe in ("deepseek", "transformers", "exact"):
            out = os.path.join(work, f"{recipe}-{str(src_dtype)[6:]}.safetensors")
            subprocess.run([clconv, "convert", "-q", "-f", "--to", "e4m3", "--block-size", f"{BLK}x{BLK}",
                            "--recipe", recipe, path, out], check=True)
            outs[recipe] = load_file(out)
        for name, x in src.items():
            whole = x.shape[0] % BLK == 0 and x.shape[1] % BLK == 0
            row = {"check": "recipes", "source": str(src_dtype), "tensor": name, "shape": list(x.shape),
                   "elements": x.numel(), "blocks": outs["exact"][name + "_scale_inv"].numel()}
            for recipe, ref in (("deepseek", deepseek_ref), ("transformers", transformers_ref)):
                if recipe == "transformers" and not whole:
                    row[recipe] = "skipped: transformers refuses shapes that are not whole blocks"
                    continue
                got_q, got_s = outs[recipe][name], outs[recipe][name + "_scale_inv"]
                for dev in devs:
                    rq, rs = ref(x, dev) if recipe == "deepseek" else ref(x, dev, name)
                    row[f"{recipe}_{dev}"] = {"codes_differ": same(got_q, rq), "scales_differ": same(got_s, rs.reshape(got_s.shape))}
            # how far clconv's own recipe is from the others (information)
            row["exact_vs_deepseek"] = {"codes_differ": same(outs["exact"][name], outs["deepseek"][name]),
                                        "scales_differ": same(outs["exact"][name + "_scale_inv"], outs["deepseek"][name + "_scale_inv"])}
            print(json.dumps(row), flush=True)
    load_path(gen)


def load_path(gen):
    """transformers quantizing bf16 weights while loading them."""
    import transformers
    from transformers import AutoModelForCausalLM, FineGrainedFP8Config, LlamaConfig, LlamaForCausalLM
    res = {"check": "load-time quantization", "transformers": transformers.__version__, "torch": torch.__version__}
    try:
        from transformers.quantizers import quantizer_finegrained_fp8 as qf
        src_lines = []
        for name, obj in inspect.getmembers(qf):
            if inspect.isclass(obj) and obj.__module__ == qf.__name__:
                for mname, m in inspect.getmembers(obj, inspect.isfunction):
                    code = inspect.getsource(m)
                    if mname in ("get_quantize_ops", "param_needs_quantization", "create_quantized_param"):
                        src_lines.append(f"# {obj.__name__}.{mname}\n{code}")
        res["quantizer_source"] = "\n".join(src_lines)[:6000]
    except Exception as e:
        res["quantizer_source_error"] = repr(e)
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=1024, hidden_size=256, intermediate_size=512, num_hidden_layers=1,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64)
    src = "/tmp/fp8-load-src"
    LlamaForCausalLM(cfg).to(torch.bfloat16).save_pretrained(src)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    try:
        q = AutoModelForCausalLM.from_pretrained(src, quantization_config=FineGrainedFP8Config(weight_block_size=[BLK, BLK]),
                                                 dtype=torch.bfloat16, device_map=dev)
        sd = load_file(os.path.join(src, "model.safetensors"))
        name = "model.layers.0.mlp.up_proj.weight"
        w = sd[name]
        mod = q.get_submodule(name.rsplit(".", 1)[0])
        got, got_s = mod.weight.detach().cpu(), mod.weight_scale_inv.detach().cpu()
        res["module"] = type(mod).__name__
        fq, fs = transformers_ref(w, dev, name)
        res["load_vs_Fp8Quantize"] = {"codes_differ": same(got, fq), "of": got.numel(),
                                      "scales_differ": same(got_s.float(), fs.reshape(got_s.shape))}
        # the hypothesis: the same formula, computed in the loaded dtype (bfloat16)
        wb = w.to(dev)
        r, c = wb.shape
        blk = wb.reshape(r // BLK, BLK, c // BLK, BLK).permute(0, 2, 1, 3)
        amax = blk.abs().amax(dim=(-1, -2))
        scale = 448.0 / amax
        hq = torch.clamp(blk * scale[..., None, None], -448, 448).to(FP8).permute(0, 2, 1, 3).reshape(r, c).cpu()
        res["load_vs_bf16_formula"] = {"codes_differ": same(got, hq),
                                       "scales_differ": same(got_s.float(), scale.reciprocal().float().cpu().reshape(got_s.shape))}
        # What was quantized? Dequantize the loaded codes and measure them
        # against the source weight, in units of each block's scale, beside
        # Fp8Quantize's own; and try the transposed weight.
        def err(codes, sc):
            d = codes.float().reshape(r // BLK, BLK, c // BLK, BLK) * sc.float().reshape(r // BLK, 1, c // BLK, 1)
            e = (d.reshape(r, c) - w.float()).abs().reshape(r // BLK, BLK, c // BLK, BLK) / sc.float().reshape(r // BLK, 1, c // BLK, 1)
            return {"mean_abs_err_in_scales": float(e.mean()), "max_abs_err_in_scales": float(e.max())}
        res["load_error"] = err(got, got_s)
        res["Fp8Quantize_error"] = err(fq, fs)
        tq, ts = transformers_ref(w.t().contiguous(), dev, name)
        res["load_vs_Fp8Quantize_of_transpose"] = {"codes_differ": same(got, tq.t().contiguous())}
        # The explanation found: the loader casts the weight to the FP8
        # parameter's dtype (no scale) before Fp8Quantize quantizes it.
        cq, cs = transformers_ref(w.to(FP8).to(torch.float32), dev, name)
        res["load_vs_Fp8Quantize_of_weight_cast_to_e4m3_first"] = {"codes_differ": same(got, cq), "scales_differ": same(got_s.float(), cs.reshape(got_s.shape))}
        # which weight does the loaded model hold, dequantized?
        res["loaded_state_dict_keys"] = [k for k in q.state_dict() if "layers.0.mlp.up_proj" in k]
    except Exception as e:
        res["error"] = repr(e)[:2000]
    print(json.dumps(res), flush=True)
    # torch on CUDA divides a tensor by a Python scalar as a multiplication
    # by its float32 reciprocal (the CPU divides): DeepSeek's s = amax / 448.
    if torch.cuda.is_available():
        a = torch.rand(1 << 20, generator=gen) * 10
        cpu = a / 448.0
        cuda = (a.cuda() / 448.0).cpu()
        recip = a * torch.tensor(1 / 448.0, dtype=torch.float32)
        print(json.dumps({"check": "torch scalar division", "values": a.numel(),
                          "cuda_vs_cpu_differ": same(cuda, cpu), "cuda_vs_times_f32_reciprocal_differ": same(cuda, recip)}), flush=True)


if __name__ == "__main__":
    main()
