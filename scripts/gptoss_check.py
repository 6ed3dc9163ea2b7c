#!/usr/bin/env python3
"""gpt-oss's MXFP4 layout, both ways, with transformers itself (issue 42).

  python3 scripts/gptoss_check.py CLCONV WORKDIR

transformers makes and saves a tiny random gpt-oss (bf16). clconv quantizes
the saved directory (`convert --to mxfp4`: the experts only, in gpt-oss's
layout, with gpt-oss's quantization_config) and dequantizes that back
(`convert --to bf16`). Checks, printed as JSON lines:
  mxfp4: transformers loads clconv's MXFP4 directory as written (its Mxfp4
         quantizer; without the triton kernels it dequantizes the experts
         with convert_moe_packed_tensors), and every tensor it holds equals
         the bf16 load of clconv's own dequantization bit for bit; its
         logits are compared with the source model's.
  bf16:  clconv's dequantized directory loads as a plain bf16 gpt-oss (the
         experts back in [E, in, out]).
"""
import json
import os
import subprocess
import sys

import torch
from transformers import AutoModelForCausalLM, GptOssConfig, GptOssForCausalLM


def main():
    clconv, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    torch.manual_seed(0)
    cfg = GptOssConfig(vocab_size=512, hidden_size=128, intermediate_size=96, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=2, head_dim=32, num_local_experts=4,
                       num_experts_per_tok=2, max_position_embeddings=128, sliding_window=32,
                       layer_types=["sliding_attention", "full_attention"])
    model = GptOssForCausalLM(cfg).to(torch.bfloat16)
    src = os.path.join(work, "src")
    model.save_pretrained(src)
    ids = torch.randint(0, cfg.vocab_size, (2, 16), generator=torch.Generator().manual_seed(1))
    mx = os.path.join(work, "mxfp4")
    back = os.path.join(work, "back")
    subprocess.run([clconv, "convert", "-q", "-f", "--to", "mxfp4", src, mx], check=True)
    subprocess.run([clconv, "convert", "-q", "-f", "--to", "bf16", mx, back], check=True)
    from safetensors import safe_open
    with safe_open(os.path.join(mx, "model.safetensors"), "pt") as f:
        written = {k: (str(f.get_slice(k).get_dtype()), f.get_slice(k).get_shape()) for k in f.keys() if "layers.0." in k}
    with open(os.path.join(mx, "config.json")) as f:
        qc = json.load(f).get("quantization_config")
    res = {"check": "mxfp4", "quantization_config": qc, "layer0_tensors": written}
    ref = AutoModelForCausalLM.from_pretrained(src, dtype=torch.bfloat16)
    with torch.no_grad():
        lr = ref(ids).logits
    try:
        q = AutoModelForCausalLM.from_pretrained(mx, dtype=torch.bfloat16)
        b = AutoModelForCausalLM.from_pretrained(back, dtype=torch.bfloat16)
        qs, bs = q.state_dict(), b.state_dict()
        differ = [k for k in bs if k not in qs or qs[k].shape != bs[k].shape or
                  not torch.equal(qs[k].float().view(torch.int32), bs[k].float().view(torch.int32))]
        with torch.no_grad():
            lq, lb = q(ids).logits, b(ids).logits
        experts = [k for k in qs if "experts.gate_up_proj" in k and "bias" not in k]
        res.update({
            "loaded_mxfp4": True, "quantizer": type(getattr(q, "hf_quantizer", None)).__name__,
            "experts_loaded_shape": list(qs[experts[0]].shape) if experts else None,
            "tensors": len(bs), "tensors_differing_from_clconv_bf16": differ,
            "logits_mxfp4_equal_clconv_bf16": bool(torch.equal(lq, lb)),
            "max_abs_logit_diff_vs_source": float((lq.float() - lr.float()).abs().max()),
            "max_abs_logit": float(lr.float().abs().max()),
            "max_abs_expert_diff_vs_source": max(float((qs[k].float() - ref.state_dict()[k].float()).abs().max()) for k in experts),
        })
    except Exception as e:  # report, do not hide
        res.update({"loaded_mxfp4": False, "error": repr(e)[:3000]})
    print(json.dumps(res), flush=True)


if __name__ == "__main__":
    main()
