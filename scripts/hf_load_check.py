#!/usr/bin/env python3
"""A converted model is a model (issue 42): transformers itself makes and
saves a tiny random Llama (float32 safetensors), clconv converts the saved
directory, and transformers loads clconv's output directory as written.

  python3 scripts/hf_load_check.py CLCONV WORKDIR

Checks, printed as JSON lines:
  bf16: AutoModelForCausalLM.from_pretrained(clconv's bf16 directory) loads
        with no argument, and its weights and logits equal, bit for bit,
        transformers' own bf16 load of the source
        (from_pretrained(src, dtype=torch.bfloat16)).
  fp8:  clconv's FP8 128x128 quantization (--recipe transformers; the
        linear layers, by default) loads as it is, through transformers'
        FP8 quantizer (FP8Linear modules), whose weights and scales are
        compared byte for byte with transformers' own Fp8Quantize of the
        source weights; then through FineGrainedFP8Config(dequantize=True)
        (the FP8 matmul needs the `kernels` package), whose logits are
        compared with the bf16 model's (close, not equal: FP8 loses bits).
Runs on the GPU machine (transformers 5.17, torch 2.11); CPU works too.
"""
import json
import os
import subprocess
import sys

import torch
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM


def main():
    clconv, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=1024, hidden_size=256, intermediate_size=512,
                      num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                      max_position_embeddings=128, tie_word_embeddings=False)
    model = LlamaForCausalLM(cfg).to(torch.float32)
    src = os.path.join(work, "src")
    model.save_pretrained(src)
    with open(os.path.join(src, "README.md"), "w") as f:
        f.write("a tiny random Llama\n")
    ids = torch.randint(0, cfg.vocab_size, (2, 16), generator=torch.Generator().manual_seed(1))

    out = os.path.join(work, "bf16")
    subprocess.run([clconv, "convert", "--to", "bf16", src, out], check=True)
    got = AutoModelForCausalLM.from_pretrained(out)
    ref = AutoModelForCausalLM.from_pretrained(src, dtype=torch.bfloat16)
    gs, rs = got.state_dict(), ref.state_dict()
    diff = [k for k in rs if k not in gs or gs[k].dtype != rs[k].dtype or not torch.equal(gs[k].view(torch.int16) if gs[k].dtype == torch.bfloat16 else gs[k], rs[k].view(torch.int16) if rs[k].dtype == torch.bfloat16 else rs[k])]
    with torch.no_grad():
        lg, lr = got(ids).logits, ref(ids).logits
    print(json.dumps({
        "check": "bf16", "files": sorted(os.listdir(out)),
        "loaded_dtype": str(next(got.parameters()).dtype),
        "tensors": len(rs), "tensors_differing": diff,
        "logits_equal": bool(torch.equal(lg, lr)),
    }))

    fp8 = os.path.join(work, "fp8")
    # The linear layers by default; transformers' own formula (--recipe transformers).
    subprocess.run([clconv, "convert", "--to", "e4m3", "--block-size", "128x128",
                    "--recipe", "transformers", src, fp8], check=True)
    with open(os.path.join(fp8, "config.json")) as f:
        qc = json.load(f).get("quantization_config")
    res = {"check": "fp8", "quantization_config": qc}
    try:
        from transformers import FineGrainedFP8Config
        from transformers.integrations.finegrained_fp8 import Fp8Quantize
        import types
        from safetensors.torch import load_file
        dev = "cuda" if torch.cuda.is_available() else "cpu"
        # Loaded as FP8 (FP8Linear modules, not dequantized): their bytes
        # are compared with transformers' Fp8Quantize of the source weights.
        q = AutoModelForCausalLM.from_pretrained(fp8, device_map=dev)
        srcw = load_file(os.path.join(src, "model.safetensors"))
        fq = Fp8Quantize(types.SimpleNamespace(quantization_config=FineGrainedFP8Config(weight_block_size=[128, 128])))
        kinds, differ, compared = {}, [], 0
        for name, mod in q.named_modules():
            kinds[type(mod).__name__] = kinds.get(type(mod).__name__, 0) + 1
            if type(mod).__name__ != "FP8Linear":
                continue
            ref = fq.convert({name + ".weight": srcw[name + ".weight"].to(dev)})
            rw, rs = ref[name + ".weight"].cpu(), ref[name + ".weight_scale_inv"].cpu()
            gw, gs = mod.weight.detach().cpu(), mod.weight_scale_inv.detach().cpu()
            compared += 1
            if not (torch.equal(gw.view(torch.uint8), rw.view(torch.uint8)) and torch.equal(gs.view(torch.int32), rs.reshape(gs.shape).view(torch.int32))):
                differ.append(name)
        res.update({"fp8_loaded_modules": {k: v for k, v in kinds.items() if k in ("FP8Linear", "Linear", "Embedding")},
                    "fp8_linear_compared": compared, "fp8_linear_differing_from_Fp8Quantize": differ})
        del q
        # The forward pass through dequantization (the FP8 matmul needs `kernels`).
        q = AutoModelForCausalLM.from_pretrained(fp8, quantization_config=FineGrainedFP8Config(dequantize=True), dtype=torch.bfloat16)
        with torch.no_grad():
            lq = q(ids).logits
        res.update({"loaded": True, "max_abs_logit_diff_vs_bf16": float((lq.float() - lr.float()).abs().max()),
                    "max_abs_logit": float(lr.float().abs().max())})
    except Exception as e:  # report, do not hide
        res.update({"loaded": False, "error": repr(e)[:2000]})
    print(json.dumps(res))


if __name__ == "__main__":
    main()
