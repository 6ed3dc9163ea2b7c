#!/usr/bin/env python3
"""clconv against the Python ML stack (ml_dtypes, PyTorch, safetensors) on the
GPU machine: scripts/device-ml.sh runs it. Every part prints one JSON object
per line, which the script collects into docs/device/ml-*.json.

    ml_oracle.py elements CLCONV           all 2^32 float32 inputs through
        clconv (convert --from float --to FMT, rte) and through ml_dtypes and
        torch where they have the format: counts of agreement and every class
        of difference with examples
    ml_oracle.py checkpoint-speed CLCONV FILE
        FILE (F32 safetensors) -> bfloat16 with safetensors + torch (1 thread
        and all threads) and with clconv, file cache warm, wall seconds
    ml_oracle.py mx-speed                  MX block quantization (float32 ->
        MXFP8 E4M3 and MXFP4, amax, floor scale, elements) in numpy+ml_dtypes
        and in torch, one thread, from memory: elements per second
"""
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import ml_dtypes
import numpy as np

CHUNK = 1 << 26  # inputs per chunk: 64 Mi float32 = 256 MiB

# format -> (clconv name, ml_dtypes dtype, torch dtype name or None)
FORMATS = {
    "e2m1": ("e2m1", ml_dtypes.float4_e2m1fn, None),
    "e2m3": ("e2m3", ml_dtypes.float6_e2m3fn, None),
    "e3m2": ("e3m2", ml_dtypes.float6_e3m2fn, None),
    "e8m0": ("e8m0", ml_dtypes.float8_e8m0fnu, "float8_e8m0fnu"),
    "e4m3": ("e4m3", ml_dtypes.float8_e4m3fn, "float8_e4m3fn"),
    "e5m2": ("e5m2", ml_dtypes.float8_e5m2, "float8_e5m2"),
}


def classify(x):
    """A name for the class of float32 input bits x."""
    f = np.uint32(x).view(np.float32)
    if np.isnan(f):
        return "nan"
    if np.isinf(f):
        return "inf"
    if f == 0:
        return "zero"
    e = (int(x) >> 23) & 0xFF
    if e == 0:
        return "subnormal"
    return "negative" if f < 0 else "normal"


def chunk(args):
    fmt, k, clconv = args
    name, mldt, tname = FORMATS[fmt]
    bits = np.arange(k * CHUNK, (k + 1) * CHUNK, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    p = subprocess.run([clconv, "convert", "-q", "--workers", "1", "--from", "float", "--to", name, "--round", "rte", "-", "-"],
                       input=x.tobytes(), capture_output=True, check=True)
    got = np.frombuffer(p.stdout, dtype=np.uint8)
    with np.errstate(all="ignore"):
        ml = x.astype(mldt).view(np.uint8)
    res = {"n": len(bits), "ml_diff": 0, "ml_ex": {}, "torch_diff": 0, "torch_ex": {}}
    d = np.nonzero(got != ml)[0]
    res["ml_diff"] = int(len(d))
    for i in d[: 200000]:
        c = classify(bits[i])
        ex = res["ml_ex"].setdefault(c, [0, []])
        ex[0] += 1
        if len(ex[1]) < 4:
            ex[1].append([hex(int(bits[i])), repr(float(x[i])), hex(int(got[i])), hex(int(ml[i]))])
    if tname is not None:
        import torch
        torch.set_num_threads(1)
        tv = torch.from_numpy(x.copy()).to(getattr(torch, tname)).view(torch.uint8).numpy()
        d = np.nonzero(got != tv)[0]
        res["torch_diff"] = int(len(d))
        for i in d[: 200000]:
            c = classify(bits[i])
            ex = res["torch_ex"].setdefault(c, [0, []])
            ex[0] += 1
            if len(ex[1]) < 4:
                ex[1].append([hex(int(bits[i])), repr(float(x[i])), hex(int(got[i])), hex(int(tv[i]))])
    return res


def elements(clconv, formats):
    for fmt in formats:
        t0 = time.time()
        tot = {"format": fmt, "inputs": 0, "ml_dtypes_differ": 0, "torch_differ": 0, "ml_dtypes_classes": {}, "torch_classes": {}}
        with ProcessPoolExecutor(max_workers=os.cpu_count()) as ex:
            for r in ex.map(chunk, [(fmt, k, clconv) for k in range((1 << 32) // CHUNK)]):
                tot["inputs"] += r["n"]
                tot["ml_dtypes_differ"] += r["ml_diff"]
                tot["torch_differ"] += r["torch_diff"]
                for src, dst in (("ml_ex", "ml_dtypes_classes"), ("torch_ex", "torch_classes")):
                    for c, (n, exs) in r[src].items():
                        e = tot[dst].setdefault(c, {"count": 0, "examples": []})
                        e["count"] += n
                        e["examples"] = (e["examples"] + exs)[:6]
        tot["torch_has_format"] = FORMATS[fmt][2] is not None
        tot["seconds"] = round(time.time() - t0, 1)
        tot["columns"] = "input bits, input, clconv rte, peer"
        print(json.dumps(tot), flush=True)


def checkpoint_speed(clconv, path):
    import torch
    from safetensors.torch import load_file, save_file
    subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)
    out = {"file": path, "bytes": os.path.getsize(path), "ncpu": os.cpu_count()}
    for threads in (1, os.cpu_count()):
        torch.set_num_threads(threads)
        best = None
        for _ in range(2):
            t0 = time.time()
            sd = load_file(path)
            sd = {k: v.to(torch.bfloat16) for k, v in sd.items()}
            save_file(sd, "/tmp/py_bf16.safetensors", metadata={"format": "pt"})
            dt = time.time() - t0
            best = dt if best is None else min(best, dt)
            del sd
        out[f"torch_{threads}_threads_s"] = round(best, 2)
    best = None
    for _ in range(3):
        if os.path.exists("/tmp/cl_bf16.safetensors"):
            os.remove("/tmp/cl_bf16.safetensors")
        t0 = time.time()
        subprocess.run([clconv, "convert", "-q", "--to", "bf16", path, "/tmp/cl_bf16.safetensors"], check=True)
        dt = time.time() - t0
        best = dt if best is None else min(best, dt)
    out["clconv_all_cores_s"] = round(best, 2)
    best = None
    for _ in range(3):
        os.remove("/tmp/cl_bf16.safetensors")
        t0 = time.time()
        subprocess.run([clconv, "convert", "-q", "--workers", "1", "--to", "bf16", path, "/tmp/cl_bf16.safetensors"], check=True)
        best = min(best or 1e9, time.time() - t0)
    out["clconv_1_worker_s"] = round(best, 2)
    best = None
    for _ in range(3):
        if os.path.exists("/tmp/cp.out"):
            os.remove("/tmp/cp.out")
        t0 = time.time()
        subprocess.run(["cp", path, "/tmp/cp.out"], check=True)
        best = min(best or 1e9, time.time() - t0)
    out["cp_s"] = round(best, 2)
    # The two outputs hold the same tensors with the same bits (torch's .to
    # rounds to nearest even, as clconv's default rte).
    a, b = load_file("/tmp/py_bf16.safetensors"), load_file("/tmp/cl_bf16.safetensors")
    out["same_tensors"] = sorted(a) == sorted(b) and all(torch.equal(a[k].view(torch.int16), b[k].view(torch.int16)) for k in a)
    print(json.dumps(out), flush=True)


def mx_speed():
    import torch
    torch.set_num_threads(1)
    n = 1 << 23  # 8 Mi elements, from memory
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(n) * np.exp2(rng.integers(-8, 8, n // 32)).repeat(32)).astype(np.float32)
    out = {"elements": n}

    def np_mx(x, elem, emax):
        b = x.reshape(-1, 32)
        amax = np.abs(b).max(axis=1)
        e = np.floor(np.log2(np.maximum(amax, np.float32(2.0 ** -127)))) - emax
        scale = np.exp2(e).astype(np.float32)
        q = (b / scale[:, None]).astype(elem)
        return q, (e + 127).astype(np.uint8)

    for name, elem, emax in (("mxfp8_e4m3", ml_dtypes.float8_e4m3fn, 8), ("mxfp4", ml_dtypes.float4_e2m1fn, 2)):
        best = 1e9
        for _ in range(3):
            t0 = time.time()
            np_mx(x, elem, emax)
            best = min(best, time.time() - t0)
        out[f"ml_dtypes_{name}_gelem_s"] = round(n / best / 1e9, 4)
    tx = torch.from_numpy(x)
    best = 1e9
    for _ in range(3):
        t0 = time.time()
        b = tx.view(-1, 32)
        amax = b.abs().amax(dim=1).clamp_min(2.0 ** -127)
        e = torch.floor(torch.log2(amax)) - 8
        q = (b / torch.exp2(e)[:, None]).to(torch.float8_e4m3fn)
        s = (e + 127).to(torch.uint8)
        best = min(best, time.time() - t0)
    out["torch_mxfp8_e4m3_gelem_s"] = round(n / best / 1e9, 4)
    best = 1e9
    for _ in range(3):
        t0 = time.time()
        q.to(torch.float32).view(-1, 32) * torch.exp2(s.to(torch.float32) - 127)[:, None]
        best = min(best, time.time() - t0)
    out["torch_mxfp8_e4m3_dequant_gelem_s"] = round(n / best / 1e9, 4)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "elements":
        elements(sys.argv[2], sys.argv[3:] or list(FORMATS))
    elif cmd == "checkpoint-speed":
        checkpoint_speed(sys.argv[2], sys.argv[3])
    elif cmd == "mx-speed":
        mx_speed()
    else:
        sys.exit(__doc__)
