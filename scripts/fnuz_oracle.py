#!/usr/bin/env python3
"""clconv's FNUZ FP8 formats (issue 44) against ml_dtypes and PyTorch, for the
GPU machine (ml_dtypes 0.6, torch 2.11). Every part prints one JSON object per
line; nothing here has run on the development machine, which has neither
library.

    fnuz_oracle.py elements CLCONV [FMT...]
        all 2^32 float32 inputs -> e4m3fnuz / e5m2fnuz: clconv convert
        --from float --to FMT --round rte (no _sat), against ml_dtypes'
        astype(float8_e4m3fnuz / float8_e5m2fnuz), torch CPU .to(torch.
        float8_e4m3fnuz / float8_e5m2fnuz), and torch CUDA .to() when a GPU is
        there; counts of agreement and every class of difference with
        examples. The formats have one NaN pattern (0x80), so the bytes are
        compared as they are: a NaN must be 0x80 on both sides.
    fnuz_oracle.py decode CLCONV
        all 256 codes of each format -> float32 through clconv, ml_dtypes and
        torch: the values must be equal (NaN to NaN, whatever its bits).

Expected (docs/FORMATS.md, R3, R5-R7 for the FNUZ rows): no difference at
all. clconv's rte without _sat gives the NaN 0x80 for overflow, infinities
and NaNs, as both libraries do, and +0 for every result of -0.
"""
import json
import multiprocessing
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import ml_dtypes
import numpy as np

CHUNK = 1 << 26  # inputs per chunk: 64 Mi float32 = 256 MiB

# format -> (ml_dtypes dtype, torch dtype name)
FORMATS = {
    "e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, "float8_e4m3fnuz"),
    "e5m2fnuz": (ml_dtypes.float8_e5m2fnuz, "float8_e5m2fnuz"),
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
    if (int(x) >> 23) & 0xFF == 0:
        return "subnormal"
    return "negative" if f < 0 else "normal"


def clconv_bytes(clconv, fmt, x):
    p = subprocess.run([clconv, "convert", "-q", "--workers", "1", "--from", "float", "--to", fmt, "--round", "rte", "-", "-"],
                       input=x.tobytes(), capture_output=True, check=True)
    return np.frombuffer(p.stdout, dtype=np.uint8)


def diff(res, key, bits, x, got, peer):
    d = np.nonzero(got != peer)[0]
    res[key + "_diff"] = int(len(d))
    ex = res.setdefault(key + "_ex", {})
    for i in d[:200000]:
        e = ex.setdefault(classify(bits[i]), [0, []])
        e[0] += 1
        if len(e[1]) < 4:
            e[1].append([hex(int(bits[i])), repr(float(x[i])), hex(int(got[i])), hex(int(peer[i]))])


def chunk(args):
    fmt, k, clconv, cuda = args
    mldt, tname = FORMATS[fmt]
    bits = np.arange(k * CHUNK, (k + 1) * CHUNK, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    got = clconv_bytes(clconv, fmt, x)
    res = {"n": len(bits)}
    with np.errstate(all="ignore"):
        diff(res, "ml_dtypes", bits, x, got, x.astype(mldt).view(np.uint8))
    import torch
    torch.set_num_threads(1)
    t = torch.from_numpy(x.copy())
    diff(res, "torch_cpu", bits, x, got, t.to(getattr(torch, tname)).view(torch.uint8).numpy())
    if cuda:
        diff(res, "torch_cuda", bits, x, got, t.cuda().to(getattr(torch, tname)).view(torch.uint8).cpu().numpy())
    return res


def elements(clconv, formats):
    import torch
    cuda = torch.cuda.is_available()
    peers = ["ml_dtypes", "torch_cpu"] + (["torch_cuda"] if cuda else [])
    for fmt in formats:
        t0 = time.time()
        tot = {"format": fmt, "inputs": 0, "columns": "input bits, input, clconv rte, peer"}
        for p in peers:
            tot[p + "_differ"], tot[p + "_classes"] = 0, {}
        # CUDA in forked workers is not allowed: spawned ones then.
        ctx = multiprocessing.get_context("spawn" if cuda else "fork")
        with ProcessPoolExecutor(max_workers=min(os.cpu_count(), 8 if cuda else 64), mp_context=ctx) as ex:
            for r in ex.map(chunk, [(fmt, k, clconv, cuda) for k in range((1 << 32) // CHUNK)]):
                tot["inputs"] += r["n"]
                for p in peers:
                    tot[p + "_differ"] += r[p + "_diff"]
                    for c, (n, exs) in r[p + "_ex"].items():
                        e = tot[p + "_classes"].setdefault(c, {"count": 0, "examples": []})
                        e["count"] += n
                        e["examples"] = (e["examples"] + exs)[:6]
        tot["seconds"] = round(time.time() - t0, 1)
        print(json.dumps(tot), flush=True)


def decode(clconv):
    import torch
    for fmt, (mldt, tname) in FORMATS.items():
        codes = np.arange(256, dtype=np.uint8)
        p = subprocess.run([clconv, "convert", "-q", "--from", fmt, "--to", "float", "-", "-"],
                           input=codes.tobytes(), capture_output=True, check=True)
        got = np.frombuffer(p.stdout, dtype=np.float32)
        peers = {"ml_dtypes": codes.view(mldt).astype(np.float32),
                 "torch_cpu": torch.from_numpy(codes.copy()).view(getattr(torch, tname)).float().numpy()}
        out = {"format": fmt}
        for name, v in peers.items():
            bad = [int(c) for c in codes if not (got[c] == v[c] or (np.isnan(got[c]) and np.isnan(v[c])))]
            out[name + "_differ"] = [hex(c) for c in bad]
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("elements", "decode"):
        sys.exit(__doc__)
    if sys.argv[1] == "elements":
        elements(sys.argv[2], sys.argv[3:] or list(FORMATS))
    else:
        decode(sys.argv[2])
