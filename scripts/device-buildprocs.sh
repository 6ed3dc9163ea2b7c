#!/usr/bin/env bash
# Times a cold and a warm clconv verify --quick of two clconv builds side by
# side on the GPU machine (issue 30: programs built in build processes).
# Expects, in the folder of this script: clconv-base and clconv-new (built
# with -tags opencl) and the ICD loader's .deb (ocl-icd-libopencl1_*.deb);
# the run tool carries that folder (e.g. carry [".cl/verifypar"]).
#
# usage: device-buildprocs.sh RUN...  where RUN is one of
#   base-cold new-cold          CLCONV_CACHE=off (nothing cached, CUDA's and
#                               PoCL's kernel caches off), NVIDIA
#   new-cold-cuda               as new-cold, but with a CUDA kernel cache of
#                               the run's own (empty at the start)
#   new-cold-p6                 new-cold with --build-procs 6
#   base-warm new-warm          a fresh cache: a first (cold) run fills it
#                               ("-fill"), a second runs warm; NVIDIA
#   base-pocl-cold new-pocl-cold  CLCONV_CACHE=off, PoCL
#   base-pocl-warm new-pocl-warm  as base-warm, new-warm, PoCL
#   new-cold-prof new-warm-prof   new-cold, new-warm with a CPU profile
#                               (a clconv-new built to write one where
#                               CLCONV_CPUPROFILE says)
# Each run's report, JSON and stderr go to $OUT/r/, a line per run to
# $OUT/summary.txt; $OUT/r.tgz holds them all.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-out}
mkdir -p "$out/r"
if ! ldconfig -p | grep -q 'libOpenCL\.so\.1'; then
  for f in "$here"/ocl-icd-libopencl1_*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
mkdir -p /etc/OpenCL/vendors
if [ ! -s /etc/OpenCL/vendors/nvidia.icd ]; then
  lib=$(find / -name libnvidia-opencl.so.1 -not -path '/proc/*' 2>/dev/null | head -1)
  if [ -n "$lib" ]; then echo "$lib" > /etc/OpenCL/vendors/nvidia.icd; fi
fi
{ date -u; echo "cpus: $(nproc)"; uptime; command -v nvidia-smi >/dev/null && nvidia-smi -L; } > "$out/host.txt" 2>&1
"$here/clconv-new" devices > "$out/devices.txt" 2>&1
tmp=$(mktemp -d)

one() { # name binary platform "VAR=value ..." [flags...]
  local name=$1 bin=$here/clconv-$2 platform=$3 vars=$4 start status
  shift 4
  start=$(date +%s%N)
  env $vars timeout --preserve-status -s INT "${LIMIT:-150}" "$bin" verify --platform "$platform" --quick --no-progress \
    --json-file "$out/r/$name.json" "$@" > "$out/r/$name.txt" 2> "$out/r/$name.err"
  status=$?
  local ms=$(( ($(date +%s%N) - start) / 1000000 ))
  printf '%-16s %s %s %s -> exit %d in %d.%03ds\n' "$name" "$vars" "$platform" "$*" "$status" \
    $((ms / 1000)) $((ms % 1000)) | tee -a "$out/summary.txt"
  grep -A1 '^TIME' "$out/r/$name.txt" | tail -1 | tee -a "$out/summary.txt"
}
for r in "$@"; do
  case $r in
  base-cold|new-cold) one "$r" "${r%-cold}" nvidia "CLCONV_CACHE=off" ;;
  base-cold2|new-cold2) one "$r" "${r%-cold2}" nvidia "CLCONV_CACHE=off" ;;
  new-cold-cuda) one "$r" new nvidia "CLCONV_CACHE=off CUDA_CACHE_DISABLE=0 CUDA_CACHE_PATH=$tmp/cuda-$r" ;;
  new-cold-p6) one "$r" new nvidia "CLCONV_CACHE=off" --build-procs 6 ;;
  base-warm|new-warm)
    v="CLCONV_CACHE=$tmp/cache-$r CUDA_CACHE_PATH=$tmp/cuda-$r"
    one "${r%-warm}-fill" "${r%-warm}" nvidia "$v"
    one "$r" "${r%-warm}" nvidia "$v" ;;
  base-pocl-warm|new-pocl-warm)
    v="CLCONV_CACHE=$tmp/cache-$r"
    one "${r%-warm}-fill" "${r%-pocl-warm}" pocl "$v"
    one "$r" "${r%-pocl-warm}" pocl "$v" ;;
  new-cold-prof) one "$r" new nvidia "CLCONV_CACHE=off CLCONV_CPUPROFILE=$out/r/$r.prof" ;;
  new-warm-prof) v="CLCONV_CACHE=$tmp/cache-$r CUDA_CACHE_PATH=$tmp/cuda-$r"
    one new-fill-prof new nvidia "$v"
    one "$r" new nvidia "$v CLCONV_CPUPROFILE=$out/r/$r.prof" ;;
  base-pocl-cold|new-pocl-cold) b=${r%-pocl-cold}; one "$r" "$b" pocl "CLCONV_CACHE=off" ;;
  *) echo "unknown run $r" >&2 ;;
  esac
done
rm -rf "$tmp"
tar czf "$out/r.tgz" -C "$out" r && rm -rf "$out/r"
