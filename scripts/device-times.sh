#!/usr/bin/env bash
# Times clconv verify on the GPU machine the way issue 13's targets are
# stated: cold runs (CLCONV_CACHE=off: no program binary or reference cache,
# nor PoCL's or CUDA's kernel caches) and warm ones (a second run with the
# cache the first one filled). Needs what scripts/device-prepare.sh put in
# .cl/. Each run's report, JSON and stderr go to $OUT, with a line per run in
# $OUT/summary.txt (exit status, wall time).
#
# usage: scripts/device-times.sh RUN...   where RUN is one of
#   nvidia-quick   H100 quick, cold then warm
#   nvidia-full    H100 full (every conversion, vector widths, as_type), cold
#   pocl-quick     PoCL quick, cold then warm
#   pocl-quick-cold  PoCL quick, cold only
#   pocl-full      PoCL full, cold (LIMIT=SECONDS stops it with SIGINT)
# Extra clconv verify flags can follow "--".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
runs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do runs+=("$1"); shift; done
if [ "${1:-}" = "--" ]; then shift; fi

if ! ldconfig -p | grep -q 'libOpenCL\.so\.1'; then
  for f in .cl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
mkdir -p /etc/OpenCL/vendors
if [ ! -s /etc/OpenCL/vendors/nvidia.icd ]; then
  lib=$(find / -name libnvidia-opencl.so.1 -not -path '/proc/*' 2>/dev/null | head -1)
  if [ -n "$lib" ]; then echo "$lib" > /etc/OpenCL/vendors/nvidia.icd; fi
fi
{ date -u; echo "cpus: $(nproc)"; command -v nvidia-smi >/dev/null && nvidia-smi -L; } > "$out/host.txt" 2>&1
.cl/clconv devices > "$out/devices.txt" 2>&1

cache=$(mktemp -d)
one() { # name platform cache [flags...]
  local name=$1 platform=$2 c=$3 start status
  shift 3
  start=$(date +%s%N)
  CLCONV_CACHE=$c ${LIMIT:+timeout --preserve-status -s INT "$LIMIT"} .cl/clconv verify --platform "$platform" --no-progress \
    --json-file "$out/$name.json" "$@" > "$out/$name.txt" 2> "$out/$name.err"
  status=$?
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '%s: CLCONV_CACHE=%s clconv verify --platform %s %s -> exit %d in %d.%03ds\n' "$name" "$c" "$platform" "$*" "$status" \
    $((ms / 1000)) $((ms % 1000)) | tee -a "$out/summary.txt"
  tail -1 "$out/$name.txt"
}
for r in "${runs[@]}"; do
  case $r in
  nvidia-quick) one nvidia-quick-cold nvidia off --quick "$@"
    one nvidia-quick-fill nvidia "$cache" --quick "$@"
    one nvidia-quick-warm nvidia "$cache" --quick "$@" ;;
  nvidia-full) one nvidia-full-cold nvidia off "$@" ;;
  pocl-quick) one pocl-quick-cold pocl off --quick "$@"
    one pocl-quick-fill pocl "$cache" --quick "$@"
    one pocl-quick-warm pocl "$cache" --quick "$@" ;;
  pocl-quick-cold) one pocl-quick-cold pocl off --quick "$@" ;;
  pocl-full) one pocl-full-cold pocl off "$@" ;;
  *) echo "device-times: unknown run $r" >&2; exit 2 ;;
  esac
done
rm -rf "$cache"
