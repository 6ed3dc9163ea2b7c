#!/usr/bin/env bash
# Prepares the git-ignored folder .cl/ for scripts/device-verify.sh, on a
# machine with Go, cgo, ocl-icd-opencl-dev and package access (this one):
#   .cl/clconv   clconv built with OpenCL (go build -tags opencl)
#   .cl/*.deb    the OpenCL ICD loader and clinfo, which the GPU machine lacks
# The GPU machine has no network: everything it runs comes from here.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cl
go build -tags opencl -trimpath -o .cl/clconv ./cmd/clconv
echo "built .cl/clconv ($(go version | cut -d' ' -f3), tags opencl)"
if ! ls .cl/ocl-icd-libopencl1_*.deb >/dev/null 2>&1 || ! ls .cl/clinfo_*.deb >/dev/null 2>&1; then
  lists=$(mktemp -d)
  mkdir -p "$lists/partial"
  apt-get -qq -oDir::State::Lists="$lists" update
  (cd .cl && apt-get -qq -oDir::State::Lists="$lists" download ocl-icd-libopencl1 clinfo)
  rm -rf "$lists"
fi
ls -l .cl
