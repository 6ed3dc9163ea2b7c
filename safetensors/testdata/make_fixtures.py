#!/usr/bin/env python3
"""Interop fixtures for clconv's safetensors package (Go), from PyTorch's and
safetensors' own writers and readers.

    make_fixtures.py save DIR        writes DIR/torch_all.safetensors with
                                     safetensors.torch.save_file and prints
                                     JSON describing it (save it as
                                     DIR/torch_all.json)
    make_fixtures.py load FILE...    loads each FILE with
                                     safetensors.torch.load_file and
                                     safetensors.numpy.load_file and prints
                                     JSON: per file, loader and tensor, the
                                     dtype, shape and SHA-256 of the raw
                                     little-endian bytes

save stores, for every dtype torch has (float4_e2m1fn_x2 and
float8_e8m0fnu when this torch has them):
  bits_<torch dtype>   fixed bit patterns (all 256 byte values for the
                       one-byte types);
  conv_src             float32 values, and conv_<dtype> = conv_src.to(dtype)
                       for float16, bfloat16, float8_e4m3fn and float8_e5m2
                       (torch's round-to-nearest-even conversions; the Go
                       test compares them with clconv's rte).
The JSON gives, per tensor: "torch_dtype", "torch_shape" (the storage shape:
for float4_e2m1fn_x2, bytes), "bits" (each storage element's bit pattern as
an unsigned integer, in order; for float4_e2m1fn_x2 the bytes, two elements
each, the first in the low nibble) and "sha256" of the raw bytes.

The Go side is safetensors/interop_test.go (CLCONV_SAFETENSORS_INTEROP=DIR).
Needs torch, safetensors and numpy; runs on CPU.
"""
import hashlib
import json
import os
import sys

import numpy as np
import torch
from safetensors import safe_open
from safetensors.torch import load_file as torch_load_file
from safetensors.torch import save_file

# torch dtype name -> (bytes per storage element, unsigned numpy type of that size)
WIDTH = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
DTYPES = [
    "bool", "uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
    "float16", "bfloat16", "float32", "float64",
    "float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu", "float4_e2m1fn_x2",
]


def raw_bytes(t):
    """The tensor's bytes, little-endian on a little-endian host."""
    t = t.detach().cpu().contiguous().reshape(-1)
    return t.view(torch.uint8).numpy().tobytes()


def patterns(name, size):
    """Fixed storage bit patterns: a permutation of all byte values for the
    one-byte types, 0/1 for bool, mixed bits for the rest."""
    if name == "bool":
        return np.array([(i * 7 // 3) % 2 for i in range(64)], dtype=np.uint8)
    if size == 1:
        return ((np.arange(256, dtype=np.uint32) * 167 + 13) % 256).astype(np.uint8)
    i = np.arange(96, dtype=np.uint64)
    with np.errstate(over="ignore"):
        v = (i * np.uint64(0x9E3779B97F4A7C15)) ^ (i << np.uint64(17))
    v = v >> np.uint64(64 - 8 * size) if size < 8 else v
    return v.astype(WIDTH[size])


def save(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    tensors, info = {}, {}
    for name in DTYPES:
        dt = getattr(torch, name, None)
        if dt is None:
            info["bits_" + name] = {"skipped": "this torch has no torch." + name}
            continue
        size = torch.empty(0, dtype=dt).element_size()
        bits = patterns(name, size)
        u8 = torch.from_numpy(bits.view(np.uint8).copy())
        tensors["bits_" + name] = u8.view(dt).reshape(-1)
    src = [float(x) for x in np.linspace(-500, 500, 229)] + [
        0.0, -0.0, 1e-8, -1e-8, 1e-30, 65504.0, 65519.0, 65520.0, -65520.0, 448.0, 464.0, -464.0,
        480.0, 57344.0, 61440.0, -61440.0, 1e5, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-11, 1 + 3 * 2**-11,
        0.5 * 2**-14, 3 * 2**-25, 2**-9, 2**-16, float("inf"), float("-inf"),
    ]
    tensors["conv_src"] = torch.tensor(src, dtype=torch.float32)
    for name in ["float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"]:
        tensors["conv_" + name] = tensors["conv_src"].to(getattr(torch, name))
    path = os.path.join(out_dir, "torch_all.safetensors")
    save_file(tensors, path)
    for k, t in tensors.items():
        b = raw_bytes(t)
        size = t.element_size()
        info[k] = {
            "torch_dtype": str(t.dtype).removeprefix("torch."),
            "torch_shape": list(t.shape),
            "bits": [int(x) for x in np.frombuffer(b, dtype=np.dtype(WIDTH[size]).newbyteorder("<"))],
            "sha256": hashlib.sha256(b).hexdigest(),
        }
    json.dump({"file": "torch_all.safetensors", "torch": torch.__version__, "tensors": info}, sys.stdout, indent=1)
    print()


def describe(t, raw):
    return {"dtype": str(t.dtype), "shape": [int(d) for d in t.shape], "sha256": hashlib.sha256(raw).hexdigest()}


def load_one(path, framework):
    """Every tensor of path: with load_file, or tensor by tensor when
    load_file fails (so that one dtype a loader lacks spoils only itself)."""
    out = {}
    try:
        if framework == "pt":
            loaded = torch_load_file(path)
            return {k: describe(t, raw_bytes(t)) for k, t in loaded.items()}
        from safetensors.numpy import load_file as np_load_file
        loaded = np_load_file(path)
        return {k: describe(a, np.ascontiguousarray(a).reshape(-1).view(np.uint8).tobytes()) for k, a in loaded.items()}
    except Exception as e:  # noqa: BLE001 - reported, then per tensor
        out["_load_file_error"] = repr(e)
    with safe_open(path, framework=framework) as f:
        for k in f.keys():
            try:
                t = f.get_tensor(k)
                raw = raw_bytes(t) if framework == "pt" else np.ascontiguousarray(t).reshape(-1).view(np.uint8).tobytes()
                out[k] = describe(t, raw)
            except Exception as e:  # noqa: BLE001
                out[k] = {"error": repr(e)}
    return out


def load(paths):
    result = {}
    for p in paths:
        entry = {}
        for fw, key in [("pt", "torch"), ("np", "numpy")]:
            try:
                entry[key] = load_one(p, fw)
            except Exception as e:  # noqa: BLE001 - a file a loader rejects
                entry[key] = {"_error": repr(e)}
        result[os.path.basename(p)] = entry
    json.dump({"torch": torch.__version__, "files": result}, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "save":
        save(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "load":
        load(sys.argv[2:])
    else:
        sys.exit(__doc__)
