#!/usr/bin/env bash
# Runs clconv verify on the GPU machine for its OpenCL platforms: NVIDIA's
# driver ("NVIDIA CUDA") and PoCL 5 ("Portable Computing Language"). See
# docs/VERIFY.md. Needs what scripts/device-prepare.sh put in .cl/ (the
# clconv binary built with -tags opencl, the ICD loader's .debs).
#
# usage: scripts/device-verify.sh [nvidia|pocl|both] [-- VERIFY-FLAGS...]
#   scripts/device-verify.sh                     full run, both platforms
#   scripts/device-verify.sh nvidia -- --quick   one platform, quick
#   TAG=floats scripts/device-verify.sh nvidia -- --only 'float,double'
#
# Writes to $OUT (default ./out): host.txt, clinfo.txt, devices.txt, and per
# platform verify-<platform>[-TAG].txt (the report), .json and .err, and
# summary.txt (exit status and wall time of each run). Full runs take their
# reference digests from the ones shipped in the binary; whatever the CPU
# does compute (only with --no-shipped-reference) is kept in
# .cl/reference.tsv and copied to $OUT.
# LIMIT=SECONDS stops each platform's run with SIGINT after that long, so
# that it still writes its report (verdict INCOMPLETE, the rest "not run").
# clconv verify exits 1 when a device fails a check (130 when interrupted);
# this script goes on and records that status.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
platforms=both
if [ $# -gt 0 ] && [ "$1" != "--" ]; then platforms=$1; shift; fi
if [ "${1:-}" = "--" ]; then shift; fi
tag=${TAG:+-$TAG}

if [ ! -x .cl/clconv ]; then
  echo "device-verify: .cl/clconv missing: run scripts/device-prepare.sh where Go and apt work" >&2
  exit 2
fi

# The ICD loader and the NVIDIA ICD entry (../shared/docs/ORACLES.md).
if ! ldconfig -p | grep -q 'libOpenCL\.so\.1'; then
  for f in .cl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
mkdir -p /etc/OpenCL/vendors
if [ ! -s /etc/OpenCL/vendors/nvidia.icd ]; then
  lib=$(find / -name libnvidia-opencl.so.1 -not -path '/proc/*' 2>/dev/null | head -1)
  if [ -n "$lib" ]; then echo "$lib" > /etc/OpenCL/vendors/nvidia.icd; fi
fi

{
  date -u
  uname -a
  echo "cpus: $(nproc)"
  command -v nvidia-smi >/dev/null && nvidia-smi -L && nvidia-smi --query-gpu=driver_version --format=csv,noheader
  ls -l /etc/OpenCL/vendors
} > "$out/host.txt" 2>&1
(clinfo -l || true) > "$out/clinfo.txt" 2>&1
.cl/clconv devices -v > "$out/devices.txt" 2>&1

run() {
  local name=$1 pattern=$2
  shift 2
  local start status
  start=$(date +%s)
  ${LIMIT:+timeout --preserve-status -s INT "$LIMIT"} .cl/clconv verify --platform "$pattern" --no-progress --reference .cl/reference.tsv \
    --json-file "$out/verify-$name$tag.json" "$@" > "$out/verify-$name$tag.txt" 2> "$out/verify-$name$tag.err"
  status=$?
  echo "$name$tag: clconv verify $* -> exit $status in $(( $(date +%s) - start ))s" | tee -a "$out/summary.txt"
  tail -1 "$out/verify-$name$tag.txt"
}
case $platforms in
nvidia | both) run nvidia nvidia "$@" ;;
esac
case $platforms in
pocl | both) run pocl pocl "$@" ;;
esac
case $platforms in
nvidia | pocl | both) ;;
*) echo "device-verify: unknown platform choice '$platforms' (want nvidia, pocl or both)" >&2; exit 2 ;;
esac
if [ -f .cl/reference.tsv ]; then cp .cl/reference.tsv "$out/reference.tsv"; fi
