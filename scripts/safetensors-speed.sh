#!/usr/bin/env bash
# Reproduces docs/SAFETENSORS.md's "Speed" table on this machine: a synthetic
# Llama-shaped F32 checkpoint (scripts/mkcheckpoint) converted to bfloat16 by
# clconv, against cp of the same file, file cache warm, sync between runs.
#   scripts/safetensors-speed.sh [GIB] [RUNS]     (default 4 GiB, 3 runs)
set -euo pipefail
cd "$(dirname "$0")/.."
gib=${1:-4} runs=${2:-3}
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
go build -o "$w/clconv" ./cmd/clconv
go run ./scripts/mkcheckpoint -gib "$gib" "$w/ck.safetensors"
cat "$w/ck.safetensors" >/dev/null
t() { local s e; sync; sleep 1; s=$(date +%s.%N); "$@"; e=$(date +%s.%N); awk "BEGIN{print $e - $s}"; }
echo "input: $(du -h "$w/ck.safetensors" | cut -f1), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for i in $(seq "$runs"); do
  rm -f "$w/cp.out" "$w/bf.safetensors" "$w/bf1.safetensors"
  printf 'run %d: cp %.2f s' "$i" "$(t cp "$w/ck.safetensors" "$w/cp.out")"; rm -f "$w/cp.out"
  printf ', clconv %.2f s' "$(t "$w/clconv" convert -q --to bf16 "$w/ck.safetensors" "$w/bf.safetensors")"
  printf ', clconv --workers 1 %.2f s\n' "$(t "$w/clconv" convert -q --workers 1 --to bf16 "$w/ck.safetensors" "$w/bf1.safetensors")"
done
cmp "$w/bf.safetensors" "$w/bf1.safetensors" && echo "outputs identical"
