#!/usr/bin/env bash
# The ML-format proofs that need the GPU machine's Python stack (torch 2.11,
# safetensors 0.8.0, ml_dtypes 0.6.0, numpy): safetensors interop both ways,
# every float32 through the small formats against ml_dtypes and torch, a
# checkpoint conversion timed against safetensors+torch, and MX quantization
# speed of the peers. Results go to $OUT (device) and then docs/device/ml-*.
#
# Here:   scripts/device-ml.sh build      # binaries into .cl/ (git-ignored)
# There:  scripts/device-ml.sh run        # with .cl carried; writes $OUT/*
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
build)
  mkdir -p .cl
  CGO_ENABLED=0 go build -trimpath -o .cl/clconv ./cmd/clconv
  CGO_ENABLED=0 go build -trimpath -o .cl/mkcheckpoint ./scripts/mkcheckpoint
  CGO_ENABLED=0 go test -c -o .cl/safetensors.test ./safetensors
  CGO_ENABLED=0 go test -c -o .cl/mx.test ./mx
  CGO_ENABLED=0 go test -c -o .cl/checkpoint.test ./checkpoint
  ls -l .cl
  ;;
run)
  OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
  W=$(mktemp -d)
  python3 -c 'import torch, safetensors, ml_dtypes, numpy; print("torch", torch.__version__, "safetensors", safetensors.__version__, "ml_dtypes", ml_dtypes.__version__, "numpy", numpy.__version__)' | tee "$OUT/ml-versions.txt"
  lscpu | grep -m1 'Model name' | tee -a "$OUT/ml-versions.txt"
  echo "== safetensors interop"
  python3 safetensors/testdata/make_fixtures.py save "$W" > "$W/torch_all.json"
  CLCONV_SAFETENSORS_INTEROP="$W" .cl/safetensors.test -test.run TestInterop -test.v > "$OUT/ml-interop.txt" 2>&1 || true
  python3 safetensors/testdata/make_fixtures.py load "$W/go_all.safetensors" > "$W/go_loaded.json" 2>>"$OUT/ml-interop.txt" || true
  CLCONV_SAFETENSORS_INTEROP="$W" .cl/safetensors.test -test.run TestInterop -test.v >> "$OUT/ml-interop.txt" 2>&1 && echo "interop: PASS" | tee -a "$OUT/ml-interop.txt" || echo "interop: FAIL" | tee -a "$OUT/ml-interop.txt"
  tail -3 "$OUT/ml-interop.txt"
  echo "== every float32 through the small formats"
  python3 scripts/ml_oracle.py elements .cl/clconv ${FORMATS:-} | tee "$OUT/ml-elements.jsonl"
  echo "== MX quantization speed (Go benchmarks, one core; peers one thread)"
  taskset -c 2 .cl/mx.test -test.run x -test.bench 'Quantize|Dequantize' -test.count 5 -test.benchtime 20x > "$OUT/ml-mx-bench.txt" 2>&1 || true
  tail -25 "$OUT/ml-mx-bench.txt"
  python3 scripts/ml_oracle.py mx-speed | tee "$OUT/ml-mx-peers.jsonl"
  echo "== checkpoint conversion speed"
  .cl/mkcheckpoint -gib ${GIB:-4} "$W/ck.safetensors"
  python3 scripts/ml_oracle.py checkpoint-speed .cl/clconv "$W/ck.safetensors" | tee "$OUT/ml-checkpoint.jsonl"
  rm -rf "$W"
  ;;
*) echo "usage: $0 build|run"; exit 2 ;;
esac
